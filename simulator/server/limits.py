"""Connection limits for ``simulator serve``: a header-read deadline, keep-alive and concurrency.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) and answers 503 past
``limit_concurrency``, but it never times out a connection that is still sending its request
head: 200 sockets that connect and then trickle (or send nothing) were never closed. The
protocols here add that deadline: a connection must finish each request's headers within
``HEADER_TIMEOUT`` seconds of connecting (or of its previous response), or it is closed.

Defaults (``serve_limits``): headers within 10 s, idle keep-alive 5 s, 1,024 concurrent
connections and tasks, request heads up to 32 KiB (above the server's own 16 KiB target limit,
which answers a documented 414).

A client may half-close its socket once its request is sent (``shutdown(SHUT_WR)``, as
``nc -N`` and some load testers do). uvicorn's protocols let asyncio close the connection on that
end-of-file, so an answer still being computed (a window render in a worker thread) was dropped:
these protocols keep the connection open for the request in progress, answer it, then close.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_TIMEOUT", "GuardedH11Protocol", "apply_limits", "guarded_protocol", "serve_limits"]

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5
LIMIT_CONCURRENCY = 1024
MAX_HEAD = 32 << 10


class _HeaderDeadline:
    """Mixin for a uvicorn HTTP protocol: close a connection whose request head is late."""

    cycle: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)  # type: ignore[call-arg]
        self.header_timeout = float(getattr(config, "header_timeout", HEADER_TIMEOUT))
        self._deadline: asyncio.TimerHandle | None = None
        self._half_closed = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        if self.header_timeout > 0:
            self._deadline = self.loop.call_later(self.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        busy = self.cycle is not None and not self.cycle.response_complete
        if not busy and not self.transport.is_closing():
            self.transport.close()  # no complete request head in time

    def eof_received(self) -> bool | None:
        """The client will send nothing more: answer the request in progress, then close
        (``True`` keeps the transport half-open; ``None`` lets asyncio close it at once)."""
        if self.cycle is not None and not self.cycle.response_complete:
            self._half_closed = True
            return True
        return None

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if self._half_closed:
            self._disarm()
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a pipelined request sent before the end-of-file is still answering
            if not self.transport.is_closing():
                self.transport.close()  # written data is flushed before the socket closes
            return
        self._arm()  # the next request's head has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]


class GuardedH11Protocol(_HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with a header-read deadline."""


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpToolsProtocol(_HeaderDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol with a header-read deadline."""

except ImportError:  # httptools not installed
    GuardedHttpToolsProtocol = None  # type: ignore[assignment,misc]


def guarded_protocol(http: str) -> type:
    """The guarded protocol class for ``http`` (``h11`` or ``httptools``)."""
    if http == "httptools" and GuardedHttpToolsProtocol is not None:
        return GuardedHttpToolsProtocol
    return GuardedH11Protocol


def serve_limits() -> dict[str, Any]:
    """uvicorn options every ``simulator serve`` runs with (callers may override each)."""
    return {
        "timeout_keep_alive": KEEP_ALIVE,
        "limit_concurrency": LIMIT_CONCURRENCY,
        "h11_max_incomplete_event_size": MAX_HEAD,
    }


def apply_limits(kwargs: dict[str, Any]) -> float:
    """Fill uvicorn ``kwargs`` with ``serve_limits`` and a guarded ``http`` protocol (from its
    ``"auto"``/``"h11"``/``"httptools"`` name); returns the header timeout to set on the
    config (``header_timeout`` in ``kwargs``, popped, else ``HEADER_TIMEOUT``)."""
    import importlib.util

    for key, value in serve_limits().items():
        kwargs.setdefault(key, value)
    http = kwargs.get("http", "auto")
    if isinstance(http, str):
        if http == "auto":
            http = "httptools" if importlib.util.find_spec("httptools") else "h11"
        kwargs["http"] = guarded_protocol(http)
    return float(kwargs.pop("header_timeout", HEADER_TIMEOUT))
