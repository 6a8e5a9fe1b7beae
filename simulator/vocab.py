"""The closed vocabularies every package shares, one ``StrEnum`` each (STYLE principle 18).

Each member's value is the string the data files, cassettes, task files and reports already
hold, and a member equals its value (``Role.AUTH == "auth"``), so files read and write the
same text and code may compare with plain strings.

>>> Role("page_size") is Role.PAGE_SIZE, MissPolicy.STRICT == "strict"
(True, True)
>>> [p.value for p in MainPlatform][:3]
['tago', 'seoul', 'opendart']
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Domain", "Junction", "MainPlatform", "MissPolicy", "Role"]


class Role(StrEnum):
    """What a request parameter does (``Param.role``; the catalog models explain each)."""

    AUTH = "auth"
    PAGE = "page"
    PAGE_SIZE = "page_size"
    RANGE_START = "range_start"
    RANGE_END = "range_end"
    FORMAT = "format"
    FILTER = "filter"
    PLAIN = "plain"
    IGNORE = "ignore"
    ORDER = "order"


class MissPolicy(StrEnum):
    """What the resolver answers when no recording does (``Resolver(miss=...)``)."""

    #: A simulator error naming the nearest recordings (adapters raise ``ReplayMiss``).
    STRICT = "strict"
    #: The platform's own no-data body.
    NATIVE = "native"
    #: Forwarded to the live API and recorded.
    LIVE = "live"


class Junction(StrEnum):
    """How the calls of a multi-step program join (EDGE synthesis and KOPA-Bench tags)."""

    SEQ = "SEQ"
    FAN = "FAN"
    DRV = "DRV"
    SEM = "SEM"
    CMP = "CMP"
    COND = "COND"


class Domain(StrEnum):
    """The six domains of the benchmark (``Platform.domain``)."""

    TRAFFIC = "traffic"
    FINANCE = "finance"
    EDUCATION = "education"
    LAW = "law"
    POLITICS = "politics"
    DISTRICT = "district"


class MainPlatform(StrEnum):
    """The ten platforms of the paper's benchmark (catalog platform ids)."""

    TAGO = "tago"
    SEOUL = "seoul"
    OPENDART = "opendart"
    FSC = "fsc"
    NEIS = "neis"
    LAWGOKR = "lawgokr"
    ASSEMBLY = "assembly"
    NEC = "nec"
    MOIS = "mois"
    MOLIT = "molit"
