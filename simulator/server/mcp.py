"""An MCP server over the resolver: every catalog endpoint is a typed tool (``simulator mcp``).

Tool name = endpoint id, description = its summary, ``inputSchema`` = the parameters of
``Endpoint.tool_schema()`` (auth and format parameters hidden: keys are never asked of the
model). A call goes through :mod:`simulator.tools` (the endpoint's real request with a dummy
key, resolved against the pinned version) and returns the native body as text. The
first line of the text names the tier that answered (``x-sim-source: exact|window|query|…``)
and the same data is in the result's ``_meta`` (``kopa/source``, ``kopa/status``,
``kopa/version``).

Transports: stdio (``run_stdio``) and streamable HTTP (``http_app`` / ``run_http``).
Needs the ``mcp`` extra (``pip install 'kopa-sim[mcp]'``; written for ``mcp`` 2.x).
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from ..catalog import Catalog, load_catalog
from ..resolve import Resolver
from ..tools import DUMMY_KEY
from ..tools import call_tool as _call

__all__ = ["DUMMY_KEY", "ToolCall", "build_server", "call_tool", "http_app", "list_tools", "run_http", "run_stdio"]

def list_tools(catalog: Catalog, platforms: list[str] | None = None) -> list[types.Tool]:
    """The MCP tools of the catalog (same data as ``simulator tools --format mcp``)."""
    out = []
    for s in catalog.tools(platforms=platforms):
        f = s["function"]
        out.append(types.Tool(name=f["name"], description=f["description"], input_schema=f["parameters"]))
    return out


class ToolCall:
    """The answer to one tool call: native body text, status and the tier that answered."""

    def __init__(self, text: str, status: int, source: str, version: str, error: bool) -> None:
        self.text = text
        self.status = status
        self.source = source
        self.version = version
        self.error = error

    def result(self) -> types.CallToolResult:
        meta = {"kopa/source": self.source, "kopa/status": self.status, "kopa/version": self.version}
        header = f"x-sim-source: {self.source}  status: {self.status}\n"
        return types.CallToolResult(
            content=[types.TextContent(text=header + self.text)], is_error=self.error, _meta=meta
        )


def call_tool(resolver: Resolver, name: str, arguments: dict[str, Any] | None, *, scheme: str | None = None) -> ToolCall:
    """Answer tool ``name`` with ``arguments`` from the resolver (never raises for bad input).

    The call itself is :func:`simulator.tools.call_tool` (its rules: left-out ranges read the
    first page, ZIP bodies are shown unzipped).
    """
    obs = _call(resolver, name, arguments, scheme=scheme)
    version = resolver.version.content_hash
    if obs.request is None:  # refused before any request
        return ToolCall(obs.text, obs.status, "error", version, True)
    source = obs.source or "unknown"
    error = obs.status >= 400 or source in ("error", "miss", "fault")
    return ToolCall(obs.text, obs.status, source, version, error)


def build_server(resolver: Resolver, *, platforms: list[str] | None = None, name: str = "kopa-sim") -> Server[Any]:
    """The low-level MCP server answering every catalog endpoint's tool from ``resolver``."""
    tools = list_tools(resolver.catalog, platforms)
    names = {t.name for t in tools}

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in names:
            return ToolCall(
                f"unknown tool {params.name!r}", 404, "error", resolver.version.content_hash, True
            ).result()
        return call_tool(resolver, params.name, params.arguments).result()

    return Server(
        name,
        version=_version(),
        instructions=(
            "Korean public open APIs replayed from a pinned kopa-sim cassette version. "
            "Each tool is one API endpoint; answers are the platform's native bodies. "
            f"Version {resolver.version.id} ({resolver.version.content_hash[:12]})."
        ),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


def _version() -> str:
    from .. import __version__

    return __version__


def unreadable_reply(line: str) -> types.JSONRPCError | None:
    """The JSON-RPC error answering a stdin line the SDK cannot read, or None for no answer.

    The SDK drops such a line without a word (a request holding a lone surrogate such as
    ``"\\ud800"``, which strict JSON refuses, or one of the wrong shape), so its client would
    wait forever; over HTTP the same message gets a 400. A request with a readable id gets
    ``-32602 invalid params`` (or ``-32600`` when it is no request at all), unparseable text
    ``-32700 parse error`` with id null; a notification or a response is not answered.

    >>> unreadable_reply('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "\\ud800"}}').error.code
    -32602
    >>> unreadable_reply('{"jsonrpc": "2.0", "method": "notifications/x", "params": "\\ud800"}') is None
    True
    """
    import json

    try:
        msg = json.loads(line)  # the stdlib reads lone surrogates, so the id can still be found
    except (ValueError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else "the line is not JSON"
        return types.JSONRPCError(
            jsonrpc="2.0", id=None, error=types.ErrorData(code=types.PARSE_ERROR, message=f"Parse error: {why}"),
        )
    if not isinstance(msg, dict):
        return types.JSONRPCError(
            jsonrpc="2.0", id=None,
            error=types.ErrorData(code=types.INVALID_REQUEST, message="Invalid request: not a JSON-RPC object"),
        )
    if "method" not in msg or "id" not in msg:
        return None  # a notification or a response: JSON-RPC answers neither
    rid = msg["id"]
    readable = (isinstance(rid, int) and not isinstance(rid, bool)) or (
        isinstance(rid, str) and _encodable(rid)
    )
    rid = rid if readable else None
    if not isinstance(msg["method"], str) or msg.get("jsonrpc") != "2.0":
        return types.JSONRPCError(
            jsonrpc="2.0", id=rid,
            error=types.ErrorData(code=types.INVALID_REQUEST, message="Invalid request: not a JSON-RPC 2.0 request"),
        )
    why = ("a string holds a lone surrogate (such as \\ud800), which is not valid Unicode"
           if _has_surrogate(msg) else "the message does not match the MCP schema")
    return types.JSONRPCError(
        jsonrpc="2.0", id=rid, error=types.ErrorData(code=types.INVALID_PARAMS, message=f"Invalid params: {why}"),
    )


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _has_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not _encodable(v):
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


class _AnsweredLines:
    """The stdin lines the SDK reads, less those it cannot: each of these is answered here
    (``unreadable_reply``) through the session's write stream, so the client never waits."""

    def __init__(self, lines: Any) -> None:
        self._lines = lines
        self.write_stream: Any = None
        self.ready = anyio.Event()

    async def __aiter__(self) -> Any:
        from mcp.shared.message import SessionMessage

        async for line in self._lines:
            try:
                types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception:  # noqa: BLE001 - whatever the SDK refuses is answered, never raised
                reply = unreadable_reply(line)
                if reply is not None:
                    await self.ready.wait()
                    await self.write_stream.send(SessionMessage(reply))
                continue
            yield line


def run_stdio(server: Server[Any]) -> None:
    """Serve over stdin/stdout until the client closes them.

    A line the SDK cannot read (invalid JSON, a lone surrogate, the wrong shape) is answered
    with a JSON-RPC error and the server goes on serving.
    """
    import io
    import sys

    async def main() -> None:
        text = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        lines = _AnsweredLines(anyio.wrap_file(text))
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.write_stream = write_stream
            lines.ready.set()
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def http_app(server: Server[Any], *, host: str = "127.0.0.1", path: str = "/mcp") -> Any:
    """A Starlette app serving streamable HTTP at ``path`` (DNS-rebinding checks on loopback)."""
    return server.streamable_http_app(streamable_http_path=path, host=host)


def run_http(server: Server[Any], *, host: str = "127.0.0.1", port: int = 8788, path: str = "/mcp") -> None:
    """Serve streamable HTTP with uvicorn."""
    import uvicorn

    uvicorn.run(http_app(server, host=host, path=path), host=host, port=port, log_level="warning")
