"""The MCP server, driven by the ``mcp`` client over stdio and streamable HTTP (shipped cassettes)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from simulator import Resolver, Store, load_catalog  # noqa: E402
from simulator.server.mcp import call_tool, list_tools  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
CASSETTES = ROOT / "cassettes"


@pytest.fixture(scope="module")
def index_cache(shipped_store: Store) -> str:
    """The compiled-index cache the server processes of this module share (the test process's
    own shipped-version cache: each index is compiled once per process)."""
    return str(shipped_store.cache_dir)


def _text(result: Any) -> str:
    (block,) = result.content
    return str(block.text)


def _body(result: Any) -> Any:
    """The native JSON body after the ``x-sim-source`` line."""
    first, _, rest = _text(result).partition("\n")
    assert first.startswith("x-sim-source: ")
    return json.loads(rest)


async def _chain(session: Any) -> dict[str, Any]:
    """List the tools, then a lookup → dependent call: district code → apartment trades."""
    listed = await session.list_tools()
    tools = {t.name: t for t in listed.tools}
    regions = await session.call_tool("mois_stan_regin_cd", {"locatadd_nm": "서울특별시 종로구"})
    assert not regions.is_error, _text(regions)
    rows = _body(regions)["StanReginCd"][1]["row"]
    gu = next(r for r in rows if r["locatadd_nm"] == "서울특별시 종로구")
    lawd_cd = gu["region_cd"][:5]
    trades = await session.call_tool("molit_apt_trades", {"LAWD_CD": lawd_cd, "DEAL_YMD": 202503})
    # An argument the tool does not take is refused by name (the platform's key parameter,
    # `serviceKey`, is not one: a carried key is set aside, as the key-issuing tools need).
    bad = await session.call_tool("molit_apt_trades", {"LAWD_CD": lawd_cd, "sortOrder": "x"})
    return {"tools": tools, "lawd_cd": lawd_cd, "trades": trades, "bad": bad, "regions": regions}


def _check_chain(out: dict[str, Any]) -> None:
    tools = out["tools"]
    catalog = load_catalog()
    assert set(tools) == set(catalog.endpoints)
    t = tools["molit_apt_trades"]
    props = t.input_schema["properties"]
    assert {"LAWD_CD", "DEAL_YMD"} <= set(props) and "serviceKey" not in props
    assert t.input_schema == catalog.endpoint("molit_apt_trades").tool_schema()["function"]["parameters"]
    assert out["lawd_cd"] == "11110"
    trades = out["trades"]
    assert not trades.is_error, _text(trades)
    assert _text(trades).startswith("x-sim-source: window")
    assert (trades.meta or {}).get("kopa/source") == "window"
    body = _text(trades).partition("\n")[2]
    assert "<resultCode>000</resultCode>" in body or '"resultCode":"000"' in body
    assert "<aptNm>" in body or "aptNm" in body
    assert "11110" in body
    assert out["bad"].is_error and "unknown argument(s) sortOrder" in _text(out["bad"])


def test_stdio_lists_tools_and_answers_a_chain(tmp_path: Path, index_cache: str) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simulator", "mcp", "--cassettes", str(CASSETTES)],
        env={"KOPA_CACHE": index_cache, "PYTHONPATH": str(ROOT)},
        cwd=str(ROOT),
    )

    async def main() -> dict[str, Any]:
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await _chain(session)

    _check_chain(anyio.run(main))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streamable_http_lists_tools_and_answers_a_chain(index_cache: str) -> None:
    port = _free_port()
    env = {**os.environ, "KOPA_CACHE": index_cache, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator", "mcp", "--transport", "http", "--port", str(port),
         "--cassettes", str(CASSETTES)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)

        async def main() -> dict[str, Any]:
            async with mcp.Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await _chain(client)

        _check_chain(anyio.run(main))
        # DNS-rebinding protection: a foreign Host is refused
        r = httpx.post(f"http://127.0.0.1:{port}/mcp", headers={"Host": "evil.example"}, json={})
        assert r.status_code in (400, 403, 421)
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def test_call_tool_in_process_validates_arguments() -> None:
    resolver = Resolver(Store(CASSETTES).open("kopa"))
    missing = call_tool(resolver, "molit_apt_trades", {"DEAL_YMD": "202503"})
    assert missing.error and "LAWD_CD" in missing.text
    unknown = call_tool(resolver, "no_such_tool", {})
    assert unknown.error
    ok = call_tool(resolver, "molit_apt_trades", {"LAWD_CD": "11110", "DEAL_YMD": "202503"})
    assert not ok.error and ok.source == "window" and ok.status == 200
    assert len(list_tools(resolver.catalog, ["tago"])) == len(
        [e for e in resolver.catalog.endpoints.values() if e.platform == "tago"]
    )
