"""The rollout environment: one episode over a benchmark task or a synthesized example.

A policy's tool calls (OpenAI tool-call dicts, or a name plus keyword arguments) are answered
by the simulator on a pinned version through KOPA-Bench's :class:`~bench.kopa.env.World`, so
observations are the platforms' native bodies and the trace is the benchmark's own
:class:`~bench.kopa.env.CallRecord` list (tool, args, ``x-sim-source``, status, records).

Faults are optional and seeded: whether call *i* of episode *e* fails is a hash of
``(seed, e, i)`` (:class:`simulator.FaultConfig`), decided by the world's resolver below its
answer memo, so the same seed replays the same faults.
Tools have no side effects on the simulator (it is read-only); every call, including those
refused by a budget, is appended to the trace.

>>> from simulator import Store                                   # doctest: +SKIP
>>> world = open_world()                                          # doctest: +SKIP
>>> ex = Example.from_row({"prompt": [{"role": "user", "content": "…"}], "answer": "3"})
>>> ep = SimEpisode(world, ex, EnvConfig(max_calls=8))            # doctest: +SKIP
>>> ep.call_tool("mois_stan_regin_cd", locatadd_nm="서울특별시 종로구")  # doctest: +SKIP
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from bench.kopa.agents import SYSTEM_PROMPT
from bench.kopa.env import MAX_TEXT, CallRecord, ToolEnv, World
from bench.kopa.scoring import Score, score_episode
from bench.kopa.tasks import Gold, Task, gold_run
from simulator import FaultConfig, Store
from simulator.tools import Program

__all__ = [
    "EnvConfig",
    "Example",
    "SimEpisode",
    "example_from_task",
    "open_world",
    "parse_program",
    "parse_tool_call",
    "version_line",
]


def open_world(set_name: str = "kopa", version: str | None = None, *, store: Store | None = None) -> World:
    """A pinned simulator version wrapped as KOPA-Bench's :class:`World` (shared, thread-safe).

    Without ``version``, the newest *shipped* version (``Store.choose(shipped=True)``), so a
    run never trains on whatever was published last.
    """
    s = store or Store()
    m, _line = s.choose(set_name, version, shipped=True)
    return World(s.open(set_name, m.version))


def version_line(set_name: str = "kopa", version: str | None = None, *, store: Store | None = None) -> tuple[str, str]:
    """The version :func:`open_world` takes and the line that says which and why."""
    m, line = (store or Store()).choose(set_name, version, shipped=True)
    return m.version, line


@dataclass(frozen=True)
class EnvConfig:
    """Budgets, fault injection and observation size of an episode.

    Args:
        max_turns: assistant turns (model messages) before the episode is cut.
        max_calls: tool calls; later calls are refused (logged, status 429, source ``budget``).
        faults: seeded fault injection (off when None).
        max_observation_chars: native body text is cut beyond this (with a note).
        platforms_scope: ``task`` (tools of the example's platforms) or ``all``.
    """

    max_turns: int = 24
    max_calls: int = 64
    faults: FaultConfig | None = None
    max_observation_chars: int = MAX_TEXT
    platforms_scope: str = "task"

    def __post_init__(self) -> None:
        if self.max_turns < 1 or self.max_calls < 0:
            raise ValueError(f"max_turns={self.max_turns!r} must be >= 1 and "
                             f"max_calls={self.max_calls!r} >= 0")
        if self.platforms_scope not in ("task", "all"):
            raise ValueError(f"platforms_scope={self.platforms_scope!r}; use task or all")


@dataclass
class Example:
    """What an episode is about: a question, its gold answer and how to check it.

    Built from a KOPA-Bench task (:func:`example_from_task`) or from a dataset row of the
    synthesized corpus (``prompt`` messages + ``answer`` + ``gold_program``;
    :meth:`from_row`). ``task`` is set only for benchmark tasks (ACTION / ENVIRONMENT
    scoring needs the gold program in the benchmark's form).
    """

    id: str
    prompt: list[dict[str, Any]]
    answer: str
    check: dict[str, Any] = field(default_factory=lambda: {"type": "exact"})
    platforms: list[str] = field(default_factory=list)
    task: Task | None = None
    gold: Gold | None = None
    #: A synthesized row's gold program (``simulator.tools.Program``); None for bench tasks.
    gold_program: Program | None = None

    @property
    def question(self) -> str:
        """The last user message."""
        users = [m for m in self.prompt if m.get("role") == "user"]
        return str(users[-1].get("content", "")) if users else ""

    def row(self) -> dict[str, Any]:
        """The TRL dataset row (``prompt`` + columns the rewards read; JSON-safe)."""
        return {
            "prompt": self.prompt, "answer": self.answer, "check": json.dumps(self.check),
            "task_id": self.id, "platforms": list(self.platforms),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Example:
        """An example from a dataset row (bench-derived or synthesized)."""
        prompt = row.get("prompt")
        if isinstance(prompt, str):
            prompt = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": prompt}]
        if not isinstance(prompt, list) or not prompt:
            raise ValueError(f"row prompt={prompt!r} must be a non-empty list of messages")
        check = row.get("check") or {"type": "exact"}
        if isinstance(check, str):
            check = json.loads(check)
        platforms = row.get("platforms") or []
        if isinstance(platforms, str):
            platforms = [platforms]
        rid = row.get("task_id") or row.get("id") or ""
        return cls(id=str(rid), prompt=[dict(m) for m in prompt], answer=str(row.get("answer", "")),
                   check=dict(check), platforms=list(platforms),
                   gold_program=parse_program(row.get("gold_program")))


def parse_program(raw: Any) -> Program | None:
    """A row's ``gold_program`` (JSON text, its parsed form, or a ``Program``) as a validated
    ``Program``; None when the row has none. ``ValueError`` names what is wrong."""
    if raw is None or raw == "" or isinstance(raw, Program):
        return raw or None
    from pydantic import ValidationError

    try:
        data = json.loads(raw) if isinstance(raw, str) else raw
        return Program.model_validate(data)
    except (json.JSONDecodeError, ValidationError) as exc:
        detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        raise ValueError(f"row gold_program is not a program ({detail}); rows come from "
                         "`simulator edge synthesize` (trl.jsonl)") from None


def example_from_task(task: Task, world: World) -> Example:
    """A benchmark task as an example (gold answer computed on ``world``'s version)."""
    gold = gold_run(task, world)
    prompt = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task.question}]
    return Example(id=task.id, prompt=prompt, answer=gold.answer, check=task.check.model_dump(),
                   platforms=list(task.platforms), task=task, gold=gold)


def parse_tool_call(call: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``(name, kwargs)`` of an OpenAI tool-call dict (arguments a JSON string or a dict),
    a ``{"name", "arguments"}`` dict (HF / TRL form) or ``{"name", "kwargs"}``.

    Raises:
        ValueError: the arguments are not a JSON object.
    """
    fn = call.get("function", call)
    name = str(fn.get("name", ""))
    args: Any = fn.get("arguments", fn.get("kwargs", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args or "{}")
        except json.JSONDecodeError as exc:
            raise ValueError(f"arguments of {name!r} are not valid JSON: {exc}") from exc
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ValueError(f"arguments of {name!r} must be a JSON object, got {type(args).__name__}")
    return name, args


class SimEpisode(ToolEnv):
    """One episode: a :class:`ToolEnv` (so KOPA-Bench's agents and scorers work on it
    unchanged) with an episode id, seeded faults, a turn budget and message stepping.

    Args:
        world: the pinned world (shared between episodes).
        example: what the episode is about (None: a free episode, no reward).
        config: budgets and faults.
        episode_id: the fault-hash key (default ``"<example id>:<seed>"``).
        seed: the sample seed (part of the default episode id).
    """

    def __init__(
        self,
        world: World,
        example: Example | None = None,
        config: EnvConfig = EnvConfig(),
        *,
        episode_id: str | None = None,
        seed: int = 0,
    ) -> None:
        eid = episode_id or f"{example.id if example else 'free'}:{seed}"
        super().__init__(world, max_calls=config.max_calls, faults=config.faults, episode_id=eid)
        self.episode_id: str = eid
        self.config = config
        self.example = example
        self.seed = seed
        self.turns = 0
        self.done = False
        self.answer: str | None = None
        self.invalid_calls = 0
        self.messages: list[dict[str, Any]] = list(example.prompt) if example else []

    # ---- tools ---------------------------------------------------------------------------
    def tools(self) -> list[dict[str, Any]]:
        """OpenAI tool schemas the policy is offered (the example's platforms, or all)."""
        plats = self.example.platforms if self.example and self.config.platforms_scope == "task" else None
        return self.world.tools(plats or None)

    def observation(self, rec: CallRecord, max_chars: int | None = None) -> str:
        """What the policy sees for a call: the native body (faulted when it was), cut."""
        if rec.source == "budget":
            return "error: call budget exhausted"
        a = self.answer_of(rec)
        if not a.ok and a.source == "error":
            return f"error: {a.error}"
        return super().observation(rec, self.config.max_observation_chars if max_chars is None else max_chars)

    def call_tool(self, name: str, **kwargs: Any) -> str:
        """Call ``name`` with keyword arguments; the observation text."""
        return self.observation(self.call(name, kwargs))

    def tool_message(self, call: Mapping[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI tool-call dict with a ``role: tool`` message (bad JSON logged too)."""
        try:
            name, args = parse_tool_call(call)
        except ValueError as exc:
            self.invalid_calls += 1
            content = f"error: {exc}"
        else:
            content = self.call_tool(name, **args)
        msg: dict[str, Any] = {"role": "tool", "content": content}
        if call.get("id"):
            msg["tool_call_id"] = call["id"]
        fn = call.get("function", call)
        if fn.get("name"):
            msg["name"] = fn["name"]
        return msg

    # ---- stepping ------------------------------------------------------------------------
    def step(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Take one assistant message: answer its tool calls, or end the episode.

        Returns the tool messages (empty when the message is final or the episode is over).
        """
        if self.done:
            return []
        self.turns += 1
        entry = {"role": "assistant", "content": message.get("content") or ""}
        calls = list(message.get("tool_calls") or [])
        if calls:
            entry["tool_calls"] = calls
        self.messages.append(entry)
        if not calls:
            self.finish(str(message.get("content") or ""))
            return []
        out = [self.tool_message(c) for c in calls]
        self.messages.extend(out)
        if self.turns >= self.config.max_turns:
            self.done = True
        return out

    def finish(self, answer: str) -> None:
        """End the episode with ``answer`` (the policy's final text)."""
        self.answer = answer
        self.done = True

    @property
    def turns_exhausted(self) -> bool:
        """The turn budget ended the episode before a final answer."""
        return self.done and self.answer is None

    # ---- scoring -------------------------------------------------------------------------
    def score(self, answer: str | None = None) -> Score | None:
        """KOPA-Bench's three-axis score of this episode (None unless it is a bench task)."""
        ex = self.example
        if ex is None or ex.task is None:
            return None
        gold = ex.gold or gold_run(ex.task, self.world)
        return score_episode(ex.task, gold, self.trace, answer if answer is not None else (self.answer or ""),
                             catalog=self.world.catalog,
                             budget_exhausted=self.budget_exhausted or self.turns_exhausted)

    def stats(self) -> dict[str, Any]:
        """Per-episode numbers the shaping rewards read (JSON-safe)."""
        n = len(self.trace)
        ok = sum(1 for r in self.trace if r.ok)
        return {"episode_id": self.episode_id, "calls": n, "ok_calls": ok,
                "invalid_calls": self.invalid_calls, "turns": self.turns,
                "budget_exhausted": self.budget_exhausted, "turns_exhausted": self.turns_exhausted}

    def trace_json(self) -> list[dict[str, Any]]:
        """The trace in the benchmark's result form."""
        return [r.to_json() for r in self.trace]

