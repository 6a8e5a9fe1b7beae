"""A ``requests`` transport adapter answering from the resolver (DESIGN §6).

>>> import requests                                          # doctest: +SKIP
>>> from simulator import Resolver, Store                    # doctest: +SKIP
>>> from simulator.transports.requests_adapter import SimAdapter, mount  # doctest: +SKIP
>>> session = requests.Session()                             # doctest: +SKIP
>>> mount(session, SimAdapter(Resolver(Store().open("kopa"))))  # every catalog host  # doctest: +SKIP
>>> session.get("https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K")  # doctest: +SKIP

``requests`` is optional (``pip install 'kopa-sim[requests]'``); this module imports it
only in this module, which nothing else in the package imports.
"""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ..adapters import CallCounter, latency_of, raise_for_answer
from ..request import SimRequest

INSTALL_HINT = "pip install 'kopa-sim[requests]'"

try:
    import requests
    import requests.adapters
    from requests.structures import CaseInsensitiveDict
except ImportError as _exc:  # pragma: no cover - exercised by a test that hides the module
    raise ImportError(
        f"simulator.transports.requests_adapter needs the 'requests' package: {INSTALL_HINT}"
    ) from _exc

if TYPE_CHECKING:  # pragma: no cover
    from ..resolve import Resolution, Resolver

__all__ = ["INSTALL_HINT", "SimAdapter", "mount", "to_sim_request"]


def to_sim_request(prepared: requests.PreparedRequest) -> SimRequest:
    """The resolver's view of a prepared ``requests`` request."""
    parts = urlsplit(prepared.url or "")
    body = prepared.body
    if body is None:
        raw = b""
    elif isinstance(body, str):
        raw = body.encode("utf-8")
    elif isinstance(body, (bytes, bytearray)):
        raw = bytes(body)
    else:  # a file or generator body: read it whole (the Korean APIs are GETs)
        raw = b"".join(
            c if isinstance(c, bytes) else str(c).encode("utf-8") for c in body  # type: ignore[union-attr]
        )
    return SimRequest(
        method=(prepared.method or "GET").upper(),
        host=(parts.hostname or "").lower(),
        path=unquote(parts.path or "/"),
        query=tuple(parse_qsl(parts.query, keep_blank_values=True)),
        headers=tuple((k.lower(), str(v)) for k, v in (prepared.headers or {}).items()),
        body=raw,
        scheme=parts.scheme or "https",
        port=parts.port,
    )


def _charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    for piece in content_type.split(";")[1:]:
        name, _, value = piece.strip().partition("=")
        if name.strip().lower() == "charset" and value:
            return value.strip().strip('"')
    return None


class SimAdapter(requests.adapters.BaseAdapter):
    """Answers a ``requests.Session``'s requests from the resolver.

    Mount it on the prefixes to answer (``mount(session, adapter)`` mounts every catalog
    host, on both schemes).

    Args:
        resolver: the pinned version's resolver.
        episode: episode id for seeded faults (a non-empty ``X-Sim-Episode`` header wins; a
            request's ``X-Sim-Call: N`` header gives its call index; ``simulator.adapters``).
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
        super().__init__()
        self.resolver = resolver
        self.episode = episode
        self.raise_on_miss = raise_on_miss
        self.apply_latency = apply_latency
        self._calls = CallCounter()

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Any = None,
    ) -> requests.Response:
        """Resolve ``request`` (the ``BaseAdapter`` signature; network options are ignored)."""
        resp = self._calls.answer(self.resolver, to_sim_request(request), self.episode)
        return self.build_response(request, resp)

    def build_response(self, request: requests.PreparedRequest, res: Resolution) -> requests.Response:
        """A ``requests.Response`` for ``res`` (faults and strict misses as configured)."""

        def timeout(message: str) -> BaseException:
            return requests.exceptions.ReadTimeout(message, request=request)

        raise_for_answer(res, timeout=timeout, raise_on_miss=self.raise_on_miss)
        delay = latency_of(res) if self.apply_latency else None
        resp = res.response
        if delay is not None:
            time.sleep(delay)
        out = requests.Response()
        out.status_code = resp.status
        out.headers = CaseInsensitiveDict(resp.headers)
        out.raw = io.BytesIO(resp.body)
        out._content = resp.body  # the whole body is known: no streaming needed
        out._content_consumed = True
        out.url = request.url or ""
        out.encoding = _charset(resp.header("content-type"))
        out.reason = _REASONS.get(resp.status, "")
        out.request = request
        out.connection = self
        return out

    def close(self) -> None:
        """Nothing to release."""


_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
            404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
            503: "Service Unavailable", 504: "Gateway Timeout"}

def mount(session: requests.Session, adapter: Any, hosts: list[str] | None = None) -> requests.Session:
    """Mount ``adapter`` on ``session`` for ``hosts`` (default: every catalog host), both schemes.

    ``hosts=["*"]`` mounts it on every ``https://`` and ``http://`` URL.
    """
    if hosts is None:
        hosts = adapter.resolver.catalog.hosts()
    for host in hosts:
        if host == "*":
            session.mount("https://", adapter)
            session.mount("http://", adapter)
            continue
        # A host with a port (openapi.seoul.go.kr:8088) must match too: mount "host:" as well.
        for scheme in ("https", "http"):
            session.mount(f"{scheme}://{host}/", adapter)
            session.mount(f"{scheme}://{host}:", adapter)
            session.mount(f"{scheme}://{host}?", adapter)
    return session
