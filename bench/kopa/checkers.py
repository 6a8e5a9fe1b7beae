"""Answer checkers: normalized exact match, numeric tolerance, set equality.

The answer is read from the model's final message (:func:`extract_answer`): the text after
the last explicit marker (``ANSWER:``, ``Answer:``, ``정답:``, ``최종 답:``), else after the
last bare ``답:`` (what EDGE's prompts ask for), else the whole message.

A list answer is items separated by ``,`` ``;`` ``、`` or newlines, where a comma followed by
exactly three digits is a thousands separator (``1,208, 36`` is the two items ``1,208`` and
``36``; :func:`split_items`). The exact checker accepts a differently written number
(``1,208`` for ``1208``) only where the gold is one number and the answer holds exactly one
number; a list gold is compared item by item, in order.
"""

from __future__ import annotations

import math
import re
import unicodedata

from .program import num
from .tasks import Check

__all__ = [
    "ITEM_SPLIT",
    "NUMBER",
    "check_answer",
    "extract_answer",
    "normalize",
    "same_item",
    "single_number",
    "split_items",
]

#: Explicit answer markers (``ANSWER``/``Answer``, ``최종 답``, ``정답``); the last one wins.
_ANSWER = re.compile(r"(?:ANSWER|최종\s*답|정답)\s*[:：]\s*(.*)", re.IGNORECASE)
#: A bare ``답:`` — the word 답 on its own (not the tail of 정답, 대답, 해답 …). Weaker than
#: the explicit markers: ``ANSWER: 13, 5`` followed by ``답: 0`` answers ``13, 5``.
_DAP = re.compile(r"(?<!\w)답\s*[:：]\s*(.*)")

#: Item separators of a list answer: a comma before exactly three digits (then a non-digit
#: or the end) is a thousands separator, not a separator of items.
ITEM_SPLIT = re.compile(r",(?!\d{3}(?:\D|$))|[;\n、]")
#: One number as answers write it: optional sign, digits with optional thousands commas,
#: optional decimals (``-1,208.5``, ``36``, ``.5``).
NUMBER = re.compile(r"[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)")


def _after(match: re.Match[str]) -> str:
    # ``.`` stops at a line end, so each marker is its own hit and the answer is the first
    # non-blank line after it (``ANSWER:`` alone on a line reads the next line).
    return match.group(1).strip()


def extract_answer(text: str) -> str:
    """The answer part of a model's final message.

    The first line after the last ``ANSWER:`` / ``Answer:`` / ``정답:`` / ``최종 답:`` marker
    (full-width ``：`` too); without one, after the last bare ``답:``; without either, the
    whole message, stripped.

    >>> extract_answer("조회했습니다.\\n답: 13, 5")
    '13, 5'
    >>> extract_answer("ANSWER: 13, 5\\n답: 0")
    '13, 5'
    """
    text = text or ""
    for marker in (_ANSWER, _DAP):
        hits = list(marker.finditer(text))
        if hits:
            return _after(hits[-1])
    return text.strip()


def normalize(s: str) -> str:
    """NFKC, lower case, no whitespace, no surrounding quotes or trailing period."""
    s = unicodedata.normalize("NFKC", str(s)).strip().strip("\"'`").rstrip(".。")
    return "".join(s.lower().split())


def split_items(s: str) -> list[str]:
    """The items of a list answer, in order, empty ones dropped (thousands commas kept).

    >>> split_items("1,208, 36")
    ['1,208', '36']
    >>> split_items("13,5")
    ['13', '5']
    """
    return [p.strip() for p in ITEM_SPLIT.split(str(s)) if normalize(p)]


def single_number(s: str) -> float | None:
    """The value of ``s`` when it is exactly one number (``"1,208"`` → 1208.0), else None.

    >>> single_number(" 1,208 "), single_number("13, 5"), single_number("13건")
    (1208.0, None, None)
    """
    # Inner spaces are kept: "1, 208" is two items, not the number 1208.
    t = unicodedata.normalize("NFKC", str(s)).strip().strip("\"'`").rstrip(".。")
    if not NUMBER.fullmatch(t):
        return None
    return float(t.replace(",", ""))


def same_item(pred: str, gold: str) -> bool:
    """Whether one answer item matches one gold item: normalized text, or the same number."""
    if normalize(pred) == normalize(gold):
        return True
    pv, gv = single_number(pred), single_number(gold)
    return pv is not None and gv is not None and pv == gv


def _items(s: str) -> set[str]:
    out: set[str] = set()
    for p in split_items(s):
        v = single_number(p)
        # Numbers by value, so "1,208" and "1208" are the same set member.
        out.add(repr(v) if v is not None else normalize(p))
    return out


def _one_number_in(s: str) -> float | None:
    # The answer's number when it holds exactly one ("13건" → 13; "13, 5" → None).
    found = NUMBER.findall(unicodedata.normalize("NFKC", s))
    return float(found[0].replace(",", "")) if len(found) == 1 else None


def check_answer(predicted: str, gold: str, check: Check) -> bool:
    """Whether ``predicted`` (an agent's final text) matches the ``gold`` answer text.

    >>> check_answer("ANSWER: 1,208", "1208", Check())
    True
    >>> check_answer("답: 13", "13, 5", Check())
    False
    """
    pred = extract_answer(predicted)
    if check.type == "numeric":
        # One number, not a hedge: "13, 14" against 13 names two answers and fails.
        one = _one_number_in(pred)
        p, g = (one if one is not None else math.nan), num(gold)
        if math.isnan(p) or math.isnan(g):
            return False
        return abs(p - g) <= max(check.abs_tol, check.rel_tol * abs(g), 1e-9)
    if check.type == "set":
        return _items(pred) == _items(gold)
    if normalize(pred) == normalize(gold):
        return True
    g = single_number(gold)
    if g is not None:
        # Only a one-number gold falls back to numbers: "13, 5" is two items, never 13.
        p = _one_number_in(pred)
        return p is not None and p == g
    gold_items = split_items(gold)
    if len(gold_items) > 1:
        pred_items = split_items(pred)
        return len(pred_items) == len(gold_items) and all(
            same_item(p, q) for p, q in zip(pred_items, gold_items))
    return False
