"""Which version a command uses when none is named (issue 31, "newest version wins, silently").

A user's own import (or publish, or ``rewrite`` recording) lands in their user data directory
as the newest version of ``kopa``. Research commands (bench, EDGE, training) keep to the newest
*shipped* version unless ``--version`` says otherwise; serve and pytest take the newest; every
one of them says which version it uses, and a pytest session says when a pinned version has
newer ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from simulator import SimRequest, SimResponse, Store, VersionBuilder, load_catalog

from tests.support.helpers import build_demo_version

pytest_plugins = ["pytester"]

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


@pytest.fixture
def user_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A one-interaction imported version in the user data directory, newer than the shipped
    ones (the project directory has no ``./cassettes``); its name."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KOPA_CASSETTES", raising=False)
    store = Store()
    assert store.newest_shipped("kopa") is not None  # the checkout's shipped cassettes are read
    b = VersionBuilder(store, "kopa", load_catalog(tier="curated"), parent=None)
    req = SimRequest.from_url("https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K")
    b.add_interaction(req, SimResponse(200, [("content-type", "application/json")], b'{"status":"000"}'))
    return b.publish(recorded_at="2026-12-31T00:00:00Z", source="imported").version


def test_research_default_is_the_newest_shipped_version(user_import: str) -> None:
    store = Store()
    shipped = store.newest_shipped("kopa")
    assert shipped is not None and shipped.version < user_import
    m, line = store.choose("kopa", shipped=True)
    assert m.version == shipped.version
    assert line.startswith(f"kopa@{shipped.version} ({shipped.content_hash[:12]}): the newest shipped version")
    assert f"{user_import} (imported)" in line and f"--version {user_import}" in line
    # serve and pytest take the newest, and say it is not shipped
    m, line = store.choose("kopa")
    assert m.version == user_import
    assert "not shipped" in line and f"--version {shipped.version}" in line
    # --version wins
    m, line = store.choose("kopa", user_import, shipped=True)
    assert m.version == user_import and line.endswith(f"--version {user_import}")


def test_an_import_is_never_shipped_even_inside_the_shipped_root(user_import: str) -> None:
    store = Store()
    assert not store.is_shipped(store.manifest("kopa", user_import))
    assert all(store.is_shipped(m) for m in store.versions("kopa") if m.version < user_import)


def test_a_directory_without_shipped_versions_uses_its_newest_and_says_so(tmp_path: Path) -> None:
    store = build_demo_version(tmp_path / "c")
    m, line = store.choose("kopa", shipped=True)
    assert m.version == "v0001" and "no shipped version in" in line


@pytest.fixture
def small_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The same layering with a small shipped root (the real one takes ~25 s to compile on a
    cold cache): ``v0001`` recorded from the sandbox and shipped, ``v0002`` a user's import."""
    import simulator.store.roots as roots
    import simulator.store.store as store_mod

    shipped = tmp_path / "shipped"
    monkeypatch.setattr(roots, "shipped_root", lambda: shipped)
    monkeypatch.setattr(store_mod, "shipped_root", lambda: shipped)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KOPA_CASSETTES", raising=False)
    cat = load_catalog(tier="curated")
    names = []
    for store, source in ((Store(shipped), "sandbox"), (Store(), "imported")):
        b = VersionBuilder(store, "kopa", cat, parent=None)
        req = SimRequest.from_url("https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K")
        b.add_interaction(req, SimResponse(200, [("content-type", "application/json")], source.encode()))
        names.append(b.publish(recorded_at="2026-12-31T00:00:00Z", source=source).version)  # type: ignore[arg-type]
    assert Store().roots.read[-1] == shipped
    return names[0], names[1]


def test_train_verl_config_pins_the_newest_shipped_version_and_says_so(
    small_shipped: tuple[str, str], tmp_path: Path
) -> None:
    from train.cli import train_app

    shipped, imported = small_shipped
    out = tmp_path / "tools.yaml"
    r = CliRunner().invoke(train_app, ["verl-config", "--out", str(out), "--platform", "opendart"])
    assert r.exit_code == 0, r.output
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"using kopa@{shipped} ") and f"newer, not shipped: {imported} (imported)" in first
    tools = yaml.safe_load(out.read_text(encoding="utf-8"))["tools"]
    assert {t["config"]["version"] for t in tools} == {shipped}
    r = CliRunner().invoke(train_app, ["verl-config", "--out", str(out), "--platform", "opendart", "--version", imported])
    assert r.exit_code == 0, r.output
    assert {t["config"]["version"] for t in yaml.safe_load(out.read_text(encoding="utf-8"))["tools"]} == {imported}


def test_bench_says_which_version_on_stderr_first(small_shipped: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    from bench.kopa.cli import _world

    shipped, _imported = small_shipped
    world = _world("kopa", None)
    assert world.version.manifest.version == shipped
    err = capsys.readouterr().err
    assert err.startswith(f"using kopa@{shipped} (") and "the newest shipped version" in err


def test_synthesis_report_names_set_version_and_content_hash(tmp_path: Path) -> None:
    from edge.synth.writers import write_all

    store = build_demo_version(tmp_path / "c")
    v = store.open("kopa")
    write_all([], tmp_path / "out", v, load_catalog(tier="curated"), {"filters": {}})
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["cassettes"] == {"set": "kopa", "version": "v0001", "content_hash": v.content_hash}
    assert report["catalog"] == "curated"


PINNED = '''
import pytest

@pytest.mark.kopa(version="v0001")
def test_pinned(kopa_resolver):
    assert kopa_resolver.version.manifest.version == "v0001"

def test_unpinned(kopa_resolver):
    assert kopa_resolver.version.manifest.version == "v0002"
'''


def test_pytest_says_which_version_and_that_a_pin_has_newer_ones(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root = tmp_path / "tiny"
    store = Store(root)
    cat = load_catalog(tier="curated")
    for name in ("v0001", "v0002"):
        b = VersionBuilder(store, "kopa", cat, parent=None)
        req = SimRequest.from_url("https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K")
        b.add_interaction(req, SimResponse(200, [("content-type", "application/json")], json.dumps({"v": name}).encode()))
        b.publish(recorded_at="2026-01-01T00:00:00Z", source="test", version=name)
    pytester.makepyfile(test_pins=PINNED)
    result = pytester.runpytest("-q", "--kopa-cassettes", str(root), *FAST)
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert "kopa-sim: replayed kopa@v0001" in out and "kopa-sim: replayed kopa@v0002" in out
    assert "kopa-sim: note: tests pin version='v0001'; newer versions exist: v0002" in out
    assert "version='v0002'" not in out.split("newer versions exist")[0].rsplit("\n", 1)[-1]
