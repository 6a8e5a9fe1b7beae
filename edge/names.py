"""Name normalisation and value shapes: how EDGE compares fields and params it has never seen.

Names differ across platforms for the same thing (``SIGUN_NM`` / ``REGION_NM``, ``corp_code`` /
``corpCode``, ``likeSrtnCd`` / ``srtnCd``), so both sides are reduced to canonical tokens:
split on ``_`` and camelCase, lowercase, abbreviations folded (``cd`` → ``code``, ``nm`` →
``name``, ``no``/``num`` → ``no``), search prefixes (``like``, ``srch``) dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["GENERIC", "canonical", "fixed_length", "name_similarity", "shape", "tokens"]

#: Abbreviation → canonical token. Suffix/prefix synonyms of Korean open-API naming.
SYNONYMS: dict[str, str] = {
    "cd": "code", "code": "code", "cde": "code",
    "nm": "name", "name": "name", "nme": "name",
    "id": "id", "ids": "id",
    "no": "no", "num": "no", "number": "no", "nb": "no",
    "ymd": "date", "de": "date", "dt": "date", "date": "date", "day": "date",
    "ym": "month", "yyyymm": "month",
    "yr": "year", "year": "year", "yy": "year",
    "addr": "address", "adres": "address", "address": "address",
    "lati": "lat", "lat": "lat", "long": "lon", "lnt": "lon", "lon": "lon",
}
#: Tokens dropped entirely: search-operator prefixes that do not change what a value is.
DROP = {"like", "srch", "search", "sc", "se"}
#: Tokens that say what kind of value, not which value: they count half.
GENERIC = {"code", "name", "id", "no", "date", "month", "year", "type", "cls", "div", "gbn"}

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\x00-\x7f]+")


def tokens(name: str) -> list[str]:
    """Canonical tokens of a field or param name.

    >>> tokens("likeSrtnCd"), tokens("LAWD_CD"), tokens("corp_code"), tokens("cnddtId")
    (['srtn', 'code'], ['lawd', 'code'], ['corp', 'code'], ['cnddt', 'id'])
    """
    return list(_tokens(name))


@lru_cache(maxsize=65536)
def _tokens(name: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in re.split(r"[_\-\s.]+", name):
        for t in _CAMEL.findall(part):
            low = t.lower()
            if low in DROP:
                continue
            out.append(SYNONYMS.get(low, low))
    return tuple(out)


def canonical(name: str) -> str:
    """One string per meaning: ``SD_SCHUL_CODE`` and ``sdSchulCd`` both give ``sd schul code``."""
    return " ".join(tokens(name))


@lru_cache(maxsize=262144)
def name_similarity(a: str, b: str) -> float:
    """Weighted Jaccard of canonical tokens (generic tokens count half); 1.0 for equal names.

    >>> name_similarity("SD_SCHUL_CODE", "sdSchulCd")
    1.0
    >>> name_similarity("HG_NM", "SCHUL_NM"), name_similarity("STATN_NM", "statnNm")
    (0.0, 1.0)
    """
    ta, tb = set(_tokens(a)), set(_tokens(b))
    if not ta or not tb:
        return 0.0
    if ta == tb:
        return 1.0
    if not (ta & tb) - GENERIC:
        return 0.0  # sharing only "code" or "name" says nothing about which code

    def w(ts: Iterable[str]) -> float:
        return sum(0.5 if t in GENERIC else 1.0 for t in ts)

    return w(ta & tb) / w(ta | tb)


def shape(value: str) -> str:
    """A value's shape: ``d10`` (10 digits), ``A3`` (3 letters+digits starting with a letter) …

    >>> shape("1111010100"), shape("B10"), shape("서울"), shape("")
    ('d10', 'a3', 'text', 'empty')
    """
    if value == "":
        return "empty"
    if value.isdigit():
        return f"d{len(value)}"
    if value.isascii() and value.isalnum():
        return f"a{len(value)}"
    return "text"


_FIXED = re.compile(r"^\^?\[0-9\]\{(\d+)\}\$?$|^\^?\\d\{(\d+)\}\$?$")


def fixed_length(pattern: str | None) -> int | None:
    """The digit count of a ``^[0-9]{N}$`` pattern, else None.

    >>> fixed_length("^[0-9]{5}$"), fixed_length("^[0-9]{1,3}$")
    (5, None)
    """
    if not pattern:
        return None
    m = _FIXED.match(pattern)
    if not m:
        return None
    return int(m.group(1) or m.group(2))
