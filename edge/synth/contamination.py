"""Contamination by content: the calls KOPA-Bench's gold programs make and the records they
are computed from, held out of training data.

The entity and edge filters (:mod:`edge.synth.splits`) compare what a program *names*; a
conversation can still make a bench task's gold call with other words around it, or read,
in its tool messages, the very table a bench gold is computed from. This module compares
what a program *does* on the version it runs on:

- a **gold call** is ``(tool, arguments)`` of a call a bench gold program makes, the
  arguments normalised by :func:`call_key` (paging, format, auth, ignored parameters and
  catalog defaults dropped, values stripped), so a call read in other page sizes is the
  same call;
- a **gold record set** is the whole result of a call a bench answer is computed from
  (:func:`answer_calls`: the calls whose records reach the answer through op steps, a COND
  guard included), identified by the content hash of its records (:func:`record_key`,
  :func:`set_key`). A conversation *shows* it when every one of its records appears in the
  conversation's tool messages, whichever calls showed them (the same call in other pages,
  a whole table that holds it, another filter that returns it). One record of a 1,000-record
  table is not the table: a single school's lookup does not show the bench's count of a
  district's schools; the one record behind a single-record gold is its whole set.

One exemption, for the reason EDGE exists: a bench call that takes no argument and whose
records reach the answer only as arguments of a later call (``tago_city_codes``,
``nec_election_codes``, ``opendart_corp_codes``: the code table every chain of its platform
starts from) is a *lookup*, not a gold call; holding it out would remove its platform from
training, and it names nothing a task asks about. If a bench answer is computed from such a
table (a count of its rows), its record set is a gold record set all the same.

``edge`` does not import ``bench``: the task files are read as data (``bench/kopa/tasks``),
their programs run by the one runner (:class:`~edge.synth.execute.ProgramRunner`).

>>> hold = gold_holdout(version, catalog)                 # doctest: +SKIP
>>> footprint_hits(ProgramRunner(resolver).run(program), program, catalog, hold)  # doctest: +SKIP
['gold_call']
"""

from __future__ import annotations

import hashlib
import json

import orjson
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator import Catalog, ProgramError, Resolver, Version, load_catalog
from simulator.tools import CallStep, Program

from ..observe import scalar
from .execute import ProgramRunner, Run

__all__ = ["GOLD_CALL", "GOLD_RECORDS", "Footprint", "Footprints", "GoldHoldout", "answer_calls", "bench_versions", "call_key",
           "content_audit", "footprint", "footprint_hits", "gold_holdout", "record_key", "set_key", "task_programs",
           "tasks_version"]

#: What :func:`footprint_hits` reports (and the synthesis report counts drafts refused for).
GOLD_CALL = "bench_gold_call"
GOLD_RECORDS = "bench_gold_records"

#: Parameter roles that do not change which records a call selects.
_NOT_SELECTING = frozenset({"auth", "page", "page_size", "range_start", "range_end", "format", "ignore"})


def call_key(catalog: Catalog, tool: str, args: Mapping[str, Any]) -> str:
    """``tool`` and its record-selecting arguments as one string: paging, format, auth and
    ignored parameters dropped, parameters the endpoint does not declare dropped (the real
    API ignores them, and so does replay), values stripped, a value equal to the catalog's
    default dropped (asking for the default is not asking for something else).

    >>> call_key(load_catalog(), "tago_city_codes", {"pageNo": "2", "numOfRows": "100"})
    'tago_city_codes {}'
    """
    ep = catalog.endpoints.get(tool)
    params = {p.name: p for p in ep.params} if ep is not None else {}
    keep: dict[str, str] = {}
    for k, v in args.items():
        text = scalar(v)
        p = params.get(k)
        if text is None or (ep is not None and p is None):
            continue
        if p is not None and (p.role in _NOT_SELECTING or (p.default is not None and text == p.default)):
            continue
        keep[k] = text
    return f"{tool} {json.dumps(keep, ensure_ascii=False, sort_keys=True, separators=(',', ':'))}"


def record_key(record: Mapping[str, Any]) -> str:
    """A record's content hash (16 hex digits) over its fields and values, the fan-out item
    (``_item``) left out, so a record has one key whichever call showed it.

    >>> record_key({"a": 1, "b": "x"}) == record_key({"b": "x", "a": 1, "_item": "k"})
    True
    """
    body = {k: v for k, v in record.items() if k != "_item"}
    return hashlib.blake2b(orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str),
                           digest_size=8).hexdigest()


def set_key(records: Iterable[str]) -> str:
    """A record set's content hash (16 hex digits) from its records' keys, in any order."""
    return hashlib.blake2b("\n".join(sorted(set(records))).encode("utf-8"), digest_size=8).hexdigest()


def answer_calls(program: Program) -> set[str]:
    """Ids of the call steps whose records a program's answer is computed from: reached from
    the answer through op steps (every input of an op, its test and guard included) and the
    guard of a guarded call, never through a call's arguments or fan-out list (a value passed
    into a call is a lookup, not the data the answer reduces)."""
    by_id = {s.id: s for s in program.steps}
    from simulator.tools import refs_in

    todo = list(refs_in(program.answer))
    seen: set[str] = set()
    out: set[str] = set()
    while todo:
        sid = todo.pop()
        if sid in seen or sid not in by_id:
            continue
        seen.add(sid)
        s = by_id[sid]
        if isinstance(s, CallStep):
            out.add(sid)
            if s.when is not None:
                todo += refs_in(s.when.left) + refs_in(s.when.right)
        else:
            todo += list(program.deps(s))
    return out


@dataclass(frozen=True)
class Footprint:
    """What running a program shows: its calls (:func:`call_key`) and the content keys of
    the records each call step returned (:func:`record_key`), by step id."""

    calls: dict[str, list[str]]
    records: dict[str, frozenset[str]]

    def all_calls(self) -> set[str]:
        """Every call key of every step."""
        return {c for cs in self.calls.values() for c in cs}

    def all_records(self) -> frozenset[str]:
        """Every record key of every call step."""
        return frozenset().union(*self.records.values()) if self.records else frozenset()


class Footprints:
    """Footprints of executed programs (:meth:`of`), the record keys of each page request
    remembered (a page another draft read already is not hashed again; at most ``memo_pages``
    pages, the oldest forgotten first).

    Args:
        catalog: the catalog the programs ran on (for :func:`call_key`).
    """

    def __init__(self, catalog: Catalog, memo_pages: int = 20000) -> None:
        self.catalog = catalog
        self.memo_pages = memo_pages
        self._pages: dict[str, tuple[str, ...]] = {}

    def calls(self, run: Run) -> dict[str, list[str]]:
        """Step id → the call keys of its page requests (in order, once each)."""
        return {sid: list(dict.fromkeys(call_key(self.catalog, pc.tool, pc.args) for pc in pcs))
                for sid, pcs in run.pages.items()}

    def records(self, run: Run, sid: str) -> frozenset[str]:
        """The record keys of call step ``sid``'s output."""
        out = run.values.get(sid)
        if not isinstance(out, list):
            return frozenset()
        pcs = run.pages.get(sid, [])
        if sum(pc.count for pc in pcs) != len(out):  # not one slice per page: hash them all
            return frozenset(record_key(r) for r in out if isinstance(r, Mapping))
        keys: list[str] = []
        at = 0
        for pc in pcs:
            page = json.dumps([pc.tool, pc.args], ensure_ascii=False, sort_keys=True)
            hit = self._pages.get(page)
            if hit is None:
                hit = tuple(record_key(r) for r in out[at:at + pc.count] if isinstance(r, Mapping))
                if self._pages and len(self._pages) >= self.memo_pages:
                    del self._pages[next(iter(self._pages))]
                if self.memo_pages > 0:
                    self._pages[page] = hit
            keys += hit
            at += pc.count
        return frozenset(keys)

    def of(self, run: Run, program: Program, steps: Iterable[str] | None = None) -> Footprint:
        """What running ``program`` showed (``run`` from :meth:`~edge.synth.execute.
        ProgramRunner.run`): exactly the calls and records its conversation shows. ``steps``:
        hash the records of these call steps only (default all)."""
        want = set(steps) if steps is not None else {s.id for s in program.calls()}
        return Footprint(self.calls(run), {s.id: self.records(run, s.id) for s in program.calls() if s.id in want})

    def hits(self, run: Run, program: Program, hold: GoldHoldout) -> list[str]:
        """:func:`footprint_hits` of a run, its records hashed only when its calls are clean."""
        if any(c in hold.calls for cs in self.calls(run).values() for c in cs):
            return [GOLD_CALL]
        return footprint_hits(self.of(run, program), hold)


def footprint(run: Run, program: Program, catalog: Catalog) -> Footprint:
    """The calls and records of an executed ``program`` (:meth:`Footprints.of`, no memo)."""
    return Footprints(catalog, memo_pages=0).of(run, program)


@dataclass
class GoldHoldout:
    """The bench's gold calls and gold record sets on one version, and the tasks of each.

    ``calls``: call key → task ids. ``sets``: set key → ``{"call", "size", "tasks"}`` (the
    call that returned it first, its record count, its tasks); ``index``: record key → the
    keys of the sets holding it. ``lookups``: the argument-free code-table reads left to
    training (see the module docstring); ``failed``: tasks whose program did not run on this
    version (nothing of theirs is held out; the bench reports them as failing gold)."""

    content_hash: str
    calls: dict[str, list[str]] = field(default_factory=dict)
    sets: dict[str, dict[str, Any]] = field(default_factory=dict)
    index: dict[str, list[str]] = field(default_factory=dict)
    lookups: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def shown_sets(self, records: Iterable[str]) -> list[str]:
        """Keys of the gold record sets all of whose records are among ``records``."""
        seen: dict[str, int] = {}
        for r in set(records):
            for k in self.index.get(r, ()):
                seen[k] = seen.get(k, 0) + 1
        return sorted(k for k, n in seen.items() if n == self.sets[k]["size"])

    def summary(self) -> dict[str, Any]:
        """Counts for a report."""
        return {"content_hash": self.content_hash, "gold_calls": len(self.calls), "gold_record_sets": len(self.sets),
                "gold_records": len(self.index), "lookups_allowed": self.lookups, "tasks_not_run": self.failed}


def task_programs(directory: Path | None = None) -> list[tuple[str, Any]]:
    """``(task id, program JSON)`` of every KOPA-Bench task file in ``directory`` (default:
    the shipped tasks, read as data); empty when they are not there."""
    import yaml

    from .splits import BENCH_TASKS_DIR

    d = Path(directory) if directory is not None else BENCH_TASKS_DIR
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it: 10x faster
    out: list[tuple[str, Any]] = []
    for path in sorted(d.glob("*.yaml")) if d.is_dir() else []:
        for task in yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or []:
            out.append((str(task.get("id")), task.get("program", {})))
    return out


def tasks_version(directory: Path | None = None) -> str | None:
    """The cassette version the bench's tasks were authored on and run on by default
    (``version.txt`` beside the task files, read as data: ``bench.kopa.BENCH_VERSION``); None
    where there is none."""
    from .splits import BENCH_TASKS_DIR

    p = (Path(directory) if directory is not None else BENCH_TASKS_DIR) / "version.txt"
    return p.read_text(encoding="utf-8").strip() or None if p.is_file() else None


def bench_versions(version: Version, store: Any = None) -> list[Version]:
    """The other versions whose bench gold calls a run on ``version`` holds out: the bench's
    own version (:func:`tasks_version`) when ``version`` is a later version of the same set.

    A later world edition may rename what the bench names and keep its values (edition 8
    renames edition 7's invented companies, codes and figures unchanged): the bench's gold
    programs then fail on ``version``, so nothing of theirs would be held out by running them
    there, while a call with the same arguments (a ``corp_code``, a statute's ``MST``) still
    answers the bench's gold. Empty when the bench's version cannot be opened here."""
    from simulator import SimulatorError, Store

    tv = tasks_version()
    m = version.manifest
    if tv is None or m.set != "kopa" or not m.version > tv:
        return []
    try:
        return [(store or Store()).open(m.set, tv)]
    except SimulatorError:
        return []


def gold_holdout(version: Version, catalog: Catalog | None = None,
                 tasks: Iterable[tuple[str, Any]] | None = None,
                 also: Iterable[Version] = ()) -> GoldHoldout:
    """Run every bench gold program (``tasks``: ``(id, program)`` pairs; default
    :func:`task_programs`) on ``version``, and on each version of ``also`` (e.g.
    :func:`bench_versions`), and collect their gold calls and gold records: a call key names a
    tool and its arguments, the same on every version, so a gold call of the bench's own
    version is held out of a run on a later one. ``failed``: the tasks that ran on none.

    ``catalog`` must know the bench's tools (default: the shipped default tier, the bench's)."""
    cat = catalog if catalog is not None else load_catalog()
    programs = list(task_programs() if tasks is None else tasks)
    prints = Footprints(cat)
    hold = GoldHoldout(version.content_hash)
    calls: dict[str, set[str]] = {}
    sets: dict[str, dict[str, Any]] = {}
    index: dict[str, set[str]] = {}
    lookups: set[str] = set()
    ran: set[str] = set()
    failed: list[str] = []
    for v in [version, *also]:
        runner = ProgramRunner(Resolver(v, cat, miss="strict"))
        for tid, prog in programs:
            try:
                program = prog if isinstance(prog, Program) else Program.model_validate(prog)
                run = runner.run(program)
            except (ProgramError, ValueError, KeyError):  # a task this version cannot answer
                if v is version:
                    failed.append(tid)
                continue
            ran.add(tid)
            _collect(tid, prints.of(run, program, steps=answer_calls(program)), program, calls, sets, index, lookups)
    hold.failed = [t for t in failed if t not in ran]
    lookups -= set(calls)  # a table some task reads as its data is a gold call for all
    hold.calls = {k: sorted(v) for k, v in sorted(calls.items())}
    hold.sets = {k: {**v, "tasks": sorted(v["tasks"])} for k, v in sorted(sets.items())}
    hold.index = {k: sorted(v) for k, v in sorted(index.items())}
    hold.lookups = sorted(lookups)
    return hold


def _collect(tid: str, fp: Footprint, program: Program, calls: dict[str, set[str]],
             sets: dict[str, dict[str, Any]], index: dict[str, set[str]], lookups: set[str]) -> None:
    """Add one task run's gold calls, gold record sets and lookups (``fp``: its footprint over
    the program's answer calls)."""
    data = answer_calls(program)
    for s in program.calls():
        for c in fp.calls.get(s.id, []):
            if s.id not in data and c.endswith(" {}"):
                lookups.add(c)
            else:
                calls.setdefault(c, set()).add(tid)
        recs = fp.records.get(s.id, frozenset())
        if s.id in data and recs:
            k = set_key(recs)
            first = fp.calls.get(s.id, [""])[0]
            sets.setdefault(k, {"call": first, "size": len(recs), "tasks": set()})["tasks"].add(tid)
            for r in recs:
                index.setdefault(r, set()).add(k)


def footprint_hits(fp: Footprint, hold: GoldHoldout) -> list[str]:
    """Why a footprint is contaminated: :data:`GOLD_CALL` (it makes a bench gold call),
    :data:`GOLD_RECORDS` (it shows a whole gold record set); empty if clean."""
    out = []
    if fp.all_calls() & hold.calls.keys():
        out.append(GOLD_CALL)
    if hold.shown_sets(fp.all_records()):
        out.append(GOLD_RECORDS)
    return out


def content_audit(examples: list[dict[str, Any]], version: Version, catalog: Catalog,
                  hold: GoldHoldout, *, limit: int = 50) -> dict[str, Any]:
    """Re-run every example's gold program on ``version`` and count the examples making a
    bench gold call or showing a gold record set, with their ids (the first ``limit`` of each)
    and the bench tasks each touches."""
    runner = ProgramRunner(Resolver(version, catalog, miss="strict"))
    prints = Footprints(catalog)
    calls: dict[str, list[str]] = {}
    records: dict[str, list[str]] = {}
    not_run: list[str] = []
    for e in examples:
        eid = str(e.get("id"))
        try:
            program = Program.model_validate(e["gold_program"])
            fp = prints.of(runner.run(program), program)
        except (ProgramError, ValueError, KeyError, TypeError):
            not_run.append(eid)
            continue
        hit_calls = sorted(fp.all_calls() & hold.calls.keys())
        hit_sets = hold.shown_sets(fp.all_records())
        if hit_calls:
            calls[eid] = sorted({t for c in hit_calls for t in hold.calls[c]})
        if hit_sets:
            records[eid] = sorted({t for k in hit_sets for t in hold.sets[k]["tasks"]})
    return {
        "method": "each example's gold program re-run on its version: its calls (tool + record-selecting "
                  "arguments) against every call a bench gold program makes; the records its tool messages "
                  "show (content hashes) against each whole record set a bench answer is computed from",
        "holdout": hold.summary(),
        "examples_making_gold_call": len(calls),
        "examples_showing_gold_records": len(records),
        "examples_not_run": len(not_run),
        "gold_call_examples": dict(list(calls.items())[:limit]),
        "gold_record_examples": dict(list(records.items())[:limit]),
        "not_run_examples": not_run[:limit],
    }
