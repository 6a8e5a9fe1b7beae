"""The SEM junction: one value passed to two tools that take the same kind of argument, and a
measure of each (the answer is the pair)."""

from __future__ import annotations

from typing import Any

from simulator.tools import PagedResult

from ...observe import scalar
from ..draft import Draft, SemPart
from ..fields import _IDLIKE, bookkeeping
from ..sample import Sampler, _is_unit

__all__ = ["build"]


def build(s: Sampler, length: int) -> Draft | None:
    pairs = s.sem_groups()
    if not pairs:
        return None
    group = s.rng.choice(pairs)
    b1, b2 = s.rng.sample(group, 2)
    got = s.chain(max(2, length - 2), b1)
    if got is None:
        return None
    d, sid, res = got
    p = s.pick(d, sid, res, b1, allow_drv=True)
    if p is None:
        return None
    vid, v = p
    if not (_is_unit(v, b1.transform) and _is_unit(v, b2.transform)):
        return None  # the question names the place both calls count: never a 동 for its 구
    outs = []
    for b in (b1, b2):
        args, bind = s.bind_args(d, b, vid, v)
        got_id, r = s.call(d, b.target_tool, args, bind=bind)
        d.edges.append((b.source_tool, b.target_tool))
        outs.append((got_id, r, b, args))
    d.bound.append(v)
    d.junctions.append("SEM")
    ids = []
    metrics = []
    for got_id, r, b, _a in outs:
        st = _metric(s, got_id, r, b.target_tool)
        if st is None:
            return None
        cid, _ = s.reduce(d, st)
        ids.append(cid)
        metrics.append({k: x for k, x in st.items() if k != "from"})
    pid, _ = s.reduce(d, {"op": "pair", "refs": ids})  # the answer: both values
    d.answer = pid
    d.parts.append(SemPart(tool=b1.source_tool, calls=[(b.target_tool, a, b.target_param) for _s, _r, b, a in outs],
                           metrics=metrics))
    return d


def _metric(s: Sampler, sid: str, res: PagedResult, tool: str) -> dict[str, Any] | None:
    """A per-branch measure: the count when there are several records, else a field value."""
    if len(res.records) > 1:
        return {"op": "count", "from": sid}
    ep = s.catalog.endpoint(tool)
    opts = [f.name for f in ep.fields if (v := scalar(res.records[0].get(f.name))) and not f.code
            and not _IDLIKE.search(f.name) and len(v) <= 40 and not bookkeeping(ep, f.name)]
    if not opts:
        return None
    return {"op": "pick", "from": sid, "field": s.rng.choice(opts)}
