"""schemathesis against the replay server's own OpenAPI description (``/_sim/openapi.json``).

Every operation of the description (each catalog endpoint as ``/{host}{path}`` with its typed
parameters, and the admin routes) gets generated requests — valid and invalid values, odd
strings, missing required parameters — sent in-process to the ASGI app over the shipped
cassettes (miss policy ``native``, so unrecorded requests render the platform's own bodies).
Every answer must be the platform's native body or a documented simulator error: no 5xx
without one, never ``internal_error`` (an unhandled exception), never a stack trace; and the
server still answers its health route afterwards. The description itself is validated too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from simulator import Resolver, Store, load_catalog
from simulator.server import create_app
from simulator.server.openapi import SIM_ERROR_TYPES, openapi_document

SHIPPED = Path(__file__).resolve().parents[3] / "cassettes"


@pytest.fixture(scope="module")
def sim_app(shipped_store: Store) -> Iterator[Any]:
    store = shipped_store
    yield create_app(Resolver(store.open("kopa"), miss="native"), store)


@pytest.fixture(scope="module")
def api_schema(sim_app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/_sim/openapi.json", sim_app)


def _documented(case: Any, response: Any) -> None:
    """The contract of every answer (raises ``AssertionError`` with what broke it)."""
    text = response.content.decode("utf-8", "replace")
    assert "Traceback" not in text and 'File "' not in text, f"a stack trace on the wire: {case.path}"
    sim_error = response.headers.get("x-sim-error")
    sim_error = sim_error[0] if isinstance(sim_error, list) else sim_error
    if sim_error is not None:
        assert sim_error in SIM_ERROR_TYPES, f"undocumented simulator error {sim_error!r}"
        assert sim_error != "internal_error", f"unhandled exception for {case.method} {case.formatted_path}"
        body = json.loads(text)
        assert body["error"]["type"] == sim_error and body["error"]["message"]
    if response.status_code >= 500:
        assert sim_error is not None or response.headers.get("x-sim-source"), (
            f"{response.status_code} that is neither a native body nor a simulator error"
        )


def test_every_operation_answers_as_documented(api_schema: Any) -> None:
    # schemathesis's pytest plugin (``from_fixture``) does not run under this pytest, so the
    # operations are driven through its Python API: one hypothesis run per operation.
    from hypothesis import given

    n = 0
    for result in api_schema.get_all_operations():
        op = result.ok()

        @settings(max_examples=4, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=op.as_strategy())
        def check(case: Any) -> None:
            _documented(case, case.call())

        check()
        n += 1
    assert n >= len(load_catalog().endpoints) // 2  # every path of the description was run


def test_server_stays_up_and_serves_its_description(sim_app: Any) -> None:
    import httpx

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=sim_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return [await c.get("/_sim/health"), await c.get("/_sim/openapi.json"),
                    await c.post("/_sim/openapi.json")]

    import asyncio

    health, doc, post = asyncio.run(go())
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert doc.status_code == 200 and doc.json() == json.loads(json.dumps(openapi_document(sim_app.resolver.catalog)))
    assert post.status_code == 405 and post.headers["x-sim-error"] == "read_only"


def test_description_is_valid_openapi_and_covers_the_catalog() -> None:
    catalog = load_catalog()
    doc = openapi_document(catalog)
    loaded = schemathesis.openapi.from_dict(doc)  # parses every operation, or raises
    assert sum(1 for r in loaded.get_all_operations() if r.ok()) == sum(len(v) for v in doc["paths"].values())
    ops = {op["operationId"] for item in doc["paths"].values() for op in item.values()}
    covered = {i for op in ops for i in op.split("__")}
    assert set(catalog.endpoints) <= covered
    for route in ("/_sim/health", "/_sim/versions", "/_sim/collections", "/_sim/tools", "/_sim/openapi.json"):
        assert route in doc["paths"]
    seoul = doc["paths"]["/openapi.seoul.go.kr/{KEY}/{TYPE}/SeoulPublicLibraryInfo/{START_INDEX}/{END_INDEX}"]["get"]
    path_params = [p for item in doc["paths"].values() for op in item.values() for p in op["parameters"] if p["in"] == "path"]
    assert path_params and all(p["required"] for p in path_params)
    assert {"KEY", "TYPE", "START_INDEX", "END_INDEX"} <= {p["name"] for p in seoul["parameters"]}
