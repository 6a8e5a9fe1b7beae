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
    extract_field_lists,
    extract_kpubdata,
    extract_measured_stats,
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
    assert total == 2621 and thin <= 964  # kopa@v0007 added 7 (fidelity partial), none thin
    other = {p: row["other"] for p, row in table.items() if "other" in row}
    assert other == {"lawgokr": 1}, other  # one law.go.kr target whose output table names three fields
    assert table["fsc"]["source cut at 8 (the API answers more)"] <= 140
    mois = catalog.endpoint("mois_accident_related_water_play_place")
    assert "no record field published for this operation by the sources on hand" in mois.provenance["thin"]
    assert "kpubdata" in mois.provenance["thin"]
