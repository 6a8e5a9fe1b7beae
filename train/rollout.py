"""Rollouts against any OpenAI-compatible policy server (vLLM, SGLang, …) for evaluation and
offline data.

Episodes run concurrently; observations are deterministic (pinned version, seeded faults);
each finished episode is one row in KOPA-Bench's result format (``bench.kopa.runner``: task,
seed, agent, content hash, the three axes, failures, trace …) plus the conversation
(``messages``) for offline training data. Rows of examples that are not benchmark tasks
(synthesized ones) are scored on RESPONSE only: ``action`` and ``environment`` are None
and ``passed`` is the response verdict.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import httpx

from bench.kopa.env import World
from bench.kopa.runner import RESULTS, load_results

from .env import EnvConfig, Example, SimEpisode
from .rewards import answer_matches

__all__ = ["PolicyClient", "RolloutConfig", "run_episode", "run_rollouts"]


@dataclass(frozen=True)
class RolloutConfig:
    """Sampling, budgets and concurrency of a rollout run."""

    seeds: int = 1
    workers: int = 8
    temperature: float = 0.7
    max_tokens: int | None = 1024
    env: EnvConfig = EnvConfig()


class PolicyClient:
    """A minimal ``/chat/completions`` client (retries on transport errors, 429 and 5xx).

    Args:
        base_url: e.g. ``http://localhost:8000/v1``.
        model: model name the server expects.
        api_key: bearer key (empty for local servers).
    """

    def __init__(self, base_url: str, model: str = "default", api_key: str = "", *,
                 timeout: float = 120.0, retries: int = 3, backoff: float = 0.5) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = retries
        self.backoff = backoff
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()

    def chat(self, payload: dict[str, Any]) -> dict[str, Any]:
        """POST a chat-completions request; the first choice's message."""
        last: Exception | None = None
        for attempt in range(self.retries):
            try:
                r = self._client.post(f"{self.base_url}/chat/completions", json={"model": self.model, **payload})
                if r.status_code == 429 or r.status_code >= 500:
                    last = RuntimeError(f"HTTP {r.status_code}: {r.text[:200]}")
                else:
                    r.raise_for_status()
                    return dict(r.json()["choices"][0]["message"])
            except (httpx.TransportError, ValueError, KeyError, IndexError) as exc:
                last = exc
            time.sleep(self.backoff * (2 ** attempt))
        raise RuntimeError(f"chat completions failed after {self.retries} attempts: {last}")


def run_episode(client: PolicyClient, world: World, example: Example, seed: int,
                config: RolloutConfig = RolloutConfig()) -> dict[str, Any]:
    """One episode of ``example`` with sample seed ``seed``; a result row."""
    ep = SimEpisode(world, example, config.env, seed=seed)
    tools = ep.tools()
    error: str | None = None
    t0 = time.perf_counter()
    while not ep.done:
        payload: dict[str, Any] = {"messages": ep.messages, "tools": tools, "tool_choice": "auto",
                                   "temperature": config.temperature, "seed": seed}
        if config.max_tokens:
            payload["max_tokens"] = config.max_tokens
        try:
            msg = client.chat(payload)
        except RuntimeError as exc:
            error = str(exc)
            break
        ep.step(msg)
    elapsed = time.perf_counter() - t0
    answer = ep.answer or ""
    sc = ep.score()
    if sc is not None:
        axes = sc.to_json()
    else:
        ok = answer_matches(answer, example.answer, example.check, example.question)
        axes = {"response": ok, "action": None, "environment": None, "failures": [] if ok else ["wrong_answer"],
                "primary": None if ok else "wrong_answer", "details": {"gold_answer": example.answer},
                "passed": ok}
    task = example.task
    return {
        "task": example.id, "seed": seed, "agent": f"openai:{client.model}",
        "content_hash": world.content_hash, "platforms": list(example.platforms),
        "domain": task.domain if task is not None else "",
        **axes, "answer": answer[:2000], "calls": len(ep.trace),
        "gold_calls": example.gold.length if example.gold is not None else None,
        "turns": ep.turns, "error": error, "elapsed_s": round(elapsed, 4),
        "episode_id": ep.episode_id, "trace": ep.trace_json(), "messages": ep.messages,
    }


def run_rollouts(
    client: PolicyClient,
    world: World,
    examples: Sequence[Example],
    config: RolloutConfig = RolloutConfig(),
    *,
    out: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every example × seed concurrently; rows sorted by (task, seed).

    With ``out``, rows are appended to ``out/results.jsonl`` (the benchmark's file) as they
    finish and pairs already there are skipped (resumable).
    """
    done: dict[tuple[str, int], dict[str, Any]] = {}
    fh = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for r in load_results(out):
            done[(r["task"], r["seed"])] = r
        fh = (out / RESULTS).open("a", encoding="utf-8")
    todo = [(ex, s) for ex in examples for s in range(config.seeds) if (ex.id, s) not in done]
    lock = threading.Lock()
    total, finished = len(examples) * config.seeds, len(done)
    try:
        with ThreadPoolExecutor(max_workers=max(1, config.workers)) as pool:
            futs = [pool.submit(run_episode, client, world, ex, s, config) for ex, s in todo]
            for f in as_completed(futs):
                row = f.result()
                with lock:
                    done[(row["task"], row["seed"])] = row
                    finished += 1
                    if fh is not None:
                        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                        fh.flush()
                    if progress:
                        progress(finished, total)
    finally:
        if fh is not None:
            fh.close()
    return [done[k] for k in sorted(done)]
