"""Open-portal dialect (NEIS, National Assembly): real samples round-trip, pIndex/pSize windows,
bare RESULT errors, JSON and XML, page requests, key rules and the Assembly WAF."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.catalog import Endpoint
from simulator.dialects import Split, SplitError, get_dialect
from simulator.dialects.openportal import OpenPortalDialect
from simulator.fidelity import sniff_format
from tests.support.dialect_helpers import (
    SAMPLES,
    body_cases,
    case_params,
    fidelity,
    load_cases,
    match_url,
    platform_catalog,
)

CASES = load_cases("openportal")
PORTAL = OpenPortalDialect()
CATALOG = platform_catalog("neis", "assembly")


def _url(ep: Endpoint, params: dict[str, str]) -> str:
    return f"https://{ep.host}{ep.path}?{urlencode(params)}"


def _match(url: str) -> Any:
    return match_url(CATALOG, url)


def _split(url: str) -> Split:
    return PORTAL.split(_match(url))


def _meals(n: int) -> list[dict[str, Any]]:
    return [
        {
            "ATPT_OFCDC_SC_CODE": "B10",
            "SD_SCHUL_CODE": "7091380",
            "MMEAL_SC_CODE": "2",
            "MLSV_YMD": f"202606{i + 1:02d}",
            "MLSV_FGR": 1411.0 + i,
            "DDISH_NM": f"현미밥 <br/>국 ({i})",
        }
        for i in range(n)
    ]


MEAL = "https://open.neis.go.kr/hub/mealServiceDietInfo?KEY=k&ATPT_OFCDC_SC_CODE=B10&SD_SCHUL_CODE=7091380"
MEMBERS = "https://open.assembly.go.kr/portal/openapi/nwvrqwxyaytdsfvhu?KEY=k"


# ---- real samples --------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params(body_cases(CASES)))
def test_fidelity(case: dict[str, Any]) -> None:
    result = fidelity(CATALOG, case)
    assert result.ok, result.differences


def test_every_sample_is_listed() -> None:
    listed = {c["sample"] for c in CASES}
    on_disk = {f"{d}/{p.name}" for d in ("neis", "assembly") for p in (SAMPLES / d).iterdir()}
    assert on_disk == listed
    assert all(c["skip"] for c in CASES if "skip" in c)


def test_samples_parse_to_the_kind_render_error_gives_back() -> None:
    ep = CATALOG.endpoint("neis_meal")
    p = PORTAL.parse(ep, (SAMPLES / "neis/INFO-200_no_data_bare_RESULT.json").read_bytes(), "json")
    assert (p.outcome, p.kind, p.code, p.total, p.envelope) == (
        "empty",
        "no_data",
        "INFO-200",
        0,
        {},
    )
    waf = CATALOG.endpoint("assembly_members")
    body = (SAMPLES / "assembly/waf_http400_missing_or_curl_user_agent_body.txt").read_bytes()
    p = PORTAL.parse(waf, body, sniff_format(body))
    assert p.outcome == "error" and p.kind is None and p.code == "HTTP-400"


def test_parse_keeps_types_nulls_and_row_array() -> None:
    meal = PORTAL.parse(
        CATALOG.endpoint("neis_meal"),
        (SAMPLES / "neis/mealServiceDietInfo_B10_7091380_202606_trimmed3of21.json").read_bytes(),
        "json",
    )
    assert meal.total == 21 and len(meal.records) == 3
    assert meal.records[0]["MLSV_FGR"] == 1411.0 and isinstance(meal.records[0]["MLSV_FGR"], float)
    school = PORTAL.parse(
        CATALOG.endpoint("neis_school_info"),
        (SAMPLES / "neis/schoolInfo_B10_7091380_single.json").read_bytes(),
        "json",
    )
    assert school.total == 1 and school.records[0]["HS_SC_NM"] is None
    assert school.records[0]["ORG_RDNZC"] == "06291"  # codes keep their leading zero
    xml = PORTAL.parse(
        CATALOG.endpoint("neis_meal"),
        (
            SAMPLES / "neis/mealServiceDietInfo_xml_G10_7430048_20231212_browser_rendered.txt"
        ).read_bytes(),
        "xml",
    )
    assert xml.total == 3 and [r["MMEAL_SC_CODE"].strip() for r in xml.records] == ["1", "2", "3"]


# ---- windows -------------------------------------------------------------------------------
def test_pindex_psize_window() -> None:
    s = _split(MEAL + "&Type=json&pIndex=3&pSize=7")
    assert (s.window.offset, s.window.limit, s.window.page, s.window.size, s.fmt) == (
        14,
        7,
        3,
        7,
        "json",
    )
    assert s.key == "neis_meal?ATPT_OFCDC_SC_CODE=B10&SD_SCHUL_CODE=7091380"
    d = _split(MEAL)
    assert (d.window.offset, d.window.limit, d.fmt) == (0, 100, "xml")  # defaults: 1, 100, xml


def test_param_names_fold_case_on_neis_only() -> None:
    s = _split(
        "https://open.neis.go.kr/hub/mealServiceDietInfo?key=k&type=JSON&pindex=2&PSIZE=5"
        "&atpt_ofcdc_sc_code=B10&sd_schul_code=7091380"
    )
    assert (s.window.offset, s.window.limit, s.fmt) == (5, 5, "json")
    assert s.filters == {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7091380"}
    a = _split(MEMBERS + "&type=json")  # the Assembly does not fold: `type` is an unknown param
    assert a.fmt == "xml" and a.filters == {"type": "json"}


def test_oversize_and_bad_paging_are_native_errors() -> None:
    with pytest.raises(SplitError) as big:
        _split(MEAL + "&Type=json&pSize=1001")
    assert big.value.kind == "page_too_large"
    body = json.loads(
        PORTAL.render_error(CATALOG.endpoint("neis_meal"), big.value.kind, "json").body
    )
    assert body == {
        "RESULT": {
            "CODE": "ERROR-336",
            "MESSAGE": "데이터요청은 한번에 최대 1,000건을 넘을 수 없습니다.",
        }
    }
    with pytest.raises(SplitError) as bad:
        _split(MEAL + "&pIndex=abc")
    assert bad.value.kind == "bad_param"
    r = PORTAL.render_error(CATALOG.endpoint("neis_meal"), bad.value.kind, bad.value.fmt)
    assert ET.fromstring(r.body).findtext("CODE") == "ERROR-333"


def test_missing_required_param_and_key() -> None:
    with pytest.raises(SplitError) as miss:
        _split(
            "https://open.neis.go.kr/hub/mealServiceDietInfo?KEY=k&Type=json&ATPT_OFCDC_SC_CODE=B10"
        )
    assert miss.value.kind == "missing_param"
    assert (
        json.loads(
            PORTAL.render_error(CATALOG.endpoint("neis_meal"), "missing_param", "json").body
        )["RESULT"]["CODE"]
        == "ERROR-300"
    )
    _split("https://open.neis.go.kr/hub/schoolInfo?Type=json")  # NEIS: KEY is optional
    with pytest.raises(SplitError) as nokey:
        _split("https://open.assembly.go.kr/portal/openapi/nwvrqwxyaytdsfvhu?Type=json")
    assert nokey.value.kind == "missing_key"
    r = PORTAL.render_error(CATALOG.endpoint("assembly_members"), "missing_key", "json")
    assert json.loads(r.body)["RESULT"]["CODE"] == "ERROR-290"


# ---- rendering -----------------------------------------------------------------------------
def test_render_json_envelope_with_fixed_decimals() -> None:
    s = _split(MEAL + "&Type=json&pIndex=1&pSize=2")
    r = PORTAL.render(s, _meals(2), 21, {})
    assert r.status == 200 and r.header("content-type") == "application/json;charset=UTF-8"
    assert b'"MLSV_FGR":1411.00' in r.body and b'"MLSV_FGR":1412.00' in r.body
    obj = json.loads(r.body)
    assert list(obj) == ["mealServiceDietInfo"]
    head, rows = obj["mealServiceDietInfo"]
    assert head == {
        "head": [
            {"list_total_count": 21},
            {"RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}},
        ]
    }
    assert [r["MLSV_YMD"] for r in rows["row"]] == ["20260601", "20260602"]
    assert PORTAL.render(s, _meals(2), 21, {}).body == r.body  # deterministic


def test_single_row_is_still_an_array() -> None:
    s = _split(MEAL + "&Type=json")
    obj = json.loads(PORTAL.render(s, _meals(1), 1, {}).body)
    assert isinstance(obj["mealServiceDietInfo"][1]["row"], list)


def test_render_xml_with_cdata_and_types_from_xml_records() -> None:
    s = _split(MEAL + "&Type=xml")
    r = PORTAL.render(
        s, [{"MLSV_YMD": "20231212", "DDISH_NM": "김치 (9)<br/>밥", "MLSV_FGR": "158.00"}], 3, {}
    )
    text = r.body.decode()
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?><mealServiceDietInfo><head>')
    assert "<DDISH_NM><![CDATA[김치 (9)<br/>밥]]></DDISH_NM>" in text
    root = ET.fromstring(r.body)
    assert [c.tag for c in root] == ["head", "row"]
    assert root.findtext("head/list_total_count") == "3"
    assert root.findtext("head/RESULT/CODE") == "INFO-000"
    # The same XML-sourced record as JSON: MLSV_FGR gets the catalog's number type.
    j = PORTAL.render(_split(MEAL + "&Type=json"), [{"MLSV_FGR": "158.00"}], 1, {})
    assert b'"MLSV_FGR":158.00' in j.body
    # JSON-sourced floats in XML keep the wire's two decimals; nulls become empty elements.
    x = PORTAL.render(s, [{"MLSV_FGR": 1411.0, "LOAD_DTM": None}], 1, {})
    assert b"<MLSV_FGR><![CDATA[1411.00]]></MLSV_FGR><LOAD_DTM></LOAD_DTM>" in x.body


def test_empty_and_past_last_page_are_bare_info_200() -> None:
    for fmt in ("json", "xml"):
        s = _split(MEAL + f"&Type={fmt}&pIndex=9")
        r = PORTAL.render(s, [], 21, {})
        assert r.status == 200
        if fmt == "json":
            assert json.loads(r.body) == {
                "RESULT": {"CODE": "INFO-200", "MESSAGE": "해당하는 데이터가 없습니다."}
            }
        else:
            root = ET.fromstring(r.body)
            assert (root.tag, root.findtext("CODE")) == ("RESULT", "INFO-200")


@pytest.mark.parametrize(
    "kind, code",
    [
        ("invalid_key", "ERROR-290"),
        ("quota_exceeded", "ERROR-337"),
        ("server_error", "ERROR-500"),
        ("unknown_operation", "ERROR-310"),
        ("rate_limited", "ERROR-337"),
    ],
)
def test_error_table(kind: Any, code: str) -> None:
    r = PORTAL.render_error(CATALOG.endpoint("assembly_members"), kind, "json")
    assert r.status == 200 and json.loads(r.body)["RESULT"]["CODE"] == code
    # and it parses back to the same kind (the first kind of a shared code)
    p = PORTAL.parse(CATALOG.endpoint("assembly_members"), r.body, "json")
    assert p.code == code and p.kind in (kind, "quota_exceeded")


def test_detail_names_a_native_code() -> None:
    r = PORTAL.render_error(CATALOG.endpoint("neis_meal"), "server_error", "json", "ERROR-601")
    assert json.loads(r.body)["RESULT"]["CODE"] == "ERROR-601"


# ---- key rules and the WAF -----------------------------------------------------------------
def test_assembly_sample_key_is_refused() -> None:
    err = PORTAL.check_key(
        _match("https://open.assembly.go.kr/portal/openapi/nwvrqwxyaytdsfvhu?KEY=sample&Type=json")
    )
    assert err is not None and err.kind == "invalid_key" and err.fmt == "json"
    assert PORTAL.check_key(_match(MEMBERS)) is None
    assert PORTAL.check_key(_match("https://open.neis.go.kr/hub/schoolInfo?KEY=sample")) is None


def test_neis_keyless_window() -> None:
    m = _match("https://open.neis.go.kr/hub/schoolInfo?Type=json&pIndex=3&pSize=100")
    w = PORTAL.keyless_window(m, PORTAL.split(m).window)
    assert (w.offset, w.limit, w.page) == (0, 5, 1)
    keyed = _match("https://open.neis.go.kr/hub/schoolInfo?KEY=k&pIndex=3&pSize=100")
    assert PORTAL.keyless_window(keyed, PORTAL.split(keyed).window).offset == 200


def test_waf() -> None:
    ep = CATALOG.endpoint("assembly_members")
    assert PORTAL.waf_blocked(ep, None) and PORTAL.waf_blocked(ep, "curl/8.5.0")
    assert not PORTAL.waf_blocked(ep, "Mozilla/5.0") and not PORTAL.waf_blocked(ep, "Java/21")
    assert not PORTAL.waf_blocked(CATALOG.endpoint("neis_meal"), None)
    r = PORTAL.render_waf(ep)
    assert (r.status, r.body) == (400, b"Bad Request.")
    via_detail = PORTAL.render_error(ep, "bad_param", "json", "HTTP-400")
    assert (via_detail.status, via_detail.body) == (400, b"Bad Request.")


# ---- page requests -------------------------------------------------------------------------
def test_page_requests() -> None:
    ep = CATALOG.endpoint("assembly_member_bills")
    pages = PORTAL.page_requests(ep, {"AGE": "22"}, 2500, "json")
    assert pages == [
        {"AGE": "22", "Type": "json", "pIndex": str(i), "pSize": "1000"} for i in (1, 2, 3)
    ]
    assert PORTAL.page_requests(ep, {"AGE": "22"}, 0, "xml") == [
        {"AGE": "22", "Type": "xml", "pIndex": "1", "pSize": "1000"}
    ]


@settings(max_examples=60, deadline=None)
@given(total=st.integers(0, 3500), page=st.integers(1, 6), size=st.integers(1, 1000))
def test_window_property(total: int, page: int, size: int) -> None:
    """A window is the slice [(p-1)·s, p·s); the page requests cover the collection once."""
    ep = CATALOG.endpoint("neis_school_info")
    records = [{"SD_SCHUL_CODE": f"{i:07d}"} for i in range(total)]
    s = PORTAL.split(
        _match(_url(ep, {"KEY": "k", "Type": "json", "pIndex": str(page), "pSize": str(size)}))
    )
    w = s.window
    window = records[w.offset : w.offset + w.limit]
    assert window == records[(page - 1) * size : page * size]
    obj = json.loads(PORTAL.render(s, window, total, {}).body)
    if window:
        assert obj["schoolInfo"][1]["row"] == window
        assert obj["schoolInfo"][0]["head"][0]["list_total_count"] == total
    else:
        assert obj["RESULT"]["CODE"] == "INFO-200"
    seen: list[dict[str, Any]] = []
    for params in PORTAL.page_requests(ep, {}, total, "json"):
        pw = PORTAL.split(_match(_url(ep, {"KEY": "k", **params}))).window
        seen.extend(records[pw.offset : pw.offset + pw.limit])
    assert seen == records


def test_registry_serves_this_module() -> None:
    assert isinstance(get_dialect("openportal"), OpenPortalDialect)
