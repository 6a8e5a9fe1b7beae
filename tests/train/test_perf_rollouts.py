"""perf/train_rollouts at CI size: rollouts over HTTP against a real `simulator serve
--workers 2` subprocess on loopback, every episode rewarded, the numbers written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_train_rollouts_quick(tmp_path: Path) -> None:
    from perf.train_rollouts import main

    md = tmp_path / "RESULTS.md"
    assert main(["--quick", "--policy-ms", "20", "--out", str(tmp_path), "--markdown", str(md)]) == 0
    doc = json.loads((tmp_path / "train_rollouts.json").read_text(encoding="utf-8"))
    for key in ("free_policy", "modelled_policy"):
        r = doc[key]
        assert r["episodes"] == doc["examples"] * 2 and r["rewarded"] == r["episodes"]  # gold turns answer right
        assert r["tool_calls"] >= r["episodes"] and r["tool_calls_per_s"] > 0 and 0 < r["simulator_share"] <= 1
    assert doc["modelled_policy"]["policy_ms_per_turn"] == 20.0
    assert "| zero-cost (upper bound) |" in md.read_text(encoding="utf-8")
