"""The runner: k samples per task over seeds, budgets, concurrency, resumable JSONL results."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from simulator import atomic_files

from .agents import Agent
from .env import ToolEnv, World
from .metrics import mean_ci, pass_at_k
from .scoring import FAILURE_CLASSES, score_episode
from .tasks import Task, gold_run
from .errors import BenchError

__all__ = ["DEFAULT_HELDOUT", "RunConfig", "load_results", "run_bench", "summarize", "world_of"]

RESULTS = "results.jsonl"
META = "run.json"
#: Platforms withheld from synthesis by default (the held-out-platform split).
DEFAULT_HELDOUT = ("nec", "lawgokr", "tago")


@dataclass
class RunConfig:
    """Sampling and budget settings of a run."""

    seeds: int = 8
    k: int = 4
    max_turns: int = 24
    max_calls: int = 64
    workers: int = 8
    heldout: tuple[str, ...] = DEFAULT_HELDOUT


def world_of(version: Any) -> str:
    """What a run's answers are about, from the version's manifest ``source``
    (``synthetic (sandbox)`` for the shipped cassettes): results on a synthetic world are not
    comparable with results on the live APIs."""
    manifest = getattr(version, "manifest", None)
    return str(getattr(manifest, "world", "")) or "unknown"


def load_results(out: Path) -> list[dict[str, Any]]:
    """Rows of ``out/results.jsonl`` (a torn last line from an interrupted run is skipped)."""
    path = out / RESULTS
    rows: list[dict[str, Any]] = []
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def run_bench(
    agent: Agent,
    tasks: list[Task],
    world: World,
    out: Path,
    config: RunConfig = RunConfig(),
    *,
    meta: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    judge: Callable[[str, str, str], bool | None] | None = None,
) -> list[dict[str, Any]]:
    """Run ``agent`` on ``tasks`` × seeds into ``out`` (skipping finished pairs); all rows.

    ``judge`` (e.g. :class:`~bench.kopa.judge.LLMJudge`) grades each final answer beside the
    deterministic checker; its verdict is stored as ``judge`` and never changes the score.
    """
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / META
    info = {"agent": agent.name, "content_hash": world.content_hash,
            "version": getattr(world.version, "id", ""), "world": world_of(world.version), "seeds": config.seeds, "k": config.k,
            "max_turns": config.max_turns, "max_calls": config.max_calls,
            "heldout": list(config.heldout), **(meta or {})}
    if meta_path.exists():
        old = json.loads(meta_path.read_text(encoding="utf-8"))
        for key in ("agent", "content_hash"):
            if old.get(key) != info[key]:
                raise BenchError(f"{out} holds a run with {key}={old.get(key)!r}, not "
                                 f"{info[key]!r}: use another --out directory")
    existing = load_results(out)
    path = out / RESULTS
    # run.json and the results file are replaced whole (never half-written). The results file
    # is the run's append-only state (``bench run`` resumes from it): a torn last line (an
    # interrupted write) is dropped so appended rows start on their own line.
    with atomic_files(meta_path, path if path.exists() else None) as (meta_tmp, results_tmp):
        assert meta_tmp is not None
        meta_tmp.write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf-8")
        if results_tmp is not None:
            results_tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in existing),
                                   encoding="utf-8")
    done = {(r["task"], r["seed"]) for r in existing}
    todo = [(t, s) for t in tasks for s in range(config.seeds) if (t.id, s) not in done]
    lock = threading.Lock()
    fh = (out / RESULTS).open("a", encoding="utf-8")
    finished = [len(tasks) * config.seeds - len(todo)]
    total = len(tasks) * config.seeds
    if progress:
        progress(finished[0], total)

    stop = threading.Event()

    def one(task: Task, seed: int) -> dict[str, Any] | None:
        if stop.is_set():  # an episode failed for a reason not the model's: start no more
            return None
        try:
            return episode(task, seed)
        except BaseException:
            stop.set()
            raise

    def episode(task: Task, seed: int) -> dict[str, Any]:
        gold = gold_run(task, world)
        env = ToolEnv.for_task(world, task.program, f"{task.id}#{seed}", config.max_calls)
        t0 = time.perf_counter()
        ep = agent.run(task, env, seed=seed, max_turns=config.max_turns)
        elapsed = time.perf_counter() - t0
        sc = score_episode(task, gold, env.trace, ep.answer, catalog=world.catalog,
                           budget_exhausted=env.budget_exhausted or ep.turns_exhausted)
        verdict = {"judge": judge(task.question, gold.answer, ep.answer)} if judge is not None else {}
        return {
            **verdict,
            "task": task.id, "seed": seed, "agent": agent.name,
            "content_hash": world.content_hash, "platforms": task.platforms,
            "domain": task.domain, **sc.to_json(), "answer": ep.answer[:2000],
            "calls": len(env.trace), "gold_calls": gold.length, "turns": ep.turns,
            "error": ep.error, "elapsed_s": round(elapsed, 4),
            "trace": [r.to_json() for r in env.trace],
        }

    failure: BaseException | None = None
    try:
        with ThreadPoolExecutor(max_workers=max(1, config.workers)) as pool:
            futs = [pool.submit(one, t, s) for t, s in todo]
            for f in as_completed(futs):
                if f.cancelled():
                    continue
                exc = f.exception()
                if exc is not None:
                    # The model's endpoint failed (or the agent broke): no row for this episode,
                    # nothing more started; episodes already running finish and are kept.
                    if failure is None:
                        failure = exc
                        for other in futs:
                            other.cancel()
                    continue
                row = f.result()
                if row is None:
                    continue
                with lock:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    fh.flush()
                    finished[0] += 1
                    if progress:
                        progress(finished[0], total)
    finally:
        fh.close()
    if failure is not None:
        raise failure
    return load_results(out)


def _rate(rows: list[dict[str, Any]], key: str) -> float:
    return sum(1 for r in rows if r[key]) / len(rows) if rows else 0.0


def _passk(rows: list[dict[str, Any]], key: str, k: int) -> float | None:
    by: dict[str, list[bool]] = defaultdict(list)
    for r in rows:
        by[r["task"]].append(bool(r[key]))
    vals = [pass_at_k(len(v), sum(v), k) for v in by.values() if len(v) >= k]
    return sum(vals) / len(vals) if vals else None


def _group(rows: list[dict[str, Any]], k: int) -> dict[str, Any]:
    seeds = sorted({r["seed"] for r in rows})
    per_seed = [_rate([r for r in rows if r["seed"] == s], "passed") for s in seeds]
    m, lo, hi = mean_ci(per_seed)
    return {
        "episodes": len(rows), "tasks": len({r["task"] for r in rows}),
        "pass@1": round(_rate(rows, "passed"), 4),
        f"pass@{k}": None if _passk(rows, "passed", k) is None else round(_passk(rows, "passed", k) or 0, 4),
        "ci95": [round(lo, 4), round(hi, 4)] if per_seed else None,
        "response": round(_rate(rows, "response"), 4),
        "action": round(_rate(rows, "action"), 4),
        "environment": round(_rate(rows, "environment"), 4),
        "response_pass@1": round(_rate(rows, "response"), 4),
        f"response_pass@{k}": _passk(rows, "response", k),
    }


def summarize(rows: list[dict[str, Any]], k: int = 4, heldout: tuple[str, ...] = DEFAULT_HELDOUT) -> dict[str, Any]:
    """Overall, per-platform, per-domain and held-out-split metrics plus the taxonomy."""
    plats = sorted({p for r in rows for p in r["platforms"]})
    doms = sorted({r["domain"] for r in rows})
    held = [r for r in rows if set(r["platforms"]) & set(heldout)]
    seen = [r for r in rows if not set(r["platforms"]) & set(heldout)]
    failed = [r for r in rows if not r["passed"]]
    primary = Counter(r["primary"] for r in failed if r.get("primary"))
    anylabel = Counter(c for r in failed for c in r.get("failures", []))
    calls = [r["calls"] for r in rows]
    judged = [r for r in rows if r.get("judge") is not None]
    judge = ({"episodes": len(judged), "accepted": round(_rate(judged, "judge"), 4),
              "agreement": round(sum(bool(r["judge"]) == bool(r["response"]) for r in judged) / len(judged), 4)}
             if judged else None)
    return {
        **({"judge": judge} if judge else {}),
        "overall": _group(rows, k),
        "by_platform": {p: _group([r for r in rows if p in r["platforms"]], k) for p in plats},
        "by_domain": {d: _group([r for r in rows if r["domain"] == d], k) for d in doms},
        "heldout_split": {"heldout_platforms": list(heldout),
                          "heldout": _group(held, k) if held else None,
                          "seen": _group(seen, k) if seen else None},
        "taxonomy_primary": {c: primary.get(c, 0) for c in FAILURE_CLASSES},
        "taxonomy_any": {c: anylabel.get(c, 0) for c in FAILURE_CLASSES},
        "calls_per_task": {"mean": round(sum(calls) / len(calls), 2) if calls else 0,
                           "max": max(calls, default=0),
                           "gold_mean": round(sum(r["gold_calls"] for r in rows) / len(rows), 2)
                           if rows else 0},
    }
