"""Running gold programs: expression values, the ops, and the one runner.

:func:`run_program` executes a :class:`~simulator.tools.program.Program` step by step through
any tool-call function (a :class:`~simulator.tools.ToolCaller`, a bench episode that logs
every call); ``pages: all`` steps read every page with :func:`~simulator.tools.read_pages`.
Every failure is a :class:`~simulator.errors.ProgramError`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog
from ..errors import ProgramError
from ..query import transform_value
from .call import arg_text
from .paging import PageFailed, PageResult, is_paged, read_pages
from .program import CallStep, Cond, OpStep, Program

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


_NUM = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")


def num(x: Any) -> float:
    """A number from a record value (``"109,900"`` → 109900.0); NaN when there is none."""
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, (int, float)):
        return float(x)
    if x is None:
        return math.nan
    m = _NUM.search(str(x))
    if not m:
        return math.nan
    try:
        return float(m.group(0).replace(",", ""))
    except ValueError:
        return math.nan


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


def _sort_key(numeric: bool | None, vals: list[Any]) -> Any:
    if numeric is None:
        numeric = all(not math.isnan(num(v)) for v in vals if v not in (None, ""))
    if numeric:
        return lambda v: (math.isnan(num(v)), num(v) if not math.isnan(num(v)) else 0.0)
    return lambda v: ("" if v is None else str(v))


def run_op(s: OpStep, env: dict[str, Any]) -> Any:
    """Evaluate one op step."""
    src: Any = env[s.from_] if s.from_ else None
    if s.op in ("filter", "sort", "count", "sum", "mean", "min", "max", "argmax", "argmin",
                "distinct", "pluck", "group_count", "group_sum", "join", "unnest", "head"):
        if not isinstance(src, list):
            raise ProgramError(f"step {s.id}: {s.op} needs a list from {s.from_}")
    if s.op == "filter":
        conds = [(w, eval_expr(w.value, env)) for w in s.where]
        return [r for r in src if all(compare(get_field(r, w.field), w.op, v) for w, v in conds)]
    if s.op == "sort":
        key = _sort_key(s.numeric, [get_field(r, s.by) for r in src])
        out = sorted(src, key=lambda r: key(get_field(r, s.by)), reverse=s.desc)
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
        return round(val, s.round) if s.round is not None else val
    if s.op in ("argmax", "argmin"):
        if not src:
            raise ProgramError(f"step {s.id}: {s.op} of an empty list")
        key = _sort_key(s.numeric, [get_field(r, s.by) for r in src])
        best = src[0]
        for r in src[1:]:
            a, b = key(get_field(r, s.by)), key(get_field(best, s.by))
            if (a > b) if s.op == "argmax" else (a < b):
                best = r
        return best
    if s.op == "distinct":
        vals = {str(get_field(r, s.field)) for r in src if get_field(r, s.field) not in (None, "")}
        return sorted(vals)
    if s.op == "pluck":
        return [get_field(r, s.field) for r in src]
    if s.op == "group_count":
        counts: dict[str, int] = {}
        for r in src:
            k = str(get_field(r, s.by))
            counts[k] = counts.get(k, 0) + 1
        return [{"key": k, "count": c} for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    if s.op == "group_sum":
        sums: dict[str, float] = {}
        for r in src:
            k = str(get_field(r, s.by))
            x = num(get_field(r, s.field))
            sums[k] = sums.get(k, 0.0) + (0.0 if math.isnan(x) else x)
        return [{"key": k, "sum": v} for k, v in sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))]
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
        return round(v, s.round) if s.round is not None else v
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
    if step.call not in catalog.endpoints:
        raise ProgramError(f"step {step.id}: tool {step.call!r} is not in the catalog (`simulator tools` lists them)")
    ep = catalog.endpoints[step.call]
    if step.pages == "all" and is_paged(ep):
        size = step.page_size or min(ep.max_page_size, DEFAULT_PAGE_SIZE)

        def problem(rec: Any, index: int) -> str | None:
            if rec.ok:
                return None
            page = f" page {index + 1}" if index else ""
            return f"step {step.id}: {step.call}{page} failed: {getattr(rec, 'error', None)}"

        try:
            got = read_pages(lambda a: call(step.call, a), ep, {k: arg_text(v) for k, v in args.items()}, size,
                             first_page_only=policy.first_page_only, problem=problem)
        except PageFailed as exc:
            raise ProgramError(str(exc)) from None
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
        if isinstance(step, OpStep):
            if step.when is not None and not _holds(step.when, outs):
                outs[step.id] = None
                continue
            outs[step.id] = run_op(step, outs)
            continue
        if step.when is not None and not _holds(step.when, outs):
            outs[step.id] = []
            continue
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
            outs[step.id] = result
        else:
            raw = step.args
            if policy.first_of_many:
                raw = {k: _first_only(v) for k, v in raw.items()}
            args = {k: eval_expr(v, outs) for k, v in raw.items()}
            bad = [k for k, v in args.items() if isinstance(v, list)]
            if bad:
                raise ProgramError(f"step {step.id}: args {bad} evaluate to lists (use foreach)")
            outs[step.id] = _fetch(call, catalog, step, args, policy)
    return eval_expr(program.answer, outs), outs
