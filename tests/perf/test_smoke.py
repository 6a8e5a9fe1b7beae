"""Smoke test of the replay benchmark: its quick mode runs end to end and reports every measure.

No timing assertions (timings depend on the machine); this keeps the harness from rotting.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from perf.replay import SECTION_BEGIN, SECTION_END, update_results_md

ROOT = Path(__file__).resolve().parents[2]


def _positive(stats: dict[str, Any], where: str) -> None:
    for key in ("median_us", "min_us", "max_us"):
        assert stats[key] > 0, f"{where}.{key}={stats[key]!r}"
    assert stats["min_us"] <= stats["median_us"] <= stats["max_us"], where
    assert stats["reps"] >= 1 and stats["requests_per_rep"] >= 1, where


def test_quick_run_writes_every_measure(tmp_path: Path) -> None:
    out = tmp_path / "results"
    env = {**os.environ, "KOPA_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "perf.replay", "--quick", "--out", str(out)],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((out / "replay.json").read_text(encoding="utf-8"))

    assert doc["mode"] == "quick" and doc["benchmark"] == "replay"
    for key in ("cpu", "cores", "python", "httpx", "vcrpy"):
        assert doc["machine"][key], key
    assert doc["command"].startswith("python -m perf.replay --quick")

    sizes = [r["interactions"] for r in doc["exact"]]
    assert sizes == [100, 1000]
    for row in doc["exact"]:
        n = row["interactions"]
        for system in ("kopa", "floor", "vcrpy"):
            _positive(row[system], f"exact[{n}].{system}")
        for ratio in ("kopa_over_floor", "kopa_over_vcrpy", "vcrpy_over_kopa"):
            assert row[ratio] > 0, f"exact[{n}].{ratio}"
        assert row["vcrpy"]["yaml_load_s"] > 0 and row["vcrpy"]["timed_requests"] > 0

    stages = doc["stages"]
    for name in (
        "kopa_transport",
        "floor_transport",
        "to_sim_request",
        "resolve",
        "catalog_match",
        "canonical_fingerprint",
        "plan_fingerprint",
        "index_interaction",
        "httpx_response",
        "httpx_response_preloaded",
    ):
        _positive(stages[name], f"stages.{name}")

    window = doc["window"]
    _positive(window["exact"], "window.exact")
    assert [w["label"] for w in window["windows"]] == ["start", "middle", "end"]
    assert [w["offset"] for w in window["windows"]] == [0, 1000, 1990]
    for w in window["windows"]:
        _positive(w, f"window.{w['label']}")
        assert w["over_exact"] > 0

    for n, b in doc["build"].items():
        assert b["build_s"] > 0 and b["open_cold_s"] > 0 and b["open_warm_s"] > 0, n
    assert doc["targets"] and all(isinstance(t["met"], bool) for t in doc["targets"])

    md = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert SECTION_BEGIN in md and SECTION_END in md
    assert "| 1,000 |" in md and "vcrpy ÷ kopa" in md


def test_results_md_keeps_other_sections(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# Results\n\n## HTTP\n\nother harness\n", encoding="utf-8")
    update_results_md(md, "## Replay\n\nfirst\n")
    update_results_md(md, "## Replay\n\nsecond\n")
    text = md.read_text(encoding="utf-8")
    assert "other harness" in text and "second" in text and "first" not in text
    assert text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
