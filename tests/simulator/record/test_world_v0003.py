"""World edition 3 and ``kopa@v0003`` (#19 "fix the world where the world is the problem").

Edition 2 is the world ``kopa@v0001``/``kopa@v0002`` were recorded from and must stay so (their
bytes are shipped); edition 3 is ``kopa@v0003``'s. Recording a plan over the collections the
edition changed reproduces each shipped version's records from its own edition, and the
edition-3 properties the bench relies on hold in the world and in v0003.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from simulator import Store, load_catalog
from simulator.record import LiveClient, Plan, Recorder
from simulator.sandbox import World, create_app, default_keys
from simulator.store import Version
from tests.support.loopback import serve_in_thread
from tests.support.record import RECORDED_AT

ROOT = Path(__file__).resolve().parents[3]

#: One collection of each kind edition 3 changes (keys as both shipped versions hold them).
CHANGED_SEEDS: list[dict[str, Any]] = [
    {"endpoint": "opendart_single_account", "params": {"corp_code": "00126380", "bsns_year": "2024", "reprt_code": "11011"}},
    {"endpoint": "neis_school_schedule", "params": {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010023"}},
    {"endpoint": "neis_meal", "params": {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010005"}},
    {"endpoint": "lawgokr_prec_detail", "params": {"ID": "603753"}},
    {"endpoint": "tago_stations_by_name", "params": {"cityCode": "12"}},
    {"endpoint": "tago_routes_by_number", "params": {"cityCode": "34010"}},
    {"endpoint": "nec_election_codes", "params": {}},
    {"endpoint": "nec_winners", "params": {"sgId": "20240410", "sgTypecode": "2"}},
]
#: A past election's preliminary candidates: INFO-03 (no records) in both editions, recorded by neither.
PAST = {"endpoint": "nec_preliminary_candidates", "params": {"sgId": "20250603", "sgTypecode": "1"}}
#: Only edition 3 (v0003) has the upcoming election's.
UPCOMING = {"endpoint": "nec_preliminary_candidates", "params": {"sgId": "20260603", "sgTypecode": "3"}}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(cache_dir=tmp_path_factory.mktemp("world-v3-cache"))


def _records(v: Version) -> dict[str, list[str]]:
    return {c.key: [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in v.index.records(c.id, 0, c.count)]
            for c in v.collections()}


def record_plan(root: Path, plan: dict[str, Any], edition: int, recorded_at: str = RECORDED_AT) -> None:
    """Record ``plan`` from a seed-0 sandbox of world ``edition`` on loopback into ``root``."""
    catalog = load_catalog()
    with serve_in_thread(create_app(seed=0, catalog=catalog, edition=edition)) as base:
        with LiveClient(catalog, default_keys(catalog), upstream=base, rate_per_sec={"default": 0},
                        sleep=lambda _s: None) as client:
            Recorder(Plan.model_validate(plan), store=Store(root), catalog=catalog, client=client,
                     source="sandbox").run(recorded_at=recorded_at)


def record_seeds(root: Path, edition: int, seeds: list[dict[str, Any]]) -> Version:
    """Record ``seeds`` from world ``edition`` into ``root``; the version published."""
    record_plan(root, {"set": "kopa", "rate_per_sec": {"default": 0}, "fidelity_samples": 0, "seeds": seeds}, edition)
    return Store(root, cache_dir=root / "cache").open("kopa")


@pytest.mark.integration
@pytest.mark.parametrize("edition,shipped", [(2, "v0002"), (3, "v0003")])
def test_each_shipped_version_is_its_edition(tmp_path: Path, store: Store, edition: int, shipped: str) -> None:
    mine = _records(record_seeds(tmp_path / "c", edition, [*CHANGED_SEEDS, PAST, UPCOMING]))
    theirs = _records(store.open("kopa", shipped))
    past, upcoming = "nec_preliminary_candidates?sgId=20250603&sgTypecode=1", "nec_preliminary_candidates?sgId=20260603&sgTypecode=3"
    assert mine.pop(past) == [] and past not in theirs
    if edition == 2:
        assert mine.pop(upcoming) == [] and upcoming not in theirs
    else:
        assert len(mine[upcoming]) > 50
    assert len(mine) == len(CHANGED_SEEDS) + (edition == 3)
    for key, rows in mine.items():
        assert rows == theirs[key], f"{shipped}: {key} differs from world edition {edition}"


def test_edition_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown world edition 6: use one of 2, 3, 4, 5"):
        World(0, edition=6)


def test_the_upcoming_election_takes_preliminary_candidates() -> None:
    w3, w2 = World(0), World(0, edition=2)
    assert w3.elections()[: len(w2.elections())] == w2.elections()
    assert {e["sgId"] for e in w3.elections()} - {e["sgId"] for e in w2.elections()} == {"20260603"}
    rows = w3.preliminary_candidates("20260603", "4")
    assert len(rows) > 100 and len({r["huboid"] for r in rows}) == len(rows)  # more than one max page
    assert all("20251202" <= r["regdate"] <= "20251231" for r in rows)
    assert w3.candidates("20260603", "4") == [] and w3.turnout("20260603", "4") == []
    assert w2.preliminary_candidates("20260603", "4") == [] and w3.preliminary_candidates("20240410", "2") == []


def test_big_bus_cities_keep_edition_2_first() -> None:
    w3, w2 = World(0), World(0, edition=2)
    for city, n in ((21, 5480), (25, 3120), (34010, 1840), (12, 1210)):
        new, old = w3.bus_stations(city), w2.bus_stations(city)
        assert len(new) == n > 1000 and new[: len(old)] == old
        added = [s["nodenm"] for s in new[len(old):]]
        assert len(set(added)) == len(added) and not set(added) & {s["nodenm"] for s in old}
        routes = w3.bus_routes(city)
        assert routes[: len(w2.bus_routes(city))] == w2.bus_routes(city)
        for s in old[:25]:  # the v0002 stops keep exactly their routes
            assert w3.station_routes(city, s["nodeid"]) == w2.station_routes(city, s["nodeid"])


def _margins(w: World) -> list[float]:
    out = []
    for c in w.listed_companies()[:60]:
        acc = {r["account_nm"]: int(r["thstrm_amount"].replace(",", "")) for r in w.accounts(c["corp_code"], 2024, "11011")
               if r["fs_div"] == "CFS"}
        if acc:
            out.append(round(acc["영업이익"] / acc["매출액"] * 100, 2))
    return out


def test_operating_margins_vary() -> None:
    m3, m2 = _margins(World(0)), _margins(World(0, edition=2))
    assert set(m2) == {10.0}  # edition 2: one mix for every company
    assert len(set(m3)) >= 50 and min(m3) < 0 < 20 < max(m3)


def test_law_articles_and_citations_vary() -> None:
    w = World(0)
    laws = w.laws()[:60]
    arts = [w.law_articles(law["법령일련번호"]) for law in laws]
    assert all(a[0]["조문제목"] == "목적" for a in arts)
    second = Counter(a[1]["조문제목"] for a in arts)
    assert len(second) >= 4 and second["정의"] < len(arts) * 0.7
    assert len({tuple(x["조문제목"] for x in a) for a in arts}) == len(arts)
    cites = [w.precedent_citations(p) for p in w.precedents()[:200]]
    assert len({c[0] for c in cites}) >= 180 and sum(bool(c[1]) for c in cites) >= 50
    assert all(re.fullmatch(r"[^/]+ 제\d+조(, 제\d+조)*( / [^/]+ 제\d+조(, 제\d+조)*)*", c[0]) for c in cites)
    assert World(0, edition=2).precedent_citations(w.precedents()[0]) == ("민법 제750조", "")


def test_school_names_are_unique_and_closures_are_marked() -> None:
    w3, w2 = World(0), World(0, edition=2)
    names = [s["SCHUL_NM"] for s in w3.schools()]
    assert len(set(names)) == len(names) and len(set(s["SCHUL_NM"] for s in w2.schools())) < len(names)
    assert [s["SD_SCHUL_CODE"] for s in w3.schools()] == [s["SD_SCHUL_CODE"] for s in w2.schools()]
    code = "7010023"
    closed = w3.closed_days(code, "2025")
    kinds = Counter(r["SBTR_DD_SC_NM"] for r in w3.schedule(code, "2025"))
    assert closed and kinds["휴업일"] == len(closed) and kinds["공휴일"] == 6
    meal_days = {r["MLSV_YMD"] for ym in ("202505", "202506", "202510", "202512") for r in w3.meals(code, ym)}
    assert meal_days and not meal_days & set(closed)
    assert w2.closed_days(code, "2025") == [] and "휴업일" not in {r["SBTR_DD_SC_NM"] for r in w2.schedule(code, "2025")}


def test_v0003_has_data_for_every_tool_of_its_catalog(store: Store) -> None:
    v3 = store.open("kopa", "v0003")  # the newest is v0004 (tests/simulator/record/test_world_v0004.py), which only adds
    m = v3.manifest
    assert (m.version, m.parent) == ("v0003", "v0002")
    assert m.content_hash.startswith("1a471589")
    assert store.open("kopa", "v0002").content_hash.startswith("9ff46e17")
    assert store.open("kopa", "v0001").content_hash.startswith("60ad9f8f")
    assert all(e.records > 0 for e in m.endpoints.values()) and len(m.endpoints) == 2692
    drift = (ROOT / "docs" / "drift-v0003.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0002 → kopa@v0003" in drift and "nec_preliminary_candidates" in drift


@pytest.mark.slow
@pytest.mark.integration
def test_recording_v0003_again_gives_its_hash(tmp_path: Path) -> None:
    """The whole v0003 recording (seeds plan + default.yaml + v0002_extra + v0003_extra) from a
    fresh edition-3 sandbox onto v0001 and v0002 publishes the shipped v0003, byte for byte."""
    import shutil

    import yaml

    from simulator.catalog.generate.seeds import seed_plan

    shipped = ROOT / "cassettes" / "kopa"
    root = tmp_path / "cassettes"
    for v in ("v0001", "v0002"):
        shutil.copytree(shipped / v, root / "kopa" / v)
    shutil.copytree(shipped / "objects", root / "kopa" / "objects")  # content-addressed: extra ones are inert
    catalog = load_catalog()
    plan = seed_plan(catalog, set_name="kopa", placeholders=True)  # the plan v0003 was recorded with
    # the tools v0003 had (the catalog gained four with v0004)
    held = set(json.loads((shipped / "v0003" / "manifest.json").read_text(encoding="utf-8"))["endpoints"])
    plan["seeds"] = [s for s in plan["seeds"] if s["endpoint"] in held]
    for name in ("default.yaml", "v0002_extra.yaml", "v0003_extra.yaml"):
        more = yaml.safe_load((ROOT / "simulator" / "record" / "plans" / name).read_text(encoding="utf-8"))
        plan["seeds"] += more.get("seeds") or []
        plan.setdefault("crawls", []).extend(more.get("crawls") or [])
    plan["rate_per_sec"] = {"default": 0}
    record_plan(root, plan, 3, recorded_at="2026-12-02T00:00:00Z")
    mine = json.loads((root / "kopa" / "v0003" / "manifest.json").read_text(encoding="utf-8"))
    theirs = json.loads((shipped / "v0003" / "manifest.json").read_text(encoding="utf-8"))
    assert mine["content_hash"] == theirs["content_hash"]
    assert mine["files"] == theirs["files"] and mine["endpoints"] == theirs["endpoints"]  # ("info" names the plan file)
