"""Gold programs: tool-call steps with data flow, reductions and a final answer expression.

A program is a list of steps. A **call** step calls a tool (``call``) with ``args`` whose
values are literals or expressions over earlier steps; ``foreach`` fans the call out over a
list; ``pages: all`` fetches every page of the collection. An **op** step reduces earlier
outputs (filter, sort, count, sum, argmax, …). ``answer`` is an expression over the steps.

COND junctions: a call or op step with ``when`` (a comparison of two expressions) only runs
when it holds (a skipped call makes no request and outputs ``[]``; a skipped op outputs
``None``), and the ``choose`` op picks ``a`` when its ``test`` holds, else ``b``:
``{"op": "choose", "test": {"left": {"$ref": "n"}, "op": "ge", "right": 3},
"a": {"$ref": "then"}, "b": {"$ref": "else"}}``.

Expressions (JSON/YAML mappings):

- ``{"$ref": "s1", "field": "region_cd", "pick": "first", "transform": "slice:0:5"}``:
  the output of step ``s1``; ``field`` (dotted path) is taken from each record, ``pick`` is
  ``first`` | ``last`` | ``all`` (default ``all`` for lists) | an index; ``transform`` is a
  ``|``-separated chain of ``slice:a:b``, ``digits``, ``strip``, ``nospace``, ``lower``,
  ``int``, ``num``, ``len``.
- ``{"$item": "field"}``: inside a ``foreach`` call, a field of the current item
  (``{"$item": null}``: the item itself).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simulator.query import transform_value

__all__ = [
    "CallStep",
    "OpStep",
    "Program",
    "ProgramError",
    "Step",
    "eval_expr",
    "format_answer",
    "num",
    "program_shape",
    "refs_in",
]

OPS = (
    "filter", "sort", "count", "sum", "mean", "min", "max", "argmax", "argmin", "distinct",
    "pluck", "group_count", "group_sum", "join", "arith", "unnest", "coalesce", "head", "choose",
)
COMPARE = ("eq", "ne", "contains", "not_contains", "prefix", "gt", "ge", "lt", "le", "in",
           "nonempty")


class ProgramError(ValueError):
    """A program is malformed, or failed while running."""


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Cond(_M):
    """A comparison: ``left`` op ``right`` (both expressions)."""

    left: Any
    op: Literal["eq", "ne", "contains", "not_contains", "prefix", "gt", "ge", "lt", "le", "in",
                "nonempty"]
    right: Any = None


class CallStep(_M):
    """Call ``call`` (a catalog tool id) with ``args``."""

    id: str
    call: str
    args: dict[str, Any] = Field(default_factory=dict)
    #: ``one``: the page the args ask for; ``all``: every page (page params set by the runner).
    pages: Literal["one", "all"] = "one"
    #: Page size for ``pages: all`` (default: the endpoint's maximum).
    page_size: int | None = None
    #: Fan the call out over this list (an expression); args may use ``$item``.
    foreach: Any = None
    #: Only call when this holds (COND junctions); the output is ``[]`` otherwise.
    when: Cond | None = None
    note: str = ""


class Where(_M):
    """One filter clause on a record field."""

    field: str
    op: Literal["eq", "ne", "contains", "not_contains", "prefix", "gt", "ge", "lt", "le", "in",
                "nonempty"]
    value: Any = None


class OpStep(_M):
    """A reduction over earlier outputs."""

    id: str
    op: Literal["filter", "sort", "count", "sum", "mean", "min", "max", "argmax", "argmin",
                "distinct", "pluck", "group_count", "group_sum", "join", "arith", "unnest",
                "coalesce", "head", "choose"]
    from_: str | None = Field(default=None, alias="from")
    where: list[Where] = Field(default_factory=list)
    field: str | None = None
    by: str | None = None
    desc: bool = False
    top: int | None = None
    numeric: bool | None = None
    #: join: the right-hand step and the ``[left_field, right_field]`` keys.
    with_: str | None = Field(default=None, alias="with")
    on: list[str] | None = None
    #: arith: ``fn`` of expressions ``a`` and ``b``.
    fn: Literal["add", "sub", "mul", "div", "pct", "pct_change"] | None = None
    a: Any = None
    b: Any = None
    #: coalesce: step ids, first non-empty wins.
    steps: list[str] | None = None
    round: int | None = None
    #: choose: ``a`` when ``test`` holds, else ``b`` (the COND junction's answer).
    test: Cond | None = None
    #: Only evaluate when this holds (a branch of a COND junction); the output is ``None`` otherwise.
    when: Cond | None = None
    note: str = ""

    @model_validator(mode="after")
    def _needs(self) -> OpStep:
        need: dict[str, tuple[str, ...]] = {
            "filter": ("from_",), "sort": ("from_", "by"), "count": ("from_",),
            "sum": ("from_", "field"), "mean": ("from_", "field"), "min": ("from_", "field"),
            "max": ("from_", "field"), "argmax": ("from_", "by"), "argmin": ("from_", "by"),
            "distinct": ("from_", "field"), "pluck": ("from_", "field"),
            "group_count": ("from_", "by"), "group_sum": ("from_", "by", "field"),
            "join": ("from_", "with_", "on"), "arith": ("fn",), "unnest": ("from_", "field"),
            "coalesce": ("steps",), "head": ("from_", "top"), "choose": ("test", "a", "b"),
        }
        missing = [n.rstrip("_") for n in need[self.op] if getattr(self, n) is None]
        if missing:
            raise ValueError(f"op {self.op!r} (step {self.id}) needs {', '.join(missing)}")
        if self.op == "filter" and not self.where:
            raise ValueError(f"op 'filter' (step {self.id}) needs at least one where clause")
        if self.on is not None and len(self.on) != 2:
            raise ValueError(f"step {self.id}: on must be [left_field, right_field]")
        return self


Step = Union[CallStep, OpStep]


def _parse_step(raw: Any) -> Step:
    if isinstance(raw, (CallStep, OpStep)):
        return raw
    if not isinstance(raw, dict):
        raise ValueError(f"a step must be a mapping, got {type(raw).__name__}")
    if "call" in raw:
        return CallStep.model_validate(raw)
    if "op" in raw:
        return OpStep.model_validate(raw)
    raise ValueError(f"step {raw.get('id', '?')!r} has neither 'call' nor 'op'")


class Program(_M):
    """Steps and the answer expression; validated as a data-flow graph."""

    steps: list[Step]
    answer: Any

    @model_validator(mode="before")
    @classmethod
    def _steps(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("steps"), list):
            data = dict(data)
            data["steps"] = [_parse_step(s) for s in data["steps"]]
        return data

    @model_validator(mode="after")
    def _graph(self) -> Program:
        seen: list[str] = []
        for s in self.steps:
            if s.id in seen:
                raise ValueError(f"step id {s.id!r} is used twice")
            avail = ", ".join(seen) or "none"
            for where, expr in _exprs_of(s):
                for r in refs_in(expr):
                    if r not in seen:
                        raise ValueError(
                            f"step {s.id}: {where} refers to {r!r}, which is not an earlier "
                            f"step (available: {avail})"
                        )
                if _has_item(expr) and (not isinstance(s, CallStep) or s.foreach is None
                                        or where == "foreach"):
                    raise ValueError(f"step {s.id}: {where} uses $item outside a foreach call")
            seen.append(s.id)
        for r in refs_in(self.answer):
            if r not in seen:
                raise ValueError(
                    f"answer refers to {r!r}, which is not a step (available: {', '.join(seen)})"
                )
        if not refs_in(self.answer):
            raise ValueError("answer must refer to a step")
        return self

    def step(self, sid: str) -> Step:
        """The step with id ``sid``."""
        for s in self.steps:
            if s.id == sid:
                return s
        raise KeyError(sid)

    def calls(self) -> list[CallStep]:
        """The call steps, in order."""
        return [s for s in self.steps if isinstance(s, CallStep)]

    def deps(self, s: Step) -> set[str]:
        """Step ids that ``s`` reads directly."""
        out: set[str] = set()
        for _w, e in _exprs_of(s):
            out |= set(refs_in(e))
        return out

    def call_ancestors(self, s: Step) -> set[str]:
        """Call steps that ``s`` depends on, transitively (through op steps)."""
        out: set[str] = set()
        todo = list(self.deps(s))
        while todo:
            d = todo.pop()
            st = self.step(d)
            if isinstance(st, CallStep):
                out.add(d)
            todo.extend(self.deps(st))
        return out

    def lookup_steps(self) -> list[CallStep]:
        """Call steps whose output feeds a later call's arguments (prerequisite lookups)."""
        used: set[str] = set()
        for c in self.calls():
            used |= self.call_ancestors(c)
        return [c for c in self.calls() if c.id in used]

    def ref_args(self, c: CallStep) -> list[str]:
        """Argument names of ``c`` whose values come from earlier steps or the fan-out item."""
        return [k for k, v in c.args.items() if refs_in(v) or _has_item(v)]


def _exprs_of(s: Step) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(s, CallStep):
        out += [(f"arg {k}", v) for k, v in s.args.items()]
        if s.foreach is not None:
            out.append(("foreach", s.foreach))
        if s.when is not None:
            out += [("when", s.when.left), ("when", s.when.right)]
    else:
        for name in ("from_", "with_"):
            v = getattr(s, name)
            if v is not None:
                out.append((name.rstrip("_"), {"$ref": v}))
        for sid in s.steps or []:
            out.append(("steps", {"$ref": sid}))
        out += [(f"where {w.field}", w.value) for w in s.where]
        out += [("a", s.a), ("b", s.b)]
        for name, cond in (("test", s.test), ("when", s.when)):
            if cond is not None:
                out += [(name, cond.left), (name, cond.right)]
    return out


def refs_in(expr: Any) -> list[str]:
    """Step ids an expression refers to."""
    if isinstance(expr, dict):
        if "$ref" in expr:
            return [str(expr["$ref"])]
        return [r for v in expr.values() for r in refs_in(v)]
    if isinstance(expr, list):
        return [r for v in expr for r in refs_in(v)]
    return []


def _has_item(expr: Any) -> bool:
    if isinstance(expr, dict):
        return "$item" in expr or any(_has_item(v) for v in expr.values())
    if isinstance(expr, list):
        return any(_has_item(v) for v in expr)
    return False


# ---- values ------------------------------------------------------------------------------

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


def program_shape(p: Program) -> str:
    """A structural signature: step kinds, tools, fan-out/paging and data-flow edges."""
    idx = {s.id: i for i, s in enumerate(p.steps)}
    parts = []
    for s in p.steps:
        deps = ",".join(str(idx[d]) for d in sorted(p.deps(s), key=lambda d: idx[d]))
        if isinstance(s, CallStep):
            kind = f"C:{s.call}" + (":fan" if s.foreach is not None else "") + \
                (":all" if s.pages == "all" else "") + (":when" if s.when else "")
        else:
            kind = f"O:{s.op}" + (":when" if s.when else "")
        parts.append(f"{kind}<{deps}>")
    return " ".join(parts)
