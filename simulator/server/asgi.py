"""The bits of raw ASGI both of our apps (the replay server and the sandbox) share."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

__all__ = ["Receive", "Scope", "Send", "serve_lifespan"]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def serve_lifespan(receive: Receive, send: Send) -> None:
    """Answer a lifespan scope: acknowledge startup and shutdown (nothing to set up)."""
    while True:
        msg = await receive()
        if msg["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif msg["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
