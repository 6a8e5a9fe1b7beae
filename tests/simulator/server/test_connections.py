"""``simulator serve`` on a real loopback socket: a client that half-closes its socket after
sending still gets its answer, and ``CONNECT`` (an ``https://`` URL through the server as a
proxy) gets a 501 saying what works instead of a 404 about path ``/`` (issue 31)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from simulator import Resolver, Store
from simulator.server import create_app
from simulator.server.openapi import SIM_ERROR_TYPES
from tests.support.helpers import STATIONS, build_demo_version
from tests.simulator.server.test_limits import PROTOCOLS, _serve


@pytest.fixture
def port_of(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Start the demo version's app with a protocol class; yields a starter returning the port."""
    store = build_demo_version(tmp_path / "c")
    app = create_app(Resolver(Store(store.root, cache_dir=tmp_path / "cache").open("kopa")))
    servers = []

    def start(protocol: type) -> int:
        server, thread, port = _serve(app, protocol, header_timeout=5)
        servers.append((server, thread))
        return port

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


def _exchange(port: int, request: bytes, *, half_close: bool) -> bytes:
    """Send ``request`` on a raw socket (then ``shutdown(SHUT_WR)`` if asked); read to EOF."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def _split(raw: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return lines[0], headers, body


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
@pytest.mark.parametrize(
    "query",
    [
        "cityCode=25&_type=json&pageNo=2&numOfRows=7",  # a window render: served from a worker thread
        "cityCode=99&_type=json",  # a miss diagnosis: a worker thread too
    ],
)
def test_a_half_closed_client_gets_its_answer(port_of, protocol: type, query: str) -> None:  # type: ignore[no-untyped-def]
    port = port_of(protocol)
    target = "/" + STATIONS.split("://", 1)[1] + "?serviceKey=k&" + query
    request = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    raw = _exchange(port, request, half_close=True)
    assert raw, "no answer at all to a half-closed request"
    status, headers, body = _split(raw)
    assert status.startswith("HTTP/1.1 "), status
    assert int(headers["content-length"]) == len(body)
    if "pageNo=2" in query:
        assert status == "HTTP/1.1 200 OK" and headers["x-sim-source"] == "window"
        assert len(json.loads(body)["response"]["body"]["items"]["item"]) == 7
    else:
        assert status == "HTTP/1.1 404 Not Found" and headers["x-sim-source"] == "miss"
    # The same request on a connection the client keeps open is answered the same.
    kept = _exchange(port, request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"), half_close=False)
    assert _split(kept)[2] == body


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_two_pipelined_requests_then_half_close_get_two_answers(port_of, protocol: type) -> None:  # type: ignore[no-untyped-def]
    port = port_of(protocol)
    one = "/" + STATIONS.split("://", 1)[1] + "?serviceKey=k&cityCode=25&_type=json&pageNo={}&numOfRows=5"
    request = b"".join(
        f"GET {one.format(n)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode() for n in (1, 3)
    )
    raw = _exchange(port, request, half_close=True)
    assert raw.count(b"HTTP/1.1 200 OK") == 2, raw[:300]


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_connect_is_refused_with_what_works(port_of, protocol: type) -> None:  # type: ignore[no-untyped-def]
    port = port_of(protocol)
    request = b"CONNECT opendart.fss.or.kr:443 HTTP/1.1\r\nHost: opendart.fss.or.kr:443\r\n\r\n"
    status, headers, body = _split(_exchange(port, request, half_close=False))
    assert status == "HTTP/1.1 501 Not Implemented", (status, body)
    assert headers["x-sim-error"] == "connect_unsupported" and "connect_unsupported" in SIM_ERROR_TYPES
    message = json.loads(body)["error"]["message"]
    assert f"http://127.0.0.1:{port}/opendart.fss.or.kr/" in message  # the replay URL form
    assert "http://opendart.fss.or.kr/" in message  # or http:// through the proxy
    assert "unknown path" not in message
