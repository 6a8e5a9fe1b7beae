"""The CLI: every command works on small versions and is documented in the README."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app
from tests.support.helpers import build_demo_version
from tests.support.paths import SAMPLES

runner = CliRunner()
README = Path(__file__).resolve().parents[3] / "README.md"


def _invoke(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


def test_versions_inspect_verify_diff(tmp_path: Path) -> None:
    build_demo_version(tmp_path, n=10)
    build_demo_version(tmp_path / "b", n=12)  # a second store, to make a second version below
    code, out = _invoke("versions", "--cassettes", str(tmp_path))
    assert code == 0 and "v0001" in out
    code, out = _invoke("inspect", "--cassettes", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and data["collections"][0]["records"] == 10
    code, out = _invoke("verify", "--cassettes", str(tmp_path))
    assert code == 0 and "ok" in out
    # Publish a child with changes, then diff.
    from simulator import Store, VersionBuilder, load_catalog
    from tests.support.helpers import station_records

    b = VersionBuilder(Store(tmp_path), "kopa", load_catalog())
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                     filters={"cityCode": "25"}, fmt="json", total=12, records=station_records(12))
    b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    code, out = _invoke("diff", "v0001", "v0002", "--cassettes", str(tmp_path))
    assert code == 0 and "| 2 | 0 | 0 | 10 | 12 |" in out


def test_verify_names_a_damaged_file(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    target = next((tmp_path / "kopa" / "v0001" / "collections").iterdir())
    target.write_bytes(target.read_bytes()[:-5])
    code, out = _invoke("verify", "--cassettes", str(tmp_path))
    assert code == 1 and "DAMAGED" in out and str(target) in out
    # The fix names what works where the version lives: tmp_path is outside any git checkout,
    # so git cannot restore it.
    assert "fix kopa@v0001: remove the version (`simulator rm v0001`)" in out
    assert "git" not in out.split("fix kopa@v0001:", 1)[1]


def test_unknown_set_is_a_clear_error(tmp_path: Path) -> None:
    code, out = _invoke("inspect", "--cassettes", str(tmp_path), "--set", "nope")
    assert code == 1 and "no cassette set='nope'" in out


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared samples not present")
def test_fidelity_exit_codes(tmp_path: Path) -> None:
    sample = SAMPLES / "opendart" / "company_json_samsung.json"
    url = "https://opendart.fss.or.kr/api/company.json?crtfc_key=REDACTED&corp_code=00126380"
    code, out = _invoke("fidelity", str(sample), "--request", url)
    assert code == 0 and out.startswith("ok")
    changed = tmp_path / "changed.json"
    data = json.loads(sample.read_text("utf-8"))
    data["status"] = 0  # the real API sends "000": a retyped status must be reported
    changed.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    code, out = _invoke("fidelity", str(changed), "--request", url)
    assert code == 1 and "DIFFERENT" in out
    code, out = _invoke("fidelity", str(sample), "--request", "https://nowhere.example/x")
    assert code == 2 and "unknown host" in out


def test_tools_formats(tmp_path: Path) -> None:
    out_file = tmp_path / "tools.json"
    code, _ = _invoke("tools", "--format", "mcp", "--out", str(out_file))
    tools = json.loads(out_file.read_text("utf-8"))
    assert code == 0 and all({"name", "description", "inputSchema"} <= set(t) for t in tools)
    code, out = _invoke("tools", "--format", "yaml")
    assert code == 1 and "choose openai or mcp" in out


def test_every_command_is_documented() -> None:
    import typer.main

    readme = README.read_text("utf-8")
    group = typer.main.get_command(app)
    names = list(group.commands)  # type: ignore[attr-defined]
    assert names
    missing = [n for n in names if f"simulator {n}" not in readme]
    assert missing == [], f"commands not shown in README: {missing}"


def test_serve_refuses_an_unknown_server_stack() -> None:
    r = runner.invoke(app, ["serve", "--http", "nope"])
    assert r.exit_code != 0 and "--http='nope': choose auto, h11, httptools" in r.output
    r = runner.invoke(app, ["serve", "--loop", "tokio"])
    assert r.exit_code != 0 and "--loop='tokio': choose auto, asyncio, uvloop" in r.output
