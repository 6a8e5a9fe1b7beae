"""The evaluation loop: serve a checkpoint and its base model, run KOPA-Bench on both, report.

``simulator train eval CHECKPOINT`` serves each model (:func:`train.serve.serve_checkpoint`:
vLLM when installed, else the built-in ``transformers`` server), runs the benchmark with
``seeds`` samples per task through KOPA-Bench's own OpenAI-compatible agent and runner
(``bench.kopa.agents.OpenAIAgent``, ``bench.kopa.runner.run_bench``, each model's results in
``OUT/<label>/``), and writes one report, ``OUT/eval_report.json`` and
``OUT/eval_report.md``: pass@1 and pass@k, the three axes and the failure taxonomy of the
base model beside the trained one.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .errors import TrainError

__all__ = ["EvalConfig", "base_model_of", "run_eval", "write_eval_report"]


@dataclass
class EvalConfig:
    """What to evaluate and how.

    Args:
        seeds: samples per task (n of pass@k); must be >= ``k``.
        k: the k of pass@k.
        tasks: only these bench task ids (default all 145).
        backend: ``auto`` (vLLM when installed), ``vllm`` or ``builtin``.
        max_tokens: per completion; temperature: sampling temperature (seeds vary samples).
        tool_scope: ``search`` (the bench's default: a retrieval step over every catalog
            tool), ``all`` (every tool in each request: about 2 MB of schema) or ``platform``
            (the task's own platforms' tools: the ablation, and what a small context fits).
    """

    seeds: int = 8
    k: int = 4
    tasks: list[str] = field(default_factory=list)
    max_turns: int = 24
    max_calls: int = 64
    workers: int = 8
    temperature: float = 0.7
    max_tokens: int = 2048
    backend: str = "auto"
    set_name: str = "kopa"
    version: str | None = None
    tool_scope: str = "search"

    def __post_init__(self) -> None:
        if self.k < 1 or self.seeds < self.k:
            raise TrainError(f"seeds={self.seeds} must be >= k={self.k} >= 1 (pass@k needs k samples per task)")
        if self.tool_scope not in ("search", "all", "platform"):
            raise TrainError(f"--tools {self.tool_scope!r}; use search, all or platform")


def base_model_of(checkpoint: Path) -> str | None:
    """The model a ``train grpo`` run started from (its ``kopa_run.json``), if recorded: the
    saved starting weights of a ``--model tiny`` run (``base_model``), else the config's model."""
    from .data import META_FILE

    for d in (checkpoint, checkpoint.parent):
        meta = d / META_FILE
        if meta.is_file():
            data = json.loads(meta.read_text(encoding="utf-8"))
            if data.get("base_model"):
                return str(data["base_model"])
            model = data.get("config", {}).get("model")
            return str(model) if model and model != "tiny" else None
    return None


def _row(label: str, path: str, summary: dict[str, Any], k: int) -> dict[str, Any]:
    ov = summary["overall"]
    return {"model": label, "path": path, "episodes": ov["episodes"], "tasks": ov["tasks"],
            "pass@1": ov["pass@1"], f"pass@{k}": ov.get(f"pass@{k}"), "ci95": ov.get("ci95"),
            "response": ov["response"], "action": ov["action"], "environment": ov["environment"],
            "taxonomy": summary["taxonomy_primary"],
            "heldout": (summary["heldout_split"].get("heldout") or {}).get("pass@1"),
            "calls_per_episode": summary["calls_per_task"]["mean"]}


def _pct(x: Any) -> str:
    return "–" if x is None else f"{100 * float(x):.1f}"


def write_eval_report(out: Path, rows: Sequence[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    """Write ``eval_report.json`` and ``eval_report.md`` (one row per model) into ``out``."""
    k = int(meta["k"])
    report = {"meta": meta, "models": list(rows)}
    (out / "eval_report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                          encoding="utf-8")
    lines = ["# KOPA-Bench: base vs trained", "",
             f"Cassettes `{meta['version']}` (content hash `{meta['content_hash'][:16]}`); "
             f"{meta['tasks']} tasks × {meta['seeds']} samples; backend `{meta['backend']}`.", "",
             f"| model | pass@1 | pass@{k} | RESPONSE | ACTION | ENVIRONMENT | held-out pass@1 | calls/episode |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['model']} | {_pct(r['pass@1'])} | {_pct(r.get(f'pass@{k}'))} | {_pct(r['response'])} | "
                     f"{_pct(r['action'])} | {_pct(r['environment'])} | {_pct(r['heldout'])} | "
                     f"{r['calls_per_episode']} |")
    classes = list(rows[0]["taxonomy"]) if rows else []
    lines += ["", "### Failure taxonomy (primary class of failed episodes)", "",
              "| class | " + " | ".join(r["model"] for r in rows) + " |",
              "|---|" + "---|" * len(rows)]
    lines += [f"| {c} | " + " | ".join(str(r["taxonomy"].get(c, 0)) for r in rows) + " |" for c in classes]
    lines += ["", "Per-model results and summaries: " + ", ".join(f"`{r['model']}/`" for r in rows), ""]
    (out / "eval_report.md").write_text("\n".join(lines), encoding="utf-8")
    return report


def run_eval(models: Sequence[tuple[str, str]], out: Path, config: EvalConfig = EvalConfig(),
             *, world: Any = None) -> dict[str, Any]:
    """Serve and benchmark each ``(label, path)`` in turn; the report (also written to ``out``)."""
    from bench.kopa.agents import OpenAIAgent
    from bench.kopa.runner import RunConfig, run_bench, summarize
    from bench.kopa.tasks import load_tasks

    from .env import open_world
    from .serve import have_vllm, serve_checkpoint

    world = world or open_world(config.set_name, config.version)
    tasks = load_tasks(catalog=world.catalog)
    if config.tasks:
        unknown = sorted(set(config.tasks) - {t.id for t in tasks})
        if unknown:
            raise TrainError(f"unknown bench task ids {unknown[:3]}; list them with `simulator bench tasks`")
        tasks = [t for t in tasks if t.id in set(config.tasks)]
    out.mkdir(parents=True, exist_ok=True)
    rc = RunConfig(seeds=config.seeds, k=config.k, max_turns=config.max_turns, max_calls=config.max_calls,
                   workers=config.workers)
    backend = config.backend if config.backend != "auto" else ("vllm" if have_vllm() else "builtin")
    rows = []
    for label, path in models:
        with serve_checkpoint(path, name=label, backend=backend, max_tokens=config.max_tokens) as url:
            agent = OpenAIAgent(url, label, "", temperature=config.temperature, max_tokens=config.max_tokens,
                                retries=2, backoff=0.1, tool_scope=config.tool_scope)
            try:
                results = run_bench(agent, tasks, world, out / label, rc, meta={"model": path})
            finally:
                agent.close()
        rows.append(_row(label, str(path), summarize(results, config.k, rc.heldout), config.k))
    meta = {**asdict(config), "task_ids": list(config.tasks), "backend": backend, "tasks": len(tasks), "content_hash": world.content_hash,
            "version": world.version.id}
    return write_eval_report(out, rows, meta)
