"""Smoke test of the synthesis benchmark (quick mode; no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from perf.synth import SECTION_BEGIN, SECTION_END

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_writes_results(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n<!-- edge:begin x -->\nedge numbers\n<!-- edge:end -->\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "perf.synth", "--quick", "--n", "8", "--out", str(tmp_path / "r"),
                           "--markdown", str(md)], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "r" / "synth.json").read_text(encoding="utf-8"))
    assert doc["benchmark"] == "synth" and doc["kept"] > 0 and doc["examples_per_s"] > 0
    text = md.read_text(encoding="utf-8")
    assert "edge numbers" in text and text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
