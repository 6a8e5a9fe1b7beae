"""Hints that make an answer explain itself: "did you mean" for parameter names, and the
simulator's own note on a native error (the ``x-sim-hint`` header).

The platform's native error body is kept byte-faithful (a client must see what the real API
sends); the simulator's explanation travels beside it, in a header.

>>> did_you_mean("citycode", ["cityCode", "nodeNm", "numOfRows"])
'cityCode'
>>> did_you_mean("zzz", ["cityCode"]) is None
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

__all__ = ["HINT_HEADER", "did_you_mean", "header_safe", "unknown_param_hints"]

#: Response header carrying the simulator's note on a native error answer.
HINT_HEADER = "x-sim-hint"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``name`` most likely meant: same letters in another case, else the
    closest spelling (``difflib``, ratio ≥ 0.75), else ``None``."""
    names = list(candidates)
    for c in names:
        if c.lower() == name.lower() and c != name:
            return c
    close = difflib.get_close_matches(name.lower(), [c.lower() for c in names], n=1, cutoff=0.75)
    if not close:
        return None
    return next(c for c in names if c.lower() == close[0])


def unknown_param_hints(unknown: Iterable[str], known: Iterable[str]) -> dict[str, str]:
    """``{sent name: meant name}`` for the unknown parameter names that look like known ones."""
    known = list(known)
    out: dict[str, str] = {}
    for name in unknown:
        meant = did_you_mean(name, known)
        if meant is not None:
            out[name] = meant
    return out


def describe_hints(hints: Mapping[str, str], endpoint: str) -> str:
    """One line per hint, for a miss message."""
    return "".join(
        f"parameter {sent!r} is not one {endpoint} takes: did you mean {meant!r}?\n"
        for sent, meant in sorted(hints.items())
    )


def header_safe(text: str, limit: int = 300) -> str:
    """``text`` as one ASCII header line (non-ASCII as ``\\uXXXX``), at most ``limit`` chars."""
    line = " ".join(text.split())
    return line.encode("ascii", "backslashreplace").decode("ascii")[:limit]
