"""law.go.kr DRF dialect: real samples round-trip, search windows, quirks, detail, errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.catalog import Catalog
from simulator.dialects import equivalent
from simulator.dialects.lawgokr import LawGoKrDialect, scrub_key
from simulator.fidelity import check_fidelity
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

CASES = load_cases("lawgokr")
LAW = LawGoKrDialect()
SEARCH = "https://www.law.go.kr/DRF/lawSearch.do"
SERVICE = "https://www.law.go.kr/DRF/lawService.do"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return platform_catalog("lawgokr")


def _split(catalog: Catalog, url: str) -> Any:
    return LAW.split(match_url(catalog, url))


def _laws(n: int) -> list[dict[str, Any]]:
    return [
        {
            "법령일련번호": str(280000 + i),
            "현행연혁코드": "현행",
            "법령명한글": f"관세법 {i}",
            "법령약칭명": "",
            "법령ID": f"{1500 + i:06d}",
            "공포일자": "20260811",
            "법령상세링크": f"/DRF/lawService.do?OC=test&target=law&MST={280000 + i}&type=HTML",
        }
        for i in range(n)
    ]


# ---- real samples --------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params(body_cases(CASES)))
def test_fidelity(catalog: Catalog, case: dict[str, Any]) -> None:
    result = fidelity(catalog, case)
    assert result.ok, result.differences


def test_every_sample_is_listed() -> None:
    assert {c["sample"] for c in CASES} == {
        f"lawgokr/{p.name}" for p in (SAMPLES / "lawgokr").iterdir()
    }


def test_law_search_sample_renders_byte_for_byte(catalog: Catalog) -> None:
    body = (SAMPLES / "lawgokr/lawSearch_law_gwanse_display1.xml").read_bytes()
    url = f"{SEARCH}?OC=REDACTED&target=law&type=XML&query=관세법&display=1"
    assert check_fidelity(catalog, url, body).rendered == body.strip()


def test_fidelity_sees_a_wrong_keyword(catalog: Catalog) -> None:
    """The harness can fail: the echoed 키워드 comes from the request."""
    body = (SAMPLES / "lawgokr/lawSearch_law_gwanse_display1.xml").read_bytes()
    result = check_fidelity(catalog, f"{SEARCH}?target=law&query=민법&display=1", body)
    assert not result.ok and any("민법" in d for d in result.differences)


def test_search_sample_parses(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_law_search")
    parsed = LAW.parse(
        ep, (SAMPLES / "lawgokr/lawSearch_law_gwanse_display1.xml").read_bytes(), "xml"
    )
    assert parsed.total == 1 and parsed.outcome == "ok"
    rec = parsed.records[0]
    assert rec["법령명한글"] == "관세법" and rec["법령ID"] == "001556" and rec["법령약칭명"] == ""
    assert "id" not in rec
    assert set(parsed.envelope["cdata"]) == {"법령명한글", "법령약칭명"}


# ---- search windows ------------------------------------------------------------------------
def test_xml_window_numbers_rows_and_echoes_page(catalog: Catalog) -> None:
    rows = _laws(7)
    split = _split(catalog, f"{SEARCH}?OC=x&target=law&query=관세법&display=3&page=2")
    assert (split.fmt, split.window.offset, split.window.limit) == ("xml", 3, 3)
    assert split.key == "lawgokr_law_search?query=%EA%B4%80%EC%84%B8%EB%B2%95"
    body = LAW.render(split, rows[3:6], 7, {}).body
    root = ET.fromstring(body)
    assert root.tag == "LawSearch"
    assert [c.tag for c in root][:8] == [
        "target",
        "키워드",
        "section",
        "totalCnt",
        "page",
        "numOfRows",
        "resultCode",
        "resultMsg",
    ]
    assert (root.findtext("totalCnt"), root.findtext("page"), root.findtext("numOfRows")) == (
        "7",
        "2",
        "3",
    )
    assert [el.get("id") for el in root.findall("law")] == ["4", "5", "6"]
    assert b"<![CDATA[\xea\xb4\x80\xec\x84\xb8\xeb\xb2\x95 3]]>" in body
    back = LAW.parse(split.endpoint, body, "xml")
    assert back.records == rows[3:6] and back.total == 7


def test_json_single_hit_is_an_object_and_zero_hits_drop_the_key(catalog: Catalog) -> None:
    split = _split(catalog, f"{SEARCH}?target=law&type=JSON&query=관세법")
    assert split.fmt == "json"
    one = json.loads(LAW.render(split, _laws(1), 1, {}).body)["LawSearch"]
    assert isinstance(one["law"], dict) and one["law"]["법령명한글"] == "관세법 0"
    assert one["totalCnt"] == "1" and one["numOfRows"] == "1" and one["page"] == "1"
    two = json.loads(LAW.render(split, _laws(2), 2, {}).body)["LawSearch"]
    assert isinstance(two["law"], list) and len(two["law"]) == 2
    zero = json.loads(LAW.render(split, [], 0, {}).body)["LawSearch"]
    assert "law" not in zero and zero["totalCnt"] == "0" and zero["numOfRows"] == "0"
    # Parsing reads all three shapes back.
    ep = split.endpoint
    for n in (0, 1, 2):
        back = LAW.parse(ep, LAW.render(split, _laws(n), n, {}).body, "json")
        assert back.records == _laws(n) and back.total == n


def test_zero_result_sample_keeps_its_shape(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_law_search")
    parsed = LAW.parse(
        ep,
        (SAMPLES / "lawgokr/lawSearch_json_zero_results_proxy_wrapped.json").read_bytes(),
        "json",
    )
    assert (parsed.outcome, parsed.kind, parsed.total, parsed.records) == ("empty", None, 0, [])
    assert parsed.envelope["keyword_encoding"] == "euc-kr-percent"
    # Rendering hits into that envelope puts the item key after the recorded members.
    split = _split(catalog, f"{SEARCH}?target=law&type=JSON&query=관세법")
    out = json.loads(LAW.render(split, _laws(2), 2, parsed.envelope).body)
    assert (
        list(out["LawSearch"])[-1] == "law" and out["LawSearch"]["키워드"] == "%b0%fc%bc%bc%b9%fd"
    )


def test_json_and_xml_of_the_same_window_agree(catalog: Catalog) -> None:
    rows = _laws(4)
    xml_split = _split(catalog, f"{SEARCH}?target=law&type=XML&display=2&page=2")
    json_split = _split(catalog, f"{SEARCH}?target=law&type=json&display=2&page=2")
    a = LAW.parse(xml_split.endpoint, LAW.render(xml_split, rows[2:], 4, {}).body, "xml")
    b = LAW.parse(json_split.endpoint, LAW.render(json_split, rows[2:], 4, {}).body, "json")
    assert a.records == b.records == rows[2:] and a.total == b.total == 4


def test_ordin_search_items_are_law_elements(catalog: Catalog) -> None:
    split = _split(catalog, f"{SEARCH}?target=ordin&query=주차장")
    assert split.endpoint.id == "lawgokr_ordin_search"
    rec = {
        "자치법규일련번호": "1589887",
        "자치법규명": "서울특별시 강남구 민영주차장 설치자금 융자 및 보조금 시행규칙",
    }
    root = ET.fromstring(LAW.render(split, [rec], 74, {}).body)
    assert root.tag == "OrdinSearch" and root.findtext("section") == "ordinNm"
    assert [c.tag for c in root if c.get("id")] == ["law"]


def test_prec_search_uses_prec_items_and_empty_json_body(catalog: Catalog) -> None:
    split = _split(catalog, f"{SEARCH}?target=prec&query=손해배상")
    rec = {"판례일련번호": "623009", "사건명": "손해배상(기)", "사건번호": "2013다61381"}
    root = ET.fromstring(LAW.render(split, [rec], 1, {}).body)
    assert root.tag == "PrecSearch" and root.find("prec").get("id") == "1"  # type: ignore[union-attr]
    assert root.findtext("section") == "evtNm"
    # A JSON miss on prec is a 0-byte body, and that body parses back as an empty result.
    json_split = _split(catalog, f"{SEARCH}?target=prec&type=JSON&query=없는사건")
    empty = LAW.render(json_split, [], 0, {})
    assert (empty.status, empty.body) == (200, b"")
    parsed = LAW.parse(json_split.endpoint, b"", "text")
    assert (parsed.outcome, parsed.kind) == ("empty", None)
    assert check_fidelity(catalog, f"{SEARCH}?target=prec&type=JSON&query=x", b"").ok
    # The XML miss stays a well-formed empty search.
    xml_root = ET.fromstring(LAW.render(split, [], 0, {}).body)
    assert xml_root.findtext("totalCnt") == "0" and xml_root.find("prec") is None


def test_display_above_100_is_clamped(catalog: Catalog) -> None:
    split = _split(catalog, f"{SEARCH}?target=law&display=500")
    assert split.window.limit == 100


def test_page_requests_name_the_target(catalog: Catalog) -> None:
    pages = LAW.page_requests(
        catalog.endpoint("lawgokr_prec_search"), {"query": "손해배상"}, 250, "json"
    )
    assert len(pages) == 3
    assert pages[0] == {
        "query": "손해배상",
        "target": "prec",
        "type": "JSON",
        "page": "1",
        "display": "100",
    }


# ---- ftc malformed closing tag -------------------------------------------------------------
def test_ftc_window_reproduces_the_malformed_tag(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_ftc_search")
    sample = (SAMPLES / "lawgokr/ftcSearch_malformed_closing_tag.xml").read_bytes()
    parsed = LAW.parse(ep, sample, "xml")
    assert parsed.records[0]["사건번호"] == "2009협심0509"
    rows = [dict(parsed.records[0], 결정문일련번호=str(9721 + i)) for i in range(5)]
    split = _split(catalog, f"{SEARCH}?target=ftc&query=담합&display=2&page=2")
    body = LAW.render(split, rows[2:4], 5, parsed.envelope).body
    assert body.count("</사건번호 >".encode()) == 2
    assert (
        b"</\xec\x82\xac\xea\xb1\xb4\xeb\xb2\x88\xed\x98\xb8>" not in body
    )  # no well-formed close
    # XML 1.0 allows space before '>' in an end tag, so expat reads it; strict JS parsers do not.
    assert ET.fromstring(body).tag == "Ftc"
    back = LAW.parse(ep, body, "xml")
    assert back.records == rows[2:4] and back.total == 5
    # Header members of this target (기관명) survive; no numOfRows it never had.
    root_tags = [t for t, _ in parsed.envelope["header"]]
    assert "기관명" in root_tags and "numOfRows" not in root_tags
    # Even without a recorded envelope the endpoint option reproduces the quirk.
    assert "</사건번호 >".encode() in LAW.render(split, rows[:1], 1, {}).body


# ---- detail --------------------------------------------------------------------------------
DETAIL_JSON = {
    "법령": {
        "법령키": "0015562026081121858",
        "기본정보": {
            "법령ID": "001556",
            "법령명_한글": "관세법",
            "공포일자": "20260811",
            "법령상세링크": "/DRF/lawService.do?OC=SECRETKEY&target=law&MST=288689&type=HTML",
        },
        "조문": {
            "조문단위": [
                {
                    "조문키": "0001001",
                    "조문번호": "1",
                    "조문여부": "조문",
                    "조문내용": "제1조(목적) 이 법은 …",
                },
                {
                    "조문키": "0002001",
                    "조문번호": "2",
                    "조문여부": "조문",
                    "조문내용": "제2조(정의)",
                    "항": [{"항번호": "①", "항내용": "① …"}],
                },
            ]
        },
    }
}
DETAIL_XML = (
    '<?xml version="1.0" encoding="UTF-8"?><법령 법령키="0015562026081121858"><기본정보>'
    "<법령ID>001556</법령ID><법령명_한글><![CDATA[관세법]]></법령명_한글>"
    "<법령상세링크>/DRF/lawService.do?OC=SECRETKEY&amp;target=law&amp;MST=288689</법령상세링크></기본정보>"
    '<조문><조문단위 조문키="0001001"><조문번호>1</조문번호><조문내용><![CDATA[제1조(목적)]]></조문내용></조문단위>'
    '<조문단위 조문키="0002001"><조문번호>2</조문번호><조문내용><![CDATA[제2조(정의)]]></조문내용></조문단위></조문></법령>'
)


def test_detail_json_roundtrip_without_the_key(catalog: Catalog) -> None:
    split = _split(catalog, f"{SERVICE}?OC=SECRETKEY&target=law&MST=288689&type=JSON")
    assert (
        split.endpoint.id == "lawgokr_law_detail" and split.key == "lawgokr_law_detail?MST=288689"
    )
    body = json.dumps(DETAIL_JSON, ensure_ascii=False).encode()
    parsed = LAW.parse(split.endpoint, body, "json")
    assert parsed.total == 1 and "SECRETKEY" not in json.dumps(parsed.records, ensure_ascii=False)
    out = LAW.render(split, parsed.records, 1, parsed.envelope).body
    assert b"SECRETKEY" not in out and b"OC=test&target=law" in out
    expected = json.loads(body.decode().replace("OC=SECRETKEY", "OC=test"))
    assert json.loads(out) == expected
    # Rendering a record that still holds a key (recorded raw) never leaks it either.
    raw = LAW.render(split, [DETAIL_JSON["법령"]], 1, {}).body
    assert b"SECRETKEY" not in raw and b"OC=test" in raw


def test_detail_xml_roundtrip_keeps_attributes_and_cdata(catalog: Catalog) -> None:
    split = _split(catalog, f"{SERVICE}?OC=SECRETKEY&target=law&MST=288689")
    parsed = LAW.parse(split.endpoint, DETAIL_XML.encode(), "xml")
    rec = parsed.records[0]
    assert rec["@법령키"] == "0015562026081121858"
    assert [a["@조문키"] for a in rec["조문"]["조문단위"]] == ["0001001", "0002001"]
    out = LAW.render(split, parsed.records, 1, parsed.envelope).body
    assert b"SECRETKEY" not in out
    assert equivalent(DETAIL_XML.replace("OC=SECRETKEY", "OC=test").encode(), out, "xml") == []
    assert "<법령명_한글><![CDATA[관세법]]>".encode() in out
    # The same record as JSON: attributes become plain members, as the JSON API writes them.
    json_split = _split(catalog, f"{SERVICE}?target=law&MST=288689&type=JSON")
    doc = json.loads(LAW.render(json_split, parsed.records, 1, parsed.envelope).body)
    assert doc["법령"]["법령키"] == "0015562026081121858"
    assert doc["법령"]["조문"]["조문단위"][1]["조문키"] == "0002001"


def test_search_links_never_carry_a_key(catalog: Catalog, api_key: str) -> None:
    rows = [dict(_laws(1)[0], 법령상세링크=f"/DRF/lawService.do?OC={api_key}&target=law&MST=1")]
    for fmt in ("XML", "JSON"):
        split = _split(catalog, f"{SEARCH}?OC={api_key}&target=law&type={fmt}")
        body = LAW.render(split, rows, 1, {}).body
        assert api_key.encode() not in body and b"OC=test" in body
    parsed = LAW.parse(
        split.endpoint, json.dumps({"LawSearch": {"totalCnt": "1", "law": rows}}).encode(), "json"
    )
    assert api_key not in json.dumps(parsed.records)


def test_scrub_key_leaves_other_text_alone() -> None:
    assert scrub_key("OC 없음") == "OC 없음"
    assert scrub_key(["a?OC=k&b=1", {"x": "?OC="}], "P") == ["a?OC=P&b=1", {"x": "?OC=P"}]


def test_prec_detail_and_not_found(catalog: Catalog) -> None:
    split = _split(catalog, f"{SERVICE}?target=prec&ID=623009&type=XML")
    assert split.endpoint.id == "lawgokr_prec_detail"
    rec = {
        "판례정보일련번호": "623009",
        "사건명": "손해배상(기)",
        "판시사항": "[1] …",
        "판례내용": "【원고】 …",
    }
    body = LAW.render(split, [rec], 1, {}).body
    root = ET.fromstring(body)
    assert root.tag == "PrecService" and root.findtext("사건명") == "손해배상(기)"
    assert b"<![CDATA[" in body
    assert LAW.parse(split.endpoint, body, "xml").records == [rec]
    # No record: the not-found body, whose root is <Law> whatever the target.
    miss = LAW.render(split, [], 0, {})
    assert (
        miss.status == 200
        and ET.fromstring(miss.body).text
        == "일치하는 판례가 없습니다.  판례명을 확인하여 주십시오."
    )
    json_ep = catalog.endpoint("lawgokr_law_detail")
    miss_json = LAW.render_error(json_ep, "no_data", "json")
    assert json.loads(miss_json.body) == {
        "Law": "일치하는 법령이 없습니다.  법령명을 확인하여 주십시오."
    }
    parsed = LAW.parse(json_ep, miss_json.body, "json")
    assert (parsed.outcome, parsed.kind) == ("empty", "no_data")
    assert (
        LAW.parse(
            json_ep,
            b"<Law>\xec\x9d\xbc\xec\xb9\x98\xed\x95\x98\xeb\x8a\x94 \xeb\xb2\x95\xeb\xa0\xb9\xec\x9d\xb4 \xec\x97\x86\xec\x8a\xb5\xeb\x8b\x88\xeb\x8b\xa4.</Law>",
            "xml",
        ).kind
        == "no_data"
    )


# ---- errors --------------------------------------------------------------------------------
def test_auth_failure_in_both_formats(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_law_search")
    xml = LAW.render_error(ep, "invalid_key", "xml")
    assert xml.body == (SAMPLES / "lawgokr/error_auth_failed_missing_referer.xml").read_bytes()
    js = LAW.render_error(ep, "invalid_key", "json")
    doc = json.loads(js.body)
    assert list(doc) == ["result", "msg"] and doc["result"] == "사용자 정보 검증에 실패하였습니다."
    for resp, fmt in ((xml, "xml"), (js, "json")):
        parsed = LAW.parse(ep, resp.body, fmt)
        assert (resp.status, parsed.outcome, parsed.kind) == (200, "error", "invalid_key")


def test_missing_key_and_empty_body_errors(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_law_search")
    missing = LAW.render_error(ep, "missing_key", "json")
    assert json.loads(missing.body)["result"] == "필수입력요소 검증에 실패하였습니다."
    assert LAW.parse(ep, missing.body, "json").kind == "missing_key"
    bad = LAW.render_error(ep, "bad_param", "xml")
    assert (bad.status, bad.body) == (200, b"")
    # A lawSearch miss is the platform's success-shaped empty search, not an error body.
    empty = ET.fromstring(LAW.render_error(ep, "no_data", "xml").body)
    assert empty.tag == "LawSearch" and empty.findtext("totalCnt") == "0"


def test_html_page_is_an_error_not_a_crash(catalog: Catalog) -> None:
    ep = catalog.endpoint("lawgokr_law_search")
    parsed = LAW.parse(
        ep, b"<!DOCTYPE html><html><body>\xec\xa0\x90\xea\xb2\x80</body></html>", "xml"
    )
    assert parsed.outcome == "error"


def test_html_entities_in_echo_parse(catalog: Catalog) -> None:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><PrecSearch><target>prec</target>'
        "<키워드>식품등의 표시&middot;광고에 관한 법률</키워드><section>evtNm</section>"
        "<totalCnt>0</totalCnt><page>1</page></PrecSearch>"
    ).encode()
    parsed = LAW.parse(catalog.endpoint("lawgokr_prec_search"), body, "xml")
    assert (
        parsed.total == 0
        and dict(parsed.envelope["header"])["키워드"] == "식품등의 표시·광고에 관한 법률"
    )


# ---- catalog -------------------------------------------------------------------------------
def test_target_picks_the_endpoint(catalog: Catalog) -> None:
    expected = {
        ("lawSearch.do", "law"): "lawgokr_law_search",
        ("lawService.do", "law"): "lawgokr_law_detail",
        ("lawSearch.do", "prec"): "lawgokr_prec_search",
        ("lawService.do", "prec"): "lawgokr_prec_detail",
        ("lawSearch.do", "ordin"): "lawgokr_ordin_search",
        ("lawService.do", "ordin"): "lawgokr_ordin_detail",
        ("lawSearch.do", "ftc"): "lawgokr_ftc_search",
    }
    for (path, target), ep_id in expected.items():
        m = catalog.match(
            SimRequest.from_url(f"https://www.law.go.kr/DRF/{path}?OC=x&target={target}")
        )
        assert m.endpoint.id == ep_id


def test_catalog_is_complete(catalog: Catalog) -> None:
    plat = catalog.platforms["lawgokr"]
    assert (plat.domain, plat.key_env) == ("law", "KOPA_KEY_LAWGOKR")
    names = {
        "lawgokr_law_search": "법령명한글",
        "lawgokr_prec_search": "사건명",
        "lawgokr_ordin_search": "자치법규명",
    }
    for ep in plat.endpoints:
        assert ep.params_with_role("auth")[0].name == "OC"
        assert ep.params_with_role("format")[0].name == "type"
        assert ep.fields and ep.record_path and ep.summary_en
        for p in ep.params:
            assert p.description and p.description_en, (ep.id, p.name)
        schema = ep.tool_schema()["function"]["parameters"]["properties"]
        assert "OC" not in schema and "type" not in schema
        if ep.kind == "collection":
            assert (ep.default_page_size, ep.max_page_size) == (20, 100)
            assert ep.query is not None
    for ep_id, field in names.items():
        (rule,) = catalog.endpoint(ep_id).query.filters  # type: ignore[union-attr]
        assert (rule.param, rule.field, rule.op) == ("query", field, "contains")


# ---- property: any window of a search round-trips --------------------------------------------
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    total=st.integers(0, 230),
    size=st.integers(1, 100),
    page=st.integers(1, 4),
    fmt=st.sampled_from(["XML", "JSON"]),
    target=st.sampled_from(["law", "ftc"]),
)
def test_search_window_roundtrip(
    catalog: Catalog, total: int, size: int, page: int, fmt: str, target: str
) -> None:
    rows = _laws(total)
    split = _split(
        catalog, f"{SEARCH}?OC=k&target={target}&type={fmt}&query=관세&display={size}&page={page}"
    )
    win = rows[split.window.offset : split.window.offset + split.window.limit]
    resp = LAW.render(split, win, total, {})
    assert resp.body == LAW.render(split, win, total, {}).body  # deterministic
    back = LAW.parse(split.endpoint, resp.body, split.fmt)
    assert back.records == win
    assert back.total == total
    assert back.outcome == ("ok" if win else "empty")
    if split.fmt == "xml" and win:
        ids = [int(el.get("id", "0")) for el in ET.fromstring(resp.body) if el.get("id")]
        assert ids == list(range(split.window.offset + 1, split.window.offset + len(win) + 1))


# ---- replay through the resolver ---------------------------------------------------------------
def test_recorded_search_answers_other_formats_and_new_queries(
    tmp_path: Path, catalog: Catalog
) -> None:
    from simulator import Resolver, Store, VersionBuilder

    names = ["관세법", "관세법 시행령", "민법", "상법", "관세사법", "형법", "근로기준법"] * 4 + [
        "행정절차법"
    ]
    rows = [dict(r, 법령명한글=names[i]) for i, r in enumerate(_laws(len(names)))]
    # The recorder reads the first page's envelope from a JSON recording.
    first = LAW.parse(
        catalog.endpoint("lawgokr_law_search"),
        (SAMPLES / "lawgokr/lawSearch_json_zero_results_proxy_wrapped.json").read_bytes(),
        "json",
    )
    envelope = {k: v for k, v in first.envelope.items() if k != "extra_top"}
    store = Store(tmp_path)
    b = VersionBuilder(store, "kopa", catalog, parent=None)
    b.add_collection(
        endpoint="lawgokr_law_search",
        key="lawgokr_law_search",
        filters={},
        fmt="json",
        total=len(rows),
        records=rows,
        envelope=envelope,
    )
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    resolver = Resolver(store.open("kopa"), catalog)

    xml = resolver.resolve(SimRequest.from_url(f"{SEARCH}?OC=secret&target=law&display=10&page=3"))
    assert xml.header("x-sim-source") == "window"
    root = ET.fromstring(xml.body)
    assert [c.tag for c in root][:5] == ["target", "키워드", "section", "totalCnt", "page"]
    assert [el.get("id") for el in root.findall("law")] == [str(i) for i in range(21, 30)]
    assert b"secret" not in xml.body

    js = resolver.resolve(
        SimRequest.from_url(f"{SEARCH}?OC=secret&target=law&type=JSON&query=관세&display=5")
    )
    assert js.header("x-sim-source") == "query"
    doc = json.loads(js.body)["LawSearch"]
    hits = sorted((r for r in rows if "관세" in r["법령명한글"]), key=lambda r: r["법령명한글"])
    assert doc["totalCnt"] == str(len(hits)) and doc["numOfRows"] == "5"
    assert doc["law"] == hits[:5]
    assert doc["키워드"] == "%b0%fc%bc%bc"  # the EUC-KR echo of the recorded envelope
    assert b"secret" not in js.body

    many = json.loads(
        resolver.resolve(SimRequest.from_url(f"{SEARCH}?target=law&type=JSON&query=민법")).body
    )
    assert isinstance(many["LawSearch"]["law"], list) and len(many["LawSearch"]["law"]) == 4
    one = json.loads(
        resolver.resolve(SimRequest.from_url(f"{SEARCH}?target=law&type=JSON&query=행정절차")).body
    )
    assert one["LawSearch"]["law"]["법령명한글"] == "행정절차법"
    none = json.loads(
        resolver.resolve(SimRequest.from_url(f"{SEARCH}?target=law&type=JSON&query=없는법")).body
    )
    assert "law" not in none["LawSearch"] and none["LawSearch"]["totalCnt"] == "0"
