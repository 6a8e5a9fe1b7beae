"""KOPA-Bench oracle run time: 145 tasks × 8 seeds on the shipped cassettes (issue 9: ≤ 30 s).

The oracle runs every task's gold program through the same runner, tool environment and
scoring as any agent (``bench.kopa.runner.run_bench``), so this is the harness's own cost:
a model-free lower bound on a benchmark run. Measured side by side in one process, each on a
fresh ``World`` (no memo carried over) and a fresh result directory:

* the full run with the runner's default worker threads (8) and with 1 worker;
* the summary (pass@k with confidence intervals, taxonomy) over the rows.

Every row must pass all three axes, or the run fails (a fast wrong run measures nothing).

Run it (writes ``results/bench_oracle.json`` and the bench_oracle section of ``RESULTS.md``)::

    python -m perf.bench_oracle            # 145 tasks × 8 seeds
    python -m perf.bench_oracle --quick    # 20 tasks × 2 seeds (CI smoke)
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.kopa import bench_version
from bench.kopa.agents import make_agent
from bench.kopa.env import World
from bench.kopa.runner import RunConfig, run_bench, summarize
from bench.kopa.tasks import load_tasks
from perf._common import base_parser, machine, now_utc, update_section, write_results
from simulator import Store

NAME = "bench_oracle"
TARGET_S = 30.0


def _one(tasks: list[Any], seeds: int, workers: int, tmp: Path, tag: str) -> dict[str, Any]:
    store = Store(cache_dir=tmp / "cache")  # the bench's own version (bench.kopa.bench_version), as `bench run`
    world = World(store.open("kopa", bench_version(None, "kopa")))
    t0 = time.perf_counter()
    rows = run_bench(make_agent("oracle"), tasks, world, tmp / f"out-{tag}",
                     RunConfig(seeds=seeds, workers=workers))
    t1 = time.perf_counter()
    summary = summarize(rows, k=min(4, seeds))
    t2 = time.perf_counter()
    bad = [r["task"] for r in rows if not r["passed"]]
    if bad:
        raise SystemExit(f"the oracle failed {len(bad)} episodes (e.g. {bad[:3]}): fix the tasks first")
    return {"workers": workers, "episodes": len(rows), "run_s": t1 - t0, "summary_s": t2 - t1,
            "episodes_per_s": len(rows) / (t1 - t0), "calls": sum(r["calls"] for r in rows),
            "pass_at_1": summary["overall"]["pass@1"]}


def run(quick: bool) -> dict[str, Any]:
    """Both worker settings over the task set; the target check."""
    tasks = load_tasks()
    seeds = 8
    if quick:
        tasks, seeds = tasks[:20], 2
    with tempfile.TemporaryDirectory(prefix="kopa-bench-perf-") as tmp:
        runs = [_one(tasks, seeds, w, Path(tmp), f"w{w}") for w in (8, 1)]
    best = min(r["run_s"] for r in runs)
    return {
        "benchmark": NAME, "schema": 1, "mode": "quick" if quick else "full", "generated_at": now_utc(),
        "command": f"python -m perf.{NAME}" + (" --quick" if quick else ""),
        "machine": machine(), "tasks": len(tasks), "seeds": seeds, "runs": runs,
        "targets": [{"target": f"KOPA-Bench oracle {len(tasks)} × {seeds} ≤ {TARGET_S:.0f} s",
                     "measured": f"{best:.1f} s", "met": best <= TARGET_S}],
    }


def render_markdown(doc: dict[str, Any]) -> str:
    """The bench_oracle section of ``RESULTS.md``."""
    lines = [
        "## KOPA-Bench oracle run time",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run) by `{doc['command']}` on "
        f"{doc['machine']['cpu']}, {doc['machine'].get('cores', '?')} cores. The oracle runs each "
        "task's gold program through the runner, tool environment and three-axis scoring (every "
        "episode passes all three axes); each row starts from a fresh world (no memo carried over).",
        "",
        "| tasks × seeds | worker threads | episodes | tool calls | run s | episodes / s | summary s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in doc["runs"]:
        lines.append(f"| {doc['tasks']} × {doc['seeds']} | {r['workers']} | {r['episodes']} | {r['calls']:,} | "
                     f"{r['run_s']:.1f} | {r['episodes_per_s']:.1f} | {r['summary_s']:.2f} |")
    t = doc["targets"][0]
    lines += ["", f"Target: {t['target']}: measured {t['measured']} — **{'met' if t['met'] else 'missed'}**.",
              "Threads hurt a scripted agent on 2 cores: its episodes are CPU-bound Python under the GIL "
              "(`--workers 1` for the oracle and baselines); they pay off with a model server, where "
              "episodes wait on HTTP.", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m perf.bench_oracle [--quick] [--out DIR] [--markdown FILE]``."""
    args = base_parser(NAME).parse_args(list(argv) if argv is not None else None)
    doc = run(args.quick)
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}", file=sys.stderr)
    return 0


def update_results_md(path: Path, section: str) -> None:
    """Replace the bench_oracle section of ``path`` (other sections kept)."""
    update_section(path, NAME, section)


if __name__ == "__main__":
    raise SystemExit(main())
