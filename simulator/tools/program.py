"""The gold-program language: tool-call steps with data flow, reductions and an answer.

One language for every gold program (KOPA-Bench's tasks, EDGE's synthesized examples, the
GRPO environment's examples) and one runner (:func:`simulator.tools.run_program`).

A program is a list of steps. A **call** step calls a tool (``call``) with ``args`` whose
values are literals or expressions over earlier steps; ``foreach`` fans the call out over a
list; ``pages: all`` fetches every page of the collection. An **op** step reduces earlier
outputs (filter, sort, count, sum, argmax, …); ``where`` on any list op keeps the matching
records first. ``answer`` is an expression over the steps.

COND junctions: a call or op step with ``when`` (a comparison of two expressions) only runs
when it holds (a skipped call makes no request and outputs ``[]``; a skipped op outputs
``None``), and the ``choose`` op picks ``a`` when its ``test`` holds, else ``b``:
``{"op": "choose", "test": {"left": {"$ref": "n"}, "op": "ge", "right": 3},
"a": {"$ref": "then"}, "b": {"$ref": "else"}}``.

Expressions (JSON/YAML mappings):

- ``{"$ref": "s1", "field": "region_cd", "pick": "first", "transform": "slice:0:5"}``:
  the output of step ``s1``; ``field`` (dotted path) is taken from each record, ``pick`` is
  ``first`` | ``last`` | ``all`` (default ``all`` for lists) | an index; ``transform`` is a
  ``|``-separated chain of ``slice:a:b``, ``pad:N`` (zero-fill to N characters), ``digits``,
  ``strip``, ``nospace``, ``lower``, ``int``, ``num``, ``len``.
- ``{"$item": "field"}``: inside a ``foreach`` call, a field of the current item
  (``{"$item": null}``: the item itself).
"""

from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .keys import is_key_tool

__all__ = [
    "COMPARE",
    "OPS",
    "CallStep",
    "Cond",
    "OpStep",
    "Program",
    "Step",
    "Where",
    "program_edges",
    "program_shape",
    "refs_in",
]

OPS = (
    "filter", "sort", "count", "sum", "mean", "min", "max", "argmax", "argmin", "distinct",
    "pluck", "group_count", "group_sum", "join", "arith", "unnest", "coalesce", "head", "choose",
)
COMPARE = ("eq", "ne", "contains", "not_contains", "prefix", "gt", "ge", "lt", "le", "in",
           "nonempty")


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
    #: group_count/group_sum: every key of this list (an expression) is a group, zero included.
    keys: Any = None
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
        """The data call steps, in order (key-issuing steps left out: :meth:`key_steps`)."""
        return [s for s in self.steps if isinstance(s, CallStep) and not is_key_tool(s.call)]

    def key_steps(self) -> list[CallStep]:
        """The key-issuing call steps (:mod:`simulator.tools.keys`), in order."""
        return [s for s in self.steps if isinstance(s, CallStep) and is_key_tool(s.call)]

    def deps(self, s: Step) -> set[str]:
        """Step ids that ``s`` reads directly."""
        out: set[str] = set()
        for _w, e in _exprs_of(s):
            out |= set(refs_in(e))
        return out

    def call_ancestors(self, s: Step) -> set[str]:
        """Call steps that ``s`` depends on, transitively (through op steps); a key the call
        carries is not data, so key-issuing steps are left out."""
        out: set[str] = set()
        todo = list(self.deps(s))
        while todo:
            d = todo.pop()
            st = self.step(d)
            if isinstance(st, CallStep):
                if not is_key_tool(st.call):
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
        keys = {k.id for k in self.key_steps()}
        return [k for k, v in c.args.items()
                if _has_item(v) or (refs_in(v) and not set(refs_in(v)) <= keys)]

    def key_args(self, c: CallStep) -> list[str]:
        """Argument names of ``c`` that carry an issued key (they read only key steps)."""
        keys = {k.id for k in self.key_steps()}
        return [k for k, v in c.args.items() if refs_in(v) and set(refs_in(v)) <= keys]


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
        out += [("a", s.a), ("b", s.b), ("keys", s.keys)]
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


def _data_refs(step: Step) -> list[str]:
    """Step ids whose *data* a step reads (a call's args and fan-out; all inputs of an op but
    its ``when``)."""
    if isinstance(step, CallStep):
        return refs_in(step.args) + refs_in(step.foreach)
    out = [v for v in (step.from_, step.with_) if v is not None] + list(step.steps or [])
    out += refs_in([w.value for w in step.where]) + refs_in(step.a) + refs_in(step.b) + refs_in(step.keys)
    if step.test is not None:
        out += refs_in([step.test.left, step.test.right])
    return out


def program_edges(p: Program) -> set[tuple[str, str]]:
    """Consecutive data-flow tool pairs ``(a, b)``: call ``b`` reads data that came from call
    ``a`` through op steps only (self-pairs left out). KOPA-Bench's and EDGE's audits."""
    by_id = {s.id: s for s in p.steps}
    memo: dict[str, set[str]] = {}

    def origins(sid: str) -> set[str]:
        if sid not in memo:
            s = by_id[sid]
            memo[sid] = {s.call} if isinstance(s, CallStep) else {t for r in _data_refs(s) for t in origins(r)}
        return memo[sid]

    keys = {k.id for k in p.key_steps()}
    return {(a, s.call) for s in p.calls() for r in _data_refs(s) if r not in keys
            for a in origins(r) if a != s.call}


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
