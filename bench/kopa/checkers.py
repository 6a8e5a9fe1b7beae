"""Answer checkers: normalized exact match, numeric tolerance, set equality."""

from __future__ import annotations

import math
import re
import unicodedata

from .program import num
from .tasks import Check

__all__ = ["check_answer", "extract_answer", "normalize"]

_ANSWER = re.compile(r"(?:ANSWER|최종\s*답|정답)\s*[:：]\s*(.+)", re.IGNORECASE | re.DOTALL)


def extract_answer(text: str) -> str:
    """The answer part of a model's final message (after the last ``ANSWER:``)."""
    text = text or ""
    hits = list(_ANSWER.finditer(text))
    if hits:
        return hits[-1].group(1).strip().splitlines()[0].strip() if hits[-1].group(1).strip() else ""
    return text.strip()


def normalize(s: str) -> str:
    """NFKC, lower case, no whitespace, no surrounding quotes or trailing period."""
    s = unicodedata.normalize("NFKC", str(s)).strip().strip("\"'`").rstrip(".。")
    return "".join(s.lower().split())


def _items(s: str) -> set[str]:
    parts = re.split(r"[,;\n、]", s)
    return {normalize(p) for p in parts if normalize(p)}


def check_answer(predicted: str, gold: str, check: Check) -> bool:
    """Whether ``predicted`` (an agent's final text) matches the ``gold`` answer text."""
    pred = extract_answer(predicted)
    if check.type == "numeric":
        p, g = num(pred), num(gold)
        if math.isnan(p) or math.isnan(g):
            return False
        return abs(p - g) <= max(check.abs_tol, check.rel_tol * abs(g), 1e-9)
    if check.type == "set":
        return _items(pred) == _items(gold)
    if normalize(pred) == normalize(gold):
        return True
    p, g = num(pred), num(gold)
    if not math.isnan(g) and re.fullmatch(r"[-+]?[\d,]*\.?\d+", normalize(gold)):
        return not math.isnan(p) and abs(p - g) <= 1e-9
    return False
