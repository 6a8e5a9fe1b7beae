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
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from bench.kopa.agents import SYSTEM_PROMPT
from bench.kopa.env import MAX_TEXT, CallRecord, ToolEnv, World
from bench.kopa.scoring import Score, score_episode
from bench.kopa.tasks import Gold, Task, gold_run
from simulator import FaultConfig, Store
from simulator.tools import Program
from .errors import TrainError

__all__ = [
    "EnvConfig",
    "Example",
    "MAX_ARG_DEPTH",
    "MAX_ARG_DIGITS",
    "SimEpisode",
    "clean_text",
    "clean_tool_call",
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
            raise TrainError(f"max_turns={self.max_turns!r} must be >= 1 and "
                             f"max_calls={self.max_calls!r} >= 0")
        if self.platforms_scope not in ("task", "all"):
            raise TrainError(f"platforms_scope={self.platforms_scope!r}; use task or all")


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
            raise TrainError(f"row prompt={prompt!r} must be a non-empty list of messages")
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
    ``Program``; None when the row has none. ``TrainError`` (a ``ValueError``) names what is wrong."""
    if raw is None or raw == "" or isinstance(raw, Program):
        return raw or None
    from pydantic import ValidationError

    try:
        data = json.loads(raw) if isinstance(raw, str) else raw
        return Program.model_validate(data)
    except (json.JSONDecodeError, ValidationError) as exc:
        detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        raise TrainError(f"row gold_program is not a program ({detail}); rows come from "
                         "`simulator edge synthesize` (trl.jsonl)") from None


def example_from_task(task: Task, world: World) -> Example:
    """A benchmark task as an example (gold answer computed on ``world``'s version)."""
    gold = gold_run(task, world)
    prompt = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task.question}]
    return Example(id=task.id, prompt=prompt, answer=gold.answer, check=task.check.model_dump(),
                   platforms=list(task.platforms), task=task, gold=gold)


#: How deep a model's argument values may nest (a tool takes scalars; deeper is refused).
MAX_ARG_DEPTH = 32
#: How many digits a number argument may have (no parameter takes more; Python refuses to
#: print an int of over 4,300).
MAX_ARG_DIGITS = 100
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(value: Any) -> str:
    """``value`` as text a client can send back: lone surrogates become U+FFFD, an object is
    shown by its type and never printed whole (a 100k-deep list cannot be).

    >>> clean_text("a\\ud800b") == "a\\ufffdb", clean_text(None), clean_text(3)
    (True, '', '3')
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, bool) or (isinstance(value, float)):
        return str(value)
    if isinstance(value, int):
        return str(value) if _digits(value) <= MAX_ARG_DIGITS else f"<a number of {_digits(value)} digits>"
    return f"<{type(value).__name__}>"


def _digits(n: int) -> int:
    return max(1, (abs(n).bit_length() * 30103) // 100000 + 1)


def _check_value(name: str, value: Any) -> None:
    """Refuse (``ValueError``) an argument value no tool could take, without recursing."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_ARG_DEPTH:
            raise TrainError(f"argument {name!r} nests deeper than {MAX_ARG_DEPTH} levels")
        if v is None or isinstance(v, (bool, float)):
            continue
        if isinstance(v, int):
            if _digits(v) > MAX_ARG_DIGITS:
                raise TrainError(f"argument {name!r} is a number of over {MAX_ARG_DIGITS} digits")
        elif isinstance(v, str):
            if _SURROGATE.search(v):
                raise TrainError(f"argument {name!r} holds a lone surrogate (not valid Unicode)")
        elif isinstance(v, (list, tuple)):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise TrainError(f"argument {name!r} holds a key that is not a string")
                stack.append((k, depth + 1))
                stack.append((x, depth + 1))
        else:
            raise TrainError(f"argument {name!r} is a {type(v).__name__}, not a JSON value")


def parse_tool_call(call: Any) -> tuple[str, dict[str, Any]]:
    """``(name, kwargs)`` of an OpenAI tool-call dict (arguments a JSON string or a dict),
    a ``{"name", "arguments"}`` dict (HF / TRL form) or ``{"name", "kwargs"}``.

    Whatever a model emits is read or refused here, never raised past ``ValueError``: a call
    that is not an object, ``function`` of the wrong type, a name that is not a string, JSON
    nested too deep, a number of thousands of digits, a lone surrogate, argument names that
    are not strings.

    Raises:
        TrainError: the call cannot be read (the message says why; a ValueError).
    """
    if not isinstance(call, Mapping):
        raise TrainError(f"a tool call must be an object with function.name and function.arguments, "
                         f"got {type(call).__name__}")
    fn = call.get("function", call)
    if not isinstance(fn, Mapping):
        raise TrainError(f"function must be an object with name and arguments, got {type(fn).__name__}")
    raw_name = fn.get("name", "")
    if not isinstance(raw_name, str):
        raise TrainError(f"function.name must be a string, got {type(raw_name).__name__}")
    if _SURROGATE.search(raw_name):
        raise TrainError(f"function.name {clean_text(raw_name)[:80]!r} holds a lone surrogate (not valid Unicode)")
    name = raw_name
    shown = name[:80]
    args: Any = fn.get("arguments", fn.get("kwargs", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args or "{}")
        except RecursionError:
            raise TrainError(f"arguments of {shown!r} nest too deep") from None
        except ValueError as exc:  # JSONDecodeError, or a number Python refuses to read
            raise TrainError(f"arguments of {shown!r} are not valid JSON: {clean_text(str(exc))[:200]}") from None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise TrainError(f"arguments of {shown!r} must be a JSON object, got {type(args).__name__}")
    for k, v in args.items():
        if not isinstance(k, str):
            raise TrainError(f"argument names of {shown!r} must be strings, got {type(k).__name__}")
        if _SURROGATE.search(k):
            raise TrainError(f"an argument name of {shown!r} holds a lone surrogate (not valid Unicode)")
        _check_value(k, v)
    return name, args


def _call_id(call: Any) -> str | None:
    rid = call.get("id") if isinstance(call, Mapping) else None
    return clean_text(rid) if isinstance(rid, (str, int)) and not isinstance(rid, bool) and rid != "" else None


def _call_name(call: Any) -> str:
    fn = call.get("function", call) if isinstance(call, Mapping) else None
    name = fn.get("name") if isinstance(fn, Mapping) else None
    return clean_text(name)[:200] if isinstance(name, str) else ""


def _arguments_text(call: Any) -> str:
    """A call's arguments as the JSON text an assistant message keeps (never raises)."""
    fn = call.get("function", call) if isinstance(call, Mapping) else None
    args = fn.get("arguments", fn.get("kwargs", {})) if isinstance(fn, Mapping) else None
    if isinstance(args, str):
        return clean_text(args)
    try:
        _check_value("arguments", args)
        return json.dumps(args, ensure_ascii=False)
    except (ValueError, TypeError):
        return clean_text(args)


def clean_tool_call(call: Any, index: int = 0) -> dict[str, Any]:
    """``call`` in the OpenAI form, safe to keep and send back (id, name and arguments text)."""
    return {"id": _call_id(call) or f"call_{index}", "type": "function",
            "function": {"name": _call_name(call), "arguments": _arguments_text(call)}}


def _content_text(content: Any) -> str:
    """A reply's content as text: a string, or the text parts of a list of content parts."""
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, Mapping)]
        return "".join(clean_text(t) for t in parts if isinstance(t, str))
    return clean_text(content)


#: Errors a model's own input can raise inside the simulator; they become an error
#: observation. Infrastructure errors (OSError, sqlite3.Error …) still raise.
_INPUT_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError,
                 OverflowError, UnicodeError)


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

    def tool_message(self, call: Any, index: int | None = None) -> dict[str, Any]:
        """Answer an OpenAI tool-call dict with a ``role: tool`` message.

        Never raises on what a model emits: a call that cannot be read, or that the
        simulator refuses, is answered ``error: …`` (counted in ``invalid_calls``; a call
        that reached a tool is in the trace too) and the episode goes on.
        """
        try:
            name, args = parse_tool_call(call)
        except ValueError as exc:
            self.invalid_calls += 1
            content = f"error: {clean_text(str(exc))}"
        else:
            try:
                # ``call``, not ``call_tool(**args)``: an argument may be named ``name`` or ``self``.
                content = clean_text(self.observation(self.call(name, args)))
            except _INPUT_ERRORS as exc:
                self.invalid_calls += 1
                content = f"error: the call could not be answered ({type(exc).__name__}: {clean_text(str(exc))[:200]})"
        msg: dict[str, Any] = {"role": "tool", "content": content}
        call_id = _call_id(call) or (None if index is None else f"call_{index}")
        if call_id:
            msg["tool_call_id"] = call_id  # the id its (cleaned) call has in ``messages``
        name = _call_name(call)
        if name:
            msg["name"] = name
        return msg

    # ---- stepping ------------------------------------------------------------------------
    def step(self, message: Any) -> list[dict[str, Any]]:
        """Take one assistant message: answer its tool calls, or end the episode.

        Returns the tool messages (empty when the message is final or the episode is over).
        A reply that is not a message, or whose ``tool_calls`` is not a list of calls, is
        answered with an error tool message and the episode goes on; what the episode keeps
        (``messages``) is always JSON a chat endpoint accepts.
        """
        if self.done:
            return []
        self.turns += 1
        if isinstance(message, str):
            message = {"role": "assistant", "content": message}
        if not isinstance(message, Mapping):
            self.invalid_calls += 1
            self.messages.append({"role": "assistant", "content": ""})
            out = [{"role": "tool", "content": "error: the reply must be a chat message object "
                    f"(role, content, tool_calls), got {type(message).__name__}"}]
            return self._answered(out)
        raw = message.get("tool_calls")
        entry: dict[str, Any] = {"role": "assistant", "content": _content_text(message.get("content"))}
        bad: str | None = None
        if raw is None or raw == [] or raw is False or raw == "":
            calls: list[Any] = []
        elif isinstance(raw, Mapping):
            calls = [raw]  # one call, not in its list
        elif isinstance(raw, (list, tuple)):
            calls = list(raw)
        else:
            calls, bad = [], type(raw).__name__
        if bad is not None:
            self.invalid_calls += 1
            self.messages.append(entry)
            return self._answered([{"role": "tool", "content": "error: tool_calls must be a list of tool-call "
                                    f"objects, got {bad}"}])
        if calls:
            entry["tool_calls"] = [clean_tool_call(c, i) for i, c in enumerate(calls)]
        self.messages.append(entry)
        if not calls:
            self.finish(entry["content"])
            return []
        return self._answered([self.tool_message(c, i) for i, c in enumerate(calls)])

    def _answered(self, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
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

