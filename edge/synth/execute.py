"""Running synthesized gold programs: the one language and runner of :mod:`simulator.tools`.

EDGE emits :class:`simulator.tools.Program` (the language KOPA-Bench's tasks are written in)
and runs it with :func:`simulator.tools.run_program` / :func:`~simulator.tools.run_step`;
every page comes from :func:`simulator.tools.read_pages`. :class:`ProgramRunner` only fixes
how EDGE calls: the platform's default format through a memoising
:class:`~simulator.tools.ToolCaller`, every page (``pages: all``) in the largest page that fits
a tool message, at most ``MAX_PAGES`` pages, and it notes which page requests each step made
(one assistant turn per call step in a conversation).

>>> prog = Program.model_validate({"steps": [{"id": "s1", "call": "tago_city_codes", "pages": "all"},
...     {"id": "v1", "op": "count", "from": "s1"}], "answer": {"$ref": "v1"}})   # doctest: +SKIP
>>> ProgramRunner(resolver).run(prog).answer                                       # doctest: +SKIP
132
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from simulator import CallFailed, Endpoint, ProgramError, Resolver
from simulator.tools import (
    PageCall,
    Policy,
    Program,
    Step,
    ToolCaller,
    arg_text,
    eval_expr,
    run_program,
    run_step,
)

from ..observe import scalar

__all__ = ["MAX_PAGES", "CallFailed", "PageCall", "ProgramError", "ProgramRunner", "Run", "page_size_of",
           "program_json", "value_of"]

#: Pages read at most per call; a call needing more is refused (never cut to its first pages).
MAX_PAGES = 50


def page_size_of(ep: Endpoint) -> int:
    """The page size a careful client asks for: the largest the API allows, at most 1,000."""
    return max(1, min(ep.max_page_size, 1000))


def program_json(p: Program) -> dict[str, Any]:
    """A program's JSON form (what examples carry): aliases (``from``), defaults left out."""
    return p.model_dump(mode="json", by_alias=True, exclude_defaults=True)


def value_of(expr: Any, values: Mapping[str, Any]) -> Any:
    """The value of an answer or binding expression, record fields as text (what an example
    states: ``"강남구"``, ``"11680"``); a list expression gives a list. A picked field that is
    empty raises ``ProgramError`` (nothing to answer or pass on)."""
    if isinstance(expr, list):
        return [value_of(e, values) for e in expr]
    v = eval_expr(expr, dict(values))
    if not (isinstance(expr, dict) and expr.get("field")):
        return v
    if isinstance(v, list):
        return [scalar(x) or "" for x in v]
    text = scalar(v)
    if not text:
        raise ProgramError(f"{expr.get('$ref')}: empty {expr['field']!r}")
    return text


@dataclass
class Run:
    """An executed program: every step's output, the answer and each call step's page requests."""

    values: dict[str, Any]
    answer: Any
    #: call step id → the page requests it made, in order (several calls for a ``foreach``).
    pages: dict[str, list[PageCall]] = field(default_factory=dict)


@dataclass
class ProgramRunner:
    """Runs programs (or one step at a time) through a ``Resolver`` the way EDGE calls.

    Args:
        resolver: the simulator (``miss="strict"``: an unrecorded call is a failure here).
        page_size: records per page asked for, a number or a function of the endpoint and the
            call's args (capped at :func:`page_size_of`, the largest the API allows).
        max_pages: refuse calls that would need more pages than this.
        memo_size: page answers remembered (least recently used out first).
    """

    resolver: Resolver
    page_size: int | Callable[[Endpoint, dict[str, str]], int] | None = None
    max_pages: int = MAX_PAGES
    memo_size: int = 4096

    def __post_init__(self) -> None:
        self.caller = ToolCaller(self.resolver, fmt="native", memo_size=self.memo_size)
        self.policy = Policy(page_size=self._size, max_pages=self.max_pages)
        self._log: list[PageCall] = []

    @property
    def catalog(self) -> Any:
        """The resolver's catalog."""
        return self.resolver.catalog

    @cached_property
    def record_caller(self) -> ToolCaller:
        """A memoising caller on the same resolver answering in the format the environments
        ask for (``fmt="record"``): how a conversation shows each call's result."""
        return ToolCaller(self.resolver, fmt="record", memo_size=2048)

    @property
    def requests(self) -> int:
        """Page requests sent to the resolver so far (memo hits aside)."""
        return self.caller.requests

    def _size(self, ep: Endpoint, args: dict[str, str]) -> int:
        size = page_size_of(ep)
        if callable(self.page_size):
            return min(size, self.page_size(ep, args))
        return min(size, self.page_size) if self.page_size else size

    def _call(self, tool: str, args: Mapping[str, Any]) -> Any:
        text = {k: arg_text(v) for k, v in args.items() if v is not None}
        obs = self.caller.call(tool, text)
        self._log.append(PageCall(tool, text, len(obs.records)))
        return obs

    def step(self, step: Step, values: dict[str, Any]) -> tuple[Any, list[PageCall]]:
        """One step's output given the earlier ``values``, and the page requests it made."""
        self._log = []
        out = run_step(step, values, self._call, self.catalog, self.policy)
        return out, list(self._log)

    def run(self, program: Program | Mapping[str, Any]) -> Run:
        """Execute ``program`` (validated first when it is JSON); ``ProgramError`` when it cannot."""
        prog = program if isinstance(program, Program) else _validated(program)
        pages: dict[str, list[PageCall]] = {}
        self._log = []
        current: list[str] = []

        def on_step(sid: str) -> None:
            if current:
                pages[current[0]] = self._log
            self._log = []
            current[:] = [sid]

        _raw, values = run_program(prog, self._call, self.catalog, self.policy, on_step=on_step)
        if current:
            pages[current[0]] = self._log
        calls = {s.id for s in prog.calls()}
        return Run(values, value_of(prog.answer, values), {k: v for k, v in pages.items() if k in calls})


def _validated(program: Mapping[str, Any]) -> Program:
    from pydantic import ValidationError

    try:
        return Program.model_validate(program)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ProgramError(f"invalid gold program: {where + ': ' if where else ''}{first['msg']}") from None
