"""Every tool of the default catalog called once against the shipped cassettes (#16): through
``simulator serve``'s app on a real uvicorn server on loopback, and through MCP (the in-process
call path for all, a real stdio session for a sample); each a native success with records.

The arguments of each call are the filters of one recorded collection of the tool (the first
by key), so the call asks what the shipped version holds. Since ``kopa@v0003`` every tool has
data: ``nec_preliminary_candidates`` (INFO-03 once registration closes, the one tool ``kopa@v0002``
held nothing for) answers the upcoming election of world edition 3
(``simulator/record/plans/v0003_extra.yaml``); ``kopa@v0004`` adds the four tools the catalog
gained with it (NEIS's past-year timetables, ``simulator/record/plans/v0004_extra.yaml``).
``kopa@v0006`` keys every collection on a real value: the 344 generated tools with a required
parameter no rule gives a real value (``docs/seeds-v0006.md``) are not recorded, no longer
under a dummy key no real request sends (v0002–v0005 held them so).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import pytest

from simulator import Resolver, Store, Version, load_catalog
from simulator.catalog.generate.seeds import seed_params, seed_plan_report
from simulator.request import SimResponse
from simulator.server import create_app
from simulator.server.mcp import call_tool as mcp_call
from simulator.tools import call_tool
from simulator.tools.call import build_call, read_response
from tests.support.loopback import serve_in_thread

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def store(shipped_store: Store) -> Store:
    return shipped_store


@pytest.fixture(scope="module")
def without_data() -> set[str]:
    """Tools the newest shipped version holds nothing for: those without a real seed value (see
    the module docstring)."""
    return set(seed_plan_report(load_catalog())[1].unresolved)


@pytest.fixture(scope="module")
def version(store: Store) -> Version:
    return store.open("kopa")


@pytest.fixture(scope="module")
def calls(version: Version) -> dict[str, dict[str, str]]:
    """One call per tool with data: the filters of its first recorded collection (plus the
    required arguments a collection is not keyed by, such as TourAPI's ``MobileOS``)."""
    catalog = load_catalog()
    out: dict[str, dict[str, str]] = {}
    for info in sorted(version.index.collections(), key=lambda i: (i.endpoint, i.key)):
        out.setdefault(info.endpoint, {**seed_params(catalog.endpoint(info.endpoint)), **info.filters})
    return out


def test_every_tool_with_a_real_value_has_data(calls: dict[str, dict[str, str]], without_data: set[str]) -> None:
    catalog = load_catalog()
    assert len(catalog.endpoints) == 2703  # kopa@v0004's 2,696 and the 7 services kopa@v0007 added
    assert len(calls) == 2359 and len(without_data) == 344  # kopa@v0006/v0007: only real-valued keys
    assert set(catalog.endpoints) - set(calls) == without_data
    assert calls["nec_preliminary_candidates"]["sgId"] == "20260603"


def test_v0002_lacked_only_the_preliminary_candidates(store: Store) -> None:
    """v0002: every tool of its catalog but ``nec_preliminary_candidates`` (INFO-03 by design);
    the catalog's tools v0003 had are v0002's catalog (v0004 added four, v0007 seven)."""
    v2, v3 = store.open("kopa", "v0002"), store.open("kopa", "v0003")
    assert set(v3.manifest.endpoints) - {i.endpoint for i in v2.index.collections()} == {"nec_preliminary_candidates"}
    assert len(set(load_catalog().endpoints) - set(v3.manifest.endpoints)) == 11


def _failures(results: dict[str, tuple[bool, int, str]]) -> list[str]:
    return [f"{tool}: {why}" for tool, (ok, n, why) in sorted(results.items()) if not ok or n < 1]


def test_every_tool_answers_records_through_the_server(
        store: Store, version: Version, calls: dict[str, dict[str, str]], without_data: set[str]) -> None:
    catalog = load_catalog()
    app = create_app(Resolver(version, catalog), store)
    results: dict[str, tuple[bool, int, str]] = {}
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=60) as client:
        for tool, args in calls.items():
            req = build_call(catalog, tool, args)
            assert not hasattr(req, "ok"), f"{tool}: {req}"  # a request, not a refusal
            host = f"{req.host}:{req.port}" if req.port else req.host
            r = client.get(f"/{host}{quote(req.path)}", params=list(req.query))
            resp = SimResponse(r.status_code, [(k.lower(), v) for k, v in r.headers.items()], r.content)
            obs = read_response(catalog, tool, args, req, resp)
            results[tool] = (obs.ok, len(obs.records), obs.error or f"{obs.source}, 0 records")
    assert not _failures(results), _failures(results)[:20]
    assert len(results) == len(catalog.endpoints) - len(without_data)


def test_every_tool_answers_records_through_mcp(version: Version, calls: dict[str, dict[str, str]]) -> None:
    resolver = Resolver(version, load_catalog())
    results: dict[str, tuple[bool, int, str]] = {}
    for tool, args in calls.items():
        answer = mcp_call(resolver, tool, args)
        obs = call_tool(resolver, tool, args)  # the same call MCP makes, read back
        ok = not answer.error and answer.status == 200 and obs.ok
        results[tool] = (ok, len(obs.records), obs.error or f"{answer.source} {answer.status}")
    assert not _failures(results), _failures(results)[:20]


def test_a_sample_of_tools_over_a_real_stdio_session(tmp_path: Path, calls: dict[str, dict[str, str]]) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    sample = sorted(calls)[::97]  # ~28 tools across the platforms
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simulator", "mcp", "--cassettes", str(ROOT / "cassettes")],
        env={"KOPA_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))

    async def main() -> dict[str, Any]:
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return {t: await session.call_tool(t, calls[t]) for t in sample}

    got = anyio.run(main)
    bad = {t: r.content[0].text[:200] for t, r in got.items()
           if r.is_error or (r.meta or {}).get("kopa/status") != 200}
    assert len(got) >= 20 and not bad, bad
