"""The RESPONSE checker on a held-out set of natural answers (issue 29, first must-show).

``tests/data/heldout_answers.jsonl`` was written by hand from each task's question and gold only,
before its author read the checker or the project's own natural-answer generator; its labels
are the author's judgement (rows labelled ``ambiguous`` are left out of the figures). Print the
figures with ``python -m tests.bench.test_checker_heldout`` (add ``-v`` to list every miss).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.kopa.checkers import check_answer
from bench.kopa.tasks import Task, load_tasks

HELDOUT = Path(__file__).resolve().parents[1] / "data" / "heldout_answers.jsonl"


def load_heldout() -> list[dict[str, Any]]:
    """The labelled rows (the first line is the header that says how they were written)."""
    lines = HELDOUT.read_text(encoding="utf-8").splitlines()
    assert "_header" in json.loads(lines[0])
    return [json.loads(line) for line in lines[1:] if line.strip()]


@dataclass
class Figures:
    right: int = 0
    accepted: int = 0
    wrong: int = 0
    rejected: int = 0
    misses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def accept_rate(self) -> float:
        return self.accepted / self.right

    @property
    def reject_rate(self) -> float:
        return self.rejected / self.wrong

    def line(self) -> str:
        return (f"held-out: right accepted {self.accepted}/{self.right} ({self.accept_rate:.1%}), "
                f"wrong rejected {self.rejected}/{self.wrong} ({self.reject_rate:.1%})")


def measure(rows: list[dict[str, Any]], tasks: dict[str, Task] | None = None) -> Figures:
    """Score every right/wrong row with the checker the bench's RESPONSE axis calls."""
    tasks = tasks or {t.id: t for t in load_tasks()}
    fig = Figures()
    for r in rows:
        if r["label"] == "ambiguous":
            continue
        t = tasks[r["task"]]
        ok = check_answer(r["text"], r["gold"], t.check, t.question)
        if r["label"] == "right":
            fig.right += 1
            fig.accepted += ok
            if not ok:
                fig.misses.append(("right answer rejected", r))
        else:
            fig.wrong += 1
            fig.rejected += not ok
            if ok:
                fig.misses.append(("wrong answer accepted", r))
    return fig


if __name__ == "__main__":
    figures = measure(load_heldout())
    print(figures.line())
    if "-v" in sys.argv:
        for kind, r in figures.misses:
            print(f"{kind}: {r['task']} (gold {r['gold']}): {r['text']!r} [{r['why']}]")
