"""The ASGI app behind ``simulator serve``: replay over HTTP, and read-only admin routes.

Routing:

* ``GET /{upstream-host}/{path}?{query}`` replays, e.g.
  ``/apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade?LAWD_CD=11680&…``;
* absolute-form requests (``GET http://host/path`` through ``HTTP_PROXY``) replay with the
  ``Host`` header naming the upstream;
* ``/_sim/health``, ``/_sim/versions``, ``/_sim/collections``, ``/_sim/tools`` (JSON, GET only);
  ``/_sim/openapi.json``: this server's OpenAPI description (``simulator.server.openapi``).

Hardening: request line and body size limits, no stack traces in answers (a failure is a
documented ``{"error": …}`` body), admin routes read-only. It is a raw ASGI callable (no
framework routing in the hot path) so it stays close to a static-response floor.
"""

from __future__ import annotations

import functools
import json
import logging
from typing import Any
from urllib.parse import parse_qsl

import anyio

from ..adapters import CallCounter
from ..cache import BoundedCache
from ..request import SimRequest, SimResponse, parse_query
from ..resolve import Resolver, sim_error
from ..store import Store
from .asgi import Receive, Scope, Send, serve_lifespan

__all__ = ["create_app", "MAX_BODY", "MAX_TARGET"]

log = logging.getLogger("kopa_sim.server")

MAX_BODY = 1 << 20  # 1 MiB: the Korean APIs are all GETs with small bodies, if any
MAX_TARGET = 16 << 10  # 16 KiB of path + query
#: Worker threads for requests that are not cheap (see ``Resolver.resolve_fast``).
WORKER_THREADS = 8


_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "0.0.0.0", "testserver", ""}


def _json(obj: Any, status: int = 200) -> SimResponse:
    body = json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8")
    return SimResponse(status, [("content-type", "application/json; charset=utf-8")], body)


class SimApp:
    """ASGI application replaying one version through one resolver."""

    def __init__(self, resolver: Resolver, store: Store | None = None) -> None:
        self.resolver = resolver
        self.store = store
        #: Call indices per episode for requests without ``X-Sim-Call`` (bounded).
        self.calls = CallCounter()
        # Clients repeat the same few header sets: their decoded and encoded forms.
        self._decoded: _Decoded = BoundedCache(1024)
        self._encoded: _Encoded = BoundedCache(1024)
        self._workers: anyio.CapacityLimiter | None = None  # made in the server's event loop

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        try:
            resp = await self._handle(scope, receive)
        except Exception:  # noqa: BLE001 - never a stack trace on the wire
            log.exception("internal error")
            resp = sim_error(500, "internal_error", "the simulator failed on this request; see its log")
        await send(
            {
                "type": "http.response.start",
                "status": resp.status,
                "headers": [
                    *_encoded_headers(resp.headers, self._encoded),
                    (b"content-length", str(len(resp.body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": resp.body})

    async def _handle(self, scope: Scope, receive: Receive) -> SimResponse:
        raw_path: bytes = scope.get("raw_path") or scope["path"].encode("utf-8")
        qs: bytes = scope.get("query_string", b"")
        if len(raw_path) + len(qs) > MAX_TARGET:
            return sim_error(414, "uri_too_long", f"request target over {MAX_TARGET} bytes")
        body = b""
        more = True
        while more:
            msg = await receive()
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
            if len(body) > MAX_BODY:
                return sim_error(413, "body_too_large", f"request body over {MAX_BODY} bytes")
        path: str = scope["path"]
        method: str = scope["method"]
        headers = _decoded_headers(scope["headers"], self._decoded)
        if method == "CONNECT":
            return connect_refused(scope)
        if path.startswith("/_sim/") or path == "/_sim":
            if method not in ("GET", "HEAD"):
                return sim_error(405, "read_only", "admin routes are read-only (GET)")
            return self._admin(path, qs)
        host_header = next((v for k, v in headers if k == "host"), "")
        upstream_host, upstream_path = self._upstream(path, host_header)
        if upstream_host is None:
            return sim_error(
                404,
                "no_upstream",
                "name the upstream host as the first path segment, e.g. "
                "/apis.data.go.kr/1613000/…, or use this server as an HTTP proxy",
            )
        host, _, port = upstream_host.partition(":")
        try:
            query = parse_query(qs.decode("utf-8"))
        except UnicodeDecodeError:
            query = parse_query(qs.decode("latin-1"))
        req = SimRequest(
            method=method,
            host=host.lower(),
            path=upstream_path,
            query=query,
            headers=headers,
            body=body,
            scheme=scope.get("scheme", "http"),
            port=int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else None,
        )
        try:
            episode, n = self.calls.call_of(req)  # X-Sim-Episode / X-Sim-Call (simulator.adapters)
        except ValueError as exc:
            return sim_error(400, "bad_call_index", str(exc))
        res = self.resolver.resolve_fast(req, episode=episode, call_index=n)
        if res is None:
            # Renders, queries over large collections and miss diagnoses run in a worker
            # thread, so they never hold up the event loop (``/_sim/health`` stays fast).
            call = functools.partial(self.resolver.resolve, req, episode=episode, call_index=n)
            res = await anyio.to_thread.run_sync(call, limiter=self._limiter())
        return res.response

    def _limiter(self) -> anyio.CapacityLimiter:
        if self._workers is None:
            self._workers = anyio.CapacityLimiter(WORKER_THREADS)
        return self._workers

    @staticmethod
    def _upstream(path: str, host_header: str) -> tuple[str | None, str]:
        if path.startswith(("http://", "https://")):
            # Absolute-form request target: we are being used as an HTTP proxy.
            from urllib.parse import urlsplit

            try:
                u = urlsplit(path)
            except ValueError:  # "http://[::1/x": a malformed authority is no upstream
                return None, path
            return (u.netloc or None), (u.path or "/")
        parts = path.lstrip("/").split("/", 1)
        first = parts[0]
        if "." in first and not first.startswith("."):
            return first, "/" + (parts[1] if len(parts) > 1 else "")
        hh = host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header
        if hh.strip("[]") in _LOCAL_HOSTS or "." not in hh:
            return None, path
        return host_header, path

    # ---- admin ---------------------------------------------------------------------
    def _admin(self, path: str, qs: bytes) -> SimResponse:
        v = self.resolver.version
        m = v.manifest
        route = path[len("/_sim/") :].strip("/")
        if route == "health":
            return _json(
                {"status": "ok", "set": m.set, "version": m.version, "content_hash": m.content_hash}
            )
        if route == "versions":
            versions = self.store.versions(m.set) if self.store is not None else [m]
            return _json(
                {
                    "serving": m.version,
                    "versions": [
                        {
                            "version": x.version,
                            "parent": x.parent,
                            "recorded_at": x.recorded_at,
                            "source": x.source,
                            "content_hash": x.content_hash,
                        }
                        for x in versions
                    ],
                }
            )
        if route == "collections":
            params = dict(parse_qsl(qs.decode("utf-8", "replace")))
            endpoint = params.get("endpoint")
            out = []
            for c in v.collections(endpoint):
                ep = self.resolver.catalog.endpoints.get(c.endpoint)
                out.append(
                    {
                        "endpoint": c.endpoint,
                        "key": c.key,
                        "example": _example_url(ep, c.filters) if ep else None,
                        "records": c.count,
                        "total": c.total,
                    }
                )
            return _json({"collections": out})
        if route == "tools":
            return _json({"tools": self.resolver.catalog.tools()})
        if route == "openapi.json":
            from .openapi import openapi_document

            return _json(openapi_document(self.resolver.catalog))
        return sim_error(404, "unknown_admin_route", f"no admin route {path!r}; try /_sim/health")


_Decoded = BoundedCache[tuple[tuple[bytes, bytes], ...], tuple[tuple[str, str], ...]]
_Encoded = BoundedCache[tuple[tuple[str, str], ...], tuple[tuple[bytes, bytes], ...]]


def _decoded_headers(raw: Any, memo: _Decoded) -> tuple[tuple[str, str], ...]:
    """``tuple((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in raw)``, memoised."""
    key = tuple(raw)
    return memo.get_or_set(
        key, lambda: tuple((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in key)
    )


def _encoded_headers(headers: list[tuple[str, str]], memo: _Encoded) -> tuple[tuple[bytes, bytes], ...]:
    """``[(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]``, memoised."""
    key = tuple(headers)
    return memo.get_or_set(key, lambda: tuple((k.encode("latin-1"), v.encode("latin-1")) for k, v in key))


def connect_refused(scope: Scope) -> SimResponse:
    """The answer to ``CONNECT host:443``: a client sent an ``https://`` URL through this server
    as its proxy. Replay cannot see inside a TLS tunnel, so it answers 501 saying what works
    (the replay URL form, or ``http://`` through the proxy); the tunnel is never opened."""
    target = scope.get("raw_path") or scope["path"].encode("utf-8", "replace")
    authority = target.decode("latin-1").lstrip("/")
    host = authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority
    server = scope.get("server") or ("127.0.0.1", 8787)
    base = f"http://{server[0]}:{server[1]}"
    return sim_error(
        501,
        "connect_unsupported",
        f"this server cannot tunnel https (CONNECT {authority!r}): request the replay URL form "
        f"{base}/{host or '{host}'}/{{path}}?{{query}}, or send http://{host or '{host}'}/{{path}} "
        "through this proxy (replay answers the same for either scheme)",
    )


def _example_url(ep: Any, filters: dict[str, str]) -> str:
    """A request path (relative to this server) that replays the first page of a collection."""
    from ..dialects import get_dialect
    from ..catalog import build_request

    first = get_dialect(ep.dialect).page_requests(ep, filters, 1, "json")[0]
    req = build_request(ep, first, key="KEY", scheme="http")
    return "/" + req.url.split("://", 1)[1]


def create_app(resolver: Resolver, store: Store | None = None) -> SimApp:
    """The ASGI app for ``resolver`` (``store`` lists sibling versions at ``/_sim/versions``)."""
    return SimApp(resolver, store)
