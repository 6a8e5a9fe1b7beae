"""Cardinality-aware shaping evidence for synthesized (EDGE) rows.

KOPA-Bench tasks get their ENVIRONMENT-axis evidence from the benchmark's scorer. EDGE rows
carry their own ``gold_program`` instead; this module executes it on the episode's pinned
version (every page, through :class:`~edge.synth.execute.ProgramRunner`, the one runner of
:mod:`simulator.tools`) and compares
the episode's trace with it:

- ``page_gaps``: collections the gold program reads whose every record the policy did not
  fetch (a multi-page result answered from page 1 is a gap) — what ``all_pages_fetched``
  rewards;
- ``invented``: calls whose code argument (a parameter the gold program binds from an
  earlier result) appears neither in the question nor in an earlier result — what
  ``no_invented_codes`` rewards.

Gold runs are memoised per (cassette content hash, program text).
"""

from __future__ import annotations

import json
import threading
from typing import Any, Mapping, Sequence

from bench.kopa.env import CallRecord, World
from simulator.tools import Program

from .env import parse_program

__all__ = ["gold_collections", "synth_evidence"]

_GOLD: dict[tuple[str, str], list[tuple[str, dict[str, str], int]] | None] = {}
_GOLD_MAX = 4096
_LOCK = threading.Lock()


def _program(gold_program: Any) -> Program | None:
    if isinstance(gold_program, Program) or not gold_program:
        return gold_program or None
    try:
        return parse_program(gold_program)
    except ValueError:
        return None


def gold_collections(world: World, gold_program: Any) -> list[tuple[str, dict[str, str], int]] | None:
    """``(tool, collection filters, total records)`` of every call the gold program makes on
    ``world`` (None when the program does not run there)."""
    prog = _program(gold_program)
    if prog is None:
        return None
    key = (world.content_hash, prog.model_dump_json(by_alias=True, exclude_defaults=True))
    with _LOCK:
        if key in _GOLD:
            return _GOLD[key]
    from edge.synth.execute import ProgramError, ProgramRunner
    from simulator import Resolver

    try:
        run = ProgramRunner(Resolver(world.version, world.catalog, miss="strict")).run(prog)
        out = []
        last: tuple[str, dict[str, str]] | None = None
        for page in (p for pages in run.pages.values() for p in pages):
            obs = world.answer(page.tool, page.args)
            coll = (page.tool, dict(obs.filters))
            if coll != last:  # the first page of a call: its collection and size
                out.append((page.tool, dict(obs.filters), max(obs.total or 0, len(obs.records))))
            last = coll
    except ProgramError:
        out = None
    with _LOCK:
        if len(_GOLD) >= _GOLD_MAX:  # bounded: one entry per (version, program) seen
            _GOLD.clear()
        _GOLD[key] = out
    return out


def _covered(trace: Sequence[CallRecord], tool: str, want: Mapping[str, str], total: int) -> bool:
    spans: dict[tuple[tuple[str, str], ...], list[tuple[int, int]]] = {}
    for rec in trace:
        if rec.tool == tool and rec.ok and set(rec.filters.items()) <= set(want.items()):
            spans.setdefault(tuple(sorted(rec.filters.items())), []).append(
                (rec.offset, rec.offset + len(rec.records)))
    for parts in spans.values():
        pos = 0
        for a, b in sorted(parts):
            if a > pos:
                break
            pos = max(pos, b)
        if pos >= total:
            return True
    return False


def _code_params(prog: Program) -> set[tuple[str, str]]:
    """(tool, param) of every argument the program binds from an earlier step or a fan-out."""
    return {(c.call, p) for c in prog.calls() for p in prog.ref_args(c)}


def synth_evidence(world: World, gold_program: Any, question: str,
                   trace: Sequence[CallRecord]) -> dict[str, int] | None:
    """``{"page_gaps": n, "invented": m}`` of an episode on a synthesized row (None when the
    row has no runnable gold program)."""
    colls = gold_collections(world, gold_program)
    prog = _program(gold_program)
    if colls is None or prog is None:
        return None
    gaps = sum(1 for tool, want, total in {(t, json.dumps(f, sort_keys=True), n) for t, f, n in colls}
               if not _covered(trace, tool, json.loads(want), total))
    codes = _code_params(prog)
    seen: list[str] = []
    invented = 0
    for rec in trace:
        for k, v in rec.args.items():
            v = str(v).strip()
            if (rec.tool, k) in codes and len(v) >= 2 and v not in question and not any(v in s for s in seen):
                invented += 1
        if rec.ok:
            seen.append(json.dumps(rec.records, ensure_ascii=False, default=str))
    return {"page_gaps": gaps, "invented": invented}
