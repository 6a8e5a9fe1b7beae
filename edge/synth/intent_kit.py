"""The pieces intents are built from (:mod:`edge.synth.intents`, :mod:`edge.synth.intents_local`).

An intent reads a recorded table whole to choose its entity (never shown), then adds executed
call and op steps to its draft through the sampler (:meth:`Sampler.call`), so every check,
filter and hold-out applies to it as to any draft.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from simulator.tools import CallStep, OpStep

from ..observe import scalar
from .execute import CallFailed, ProgramError, ProgramRunner
from .draft import Draft, IntentPart
from .sample import Sampler

__all__ = ["Intent", "bind", "mine", "op", "part", "pick", "real_companies", "recorded", "table"]


@dataclass(frozen=True)
class Intent:
    """A question of ``platform`` (``name`` keys its templates in :mod:`edge.synth.asks`)."""

    name: str
    platform: str
    build: Callable[[Sampler, Draft, Any, frozenset[str]], bool]
    #: How often it is drawn beside its platform's others (a conditional ask reads contrived
    #: when it is frequent: ``nec_cond`` is drawn at half the others' rate).
    weight: float = 1.0


def table(s: Sampler, tool: str, args: dict[str, str]) -> list[dict[str, Any]]:
    """A whole recorded table, read to choose an entity (never shown)."""
    cache: dict[tuple[Any, ...], list[dict[str, Any]]] = s.__dict__.setdefault("_intent_tables", {})
    key = (tool, tuple(sorted(args.items())))
    got = cache.get(key)
    if got is None:
        if s._full is None:
            s._full = ProgramRunner(s.ex.resolver, max_pages=200)
        try:
            got, _pages = s._full.step(CallStep(id="t", call=tool, args=args, pages="all"), {})
        except ProgramError:
            got = []
        cache[key] = got
    return list(got)


def op(s: Sampler, d: Draft, **kw: Any) -> tuple[str, Any]:
    """Add and run one op step; returns its id and value."""
    sid = d.sid("v")
    st = OpStep.model_validate({"id": sid, **kw})
    val = s.ex.step(st, s.values(d))[0]
    d.ctx.values[sid] = val
    d.steps.append(st)
    return sid, val


def pick(s: Sampler, d: Draft, src: str, where: list[dict[str, Any]], field: str) -> tuple[dict[str, Any], str]:
    """The ``field`` of the first record of ``src`` matching ``where`` (a filter step when any):
    its ``$ref`` expression and value (``CallFailed`` when none)."""
    if where:
        src, recs = op(s, d, op="filter", **{"from": src}, where=where)
    else:
        recs = d.ctx.values[src]
    if not recs or scalar(recs[0].get(field)) in (None, ""):
        raise CallFailed(f"no {field} where {where}")
    return {"$ref": src, "field": field, "pick": "first"}, str(scalar(recs[0].get(field)))


def bind(ref: dict[str, Any]) -> dict[str, Any]:
    return {"ref": ref, "transform": ""}


def recorded(s: Sampler, tool: str, param: str) -> set[str]:
    return {str(f[param]) for f in s._filters.get(tool, []) if param in f}


def part(d: Draft, intent: str, records: int, **slots: Any) -> None:
    d.parts.append(IntentPart(intent=intent, slots=slots, records=records))


def real_companies(s: Sampler) -> frozenset[str]:
    """The real listed companies' names when the version's values are invented (a ``sandbox`` or
    ``test`` world), else none.

    The sandbox names the big real listed companies (``pools.yaml`` ``companies``: 삼성전자, 기아,
    …) beside invented ones; their figures there are invented (and from world edition 7 absent),
    so a question asks about an invented company only: asking 삼성전자's revenue, CEO or trading
    volume would present an invented value as a fact about a real company. On a live recording
    every value is real and nothing is left out."""
    source = getattr(getattr(s.ex.resolver.version, "manifest", None), "source", "live")
    if source not in ("sandbox", "test"):
        return frozenset()
    from simulator.sandbox.world import pools

    return frozenset(str(row[2]) for row in pools()["companies"])


def mine(s: Sampler, opts: Iterable[Any]) -> list[Any]:
    """The options of ``opts`` this shard asks about (``s.portion``: shard index and count).

    Shards draw independently, so two shards asking about the same entity would make the same
    program, and the later copy would be dropped; each entity belongs to one shard instead (by a
    stable hash of it), so the shards' questions never collide."""
    k, n = s.portion
    return [o for o in opts if n <= 1 or int(hashlib.sha256(repr(o).encode()).hexdigest()[:8], 16) % n == k]
