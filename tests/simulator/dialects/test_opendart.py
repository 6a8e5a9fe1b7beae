"""OpenDART dialect: real samples round-trip, windows, group envelope, corp-code ZIP, errors."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.catalog import Catalog
from simulator.dialects import SplitError, get_dialect
from simulator.dialects.opendart import OpenDartDialect
from simulator.fidelity import check_fidelity, sniff_format
from simulator.request import SimRequest
from tests.support.dialect_helpers import (
    SAMPLES,
    body_cases,
    case_params,
    fidelity,
    load_cases,
    match_url,
    platform_catalog,
)

CASES = load_cases("opendart")
DART = OpenDartDialect()
HOST = "https://opendart.fss.or.kr"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return platform_catalog("opendart")


def _split(catalog: Catalog, url: str) -> Any:
    return DART.split(match_url(catalog, url))


def _rows(n: int) -> list[dict[str, Any]]:
    return [
        {
            "corp_code": "00126380",
            "corp_name": "삼성전자",
            "stock_code": "005930",
            "corp_cls": "Y",
            "report_nm": f"보고서 {i}",
            "rcept_no": f"2024013100{i:04d}",
            "flr_nm": "삼성전자",
            "rcept_dt": "20240131",
            "rm": "",
        }
        for i in range(n)
    ]


# ---- real samples --------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params(body_cases(CASES)))
def test_fidelity(catalog: Catalog, case: dict[str, Any]) -> None:
    result = fidelity(catalog, case)
    assert result.ok, result.differences


def test_fidelity_sees_a_wrong_window(catalog: Catalog) -> None:
    """The harness can fail: the sample's page_count echo differs from a page_count=3 request."""
    body = (SAMPLES / "opendart/list_json_samsung_paged.json").read_bytes()
    url = f"{HOST}/api/list.json?crtfc_key=REDACTED&corp_code=00126380&page_count=3"
    result = check_fidelity(catalog, url, body)
    assert not result.ok
    assert any("page_count" in d or "total_page" in d for d in result.differences)


def test_every_sample_is_listed_and_skips_say_why() -> None:
    listed = {c["sample"] for c in CASES}
    on_disk = {f"opendart/{p.name}" for p in (SAMPLES / "opendart").iterdir()}
    assert listed == on_disk
    for case in CASES:
        assert ("skip" in case) != ("request" in case), case
        if "skip" in case:
            assert len(case["skip"]) > 20


def test_list_sample_parses_to_records_and_total() -> None:
    ep = platform_catalog("opendart").endpoint("opendart_disclosures")
    parsed = DART.parse(
        ep, (SAMPLES / "opendart/list_json_samsung_paged.json").read_bytes(), "json"
    )
    assert parsed.outcome == "ok"
    assert parsed.total == 15
    assert [r["rcept_no"] for r in parsed.records] == ["20240131000326", "20240131800110"]
    assert parsed.records[0]["stock_code"] == "005930"  # codes keep their zeros


def test_amounts_stay_comma_strings(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_single_account")
    parsed = DART.parse(
        ep, (SAMPLES / "opendart/fnlttSinglAcnt_samsung_2023.json").read_bytes(), "json"
    )
    assert parsed.records[0]["thstrm_amount"] == "195,936,557,000,000"
    split = _split(
        catalog,
        f"{HOST}/api/fnlttSinglAcnt.json?corp_code=00126380&bsns_year=2023&reprt_code=11011",
    )
    out = json.loads(DART.render(split, parsed.records, 1, parsed.envelope).body)
    assert out["list"][0]["thstrm_amount"] == "195,936,557,000,000"
    assert {f.type for f in ep.fields} == {"string"}


# ---- list.json windows ---------------------------------------------------------------------
def test_list_window_echoes_page_and_total_page(catalog: Catalog) -> None:
    rows = _rows(25)
    split = _split(
        catalog, f"{HOST}/api/list.json?crtfc_key=x&corp_code=00126380&page_no=3&page_count=10"
    )
    assert (split.window.offset, split.window.limit) == (20, 10)
    assert split.key == "opendart_disclosures?corp_code=00126380"
    window = rows[split.window.offset : split.window.offset + split.window.limit]
    out = json.loads(DART.render(split, window, 25, {}).body)
    assert list(out)[:7] == [
        "status",
        "message",
        "page_no",
        "page_count",
        "total_count",
        "total_page",
        "list",
    ]
    assert (out["page_no"], out["page_count"], out["total_count"], out["total_page"]) == (
        3,
        10,
        25,
        3,
    )
    assert [r["report_nm"] for r in out["list"]] == [f"보고서 {i}" for i in range(20, 25)]


def test_list_defaults_to_ten_rows(catalog: Catalog) -> None:
    split = _split(catalog, f"{HOST}/api/list.json?corp_code=00126380")
    assert (split.window.page, split.window.size, split.fmt) == (1, 10, "json")


def test_list_xml_twin_renders_xml_and_parses_back(catalog: Catalog) -> None:
    rows = _rows(3)
    split = _split(catalog, f"{HOST}/api/list.xml?corp_code=00126380&page_no=1&page_count=2")
    assert split.fmt == "xml"
    resp = DART.render(split, rows[:2], 3, {})
    root = ET.fromstring(resp.body)
    assert root.tag == "result"
    assert [c.tag for c in root][:6] == [
        "status",
        "message",
        "page_no",
        "page_count",
        "total_count",
        "total_page",
    ]
    assert root.findtext("total_page") == "2"
    assert len(root.findall("list")) == 2
    back = DART.parse(split.endpoint, resp.body, "xml")
    assert back.records == rows[:2] and back.total == 3


def test_page_count_above_100_is_a_native_error(catalog: Catalog) -> None:
    with pytest.raises(SplitError) as err:
        _split(catalog, f"{HOST}/api/list.json?corp_code=00126380&page_count=101")
    assert err.value.kind == "page_too_large"
    body = json.loads(
        DART.render_error(catalog.endpoint("opendart_disclosures"), err.value.kind, "json").body
    )
    assert body["status"] == "100"


def test_page_requests_cover_the_collection(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_disclosures")
    pages = DART.page_requests(ep, {"corp_code": "00126380"}, 250)
    assert [p["page_no"] for p in pages] == ["1", "2", "3"]
    assert all(p["page_count"] == "100" for p in pages)
    # Endpoints without paging params are one request, whatever their size.
    assert all(p["format"] == "json" for p in pages)
    assert DART.page_requests(
        catalog.endpoint("opendart_major_stock"), {"corp_code": "1"}, 500, "xml"
    ) == [{"corp_code": "1", "format": "xml"}]


def test_unpaged_list_answers_everything(catalog: Catalog) -> None:
    split = _split(catalog, f"{HOST}/api/majorstock.json?corp_code=00126380")
    assert split.window.offset == 0 and split.window.limit >= 10**6


# ---- group envelope ------------------------------------------------------------------------
def test_group_envelope_rows_carry_their_group(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_equity_registration")
    parsed = DART.parse(ep, (SAMPLES / "opendart/estkRs_group_envelope.json").read_bytes(), "json")
    assert parsed.total == 7
    assert parsed.envelope["groups"][0] == "일반사항" and len(parsed.envelope["groups"]) == 6
    purpose = [r for r in parsed.records if r["group_title"] == "자금의사용목적"]
    assert [r["se"] for r in purpose] == ["운영자금", "발행제비용"]
    assert next(iter(purpose[0])) == "group_title"


def test_group_envelope_renders_in_json_and_xml(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_equity_registration")
    parsed = DART.parse(ep, (SAMPLES / "opendart/estkRs_group_envelope.json").read_bytes(), "json")
    split = _split(catalog, f"{HOST}/api/estkRs.xml?corp_code=00107598&bgn_de=20230101")
    resp = DART.render(split, parsed.records, parsed.total or 0, parsed.envelope)
    root = ET.fromstring(resp.body)
    assert [g.findtext("title") for g in root.findall("group")] == parsed.envelope["groups"]
    assert len(root.findall("group")[3].findall("list")) == 2
    back = DART.parse(split.endpoint, resp.body, "xml")
    assert back.records == parsed.records and back.envelope["groups"] == parsed.envelope["groups"]
    # A group with no rows in the window keeps its place, with an empty list.
    json_split = _split(catalog, f"{HOST}/api/estkRs.json?corp_code=00107598")
    only = [r for r in parsed.records if r["group_title"] == "인수인정보"]
    out = json.loads(DART.render(json_split, only, 1, parsed.envelope).body)
    assert [len(g["list"]) for g in out["group"]] == [0, 0, 1, 0, 0, 0]


# ---- flat object -----------------------------------------------------------------------------
def test_company_object_renders_flat_in_both_formats(catalog: Catalog) -> None:
    body = (SAMPLES / "opendart/company_json_samsung.json").read_bytes()
    parsed = DART.parse(catalog.endpoint("opendart_company"), body, "json")
    assert parsed.total == 1 and parsed.records[0]["stock_code"] == "005930"
    split = _split(catalog, f"{HOST}/api/company.xml?corp_code=00126380")
    xml = DART.render(split, parsed.records, 1, parsed.envelope).body
    root = ET.fromstring(xml)
    assert [c.tag for c in root][:3] == ["status", "message", "corp_code"]
    assert root.find("list") is None
    assert DART.parse(split.endpoint, xml, "xml").records == parsed.records


# ---- corpCode.xml ZIP ----------------------------------------------------------------------
def _excerpt_zip() -> bytes:
    """The CORPCODE excerpt's <list> entries wrapped into a ZIP, as the real download is."""
    text = (
        SAMPLES / "opendart/CORPCODE_xml_first3_entries_excerpt_pre_corp_eng_name.txt"
    ).read_text("utf-8")
    lists = re.findall(r"<list>.*?</list>", text, re.DOTALL)
    assert len(lists) == 3
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n<result>\n' + "\n".join(lists) + "\n</result>\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("CORPCODE.xml", xml.encode("utf-8"))  # stamped with the current time
    return buf.getvalue()


def test_corpcode_zip_parses_and_renders_deterministically(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_corp_codes")
    body = _excerpt_zip()
    assert sniff_format(body) == "zip"
    parsed = DART.parse(ep, body, "zip")
    assert parsed.total == 3
    assert parsed.records[0] == {
        "corp_code": "00434003",
        "corp_name": "다코",
        "stock_code": " ",  # unlisted: one space, kept verbatim
        "modify_date": "20170630",
    }
    split = _split(catalog, f"{HOST}/api/corpCode.xml?crtfc_key=x")
    assert split.fmt == "zip"
    first = DART.render(split, parsed.records, 3, parsed.envelope)
    second = DART.render(split, [dict(r) for r in parsed.records], 3, dict(parsed.envelope))
    assert first.body == second.body
    assert first.body[:4] == b"PK\x03\x04" and first.header("content-type") == "application/zip"
    with zipfile.ZipFile(io.BytesIO(first.body)) as zf:
        (info,) = zf.infolist()
        assert info.filename == "CORPCODE.xml"
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        inner = zf.read(info).decode("utf-8")
    assert "<stock_code> </stock_code>" in inner
    assert DART.parse(ep, first.body, "zip").records == parsed.records
    # Different records, different bytes.
    assert DART.render(split, parsed.records[:2], 2, {}).body != first.body


def test_corpcode_zip_with_english_names(catalog: Catalog) -> None:
    rec = {
        "corp_code": "00126380",
        "corp_name": "삼성전자",
        "corp_eng_name": "SAMSUNG ELECTRONICS CO,.LTD",
        "stock_code": "005930",
        "modify_date": "20240101",
    }
    body = OpenDartDialect.corpcode_zip([rec])
    assert DART.parse(catalog.endpoint("opendart_corp_codes"), body, "zip").records == [rec]


def test_corpcode_error_is_xml_not_zip(catalog: Catalog) -> None:
    ep = catalog.endpoint("opendart_corp_codes")
    resp = DART.render_error(ep, "invalid_key", "zip")
    assert resp.status == 200 and resp.body[:2] != b"PK"
    assert (resp.header("content-type") or "").startswith("application/xml")
    root = ET.fromstring(resp.body)
    assert (root.findtext("status"), root.findtext("message")) == (
        "010",
        "등록되지 않은 인증키입니다.",
    )
    assert (
        resp.body == (SAMPLES / "opendart/corpCode_xml_error_010_unregistered_key.xml").read_bytes()
    )


def test_corrupt_zip_names_the_problem(catalog: Catalog) -> None:
    from simulator.errors import DialectError

    with pytest.raises(DialectError, match="not a valid ZIP"):
        DART.parse(catalog.endpoint("opendart_corp_codes"), b"PK\x03\x04garbage", "zip")


# ---- errors ----------------------------------------------------------------------------------
def test_no_data_013_matches_the_console_body(catalog: Catalog) -> None:
    lines = (
        (SAMPLES / "opendart/fnlttSinglAcnt_status013_no_data_console.txt")
        .read_text("utf-8")
        .splitlines()
    )
    body = lines[1].encode("utf-8")
    ep = catalog.endpoint("opendart_single_account")
    parsed = DART.parse(ep, body, "json")
    assert (parsed.outcome, parsed.kind, parsed.code) == ("empty", "no_data", "013")
    assert DART.render_error(ep, "no_data", "json").body == body
    # The fidelity harness takes the same path with the body line and the URL line.
    url = lines[0].replace("API_KEY", "REDACTED")
    assert check_fidelity(catalog, url, body).ok


def test_empty_window_renders_013(catalog: Catalog) -> None:
    split = _split(catalog, f"{HOST}/api/list.json?corp_code=00126380&page_no=9")
    out = json.loads(DART.render(split, [], 15, {}).body)
    assert out == {"status": "013", "message": "조회된 데이타가 없습니다."}
    xml_split = _split(catalog, f"{HOST}/api/list.xml?corp_code=00126380")
    assert ET.fromstring(DART.render(xml_split, [], 0, {}).body).findtext("status") == "013"


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("invalid_key", "010"),
        ("quota_exceeded", "020"),
        ("rate_limited", "020"),
        ("bad_param", "100"),
        ("missing_key", "100"),
        ("server_error", "800"),
    ],
)
def test_errors_are_http_200_status_bodies(catalog: Catalog, kind: str, status: str) -> None:
    ep = catalog.endpoint("opendart_disclosures")
    resp = DART.render_error(ep, kind, "json")  # type: ignore[arg-type]
    body = json.loads(resp.body)
    assert resp.status == 200 and body["status"] == status and body["message"]
    back = DART.parse(ep, resp.body, "json")
    assert back.code == status
    assert back.kind == kind or resp.body == DART.render_error(ep, back.kind, "json").body  # type: ignore[arg-type]


def test_non_integer_page_is_bad_param(catalog: Catalog) -> None:
    with pytest.raises(SplitError) as err:
        _split(catalog, f"{HOST}/api/list.json?corp_code=00126380&page_no=abc")
    assert err.value.kind == "bad_param"


def test_no_key_in_rendered_bodies(catalog: Catalog, api_key: str) -> None:
    split = _split(catalog, f"{HOST}/api/list.json?crtfc_key={api_key}&corp_code=00126380")
    assert api_key not in split.key
    assert api_key.encode() not in DART.render(split, _rows(3), 3, {}).body


# ---- catalog ---------------------------------------------------------------------------------
def test_both_suffixes_match_one_endpoint_and_pick_their_format(catalog: Catalog) -> None:
    for op in ("company", "list", "fnlttSinglAcnt", "majorstock", "elestock", "estkRs"):
        json_split = _split(catalog, f"{HOST}/api/{op}.json?corp_code=00126380")
        xml_split = _split(catalog, f"{HOST}/api/{op}.xml?corp_code=00126380")
        assert (json_split.fmt, xml_split.fmt) == ("json", "xml")
        # One endpoint, one collection: a JSON recording answers XML requests too.
        assert json_split.endpoint.id == xml_split.endpoint.id
        assert json_split.key == xml_split.key
        assert json_split.endpoint.operation == f"{op}.{{format}}"
    assert _split(catalog, f"{HOST}/api/corpCode.xml").endpoint.id == "opendart_corp_codes"


def test_format_path_param_builds_the_live_url(catalog: Catalog) -> None:
    from simulator import build_request

    ep = catalog.endpoint("opendart_disclosures")
    (first,) = DART.page_requests(ep, {"corp_code": "00126380"}, 5, "xml")
    req = build_request(ep, first, "k" * 40)
    assert req.path == "/api/list.xml"
    assert dict(req.query) == {
        "crtfc_key": "k" * 40,
        "corp_code": "00126380",
        "page_no": "1",
        "page_count": "100",
    }
    assert catalog.match(req).endpoint.id == ep.id


def test_catalog_is_complete(catalog: Catalog) -> None:
    plat = catalog.platforms["opendart"]
    assert (plat.domain, plat.key_env) == ("finance", "KOPA_KEY_OPENDART")
    assert len(plat.endpoints) >= 6
    assert get_dialect(plat.dialect) is not None
    for ep in plat.endpoints:
        assert ep.params_with_role("auth")[0].name == "crtfc_key"
        assert ep.fields and ep.record_path and ep.summary_en
        for p in ep.params:
            assert p.description and p.description_en, (ep.id, p.name)
        for p in ep.params:
            if p.name == "corp_code":
                assert (
                    p.pattern
                    and re.fullmatch(p.pattern, "00126380")
                    and not re.fullmatch(p.pattern, "0012638")
                )
            if p.name in ("bgn_de", "end_de") and p.pattern:
                assert re.fullmatch(p.pattern, "20240131") and not re.fullmatch(
                    p.pattern, "2024-01-31"
                )
        codes = {f.name for f in ep.fields if f.code}
        assert "corp_code" in codes, ep.id
        schema = ep.tool_schema()["function"]["parameters"]["properties"]
        assert "crtfc_key" not in schema and "format" not in schema
    assert catalog.endpoint("opendart_disclosures").max_page_size == 100
    assert catalog.endpoint("opendart_corp_codes").kind == "binary"
    assert catalog.endpoint("opendart_company").kind == "object"


# ---- property: any window of list.json round-trips -------------------------------------------
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    total=st.integers(0, 260),
    size=st.integers(1, 100),
    page=st.integers(1, 5),
    fmt=st.sampled_from(["json", "xml"]),
)
def test_window_roundtrip(catalog: Catalog, total: int, size: int, page: int, fmt: str) -> None:
    rows = _rows(total)
    split = _split(
        catalog, f"{HOST}/api/list.{fmt}?corp_code=00126380&page_no={page}&page_count={size}"
    )
    win = rows[split.window.offset : split.window.offset + split.window.limit]
    resp = DART.render(split, win, total, {})
    assert resp.body == DART.render(split, win, total, {}).body  # deterministic
    back = DART.parse(split.endpoint, resp.body, fmt)
    if not win:
        assert back.kind == "no_data"
        return
    assert back.records == win
    assert back.total == total
    doc = (
        json.loads(resp.body)
        if fmt == "json"
        else {c.tag: c.text for c in ET.fromstring(resp.body)}
    )
    assert int(doc["total_page"]) == -(-total // size)
    assert int(doc["page_no"]) == page and int(doc["page_count"]) == size


# ---- replay through the resolver ---------------------------------------------------------------
def test_recorded_json_collection_answers_xml_windows_and_date_queries(
    tmp_path: Path, catalog: Catalog
) -> None:
    from simulator import Resolver, Store, VersionBuilder

    rows = [dict(r, rcept_dt=f"202401{(i % 28) + 1:02d}") for i, r in enumerate(_rows(40))]
    rows.sort(key=lambda r: r["rcept_dt"], reverse=True)
    store = Store(tmp_path)
    b = VersionBuilder(store, "kopa", catalog, parent=None)
    b.add_collection(
        endpoint="opendart_disclosures",
        key="opendart_disclosures?corp_code=00126380",
        filters={"corp_code": "00126380"},
        fmt="json",
        total=40,
        records=rows,
    )
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    resolver = Resolver(store.open("kopa"), catalog)

    resp = resolver.resolve(
        SimRequest.from_url(
            f"{HOST}/api/list.xml?crtfc_key=k&corp_code=00126380&page_no=2&page_count=15"
        )
    )
    assert resp.header("x-sim-source") == "window"
    root = ET.fromstring(resp.body)
    assert (root.findtext("total_count"), root.findtext("total_page")) == ("40", "3")
    assert [el.findtext("rcept_no") for el in root.findall("list")] == [
        r["rcept_no"] for r in rows[15:30]
    ]

    resp = resolver.resolve(
        SimRequest.from_url(
            f"{HOST}/api/list.json?crtfc_key=k&corp_code=00126380&bgn_de=20240120&end_de=20240125"
        )
    )
    assert resp.header("x-sim-source") == "query"
    out = json.loads(resp.body)
    wanted = [r for r in rows if "20240120" <= r["rcept_dt"] <= "20240125"]
    assert out["total_count"] == len(wanted) and out["list"] == wanted[:10]

    miss = Resolver(store.open("kopa"), catalog, miss="native").resolve(
        SimRequest.from_url(f"{HOST}/api/list.json?crtfc_key=k&corp_code=99999999")
    )
    assert json.loads(miss.body)["status"] == "013"
