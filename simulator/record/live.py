"""The live client: builds real requests from catalog params, paces, retries, never logs keys."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

import httpx

from ..catalog import Catalog, Endpoint, build_request
from ..errors import RecordError
from ..request import SimRequest, SimResponse
from ..secrets import redact_url

__all__ = ["LiveClient", "RetryPolicy", "key_env_of"]


def key_env_of(catalog: Catalog, ep: Endpoint) -> str:
    """The variable holding ``ep``'s key: the endpoint's ``key_env`` option, else its platform's.

    >>> from simulator.catalog import load_catalog
    >>> cat = load_catalog()
    >>> key_env_of(cat, cat.endpoint("seoul_subway_arrivals")), key_env_of(cat, cat.endpoint("seoul_public_library"))
    ('KOPA_KEY_SEOUL_SUBWAY', 'KOPA_KEY_SEOUL')
    """
    own = ep.opt("key_env")
    return str(own) if own else catalog.platforms[ep.platform].key_env


@dataclass
class RetryPolicy:
    attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 20.0


@dataclass
class LiveClient:
    """Fetches from the live hosts, or from ``upstream`` (a sandbox: ``{upstream}/{host}{path}``).

    Args:
        catalog: for scheme and key placement.
        keys: platform id → key (from ``KOPA_KEY_*`` environment variables); an endpoint id
            may also be a key here, for an endpoint that names its own ``key_env`` in its
            options (the Seoul real-time subway API), and wins over its platform's key.
        upstream: base URL of a stand-in server; None for the real hosts.
        rate_per_sec: platform id (or ``default``) → max requests per second.
        retry: backoff policy for transient failures.
        rng: jitter source (seeded for reproducible tests).
        sleep: injectable sleep (tests pass a no-op).
    """

    catalog: Catalog
    keys: dict[str, str]
    upstream: str | None = None
    rate_per_sec: dict[str, float] = field(default_factory=lambda: {"default": 5.0})
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    sleep: Callable[[float], None] = time.sleep
    timeout: float = 30.0
    log: Callable[[str], None] = lambda _msg: None
    _last: dict[str, float] = field(default_factory=dict)
    _client: httpx.Client | None = None
    calls: int = 0

    def __post_init__(self) -> None:
        self._client = httpx.Client(timeout=self.timeout, follow_redirects=False,
                                    headers={"user-agent": "kopa-sim-recorder/0.1"})

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def __enter__(self) -> LiveClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def key_for(self, ep: Endpoint) -> str | None:
        """The key for ``ep``: its own (``keys[endpoint id]``) first, else its platform's."""
        return self.keys.get(ep.id) or self.keys.get(ep.platform)

    def key_env_for(self, ep: Endpoint) -> str:
        """The environment variable ``ep``'s key comes from (for messages)."""
        return key_env_of(self.catalog, ep)

    def _pace(self, platform: str) -> None:
        rate = self.rate_per_sec.get(platform, self.rate_per_sec.get("default", 5.0))
        if rate <= 0:
            return
        gap = 1.0 / rate
        now = time.monotonic()
        wait = self._last.get(platform, 0.0) + gap - now
        if wait > 0:
            self.sleep(wait)
        self._last[platform] = time.monotonic()

    def url_of(self, req: SimRequest) -> str:
        if self.upstream is None:
            return req.url
        netloc = req.host if req.port is None else f"{req.host}:{req.port}"
        return self.upstream.rstrip("/") + "/" + netloc + req.url.split(netloc, 1)[1]

    def send(self, req: SimRequest, platform: str) -> SimResponse:
        """One request with pacing; transport failures raise ``httpx.HTTPError``."""
        assert self._client is not None
        self._pace(platform)
        self.calls += 1
        r = self._client.request(req.method, self.url_of(req), headers=dict(req.headers) or None)
        return SimResponse(r.status_code, [(k.lower(), v) for k, v in r.headers.items()], r.content)

    def fetch(
        self,
        ep: Endpoint,
        params: Mapping[str, str],
        check: Callable[[SimResponse], str | None],
    ) -> tuple[SimRequest, SimResponse]:
        """Fetch with retries. ``check`` classifies an answer: None (good), ``"retry"``
        (transient: 5xx, rate limit, truncated), or a message for a permanent failure."""
        scheme = self.catalog.platforms[ep.platform].scheme
        req = build_request(ep, params, self.key_for(ep), scheme)
        last = ""
        for attempt in range(self.retry.attempts):
            try:
                resp = self.send(req, ep.platform)
            except httpx.HTTPError as exc:
                verdict: str | None = "retry"
                last = f"{type(exc).__name__}"
            else:
                verdict = check(resp)
                if verdict is None:
                    return req, resp
                last = f"HTTP {resp.status}" if verdict == "retry" else verdict
                if verdict != "retry":
                    raise RecordError(
                        f"{ep.id}: {verdict} for {redact_url(req, self.catalog)}; nothing was "
                        f"published. Check the key in ${self.key_env_for(ep)}"
                    )
            delay = min(self.retry.max_delay, self.retry.base_delay * 2**attempt)
            delay *= 0.5 + self.rng.random()
            self.log(f"retry {attempt + 1}/{self.retry.attempts} {ep.id} after {last} in {delay:.1f}s")
            self.sleep(delay)
        raise RecordError(
            f"{ep.id}: gave up after {self.retry.attempts} attempts ({last}) for "
            f"{redact_url(req, self.catalog)}; nothing was published. Rerun the same command "
            "to resume from the checkpoint"
        )
