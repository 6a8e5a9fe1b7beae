"""One builder per junction type (SEQ, DRV, FAN, SEM, CMP, COND), registered in :data:`BUILDERS`.

A builder takes the shard's :class:`~edge.synth.sample.Sampler` (the verified edges, the
executor, the graph facts it caches) and a wanted chain length, and returns a
:class:`~edge.synth.draft.Draft` whose steps have all executed, or None when the walk it drew
does not give a question (no recorded onward call, an empty or over-budget result, a tie).
"""

from __future__ import annotations

from collections.abc import Callable

from ..draft import Draft
from ..execute import CallFailed, ProgramError
from ..sample import Sampler
from . import cmp, cond, drv, fan, sem, seq

__all__ = ["BUILDERS", "Builder", "build"]

#: A junction builder: (sampler, length) → an executed draft, or None.
Builder = Callable[[Sampler, int], "Draft | None"]

#: The builder of each junction type (``simulator.vocab.Junction``).
BUILDERS: dict[str, Builder] = {
    "SEQ": seq.build,
    "DRV": drv.build,
    "FAN": fan.build,
    "SEM": sem.build,
    "CMP": cmp.build,
    "COND": cond.build,
}


def build(s: Sampler, jtype: str, length: int) -> Draft | None:
    """One draft of junction type ``jtype`` with about ``length`` calls; None when it fails."""
    try:
        return BUILDERS[jtype](s, length)
    except (CallFailed, ProgramError):
        return None
