"""Benchmarks of kopa-sim: ``bench.perf`` measures the simulator's own speed."""

from __future__ import annotations

__all__: list[str] = []
