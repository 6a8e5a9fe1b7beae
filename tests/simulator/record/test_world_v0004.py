"""``kopa@v0004``: v0003 and what third-party clients ask for (#17), recorded from world edition 4.

v0004 is additive: it carries every v0003 collection unchanged and adds the four NEIS
past-year timetable tools the generated tier gained plus the collections the client calls of
``docs/clients.md`` need (``simulator/record/plans/v0004_extra.yaml``). Edition 4 is edition 3
with the generated NEIS services' rows carrying the hub's common fields; edition 3 still
answers as v0003 recorded.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator import Resolver, Store, load_catalog
from simulator.catalog.requests import build_request
from simulator.dialects import get_dialect
from tests.simulator.record.test_world_v0003 import record_plan, record_seeds

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "cassettes" / "kopa"
PLAN = ROOT / "simulator" / "record" / "plans" / "v0004_extra.yaml"
KEY = "kopa0test0key0000000000000000000000000000"[:40]
#: The generated NEIS tools v0003 holds (unfiltered, one collection each).
GEN_NEIS = ("neis_aca_ins_ti_info", "neis_mis_timetable", "neis_schul_aflcoinfo", "neis_sps_timetable",
            "neis_ti_clrminfo")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(cache_dir=tmp_path_factory.mktemp("world-v4-cache"))


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


def test_v0004_holds_every_tool_and_its_drift_is_written(store: Store) -> None:
    m = store.open("kopa", "v0004").manifest  # the newest is v0005 (tests/simulator/record/test_world_v0005.py), which only adds
    assert (m.version, m.parent, m.source) == ("v0004", "v0003", "sandbox")
    assert m.content_hash.startswith("727820a9")
    assert store.open("kopa", "v0003").content_hash.startswith("1a471589")
    assert len(m.endpoints) == len(load_catalog().endpoints) == 2696
    assert all(e.records > 0 for e in m.endpoints.values())
    drift = (ROOT / "docs" / "drift-v0004.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0003 → kopa@v0004" in drift and "Collections changed" not in drift


def test_v0004_adds_only_its_plan(store: Store) -> None:
    v3, v4 = store.open("kopa", "v0003"), store.open("kopa", "v0004")
    keys3 = {c.key: (c.count, c.total) for c in v3.collections()}
    keys4 = {c.key: (c.count, c.total) for c in v4.collections()}
    assert {k: keys4[k] for k in keys3} == keys3
    seeds = yaml.safe_load(PLAN.read_text(encoding="utf-8"))["seeds"]
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


@pytest.mark.integration
def test_edition_3_answers_the_generated_neis_tools_as_v0003_holds_them(tmp_path: Path, store: Store) -> None:
    seeds = [{"endpoint": e, "params": {}} for e in GEN_NEIS]
    v3 = store.open("kopa", "v0003")
    for edition in (3, 4):
        mine = record_seeds(tmp_path / f"e{edition}", edition, seeds)
        for e in GEN_NEIS:
            got = mine.index.records(mine.index.collection(e).id, 0, 1000)
            want = v3.index.records(v3.index.collection(e).id, 0, 1000)
            if edition == 3:
                assert got == want, e
            else:  # edition 4: the hub's common fields lead (and LOAD_DTM ends) every row
                assert len(got) == len(want) and set(got[0]) > set(want[0]), e
                assert list(got[0])[:2] == ["ATPT_OFCDC_SC_CODE", "ATPT_OFCDC_SC_NM"] and list(got[0])[-1] == "LOAD_DTM"


def test_filtered_generated_neis_rows_belong_to_the_office_asked_for(store: Store) -> None:
    v4 = store.open("kopa", "v0004")
    c = v4.index.collection("neis_aca_ins_ti_info?ATPT_OFCDC_SC_CODE=B10")
    rows = v4.index.records(c.id, 0, c.count)
    assert rows and {r["ATPT_OFCDC_SC_CODE"] for r in rows} == {"B10"}
    assert {r["ATPT_OFCDC_SC_NM"] for r in rows} == {"서울특별시교육청"}
    c = v4.index.collection("neis_his_timetablebgs?ATPT_OFCDC_SC_CODE=B10&AY=2022&SD_SCHUL_CODE=7010798")
    rows = v4.index.records(c.id, 0, c.count)
    assert rows and {(r["SD_SCHUL_CODE"], r["AY"]) for r in rows} == {("7010798", "2022")}


@pytest.mark.slow
@pytest.mark.integration
def test_recording_v0004_again_gives_its_hash(tmp_path: Path) -> None:
    """The v0004 plan from a fresh edition-4 sandbox onto v0001–v0003 publishes the shipped v0004."""
    assert rerecorded_hash(tmp_path, PLAN, "v0004", "2026-12-03T00:00:00Z") == shipped_hash("v0004")


def shipped_hash(version: str) -> str:
    return json.loads((SHIPPED / version / "manifest.json").read_text(encoding="utf-8"))["content_hash"]


def rerecorded_hash(tmp_path: Path, plan_path: Path, version: str, recorded_at: str) -> str:
    """``plan_path`` recorded from a fresh edition-4 sandbox onto copies of the shipped versions
    before ``version``: the content hash of the ``version`` it publishes."""
    root = tmp_path / "cassettes"
    for v in sorted(p.name for p in SHIPPED.glob("v*") if p.name < version):
        shutil.copytree(SHIPPED / v, root / "kopa" / v)
    shutil.copytree(SHIPPED / "objects", root / "kopa" / "objects")
    plan = yaml.safe_load(plan_path.read_text(encoding="utf-8"))
    plan["rate_per_sec"] = {"default": 0}
    record_plan(root, plan, 4, recorded_at=recorded_at)
    return json.loads((root / "kopa" / version / "manifest.json").read_text(encoding="utf-8"))["content_hash"]
