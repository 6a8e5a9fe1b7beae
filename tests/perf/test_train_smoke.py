"""Smoke test of the GRPO environment benchmark (quick mode; no timing assertions).

It keeps ``perf/train_env.py`` from rotting: every measure is present, every answer
the harness checked was right (the oracle passes, the rollout episodes pass), and only its
own section of ``RESULTS.md`` is written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from perf.train_env import SECTION_BEGIN, SECTION_END

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_writes_every_measure(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n<!-- edge:begin x -->\nedge numbers\n<!-- edge:end -->\n", encoding="utf-8")
    env = {**os.environ, "KOPA_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "perf.train_env", "--quick", "--synth", "4",
                           "--out", str(tmp_path / "r"), "--markdown", str(md)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "r" / "train_env.json").read_text(encoding="utf-8"))
    assert doc["benchmark"] == "train_env" and doc["mode"] == "quick"
    assert doc["command"] == "python -m perf.train_env --quick"

    pc = doc["per_call"]
    assert pc["calls"] >= 10 and pc["tools"]
    for system in ("floor_cold", "env_cold", "trl_cold", "floor_memo", "env_memo", "trl_memo"):
        assert pc[system]["mean_us"] > 0 and pc[system]["reps"] == doc["config"]["reps"], system
    for system in ("env_cold", "trl_cold", "env_memo", "trl_memo"):
        for key in ("overhead_us", "over_floor", "overhead_median_call_us", "overhead_p90_call_us",
                    "calls_over_1ms"):
            assert key in pc[system], (system, key)
        assert pc[system]["floor"] == ("floor_cold" if system.endswith("cold") else "floor_memo")
    assert pc["heaviest_call"]["tool"] in pc["tools"]

    be = doc["bench_episodes"]
    for key in ("single_cold", "single_memo", "threads_cold"):
        assert be[key]["episodes"] > 0 and be[key]["episodes_per_s"] > 0, key
        assert be[key]["passed"] == be[key]["episodes"], key  # the oracle passes every task
    assert be["processes_cold"]["passed"] == be["processes_cold"]["episodes"] > 0

    syn = doc["synth_episodes"]
    assert syn["examples"] > 0 and syn["setup_s"] > 0
    for key in ("single_cold", "single_memo"):
        # The scripted oracle sends EDGE's gold turns and final "답: …": rewarded every time.
        assert syn[key]["episodes_per_s"] > 0 and syn[key]["reward_mean"] == 1.0, (key, syn["failed"])

    for label in ("sequential", "concurrent"):
        r = doc["rollouts"][label]
        assert r["episodes"] > 0 and r["passed"] == r["episodes"], label
        assert r["chat_requests"] > r["episodes"] and r["stub_only_replay_s"] > 0, label

    assert {t["target"] for t in doc["targets"]} and all("measured" in t for t in doc["targets"])
    text = md.read_text(encoding="utf-8")
    assert "edge numbers" in text and text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
    assert "## GRPO environment" in text
