"""Smoke test of ``perf.catalog_scale --quick``: every measure reported, its section written.

No timing assertions beyond the harness's own target flag (timings depend on the machine).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perf import catalog_scale

pytestmark = pytest.mark.slow


def test_catalog_scale_quick(tmp_path: Path) -> None:
    out = tmp_path / "results"
    catalog_scale.main(["--quick", "--out", str(out)])
    doc = json.loads((out / "catalog_scale.json").read_text(encoding="utf-8"))
    assert doc["benchmark"] == "catalog_scale" and doc["mode"] == "quick"
    tiers = {r["tier"]: r for r in doc["tiers"]}
    assert set(tiers) == {"curated", "full"}
    assert tiers["curated"]["endpoints"] == 82 and tiers["full"]["endpoints"] >= 2318
    for r in tiers.values():
        for key in ("match_us", "match_ratio", "tools_s", "mcp_list_tools_s", "cli_tools_s", "retrieve_s"):
            assert r[key] >= 0, key
        assert r["load"]["load_s"] > 0
    md = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert md.count("<!-- catalog_scale:begin") == 1 and "| full | 2," in md
