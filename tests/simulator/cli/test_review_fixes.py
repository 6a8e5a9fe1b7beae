"""Outside-review leftovers: wide piped tables, real extras in install hints, and a repair
hint for a damaged version that fits where the version lives."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simulator.cli as cli
from simulator.cli.extras import EXTRAS, install_hint
from simulator.errors import CorruptVersion
from simulator.store import roots
from simulator.store.roots import repair_hint
from tests.support.helpers import build_demo_version

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


def test_every_install_hint_names_an_extra_that_exists() -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    missing = {mod: extra for mod, extra in EXTRAS.items() if extra not in extras}
    assert not missing, f"hints name extras pyproject.toml lacks: {missing}"
    # the mcp server imports mcp_types (the mcp-types distribution mcp depends on) first
    assert install_hint("mcp_types") == "pip install 'kopa-sim[mcp]'"
    assert install_hint("dart_fss.api") == "pip install 'kopa-sim[clients]'"
    assert "mcp_types" in (REPO / "simulator" / "server" / "mcp.py").read_text(encoding="utf-8")


def test_simulator_mcp_without_mcp_names_the_mcp_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "mcp_types" or m.startswith(("mcp_types.", "simulator.server.mcp"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mcp_types", None)  # import mcp_types → ModuleNotFoundError
    import simulator.server

    # an earlier test's import left the submodule as the package's attribute too
    monkeypatch.delattr(simulator.server, "mcp", raising=False)
    r = CliRunner().invoke(cli.app, ["mcp", "--cassettes", str(SHIPPED)])
    assert r.exit_code == 1
    assert "mcp_types is not installed: pip install 'kopa-sim[mcp]'" in r.output, r.output


def _damage(root: Path) -> Path:
    vdir = root / "kopa" / "v0001"
    target = next(p for p in sorted(vdir.rglob("*.jsonl")) if p.is_file())
    target.write_bytes(target.read_bytes().replace(b"{", b"[", 1))
    return vdir


def _corrupt_message(root: Path) -> str:
    from simulator import Store

    with pytest.raises(CorruptVersion) as exc:
        v = Store(root, cache_dir=root.parent / "cache").open("kopa")
        list(v.collections())
    return str(exc.value)


def test_a_damaged_version_outside_git_is_not_told_to_restore_from_git(tmp_path: Path) -> None:
    store = build_demo_version(tmp_path / "userdata" / "cassettes")
    _damage(store.root)
    msg = _corrupt_message(store.root)
    assert "git" not in msg, msg
    assert "`simulator rm v0001`" in msg and "record it again" in msg, msg


def test_a_damaged_version_in_a_git_checkout_is_restored_from_git(tmp_path: Path) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    store = build_demo_version(tmp_path / "proj" / "cassettes")
    _damage(store.root)
    msg = _corrupt_message(store.root)
    assert "restore it from git (`git checkout -- <file>`)" in msg, msg


def test_a_damaged_shipped_version_is_reinstalled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_site = tmp_path / "site-packages"
    monkeypatch.setattr(roots, "_installed_dirs", lambda: [fake_site.resolve()])
    assert repair_hint(fake_site / "simulator" / "_cassettes" / "kopa" / "v0001" / "x.jsonl") == (
        "reinstall kopa-sim (`pip install --force-reinstall kopa-sim`)"
    )
    assert json.dumps(repair_hint(tmp_path / "elsewhere" / "kopa" / "v0007" / "m.json")).count("v0007") == 1
