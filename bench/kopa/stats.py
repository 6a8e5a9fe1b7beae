"""``simulator bench stats``: how hard the task set is, measured on its gold runs.

Every number comes from running the gold programs on the version under test, with every
``pages: all`` step at the endpoint's maximum page size (the task author sets it), so "calls
per task" is not inflated by small pages. Per platform and per domain, and set against the
paper's figures (:data:`PAPER`).

- ``calls_mean`` / ``calls_max``: tool calls of the gold run.
- ``parallel``: share of tasks with calls that do not depend on each other (a fan-out, or two
  independent call steps).
- ``chained_multi``: share of chained calls (a call fed by an earlier call) whose input
  collection holds more than one record; ``junction_median`` / ``junction_max``: records at
  those junctions. Tasks whose chain a single filtered call bypasses (``tags.shortcut``) are
  left out of both: their chain is not required.
- ``needs_all_pages``: tasks whose gold pages through a collection larger than the maximum
  page size; ``genuine_all_pages``: of those, tasks where a trajectory that reads only the
  first page fails ENVIRONMENT (the records the answer needs are not all on page 1).
- ``cross_platform``: share of tasks that use more than one platform; ``heldout``: tasks on
  a held-out platform (the split of ``simulator bench run --heldout``).
"""

from __future__ import annotations

import statistics
from typing import Any

from .agents import FirstPageAgent
from .env import ToolEnv, World
from .runner import DEFAULT_HELDOUT, world_of
from .scoring import score_episode
from .tasks import Gold, Task, gold_run

__all__ = ["PAPER", "bench_stats", "paper_rows"]

#: The paper's figures (arXiv:2609.05395 as its write-ups quote it) and the issue's targets:
#: (measure, the paper's figure, the target ours must reach).
PAPER: list[tuple[str, str, float]] = [
    ("tasks", "145", 145),
    ("platforms", "10", 10),
    ("calls_mean", "4.92", 4.9),
    ("calls_max", "14", 14),
    ("parallel_pct", "59 %", 55.0),
    ("chained_multi_pct", "81.2 %", 80.0),
    ("junction_median", "27", 27),
    ("junction_max", "224,958", 224_958),
    ("genuine_all_pages", "≥ 50 (issue's target)", 50),
    ("cross_platform_pct", "≥ 30 % (issue's target)", 30.0),
    ("heldout_tasks", "31", 31),
]


def _first_page_fails(task: Task, gold: Gold, world: World) -> bool:
    env = ToolEnv.for_task(world, task.program, f"{task.id}#first-page", 10_000)
    ep = FirstPageAgent().run(task, env, seed=0, max_turns=1)
    return not score_episode(task, gold, env.trace, ep.answer, catalog=world.catalog).environment


def _measure(tasks: list[Task], golds: dict[str, Gold], genuine: set[str],
             heldout: tuple[str, ...]) -> dict[str, Any]:
    n = len(tasks)
    if not n:
        return {"tasks": 0}
    lengths = [golds[t.id].length for t in tasks]
    sizes = [s for t in tasks if not t.tags.shortcut for s in golds[t.id].junction_sizes]
    pct = lambda k: round(100.0 * k / n, 1)  # noqa: E731
    return {
        "tasks": n,
        "platforms": len({p for t in tasks for p in t.platforms}),
        "calls_mean": round(sum(lengths) / n, 2),
        "calls_max": max(lengths),
        "parallel_pct": pct(sum(golds[t.id].parallel for t in tasks)),
        "chained_calls": len(sizes),
        "chained_multi_pct": round(100.0 * sum(s > 1 for s in sizes) / len(sizes), 1) if sizes else 0.0,
        "junction_median": statistics.median(sizes) if sizes else 0,
        "junction_max": max(sizes, default=0),
        "needs_all_pages": sum(golds[t.id].needs_all_pages for t in tasks),
        "genuine_all_pages": sum(t.id in genuine for t in tasks),
        "cross_platform_pct": pct(sum(len(t.platforms) > 1 for t in tasks)),
        "heldout_tasks": sum(bool(set(t.platforms) & set(heldout)) for t in tasks),
    }


def bench_stats(tasks: list[Task], world: World, heldout: tuple[str, ...] = DEFAULT_HELDOUT) -> dict[str, Any]:
    """The difficulty measures overall, per platform and per domain (see the module doc).

    >>> bench_stats(load_tasks(), world)["overall"]["calls_mean"]   # doctest: +SKIP
    2.7
    """
    golds = {t.id: gold_run(t, world) for t in tasks}
    genuine = {t.id for t in tasks if golds[t.id].needs_all_pages and _first_page_fails(t, golds[t.id], world)}
    plats = sorted({p for t in tasks for p in t.platforms})
    doms = sorted({t.domain for t in tasks})
    return {
        "version": world.version.id,
        "content_hash": world.content_hash,
        "world": world_of(world.version),
        "heldout_platforms": list(heldout),
        "overall": _measure(tasks, golds, genuine, heldout),
        "by_platform": {p: _measure([t for t in tasks if p in t.platforms], golds, genuine, heldout) for p in plats},
        "by_domain": {d: _measure([t for t in tasks if t.domain == d], golds, genuine, heldout) for d in doms},
    }


def paper_rows(overall: dict[str, Any]) -> list[dict[str, Any]]:
    """Row-by-row comparison with the paper: measure, paper's figure, ours, target met."""
    return [{"measure": m, "paper": fig, "ours": overall.get(m), "target": target,
             "meets": overall.get(m, 0) >= target}
            for m, fig, target in PAPER]
