"""Run the server with uvicorn, with TCP_NODELAY on every connection, for any worker count.

uvicorn's own listening socket is created without ``IPPROTO_TCP``, so asyncio does not set
``TCP_NODELAY`` on the connections it accepts in worker processes; Nagle's algorithm plus
delayed ACKs then hold each response body ~40 ms behind its headers (measured: 2 workers
served 46 req/s over 2 connections, one worker 4,189). Binding the socket ourselves with the
protocol named fixes it for one worker and many.

The HTTP parser and event loop are uvicorn's ``auto`` choice: httptools and uvloop where they
are installed (``pip install 'kopa-sim[fast]'``), else h11 and asyncio; ``run(http=…, loop=…)``
(``simulator serve --http … --loop …``) picks one explicitly (the benchmark in
``perf/http.py`` measures both stacks).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import uvicorn

from ..errors import SimulatorError
from .limits import apply_limits

__all__ = ["run", "stack"]


def stack(http: str = "auto", loop: str = "auto") -> dict[str, str]:
    """The HTTP parser and event loop ``run(http=http, loop=loop)`` serves with (``auto``
    resolved)."""
    import importlib.util

    if http == "auto":
        http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    if loop == "auto":
        loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    return {"http": http, "loop": loop}


class _Config(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        family = socket.AF_INET6 if self.host and ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            raise
        sock.set_inheritable(True)
        return sock


def run(
    app: Any,
    *,
    host: str,
    port: int,
    workers: int = 1,
    http: str = "auto",
    loop: str = "auto",
    on_listening: Callable[[str, int], None] | None = None,
    **kwargs: Any,
) -> None:
    """Serve ``app`` until interrupted.

    With ``workers > 1`` the app goes to each worker process: an import string, or a
    picklable factory with ``factory=True`` (``functools.partial(build_app, config)``).
    The socket is bound and listening before ``on_listening(host, port)`` is called (with the
    port the system gave for ``port=0``): a client that connects once the banner is printed
    waits in the backlog while the app loads, instead of being refused.
    """
    kwargs["http"] = http
    header_timeout = apply_limits(kwargs)  # header-read deadline, keep-alive, concurrency
    config = _Config(app, host=host, port=port, workers=workers, loop=loop, **kwargs)
    config.header_timeout = header_timeout  # type: ignore[attr-defined]  # read by the protocol
    try:
        sock = config.bind_socket()
    except OSError as exc:  # a busy port, an address not on this machine: one line, not a traceback
        raise SimulatorError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}): pass another --port "
            "(--port 0 takes a free one), or stop the server that holds it"
        ) from None
    sock.listen(config.backlog)
    if on_listening is not None:
        on_listening(host, sock.getsockname()[1])
    if workers > 1:
        from uvicorn.supervisors import Multiprocess

        Multiprocess(config, sockets=[sock]).run()
    else:
        uvicorn.Server(config).run(sockets=[sock])
