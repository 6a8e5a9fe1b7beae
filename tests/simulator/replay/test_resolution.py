"""``Resolver.resolve`` returns a typed :class:`~simulator.resolve.Resolution`: the tier that
answered, the response, a strict miss's details and a fault's kind; adapters read those
fields, never a header or a JSON body."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from simulator import FaultConfig, ReplayMiss, SimTransport
from simulator.request import SimRequest
from simulator.resolve import MissDetails, Resolution, Source
from tests.support.helpers import STATIONS, build_demo_version, resolver_for

EXACT = "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?serviceKey=x&_type=json"


def test_each_tier_says_its_source(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    res = resolver_for(tmp_path)
    cases = {
        EXACT: Source.EXACT,
        STATIONS + "?_type=json&cityCode=25&pageNo=2&numOfRows=5": Source.WINDOW,
        STATIONS + "?_type=json&cityCode=25&nodeNm=%EB%8C%80%EC%A0%84%EC%97%AD": Source.QUERY,
        STATIONS + "?_type=json&cityCode=99": Source.MISS,
        "https://unknown.example.org/op": Source.ERROR,  # no catalog host: unknown endpoint
    }
    for url, source in cases.items():
        got = res.resolve(SimRequest.from_url(url))
        again = res.resolve(SimRequest.from_url(url))  # a remembered answer keeps its source
        assert isinstance(got, Resolution) and got.source is source and again.source is source, url
        assert got.header("x-sim-source") == source.value  # the wire says the same
        assert got.status == got.response.status and got.body == got.response.body
        assert got.header("x-sim-version") == res.version.content_hash
        assert (got.miss is not None) == (source is Source.MISS), url


def test_a_strict_miss_carries_its_details(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    got = resolver_for(tmp_path).resolve(SimRequest.from_url(STATIONS + "?_type=json&cityCode=99"))
    assert isinstance(got.miss, MissDetails)
    assert got.miss.endpoint == "tago_stations_by_name" and "cityCode=99" in got.miss.request
    assert got.miss.nearest and "cityCode" in got.miss.nearest[0]["differs"]
    assert got.status == 404 and json.loads(got.body)["error"]["message"] == got.miss.message
    native = resolver_for(tmp_path, miss="native").resolve(SimRequest.from_url(STATIONS + "?_type=json&cityCode=99"))
    assert native.source is Source.MISS and native.miss is None and native.status == 200


def test_a_fault_says_its_kind(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    res = resolver_for(tmp_path, faults=FaultConfig(seed=1, rate=1.0, kinds=("latency",)))
    got = res.resolve(SimRequest.from_url(EXACT))
    assert got.source is Source.FAULT and got.fault == "latency"
    assert got.header("x-sim-latency-ms") == "250" and got.header("x-sim-version") == res.version.content_hash


def test_adapters_raise_a_strict_miss_from_its_details(tmp_path: Path) -> None:
    import requests

    from simulator.transports.requests_adapter import SimAdapter

    build_demo_version(tmp_path)
    resolver = resolver_for(tmp_path)
    want = resolver.resolve(SimRequest.from_url(STATIONS + "?_type=json&cityCode=99")).miss
    assert want is not None
    client = httpx.Client(transport=SimTransport(resolver))
    with pytest.raises(ReplayMiss) as info:
        client.get(STATIONS, params={"_type": "json", "cityCode": "99"})
    assert str(info.value).startswith(want.message[:60]) and info.value.nearest == want.nearest
    session = requests.Session()
    session.mount("https://", SimAdapter(resolver))
    with pytest.raises(ReplayMiss) as again:
        session.get(STATIONS, params={"_type": "json", "cityCode": "99"})
    assert again.value.nearest == want.nearest
    assert client.get(STATIONS, params={"_type": "json", "cityCode": "99"} | {"cityCode": "25"}).status_code == 200
