"""Agents behind one protocol: an OpenAI-compatible chat-completions client and scripted ones.

Scripted agents: the oracle (runs the gold program) and naive baselines that reproduce the
known failures: ``skip-lookup`` (guesses a code instead of looking it up), ``first-page``
(answers from the first page), ``first-of-many`` (takes only the first of many results).
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from simulator.tools.search import SEARCH_TOOL, ToolIndex

from .env import ToolEnv
from .execute import Policy, run_program
from .program import CallStep, ProgramError, format_answer
from .tasks import Task
from .errors import BenchError

__all__ = [
    "Agent",
    "ContextWindowFull",
    "Episode",
    "FirstOfManyAgent",
    "ModelEndpointError",
    "FirstPageAgent",
    "OpenAIAgent",
    "OracleAgent",
    "SkipLookupAgent",
    "make_agent",
]

#: The agent's system prompt: the task and the answer format, nothing about how to get there
#: (looking codes up and fetching every page are what the benchmark measures).
SYSTEM_PROMPT = (
    "당신은 한국 공공데이터 API 도구를 호출해 질문에 답하는 에이전트입니다. "
    "답을 알면 마지막 줄에 `ANSWER: <답>` 형식으로만 쓰세요 (여러 값이면 쉼표로 구분)."
)
#: Tool scopes: every catalog tool through a retrieval step (the default: the agent calls
#: ``search_tools`` and the tools found join its list, like the paper's tool retrieval over its
#: MCP servers), every catalog tool listed in each request (2,696 tools, about 2 MB of schema:
#: for long-context models), or, as an ablation, only the tools of the task's own platforms.
TOOL_SCOPES = ("search", "all", "platform")
#: Most tools one ``search_tools`` call returns.
SEARCH_MAX = 20


class ModelEndpointError(RuntimeError):
    """The model's endpoint failed (an HTTP error, no connection, a timeout, a reply that is not
    chat-completions JSON): infrastructure, not the model's answer. The runner stops and stores
    no episode, so a rerun into the same ``--out`` runs it again. The message is one line
    naming the URL, the status and the likely fix."""


class ContextWindowFull(Exception):
    """The server refused the conversation as longer than the model's context (a 400
    ``context_length_exceeded``): a limit of the model under test, so the episode ends (and
    fails) rather than the run."""


def _hint(status: int, base_url: str) -> str:
    if status == 404:
        return (": is the base URL missing /v1?" if not base_url.rstrip("/").endswith("/v1")
                else ": does the server serve /chat/completions at this base URL?")
    if status in (401, 403):
        return ": check --api-key / OPENAI_API_KEY"
    if status == 429:
        return ": rate limited; lower --workers"
    if status >= 500:
        return ": the model server failed; see its log"
    return ""


@dataclass
class Episode:
    """What an agent did: its final text, turns used and any agent-side error."""

    answer: str
    turns: int = 0
    error: str | None = None
    turns_exhausted: bool = False
    messages: list[dict[str, Any]] = field(default_factory=list)


class Agent(Protocol):
    """Answers a task by calling tools through ``env``."""

    name: str

    def run(self, task: Task, env: ToolEnv, *, seed: int, max_turns: int) -> Episode:
        """Solve ``task``; every tool call goes through ``env`` (which keeps the trace)."""
        ...


class _ProgramAgent:
    name = "oracle"
    policy = Policy()

    def run(self, task: Task, env: ToolEnv, *, seed: int, max_turns: int) -> Episode:
        try:
            value, _ = run_program(task.program, env, self.policy)
            return Episode(answer=format_answer(value), turns=1)
        except (ProgramError, KeyError, ValueError, TypeError) as exc:
            return Episode(answer="", turns=1, error=f"{type(exc).__name__}: {exc}")


class OracleAgent(_ProgramAgent):
    """Runs the gold program: must score 100% on all three axes."""

    name = "oracle"


class FirstPageAgent(_ProgramAgent):
    """Follows the program but reads only the first page of every paged collection."""

    name = "first-page"
    policy = Policy(first_page_only=True)


class FirstOfManyAgent(_ProgramAgent):
    """Follows the program but takes only the first of many results at fan-outs."""

    name = "first-of-many"
    policy = Policy(first_of_many=True)


class SkipLookupAgent:
    """Skips the prerequisite code lookups and guesses the code (the catalog's example)."""

    name = "skip-lookup"

    def run(self, task: Task, env: ToolEnv, *, seed: int, max_turns: int) -> Episode:
        prog = task.program
        lookups = {c.id for c in prog.lookup_steps()}
        target: CallStep | None = next(
            (c for c in prog.calls() if c.id not in lookups or prog.call_ancestors(c)), None)
        target = next((c for c in prog.calls() if prog.call_ancestors(c)), target)
        if target is None:
            return Episode(answer="", error="no dependent call")
        ep = env.world.catalog.endpoint(target.call)
        ref_args = set(prog.ref_args(target))
        args: dict[str, Any] = {}
        for k, v in target.args.items():
            if k in ref_args:
                p = ep.param(k)
                args[k] = (p.example if p is not None and p.example else None) or "0000"
            else:
                args[k] = v
        rec = env.call(target.call, args)
        if not rec.ok:
            return Episode(answer="조회 실패", turns=1)
        return Episode(answer=str(rec.total if rec.total is not None else len(rec.records)), turns=1)


# ---- OpenAI-compatible chat completions ---------------------------------------------------


class OpenAIAgent:
    """Any OpenAI-compatible ``/chat/completions`` endpoint with native tool calling.

    Args:
        base_url: e.g. ``http://localhost:8000/v1`` (env ``OPENAI_BASE_URL``).
        model: model name (env ``OPENAI_MODEL``).
        api_key: bearer key (env ``OPENAI_API_KEY``; may be empty for local servers).
        temperature: sampling temperature (seeds vary the samples).
        retries: attempts per request on transport errors, 429 and 5xx.
        tool_scope: ``search`` (the default: a ``search_tools`` retrieval step over every
            catalog tool; found tools join the list), ``all`` (every catalog tool in every
            request) or ``platform`` (only the task's platforms' tools: an ablation that tells
            the agent where to look).
        max_tokens: per completion.
    """

    name = "openai"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        *,
        temperature: float = 0.7,
        retries: int = 4,
        timeout: float = 120.0,
        tool_scope: str = "search",
        max_tokens: int | None = 2048,
        backoff: float = 1.0,
    ) -> None:
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL")
                         or "http://localhost:8000/v1").rstrip("/")
        self.model = model or os.environ.get("OPENAI_MODEL") or "default"
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.temperature = temperature
        self.retries = retries
        if tool_scope not in TOOL_SCOPES:
            raise BenchError(f"tool_scope={tool_scope!r}; use {', '.join(TOOL_SCOPES[:-1])} or {TOOL_SCOPES[-1]}")
        self.tool_scope = tool_scope
        self.max_tokens = max_tokens
        self.backoff = backoff
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()

    def check(self, timeout: float = 5.0) -> None:
        """Fail at once, naming the URL, when no server answers at ``base_url``.

        Any HTTP answer counts (some servers have no ``/models``); only a transport
        error (nothing listening, a bad host, a timeout) raises ``ConnectionError``.
        """
        try:
            self._client.get(f"{self.base_url}/models", timeout=timeout)
        except httpx.TransportError as exc:
            raise ConnectionError(
                f"no OpenAI-compatible server answers at base_url={self.base_url!r} ({exc}); "
                "start one (e.g. `vllm serve MODEL`, or `simulator train eval` for a checkpoint) "
                "or pass --base-url"
            ) from None

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        """One chat completion; 429, 5xx, connection errors, timeouts and replies that are not
        chat-completions JSON are retried with bounded exponential backoff, then raise
        :class:`ModelEndpointError`; any other 4xx raises it at once (retrying won't help)."""
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(max(1, self.retries)):
            if attempt:
                time.sleep(min(30.0, self.backoff * (2 ** (attempt - 1))) * (0.5 + random.random() / 2))
            try:
                r = self._client.post(url, json=payload)
            except httpx.TimeoutException as exc:
                last = f"timeout from {url} ({type(exc).__name__}): is the model server overloaded?"
                continue
            except httpx.TransportError as exc:
                last = f"no connection to {url} ({type(exc).__name__}: {exc}): is the model server running?"
                continue
            if r.status_code == 429 or r.status_code >= 500:
                last = f"{r.status_code} from {url}{_hint(r.status_code, self.base_url)} ({_excerpt(r.text)})"
                continue
            if r.status_code == 400 and "context_length_exceeded" in r.text:
                raise ContextWindowFull(f"the conversation outgrew the model's context ({_excerpt(r.text)})")
            if r.status_code >= 400:
                raise ModelEndpointError(
                    f"{r.status_code} from {url}{_hint(r.status_code, self.base_url)} ({_excerpt(r.text)})")
            try:
                data = r.json()
                msg = data["choices"][0]["message"]
                if not isinstance(msg, dict):
                    raise TypeError("message is not an object")
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                last = (f"malformed reply from {url}: not a chat completion ({type(exc).__name__}: "
                        f"{_excerpt(str(exc))}; body {_excerpt(r.text)})")
                continue
            return dict(data)
        raise ModelEndpointError(f"{last} (after {max(1, self.retries)} attempts)")

    def run(self, task: Task, env: ToolEnv, *, seed: int, max_turns: int) -> Episode:
        search = self.tool_scope == "search"
        if search:
            index = env.world.tool_index()
            tools: list[dict[str, Any]] = [SEARCH_TOOL]
        else:
            tools = env.world.tools(None if self.tool_scope == "all" else list(task.platforms))
        # the same tools in the same order every run (the catalog's order)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": task.question},
        ]
        turns = 0
        while turns < max_turns:
            turns += 1
            payload: dict[str, Any] = {
                "model": self.model, "messages": messages, "tools": tools,
                "tool_choice": "auto", "temperature": self.temperature, "seed": seed,
            }
            if self.max_tokens:
                payload["max_tokens"] = self.max_tokens
            try:
                msg = self._post(payload)["choices"][0]["message"]  # ModelEndpointError: the run stops
            except ContextWindowFull as exc:
                return Episode(answer="", turns=turns, error=str(exc), messages=messages)
            calls = msg.get("tool_calls") or []
            calls = calls if isinstance(calls, list) else [calls]
            text = msg.get("content") or ""
            text = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
            entry: dict[str, Any] = {"role": "assistant", "content": text}
            if calls:
                entry["tool_calls"] = calls
            messages.append(entry)
            if not calls:
                return Episode(answer=text, turns=turns, messages=messages)
            for tc in calls:
                # A working model's malformed call (not an object, bad JSON arguments, an unknown
                # tool) is its own mistake: a tool error it reads, and the episode goes on.
                tc = tc if isinstance(tc, dict) else {}
                fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
                name = str(fn.get("name") or "")
                raw = fn.get("arguments")
                try:
                    args = raw if isinstance(raw, dict) else json.loads(raw or "{}")
                    if not isinstance(args, dict):
                        raise BenchError("arguments must be a JSON object")
                except (ValueError, TypeError) as exc:
                    content = f"error: arguments are not valid JSON ({exc})"
                else:
                    if search and name == SEARCH_TOOL["function"]["name"]:
                        content = _search(index, args, tools)
                        messages.append({"role": "tool", "tool_call_id": tc.get("id", ""),
                                         "content": content})
                        continue
                    rec = env.call(name, args)
                    content = env.observation(rec) if rec.ok or rec.source != "error" else (
                        f"error: {rec.error}")
                messages.append({"role": "tool", "tool_call_id": tc.get("id", ""),
                                 "content": content})
        return Episode(answer="", turns=turns, turns_exhausted=True, messages=messages)


def _excerpt(text: str, n: int = 120) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= n else one[:n] + "…"


def _search(index: ToolIndex, args: dict[str, Any], tools: list[dict[str, Any]]) -> str:
    """Answer a ``search_tools`` call: the found tools join ``tools``; their names and
    descriptions are the tool message."""
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        return "error: search_tools needs query (a string describing the data you need)"
    try:
        k = min(SEARCH_MAX, max(1, int(args.get("k") or 8)))
    except (TypeError, ValueError):
        return f"error: k={args.get('k')!r} is not a whole number (1 to {SEARCH_MAX})"
    names = index.search(query, k)
    have = {t["function"]["name"] for t in tools}
    tools.extend(dict(index.tool(n)) for n in names if n not in have)
    found = [{"name": n, "description": index.tool(n)["function"].get("description", "")} for n in names]
    return json.dumps({"tools": found} if found else {"tools": [], "hint": "no tool matched: try other words"},
                      ensure_ascii=False)


def make_agent(name: str, **kwargs: Any) -> Agent:
    """An agent by CLI name: oracle, skip-lookup, first-page, first-of-many, openai."""
    scripted: dict[str, type] = {
        "oracle": OracleAgent, "skip-lookup": SkipLookupAgent, "first-page": FirstPageAgent,
        "first-of-many": FirstOfManyAgent,
    }
    if name in scripted:
        return scripted[name]()  # type: ignore[no-any-return]
    if name == "openai":
        return OpenAIAgent(**kwargs)
    raise BenchError(f"unknown agent {name!r}; use {', '.join([*scripted, 'openai'])}")
