"""Catalog endpoints called as tools: one call, one paging, one gold-program language.

* :mod:`.call` — arguments → request → resolver → :class:`Observation` (:class:`ToolCaller`);
* :mod:`.paging` — page parameters on the dialect's own rules (:func:`page_args`) and
  reading every page of a call (:func:`read_pages`);
* :mod:`.program` — the gold-program language (:class:`Program`, validated as a data-flow
  graph when it is built);
* :mod:`.runner` — its one runner (:func:`run_program`) and the ops;

MCP, KOPA-Bench, EDGE and the GRPO environment all call tools through this package; the
memos its callers own are :class:`simulator.BoundedCache`. Errors:
:class:`~simulator.errors.PageFailed`, :class:`~simulator.errors.ProgramError` (and its
:class:`~simulator.errors.CallFailed`).
"""

from __future__ import annotations

from .call import (
    DUMMY_KEY,
    MEMO_BYTES,
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
from ..errors import CallFailed, PageFailed, ProgramError
from .paging import PageCall, PagedResult, PageResult, is_paged, page_args, read_pages
from .program import CallStep, Cond, OpStep, Program, Step, Where, program_edges, program_shape, refs_in
from .runner import (
    DEFAULT_PAGE_SIZE,
    CallFn,
    Policy,
    compare,
    eval_expr,
    format_answer,
    get_field,
    num,
    run_op,
    run_program,
    run_step,
)

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "DUMMY_KEY",
    "MEMO_BYTES",
    "CallFailed",
    "CallFn",
    "CallStep",
    "Cond",
    "FormatChoice",
    "Observation",
    "OpStep",
    "PageCall",
    "PageFailed",
    "PageResult",
    "PagedResult",
    "Policy",
    "Program",
    "ProgramError",
    "Step",
    "ToolCaller",
    "Where",
    "arg_text",
    "body_text",
    "build_call",
    "call_tool",
    "check_args",
    "compare",
    "eval_expr",
    "format_answer",
    "get_field",
    "is_paged",
    "num",
    "page_args",
    "program_edges",
    "program_shape",
    "read_pages",
    "read_response",
    "refs_in",
    "request_params",
    "run_op",
    "run_program",
    "run_step",
]
