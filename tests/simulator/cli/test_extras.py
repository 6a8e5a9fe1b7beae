"""Install hints (``simulator.cli.extras``) name extras that exist: a missing optional
dependency's message says which ``kopa-sim[...]`` to install."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simulator.cli as cli
from simulator.cli.extras import EXTRAS, install_hint

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "cassettes"


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
