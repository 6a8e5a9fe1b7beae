"""train.env and train.rewards: episodes over bench tasks, budgets, faults, determinism, rewards."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.kopa.agents import make_agent
from bench.kopa.env import World
from bench.kopa.tasks import load_tasks
from simulator import FaultConfig, Store
from simulator.tools import Program
from train.env import EnvConfig, Example, SimEpisode, example_from_task, parse_tool_call
from train.rewards import (
    all_pages_fetched,
    answer_matches,
    answer_reward,
    completion_text,
    gold_text,
    make_reward,
    no_invented_codes,
    valid_tool_calls,
)

AGENTS = ("oracle", "first-page", "first-of-many", "skip-lookup")


@pytest.fixture(scope="module")
def store(shipped_store: Store) -> Store:
    return shipped_store


@pytest.fixture(scope="module")
def world(store: Store) -> World:
    return World(store.open("kopa"))


@pytest.fixture(scope="module")
def tasks() -> list[Any]:
    return load_tasks()


def _run(world: World, examples: list[Example], faults: FaultConfig | None) -> list[dict[str, Any]]:
    """100 scripted episodes: each example driven by each scripted bench agent."""
    out = []
    for ex in examples:
        for agent in AGENTS:
            ep = SimEpisode(world, ex, EnvConfig(faults=faults), seed=0, episode_id=f"{ex.id}:{agent}")
            assert ex.task is not None
            res = make_agent(agent).run(ex.task, ep, seed=0, max_turns=24)
            ep.finish(res.answer)
            comp = [{"role": "assistant", "content": f"ANSWER: {res.answer}"}]
            rewards = {
                "answer": answer_reward([comp], answer=[ex.answer], check=[json.dumps(ex.check)])[0],
                "shaped": make_reward({"valid_tool_calls": 0.1, "all_pages_fetched": 0.1,
                                       "no_invented_codes": 0.1})([comp], answer=[ex.answer],
                                                                   environments=[ep])[0],
            }
            out.append({"obs": [ep.observation(r) for r in ep.trace], "trace": ep.trace_json(),
                        "rewards": rewards, "passed": ep.score().passed})  # type: ignore[union-attr]
    return out


def test_same_seed_same_observations_and_rewards_over_100_episodes(store: Store, tasks: list[Any]) -> None:
    faults = FaultConfig(seed=7, rate=0.2)
    w1, w2 = World(store.open("kopa")), World(store.open("kopa"))
    ex1 = [example_from_task(t, w1) for t in tasks[:25]]
    ex2 = [example_from_task(t, w2) for t in tasks[:25]]
    a, b = _run(w1, ex1, faults), _run(w2, ex2, faults)
    assert len(a) == 100
    assert a == b
    # The faults are real and the seed matters.
    sources = [c["source"] for r in a for c in r["trace"]]
    assert "fault" in sources
    c = _run(w1, ex1, FaultConfig(seed=8, rate=0.2))
    assert [r["trace"] for r in c] != [r["trace"] for r in a]
    # Without faults the oracle passes everything and the baselines do not.
    clean = _run(w1, ex1, None)
    oracle = [r for i, r in enumerate(clean) if i % 4 == 0]
    assert all(r["passed"] and r["rewards"]["answer"] == 1.0 for r in oracle)
    assert not all(r["passed"] for i, r in enumerate(clean) if i % 4 == 3)


def test_trace_logs_every_call_with_source_status_and_records(world: World, tasks: list[Any]) -> None:
    ex = example_from_task(tasks[0], world)
    ep = SimEpisode(world, ex, EnvConfig(max_calls=2))
    obs = ep.call_tool("mois_stan_regin_cd", locatadd_nm="서울특별시 종로구")
    assert "region_cd" in obs
    ep.call_tool("molit_apt_trades", LAWD_CD="11110", DEAL_YMD="202503", bogus="x")
    assert ep.call_tool("mois_stan_regin_cd", locatadd_nm="x").startswith("error: call budget")
    t = ep.trace_json()
    assert [r["tool"] for r in t] == ["mois_stan_regin_cd", "molit_apt_trades", "mois_stan_regin_cd"]
    assert t[0]["ok"] and t[0]["status"] == 200 and t[0]["source"] in ("exact", "window", "query")
    assert t[0]["n_records"] > 0
    assert not t[1]["ok"] and t[1]["status"] == 400 and "bogus" in t[1]["error"]
    assert t[2]["source"] == "budget" and t[2]["status"] == 429
    assert ep.budget_exhausted


def test_codes_stay_strings_with_leading_zeros(world: World) -> None:
    ep = SimEpisode(world)
    rec = ep.call("mois_stan_regin_cd", {"locatadd_nm": "서울특별시 종로구"})
    assert rec.args == {"locatadd_nm": "서울특별시 종로구"}
    rec = ep.call("molit_apt_trades", {"LAWD_CD": "01110", "DEAL_YMD": 202503.0})
    assert rec.args == {"LAWD_CD": "01110", "DEAL_YMD": "202503"}


def test_step_openai_messages_turn_budget_and_bad_json(world: World, tasks: list[Any]) -> None:
    ex = example_from_task(tasks[0], world)
    ep = SimEpisode(world, ex, EnvConfig(max_turns=2))
    call = {"id": "c1", "type": "function",
            "function": {"name": "mois_stan_regin_cd", "arguments": '{"locatadd_nm": "서울특별시 종로구"}'}}
    bad = {"id": "c2", "type": "function", "function": {"name": "mois_stan_regin_cd", "arguments": "{oops"}}
    msgs = ep.step({"role": "assistant", "content": "", "tool_calls": [call, bad]})
    assert [m["tool_call_id"] for m in msgs] == ["c1", "c2"]
    assert "region_cd" in msgs[0]["content"] and msgs[1]["content"].startswith("error:")
    assert ep.invalid_calls == 1 and len(ep.trace) == 1 and not ep.done
    ep.step({"role": "assistant", "content": "", "tool_calls": [call]})
    assert ep.done and ep.turns_exhausted and ep.answer is None
    ep2 = SimEpisode(world, ex)
    ep2.step({"role": "assistant", "content": f"ANSWER: {ex.answer}"})
    assert ep2.done and ep2.score().response  # type: ignore[union-attr]


def test_parse_tool_call_forms() -> None:
    assert parse_tool_call({"function": {"name": "a", "arguments": '{"x": "01"}'}}) == ("a", {"x": "01"})
    assert parse_tool_call({"name": "a", "arguments": {"x": 1}}) == ("a", {"x": 1})
    assert parse_tool_call({"name": "a", "kwargs": {"x": "1"}}) == ("a", {"x": "1"})
    with pytest.raises(ValueError, match="JSON object"):
        parse_tool_call({"name": "a", "arguments": "[1]"})


def test_env_config_validates() -> None:
    with pytest.raises(ValueError, match="max_turns"):
        EnvConfig(max_turns=0)
    with pytest.raises(ValueError, match="platforms_scope"):
        EnvConfig(platforms_scope="some")


def test_synthesized_row_shape_is_accepted(world: World) -> None:
    row = {"prompt": [{"role": "user", "content": "서울특별시 종로구의 법정동 코드 수는?"}], "answer": "88",
           "gold_program": {"steps": [{"id": "s1", "call": "mois_stan_regin_cd", "pages": "all"},
                                      {"id": "v1", "op": "count", "from": "s1"}], "answer": {"$ref": "v1"}},
           "id": "syn-1"}
    ex = Example.from_row(row)
    assert ex.id == "syn-1" and ex.task is None and isinstance(ex.gold_program, Program)
    assert ex.gold_program.model_dump(by_alias=True, exclude_defaults=True) == row["gold_program"]
    with pytest.raises(ValueError, match="row gold_program is not a program .*edge synthesize"):
        Example.from_row({**row, "gold_program": {"steps": [], "answer": "v1"}})
    ep = SimEpisode(world, ex)
    assert ep.score() is None and ep.tools()  # all tools when the row names no platform
    assert Example.from_row(ex.row()).answer == "88"


# ---- rewards --------------------------------------------------------------------------------

def test_answer_reward_uses_the_checker() -> None:
    comps = [[{"role": "assistant", "content": "생각…\nANSWER: 1,234"}],
             [{"role": "assistant", "content": "ANSWER: 1235"}],
             "ANSWER: b, a",
             [{"role": "assistant", "content": "x"}]]
    checks = [json.dumps({"type": "numeric"}), json.dumps({"type": "numeric"}), json.dumps({"type": "set"}), None]
    out = answer_reward(comps, answer=["1234", "1234", "a,b", None], check=checks, trainer_state=None)
    assert out == [1.0, 0.0, 1.0, None]
    assert answer_reward(["x"]) == [None]
    # a task's tolerance applies to real values; a count is exact (the checker's rule since #29)
    tol = answer_reward(["ANSWER: 3.2", "ANSWER: 3.3"], answer=["3.14", "3.14"],
                        check=[{"type": "numeric", "rel_tol": 0.02}] * 2)
    assert tol == [1.0, 0.0]
    assert answer_reward(["ANSWER: 101"], answer=["100"], check=[{"type": "numeric", "rel_tol": 0.02}]) == [0.0]


def test_completion_text_takes_last_assistant_message() -> None:
    comp = [{"role": "assistant", "content": "", "tool_calls": []}, {"role": "tool", "content": "ANSWER: no"},
            {"role": "assistant", "content": [{"type": "text", "text": "ANSWER: yes"}]}]
    assert completion_text(comp) == "ANSWER: yes"


def test_shaping_terms_from_environments_and_stats(world: World, tasks: list[Any]) -> None:
    # a task whose answer needs every page (with the endpoints' maximum page sizes few do)
    task = next(t for t in tasks if t.id == "nec-cand-oldest-0")
    ex = example_from_task(task, world)
    good = SimEpisode(world, ex)
    make_agent("oracle").run(task, good, seed=0, max_turns=9)
    lazy = SimEpisode(world, ex)
    make_agent("first-page").run(task, lazy, seed=0, max_turns=9)
    guess = SimEpisode(world, ex)
    make_agent("skip-lookup").run(task, guess, seed=0, max_turns=9)
    envs = [good, lazy, guess]
    # skip-lookup never pages through the lookup collection either.
    assert all_pages_fetched(["", "", ""], environments=envs) == [1.0, 0.0, 0.0]
    assert no_invented_codes(["", "", ""], environments=envs)[0] == 1.0
    assert no_invented_codes(["", "", ""], environments=envs)[2] == 0.0
    assert valid_tool_calls(["", "", ""], environments=envs)[0] == 1.0
    stats = [json.dumps({"calls": 4, "ok_calls": 3, "invalid_calls": 0}), {"calls": 0, "ok_calls": 0}]
    assert valid_tool_calls(["", ""], episode_stats=stats) == [0.75, None]
    assert all_pages_fetched(["", ""], episode_stats=stats) == [None, None]
    # Off by default: make_reward() is the answer reward.
    comp = [f"ANSWER: {ex.answer}"] * 3
    assert make_reward()(comp, answer=[ex.answer] * 3, environments=envs) == [1.0, 1.0, 1.0]
    shaped = make_reward({"all_pages_fetched": 0.5})(comp, answer=[ex.answer] * 3, environments=envs)
    assert shaped == [1.5, 1.0, 1.0]
    with pytest.raises(ValueError, match="unknown"):
        make_reward({"style": 1.0})


def test_answer_reward_on_edge_rows_canonical_json_and_dap_lines() -> None:
    # EDGE rows: ground truth is canonical JSON; EDGE's system prompt asks for "답: …".
    golds = ["[13,5]", '"가족관계의 등록 등법 시행령"', "26", '{"서울":3}', "[13,5]", "[13,5]"]
    comps = ["답: 13, 5", "조회 결과…\n답: 가족관계의 등록 등법 시행령", "답: 26", "답: 서울 3",
             "답: 5, 13", "ANSWER: 13, 5\n답: 0"]
    assert answer_reward(comps, answer=golds) == [1.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    assert gold_text("[13,5]") == "13, 5" and gold_text('"법"') == "법" and gold_text("[2.0]") == "2"
    assert gold_text("1,234") == "1,234" and gold_text("[oops") == "[oops"  # plain text unchanged
    assert answer_reward(["답: 2, 3.5", "답: 1,208, 36", "답: 1208, 36", "답: 1, 208, 36"],
                         answer=["[2.0,3.5]", "[1208,36]", "[1208,36]", "[1208,36]"]) == [1.0, 1.0, 1.0, 0.0]
    assert answer_matches("답: a, b", '["b","a"]', {"type": "set"})
    assert not answer_matches("답: 13", "[13,5]") and not answer_matches("답: 가족관계", '"가족관계의 등록"')


def test_faults_are_the_resolvers_and_leave_the_world_clean(store: Store, tasks: list[Any]) -> None:
    """The episode passes its faults, episode id and call index down; the resolver (below the
    world's memo) picks the faults. The world gains no private state and a faulted episode
    does not change what an unfaulted one sees."""
    world = World(store.open("kopa"))
    before = set(world.__dict__)
    faults = FaultConfig(seed=1, rate=0.5)
    ex = example_from_task(tasks[0], world)
    clean = SimEpisode(world, ex, EnvConfig())
    faulted = SimEpisode(world, ex, EnvConfig(faults=faults), episode_id="e1")
    again = SimEpisode(world, ex, EnvConfig())
    for ep in (clean, faulted, again):
        for _ in range(16):
            ep.call_tool("mois_stan_regin_cd", locatadd_nm="서울특별시 종로구")
    kinds = [faults.choose("e1", i) for i in range(16)]
    assert any(kinds) and not all(kinds)
    for rec, kind in zip(faulted.trace, kinds):
        assert (rec.source == "fault") == (kind is not None), (rec.index, kind)
        assert rec.ok == (kind in (None, "latency")), (rec.index, kind)
    assert [faulted.observation(r) for r in faulted.trace] != [clean.observation(r) for r in clean.trace]
    assert clean.trace_json() == again.trace_json() and all(r.ok for r in again.trace)
    assert set(world.__dict__) == before
