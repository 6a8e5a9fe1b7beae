"""The tool environment: catalog endpoints as tools, answered by the simulator.

A tool call goes through :class:`simulator.tools.ToolCaller` (the platform's real request,
answered by a pinned ``Resolver``, parsed back into records with the endpoint's dialect);
every call is logged as a :class:`CallRecord` (the trace the scorers read).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from simulator import BoundedCache, Catalog, FaultConfig, Resolver, load_catalog
from simulator.tools import Observation, ToolCaller, arg_text, body_text
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

    def to_json(self, *, with_records: bool = False) -> dict[str, Any]:
        """JSON form for result files (records left out unless asked)."""
        out: dict[str, Any] = {
            "index": self.index, "tool": self.tool, "args": self.args, "ok": self.ok,
            "status": self.status, "filters": self.filters, "offset": self.offset,
            "limit": self.limit, "n_records": len(self.records), "total": self.total,
            "error": self.error, "source": self.source,
        }
        if with_records:
            out["records"] = self.records
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CallRecord:
        """Inverse of :meth:`to_json` (records empty when they were left out)."""
        return cls(
            index=d["index"], tool=d["tool"], args=d["args"], ok=d["ok"], status=d["status"],
            filters=d.get("filters", {}), offset=d.get("offset", 0), limit=d.get("limit", 0),
            records=d.get("records", []), total=d.get("total"), error=d.get("error"),
            source=d.get("source", ""),
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
        """OpenAI tool schemas of the catalog (optionally restricted to platforms)."""
        return self.catalog.tools(platforms=platforms)

    def tool_index(self) -> ToolIndex:
        """The retrieval index over every catalog tool (built on first use, then kept)."""
        with self._index_lock:
            if self._tool_index is None:
                self._tool_index = ToolIndex(self.catalog.tools())
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
        episode_id: the episode's fault key.
    """

    def __init__(self, world: World, max_calls: int = 64, *, faults: FaultConfig | None = None,
                 episode_id: str | None = None) -> None:
        self.world = world
        self.max_calls = max_calls
        self.faults = faults
        self.episode_id = episode_id
        self.trace: list[CallRecord] = []
        self.budget_exhausted = False
        self._answers: dict[int, Observation] = {}

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
        world = self.world if self.faults is None else self.world.faulted(self.faults)
        a = world.answer(tool, clean, episode=self.episode_id, call_index=idx)
        self._answers[idx] = a
        rec = CallRecord(idx, tool, clean, a.ok, a.status, a.filters, a.offset, a.limit,
                         a.records, a.total, a.error, a.source)
        self.trace.append(rec)
        return rec

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
        from simulator.tools.observation import observation_text

        return observation_text(self.answer_of(rec), max_chars)
