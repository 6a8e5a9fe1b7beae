"""Failures that are not the model's (issue 29, item 4), on loopback chat-completions stubs.

An HTTP error, no connection, a timeout or a reply that is not chat-completions JSON is
infrastructure: 5xx and connection errors are retried with bounded backoff, then the run stops
with one line naming the URL and status, exits non-zero and stores no episode, so a rerun into
the same ``--out`` runs it. A working model's malformed call (bad JSON arguments, an unknown
tool) is its own mistake: a tool error observation, and the episode goes on.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from bench.kopa import BENCH_VERSION
from bench.kopa.agents import ModelEndpointError, OpenAIAgent
from bench.kopa.cli import bench_app
from bench.kopa.env import World
from bench.kopa.runner import RunConfig, load_results, run_bench
from bench.kopa.tasks import gold_run, load_tasks
from simulator import Store
from tests.support.loopback import read_body, serve_in_thread

TASK = "molit-trade-max-0"

Reply = tuple[int, bytes]


@pytest.fixture(scope="module")
def cache(shipped_store: Store) -> Path:
    return shipped_store.cache_dir


@pytest.fixture(scope="module")
def world(cache: Path) -> World:
    return World(Store(cache_dir=cache).open("kopa", BENCH_VERSION))


@pytest.fixture(scope="module")
def task() -> Any:
    return next(t for t in load_tasks() if t.id == TASK)


def _completion(message: dict[str, Any]) -> bytes:
    return json.dumps({"id": "c", "object": "chat.completion", "model": "stub",
                       "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]},
                      ensure_ascii=False).encode()


def _tc(i: str, name: str, args: str) -> dict[str, Any]:
    return {"id": i, "type": "function", "function": {"name": name, "arguments": args}}


def _route(answer: str) -> list[dict[str, Any]]:
    """molit-trade-max-0 solved: the region code, the month's trades, a natural final answer."""
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            _tc("a", "mois_stan_regin_cd", json.dumps({"locatadd_nm": "서울특별시 종로구", "numOfRows": 100}))]},
        {"role": "assistant", "content": None, "tool_calls": [
            _tc("b", "molit_apt_trades", json.dumps({"LAWD_CD": "11110", "DEAL_YMD": "202503", "numOfRows": 1000}))]},
        {"role": "assistant", "content": answer},
    ]


def _stub(reply: Callable[[str, dict[str, Any] | None, int], Reply], log: list[str]) -> Any:
    """An ASGI app: ``reply(path, request, n)`` answers the n-th chat request (any path)."""
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        path = scope["path"]
        if path.endswith("/models"):
            status, data = 200, b'{"data": []}'
        else:
            log.append(path)
            req = json.loads(body) if body else None
            status, data = reply(path, req, len(log))
            if status == 0:  # a reply slower than the client's timeout
                await asyncio.sleep(1.0)
                status = 200
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})
    return app


def _scripted(script: list[dict[str, Any]]) -> Callable[[str, dict[str, Any] | None, int], Reply]:
    """Serves ``script`` on ``/v1/chat/completions`` only (any other path: 404, as vLLM does)."""
    def reply(path: str, req: dict[str, Any] | None, n: int) -> Reply:
        if path != "/v1/chat/completions" or req is None:
            return 404, b'{"detail":"Not Found"}'
        turn = sum(1 for m in req["messages"] if m["role"] == "assistant")
        return 200, _completion(script[turn])
    return reply


def test_404_without_v1_stops_the_run_and_a_rerun_completes(world: World, task: Any, tmp_path: Path, cache: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOPA_CACHE", str(cache))  # the CLI opens the index the fixture compiled
    gold = gold_run(task, world).answer
    out = tmp_path / "run"
    log: list[str] = []
    # a natural answer, no ANSWER marker: the careful checker reads it
    script = _route(f"조회해 보니 2025년 3월 종로구에서 가장 비싸게 거래된 단지는 {gold} 아파트입니다.")
    with serve_in_thread(_stub(_scripted(script), log)) as base:
        bad = CliRunner().invoke(bench_app, ["run", "--agent", "openai", "--base-url", base, "--model", "m",
                                             "--out", str(out), "--tasks", TASK, "--seeds", "2", "--k", "1"])
        assert bad.exit_code == 1, bad.output
        line = f"404 from {base}/chat/completions: is the base URL missing /v1?"
        assert line in " ".join(bad.output.split()), bad.output
        assert "Traceback" not in bad.output
        assert load_results(out) == []  # nothing stored as a finished episode
        good = CliRunner().invoke(bench_app, ["run", "--agent", "openai", "--base-url", f"{base}/v1",
                                              "--model", "m", "--out", str(out), "--tasks", TASK,
                                              "--seeds", "2", "--k", "1"])
    assert good.exit_code == 0, good.output
    rows = load_results(out)
    assert sorted(r["seed"] for r in rows) == [0, 1]
    assert all(r["passed"] for r in rows), [(r["failures"], r["answer"]) for r in rows]


def test_5xx_is_retried_with_backoff_then_the_episode_goes_on(world: World, task: Any, tmp_path: Path) -> None:
    gold = gold_run(task, world).answer
    script = _route(f"ANSWER: {gold}")
    base_reply = _scripted(script)

    def flaky(path: str, req: dict[str, Any] | None, n: int) -> Reply:
        return (503, b"overloaded") if n in (1, 2) else base_reply(path, req, n)

    log: list[str] = []
    with serve_in_thread(_stub(flaky, log)) as base:
        agent = OpenAIAgent(base_url=f"{base}/v1", model="m", retries=3, backoff=0.01)
        rows = run_bench(agent, [task], world, tmp_path / "o", RunConfig(seeds=1, k=1, workers=1))
        agent.close()
    assert len(log) == 5 and rows[0]["passed"] and rows[0]["error"] is None


@pytest.mark.parametrize(("reply", "want"), [
    (lambda p, r, n: (503, b"upstream down"), "503 from {base}/v1/chat/completions: the model server failed"),
    (lambda p, r, n: (200, b"<html>proxy error</html>"), "malformed reply from {base}/v1/chat/completions"),
    (lambda p, r, n: (200, b'{"error": "no choices"}'), "malformed reply from {base}/v1/chat/completions"),
    (lambda p, r, n: (401, b'{"error": "bad key"}'), "401 from {base}/v1/chat/completions: check --api-key"),
    (lambda p, r, n: (0, b"{}"), "timeout from {base}/v1/chat/completions"),
])
def test_infrastructure_failures_stop_the_run_and_store_nothing(
        world: World, task: Any, tmp_path: Path, reply: Any, want: str) -> None:
    log: list[str] = []
    with serve_in_thread(_stub(reply, log)) as base:
        agent = OpenAIAgent(base_url=f"{base}/v1", model="m", retries=2, backoff=0.01, timeout=0.3)
        with pytest.raises(ModelEndpointError) as err:
            run_bench(agent, [task], world, tmp_path / "o", RunConfig(seeds=3, k=1, workers=1))
        agent.close()
    msg = str(err.value)
    assert msg.startswith(want.format(base=base)), msg
    assert "\n" not in msg
    # a 4xx is not retried; the rest are, twice; the other seeds never start
    assert len(log) == (1 if "401" in want else 2)
    assert load_results(tmp_path / "o") == []


def test_connection_refused_is_infrastructure(world: World, task: Any, tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    agent = OpenAIAgent(base_url=f"http://127.0.0.1:{port}/v1", model="m", retries=2, backoff=0.01)
    with pytest.raises(ModelEndpointError, match=rf"no connection to http://127.0.0.1:{port}/v1/chat/completions"):
        run_bench(agent, [task], world, tmp_path / "o", RunConfig(seeds=1, k=1, workers=1))
    agent.close()
    assert load_results(tmp_path / "o") == []


def test_a_working_models_malformed_calls_are_its_own_mistakes(world: World, task: Any, tmp_path: Path) -> None:
    gold = gold_run(task, world).answer
    seen: list[dict[str, Any]] = []
    script = [
        {"role": "assistant", "content": None, "tool_calls": [
            _tc("x", "mois_stan_regin_cd", '{"locatadd_nm": "서울특별시 종로구"'),  # cut JSON
            _tc("y", "no_such_tool", "{}"),
            _tc("z", "mois_stan_regin_cd", "[1, 2]")]},
        *_route(f"ANSWER: {gold}"),
    ]
    base_reply = _scripted(script)

    def reply(path: str, req: dict[str, Any] | None, n: int) -> Reply:
        if req is not None:
            seen.append(req)
        return base_reply(path, req, n)

    with serve_in_thread(_stub(reply, [])) as base:
        agent = OpenAIAgent(base_url=f"{base}/v1", model="m", retries=1, backoff=0.01)
        rows = run_bench(agent, [task], world, tmp_path / "o", RunConfig(seeds=1, k=1, workers=1))
        agent.close()
    tool_msgs = [m["content"] for m in seen[1]["messages"] if m["role"] == "tool"]
    assert tool_msgs[0].startswith("error: arguments are not valid JSON")
    assert "no_such_tool" in tool_msgs[1] and "error" in tool_msgs[1].lower()
    assert tool_msgs[2].startswith("error: arguments are not valid JSON")
    assert len(rows) == 1 and rows[0]["response"] and rows[0]["error"] is None


def test_a_conversation_beyond_the_models_context_ends_the_episode_not_the_run(
        world: World, task: Any, tmp_path: Path) -> None:
    # the built-in server's answer to a prompt beyond the context (train/serve.py): the model's limit
    body = json.dumps({"error": {"message": "too long", "type": "invalid_request_error",
                                 "code": "context_length_exceeded"}}).encode()
    with serve_in_thread(_stub(lambda p, r, n: (400, body), [])) as base:
        agent = OpenAIAgent(base_url=f"{base}/v1", model="m", retries=2, backoff=0.01)
        rows = run_bench(agent, [task], world, tmp_path / "o", RunConfig(seeds=2, k=1, workers=1))
        agent.close()
    assert len(rows) == 2 and not any(r["passed"] for r in rows)
    assert all("outgrew the model's context" in r["error"] for r in rows)
