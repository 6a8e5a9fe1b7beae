"""Every chain of the world walked over HTTP: `simulator serve`'s app on a real uvicorn
server on loopback, answering from the shipped cassettes (windows and unrecorded filters)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from simulator import Resolver, Store
from simulator.server import create_app
from tests.support.loopback import serve_in_thread

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def get(shipped_store: Store) -> Iterator[Any]:
    store = shipped_store
    app = create_app(Resolver(store.open("kopa")), store)
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=30) as client:

        def get(path: str, **params: Any) -> tuple[Any, str]:
            r = client.get(path, params=params)
            assert r.status_code == 200, r.text[:300]
            return r.json(), r.headers["x-sim-source"]

        yield get


def _dg_items(data: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    body = data.get("response", data)["body"]
    items = body["items"]
    if items == "":
        return [], int(body.get("totalCount", 0))
    item = items["item"] if isinstance(items, dict) else items
    rows = item if isinstance(item, list) else [item]
    return rows, int(body.get("totalCount", len(rows)))  # the city list reports no count


TRADES = "/apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade"
REGIONS = "/apis.data.go.kr/1741000/StanReginCd/getStanReginCdList"


def test_winner_to_member_to_bills_and_district_to_trades(get: Any) -> None:
    # election code → winners → the winner of 종로구 (a filter value never recorded; from
    # kopa@v0010, world edition 9, the 22nd election has the real 지역구: 종로구 is one, not 갑/을)
    data, _ = get("/apis.data.go.kr/9760000/CommonCodeService/getCommonSgCodeList", resultType="json", numOfRows=100)
    assert "20240410" in {i["sgId"] for i in _dg_items(data)[0]}
    data, src = get("/apis.data.go.kr/9760000/WinnerInfoInqireService2/getWinnerInfoInqire",
                    resultType="json", sgId="20240410", sgTypecode="2", sggName="종로구")
    (winner,), _ = _dg_items(data)
    assert src == "query"
    # → the Assembly member of the same name → their bills
    data, src = get("/open.assembly.go.kr/portal/openapi/nwvrqwxyaytdsfvhu", KEY="k", Type="json", HG_NM=winner["name"])
    member = data["nwvrqwxyaytdsfvhu"][1]["row"][0]
    assert src == "query" and member["ORIG_NM"] == "서울 종로구"
    data, _ = get("/open.assembly.go.kr/portal/openapi/nzmimeepazxkubdpn", KEY="k", Type="json", AGE="22",
                  PROPOSER=member["HG_NM"], pSize=100)
    bills = data["nzmimeepazxkubdpn"][1]["row"]
    assert bills and all(member["HG_NM"] in b["PROPOSER"] for b in bills)
    # → the district's legal-dong code → LAWD_CD → apartment trades, every page
    data, _ = get(REGIONS, type="json", locatadd_nm=f"{winner['sdName']} {winner['wiwName']}", numOfRows=10)
    lawd = data["StanReginCd"][1]["row"][0]["region_cd"][:5]
    assert lawd == "11110"
    seen: list[dict[str, Any]] = []
    page = 1
    while True:
        data, src = get(TRADES, LAWD_CD=lawd, DEAL_YMD="202503", numOfRows=40, pageNo=page, type="json")
        items, total = _dg_items(data)
        seen += items
        if len(seen) >= total or not items:
            break
        page += 1
    assert src == "window" and len(seen) == total > 40


def test_corp_code_to_filings_and_stock_code_to_prices(get: Any) -> None:
    corp = "09529646"  # 일양삼익케미칼, an invented listed company the plan records
    data, _ = get("/opendart.fss.or.kr/api/company.json", corp_code=corp)
    assert data["status"] == "000" and data["stock_code"] == "827420" and data["ceo_nm"]
    stock = data["stock_code"]
    data, src = get("/opendart.fss.or.kr/api/list.json", corp_code=corp, bgn_de="20240101", end_de="20241231",
                    page_count=3, page_no=1)
    assert data["status"] == "000" and data["list"][0]["stock_code"] == stock
    data, src = get("/apis.data.go.kr/1160100/service/GetStockSecuritiesInfoService/getStockPriceInfo",
                    resultType="json", basDt="20250314", likeSrtnCd=stock)
    items, total = _dg_items(data)
    assert src == "query" and total >= 1 and items[0]["srtnCd"] == stock
    # a real company: its name and codes only (no CEO), and no price
    data, _ = get("/opendart.fss.or.kr/api/company.json", corp_code="00126380")
    assert data["status"] == "000" and data["stock_code"] == "005930" and data["ceo_nm"] == ""
    data, src = get("/apis.data.go.kr/1160100/service/GetStockSecuritiesInfoService/getStockPriceInfo",
                    resultType="json", basDt="20250314", likeSrtnCd="005930")
    assert _dg_items(data)[1] == 0


def test_city_and_station_to_arrivals(get: Any) -> None:
    data, _ = get("/apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList", _type="json")
    assert "25" in {str(i["citycode"]) for i in _dg_items(data)[0]}
    data, _ = get("/apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList",
                  _type="json", cityCode="25", numOfRows=1)
    (station,), _ = _dg_items(data)
    data, src = get("/apis.data.go.kr/1613000/ArvlInfoInqireService/getSttnAcctoArvlPrearngeInfoList",
                    _type="json", cityCode="25", nodeId=station["nodeid"])
    items, total = _dg_items(data)
    assert src == "window" and total == len(items) >= 1


def test_election_to_candidates_and_school_to_meals(get: Any) -> None:
    data, src = get("/apis.data.go.kr/9760000/PofelcddInfoInqireService/getPofelcddRegistSttusInfoInqire",
                    resultType="json", sgId="20240410", sgTypecode="2", sdName="서울특별시", numOfRows=100)
    items, total = _dg_items(data)
    assert src == "query" and total >= 1 and {i["sdName"] for i in items} == {"서울특별시"}
    data, src = get("/open.neis.go.kr/hub/schoolInfo", Type="json", SCHUL_NM="초등학교", pSize=1)
    school = data["schoolInfo"][1]["row"][0]
    data, src = get("/open.neis.go.kr/hub/mealServiceDietInfo", Type="json", pSize=5,
                    ATPT_OFCDC_SC_CODE=school["ATPT_OFCDC_SC_CODE"], SD_SCHUL_CODE=school["SD_SCHUL_CODE"])
    assert src == "window" and len(data["mealServiceDietInfo"][1]["row"]) == 5
