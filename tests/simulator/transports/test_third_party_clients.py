"""Unmodified third-party clients from PyPI, answered from the shipped cassettes.

The libraries are the optional extra ``clients`` (``pip install -e '.[clients]'``); a test
skips where its library is not installed. ``test_call_replays_like_the_live_sandbox`` runs
every call of ``tests/support/clients_harness.py`` in replay and against the sandbox on loopback and
compares the parsed results; ``scripts/clients_table.py`` writes ``docs/clients.md`` from the
same calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator import Resolver, Store
from simulator.catalog import load_catalog
from simulator.sandbox import create_app
from simulator.transports.patching import patched

from tests.support.clients_harness import CALLS, LIBRARIES, Call, SandboxForwarder, installed, run_call
from tests.support.loopback import serve_in_thread


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    cache.mkdir(exist_ok=True)
    return Resolver(Store(cache_dir=cache).open("kopa"))


def test_opendartreader_runs_unmodified(shipped: Resolver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    odr = pytest.importorskip("OpenDartReader")
    monkeypatch.chdir(tmp_path)  # it caches corp codes in ./docs_cache
    with patched(shipped):
        dart = odr("any-key")  # downloads corpCode.xml (a ZIP) and parses it with pandas
        assert len(dart.corp_codes) == 6000
        assert dart.find_corp_code("005930") == "00126380"
        assert dart.find_corp_code("SK하이닉스") == "00164779"
        company = dart.company("005930")
    assert company["status"] == "000"
    assert company["corp_name"] == "삼성전자(주)" and company["stock_code"] == "005930"
    assert company["corp_code"] == "00126380"


def test_neispy_runs_unmodified(shipped: Resolver) -> None:
    neispy = pytest.importorskip("neispy")

    async def main() -> tuple[object, object]:
        async with neispy.Neispy(KEY="any-key") as neis:
            school = await neis.schoolInfo(ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005")
            meal = await neis.mealServiceDietInfo(ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005")
        return school, meal

    with patched(shipped):
        school, meal = asyncio.run(main())
    head, rows = school.schoolInfo  # type: ignore[attr-defined]
    assert head.head[0].list_total_count == 1
    assert rows.row[0].SCHUL_NM == "세종초등학교" and rows.row[0].SD_SCHUL_CODE == "7010005"
    mhead, mrows = meal.mealServiceDietInfo  # type: ignore[attr-defined]
    assert mhead.head[0].list_total_count == 180  # kopa@v0003: no lunch on its five 휴업일 (v0002: 185)
    assert mhead.head[1].RESULT.CODE == "INFO-000"
    assert all(r.SD_SCHUL_CODE == "7010005" for r in mrows.row) and mrows.row[0].DDISH_NM


@pytest.fixture(scope="module")
def sandbox_live() -> Iterator[SandboxForwarder]:
    app = create_app(seed=0)
    with serve_in_thread(app) as base:
        live = SandboxForwarder(load_catalog(), base, app.keys)
        yield live
        live.close()


@pytest.mark.parametrize("call", CALLS, ids=[f"{c.library}:{c.name[:50]}" for c in CALLS])
def test_call_replays_like_the_live_sandbox(
    call: Call, shipped: Resolver, sandbox_live: SandboxForwarder, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lib = LIBRARIES[call.library]
    if not installed(lib.module):
        pytest.skip(f"{call.library} is not installed (pip install 'kopa-sim[clients]')")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # libraries cache under ~ (dart-fss, pyecos)
    outcome = run_call(call, shipped, sandbox_live, tmp_path)
    assert outcome.status == call.expect, (outcome.status, outcome.detail, outcome.sources)
    if call.expect == "worked":
        assert outcome.sources and "miss" not in outcome.sources


def test_every_library_has_calls_and_a_surface() -> None:
    assert set(LIBRARIES) == {c.library for c in CALLS}
    for lib in LIBRARIES.values():
        if installed(lib.module):
            assert lib.surface(), f"{lib.name}: no endpoints found in its source"


def test_ten_platform_surface_is_covered() -> None:
    """#17's bar: each library covers at least 80 % of its surface on the ten platforms
    (``docs/clients.md``); entries off them say why (another platform, or no endpoint at all)."""
    from bench.kopa.tasks import MAIN_PLATFORMS

    from tests.support.clients_harness import catalog_operations, split_surface

    catalog = load_catalog()
    ops = catalog_operations(catalog)
    checked = 0
    for lib in LIBRARIES.values():
        if not installed(lib.module):
            continue
        split = split_surface(catalog, lib.surface(), MAIN_PLATFORMS, lib.not_endpoints())
        assert split.on_ten.isdisjoint(split.off_ten) and all(split.off_ten.values())
        if split.on_ten:
            checked += 1
            share = len(split.on_ten & ops) / len(split.on_ten)
            assert share >= 0.8, f"{lib.name}: {share:.0%} of {len(split.on_ten)} ten-platform entries catalogued"
    if checked == 0:
        pytest.skip("no client library is installed (pip install 'kopa-sim[clients]')")
    semas = ("apis.data.go.kr", "/B553077/api/open/sdsc2/storeOne")
    ecos_meta = ("ecos.bok.or.kr", "/api/StatisticMeta")
    if installed("PublicDataReader"):
        pdr = split_surface(catalog, LIBRARIES["PublicDataReader"].surface(), MAIN_PLATFORMS)
        assert "B553077" in pdr.off_ten[semas] and "ecos" in pdr.off_ten[ecos_meta]
    if installed("dart_fss"):
        fss = LIBRARIES["dart-fss"].not_endpoints()
        assert "kind.krx.co.kr" in fss[("opendart.fss.or.kr", "/api/stockMkt")]
        assert ("opendart.fss.or.kr", "/api/fnlttSinglAcnt") not in fss
    if installed("opendart"):  # opendart-py: four reports under names that are no operation
        odp = LIBRARIES["opendart-py"]
        odp_off = odp.not_endpoints()
        assert "`crDecsn`" in odp_off[("opendart.fss.or.kr", "/api/crstDecsn")]
        assert ("opendart.fss.or.kr", "/api/alotMatter") in odp.surface() - set(odp_off)
    if installed("kpubdata"):  # a base URL that is the whole operation is not appended to
        kpd = LIBRARIES["kpubdata"].surface()
        assert {("www.law.go.kr", "/DRF/lawSearch.do"), ("ecos.bok.or.kr", "/api/StatisticSearch")} <= kpd
        assert ("apis.data.go.kr", "/B552584/ArpltnInforInqireSvc/getCtprvnRltmMesureDnsty") in kpd


def test_docs_clients_table_is_what_the_script_writes() -> None:
    """docs/clients.md is regenerated from the same unmodified calls: a stale table fails."""
    import subprocess
    import sys

    if not all(installed(lib.module) for lib in LIBRARIES.values()):
        pytest.skip("the clients extra is not installed (pip install -e '.[clients]')")
    root = Path(__file__).resolve().parents[3]
    res = subprocess.run([sys.executable, str(root / "scripts" / "clients_table.py"), "--check"],
                         cwd=root, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, (
        "docs/clients.md differs from what `python scripts/clients_table.py` writes now; run it "
        f"and commit the file\n{res.stderr[-2000:]}")
