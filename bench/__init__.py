"""KOPA-Bench (``bench.kopa``). The simulator's speed harness is the top-level ``perf/``
of a checkout (``python -m perf.replay``); it is not installed and nothing here imports it."""

from __future__ import annotations

__all__: list[str] = []
