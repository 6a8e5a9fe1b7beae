"""Cardinality labels (DESIGN §8): how many distinct values a handoff passes per source call.

``SEQ`` one value (pass it on), ``FAN`` a bounded few (one downstream call each), ``DRV``
more (reduce deterministically first: filter, sort + take, argmax, count).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from statistics import median
from typing import Literal

from .observe import Observations

__all__ = ["Cardinality", "FAN_MAX", "cardinality_of", "label"]

#: Largest per-call distinct count still labelled FAN (bounded fan-out).
FAN_MAX = 20
Label = Literal["SEQ", "FAN", "DRV"]


def label(n: float, fan_max: int = FAN_MAX) -> Label:
    """The junction label of a handoff whose source returns ``n`` distinct values per call.

    >>> label(1), label(7), label(738)
    ('SEQ', 'FAN', 'DRV')
    """
    if n <= 1:
        return "SEQ"
    return "FAN" if n <= fan_max else "DRV"


@dataclass(frozen=True)
class Cardinality:
    min: int
    median: float
    max: int
    calls: int
    label: Label

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def cardinality_of(obs: Observations, tool: str, field: str, fan_max: int = FAN_MAX) -> Cardinality | None:
    """Distinct values of ``tool.field`` per recorded call; None when nothing is recorded."""
    counts = [c for c in obs.distinct_per_call.get(tool, {}).get(field, []) if c > 0]
    if not counts:
        return None
    med = float(median(counts))
    return Cardinality(min(counts), med, max(counts), len(counts), label(med, fan_max))
