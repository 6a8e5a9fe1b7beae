"""Smoke test of the KOPA-Bench oracle run-time benchmark (quick mode; no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_writes_results(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n<!-- edge:begin x -->\nedge numbers\n<!-- edge:end -->\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "perf.bench_oracle", "--quick", "--out", str(tmp_path / "r"),
                           "--markdown", str(md)], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "r" / "bench_oracle.json").read_text(encoding="utf-8"))
    assert doc["benchmark"] == "bench_oracle" and doc["tasks"] == 20 and doc["seeds"] == 2
    assert [r["workers"] for r in doc["runs"]] == [8, 1]
    assert all(r["episodes"] == 40 and r["pass_at_1"] == 1.0 and r["calls"] > 40 for r in doc["runs"])
    text = md.read_text(encoding="utf-8")
    assert "edge numbers" in text and "## KOPA-Bench oracle run time" in text
