"""Two unmodified third-party clients from PyPI, answered from the shipped cassettes.

OpenDartReader (``requests``) and neispy (``aiohttp``) are the optional extra ``clients``
(``pip install -e '.[clients]'``); the tests skip where they are not installed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from simulator import Resolver, Store
from simulator.transports.patching import patched


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
    assert mhead.head[0].list_total_count == 185
    assert mhead.head[1].RESULT.CODE == "INFO-000"
    assert all(r.SD_SCHUL_CODE == "7010005" for r in mrows.row) and mrows.row[0].DDISH_NM
