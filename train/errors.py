"""The base of every error train raises on purpose (drawn in ``simulator/errors.py``)."""

from __future__ import annotations

from simulator import SimulatorError

__all__ = ["TrainError"]


class TrainError(SimulatorError, ValueError):
    """Bad input or a failed step in GRPO training (environment, rewards, configs, serving).

    A ``ValueError`` too, so callers that caught ``ValueError`` before keep working.
    """
