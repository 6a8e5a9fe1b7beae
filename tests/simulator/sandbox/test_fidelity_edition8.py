"""World edition 8 (stop 38, "the response shapes match the real APIs where real clients disagree
with us"): law.go.kr search roots, KMA forecast values by category, OpenDART's index rows,
AirKorea's ``ver``. Each: edition 8 serves the published shape (against a real sample where one
exists) and edition 7 serves the bytes it served before (hashes taken from the code before the
change, stop 37's ``/work/main``)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from simulator import build_request
from simulator.catalog import Catalog, load_catalog
from simulator.catalog.generate.extract import read_facts
from simulator.dialects import get_dialect
from simulator.fidelity import check_fidelity
from simulator.sandbox import SandboxApp, World, create_app
from simulator.sandbox.gen.dart_indx import INDEX_NAMES
from simulator.sandbox.gen.kma_values import NCST_CATEGORIES, ULTRA_FCST_CATEGORIES, VILAGE_CATEGORIES
from tests.support.paths import SAMPLES

#: Requests whose edition-7 answer must not change, and the first 16 hex digits of its sha256
#: under the code before edition 8 existed.
BEFORE: dict[str, tuple[dict[str, str], str]] = {
    "law_detc_search": ({"type": "JSON", "query": "가", "display": "3"}, "7d5ad67ecfda6814"),
    "law_expc_search": ({"type": "XML", "display": "3"}, "6312dfa8abb9c409"),
    "law_lstrm_search": ({"type": "JSON", "display": "3"}, "ca2e6cb27fb5acbf"),
    "kma_ultra_srt_ncst": ({"base_date": "20251201", "base_time": "0500", "nx": "60", "ny": "127",
                            "dataType": "JSON"}, "b5b922f81be1ba70"),
    "kma_ultra_srt_fcst": ({"base_date": "20251201", "base_time": "0530", "nx": "60", "ny": "127",
                            "dataType": "JSON", "numOfRows": "60"}, "5038dc47cad827f7"),
    "datagokr_misc_kma_vilage_fcst": ({"base_date": "20251201", "base_time": "0500", "nx": "60", "ny": "127",
                                       "dataType": "JSON", "numOfRows": "20"}, "590e688c10ed415e"),
    "dart_fnltt_singl_indx": ({"corp_code": "09529646", "bsns_year": "2024", "reprt_code": "11011",
                               "idx_cl_code": "M210000"}, "1366b4e14242eadc"),
    "dart_fnltt_cmpny_indx": ({"corp_code": "09529646", "bsns_year": "2023", "reprt_code": "11011",
                               "idx_cl_code": "M220000"}, "ac7a3d58a8c32651"),
    "datagokr_misc_airkorea_sido_realtime": ({"returnType": "json", "sidoName": "서울", "ver": "1.0",
                                              "numOfRows": "3"}, "a30f78ad64719c69"),
    "airkorea_msrstn_accto_rltm_mesure_dnsty": ({"returnType": "json", "stationName": "교북", "dataTerm": "DAILY",
                                                 "ver": "1.0"}, "68653f770143499c"),
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(tier="full")


@pytest.fixture(scope="module")
def apps(catalog: Catalog) -> dict[int, SandboxApp]:
    return {e: create_app(seed=0, catalog=catalog, edition=e) for e in (7, 8)}


def _get(app: SandboxApp, catalog: Catalog, eid: str, params: dict[str, str]) -> bytes:
    ep = catalog.endpoints[eid]
    resp = app.handle(build_request(ep, params, app.keys.get(ep.id, app.keys.get(ep.platform))))
    assert resp.status == 200, (eid, resp.body[:200])
    return resp.body


def _items(body: bytes) -> list[dict[str, Any]]:
    doc = json.loads(body)
    items = doc["response"]["body"]["items"]
    return list(items["item"] if isinstance(items, dict) else items)


@pytest.mark.parametrize("eid", sorted(BEFORE))
def test_edition_7_serves_what_it_served(apps: dict[int, SandboxApp], catalog: Catalog, eid: str) -> None:
    params, digest = BEFORE[eid]
    body = _get(apps[7], catalog, eid, params)
    assert hashlib.sha256(body).hexdigest()[:16] == digest
    assert _get(apps[8], catalog, eid, params) != body  # edition 8 changed it


# ---- law.go.kr: the published root and item names --------------------------------------
def test_law_search_roots_are_the_published_ones(apps: dict[int, SandboxApp], catalog: Catalog) -> None:
    facts = read_facts("lawgokr_roots")["targets"]
    # the names two held-out clients read (caselaw-mcp, korean-law-mcp) and lawpy's probe
    assert (facts["expc"]["root"], facts["expc"]["item"]) == ("Expc", "expc")
    assert (facts["detc"]["root"], facts["detc"]["item"]) == ("DetcSearch", "Detc")
    assert (facts["lstrm"]["root"], facts["lstrm"]["item"]) == ("LsTrmSearch", "lstrm")
    served = 0
    for ep in catalog.endpoints.values():
        target = ep.match.get("target", "")
        if ep.part_id != "gen_lawgokr" or ep.kind != "collection":
            continue
        published = ep.opt("published_root")
        if target not in facts:
            assert published is None and "no published name" in ep.provenance["assumed"], ep.id
            continue
        assert published == {"root": facts[target]["root"], "item": facts[target]["item"] or ep.opt("item"),
                             "edition": 8}, ep.id
        assert ep.provenance["envelope"].startswith(f"root {facts[target]['root']}"), ep.id
        served += 1
    assert served == 73


@pytest.mark.parametrize(("eid", "root", "item"), [("law_detc_search", "DetcSearch", "Detc"),
                                                    ("law_expc_search", "Expc", "expc"),
                                                    ("law_lstrm_search", "LsTrmSearch", "lstrm")])
def test_law_search_answers_under_the_published_names(apps: dict[int, SandboxApp], catalog: Catalog,
                                                      eid: str, root: str, item: str) -> None:
    ep = catalog.endpoints[eid]
    doc = json.loads(_get(apps[8], catalog, eid, {"type": "JSON", "display": "3"}))
    assert list(doc) == [root] and len(doc[root][item]) == 3
    old = json.loads(_get(apps[7], catalog, eid, {"type": "JSON", "display": "3"}))
    assert list(old) == [ep.opt("root")] and len(old[ep.opt("root")][ep.opt("item")]) == 3
    xml = _get(apps[8], catalog, eid, {"type": "XML", "display": "2"}).decode()
    assert xml.count(f"<{item} id=") == 2 and f"<{root}>" in xml and xml.endswith(f"</{root}>")
    # a recording of it parses (the records found under the new item) and renders back byte for byte
    for fmt in ("JSON", "XML"):
        body = _get(apps[8], catalog, eid, {"type": fmt, "display": "2"})
        parsed = get_dialect(ep.dialect).parse(ep, body, fmt.lower())
        assert len(parsed.records) == 2
        url = f"https://www.law.go.kr/DRF/lawSearch.do?OC=test&target={ep.match['target']}&type={fmt}&display=2"
        assert check_fidelity(catalog, url, body).ok


# ---- KMA: values that fit their category -------------------------------------------------
_NUM = r"-?\d+(\.\d)?"
_RAIN = r"강수없음|1mm 미만|\d+\.\dmm"
_SNOW = r"적설없음|1cm 미만|\d+\.\dcm"


def _fits(category: str, value: str, *, nowcast: bool, observed: bool = False) -> bool:
    """``nowcast``: the ultra-short codes (PTY 5-7, no 4); ``observed``: RN1 in mm, not a class."""
    ptys = {"0", "1", "2", "3", "5", "6", "7"} if nowcast else {"0", "1", "2", "3", "4"}
    checks = {
        "T1H": lambda v: re.fullmatch(_NUM, v) is not None and -40 < float(v) < 45,
        "TMP": lambda v: re.fullmatch(r"-?\d+", v) is not None,
        "TMN": lambda v: re.fullmatch(r"-?\d+\.\d", v) is not None, "TMX": lambda v: re.fullmatch(r"-?\d+\.\d", v) is not None,
        "RN1": (lambda v: v == "0" or re.fullmatch(r"\d+\.\d", v) is not None) if observed else (lambda v: re.fullmatch(_RAIN, v) is not None),
        "PCP": lambda v: re.fullmatch(_RAIN, v) is not None, "SNO": lambda v: re.fullmatch(_SNOW, v) is not None,
        "REH": lambda v: v.isdigit() and 0 <= int(v) <= 100, "POP": lambda v: v.isdigit() and int(v) % 10 == 0 <= int(v) <= 100,
        "PTY": lambda v: v in ptys, "SKY": lambda v: v in {"1", "3", "4"}, "LGT": lambda v: v == "0",
        "VEC": lambda v: v.isdigit() and 0 <= int(v) <= 360, "WSD": lambda v: re.fullmatch(r"\d+(\.\d)?", v) is not None,
        "UUU": lambda v: re.fullmatch(_NUM, v) is not None, "VVV": lambda v: re.fullmatch(_NUM, v) is not None,
        "WAV": lambda v: re.fullmatch(r"\d+(\.\d)?", v) is not None,
    }
    return checks[category](value)


def test_kma_nowcast_and_ultra_forecast_values_fit_their_category(apps: dict[int, SandboxApp], catalog: Catalog) -> None:
    for base_time in ("0000", "0500", "1400"):
        rows = _items(_get(apps[8], catalog, "kma_ultra_srt_ncst", {"base_date": "20250115", "base_time": base_time,
                                                                    "nx": "60", "ny": "127", "dataType": "JSON"}))
        assert [r["category"] for r in rows] == list(NCST_CATEGORIES)
        assert all(_fits(r["category"], r["obsrValue"], nowcast=True, observed=True) for r in rows), rows
        assert {(r["baseDate"], r["baseTime"], r["nx"], r["ny"]) for r in rows} == {("20250115", base_time, 60, 127)}
    rows = _items(_get(apps[8], catalog, "kma_ultra_srt_fcst", {"base_date": "20251231", "base_time": "2130",
                                                                "nx": "60", "ny": "127", "dataType": "JSON",
                                                                "numOfRows": "100"}))
    assert [r["category"] for r in rows[::6]] == list(ULTRA_FCST_CATEGORIES) and len(rows) == 60
    assert [(r["fcstDate"], r["fcstTime"]) for r in rows[:6]] == [
        ("20251231", "2200"), ("20251231", "2300"), ("20260101", "0000"), ("20260101", "0100"),
        ("20260101", "0200"), ("20260101", "0300")]
    assert all(_fits(r["category"], r["fcstValue"], nowcast=True) for r in rows), rows
    by = {(r["category"], r["fcstTime"]): r["fcstValue"] for r in rows}
    assert all((by[("PTY", t)] == "0") == (by[("RN1", t)] == "강수없음") for _c, t in by)


def test_kma_vilage_forecast_is_the_real_samples_shape(apps: dict[int, SandboxApp], catalog: Catalog) -> None:
    sample = json.loads((SAMPLES / "datagokr_kma" / "getVilageFcst_numOfRows1_totalCount809.json").read_text())
    real = sample["response"]["body"]
    params = {"base_date": "20220524", "base_time": "0500", "nx": "55", "ny": "127", "dataType": "JSON"}
    one = json.loads(_get(apps[8], catalog, "datagokr_misc_kma_vilage_fcst", {**params, "numOfRows": "1"}))["response"]["body"]
    assert one["totalCount"] == real["totalCount"] == 809
    (ours,), (theirs,) = one["items"]["item"], real["items"]["item"]
    assert list(ours) == list(theirs)
    assert {k: ours[k] for k in ours if k != "fcstValue"} == {k: theirs[k] for k in theirs if k != "fcstValue"}
    before = json.loads(_get(apps[7], catalog, "datagokr_misc_kma_vilage_fcst", {**params, "numOfRows": "1"}))
    assert before["response"]["body"]["totalCount"] == 804  # edition 7: no TMN/TMX
    rows = _items(_get(apps[8], catalog, "datagokr_misc_kma_vilage_fcst", {**params, "numOfRows": "1000"}))
    assert all(_fits(r["category"], r["fcstValue"], nowcast=False) for r in rows)
    extra = [(r["category"], r["fcstDate"], r["fcstTime"]) for r in rows if r["category"] not in VILAGE_CATEGORIES]
    assert extra == [("TMX", "20220524", "1500"), ("TMN", "20220525", "0600"), ("TMX", "20220525", "1500"),
                     ("TMN", "20220526", "0600"), ("TMX", "20220526", "1500")]
    for r in rows:
        if r["category"] == "PTY":
            same = {x["category"]: x["fcstValue"] for x in rows if x["fcstTime"] == r["fcstTime"] and x["fcstDate"] == r["fcstDate"]}
            assert (same["PCP"] == "강수없음") == (r["fcstValue"] in ("0", "3"))
            assert (same["SNO"] != "적설없음") == (r["fcstValue"] in ("2", "3"))


# ---- OpenDART: the indices of the class asked ----------------------------------------------
@pytest.mark.parametrize(("reprt", "settled"), [("11011", "2024-12-31"), ("11012", "2024-06-30")])
def test_dart_index_rows_follow_the_request(apps: dict[int, SandboxApp], catalog: Catalog, reprt: str, settled: str) -> None:
    world = World(0, edition=8)
    classes = {"M210000": "수익성지표", "M220000": "안정성지표", "M230000": "성장성지표", "M240000": "활동성지표"}
    for code, name in classes.items():
        for eid in ("dart_fnltt_singl_indx", "dart_fnltt_cmpny_indx"):
            rows = json.loads(_get(apps[8], catalog, eid, {"corp_code": "09529646", "bsns_year": "2024",
                                                           "reprt_code": reprt, "idx_cl_code": code}))["list"]
            assert [r["idx_nm"] for r in rows] == list(INDEX_NAMES[code])
            assert {(r["idx_cl_code"], r["idx_cl_nm"], r["bsns_year"], r["reprt_code"], r["stlm_dt"]) for r in rows} == {
                (code, name, "2024", reprt, settled)}
    assert [len(v) for v in INDEX_NAMES.values()] == [15, 22, 18, 11]
    rows = json.loads(_get(apps[8], catalog, "dart_fnltt_singl_indx", {"corp_code": "09529646", "bsns_year": "2024",
                                                                      "reprt_code": reprt, "idx_cl_code": "M210000"}))["list"]
    assert rows[0]["idx_code"] == "M211100" and rows[0]["idx_nm"] == "세전계속사업이익률"
    acc = {r["account_nm"]: int(r["thstrm_amount"].replace(",", "")) for r in world.accounts("09529646", 2024, reprt)
           if r["fs_div"] == "CFS"}
    val = {r["idx_nm"]: float(r["idx_val"]) for r in rows}
    assert val["순이익률"] == pytest.approx(acc["당기순이익(손실)"] / acc["매출액"] * 100, abs=1e-3)
    assert val["ROE"] == pytest.approx(acc["당기순이익(손실)"] / acc["자본총계"] * 100, abs=1e-3)
    assert val["매출총이익률"] + val["매출원가율"] == pytest.approx(100, abs=2e-3)


# ---- AirKorea: the fields of the ver asked ------------------------------------------------
def test_airkorea_answers_the_fields_of_the_version_asked(apps: dict[int, SandboxApp], catalog: Catalog) -> None:
    sample = json.loads((SAMPLES / "datagokr_airkorea" / "getCtprvnRltmMesureDnsty_seoul_ver1.5_numOfRows1_total40.json")
                        .read_text())
    (theirs,) = sample["response"]["body"]["items"]
    eid, base = "datagokr_misc_airkorea_sido_realtime", {"returnType": "json", "sidoName": "서울", "numOfRows": "1"}
    (ours,) = _items(_get(apps[8], catalog, eid, {**base, "ver": "1.5"}))
    assert list(ours) == list(theirs)  # every field, in the real order

    def places(v: Any) -> int | None:
        return None if v is None else len(v.partition(".")[2])
    assert {k: places(v) for k, v in ours.items() if k.endswith("Value")} == {
        k: places(v) for k, v in theirs.items() if k.endswith("Value")}
    keys = {ver: set(_items(_get(apps[8], catalog, eid, {**base, **({"ver": ver} if ver else {})}))[0])
            for ver in ("", "1.0", "1.1", "1.2", "1.3", "1.4")}
    assert keys["1.0"] - keys[""] == {"pm25Value", "pm25Grade", "pm25Flag"}
    assert keys["1.1"] - keys["1.0"] == {"pm10Value24", "pm25Value24"}
    assert keys["1.2"] - keys["1.1"] == {"mangName"}
    assert keys["1.3"] - keys["1.2"] == {"pm10Grade1h", "pm25Grade1h"}
    assert keys["1.4"] - keys["1.3"] == {"stationCode"} and keys["1.4"] == set(theirs)
    assert set(_items(_get(apps[7], catalog, eid, base))[0]) == set(theirs)  # edition 7: every field, any ver
    # the station endpoint: the named station's hours, its latest the province list's
    first = _items(_get(apps[8], catalog, eid, {**base, "ver": "1.3"}))[0]
    hours = _items(_get(apps[8], catalog, "airkorea_msrstn_accto_rltm_mesure_dnsty",
                        {"returnType": "json", "stationName": first["stationName"], "dataTerm": "DAILY", "ver": "1.3",
                         "numOfRows": "100"}))
    assert len(hours) == 24 and hours[0]["dataTime"] == first["dataTime"] and hours[-1]["dataTime"] == "2025-12-30 15:00"
    assert {k: hours[0][k] for k in hours[0]} == {k: first[k] for k in hours[0]}
