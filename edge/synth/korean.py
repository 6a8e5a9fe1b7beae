"""Korean text helpers for question templates: particles chosen by the final syllable."""

from __future__ import annotations

import re

__all__ = ["clean_desc", "josa", "num_text"]


def _has_batchim(word: str) -> bool | None:
    for ch in reversed(word.strip()):
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3:
            return (code - 0xAC00) % 28 != 0
        if ch.isdigit():
            return ch in "013678"
        if ch.isalpha():
            return ch.lower() in "lmnr"
        if ch in ")'\"]":
            continue
        return None
    return None


_PAIRS = {"이": ("이", "가"), "을": ("을", "를"), "은": ("은", "는"), "과": ("과", "와"), "으로": ("으로", "로"),
          "이다": ("이다", "다")}


def josa(word: str, particle: str) -> str:
    """``word`` with the particle form that fits its last syllable.

    >>> josa("정당명", "이"), josa("노선번호", "을"), josa("서울", "으로")
    ('정당명이', '노선번호를', '서울로')
    """
    with_b, without_b = _PAIRS[particle]
    b = _has_batchim(word)
    if particle == "으로" and word and ord(word[-1]) >= 0xAC00 and (ord(word[-1]) - 0xAC00) % 28 == 8:
        return word + "로"  # ㄹ 받침
    return word + (with_b if b or b is None and particle != "으로" else without_b)


def clean_desc(text: str, fallback: str) -> str:
    """A catalog description cut to its noun phrase (``'정당명 (…)'`` → ``'정당명'``)."""
    t = re.split(r"\s*[(（;,:]|\s+e\.g\.", text or "", maxsplit=1)[0].strip()
    return t or fallback


def num_text(x: object) -> str:
    """A number as a question writes it (thousands separators)."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        return f"{x:,.2f}".rstrip("0").rstrip(".")
    return str(x)
