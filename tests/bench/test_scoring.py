"""KOPA-Bench scoring rewards any valid strategy: scripted trajectories for each efficient
route (a name filter, one max-size call, ``totalCount``) pass; skipping what the answer needs,
inventing a code, or answering with no tool call fails."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.kopa import BENCH_VERSION
from bench.kopa.env import CallRecord, ToolEnv, World
from bench.kopa.scoring import Score, score_episode
from bench.kopa.tasks import Gold, Task, gold_run, load_tasks, parse_tasks
from bench.kopa.validate import CONSTANTS, named_entities
from simulator import Store
from simulator.tools.keys import auth_param, family_of, issue_key


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", BENCH_VERSION))


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_tasks()}


def _score(world: World, task: Task, calls: list[tuple[str, dict[str, Any]]], answer: str | None = None) -> Score:
    gold = gold_run(task, world)
    env = ToolEnv.for_task(world, task.program, f"{task.id}#0")
    for k in task.program.key_steps():  # a task that issues a key: the route asks for it first
        env.call(k.call)
    for tool, args in calls:
        ep = world.catalog.endpoints[tool]
        if family_of(ep) in env.issued:
            args = {**args, str(auth_param(ep)): issue_key(str(family_of(ep)), f"{task.id}#0")}
        assert env.call(tool, args).ok, (tool, args, env.trace[-1].error)
    return score_episode(task, gold, env.trace, f"ANSWER: {gold.answer if answer is None else answer}",
                         catalog=world.catalog)


def _gold_call(gold: Gold, sid: str) -> CallRecord:
    return gold.trace[gold.step_calls[sid][0]]


def _lookup(gold: Gold, sid: str = "s1") -> tuple[str, dict[str, Any]]:
    rec = _gold_call(gold, sid)
    return rec.tool, dict(rec.args)


def _first(tasks: dict[str, Task], template: str) -> Task:
    """The first task of ``template``: shipped, else authored (templates retired by bench.kopa.author)."""
    from bench.kopa import author

    hit = next((t for t in tasks.values() if t.template == template), None)
    return hit or next(t for t in parse_tasks([r for r in author.TASKS if r["template"] == template]))


def test_name_filter_instead_of_the_committee_code(world: World, tasks: dict[str, Task]) -> None:
    t = _first(tasks, "assembly_committee_bills")
    committee = named_entities(t)[0]
    sc = _score(world, t, [("assembly_member_bills", {"AGE": "22", "COMMITTEE": committee, "pIndex": 1,
                                                      "pSize": 1000})])
    assert sc.passed, sc.details


def test_name_filter_instead_of_the_listed_item_lookup(world: World, tasks: dict[str, Task]) -> None:
    t = _first(tasks, "fsc_close_by_short_code")
    gold = gold_run(t, world)
    name = named_entities(t)[0]
    day = _gold_call(gold, "s2").args["basDt"]
    sc = _score(world, t, [("fsc_stock_prices", {"basDt": day, "itmsNm": name, "pageNo": 1, "numOfRows": 10})])
    assert sc.passed, sc.details


def test_one_max_size_call_instead_of_small_pages(world: World, tasks: dict[str, Task]) -> None:
    raw = json.loads(tasks["molit-trade-max-0"].model_dump_json(by_alias=True, exclude_none=True))
    raw["id"] = "paged-molit"
    next(s for s in raw["program"]["steps"] if s["id"] == "s2")["page_size"] = 50
    t = parse_tasks([raw])[0]
    gold = gold_run(t, world)
    assert len(gold.step_calls["s2"]) > 1  # the gold pages 50 at a time
    args = {**_gold_call(gold, "s2").args, "pageNo": 1, "numOfRows": 99999}
    assert _score(world, t, [_lookup(gold), ("molit_apt_trades", args)]).passed
    # and pages of another size than the gold's cover the collection too
    pages = [("molit_apt_trades", {**args, "pageNo": i, "numOfRows": 200}) for i in (1, 2)]
    assert _score(world, t, [_lookup(gold), *pages]).passed


def test_total_count_from_a_one_row_page(world: World, tasks: dict[str, Task]) -> None:
    t = tasks["molit-trade-count-1"]
    gold = gold_run(t, world)
    args = {**_gold_call(gold, "s2").args, "pageNo": 1, "numOfRows": 1}
    sc = _score(world, t, [_lookup(gold), ("molit_apt_trades", args)])
    assert sc.passed, sc.details


def test_first_page_of_a_whole_collection_fails_environment(world: World, tasks: dict[str, Task]) -> None:
    t = tasks["molit-trade-max-0"]
    gold = gold_run(t, world)
    args = {**_gold_call(gold, "s2").args, "pageNo": 1, "numOfRows": 100}
    sc = _score(world, t, [_lookup(gold), ("molit_apt_trades", args)])
    assert sc.action and not sc.environment and sc.primary == "first_page"


def test_a_guessed_code_fails_action_even_when_it_is_right(world: World, tasks: dict[str, Task]) -> None:
    t = tasks["molit-trade-count-1"]
    gold = gold_run(t, world)
    sc = _score(world, t, [("molit_apt_trades", dict(_gold_call(gold, "s2").args))])
    assert sc.response and sc.environment and not sc.action
    assert sc.primary == "skipped_lookup" and sc.details["invented"][0]["arg"] == "LAWD_CD"


def test_a_lookup_skipped_for_a_missing_fan_out_item_fails(world: World, tasks: dict[str, Task]) -> None:
    t = tasks["molit-fan-total-0"]
    gold = gold_run(t, world)
    first_item = [_lookup(gold), ("molit_apt_trades", dict(_gold_call(gold, "s3").args))]
    sc = _score(world, t, first_item)
    assert not sc.action and not sc.environment and sc.primary == "one_to_many"


def test_oracle_route_passes_and_baselines_score_zero(world: World, tasks: dict[str, Task]) -> None:
    for t in tasks.values():
        gold = gold_run(t, world)
        assert score_episode(t, gold, list(gold.trace), f"ANSWER: {gold.answer}", catalog=world.catalog).passed
        # no tool call: the template's other answers and the constants all fail every axis
        others = [gold_run(u, world).answer for u in tasks.values() if u.template == t.template and u.id != t.id]
        for ans in [*others, *CONSTANTS]:
            sc = score_episode(t, gold, [], f"ANSWER: {ans}", catalog=world.catalog)
            assert not (sc.response or sc.action or sc.environment), (t.id, ans)
