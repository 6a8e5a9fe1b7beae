"""Catalog endpoints called as tools: one call, one paging, one gold-program language.

* :mod:`.call` — arguments → request → resolver → :class:`Observation` (:class:`ToolCaller`);
* :mod:`.paging` — page parameters on the dialect's own rules (:func:`page_args`) and
  reading every page of a call (:func:`read_pages`);
* :mod:`.cache` — the bounded memo the callers own (:class:`LRU`).

MCP, KOPA-Bench, EDGE and the GRPO environment all call tools through this package.
"""

from __future__ import annotations

from .cache import LRU
from .call import (
    DUMMY_KEY,
    FormatChoice,
    Observation,
    ToolCaller,
    arg_text,
    body_text,
    build_call,
    call_tool,
    check_args,
    read_response,
    request_params,
)
from .paging import PageCall, PagedResult, PageFailed, PageResult, is_paged, page_args, read_pages

__all__ = [
    "DUMMY_KEY",
    "LRU",
    "FormatChoice",
    "Observation",
    "PageCall",
    "PageFailed",
    "PageResult",
    "PagedResult",
    "ToolCaller",
    "arg_text",
    "body_text",
    "build_call",
    "call_tool",
    "check_args",
    "is_paged",
    "page_args",
    "read_pages",
    "read_response",
    "request_params",
]
