"""Opt-in patching, so clients that build their own sessions answer from the resolver.

Third-party API clients (OpenDartReader, neispy, …) make their own ``requests`` sessions,
``httpx`` clients or ``aiohttp`` sessions, with the real host names written into them.
Inside ``patched(resolver)`` every such request **to a catalog host** is answered by the
resolver; any other host (loopback included) goes out unchanged. Everything is restored on
exit, also when the block raises.

>>> from simulator import Resolver, Store                       # doctest: +SKIP
>>> from simulator.transports.patching import patched            # doctest: +SKIP
>>> import OpenDartReader                                        # doctest: +SKIP
>>> with patched(Resolver(Store().open("kopa"))):                 # doctest: +SKIP
...     dart = OpenDartReader("any-key")                         # doctest: +SKIP
...     dart.company("00126380")                                 # doctest: +SKIP

Patched entry points (each only where its library is installed):

* ``requests.adapters.HTTPAdapter.send`` (every session's default adapter);
* ``httpx.HTTPTransport.handle_request`` and ``httpx.AsyncHTTPTransport.handle_async_request``
  (every client's default transport);
* ``aiohttp.ClientSession._request`` (answers with a small stand-in response object that
  has ``status``, ``headers``, ``read``/``text``/``json``, ``raise_for_status`` and works
  as an async context manager);
* ``http.client.HTTPConnection.request`` / ``getresponse`` (and so ``HTTPSConnection`` and
  ``urllib.request.urlopen``, which opendart-client and other standard-library clients
  use): the answer is a real ``http.client.HTTPResponse`` read from the resolver's bytes.
  urllib3 (under requests) overrides both methods, so its traffic is not seen twice.
"""

from __future__ import annotations

import contextvars
import importlib.util
import json as _json
from collections.abc import Container, Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Callable

from ..adapters import CallCounter, raise_for_answer
from ..request import SimRequest, SimResponse

if TYPE_CHECKING:  # pragma: no cover
    from ..resolve import Resolver

__all__ = ["http_client_response", "passthrough", "patched", "rewrite_to_upstream", "upstream_url"]

_BYPASS: contextvars.ContextVar[bool] = contextvars.ContextVar("kopa_sim_bypass", default=False)


@contextmanager
def passthrough() -> Iterator[None]:
    """Inside this block, patched clients go to the network (used by live forwarders)."""
    token = _BYPASS.set(True)
    try:
        yield
    finally:
        _BYPASS.reset(token)


def _installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


@contextmanager
def _swap(owner: Any, attr: str, new: Any) -> Iterator[None]:
    old = owner.__dict__[attr]
    setattr(owner, attr, new)
    try:
        yield
    finally:
        setattr(owner, attr, old)


@contextmanager
def patched(
    resolver: Resolver,
    hosts: list[str] | None = None,
    *,
    episode: str | None = None,
    raise_on_miss: bool = True,
) -> Iterator[Resolver]:
    """Answer requests to ``hosts`` (default: every catalog host, and every other host the
    version holds recorded exchanges of) from ``resolver``.

    Args:
        resolver: the pinned version's resolver.
        hosts: host names to answer (lowercase, no port); others pass through.
        episode: episode id for seeded faults.
        raise_on_miss: raise ``ReplayMiss`` on a strict miss (else its 404 answer).

    Yields the resolver. Nested blocks work; each restores what it replaced.
    """
    if hosts is None:
        hosts = [*resolver.catalog.hosts(), *resolver.version.index.uncatalogued_hosts()]
    wanted = frozenset(h.lower() for h in hosts)

    def ours(host: str | None) -> bool:
        return not _BYPASS.get() and (host or "").lower() in wanted

    with ExitStack() as stack:
        if _installed("requests"):
            stack.enter_context(_patch_requests(resolver, ours, episode, raise_on_miss))
        if _installed("httpx"):
            stack.enter_context(_patch_httpx(resolver, ours, episode, raise_on_miss))
        if _installed("aiohttp"):
            stack.enter_context(_patch_aiohttp(resolver, ours, episode, raise_on_miss))
        stack.enter_context(_patch_http_client(resolver, ours, episode, raise_on_miss))
        yield resolver


# ---- requests ---------------------------------------------------------------------------
@contextmanager
def _patch_requests(
    resolver: Resolver, ours: Callable[[str | None], bool], episode: str | None, raise_on_miss: bool
) -> Iterator[None]:
    from urllib.parse import urlsplit

    import requests.adapters

    from .requests_adapter import SimAdapter

    adapter = SimAdapter(resolver, episode=episode, raise_on_miss=raise_on_miss)
    real_send = requests.adapters.HTTPAdapter.send

    def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        if ours(urlsplit(request.url or "").hostname):
            return adapter.send(request)
        return real_send(self, request, *args, **kwargs)

    with _swap(requests.adapters.HTTPAdapter, "send", send):
        yield


# ---- httpx ------------------------------------------------------------------------------
@contextmanager
def _patch_httpx(
    resolver: Resolver, ours: Callable[[str | None], bool], episode: str | None, raise_on_miss: bool
) -> Iterator[None]:
    import httpx

    from .httpx_transport import AsyncSimTransport, SimTransport

    sync = SimTransport(resolver, episode=episode, raise_on_miss=raise_on_miss)
    asyn = AsyncSimTransport(resolver, episode=episode, raise_on_miss=raise_on_miss)
    real_sync = httpx.HTTPTransport.handle_request
    real_async = httpx.AsyncHTTPTransport.handle_async_request

    def handle_request(self: Any, request: httpx.Request) -> httpx.Response:
        if ours(request.url.host):
            return sync.handle_request(request)
        return real_sync(self, request)

    async def handle_async_request(self: Any, request: httpx.Request) -> httpx.Response:
        if ours(request.url.host):
            return await asyn.handle_async_request(request)
        return await real_async(self, request)

    with _swap(httpx.HTTPTransport, "handle_request", handle_request), _swap(
        httpx.AsyncHTTPTransport, "handle_async_request", handle_async_request
    ):
        yield


# ---- aiohttp ----------------------------------------------------------------------------
def _content_type(resp: SimResponse) -> tuple[str, str | None]:
    raw = resp.header("content-type") or "application/octet-stream"
    mime, _, rest = raw.partition(";")
    charset = None
    for piece in rest.split(";"):
        k, _, v = piece.strip().partition("=")
        if k.lower() == "charset" and v:
            charset = v.strip('"')
    return mime.strip().lower(), charset


class _Stream:
    """Enough of ``aiohttp.StreamReader`` for clients that read ``response.content``."""

    def __init__(self, body: bytes) -> None:
        self._body = body
        self._pos = 0

    async def read(self, n: int = -1) -> bytes:
        end = len(self._body) if n < 0 else self._pos + n
        out = self._body[self._pos : end]
        self._pos += len(out)
        return out

    def at_eof(self) -> bool:
        return self._pos >= len(self._body)


class AiohttpSimResponse:
    """A stand-in for ``aiohttp.ClientResponse`` carrying a resolver answer."""

    def __init__(self, method: str, url: Any, resp: SimResponse, request_headers: Any) -> None:
        import aiohttp
        from multidict import CIMultiDict, CIMultiDictProxy

        self.method = method
        self.url = url
        self.real_url = url
        self.status = resp.status
        self.reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests"}.get(resp.status, "")
        self.headers = CIMultiDictProxy(CIMultiDict(resp.headers))
        self.content_type, self.charset = _content_type(resp)
        self.history: tuple[Any, ...] = ()
        self.request_info = aiohttp.RequestInfo(url, method, request_headers, url)
        self.content = _Stream(resp.body)
        self.closed = True
        self._body = resp.body

    @property
    def ok(self) -> bool:
        return self.status < 400

    def get_encoding(self) -> str:
        return self.charset or "utf-8"

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or self.get_encoding(), errors)

    async def json(
        self,
        *,
        encoding: str | None = None,
        loads: Callable[[str], Any] = _json.loads,
        content_type: str | None = "application/json",
    ) -> Any:
        import aiohttp

        if content_type and content_type not in self.content_type:
            raise aiohttp.ContentTypeError(
                self.request_info, self.history, status=self.status,
                message=f"Attempt to decode JSON with unexpected mimetype: {self.content_type}",
                headers=self.headers,
            )
        text = await self.text(encoding)
        return loads(text) if text.strip() else None

    def raise_for_status(self) -> None:
        import aiohttp

        if self.status >= 400:
            raise aiohttp.ClientResponseError(
                self.request_info, self.history, status=self.status, message=self.reason,
                headers=self.headers,
            )

    def release(self) -> None:
        """Nothing to release."""

    def close(self) -> None:
        """Nothing to close."""

    async def wait_for_close(self) -> None:
        """Nothing to wait for."""

    async def __aenter__(self) -> AiohttpSimResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


@contextmanager
def _patch_aiohttp(
    resolver: Resolver, ours: Callable[[str | None], bool], episode: str | None, raise_on_miss: bool
) -> Iterator[None]:
    import asyncio

    import aiohttp
    from multidict import CIMultiDict
    from yarl import URL

    real = aiohttp.ClientSession._request
    calls = CallCounter()

    def timeout(message: str) -> BaseException:
        return asyncio.TimeoutError(message)

    async def _request(self: Any, method: str, str_or_url: Any, *args: Any, **kwargs: Any) -> Any:
        build = getattr(self, "_build_url", None)
        url = build(str_or_url) if build is not None else URL(str(str_or_url))
        if not ours(url.host):
            return await real(self, method, str_or_url, *args, **kwargs)
        params = kwargs.get("params")
        if params:
            url = url.extend_query(params)
        headers = CIMultiDict(getattr(self, "_default_headers", None) or {})
        headers.update(kwargs.get("headers") or {})
        body = b""
        if kwargs.get("json") is not None:
            body = _json.dumps(kwargs["json"]).encode("utf-8")
        elif isinstance(kwargs.get("data"), (bytes, str)):
            data = kwargs["data"]
            body = data.encode("utf-8") if isinstance(data, str) else data
        sim = SimRequest.from_url(
            str(url), method=method, headers=[(k, str(v)) for k, v in headers.items()], body=body
        )
        res = calls.answer(resolver, sim, episode)
        raise_for_answer(res, timeout=timeout, raise_on_miss=raise_on_miss)
        return AiohttpSimResponse(method.upper(), url, res.response, headers)

    with _swap(aiohttp.ClientSession, "_request", _request):
        yield


# ---- http.client / urllib.request -------------------------------------------------------
class _BytesSocket:
    """What ``http.client.HTTPResponse`` reads a response from: ``makefile`` over bytes."""

    def __init__(self, raw: bytes) -> None:
        self._raw = raw

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> Any:
        import io

        return io.BytesIO(self._raw)


def http_client_response(resp: SimResponse, method: str = "GET") -> Any:
    """A real ``http.client.HTTPResponse`` carrying ``resp`` (status, headers, body).

    >>> r = http_client_response(SimResponse(200, [("content-type", "text/plain")], b"hi"))
    >>> (r.status, r.getheader("content-type"), r.read())
    (200, 'text/plain', b'hi')
    """
    import http.client
    from http import HTTPStatus

    try:
        reason = HTTPStatus(resp.status).phrase
    except ValueError:
        reason = ""
    lines = [f"HTTP/1.1 {resp.status} {reason}"]
    lines += [f"{k}: {v}" for k, v in resp.headers if k.lower() not in ("content-length", "transfer-encoding")]
    lines.append(f"content-length: {len(resp.body)}")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace")
    out = http.client.HTTPResponse(_BytesSocket(head + resp.body), method=method)  # type: ignore[arg-type]
    out.begin()
    return out


@contextmanager
def _patch_http_client(
    resolver: Resolver, ours: Callable[[str | None], bool], episode: str | None, raise_on_miss: bool
) -> Iterator[None]:
    import http.client
    import socket

    real_request = http.client.HTTPConnection.request
    real_getresponse = http.client.HTTPConnection.getresponse
    calls = CallCounter()
    pending_attr = "_kopa_sim_pending"

    def request(
        self: Any, method: str, url: str, body: Any = None, headers: Any = None, **kwargs: Any
    ) -> None:
        if getattr(self, "_tunnel_host", None) or not ours(self.host):
            return real_request(self, method, url, body, headers or {}, **kwargs)  # type: ignore[no-any-return]
        scheme = "https" if isinstance(self, http.client.HTTPSConnection) else "http"
        default_port = 443 if scheme == "https" else 80
        netloc = self.host if self.port in (None, default_port) else f"{self.host}:{self.port}"
        full = url if "://" in url else f"{scheme}://{netloc}{url if url.startswith('/') else '/' + url}"
        if isinstance(body, str):
            body = body.encode("iso-8859-1")
        elif body is not None and not isinstance(body, (bytes, bytearray)):
            body = body.read() if hasattr(body, "read") else b"".join(body)  # file or iterable
        hdrs = [(str(k), str(v)) for k, v in dict(headers or {}).items()]
        setattr(self, pending_attr, SimRequest.from_url(full, method=method, headers=hdrs, body=bytes(body or b"")))

    def getresponse(self: Any) -> Any:
        sim = self.__dict__.pop(pending_attr, None)
        if sim is None:
            return real_getresponse(self)
        res = calls.answer(resolver, sim, episode)
        raise_for_answer(res, timeout=socket.timeout, raise_on_miss=raise_on_miss)
        return http_client_response(res.response, sim.method)

    with _swap(http.client.HTTPConnection, "request", request), _swap(
        http.client.HTTPConnection, "getresponse", getresponse
    ):
        yield


# ---- upstream rewriting (recording against a sandbox) ------------------------------------
def upstream_url(url: str, upstream: str) -> str:
    """``https://host[:port]/path?q`` → ``{upstream}/host[:port]/path?q`` (the sandbox's routing).

    >>> upstream_url("https://opendart.fss.or.kr/api/list.json?a=1", "http://127.0.0.1:9")
    'http://127.0.0.1:9/opendart.fss.or.kr/api/list.json?a=1'
    """
    scheme, _, rest = url.partition("://")
    return upstream.rstrip("/") + "/" + rest


@contextmanager
def rewrite_to_upstream(hosts: list[str] | None, upstream: str) -> Iterator[None]:
    """Send requests for ``hosts`` to ``upstream`` instead (requests, httpx, aiohttp, urllib).

    Used when recording against a stand-in server (``simulator sandbox serve`` or
    ``simulator serve``), which routes ``GET /{upstream-host}/{path}``. ``hosts=None``: every
    host that is not loopback (a stand-in that answers any host, recorded exactly).
    """
    wanted: Container[str] = _RemoteHosts() if hosts is None else frozenset(h.lower() for h in hosts)
    with ExitStack() as stack:
        if _installed("requests"):
            from urllib.parse import urlsplit

            import requests.adapters

            real_send = requests.adapters.HTTPAdapter.send

            def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
                if (urlsplit(request.url or "").hostname or "").lower() in wanted:
                    request = request.copy()
                    request.url = upstream_url(request.url, upstream)
                return real_send(self, request, *args, **kwargs)

            stack.enter_context(_swap(requests.adapters.HTTPAdapter, "send", send))
        if _installed("httpx"):
            import httpx

            real_sync = httpx.HTTPTransport.handle_request
            real_async = httpx.AsyncHTTPTransport.handle_async_request

            def _moved(request: httpx.Request) -> httpx.Request:
                if (request.url.host or "").lower() not in wanted:
                    return request
                headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() != "host"]
                return httpx.Request(
                    request.method, upstream_url(str(request.url), upstream), headers=headers,
                    content=request.read(), extensions=request.extensions,
                )

            def handle_request(self: Any, request: httpx.Request) -> httpx.Response:
                return real_sync(self, _moved(request))

            async def handle_async_request(self: Any, request: httpx.Request) -> httpx.Response:
                await request.aread()
                return await real_async(self, _moved(request))

            stack.enter_context(_swap(httpx.HTTPTransport, "handle_request", handle_request))
            stack.enter_context(
                _swap(httpx.AsyncHTTPTransport, "handle_async_request", handle_async_request)
            )
        if _installed("aiohttp"):
            import aiohttp
            from yarl import URL

            real = aiohttp.ClientSession._request

            async def _request(self: Any, method: str, str_or_url: Any, *args: Any, **kwargs: Any) -> Any:
                build = getattr(self, "_build_url", None)
                url = build(str_or_url) if build is not None else URL(str(str_or_url))
                if (url.host or "").lower() in wanted:
                    str_or_url = URL(upstream_url(str(url), upstream))
                return await real(self, method, str_or_url, *args, **kwargs)

            stack.enter_context(_swap(aiohttp.ClientSession, "_request", _request))
        stack.enter_context(_rewrite_urllib(wanted, upstream))
        yield


class _RemoteHosts:
    """Every host name that is not loopback (``in`` tests a lowercased host)."""

    def __contains__(self, host: object) -> bool:
        from ..request import is_loopback

        return isinstance(host, str) and bool(host) and not is_loopback(host)


@contextmanager
def _rewrite_urllib(wanted: Container[str], upstream: str) -> Iterator[None]:
    """``urllib.request`` (``urlopen`` and every opener): URLs of ``wanted`` hosts go to
    ``upstream``, rewritten before the opener picks its HTTP or HTTPS handler."""
    import urllib.parse
    import urllib.request

    real_open = urllib.request.OpenerDirector.open

    def open_(self: Any, fullurl: Any, *args: Any, **kwargs: Any) -> Any:
        url = fullurl.full_url if isinstance(fullurl, urllib.request.Request) else str(fullurl)
        if (urllib.parse.urlsplit(url).hostname or "").lower() in wanted:
            moved = upstream_url(url, upstream)
            if isinstance(fullurl, urllib.request.Request):
                fullurl.full_url = moved
                fullurl.remove_header("Host")
            else:
                fullurl = moved
        return real_open(self, fullurl, *args, **kwargs)

    with _swap(urllib.request.OpenerDirector, "open", open_):
        yield
