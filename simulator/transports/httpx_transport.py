"""httpx transports over the resolver, in the style of ``httpx.MockTransport``.

>>> import httpx
>>> from simulator import Store, Resolver, SimTransport           # doctest: +SKIP
>>> client = httpx.Client(transport=SimTransport(Resolver(Store().open("kopa"))))  # doctest: +SKIP
>>> client.get("https://apis.data.go.kr/1613000/...")               # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
from httpx._content import ByteStream

from ..errors import ReplayMiss
from ..request import SimRequest, SimResponse
from ..request import parse_query as _parse_query
from ..resolve import Resolver

__all__ = ["AsyncSimTransport", "SimTransport", "to_sim_request"]


def to_sim_request(request: httpx.Request, body: bytes) -> SimRequest:
    """The resolver's view of an ``httpx`` request (query in wire order, as ``from_url``)."""
    url = request.url
    return SimRequest(
        method=request.method,
        host=(url.host or "").lower(),
        path=url.path,
        query=_parse_query(url.query.decode("ascii")),
        headers=_headers_of(request.headers),
        body=body,
        scheme=url.scheme,
        port=url.port,
    )


#: httpx's header entries → ``SimRequest.headers`` (clients send the same few header sets).
_HEADERS_MEMO: dict[tuple[Any, ...], tuple[tuple[str, str], ...]] = {}
_HEADERS_MEMO_MAX = 256


def _headers_of(headers: httpx.Headers) -> tuple[tuple[str, str], ...]:
    """``tuple((k.lower(), v) for k, v in headers.items())``, memoised by the raw entries.

    ``items()`` decodes every name and value (and joins repeated names) on each call; the
    result depends only on httpx's raw entries and an explicitly set encoding, the key here.
    """
    entries = getattr(headers, "_list", None)
    if not isinstance(entries, list):
        return tuple((k.lower(), v) for k, v in headers.items())
    key = (getattr(headers, "_encoding", None), *entries)
    out = _HEADERS_MEMO.get(key)
    if out is None:
        out = tuple((k.lower(), v) for k, v in headers.items())
        if len(_HEADERS_MEMO) >= _HEADERS_MEMO_MAX:
            _HEADERS_MEMO.clear()
        _HEADERS_MEMO[key] = out
    return out


class _Calls:
    """Per-episode call counters (the fault hash input), thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._n: dict[str | None, int] = {}

    def next(self, episode: str | None) -> int:
        with self._lock:
            i = self._n.get(episode, 0)
            self._n[episode] = i + 1
            return i


def _to_httpx(request: httpx.Request, resp: SimResponse, raise_on_miss: bool) -> httpx.Response:
    if resp.header("x-sim-fault") == "timeout":
        raise httpx.ReadTimeout("injected timeout (kopa-sim seeded fault)", request=request)
    if raise_on_miss and resp.header("x-sim-error") == "replay_miss":
        import json

        err = json.loads(resp.body)["error"]
        raise ReplayMiss(err["message"], nearest=err.get("nearest"))
    if _PRELOADED_OK:
        return _preloaded_response(request, resp.status, resp.headers, resp.body)
    return httpx.Response(
        resp.status, headers=resp.headers, content=resp.body, request=request
    )


def _preloaded_response(
    request: httpx.Request | None, status: int, headers: list[tuple[str, str]], body: bytes
) -> httpx.Response:
    """``httpx.Response(status, headers=headers, content=body, request=request)``, the same
    object, without streaming the body through httpx's decoders into itself (a third of
    the transport's time).

    ``Response(content=...)`` adds ``Content-Length`` and reads its own one-chunk stream;
    this sets the state that read leaves. Used only when a probe at import finds the two
    identical (``_PRELOADED_OK``) and never for an encoded body (which httpx would decode).
    """
    prepared = _prepared_headers(headers)
    if prepared is None:
        return httpx.Response(status, headers=headers, content=body, request=request)
    base, sized = prepared
    h = httpx.Headers(base)  # a copy of the prepared entries
    if not sized and body:
        h._list.append((b"Content-Length", b"content-length", str(len(body)).encode("ascii")))
    r = httpx.Response(status, headers=h, stream=ByteStream(body), request=request)
    r._content = body
    r.is_stream_consumed = True
    r.is_closed = True
    return r


#: A response's header list → (its ``httpx.Headers``, whether it names a length), or None
#: where it has ``Content-Encoding`` (httpx must decode that body itself).
_PREPARED: dict[tuple[tuple[str, str], ...], tuple[httpx.Headers, bool] | None] = {}
_PREPARED_MAX = 1024


def _prepared_headers(headers: list[tuple[str, str]]) -> tuple[httpx.Headers, bool] | None:
    key = tuple(headers)
    try:
        return _PREPARED[key]
    except KeyError:
        pass
    out: tuple[httpx.Headers, bool] | None
    names = {k.lower() for k, _v in headers}
    if "content-encoding" in names:
        out = None
    else:
        out = (httpx.Headers(headers), "content-length" in names)
    if len(_PREPARED) >= _PREPARED_MAX:
        _PREPARED.clear()
    _PREPARED[key] = out
    return out


_UNCOMPARED = ("stream", "headers", "_decoder")


def _preloaded_matches_httpx() -> bool:
    """Whether ``_preloaded_response`` builds what ``httpx.Response(content=...)`` does."""
    try:
        req = httpx.Request("GET", "https://example.invalid/probe?q=1")
        for headers, body in (
            ([("content-type", "application/json"), ("x-sim-source", "exact")], b'{"a":1}'),
            ([("content-type", "text/plain"), ("content-length", "2")], b"ok"),
            ([("x-sim-source", "error")], b""),
        ):
            want = httpx.Response(200, headers=headers, content=body, request=req)
            got = _preloaded_response(req, 200, headers, body)
            # ``_decoder`` is a lazy cache, unused once the content is read.
            state = lambda r: {k: v for k, v in vars(r).items() if k not in _UNCOMPARED}  # noqa: E731
            if (
                state(want) != state(got)
                or want.headers.raw != got.headers.raw
                or want.headers.encoding != got.headers.encoding
                or type(want.stream) is not type(got.stream)
                or want.content != got.content
                or list(want.iter_bytes()) != list(got.iter_bytes())
            ):
                return False
        return True
    except Exception:  # noqa: BLE001 - any difference in httpx: use its own constructor
        return False


_PRELOADED_OK = _preloaded_matches_httpx()


class _SimTransportBase:
    """What the sync and async transports share: settings, call counters, the answer."""

    def __init__(
        self,
        resolver: Resolver,
        *,
        episode: str | None = None,
        raise_on_miss: bool = True,
        apply_latency: bool = False,
    ) -> None:
        self.resolver = resolver
        self.episode = episode
        self.raise_on_miss = raise_on_miss
        self.apply_latency = apply_latency
        self._calls = _Calls()

    def _answer(self, request: httpx.Request, body: bytes) -> tuple[SimResponse, float | None]:
        """The resolver's answer to ``request`` and the seconds to wait (None: none)."""
        sim = to_sim_request(request, body)
        sent = sim.header("x-sim-episode")  # as ``request.headers.get`` reads it
        episode = self.episode if sent is None else sent
        resp = self.resolver.resolve(sim, episode=episode, call_index=self._calls.next(episode))
        delay = None
        if self.apply_latency and resp.header("x-sim-latency-ms"):
            delay = int(resp.header("x-sim-latency-ms") or 0) / 1000
        return resp, delay


class SimTransport(_SimTransportBase, httpx.BaseTransport):
    """Answers every request of an ``httpx.Client`` from the resolver.

    Args:
        resolver: the pinned version's resolver.
        episode: episode id for seeded faults (a request's ``X-Sim-Episode`` header wins).
        raise_on_miss: raise ``ReplayMiss`` on a strict miss instead of returning its 404.
        apply_latency: sleep for injected latency faults (off: just the header).
    """

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        resp, delay = self._answer(request, request.read())
        if delay is not None:
            time.sleep(delay)
        return _to_httpx(request, resp, self.raise_on_miss)


class AsyncSimTransport(_SimTransportBase, httpx.AsyncBaseTransport):
    """The async twin of ``SimTransport`` (resolution is CPU-bound and runs inline)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        resp, delay = self._answer(request, await request.aread())
        if delay is not None:
            await asyncio.sleep(delay)
        return _to_httpx(request, resp, self.raise_on_miss)
