"""Binding transforms: how a source value becomes a target parameter value.

A transform is a ``|``-separated string of steps, applied left to right:

``slice:A:B``  characters ``[A:B]`` (``slice:0:5`` — the 5-digit 시군구 code of a legal-dong code;
               ``slice:0:6`` — ``YYYYMM`` of a ``YYYYMMDD`` date)
``pad:N``      left-pad with zeros to N characters (codes keep leading zeros)
``digits``     keep the digits only
``strip``      trim whitespace
"""

from __future__ import annotations

from typing import Any

from .errors import EdgeError

__all__ = ["apply_all", "apply_transform", "validate_transform"]

_STEPS = ("slice", "pad", "digits", "strip")


def validate_transform(transform: str) -> str:
    """``transform`` if every step is known, else ``EdgeError`` (a ``ValueError``) listing the known steps."""
    for step in filter(None, transform.split("|")):
        head = step.split(":", 1)[0]
        if head not in _STEPS:
            raise EdgeError(f"transform step={step!r} is unknown; use one of {', '.join(_STEPS)}")
        if head == "pad" and not step[4:].isdigit():
            raise EdgeError(f"transform step={step!r} needs a width: pad:N")
    return transform


def apply_all(values: list[str], transform: str) -> list[str]:
    """``apply_transform`` over many string values (a single slice runs as one comprehension)."""
    if not transform:
        return list(values)
    if transform.startswith("slice:") and "|" not in transform:
        _, a, b = (transform.split(":") + [""])[:3]
        lo, hi = int(a or 0), (int(b) if b else None)
        return [v[lo:hi] for v in values]
    if transform.startswith("pad:") and "|" not in transform:
        width = int(transform[4:])
        return [v.zfill(width) for v in values]
    return [apply_transform(v, transform) for v in values]


def apply_transform(value: Any, transform: str) -> str:
    """Apply ``transform`` to ``value`` (stringified; None becomes "").

    >>> apply_transform("1111010100", "slice:0:5"), apply_transform(7, "pad:3")
    ('11110', '007')
    >>> apply_transform("20250314", "slice:0:6")
    '202503'
    """
    text = "" if value is None else str(value)
    for step in filter(None, transform.split("|")):
        if step.startswith("slice:"):
            _, a, b = (step.split(":") + [""])[:3]
            text = text[int(a or 0) : int(b) if b else None]
        elif step.startswith("pad:"):
            text = text.zfill(int(step[4:]))
        elif step == "digits":
            text = "".join(ch for ch in text if ch.isdigit())
        elif step == "strip":
            text = text.strip()
    return text
