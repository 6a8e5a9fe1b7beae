"""Contamination by content (edge.synth.contamination): KOPA-Bench's gold calls and gold record
sets are held out of synthesized conversations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.kopa import BENCH_VERSION
from bench.kopa.author import INVENTED_PARTIES, LAWS
from bench.kopa.tasks import load_tasks
from edge import Observations, VerifyConfig, build_graph
from edge.synth import ProgramRunner, SynthConfig, synthesize
from edge.synth.contamination import (
    GOLD_CALL,
    GOLD_RECORDS,
    Footprints,
    GoldHoldout,
    answer_calls,
    bench_versions,
    call_key,
    content_audit,
    footprint,
    footprint_hits,
    gold_holdout,
    set_key,
    tasks_version,
)
from edge.synth.shards import ShardSpec, synth_shard
from simulator import Resolver, Store, load_catalog
from simulator.tools import Program

CFG = VerifyConfig(iterations=10, paths_per_iteration=50, min_trials=2)


def _program(steps: list[dict[str, Any]], answer: Any) -> Program:
    return Program.model_validate({"steps": steps, "answer": answer})


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> Iterator[tuple[Any, Any, GoldHoldout]]:
    version = shipped_store.open("kopa", "v0005")
    catalog = load_catalog()
    yield version, catalog, gold_holdout(version, catalog)


def test_call_keys_keep_only_what_selects_records() -> None:
    cat = load_catalog()
    # paging, the format param, an undeclared param and whitespace do not make another call
    a = call_key(cat, "molit_apt_trades", {"LAWD_CD": "11110", "DEAL_YMD": "202503", "pageNo": "3",
                                           "numOfRows": "50", "foo": "bar"})
    b = call_key(cat, "molit_apt_trades", {"DEAL_YMD": " 202503 ", "LAWD_CD": "11110"})
    assert a == b == 'molit_apt_trades {"DEAL_YMD":"202503","LAWD_CD":"11110"}'
    assert call_key(cat, "molit_apt_trades", {"LAWD_CD": "11140", "DEAL_YMD": "202503"}) != a
    assert call_key(cat, "tago_city_codes", {"pageNo": "1", "numOfRows": "1000"}) == "tago_city_codes {}"
    assert set_key(["b", "a", "a"]) == set_key(["a", "b"]) != set_key(["a"])


def test_answer_calls_follow_data_not_lookups() -> None:
    # the region lookup passes a code into the trades call: the trades are the data, not the lookup
    p = _program([{"id": "s1", "call": "mois_stan_regin_cd", "args": {"locatadd_nm": "서울특별시 종로구"}},
                  {"id": "s2", "call": "molit_apt_trades", "pages": "all",
                   "args": {"LAWD_CD": {"$ref": "s1", "field": "region_cd", "pick": "first",
                                        "transform": "slice:0:5"}, "DEAL_YMD": "202503"}},
                  {"id": "v", "op": "count", "from": "s2"}], {"$ref": "v"})
    assert answer_calls(p) == {"s2"}


def test_the_bench_gold_calls_and_record_sets_are_held(world) -> None:  # type: ignore[no-untyped-def]
    _v, _c, hold = world
    # every task runs but those naming what only world edition 8 (kopa@v0009, the bench's) holds:
    # the finance tasks' invented companies (corp codes 09xxxxxx), its renamed schools, invented
    # parties and statute names (v0005 names 「가정폭력방지법」; 「감염병의 예방 및 관리에 관한
    # 법률」 it names the same), which v0005 does not hold (docs/bench.md, Version); nothing of
    # theirs is held
    new = [*INVENTED_PARTIES, "서울봉익초등학교", "유방초등학교", "양감초등학교", "진서초등학교",
           LAWS[0], LAWS[2], LAWS[5]]
    edition_8 = {t.id for t in load_tasks() if t.domain == "finance" or any(n in t.question for n in new)}
    assert hold.failed and set(hold.failed) <= edition_8
    # the final call of molit-trade-max-0 (the 종로구 trades of March 2025) is a gold call
    assert "molit-trade-max-0" in hold.calls['molit_apt_trades {"DEAL_YMD":"202503","LAWD_CD":"11110"}']
    # the argument-free code tables every TAGO / NEC chain starts from stay a lookup
    assert "tago_city_codes {}" in hold.lookups and "tago_city_codes {}" not in hold.calls
    assert "nec_election_codes {}" in hold.lookups
    # a table some task counts is a gold call however others use it (the Assembly's members:
    # nec-asm-cmt-winners-*; so is OpenDART's code table where the finance tasks run, kopa@v0008+,
    # fsc-dart-mcap-* reading a stock code from it: on v0005 it stays a lookup)
    assert "assembly_members {}" in hold.calls
    assert "opendart_corp_codes {}" in hold.lookups
    sets = [s for s in hold.sets.values() if s["call"].startswith("nec_turnout ")]
    assert sets and set(sets[0]["tasks"]) >= {"nec-turnout-0", "nec-turnout-1"}


def test_a_call_or_a_whole_record_set_is_caught_by_content(world) -> None:  # type: ignore[no-untyped-def]
    version, catalog, hold = world
    runner = ProgramRunner(Resolver(version, catalog, miss="strict"), page_size=10)

    def hits(args: dict[str, str]) -> list[str]:
        p = _program([{"id": "s1", "call": "nec_winners", "args": args, "pages": "all"},
                      {"id": "v", "op": "count", "from": "s1"}], {"$ref": "v"})
        return footprint_hits(footprint(runner.run(p), p, catalog), hold)

    # the bench's own call (cond-nec-asm-0 and others): a gold call, and it shows the gold record
    assert hits({"sgId": "20240410", "sgTypecode": "2", "sdName": "서울특별시", "sggName": "종로구갑"}) == [
        GOLD_CALL, GOLD_RECORDS]
    # another call (no sdName) returning the same record: not the call, still the gold record set
    assert hits({"sgId": "20240410", "sgTypecode": "2", "sggName": "종로구갑"}) == [GOLD_RECORDS]
    # a district no task asks about: clean
    assert hits({"sgId": "20240410", "sgTypecode": "2", "sdName": "서울특별시", "sggName": "중구성동구을"}) == []
    # the baseline's contaminated example (issue #28): it read the whole turnout table of four tasks
    p = _program([{"id": "s1", "call": "nec_turnout", "args": {"sgId": "20250603", "sgTypecode": "1"},
                   "pages": "all"},
                  {"id": "v", "op": "count", "from": "s1"}], {"$ref": "v"})
    fp = Footprints(catalog).of(runner.run(p), p)
    assert footprint_hits(fp, hold) == [GOLD_CALL, GOLD_RECORDS]


@pytest.fixture(scope="module")
def graph(world):  # type: ignore[no-untyped-def]
    version, _c, _h = world
    catalog = load_catalog(tier="curated")
    obs = Observations.from_version(version, catalog)
    return catalog, obs, build_graph(version, catalog, seed=7, config=CFG, obs=obs).graph


@pytest.mark.slow  # two shard runs over a freshly verified graph: ~1-2 min on 2 busy cores
def test_a_draft_making_a_gold_call_is_refused_and_another_drawn(world, graph) -> None:  # type: ignore[no-untyped-def]
    """The shard of a run with nothing held draws draft D first; held out, D's final call is a
    gold call: the same shard refuses D, counts it, and still makes as many drafts."""
    version, _c, _h = world
    catalog, obs, g = graph
    spec, cfg = ShardSpec(0, 0, 4), SynthConfig(shards=1)
    free = synth_shard(version, catalog, g, obs, spec, cfg, gold=GoldHoldout(version.content_hash))
    assert len(free.drafts) == 4
    first = Program.model_validate(free.drafts[0]["gold_program"])
    runner = ProgramRunner(Resolver(version, catalog, miss="strict"))
    last = first.calls()[-1].id
    planted = sorted(footprint(runner.run(first), first, catalog).calls[last])[0]
    held = synth_shard(version, catalog, g, obs, spec, cfg,
                       gold=GoldHoldout(version.content_hash, calls={planted: ["planted-task"]}))
    assert held.counts["early"].get(GOLD_CALL, 0) >= 1
    assert len(held.drafts) == 4 and free.drafts[0]["id"] not in {e["id"] for e in held.drafts}
    for e in held.drafts:
        p = Program.model_validate(e["gold_program"])
        assert planted not in footprint(runner.run(p), p, catalog).all_calls(), e["id"]


@pytest.mark.slow  # a whole synthesis run: minutes on 2 busy cores
def test_a_default_run_has_no_content_contamination(world, graph) -> None:  # type: ignore[no-untyped-def]
    version, bench_catalog, hold = world
    catalog, obs, g = graph
    res = synthesize(version, catalog, g, n=10, seed=0, obs=obs, gold=hold)
    assert len(res.examples) == 10
    assert {GOLD_CALL, GOLD_RECORDS} <= set(res.report["filters"])
    assert res.report["bench_gold"]["held_out"] and res.report["bench_gold"]["gold_calls"] == len(hold.calls)
    audit = content_audit(res.examples, version, bench_catalog, hold)
    assert audit["examples_making_gold_call"] == 0 and audit["examples_showing_gold_records"] == 0
    assert audit["examples_not_run"] == 0


def test_a_later_version_holds_out_the_bench_versions_gold_calls(shipped_store: Store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A later world edition may rename what the bench's tasks name and keep codes and figures
    (edition 8 renamed edition 7's invented companies): the tasks fail there, yet the same call
    (a ``corp_code``, a year) answers their gold, so the hold-out of a run on a version later than
    the bench's takes the gold calls the bench makes on its own version too. The bench is on
    kopa@v0009, the newest shipped version: a run there holds out its own calls only, and the
    later-version case is shown by a bench left on v0008 (``tasks_version``) and run on v0009,
    with the finance tasks, named as on v0009, run against v0008 (where they fail)."""
    from edge.synth import contamination

    v8, v9 = shipped_store.open("kopa", "v0008"), shipped_store.open("kopa", "v0009")
    assert tasks_version() == BENCH_VERSION == "v0009"
    assert bench_versions(v9, shipped_store) == []  # the bench's own version
    assert bench_versions(shipped_store.open("kopa", "v0005"), shipped_store) == []  # older: its own world
    monkeypatch.setattr(contamination, "tasks_version", lambda: "v0008")
    assert [v.id for v in bench_versions(v9, shipped_store)] == ["kopa@v0008"]
    catalog = load_catalog()
    fin = [(t.id, t.program) for t in load_tasks() if t.id.startswith("dart-fan-revenue-")]
    assert len(fin) == 4
    alone = gold_holdout(v8, catalog, tasks=fin)
    assert alone.failed == [tid for tid, _ in fin] and not alone.calls
    both = gold_holdout(v8, catalog, tasks=fin, also=[v9])
    assert both.failed == []
    assert any(c.startswith("opendart_single_account ") and '"corp_code":"09' in c for c in both.calls)
