"""Run a gold program through a :class:`ToolEnv` (the oracle, and gold answers).

The runner is :func:`simulator.tools.run_program`; here it calls tools through an episode,
so every call (every page) lands in the episode's trace.
"""

from __future__ import annotations

from typing import Any, Callable

from simulator.tools import DEFAULT_PAGE_SIZE, Policy, Program
from simulator.tools import run_program as _run

from .env import ToolEnv

__all__ = ["DEFAULT_PAGE_SIZE", "Policy", "run_program"]


def run_program(
    program: Program,
    env: ToolEnv,
    policy: Policy = Policy(),
    on_step: Callable[[str], None] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Execute ``program`` through ``env``; returns (answer value, step outputs).

    Raises ``ProgramError``. ``on_step`` is told each step id before the step runs.
    """
    return _run(program, env.call, env.world.catalog, policy, on_step)
