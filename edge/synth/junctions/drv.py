"""The DRV junction: a value derived from a large result by a reduction (argmax/argmin, a filter,
top-k) passed on, or a final reduction over a large result."""

from __future__ import annotations

from ...cardinality import FAN_MAX
from ..draft import Draft
from ..sample import Sampler

__all__ = ["build"]


def build(s: Sampler, length: int) -> Draft | None:
    got = s.begin(length)
    if got is None:
        return None
    main, d, sid, res = got
    if len(res.records) > FAN_MAX and s.rng.random() < 0.6:
        p = s.pick(d, sid, res, main, force_drv=True)
        if p is None:
            return None
        sid, res = s.hop(d, main, *p)
        tool = main.target_tool
    else:
        p = s.pick(d, sid, res, main)
        if p is None:
            return None
        sid, res = s.hop(d, main, *p)
        tool = main.target_tool
        if len(res.records) <= FAN_MAX:
            return None
    if not s.final(d, sid, res, tool, prefer_drv=True):
        return None
    return d if "DRV" in d.junctions else None
