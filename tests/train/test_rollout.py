"""train.rollout against a loopback chat-completions stub; the TRL environment class (no trl)."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bench.kopa.env import World
from bench.kopa.runner import load_results, summarize
from bench.kopa.tasks import load_tasks
from simulator import Store
from tests.support.loopback import serve_in_thread
from train.env import EnvConfig, Example, example_from_task
from train.rollout import PolicyClient, RolloutConfig, run_rollouts
from train.trl_adapter import make_environment_class, parse_tool_calls


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa"))


async def _chat(request: Request) -> JSONResponse:
    """A scripted policy: look the region up, then answer with the reported total."""
    body = await request.json()
    msgs = body["messages"]
    assert body["tools"] and body["model"] == "stub"
    tool_msgs = [m for m in msgs if m["role"] == "tool"]
    if not tool_msgs:
        q = msgs[-1]["content"]
        region = re.search(r"서울특별시 \S+?(?:구|군)", q)
        args = {"locatadd_nm": region.group(0) if region else q}
        msg: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function",
             "function": {"name": "mois_stan_regin_cd", "arguments": json.dumps(args, ensure_ascii=False)}}]}
    else:
        m = re.search(r'"totalCount":\s*"?(\d+)', tool_msgs[-1]["content"])
        msg = {"role": "assistant", "content": f"ANSWER: {m.group(1) if m else '?'}"}
    return JSONResponse({"choices": [{"index": 0, "message": msg, "finish_reason": "stop"}]})


def test_rollouts_against_a_stub_server(world: World, tmp_path: Path) -> None:
    task = next(t for t in load_tasks() if t.id == "molit-trade-max-0")
    bench_ex = example_from_task(task, world)
    synth = Example.from_row({"id": "syn-jongno", "platforms": ["mois"], "answer": "88",
                              "prompt": [{"role": "user", "content": "서울특별시 종로구의 법정동 코드는 모두 몇 개인가요?"}],
                              "gold_program": {"steps": [{"id": "s1", "call": "mois_stan_regin_cd", "pages": "all"},
                                              {"id": "v1", "op": "count", "from": "s1"}], "answer": {"$ref": "v1"}}})
    app = Starlette(routes=[Route("/v1/chat/completions", _chat, methods=["POST"])])
    with serve_in_thread(app) as base:
        client = PolicyClient(f"{base}/v1", "stub")
        cfg = RolloutConfig(seeds=3, workers=4, env=EnvConfig(max_turns=4))
        rows = run_rollouts(client, world, [bench_ex, synth], cfg, out=tmp_path / "r")
        again = run_rollouts(client, world, [bench_ex, synth], cfg)
        client.close()
    assert len(rows) == 6 and [(r["task"], r["seed"]) for r in rows] == sorted((r["task"], r["seed"]) for r in rows)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "elapsed_s"} for r in rs]  # noqa: E731
    assert strip(rows) == strip(again)  # deterministic observations and verdicts
    syn = [r for r in rows if r["task"] == "syn-jongno"]
    assert all(r["passed"] and r["response"] and r["action"] is None for r in syn)
    assert all(r["trace"][0]["tool"] == "mois_stan_regin_cd" and r["trace"][0]["ok"] for r in syn)
    assert syn[0]["messages"][-1] == {"role": "assistant", "content": "ANSWER: 88"}
    ben = [r for r in rows if r["task"] == "molit-trade-max-0"]
    assert all(not r["passed"] and r["action"] is False for r in ben)  # stopped after the lookup
    # The benchmark's result file and summary read the rows.
    on_disk = load_results(tmp_path / "r")
    assert len(on_disk) == 6
    assert summarize([r for r in on_disk if r["task"] == task.id], k=1)["overall"]["episodes"] == 3


def test_environment_class_methods_are_the_catalog_tools(world: World) -> None:
    get_json_schema = pytest.importorskip("transformers.utils").get_json_schema  # train extra

    cls = make_environment_class(world, platforms=["mois", "molit"])
    public = {n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction) if not n.startswith("_")}
    tools = {e.id for e in world.catalog.endpoints.values() if e.platform in ("mois", "molit")}
    assert public == tools | {"reset", "get_reward"}
    env = cls()
    sig = inspect.signature(env.molit_apt_trades)
    assert list(sig.parameters)[:2] == ["LAWD_CD", "DEAL_YMD"]
    assert sig.parameters["LAWD_CD"].annotation is str and sig.parameters["pageNo"].default is None
    schema = get_json_schema(env.molit_apt_trades)["function"]
    assert schema["parameters"]["required"] == ["LAWD_CD", "DEAL_YMD"]
    assert schema["parameters"]["properties"]["LAWD_CD"]["type"] == "string"
    assert schema["parameters"]["properties"]["pageNo"]["type"] == "integer"
    assert schema["description"].startswith("아파트 매매")
    flag = get_json_schema(env.mois_stan_regin_cd)["function"]["parameters"]["properties"]["flag"]
    assert flag["enum"] == ["Y"]
    # reset(**row), a call (even with a wrong argument) is logged, get_reward is 0.0 by default.
    task = next(t for t in load_tasks() if t.id == "molit-trade-max-0")
    env.reset(**example_from_task(task, world).row())
    assert "region_cd" in env.mois_stan_regin_cd(locatadd_nm="서울특별시 종로구")
    assert env.molit_apt_trades(LAWD_CD="011110", bogus="1").startswith("error:")
    assert [r.args.get("LAWD_CD") for r in env.episode.trace] == [None, "011110"]
    assert env.get_reward() == 0.0 and env.episode.example.task.id == task.id
    shaped = make_environment_class(world, tools=["mois_stan_regin_cd"], shaping={"valid_tool_calls": 2.0})()
    shaped.reset(**example_from_task(task, world).row())
    shaped.mois_stan_regin_cd(locatadd_nm="서울특별시 종로구")
    assert shaped.get_reward() == 2.0
    with pytest.raises(ValueError, match="not catalog tools"):
        make_environment_class(world, tools=["nope"])


def test_parse_tool_calls_hermes_blocks() -> None:
    text = 'x<tool_call>\n{"name": "a", "arguments": {"c": "007"}}\n</tool_call><tool_call>oops</tool_call>'
    calls = parse_tool_calls(text)
    assert calls[0]["function"] == {"name": "a", "arguments": '{"c": "007"}'}
    assert calls[1]["function"]["name"] == ""
