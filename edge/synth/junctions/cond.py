"""The COND junction: a count tested against a round threshold; the then-branch asks another
dataset about the same value (or a further call), the else-branch answers the count. Both
branches stay in the program, guarded, so another version may take the other one."""

from __future__ import annotations

from typing import Any

from simulator.tools import CallStep

from ...proposers import Binding
from ..korean import date_text
from ..draft import CondPart, CondThen, Draft
from ..execute import ProgramError
from ..sample import COND_MIN, Sampler, _cond, threshold

__all__ = ["build"]


def _siblings(s: Sampler, b: Binding) -> list[Binding]:
    """Edges that take the value ``b`` takes (same source tool and field) into another tool:
    a COND's then-branch asks the other dataset about the same place, school or code."""
    return [x for x in s.out.get(b.source_tool, []) if x.source_field == b.source_field
            and x.transform == b.transform and x.target_tool not in (b.target_tool, b.source_tool)]

def _months(s: Sampler, tool: str, records: list[dict[str, Any]]) -> set[str]:
    """The months the records' date fields fall in (``MLSV_YMD`` 20250310 → 202503)."""
    from ..semantics import field_type

    out: set[str] = set()
    for r in records:
        for k, v in r.items():
            if isinstance(v, (str, int)) and date_text(str(v)) and len(str(v)) == 8 \
                    and field_type(s.catalog, tool, k) == "date":
                out.add(str(v)[:6])
    return out


def _periods(args: dict[str, Any]) -> set[str]:
    """The dates and months a call's arguments state (``DEAL_YMD=202407``)."""
    return {str(v) for v in args.values() if not isinstance(v, dict) and date_text(str(v))}


def build(s: Sampler, length: int) -> Draft | None:
    def branches(b: Binding) -> bool:
        return bool(_siblings(s, b)) or any(n.target_tool != b.source_tool for n in s.out.get(b.target_tool, []))

    got = s.begin(max(2, length - 2), branches, "cond")
    if got is None:
        return None
    main, d, sid, res = got
    p = s.pick(d, sid, res, main)
    if p is None:
        return None
    vid, v = p
    sid1, r1 = s.hop(d, main, vid, v)
    mid, m = s.reduce(d, {"op": "count", "from": sid1})
    if m < COND_MIN:
        return None  # "are there at least 2 stops?" of a one-record lookup tests nothing
    if len(_months(s, main.target_tool, list(r1.records))) > 1:
        return None  # "급식이 300번 이상 되나요?" of meals over many months: a count of no period
    # then-branch: the same value into another dataset (a sibling edge), or a further call
    # from the first result (an onward verified edge)
    sib = _siblings(s, main)
    nxt = [b for b in s.out.get(main.target_tool, []) if b.target_tool != main.source_tool]
    if not sib and not nxt:
        return None
    k = threshold(m, s.rng)
    guard = {"ref": mid, "gte": k}
    when = _cond(guard)
    then_ok = m >= k
    if sib and (not nxt or s.rng.random() < 0.6):
        b2 = s.rng.choice(sib)
        args, bind = s.bind_args(d, b2, vid, v, guard=guard)
    else:
        b2 = s.rng.choice(nxt)
        n_steps, n_parts = len(d.steps), len(d.parts)
        p2 = s.pick(d, sid1, r1, b2)
        if p2 is None:
            return None
        for i in range(n_steps, len(d.steps)):  # the then-branch's pick runs only on that branch
            d.steps[i] = d.steps[i].model_copy(update={"when": when})
        for x in d.parts[n_parts:]:  # and is said with that branch's ask
            x.branch = "then"
        args, bind = s.bind_args(d, b2, p2[0], p2[1], guard=guard)
        if then_ok:
            d.bound.append(p2[1])
    said = set().union(*(_periods(st.args) for st in d.steps if isinstance(st, CallStep) and st.when is None))
    if _periods(args) - said:
        return None  # "2024년 7월 … 300건 이상이면 2025년 3월 아파트 전월세는?": two periods glued together
    # The branch not taken on this version stays in the program (guarded, not run):
    # another version may take it.
    s2, r2 = s.call(d, b2.target_tool, args, bind=bind, guard=guard)
    n2 = len(r2.records)
    if not then_ok:  # not run on this version: read it here (never shown) to know what it would count
        try:
            n2 = len(s.ex.step(d.steps[-1].model_copy(update={"when": None}), s.values(d))[0])
        except ProgramError:
            return None  # the branch another version may take must answer on this one too
    if n2 < 2:
        return None  # the count of a one-record lookup ("how many stops has stop 10184?") asks nothing
    tid, _ = s.reduce(d, {"op": "count", "from": s2, "if": guard})
    d.edges.append((b2.source_tool, b2.target_tool))
    then_part = CondThen(target=b2.target_tool, args=args, param=b2.target_param, taken=then_ok)
    cid, ans = s.reduce(d, {"op": "choose", "test": {"ref": mid, "gte": k}, "then": tid, "else": mid})
    d.answer = cid
    d.junctions.append("COND")
    d.parts.append(CondPart(tool=main.target_tool, k=k, then=then_part))
    return d
