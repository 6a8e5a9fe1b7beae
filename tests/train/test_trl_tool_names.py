"""TRL tool methods for every catalog endpoint: a Python signature even where the catalog's
parameter name is not an identifier (generated endpoints such as ``cond[BASE_DATE::EQ]``)."""

from __future__ import annotations

import inspect
from typing import Any

from simulator import load_catalog
from train.trl_adapter import _identifiers, tool_method


def test_names_that_are_not_identifiers_get_aliases_and_calls_map_back() -> None:
    alias = _identifiers(["cond[BASE_DATE::EQ]", "pageNo", "class", "cond_BASE_DATE_EQ"])
    assert alias == {"cond[BASE_DATE::EQ]": "cond_BASE_DATE_EQ", "pageNo": "pageNo",
                     "class": "p_class", "cond_BASE_DATE_EQ": "cond_BASE_DATE_EQ_2"}
    cat = load_catalog(tier="full")
    odd = [ep for ep in cat.endpoints.values()
           if any(not p.name.isidentifier() for p in ep.params if p.role not in ("auth", "format"))]
    assert odd, "the full tier has endpoints whose parameter names are not identifiers"
    for ep in cat.endpoints.values():
        inspect.signature(tool_method(ep))  # a valid signature for all 2,696 tools

    ep = odd[0]
    method = tool_method(ep)
    seen: list[dict[str, Any]] = []

    class Env:
        def _call(self, tool: str, kwargs: dict[str, Any]) -> str:
            seen.append(kwargs)
            return tool

    name = next(p.name for p in ep.params if p.role not in ("auth", "format") and not p.name.isidentifier())
    assert method(Env(), **{_identifiers([name])[name]: "x"}) == ep.id
    assert seen == [{name: "x"}]
