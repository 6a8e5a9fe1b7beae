"""The shipped versions of ``kopa``, what each recording added and that the later ones are
additive.

``kopa@v0003`` (#19, world edition 3) has data for every tool of its catalog. ``kopa@v0004``
(#17, edition 4) carries every v0003 collection unchanged and adds the four NEIS past-year
timetable tools the generated tier gained plus the collections the client calls of
``docs/clients.md`` need (``simulator/record/plans/v0004_extra.yaml``); edition 4 is edition 3
with the generated NEIS services' rows carrying the hub's common fields. ``kopa@v0005`` (#20)
carries every v0004 collection unchanged and adds the crawls of ``v0005_extra.yaml`` (the other
24 Seoul districts' officetel and row-house trades of 2024-07, more high schools' class lists
and majors), the chains KOPA-Bench does not use, so a 1,000-example synthesis run is not bounded
by drawing the same few recorded chains again. ``kopa@v0006`` (#27) is v0005 with its
generated tier recorded anew from world edition 5 on real values only
(``simulator/record/plans/v0006.yaml``): no collection keyed on a dummy (1,051 of v0005's are),
the generated endpoints' fuller published fields, and the curated tier (KOPA-Bench's golds, the
default EDGE run) carried over byte for byte. ``kopa@v0007`` (#27, #28) is v0006 with its
generated tier recorded anew from world edition 6 (``simulator/record/plans/v0007.yaml``):
FSC's company outline joined to OpenDART (looked up by name for the 60 OpenDART companies
recorded), the seven services edition 6 added, the curated tier carried over. ``kopa@v0008``
(#27 item 6) is v0007 recorded anew, both tiers, from world edition 7
(``simulator/record/plans/v0008.yaml``): the 20 real listed companies of the pool by name and
code only, every value about a company an invented company's, and the values real clients send.
``kopa@v0009`` (stop 38) is v0008 recorded anew, both tiers, from world edition 8
(``simulator/record/plans/v0009.yaml``): invented names that read like real Korean ones (schools,
companies, statutes, bills) and stop 38's other edition-8 changes (invented parties, published
fields and shapes). ``kopa@v0010`` (stop 40) is v0009 recorded anew, both tiers, from world
edition 9 (``simulator/record/plans/v0010.yaml``): more published fields, the MOIS yearbook
services in their head/row envelope, measures of their unit and meaning, and Seoul's row-house
and officetel trades of more months than 2024-07. (Recording them again:
tests/simulator/record/test_rerecord.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator import Resolver, Store, load_catalog
from simulator.catalog import Catalog
from simulator.catalog.generate.seeds import placeholder_params, seed_plan_report
from simulator.catalog.requests import build_request
from simulator.dialects import collection_key, get_dialect
from simulator.ignore import collection_filters
from simulator.record import load_plan
from simulator.store import Version

ROOT = Path(__file__).resolve().parents[3]
PLAN4 = ROOT / "simulator" / "record" / "plans" / "v0004_extra.yaml"
PLAN5 = ROOT / "simulator" / "record" / "plans" / "v0005_extra.yaml"
PLAN6 = ROOT / "simulator" / "record" / "plans" / "v0006.yaml"
PLAN7 = ROOT / "simulator" / "record" / "plans" / "v0007.yaml"
PLAN8 = ROOT / "simulator" / "record" / "plans" / "v0008.yaml"
PLAN9 = ROOT / "simulator" / "record" / "plans" / "v0009.yaml"
PLAN10 = ROOT / "simulator" / "record" / "plans" / "v0010.yaml"
#: The services kopa@v0007 added (world edition 6; fidelity partial).
ADDED_IN_V0007 = frozenset({"seoul_realtime_city_air", "seoul_bike_list", "seoul_subway_positions", "ecos_stat_meta",
                            "datagokr_misc_kapt_sigungu_apt_list", "datagokr_misc_kapt_basis_info", "datagokr_misc_semas_store_list_in_dong"})
KEY = "kopa0test0key0000000000000000000000000000"[:40]
#: The content hash kopa@v0007 was published with (docs/drift-v0007.md).
V0007_HASH = "b6914a80"
#: The content hash kopa@v0008 was published with (docs/drift-v0008.md).
V0008_HASH = "922e9495"
#: The content hash kopa@v0009 was published with (docs/drift-v0009.md).
V0009_HASH = "61b22934"
#: The content hash kopa@v0010 was published with (docs/drift-v0010.md).
V0010_HASH = "63284925"


@pytest.fixture(scope="module")
def store(shipped_store: Store) -> Store:
    return shipped_store


def test_v0003_has_data_for_every_tool_of_its_catalog(store: Store) -> None:
    v3 = store.open("kopa", "v0003")  # the later versions only add (below)
    m = v3.manifest
    assert (m.version, m.parent) == ("v0003", "v0002")
    assert m.content_hash.startswith("1a471589")
    assert store.open("kopa", "v0002").content_hash.startswith("9ff46e17")
    assert store.open("kopa", "v0001").content_hash.startswith("60ad9f8f")
    assert all(e.records > 0 for e in m.endpoints.values()) and len(m.endpoints) == 2692
    drift = (ROOT / "docs" / "drift-v0003.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0002 → kopa@v0003" in drift and "nec_preliminary_candidates" in drift


def _answers(resolver: Resolver, sample: list[Any]) -> dict[str, tuple[int, list[tuple[str, str]], bytes]]:
    """First and last page, JSON and XML, of each sampled collection: status, headers, body."""
    catalog = resolver.catalog
    out = {}
    for c in sample:
        ep = catalog.endpoint(c.endpoint)
        for fmt in ("json", "xml"):
            pages = get_dialect(ep.dialect).page_requests(ep, dict(c.filters), max(c.total or 0, c.count, 1), fmt)
            for j in sorted({0, len(pages) - 1}):
                req = build_request(ep, pages[j], key=KEY)
                r = resolver.resolve(req)
                headers = sorted((k, v) for k, v in r.headers if k != "x-sim-version")  # names the version
                out[req.url] = (r.status, headers, r.body)
    return out


@pytest.mark.parametrize(("version", "parent", "digest"), [("v0004", "v0003", "727820a9"), ("v0005", "v0004", "8e8c607b")])
def test_v0004_and_v0005_hold_every_tool_and_their_drift_is_written(store: Store, version: str, parent: str,
                                                                     digest: str) -> None:
    """v0004 and v0005 only add to their parents (below), and v0006 re-records v0005's generated tier."""
    m = store.open("kopa", version).manifest
    assert (m.version, m.parent, m.source) == (version, parent, "sandbox")
    assert m.content_hash.startswith(digest)
    assert len(m.endpoints) == len(load_catalog().endpoints) - len(ADDED_IN_V0007) == 2696
    assert all(e.records > 0 for e in m.endpoints.values())
    drift = (ROOT / "docs" / f"drift-{version}.md").read_text(encoding="utf-8")
    assert f"# Drift kopa@{parent} → kopa@{version}" in drift and "Collections changed" not in drift


def test_v0004_adds_only_its_plan(store: Store) -> None:
    v3, v4 = store.open("kopa", "v0003"), store.open("kopa", "v0004")
    keys3 = {c.key: (c.count, c.total) for c in v3.collections()}
    keys4 = {c.key: (c.count, c.total) for c in v4.collections()}
    assert {k: keys4[k] for k in keys3} == keys3
    seeds = yaml.safe_load(PLAN4.read_text(encoding="utf-8"))["seeds"]
    assert len(keys4) - len(keys3) == len(seeds) == 9
    assert "neis_aca_ins_ti_info?ATPT_OFCDC_SC_CODE=B10" in set(keys4) - set(keys3)
    assert "molit_apt_trades_detail?DEAL_YMD=202503&LAWD_CD=11110" in set(keys4) - set(keys3)


def test_v0004_answers_v0003s_requests_byte_for_byte(store: Store) -> None:
    """Every 25th v0003 collection and every NEIS one (whose tools gained fields), first and
    last page in both formats: the same status, headers and bytes from both versions."""
    v3, v4 = store.open("kopa", "v0003"), store.open("kopa", "v0004")
    cols = sorted(v3.index.collections(), key=lambda c: c.key)
    sample = [c for i, c in enumerate(cols) if i % 25 == 0 or c.endpoint.startswith("neis_")]
    catalog = load_catalog()
    a, b = _answers(Resolver(v3, catalog), sample), _answers(Resolver(v4, catalog), sample)
    assert len(a) > 400 and all(status == 200 for status, _h, _b in a.values())
    assert b == a


def test_filtered_generated_neis_rows_belong_to_the_office_asked_for(store: Store) -> None:
    v4 = store.open("kopa", "v0004")
    c = v4.index.collection("neis_aca_ins_ti_info?ATPT_OFCDC_SC_CODE=B10")
    rows = v4.index.records(c.id, 0, c.count)
    assert rows and {r["ATPT_OFCDC_SC_CODE"] for r in rows} == {"B10"}
    assert {r["ATPT_OFCDC_SC_NM"] for r in rows} == {"서울특별시교육청"}
    c = v4.index.collection("neis_his_timetablebgs?ATPT_OFCDC_SC_CODE=B10&AY=2022&SD_SCHUL_CODE=7010798")
    rows = v4.index.records(c.id, 0, c.count)
    assert rows and {(r["SD_SCHUL_CODE"], r["AY"]) for r in rows} == {("7010798", "2022")}


def test_v0005_adds_only_its_plans_crawls(store: Store) -> None:
    v4, v5 = store.open("kopa", "v0004"), store.open("kopa", "v0005")
    keys4 = {c.key: (c.count, c.total) for c in v4.collections()}
    keys5 = {c.key: (c.count, c.total) for c in v5.collections()}
    assert {k: keys5[k] for k in keys4} == keys4  # the seeds re-recorded are v0004's bytes
    added = set(keys5) - set(keys4)
    assert len(added) == 197
    plan = yaml.safe_load(PLAN5.read_text(encoding="utf-8"))
    targets = {c["to"] for c in plan["crawls"]}
    assert {k.split("?")[0] for k in added} == targets
    offi = {k for k in keys5 if k.startswith("molit_offi_trades?DEAL_YMD=202407&LAWD_CD=11")}
    assert len(offi) == 25  # every Seoul district, not 강남구 alone


def test_v0005_answers_v0004s_requests_byte_for_byte(store: Store) -> None:
    """Every 40th v0004 collection and each of the crawled tools' v0004 collections, first and
    last page in both formats: the same status, headers and bytes from both versions."""
    v4, v5 = store.open("kopa", "v0004"), store.open("kopa", "v0005")
    crawled = {c["to"] for c in yaml.safe_load(PLAN5.read_text(encoding="utf-8"))["crawls"]}
    cols = sorted(v4.index.collections(), key=lambda c: c.key)
    sample = [c for i, c in enumerate(cols) if i % 40 == 0 or c.endpoint in crawled]
    catalog = load_catalog()
    a, b = _answers(Resolver(v4, catalog), sample), _answers(Resolver(v5, catalog), sample)
    assert len(a) > 200 and all(status == 200 for status, _h, _b in a.values())
    assert b == a


# ---- kopa@v0006 -------------------------------------------------------------------------------
def _placeholder_keyed(version: Version, catalog: Catalog) -> list[str]:
    """Keys of ``version``'s collections that hold the old plans' dummy value (``A1``, or ``1``
    for an integer, where nothing was published): no real request sends them."""
    return sorted(c.key for c in version.collections()
                  if placeholder_params(catalog.endpoint(c.endpoint), c.filters))


def test_v0006_records_every_tool_it_has_a_real_value_for(store: Store) -> None:
    m = store.open("kopa", "v0006").manifest
    assert (m.version, m.parent, m.source) == ("v0006", "v0005", "sandbox")
    assert m.content_hash.startswith("5dbc3569")
    catalog = load_catalog()
    _plan, report = seed_plan_report(catalog)
    left_out = set(report.unresolved)
    assert len(left_out) == 344
    assert set(m.endpoints) == set(catalog.endpoints) - left_out - ADDED_IN_V0007  # 2,352 of 2,696
    assert all(e.records > 0 for e in m.endpoints.values())
    listed = (ROOT / "docs" / "seeds-v0006.md").read_text(encoding="utf-8")
    assert all(f"- `{e}`: " in listed for e in left_out)
    drift = (ROOT / "docs" / "drift-v0006.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0005 → kopa@v0006" in drift and "Collections removed (1051)" in drift


@pytest.mark.parametrize("version,dummies", [("v0005", 1051), ("v0006", 0), ("v0007", 0), ("v0008", 0), ("v0009", 0),
                                                    ("v0010", 0)])
def test_collections_keyed_on_a_placeholder(store: Store, version: str, dummies: int) -> None:
    """v0002–v0005 keyed every generated collection without a published value on ``A1`` (1,003)
    or ``1`` (48); v0006 holds none (its endpoints without a real value are not recorded)."""
    keyed = _placeholder_keyed(store.open("kopa", version), load_catalog())
    assert len(keyed) == dummies, keyed[:5]
    if dummies:
        assert "airkorea_list?msrmtYmd=A1&msrstnNm=A1" in keyed


def test_v0006_curated_tier_is_v0005s_byte_for_byte(store: Store) -> None:
    """The curated tier's data files (the collections KOPA-Bench's golds and the default EDGE
    run read) have the same sha256 in both versions, and the same collections, counts,
    totals and envelopes; every generated file is recorded anew."""
    v5, v6 = store.open("kopa", "v0005"), store.open("kopa", "v0006")
    catalog = load_catalog()
    curated_parts = {e.part_id for e in catalog.endpoints.values() if e.tier == "curated"}
    assert len(curated_parts) == 13
    for rel, sha in v5.manifest.files.items():
        part = rel.split("/")[-1].removesuffix(".jsonl")
        if part in curated_parts:
            assert v6.manifest.files[rel] == sha, rel
        else:
            assert v6.manifest.files[rel] != sha, rel

    def curated(v: Version) -> dict[str, tuple[Any, ...]]:
        return {c.key: (c.count, c.total, c.fmt, c.envelope) for c in v.collections()
                if catalog.endpoint(c.endpoint).tier == "curated"}

    a, b = curated(v5), curated(v6)
    assert len(a) == 1215 and b == a


def test_v0006_answers_v0005s_curated_requests_byte_for_byte(store: Store) -> None:
    """Every 15th curated v0005 collection, first and last page in both formats: the same
    status, headers and bytes from both versions (bench golds and EDGE figures hold)."""
    v5, v6 = store.open("kopa", "v0005"), store.open("kopa", "v0006")
    catalog = load_catalog()
    cols = sorted((c for c in v5.index.collections() if catalog.endpoint(c.endpoint).tier == "curated"),
                  key=lambda c: c.key)
    sample = cols[::15]
    a, b = _answers(Resolver(v5, catalog), sample), _answers(Resolver(v6, catalog), sample)
    assert len(a) > 150 and all(status == 200 for status, _h, _b in a.values())
    assert b == a


def test_v0006_records_its_plan_and_drops_only_the_dummies(store: Store) -> None:
    """The generated collections of v0006 are exactly its plan's seeds; of v0005's generated
    keys, only the placeholder-keyed ones are gone."""
    v5, v6 = store.open("kopa", "v0005"), store.open("kopa", "v0006")
    catalog = load_catalog()
    plan = load_plan(PLAN6)
    assert plan.replace_tiers == ["generated"]
    planned = {collection_key(s.endpoint, collection_filters(catalog.endpoint(s.endpoint), s.params))
               for s in plan.seeds}
    gen5 = {c.key for c in v5.collections() if catalog.endpoint(c.endpoint).tier == "generated"}
    gen6 = {c.key for c in v6.collections() if catalog.endpoint(c.endpoint).tier == "generated"}
    assert gen6 == planned and len(gen6) == 2274
    assert gen5 - gen6 == set(_placeholder_keyed(v5, catalog))


# ---- kopa@v0007 -------------------------------------------------------------------------------
def test_v0007_records_every_tool_it_has_a_real_value_for(store: Store) -> None:
    m = store.open("kopa", "v0007").manifest
    assert (m.version, m.parent, m.source) == ("v0007", "v0006", "sandbox")
    assert m.content_hash.startswith(V0007_HASH)
    catalog = load_catalog()
    _plan, report = seed_plan_report(catalog)
    left_out = set(report.unresolved)
    assert len(left_out) == 344
    assert set(m.endpoints) == set(catalog.endpoints) - left_out  # 2,359 of 2,703
    assert ADDED_IN_V0007 <= set(m.endpoints) and all(e.records > 0 for e in m.endpoints.values())
    listed = (ROOT / "docs" / "seeds-v0007.md").read_text(encoding="utf-8")
    assert all(f"- `{e}`: " in listed for e in left_out)
    drift = (ROOT / "docs" / "drift-v0007.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0006 → kopa@v0007" in drift and "Endpoints added (7)" in drift


def test_v0007_carries_v0006s_curated_tier_and_records_its_plan(store: Store) -> None:
    """v0007's curated collections are v0006's (counts, totals, envelopes); its generated ones
    are exactly its plan's seeds and crawled targets, every v0006 generated key among them."""
    v6, v7 = store.open("kopa", "v0006"), store.open("kopa", "v0007")
    catalog = load_catalog()

    def curated(v: Version) -> dict[str, tuple[Any, ...]]:
        return {c.key: (c.count, c.total, c.fmt, c.envelope) for c in v.collections()
                if catalog.endpoint(c.endpoint).tier == "curated"}

    assert curated(v7) == curated(v6) and len(curated(v6)) == 1215
    plan = load_plan(PLAN7)
    assert plan.replace_tiers == ["generated"] and len(plan.crawls) == 4
    planned = {collection_key(s.endpoint, collection_filters(catalog.endpoint(s.endpoint), s.params))
               for s in plan.seeds}
    gen6 = {c.key for c in v6.collections() if catalog.endpoint(c.endpoint).tier == "generated"}
    gen7 = {c.key for c in v7.collections() if catalog.endpoint(c.endpoint).tier == "generated"}
    crawled = {k for k in gen7 if k.startswith("datagokr_misc_kapt_basis_info?")}
    assert gen7 == planned | crawled and len(crawled) == 60 and gen6 <= gen7


def test_v0007_finds_each_recorded_opendart_company_by_name(store: Store) -> None:
    """A client's route from a company's name to OpenDART: FSC getCorpOutline_V2 by ``corpNm``
    answers one row whose ``fssCorpUnqNo`` is the corp_code of the OpenDART company of that
    name, for every OpenDART company v0007 holds."""
    v7 = store.open("kopa", "v0007")
    companies = {c.filters["corp_code"]: v7.index.records(c.id, 0, 1)[0] for c in v7.collections()
                 if c.endpoint == "opendart_company"}
    outlines = {c.filters["corpNm"]: v7.index.records(c.id, 0, c.count) for c in v7.collections()
                if c.endpoint == "fsc_corp_outline_v2" and "corpNm" in c.filters}
    assert len(companies) == len(outlines) == 60
    for name, rows in outlines.items():
        (row,) = rows
        dart = companies[row["fssCorpUnqNo"]]  # company.json writes a listed one's name with (주)
        assert dart["corp_name"].removesuffix("(주)") == name == row["corpNm"] and dart["ceo_nm"] == row["enpRprFnm"]


# ---- kopa@v0008 -------------------------------------------------------------------------------
def test_v0008_records_every_tool_it_had_a_real_value_for(store: Store) -> None:
    m = store.open("kopa", "v0008").manifest
    assert (m.version, m.parent, m.source) == ("v0008", "v0007", "sandbox")
    assert m.content_hash.startswith(V0008_HASH)
    catalog = load_catalog()
    _plan, report = seed_plan_report(catalog)
    left_out = set(report.unresolved)
    assert len(left_out) == 344
    assert set(m.endpoints) == set(catalog.endpoints) - left_out
    assert all(e.records > 0 for e in m.endpoints.values())
    listed = (ROOT / "docs" / "seeds-v0008.md").read_text(encoding="utf-8")
    assert all(f"- `{e}`: " in listed for e in left_out)
    drift = (ROOT / "docs" / "drift-v0008.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0007 → kopa@v0008" in drift


def test_v0008_records_its_plan_both_tiers(store: Store) -> None:
    """v0008's collections are exactly its plan's seeds (both tiers recorded anew); its curated
    keys are v0007's but OpenDART's, which are edition 7's companies."""
    v7, v8 = store.open("kopa", "v0007"), store.open("kopa", "v0008")
    catalog = load_catalog()
    plan = load_plan(PLAN8)
    assert plan.replace_tiers == ["curated", "generated"] and not plan.crawls
    planned = {collection_key(s.endpoint, collection_filters(catalog.endpoint(s.endpoint), s.params)) for s in plan.seeds}
    assert {c.key for c in v8.collections()} == planned

    def curated(v: Version) -> dict[str, tuple[Any, ...]]:
        return {c.key: (c.count, c.total, c.fmt, c.envelope) for c in v.collections()
                if catalog.endpoint(c.endpoint).tier == "curated" and catalog.endpoint(c.endpoint).platform != "opendart"}

    c7, c8 = curated(v7), curated(v8)
    assert set(c7) <= set(c8) and len(set(c8) - set(c7)) == 16  # the client values of edition 7
    # edition 7 changes only what names a company: FSC's listings, FTC cases, bid winners
    changed = {k for k in c7 if c7[k] != c8[k]}
    assert changed <= {k for k in c7 if k.startswith(("fsc_", "lawgokr_ftc_search", "datagokr_misc_g2b_"))}, changed


def _real_identities() -> dict[str, set[str]]:
    from simulator.sandbox.world import pools

    real = pools()["companies"]
    return {"codes": {c[0] for c in real} | {c[1] for c in real} | {"A" + c[1] for c in real},
            "names": {c[2] for c in real}}


@pytest.mark.parametrize("version", ["v0008", "v0009", "v0010"])
def test_no_value_about_a_real_company(store: Store, version: str) -> None:
    """No OpenDART or FSC record of v0008 (or v0009) names a real company of the pool (its
    corp_code, stock code or name) but the company overview and the corp-code table, which carry
    its identity and nothing else."""
    v8 = store.open("kopa", version)
    catalog = load_catalog()
    real = _real_identities()
    identity = {"corp_code", "corp_name", "corp_name_eng", "corp_eng_name", "stock_code", "stock_name",
                "corp_cls", "status", "message"}
    seen = 0
    for c in v8.collections():
        ep = catalog.endpoint(c.endpoint)
        if ep.platform not in ("opendart", "fsc") or not c.count:
            continue
        for rec in v8.index.records(c.id, 0, c.count):
            values = {str(v) for v in rec.values()}
            if not values & (real["codes"] | real["names"]) and not any(
                    n in str(v) for v in rec.values() for n in real["names"] if len(n) > 2):
                continue
            seen += 1
            assert c.endpoint in ("opendart_company", "opendart_corp_codes"), (c.key, rec)
            assert all(v in ("", None) for k, v in rec.items() if k not in identity), (c.key, rec)
    assert seen >= 40  # the 20 overviews and the 20 rows of the corp-code table


@pytest.mark.parametrize("version", ["v0008", "v0009", "v0010"])
def test_each_recorded_invented_company_is_found_by_name(store: Store, version: str) -> None:
    """FSC getCorpOutline_V2 by ``corpNm`` → ``fssCorpUnqNo`` → OpenDART, for the 40 invented
    companies v0008 (and v0009, by edition 8's names) records; the real ones have an overview
    (identity) and, by name, FSC's no-data answer."""
    v8 = store.open("kopa", version)
    companies = {c.filters["corp_code"]: v8.index.records(c.id, 0, 1)[0] for c in v8.collections()
                 if c.endpoint == "opendart_company"}
    outlines = {c.filters["corpNm"]: v8.index.records(c.id, 0, c.count) for c in v8.collections()
                if c.endpoint == "fsc_corp_outline_v2" and "corpNm" in c.filters}
    assert len(companies) == 60 and len(outlines) == 60
    assert sorted(len(rows) for rows in outlines.values()) == [0] * 20 + [1] * 40  # a real name: no data
    for name, rows in outlines.items():
        if not rows:
            assert name in _real_identities()["names"]
            continue
        (row,) = rows
        dart = companies[row["fssCorpUnqNo"]]
        assert dart["corp_name"].removesuffix("(주)") == name == row["corpNm"] and dart["ceo_nm"] == row["enpRprFnm"]
    real = {k: r for k, r in companies.items() if not k.startswith("09")}
    assert len(real) == 20 and all(r["ceo_nm"] == "" and r["adres"] == "" for r in real.values())


# ---- kopa@v0009 -------------------------------------------------------------------------------
@pytest.mark.parametrize(("version", "parent", "content_hash"), [("v0009", "v0008", V0009_HASH),
                                                             ("v0010", "v0009", V0010_HASH)])
def test_v0009_on_records_every_tool_it_has_a_real_value_for(store: Store, version: str, parent: str,
                                                           content_hash: str) -> None:
    """Both tiers recorded anew: every tool ``simulator catalog seeds`` has a real value for (on
    edition 9, LATEST_EDITION: the seeds of edition 8 are the same set), the others listed in
    docs/seeds-<version>.md, a drift report against the parent."""
    m = store.open("kopa", version).manifest
    assert (m.version, m.parent, m.source) == (version, parent, "sandbox")
    assert m.content_hash.startswith(content_hash)
    catalog = load_catalog()
    _plan, report = seed_plan_report(catalog)
    left_out = set(report.unresolved)
    assert set(m.endpoints) == set(catalog.endpoints) - left_out
    assert all(e.records > 0 for e in m.endpoints.values())
    listed = (ROOT / "docs" / f"seeds-{version}.md").read_text(encoding="utf-8")
    assert all(f"- `{e}`: " in listed for e in left_out)
    drift = (ROOT / "docs" / f"drift-{version}.md").read_text(encoding="utf-8")
    assert f"# Drift kopa@{parent} → kopa@{version}" in drift


def test_v0009_records_its_plan_both_tiers(store: Store) -> None:
    """v0009's collections are exactly its plan's seeds (both tiers recorded anew); its curated
    keys are v0008's, but for pledges of candidates edition 8 does not have (as many others of
    the same election instead) and OpenDART's, which are the same companies."""
    v8, v9 = store.open("kopa", "v0008"), store.open("kopa", "v0009")
    catalog = load_catalog()
    plan = load_plan(PLAN9)
    assert plan.replace_tiers == ["curated", "generated"] and not plan.crawls
    planned = {collection_key(s.endpoint, collection_filters(catalog.endpoint(s.endpoint), s.params)) for s in plan.seeds}
    assert {c.key for c in v9.collections()} == planned

    def curated(v: Version) -> set[str]:
        return {c.key for c in v.collections() if catalog.endpoint(c.endpoint).tier == "curated"}

    lost = curated(v8) - curated(v9)
    assert lost and all(k.startswith("nec_pledges?") for k in lost)
    assert len([k for k in curated(v9) - curated(v8) if k.startswith("nec_pledges?")]) == len(lost)


def test_v0009_names_read_like_korean_names(store: Store) -> None:
    """What v0009 holds of edition 8's names: schools of one stem (no 구 glued on), companies of
    one stem and a kind, statutes titled as real ones, no '… 특별법안' of an existing statute."""
    import re

    from simulator.sandbox.world import World

    v9 = store.open("kopa", "v0009")

    def rows(endpoint: str) -> list[dict[str, Any]]:
        return [r for c in v9.collections(endpoint) for r in v9.index.records(c.id, 0, c.count)]

    schools = {r["SCHUL_NM"] for r in rows("neis_school_info")}
    shape = re.compile(r"(서울)?([가-힣]{2,3})(제\d+)?(여자|공업|상업|외국어)?(초등학교|중학교|고등학교)")
    assert len(schools) > 100
    assert all((m := shape.fullmatch(n)) and not re.match(r"(중|동|서|남|북)구", m.group(2)) for n in schools), schools
    world = World(0, edition=8)
    invented = {c["corp_name"] for c in world.invented_companies()}
    names = {r["corp_name"].removesuffix("(주)") for r in rows("opendart_company") if r["corp_code"].startswith("09")}
    assert len(names) == 40 and names <= invented
    laws = {r["법령명한글"] for r in rows("lawgokr_law_search")}
    assert laws and not [t for t in laws if re.search(r"등법|(광역|권역|지역) \S+ 지원에 관한 특별법", t)]
    bills = {r["BILL_NAME"] for r in rows("assembly_member_bills")}
    assert bills and not [b for b in bills if re.search(r"법 특별법안$", b)]


# ---- kopa@v0010 -------------------------------------------------------------------------------
#: Seoul's row-house and officetel trade months kopa@v0010 records for each of the 25 districts
#: (v0009: 2024-07 only; ``scripts/plan_v0010.py``'s ``HOME_MONTHS``).
HOME_MONTHS10 = {"molit_rh_trades": ["202407", "202412", "202501"],
                 "molit_offi_trades": ["202407", "202412", "202501", "202503"]}


def test_v0010_is_the_newest_in_format_3(store: Store) -> None:
    m = store.open("kopa").manifest
    assert (m.version, m.format) == ("v0010", 3)


def test_v0010_records_its_plan_both_tiers(store: Store) -> None:
    """v0010's collections are exactly its plan's seeds (both tiers recorded anew from edition 9):
    every v0009 key and the home-trade months it adds, nothing else."""
    v9, v10 = store.open("kopa", "v0009"), store.open("kopa", "v0010")
    catalog = load_catalog()
    plan = load_plan(PLAN10)
    assert plan.replace_tiers == ["curated", "generated"] and not plan.crawls
    planned = {collection_key(s.endpoint, collection_filters(catalog.endpoint(s.endpoint), s.params)) for s in plan.seeds}
    keys9, keys10 = {c.key for c in v9.collections()}, {c.key for c in v10.collections()}
    assert keys10 == planned and keys9 <= keys10
    added = keys10 - keys9
    assert len(added) == 25 * 5 and all(k.startswith(("molit_rh_trades?", "molit_offi_trades?")) for k in added)
    # the real companies' FSC outlines by name (no data), as in v0009: nothing else emptied
    empty9, empty10 = ({c.key for c in v.collections() if not c.count} for v in (v9, v10))
    assert empty10 == empty9 and len(empty10) == 20 and all(k.startswith("fsc_corp_outline_v2?") for k in empty10)


def test_v0010_home_trades_of_more_months(store: Store) -> None:
    """Each of Seoul's 25 districts has row-house and officetel trades of every recorded month, a
    month small enough for one conversation (EDGE reads at most 150 trades, ``intents_local._MOST``:
    four in five of the new district-months fit, none has 250), and no two months of a district
    alike."""
    v10 = store.open("kopa", "v0010")
    for endpoint, months in HOME_MONTHS10.items():
        by: dict[str, dict[str, int]] = {}
        names: dict[str, dict[str, tuple[str, ...]]] = {}
        for c in v10.collections(endpoint):
            ym, lawd = c.filters["DEAL_YMD"], c.filters["LAWD_CD"]
            by.setdefault(ym, {})[lawd] = c.count
            rows = v10.index.records(c.id, 0, c.count)
            assert rows and all(r["dealYear"] + f"{int(r['dealMonth']):02d}" == ym for r in rows), c.key
            names.setdefault(lawd, {})[ym] = tuple(r["dealAmount"] for r in rows)
        assert sorted(by) == months, endpoint
        assert all(len(d) == 25 and all(k.startswith("11") for k in d) for d in by.values())
        assert all(len(set(per.values())) == len(per) for per in names.values())  # months differ
        new = [n for ym in months if ym != "202407" for n in by[ym].values()]
        assert sum(n <= 150 for n in new) >= len(new) * 4 // 5 and max(new) < 250, sorted(new)


def test_v0010_answers_a_2022_yearbook_service_in_the_format_asked(store: Store) -> None:
    """A 2022 MOIS yearbook service (no published ``type``) recorded from edition 9 answers
    ``type=json`` in its head/row JSON on v0010; v0009 (edition 8's generic envelope) answers the
    XML it always did."""
    import json

    catalog = load_catalog()
    ep = catalog.endpoint("mois_registration_population_by_region")
    req = build_request(ep, {"type": "json", "numOfRows": "2"}, KEY)
    new = Resolver(store.open("kopa", "v0010"), catalog).resolve(req).response
    old = Resolver(store.open("kopa", "v0009"), catalog).resolve(req).response
    assert new.status == old.status == 200 and old.body.startswith(b"<?xml")
    body = json.loads(new.body)["RegistrationPopulationByRegion"]
    assert body[0]["head"][2]["RESULT"]["resultCode"] == "INFO-0" and len(body[1]["row"]) == 2
