"""Scoring judges outcomes, not routes (issue 29, item 2): where the answer is already in a
search result, one call that obtains it passes ACTION and ENVIRONMENT, and is never labelled
``skipped_lookup``; a call that never obtains it still fails."""

from __future__ import annotations

from typing import Any

import pytest

from bench.kopa import BENCH_VERSION
from bench.kopa.env import ToolEnv, World
from bench.kopa.scoring import Score, score_episode
from bench.kopa.tasks import Task, gold_run, load_tasks
from simulator import Store


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", BENCH_VERSION))


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_tasks()}


def _episode(world: World, task: Task, calls: list[tuple[str, dict[str, Any]]], answer: str) -> Score:
    """A scripted agent making ``calls`` and answering ``answer`` (a natural sentence)."""
    env = ToolEnv.for_task(world, task.program, f"{task.id}#0")
    for tool, args in calls:
        assert env.call(tool, args).ok, env.trace[-1].error
    return score_episode(task, gold_run(task, world), env.trace, answer, catalog=world.catalog)


def _search_step(task: Task) -> tuple[str, str, str]:
    """(search tool, its query, the exact name the filter keeps) of a law/ordinance task."""
    s1 = task.program.step("s1")
    s2 = task.program.step("s2")
    return s1.call, s1.args["query"], s2.where[0].value  # type: ignore[union-attr]


LAW = [f"law-ministry-{i}" for i in range(4)]
ORDIN = [f"ordin-promul-{i}" for i in range(3)]


@pytest.mark.parametrize(("tid", "field", "name_field"),
                         [(t, "소관부처명", "법령명한글") for t in LAW] + [(t, "공포번호", "자치법규명") for t in ORDIN])
def test_one_search_call_that_holds_the_answer_passes(world: World, tasks: dict[str, Task], tid: str, field: str,
                                                     name_field: str) -> None:
    task = tasks[tid]
    tool, query, name = _search_step(task)
    env = ToolEnv(world)
    rows = env.call(tool, {"query": query, "display": 100}).records
    row = next(r for r in rows if r[name_field] == name)
    assert str(row[field]) == gold_run(task, world).answer  # the search row holds the answer
    sc = _episode(world, task, [(tool, {"query": query, "display": 100})],
                  f"검색 결과에 따르면 「{name}」의 {field[:-1] if field.endswith('명') else field}은(는) {row[field]}입니다.")
    assert sc.passed, (sc.failures, sc.details)
    assert sc.details["answered_by_lookup"] == ["s3"]
    assert "skipped_lookup" not in sc.failures


@pytest.mark.parametrize("tid", LAW[:1] + ORDIN[:1])
def test_a_search_that_misses_the_record_still_fails(world: World, tasks: dict[str, Task], tid: str) -> None:
    task = tasks[tid]
    tool, _query, _name = _search_step(task)
    gold = gold_run(task, world).answer
    # another search, whose rows never name this law: the answer is not obtained, only guessed
    sc = _episode(world, task, [(tool, {"query": "도로교통법", "display": 100})], f"ANSWER: {gold}")
    assert sc.response and not sc.action and not sc.environment
    assert "answered_by_lookup" not in sc.details


def test_the_gold_route_still_passes(world: World, tasks: dict[str, Task]) -> None:
    for tid in (LAW[0], ORDIN[0]):
        task = tasks[tid]
        gold = gold_run(task, world)
        calls = [(gold.trace[i].tool, dict(gold.trace[i].args)) for sid in ("s1", "s3")
                 for i in gold.step_calls[sid]]
        sc = _episode(world, task, calls, f"ANSWER: {gold.answer}")
        assert sc.passed and "answered_by_lookup" not in sc.details


CMT = [f"nec-asm-cmt-winners-{i}" for i in range(4)]


@pytest.mark.parametrize("tid", CMT)
def test_the_committee_list_alone_answers_the_winners_in_a_committee(world: World, tasks: dict[str, Task],
                                                                    tid: str) -> None:
    """One documented call answers directly: the committee's members, each with ELECT_GBN_NM
    (지역구/비례대표) and UNITS; the task declares it as a route, and gold_run checks it gives
    the same count as the NEC-winners program."""
    task = tasks[tid]
    cm = task.routes[0].step("s1").args["CMITS"]  # type: ignore[union-attr]
    gold = gold_run(task, world)
    assert gold.routes[0].answer == gold.answer
    rows = ToolEnv(world).call("assembly_members", {"CMITS": cm, "pSize": 1000}).records
    n = sum(1 for r in rows if r["ELECT_GBN_NM"] == "지역구")
    sc = _episode(world, task, [("assembly_members", {"CMITS": cm, "pSize": 1000})],
                  f"{cm} 위원 {len(rows)}명 가운데 지역구 의원은 {n}명입니다.")
    assert sc.passed, (sc.failures, sc.details)
    assert sc.details["route"] == 1 and "skipped_lookup" not in sc.failures
    # the gold route still passes on its own program, and a wrong committee's list does not pass
    other = "국방위원회" if cm != "국방위원회" else "정무위원회"
    bad = _episode(world, task, [("assembly_members", {"CMITS": other, "pSize": 1000})], f"ANSWER: {gold.answer}")
    assert not bad.action and not bad.environment


def test_a_route_must_reach_the_gold_answer(world: World, tasks: dict[str, Task]) -> None:
    from bench.kopa.program import ProgramError

    task = tasks[CMT[0]]
    route = task.routes[0].model_copy(deep=True)
    raw = task.model_dump(by_alias=True, exclude_none=True)
    raw["id"] = "bad-route"
    raw["routes"][0]["steps"][1]["where"][2]["value"] = "비례대표"
    bad = Task.model_validate(raw)
    assert route.step("s1") is not None
    with pytest.raises(ProgramError, match="route 1 answers"):
        gold_run(bad, world)
