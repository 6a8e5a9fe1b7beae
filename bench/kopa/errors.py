"""The base of every error bench.kopa raises on purpose (drawn in ``simulator/errors.py``)."""

from __future__ import annotations

from simulator import SimulatorError

__all__ = ["BenchError"]


class BenchError(SimulatorError, ValueError):
    """Bad input or a failed step in KOPA-Bench (tasks, agents, runs, metrics).

    A ``ValueError`` too, so callers that caught ``ValueError`` before keep working.
    """
