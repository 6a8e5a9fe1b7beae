"""Scoring on three axes (RESPONSE, ACTION, ENVIRONMENT) and the failure taxonomy.

Everything here reads the task, its gold run and the episode's trace; nothing asks a model.
ACTION and ENVIRONMENT are defined by the information the trajectory obtained, not by one
call sequence (:func:`score_episode`; docs/bench.md, "Scoring").
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from simulator.tools.keys import family_of

from .checkers import check_answer
from .env import CallRecord, scalar_strings
from .program import CallStep, OpStep, Program, refs_in
from .tasks import Gold, Task

__all__ = ["FAILURE_CLASSES", "Score", "consumers", "score_episode"]

#: Failure classes in precedence order (the first that applies is the primary class).
FAILURE_CLASSES = (
    "budget_exhausted",
    "skipped_lookup",
    "first_page",
    "one_to_many",
    "invented_args",
    "wrong_args",
    "tool_error",
    "wrong_answer",
)


@dataclass
class Score:
    """Axis verdicts, failure labels and the evidence behind them."""

    response: bool
    action: bool
    environment: bool
    failures: list[str] = field(default_factory=list)
    primary: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """All three axes pass."""
        return self.response and self.action and self.environment

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        d = asdict(self)
        d["passed"] = self.passed
        return d


def _norm(v: Any) -> str:
    return str(v).strip()


def _code_params(p: Program) -> set[tuple[str, str]]:
    return {(c.call, k) for c in p.calls() for k in p.ref_args(c)}


def consumers(p: Program, sid: str) -> list[Any]:
    """Every op step or ``$ref`` expression that reads step ``sid`` (in program order)."""
    out: list[Any] = []

    def walk(e: Any) -> None:
        if isinstance(e, dict):
            if e.get("$ref") == sid:
                out.append(e)
            for v in e.values():
                walk(v)
        elif isinstance(e, list):
            for v in e:
                walk(v)

    for s in p.steps:
        if isinstance(s, OpStep) and sid in (s.from_, s.with_, *(s.steps or [])):
            out.append(s)
        walk(s.model_dump(by_alias=True, exclude={"id", "from_", "with_", "steps"}))
    walk(p.answer)
    return out


def _rkey(rec: Any) -> str:
    """A record's identity across calls (the fan-out item the runner adds left out)."""
    if isinstance(rec, dict):
        rec = {k: v for k, v in rec.items() if k != "_item"}
    return json.dumps(rec, ensure_ascii=False, sort_keys=True, default=str)


@dataclass
class _Need:
    """What one call step of the gold contributes: records (per collection) the answer needs."""

    step: str
    tool: str
    #: collection filters → keys of the records the answer needs from it
    groups: dict[tuple[tuple[str, str], ...], set[str]]
    #: the records only get counted: a ``totalCount`` of the right collection is as good
    counted: bool
    whole: bool


def _needs(task: Task, gold: Gold) -> list[_Need]:
    """Per call step: the records the gold answer depends on (filtered ones, or all)."""
    p = task.program
    out = []
    for c in p.calls():
        idxs = gold.step_calls.get(c.id, [])
        if not idxs:
            continue  # a branch the gold did not take
        cons = consumers(p, c.id)
        filters = [x for x in cons if isinstance(x, OpStep) and x.op == "filter"]
        if cons and len(filters) == len(cons):
            keep = {_rkey(r) for f in filters for r in (gold.outputs.get(f.id) or [])}
            whole = False
            counted = all(all(isinstance(y, OpStep) and y.op == "count" for y in consumers(p, f.id))
                          for f in filters)
        else:
            keep = None
            whole = True
            counted = bool(cons) and all(isinstance(x, OpStep) and x.op == "count" for x in cons)
        groups: dict[tuple[tuple[str, str], ...], set[str]] = {}
        for i in idxs:
            rec = gold.trace[i]
            g = groups.setdefault(tuple(sorted(rec.filters.items())), set())
            g |= {k for k in map(_rkey, rec.records) if keep is None or k in keep}
        out.append(_Need(c.id, c.call, groups, counted, whole))
    return out


def _observed(trace: list[CallRecord]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for r in trace:
        if r.ok:
            seen.setdefault(r.tool, set()).update(map(_rkey, r.records))
    return seen


def _satisfied(need: _Need, trace: list[CallRecord], seen: dict[str, set[str]]) -> list[dict[str, Any]]:
    """The collections of ``need`` whose needed records the trajectory did not obtain."""
    gaps = []
    got = seen.get(need.tool, set())
    for filt, keys in need.groups.items():
        if keys <= got:
            continue
        if need.counted and any(
                r.ok and r.tool == need.tool and set(filt) <= set(r.filters.items()) and r.total == len(keys)
                for r in trace):
            continue  # the count read from totalCount of the same (or a narrower) collection
        same = [r for r in trace if r.ok and r.tool == need.tool and set(filt) <= set(r.filters.items())]
        # a page of a collection with more records than it returned: the rest were not fetched
        paged = any(r.total is not None and r.total > len(r.records) for r in same)
        gaps.append({"step": need.step, "tool": need.tool, "filters": dict(filt), "needed": len(keys),
                     "obtained": len(keys & got), "whole": need.whole, "touched": bool(same), "paged": paged})
    return gaps


_DATE = re.compile(r"(\d{4})\s*(?:년|[-./])\s*(\d{1,2})\s*(?:월|[-./])(?:\s*(\d{1,2})\s*일?)?")


def _question_dates(question: str) -> set[str]:
    """Dates the question states, as APIs write them (``2025년 3월 14일`` → 20250314, 202503)."""
    out: set[str] = set()
    for y, m, d in _DATE.findall(question):
        out.add(f"{y}{int(m):02d}")
        if d:
            out.add(f"{y}{int(m):02d}{int(d):02d}")
    return out


def _invented(task: Task, trace: list[CallRecord]) -> list[dict[str, Any]]:
    """Calls whose code arguments were never seen in earlier outputs or the question.

    A value counts as seen when it equals, or is a prefix (2+ characters) of, a value in an
    earlier successful call's records (codes are often cut: a 10-digit region code → LAWD_CD).
    """
    codes = _code_params(task.program)
    said = _question_dates(task.question)
    out = []
    for i, rec in enumerate(trace):
        for k, v in rec.args.items():
            if (rec.tool, k) not in codes:
                continue
            v = _norm(v)
            if not v or v in task.question or v in said:
                continue
            earlier = [r.scalar_values() for r in trace[:i] if r.ok]
            if any(v in vals for vals in earlier):
                continue
            if len(v) >= 2 and any(x.startswith(v) for vals in earlier for x in vals):
                continue
            out.append({"call": rec.index, "tool": rec.tool, "arg": k, "value": v})
    return out


def _answer_calls(p: Program) -> set[str]:
    """Call steps the answer reads through op steps only (no later call in between)."""
    out: set[str] = set()
    todo, seen = list(refs_in(p.answer)), set()
    while todo:
        sid = todo.pop()
        if sid in seen:
            continue
        seen.add(sid)
        st = p.step(sid)
        if isinstance(st, CallStep):
            out.add(sid)
        else:
            todo.extend(p.deps(st))
    return out


def _answered_by_lookup(task: Task, gold: Gold, sid: str, trace: list[CallRecord]) -> bool:
    """Whether the answer a final call step ``sid`` gives was already in an observed record.

    The gold calls ``sid`` with codes looked up earlier (a law's MST) and reads the answer
    from its result (the law's 소관부처). When one successful result of the trajectory holds
    a record carrying those same codes *and* every value of the gold answer (the search
    result's row for that law names its 소관부처명), the call adds nothing the answer needs:
    the shorter route obtained it.
    """
    p = task.program
    step = p.step(sid)
    idxs = gold.step_calls.get(sid, [])
    if not isinstance(step, CallStep) or len(idxs) != 1 or not p.ref_args(step):
        return False
    args = gold.trace[idxs[0]].args
    codes: set[str] = set()
    scalar_strings([args[k] for k in p.ref_args(step) if k in args], codes)
    answer: set[str] = set()
    scalar_strings(gold.value, answer)
    if not codes or not answer or len(answer) > 16:
        return False
    want = codes | answer
    for r in trace:
        if not r.ok:
            continue
        for rec in r.records:
            vals: set[str] = set()
            scalar_strings(rec, vals)
            if want <= vals:
                return True
    return False


def _key_use(task: Task, trace: list[CallRecord], catalog: Any) -> dict[str, dict[str, Any]]:
    """Per key tool the gold issues: whether the trajectory had it issued, how many calls of
    its family carried the issued key and succeeded, and how many carried another key."""
    out: dict[str, dict[str, Any]] = {}
    for step in task.program.key_steps():
        fam = [r for r in trace if r.tool in catalog.endpoints
               and family_of(catalog.endpoints[r.tool]) == step.call]
        out[step.call] = {
            "issued": any(r.ok and r.tool == step.call and r.source == "key" for r in trace),
            "used": sum(1 for r in fam if r.ok and r.key == "issued"),
            "other": sum(1 for r in fam if r.key == "other"),
        }
    return out


def score_episode(
    task: Task,
    gold: Gold,
    trace: list[CallRecord],
    answer: str,
    *,
    catalog: Any,
    budget_exhausted: bool = False,
) -> Score:
    """Score one episode on the three axes and label its failures.

    The axes ask what the trajectory *obtained*, not which calls it made, so any valid
    strategy passes (a name filter instead of a code lookup, one call of the maximum page
    size, ``totalCount`` instead of counting records):

    - RESPONSE: the final answer passes the task's checker.
    - ACTION: every collection the gold answer draws on (each lookup, each fan-out item, each
      dependent call) was queried by some successful call of the same tool with the same or
      narrower filters, and no code argument was invented (one never seen in the question or
      an earlier result).
    - ENVIRONMENT: every record the gold answer depends on was observed in a tool result of
      the same tool (for a step whose records are only counted, a ``totalCount`` of the same
      or a narrower collection will do).

    On both, a lookup whose dependants were all obtained another way (a name filter) is not
    needed. A task whose gold issues a key (:mod:`simulator.tools.keys`) also needs, on
    ACTION, the key obtained from its key tool in this trajectory and no call carrying any
    other key; on ENVIRONMENT, the issued-key state: the key was issued and a successful call
    carried it.
    """
    response = check_answer(answer, gold.answer, task.check, task.question)
    main = _score_route(task, gold, trace, response, catalog, budget_exhausted)
    if main.passed or not gold.routes:
        return main
    # another documented route to the same answer (Task.routes): credit it when it is the one
    # the trajectory took; otherwise the gold program's verdict and labels stand
    for i, (route, alt) in enumerate(zip(task.routes, gold.routes)):
        sc = _score_route(task.model_copy(update={"program": route, "routes": []}), alt, trace, response,
                          catalog, budget_exhausted)
        if sc.action and sc.environment:
            sc.details["route"] = i + 1
            return sc
    return main


def _score_route(task: Task, gold: Gold, trace: list[CallRecord], response: bool, catalog: Any,
                 budget_exhausted: bool) -> Score:
    """:func:`score_episode` against one program (the gold's or one of its routes)."""
    prog = task.program
    seen = _observed(trace)
    needs = _needs(task, gold)
    gaps_of = {n.step: _satisfied(n, trace, seen) for n in needs}
    # a final call whose answer an earlier result already held (a search row names the law's
    # ministry): not needed, the shorter route obtained what the answer needs
    from_lookup = sorted(sid for sid in _answer_calls(prog) & set(gaps_of)
                         if gaps_of[sid] and _answered_by_lookup(task, gold, sid, trace))
    for sid in from_lookup:
        gaps_of[sid] = []
    invented = _invented(task, trace)
    lookups = {c.id for c in prog.lookup_steps()}
    dependants = {c.id: [d.id for d in prog.calls() if c.id in prog.call_ancestors(d)] for c in prog.calls()}

    def ok(sid: str, depth: int = 0) -> bool:
        if not gaps_of.get(sid):
            return True
        # a lookup made unnecessary: everything it feeds was obtained another way (an invented
        # code still fails ACTION on its own)
        deps = [d for d in dependants.get(sid, []) if d in gaps_of]
        return sid in lookups and bool(deps) and depth < 16 and all(ok(d, depth + 1) for d in deps)

    unmet = [g for sid, gs in gaps_of.items() if not ok(sid) for g in gs]
    untouched = [g for g in unmet if not g["touched"]]
    lookup_gaps = [g for g in untouched if g["step"] in lookups]
    keys = _key_use(task, trace, catalog)
    action = not untouched and not invented and all(k["issued"] and not k["other"] for k in keys.values())
    environment = not unmet and all(k["issued"] and k["used"] for k in keys.values())

    labels: list[str] = []
    if budget_exhausted:
        labels.append("budget_exhausted")
    called = {r.tool for r in trace}
    invented_tools = {i["tool"] for i in invented}
    if any(not k["issued"] for k in keys.values()):
        labels.append("skipped_lookup")  # the key step is a prerequisite like a code lookup
    for lk in prog.lookup_steps():
        fed = {d.call for d in prog.calls() if lk.id in prog.call_ancestors(d)}
        if lk.call not in called and (any(g["step"] == lk.id for g in lookup_gaps) or fed & invented_tools):
            labels.append("skipped_lookup")
            break
    for c in prog.calls():
        groups = next((n.groups for n in needs if n.step == c.id), {})
        if c.foreach is not None and len(groups) > 1:
            missed = sum(1 for g in unmet if g["step"] == c.id)
            if 0 < missed < len(groups):
                labels.append("one_to_many")
                break
    # first_page: a collection read in part (some needed records seen, or a page of a larger
    # collection read with the right, not invented, arguments)
    if any(g["touched"] and ((g["paged"] and not invented) or (g["whole"] and g["obtained"] > 0)) for g in unmet):
        labels.append("first_page")
    if any(k["other"] for k in keys.values()) and "skipped_lookup" not in labels:
        labels.append("invented_args")  # a key never issued in this trajectory
    if invented and not {"skipped_lookup", "invented_args"} & set(labels):
        labels.append("invented_args")
    if unmet and not invented and not labels:
        labels.append("wrong_args")
    if any(not r.ok and r.source != "budget" for r in trace):
        labels.append("tool_error")
    if not response and not labels:
        labels.append("wrong_answer")
    passed = response and action and environment
    failures = [] if passed else [c for c in FAILURE_CLASSES if c in labels]
    return Score(
        response=response,
        action=action,
        environment=environment,
        failures=failures,
        primary=failures[0] if failures else None,
        details={"missing_calls": unmet[:10], "invented": invented[:10],
                 "page_gaps": [g for g in unmet if g["whole"]][:10], "gold_answer": gold.answer,
                 **({"keys": keys} if keys else {}),
                 **({"answered_by_lookup": from_lookup} if from_lookup else {})},
    )
