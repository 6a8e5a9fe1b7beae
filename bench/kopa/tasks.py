"""KOPA-Bench tasks: Korean questions with gold programs, validated on load.

Tasks live in ``bench/kopa/tasks/*.yaml`` (each file a list of task mappings). The gold
answer is never stored: :func:`gold_run` computes it by running the program on the version
under test.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from simulator import Catalog, Domain, Junction, MainPlatform, load_catalog
from simulator.tools.keys import auth_param, family_of

from .env import CallRecord, ToolEnv, World
from .execute import run_program
from .program import CallStep, Program, ProgramError, format_answer, program_shape, refs_in
from .errors import BenchError

__all__ = [
    "DOMAINS",
    "JUNCTIONS",
    "MAIN_PLATFORMS",
    "Check",
    "Gold",
    "Task",
    "TaskError",
    "gold_run",
    "load_tasks",
    "parse_tasks",
    "shape_rules",
]

TASK_DIR = Path(__file__).parent / "tasks"
#: The shared vocabularies (``simulator.vocab``), as tuples of their values.
DOMAINS: tuple[str, ...] = tuple(x.value for x in Domain)
JUNCTIONS: tuple[str, ...] = tuple(x.value for x in Junction)
MAIN_PLATFORMS: tuple[str, ...] = tuple(x.value for x in MainPlatform)


class TaskError(BenchError):
    """One or more task definitions are invalid (the message lists every problem)."""


class Check(BaseModel):
    """How the final answer is checked."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["exact", "numeric", "set"] = "exact"
    rel_tol: float = 0.0
    abs_tol: float = 0.0


class Tags(BaseModel):
    """Declared tags; computed ones (length, parallel, needs_all_pages) come from the gold run."""

    model_config = ConfigDict(extra="forbid", use_enum_values=True)  # plain strings, as the files
    junctions: list[Junction] = Field(min_length=1)
    needs_all_pages: bool | None = None
    parallel: bool | None = None
    #: A single filtered call that reaches the answer without the lookup chain (``tool
    #: PARAM=name``): both routes are valid, and the chain is not counted as required.
    shortcut: str | None = None


class Task(BaseModel):
    """One benchmark task."""

    model_config = ConfigDict(extra="forbid", use_enum_values=True)  # plain strings, as the files
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    #: Question template id: no template may serve more than 4 tasks.
    template: str
    question: str = Field(min_length=8)
    platforms: list[str] = Field(min_length=1)
    domain: Domain
    tags: Tags
    program: Program
    check: Check = Field(default_factory=Check)
    #: Other programs that reach the same answer by other calls (one documented call that
    #: answers directly). Each must give the gold program's answer on the version under test
    #: (:func:`gold_run` checks it); scoring credits a trajectory that obtains what any one
    #: of them needs (docs/bench.md, "Scoring").
    routes: list[Program] = Field(default_factory=list)

    @model_validator(mode="after")
    def _korean(self) -> Task:
        if not any("\uac00" <= ch <= "\ud7a3" for ch in self.question):
            raise BenchError("the question must be written in Korean")
        return self

    @property
    def shape(self) -> str:
        """Structural signature of the gold program."""
        return program_shape(self.program)


def _key_errors(task: Task, c: CallStep, ep: Any) -> list[str]:
    """A call of a keyed family carries its key in its auth parameter, and only there."""
    prog = task.program
    fams = {k.id: k.call for k in prog.key_steps()}
    family = family_of(ep)
    carried = prog.key_args(c)
    errs = []
    for a in carried:
        kinds = {fams[r] for r in refs_in(c.args[a])}
        if a != auth_param(ep) or kinds != {family}:
            errs.append(f"{task.id}: step {c.id}: {a} carries a {', '.join(sorted(kinds))} key, but "
                        f"{c.call} takes {family or 'no issued'} key in {auth_param(ep)!r}")
    if family in fams.values() and not carried:
        errs.append(f"{task.id}: step {c.id}: {c.call} needs the key the program issues "
                    f"({family}) in its {auth_param(ep)!r} argument")
    return errs


def _validate_against_catalog(task: Task, catalog: Catalog) -> list[str]:
    errs: list[str] = []
    plats: set[str] = set()
    for r in task.routes:
        for c in r.calls():
            if c.call not in catalog.endpoints:
                errs.append(f"{task.id}: a route's step {c.id} calls unknown tool {c.call!r}")
    for c in task.program.calls():
        if c.call not in catalog.endpoints:
            errs.append(f"{task.id}: step {c.id} calls unknown tool {c.call!r}")
            continue
        ep = catalog.endpoints[c.call]
        plats.add(ep.platform)
        allowed = {p.name for p in ep.params if p.role not in ("auth", "format")}
        errs += _key_errors(task, c, ep)
        allowed |= set(task.program.key_args(c))
        for a in c.args:
            if a not in allowed:
                errs.append(f"{task.id}: step {c.id}: {c.call} has no argument {a!r} "
                            f"(takes {', '.join(sorted(allowed))})")
    if plats and set(task.platforms) != plats:
        errs.append(f"{task.id}: platforms {sorted(task.platforms)} but the program uses "
                    f"{sorted(plats)}")
    if not task.program.lookup_steps():
        errs.append(f"{task.id}: the program has no prerequisite lookup (a call feeding a "
                    "later call)")
    dependent = [c for c in task.program.calls() if task.program.call_ancestors(c)]
    if len(dependent) < 1:
        errs.append(f"{task.id}: no dependent call")
    return errs


def parse_tasks(raw: list[Any], *, source: str = "<data>", catalog: Catalog | None = None) -> list[Task]:
    """Validate raw task mappings; raises :class:`TaskError` listing every problem."""
    catalog = catalog or load_catalog()
    tasks: list[Task] = []
    errs: list[str] = []
    for i, item in enumerate(raw):
        tid = item.get("id", f"#{i}") if isinstance(item, dict) else f"#{i}"
        try:
            t = Task.model_validate(item)
        except ValidationError as exc:
            for e in exc.errors():
                loc = ".".join(str(x) for x in e["loc"])
                errs.append(f"{source}: task {tid}: {loc}: {e['msg']}")
            continue
        errs += [f"{source}: {e}" for e in _validate_against_catalog(t, catalog)]
        tasks.append(t)
    ids = Counter(t.id for t in tasks)
    errs += [f"{source}: task id {k!r} is used {n} times" for k, n in ids.items() if n > 1]
    if errs:
        raise TaskError("invalid tasks:\n  " + "\n  ".join(errs))
    return tasks


def load_tasks(directory: Path | None = None, *, catalog: Catalog | None = None) -> list[Task]:
    """Load and validate every task file in ``directory`` (default: the shipped tasks)."""
    directory = directory or TASK_DIR
    raw: list[Any] = []
    srcs: list[str] = []
    for f in sorted(directory.glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            raise TaskError(f"{f.name}: a task file holds a list of tasks")
        raw += data
        srcs.append(f.name)
    tasks = parse_tasks(raw, source=",".join(srcs) or str(directory), catalog=catalog)
    templates = Counter(t.template for t in tasks)
    over = {k: n for k, n in templates.items() if n > 4}
    if over:
        raise TaskError(f"templates used by more than 4 tasks: {over}")
    return tasks


@dataclass
class Gold:
    """The gold run of a task on one version: answer, calls and derived tags."""

    answer: str
    value: Any
    trace: list[CallRecord]
    outputs: dict[str, Any]
    #: Call-step id → indices (in ``trace``) of its calls.
    step_calls: dict[str, list[int]] = field(default_factory=dict)
    length: int = 0
    parallel: bool = False
    needs_all_pages: bool = False
    #: Multi-record junction sizes (records consumed by a dependent call).
    junction_sizes: list[int] = field(default_factory=list)
    #: The gold runs of the task's other :attr:`Task.routes` (same answer, other calls).
    routes: list[Gold] = field(default_factory=list)


def gold_run(task: Task, world: World) -> Gold:
    """Run the gold program on ``world`` (memoised in ``world.gold``); raises ``ProgramError``."""
    hit = world.gold.get(task.id)
    if isinstance(hit, Gold):
        return hit
    env = ToolEnv.for_task(world, task.program, f"{task.id}#gold", 10_000)
    step_calls: dict[str, list[int]] = {}
    prog = task.program
    current = [""]

    def on_step(sid: str) -> None:
        current[0] = sid
        step_calls.setdefault(sid, [])

    start = [0]

    def mark(sid: str) -> None:
        # Calls made since the previous step belong to the previous step.
        prev = current[0]
        if prev:
            step_calls.setdefault(prev, []).extend(range(start[0], len(env.trace)))
        start[0] = len(env.trace)
        on_step(sid)

    value, outs = run_program(prog, env, on_step=mark)
    mark("")
    step_calls.pop("", None)
    answer = format_answer(value)
    if answer.strip() == "":
        raise ProgramError(f"{task.id}: the gold answer is empty")
    needs_all = False
    parallel = False
    for c in prog.calls():
        idxs = step_calls.get(c.id, [])
        if c.pages == "all" and c.foreach is None and len(idxs) > 1:
            needs_all = True
        if c.pages == "all" and c.foreach is not None:
            groups = Counter(tuple(sorted(env.trace[i].filters.items())) for i in idxs)
            if any(n > 1 for n in groups.values()):
                needs_all = True
        if c.foreach is not None and len({tuple(sorted(env.trace[i].filters.items())) for i in idxs}) > 1:
            parallel = True
    calls = prog.calls()
    for i, a in enumerate(calls):
        for b in calls[i + 1:]:
            if a.id not in prog.call_ancestors(b) and step_calls.get(a.id) and step_calls.get(b.id):
                parallel = True
    sizes: list[int] = []
    for c in calls:
        for anc in prog.call_ancestors(c):
            n = sum(len(env.trace[i].records) for i in step_calls.get(anc, []))
            sizes.append(n)
    g = Gold(answer, value, env.trace, outs, step_calls, len(env.trace), parallel, needs_all, sizes)
    for i, route in enumerate(task.routes):
        alt = gold_run(task.model_copy(update={"id": f"{task.id}~route{i + 1}", "program": route,
                                               "routes": []}), world)
        if alt.answer != answer:
            raise ProgramError(f"{task.id}: route {i + 1} answers {alt.answer!r}, the gold program "
                               f"{answer!r}: a route must reach the same answer (fix or drop it)")
        g.routes.append(alt)
    world.gold.put(task.id, g)
    return g


def distribution(tasks: list[Task], golds: dict[str, Gold]) -> dict[str, Any]:
    """The task distribution (platforms, domains, lengths, parallel, all-pages, shapes)."""
    plat = Counter(p for t in tasks for p in t.platforms)
    dom = Counter(t.domain for t in tasks)
    junc = Counter(j for t in tasks for j in t.tags.junctions)
    lengths = [golds[t.id].length for t in tasks if t.id in golds]
    sizes = [s for t in tasks if t.id in golds for s in golds[t.id].junction_sizes]
    multi = sum(1 for s in sizes if s > 1)
    srt = sorted(sizes)
    return {
        "tasks": len(tasks),
        "platforms": dict(sorted(plat.items())),
        "domains": dict(sorted(dom.items())),
        "junctions": dict(sorted(junc.items())),
        "cross_platform": sum(1 for t in tasks if len(t.platforms) > 1),
        "shapes": len({t.shape for t in tasks}),
        "templates": len({t.template for t in tasks}),
        "max_per_template": max(Counter(t.template for t in tasks).values(), default=0),
        "calls_mean": round(sum(lengths) / len(lengths), 2) if lengths else 0,
        "calls_max": max(lengths, default=0),
        "length_hist": dict(sorted(Counter(lengths).items())),
        "parallel": sum(1 for t in tasks if t.id in golds and golds[t.id].parallel),
        "needs_all_pages": sum(1 for t in tasks if t.id in golds and golds[t.id].needs_all_pages),
        "multi_record_junction_share": round(multi / len(sizes), 3) if sizes else 0,
        "junction_records_median": srt[len(srt) // 2] if srt else 0,
    }


def shape_rules(dist: dict[str, Any]) -> list[tuple[str, bool]]:
    """The suite's shape rules (issue 7) checked on a :func:`distribution`: (rule, holds)."""
    plats = dist["platforms"]
    thin = [p for p in MAIN_PLATFORMS if plats.get(p, 0) < 10]
    absent = [j for j in JUNCTIONS if not dist["junctions"].get(j)]
    return [
        (f"at least 60 distinct gold-program shapes ({dist['shapes']})", dist["shapes"] >= 60),
        (f"no question template used by more than 4 tasks (max {dist['max_per_template']})",
         dist["max_per_template"] <= 4),
        ("every platform in at least 10 tasks" + (f" (short: {', '.join(thin)})" if thin else ""), not thin),
        (f"at least 30 tasks crossing platforms ({dist['cross_platform']})", dist["cross_platform"] >= 30),
        ("every junction type present" + (f" (missing: {', '.join(absent)})" if absent else ""), not absent),
    ]
