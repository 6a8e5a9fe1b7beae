"""Docs that stay true: the README's page-size table matches the catalog; the pytest plugin
page covers every record mode; the pages a user looks for are linked from the README."""

from __future__ import annotations

from pathlib import Path

from simulator import load_catalog
from simulator.pytest_plugin import RECORD_MODES

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _table_after(text: str, marker: str) -> dict[str, list[str]]:
    lines = text.split(marker, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_page_size_table_matches_the_catalog() -> None:
    catalog = load_catalog(tier="curated")  # the table documents the curated endpoints
    table = _table_after(README, "<!-- page-size table")
    expected: dict[str, tuple[str, set[str]]] = {}
    for pid in catalog.platforms:
        eps = [e for e in catalog.endpoints.values()
               if e.platform == pid and e.params_with_role("page_size", "range_start")]
        if not eps:
            continue
        sizes = sorted({e.max_page_size for e in eps})
        span = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}–{sizes[-1]}"
        expected[pid] = (span, {str(e.opt("oversize", "error")) for e in eps})
    assert set(table) == set(expected)
    for pid, (span, modes) in expected.items():
        size, above = table[pid]
        assert size == span, pid
        assert ("clamped" in above) == ("clamp" in modes), pid
        assert ("error" in above) == ("error" in modes), pid


def test_the_plugin_page_covers_every_record_mode() -> None:
    page = (REPO / "docs" / "pytest.md").read_text(encoding="utf-8")
    modes = _table_after(page, "## Record modes")
    assert {m.split()[0].strip("`") for m in modes} == set(RECORD_MODES)


def test_the_pages_a_user_looks_for_are_linked() -> None:
    for page in ("docs/pytest.md", "docs/migrating.md"):
        assert (REPO / page).is_file() and f"({page})" in README
