"""The replay server's own OpenAPI 3.0 description, generated from the catalog.

Served read-only at ``GET /_sim/openapi.json``. Every catalog endpoint is a path
``/{upstream-host}{path}`` (the form ``simulator serve`` answers), with its query and path
parameters and their types; endpoints sharing a path (law.go.kr's ``target=…`` operations)
are one operation whose ``target``-style parameter is an enum. Answers are documented as
they are: the platform's native body (JSON or XML, any status the platform uses for its own
errors) or a simulator error ``{"error": {"type", "message", …}}`` with an ``x-sim-error``
header — never anything else. The admin routes are listed too.

>>> from simulator.catalog import load_catalog
>>> doc = openapi_document(load_catalog())
>>> doc["openapi"], "/_sim/health" in doc["paths"]
('3.0.3', True)
"""

from __future__ import annotations

from typing import Any

from ..catalog import Catalog, Endpoint

__all__ = ["SIM_ERROR_TYPES", "openapi_document"]

#: The documented simulator error types (``{"error": {"type": …}}``; README "Guarantees").
SIM_ERROR_TYPES = (
    "unknown_endpoint", "replay_miss", "no_upstream", "connect_unsupported", "uri_too_long", "body_too_large",
    "read_only", "unknown_admin_route", "fault_timeout", "internal_error",
)

_SIM_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["type", "message"],
            "properties": {
                "type": {"type": "string", "enum": list(SIM_ERROR_TYPES)},
                "message": {"type": "string"},
            },
            "additionalProperties": True,
        }
    },
}

_NATIVE = {
    "description": "The platform's native body (its own envelope; its own error bodies too), "
    "rendered from the pinned cassette version. `x-sim-source` says how: exact, window, query, "
    "miss (native miss policy) or fault.",
    "headers": {
        "x-sim-source": {"schema": {"type": "string"}},
        "x-sim-version": {"schema": {"type": "string"}},
    },
    "content": {
        "application/json": {"schema": {}},
        "application/xml": {"schema": {}},
        "text/xml": {"schema": {}},
        "text/html": {"schema": {}},
        "text/plain": {"schema": {}},
        "application/octet-stream": {"schema": {}},
        "application/zip": {"schema": {}},
    },
}


def _sim_error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": {"x-sim-error": {"schema": {"type": "string", "enum": list(SIM_ERROR_TYPES)}}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SimError"}}},
    }


def _schema(p: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"type": p.type}
    if p.enum:
        s["enum"] = [str(v) if p.type == "string" else v for v in p.enum]
    if p.pattern and p.type == "string":
        s["pattern"] = p.pattern
    if p.default is not None:
        s["default"] = p.default
    return s


def _operation(eps: list[Endpoint]) -> dict[str, Any]:
    ep = eps[0]
    params: dict[tuple[str, str], dict[str, Any]] = {}
    for e in eps:
        for p in e.params:
            if (p.name, p.location) in params:
                continue
            params[(p.name, p.location)] = {
                "name": p.name,
                "in": p.location,
                # A path segment is always required; a key is accepted and ignored on replay.
                "required": p.location == "path" or (p.required and p.role != "auth" and len(eps) == 1),
                "description": (p.description_en or p.description or p.role)[:300],
                "schema": _schema(p),
            }
    for name in sorted({k for e in eps for k in e.match}):
        values = sorted({e.match[name] for e in eps if name in e.match})
        params[(name, "query")] = {
            "name": name, "in": "query", "required": True,
            "description": "Picks the operation among those sharing this path.",
            "schema": {"type": "string", "enum": values},
        }
    return {
        "operationId": "__".join(e.id for e in eps),
        "summary": " / ".join(e.summary_en or e.summary for e in eps)[:300],
        "tags": sorted({e.platform for e in eps}),
        "parameters": list(params.values()),
        "responses": {
            "200": _NATIVE,
            "default": {
                "description": "A native error body of the platform (its status), or a "
                "documented simulator error (`x-sim-error`).",
                "content": {**_NATIVE["content"], "application/json": {"schema": {}}},
            },
            "404": _sim_error("`replay_miss` (strict miss: names the nearest recorded requests), "
                              "`unknown_endpoint`, or the platform's native not-found body."),
            "413": _sim_error("`body_too_large`"),
            "414": _sim_error("`uri_too_long`"),
        },
    }


def _admin(summary: str, schema: dict[str, Any] | None = None, params: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "get": {
            "operationId": "sim_" + summary.split()[0].lower(),
            "summary": summary,
            "tags": ["_sim"],
            "parameters": params or [],
            "responses": {
                "200": {"description": summary,
                        "content": {"application/json": {"schema": schema or {"type": "object"}}}},
            },
        }
    }


def openapi_document(catalog: Catalog) -> dict[str, Any]:
    """The OpenAPI 3.0.3 description of a server replaying ``catalog`` (built once per catalog)."""
    return catalog.derived("openapi_document", _document)


def _document(catalog: Catalog) -> dict[str, Any]:
    groups: dict[str, list[Endpoint]] = {}
    for ep in sorted(catalog.endpoints.values(), key=lambda e: e.id):
        groups.setdefault(f"/{ep.host}{ep.path.rstrip('/') or '/'}", []).append(ep)
    paths: dict[str, Any] = {}
    for path in sorted(groups):
        eps = groups[path]
        paths[path] = {eps[0].method.lower(): _operation(eps)}
    paths["/_sim/health"] = _admin("Health: the set, version and content hash served", {
        "type": "object", "required": ["status", "set", "version", "content_hash"],
        "properties": {"status": {"type": "string", "enum": ["ok"]}, "set": {"type": "string"},
                       "version": {"type": "string"}, "content_hash": {"type": "string"}},
    })
    paths["/_sim/versions"] = _admin("Versions of the served set", {
        "type": "object", "required": ["serving", "versions"],
        "properties": {"serving": {"type": "string"}, "versions": {"type": "array"}},
    })
    paths["/_sim/collections"] = _admin(
        "Collections recorded in the version (with an example request each)",
        {"type": "object", "required": ["collections"], "properties": {"collections": {"type": "array"}}},
        [{"name": "endpoint", "in": "query", "required": False, "schema": {"type": "string"}}],
    )
    paths["/_sim/tools"] = _admin("The catalog's tool schemas (OpenAI function calling)", {
        "type": "object", "required": ["tools"], "properties": {"tools": {"type": "array"}},
    })
    paths["/_sim/openapi.json"] = _admin("This description", {"type": "object", "required": ["openapi", "paths"]})
    doc: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {
            "title": "kopa-sim replay server",
            "version": "1",
            "description": "Replays recorded Korean public open APIs: GET /{upstream-host}/{path}?{query}. "
            "Every answer is the platform's native body or a documented simulator error "
            '({"error": {"type", "message"}} with an x-sim-error header). Admin routes under /_sim/ '
            "are read-only.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": {"SimError": _SIM_ERROR}},
    }
    return doc
