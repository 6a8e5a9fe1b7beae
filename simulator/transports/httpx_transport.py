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

import httpx

from ..errors import ReplayMiss
from ..request import SimRequest, SimResponse
from ..resolve import Resolver

__all__ = ["AsyncSimTransport", "SimTransport", "to_sim_request"]


def to_sim_request(request: httpx.Request, body: bytes) -> SimRequest:
    url = request.url
    return SimRequest(
        method=request.method,
        host=(url.host or "").lower(),
        path=url.path,
        query=tuple(url.params.multi_items()),
        headers=tuple((k.lower(), v) for k, v in request.headers.items()),
        body=body,
        scheme=url.scheme,
        port=url.port,
    )


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
    return httpx.Response(
        resp.status, headers=resp.headers, content=resp.body, request=request
    )


class SimTransport(httpx.BaseTransport):
    """Answers every request of an ``httpx.Client`` from the resolver.

    Args:
        resolver: the pinned version's resolver.
        episode: episode id for seeded faults (a request's ``X-Sim-Episode`` header wins).
        raise_on_miss: raise ``ReplayMiss`` on a strict miss instead of returning its 404.
        apply_latency: sleep for injected latency faults (off: just the header).
    """

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

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        sim = to_sim_request(request, request.read())
        episode = request.headers.get("x-sim-episode", self.episode)
        resp = self.resolver.resolve(sim, episode=episode, call_index=self._calls.next(episode))
        if self.apply_latency and resp.header("x-sim-latency-ms"):
            time.sleep(int(resp.header("x-sim-latency-ms") or 0) / 1000)
        return _to_httpx(request, resp, self.raise_on_miss)


class AsyncSimTransport(httpx.AsyncBaseTransport):
    """The async twin of ``SimTransport`` (resolution is CPU-bound and runs inline)."""

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

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        sim = to_sim_request(request, await request.aread())
        episode = request.headers.get("x-sim-episode", self.episode)
        resp = self.resolver.resolve(sim, episode=episode, call_index=self._calls.next(episode))
        if self.apply_latency and resp.header("x-sim-latency-ms"):
            await asyncio.sleep(int(resp.header("x-sim-latency-ms") or 0) / 1000)
        return _to_httpx(request, resp, self.raise_on_miss)
