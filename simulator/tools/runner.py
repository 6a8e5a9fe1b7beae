"""Running gold programs: expression values, the ops, and the one runner.

:func:`run_program` executes a :class:`~simulator.tools.program.Program` step by step through
any tool-call function (a :class:`~simulator.tools.ToolCaller`, a bench episode that logs
every call); ``pages: all`` steps read every page with :func:`~simulator.tools.read_pages`.
:func:`run_step` runs one step (EDGE's sampler executes a program while it builds it).
Every failure is a :class:`~simulator.errors.ProgramError`.

The rules (one set, for KOPA-Bench's tasks and EDGE's synthesized examples alike):

- **Numbers**: a record value is a number when its text is one, thousands separators allowed,
  followed at most by a unit without digits: ``"109,900"`` → 109900, ``"715.1 Kcal"`` → 715.1,
  ``"12%"`` → 12; ``"2024-01-01"``, ``"A12"`` and ``""`` are not numbers (NaN).
- **Numeric results** (``sum``/``mean``/``min``/``max``/``arith``) are rounded only where the
  step says ``round: N``; a whole number comes out as an ``int`` (``5``, never ``5.0``).
- **Records without a number**: ``sum``/``mean``/``min``/``max`` skip them (none left is an
  error); ``argmax``/``argmin`` never pick one; a numeric ``sort`` puts them last in either
  direction. Ties keep the earlier record (``argmax``, ``argmin``, ``sort``).
- **Fan-out shape**: a ``foreach`` call outputs one flat list of records, each with the
  fan-out item under ``_item``; ``group_count``/``group_sum`` with ``keys`` count every listed
  key (zero included), so "which item has most" is ``group_count`` + ``argmax``.
- **Empty results**: a call that answers with no records outputs ``[]`` (a count of 0 is an
  answer); an empty page after the first ends the reading (:func:`read_pages`).
- ``where`` on any list op keeps the matching records first (``count`` with ``where`` is
  ``filter`` + ``count``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog, Endpoint
from ..errors import ProgramError
from ..query import transform_value
from .call import arg_text
from .keys import is_key_tool
from .paging import PageFailed, PageResult, is_paged, read_pages
from .program import CallStep, Cond, OpStep, Program, Step

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "CallFn",
    "Policy",
    "compare",
    "eval_expr",
    "format_answer",
    "get_field",
    "num",
    "run_op",
    "run_program",
    "run_step",
]

#: Page size of ``pages: all`` steps unless the step sets one (capped by the endpoint).
DEFAULT_PAGE_SIZE = 100

# Contract: ``call(tool, args)`` answers one request (args as JSON values; paging included
# when the runner pages) with a page result (``ok``, ``records``, ``total``, ``error``); it
# never raises for a failed call (the runner raises ``ProgramError`` naming the step).
CallFn = Callable[[str, dict[str, Any]], PageResult]


@dataclass(frozen=True)
class Policy:
    """How faithfully a run follows the program (naive baselines bend it)."""

    #: ``pages: all`` steps fetch only their first page.
    first_page_only: bool = False
    #: ``foreach`` fan-outs call only the first item; ``pick: all`` refs keep one value.
    first_of_many: bool = False
    #: Records per page of ``pages: all`` steps, chosen per call (``page_size(endpoint,
    #: args)``, capped by the endpoint); overrides the step's ``page_size``. The records read
    #: are the same at any size: only the page requests differ.
    page_size: Callable[[Endpoint, dict[str, str]], int] | None = None
    #: ``pages: all`` steps needing more pages than this fail (never cut to their first pages).
    max_pages: int | None = None


#: A number (thousands separators allowed), then at most a unit without digits.
_NUM = re.compile(r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+)\s*[^\d]*")


def num(x: Any) -> float:
    """A record value as a number (``"109,900"`` → 109900.0, ``"715.1 Kcal"`` → 715.1); NaN
    when it does not start with one or has more digits after it (``"2024-01-01"``, ``"A12"``)."""
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, (int, float)):
        return float(x) if math.isfinite(float(x)) else math.nan
    if x is None:
        return math.nan
    m = _NUM.fullmatch(str(x))
    if not m:
        return math.nan
    return float(m.group(1).replace(",", ""))


def _num_out(v: float, digits: int | None) -> int | float:
    """A numeric result: rounded to ``digits`` when given; a whole number as an ``int``."""
    if math.isnan(v) or math.isinf(v):
        return v
    if digits is not None:
        v = round(v, digits)
    return int(v) if float(v).is_integer() else v


def get_field(rec: Any, path: str | None) -> Any:
    """Dotted-path field of a record (``None`` when absent)."""
    if path is None:
        return rec
    cur = rec
    for part in path.split("."):
        if isinstance(cur, dict):
            cur = cur.get(part)
        else:
            return None
    return cur


def _transform(v: Any, transform: str | None) -> Any:
    if not transform:
        return v
    out: Any = v
    rest: list[str] = []
    for step in transform.split("|"):
        if step == "int":
            out = int(num(out))
        elif step == "num":
            out = num(out)
        elif step == "len":
            out = len(out) if isinstance(out, (list, str)) else 0
        elif step.startswith("pad:"):
            out = transform_value(out, None).zfill(int(step[4:]))
        else:
            rest.append(step)
            out = transform_value(out, step)
    return out


def eval_expr(expr: Any, env: dict[str, Any], item: Any = None) -> Any:
    """Evaluate an expression against step outputs ``env`` (and a fan-out ``item``)."""
    if isinstance(expr, dict) and "$ref" in expr:
        val = env[str(expr["$ref"])]
        fld = expr.get("field")
        tr = expr.get("transform")
        pick = expr.get("pick", "all")
        if isinstance(val, list):
            vals = [get_field(r, fld) if fld else r for r in val]
            vals = [_transform(v, tr) for v in vals]
            if pick == "all":
                return vals
            if not vals:
                raise ProgramError(f"$ref {expr['$ref']}: pick {pick!r} of an empty list")
            if pick == "first":
                return vals[0]
            if pick == "last":
                return vals[-1]
            return vals[int(pick)]
        v = get_field(val, fld) if fld else val
        return _transform(v, tr)
    if isinstance(expr, dict) and "$item" in expr:
        v = get_field(item, expr["$item"]) if expr["$item"] else item
        return _transform(v, expr.get("transform"))
    if isinstance(expr, list):
        return [eval_expr(e, env, item) for e in expr]
    return expr


def compare(left: Any, op: str, right: Any) -> bool:
    """``left op right`` with numeric comparison where both sides are numbers."""
    if op == "nonempty":
        return left not in (None, "", " ", [])
    if op == "in":
        return str(left) in {str(r) for r in (right or [])}
    ls, rs = ("" if left is None else str(left)), ("" if right is None else str(right))
    if op == "eq":
        return ls.strip() == rs.strip()
    if op == "ne":
        return ls.strip() != rs.strip()
    if op == "contains":
        return rs in ls
    if op == "not_contains":
        return rs not in ls
    if op == "prefix":
        return ls.startswith(rs)
    a, b = num(left), num(right)
    if math.isnan(a) or math.isnan(b):
        a2, b2 = ls, rs
        return {"gt": a2 > b2, "ge": a2 >= b2, "lt": a2 < b2, "le": a2 <= b2}[op]
    return {"gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b}[op]


def _is_numeric(numeric: bool | None, vals: list[Any]) -> bool:
    if numeric is None:
        return all(not math.isnan(num(v)) for v in vals if v not in (None, ""))
    return numeric


def _sort(src: list[Any], by: str, numeric: bool | None, desc: bool) -> list[Any]:
    vals = [get_field(r, by) for r in src]
    if _is_numeric(numeric, vals):
        keyed = [(num(v), r) for v, r in zip(vals, src)]
        have = sorted((kr for kr in keyed if not math.isnan(kr[0])), key=lambda kr: kr[0], reverse=desc)
        return [r for _k, r in have] + [r for k, r in keyed if math.isnan(k)]
    return sorted(src, key=lambda r: "" if get_field(r, by) is None else str(get_field(r, by)), reverse=desc)


_LIST_OPS = ("filter", "sort", "count", "sum", "mean", "min", "max", "argmax", "argmin",
             "distinct", "pluck", "group_count", "group_sum", "join", "unnest", "head")


def _keep(s: OpStep, src: list[Any], env: dict[str, Any]) -> list[Any]:
    conds = [(w, eval_expr(w.value, env)) for w in s.where]
    return [r for r in src if all(compare(get_field(r, w.field), w.op, v) for w, v in conds)]


def _groups(s: OpStep, src: list[Any], env: dict[str, Any], value: Callable[[Any], float]) -> list[tuple[str, float]]:
    acc: dict[str, float] = {}
    if s.keys is not None:
        keys = eval_expr(s.keys, env)
        for k in keys if isinstance(keys, list) else [keys]:
            acc.setdefault(str(k), 0)
    for r in src:
        k = str(get_field(r, s.by))
        acc[k] = acc.get(k, 0) + value(r)
    return sorted(acc.items(), key=lambda kv: (-kv[1], kv[0]))


def run_op(s: OpStep, env: dict[str, Any]) -> Any:
    """Evaluate one op step."""
    src: Any = env[s.from_] if s.from_ else None
    if s.op in _LIST_OPS:
        if not isinstance(src, list):
            raise ProgramError(f"step {s.id}: {s.op} needs a list from {s.from_}")
        if s.where:
            src = _keep(s, src, env)
    if s.op == "filter":
        return src
    if s.op == "sort":
        out = _sort(src, s.by or "", s.numeric, s.desc)
        return out[: s.top] if s.top else out
    if s.op == "head":
        return src[: s.top]
    if s.op == "count":
        return len(src)
    if s.op in ("sum", "mean", "min", "max"):
        xs = [num(get_field(r, s.field)) for r in src]
        xs = [x for x in xs if not math.isnan(x)]
        if not xs:
            raise ProgramError(f"step {s.id}: no numbers in {s.field} of {s.from_}")
        val = {"sum": sum(xs), "mean": sum(xs) / len(xs), "min": min(xs), "max": max(xs)}[s.op]
        return _num_out(val, s.round)
    if s.op in ("argmax", "argmin"):
        vals = [get_field(r, s.by) for r in src]
        if _is_numeric(s.numeric, vals):
            cands = [(num(v), r) for v, r in zip(vals, src) if not math.isnan(num(v))]
        else:
            cands = [("" if v is None else str(v), r) for v, r in zip(vals, src)]
        if not cands:
            raise ProgramError(f"step {s.id}: {s.op} of a list with no {s.by}")
        best = cands[0]
        for c in cands[1:]:
            if (c[0] > best[0]) if s.op == "argmax" else (c[0] < best[0]):
                best = c
        return best[1]
    if s.op == "distinct":
        vals = {str(get_field(r, s.field)) for r in src if get_field(r, s.field) not in (None, "")}
        return sorted(vals)
    if s.op == "pluck":
        return [get_field(r, s.field) for r in src]
    if s.op == "group_count":
        return [{"key": k, "count": int(c)} for k, c in _groups(s, src, env, lambda _r: 1)]
    if s.op == "group_sum":
        def x(r: Any) -> float:
            v = num(get_field(r, s.field))
            return 0.0 if math.isnan(v) else v

        return [{"key": k, "sum": _num_out(v, s.round)} for k, v in _groups(s, src, env, x)]
    if s.op == "join":
        assert s.on is not None and s.with_ is not None
        right = env[s.with_]
        index: dict[str, Any] = {}
        for r in right if isinstance(right, list) else [right]:
            index.setdefault(str(get_field(r, s.on[1])).strip(), r)
        out = []
        for r in src:
            k = str(get_field(r, s.on[0])).strip()
            if k in index:
                out.append({**r, "_r": index[k]})
        return out
    if s.op == "unnest":
        out = []
        for r in src:
            inner = get_field(r, s.field)
            if isinstance(inner, dict):
                inner = [inner]
            for x in inner or []:
                out.append({**x, "_parent": r} if isinstance(x, dict) else {"value": x, "_parent": r})
        return out
    if s.op == "coalesce":
        for sid in s.steps or []:
            if env[sid] not in (None, [], ""):
                return env[sid]
        return []
    if s.op == "choose":
        assert s.test is not None
        hold = compare(eval_expr(s.test.left, env), s.test.op, eval_expr(s.test.right, env))
        return eval_expr(s.a if hold else s.b, env)
    if s.op == "arith":
        a, b = num(eval_expr(s.a, env)), num(eval_expr(s.b, env))
        if s.fn == "add":
            v = a + b
        elif s.fn == "sub":
            v = a - b
        elif s.fn == "mul":
            v = a * b
        elif s.fn == "div":
            v = a / b if b else math.nan
        elif s.fn == "pct":
            v = 100.0 * a / b if b else math.nan
        else:
            v = 100.0 * (a - b) / b if b else math.nan
        return _num_out(v, s.round)
    raise ProgramError(f"unknown op {s.op}")


def format_answer(value: Any) -> str:
    """The text form of an answer value (what an agent says)."""
    if isinstance(value, list):
        return ", ".join(format_answer(v) for v in value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.4f}".rstrip("0").rstrip(".")
    if isinstance(value, dict):
        raise ProgramError("an answer must be a value or a list of values, not a record")
    return "" if value is None else str(value).strip()


def _fetch(call: CallFn, catalog: Catalog, step: CallStep, args: dict[str, Any],
           policy: Policy) -> list[dict[str, Any]]:
    if is_key_tool(step.call):  # a key-issuing step: one call, one record (simulator.tools.keys)
        got = call(step.call, args)
        if not got.ok:
            raise ProgramError(f"step {step.id}: {step.call} failed: {getattr(got, 'error', None)}")
        return list(got.records)
    if step.call not in catalog.endpoints:
        raise ProgramError(f"step {step.id}: tool {step.call!r} is not in the catalog (`simulator tools` lists them)")
    ep = catalog.endpoints[step.call]
    if step.pages == "all" and is_paged(ep):
        text = {k: arg_text(v) for k, v in args.items()}
        size = step.page_size or min(ep.max_page_size, DEFAULT_PAGE_SIZE)
        if policy.page_size is not None:
            size = max(1, min(ep.max_page_size, policy.page_size(ep, text)))

        def problem(rec: Any, index: int) -> str | None:
            if rec.ok:
                return None
            page = f" page {index + 1}" if index else ""
            return f"step {step.id}: {step.call}{page} failed: {getattr(rec, 'error', None)}"

        try:
            got = read_pages(lambda a: call(step.call, a), ep, text, size, max_pages=policy.max_pages,
                             first_page_only=policy.first_page_only, problem=problem)
        except PageFailed as exc:
            raise ProgramError(f"step {step.id}: {exc}" if not str(exc).startswith("step ") else str(exc)) from None
        return got.records
    rec = call(step.call, args)
    if not rec.ok:
        raise ProgramError(f"step {step.id}: {step.call} failed: {getattr(rec, 'error', None)}")
    return list(rec.records)


def _holds(cond: Cond, outs: dict[str, Any]) -> bool:
    """Whether a ``when`` condition holds on the outputs so far."""
    return compare(eval_expr(cond.left, outs), cond.op, eval_expr(cond.right, outs))


def _first_only(expr: Any) -> Any:
    if isinstance(expr, dict) and "$ref" in expr and expr.get("pick", "all") == "all":
        return {**expr, "pick": "first"}
    return expr


def run_step(step: Step, outs: dict[str, Any], call: CallFn, catalog: Catalog,
             policy: Policy = Policy()) -> Any:
    """The output of one step given the outputs ``outs`` of the steps before it."""
    if isinstance(step, OpStep):
        if step.when is not None and not _holds(step.when, outs):
            return None
        return run_op(step, outs)
    if step.when is not None and not _holds(step.when, outs):
        return []
    if step.foreach is not None:
        items = eval_expr(step.foreach, outs)
        if not isinstance(items, list):
            items = [items]
        if policy.first_of_many:
            items = items[:1]
        result: list[dict[str, Any]] = []
        for item in items:
            args = {k: eval_expr(v, outs, item) for k, v in step.args.items()}
            for r in _fetch(call, catalog, step, args, policy):
                result.append({**r, "_item": item})
        return result
    raw = step.args
    if policy.first_of_many:
        raw = {k: _first_only(v) for k, v in raw.items()}
    args = {k: eval_expr(v, outs) for k, v in raw.items()}
    bad = [k for k, v in args.items() if isinstance(v, list)]
    if bad:
        raise ProgramError(f"step {step.id}: args {bad} evaluate to lists (use foreach)")
    return _fetch(call, catalog, step, args, policy)


def run_program(
    program: Program,
    call: CallFn,
    catalog: Catalog,
    policy: Policy = Policy(),
    on_step: Callable[[str], None] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Execute ``program`` through ``call``; returns (answer value, step outputs).

    The program was validated when it was built (every step reads only earlier steps).
    ``catalog`` says which tools are paged; ``on_step`` is told each step id before the step
    runs (to attribute calls to steps). Raises ``ProgramError`` naming the failed step.

    >>> from simulator import Store, Resolver                 # doctest: +SKIP
    >>> caller = ToolCaller(Resolver(Store().open("kopa")))   # doctest: +SKIP
    >>> prog = Program.model_validate({"steps": [{"id": "c", "call": "tago_city_codes"},
    ...     {"id": "n", "op": "count", "from": "c"}], "answer": {"$ref": "n"}})  # doctest: +SKIP
    >>> run_program(prog, caller.call, caller.catalog)[0]    # doctest: +SKIP
    132
    """
    outs: dict[str, Any] = {}
    for step in program.steps:
        if on_step is not None:
            on_step(step.id)
        outs[step.id] = run_step(step, outs, call, catalog, policy)
    return eval_expr(program.answer, outs), outs
