"""The soak harness, quick: ``simulator serve`` (a real subprocess) at a steady rate for ~10 s
answers every request as expected, stays up, and its memory does not grow beyond a generous
bound. The full run (minutes; ``python -m perf.soak``) writes ``perf/results``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perf.soak import main, rss_slope

#: Generous: the server's RSS may move a little as caches fill, never by this much in 10 s.
RSS_GROWTH_LIMIT_MB = 64.0


def test_rss_slope_is_mib_per_minute() -> None:
    assert rss_slope([(0.0, 100.0), (60.0, 100.0)]) == 0.0
    assert rss_slope([(0.0, 100.0), (30.0, 101.0), (60.0, 102.0)]) == pytest.approx(2.0)
    assert rss_slope([(5.0, 1.0)]) == 0.0


@pytest.mark.slow
def test_quick_soak_has_no_errors_and_bounded_memory(tmp_path: Path) -> None:
    code = main(["--quick", "--out", str(tmp_path), "--markdown", str(tmp_path / "RESULTS.md")])
    doc = json.loads((tmp_path / "soak.json").read_text(encoding="utf-8"))
    r = doc["result"]
    assert r["requests"] >= 100 and r["distinct_requests"] >= 20
    assert r["errors"] == 0, r["error_kinds"]
    assert r["server_up_after"] is True
    assert len(r["rss_samples"]) >= 5
    assert r["rss_peak_mb"] - r["rss_start_mb"] < RSS_GROWTH_LIMIT_MB, r
    assert "## Soak" in (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
