"""The base of every error edge raises on purpose (drawn in ``simulator/errors.py``)."""

from __future__ import annotations

from simulator import SimulatorError

__all__ = ["EdgeError"]


class EdgeError(SimulatorError, ValueError):
    """Bad input or a failed step in EDGE (dependency graphs, verification, synthesis).

    A ``ValueError`` too, so callers that caught ``ValueError`` before keep working.
    """
