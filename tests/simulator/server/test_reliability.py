"""Reliability: readers during publishing, hostile input to the ASGI app (no unhandled errors)."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from simulator import Resolver, SimTransport, Store, VersionBuilder, load_catalog
from simulator.server import create_app
from tests.support.helpers import STATIONS, build_demo_version, station_records


def test_readers_never_see_a_partial_version(tmp_path: Path) -> None:
    build_demo_version(tmp_path, n=40)
    store = Store(tmp_path)
    errors: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                v = Store(tmp_path).open("kopa")
                c = httpx.Client(transport=SimTransport(Resolver(v)))
                r = c.get(STATIONS, params={"_type": "json", "cityCode": "25", "numOfRows": 100})
                total = r.json()["response"]["body"]["totalCount"]
                # Every version this test publishes has 40 + 10·k records: a whole version.
                if (total - 40) % 10 or r.headers["x-sim-version"] != v.content_hash:
                    errors.append(f"inconsistent answer total={total}")
            except Exception as exc:  # noqa: BLE001 - any reader failure is the finding
                errors.append(repr(exc))

    threads = [threading.Thread(target=reader) for _ in range(16)]
    for t in threads:
        t.start()
    try:
        for k in range(1, 6):
            b = VersionBuilder(store, "kopa", load_catalog())
            n = 40 + 10 * k
            b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                             filters={"cityCode": "25"}, fmt="json", total=n, records=station_records(n))
            b.publish(recorded_at=f"2026-11-0{k}T00:00:00Z", source="test")
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert errors == []
    assert [m.version for m in store.versions("kopa")] == [f"v000{i}" for i in range(1, 7)]


def _call(app: Any, path: str, query: bytes, headers: list[tuple[bytes, bytes]], method: str = "GET") -> tuple[int, bytes, dict[str, str]]:
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode("utf-8", "surrogateescape"),
             "query_string": query, "headers": headers, "scheme": "http"}
    out: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(msg: dict[str, Any]) -> None:
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in msg["headers"]}
        else:
            out["body"] = msg["body"]

    asyncio.run(app(scope, receive, send))
    return out["status"], out["body"], out["headers"]


_HOSTS = ["apis.data.go.kr", "open.neis.go.kr", "openapi.seoul.go.kr:8088", "www.law.go.kr", "opendart.fss.or.kr",
          "example.com", "..", "%2e%2e", ""]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Found by this test: a brace in a path segment became a template parameter of an inferred
# endpoint, which then failed to build (a 500).
@example(host="openapi.seoul.go.kr:8088", rest=["0", "", "{", "", "0"], query=b"", page="1")
@given(
    host=st.sampled_from(_HOSTS),
    rest=st.lists(st.text(min_size=0, max_size=20), max_size=6),
    query=st.binary(max_size=300),
    page=st.one_of(st.integers(-10**12, 10**12).map(str), st.text(max_size=5)),
)
def test_hostile_requests_get_documented_answers(tmp_path_factory: Any, host: str, rest: list[str], query: bytes, page: str) -> None:
    app = _app(tmp_path_factory)
    path = "/" + "/".join([host, *rest])
    for q in (query, f"pageNo={page}&numOfRows={page}&_type=json&cityCode=25".encode("utf-8", "surrogatepass")):
        status, body, headers = _call(app, path, q, [(b"host", b"127.0.0.1:8787"), (b"x-sim-episode", b"\xff\xfe")])
        assert status != 500, body[:300]
        if "x-sim-error" in headers:
            err = json.loads(body)["error"]
            assert err["type"] and err["message"]
        else:
            assert headers.get("x-sim-source") in {"exact", "window", "query", "miss", "error", "fault"}


_APPS: dict[str, Any] = {}


def _app(factory: Any) -> Any:
    if "app" not in _APPS:
        root = factory.mktemp("fuzz")
        build_demo_version(root)
        store = Store(root, cache_dir=root / "cache")
        _APPS["app"] = create_app(Resolver(store.open("kopa")), store)
    return _APPS["app"]
