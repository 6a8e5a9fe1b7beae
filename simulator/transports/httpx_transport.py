"""httpx transports over the resolver, in the style of ``httpx.MockTransport``.

>>> import httpx
>>> from simulator import Store, Resolver, SimTransport           # doctest: +SKIP
>>> client = httpx.Client(transport=SimTransport(Resolver(Store().open("kopa"))))  # doctest: +SKIP
>>> client.get("https://apis.data.go.kr/1613000/...")               # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from ..adapters import CallCounter, latency_of, raise_for_answer
from ..request import SimRequest
from ..request import parse_query as _parse_query
from ..resolve import Resolution, Resolver

__all__ = ["AsyncSimTransport", "SimTransport", "to_sim_request"]


def to_sim_request(
    request: httpx.Request,
    body: bytes,
    headers_memo: dict[tuple[Any, ...], tuple[tuple[str, str], ...]] | None = None,
) -> SimRequest:
    """The resolver's view of an ``httpx`` request (query in wire order, as ``from_url``).

    ``headers_memo`` keeps converted header sets (clients send the same few again and again).
    """
    url = request.url
    # ``url.host`` decodes IDNA labels (microseconds); an ASCII host without "xn--" is its
    # raw bytes, lowercased, the same text.
    raw_host = url.raw_host.decode("ascii").lower()
    host = raw_host if "xn--" not in raw_host else (url.host or "").lower()
    return SimRequest.trusted(
        request.method,
        host,
        url.path,
        _parse_query(url.query.decode("ascii")),
        _headers_of(request.headers, headers_memo),
        body,
        url.scheme,
        url.port,
    )


#: Distinct request header sets a transport keeps converted (a client sends a handful).
REQUEST_HEADERS_KEPT = 256


def _headers_of(
    headers: httpx.Headers,
    memo: dict[tuple[Any, ...], tuple[tuple[str, str], ...]] | None = None,
) -> tuple[tuple[str, str], ...]:
    """``tuple((k.lower(), v) for k, v in headers.items())``, memoised by the raw entries.

    ``items()`` decodes every name and value (and joins repeated names); the result depends
    only on the raw entries and the encoding, the memo's key. The memo is a plain dict (its
    reads and writes are atomic; a race converts one set twice), emptied when full.
    """
    if memo is None:
        return tuple((k.lower(), v) for k, v in headers.items())
    key = (headers.encoding, *headers.raw)
    kept = memo.get(key)
    if kept is None:
        if len(memo) >= REQUEST_HEADERS_KEPT:
            memo.clear()
        kept = memo[key] = tuple((k.lower(), v) for k, v in headers.items())
    return kept


#: Distinct answer header lists whose ``httpx.Headers`` a transport keeps (a version's answers
#: share a handful: content type, source, version).
HEADERS_KEPT = 256


def _to_httpx(
    request: httpx.Request,
    res: Resolution,
    raise_on_miss: bool,
    headers_memo: dict[tuple[tuple[str, str], ...], httpx.Headers] | None = None,
) -> httpx.Response:
    """The ``httpx.Response`` for ``res`` (httpx's public constructor), or the client's
    exception for an injected timeout or a strict miss.

    ``headers_memo`` keeps the ``httpx.Headers`` built for each distinct header list:
    ``Response`` copies a ``Headers`` it is given instead of normalising every name and
    value again (the same headers, in the same order).
    """
    if res.fault is not None or res.miss is not None:

        def timeout(message: str) -> BaseException:
            return httpx.ReadTimeout(message, request=request)

        raise_for_answer(res, timeout=timeout, raise_on_miss=raise_on_miss)
    resp = res.response
    headers: list[tuple[str, str]] | httpx.Headers = resp.headers
    if headers_memo is not None:
        key = tuple(resp.headers)
        kept = headers_memo.get(key)
        if kept is None:
            if len(headers_memo) >= HEADERS_KEPT:
                headers_memo.clear()
            kept = headers_memo[key] = httpx.Headers(resp.headers)
        headers = kept
    return httpx.Response(resp.status, headers=headers, content=resp.body, request=request)


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
        self._calls = CallCounter()
        self._headers: dict[tuple[Any, ...], tuple[tuple[str, str], ...]] = {}
        # Answer header lists → their httpx.Headers (``_to_httpx``); plain dict reads and
        # writes are atomic, and a race only builds one twice.
        self._answer_headers: dict[tuple[tuple[str, str], ...], httpx.Headers] = {}

    def _answer(self, request: httpx.Request, body: bytes) -> tuple[Resolution, float | None]:
        """The resolver's answer to ``request`` and the seconds to wait (None: none)."""
        sim = to_sim_request(request, body, self._headers)
        resp = self._calls.answer(self.resolver, sim, self.episode)
        return resp, (latency_of(resp) if self.apply_latency else None)


class SimTransport(_SimTransportBase, httpx.BaseTransport):
    """Answers every request of an ``httpx.Client`` from the resolver.

    Args:
        resolver: the pinned version's resolver.
        episode: episode id for seeded faults (a non-empty ``X-Sim-Episode`` header wins; a
            request's ``X-Sim-Call: N`` header gives its call index; ``simulator.adapters``).
        raise_on_miss: raise ``ReplayMiss`` on a strict miss instead of returning its 404.
        apply_latency: sleep for injected latency faults (off: just the header).
    """

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        # ``_answer``, inlined (every request pays it)
        sim = to_sim_request(request, request.read(), self._headers)
        resp = self._calls.answer(self.resolver, sim, self.episode)
        if self.apply_latency:
            delay = latency_of(resp)
            if delay is not None:
                time.sleep(delay)
        return _to_httpx(request, resp, self.raise_on_miss, self._answer_headers)


class AsyncSimTransport(_SimTransportBase, httpx.AsyncBaseTransport):
    """The async twin of ``SimTransport`` (resolution is CPU-bound and runs inline)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        resp, delay = self._answer(request, await request.aread())
        if delay is not None:
            await asyncio.sleep(delay)
        return _to_httpx(request, resp, self.raise_on_miss, self._answer_headers)
