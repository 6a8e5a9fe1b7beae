"""The form a kept question has, and when two questions are near-duplicates."""

from __future__ import annotations

import re
from typing import Any

from simulator import Catalog

__all__ = ["NEAR_THRESHOLD", "malformed", "shingles"]

_HANGUL = re.compile(r"[가-힣]")

#: Character-5-gram Jaccard at or above which two questions are near-duplicates (the bench audit's).
NEAR_THRESHOLD = 0.5


def malformed(e: dict[str, Any], catalog: Catalog) -> str | None:
    """Which part of example ``e`` is malformed (question, answer, program, tool, length), or None."""
    q = e.get("question") or ""
    if not _HANGUL.search(q) or "{" in q or "None" in q or len(q) < 20:
        return "question"
    if e.get("answer") in (None, "", []) or "None" in e["ground_truth"]:
        return "answer"
    steps = e.get("gold_program", {}).get("steps")
    if not isinstance(steps, list) or not steps:
        return "program"
    if any(isinstance(s, dict) and "call" in s and s["call"] not in catalog.endpoints for s in steps):
        return "tool"
    if not 2 <= e.get("length", 0) <= 8:
        return "length"
    return None


def shingles(q: str, k: int = 5) -> set[str]:
    """The character 5-grams of ``q`` without spaces and punctuation."""
    t = re.sub(r"[\W_]+", "", q)
    return {t[i:i + k] for i in range(max(1, len(t) - k + 1))}
