"""Smoke test of the full-tier EDGE verification benchmark (quick mode; no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from perf.edge_full import SECTION_BEGIN, SECTION_END

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # proposes over 2,692 tools: about 40 s on 2 busy cores


def test_quick_run_writes_before_and_after(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n<!-- edge:begin x -->\nedge numbers\n<!-- edge:end -->\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "perf.edge_full", "--quick", "--out", str(tmp_path / "r"),
                           "--markdown", str(md)], cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "r" / "edge_full.json").read_text(encoding="utf-8"))
    before, after = doc["runs"]["before_default"], doc["runs"]["after"]
    assert doc["proposals"] > 10_000 and 0 < doc["testable"] < doc["proposals"]
    assert before["untestable"] == 0 and after["untestable"] == doc["proposals"] - doc["testable"]
    assert after["verified"] > 10 * before["verified"] > 0
    assert after["executed"] + after["memo_hits"] == after["trials"]
    text = md.read_text(encoding="utf-8")
    assert "edge numbers" in text and text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
