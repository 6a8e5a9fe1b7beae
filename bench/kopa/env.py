"""The tool environment: catalog endpoints as tools, answered by the simulator.

A tool call goes through :class:`simulator.tools.ToolCaller` (the platform's real request,
answered by a pinned ``Resolver``, parsed back into records with the endpoint's dialect);
every call is logged as a :class:`CallRecord` (the trace the scorers read).

Key-issuing tools (:mod:`simulator.tools.keys`) are answered here: an episode of a task whose
gold program issues a family's key (:meth:`ToolEnv.for_task`) answers that family's calls
only when they carry the key issued in this episode; any other call gets the platform's
invalid-key error. The key itself never reaches a trace: a call's record keeps the other
arguments and says in ``key`` whether it carried the issued key.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from simulator import BoundedCache, Catalog, FaultConfig, Resolver, load_catalog
from simulator.dialects import get_dialect
from simulator.tools import Observation, Program, ToolCaller, arg_text, body_text, read_response
from simulator.tools.keys import REDACTED, is_key_tool, issue_key, split_key, with_keys
from simulator.tools.search import ToolIndex

__all__ = ["CallRecord", "ToolEnv", "World", "arg_text", "body_text"]

#: Largest native body text handed to a model (longer bodies are cut with a note).
MAX_TEXT = 60_000
#: Answers a world keeps (least recently used out first).
MEMO_SIZE = 8192
#: Fault-injecting sibling worlds a world keeps (one per fault configuration).
FAULT_WORLDS = 16
#: Gold runs a world keeps (``bench.kopa.tasks.gold_run``, one per task id).
GOLD_MEMO = 4096


def scalar_strings(v: Any, out: set[str]) -> None:
    """Add to ``out`` every scalar of ``v`` (nested dicts and lists) as text, up to 64 characters."""
    if isinstance(v, dict):
        for x in v.values():
            scalar_strings(x, out)
    elif isinstance(v, list):
        for x in v:
            scalar_strings(x, out)
    elif v is not None:
        s = str(v).strip()
        if isinstance(v, float) and v.is_integer():
            s = str(int(v))
        if s and len(s) <= 64:
            out.add(s)


@dataclass
class CallRecord:
    """One tool call and what it returned (the unit of a trace)."""

    index: int
    tool: str
    args: dict[str, str]
    ok: bool
    status: int
    #: Collection key filters (non-paging, non-auth, non-format params), canonical.
    filters: dict[str, str] = field(default_factory=dict)
    #: Window asked: ``records[offset : offset + limit]`` of the collection.
    offset: int = 0
    limit: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    error: str | None = None
    source: str = ""
    #: For a call of a keyed family: ``issued`` (it carried this episode's issued key),
    #: ``other`` (some other key) or ``missing``; empty for any other call.
    key: str = ""

    def scalar_values(self) -> frozenset[str]:
        """Every scalar value (as text, up to 64 characters) of the records, computed once
        per records list (the scorer asks for each earlier call's values at every later one)."""
        kept = self.__dict__.get("_scalar_values")
        if kept is not None and kept[0] is self.records:
            return kept[1]  # type: ignore[no-any-return]
        out: set[str] = set()
        for r in self.records:
            scalar_strings(r, out)
        values = frozenset(out)
        self.__dict__["_scalar_values"] = (self.records, values)  # not a field: not compared or written
        return values

    def to_json(self, *, with_records: bool = False) -> dict[str, Any]:
        """JSON form for result files (records left out unless asked; an issued key never
        written)."""
        out: dict[str, Any] = {
            "index": self.index, "tool": self.tool, "args": self.args, "ok": self.ok,
            "status": self.status, "filters": self.filters, "offset": self.offset,
            "limit": self.limit, "n_records": len(self.records), "total": self.total,
            "error": self.error, "source": self.source,
        }
        if self.key:
            out["key"] = self.key
        if with_records:
            out["records"] = [{"key": REDACTED}] if self.source == "key" else self.records
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CallRecord:
        """Inverse of :meth:`to_json` (records empty when they were left out)."""
        return cls(
            index=d["index"], tool=d["tool"], args=d["args"], ok=d["ok"], status=d["status"],
            filters=d.get("filters", {}), offset=d.get("offset", 0), limit=d.get("limit", 0),
            records=d.get("records", []), total=d.get("total"), error=d.get("error"),
            source=d.get("source", ""), key=d.get("key", ""),
        )


class World:
    """A pinned simulator version plus the catalog: answers tool calls (thread-safe, cached).

    Args:
        version: an opened version (``Store().open("kopa")``).
        catalog: default the shipped catalog.
        faults: seeded fault injection of every call (off when None); see :meth:`faulted`.
    """

    def __init__(self, version: Any, catalog: Catalog | None = None, *,
                 faults: FaultConfig | None = None) -> None:
        self.version = version
        self.catalog = catalog or load_catalog()
        self.caller = ToolCaller(Resolver(version, self.catalog, faults=faults), memo_size=MEMO_SIZE)
        self._faulted: BoundedCache[FaultConfig, World] = BoundedCache(FAULT_WORLDS)
        #: Gold runs on this version by task id (filled by ``bench.kopa.tasks.gold_run``).
        self.gold: BoundedCache[str, Any] = BoundedCache(GOLD_MEMO)
        self._tool_index: ToolIndex | None = None
        self._index_lock = threading.Lock()

    @property
    def resolver(self) -> Resolver:
        """The resolver answering this world's calls (setting it starts a fresh memo)."""
        return self.caller.resolver

    @resolver.setter
    def resolver(self, resolver: Resolver) -> None:
        self.caller = ToolCaller(resolver, catalog=self.catalog, memo_size=MEMO_SIZE)

    @property
    def content_hash(self) -> str:
        """Content hash of the pinned version (recorded in results)."""
        return str(self.version.content_hash)

    def tools(self, platforms: list[str] | None = None) -> list[dict[str, Any]]:
        """OpenAI tool schemas of the catalog (optionally restricted to platforms), with the
        key tools of their families and each keyed tool's auth parameter
        (:func:`simulator.tools.keys.with_keys`)."""
        return with_keys(self.catalog.tools(platforms=platforms), self.catalog)

    def tool_index(self) -> ToolIndex:
        """The retrieval index over every tool of :meth:`tools` (built on first use, then kept)."""
        with self._index_lock:
            if self._tool_index is None:
                self._tool_index = ToolIndex(self.tools())
            return self._tool_index

    def faulted(self, faults: FaultConfig) -> World:
        """The same version with ``faults`` injected by its resolver (kept, one per config)."""
        w = self._faulted.get(faults)
        if w is None:
            w = World(self.version, self.catalog, faults=faults)
            self._faulted.put(faults, w)
        return w

    def answer(self, tool: str, args: dict[str, Any], *, episode: str | None = None,
               call_index: int = 0) -> Observation:
        """Answer one call (memoised by tool and arguments; faults apply below the memo)."""
        return self.caller.call(tool, args, episode=episode, call_index=call_index)


class ToolEnv:
    """One episode's view of a :class:`World`: answers calls and keeps the trace.

    Args:
        world: the shared world.
        max_calls: call budget; calls past it are refused (and logged as budget errors).
        faults: seeded faults of this episode (chosen by the resolver from
            ``(faults.seed, episode_id, call index)``); off when None.
        episode_id: the episode's fault key, and the seed of the keys it issues.
        keys: the key tools whose key this episode's calls must carry (module doc).
    """

    def __init__(self, world: World, max_calls: int = 64, *, faults: FaultConfig | None = None,
                 episode_id: str | None = None, keys: Iterable[str] = ()) -> None:
        self.world = world
        self.max_calls = max_calls
        self.faults = faults
        self.episode_id = episode_id
        self.keys = frozenset(keys)
        #: Key tools called in this episode (their keys are valid from then on).
        self.issued: set[str] = set()
        self.trace: list[CallRecord] = []
        self.budget_exhausted = False
        self._answers: dict[int, Observation] = {}

    @classmethod
    def for_task(cls, world: World, program: Program, episode_id: str, max_calls: int = 64) -> ToolEnv:
        """The episode of a task: its calls must carry the keys ``program`` issues."""
        return cls(world, max_calls, episode_id=episode_id, keys=[k.call for k in program.key_steps()])

    def _key(self, tool: str) -> str:
        return issue_key(tool, self.episode_id or "")

    def call(self, tool: str, args: dict[str, Any] | None = None) -> CallRecord:
        """Call ``tool`` with ``args``; the record is appended to the trace."""
        clean = {k: arg_text(v) for k, v in (args or {}).items() if v is not None}
        idx = len(self.trace)
        if idx >= self.max_calls:
            self.budget_exhausted = True
            rec = CallRecord(idx, tool, clean, False, 429, error="call budget exhausted",
                             source="budget")
            self.trace.append(rec)
            return rec
        if is_key_tool(tool):
            self.issued.add(tool)
            rec = CallRecord(idx, tool, {}, True, 200, records=[{"key": self._key(tool)}], total=1,
                             source="key")
            self.trace.append(rec)
            return rec
        clean, carried, family = split_key(self.world.catalog, tool, clean)
        key = ""
        if family is not None:
            key = ("missing" if carried is None else
                   "issued" if family in self.issued and carried == self._key(family) else "other")
        if family in self.keys and key != "issued":
            a = self._invalid_key(tool, clean)
        else:
            world = self.world if self.faults is None else self.world.faulted(self.faults)
            a = world.answer(tool, clean, episode=self.episode_id, call_index=idx)
        self._answers[idx] = a
        rec = CallRecord(idx, tool, clean, a.ok, a.status, a.filters, a.offset, a.limit,
                         a.records, a.total, a.error, a.source, key)
        self.trace.append(rec)
        return rec

    def _invalid_key(self, tool: str, args: dict[str, str]) -> Observation:
        """The platform's own answer to a call carrying no key, or a key not issued here."""
        catalog = self.world.catalog
        req = self.world.caller.build(tool, args)
        if isinstance(req, Observation):
            return req  # bad arguments are refused before any key is read
        ep = catalog.endpoints[tool]
        dialect = get_dialect(ep.dialect)
        try:
            fmt = dialect.split(catalog.match(req)).fmt
        except Exception:  # noqa: BLE001 - a request the dialect refuses: its default format
            fmt = "xml"
        resp = dialect.render_error(ep, "invalid_key", fmt, "key not issued in this episode")
        obs = read_response(catalog, tool, args, req, resp)
        obs.source = "auth"
        return obs

    def answer_of(self, rec: CallRecord) -> Observation:
        """The observation behind ``rec`` (a record from elsewhere is answered afresh)."""
        a = self._answers.get(rec.index)
        if a is not None and a.tool == rec.tool and a.args == rec.args:
            return a
        return self.world.answer(rec.tool, rec.args)

    def observation(self, rec: CallRecord, max_chars: int = MAX_TEXT) -> str:
        """The text a model sees for a call: the native body as text (:func:`body_text`),
        cut at ``max_chars`` characters with a note of the full length."""
        if rec.source == "budget":
            return "error: call budget exhausted"
        if rec.source == "key":
            return json.dumps({"key": self._key(rec.tool)}, ensure_ascii=False)
        from simulator.tools.observation import observation_text

        return observation_text(self.answer_of(rec), max_chars)
