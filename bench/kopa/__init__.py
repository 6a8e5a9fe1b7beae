"""KOPA-Bench: multi-step tool-calling tasks over the recorded Korean public APIs (DESIGN §9).

Tasks (``tasks/*.yaml``) carry gold programs whose answers are computed on the version under
test; agents (OpenAI-compatible or scripted) run against a pinned simulator version and are
scored on RESPONSE, ACTION and ENVIRONMENT, with a failure taxonomy read from traces.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BENCH_VERSION", "bench_version"]

#: The newest shipped version KOPA-Bench runs on without ``--version`` (and the version
#: ``bench.kopa.author`` authors on). From ``kopa@v0008`` (world edition 7) a real listed company
#: keeps only its public identity (name and codes: every value endpoint answers no data), so the
#: finance tasks name invented companies (``author.invented_companies``), which the versions
#: before v0008 do not hold: the bench needs v0008 or later. A later shipped version (a new
#: world edition may rename the invented companies, as edition 8 did) waits until the tasks are
#: authored on it; a version
#: you recorded yourself (``--cassettes``, not shipped) is still taken as before. Kept as data in
#: ``tasks/version.txt``, beside the tasks, where EDGE reads it (``edge`` does not import
#: ``bench``) to hold the bench's gold calls out of a run on a later version.
BENCH_VERSION = (Path(__file__).parent / "tasks" / "version.txt").read_text(encoding="utf-8").strip()


def bench_version(version: str | None, set_name: str = "kopa", cassettes: object = None) -> str | None:
    """The version a run of the bench's tasks takes: ``version`` when given, else
    :data:`BENCH_VERSION` when the newest shipped version is later, else None (the newest
    shipped, as every research command)."""
    if version is None and set_name == "kopa":
        from simulator import Store

        newest = Store(cassettes).newest_shipped(set_name)  # type: ignore[arg-type]
        if newest is not None and newest.version > BENCH_VERSION:
            return BENCH_VERSION
    return version
