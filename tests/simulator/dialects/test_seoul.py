"""Path-range dialects: Seoul Open Data and ECOS (``seoul``), Seoul real-time subway
(``swopenapi``). Real samples round-trip; 1-based and 0-based path windows; positional filters;
empty and error forms (XML whatever the type, where Seoul does that); page requests."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.catalog import Endpoint
from simulator.dialects import Split, SplitError, get_dialect
from simulator.dialects.seoul import SeoulDialect
from simulator.dialects.swopenapi import SwOpenApiDialect
from tests.support.dialect_helpers import (
    SAMPLES,
    case_params,
    fidelity,
    load_cases,
    match_url,
    platform_catalog,
)

CASES = load_cases("seoul")
SEOUL = SeoulDialect()
SUBWAY = SwOpenApiDialect()
CATALOG = platform_catalog("seoul", "ecos")
GENERAL = "http://openapi.seoul.go.kr:8088"
ARRIVALS = "http://swopenapi.seoul.go.kr/api/subway/k/json/realtimeStationArrival"


def _url(ep: Endpoint, params: dict[str, str]) -> str:
    """The URL of ``params`` for ``ep`` (path segments filled in; trailing absent ones dropped)."""
    path = ep.path
    for name in re.findall(r"\{([^}]+)\}", ep.path):
        path = path.replace("{" + name + "}", params.get(name, ""))
    path = re.sub(r"/+$", "", path)
    return f"http://{ep.host}{path}"


def _match(url: str) -> Any:
    return match_url(CATALOG, url)


def _split(url: str) -> Split:
    m = _match(url)
    return get_dialect(m.endpoint.dialect).split(m)  # type: ignore[return-value]


def _stations(n: int) -> list[dict[str, Any]]:
    return [
        {
            "STATION_CD": f"{150 + i:04d}",
            "STATION_NM": f"역{i}",
            "LINE_NUM": "01호선",
            "FR_CODE": f"{133 + i}",
        }
        for i in range(n)
    ]


def _arrivals(n: int) -> list[dict[str, Any]]:
    return [
        {
            "rowNum": i + 1,
            "subwayId": "1005",
            "statnNm": "까치산",
            "barvlDt": str(60 * i),
            "arvlCd": "99",
        }
        for i in range(n)
    ]


# ---- real samples --------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params(CASES))
def test_fidelity(case: dict[str, Any]) -> None:
    result = fidelity(CATALOG, case)
    assert result.ok, result.differences


def test_every_sample_is_listed() -> None:
    listed = {c["sample"] for c in CASES}
    dirs = ("seoul_openapi", "seoul_subway", "ecos")
    assert listed == {f"{d}/{p.name}" for d in dirs for p in (SAMPLES / d).iterdir()}
    assert all(c["skip"] for c in CASES if "skip" in c)


def test_content_types_of_the_non_body_samples() -> None:
    """The two skipped samples still show the content types the renders must carry."""
    headers = (
        SAMPLES / "seoul_openapi/StationAdresTelno_sample_http_response_headers_2015.txt"
    ).read_text()
    json_type = re.search(r"'content-type': '([^']+)'", headers)
    console = (SAMPLES / "seoul_openapi/INFO-100_console_with_content_type.txt").read_text()
    xml_type = re.search(r"Content-Type: (\S+)", console)
    assert json_type and xml_type
    ok = SEOUL.render(_split(f"{GENERAL}/k/json/StationAdresTelno/1/5/"), _stations(1), 121, {})
    assert ok.header("content-type") == json_type.group(1)
    err = SEOUL.render_error(CATALOG.endpoint("seoul_public_library"), "invalid_key", "json")
    assert err.header("content-type") == xml_type.group(1)


@pytest.mark.parametrize(
    "sample, endpoint, kind",
    [
        (
            "seoul_openapi/INFO-100_invalid_key_xml_on_json_request.xml",
            "seoul_public_library",
            "invalid_key",
        ),
        (
            "seoul_subway/realtimeStationArrival_INFO-200_no_data.json",
            "seoul_subway_arrivals",
            "no_data",
        ),
        (
            "seoul_subway/swopenapi_ERROR-336_over_1000_rows.json",
            "seoul_subway_arrivals",
            "page_too_large",
        ),
        ("ecos/INFO-100_invalid_key_observed_bytes.json", "ecos_stat_tables", "invalid_key"),
        ("ecos/INFO-200_no_data.json", "ecos_stat_search", "no_data"),
    ],
)
def test_error_samples_read_back_as_their_kind(sample: str, endpoint: str, kind: str) -> None:
    ep = CATALOG.endpoint(endpoint)
    body = (SAMPLES / sample).read_bytes()
    fmt = "xml" if body.startswith(b"<") else "json"
    p = get_dialect(ep.dialect).parse(ep, body, fmt)
    assert p.kind == kind and p.envelope == {}


def test_error_335_has_no_kind_and_renders_from_the_envelope() -> None:
    ep = CATALOG.endpoint("seoul_station_address")
    p = SEOUL.parse(
        ep, (SAMPLES / "seoul_openapi/ERROR-335_sample_key_limit_xml.xml").read_bytes(), "xml"
    )
    assert (p.outcome, p.code, p.kind) == ("error", "ERROR-335", None)
    assert p.envelope["error"]["message"] == "샘플데이터는 최대 5건"


# ---- Seoul general API: windows ------------------------------------------------------------
def test_one_based_inclusive_range() -> None:
    s = _split(f"{GENERAL}/k/json/StationAdresTelno/6/10/")
    assert (s.window.offset, s.window.limit, s.window.page, s.window.size, s.fmt) == (
        5,
        5,
        6,
        10,
        "json",
    )
    assert s.key == "seoul_station_address"
    x = _split(f"{GENERAL}/k/xmlf/StationAdresTelno/1/1000")
    assert (x.window.offset, x.window.limit, x.fmt) == (0, 1000, "xml")


def test_positional_filters_are_optional_and_part_of_the_key() -> None:
    a = _split(f"{GENERAL}/k/json/SearchInfoBySubwayNameService/1/5/서울역")
    b = _split(f"{GENERAL}/k/json/SearchInfoBySubwayNameService/1/5/")
    assert a.filters == {"STATION_NM": "서울역"} and b.filters == {}
    assert a.key != b.key
    c = _split(f"{GENERAL}/k/json/CardSubwayStatsNew/1/1000/20240830/1호선")
    assert c.filters == {"USE_YMD": "20240830", "SBWY_ROUT_LN_NM": "1호선"}
    with pytest.raises(SplitError) as missing:  # USE_YMD is required: Seoul's own ERROR-300
        _split(f"{GENERAL}/k/json/CardSubwayStatsNew/1/1000")
    assert missing.value.kind == "missing_param"


def test_range_errors() -> None:
    with pytest.raises(SplitError) as big:
        _split(f"{GENERAL}/k/json/TbPublicWifiInfo/1/1001")
    assert big.value.kind == "page_too_large"
    for bad in ("5/1", "a/5", "0/5"):
        with pytest.raises(SplitError) as exc:
            _split(f"{GENERAL}/k/json/TbPublicWifiInfo/{bad}")
        assert exc.value.kind == "bad_param"


def test_xml_errors_whatever_the_requested_type() -> None:
    ep = CATALOG.endpoint("seoul_public_wifi")
    key = SEOUL.render_error(ep, "invalid_key", "json")
    assert key.status == 200
    assert key.body.startswith(b"<RESULT><CODE>INFO-100</CODE><MESSAGE><![CDATA[")
    big = SEOUL.render_error(ep, "page_too_large", "json")
    assert ET.fromstring(big.body).findtext("CODE") == "ERROR-336"
    # other codes follow the requested type
    no = SEOUL.render_error(ep, "no_data", "json")
    assert json.loads(no.body) == {
        "RESULT": {"CODE": "INFO-200", "MESSAGE": "해당하는 데이터가 없습니다."}
    }
    assert (
        ET.fromstring(SEOUL.render_error(ep, "no_data", "xml").body).findtext("CODE") == "INFO-200"
    )


def test_sample_key_limit() -> None:
    err = SEOUL.check_key(_match(f"{GENERAL}/sample/json/StationAdresTelno/1/10/"))
    assert err is not None and err.kind == "page_too_large" and err.detail == "ERROR-335"
    r = SEOUL.render_error(CATALOG.endpoint("seoul_station_address"), err.kind, err.fmt, err.detail)
    assert ET.fromstring(r.body).findtext("CODE") == "ERROR-335"
    assert SEOUL.check_key(_match(f"{GENERAL}/sample/json/StationAdresTelno/1/5/")) is None
    assert SEOUL.check_key(_match(f"{GENERAL}/realkey/json/StationAdresTelno/1/10/")) is None


# ---- Seoul general API: rendering ----------------------------------------------------------
def test_render_json_and_xml() -> None:
    s = _split(f"{GENERAL}/k/json/SearchInfoBySubwayNameService/3/4")
    obj = json.loads(SEOUL.render(s, _stations(2), 799, {}).body)
    assert obj == {
        "SearchInfoBySubwayNameService": {
            "list_total_count": 799,
            "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"},
            "row": _stations(2),
        }
    }
    x = SEOUL.render(
        _split(f"{GENERAL}/k/xml/SearchInfoBySubwayNameService/3/4"), _stations(2), 799, {}
    )
    root = ET.fromstring(x.body)
    assert [c.tag for c in root] == ["list_total_count", "RESULT", "row", "row"]
    back = SEOUL.parse(CATALOG.endpoint("seoul_subway_station_by_name"), x.body, "xml")
    assert (back.total, back.records) == (799, _stations(2))
    empty = SEOUL.render(s, [], 799, {})
    assert json.loads(empty.body)["RESULT"]["CODE"] == "INFO-200"


def test_page_requests_one_based() -> None:
    ep = CATALOG.endpoint("seoul_public_wifi")
    pages = SEOUL.page_requests(ep, {"X_SWIFI_WRDOFC": "중구"}, 2500, "json")
    assert [(p["START_INDEX"], p["END_INDEX"]) for p in pages] == [
        ("1", "1000"),
        ("1001", "2000"),
        ("2001", "3000"),
    ]
    assert pages[0] == {
        "X_SWIFI_WRDOFC": "중구",
        "TYPE": "json",
        "START_INDEX": "1",
        "END_INDEX": "1000",
    }


# ---- ECOS ----------------------------------------------------------------------------------
def test_ecos_success_has_no_result() -> None:
    s = _split(
        "https://ecos.bok.or.kr/api/StatisticSearch/k/json/kr/1/2/722Y001/M/202401/202412/0101000"
    )
    assert s.filters == {
        "LANG": "kr",
        "STAT_CODE": "722Y001",
        "CYCLE": "M",
        "START_TIME": "202401",
        "END_TIME": "202412",
        "ITEM_CODE1": "0101000",
    }
    rows = [{"STAT_CODE": "722Y001", "TIME": "202401", "DATA_VALUE": "3.5"}]
    assert json.loads(SEOUL.render(s, rows, 12, {}).body) == {
        "StatisticSearch": {"list_total_count": 12, "row": rows}
    }
    x = SEOUL.render(
        _split("https://ecos.bok.or.kr/api/StatisticItemList/k/xml/kr/1/5/722Y001"),
        [{"ITEM_CODE": "0101000", "DATA_CNT": 25}],
        23,
        {},
    )
    root = ET.fromstring(x.body)
    assert root.tag == "StatisticItemList" and [c.tag for c in root] == ["list_total_count", "row"]
    # XML-sourced DATA_CNT back to JSON takes the catalog's integer type
    back = SEOUL.parse(CATALOG.endpoint("ecos_stat_items"), x.body, "xml")
    j = SEOUL.render(
        _split("https://ecos.bok.or.kr/api/StatisticItemList/k/json/kr/1/5/722Y001"),
        back.records,
        back.total or 0,
        {},
    )
    assert json.loads(j.body)["StatisticItemList"]["row"] == [
        {"ITEM_CODE": "0101000", "DATA_CNT": 25}
    ]


def test_ecos_errors_follow_the_type() -> None:
    ep = CATALOG.endpoint("ecos_stat_search")
    r = SEOUL.render_error(ep, "invalid_key", "json")
    assert (
        r.body == '{"RESULT":{"CODE":"INFO-100","MESSAGE":"인증키가 유효하지 않습니다."}}'.encode()
    )
    assert (
        ET.fromstring(SEOUL.render_error(ep, "rate_limited", "xml").body).findtext("CODE")
        == "ERROR-602"
    )


def test_ecos_sample_key_is_clamped() -> None:
    m = _match("https://ecos.bok.or.kr/api/KeyStatisticList/sample/json/kr/1/100")
    assert SEOUL.check_key(m) is None
    w = SEOUL.sample_window(m, SEOUL.split(m).window)
    assert (w.offset, w.limit) == (0, 10)


# ---- swopenapi -----------------------------------------------------------------------------
def test_subway_window_is_zero_based() -> None:
    s = _split(f"{ARRIVALS}/0/5/까치산")
    assert (s.window.offset, s.window.limit, s.fmt) == (0, 6, "json")
    assert s.filters == {"statnNm": "까치산"} and s.endpoint.dialect == "swopenapi"
    assert _split(f"{ARRIVALS}/3/4/까치산").window.offset == 3
    with pytest.raises(SplitError) as big:
        _split(f"{ARRIVALS}/0/1000/ALL")
    assert big.value.kind == "page_too_large"
    r = SUBWAY.render_error(s.endpoint, "page_too_large", "json")
    assert json.loads(r.body) == {
        "status": 500,
        "code": "ERROR-336",
        "message": "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다.",
    }


def test_subway_render_and_empty() -> None:
    s = _split(f"{ARRIVALS}/0/5/까치산")
    obj = json.loads(SUBWAY.render(s, _arrivals(2), 2, {}).body)
    assert list(obj) == ["errorMessage", "realtimeArrivalList"]
    assert obj["errorMessage"] == {
        "status": 200,
        "code": "INFO-000",
        "message": "정상 처리되었습니다.",
        "link": "",
        "developerMessage": "",
        "total": 2,
    }
    assert obj["realtimeArrivalList"] == _arrivals(2)
    empty = SUBWAY.render(s, [], 0, {})
    assert empty.status == 200
    assert json.loads(empty.body) == {
        "status": 500,
        "code": "INFO-200",
        "message": "해당하는 데이터가 없습니다.",
        "link": "",
        "developerMessage": "",
        "total": 0,
    }


def test_subway_xml_round_trip() -> None:
    x = SUBWAY.render(
        _split(f"{ARRIVALS.replace('/json/', '/xml/')}/0/5/까치산"), _arrivals(3), 3, {}
    )
    root = ET.fromstring(x.body)
    assert root.tag == "realtimeStationArrival" and root.findtext("RESULT/code") == "INFO-000"
    ep = CATALOG.endpoint("seoul_subway_arrivals")
    back = SUBWAY.parse(ep, x.body, "xml")
    assert back.total == 3 and back.records[0]["rowNum"] == "1"
    j = SUBWAY.render(_split(f"{ARRIVALS}/0/5/까치산"), back.records, 3, {})
    assert json.loads(j.body)["realtimeArrivalList"][0]["rowNum"] == 1  # typed from the catalog


def test_subway_page_requests_zero_based() -> None:
    ep = CATALOG.endpoint("seoul_subway_arrivals")
    pages = SUBWAY.page_requests(ep, {"statnNm": "ALL"}, 2920, "json")
    assert [(p["START_INDEX"], p["END_INDEX"]) for p in pages] == [
        ("0", "999"),
        ("1000", "1999"),
        ("2000", "2999"),
    ]


# ---- the window property, both range bases -------------------------------------------------
FILTERS = {
    "seoul_public_wifi": {},
    "seoul_subway_arrivals": {"statnNm": "ALL"},
    "ecos_stat_tables": {"LANG": "kr"},
}


@settings(max_examples=60, deadline=None)
@given(
    endpoint=st.sampled_from(["seoul_public_wifi", "seoul_subway_arrivals", "ecos_stat_tables"]),
    total=st.integers(0, 2600),
    start=st.integers(0, 2600),
    size=st.integers(1, 1000),
)
def test_range_window_property(endpoint: str, total: int, start: int, size: int) -> None:
    """``/{start}/{end}`` serves records[start-base : end-base+1]; page requests cover all once."""
    ep = CATALOG.endpoint(endpoint)
    dialect = get_dialect(ep.dialect)
    base = int(ep.opt("range_base", 1))
    start = max(start, base)
    filters = FILTERS[endpoint]
    records = [{"X_SWIFI_MGR_NO": f"WF{i:05d}"} for i in range(total)]
    params = {
        "KEY": "k",
        "TYPE": "json",
        **filters,
        "START_INDEX": str(start),
        "END_INDEX": str(start + size - 1),
    }
    s = dialect.split(_match(_url(ep, params)))
    w = s.window
    assert s.filters == filters
    assert records[w.offset : w.offset + w.limit] == records[start - base : start - base + size]
    seen: list[dict[str, Any]] = []
    for page in dialect.page_requests(ep, filters, total, "json"):
        pw = dialect.split(_match(_url(ep, {"KEY": "k", **page}))).window
        seen.extend(records[pw.offset : pw.offset + pw.limit])
    assert seen == records


def test_registry_serves_these_modules() -> None:
    assert isinstance(get_dialect("seoul"), SeoulDialect)
    assert isinstance(get_dialect("swopenapi"), SwOpenApiDialect)
