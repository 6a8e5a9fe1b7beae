"""EDGE synthesis on Ray with 1, 2 and 4 workers against one process (issue #28's curve).

Every run is the documented CLI on the same graph and seed, timed from outside
(``simulator edge synthesize``: process start to exit, fixed costs included). One process runs
the work as one shard (the default); a Ray run starts a local instance of K CPUs
(``--ray local --ray-cpus K``), whose shard count comes from the cluster (K). Each Ray run's
five output files are compared with a one-process run of the same shard count
(``--shards K``): they must be byte-identical (a difference stops the harness).

Run it (writes ``results/ray_scaling.json`` and the ray_scaling section of ``RESULTS.md``)::

    python -m perf.ray_scaling            # --n 1000, workers 1, 2, 4
    python -m perf.ray_scaling --quick    # --n 40, workers 1, 2 (a smoke run)

More workers than cores only shares the cores: on a 2-core machine the 4-worker row shows the
cost of oversubscribing, not a cluster's speed-up (run it where there are free cores).
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf._common import base_parser, machine, now_utc, section_markers, write_results

SECTION_BEGIN, SECTION_END = section_markers("ray_scaling")
#: What a run writes; a Ray run's must equal a one-process run's of the same shards.
OUTPUTS = ("examples.jsonl", "conversations.jsonl", "trl.jsonl", "verl.parquet", "report.json")


class ScalingError(RuntimeError):
    """A run failed, or a Ray run's output differs from one process's."""


def _simulator() -> list[str]:
    exe = shutil.which("simulator", path=str(Path(sys.executable).parent)) or shutil.which("simulator")
    if exe is None:
        raise ScalingError("the `simulator` command is not installed beside this Python (pip install -e .)")
    return [exe]


def _timed(args: list[str], env: dict[str, str]) -> float:
    """Run ``simulator ARGS``; its wall seconds (a failure raises with its output's tail)."""
    t0 = time.perf_counter()
    done = subprocess.run(_simulator() + args, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise ScalingError(f"simulator {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return wall


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []


def run(n: int, workers: Sequence[int], work: Path) -> dict[str, Any]:
    """The graph once, then one process (1 shard), then per K: one process with K shards and
    Ray with K CPUs; every wall time, load average and output comparison."""
    env = {**os.environ, "KOPA_CACHE": str(work / "cache"), "OMP_NUM_THREADS": "1"}
    graph = work / "graph"
    graph_s = _timed(["edge", "graph", "--seed", "0", "--out", str(graph)], env)
    common = ["edge", "synthesize", "--n", str(n), "--seed", "0", "--graph", str(graph)]
    rows: list[dict[str, Any]] = []

    def one(shards: int) -> tuple[Path, dict[str, Any]]:
        out = work / f"one-{shards}"
        before = _load()
        wall = _timed([*common, "--out", str(out), "--shards", str(shards)], env)
        return out, {"system": "one process", "shards": shards, "wall_s": wall, "load_before": before, "load_after": _load()}

    base_out, base = one(1)
    rows.append(base)
    for k in workers:
        ref = base_out
        if k != 1:
            ref, row = one(k)
            rows.append(row)
        out = work / f"ray-{k}"
        before = _load()
        wall = _timed([*common, "--out", str(out), "--ray", "local", "--ray-cpus", str(k)], env)
        same = all(filecmp.cmp(ref / f, out / f, shallow=False) for f in OUTPUTS)
        if not same:
            raise ScalingError(f"Ray with {k} CPUs wrote other bytes than one process with --shards {k}")
        rows.append({"system": "Ray (local)", "shards": k, "wall_s": wall, "load_before": before,
                     "load_after": _load(), "identical_to_one_process": same})
    for r in rows:
        r["speedup_vs_one_process"] = base["wall_s"] / r["wall_s"]
    return {"n": n, "workers": list(workers), "graph_s": graph_s, "rows": rows}


def render_markdown(doc: dict[str, Any]) -> str:
    """The ray_scaling section of ``RESULTS.md``."""
    m = doc["machine"]
    lines = [
        "## EDGE synthesis on Ray: 1, 2 and 4 workers vs one process (issue #28)",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run) by `{doc['command']}` on {m['cpu']}, "
        f"{m['usable_cores']} usable cores, Python {m['python']}; `--n {doc['n']} --seed 0` on one graph "
        f"(`simulator edge graph --seed 0`, {doc['graph_s']:.0f} s, not counted). **Wall time of the "
        "whole command** (start-up, loading the graph and the version, the bench content hold-out, "
        "the shards, writing): what a user waits. The machine may be shared: the load average "
        "before and after each run is shown; rows taken at different loads are not comparable.",
        "",
        "| system | workers (shards) | wall s | speed-up vs one process | output | load before → after |",
        "|---|---:|---:|---:|---|---|",
    ]
    for r in doc["rows"]:
        out = "—" if r["system"] == "one process" else ("byte-identical to one process, same shards" if r.get("identical_to_one_process") else "DIFFERS")
        lines.append(
            f"| {r['system']} | {r['shards']} | {r['wall_s']:.1f} | {r['speedup_vs_one_process']:.2f}× | {out} | "
            f"{' '.join(map(str, r['load_before']))} → {' '.join(map(str, r['load_after']))} |"
        )
    lines += [
        "",
        f"This machine has {m['usable_cores']} cores: Ray with more CPUs than cores shares them "
        "(the 4-worker row prices oversubscription, not a speed-up). On a larger machine or a "
        "cluster, `--ray local --ray-cpus K` (or `--ray ADDRESS` of a running cluster, shards from "
        "`ray.cluster_resources()`) against `--shards K` gives the curve there. Full results: "
        "`perf/results/ray_scaling.json`.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = base_parser("ray_scaling", __doc__.splitlines()[0], quick_help="--n 40, workers 1 and 2 (a smoke run)")
    p.add_argument("--n", type=int, default=None, help="examples per run (default 1000; --quick 40)")
    p.add_argument("--workers", default=None, help="comma-separated worker counts (default 1,2,4; --quick 1,2)")
    a = p.parse_args(argv)
    n = a.n or (40 if a.quick else 1000)
    workers = [int(x) for x in (a.workers or ("1,2" if a.quick else "1,2,4")).split(",")]
    with tempfile.TemporaryDirectory(prefix="kopa-ray-scaling-") as tmp:
        res = run(n, workers, Path(tmp))
    cmd = "python -m perf.ray_scaling" + (" --quick" if a.quick else "") + (f" --n {a.n}" if a.n else "") + (
        f" --workers {a.workers}" if a.workers else "")
    doc = {"benchmark": "ray_scaling", "schema": 1, "mode": "quick" if a.quick else "full",
           "generated_at": now_utc(), "command": cmd, "machine": machine(), **res}
    out_json, md = write_results(doc, "ray_scaling", a.out, a.markdown, render_markdown)
    print(render_markdown(doc))
    print(f"wrote {out_json} and {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
