"""The world's core: seeded generators, the collection cache and the word pools.

Every collection of the world is built from its own ``random.Random`` (``rng(*parts)``:
the world seed and the collection's name and key, never the global generator) and kept by
``cached(key, build)``, so the same seed gives the same data in any process and any order.
"""

from __future__ import annotations

import random
import re
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml

__all__ = ["DATA", "EDITIONS", "LATEST_EDITION", "NATURAL_NAMES_EDITION", "WorldBase", "name_key", "pools", "real_listed_names", "real_name_stems"]

#: The sandbox's data folder (real code tables, word pools).
DATA = Path(__file__).parent.parent / "data"
_MISSING = object()
#: World editions: 2 is the world ``kopa@v0001`` and ``kopa@v0002`` were recorded from, 3 the
#: one of ``kopa@v0003`` (an election open for preliminary candidates, 3,000-stop bus cities,
#: varied financial statements, law articles and citations, disambiguated school names, school
#: closure days), 4 the one of ``kopa@v0004`` (edition 3, and the generated NEIS services' rows
#: carry the hub's common fields: office, school, LOAD_DTM; see ``late_fields`` in
#: ``simulator/sandbox/gen/synth.py``). An edition changes only what its docstring says; the
#: rest is the same bytes.
EDITIONS = (2, 3, 4, 5, 6, 7, 8, 9)
#: The edition the newest shipped version was recorded from (the default). Edition 5 is
#: edition 4 with the generated endpoints' fuller published fields, every one filled with a
#: value of its field's shape: ``kopa@v0006`` recorded its generated tier from it (its curated
#: tier, carried over from ``kopa@v0005``, answers the same in editions 4 and 5). Edition 6 is
#: edition 5 with FSC's company outline joined to OpenDART's companies and the endpoints
#: ``kopa@v0007`` adds (``_joined.py``); ``kopa@v0007`` was recorded from it. Edition 7 is
#: edition 6 where a real listed company of the pool keeps only its real public identity and no
#: invented value (``REAL_COMPANIES_EDITION`` in ``_finance.py``; invented companies renamed and
#: renumbered apart from real ones), plus the changes listed where they are made (gated on
#: ``edition >= 7``); ``kopa@v0008`` was recorded from it. Edition 8 is edition 7 with invented
#: names that read like real Korean ones (schools named after a place or a word, companies of
#: one stem and a kind, well-formed statute and bill titles), plus the changes listed where they
#: are made (gated on ``edition >= 8``); ``kopa@v0009`` is recorded from it. Edition 9
#: (``kopa@v0010`` is recorded from it) is edition 8 with the changes gated on
#: the ``*_EDITION = 9`` constants where they are made: more published response fields for the
#: generated endpoints (``PUBLISHED9_EDITION`` in ``simulator/catalog/generate/build.py``), the MOIS
#: 행정안전통계연보 services in their head/row envelope (``YEARBOOK_ENVELOPE_EDITION``), generated
#: measure fields filled with numbers of their unit and meaning (``MEASURES_EDITION``,
#: ``simulator/sandbox/gen/measures.py``), Seoul subway stations' real English names
#: (``STATION_ENG_EDITION``, ``_transport.py``), NEC addresses named as of the vote date
#: (``DATED_ADDRESSES_EDITION``, ``_politics.py``) and the 22nd Assembly's 254 real constituencies;
#: from stop 40, RTMS deals of the district and month asked (``RTMS_REQUEST_EDITION``,
#: ``gen/rtms.py``), OpenDART dates after the receipt (``DART_DATES_EDITION``), published number
#: types (``PUBLISHED_TYPES_EDITION``), place and kind names (``NAMES_EDITION``), three-digit KMA
#: stations (``KMA_STATIONS_EDITION``, ``gen/synth.py``) and bills 2260001 up (``BILL_NUMBERS_EDITION``).
LATEST_EDITION = 9
#: The edition from which the world's invented names read like real Korean ones: schools named
#: after a place or a word (``_education.py``), companies of one stem and a kind (``_finance.py``),
#: statute titles shaped like real ones (``_law.py``) and real bill titles (``_politics.py``).
NATURAL_NAMES_EDITION = 8
T = TypeVar("T")


@lru_cache(maxsize=1)
def pools() -> dict[str, Any]:
    """The hand-written word pools (``data/pools.yaml``)."""
    with open(DATA / "pools.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)  # type: ignore[no-any-return]


def name_key(name: str) -> str:
    """A company name as compared with the real ones: no spaces, no ``(주)`` or ``주식회사``,
    Latin letters upper-case."""
    return re.sub(r"\s+|\(주\)|주식회사", "", name).upper()


@lru_cache(maxsize=1)
def real_listed_names() -> frozenset[str]:
    """The names of real Korean listed companies (``data/real_listed_names.txt``, a fact list:
    see ``data/SOURCES.txt``), as :func:`name_key` spells them. From edition 7 the world never
    gives an invented company (or an invented builder) one of these names."""
    with open(DATA / "real_listed_names.txt", encoding="utf-8") as f:
        return frozenset(name_key(line) for line in f if line.strip())


@lru_cache(maxsize=1)
def real_name_stems() -> frozenset[str]:
    """Every real listed name (:func:`real_listed_names`) and, where it ends in one of the
    pool's ``corp_kinds``, the same name without that kind (서울반도체 → 서울)."""
    kinds = sorted((name_key(k) for k in pools()["corp_kinds"]), key=len, reverse=True)
    out = set(real_listed_names())
    for n in real_listed_names():
        kind = next((k for k in kinds if n.endswith(k) and len(n) > len(k)), None)
        if kind:
            out.add(n[: -len(kind)])
    return frozenset(out)


class WorldBase:
    """The seed, the per-collection generators and the cache every part of the world uses."""

    #: Detail collections (one district-month, one school-month, …) kept at most: the world
    #: stays memory-light however much a long recording asks of it.
    DETAIL_CACHE = 2048

    def __init__(self, seed: int = 0, edition: int = LATEST_EDITION) -> None:
        if edition not in EDITIONS:
            raise ValueError(f"unknown world edition {edition!r}: use one of {', '.join(map(str, EDITIONS))}")
        self.seed = int(seed)
        self.edition = int(edition)
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._detail: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    # ---- helpers -------------------------------------------------------------------
    def rng(self, *parts: object) -> random.Random:
        """A fresh generator for one collection: same seed and parts → same stream."""
        return random.Random("|".join([str(self.seed), *map(str, parts)]))

    def cached(self, key: tuple[Any, ...], build: Callable[[], T]) -> T:
        """``build()`` once per key (collections are generated lazily).

        Keys of one element (whole-world collections) are kept; longer keys (per district,
        school, month …) live in a bounded LRU and are rebuilt, identically, when evicted.
        """
        if len(key) == 1:
            try:
                return self._cache[key]  # type: ignore[no-any-return]
            except KeyError:
                value = build()
                self._cache[key] = value
                return value
        hit = self._detail.get(key, _MISSING)
        if hit is not _MISSING:
            self._detail.move_to_end(key)
            return hit  # type: ignore[no-any-return]
        value = build()
        self._detail[key] = value
        if len(self._detail) > self.DETAIL_CACHE:
            self._detail.popitem(last=False)
        return value
