"""The CMP junction: two entities named in the question, each passed to the same tool, compared
on a count, sum or maximum of what it returns."""

from __future__ import annotations

from typing import Any
from collections import Counter

from simulator.tools import PagedResult

from ...proposers import Binding
from ...transforms import apply_transform
from ..draft import CmpPart, Draft
from ..sample import Sampler, _is_unit

__all__ = ["build"]


def _two_labels(s: Sampler, res: PagedResult, b: Binding) -> tuple[str, list[str]] | None:
    fr = s.fields.roles(b.source_tool, res.records)
    if not fr.label:
        return None
    lab = s.rng.choice(fr.label)
    lcol, fcol = s.fields.column(res.records, lab), s.fields.column(res.records, b.source_field)
    counts = Counter(lcol)
    cands = [i for i, (x, y) in enumerate(zip(lcol, fcol)) if x and y and counts[x] == 1 and x != y
             and _is_unit(y, b.transform)]  # two 동 compared by their 구's counts compare nothing
    rec = s.obs.recorded(b.target_tool, b.target_param)
    good = [i for i in cands if apply_transform(fcol[i], b.transform) in rec and s.fits(b, res.records[i])] if rec else []
    pool = good if len(good) >= 2 else cands
    if len(pool) < 2:
        return None
    picks = s.rng.sample(pool, 2)
    names = [lcol[i] or "" for i in picks]
    if len({fcol[i] for i in picks}) < 2:
        return None
    return lab, names


def build(s: Sampler, length: int) -> Draft | None:
    got = s.begin(max(2, length - 2), want_set=True)
    if got is None:
        return None
    main, d, sid, res = got
    tl = _two_labels(s, res, main)
    if tl is None:
        return None
    lab, names = tl
    metric_ids = []
    results = []
    for name in names:
        vid, v = s.reduce(d, {"op": "pick", "from": sid, "where": {"field": lab, "op": "eq", "value": name},
                                 "field": main.source_field})
        args, bind = s.bind_args(d, main, vid, v)
        got_id, r = s.call(d, main.target_tool, args, bind=bind)
        d.bound.append(v)
        results.append((got_id, r, args))
    d.edges.append((main.source_tool, main.target_tool))
    fr = s.fields.roles(main.target_tool, results[0][1].records)
    other = s.fields.roles(main.target_tool, results[1][1].records).number
    metric: dict[str, Any] = {"op": "count"}
    op = s.rng.choice(("sum", "max"))
    nums = [n for n in fr.numbers_for(op) if n in other]
    if nums and s.rng.random() < 0.5:
        metric = {"op": op, "key": s.rng.choice(nums)}
    got = []
    for got_id, _r, _a in results:
        mid, mv = s.reduce(d, {**metric, "from": got_id})
        metric_ids.append(mid)
        got.append(mv)
    if got[0] == got[1]:
        return None  # a tie answers nothing about the comparison
    cid, ans = s.reduce(d, {"op": "cmp", "a": metric_ids[0], "b": metric_ids[1], "labels": names})
    d.answer = cid
    d.junctions.append("CMP")
    d.parts.append(CmpPart(tool=main.source_tool, label=lab, names=names, target=main.target_tool,
                           field=main.source_field, args=results[0][2], param=main.target_param, metric=metric))
    return d
