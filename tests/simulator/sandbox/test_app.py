"""The sandbox app: native key errors, page caps, paging, query filters, limits, faults.

Most tests call ``SandboxApp.handle`` directly (the whole pipeline without HTTP); the
routing, proxy and fault tests run the app with uvicorn on loopback.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from simulator.catalog import load_catalog
from simulator.dialects import get_dialect
from simulator.request import SimRequest, SimResponse
from simulator.sandbox import Limits, SandboxApp, create_app
from simulator.sandbox.gen import generator_for

from tests.support.loopback import serve_in_thread

RTMS = "https://apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade"
STAN = "https://apis.data.go.kr/1741000/StanReginCd/getStanReginCdList"
NEIS = "https://open.neis.go.kr/hub"
ASSEMBLY = "https://open.assembly.go.kr/portal/openapi"
SEOUL = "http://openapi.seoul.go.kr:8088"


@pytest.fixture(scope="module")
def app() -> SandboxApp:
    return create_app(seed=0)


def get(app: SandboxApp, url: str, ua: str = "pytest") -> SimResponse:
    return app.handle(SimRequest.from_url(url, headers={"user-agent": ua}))


def body_json(resp: SimResponse) -> Any:
    return json.loads(resp.body.decode("utf-8"))


# ---- every endpoint ------------------------------------------------------------------------


def test_every_endpoint_has_a_generator() -> None:
    """Curated endpoints have a hand-written generator; generated ones are synthesised
    (tests/simulator/catalog/test_generated_record.py)."""
    cat = load_catalog()
    missing = [ep.id for ep in cat.endpoints.values()
               if ep.fidelity == "curated" and generator_for(ep.part_id, ep.id) is None]
    assert missing == []


def test_generated_records_follow_the_catalog_fields(app: SandboxApp) -> None:
    cat = load_catalog()
    ep = cat.endpoint("molit_apt_trades")
    rows = app.collection(ep, "k1", {"LAWD_CD": "11680", "DEAL_YMD": "202503"})
    assert rows and list(rows[0]) == [f.name for f in ep.fields]
    ep = cat.endpoint("tago_stations_by_name")
    rows = app.collection(ep, "k2", {"cityCode": "34010"})
    assert isinstance(rows[0]["nodeno"], int) and isinstance(rows[0]["gpslati"], float)


# ---- keys ----------------------------------------------------------------------------------


def test_rtms_key_errors_are_native(app: SandboxApp) -> None:
    missing = get(app, f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503")
    assert (missing.status, missing.body) == (401, b"Unauthorized")
    wrong = get(app, f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=nope")
    assert wrong.status in (401, 403) and b"<resultCode>000" not in wrong.body
    ok = get(app, f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit")
    assert ok.status == 200 and b"<resultCode>000</resultCode>" in ok.body


def test_custom_keys_replace_the_default() -> None:
    app = create_app(seed=0, keys={"molit": "my-key"})
    assert get(app, f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit").status != 200
    assert get(app, f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&ServiceKey=my-key").status == 200


def test_open_portal_keys(app: SandboxApp) -> None:
    bad = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&KEY=wrong"))
    assert bad["RESULT"]["CODE"] == "ERROR-290"
    # The Assembly refuses the public sample key; NEIS serves 5 rows without any key.
    sample = body_json(get(app, f"{ASSEMBLY}/nwvrqwxyaytdsfvhu?Type=json&KEY=sample"))
    assert sample["RESULT"]["CODE"] == "ERROR-290"
    keyless = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&pSize=100&pIndex=3"))
    rows = keyless["schoolInfo"][1]["row"]
    assert len(rows) == 5
    full = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&pSize=5&KEY=sandbox-neis"))
    assert rows == full["schoolInfo"][1]["row"]  # page 1, whatever pIndex said


def test_assembly_waf(app: SandboxApp) -> None:
    resp = get(app, f"{ASSEMBLY}/nwvrqwxyaytdsfvhu?Type=json&KEY=sandbox-assembly", ua="curl/8.5.0")
    assert (resp.status, resp.body) == (400, b"Bad Request.")


def test_seoul_key_in_path(app: SandboxApp) -> None:
    bad = get(app, f"{SEOUL}/nope/json/TbPublicWifiInfo/1/5")
    assert b"INFO-100" in bad.body and bad.body.lstrip().startswith(b"<")  # XML even for /json/
    sample = get(app, f"{SEOUL}/sample/json/TbPublicWifiInfo/1/5")
    assert body_json(sample)["TbPublicWifiInfo"]["list_total_count"] >= 25_000
    assert b"ERROR-335" in get(app, f"{SEOUL}/sample/json/TbPublicWifiInfo/1/6").body


def test_other_platform_key_errors(app: SandboxApp) -> None:
    dart = body_json(get(app, "https://opendart.fss.or.kr/api/list.json?crtfc_key=nope"))
    assert dart["status"] == "010"
    law = body_json(get(app, "https://www.law.go.kr/DRF/lawSearch.do?OC=nope&target=law&type=JSON"))
    assert "검증에 실패" in law["result"]
    juso = body_json(get(app, "https://business.juso.go.kr/addrlink/addrLinkApi.do?confmKey=x&keyword=a&resultType=json"))
    assert juso["results"]["common"]["errorCode"] == "E0001"
    ecos = body_json(get(app, "https://ecos.bok.or.kr/api/StatisticTableList/nope/json/kr/1/10"))
    assert ecos["RESULT"]["CODE"] == "INFO-100"


# ---- page caps and paging ------------------------------------------------------------------


def test_page_caps(app: SandboxApp) -> None:
    neis = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&pSize=1001&KEY=sandbox-neis"))
    assert neis["RESULT"]["CODE"] == "ERROR-336"
    seoul = get(app, f"{SEOUL}/sandbox-seoul/json/TbPublicWifiInfo/1/1001")
    assert b"ERROR-336" in seoul.body
    dart = body_json(get(app, "https://opendart.fss.or.kr/api/list.json?crtfc_key=sandbox-opendart&page_count=101"))
    assert dart["status"] == "100"
    # NEC clamps numOfRows to 100 silently.
    nec = body_json(get(app, "https://apis.data.go.kr/9760000/WinnerInfoInqireService2/getWinnerInfoInqire"
                             "?sgId=20240410&sgTypecode=2&serviceKey=sandbox-nec&numOfRows=500&resultType=json"))
    body = nec["response"]["body"]
    assert len(body["items"]["item"]) == 100 and int(body["totalCount"]) > 200


def _stan_page(app: SandboxApp, name: str, page: int, size: int) -> tuple[int, list[dict[str, Any]]]:
    resp = get(app, f"{STAN}?serviceKey=sandbox-mois&type=json&locatadd_nm={name}&pageNo={page}&numOfRows={size}")
    doc = body_json(resp)
    if "StanReginCd" not in doc:
        return 0, []
    head, rows = doc["StanReginCd"]
    return head["head"][0]["totalCount"], rows["row"]


def test_paging_walks_the_whole_collection(app: SandboxApp) -> None:
    total, whole = _stan_page(app, "서울특별시 강남구", 1, 1000)
    assert total == len(whole) == 15  # the 구 and its 14 법정동
    pieces: list[dict[str, Any]] = []
    for page in range(1, 5):
        _, rows = _stan_page(app, "서울특별시 강남구", page, 4)
        pieces.extend(rows)
    assert pieces == whole
    assert whole[0]["region_cd"] == "1168000000" and whole[0]["locatadd_nm"] == "서울특별시 강남구"


def test_paging_past_the_end_is_native(app: SandboxApp) -> None:
    doc = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&pIndex=999&pSize=1000&KEY=sandbox-neis"))
    assert doc["RESULT"]["CODE"] == "INFO-200"


def test_rtms_totals_match_the_world(app: SandboxApp) -> None:
    resp = get(app, f"{RTMS}?LAWD_CD=11710&DEAL_YMD=202409&serviceKey=sandbox-molit&numOfRows=5&pageNo=2")
    root = ET.fromstring(resp.body)
    assert int(root.findtext("body/totalCount") or 0) == len(app.world.apt_trades("11710", "202409"))
    assert len(root.findall("body/items/item")) == 5
    empty = ET.fromstring(get(app, f"{RTMS}?LAWD_CD=99999&DEAL_YMD=202409&serviceKey=sandbox-molit").body)
    assert empty.findtext("header/resultCode") == "000" and empty.findtext("body/totalCount") == "0"


# ---- query filters ---------------------------------------------------------------------------


def test_substring_filters(app: SandboxApp) -> None:
    total, rows = _stan_page(app, "안산", 1, 1000)
    names = {r["locatadd_nm"] for r in rows}
    assert total == len(rows)
    assert "경기도 안산시" in names and any(n.endswith("안산동") for n in names)
    doc = body_json(get(app, f"{NEIS}/schoolInfo?Type=json&KEY=sandbox-neis&SCHUL_NM=대치"))
    assert all("대치" in r["SCHUL_NM"] for r in doc["schoolInfo"][1]["row"])
    assert "7091380" in {r["SD_SCHUL_CODE"] for r in doc["schoolInfo"][1]["row"]}


def test_stock_filters(app: SandboxApp) -> None:
    c = app.world.listed_companies()[0]  # an invented company (edition 7: real ones carry no price)
    base = ("https://apis.data.go.kr/1160100/service/GetStockSecuritiesInfoService/getStockPriceInfo"
            "?serviceKey=sandbox-fsc&resultType=json&numOfRows=100&beginBasDt=20250301&endBasDt=20250401&likeItmsNm=")
    body = body_json(get(app, base + c["corp_name"]))["response"]["body"]
    items = body["items"]["item"]
    assert body["totalCount"] == len(items) > 15
    assert {i["srtnCd"] for i in items} == {c["stock_code"]}
    assert all("20250301" <= i["basDt"] < "20250401" for i in items)
    assert body_json(get(app, base + "삼성전자"))["response"]["body"]["totalCount"] == 0


def test_meal_month_filter(app: SandboxApp) -> None:
    url = f"{NEIS}/mealServiceDietInfo?Type=json&KEY=sandbox-neis&ATPT_OFCDC_SC_CODE=B10&SD_SCHUL_CODE=7091380&MLSV_YMD=202504"
    rows = body_json(get(app, url))["mealServiceDietInfo"][1]["row"]
    assert rows and all(r["MLSV_YMD"].startswith("202504") for r in rows)
    assert rows == [r for r in rows if r["SCHUL_NM"] == "서울대치초등학교"]


def test_disclosure_date_range(app: SandboxApp) -> None:
    url = (f"https://opendart.fss.or.kr/api/list.json?crtfc_key=sandbox-opendart&corp_code={app.world.listed_companies()[0]['corp_code']}"
           "&bgn_de=20240101&end_de=20241231&page_count=100")
    doc = body_json(get(app, url))
    assert doc["status"] == "000"
    dates = [r["rcept_dt"] for r in doc["list"]]
    assert dates and all("20240101" <= d <= "20241231" for d in dates) and dates == sorted(dates, reverse=True)


# ---- unknown routes, determinism ------------------------------------------------------------


def test_unknown_operation_is_native(app: SandboxApp) -> None:
    resp = get(app, "https://apis.data.go.kr/1613000/NoSuchService/getNothing?serviceKey=sandbox-molit")
    assert resp.status == 400 and b"<returnReasonCode>12</returnReasonCode>" in resp.body
    assert get(app, "https://example.invalid/x").status == 404


def test_parameters_the_catalog_does_not_know_select_nothing(app: SandboxApp) -> None:
    """Like the real server (and the replay, which names them in x-sim-ignored), the sandbox
    ignores parameters the catalog does not know: pydatagokr asks FSC's KOFIA statistics with
    ``beginBasDt``/``endBasDt`` (and RTMS clients send extras), and the answer is the one
    without them. Before, the sandbox keyed a generated endpoint's synthetic collection on
    them, so a replayed answer could never equal the live one."""
    kofia = ("https://apis.data.go.kr/1160100/service/GetKofiaStatisticsInfoService/"
             "getGrantingOfCreditBalanceInfo?serviceKey=sandbox-fsc&numOfRows=1000&pageNo=1")
    rtms = f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit&numOfRows=50"
    for base, extra in ((kofia, "&beginBasDt=20250301&endBasDt=202503149"), (rtms, "&utm_source=x")):
        plain, with_extra = get(app, base), get(app, base + extra)
        assert plain.status == 200
        assert with_extra.status == plain.status and with_extra.body == plain.body, extra
    # a catalogued filter still selects: basDt is one of this endpoint's params
    assert get(app, kofia + "&basDt=20250314").body != get(app, kofia).body


def test_same_seed_same_bytes_different_seed_different() -> None:
    url = f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit&numOfRows=50"
    a, b, c = create_app(seed=3), create_app(seed=3), create_app(seed=4)
    assert get(a, url).body == get(b, url).body
    assert get(a, url).body != get(c, url).body


def test_responses_parse_back_with_their_dialect(app: SandboxApp) -> None:
    cat = load_catalog()
    checks = {
        "molit_apt_trades": f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit",
        "neis_school_info": f"{NEIS}/schoolInfo?Type=json&KEY=sandbox-neis&ATPT_OFCDC_SC_CODE=T10",
        "opendart_corp_codes": "https://opendart.fss.or.kr/api/corpCode.xml?crtfc_key=sandbox-opendart",
    }
    for eid, url in checks.items():
        ep = cat.endpoint(eid)
        resp = get(app, url)
        fmt = "zip" if ep.kind == "binary" else ("json" if resp.body[:1] == b"{" else "xml")
        parsed = get_dialect(ep.dialect).parse(ep, resp.body, fmt)
        assert parsed.outcome == "ok" and parsed.records, eid
    corp = get_dialect("opendart").parse(cat.endpoint("opendart_corp_codes"), get(app, checks["opendart_corp_codes"]).body, "zip")
    assert corp.total == len(app.world.companies())


# ---- limits --------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limit_gives_the_native_body() -> None:
    clock = FakeClock()
    app = create_app(seed=0, limits=Limits(rate_per_sec={"molit": 2}, clock=clock))
    url = f"{RTMS}?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit"
    assert get(app, url).status == 200
    assert get(app, url).status == 200
    limited = get(app, url)
    assert b"<resultCode>000</resultCode>" not in limited.body
    assert b"<resultCode>23</resultCode>" in limited.body
    clock.now += 1
    assert get(app, url).status == 200


def test_daily_quota_and_reset() -> None:
    app = create_app(seed=0, limits=Limits(daily_quota={"opendart": 2}))
    url = "https://opendart.fss.or.kr/api/company.json?crtfc_key=sandbox-opendart&corp_code=00126380"
    assert body_json(get(app, url))["status"] == "000"
    assert body_json(get(app, url))["status"] == "000"
    assert body_json(get(app, url))["status"] == "020"
    app.state.reset()
    assert body_json(get(app, url))["status"] == "000"


def test_limits_validate() -> None:
    with pytest.raises(ValueError, match="fault_rate"):
        Limits(fault_rate=2)
    with pytest.raises(ValueError, match="unknown"):
        Limits(faults=("explode",))  # type: ignore[arg-type]


# ---- over HTTP -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve_in_thread(create_app(seed=0)) as base:
        yield base


def test_routing_by_path_host_header_and_proxy(server: str) -> None:
    path = "/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit"
    with httpx.Client(timeout=30) as c:
        by_path = c.get(f"{server}/apis.data.go.kr{path}")
        by_host = c.get(f"{server}{path}", headers={"host": "apis.data.go.kr"})
        health = c.get(f"{server}/_sandbox/health").json()
    assert by_path.status_code == by_host.status_code == 200
    assert by_path.content == by_host.content
    assert health["status"] == "ok" and "molit" in health["platforms"]
    with httpx.Client(proxy=server, timeout=30) as c:
        proxied = c.get(f"http://apis.data.go.kr{path}")
    assert proxied.content == by_path.content


def test_seoul_port_in_the_first_segment(server: str) -> None:
    r = httpx.get(f"{server}/openapi.seoul.go.kr:8088/sandbox-seoul/json/TbPublicWifiInfo/1/3", timeout=30)
    assert r.status_code == 200 and len(r.json()["TbPublicWifiInfo"]["row"]) == 3


def test_seeded_faults_over_http() -> None:
    url = "/apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade?LAWD_CD=11680&DEAL_YMD=202503&serviceKey=sandbox-molit"
    for kind in ("server_error", "truncated", "reset"):
        app = create_app(seed=0, limits=Limits(fault_rate=1.0, faults=(kind,)))  # type: ignore[arg-type]
        with serve_in_thread(app) as base, httpx.Client(timeout=30) as c:
            if kind == "server_error":
                assert c.get(base + url).status_code in (502, 503)
            elif kind == "truncated":
                r = c.get(base + url)
                assert r.status_code == 200 and not r.content.rstrip().endswith(b"</response>")
            else:
                with pytest.raises(httpx.HTTPError):
                    c.get(base + url)


def test_fault_schedule_is_seeded() -> None:
    def schedule(seed: int) -> list[str | None]:
        app = create_app(seed=seed, limits=Limits(fault_rate=0.3))
        return [app.state.fault() for _ in range(40)]

    assert schedule(1) == schedule(1)
    assert schedule(1) != schedule(2)
    assert 0 < sum(f is not None for f in schedule(1)) < 40
