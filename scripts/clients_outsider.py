"""An outsider check: PyPI clients the harness had never run, run unmodified (not in CI).

``tests/support/clients_harness.py`` runs the libraries of the ``clients`` extra; this script
runs a held-out set the same way (each call in replay, ``patched`` over the shipped set, and
against the sandbox on loopback; it *works* when both return and the parsed results are
equal) and writes ``docs/clients-outsider.md``. The libraries are no project dependencies:
install them without their dependencies into a folder of their own and name it with ``--site``:

    pip install --no-deps --target /tmp/outsider dart-enhanced opendart-py candinfo addresskr \
        korean-school school-data korean-law-mcp open-assembly-mcp korea-real-estate \
        data-go-mcp-apartment-trade data-go-mcp-fsc-financial-info kpubdata \
        oc-korea-weather-time-mcp korea-transit-mcp-server
    python scripts/clients_outsider.py --site /tmp/outsider --out docs/clients-outsider.md

The modules the calls use need only what the ``test`` and ``clients`` extras install (httpx,
requests, aiohttp, xmltodict, pydantic, pyyaml) and python-dotenv; none of them imports ``mcp``.
A call's endpoints are the catalog endpoints its requests matched, seen in the run.
"""

from __future__ import annotations

import argparse
import importlib
import asyncio
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.clients_harness import KEY, Call, Outcome, SandboxForwarder, run_call  # noqa: E402

#: Libraries whose configuration is read from the environment at import or construction.
ENV = {
    "JUSO_GO_KR_API_KEY": KEY,  # addresskr
    "OPEN_LAW_ID": KEY,  # korean-law-mcp
    "ASSEMBLY_API_KEY": KEY,  # open-assembly-mcp
    "PUBLIC_DATA_API_KEY": KEY,  # korea-real-estate
    "JUSO_API_KEY": KEY,  # korea-real-estate
    "MAX_RETRIES": "0",  # korea-real-estate: a replay miss is final
    "KMA_SERVICE_KEY": KEY,  # oc-korea-weather-time-mcp
    "SEOUL_SUBWAY_API_KEY": KEY,  # korea-transit-mcp-server
    **{f"KPUBDATA_{p}_API_KEY": KEY for p in ("DATAGO", "NEIS", "LAW", "SEOUL")},  # kpubdata
}

SAMSUNG = "00126380"


def _aio(make: Callable[[], Any]) -> Callable[[Path], Any]:
    return lambda _t: asyncio.run(make())


# ---- dart-enhanced (httpx, async) -------------------------------------------------------------
def _de(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from dart_enhanced import DartClient

        async with DartClient(api_key=KEY) as c:
            return await getattr(c, method)(*args, **kw)

    return _aio(main)


# ---- opendart-py (httpx, async) ---------------------------------------------------------------
def _odp(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from opendart.client import DartClient
        from opendart.models import DisclosureSearchParams

        async with DartClient(KEY, max_retries=1) as c:
            if method == "search_disclosures":
                return await c.search_disclosures(DisclosureSearchParams(**kw))
            return await getattr(c, method)(*args, **kw)

    return _aio(main)


# ---- candinfo (requests + xmltodict) ----------------------------------------------------------
def _cand(cls: str, method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        import candinfo

        return getattr(getattr(candinfo, cls)(KEY), method)(*args, **kw)

    return run


# ---- addresskr (requests) ---------------------------------------------------------------------
def _juso(text: str) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        from addresskr import jusogokr

        return jusogokr.search(text)

    return run


def _juso_parse(text: str) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        from addresskr import 도로명주소

        return 도로명주소.parse(text)

    return run


# ---- korean-school (aiohttp) ------------------------------------------------------------------
def _ks_school(**kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from korean_school import Client

        return [s.__dict__.get("data") or vars(s) for s in await Client(KEY).school(**kw)]

    return _aio(main)


def _ks_meal(name: str, day: str) -> Callable[[Path], Any]:
    async def main() -> Any:
        from datetime import datetime

        from korean_school import Client

        school = (await Client(KEY).school(name=name))[0]
        return [vars(m) for m in await school.meal(date=datetime.strptime(day, "%Y%m%d"))]

    return _aio(main)


def _ks_academy(code: str, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from korean_school import Client

        return [vars(a) for a in await Client(KEY).academy(code, **kw)]

    return _aio(main)


# ---- korean-law-mcp (requests + xmltodict) ----------------------------------------------------
def _law(method: str, *args: Any) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        from korean_law_mcp.api_client import KoreanLawClient

        return getattr(KoreanLawClient(), method)(*args)

    return run


# ---- open-assembly-mcp (httpx, async) ---------------------------------------------------------
def _asm(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from data_go_mcp.open_assembly.client import AssemblyAPIClient

        async with AssemblyAPIClient() as c:
            return await getattr(c, method)(*args, **kw)

    return _aio(main)


# ---- korea-real-estate (httpx + xmltodict) ----------------------------------------------------
def _kre(source: str, method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        from korea_realestate.client import KoreaRealEstateClient

        return getattr(getattr(KoreaRealEstateClient(), source), method)(*args, **kw)

    return run


# ---- data-go-mcp-apartment-trade / -fsc-financial-info (httpx, async) -------------------------
def _apt(*args: Any, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from data_go_mcp.apartment_trade.api_client import ApartmentTradeAPIClient

        async with ApartmentTradeAPIClient(api_key=KEY) as c:
            return await c.get_apartment_trades(*args, **kw)

    return _aio(main)


def _fsc(method: str, **kw: Any) -> Callable[[Path], Any]:
    async def main() -> Any:
        from data_go_mcp.fsc_financial_info.api_client import FSCFinancialAPIClient

        async with FSCFinancialAPIClient(api_key=KEY) as c:
            return await getattr(c, method)(**kw)

    return _aio(main)


# ---- school-data (aiohttp) --------------------------------------------------------------------
def _sd(fn: str, *args: Any) -> Callable[[Path], Any]:
    """Its coroutines, each on a loop of its own (its sync wrappers default to the loop that
    ``asyncio.get_event_loop()`` gave at import; ``meal_data`` passes the wrong arguments)."""

    def run(_t: Path) -> Any:
        asyncio.set_event_loop(asyncio.new_event_loop())  # its module calls get_event_loop() on import
        sd = importlib.import_module("school.school_data")  # the package re-exports its functions

        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(getattr(sd, fn)(*args))
        finally:
            loop.close()

    return run


# ---- kpubdata (httpx) -------------------------------------------------------------------------
def _kpd(dataset: str, **kw: Any) -> Callable[[Path], Any]:
    def run(_t: Path) -> Any:
        from kpubdata import Client

        batch = Client().dataset(dataset).list(**kw)
        return [dict(r) for r in getattr(batch, "items", batch)]

    return run


CALLS: list[Call] = [
    # dart-enhanced 0.3.0
    Call("dart-enhanced", "get_company_info(SAMSUNG)", ("opendart_company",), _de("get_company_info", SAMSUNG)),
    Call("dart-enhanced", "get_corp_code('005930')  # corpCode.xml", ("opendart_corp_codes",),
         _de("get_corp_code", "005930")),
    Call("dart-enhanced", "get_financial_statements(SAMSUNG, 2024)  # fnlttSinglAcntAll CFS",
         ("opendart_single_account_all",), _de("get_financial_statements", SAMSUNG, 2024)),
    Call("dart-enhanced", "search_disclosures(SAMSUNG, '20240101', '20241231')", ("opendart_disclosures",),
         _de("search_disclosures", corp_code=SAMSUNG, begin_date="20240101", end_date="20241231")),
    Call("dart-enhanced", "get_dividend_info(SAMSUNG, 2024)  # alotMatter", ("opendart_dividends",),
         _de("get_dividend_info", SAMSUNG, 2024)),
    # opendart-py 0.1.0
    Call("opendart-py", "search_disclosures(corp_code=SAMSUNG, bgn_de='20240101', end_de='20241231')",
         ("opendart_disclosures",),
         _odp("search_disclosures", corp_code=SAMSUNG, bgn_de="20240101", end_de="20241231")),
    Call("opendart-py", "get_company_overview(SAMSUNG)", ("opendart_company",), _odp("get_company_overview", SAMSUNG)),
    Call("opendart-py", "get_dividends(SAMSUNG, '2024', '11011')", ("opendart_dividends",),
         _odp("get_dividends", SAMSUNG, "2024", "11011")),
    Call("opendart-py", "get_major_shareholders(SAMSUNG, '2024', '11011')", ("opendart_major_shareholders",),
         _odp("get_major_shareholders", SAMSUNG, "2024", "11011")),
    Call("opendart-py", "get_employees(SAMSUNG, '2024', '11011')", ("opendart_employees",),
         _odp("get_employees", SAMSUNG, "2024", "11011")),
    # candinfo 1.0.2 (NEC, http://, XML)
    # 예비후보자 (preliminary candidates): the world's coming election (2026-06-03 local elections)
    Call("candinfo", "Candidate(key).findCandidate('20260603', '3')  # sends sggName= and sdName= empty",
         ("nec_preliminary_candidates",), _cand("Candidate", "findCandidate", "20260603", "3")),
    Call("candinfo", "Candidate(key).findCandidate('20260603', '4', sdname='서울특별시')",
         ("nec_preliminary_candidates",), _cand("Candidate", "findCandidate", "20260603", "4", sdname="서울특별시")),
    Call("candinfo", "Code(key).sgCode()", ("nec_election_codes",), _cand("Code", "sgCode")),
    Call("candinfo", "Code(key).partyCode('20240410')", ("nec_party_codes",), _cand("Code", "partyCode", "20240410")),
    Call("candinfo", "Code(key).sggCode('20240410', '2')", ("nec_district_codes",), _cand("Code", "sggCode", "20240410", "2")),
    Call("candinfo", "Code(key).gusigunCode('20240410', '서울특별시')", ("nec_gusigun_codes",),
         _cand("Code", "gusigunCode", "20240410", "서울특별시")),
    # addresskr 0.1.10 (juso, http://www.juso.go.kr, GET with a form body)
    Call("addresskr", "jusogokr.search('서울특별시 종로구 세종대로 209')", ("juso_road_address",),
         _juso("서울특별시 종로구 세종대로 209")),
    Call("addresskr", "도로명주소.parse('서울특별시 종로구 세종대로 209')", ("juso_road_address",),
         _juso_parse("서울특별시 종로구 세종대로 209")),
    # korean-school 1.0 (NEIS, aiohttp)
    Call("korean-school", "Client(key).school(name='서울대치초등학교')", ("neis_school_info",),
         _ks_school(name="서울대치초등학교")),
    Call("korean-school", "Client(key).school(provincial_code='B10', kind=2)", ("neis_school_info",),
         _ks_school(provincial_code="B10", kind=2)),
    Call("korean-school", "(await school(name=…))[0].meal(date=2025-03-14)", ("neis_school_info", "neis_meal"),
         _ks_meal("서울대치초등학교", "20250314")),
    Call("korean-school", "Client(key).academy('B10', state='강남구')", ("neis_aca_ins_ti_info",),
         _ks_academy("B10", state="강남구")),
    # school-data 0.0.6 (NEIS, aiohttp)
    Call("school-data", "asyncSchoolData('서울대치초등학교')", ("neis_school_info",),
         _sd("asyncSchoolData", "서울대치초등학교")),
    Call("school-data", "asyncMealData('B10', '7010005', '2', '20250314')", ("neis_meal",),
         _sd("asyncMealData", "B10", "7010005", "2", "20250314")),
    # korean-law-mcp 0.4.4 (law.go.kr DRF, XML)
    Call("korean-law-mcp", "search_law('민법')", ("lawgokr_law_search",), _law("search_law", "민법")),
    Call("korean-law-mcp", "search_law('명예훼손', target='prec')", ("lawgokr_prec_search",),
         _law("search_law", "명예훼손", "prec")),
    Call("korean-law-mcp", "get_legal_term_list('선의')", ("lawgokr_term_search",), _law("get_legal_term_list", "선의")),
    Call("korean-law-mcp", "get_statutory_interpretation_list('임대차')", ("lawgokr_expc_search",),
         _law("get_statutory_interpretation_list", "임대차")),
    Call("korean-law-mcp", "get_precedent_detail('604049')", ("lawgokr_prec_detail",),
         _law("get_precedent_detail", "604049")),
    # open-assembly-mcp 0.7.2 (httpx, async)
    Call("open-assembly-mcp", "search_bills('22')", ("assembly_member_bills",), _asm("search_bills", "22")),
    Call("open-assembly-mcp", "get_vote_results('22')", ("assembly_votes",), _asm("get_vote_results", "22")),
    Call("open-assembly-mcp", "get_pending_bills('22')", ("assembly_pending_bills",), _asm("get_pending_bills", "22")),
    Call("open-assembly-mcp", "get_plenary_agenda('22')", ("assembly_plenary_agenda",), _asm("get_plenary_agenda", "22")),
    Call("open-assembly-mcp", "get_member_info(name='우원식')  # ALLNAMEMBER", ("assembly_all_members",),
         _asm("get_member_info", name="우원식")),
    # korea-real-estate 4.15.1 (httpx + xmltodict, https://)
    Call("korea-real-estate", "public_data.apartment_trade_history('11110', '202503')", ("molit_apt_trades",),
         _kre("public_data", "apartment_trade_history", "11110", "202503")),
    Call("korea-real-estate", "public_data.apartment_rent_history('11110', '202503')", ("molit_apt_rents",),
         _kre("public_data", "apartment_rent_history", "11110", "202503")),
    Call("korea-real-estate", "public_data.apartment_trade_history_detailed('11110', '202503')",
         ("molit_apt_trades_detail",), _kre("public_data", "apartment_trade_history_detailed", "11110", "202503")),
    Call("korea-real-estate", "public_data.officetel_trade_history('11110', '202503')", ("molit_offi_trades",),
         _kre("public_data", "officetel_trade_history", "11110", "202503")),
    Call("korea-real-estate", "juso.address_lookup('세종대로 209')  # business.juso.go.kr", ("juso_road_address",),
         _kre("juso", "address_lookup", "세종대로 209")),
    # data-go-mcp-apartment-trade 1.0.1 (httpx, http://, pre-encoded key)
    Call("data-go-mcp-apartment-trade", "get_apartment_trades('11110', '202503')", ("molit_apt_trades",),
         _apt("11110", "202503")),
    # data-go-mcp-fsc-financial-info 0.2.0 (httpx, http://, resultType=json)
    Call("data-go-mcp-fsc-financial-info", "get_summary_financial_statement(crno='1301110006246', biz_year='2023')",
         ("fsc_summary_fin",), _fsc("get_summary_financial_statement", crno="1301110006246", biz_year="2023")),
    Call("data-go-mcp-fsc-financial-info", "get_balance_sheet(crno='1301110006246', biz_year='2023')",
         ("fsc_balance_sheet",), _fsc("get_balance_sheet", crno="1301110006246", biz_year="2023")),
    Call("data-go-mcp-fsc-financial-info", "get_income_statement(crno='1301110006246', biz_year='2023')",
         ("fsc_income_statement",), _fsc("get_income_statement", crno="1301110006246", biz_year="2023")),
]


class MatchSpy:
    """A resolver wrapper noting the catalog endpoint each request matched (``None``: none)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.catalog = inner.catalog
        self.matched: list[tuple[str, str | None]] = []
        #: For each replay miss: the request and how its nearest recording differs.
        self.misses: list[str] = []

    def resolve(self, req: Any, **kw: Any) -> Any:
        from simulator.errors import UnknownEndpoint

        try:
            self.matched.append((req.url, self.catalog.match(req).endpoint.id))
        except UnknownEndpoint:
            self.matched.append((req.url, None))
        res = self.inner.resolve(req, **kw)
        miss = getattr(res, "miss", None)
        if miss is not None:
            near = miss.nearest[0]["differs"] if miss.nearest else "nothing recorded for the endpoint"
            self.misses.append(f"{miss.endpoint}: {near}")
        return res


CALLS += [
    # kpubdata 0.10.0: one dataset id per operation, filters passed through by their API names
    Call("kpubdata", "dataset('datago.apt_trade').list(LAWD_CD='11110', DEAL_YMD='202503')", ("molit_apt_trades",),
         _kpd("datago.apt_trade", LAWD_CD="11110", DEAL_YMD="202503")),
    Call("kpubdata", "dataset('datago.apt_rent').list(LAWD_CD='11110', DEAL_YMD='202503')", ("molit_apt_rents",),
         _kpd("datago.apt_rent", LAWD_CD="11110", DEAL_YMD="202503")),
    Call("kpubdata", "dataset('datago.air_quality').list(sidoName='서울')", ("airkorea_sido",),
         _kpd("datago.air_quality", sidoName="서울")),
    Call("kpubdata", "dataset('datago.ultra_srt_ncst').list(base_date='20250314', base_time='0600', nx=60, ny=127)",
         ("kma_ultra_srt_ncst",), _kpd("datago.ultra_srt_ncst", base_date="20250314", base_time="0600", nx="60", ny="127")),
    Call("kpubdata", "dataset('neis.school_info').list(SCHUL_NM='서울대치초등학교')", ("neis_school_info",),
         _kpd("neis.school_info", SCHUL_NM="서울대치초등학교")),
    Call("kpubdata", "dataset('neis.meal_diet').list(ATPT_OFCDC_SC_CODE='B10', SD_SCHUL_CODE='7010005', MLSV_YMD='20250314')",
         ("neis_meal",), _kpd("neis.meal_diet", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005", MLSV_YMD="20250314")),
    Call("kpubdata", "dataset('law.law_search').list(query='민법')", ("lawgokr_law_search",),
         _kpd("law.law_search", query="민법")),
    Call("kpubdata", "dataset('seoul.bike_realtime').list()", ("seoul_bike_list",), _kpd("seoul.bike_realtime")),
    Call("kpubdata", "dataset('seoul.subway_realtime_arrival').list(stationName='서울')", ("seoul_subway_arrival",),
         _kpd("seoul.subway_realtime_arrival", stationName="서울")),
]


def _kma(endpoint: str, nx: int, ny: int, moment: str) -> Callable[[Path], Any]:
    """oc-korea-weather-time-mcp (httpx, async): its KMA client, with the base date and time its
    own ``resolve_*_base`` picks for ``moment`` (KST; the library passes the wall clock)."""

    async def main() -> Any:
        from datetime import datetime

        from oc_korea_weather_time_mcp.weather import kma_client as kma
        from oc_korea_weather_time_mcp.weather.grid import GridPoint

        at = datetime.strptime(moment, "%Y%m%d%H%M").replace(tzinfo=kma.KST)
        base = kma.resolve_village_base(at) if endpoint == "getVilageFcst" else kma.resolve_ultra_short_base(at)
        return await kma.fetch(endpoint, GridPoint(nx, ny), base)  # type: ignore[arg-type]

    return _aio(main)


def _subway(station: str) -> Callable[[Path], Any]:
    async def main() -> Any:
        from korea_transit_mcp_server.clients import public_data

        return await public_data.get_subway_arrival(station)

    return _aio(main)


CALLS += [
    # oc-korea-weather-time-mcp 0.1.0: Seoul City Hall's grid (60, 127)
    Call("oc-korea-weather-time-mcp", "fetch('getUltraSrtNcst', GridPoint(60, 127), resolve_ultra_short_base(2025-12-01 06:50 KST))",
         ("kma_ultra_srt_ncst",), _kma("getUltraSrtNcst", 60, 127, "202512010650")),
    Call("oc-korea-weather-time-mcp", "fetch('getVilageFcst', GridPoint(60, 127), resolve_village_base(2025-12-01 06:50 KST))",
         ("kma_vilage_fcst",), _kma("getVilageFcst", 60, 127, "202512010650")),
    # korea-transit-mcp-server 0.1.0: its Seoul subway client (the bus ones ask ws.bus.go.kr, no
    # catalog host, and are not run: patched() answers catalog hosts only)
    Call("korea-transit-mcp-server", "get_subway_arrival('강남')", ("seoul_subway_arrivals",), _subway("강남")),
    Call("korea-transit-mcp-server", "get_subway_arrival('노량진')", ("seoul_subway_arrivals",), _subway("노량진")),
]


def run_all(only: set[str] | None = None) -> list[Outcome]:
    from simulator import Resolver, Store
    from simulator.catalog import load_catalog
    from simulator.sandbox import create_app
    from tests.support.loopback import serve_in_thread

    catalog = load_catalog()
    replay = Resolver(Store().open("kopa"))
    app = create_app(seed=0)
    out: list[Outcome] = []
    os.environ["HOME"] = tempfile.mkdtemp(prefix="kopa-outsider-home-")
    with serve_in_thread(app) as base:
        live = SandboxForwarder(catalog, base, app.keys)
        for call in CALLS:
            if only and call.library not in only:
                continue
            tmp = Path(tempfile.mkdtemp(prefix="kopa-outsider-"))
            spy, live_spy = MatchSpy(replay), MatchSpy(live)
            try:
                o = run_call(call, spy, live_spy, tmp)
            except Exception as exc:  # noqa: BLE001 - an import error of the library, say
                o = Outcome(call, "skipped", f"{type(exc).__name__}: {exc}"[:300])
            matched = spy.matched + live_spy.matched
            eps = sorted({e or "UNCATALOGUED" for _u, e in matched})
            if None in {e for _u, e in matched}:
                o = Outcome(call, "uncovered", f"{o.status}: {o.detail}", o.sources)
            if o.status == "unrecorded" and spy.misses:
                o.detail = "; ".join(dict.fromkeys(spy.misses))  # what the nearest recording differs in
            o.sources = eps
            out.append(o)
            print(f"{o.status:10s} {call.library}: {call.name}  {o.detail[:160]}", file=sys.stderr)
        live.close()
    return out


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def render(outcomes: list[Outcome]) -> str:
    from simulator import Store

    version = Store().open("kopa")
    by: dict[str, Counter[str]] = {}
    for o in outcomes:
        by.setdefault(o.call.library, Counter())[o.status] += 1
    lines = [
        "# Outsider check: held-out third-party clients",
        "",
        "Generated by `python scripts/clients_outsider.py --site DIR --out docs/clients-outsider.md`",
        "(not in CI: the libraries are not project dependencies; the script's docstring says how to",
        "install them). PyPI clients of the ten platforms that the harness of `docs/clients.md` does",
        "not run, each run **unmodified** like the harness's: inside `patched()` over the shipped",
        f"set `kopa` ({version.manifest.version}, `{version.content_hash[:12]}`) and against the sandbox on",
        "loopback; a call **works** when both return and the parsed results are equal. A call is",
        "**catalogued** when every request it sends matches a catalog endpoint; **unrecorded**: the",
        "endpoint is catalogued but the version holds no recording for the values sent (the note says",
        "how the nearest recording differs); **skipped**: the library fails against the sandbox too",
        "(its own bug, or the world has no such data: the note says which).",
        "",
        "| library | version | calls | worked | unrecorded | failed | uncovered | skipped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    tot: Counter[str] = Counter()
    for lib, c in by.items():
        tot.update(c)
        lines.append(f"| {lib} | {_version(lib)} | {sum(c.values())} | {c['worked']} | {c['unrecorded']} | "
                     f"{c['failed']} | {c['uncovered']} | {c['skipped']} |")
    cat = tot["worked"] + tot["failed"] + tot["unrecorded"]
    lines += [
        "",
        f"**Calls to catalogued endpoints: {cat}; worked {tot['worked']} ({tot['worked'] / max(cat, 1):.1%}).** "
        f"Of those whose values {version.manifest.version} holds: {tot['worked']} of {tot['worked'] + tot['failed']}.",
        "",
        "| library | call | endpoints | result | note |",
        "|---|---|---|---|---|",
    ]
    for o in outcomes:
        eps = ", ".join(f"`{e}`" for e in o.sources) or "–"
        note = o.detail.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {o.call.library} | `{o.call.name}` | {eps} | {o.status} | {note} |")
    return "\n".join(lines + ["", *NOTES]) + "\n"


#: What the first run (stop 36) found, written down with it: the figure before any change, the
#: wire behaviours the libraries showed, and what the misses ask of a recording plan.
NOTES = """## The first run (stop 36)

The libraries were chosen before anything was changed for them: PyPI clients of the ten
platforms that appear neither in `docs/clients.md` nor in the `clients` extra. Their first run,
on kopa@v0006 before any change: **50 calls to catalogued endpoints, 30 worked (60.0%)**; every
one of the 20 others is a replay miss of a value v0006 holds no recording for, and every call
whose values v0006 holds worked (30 of 30). One call reached an endpoint the catalog lacks
(Seoul `bikeList`, kpubdata), and five failed against the sandbox as well (korea-real-estate
takes MOLIT's `resultCode` `000`, which the real API sends, for an error; the world has no
subway arrivals for 서울). No simulator change followed: no miss had a cause on the wire.
dart-enhanced, opendart-py and kpubdata then joined the harness (`docs/clients.md`).

### Wire behaviours they showed, all answered

* `http://` for data.go.kr, NEC and juso (candinfo, data-go-mcp-*, kpubdata's MOLIT sets).
* `http://www.juso.go.kr/addrlink/addrLinkApi.do` (an alias of `business.juso.go.kr`) asked
  with **GET and a form body** (addresskr: `requests.get(url, data=…)`).
* Empty params sent by default (`sggName=&sdName=`, candinfo): read as absent.
* The key pre-encoded in the query string (data-go-mcp-apartment-trade: `urlencode(safe='')`).
* Format switches in every spelling: `Type=json` (NEIS, Assembly), `type=XML` (law.go.kr),
  `resultType=json` (FSC, MOLIT RTMS), `returnType=json` (AirKorea), `dataType=JSON` upper
  case (KMA).
* Paging sizes past a page's rows (`numOfRows=999`, `numOfRows=1000`, `pSize=100`).

### What the misses ask of a recording plan (v0006)

| endpoint | the libraries sent | v0006 holds | sent by default? |
|---|---|---|---|
| `dart_alot_matter`, `dart_hyslr_sttus`, `dart_emp_sttus` | `bsns_year=2024` (Samsung) | 2023 only | no default year; 2024 is the latest business year with an annual report at the world's date (2025-12-01) |
| `dart_fnltt_singl_acnt_all` | `bsns_year=2024&fs_div=CFS` | 2023, without `fs_div` | `fs_div` always (dart-enhanced: `CFS`, or `OFS` with `consolidated=False`); the project's OpenDART notes list it as required; the generated catalog marks it optional |
| `nec_party_codes` | `sgId=20240410` | `20250603` only | no default |
| `juso_address_search` | full addresses (`서울특별시 종로구 세종대로 209`) | `keyword=강남구` only | free text |
| `neis_meal` | another school (7091380) on one day | 16 B10 schools | korean-school's `meal()` defaults to today (the wall clock) |
| `law_lstrm_search`, `law_expc_search` | `query=…` | no `query` | the search term is what every client sends |
| `assembly_allnamember` | `NAAS_NM=…` | the unfiltered list (2 rows) | a name when one is given |
| `fsc_summ_fina_stat_v2`, `fsc_bs_v2`, `fsc_inco_stat_v2` | `crno` + `bizYear` | no `crno` | `crno` is the lookup the tools are built around |
| `kma_ultra_srt_ncst`, `datagokr_misc_kma_vilage_fcst` | Seoul's grid (60, 127), base times from the clock | one nowcast (2025-12-01 05:00, 61/126), one forecast (2022-05-24 05:00, 55/127) | base date and time from the wall clock, always |
| `seoul_subway_arrivals` | `강남` | 40 stations of line 1 | a station name |

The `fs_div` row has a catalog cause beside the plan's: the generated OpenDART tier marks only
`corp_code`, `bsns_year`, `reprt_code` and `rcept_no` required, so `fs_div`
(`fnlttSinglAcntAll`), `idx_cl_code` (`fnlttSinglIndx`, `fnlttCmpnyIndx`) and `sj_div`
(`xbrlTaxonomy`) are optional in it, and v0006 recorded all four operations without them;
transcriptions of the OpenDART guide mark them required, so a real request always carries them
and never meets those recordings.
""".splitlines()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, help="the folder the libraries were installed into (pip --target)")
    ap.add_argument("--only", action="append", help="run this library's calls only (repeatable)")
    ap.add_argument("--out", type=Path, help="write the Markdown report here (default: stdout)")
    args = ap.parse_args()
    if args.site:
        sys.path.insert(1, str(args.site))
    os.environ.update(ENV)
    text = render(run_all(set(args.only) if args.only else None))
    if args.out:
        args.out.write_text(text, "utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
