"""``simulator bench validate``: zero findings on the shipped tasks, and each defect class,
seeded into a copy of an authored task (shipped, or retired by ``bench.kopa.author``), is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from bench.kopa import BENCH_VERSION
from bench.kopa.cli import bench_app
from bench.kopa.env import World
from bench.kopa.tasks import Task, gold_run, load_tasks, parse_tasks
from bench.kopa.validate import RULES, Finding, validate
from simulator import Store


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", BENCH_VERSION))


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_tasks()}


@pytest.fixture(scope="module")
def authored() -> dict[str, Task]:
    """Every authored task, the retired templates' too (plain chains to seed defects into)."""
    from bench.kopa import author

    return {t.id: t for t in parse_tasks([r for r in author.TASKS if r["template"] not in author.DROPPED])}


def test_shipped_tasks_have_no_findings(world: World, tasks: dict[str, Task]) -> None:
    findings = validate(list(tasks.values()), world)
    assert findings == [], "\n".join(map(str, findings))
    assert len(tasks) >= 145


def _seed(tasks: dict[str, Task], tid: str, mut: Callable[[dict[str, Any]], None], new_id: str) -> Task:
    raw = json.loads(tasks[tid].model_dump_json(by_alias=True, exclude_none=True))
    raw["id"] = new_id
    mut(raw)
    return parse_tasks([raw])[0]


def _rules(found: list[Finding], tid: str) -> set[str]:
    return {f.rule for f in found if f.task == tid}


def _step(raw: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in raw["program"]["steps"] if s["id"] == sid)


def test_no_tool_baseline_is_reported(world: World, tasks: dict[str, Task]) -> None:
    # two instances of one template with the same answer: answering the other's gold passes
    a = _seed(tasks, "molit-trade-count-0", lambda r: None, "seed-a")
    b = _seed(tasks, "molit-trade-count-0", lambda r: None, "seed-b")
    found = validate([a, b], world, rules=["no_tool"])
    assert _rules(found, "seed-a") == {"no_tool"} and _rules(found, "seed-b") == {"no_tool"}

    def zero(r: dict[str, Any]) -> None:  # a count the world makes 0 for everyone
        _step(r, "s3")["op"] = "filter"
        _step(r, "s3")["where"] = [{"field": "aptNm", "op": "eq", "value": "없는단지"}]
        r["program"]["steps"].append({"id": "s4", "op": "count", "from": "s3"})
        r["program"]["answer"] = {"$ref": "s4"}

    c = _seed(tasks, "molit-trade-count-0", zero, "seed-c")
    assert "a constant" in validate([c], world, rules=["no_tool"])[0].detail


def test_order_dependence_is_reported(world: World, tasks: dict[str, Task]) -> None:
    def first_record(r: dict[str, Any]) -> None:  # "the" complex = whichever record comes first
        s3 = _step(r, "s3")
        s3.clear()
        s3.update({"id": "s3", "op": "head", "from": "s2", "top": 1})
        r["program"]["answer"] = {"$ref": "s3", "field": "aptNm", "pick": "first"}

    t = _seed(tasks, "molit-trade-max-0", first_record, "seed-order")
    found = validate([t], world, rules=["order_dependent"])
    assert _rules(found, "seed-order") == {"order_dependent"}


@pytest.fixture(scope="module")
def world_v0002(shipped_store: Store) -> World:
    """kopa@v0002: its world (edition 2) repeats school names; v0003's names are unique."""
    return World(shipped_store.open("kopa", "v0002"))


def test_ambiguous_entity_is_reported(world_v0002: World, authored: dict[str, Task]) -> None:
    world = world_v0002

    def no_address(r: dict[str, Any]) -> None:  # 세종초등학교 without the address: 2 schools in v0002
        s1f = _step(r, "s1f")
        s1f["where"] = [w for w in s1f["where"] if w["field"] != "ORG_RDNMA"]
        r["question"] = "서울 세종초등학교의 2025년 4월 급식 평균 열량(kcal)을 소수 첫째 자리까지 구해 주세요."

    tid = next(k for k, t in authored.items() if t.template == "neis_meal_month_mean" and "세종초" in t.question)
    t = _seed(authored, tid, no_address, "seed-ambiguous")
    found = validate([t], world, rules=["ambiguous_entity"])
    assert _rules(found, "seed-ambiguous") == {"ambiguous_entity"}
    assert "matches 2 records" in found[0].detail


def test_leaked_argument_is_reported(world: World, tasks: dict[str, Task]) -> None:
    g = gold_run(tasks["tago-arr-soon-0"], world)
    node = g.trace[g.step_calls["s4"][0]].args["nodeId"]

    def leak(r: dict[str, Any]) -> None:
        r["question"] += f" (정류소 ID {node})"

    t = _seed(tasks, "tago-arr-soon-0", leak, "seed-leak")
    found = validate([t], world, rules=["leaked_argument"])
    assert _rules(found, "seed-leak") == {"leaked_argument"} and node in found[0].detail


def test_small_page_size_is_reported(world: World, tasks: dict[str, Task]) -> None:
    def small(r: dict[str, Any]) -> None:
        _step(r, "s2")["page_size"] = 50

    t = _seed(tasks, "molit-trade-count-0", small, "seed-pages")
    found = validate([t], world, rules=["all_pages_small"])
    assert _rules(found, "seed-pages") == {"all_pages_small"}
    assert "maximum page size (99999)" in found[0].detail


def test_chain_shortcut_is_reported_unless_declared(world: World, authored: dict[str, Task]) -> None:
    tasks = authored
    tid = next(k for k, t in tasks.items() if t.template == "assembly_committee_bills")
    assert tasks[tid].tags.shortcut
    t = _seed(tasks, tid, lambda r: r["tags"].pop("shortcut"), "seed-shortcut")
    found = validate([t], world, rules=["chain_shortcut"])
    assert _rules(found, "seed-shortcut") == {"chain_shortcut"} and "COMMITTEE=" in found[0].detail
    assert validate([tasks[tid]], world, rules=["chain_shortcut"]) == []


def test_wording_and_gold_errors_are_reported(world: World, authored: dict[str, Task]) -> None:
    tasks = authored
    def particle(r: dict[str, Any]) -> None:
        r["question"] = "현대모비스이(가) 2024년 한 해 동안 공시한 건수는 몇 건인가요?"

    def procedure(r: dict[str, Any]) -> None:
        r["question"] = "현대모비스의 고유번호를 먼저 조회 후 2024년 공시 건수를 알려주세요."

    def latin(r: dict[str, Any]) -> None:  # NAVER reads 네이버: 가, not 이
        r["question"] = "NAVER이 2024년 한 해 동안 공시한 건수는 몇 건인가요?"

    def broken(r: dict[str, Any]) -> None:
        _step(r, "s1f")["where"][0]["value"] = "없는회사"

    tid = next(k for k, t in tasks.items() if t.template == "dart_disclosure_count")
    seeded = [_seed(tasks, tid, particle, "seed-particle"), _seed(tasks, tid, procedure, "seed-procedure"),
              _seed(tasks, tid, broken, "seed-broken"), _seed(tasks, tid, latin, "seed-latin")]
    found = validate(seeded, world, rules=["unfilled_particle", "procedure", "gold_error"])
    assert _rules(found, "seed-particle") == {"unfilled_particle"}
    assert _rules(found, "seed-procedure") == {"procedure"}
    assert _rules(found, "seed-latin") == {"unfilled_particle"}
    assert _rules(found, "seed-broken") == {"gold_error"}


def test_every_rule_has_a_seeded_test() -> None:
    src = Path(__file__).read_text(encoding="utf-8")
    assert all(f'"{r}"' in src for r in RULES)


def test_cli_validate_exit_code_and_bad_rule() -> None:
    runner = CliRunner()
    res = runner.invoke(bench_app, ["validate", "--rules", "unfilled_particle,procedure"])
    assert res.exit_code == 0, res.output
    assert "0 findings over" in res.output
    res = runner.invoke(bench_app, ["validate", "--rules", "nope"])
    assert res.exit_code == 2 and "unknown" in res.output
