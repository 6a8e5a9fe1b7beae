"""The simulated key-issuing step (``simulator.tools.keys``): a task that issues a key runs in
an episode whose calls must carry it; skipping it gets the platform's own invalid-key error,
an invented key fails ACTION, the oracle passes, and no issued key reaches a result file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.kopa import BENCH_VERSION
from bench.kopa.agents import OracleAgent
from bench.kopa.env import ToolEnv, World
from bench.kopa.runner import RunConfig, run_bench
from bench.kopa.scoring import Score, score_episode
from bench.kopa.tasks import Task, TaskError, gold_run, load_tasks, parse_tasks
from simulator import Store
from simulator.dialects import get_dialect
from simulator.tools.keys import KEY_TOOLS, REDACTED, issue_key, with_keys


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", BENCH_VERSION))


@pytest.fixture(scope="module")
def keyed() -> dict[str, Task]:
    return {t.id: t for t in load_tasks() if t.program.key_steps()}


def _episode(world: World, task: Task, seed: int = 0) -> ToolEnv:
    return ToolEnv.for_task(world, task.program, f"{task.id}#{seed}")


def _first_call(task: Task) -> tuple[str, dict[str, Any], str]:
    """The task's first data call: tool, its literal args (key left out), the key's argument name."""
    c = task.program.calls()[0]
    key_arg = task.program.key_args(c)[0]
    return c.call, {k: v for k, v in c.args.items() if k != key_arg}, key_arg


def _replay(world: World, task: Task, env: ToolEnv, key: str | None) -> Score:
    """The oracle's calls again (from its gold trace), carrying ``key`` (None: no key)."""
    gold = gold_run(task, world)
    for rec in gold.trace:
        if rec.source == "key":
            continue
        ep = world.catalog.endpoints[rec.tool]
        args = dict(rec.args)
        name = ep.params_with_role("auth")[0].name
        if key is not None and rec.key:
            args[name] = key
        env.call(rec.tool, args)
    return score_episode(task, gold, env.trace, f"ANSWER: {gold.answer}", catalog=world.catalog)


def test_the_shipped_set_issues_keys_on_two_platforms(keyed: dict[str, Task]) -> None:
    plats = {p for t in keyed.values() for p in t.platforms}
    tools = {k.call for t in keyed.values() for k in t.program.key_steps()}
    assert len(keyed) >= 6 and {"neis", "fsc"} <= plats and tools == set(KEY_TOOLS)


def test_the_oracle_passes_every_keyed_task(world: World, keyed: dict[str, Task]) -> None:
    for t in keyed.values():
        env = _episode(world, t)
        ep = OracleAgent().run(t, env, seed=0, max_turns=1)
        sc = score_episode(t, gold_run(t, world), env.trace, ep.answer, catalog=world.catalog)
        assert sc.passed, (t.id, sc.details)
        assert all(k["issued"] and k["used"] for k in sc.details["keys"].values())


@pytest.mark.parametrize("tid,code", [("neis-peer-office-0", "ERROR-290"), ("fsc-dart-addr-0", "30")])
def test_a_call_without_the_issued_key_gets_the_platforms_invalid_key_error(
        world: World, keyed: dict[str, Task], tid: str, code: str) -> None:
    t = keyed[tid]
    tool, args, key_arg = _first_call(t)
    ep = world.catalog.endpoints[tool]
    native = get_dialect(ep.dialect).render_error(ep, "invalid_key", "json", "")
    env = _episode(world, t)
    for carried in (None, "SIM-EDU-0123456789abcdef01234567", "kopa-sim"):
        rec = env.call(tool, args if carried is None else {**args, key_arg: carried})
        assert not rec.ok and rec.key == ("missing" if carried is None else "other")
        assert env.observation(rec) == native.body.decode()   # the platform's own body, byte for byte
        assert code in env.observation(rec) and rec.status == native.status
    key = json.loads(env.observation(env.call(t.program.key_steps()[0].call)))["key"]
    rec = env.call(tool, {**args, key_arg: key})
    assert rec.ok and rec.records and rec.key == "issued"
    assert key not in json.dumps([r.to_json(with_records=True) for r in env.trace], ensure_ascii=False)


def test_skipping_the_key_step_fails_action_and_environment(world: World, keyed: dict[str, Task]) -> None:
    t = keyed["neis-peer-office-0"]
    sc = _replay(world, t, _episode(world, t), None)
    assert not sc.action and not sc.environment and sc.primary == "skipped_lookup"
    assert sc.details["keys"]["get_education_api_key"] == {"issued": False, "used": 0, "other": 0}


def test_an_invented_key_fails_action(world: World, keyed: dict[str, Task]) -> None:
    for tid in ("neis-peer-office-0", "fsc-dart-addr-0"):
        t = keyed[tid]
        env = _episode(world, t)
        tool = t.program.key_steps()[0].call
        env.call(tool)  # the key was issued, but the calls carry one made up
        sc = _replay(world, t, env, issue_key(tool, "another episode"))
        assert not sc.action and not sc.passed and "invented_args" in sc.failures, (tid, sc.failures)
        assert sc.details["keys"][tool]["other"] > 0


def test_the_issued_key_is_per_episode_and_passes(world: World, keyed: dict[str, Task]) -> None:
    t = keyed["fsc-dart-addr-0"]
    tool = t.program.key_steps()[0].call
    assert issue_key(tool, f"{t.id}#0") != issue_key(tool, f"{t.id}#1")
    env = _episode(world, t, seed=1)
    env.call(tool)
    sc = _replay(world, t, env, issue_key(tool, f"{t.id}#1"))
    assert sc.passed, sc.details


def test_a_task_without_a_key_step_checks_no_key(world: World) -> None:
    t = next(t for t in load_tasks() if t.id == "molit-trade-max-0")
    env = _episode(world, t)
    gold = gold_run(t, world)
    for rec in gold.trace:
        assert env.call(rec.tool, {**rec.args, "serviceKey": "anything"}).ok


def test_no_issued_key_is_written_to_the_results(world: World, keyed: dict[str, Task], tmp_path: Path) -> None:
    ts = [keyed["neis-peer-office-0"], keyed["fsc-dart-addr-0"]]
    rows = run_bench(OracleAgent(), ts, world, tmp_path / "o", RunConfig(seeds=2, k=1, workers=2))
    assert all(r["passed"] for r in rows)
    text = (tmp_path / "o" / "results.jsonl").read_text(encoding="utf-8")
    assert "SIM-" not in text and '"key": "issued"' in text
    key_rec = _episode(world, ts[0]).call("get_education_api_key")
    assert key_rec.to_json(with_records=True)["records"] == [{"key": REDACTED}]


def test_a_keyed_call_without_its_key_argument_is_refused_at_load(keyed: dict[str, Task]) -> None:
    raw = keyed["neis-peer-office-0"].model_dump(by_alias=True, exclude_none=True)
    raw["program"]["steps"][1]["args"].pop("KEY")
    with pytest.raises(TaskError, match=r"neis_school_info needs the key the program issues "
                                        r"\(get_education_api_key\) in its 'KEY' argument"):
        parse_tasks([raw])
    raw["program"]["steps"][1]["args"]["serviceKey"] = {"$ref": "key", "field": "key", "pick": "first"}
    with pytest.raises(TaskError, match="serviceKey carries a get_education_api_key key"):
        parse_tasks([raw])


def test_agents_can_find_and_call_the_key_tools(world: World) -> None:
    tools = {t["function"]["name"]: t for t in world.tools(["neis", "fsc"])}
    assert set(KEY_TOOLS) <= set(tools)
    assert "KEY" in tools["neis_school_info"]["function"]["parameters"]["properties"]
    assert "serviceKey" in tools["fsc_listed_items"]["function"]["parameters"]["properties"]
    assert "KEY" not in world.catalog.tools(platforms=["neis"])[0]["function"]["parameters"]["properties"]
    assert with_keys(world.catalog.tools(platforms=["lawgokr"]), world.catalog) == \
        world.catalog.tools(platforms=["lawgokr"])
    index = world.tool_index()
    assert "get_education_api_key" in index.search("NEIS 교육정보 인증키 발급", 5)
    assert "get_data_go_kr_api_key" in index.search("공공데이터포털 서비스키 발급", 5)
