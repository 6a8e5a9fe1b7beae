"""``simulator tools``: every tool schema is a well-formed JSON-Schema object without keys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from simulator import load_catalog
from simulator.cli import app
from simulator.secrets import KEY_PARAM_NAMES

JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}


def _tools(fmt: str, *extra: str) -> Any:
    r = CliRunner().invoke(app, ["tools", "--format", fmt, *extra])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _check_schema(name: str, schema: dict[str, Any]) -> None:
    ep = load_catalog().endpoint(name)
    hidden = {p.name for p in ep.params if p.role in ("auth", "format")}
    assert schema["type"] == "object", name
    props = schema["properties"]
    assert isinstance(props, dict)
    assert isinstance(schema["required"], list)
    assert set(schema["required"]) <= set(props), name
    assert len(set(schema["required"])) == len(schema["required"]), name
    assert not (set(props) & hidden), f"{name} exposes {set(props) & hidden}"
    # a key-like name is exposed only where the catalog says it is no key (SEMAS ``key``: an
    # area code, role filter, described as such)
    coded = {p.name for p in ep.params if p.role not in ("auth", None) and p.description}
    assert not {p.lower() for p in props if p not in coded} & KEY_PARAM_NAMES, f"{name} exposes a key param"
    for pname, p in props.items():
        assert p.get("type") in JSON_TYPES, (name, pname)
        if "enum" in p:
            assert isinstance(p["enum"], list) and p["enum"], (name, pname)
        if "pattern" in p:
            assert p["type"] == "string", (name, pname)
    assert schema.get("additionalProperties") is False


def test_openai_schemas_are_valid_json_schema_objects() -> None:
    tools = _tools("openai")
    catalog = load_catalog()
    assert [t["function"]["name"] for t in tools] == [t["function"]["name"] for t in catalog.tools()]
    assert {t["function"]["name"] for t in tools} == set(catalog.endpoints)
    for t in tools:
        assert t["type"] == "function"
        f = t["function"]
        assert f["description"].strip()
        _check_schema(f["name"], f["parameters"])


def _typed(kind: str, value: str) -> Any:
    """A catalog example (a string) as the JSON value a model would send."""
    if kind == "integer":
        return int(value)
    if kind == "number":
        return float(value)
    if kind == "boolean":
        return value.lower() in ("true", "1", "y")
    return value


def test_schemas_validate_with_jsonschema_when_available() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for t in _tools("openai"):
        params = t["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(params)
        ep = load_catalog().endpoint(t["function"]["name"])
        example = {
            p.name: _typed(p.type, p.example)
            for p in ep.params
            if p.name in params["properties"] and p.example is not None
            and p.name in params["required"]
        }
        if set(params["required"]) <= set(example):
            errors = list(jsonschema.Draft202012Validator(params).iter_errors(example))
            assert not errors, (ep.id, example, [e.message for e in errors])


def test_mcp_format_matches_the_mcp_servers_tool_list() -> None:
    pytest.importorskip("mcp")
    from simulator.server.mcp import list_tools

    cli = _tools("mcp")
    server = [t.model_dump(by_alias=True, exclude_none=True) for t in list_tools(load_catalog())]
    assert [(t["name"], t["description"], t["inputSchema"]) for t in cli] == [
        (t["name"], t["description"], t["inputSchema"]) for t in server
    ]
    tago = _tools("mcp", "--platform", "tago")
    assert tago and all(t["name"].startswith("tago_") for t in tago)


def test_unknown_format_is_refused() -> None:
    r = CliRunner().invoke(app, ["tools", "--format", "yaml"])
    assert r.exit_code != 0 and "choose openai or mcp" in r.output
