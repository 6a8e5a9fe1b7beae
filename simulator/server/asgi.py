"""The bits of raw ASGI both of our apps (the replay server and the sandbox) share."""

from __future__ import annotations

from typing import Any, Awaitable, Callable
from urllib.parse import parse_qsl

__all__ = ["Receive", "Scope", "Send", "parse_query", "serve_lifespan"]

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


def parse_query(raw: str) -> tuple[tuple[str, str], ...]:
    """``tuple(parse_qsl(raw, keep_blank_values=True))``: the pairs in wire order, repeats kept.

    Without ``%`` or ``+`` there is nothing to decode: split directly (the same pairs).
    """
    if "%" in raw or "+" in raw:
        return tuple(parse_qsl(raw, keep_blank_values=True))
    out = []
    for pair in raw.split("&"):
        if pair:
            name, _eq, value = pair.partition("=")
            out.append((name, value))
    return tuple(out)
