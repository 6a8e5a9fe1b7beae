"""``simulator versions`` prints its table whole: piped (no TTY) and through typer's runner,
no cell folded and no colour codes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import simulator.cli as cli

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "cassettes"


def test_versions_piped_keeps_every_cell_whole(tmp_path: Path) -> None:
    # a pipe, not a TTY: rich would assume 80 columns and fold the 100-column table
    out = subprocess.run(
        [sys.executable, "-m", "simulator", "versions", "--cassettes", str(SHIPPED)],
        capture_output=True, text=True, check=True, cwd=REPO,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path),
             "KOPA_CACHE": str(tmp_path / "cache")},
    ).stdout
    shipped = sorted(p.name for p in (SHIPPED / "kopa").glob("v[0-9][0-9][0-9][0-9]") if p.is_dir())
    rows = [line for line in out.splitlines() if re.search(r"\bv\d{4}\b", line)]
    assert len(rows) == len(shipped) >= 2, out
    assert any(len(line) > 80 for line in rows), out
    for row in rows:
        assert re.search(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ", row) and re.search(r"\b[0-9a-f]{12}\b", row), row
    assert "\x1b[" not in out  # no colour codes in a pipe


def test_versions_through_the_cli_runner_is_not_folded_either() -> None:
    r = CliRunner().invoke(cli.app, ["versions", "--cassettes", str(SHIPPED)])
    assert r.exit_code == 0, r.output
    assert any("60ad9f8f0e0c" in line and "v0001" in line and "2026-11-29T00:00:00Z" in line
               for line in r.output.splitlines()), r.output
