"""Run a gold program through a :class:`ToolEnv` (the oracle, and gold answers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from simulator.tools import PageFailed, arg_text, is_paged, read_pages

from .env import ToolEnv
from .program import CallStep, Cond, OpStep, Program, ProgramError, compare, eval_expr, run_op

__all__ = ["DEFAULT_PAGE_SIZE", "Policy", "run_program"]

#: Page size of ``pages: all`` steps unless the step sets one (capped by the endpoint).
DEFAULT_PAGE_SIZE = 100


@dataclass(frozen=True)
class Policy:
    """How faithfully a scripted agent follows the program (naive baselines bend it)."""

    #: ``pages: all`` steps fetch only their first page.
    first_page_only: bool = False
    #: ``foreach`` fan-outs call only the first item; ``pick: all`` refs keep one value.
    first_of_many: bool = False


def _fetch(env: ToolEnv, step: CallStep, args: dict[str, Any], policy: Policy) -> list[dict[str, Any]]:
    ep = env.world.catalog.endpoint(step.call)
    if step.pages == "all" and is_paged(ep):
        size = step.page_size or min(ep.max_page_size, DEFAULT_PAGE_SIZE)

        def problem(rec: Any, index: int) -> str | None:
            if rec.ok:
                return None
            page = f" page {index + 1}" if index else ""
            return f"step {step.id}: {step.call}{page} failed: {rec.error}"

        try:
            got = read_pages(lambda a: env.call(step.call, a), ep, {k: arg_text(v) for k, v in args.items()},
                             size, first_page_only=policy.first_page_only, problem=problem)
        except PageFailed as exc:
            raise ProgramError(str(exc)) from None
        return got.records
    rec = env.call(step.call, args)
    if not rec.ok:
        raise ProgramError(f"step {step.id}: {step.call} failed: {rec.error}")
    return list(rec.records)


def _holds(cond: Cond, outs: dict[str, Any]) -> bool:
    """Whether a ``when`` condition holds on the outputs so far."""
    return compare(eval_expr(cond.left, outs), cond.op, eval_expr(cond.right, outs))


def _first_only(expr: Any) -> Any:
    if isinstance(expr, dict) and "$ref" in expr and expr.get("pick", "all") == "all":
        return {**expr, "pick": "first"}
    return expr


def run_program(
    program: Program,
    env: ToolEnv,
    policy: Policy = Policy(),
    on_step: Callable[[str], None] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Execute ``program``; returns (answer value, step outputs). Raises ``ProgramError``.

    ``on_step`` is told each step id before the step runs (to attribute calls to steps).
    """
    outs: dict[str, Any] = {}
    for step in program.steps:
        if on_step is not None:
            on_step(step.id)
        if isinstance(step, OpStep):
            if step.when is not None and not _holds(step.when, outs):
                outs[step.id] = None
                continue
            outs[step.id] = run_op(step, outs)
            continue
        if step.when is not None and not _holds(step.when, outs):
            outs[step.id] = []
            continue
        if step.foreach is not None:
            items = eval_expr(step.foreach, outs)
            if not isinstance(items, list):
                items = [items]
            if policy.first_of_many:
                items = items[:1]
            result: list[dict[str, Any]] = []
            for item in items:
                args = {k: eval_expr(v, outs, item) for k, v in step.args.items()}
                for r in _fetch(env, step, args, policy):
                    result.append({**r, "_item": item})
            outs[step.id] = result
        else:
            raw = step.args
            if policy.first_of_many:
                raw = {k: _first_only(v) for k, v in raw.items()}
            args = {k: eval_expr(v, outs) for k, v in raw.items()}
            bad = [k for k, v in args.items() if isinstance(v, list)]
            if bad:
                raise ProgramError(f"step {step.id}: args {bad} evaluate to lists (use foreach)")
            outs[step.id] = _fetch(env, step, args, policy)
    return eval_expr(program.answer, outs), outs
