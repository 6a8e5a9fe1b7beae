"""Seeded faults are a function of (seed, episode, call index), whichever process answers.

Two ``simulator serve --workers 2 --fault-seed 7`` servers, started separately, answer the
same 200-call episode (a new connection per call, ``X-Sim-Episode`` and ``X-Sim-Call`` sent)
with the same faults and the same bytes; per-episode state stays bounded however many
episode ids arrive; every adapter reads an empty ``X-Sim-Episode`` and ``X-Sim-Call`` alike.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from simulator import FaultConfig, Resolver, SimTransport, Store
from simulator.adapters import MAX_EPISODES, CallCounter, EpisodeHeaders
from simulator.request import SimRequest
from simulator.server.app import create_app
from tests.support.helpers import STATIONS, build_demo_version
from tests.simulator.server.test_server import _free_port

PATH = "/apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"
QUERIES = [{"_type": "json", "cityCode": "25", "numOfRows": str(1 + i % 9), "pageNo": str(1 + i % 5)} for i in range(200)]


def _serve(root: Path, port: int) -> subprocess.Popen[bytes]:
    log = root / f"serve-{port}.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "serve", "--cassettes", str(root), "--port", str(port),
             "--workers", "2", "--fault-seed", "7", "--http", "h11", "--loop", "asyncio"],
            stdout=subprocess.DEVNULL, stderr=fh, start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(log.read_text())
        try:
            if httpx.get(f"http://127.0.0.1:{port}/_sim/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("server did not start")


def _episode(base: str) -> list[tuple[int, str | None, bytes]]:
    out = []
    numbered = EpisodeHeaders("rollout-3")
    for q in QUERIES:
        # A new client per call: a new connection, so calls land on either worker.
        with httpx.Client(base_url=base, timeout=10, event_hooks={"request": [numbered]}) as c:
            r = c.get(PATH, params=q)
        out.append((r.status_code, r.headers.get("x-sim-fault"), r.content))
    return out


@pytest.mark.integration
@pytest.mark.slow
def test_two_multi_worker_servers_answer_an_episode_with_the_same_faults_and_bytes(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    Store(tmp_path).open("kopa").index  # compile once, before both servers start  # noqa: B018
    answers = []
    for _ in range(2):
        proc = _serve(tmp_path, _free_port())
        try:
            port = proc.args[proc.args.index("--port") + 1]  # type: ignore[union-attr]
            answers.append(_episode(f"http://127.0.0.1:{port}"))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(20)
    first, second = answers
    assert first == second
    faults = FaultConfig(seed=7)
    assert [f for _s, f, _b in first] == [faults.choose("rollout-3", i) for i in range(200)]
    assert sum(f is not None for _s, f, _b in first) >= 5  # the pattern is not all clean


def _asgi_get(app: Any, headers: list[tuple[bytes, bytes]]) -> int:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(msg: dict[str, Any]) -> None:
        sent.append(msg)

    scope = {"type": "http", "method": "GET", "path": PATH, "raw_path": PATH.encode(),
             "query_string": b"_type=json&cityCode=25&numOfRows=2", "headers": headers, "scheme": "http"}
    asyncio.run(app(scope, receive, send))
    return int(sent[0]["status"])


def _rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc for RSS")
def test_ten_thousand_episode_ids_leave_server_state_bounded(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    app = create_app(Resolver(Store(tmp_path).open("kopa"), faults=FaultConfig(seed=7)))
    long_tail = "x" * 4000  # 4 KB ids: 40 MB if the server kept them
    for i in range(1000):
        assert _asgi_get(app, [(b"x-sim-episode", f"ep-{i}-{long_tail}".encode())]) in (200, 429, 503, 504)
    before = _rss_mib()
    for i in range(1000, 11000):
        _asgi_get(app, [(b"x-sim-episode", f"ep-{i}-{long_tail}".encode())])
    grown = _rss_mib() - before
    assert len(app.calls) <= MAX_EPISODES
    assert grown < 16, f"server RSS grew {grown:.1f} MiB over 10,000 episode ids"


def test_the_episode_and_call_rules_are_the_same_in_every_adapter(tmp_path: Path) -> None:
    requests_adapter = pytest.importorskip("simulator.transports.requests_adapter")
    import requests

    build_demo_version(tmp_path)
    resolver = Resolver(Store(tmp_path).open("kopa"), faults=FaultConfig(seed=7, rate=1.0))
    seen: list[tuple[str | None, int]] = []
    real = resolver.resolve

    def spy(req: SimRequest, *, episode: str | None = None, call_index: int = 0) -> Any:
        seen.append((episode, call_index))
        return real(req, episode=episode, call_index=call_index)

    resolver.resolve = spy  # type: ignore[method-assign]
    url = STATIONS + "?_type=json&cityCode=25"
    sends = [{"X-Sim-Episode": ""}, {"X-Sim-Episode": ""}, {"X-Sim-Episode": "e", "X-Sim-Call": "41"}, {}]
    want = [("mine", 0), ("mine", 1), ("e", 41), ("mine", 2)]

    with httpx.Client(transport=SimTransport(resolver, episode="mine")) as c:
        for h in sends:
            try:
                c.get(url, headers=h)
            except httpx.TimeoutException:
                pass
    assert seen == want
    seen.clear()
    s = requests.Session()
    requests_adapter.mount(s, requests_adapter.SimAdapter(resolver, episode="mine"))
    for h in sends:
        try:
            s.get(url, headers=h)
        except requests.exceptions.Timeout:
            pass
    assert seen == want
    seen.clear()
    calls = CallCounter()
    for h in sends:
        calls.answer(resolver, SimRequest.from_url(url, headers=h), "mine")
    assert seen == want


def test_a_bad_call_index_is_answered_with_a_named_error(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    app = create_app(Resolver(Store(tmp_path).open("kopa")))
    assert _asgi_get(app, [(b"x-sim-call", b"-1")]) == 400
    resp = CallCounter().answer(app.resolver, SimRequest.from_url(STATIONS, headers={"X-Sim-Call": "abc"}))
    assert resp.status == 400 and b"X-Sim-Call='abc'" in resp.body
