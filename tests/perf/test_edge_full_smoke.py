"""Smoke test of the full-tier EDGE verification benchmark (quick mode; no timing assertions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from perf.edge_full import SECTION_BEGIN, SECTION_END
from tests.support.helpers import run_perf_quick

pytestmark = pytest.mark.slow  # proposes over 2,692 tools: about 40 s on 2 busy cores


def test_quick_run_writes_before_and_after(tmp_path: Path) -> None:
    doc: Any
    doc, text = run_perf_quick("edge_full", tmp_path)
    before, after = doc["runs"]["before_default"], doc["runs"]["after"]
    assert doc["proposals"] > 10_000 and 0 < doc["testable"] < doc["proposals"]
    assert before["untestable"] == 0 and after["untestable"] == doc["proposals"] - doc["testable"]
    assert after["verified"] > 10 * before["verified"] > 0
    assert after["executed"] + after["memo_hits"] == after["trials"]
    assert "edge numbers" in text and text.count(SECTION_BEGIN) == 1 and text.count(SECTION_END) == 1
