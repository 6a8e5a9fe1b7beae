"""Scoring on three axes (RESPONSE, ACTION, ENVIRONMENT) and the failure taxonomy.

Everything here reads the task, its gold run and the episode's trace; nothing asks a model.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, field
from typing import Any

from .checkers import check_answer
from .env import CallRecord
from .program import CallStep, Program
from .tasks import Gold, Task

__all__ = ["FAILURE_CLASSES", "Score", "score_episode"]

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
PAGING_ROLES = ("page", "page_size", "range_start", "range_end", "auth", "format")


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


def _match_args(task: Task, step: CallStep, catalog: Any) -> list[str]:
    ep = catalog.endpoint(step.call)
    roles = {p.name: p for p in ep.params}
    names = set(task.program.ref_args(step))
    for k in step.args:
        p = roles.get(k)
        if p is not None and p.required and p.role not in PAGING_ROLES:
            names.add(k)
    return sorted(names)


def _required(task: Task, gold: Gold, catalog: Any) -> dict[str, list[tuple[str, tuple[tuple[str, str], ...]]]]:
    """Call step id → distinct required call keys (tool, matching args) of the gold run."""
    out: dict[str, list[tuple[str, tuple[tuple[str, str], ...]]]] = {}
    for c in task.program.calls():
        names = _match_args(task, c, catalog)
        keys: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        for i in gold.step_calls.get(c.id, []):
            rec = gold.trace[i]
            key = (rec.tool, tuple((n, _norm(rec.args.get(n, ""))) for n in names))
            if key not in keys:
                keys.append(key)
        out[c.id] = keys
    return out


def _matches(rec: CallRecord, key: tuple[str, tuple[tuple[str, str], ...]]) -> bool:
    tool, args = key
    return rec.tool == tool and all(_norm(rec.args.get(k, "")) == v for k, v in args)


def _scalars(v: Any, out: set[str]) -> None:
    if isinstance(v, dict):
        for x in v.values():
            _scalars(x, out)
    elif isinstance(v, list):
        for x in v:
            _scalars(x, out)
    elif v is not None:
        s = str(v).strip()
        if isinstance(v, float) and v.is_integer():
            s = str(int(v))
        if s and len(s) <= 64:
            out.add(s)


def _code_params(p: Program) -> set[tuple[str, str]]:
    return {(c.call, k) for c in p.calls() for k in p.ref_args(c)}


_VALUES: dict[int, tuple[list[dict[str, Any]], frozenset[str]]] = {}
_VALUES_LOCK = threading.Lock()


def _values_of(records: list[dict[str, Any]]) -> frozenset[str]:
    """Scalar values (as text) of a call's records; memoised per records list."""
    key = id(records)
    with _VALUES_LOCK:
        hit = _VALUES.get(key)
    if hit is not None and hit[0] is records:
        return hit[1]
    out: set[str] = set()
    for r in records:
        _scalars(r, out)
    vals = frozenset(out)
    with _VALUES_LOCK:
        if len(_VALUES) > 4096:
            _VALUES.clear()
        _VALUES[key] = (records, vals)
    return vals


def _invented(task: Task, trace: list[CallRecord]) -> list[dict[str, Any]]:
    """Calls whose code arguments were never seen in earlier outputs or the question.

    A value counts as seen when it equals, or is a prefix (2+ characters) of, a value in an
    earlier successful call's records (codes are often cut: a 10-digit region code → LAWD_CD).
    """
    codes = _code_params(task.program)
    out = []
    for i, rec in enumerate(trace):
        for k, v in rec.args.items():
            if (rec.tool, k) not in codes:
                continue
            v = _norm(v)
            if not v or v in task.question:
                continue
            earlier = [_values_of(r.records) for r in trace[:i] if r.ok]
            if any(v in vals for vals in earlier):
                continue
            if len(v) >= 2 and any(x.startswith(v) for vals in earlier for x in vals):
                continue
            out.append({"call": rec.index, "tool": rec.tool, "arg": k, "value": v})
    return out


def _coverage(gold: Gold, task: Task, trace: list[CallRecord]) -> list[dict[str, Any]]:
    """Collections a ``pages: all`` step needs whose every record the agent did not fetch."""
    gaps = []
    for c in task.program.calls():
        if c.pages != "all":
            continue
        groups: dict[tuple[tuple[str, str], ...], int] = {}
        for i in gold.step_calls.get(c.id, []):
            rec = gold.trace[i]
            groups[tuple(sorted(rec.filters.items()))] = rec.total or 0
        for filt, total in groups.items():
            want = dict(filt)
            best = 0
            touched = False
            by_coll: dict[tuple[tuple[str, str], ...], list[tuple[int, int]]] = {}
            for rec in trace:
                if rec.tool != c.call or not rec.ok:
                    continue
                if not set(rec.filters.items()) <= set(want.items()):
                    continue
                touched = True
                by_coll.setdefault(tuple(sorted(rec.filters.items())), []).append(
                    (rec.offset, rec.offset + len(rec.records)))
            covered_all = False
            for coll, spans in by_coll.items():
                coll_total = next((r.total or 0 for r in trace if r.tool == c.call and r.ok
                                   and tuple(sorted(r.filters.items())) == coll), 0)
                pos = 0
                for a, b in sorted(spans):
                    if a > pos:
                        break
                    pos = max(pos, b)
                best = max(best, pos)
                if pos >= coll_total:
                    covered_all = True
            if not covered_all:
                gaps.append({"step": c.id, "tool": c.call, "filters": want, "total": total,
                             "fetched": best, "touched": touched})
    return gaps


def score_episode(
    task: Task,
    gold: Gold,
    trace: list[CallRecord],
    answer: str,
    *,
    catalog: Any,
    budget_exhausted: bool = False,
) -> Score:
    """Score one episode on the three axes and label its failures."""
    prog = task.program
    response = check_answer(answer, gold.answer, task.check, task.question)
    required = _required(task, gold, catalog)
    missing: list[dict[str, Any]] = []
    first_at: dict[str, int] = {}
    for sid, keys in required.items():
        for key in keys:
            idx = next((r.index for r in trace if r.ok and _matches(r, key)), None)
            if idx is None:
                missing.append({"step": sid, "tool": key[0], "args": dict(key[1])})
            else:
                first_at.setdefault(sid, idx)
                first_at[sid] = min(first_at[sid], idx)
    order_errors = []
    for c in prog.calls():
        for a in prog.call_ancestors(c):
            if c.id in first_at and a in first_at and first_at[a] > first_at[c.id]:
                order_errors.append({"step": c.id, "before": a})
    action = not missing and not order_errors
    invented = _invented(task, trace)
    gaps = _coverage(gold, task, trace)
    environment = not invented and not gaps

    labels: list[str] = []
    if budget_exhausted:
        labels.append("budget_exhausted")
    called = {r.tool for r in trace}
    for lk in prog.lookup_steps():
        dependents = [c for c in prog.calls() if lk.id in prog.call_ancestors(c)]
        if lk.call not in called and any(d.call in called for d in dependents):
            labels.append("skipped_lookup")
            break
    for c in prog.calls():
        keys = required.get(c.id, [])
        if c.foreach is not None and len(keys) > 1:
            hit = sum(1 for k in keys if any(r.ok and _matches(r, k) for r in trace))
            if 0 < hit < len(keys):
                labels.append("one_to_many")
                break
    if any(g["touched"] for g in gaps):
        labels.append("first_page")
    if invented and "skipped_lookup" not in labels:
        labels.append("invented_args")
    if missing and not invented and not labels:
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
        details={"missing_calls": missing[:10], "order_errors": order_errors[:10],
                 "invented": invented[:10], "page_gaps": gaps[:10],
                 "gold_answer": gold.answer},
    )
