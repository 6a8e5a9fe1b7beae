"""perf/train_rollouts at CI size: rollouts over HTTP against a real `simulator serve
--workers 2` subprocess on loopback, every episode rewarded, the numbers written.

The examples are synthesized over kopa@v0005's full-tier graph (seed 7, the small budget):
the graph ``perf.train_rollouts`` builds itself, here the one the session shares
(tests/support/synth_runs.py), so it is not verified again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.synth_runs import V0005_FULL, FullGraph

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group(V0005_FULL)]


def test_train_rollouts_quick(v0005_full: FullGraph, tmp_path: Path) -> None:
    from perf._common import write_results
    from perf.train_rollouts import NAME, QUICK, render_markdown, run

    md = tmp_path / "RESULTS.md"
    cfg = replace(QUICK, policy_ms=20.0)  # what `--quick --policy-ms 20` runs
    doc = run(cfg, log=lambda _s: None, graph=v0005_full.graph, obs=v0005_full.obs, gold=v0005_full.gold)
    write_results(doc, NAME, tmp_path, md, render_markdown)
    doc = json.loads((tmp_path / "train_rollouts.json").read_text(encoding="utf-8"))
    for key in ("free_policy", "modelled_policy"):
        r = doc[key]
        assert r["episodes"] == doc["examples"] * 2 and r["rewarded"] == r["episodes"]  # gold turns answer right
        assert r["tool_calls"] >= r["episodes"] and r["tool_calls_per_s"] > 0 and 0 < r["simulator_share"] <= 1
    assert doc["modelled_policy"]["policy_ms_per_turn"] == 20.0
    assert "| zero-cost (upper bound) |" in md.read_text(encoding="utf-8")


def test_the_quick_flags_make_that_config() -> None:
    """`python -m perf.train_rollouts --quick --policy-ms 20` is the run above (its flags parsed)."""
    from perf import train_rollouts

    seen = []

    class Stop(Exception):
        pass

    def fake_run(cfg, log):  # type: ignore[no-untyped-def]
        seen.append(cfg)
        raise Stop

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(train_rollouts, "run", fake_run)
        with pytest.raises(Stop):
            train_rollouts.main(["--quick", "--policy-ms", "20"])
    assert seen == [replace(train_rollouts.QUICK, policy_ms=20.0)]
