"""Names and words: person names, hanja, romanization, name stems, amounts."""

from __future__ import annotations

import random

from ._core import pools

__all__ = ["comma", "hanja_name", "has_final_consonant", "person_name", "roman_name", "romanize"]


def comma(n: int) -> str:
    """``1234567`` → ``"1,234,567"`` (the OpenDART / RTMS amount style)."""
    return f"{n:,}"


def has_final_consonant(word: str) -> bool:
    """Whether a word's last syllable has a final consonant (받침): 을/이/은 follow it, else 를/가/는."""
    ch = word.rstrip()[-1:]
    return bool(ch) and "가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 != 0


def person_name(rng: random.Random) -> str:
    p = pools()
    name: str = rng.choice(p["surnames"]) + rng.choice(p["given"]) + rng.choice(p["given"])
    return name


def hanja_name(name: str) -> str:
    table = pools()["hanja"]
    return "".join(table.get(ch, "永") for ch in name)


def roman_name(name: str) -> str:
    """"홍길동" → "HONG GILDONG" (surname from the usual spellings, the rest romanized)."""
    table = pools()["romaja"]
    return f"{table.get(name[0], romanize(name[0]).upper())} {romanize(name[1:]).upper()}"


_INITIALS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
_VOWELS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi",
           "yu", "eu", "ui", "i"]
_FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
           "ng", "t", "t", "k", "t", "p", "t"]


def romanize(text: str) -> str:
    """Revised Romanization, syllable by syllable (no sound-change rules): "대치" → "daechi"."""
    out = []
    for ch in text:
        n = ord(ch) - 0xAC00
        if 0 <= n < 11172:
            out.append(_INITIALS[n // 588] + _VOWELS[(n % 588) // 28] + _FINALS[n % 28])
        else:
            out.append(ch)
    return "".join(out)


def _stem(leaf: str) -> str:
    """"대치동" → "대치", "수원시" → "수원", "신문로1가" → "신문로"."""
    s = leaf
    for suffix in ("특별자치시", "특별자치도", "특별시", "광역시"):
        if s.endswith(suffix):
            return s[: -len(suffix)]
    s = s.rstrip("0123456789가")
    if len(s) > 2 and s[-1] in "동리읍면구시군로":
        s = s[:-1]
    return s.rstrip("0123456789") or leaf
