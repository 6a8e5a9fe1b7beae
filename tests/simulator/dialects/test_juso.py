"""juso.go.kr dialect: real samples round-trip, currentPage/countPerPage windows and the
9,000-result window, string counts, ``[]`` on zero hits, ``null`` on errors, JSON and XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.dialects import Split, SplitError, get_dialect
from simulator.dialects.juso import JusoDialect
from tests.support.dialect_helpers import (
    SAMPLES,
    body_cases,
    case_params,
    fidelity,
    load_cases,
    match_url,
    platform_catalog,
)

CASES = load_cases("juso")
JUSO = JusoDialect()
CATALOG = platform_catalog("juso")
SEARCH = "https://business.juso.go.kr/addrlink/addrLinkApi.do"
DETAIL = "https://business.juso.go.kr/addrlink/addrDetailApi.do"


def _match(url: str, **params: str) -> Any:
    return match_url(CATALOG, f"{url}?{urlencode(params)}")


def _split(url: str, **params: str) -> Split:
    return JUSO.split(_match(url, **params))


def _detail(**params: str) -> Split:
    """A detail-API split for the test building plus ``params``."""
    building = {"admCd": "1144012700", "rnMgtSn": "114403113012", "buldMnnm": "301"}
    return _split(DETAIL, confmKey="k", **building, **params)


def _addresses(n: int) -> list[dict[str, Any]]:
    return [
        {
            "roadAddr": f"서울특별시 서초구 서초대로 {i + 1}",
            "zipNo": "06675",
            "admCd": "1165010100",
            "buldMnnm": str(i + 1),
        }
        for i in range(n)
    ]


# ---- real samples --------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params(body_cases(CASES)))
def test_fidelity(case: dict[str, Any]) -> None:
    result = fidelity(CATALOG, case)
    assert result.ok, result.differences


def test_every_sample_is_listed() -> None:
    assert {c["sample"] for c in CASES} == {f"juso/{p.name}" for p in (SAMPLES / "juso").iterdir()}


@pytest.mark.parametrize(
    "sample, kind",
    [
        ("juso/addrDetailApi_E0001_unapproved_key.json", "invalid_key"),
        ("juso/addrDetailApi_E0002_missing_admCd.json", "missing_param"),
    ],
)
def test_error_samples_read_back_as_their_kind(sample: str, kind: str) -> None:
    p = JUSO.parse(CATALOG.endpoint("juso_address_detail"), (SAMPLES / sample).read_bytes(), "json")
    assert (p.outcome, p.kind, p.total, p.envelope) == ("error", kind, None, {})


def test_parse_counts_and_zero_hits() -> None:
    ep = CATALOG.endpoint("juso_address_search")
    big = JUSO.parse(
        ep, (SAMPLES / "juso/addrLinkApi_countPerPage1_total16246_seocho.json").read_bytes(), "json"
    )
    assert (big.outcome, big.total, len(big.records)) == ("ok", 16246, 1)
    assert (
        big.records[0]["admCd"] == "1165010100" and big.records[0]["roadAddrPart2"] == " (방배동)"
    )
    zero = JUSO.parse(ep, (SAMPLES / "juso/addrLinkApi_zero_results.json").read_bytes(), "json")
    assert (zero.outcome, zero.total, zero.records, zero.kind) == ("ok", 0, [], None)


# ---- windows -------------------------------------------------------------------------------
def test_current_page_window() -> None:
    s = _split(
        SEARCH,
        confmKey="k",
        keyword="서초대로",
        currentPage="3",
        countPerPage="20",
        resultType="json",
    )
    assert (s.window.offset, s.window.limit, s.window.page, s.window.size, s.fmt) == (
        40,
        20,
        3,
        20,
        "json",
    )
    assert s.filters == {"keyword": "서초대로"}
    d = _split(SEARCH, confmKey="k", keyword="서초대로")
    assert (d.window.offset, d.window.limit, d.fmt) == (0, 10, "xml")


def test_count_per_page_is_clamped_to_100() -> None:
    s = _split(SEARCH, confmKey="k", keyword="서초대로", countPerPage="500")
    assert (s.window.limit, s.window.size) == (100, 100)


def test_result_window_of_9000() -> None:
    ok = _split(SEARCH, confmKey="k", keyword="서초대로", currentPage="90", countPerPage="100")
    assert ok.window.offset == 8900
    with pytest.raises(SplitError) as far:
        _split(SEARCH, confmKey="k", keyword="서초대로", currentPage="91", countPerPage="100")
    assert (far.value.kind, far.value.detail) == ("page_too_large", "E0015")
    r = JUSO.render_error(
        CATALOG.endpoint("juso_address_search"), far.value.kind, "json", far.value.detail
    )
    assert json.loads(r.body) == {
        "results": {
            "common": {
                "errorMessage": "검색 범위를 초과하였습니다.",
                "errorCode": "E0015",
                "totalCount": "0",
            },
            "juso": None,
        }
    }


def test_unpaged_detail_takes_the_whole_list() -> None:
    s = _detail(searchType="floorho")
    assert (s.window.offset, s.window.limit) == (0, 1000)
    assert s.filters == {
        "admCd": "1144012700",
        "rnMgtSn": "114403113012",
        "buldMnnm": "301",
        "searchType": "floorho",
    }


@pytest.mark.parametrize(
    "params, kind, code",
    [
        ({"confmKey": "k"}, "missing_param", "E0005"),
        ({"keyword": "서초"}, "missing_key", "E0001"),
        ({"confmKey": "k", "keyword": "서"}, "bad_param", "E0008"),
        ({"confmKey": "k", "keyword": "서초대로 % 1"}, "bad_param", "E0013"),
        ({"confmKey": "k", "keyword": "서초", "currentPage": "x"}, "bad_param", "-999"),
    ],
)
def test_native_errors(params: dict[str, str], kind: str, code: str) -> None:
    with pytest.raises(SplitError) as exc:
        _split(SEARCH, **params)
    assert exc.value.kind == kind
    ep = CATALOG.endpoint("juso_address_search")
    r = JUSO.render_error(ep, exc.value.kind, "json", exc.value.detail)
    assert r.status == 200
    common = json.loads(r.body)["results"]
    assert common["juso"] is None and common["common"]["errorCode"] == code


def test_detail_missing_admcd_is_e0002() -> None:
    with pytest.raises(SplitError) as exc:
        _split(DETAIL, confmKey="k", rnMgtSn="114403113012", buldMnnm="301", resultType="json")
    r = JUSO.render_error(
        CATALOG.endpoint("juso_address_detail"), exc.value.kind, "json", exc.value.detail
    )
    assert r.body == (SAMPLES / "juso/addrDetailApi_E0002_missing_admCd.json").read_bytes()


# ---- rendering -----------------------------------------------------------------------------
def test_render_search_page() -> None:
    s = _split(
        SEARCH,
        confmKey="k",
        keyword="서초대로",
        currentPage="2",
        countPerPage="2",
        resultType="json",
    )
    obj = json.loads(JUSO.render(s, _addresses(2), 513, {}).body)
    assert obj == {
        "results": {
            "common": {
                "errorMessage": "정상",
                "countPerPage": "2",
                "totalCount": "513",
                "errorCode": "0",
                "currentPage": "2",
            },
            "juso": _addresses(2),
        }
    }
    past = json.loads(JUSO.render(s, [], 3, {}).body)  # past the last page: an empty success
    assert past["results"]["juso"] == [] and past["results"]["common"]["totalCount"] == "3"
    no = json.loads(JUSO.render_error(s.endpoint, "no_data", "json").body)
    assert no["results"]["juso"] == [] and no["results"]["common"]["errorCode"] == "0"


def test_values_are_strings() -> None:
    s = _detail(resultType="json")
    obj = json.loads(JUSO.render(s, [{"buldMnnm": 301, "buldSlno": 0, "hoNm": None}], 1, {}).body)
    assert obj["results"] == {
        "common": {"errorMessage": "정상", "errorCode": "0", "totalCount": "1"},
        "juso": [{"buldMnnm": "301", "buldSlno": "0", "hoNm": ""}],
    }


def test_xml_round_trip() -> None:
    s = _split(SEARCH, confmKey="k", keyword="서초대로", countPerPage="3")
    r = JUSO.render(s, _addresses(3), 16246, {})
    root = ET.fromstring(r.body)
    assert root.tag == "results" and [c.tag for c in root] == ["common", "juso", "juso", "juso"]
    assert root.findtext("common/totalCount") == "16246"
    back = JUSO.parse(s.endpoint, r.body, "xml")
    assert (back.total, back.records) == (16246, _addresses(3))
    err = JUSO.render_error(s.endpoint, "invalid_key", "xml")
    p = JUSO.parse(s.endpoint, err.body, "xml")
    assert (p.code, p.kind) == ("E0001", "invalid_key")
    assert [c.tag for c in ET.fromstring(err.body)] == ["common"]


# ---- page requests -------------------------------------------------------------------------
def test_page_requests_stop_at_the_window() -> None:
    ep = CATALOG.endpoint("juso_address_search")
    pages = JUSO.page_requests(ep, {"keyword": "서초대로"}, 16246, "json")
    assert len(pages) == 90
    assert pages[0] == {
        "keyword": "서초대로",
        "resultType": "json",
        "currentPage": "1",
        "countPerPage": "100",
    }
    assert pages[-1]["currentPage"] == "90"
    assert len(JUSO.page_requests(ep, {"keyword": "서초대로"}, 250, "json")) == 3
    detail = CATALOG.endpoint("juso_address_detail")
    assert JUSO.page_requests(detail, {"admCd": "1144012700"}, 5000, "json") == [
        {"admCd": "1144012700", "resultType": "json"}
    ]


@settings(max_examples=60, deadline=None)
@given(total=st.integers(0, 12000), page=st.integers(1, 120), size=st.integers(1, 100))
def test_window_property(total: int, page: int, size: int) -> None:
    """Inside the 9,000-result window a page is the slice [(p-1)·s, p·s); beyond it, E0015."""
    records = [{"bdMgtSn": f"{i:025d}"} for i in range(total)]
    params = {
        "confmKey": "k",
        "keyword": "서초대로",
        "currentPage": str(page),
        "countPerPage": str(size),
    }
    if page * size > 9000:
        with pytest.raises(SplitError):
            _split(SEARCH, **params)
        return
    w = _split(SEARCH, **params).window
    assert records[w.offset : w.offset + w.limit] == records[(page - 1) * size : page * size]
    seen: list[dict[str, Any]] = []
    ep = CATALOG.endpoint("juso_address_search")
    for p in JUSO.page_requests(ep, {"keyword": "서초대로"}, total, "json"):
        pw = _split(SEARCH, confmKey="k", **p).window
        seen.extend(records[pw.offset : pw.offset + pw.limit])
    assert seen == records[:9000]


def test_registry_serves_this_module() -> None:
    assert isinstance(get_dialect("juso"), JusoDialect)
