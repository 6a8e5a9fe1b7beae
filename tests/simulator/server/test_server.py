"""`simulator serve` as a real process on loopback: routing, proxy mode, admin, determinism."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.helpers import build_demo_version

pytestmark = pytest.mark.integration

PATH = "/apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(root: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "KOPA_CASSETTES": str(root)}
    log = root / f"serve-{port}.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "serve", "--port", str(port), *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=fh,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/_sim/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            raise RuntimeError(log.read_text())
    proc.kill()
    raise RuntimeError("server did not start")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    build_demo_version(tmp_path)
    port = _free_port()
    proc = _start(tmp_path, port)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


def test_replay_over_http(server: str) -> None:
    r = httpx.get(server + PATH, params={"_type": "json", "cityCode": "25", "numOfRows": 5, "pageNo": 3})
    assert r.status_code == 200
    body = r.json()["response"]["body"]
    assert body["totalCount"] == 57 and len(body["items"]["item"]) == 5
    assert r.headers["x-sim-source"] == "window"


def test_proxy_mode(server: str) -> None:
    with httpx.Client(proxy=server) as c:
        r = c.get("http://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList",
                  params={"_type": "json", "cityCode": "25"})
    assert r.status_code == 200 and r.json()["response"]["body"]["totalCount"] == 57


def test_admin_routes(server: str) -> None:
    h = httpx.get(server + "/_sim/health").json()
    assert h["status"] == "ok" and h["version"] == "v0001"
    cols = httpx.get(server + "/_sim/collections").json()["collections"]
    assert cols[0]["endpoint"] == "tago_stations_by_name" and cols[0]["records"] == 57
    ex = httpx.get(server + cols[0]["example"])
    assert ex.status_code == 200 and ex.headers["x-sim-source"] == "window"
    tools = httpx.get(server + "/_sim/tools").json()["tools"]
    assert any(t["function"]["name"] == "tago_stations_by_name" for t in tools)
    assert httpx.post(server + "/_sim/health").status_code == 405
    assert httpx.get(server + "/_sim/nope").status_code == 404


def test_hostile_input_gets_documented_errors(server: str) -> None:
    assert httpx.get(server + "/").json()["error"]["type"] == "no_upstream"
    assert httpx.get(server + "/a" * 9000).status_code == 414
    r = httpx.get(server + "/../../etc/passwd")
    assert r.status_code == 404 and "error" in r.json()
    r = httpx.get(server + PATH, params={"cityCode": "25", "numOfRows": "-5", "_type": "json"})
    assert r.status_code in (200, 400) and r.headers["x-sim-source"] == "error"
    assert httpx.get(server + "/_sim/health").status_code == 200


def test_two_processes_give_identical_bytes(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    outs = []
    for _ in range(2):
        port = _free_port()
        proc = _start(tmp_path, port)
        try:
            rs = [
                httpx.get(f"http://127.0.0.1:{port}{PATH}", params={"cityCode": "25", "pageNo": p, "numOfRows": 7, "_type": t})
                for p in (1, 4, 9) for t in ("json", "xml")
            ]
            outs.append([(r.status_code, r.content, r.headers["content-type"]) for r in rs])
        finally:
            proc.terminate()
            proc.wait(10)
    assert outs[0] == outs[1]


def test_two_workers_serve_the_same_bytes(tmp_path: Path) -> None:
    build_demo_version(tmp_path)
    port = _free_port()
    proc = _start(tmp_path, port, "--workers", "2")
    try:
        url = f"http://127.0.0.1:{port}{PATH}"
        with httpx.Client() as c:
            bodies = {c.get(url, params={"cityCode": "25", "pageNo": 2, "numOfRows": 5, "_type": "json"}).content
                      for _ in range(20)}
        assert len(bodies) == 1
        assert json.loads(bodies.pop())["response"]["body"]["totalCount"] == 57
    finally:
        proc.terminate()
        proc.wait(15)
