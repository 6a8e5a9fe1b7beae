"""Progress of a long command on stderr (STYLE: progress on anything over a second or two).

Each stage of the work is announced by one short line on stderr, terminal or not, so a log,
a pipe or CI shows the command is working and where; on a terminal a rich bar also counts the
stage's items (transient: it leaves nothing behind). Stdout, where commands print their
machine-readable results, is never written. The lines hold no timings, so a run's stderr is
the same every time.

>>> with StageProgress("diff") as progress:                 # doctest: +SKIP
...     progress(0, 2640, "collections")                     # "diff: collections (2,640)…"
...     progress(1, 2640, "collections")                     # the bar moves on a terminal
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

__all__ = ["StageProgress"]


class StageProgress:
    """A ``progress(done, total, stage)`` callback for library functions: a line per new
    ``stage`` and, on a terminal, a bar counting ``done`` of ``total``."""

    def __init__(self, command: str, console: Console | None = None) -> None:
        self.command = command
        self.console = console or Console(stderr=True)
        self.stage: str | None = None
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> StageProgress:
        if self.console.is_terminal:
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=self.console, transient=True)
            self._bar.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()

    def say(self, text: str) -> None:
        """One line on stderr (above the bar on a terminal)."""
        self.console.print(f"{self.command}: {text}", markup=False, highlight=False, soft_wrap=True)

    def __call__(self, done: int, total: int | None, stage: str) -> None:
        if stage != self.stage:
            self.stage = stage
            self.say(f"{stage} ({total:,})…" if total is not None else f"{stage}…")
            if self._bar is not None:
                if self._task is not None:
                    self._bar.remove_task(self._task)
                self._task = self._bar.add_task(stage, total=total)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, total=total)
