"""``simulator serve`` closes connections that never finish their request head, and keeps
its keep-alive and concurrency limits (issue 15 §8)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from simulator import Resolver, Store
from simulator.server import create_app
from simulator.server.limits import GuardedH11Protocol, GuardedHttpToolsProtocol, apply_limits
from tests.support.helpers import STATIONS, build_demo_version

PROTOCOLS = [GuardedH11Protocol] + ([GuardedHttpToolsProtocol] if GuardedHttpToolsProtocol is not None else [])


def _serve(app: object, protocol: type, header_timeout: float) -> tuple[uvicorn.Server, threading.Thread, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    kwargs: dict[str, object] = {"http": protocol, "header_timeout": header_timeout}
    timeout = apply_limits(kwargs)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="off", **kwargs)
    config.header_timeout = timeout  # type: ignore[attr-defined]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    return server, thread, port


def test_apply_limits_sets_the_uvicorn_options() -> None:
    kwargs: dict[str, object] = {"http": "h11", "timeout_keep_alive": 2}
    assert apply_limits(kwargs) == 10.0
    assert kwargs["http"] is GuardedH11Protocol and kwargs["timeout_keep_alive"] == 2
    assert kwargs["limit_concurrency"] == 1024 and kwargs["h11_max_incomplete_event_size"] == 32 << 10


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_slow_sockets_are_closed_and_good_clients_served(tmp_path: Path, protocol: type) -> None:
    store = build_demo_version(tmp_path / "c")
    app = create_app(Resolver(Store(store.root, cache_dir=tmp_path / "cache").open("kopa")))
    server, thread, port = _serve(app, protocol, header_timeout=0.6)
    try:
        slow = []
        for i in range(60):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            if i % 2:
                s.sendall(b"GET /_sim/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # a head never finished
            slow.append(s)
        # A request that finishes its head in time, on a keep-alive connection, twice.
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as c:
            url = STATIONS.replace("https://", "/") + "?serviceKey=x&cityCode=25&_type=json"
            assert c.get(url).status_code == 200
            time.sleep(0.3)
            assert c.get("/_sim/health").status_code == 200
        t0 = time.monotonic()
        closed = 0
        for s in slow:
            s.settimeout(5)
            try:
                closed += s.recv(100) == b""
            except (ConnectionResetError, TimeoutError, socket.timeout):
                closed += 0
            s.close()
        assert closed == len(slow), f"{len(slow) - closed} slow sockets were left open"
        assert time.monotonic() - t0 < 5
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "TRACE", "PATCH", "OPTIONS"])
def test_replay_answers_only_the_declared_method(tmp_path: Path, method: str) -> None:
    from simulator import SimRequest

    store = build_demo_version(tmp_path / "c")
    r = Resolver(Store(store.root, cache_dir=tmp_path / "cache").open("kopa"))
    url = f"{STATIONS}?serviceKey=x&cityCode=25&_type=json"
    assert r.resolve(SimRequest.from_url(url)).status == 200
    assert r.resolve(SimRequest.from_url(url, method="HEAD")).status == 200
    resp = r.resolve(SimRequest.from_url(url, method=method))
    assert resp.status == 405 and resp.header("allow") == "GET"
    assert b'"method_not_allowed"' in resp.body
