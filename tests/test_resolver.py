"""The resolver's tiers, miss policies, headers and faults, through the httpx transport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import FaultConfig, ReplayMiss, SimTransport
from tests.helpers import STATIONS, build_demo_version, resolver_for, station_records


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
    r = client.get("https://apis.data.go.kr/1613000/NoSuchService/op")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["type"] == "unknown_endpoint" and "known paths" in err["message"]
    r = client.get("https://example.com/x")
    assert "unknown host" in r.json()["error"]["message"]


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
