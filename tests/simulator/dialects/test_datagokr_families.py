"""data.go.kr families as data (``simulator/catalog/datagokr_families.yaml``, issue 27 item 3).

Each real data.go.kr body in ``shared/samples`` is held against the endpoint the generator
would make for its path (its fields untyped, no envelope options: what every generated tool
declares): with its family it parses and renders back equivalent (structure, values, JSON
types, key order); with the generic shape alone the families' bodies fail, so the table is what
carries them. The sandbox serves, and ``kopa@v0005`` replays, a generated endpoint in its
family's shape.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulator import Resolver, Store
from simulator.catalog import Catalog, Endpoint, load_catalog
from simulator.catalog.generate import GENERATED_DIR
from simulator.catalog.files import merge_raw
from simulator.catalog.models import Platform
from simulator.catalog import datagokr_families
from simulator.catalog.datagokr_families import families, family_for
from simulator.fidelity import FidelityResult, check_fidelity
from simulator.request import SimRequest
from simulator.sandbox import create_app
from tests.support.dialect_helpers import SAMPLES, load_cases

CASES = [c for c in load_cases("datagokr") if "request" in c]
CATALOG = load_catalog()
#: The platform options every generated data.go.kr platform ships with (the generator's).
GENERATED_OPTIONS = json.loads((GENERATED_DIR / "gen_airkorea.json").read_text(encoding="utf-8"))["options"]
SHARED = SAMPLES.parent

needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared samples not present")


def generated_twin(ep: Endpoint) -> Platform:
    """``ep`` as the generator declares an endpoint: its path and params, untyped fields, the
    generated platform options and only its own format switch; loaded as the catalog loads it."""
    raw_ep = {
        "id": ep.id,
        "operation": ep.operation,
        "summary": ep.summary,
        "path": ep.path,
        "record_path": ep.record_path,
        "default_page_size": ep.default_page_size,
        "max_page_size": ep.max_page_size,
        "fields": [{"name": f.name, "description": f.description} for f in ep.fields],
        "params": [p.model_dump(exclude_defaults=True) for p in ep.params],
        "options": {"format_values": ep.opt("format_values", {})},
        "fidelity": "partial",
    }
    raw = {
        "format": 1, "id": "gen_twin", "name": "twin", "name_ko": "twin", "domain": ep.domain,
        "dialect": "datagokr", "host": ep.host, "scheme": "https", "key_env": "KOPA_KEY_TWIN",
        "options": dict(GENERATED_OPTIONS), "endpoints": [raw_ep],
    }
    return Platform.model_validate(merge_raw(raw))


def twin_fidelity(case: dict[str, Any]) -> FidelityResult:
    ep = CATALOG.match(SimRequest.from_url(case["request"])).endpoint
    twin = Catalog([generated_twin(ep)])
    return check_fidelity(twin, case["request"], (SAMPLES / case["sample"]).read_bytes(), status=case["status"])


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["sample"].split("/", 1)[1][:60] for c in cases]


# ---- the table ---------------------------------------------------------------------------------
def test_every_family_names_its_evidence_and_owns_its_prefixes() -> None:
    seen: dict[str, str] = {}
    for fam in families():
        assert fam.options, fam.name
        assert "samples/" in fam.source or "apis.md" in fam.source or "issue 27" in fam.source, fam.name
        for prefix in fam.prefixes:
            assert prefix not in seen, f"{prefix} in {seen.get(prefix)} and {fam.name}"
            seen[prefix] = fam.name
        for sample in (w for w in fam.source.split() if w.startswith("samples/") and "*" not in w):
            assert (SHARED / sample.rstrip(";,.)")).exists() or not SAMPLES.is_dir(), sample


def test_longest_prefix_wins_and_other_hosts_are_generic() -> None:
    assert family_for("apis.data.go.kr", "/1613000/RTMSDataSvcNrgTrade/getRTMSDataSvcNrgTrade").name == "molit_rtms"
    assert family_for("apis.data.go.kr", "/1613000/ArchPmsHubService/getApBasisOulnInfo").name == "molit_archpms"
    assert family_for("apis.data.go.kr", "/1613000/HsPmsHubService/getHpBasisOulnInfo") is None
    assert family_for("APIS.DATA.GO.KR", "/1360000/MidFcstInfoService/getMidTa").name == "kma"
    assert family_for("opendart.fss.or.kr", "/1360000/x") is None


def test_generated_endpoints_carry_their_family_and_curated_ones_keep_theirs() -> None:
    gen = CATALOG.endpoint("airkorea_minu_dust_frcst_dspth")
    assert gen.fidelity != "curated" and gen.opt("family") == "airkorea"
    assert (gen.opt("success"), gen.opt("items"), gen.opt("json_header_last")) == (["00", "NORMAL_CODE"], "bare", True)
    # A curated endpoint's own options win over its family's (NEC-style ones are its platform's).
    g2b = CATALOG.endpoint("datagokr_misc_g2b_award_results")
    assert g2b.opt("family") == "g2b" and g2b.opt("success") == ["00", "정상."]
    # Family field types reach only fields a generated endpoint left untyped.
    kasi = [ep for ep in CATALOG.endpoints.values() if ep.opt("family") == "kasi" and ep.fidelity != "curated"]
    assert any(f.name == "locdate" and f.type == "integer" for ep in kasi for f in ep.fields)


# ---- real samples against generated twins ------------------------------------------------------
@needs_samples
@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_generated_twin_of_each_real_body_renders_it_back(case: dict[str, Any]) -> None:
    result = twin_fidelity(case)
    assert result.ok, "\n".join(result.differences)


#: The real bodies the generic shape cannot give back, each for its family's reason. (KMA's
#: NO_DATA reads back in its recorded in-band shape either way; TAGO's JSON numbers stay numbers
#: when parsed from JSON: its family's field types matter for XML-recorded and sandbox values.)
GENERIC_FAILS = {
    "datagokr_airkorea/getCtprvnRltmMesureDnsty_seoul_ver1.5_numOfRows1_total40.json",  # body first, bare items
    "datagokr_kma/MidFcstInfoService_getMidTa_11B10101_0600.json",  # NORMAL_SERVICE, dataType, numbers
    "datagokr_kma/MidFcstInfoService_getMidLandFcst_11B00000_0600.json",
    "datagokr_kma/getVilageFcst_numOfRows1_totalCount809.json",
    "datagokr_common/rtms_http401_unauthorized_body.txt",  # RTMS plain-text 401
    "datagokr_common/gateway_SERVICE_KEY_IS_NOT_REGISTERED_legacy.xml",  # TourAPI legacy XML
    "datagokr_fsc_stock/getStockPriceInfo_samsung_20220622.json",  # body key order
    "datagokr_tourapi/KorService1_searchKeyword1_gangwon_numOfRows1_total49.xml",  # 0000/OK
    "datagokr_tourapi/PhotoGalleryService1_gal_numOfRows1_total5251.xml",
    "nec/getCommonSgCodeList_numOfRows2_total192.xml",  # INFO-00
    "nec/WinnerInfoInqireService2_getWinnerInfoInqire_20250603_t1_single.xml",
    "mois_stanregincd/getStanReginCdList_json_ansan_numOfRows3_total33.json",  # head/row
    "mois_stanregincd/INFO-3_no_data_bare_RESULT.json",
}


@needs_samples
def test_without_the_families_the_generic_shape_fails_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datagokr_families, "family_for", lambda host, path: None)
    failing = {c["sample"] for c in CASES if not twin_fidelity(c).ok}
    assert failing == GENERIC_FAILS


@needs_samples
def test_rtms_documented_zero_results_json_is_the_family_empty_page() -> None:
    """The documented RTMS JSON (a .txt of prose, so not a fidelity case) is what a generated
    RTMS endpoint renders for an empty page: no wrapper, 000/OK, items "", string counts."""
    text = (SAMPLES / "datagokr_molit/RTMS_type_json_LAWD_CD_99999_zero_results_as_documented.txt").read_text("utf-8")
    doc = text.split("→", 1)[1].split("DEAL_YMD=2026")[0]
    url = ("https://apis.data.go.kr/1613000/RTMSDataSvcLandTrade/getRTMSDataSvcLandTrade"
           "?serviceKey=K&LAWD_CD=99999&DEAL_YMD=202601&numOfRows=3&type=json")
    result = check_fidelity(CATALOG, url, doc.strip().encode("utf-8"))
    assert result.endpoint == "molit_rtms_data_svc_land_trade" or CATALOG.endpoint(result.endpoint).opt("family") == "molit_rtms"
    assert result.ok, result.differences


def test_archpms_empty_page_has_empty_items_and_string_counts() -> None:
    ep = next(ep for ep in CATALOG.endpoints.values() if ep.path.startswith("/1613000/ArchPmsHubService/"))
    url = f"https://apis.data.go.kr{ep.path}?serviceKey=K&_type=json&numOfRows=5&pageNo=1"
    match = CATALOG.match(SimRequest.from_url(url))
    from simulator.dialects import get_dialect

    dialect = get_dialect("datagokr")
    split = dialect.split(match)
    fmt = "json" if "json" in {v for v in ep.opt("format_values", {}).values()} else split.fmt
    from dataclasses import replace

    body = json.loads(dialect.render(replace(split, fmt=fmt), [], 0, {}).body)
    assert body["response"]["body"] == {"items": "", "numOfRows": "5", "pageNo": "1", "totalCount": "0"}
    assert body["response"]["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}


# ---- the sandbox and the shipped version ------------------------------------------------------
AIRKOREA_GEN = "airkorea_minu_dust_frcst_dspth"


def _airkorea_shape(body: bytes) -> dict[str, Any]:
    doc = json.loads(body)
    assert list(doc) == ["response"]
    assert list(doc["response"]) == ["body", "header"]
    assert doc["response"]["header"] == {"resultMsg": "NORMAL_CODE", "resultCode": "00"}
    b = doc["response"]["body"]
    assert list(b) == ["totalCount", "items", "pageNo", "numOfRows"]
    assert isinstance(b["items"], list) and all(isinstance(r, dict) for r in b["items"])
    return b


def test_sandbox_serves_a_generated_airkorea_endpoint_in_the_airkorea_shape() -> None:
    ep = CATALOG.endpoint(AIRKOREA_GEN)
    resp = create_app(seed=0).handle(SimRequest.from_url(
        f"https://apis.data.go.kr{ep.path}?serviceKey=sandbox-{ep.platform}&returnType=json&numOfRows=3&pageNo=1"
    ))
    assert resp.status == 200, resp.body[:200]
    b = _airkorea_shape(resp.body)
    assert b["items"] and b["numOfRows"] == 3 and b["pageNo"] == 1
    # and a recorder reads it back: the records and total a future version keeps
    from simulator.dialects import get_dialect

    parsed = get_dialect("datagokr").parse(ep, resp.body, "json")
    assert (parsed.outcome, parsed.records, parsed.total) == ("ok", b["items"], b["totalCount"])


def test_sandbox_serves_a_generated_kma_endpoint_in_the_kma_shape() -> None:
    ep = next(e for e in CATALOG.endpoints.values() if e.opt("family") == "kma" and e.fidelity != "curated")
    fmt_param = next(p for p in ep.params if p.role == "format")
    json_value = next(k for k, v in ep.opt("format_values").items() if v == "json")
    resp = create_app(seed=0).handle(SimRequest.from_url(
        f"https://apis.data.go.kr{ep.path}?serviceKey=sandbox-{ep.platform}&{fmt_param.name}={json_value}&numOfRows=2"
    ))
    assert resp.status == 200, resp.body[:200]
    doc = json.loads(resp.body)
    assert doc["response"]["header"] == {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"}
    assert list(doc["response"]["body"]) == ["dataType", "items", "pageNo", "numOfRows", "totalCount"]
    assert doc["response"]["body"]["dataType"] == "JSON"


@pytest.fixture(scope="module")
def v0005(shipped_store: Store) -> Resolver:
    store = shipped_store
    version = store.open("kopa", "v0005")
    return Resolver(version, CATALOG)


@pytest.mark.slow  # compiling kopa@v0005's index takes ~20 s
def test_v0005_window_of_a_generated_airkorea_endpoint_has_the_airkorea_shape(v0005: Resolver) -> None:
    ep = CATALOG.endpoint(AIRKOREA_GEN)
    resp = v0005.resolve(SimRequest.from_url(
        f"https://apis.data.go.kr{ep.path}?serviceKey=K&returnType=json&numOfRows=2&pageNo=1"
    ))
    assert resp.status == 200, resp.body[:200]
    b = _airkorea_shape(resp.body)
    assert len(b["items"]) == min(2, b["totalCount"]) and b["numOfRows"] == 2


@needs_samples
def test_docs_list_every_real_body_that_cannot_pass_fidelity() -> None:
    """docs/catalog.md names each sample ``test_samples_fidelity`` lists as unable to pass."""
    import yaml

    docs = (Path(__file__).resolve().parents[3] / "docs" / "catalog.md").read_text(encoding="utf-8")
    table = docs.split("### Real bodies that cannot pass", 1)[1].split("\n## ", 1)[0]
    cases = {c["sample"]: c for f in sorted((Path(__file__).resolve().parents[3] / "tests" / "fidelity").glob("*.yaml"))
             for c in yaml.safe_load(f.read_text(encoding="utf-8"))}
    files = sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.glob("*/*") if p.is_file())
    cannot = [n for n in files if n not in cases or "skip" in cases[n]]
    assert cannot
    for name in cannot:
        folder = name.split("/", 1)[0]
        assert f"`{name}`" in table or (name not in cases and f"`{folder}/…`" in table), name
    assert f"except these {len(cannot)}" in table


def test_an_inferred_operation_takes_its_own_paths_family() -> None:
    """An operation the catalog lacks, on a known service, speaks that service's family — not
    the curated sibling's it borrows its paging and key from."""
    air = CATALOG.infer(SimRequest.from_url(
        "https://apis.data.go.kr/B552584/ArpltnInforInqireSvc/getNotCatalogued?serviceKey=K&returnType=json"))
    assert air is not None and air.endpoint.opt("family") == "airkorea"
    assert air.endpoint.opt("success") == ["00", "NORMAL_CODE"] and not air.endpoint.opt("escape_slash")
    plain = CATALOG.infer(SimRequest.from_url("https://apis.data.go.kr/6260000/SomeService/getSomething?serviceKey=K"))
    assert plain is not None and plain.endpoint.opt("family") is None
    assert plain.endpoint.opt("success") is None and plain.endpoint.opt("envelope") is None
