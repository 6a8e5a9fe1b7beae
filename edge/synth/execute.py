"""Executing gold programs through the simulator, every page of every call.

A *gold program* is plain JSON: a list of steps and the id of the step holding the answer.
Steps are calls (one tool, constant ``args`` plus ``bind`` from earlier steps, or ``each``
value of an earlier list) and deterministic reductions over their records. Calls always read
*all* pages (``pages`` records how many there were); an answer is never computed from page 1.

>>> prog = {"steps": [{"id": "s1", "op": "call", "tool": "tago_city_codes", "args": {}},
...                   {"id": "v1", "op": "count", "from": "s1"}], "answer": "v1"}
>>> run_program(prog, PagedExecutor(resolver)).answer   # doctest: +SKIP
132
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from simulator import BoundedCache, CallFailed, Endpoint, ProgramError, Resolver
from simulator.tools import PageCall, PagedResult, PageFailed, ToolCaller, read_pages

from ..observe import scalar
from ..transforms import apply_transform
from ..verify import classify

__all__ = [
    "MAX_PAGES",
    "CallFailed",
    "PageCall",
    "PagedExecutor",
    "PagedResult",
    "ProgramError",
    "Run",
    "as_number",
    "page_size_of",
    "run_program",
    "step_refs",
    "validate_program",
]

#: Pages read at most per call; a call needing more is refused (never cut to its first pages).
MAX_PAGES = 50


def page_size_of(ep: Endpoint) -> int:
    """The page size a careful client asks for: the largest the API allows, at most 1,000."""
    return max(1, min(ep.max_page_size, 1000))


@dataclass
class PagedExecutor:
    """Calls tools through a ``Resolver`` and reads every page; identical calls are memoised.

    Pages come from :func:`simulator.tools.read_pages` (the endpoint's own paging rules,
    ``range_base`` included); each page is one :class:`simulator.tools.ToolCaller` call in
    the platform's default format.

    Args:
        resolver: the simulator (``miss="strict"``: an unrecorded call is a failure here).
        max_pages: refuse calls that would need more pages than this.
        memo_size: calls remembered (least recently used out first).
        page_size: records per page (capped at the endpoint's largest page).
    """

    resolver: Resolver
    max_pages: int = MAX_PAGES
    memo_size: int = 4096
    #: Records per page asked for: a number, or a function of the endpoint and the call's args
    #: (default: :func:`page_size_of`, the largest the API allows).
    page_size: int | Callable[[Endpoint, dict[str, str]], int] | None = None

    def __post_init__(self) -> None:
        self._caller = ToolCaller(self.resolver, fmt="native", memo_size=0)
        self._memo: BoundedCache[str, PagedResult | str] = BoundedCache(self.memo_size)

    @property
    def requests(self) -> int:
        """Page requests sent to the resolver so far."""
        return self._caller.requests

    def call(self, tool: str, args: Mapping[str, str]) -> PagedResult:
        """All records of ``tool`` with ``args``; raises ``CallFailed`` naming why not."""
        key = tool + "\x00" + json.dumps(dict(args), sort_keys=True, ensure_ascii=False)
        hit = self._memo.get(key)
        if hit is None:
            try:
                hit = self._call(tool, dict(args))
            except CallFailed as exc:
                hit = str(exc)
            self._memo.put(key, hit)
        if isinstance(hit, str):
            raise CallFailed(hit)
        return hit

    def _call(self, tool: str, args: dict[str, str]) -> PagedResult:
        cat = self.resolver.catalog
        if tool not in cat.endpoints:
            raise CallFailed(f"tool={tool!r} is not in the catalog")
        ep = cat.endpoint(tool)
        shown = json.dumps(args, ensure_ascii=False, sort_keys=True)

        def problem(obs: Any, index: int) -> str | None:
            res = classify(obs)
            if res.outcome == "success":
                return None
            return f"{tool} {shown} page {index + 1}: {res.outcome} ({res.detail})"

        size = page_size_of(ep)
        if callable(self.page_size):
            size = min(size, self.page_size(ep, args))
        elif self.page_size:
            size = min(size, self.page_size)
        try:
            return read_pages(lambda a: self._caller.call(tool, a), ep, args, size,
                              max_pages=self.max_pages, problem=problem)
        except PageFailed as exc:
            raise CallFailed(str(exc)) from None


# ---- values -----------------------------------------------------------------------------
def as_number(value: Any) -> float | None:
    """A record value as a number (``"1,234"`` → 1234.0); None when it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(float(value)) else None
    text = str(value).strip().replace(",", "")
    if not text or len(text) > 24:
        return None
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _num_out(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def _s(value: Any) -> str:
    s = scalar(value)
    return "" if s is None else s


# ---- the interpreter ----------------------------------------------------------------------
@dataclass
class Run:
    """An executed program: every step's value, the calls made (in order) and the answer."""

    values: dict[str, Any]
    calls: list[PagedResult]
    answer: Any
    #: step id → the call results it made (one per call, several for ``each``).
    step_calls: dict[str, list[PagedResult]]


def _records(values: Mapping[str, Any], ref: str) -> list[dict[str, Any]]:
    v = values.get(ref)
    if not isinstance(v, PagedResult):
        raise ProgramError(f"step {ref!r} is not a call (got {type(v).__name__})")
    return v.records


def _where(recs: list[dict[str, Any]], where: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    if not where:
        return recs
    f, op = where["field"], where.get("op", "eq")
    if op == "in":
        if not isinstance(where["value"], list):
            raise ProgramError("where op='in' needs a list value")
        want = {str(x) for x in where["value"]}
        return [r for r in recs if _s(r.get(f)) in want]
    val = str(where["value"])
    if op == "eq":
        return [r for r in recs if _s(r.get(f)) == val]
    if op == "contains":
        return [r for r in recs if val in _s(r.get(f))]
    raise ProgramError(f"where op={op!r} unknown; use eq, contains or in")


def _keyed(recs: list[dict[str, Any]], key: str) -> list[tuple[float, int, dict[str, Any]]]:
    out = [(x, i, r) for i, r in enumerate(recs) if (x := as_number(r.get(key))) is not None]
    if not out:
        raise ProgramError(f"no record has a number in {key!r}")
    return out


def _guard_ok(step: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    g = step.get("if")
    if not g:
        return True
    x = values.get(g["ref"])
    if not isinstance(x, (int, float)):
        raise ProgramError(f"condition on {g['ref']!r}: not a number")
    test = x >= g["gte"]
    return test == bool(g.get("is", True))


def _call_step(step: Mapping[str, Any], values: dict[str, Any], ex: PagedExecutor) -> Any:
    args = {k: str(v) for k, v in step.get("args", {}).items()}
    for param, b in step.get("bind", {}).items():
        v = values.get(b["ref"])
        if v is None or isinstance(v, (list, dict, PagedResult)):
            raise ProgramError(f"bind {param} <- {b['ref']!r}: not a scalar")
        args[param] = apply_transform(v, b.get("transform", ""))
    each = step.get("each")
    if not each:
        return ex.call(step["tool"], args)
    items = values.get(each["ref"])
    if not isinstance(items, list) or not items:
        raise ProgramError(f"each over {each['ref']!r}: not a non-empty list")
    out = []
    for item in items:
        a = dict(args)
        a[each["param"]] = apply_transform(item, each.get("transform", ""))
        out.append([str(item), ex.call(step["tool"], a)])
    return out


def _reduce(step: Mapping[str, Any], values: dict[str, Any]) -> Any:  # noqa: C901 - one op table
    op = step["op"]
    if op in ("map_count", "map_sum", "map_argmax", "map_argmin"):
        m = values.get(step["from"])
        if not isinstance(m, list):
            raise ProgramError(f"{op} over {step['from']!r}: not an each-call")
        counts = [(v, len(_where(r.records, step.get("where")))) for v, r in m]
        if op == "map_sum":
            return sum(c for _, c in counts)
        if op == "map_count":
            return {v: c for v, c in counts}
        best = (max if op == "map_argmax" else min)(counts, key=lambda t: t[1])
        ties = [v for v, c in counts if c == best[1]]
        winner = ties[0]
        lab = step.get("label")
        if lab:
            recs = _records(values, lab["from"])
            for r in recs:
                if _s(r.get(lab["key"])) == winner:
                    return _s(r.get(lab["field"]))
        return winner
    if op == "cmp":
        a, b = values.get(step["a"]), values.get(step["b"])
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            raise ProgramError("cmp needs two numbers")
        la, lb = step.get("labels", ["a", "b"])
        return la if a > b else lb if b > a else "같음"
    if op == "pair":
        return [values.get(r) for r in step["refs"]]
    if op == "choose":
        g = step["test"]
        x = values.get(g["ref"])
        if not isinstance(x, (int, float)):
            raise ProgramError(f"choose on {g['ref']!r}: not a number")
        return values.get(step["then"] if x >= g["gte"] else step["else"])
    recs = _where(_records(values, step["from"]), step.get("where"))
    if op == "count":
        return len(recs)
    if op == "pick":
        if not recs:
            raise ProgramError(f"pick from {step['from']!r}: no record matches {step.get('where')}")
        v = _s(recs[0].get(step["field"]))
        if not v:
            raise ProgramError(f"pick from {step['from']!r}: empty {step['field']!r}")
        return v
    if op in ("argmax", "argmin"):
        rows = _keyed(recs, step["key"])
        best = (max if op == "argmax" else min)(rows, key=lambda t: (t[0], -t[1]) if op == "argmax" else (t[0], t[1]))
        v = _s(best[2].get(step["field"]))
        if not v:
            raise ProgramError(f"{op}: empty {step['field']!r}")
        return v
    if op == "topk":
        rows = sorted(_keyed(recs, step["key"]), key=lambda t: (-t[0], t[1]))
        return [_s(r.get(step["field"])) for _, _, r in rows[: int(step["k"])]]
    if op in ("sum", "mean", "max", "min"):
        xs = [x for x, _, _ in _keyed(recs, step["key"])]
        if op == "sum":
            return _num_out(sum(xs))
        if op == "mean":
            return _num_out(round(sum(xs) / len(xs), 2))
        return _num_out(max(xs) if op == "max" else min(xs))
    if op == "distinct":
        vals = sorted({_s(r.get(step["field"])) for r in recs} - {""})
        return vals[: int(step["limit"])] if step.get("limit") else vals
    if op == "distinct_count":
        return len({_s(r.get(step["field"])) for r in recs} - {""})
    if op == "values":
        seen: dict[str, None] = {}
        for r in recs:
            v = _s(r.get(step["field"]))
            if v:
                seen.setdefault(v, None)
        return list(seen)
    raise ProgramError(f"op={op!r} is unknown")


CALL_OPS = ("call",)


def step_refs(step: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(where, step id) of every earlier step ``step`` reads."""
    out: list[tuple[str, str]] = []
    for param, b in (step.get("bind") or {}).items():
        out.append((f"bind {param}", b.get("ref")))
    for name in ("each", "if"):
        if step.get(name):
            out.append((name, step[name].get("ref")))
    if step.get("op") == "choose" and step.get("test"):
        out.append(("test", step["test"].get("ref")))
    for name in ("from", "a", "b", "then", "else"):
        if isinstance(step.get(name), str):  # step ids (cmp's a/b, choose's then/else)
            out.append((name, step[name]))
    if step.get("label"):
        out.append(("label", step["label"].get("from")))
    out += [("refs", r) for r in step.get("refs") or []]
    return out


def validate_program(program: Any) -> None:
    """Check ``program`` before it runs: steps have unique ids and read only earlier steps,
    and the answer is a step. Raises ``ProgramError`` listing what is available."""
    if not isinstance(program, Mapping) or not isinstance(program.get("steps"), list) or "answer" not in program:
        raise ProgramError("a program is {'steps': [...], 'answer': step id}")
    seen: list[str] = []
    for step in program["steps"]:
        sid = step.get("id") if isinstance(step, Mapping) else None
        if not sid or sid in seen:
            raise ProgramError(f"step id {sid!r} missing or repeated")
        for where, ref in step_refs(step):
            if ref not in seen:
                raise ProgramError(f"step {sid}: {where} refers to {ref!r}, which is not an earlier step "
                                   f"(available: {', '.join(seen) or 'none'})")
        seen.append(sid)
    if program["answer"] not in seen:
        raise ProgramError(f"answer {program['answer']!r} is not a step (available: {', '.join(seen)})")


def run_program(program: Mapping[str, Any], ex: PagedExecutor) -> Run:
    """Validate ``program`` (:func:`validate_program`), then execute it step by step; raises
    ``ProgramError`` (``CallFailed``) when it cannot."""
    validate_program(program)
    values: dict[str, Any] = {}
    calls: list[PagedResult] = []
    step_calls: dict[str, list[PagedResult]] = {}
    for step in program["steps"]:
        sid = step.get("id")
        if not sid or sid in values:
            raise ProgramError(f"step id {sid!r} missing or repeated")
        if not _guard_ok(step, values):
            values[sid] = None
            continue
        if step.get("op") == "call":
            v = _call_step(step, values, ex)
            made = [v] if isinstance(v, PagedResult) else [r for _, r in v]
            calls.extend(made)
            step_calls[sid] = made
        else:
            v = _reduce(step, values)
        values[sid] = v
    ans = values.get(program["answer"])
    if ans is None or ans == [] or ans == "":
        raise ProgramError("the answer is empty")
    return Run(values, calls, ans, step_calls)
