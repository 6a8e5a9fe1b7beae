"""The resolver's tiers, miss policies, headers and faults, through the httpx transport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import FaultConfig, ReplayMiss, SimTransport
from tests.support.helpers import STATIONS, build_demo_version, resolver_for, station_records


def _items(resp: httpx.Response) -> tuple[list[dict[str, object]], int]:
    body = resp.json()["response"]["body"]
    items = body["items"]
    if items == "":
        return [], body["totalCount"]
    item = items["item"]
    return (item if isinstance(item, list) else [item]), body["totalCount"]


@pytest.fixture
def client(tmp_path: Path) -> httpx.Client:
    build_demo_version(tmp_path)
    return httpx.Client(transport=SimTransport(resolver_for(tmp_path)))


def test_window_tier_pages_and_headers(client: httpx.Client, tmp_path: Path) -> None:
    r = client.get(STATIONS, params={"serviceKey": "k", "_type": "json", "cityCode": "25", "pageNo": 2, "numOfRows": 10})
    assert r.status_code == 200
    assert r.headers["x-sim-source"] == "window"
    assert len(r.headers["x-sim-version"]) == 64
    items, total = _items(r)
    assert total == 57
    assert [i["nodeid"] for i in items] == [s["nodeid"] for s in station_records(57)[10:20]]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(page=st.integers(1, 8), size=st.integers(1, 60))
def test_every_window_is_the_right_slice(client: httpx.Client, page: int, size: int) -> None:
    r = client.get(STATIONS, params={"_type": "json", "cityCode": "25", "pageNo": page, "numOfRows": size})
    items, total = _items(r)
    assert total == 57
    want = station_records(57)[(page - 1) * size : page * size]
    assert [i["nodeid"] for i in items] == [s["nodeid"] for s in want]


def test_xml_rendering_of_a_json_recording(client: httpx.Client) -> None:
    r = client.get(STATIONS, params={"cityCode": "25", "numOfRows": 3})
    assert r.text.lstrip().startswith("<")
    assert r.text.count("<item>") == 3 and "<totalCount>57</totalCount>" in r.text


def test_query_tier_answers_unrecorded_filter(client: httpx.Client) -> None:
    r = client.get(STATIONS, params={"_type": "json", "cityCode": "25", "nodeNm": "대전역", "numOfRows": 100})
    assert r.headers["x-sim-source"] == "query"
    items, total = _items(r)
    want = [s for s in station_records(57) if "대전역" in str(s["nodenm"])]
    assert total == len(want) == 9
    assert [i["nodeid"] for i in items] == [s["nodeid"] for s in want]


def test_exact_tier_is_verbatim(client: httpx.Client) -> None:
    r = client.get("https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList",
                   params={"_type": "json", "serviceKey": "another-key"})
    assert r.headers["x-sim-source"] == "exact"
    assert r.content == '{"response":{"header":{"resultCode":"00","resultMsg":"NORMAL SERVICE."}}}'.encode()


def test_strict_miss_names_nearest_and_fix(client: httpx.Client) -> None:
    with pytest.raises(ReplayMiss) as info:
        client.get(STATIONS, params={"_type": "json", "cityCode": "26"})
    msg = str(info.value)
    assert "cityCode=26" in msg and "cityCode='26' vs '25'" in msg
    assert "simulator record --live" in msg
    assert info.value.nearest


def test_native_miss_answers_like_the_api(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    c = httpx.Client(transport=SimTransport(resolver_for(tmp_path, miss="native")))
    r = c.get(STATIONS, params={"_type": "json", "cityCode": "26"})
    assert r.status_code == 200 and r.headers["x-sim-source"] == "miss"
    assert r.json()["response"]["header"]["resultCode"] == "00"
    assert _items(r) == ([], 0)


def test_unknown_endpoint_is_a_clear_error(client: httpx.Client) -> None:
    # An unknown path on a known host is inferred from its platform: a miss naming both.
    with pytest.raises(ReplayMiss) as info:
        client.get("https://apis.data.go.kr/1613000/NoSuchService/op")
    assert "was inferred from platform" in str(info.value) and "known paths" in str(info.value)
    r = client.get("https://example.com/x")
    assert "unknown host" in r.json()["error"]["message"]


def test_an_unknown_path_suggests_the_nearest_known_paths_first(client: httpx.Client) -> None:
    """A typo'd operation lists its intended path first, not the host's first paths A to Z."""
    with pytest.raises(ReplayMiss) as info:
        client.get("https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoLst")
    known = str(info.value).split("known paths: ", 1)[1]
    assert known.startswith("/1613000/BusSttnInfoInqireService/getSttnNoList")


def test_bad_page_gets_native_error_not_exception(client: httpx.Client) -> None:
    r = client.get(STATIONS, params={"_type": "json", "cityCode": "25", "pageNo": "abc"})
    assert r.headers["x-sim-source"] == "error"
    assert r.status_code in (200, 400)


def test_faults_are_seeded_and_replay_exactly(tmp_path: Path) -> None:
    build_demo_version(tmp_path)

    def run() -> list[str]:
        res = resolver_for(tmp_path, faults=FaultConfig(seed=7, rate=0.5))
        t = SimTransport(res, episode="ep-1")
        c = httpx.Client(transport=t)
        out = []
        for i in range(40):
            try:
                r = c.get(STATIONS, params={"_type": "json", "cityCode": "25", "pageNo": 1 + i % 5})
                out.append(f"{r.headers['x-sim-source']}:{r.headers.get('x-sim-fault')}:{len(r.content)}")
            except httpx.ReadTimeout:
                out.append("timeout")
        return out

    a, b = run(), run()
    assert a == b
    assert any(x.startswith("fault") or x == "timeout" for x in a)
    assert any(x.startswith("window") for x in a)


def test_async_transport(tmp_path: Path) -> None:
    import asyncio

    from simulator import AsyncSimTransport

    build_demo_version(tmp_path)

    async def go() -> bytes:
        async with httpx.AsyncClient(transport=AsyncSimTransport(resolver_for(tmp_path))) as c:
            r = await c.get(STATIONS, params={"_type": "json", "cityCode": "25"})
            return r.content

    sync = httpx.Client(transport=SimTransport(resolver_for(tmp_path))).get(
        STATIONS, params={"_type": "json", "cityCode": "25"}
    ).content
    assert asyncio.run(go()) == sync
    assert json.loads(sync)["response"]["body"]["totalCount"] == 57


# ---- a required trailing path segment left out (Seoul, ECOS, swopenapi) ------------------
SEOUL_CARD = "http://openapi.seoul.go.kr:8088/KEY/json/CardSubwayStatsNew/1/5"


def test_missing_trailing_required_segment_gets_native_missing_param(tmp_path: Path) -> None:
    from simulator.catalog import load_catalog
    from simulator.dialects import get_dialect

    build_demo_version(tmp_path)
    c = httpx.Client(transport=SimTransport(resolver_for(tmp_path)))
    ep = load_catalog().endpoint("seoul_card_subway_stats")
    for url, fmt in ((SEOUL_CARD, "json"), (SEOUL_CARD.replace("/json/", "/xml/") + "/", "xml")):
        r = c.get(url)
        assert r.headers["x-sim-source"] == "error", r.text
        want = get_dialect(ep.dialect).render_error(ep, "missing_param", fmt, "USE_YMD is required")
        assert (r.status_code, r.content) == (want.status, want.body)
        assert b"ERROR-300" in r.content
    # with the date it is an ordinary (unrecorded) request of the same endpoint
    with pytest.raises(ReplayMiss) as info:
        c.get(SEOUL_CARD + "/20240830")
    assert "seoul_card_subway_stats" in str(info.value)
    # the row range stays mandatory: without it no endpoint matches
    r = c.get(SEOUL_CARD.rsplit("/", 1)[0])
    assert r.json()["error"]["type"] == "unknown_endpoint"
    # ECOS and the real-time subway API answer their own missing-parameter codes
    r = c.get("https://ecos.bok.or.kr/api/StatisticWord/KEY/json/kr/1/10")
    assert r.headers["x-sim-source"] == "error" and r.json()["RESULT"]["CODE"] == "ERROR-100"
    r = c.get("http://swopenapi.seoul.go.kr/api/subway/KEY/json/realtimeStationArrival/0/5")
    assert r.headers["x-sim-source"] == "error" and r.json()["code"] == "ERROR-300"


def test_resolver_checks_required_path_params_for_any_dialect(tmp_path: Path) -> None:
    """A dialect that checks no required params (data.go.kr) still answers missing_param."""
    from simulator.catalog import Catalog, Param, load_catalog
    from simulator.dialects import get_dialect
    from simulator.request import SimRequest

    base = load_catalog()
    ep = base.endpoint("tago_stations_by_name")
    code = Param(name="code", location="path", required=True, role="filter", description="x")
    ep2 = ep.model_copy(
        update={
            "id": "tago_path_probe",
            "path": "/1613000/PathProbe/getList/{code}",
            "params": [*ep.params, code],
        }
    )
    plat = base.platforms[ep.platform].model_copy(update={"endpoints": [ep2]})
    build_demo_version(tmp_path)
    res = resolver_for(tmp_path, catalog=Catalog([plat]))
    url = "https://apis.data.go.kr/1613000/PathProbe/getList?serviceKey=k&_type=json&cityCode=25"
    r = res.resolve(SimRequest.from_url(url))
    want = get_dialect("datagokr").render_error(ep2, "missing_param", "json", "code is required")
    assert r.header("x-sim-source") == "error"
    assert (r.status, r.body) == (want.status, want.body)
    # with the segment the request is an ordinary miss
    r = res.resolve(SimRequest.from_url(url.replace("getList?", "getList/7?")))
    assert r.header("x-sim-source") == "miss"


# ---- the catalog's route index and the adapter's fast paths keep behaviour ---------------
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_route_index_offers_every_route_that_matches_in_order(data: st.DataObject) -> None:
    """``Catalog.match`` tries only indexed candidates: never one too few, never reordered."""
    from simulator.catalog import load_catalog

    cat = load_catalog()
    host = data.draw(st.sampled_from(sorted(cat._routes)))  # the index is keyed on canonical hosts
    routes = cat._routes[host]
    template = data.draw(st.sampled_from([r.endpoint.path for r in routes]))
    seg = st.sampled_from(["", "1", "json", "xml", "K", "api", "x y"])
    pieces = [
        data.draw(seg) if p.startswith("{") else (p if data.draw(st.booleans()) else p.upper())
        for p in template.strip("/").split("/")
    ]
    pieces = pieces[: len(pieces) - data.draw(st.integers(0, min(3, len(pieces))))]
    path = "/" + "/".join(pieces) + data.draw(st.sampled_from(["", "/", "//"]))
    candidates = cat._hosts[host].candidates(path)
    matching = [r for r in routes if r.regex.match(path)]
    assert [r for r in candidates if r in matching] == matching
    assert list(candidates) == sorted(candidates, key=routes.index)


@pytest.mark.parametrize(
    "query",
    [
        "serviceKey=a%2Bb%3D%3D&cityCode=25&nodeNm=%EB%8C%80%EC%A0%84",
        "a=1&b=2&a=3&flag&empty=&x=y=z",
        "q=a+b&&r=%20",
        "",
    ],
)
def test_httpx_request_conversion_matches_from_url(query: str) -> None:
    from simulator.request import SimRequest
    from simulator.transports import to_sim_request

    url = STATIONS + ("?" + query if query else "")
    sim = to_sim_request(httpx.Request("GET", url), b"")
    assert sim.query == SimRequest.from_url(url).query


@pytest.mark.parametrize(
    "headers, body",
    [
        ([("content-type", "application/json"), ("x-sim-source", "exact")], '{"a":"가"}'.encode()),
        ([("content-type", "text/plain"), ("content-length", "2")], b"ok"),
        ([("x-sim-source", "error")], b""),
        ([("content-encoding", "identity"), ("content-type", "text/plain")], b"plain"),
    ],
)
def test_transport_response_is_what_httpx_builds(headers: list[tuple[str, str]], body: bytes) -> None:
    from simulator.request import SimResponse
    from simulator.resolve import Resolution, Source
    from simulator.transports.httpx_transport import _to_httpx

    req = httpx.Request("GET", STATIONS)
    got = _to_httpx(req, Resolution(Source.EXACT, SimResponse(200, headers, body)), True)
    want = httpx.Response(200, headers=headers, content=body, request=req)
    assert got.headers.raw == want.headers.raw
    assert (got.content, got.text, got.is_closed, got.is_stream_consumed) == (
        want.content, want.text, want.is_closed, want.is_stream_consumed
    )
    assert list(got.iter_bytes()) == list(want.iter_bytes())


def test_memoised_identity_answers_repeats_identically(tmp_path: Path) -> None:
    from simulator.request import SimRequest

    build_demo_version(tmp_path)
    res = resolver_for(tmp_path)
    urls = [
        STATIONS + "?serviceKey=k&_type=json&cityCode=25&pageNo=2&numOfRows=5",  # window
        STATIONS + "?_type=json&cityCode=25&nodeNm=%EB%8C%80%EC%A0%84%EC%97%AD",  # query
        "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?_type=json",
        "https://apis.data.go.kr/1613000/NoSuchService/op",  # unknown endpoint
    ]
    first = [res.resolve(SimRequest.from_url(u)) for u in urls]
    again = [res.resolve(SimRequest.from_url(u)) for u in urls]
    assert [(r.status, r.headers, r.body) for r in first] == [
        (r.status, r.headers, r.body) for r in again
    ]
    fresh = resolver_for(tmp_path)
    assert [fresh.resolve(SimRequest.from_url(u)).body for u in urls] == [r.body for r in first]


def test_an_exact_hit_asked_again_is_answered_from_the_memo(tmp_path: Path) -> None:
    """The first two askings read the index; from the third on the answer memo serves it,
    byte for byte the same; with ``answer_memo_bytes=0`` every asking reads the index."""
    from simulator.request import SimRequest

    build_demo_version(tmp_path)
    url = "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?_type=json"
    for budget, reads_expected in ((None, 2), (0, 5)):
        res = resolver_for(tmp_path) if budget is None else resolver_for(tmp_path, answer_memo_bytes=budget)
        index = res.version.index
        reads = []
        real = index.interaction_parts

        def counted(fp: str, _real=real, _reads=reads):  # type: ignore[no-untyped-def]
            _reads.append(fp)
            return _real(fp)

        index.interaction_parts = counted  # type: ignore[method-assign]
        answers = [res.resolve(SimRequest.from_url(url)) for _ in range(5)]
        assert {a.source.value for a in answers} == {"exact"}
        assert len({(a.status, tuple(a.headers), a.body) for a in answers}) == 1
        assert len(reads) == reads_expected


def test_query_tier_uses_a_collection_recorded_for_a_query_value(tmp_path: Path) -> None:
    """FSC prices recorded for one basDt answer that basDt plus a name filter never asked."""
    from simulator import Resolver, Store, VersionBuilder, load_catalog

    recs = [
        {"basDt": "20250314", "srtnCd": f"{i:06d}", "isinCd": f"KR7{i:06d}003", "itmsNm": f"종목{i}",
         "mrktCtg": "KOSPI", "clpr": str(1000 + i)}
        for i in range(30)
    ]
    b = VersionBuilder(Store(tmp_path), "kopa", load_catalog(), parent=None)
    b.add_collection(endpoint="fsc_stock_prices", key="fsc_stock_prices?basDt=20250314",
                     filters={"basDt": "20250314"}, fmt="json", total=30, records=recs)
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    c = httpx.Client(transport=SimTransport(Resolver(Store(tmp_path).open("kopa"))))
    url = "https://apis.data.go.kr/1160100/service/GetStockSecuritiesInfoService/getStockPriceInfo"
    r = c.get(url, params={"resultType": "json", "basDt": "20250314", "likeSrtnCd": "000012"})
    assert r.headers["x-sim-source"] == "query"
    body = r.json()["response"]["body"]
    assert body["totalCount"] == 1 and body["items"]["item"][0]["itmsNm"] == "종목12"
    with pytest.raises(ReplayMiss):  # another day was never recorded
        c.get(url, params={"resultType": "json", "basDt": "20250317", "likeSrtnCd": "000012"})


def test_query_tier_prefers_the_collection_recorded_with_the_requests_values(tmp_path: Path) -> None:
    """OpenDART's list without bgn_de answers a default window, not every filing: a client asking
    a year with ``last_reprt_at=Y`` (OpenDartReader) is answered from the year's collection, not
    from the one recorded with ``corp_code`` alone (which would select nothing)."""
    from simulator import Resolver, Store, VersionBuilder, load_catalog

    def filing(day: str, name: str) -> dict[str, str]:
        return {"corp_code": "09529646", "corp_name": "일양삼익케미칼", "stock_code": "827420", "corp_cls": "K",
                "report_nm": name, "rcept_no": f"{day}000001", "flr_nm": "일양삼익케미칼", "rcept_dt": day, "rm": ""}

    year = [filing("20241114", "분기보고서 (2024.09)"), filing("20240515", "[기재정정]분기보고서 (2024.03)"),
            filing("20240314", "사업보고서 (2023.12)")]
    b = VersionBuilder(Store(tmp_path), "kopa", load_catalog(), parent=None)
    b.add_collection(endpoint="opendart_disclosures", key="opendart_disclosures?corp_code=09529646",
                     filters={"corp_code": "09529646"}, fmt="json", total=1,
                     records=[filing("20251120", "분기보고서 (2025.09)")])
    b.add_collection(endpoint="opendart_disclosures",
                     key="opendart_disclosures?bgn_de=20240101&corp_code=09529646&end_de=20241231",
                     filters={"corp_code": "09529646", "bgn_de": "20240101", "end_de": "20241231"},
                     fmt="json", total=3, records=year)
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    c = httpx.Client(transport=SimTransport(Resolver(Store(tmp_path).open("kopa"))))
    r = c.get("https://opendart.fss.or.kr/api/list.json", params={
        "crtfc_key": "k", "corp_code": "09529646", "bgn_de": "20240101", "end_de": "20241231",
        "last_reprt_at": "Y", "page_no": "1", "page_count": "100"})
    assert r.headers["x-sim-source"] == "query"
    assert [f["report_nm"] for f in r.json()["list"]] == ["분기보고서 (2024.09)", "사업보고서 (2023.12)"]
