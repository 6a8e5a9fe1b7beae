"""The typed draft model: a program under construction and the parts its question is written from.

A junction builder (:mod:`edge.synth.junctions`) or an intent (:mod:`edge.synth.intents`)
adds executed steps to a :class:`Draft` and, for each thing the question must say, a typed
**part**: where the chain starts (:class:`StartPart`), a value chosen by name or reduction
(:class:`PickLabelPart`, :class:`PickReducePart`, :class:`PickOnePart`), a hop
(:class:`CallPart`), the period a reduction is restricted to (:class:`ScopePart`), and the
ask of its junction type (:class:`FinalPart`, :class:`FanPart` + :class:`FinalMapPart`,
:class:`SemPart`, :class:`CmpPart`, :class:`CondPart`, :class:`IntentPart`).
:mod:`edge.synth.questions` phrases the parts; nothing passes between them as untyped dicts.

The state a draft needs while it is built (the values of its executed steps, the reductions
whose record another field may be read from) is its :class:`DraftContext`, not the sampler's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.tools import Program, Step

from .execute import program_json

__all__ = [
    "CallPart", "CmpPart", "CondPart", "CondThen", "Draft", "DraftContext", "FanPart", "FinalMapPart", "FinalPart",
    "IntentPart", "Part", "PickLabelPart", "PickOnePart", "PickReducePart", "ScopePart", "SemPart", "StartPart",
]


@dataclass(kw_only=True)
class Part:
    """One thing a question says. ``branch`` is ``"then"`` for a COND's then-branch's own picks
    (said with that branch's ask); ``records``/``pages`` the size of the result it read whole
    (None when it read none: the example's ``cardinality`` lists the others, in order)."""

    branch: str | None = None
    records: int | None = None
    pages: int | None = None


@dataclass(kw_only=True)
class StartPart(Part):
    """The chain's first call: the arguments a person states."""

    tool: str
    args: dict[str, Any]


@dataclass(kw_only=True)
class ScopePart(Part):
    """The one period (``value`` of ``field``, a ``period`` kind) a reduction over ``tool``'s
    records is restricted to (:meth:`~edge.synth.sample.Sampler.scope`)."""

    tool: str
    field: str
    period: str
    value: str


@dataclass(kw_only=True)
class PickOnePart(Part):
    """The only value of ``field`` in ``tool``'s result (nothing to say)."""

    tool: str
    field: str


@dataclass(kw_only=True)
class PickReducePart(Part):
    """A value chosen by a reduction (``op`` argmax/argmin of ``key``, optionally ``where``)."""

    tool: str
    op: str
    key: str
    field: str
    where: dict[str, Any] | None = None


@dataclass(kw_only=True)
class PickLabelPart(Part):
    """A value chosen by the record's name (``label`` = ``name``): the question names it."""

    tool: str
    label: str
    name: str
    field: str


@dataclass(kw_only=True)
class CallPart(Part):
    """A hop into ``tool`` (``param`` fed from ``from_tool``; ``widens``: the value is cut to a
    larger unit by ``transform``) with its other, stated arguments."""

    tool: str
    args: dict[str, Any]
    param: str
    transform: str = ""
    widens: bool = False
    from_tool: str = ""


@dataclass(kw_only=True)
class FinalPart(Part):
    """The final reduction of a SEQ or DRV chain over ``tool``'s result."""

    tool: str
    op: str
    field: str | None = None
    key: str | None = None
    where: dict[str, Any] | None = None
    k: int | None = None


@dataclass(kw_only=True)
class FanPart(Part):
    """A FAN's set (``set``: the reduction spec that chose it, less its step ids) of ``tool``'s
    values, each passed to ``target`` as ``param``."""

    tool: str
    set: dict[str, Any]
    target: str
    args: dict[str, Any]
    param: str
    n: int


@dataclass(kw_only=True)
class FinalMapPart(Part):
    """How a FAN's branches are joined (``map_sum``/``map_argmax``/``map_argmin``); ``label``:
    where the winning item's name is read."""

    tool: str
    op: str
    label: dict[str, Any] | None = None


@dataclass(kw_only=True)
class SemPart(Part):
    """A SEM pair: one value into two tools (``calls``: tool, stated args, param) and the
    measure read of each (``metrics``: a count or a field)."""

    tool: str
    calls: list[tuple[str, dict[str, Any], str]]
    metrics: list[dict[str, Any]]


@dataclass(kw_only=True)
class CmpPart(Part):
    """Two entities of ``tool`` by name (``label``: ``names``) compared on ``target``'s ``metric``."""

    tool: str
    label: str
    names: list[str]
    target: str
    field: str
    args: dict[str, Any]
    param: str
    metric: dict[str, Any]


@dataclass(kw_only=True)
class CondThen:
    """A COND's then-branch: a call of ``target`` (``taken``: whether it runs on this version)."""

    target: str
    args: dict[str, Any]
    param: str
    taken: bool


@dataclass(kw_only=True)
class CondPart(Part):
    """A COND: if ``tool``'s count is at least ``k``, the then-branch's count, else that count."""

    tool: str
    k: int
    then: CondThen


@dataclass(kw_only=True)
class IntentPart(Part):
    """A question written for its platform (:mod:`edge.synth.asks`), with its slots."""

    intent: str
    slots: dict[str, Any]


@dataclass
class DraftContext:
    """Per-draft state while a draft is built: the value of each executed step (``values``),
    the reduction a picked value came from (``picks``: another field of the same record is
    read through it) and whether the chain's start must be a multi-record list (``want_set``:
    a FAN's or CMP's)."""

    values: dict[str, Any] = field(default_factory=dict)
    picks: dict[str, dict[str, Any]] = field(default_factory=dict)
    want_set: bool = False


@dataclass
class Draft:
    """A program under construction (steps run as they are added) and its question parts."""

    steps: list[Step] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    junctions: list[str] = field(default_factory=list)
    edges: list[tuple[str, str]] = field(default_factory=list)
    bound: list[str] = field(default_factory=list)
    calls: int = 0
    #: The answer: a ``$ref`` expression (a list of them for a SEM pair).
    answer: Any = None
    n: int = 0
    #: The period each (tool, field) is restricted to (:meth:`Sampler.scope`): one per draft.
    scopes: dict[tuple[str, str], str] = field(default_factory=dict)
    ctx: DraftContext = field(default_factory=DraftContext, repr=False, compare=False)

    def sid(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def program(self) -> Program:
        """The gold program (validated)."""
        return Program(steps=list(self.steps), answer=self.answer)

    def program_json(self) -> dict[str, Any]:
        """The program's JSON form (what examples carry)."""
        return program_json(self.program())

    def cardinality(self) -> list[int]:
        """The size of every result a part read whole, in order."""
        return [int(p.records) for p in self.parts if p.records is not None]

    def mark(self) -> tuple[int, ...]:
        """Where the draft stands (for ``rollback`` when a tentative extension fails)."""
        return (len(self.steps), len(self.parts), len(self.junctions), len(self.edges), len(self.bound),
                self.calls, self.n)

    def rollback(self, mark: tuple[int, ...]) -> None:
        """Drop everything added since ``mark`` (step ids are not reused: ``n`` stays)."""
        ns, np_, nj, ne, nb, self.calls, _n = mark
        del self.steps[ns:], self.parts[np_:], self.junctions[nj:], self.edges[ne:], self.bound[nb:]
        self.scopes = {(p.tool, p.field): p.value for p in self.parts if isinstance(p, ScopePart)}
