"""Gold programs of KOPA-Bench: the one language of :mod:`simulator.tools.program`.

Task files store programs in that language; this module re-exports it (and its values and
ops from :mod:`simulator.tools.runner`) under the names bench code has always used.
"""

from __future__ import annotations

from simulator.tools import (
    CallStep,
    Cond,
    OpStep,
    Program,
    ProgramError,
    Step,
    Where,
    compare,
    eval_expr,
    format_answer,
    get_field,
    num,
    program_shape,
    refs_in,
    run_op,
)

__all__ = [
    "CallStep",
    "Cond",
    "OpStep",
    "Program",
    "ProgramError",
    "Step",
    "Where",
    "compare",
    "eval_expr",
    "format_answer",
    "get_field",
    "num",
    "program_shape",
    "refs_in",
    "run_op",
]
