"""Generated endpoints declare the response fields of the best published facts, each with its
source (#27 item 1), and the shipped versions still replay: what ``kopa@v0005`` holds is a
subset of every endpoint's declared fields, and world editions 2–4 serve exactly it;
``kopa@v0006`` holds what edition 5 serves, the fuller fields."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.testing import CliRunner

from simulator import Store, load_catalog
from simulator.catalog import Catalog
from simulator.cli import app
from simulator.sandbox.gen.synth import served_fields, synth_records
from simulator.sandbox.world import World


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _names(catalog: Catalog, eid: str) -> list[str]:
    return [f.name for f in catalog.endpoint(eid).fields]


def test_the_examples_of_issue_27_declare_their_real_fields(catalog: Catalog) -> None:
    acnt = _names(catalog, "dart_fnltt_singl_acnt_all")
    assert {"sj_div", "account_id", "account_nm", "thstrm_amount", "frmtrm_amount", "currency"} <= set(acnt)
    assert {"idx_code", "idx_nm", "idx_val"} <= set(_names(catalog, "dart_fnltt_singl_indx"))
    assert {"category", "nx", "ny", "obsrValue"} <= set(_names(catalog, "kma_ultra_srt_ncst"))
    assert {"법령명한글", "법령ID", "시행일자"} <= set(_names(catalog, "law_eflaw_search"))
    nx = next(f for f in catalog.endpoint("kma_ultra_srt_ncst").fields if f.name == "nx")
    assert nx.type == "integer"  # as the real body types it


def test_every_generated_field_names_its_source(catalog: Catalog) -> None:
    gen = [e for e in catalog.endpoints.values() if e.fidelity != "curated"]
    assert all(f.source for e in gen for f in e.fields)
    sources = {f.source for e in gen for f in e.fields}
    assert "assumed" in sources and "law.go.kr guide output table" in sources


def test_fewer_generated_endpoints_are_thin_and_each_thin_one_says_so(catalog: Catalog) -> None:
    gen = [e for e in catalog.endpoints.values() if e.fidelity != "curated" and e.kind != "binary"]
    thin = [e for e in gen if len(e.fields) <= 3]
    # 1,124 before (+2 ZIP downloads); 1,039 once the law.go.kr targets with a published table were off it;
    # 961 with the FSC guides' response items, kpubdata's catalogue and kloud80's measured schemas
    assert len(thin) <= 961 < 1039
    assert not [e.id for e in thin if e.platform == "lawgokr" and "guide's output table" in e.provenance["fields"]]
    # thin and labelled so, or all its source publishes (an Assembly API of 3 fields)
    unlabelled = [e.id for e in thin if "thin" not in e.provenance and not e.provenance.get("fields", "").startswith(
        tuple(f"{n} published response fields" for n in range(1, 4)))]
    assert not unlabelled, unlabelled[:10]


def test_catalog_show_lists_fields_by_source_and_flags_thin_ones() -> None:
    out = CliRunner().invoke(app, ["catalog", "show", "kma_fcst_version"]).output
    assert "fields by source:" in out and "THIN:" in out and "the real API answers more" in out
    out = CliRunner().invoke(app, ["catalog", "show", "dart_fnltt_singl_acnt_all"]).output
    assert "THIN" not in out and "not served from world edition 5: corp_cls, corp_name" in out


def test_editions_before_5_serve_what_kopa_v0005_holds(catalog: Catalog, shipped_store: Store) -> None:
    """Every 7th generated collection of the shipped version, and every one of an endpoint
    whose fields changed: its records' fields are the ones edition 4 serves, in order, and
    all of them are declared."""
    version = shipped_store.open("kopa", "v0005")
    world4 = World(0, edition=4)
    changed = {e.id for e in catalog.endpoints.values() if e.opt("early_fields") is not None}
    assert {"dart_fnltt_singl_acnt_all", "kma_ultra_srt_ncst", "law_eflaw_search"} <= changed
    cols = sorted((c for c in version.collections() if c.endpoint in catalog.endpoints
                   and catalog.endpoint(c.endpoint).fidelity != "curated"), key=lambda c: c.key)
    sample = [c for i, c in enumerate(cols) if i % 7 == 0 or c.endpoint in changed]
    assert len(sample) > 400
    for c in sample:
        ep = catalog.endpoint(c.endpoint)
        rows = version.index.records(c.id, 0, min(c.count, 3))
        served = [f.name for f in served_fields(world4, ep)]
        for row in rows:
            assert list(row) == served, c.key
            assert set(row) <= {f.name for f in ep.fields}, c.key


def test_kopa_v0006_serves_edition_5s_fields(catalog: Catalog, shipped_store: Store) -> None:
    """Every 7th generated collection of ``kopa@v0006``, and every one of an endpoint whose
    fields changed: its records carry exactly the fields edition 5 serves, in order (the
    fuller published fields; v0005 served at most the early ones)."""
    version = shipped_store.open("kopa", "v0006")
    world5 = World(0, edition=5)
    changed = {e.id for e in catalog.endpoints.values() if e.opt("early_fields") is not None}
    cols = sorted((c for c in version.collections() if catalog.endpoint(c.endpoint).tier == "generated"),
                  key=lambda c: c.key)
    sample = [c for i, c in enumerate(cols) if i % 7 == 0 or c.endpoint in changed]
    assert len(sample) > 400 and {"dart_fnltt_singl_acnt_all", "kma_ultra_srt_ncst"} <= {c.endpoint for c in sample}
    gained = 0
    for c in sample:
        ep = catalog.endpoint(c.endpoint)
        served = [f.name for f in served_fields(world5, ep)]
        if ep.dialect == "lawgokr":  # an item's ``id`` is its position: numbered again on render
            served = [n for n in served if n != "id"]
        for row in version.index.records(c.id, 0, min(c.count, 3)):
            assert list(row) == served, c.key
        gained += c.endpoint in changed
    assert gained > 100


def test_edition_5_fills_every_served_field_in_its_shape(catalog: Catalog) -> None:
    world = World(0, edition=5)
    ep = catalog.endpoint("dart_fnltt_singl_acnt_all")
    rows = synth_records(world, ep, {"corp_code": "00126380", "bsns_year": "2024", "reprt_code": "11011"})
    assert list(rows[0]) == [f.name for f in served_fields(world, ep)] and "corp_name" not in rows[0]
    for r in rows:
        assert len(r["rcept_no"]) == 14 and r["rcept_no"].isdigit()
        assert r["thstrm_amount"].isdigit() and r["currency"] == "KRW"
        assert r["sj_div"] in ("BS", "IS", "CIS", "CF", "SCE") and not r["account_nm"].isdigit()
    idx = synth_records(world, catalog.endpoint("dart_fnltt_singl_indx"), {"corp_code": "00126380"})
    assert all(len(r["stlm_dt"]) == 10 and r["stlm_dt"][4] == "-" for r in idx)  # 결산기준일 YYYY-MM-DD
    now = synth_records(world, catalog.endpoint("kma_ultra_srt_ncst"), {"nx": "61", "ny": "126"})
    assert all(isinstance(r["nx"], int) and r["category"].isupper() for r in now)
    assert all(r["nx"] == 61 for r in now)  # the filter asked for is echoed, in the field's type


def test_measured_fields_are_served_from_world_edition_6_only(catalog: Catalog) -> None:
    """kloud80/datagokr-mcp's measured fields come with option ``late_fields`` ``{name: 6}``:
    edition 5 (what ``kopa@v0006`` holds) serves the fields it served before, edition 6 those
    and the measured ones after them; an assumed field a measured answer lacks
    (``dropped_fields``) is served before edition 6 only."""
    from types import SimpleNamespace

    ep = catalog.endpoint("fsc_cred_card_comp_gene_info")
    late = ep.opt("late_fields") or {}
    added = [f.name for f in ep.fields if late.get(f.name) == 6]
    assert {"fncoCd", "fncoNm", "xcsmCnt", "bzopStrDcdNm"} <= set(added)
    five = [f.name for f in served_fields(World(0, edition=5), ep)]
    six = [f.name for f in served_fields(SimpleNamespace(edition=6), ep)]  # type: ignore[arg-type]
    assert not set(added) & set(five) and six == five + added
    assert list(synth_records(World(0, edition=5), ep, {})[0]) == five
    assert "THIN" not in CliRunner().invoke(app, ["catalog", "show", ep.id]).output
    gone = ep.model_copy(update={"options": {**ep.options, "dropped_fields": {five[0]: 6}}})
    assert [f.name for f in served_fields(World(0, edition=5), gone)] == five
    assert [f.name for f in served_fields(SimpleNamespace(edition=6), gone)] == six[1:]  # type: ignore[arg-type]


def test_published_fields_are_served_from_world_edition_7_only(catalog: Catalog) -> None:
    """``facts/fields_edition7.json``'s fields (the portal's swagger via umyunsang/UMMAYA, the
    law.go.kr guide pages via StatPan/lawpy, the elements a client parses) come with option ``late_fields`` ``{name: 7}``: edition 6
    serves what it served before, edition 7 those (less an assumed filter echo the published
    schema lacks, ``dropped_fields`` ``{name: 7}``) and the published ones after them."""
    from types import SimpleNamespace

    ep = catalog.endpoint("molit_hsmp_cd_search_v2")
    late = ep.opt("late_fields") or {}
    added = [f.name for f in ep.fields if late.get(f.name) == 7]
    assert {"bidNum", "aptCode", "bidTitle", "bidDeadline"} <= set(added)
    assert all(f.source.startswith("github:umyunsang/UMMAYA@") for f in ep.fields if f.name in added)
    six = [f.name for f in served_fields(SimpleNamespace(edition=6), ep)]  # type: ignore[arg-type]
    seven = [f.name for f in served_fields(SimpleNamespace(edition=7), ep)]  # type: ignore[arg-type]
    assert six == ["kaptCode"] and ep.opt("dropped_fields") == {"kaptCode": 7}
    assert seven == added and "thin" not in ep.provenance and "thin_before_edition_7" in ep.provenance
    # law.go.kr: the generic fields assumed before (일련번호, 명칭, 일자) give way to the published elements
    law = catalog.endpoint("law_kcs_cgm_expc_search")
    names = [f.name for f in served_fields(SimpleNamespace(edition=7), law)]  # type: ignore[arg-type]
    assert names[:3] == ["법령해석일련번호", "안건명", "질의기관코드"] and "해석일자" in names
    assert [f.name for f in served_fields(SimpleNamespace(edition=6), law)] == ["일련번호", "명칭", "일자"]  # type: ignore[arg-type]
    assert law.opt("dropped_fields") == {"일련번호": 7, "명칭": 7, "일자": 7}
    assert "StatPan/lawpy" in next(f.source for f in law.fields if f.name == "안건명")
    ai = catalog.endpoint("law_ai_search_search")  # the guide's table mixes every search kind: a client's kind-0 items
    assert "korean-law-mcp" in next(f.source for f in ai.fields if f.name == "조문내용")
    mofa = catalog.endpoint("law_mofa_cgm_expc_search")
    assert "StatPan/lawpy" in next(f.source for f in mofa.fields if f.name == "안건번호")


def test_every_edition_7_field_names_the_file_it_was_published_in(catalog: Catalog) -> None:
    """Each field served from edition 7 on carries its operation's source from the facts file:
    a repository at a commit and a file, a package at a version and a file, or a search-index file id."""
    from simulator.catalog.generate.extract import read_facts

    sources = {op["source"] for op in read_facts("fields_edition7")["operations"]}
    seen = 0
    for ep in catalog.endpoints.values():
        late = ep.opt("late_fields") or {}
        for f in ep.fields:
            if late.get(f.name) == 7:
                seen += 1
                assert f.source in sources, (ep.id, f.name)
                assert re.search(r"@[0-9a-f]{12}.*\.(json|ts|yaml)\b|^(npm|pypi):[\w.-]+@[\d.]+ \S+\.\w+|search-index file \d+",
                                 f.source), f.source
    assert seen > 500


@pytest.mark.parametrize(("facts", "edition", "least"), [
    ("datagokr_mcp_fields", 6, 21), ("fields_edition7", 7, 60), ("fields_edition8", 8, 15), ("fields_edition9", 9, 41)])
def test_without_an_editions_facts_the_editions_before_it_serve_the_same(facts: str, edition: int, least: int) -> None:
    """Each facts file only appends fields served from its edition on (``late_fields``
    ``{name: edition}``) and drops assumed ones from it (``dropped_fields`` ``{name: edition}``):
    ``facts/datagokr_mcp_fields.json`` (kloud80/datagokr-mcp's measured schemas) from edition 6,
    ``fields_edition7.json`` … ``fields_edition9.json`` from theirs. The generated platforms built
    without it and its later files, and with it, differ only so: every edition before it serves
    the same fields in the same order, and every shipped version replays and re-records as it did."""
    from types import SimpleNamespace

    from simulator.catalog.generate.build import PUBLISHED8_EDITION, PUBLISHED9_EDITION

    def as_ep(raw: dict[str, Any]) -> Any:  # what served_fields reads of an endpoint
        opts = raw.get("options") or {}
        return SimpleNamespace(fields=[SimpleNamespace(name=f["name"]) for f in raw["fields"]], opt=opts.get)

    assert (PUBLISHED8_EDITION, PUBLISHED9_EDITION) == (8, 9)
    later = tuple(f"fields_edition{e}" for e in (7, 8, 9) if e > edition)
    before, after = _built_without(facts, also=later)
    changed = 0
    for eid, old in before.items():
        new = after[eid]
        if new == old:
            continue
        if {k: v for k, v in new.items() if k != "provenance"} == {k: v for k, v in old.items() if k != "provenance"}:
            # a page showing the whole table of an endpoint that gains nothing (``complete``):
            # only why it is thin changes
            assert new["provenance"]["thin"].endswith("the real API may answer only these"), eid
            continue
        changed += 1
        n = len(old["fields"])
        assert new["fields"][:n] == old["fields"], eid
        old_opts = old.get("options") or {}
        late, old_late = new["options"]["late_fields"], old_opts.get("late_fields", {})
        assert {k: v for k, v in late.items() if k in old_late} == old_late, eid
        assert all(late[f["name"]] == edition for f in new["fields"][n:]) and len(new["fields"]) > n, eid
        dropped, old_dropped = new["options"].get("dropped_fields", {}), old_opts.get("dropped_fields", {})
        assert all(dropped[k] == v for k, v in old_dropped.items()), eid
        assert all(v == edition for k, v in dropped.items() if k not in old_dropped), eid
        assert {k: v for k, v in new["options"].items() if k not in ("late_fields", "dropped_fields")} == \
               {k: v for k, v in old_opts.items() if k not in ("late_fields", "dropped_fields")}, eid
        assert {k: v for k, v in new.items() if k not in ("fields", "options", "provenance")} == \
               {k: v for k, v in old.items() if k not in ("fields", "options", "provenance")}, eid
        for earlier in range(2, edition):  # the same fields, in the same order
            world = SimpleNamespace(edition=earlier)
            assert [f.name for f in served_fields(world, as_ep(old))] == \
                   [f.name for f in served_fields(world, as_ep(new))], (eid, earlier)  # type: ignore[arg-type]
    assert changed >= least


def test_edition_8_serves_the_published_lists_with_values_of_their_type(catalog: Catalog) -> None:
    """NEC's 선거인수 by 선거구 gains the counts the published inventory lists, from edition 8 only;
    every field an edition-8 record holds is filled with a value of the field's type."""
    from simulator.catalog.generate.extract import read_facts

    ep = catalog.endpoint("nec_elpc_elcnt_info_inqire")
    late = ep.opt("late_fields") or {}
    eight = {f.name for f in ep.fields if late.get(f.name) == 8}
    assert {"sggName", "ppltCnt", "cfmtnElcnt", "cfmtnFmlElcnt"} <= eight
    sources = {op["source"] for op in read_facts("fields_edition8")["operations"]}
    assert all(f.source in sources for f in ep.fields if f.name in eight)
    w7, w8 = World(0, edition=7), World(0, edition=8)
    assert not eight & {f.name for f in served_fields(w7, ep)}
    assert eight <= {f.name for f in served_fields(w8, ep)}
    for eid in ("nec_elpc_elcnt_info_inqire", "fsc_bond_security_benefit_rate", "kma_year_sumry",
                "airkorea_msrstn_accto_rdyrg", "fsc_cred_unio_gene_info", "fsc_cred_card_comp_majo_busi_acti",
                "molit_gongsi_admi", "kma_day_statistics", "molit_buld_extrl_mntnc_hist_info_search_v2"):
        e = catalog.endpoint(eid)
        records = synth_records(w8, e, {})
        assert records, eid
        kinds = {f.name: f.type for f in served_fields(w8, e)}
        for rec in records:
            assert set(rec) == set(kinds), eid
            for name, value in rec.items():
                want = {"integer": int, "number": (int, float)}.get(kinds[name], str)
                assert isinstance(value, want) and value != "", (eid, name, value)


def test_edition_9_answers_carry_the_published_fields_and_edition_8_the_same_bytes(catalog: Catalog) -> None:
    """MOIS 연도별 자연재해 피해 declared only an assumed ``seq`` up to edition 8: its sandbox answer
    in edition 8 is the byte-identical one (sha256 taken before edition 9 existed), in edition 9
    each record carries the twelve elements a published reader names (``facts/fields_edition9.json``),
    the year as a year and the counts as integers."""
    import hashlib

    from simulator import build_request
    from simulator.catalog import load_catalog as load
    from simulator.catalog.generate.extract import read_facts
    from simulator.dialects import get_dialect
    from simulator.sandbox import create_app

    full = load(tier="full")
    ep = full.endpoints["mois_natural_disaster_damage_by_year"]
    params = {"type": "json", "numOfRows": "2"}
    bodies = {}
    for edition in (8, 9):
        app = create_app(seed=0, catalog=full, edition=edition)
        resp = app.handle(build_request(ep, params, app.keys.get(ep.id, app.keys.get(ep.platform))))
        assert resp.status == 200
        bodies[edition] = resp.body
    assert hashlib.sha256(bodies[8]).hexdigest()[:16] == "0c08e49b623a6046"
    # Edition 9 also answers the 행정안전통계연보 family's head/row JSON, asked with type=json
    # (tests/simulator/dialects/test_mois_yearbook_family.py); edition 8 ignored type: XML.
    assert bodies[9].startswith(b'{"NaturalDisasterDamageByYear":[{"head":')
    parsed = get_dialect(ep.dialect).parse(ep, bodies[9], "json")
    assert parsed.outcome == "ok" and len(parsed.records) == 2
    nine = {f.name for f in ep.fields if (ep.opt("late_fields") or {}).get(f.name) == 9}
    assert {"wrttimeid", "tot", "typhoon", "heavy_rain", "earthquak", "heatwave"} <= nine and len(nine) == 12
    sources = {op["source"] for op in read_facts("fields_edition9")["operations"]}
    assert all(f.source in sources and "search-index file" in f.source for f in ep.fields if f.name in nine)
    for rec in parsed.records:
        assert nine <= set(rec) and "seq" not in rec
        assert re.fullmatch(r"20\d\d", str(rec["wrttimeid"]))
        assert all(re.fullmatch(r"\d+", str(rec[n])) for n in nine - {"wrttimeid"})


def _built_without(facts: str, also: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """The generated endpoints (by id) built without the facts file ``facts``, and with it
    (both without the files ``also``)."""
    from unittest import mock

    from simulator.catalog.generate import build

    read = build.read_facts
    with mock.patch.object(build, "read_facts", lambda n: {"operations": []} if n in (facts, *also) else read(n)):
        before = {e["id"]: e for p in build.build_platforms()[0] for e in p["endpoints"]}
    with mock.patch.object(build, "read_facts", lambda n: {"operations": []} if n in also else read(n)):
        after = {e["id"]: e for p in build.build_platforms()[0] for e in p["endpoints"]}
    assert before.keys() == after.keys()
    return before, after
