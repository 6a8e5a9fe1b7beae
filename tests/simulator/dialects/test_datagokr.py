"""The data.go.kr dialect: real samples round-trip, windows, empty forms, quirks and errors."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.catalog import Endpoint, load_catalog
from simulator.dialects import Split, SplitError, equivalent, get_dialect
from simulator.dialects.datagokr import DIALECT
from simulator.errors import DialectError
from simulator.fidelity import check_fidelity, sniff_format
from simulator.request import SimRequest
from tests.support.dialect_helpers import SAMPLES, case_params, fidelity, load_cases, match_url

CASES = load_cases("datagokr")
CATALOG = load_catalog()
#: The curated data.go.kr catalog files (parts; ``datagokr_misc`` holds several agencies' platforms).
PLATFORMS = ("tago", "fsc", "nec", "molit", "mois", "datagokr_misc")
SAMPLE_DIRS = sorted([p.name for p in SAMPLES.glob("datagokr_*")] + ["nec", "mois_stanregincd"])

needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared samples not present")


def _ep(endpoint_id: str) -> Endpoint:
    return CATALOG.endpoint(endpoint_id)


def _split(url: str, fmt: str | None = None) -> Split:
    """Match ``url`` and split it; ``fmt`` overrides the format (as check_fidelity does)."""
    split = DIALECT.split(match_url(CATALOG, url))
    return split if fmt is None else replace(split, fmt=fmt)


def _url(path: str, **params: str) -> str:
    qs = "&".join(f"{k}={quote(v)}" for k, v in params.items())
    return f"https://apis.data.go.kr{path}?serviceKey=KEY&{qs}"


# ---- real samples ------------------------------------------------------------------------------
@needs_samples
@pytest.mark.parametrize("case", case_params(CASES))
def test_sample_round_trips(case: dict[str, Any]) -> None:
    result = fidelity(CATALOG, case)
    assert result.ok, "\n".join(result.differences)
    assert CATALOG.endpoint(result.endpoint).part_id in PLATFORMS


@needs_samples
def test_every_sample_of_the_family_has_a_case() -> None:
    listed = {c["sample"] for c in CASES}
    on_disk = {f"{d}/{f.name}" for d in SAMPLE_DIRS for f in (SAMPLES / d).iterdir()}
    assert on_disk - listed == set()
    assert listed - on_disk == set()


def test_catalog_platforms_use_this_dialect() -> None:
    for pid in PLATFORMS:
        plat = CATALOG.parts[pid]
        assert plat.dialect == "datagokr"
        assert plat.key_env == "KOPA_KEY_DATAGOKR"
        for ep in plat.endpoints:
            assert ep.id.startswith(pid + "_")
            auth = ep.params_with_role("auth")
            assert [p.name for p in auth] == ["serviceKey"] and auth[0].aliases == ["ServiceKey"]
            assert ep.fields, ep.id
    assert get_dialect("datagokr") is DIALECT
    assert {p.domain for p in CATALOG.parts.values() if p.id in PLATFORMS} == {
        "traffic",
        "finance",
        "politics",
        "district",
    }


# ---- samples that are not raw bodies: parsed after undoing what the quoting source did --------
@needs_samples
def test_tago_city_codes_pasted_body() -> None:
    body = b"{" + (SAMPLES / "datagokr_tago/getCtyCodeList_as_pasted.txt").read_bytes()
    url = _url("/1613000/BusRouteInfoInqireService/getCtyCodeList", _type="json")
    result = check_fidelity(CATALOG, url, body)
    assert result.ok, result.differences
    # Byte for byte, `\/` escapes and all: the body has no counts, only items.
    assert result.rendered == body.rstrip(b"\n")
    parsed = DIALECT.parse(_ep("tago_city_codes"), body, "json")
    assert parsed.total is None and parsed.records[0] == {"citycode": 12, "cityname": "세종특별시"}
    assert any(r["cityname"] == "대전광역시/계룡시" for r in parsed.records)


@needs_samples
def test_rtms_trimmed_xml_parses() -> None:
    body = (
        SAMPLES / "datagokr_molit/RTMSDataSvcAptTrade_gangnam_real_xml_field_trimmed.xml"
    ).read_bytes()
    parsed = DIALECT.parse(_ep("molit_apt_trades"), body, sniff_format(body))
    assert parsed.outcome == "ok" and parsed.total is None
    # RTMS blanks are one space and amounts keep their leading spaces: values are served verbatim.
    assert parsed.records[0] == {
        "aptDong": " ",
        "aptNm": "우성사원5",
        "dealAmount": "  95,000",
        "excluUseAr": "84.99",
    }
    assert len(parsed.records) == 2


@needs_samples
def test_rtms_json_zero_results_documented() -> None:
    text = (
        SAMPLES / "datagokr_molit/RTMS_type_json_LAWD_CD_99999_zero_results_as_documented.txt"
    ).read_text()
    body = text[text.index("{") : text.rindex("}") + 1].encode()
    url = _url(
        "/1613000/RTMSDataSvcAptTradeDev/getRTMSDataSvcAptTradeDev",
        LAWD_CD="99999",
        DEAL_YMD="202607",
        numOfRows="3",
        type="json",
    )
    result = check_fidelity(CATALOG, url, body)
    assert result.ok, result.differences
    assert result.outcome == "empty"
    assert json.loads(result.rendered) == {
        "header": {"resultCode": "000", "resultMsg": "OK"},
        "body": {"items": "", "numOfRows": "3", "pageNo": "1", "totalCount": "0"},
    }


@needs_samples
def test_tourapi_numeric_coercion() -> None:
    """Old TourAPI JSON: numbers unless the text would change (``"04628"``, ``"37.3293930470"``)."""
    text = (
        SAMPLES
        / "datagokr_tourapi/KorService_areaBasedList_json_2021_numeric_coercion_total9543.txt"
    ).read_text()
    body = ('{"response":' + text[text.index("{") :].strip() + "}").encode()
    ep = _ep("datagokr_misc_tour_keyword_v1")
    parsed = DIALECT.parse(ep, body, "json")
    assert parsed.total == 9543 and len(parsed.records) == 10
    url = _url("/B551011/KorService1/searchKeyword1", MobileOS="ETC", MobileApp="t", keyword="x")
    # JSON → XML (all strings) → JSON gives the original types back.
    xml = DIALECT.render(_split(url, "xml"), parsed.records, 9543, {}).body
    from_xml = DIALECT.parse(ep, xml, "xml")
    assert all(isinstance(v, str) for r in from_xml.records for v in r.values())
    again = DIALECT.render(_split(url, "json"), from_xml.records, 9543, {}).body
    assert equivalent(body, again, "json") == []
    rec = json.loads(again)["response"]["body"]["items"]["item"]
    assert rec[4]["zipcode"] == "04628" and rec[0]["zipcode"] == 26116
    assert rec[0]["mapy"] == "37.3293930470" and rec[0]["mapx"] == 128.7856840399


@needs_samples
def test_g2b_body_only_parses() -> None:
    body = (
        SAMPLES
        / "datagokr_g2b"
        / "ScsbidInfoService_getScsbidListSttusServcPPSSrch_body_only_items_bare_array.json"
    ).read_bytes()
    parsed = DIALECT.parse(_ep("datagokr_misc_g2b_award_results"), body, "json")
    assert parsed.total == 249 and parsed.records[0]["bidNtceNo"] == "R26BK01659568"


# ---- windows -----------------------------------------------------------------------------------
def _records(ep: Endpoint, n: int) -> list[dict[str, Any]]:
    """Records typed as the catalog says, with leading-zero codes and Korean text."""
    out = []
    for i in range(n):
        rec: dict[str, Any] = {}
        for j, f in enumerate(ep.fields[:6]):
            if f.type == "integer":
                rec[f.name] = i * 7 + j
            elif f.type == "number":
                rec[f.name] = 36.5 + i / 8
            else:
                rec[f.name] = f"0{i:04d}-{j}" if f.code else f"이름/{i}"
        out.append(rec)
    return out


#: (endpoint id, path params) — one per envelope variant.
WINDOW_CASES: dict[str, dict[str, str]] = {
    "tago_stations_by_name": {"cityCode": "25"},
    "fsc_stock_prices": {"basDt": "20220622"},
    "nec_winners": {"sgId": "20250603", "sgTypecode": "1"},
    "molit_apt_trades": {"LAWD_CD": "11680", "DEAL_YMD": "202407"},
    "mois_stan_regin_cd": {"locatadd_nm": "서울"},
    "mois_population_households": {
        "admmCd": "1168064000",
        "srchFrYm": "202407",
        "srchToYm": "202409",
    },
    "datagokr_misc_airkorea_sido_realtime": {"sidoName": "서울"},
    "datagokr_misc_kma_vilage_fcst": {
        "base_date": "20220524",
        "base_time": "0500",
        "nx": "55",
        "ny": "127",
    },
}


def _page_url(ep: Endpoint, filters: dict[str, str], fmt: str, page: int, size: int) -> str:
    params = dict(filters)
    fparam = ep.params_with_role("format")[0].name
    params[fparam] = DIALECT.format_value(ep, fmt)
    params["pageNo"] = str(page)
    params["numOfRows"] = str(size)
    return _url(ep.path, **params)


def _as_text(rec: dict[str, Any]) -> dict[str, str]:
    return {k: "" if v is None else str(v) for k, v in rec.items()}


def _check_window(endpoint_id: str, fmt: str, n: int, size: int) -> None:
    ep = _ep(endpoint_id)
    records = _records(ep, n)
    pages = max(1, -(-n // size)) + 1  # one page past the end too
    seen: list[dict[str, Any]] = []
    for page in range(1, pages + 1):
        split = _split(_page_url(ep, WINDOW_CASES[endpoint_id], fmt, page, size))
        assert split.fmt == fmt
        win = split.window
        assert (win.offset, win.limit, win.page, win.size) == ((page - 1) * size, size, page, size)
        window = records[win.offset : win.offset + win.limit]
        resp = DIALECT.render(split, window, n, {})
        assert resp.status == 200
        parsed = DIALECT.parse(ep, resp.body, sniff_format(resp.body))
        expect = window if fmt == "json" else [_as_text(r) for r in window]
        assert parsed.records == expect, (endpoint_id, fmt, page)
        if n == 0 and ep.opt("errors", {}).get("no_data", {}).get("via", "empty") != "empty":
            assert parsed.outcome == "empty" and parsed.kind == "no_data"
        else:
            assert parsed.total == n
        seen.extend(parsed.records)
        assert DIALECT.render(split, window, n, {}).body == resp.body  # deterministic
    assert seen == (records if fmt == "json" else [_as_text(r) for r in records])


@pytest.mark.parametrize("endpoint_id", sorted(WINDOW_CASES))
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_every_page_is_the_right_slice(endpoint_id: str, fmt: str) -> None:
    for n, size in ((0, 10), (1, 10), (23, 10), (30, 10), (7, 1)):
        _check_window(endpoint_id, fmt, n, size)


@settings(max_examples=60, deadline=None)
@given(
    endpoint_id=st.sampled_from(sorted(WINDOW_CASES)),
    fmt=st.sampled_from(["json", "xml"]),
    n=st.integers(min_value=0, max_value=120),
    size=st.integers(min_value=1, max_value=40),
)
def test_window_property(endpoint_id: str, fmt: str, n: int, size: int) -> None:
    _check_window(endpoint_id, fmt, n, size)


def test_nec_echoes_rows_returned_not_rows_asked() -> None:
    ep = _ep("nec_election_codes")
    records = _records(ep, 3)
    split = _split(_url(ep.path, numOfRows="50", resultType="json"))
    body = json.loads(DIALECT.render(split, records, 3, {}).body)["response"]["body"]
    assert body["numOfRows"] == 3 and list(body) == ["items", "numOfRows", "pageNo", "totalCount"]
    fsc = _ep("fsc_stock_prices")
    split = _split(_url(fsc.path, numOfRows="50", resultType="json"))
    assert (
        json.loads(DIALECT.render(split, _records(fsc, 3), 3, {}).body)["response"]["body"][
            "numOfRows"
        ]
        == 50
    )


# ---- empty results -----------------------------------------------------------------------------
def _empty(endpoint_id: str, fmt: str, **params: str) -> bytes:
    ep = _ep(endpoint_id)
    fparam = ep.params_with_role("format")[0].name
    resp = DIALECT.render(
        _split(_url(ep.path, **{fparam: DIALECT.format_value(ep, fmt)}, **params)), [], 0, {}
    )
    assert resp.status == 200
    return resp.body


def test_empty_result_forms() -> None:
    assert json.loads(_empty("tago_stations_by_name", "json", cityCode="25")) == {
        "response": {
            "header": {"resultCode": "00", "resultMsg": "NORMAL SERVICE."},
            "body": {"items": "", "numOfRows": 10, "pageNo": 1, "totalCount": 0},
        }
    }
    xml = _empty("tago_stations_by_name", "xml", cityCode="25").decode()
    assert (
        "<body><items/><numOfRows>10</numOfRows><pageNo>1</pageNo><totalCount>0</totalCount></body>"
        in xml
    )
    assert json.loads(_empty("molit_apt_trades", "json", LAWD_CD="99999", DEAL_YMD="202607")) == {
        "header": {"resultCode": "000", "resultMsg": "OK"},
        "body": {"items": "", "numOfRows": "10", "pageNo": "1", "totalCount": "0"},
    }
    air = json.loads(_empty("datagokr_misc_airkorea_sido_realtime", "json", sidoName="서울"))
    assert list(air["response"]) == ["body", "header"] and air["response"]["body"]["items"] == []
    assert json.loads(
        _empty("datagokr_misc_kma_mid_ta", "json", regId="11H10603", tmFc="202610040600")
    ) == {"response": {"header": {"resultCode": "03", "resultMsg": "NO_DATA"}}}
    assert json.loads(_empty("nec_winners", "json", sgId="20250603", sgTypecode="1")) == {
        "response": {"header": {"resultCode": "INFO-03", "resultMsg": "데이터 정보가 없습니다"}}
    }
    nec_xml = _empty("nec_winners", "xml", sgId="20250603", sgTypecode="1").decode()
    assert nec_xml.endswith(
        "<response><header><resultCode>INFO-03</resultCode>"
        "<resultMsg>데이터 정보가 없습니다</resultMsg></header></response>"
    )
    assert json.loads(_empty("mois_stan_regin_cd", "json", locatadd_nm="강원도")) == {
        "RESULT": {"resultCode": "INFO-3", "resultMsg": "데이터없음 에러"}
    }
    assert json.loads(_empty("mois_population_households", "json", admmCd="1168064000")) == {
        "Response": {
            "head": {
                "pageNo": "1",
                "resultCode": "0",
                "totalCount": "0",
                "numOfRows": "10",
                "resultMsg": "NORMAL_SERVICE",
            },
            "items": "",
        }
    }


def test_page_past_the_end_keeps_the_total() -> None:
    ep = _ep("mois_stan_regin_cd")
    split = _split(_url(ep.path, type="json", locatadd_nm="서울", pageNo="9", numOfRows="10"))
    obj = json.loads(DIALECT.render(split, [], 33, {}).body)
    assert obj["StanReginCd"][0]["head"][0] == {"totalCount": 33}
    assert obj["StanReginCd"][0]["head"][1] == {"numOfRows": "10", "pageNo": "9", "type": "JSON"}
    assert obj["StanReginCd"][1] == {"row": []}


# ---- quirks ------------------------------------------------------------------------------------
def test_single_row_is_an_object_where_the_service_does_that() -> None:
    tago = _ep("tago_station_arrivals")
    split = _split(_url(tago.path, _type="json", cityCode="34010", nodeId="CAB285000686"))
    rec = _records(tago, 1)
    items = json.loads(DIALECT.render(split, rec, 1, {}).body)["response"]["body"]["items"]
    assert items == {"item": rec[0]}
    assert DIALECT.parse(tago, DIALECT.render(split, rec, 1, {}).body, "json").records == rec
    two = json.loads(DIALECT.render(split, _records(tago, 2), 2, {}).body)["response"]["body"][
        "items"
    ]
    assert isinstance(two["item"], list)
    fsc = _ep("fsc_stock_prices")
    split = _split(_url(fsc.path, resultType="json"))
    items = json.loads(DIALECT.render(split, _records(fsc, 1), 1, {}).body)["response"]["body"][
        "items"
    ]
    assert isinstance(items["item"], list)  # FSC keeps a list for one row (sample)


def test_slash_escaping_and_xml_declarations() -> None:
    tago = _ep("tago_city_codes")
    split = _split(_url(tago.path, _type="json"))
    body = DIALECT.render(split, [{"citycode": 25, "cityname": "대전광역시/계룡시"}], 1, {}).body
    assert b'"cityname":"\xeb\x8c\x80\xec\xa0\x84\xea\xb4\x91\xec\x97\xad\xec\x8b\x9c\\/' in body
    fsc = _ep("fsc_listed_items")
    body = DIALECT.render(
        _split(_url(fsc.path, resultType="json")), [{"corpNm": "a/b"}], 1, {}
    ).body
    assert b'"a/b"' in body
    rtms = _ep("molit_apt_trades")
    xml = DIALECT.render(
        _split(_url(rtms.path, LAWD_CD="11680", DEAL_YMD="202407")), [], 0, {}
    ).body
    assert xml.startswith(b'<?xml version="1.0" encoding="utf-8" standalone="yes"?><response>')
    nec = _ep("nec_election_codes")
    xml = DIALECT.render(_split(_url(nec.path)), _records(nec, 1), 1, {}).body
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8"?><response>')


def test_stanregincd_head_types() -> None:
    ep = _ep("mois_stan_regin_cd")
    rows = [{"region_cd": "1100000000", "locatadd_nm": "서울특별시", "locat_order": 1}]
    split = _split(_url(ep.path, type="json", locatadd_nm="서울", numOfRows="3"))
    resp = DIALECT.render(split, rows, 493, {})
    assert resp.header("content-type") == "text/html;charset=UTF-8"
    assert json.loads(resp.body) == {
        "StanReginCd": [
            {
                "head": [
                    {"totalCount": 493},
                    {"numOfRows": "3", "pageNo": "1", "type": "JSON"},
                    {"RESULT": {"resultCode": "INFO-0", "resultMsg": "NOMAL SERVICE"}},
                ]
            },
            {"row": rows},
        ]
    }
    xml = DIALECT.render(
        _split(_url(ep.path, type="xml", locatadd_nm="서울", numOfRows="3")), rows, 493, {}
    )
    assert (
        b"<head><totalCount>493</totalCount><numOfRows>3</numOfRows><pageNo>1</pageNo><type>XML</type>"
        in xml.body
    )
    parsed = DIALECT.parse(ep, xml.body, "xml")
    assert parsed.total == 493 and parsed.records == [_as_text(rows[0])]


@needs_samples
def test_json_and_xml_render_the_same_records() -> None:
    """JSON → XML → JSON gives the TAGO bytes back; XML → JSON → XML gives the NEC tree back."""
    body = (
        SAMPLES / "datagokr_tago/getSttnAcctoArvlPrearngeInfoList_cheonan_terminal.json"
    ).read_bytes()
    ep = _ep("tago_station_arrivals")
    url = _url(ep.path, cityCode="34010", nodeId="CAB285000686", numOfRows="30")
    parsed = DIALECT.parse(ep, body, "json")
    xml = DIALECT.render(_split(url, "xml"), parsed.records, 4, {})
    assert xml.header("content-type") == "text/xml;charset=UTF-8"
    from_xml = DIALECT.parse(ep, xml.body, "xml")
    assert from_xml.records[0]["arrtime"] == "560" and from_xml.total == 4
    assert DIALECT.render(_split(url, "json"), from_xml.records, 4, {}).body == body.rstrip(b"\n")

    body = (SAMPLES / "nec/getCommonSgCodeList_numOfRows2_total192.xml").read_bytes()
    ep = _ep("nec_election_codes")
    url = _url(ep.path, numOfRows="2")
    parsed = DIALECT.parse(ep, body, "xml")
    as_json = DIALECT.render(_split(url, "json"), parsed.records, 192, {}).body
    obj = json.loads(as_json)["response"]
    assert obj["header"] == {"resultCode": "INFO-00", "resultMsg": "NORMAL SERVICE"}
    assert (
        obj["body"]["totalCount"] == 192 and obj["body"]["items"]["item"][0]["sgId"] == "19871216"
    )
    back = DIALECT.parse(ep, as_json, "json")
    assert (
        equivalent(body, DIALECT.render(_split(url, "xml"), back.records, 192, {}).body, "xml")
        == []
    )


def test_a_wrong_option_is_caught() -> None:
    """The comparison is strict enough to fail: FSC's body order, RTMS's string counts."""
    fsc = _ep("fsc_stock_prices")
    split = _split(_url(fsc.path, resultType="json"))
    good = DIALECT.render(split, _records(fsc, 2), 2, {}).body
    wrong = fsc.model_copy(
        update={
            "options": {**fsc.options, "body_keys": ["items", "numOfRows", "pageNo", "totalCount"]}
        }
    )
    bad = DIALECT.render(replace(split, endpoint=wrong), _records(fsc, 2), 2, {}).body
    assert any("key order" in d for d in equivalent(good, bad, "json"))
    rtms = _ep("molit_apt_trades")
    split = _split(_url(rtms.path, LAWD_CD="1", DEAL_YMD="2", type="json"))
    numbers = rtms.model_copy(update={"options": {**rtms.options, "counts": "number"}})
    a = DIALECT.render(split, [], 5, {}).body
    b = DIALECT.render(replace(split, endpoint=numbers), [], 5, {}).body
    assert any("type str != int" in d for d in equivalent(a, b, "json"))


# ---- oversize ----------------------------------------------------------------------------------
def test_oversize_is_clamped_on_nec_and_an_error_on_stanregincd() -> None:
    nec = _ep("nec_winners")
    split = _split(_url(nec.path, sgId="20250603", sgTypecode="1", numOfRows="500", pageNo="2"))
    assert (split.window.offset, split.window.limit, split.window.size) == (100, 100, 100)
    ep = _ep("mois_stan_regin_cd")
    with pytest.raises(SplitError) as info:
        _split(_url(ep.path, type="json", numOfRows="1001"))
    assert info.value.kind == "page_too_large"
    resp = DIALECT.render_error(ep, info.value.kind, info.value.fmt)
    assert resp.status == 200 and json.loads(resp.body)["RESULT"]["resultCode"] == "ERROR-1"
    assert _split(_url(ep.path, type="json", numOfRows="1000")).window.limit == 1000


def test_bad_paging_values_are_native_errors() -> None:
    ep = _ep("tago_stations_by_name")
    with pytest.raises(SplitError) as info:
        _split(_url(ep.path, _type="json", cityCode="25", pageNo="x"))
    resp = DIALECT.render_error(ep, info.value.kind, info.value.fmt)
    assert json.loads(resp.body) == {
        "response": {"header": {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"}}
    }
    rtms = _ep("molit_apt_trades")
    resp = DIALECT.render_error(rtms, "bad_param", "json")
    assert json.loads(resp.body) == {
        "header": {"resultCode": "999", "resultMsg": "ERROR: LIMIT must not be negative"}
    }


# ---- gateway and provider errors ---------------------------------------------------------------
def test_gateway_errors() -> None:
    nec = _ep("nec_winners")
    resp = DIALECT.render_error(nec, "missing_key", "json")
    assert resp.status == 401 and json.loads(resp.body) == {
        "OpenAPI_ServiceResponse": {
            "cmmMsgHeader": {
                "errMsg": "SERVICE_KEY_IS_NULL",
                "returnAuthMsg": "서비스 접근거부",
                "returnReasonCode": "20",
            }
        }
    }
    resp = DIALECT.render_error(nec, "invalid_key", "xml")
    assert (
        resp.status == 403
        and resp.body
        == (
            "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE_KEY_IS_NOT_REGISTERED_ERROR</errMsg>"
            "<returnAuthMsg>등록되지 않은 서비스키</returnAuthMsg>"
            "<returnReasonCode>30</returnReasonCode>"
            "</cmmMsgHeader></OpenAPI_ServiceResponse>"
        ).encode()
    )
    resp = DIALECT.render_error(nec, "unknown_operation", "json")
    assert resp.status == 400 and b'"returnReasonCode":"12"' in resp.body
    # TourAPI and StanReginCd: the legacy XML, even to a JSON request.
    for eid in ("datagokr_misc_tour_keyword", "mois_stan_regin_cd"):
        resp = DIALECT.render_error(_ep(eid), "invalid_key", "json")
        assert resp.status == 200 and resp.header("content-type") == "text/xml;charset=UTF-8"
        assert resp.body.startswith(
            b"<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg>"
        )
    # RTMS without a key: HTTP 401, plain text.
    resp = DIALECT.render_error(_ep("molit_apt_rents"), "missing_key", "json")
    assert (resp.status, resp.body, resp.header("content-type")) == (
        401,
        b"Unauthorized",
        "text/plain;charset=UTF-8",
    )


def test_provider_limits_are_in_band() -> None:
    for eid, fmt, expect in (
        (
            "tago_station_arrivals",
            "json",
            {
                "response": {
                    "header": {
                        "resultCode": "22",
                        "resultMsg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
                    }
                }
            },
        ),
        (
            "molit_apt_trades",
            "json",
            {
                "header": {
                    "resultCode": "22",
                    "resultMsg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
                }
            },
        ),
        (
            "mois_population_households",
            "json",
            {
                "Response": {
                    "head": {
                        "resultCode": "22",
                        "resultMsg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
                    }
                }
            },
        ),
        (
            "datagokr_misc_airkorea_sido_realtime",
            "json",
            {
                "response": {
                    "header": {
                        "resultMsg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
                        "resultCode": "22",
                    }
                }
            },
        ),
    ):
        resp = DIALECT.render_error(_ep(eid), "quota_exceeded", fmt)
        assert resp.status == 200 and json.loads(resp.body) == expect
        assert list(json.loads(resp.body).popitem()[1]) == list(expect.popitem()[1])
    resp = DIALECT.render_error(_ep("fsc_stock_prices"), "rate_limited", "xml")
    assert resp.body.endswith(
        b"<response><header><resultCode>23</resultCode><resultMsg>"
        b"LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR</resultMsg></header></response>"
    )


KINDS = [
    "no_data",
    "invalid_key",
    "missing_key",
    "bad_param",
    "missing_param",
    "page_too_large",
    "rate_limited",
    "quota_exceeded",
    "server_error",
    "unknown_operation",
]
DATAGOKR_ENDPOINTS = sorted(e.id for e in CATALOG.endpoints.values() if e.part_id in PLATFORMS)


@pytest.mark.parametrize("endpoint_id", DATAGOKR_ENDPOINTS)
def test_every_error_parses_back_to_itself(endpoint_id: str) -> None:
    ep = _ep(endpoint_id)
    for kind in KINDS:
        for fmt in ("json", "xml"):
            resp = DIALECT.render_error(ep, kind, fmt)  # type: ignore[arg-type]
            parsed = DIALECT.parse(ep, resp.body, sniff_format(resp.body))
            if parsed.kind is None:  # success-shaped no-data page
                assert kind == "no_data" and parsed.outcome == "empty" and not parsed.total
                continue
            assert parsed.outcome == ("empty" if parsed.kind == "no_data" else "error")
            again = DIALECT.render_error(ep, parsed.kind, fmt)
            assert (again.status, again.body) == (resp.status, resp.body), (kind, fmt)


def test_malformed_bodies_raise_dialect_errors() -> None:
    ep = _ep("tago_station_arrivals")
    for body, fmt in (
        (b"<html>", "xml"),
        (b"{", "json"),
        (b"[1]", "json"),
        (b"Forbidden", "text"),
        (b'{"response":{"body":{"items":{"item":[1]}}}}', "json"),
        (b'{"response":{"header":{"resultCode":"00"},"body":{"totalCount":"x"}}}', "json"),
    ):
        with pytest.raises(DialectError):
            DIALECT.parse(ep, body, fmt)


# ---- page requests -----------------------------------------------------------------------------
def test_page_requests() -> None:
    nec = _ep("nec_winners")
    pages = DIALECT.page_requests(nec, {"sgId": "20250603", "sgTypecode": "3"}, 250, "json")
    assert pages == [
        {
            "sgId": "20250603",
            "sgTypecode": "3",
            "resultType": "json",
            "pageNo": str(i),
            "numOfRows": "100",
        }
        for i in (1, 2, 3)
    ]
    assert DIALECT.page_requests(_ep("tago_city_codes"), {}, 161, "json") == [{"_type": "json"}]
    kma = DIALECT.page_requests(_ep("datagokr_misc_kma_vilage_fcst"), {"nx": "55"}, 809, "json")
    assert len(kma) == 1 and kma[0]["dataType"] == "JSON" and kma[0]["numOfRows"] == "1000"
    pop = DIALECT.page_requests(_ep("mois_population_households"), {"admmCd": "1"}, 0, "json")
    assert pop == [{"admmCd": "1", "type": "JSON", "pageNo": "1", "numOfRows": "100"}]
    stan = DIALECT.page_requests(_ep("mois_stan_regin_cd"), {"locatadd_nm": "서울"}, 20560, "xml")
    assert len(stan) == 21 and stan[-1]["pageNo"] == "21" and stan[0]["type"] == "xml"
    for eid in DATAGOKR_ENDPOINTS:
        for p in DIALECT.page_requests(_ep(eid), {}, 5, "json"):
            assert "serviceKey" not in p and "ServiceKey" not in p
            url = _url(_ep(eid).path, **p)
            assert CATALOG.match(SimRequest.from_url(url)).endpoint.id == eid
            assert DIALECT.split(CATALOG.match(SimRequest.from_url(url))).fmt == "json"


def test_catalog_examples_are_valid() -> None:
    for eid in DATAGOKR_ENDPOINTS:
        ep = _ep(eid)
        for p in ep.params:
            if p.example is not None and p.pattern:
                assert re.search(p.pattern, p.example), (eid, p.name, p.example)
            if p.example is not None and p.enum:
                assert p.example in p.enum, (eid, p.name)
        if ep.query:
            fields = {f.name for f in ep.fields}
            assert all(rule.field in fields for rule in ep.query.filters), eid
        assert ep.tool_schema()["function"]["name"] == eid


@needs_samples
def test_xml_indentation_is_no_value_but_a_space_is() -> None:
    body = (
        SAMPLES / "datagokr_tourapi/KorService1_searchKeyword1_gangwon_numOfRows1_total49.xml"
    ).read_bytes()
    ep = _ep("datagokr_misc_tour_keyword_v1")
    rec = DIALECT.parse(ep, body, "xml").records[0]
    assert rec["tel"] == "" and rec["contentid"] == "128778"
    url = _url(ep.path, MobileOS="WIN", MobileApp="x", keyword="강원", _type="json", numOfRows="1")
    item = json.loads(DIALECT.render(_split(url), [rec], 49, {}).body)["response"]["body"]["items"][
        "item"
    ]
    # One row → an object; numeric text → numbers (old TourAPI JSON), empty stays "".
    assert item["tel"] == "" and item["contentid"] == 128778 and item["mapx"] == 127.7126856416


def test_format_flags_and_key_aliases() -> None:
    nec = _ep("nec_election_codes")
    # NEC reads resultType only: _type=json still answers XML (apis.md §11.2).
    assert _split(_url(nec.path, _type="json")).fmt == "xml"
    assert _split(_url(nec.path, resultType="json")).fmt == "json"
    kma = _ep("datagokr_misc_kma_mid_ta")
    assert (
        _split(_url(kma.path, dataType="JSON", regId="11B10101", tmFc="202610040600")).fmt == "json"
    )
    stan = _ep("mois_stan_regin_cd")
    url = _url(stan.path, type="json", locatadd_nm="경기도 안산시").replace(
        "serviceKey", "ServiceKey"
    )
    split = _split(url)
    assert split.key == "mois_stan_regin_cd?locatadd_nm=" + quote("경기도 안산시", safe="")
    assert split.filters == {"locatadd_nm": "경기도 안산시"}


def test_one_record_straight_in_the_body_round_trips() -> None:
    """``body_keys: [item]`` (K-apt's AptBasisInfoServiceV5, whose clients read
    ``response.body.item``): the one record is the body's ``item``, in JSON and XML, and reads
    back; no record is an empty ``item``."""
    url = ("https://apis.data.go.kr/1613000/AptBasisInfoServiceV5/getAphusBassInfoV5"
           "?serviceKey=k&kaptCode=A11680001&_type={}")
    rec = {f.name: "" for f in _ep("datagokr_misc_kapt_basis_info").fields} | {"kaptCode": "A11680001", "kaptdaCnt": "239"}
    for fmt in ("json", "xml"):
        split = _split(url.format(fmt))
        body = DIALECT.render(split, [rec], 1, {}).body
        if fmt == "json":
            obj = json.loads(body)["response"]["body"]
            assert set(obj) == {"item"} and obj["item"]["kaptCode"] == "A11680001" and obj["item"]["kaptdaCnt"] == 239
        else:
            assert b"<body><item><kaptCode>A11680001</kaptCode>" in body and b"<items>" not in body
        parsed = DIALECT.parse(split.endpoint, body, fmt)
        assert parsed.outcome == "ok" and [r["kaptCode"] for r in parsed.records] == ["A11680001"]
        empty = DIALECT.render(split, [], 0, {}).body
        assert DIALECT.parse(split.endpoint, empty, fmt).records == []
