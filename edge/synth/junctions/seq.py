"""The SEQ junction: a chain of hops, each value chosen by name (or a reduction) from the
previous call's full result, and a final reduction (:meth:`~edge.synth.sample.Sampler.final`)."""

from __future__ import annotations

from simulator.tools import CallStep

from ..execute import CallFailed, ProgramError
from ..draft import Draft
from ..sample import Sampler

__all__ = ["build"]


def build(s: Sampler, length: int) -> Draft | None:
    got = s.begin(length)
    if got is None:
        return None
    main, d, sid, res = got
    p = s.pick(d, sid, res, main, allow_drv=False)
    if p is None:
        return None
    sid, res = s.hop(d, main, *p)
    # extend forward while calls remain (SEQ hops by name or reduction)
    here = main.target_tool
    seen = {st.call for st in d.steps if isinstance(st, CallStep)}
    while d.calls < length:
        nxt = [b for b in s.out.get(here, []) if b.target_tool not in seen]
        if not nxt:
            break
        b = s.rng.choice(nxt)
        mark = d.mark()
        try:
            p = s.pick(d, sid, res, b)
            if p is None:
                d.rollback(mark)
                break
            sid, res = s.hop(d, b, *p)
        except (CallFailed, ProgramError):
            d.rollback(mark)  # an onward hop that does not execute: stop the chain here
            break
        here = b.target_tool
        seen.add(here)
    return d if s.final(d, sid, res, here) else None
