"""Simulated key issuing: a tool whose result later calls must carry (the paper's
``get_education_api_key()``).

A **key tool** (:data:`KEY_TOOLS`) issues a per-episode API key for one family of
platforms: ``get_education_api_key`` for NEIS, ``get_data_go_kr_api_key`` for the services of
the data.go.kr gateway (every platform on the ``datagokr`` dialect). The key is derived from
the episode's seed (:func:`issue_key`): the same episode gets the same key, another episode
another one; it is never a real key (``SIM-…``), and no trace, result file or cassette
stores it (:data:`REDACTED` stands in).

A program asks for a key with a call step of the key tool and passes it in the platform's own
auth parameter (NEIS ``KEY``, data.go.kr ``serviceKey``)::

    {"id": "k", "call": "get_education_api_key"}
    {"id": "s", "call": "neis_school_info", "args": {"KEY": {"$ref": "k", "field": "key", "pick": "first"},
                                                     "SCHUL_NM": "…"}}

In an episode whose task issues a family's key (KOPA-Bench's ``ToolEnv.for_task``), a call of
that family that carries no key or any other key is answered with the platform's own
invalid-key error (the body the dialect renders for ``invalid_key``). Elsewhere no key is
checked: a :class:`~simulator.tools.ToolCaller` answers a key tool with the key of its
``episode`` and sets aside a key a call carries (module :mod:`simulator.tools.call`). :func:`with_keys` adds the key tools and the auth parameters to
an agent's tool list, so a model can find and use them.

>>> issue_key("get_education_api_key", "neis-meal-0#3") == issue_key("get_education_api_key", "neis-meal-0#3")
True
>>> issue_key("get_education_api_key", "a#0").startswith("SIM-EDU-")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog, Endpoint

__all__ = ["KEY_TOOLS", "REDACTED", "KeyTool", "auth_param", "family_of", "is_key_tool",
           "issue_key", "key_tool_schema", "split_key", "with_keys"]

#: What traces and result files hold in place of an issued key.
REDACTED = "<issued key>"


@dataclass(frozen=True)
class KeyTool:
    """One key-issuing tool: its name, what it says, and which endpoints need its key."""

    name: str
    tag: str
    description: str
    #: The platforms whose calls carry this key (matched by platform id).
    platforms: frozenset[str] = frozenset()
    #: ... or by dialect (every platform of the family's gateway).
    dialects: frozenset[str] = frozenset()

    def covers(self, ep: Endpoint) -> bool:
        """Whether a call of ``ep`` carries this tool's key."""
        return ep.platform in self.platforms or ep.dialect in self.dialects


KEY_TOOLS: dict[str, KeyTool] = {
    t.name: t for t in (
        KeyTool("get_education_api_key", "EDU",
                "교육정보 개방 포털(NEIS) 인증키 발급: 이 에피소드에서 NEIS 도구 호출의 KEY 인자로 쓸 "
                "인증키를 발급합니다. — Issue the NEIS open-data API key that NEIS tool calls carry "
                "as their KEY argument.",
                platforms=frozenset({"neis", "gen_neis"})),
        KeyTool("get_data_go_kr_api_key", "DGK",
                "공공데이터포털(data.go.kr) 인증키 발급: 이 에피소드에서 공공데이터포털 서비스 도구 "
                "호출의 serviceKey 인자로 쓸 인증키를 발급합니다. — Issue the data.go.kr service key "
                "that gateway tool calls carry as their serviceKey argument.",
                dialects=frozenset({"datagokr"})),
    )
}


def is_key_tool(name: str) -> bool:
    """Whether ``name`` is a key-issuing tool."""
    return name in KEY_TOOLS


def issue_key(tool: str, episode: str) -> str:
    """The key ``tool`` issues in ``episode`` (deterministic; ``SIM-<tag>-`` and 24 hex digits)."""
    kt = KEY_TOOLS[tool]
    digest = hashlib.sha256(f"kopa-sim/{tool}/{episode}".encode()).hexdigest()
    return f"SIM-{kt.tag}-{digest[:24]}"


def family_of(ep: Endpoint) -> str | None:
    """The key tool whose key a call of ``ep`` carries (None: no family)."""
    return next((t.name for t in KEY_TOOLS.values() if t.covers(ep)), None)


def auth_param(ep: Endpoint) -> str | None:
    """The name of ``ep``'s auth parameter (NEIS ``KEY``, data.go.kr ``serviceKey``)."""
    found = ep.params_with_role("auth")
    return found[0].name if found else None


def split_key(catalog: Catalog, tool: str, args: Mapping[str, str]
              ) -> tuple[dict[str, str], str | None, str | None]:
    """``args`` without the key a call of a keyed family carries, that key (None: none) and
    the family's key tool (None: ``tool`` is of no family).

    >>> from simulator import load_catalog
    >>> split_key(load_catalog(), "neis_school_info", {"SCHUL_NM": "x", "KEY": "k"})
    ({'SCHUL_NM': 'x'}, 'k', 'get_education_api_key')
    """
    ep = catalog.endpoints.get(tool)
    family = family_of(ep) if ep is not None else None
    name = auth_param(ep) if ep is not None and family is not None else None
    if name is None:
        return dict(args), None, family
    rest = dict(args)
    return rest, rest.pop(name, None), family


def key_tool_schema(tool: str) -> dict[str, Any]:
    """The OpenAI function schema of a key tool (it takes no arguments)."""
    return {"type": "function", "function": {
        "name": tool, "description": KEY_TOOLS[tool].description,
        "parameters": {"type": "object", "properties": {}}}}


def with_keys(schemas: Iterable[Mapping[str, Any]], catalog: Catalog) -> list[dict[str, Any]]:
    """``schemas`` with the key tools of their families appended and, on each tool of a
    family, its auth parameter as an optional string argument (the key to carry)."""
    out: list[dict[str, Any]] = []
    families: list[str] = []
    for s in schemas:
        fn = dict(s.get("function", s))
        ep = catalog.endpoints.get(str(fn.get("name", "")))
        fam = family_of(ep) if ep is not None else None
        name = auth_param(ep) if ep is not None and fam is not None else None
        if fam is not None and name is not None:
            if fam not in families:
                families.append(fam)
            params = dict(fn.get("parameters") or {"type": "object", "properties": {}})
            params["properties"] = {**(params.get("properties") or {}),
                                    name: {"type": "string", "description": f"인증키 ({fam})"}}
            fn["parameters"] = params
        out.append({**dict(s), "function": fn} if "function" in s else fn)
    have = {str(s.get("function", s).get("name", "")) for s in out}
    out += [key_tool_schema(t) for t in KEY_TOOLS if t in families and t not in have]
    return out
