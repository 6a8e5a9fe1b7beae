"""The response-field sources beside the data.go.kr client (#27 item 1): the FSC guides'
response items, kpubdata's catalogue and kloud80/datagokr-mcp's measured schemas are read
as facts (names, types, Korean labels) into facts files, merged per field with their source,
and a thin endpoint says which case it is."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import zipfile
from pathlib import Path

import pytest

from simulator.catalog import Catalog, load_catalog
from simulator.catalog.generate.extract import (
    extract_datagokr_mcp,
    extract_field_lists,
    extract_kpubdata,
    extract_lawgokr_specs,
    extract_measured_stats,
    extract_swagger_fields,
    read_facts,
)

ROOT = Path(__file__).resolve().parents[3]
KNOWN = [{"url": "https://apis.data.go.kr/1160100/service/GetDiscInfoService_V2/getDiviDiscInfo_V2"},
         {"url": "https://apis.data.go.kr/1160100/service/GetKofiaStatisticsInfoService/GetSecuritiesMarketTotalCapitalInfo"}]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_a_guide_field_list_is_read_as_names_and_labels(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("@GetDiscInfoService_V2\n"
                   "GetDiviDiscInfo_V2: basDt*(기준일자), crno(법인등록번호), crtmParPrc(당기액면가)\n"
                   "getUnknownOp_V2: a(가)\n"
                   "@GetKofiaStatisticsInfoService\n"
                   "getSecuritiesMarketTotalCapitalInfo: basDt(기준일자), invrDpsgAmt(투자자예탁금)\n", encoding="utf-8")
    facts = extract_field_lists(src, "1160100", "guides", KNOWN)
    by_url = {o["url"]: o["fields"] for o in facts["operations"]}
    assert list(by_url) == sorted(k["url"] for k in KNOWN)  # case differences matched; unknown ops left out
    assert by_url[KNOWN[0]["url"]] == [["basDt", "string", "기준일자"], ["crno", "string", "법인등록번호"],
                                       ["crtmParPrc", "string", "당기액면가"]]


def test_kpubdata_catalogue_fields_are_keyed_by_operation_url(tmp_path: Path) -> None:
    wheel = tmp_path / "kpubdata-0.10.0-py3-none-any.whl"
    cat = [{"base_url": "http://apis.data.go.kr/1741000/bakeries", "default_operation": "info",
            "fields": [{"name": "MGT_NO", "title": "관리번호", "type": "string"}]},
           {"base_url": "https://www.lofin365.go.kr/lf/hub", "default_operation": "list", "fields": [{"name": "x"}]}]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for prov in ("datago", "localdata", "semas"):
            zf.writestr(f"kpubdata/providers/{prov}/catalogue.json", json.dumps(cat if prov == "localdata" else []))
    wheel.write_bytes(buf.getvalue())
    facts = extract_kpubdata(wheel)
    assert facts["source"] == "pypi:kpubdata==0.10.0"
    assert facts["operations"] == [{"url": "https://apis.data.go.kr/1741000/bakeries/info",
                                    "fields": [["MGT_NO", "string", "관리번호"]], "source": "pypi:kpubdata==0.10.0"}]


def test_measured_stats_give_field_names_only(tmp_path: Path) -> None:
    stats = tmp_path / "15000415.json"
    stats.write_text(json.dumps({"https://apis.data.go.kr/1360000/WthrWrnInfoService/getWthrWrnList": {
        "stnId": {"type": "number", "top": {"108": 3}}, "tmSeq": {"type": "number"}}}), encoding="utf-8")
    op = extract_measured_stats([stats], "measured")["operations"][0]
    assert op["fields"] == [["stnId", "string", ""], ["tmSeq", "string", ""]]  # no measured values kept


def test_the_committed_facts_carry_the_fsc_and_kpubdata_fields(catalog: Catalog) -> None:
    assert len(read_facts("fields_guides")["operations"]) == 73
    assert len(read_facts("kpubdata_fields")["operations"]) >= 59  # LOCALDATA's 59 permit services at least
    div = catalog.endpoint("fsc_divi_disc_info_v2")
    names = {f.name: f for f in div.fields}
    assert {"crtmCashTdvdAmt", "crtmOnskCashDvdnBnfRt", "fnclCrtmNpf"} <= set(names)
    assert names["crtmCashTdvdAmt"].description == "당기현금총배당금액"
    assert "guides" in names["crtmCashTdvdAmt"].source and names["basDt"].source.startswith("pypi:data-go-kr-client")
    bakery = {f.name for f in catalog.endpoint(next(e.id for e in catalog.endpoints.values()
                                                    if e.path == "/1741000/bakeries/info")).fields}
    assert {"MGT_NO", "BPLC_NM", "ROAD_NM_ADDR", "X_CRDNT", "Y_CRDNT"} <= bakery
    warn = next(e for e in catalog.endpoints.values() if e.path == "/1360000/WthrWrnInfoService/getWthrWrnList")
    assert {"stnId", "title", "tmFc", "tmSeq"} <= {f.name for f in warn.fields}


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fields_coverage", ROOT / "scripts" / "fields_coverage.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fields_coverage", mod)
    spec.loader.exec_module(mod)
    return mod


def test_every_thin_generated_endpoint_says_why(catalog: Catalog) -> None:
    """Each generated endpoint declaring <= 3 fields is in one named case (`--thin`): a source
    cut, nothing published by any source on hand (named), a small spec, …"""
    table, thin, total = _script().thin_table(catalog)
    assert total == 2621 and thin <= 694  # kopa@v0007 added 7 (fidelity partial), none thin; 944 before edition 7's facts, 884 before edition 8's, 753 before edition 9's (713: one yearbook service's type goes to edition 9's head)
    other = {p: row["other"] for p, row in table.items() if "other" in row}
    assert other == {"lawgokr": 1}, other  # one law.go.kr target whose output table names three fields
    assert table["fsc"]["source cut at 8 (the API answers more)"] <= 121
    mois = catalog.endpoint("mois_accident_related_water_play_place")
    assert "no record field published for this operation by the sources on hand" in mois.provenance["thin"]
    assert "kpubdata" in mois.provenance["thin"]


def test_thin_counts_per_edition(catalog: Catalog) -> None:
    """``--thin --edition N`` counts what world edition N serves: edition 8's count is the one
    stop 38 reported (753), edition 9's facts take 41 endpoints off it and its yearbook head puts
    one back (골목상권 활성화 사업 serves bas_yy, smry, rmk once ``type`` is the head's): 713 in
    stop 39; stop 40's facts (kloud80's measured schemas, two more portal pages) take 19 more
    off, and an endpoint edition 9 deepened is thin in edition 8 for the reason it had then."""
    mod = _script()
    counts = {e: mod.thin_table(catalog, e)[1] for e in (7, 8, 9)}
    assert counts == {7: 884, 8: 753, 9: 694}, counts
    assert mod.thin_table(catalog)[1] == counts[9]  # the newest facts are edition 9's
    ep = catalog.endpoint("mois_natural_disaster_damage_by_year")
    assert mod.served_at(ep, 8) == {"seq"} and len(mod.served_at(ep, 9)) == 12
    assert mod.thin_kind(ep, 8) == "no field published by any source on hand"


def _dataset(root: Path, commit: str, rel: str, doc: dict) -> None:  # type: ignore[type-arg]
    import yaml

    path = root / commit / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")


def test_datagokr_mcp_schemas_attach_to_the_operation_they_were_measured_on(tmp_path: Path) -> None:
    """kloud80/datagokr-mcp's dataset files (a cache of ``read_file`` texts, one folder per
    commit): one verified operation takes the whole schema, several take each field's ``op``,
    several without ``op`` are left out; names, Korean titles and measured types are kept with
    the repository, commit and path, never the sample values."""
    base = "https://apis.data.go.kr/1160100/service/GetX"
    _dataset(tmp_path, "a" * 40, "knowledge/datasets/재정금융/1.yaml", {
        "id": "1", "title": "t", "services": [{"op": "/getA", "endpoint": f"{base}/getA", "verified_ok": True},
                                              {"op": "/getB", "endpoint": f"{base}/getB"}],
        "schema": {"fields": [{"name": "basYm", "title": "기준년월", "type": "number", "sample_values": ["202401"]},
                              {"name": "fncoNm", "type": "code"}]}})
    _dataset(tmp_path, "b" * 40, "knowledge/datasets/국토관리/2.yaml", {
        "id": "2", "services": [{"op": "/getC", "endpoint": f"{base}/getC", "verified_ok": True},
                                {"op": "/getD", "endpoint": f"{base}/getD", "verified_ok": True},
                                {"op": "/getE", "endpoint": f"{base}/getE"}],
        "schema": {"fields": [{"name": "c1", "op": "/getC"}, {"name": "d1", "op": "/getD"}, {"name": "d2", "op": "/getD"},
                              {"name": "e1", "op": "/getE"}]}})
    _dataset(tmp_path, "c" * 40, "knowledge/datasets/환경기상/3.yaml", {
        "id": "3", "services": [{"op": "/getF", "endpoint": f"{base}/getF", "verified_ok": True},
                                {"op": "/getG", "endpoint": f"{base}/getG", "verified_ok": True}],
        "schema": {"fields": [{"name": "f1"}]}})
    ops = {o["url"].rsplit("/", 1)[1]: o for o in extract_datagokr_mcp(tmp_path)["operations"]}
    assert sorted(ops) == ["getA", "getC", "getD"]  # getE unverified; dataset 3 cannot be split
    assert ops["getA"]["fields"] == [["basYm", "string", "기준년월", "number"], ["fncoNm", "string", "", "code"]]
    assert ops["getA"]["source"] == f"github:kloud80/datagokr-mcp@{'a' * 12}:knowledge/datasets/재정금융/1.yaml"
    assert [r[0] for r in ops["getD"]["fields"]] == ["d1", "d2"] and ops["getD"]["dataset"] == "2"
    assert "202401" not in json.dumps(ops, ensure_ascii=False)


def test_the_committed_measured_schemas_reach_their_endpoints(catalog: Catalog) -> None:
    """``facts/datagokr_mcp_fields.json`` is applied: each operation's measured fields are
    declared on the generated endpoint of that URL, each naming the file it came from."""
    facts = read_facts("datagokr_mcp_fields")["operations"]
    assert len(facts) >= 22
    by_path = {e.path: e for e in catalog.endpoints.values() if e.host == "apis.data.go.kr"}
    for op in facts:
        ep = by_path[op["url"].split("apis.data.go.kr", 1)[1]]
        have = {f.name: f for f in ep.fields}
        assert {r[0] for r in op["fields"] if r[0] != "item"} <= set(have), ep.id
        assert op["source"].startswith("github:kloud80/datagokr-mcp@") and "knowledge/datasets/" in op["source"]
    card = {f.name: f for f in catalog.endpoint("fsc_cred_card_comp_gene_info").fields}
    assert card["fncoNm"].source.endswith("재정금융/15061308.yaml") and card["basYm"].source.startswith("pypi:")
    zone = {f.name: f for f in catalog.endpoint("kma_fcst_zone_cd").fields}
    assert {"regId", "regName", "regUp", "tmSt", "tmEd"} <= set(zone)


def test_a_measured_answer_of_three_fields_stays_thin_and_says_so() -> None:
    """A generated endpoint that had nothing published gains the measured fields from edition
    6, drops its assumed filter echo there, and when the measured answer itself has three
    fields or fewer says so (it stays counted as thin, as a small answer)."""
    from unittest import mock

    from simulator.catalog.generate import build

    ep = {"id": "x", "path": "/1613000/S/getA", "options": {},
          "fields": [{"name": "cityName", "description": "지역명", "source": "assumed"}],
          "provenance": {"fields": "0 published fields", "thin": "no record field published for this operation"}}
    facts = {"operations": [{"url": "https://apis.data.go.kr/1613000/S/getA", "dataset": "9", "source": "src",
                             "fields": [["citycode", "string", "지역코드", "number"], ["cityname", "string", "", "code"]]}]}
    with mock.patch.object(build, "read_facts", lambda _n: facts):
        build._add_measured([{"host": "apis.data.go.kr", "endpoints": [ep]}])
    assert ep["options"] == {"late_fields": {"citycode": 6, "cityname": 6}, "dropped_fields": {"cityName": 6}}
    assert ep["provenance"]["thin_before_edition_6"].startswith("no record field published")
    assert ep["provenance"]["thin"].startswith("only 2 record field(s) in the answer measured on live answers")
    assert [f["source"] for f in ep["fields"]] == ["assumed", "src", "src"]


def test_a_portal_swagger_gives_each_operation_its_item_properties() -> None:
    """``extract_swagger_fields`` reads the response item of a data.go.kr swagger document
    (under response/body/items, an array's element, a ``$ref``): names, JSON types, labels;
    nested objects and arrays and the envelope are left out, and so is an operation without one."""
    item = {"type": "object", "properties": {
        "bidNum": {"type": "string", "description": "입찰번호"},
        "bidArea": {"type": "number", "description": "법정동시도코드. 두 자리"},
        "files": {"type": "array", "items": {"type": "object"}}}}
    doc = {"host": "apis.data.go.kr", "basePath": "/1613000/Svc", "definitions": {"Item": item},
           "paths": {
               "/getA": {"get": {"responses": {"200": {"schema": {"type": "object", "properties": {
                   "header": {"type": "object", "properties": {"resultCode": {"type": "string"}}},
                   "body": {"type": "object", "properties": {
                       "items": {"type": "array", "items": {"$ref": "#/definitions/Item"}},
                       "totalCount": {"type": "integer"}}}}}}}}},
               "/getB": {"get": {"responses": {"200": {"description": "성공"}}}}}}
    ops = extract_swagger_fields([("src.json", json.dumps(doc))])
    assert ops == [{"url": "https://apis.data.go.kr/1613000/Svc/getA", "source": "src.json",
                    "fields": [["bidNum", "string", "입찰번호"], ["bidArea", "number", "법정동시도코드"]]}]


def test_lawpy_guide_pages_give_law_targets_their_element_names(tmp_path: Path) -> None:
    """``extract_lawgokr_specs`` reads lawpy's scraped guide pages (``specs/kr/<htmlName>.json``):
    the target from ``request_url``, the element names of the output table; envelope members,
    the item's ``id`` and a name with a space are left out, and so is a page without a table."""
    import subprocess

    specs = tmp_path / "specs" / "kr"
    specs.mkdir(parents=True)
    rows = [{"필드": n, "값": "string", "설명": "설명문"} for n in
            ("target", "키워드", "totalCnt", "id", "법령해석일련번호", "안건명", "법령해석 상세링크")]
    (specs / "cgmExpcMofaListGuide.json").write_text(json.dumps(
        {"request_url": "http://www.law.go.kr/DRF/lawSearch.do?target=mofaCgmExpc요청", "response": rows}), "utf-8")
    (specs / "cgmExpcMofaInfoGuide.json").write_text(json.dumps(
        {"request_url": "http://www.law.go.kr/DRF/lawService.do?target=mofaCgmExpc요청", "response": []}), "utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "specs"], check=True)
    ops = extract_lawgokr_specs(tmp_path / ".git")
    assert [(o["service"], o["target"], o["fields"]) for o in ops] == [
        ("lawSearch", "mofaCgmExpc", [["법령해석일련번호", "string", "법령해석일련번호"], ["안건명", "string", "안건명"]])]
    assert ops[0]["source"].startswith("github:StatPan/lawpy@") and "specs/kr/cgmExpcMofaListGuide.json" in ops[0]["source"]


def test_edition9_facts_rederive_from_the_script_and_its_ties_refuse_a_wrong_operation() -> None:
    """``scripts/extract_fields9.py`` rewrites ``facts/fields_edition9.json`` from what it
    transcribed, and its ties refuse a source that does not fit the operation: measured names
    lacking the client's rows, and a portal page whose request params are another operation's."""
    from simulator.catalog.generate.extract import read_facts

    path = Path(__file__).resolve().parents[3] / "scripts" / "extract_fields9.py"
    spec = importlib.util.spec_from_file_location("extract_fields9", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.operations() == read_facts("fields_edition9")["operations"]
    dg = "https://apis.data.go.kr/1160100/service/"
    with pytest.raises(SystemExit, match="lack the client's"):
        mod._check_measured([{"url": dg + "GetMortLoanCallOptiInfoService/getCallOptiInfo",
                              "source": "github:kloud80/datagokr-mcp@x:y.yaml", "fields": [["clrdDt", "string", ""]]}])
    page = ("data.go.kr's page for dataset 15059587", "basYm, rqdzPlanCd, scrsIssuYr, scrsIssuRndNo")
    rows = [[n.strip(), "string", ""] for n in page[1].split(",")]
    with pytest.raises(SystemExit, match="the page asks"):  # 발행금리현황통계조회 asks basYm and scrsIssuYr
        mod._check_portal([{"url": dg + "GetMortLoanIssuStatInfoService/getIssuInteStatStat", "source": page[0],
                            "fields": rows, "page_params": ("basYm", "rqdzPlanCd")}])
    mod._check_portal([{"url": dg + "GetMortLoanIssuStatInfoService/getIssuAmouStatStat", "source": page[0],
                        "fields": rows, "page_params": ("basYm", "rqdzPlanCd")}])
