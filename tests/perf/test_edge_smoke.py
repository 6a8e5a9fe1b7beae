"""Smoke test of the EDGE benchmark: quick mode runs end to end and reports every measure.

No timing assertions (timings depend on the machine); this keeps the harness from rotting.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from perf.edge import QUICK, SECTION_BEGIN, SECTION_END, synthetic_catalog, update_results_md
from edge import OfflineProposer, Retriever

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_writes_every_measure(tmp_path: Path) -> None:
    out = tmp_path / "results"
    md = tmp_path / "RESULTS.md"
    md.write_text("# Results\n\n<!-- replay:begin x -->\nreplay numbers\n<!-- replay:end -->\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "perf.edge", "--quick", "--out", str(out), "--markdown", str(md)],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((out / "edge.json").read_text(encoding="utf-8"))
    assert doc["benchmark"] == "edge" and doc["mode"] == "quick"
    assert doc["command"] == "python -m perf.edge --quick"
    assert [r["tools"] for r in doc["candidates"]] == list(QUICK.sizes)
    for row in doc["candidates"]:
        n = row["tools"]
        assert 0 < row["candidate_pairs"] < row["all_ordered_pairs"] == n * (n - 1), n
        assert row["retrieval"]["median_s"] > 0 and row["proposal"]["median_s"] > 0, n
        assert 0 < row["proposals_same_concept"] <= row["proposals"], n
        assert row["transforms"] > 0, n  # the 10-digit families are bound through slice:0:6
    last = doc["candidates"][-1]
    # The growth exponents are written (their size is a timing: the benchmark's to report, not
    # this test's to bound; a loaded CI machine read a proposal exponent of -0.21 once).
    assert math.isfinite(last["retrieval_exponent"]) and math.isfinite(last["proposal_exponent"])
    v = doc["verification"]
    assert v["tools"] == QUICK.verify_tools and v["edges"] > 0
    assert v["calls"] > 0 and v["calls_per_s"] > 0 and v["floor_calls_per_s"] > 0
    assert v["trials"]["success"] > 0 and v["trials"]["structural"] > 0 and v["trials"]["unknown"] == 0
    assert sum(v["status"].values()) == v["edges"]

    text = md.read_text(encoding="utf-8")
    assert "replay numbers" in text  # the other sections stay
    assert text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
    assert "| 250 |" in text and "calls / s" in text


def test_candidates_grow_with_n_not_n_squared() -> None:
    # Pairs per tool stay bounded by the retriever's k, whatever the catalog size.
    r = Retriever()
    per_tool = []
    for n in (100, 300):
        syn = synthetic_catalog(n, QUICK)
        pairs = r.pairs(syn.tools, syn.observations())
        per_tool.append(len(pairs) / n)
        assert len(pairs) <= 2 * n * (r.k_same + r.k_cross)
    assert per_tool[1] <= per_tool[0] * 1.5
    # The proposer only scores the retrieved pairs.
    syn = synthetic_catalog(100, QUICK)
    prop = OfflineProposer()
    keys = {b.key for b in prop.propose(syn.tools, syn.observations())}
    assert keys and prop.pairs_scored == len(Retriever().pairs(syn.tools, syn.observations()))


def test_results_md_keeps_other_sections(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# Results\n\n## Replay\n\nother harness\n", encoding="utf-8")
    update_results_md(md, "## EDGE\n\nfirst\n")
    update_results_md(md, "## EDGE\n\nsecond\n")
    text = md.read_text(encoding="utf-8")
    assert "other harness" in text and "second" in text and "first" not in text
    assert text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
