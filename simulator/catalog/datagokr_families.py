"""The data.go.kr families as data (``datagokr_families.yaml``): which envelope a service speaks.

Every service behind ``apis.data.go.kr`` shares the gateway, but AirKorea puts ``body`` before
``header`` and answers ``NORMAL_CODE``, KMA answers ``NORMAL_SERVICE`` with ``dataType`` in the
body, RTMS drops the ``response`` wrapper and sends string counts, … (apis.md §3). A *family*
holds those facts once, read from the real bodies in ``shared/samples``; the catalog gives each
data.go.kr endpoint its family's options by host and path prefix, so a generated endpoint (which
declares no envelope) renders what the real service sends, and the sandbox serves it.

>>> fam = family_for("apis.data.go.kr", "/B552584/ArpltnInforInqireSvc/getMinuDustFrcstDspth")
>>> fam.name, fam.options["success"], fam.options["items"]
('airkorea', ['00', 'NORMAL_CODE'], 'bare')
>>> family_for("apis.data.go.kr", "/1613000/RTMSDataSvcLandTrade/getRTMSDataSvcLandTrade").name
'molit_rtms'
>>> family_for("apis.data.go.kr", "/6410000/busarrivalservice/v2/getBusArrivalItemv2") is None
True
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import CatalogError

__all__ = [
    "VARIANTS_FILE",
    "YEARBOOK_ENVELOPE_EDITION",
    "Family",
    "apply_family",
    "envelope_option_names",
    "families",
    "family_facts",
    "family_for",
    "family_named",
]

#: The family table, beside this module.
VARIANTS_FILE = Path(__file__).with_name("datagokr_families.yaml")

#: The world edition from which the sandbox serves the MOIS 행정안전통계연보 services in their
#: family's head/row envelope (family ``mois_yearbook``, ``from_edition`` in the table): the
#: versions up to ``kopa@v0009`` were recorded from editions that answered them in the generic
#: ``response/header/body`` shape, and editions 2–8 keep serving that, byte for byte.
YEARBOOK_ENVELOPE_EDITION = 9

_JsonType = Literal["string", "integer", "number", "boolean"]


class Family(BaseModel):
    """One data.go.kr family: where it applies, its envelope options and its field types."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    hosts: tuple[str, ...]
    #: Path prefixes (``/B552584/``, ``/1613000/RTMSDataSvc``); the longest match wins.
    prefixes: tuple[str, ...]
    #: Where the facts come from (sample files, apis.md sections); shown by ``catalog show``.
    source: str
    #: datagokr dialect options (the names of ``simulator/dialects/datagokr.py``'s docstring).
    options: dict[str, Any] = Field(default_factory=dict)
    #: Field-name regex → JSON type, for fields a generated endpoint left at ``string``.
    field_types: dict[str, _JsonType] = Field(default_factory=dict)
    #: Where records sit in the family's JSON envelope, for people (a generated endpoint's).
    record_path: str = ""
    #: The world edition from which the sandbox serves this family's envelope (None: always).
    #: A family learnt after versions were recorded in the generic shape: its endpoints keep
    #: the generic options and gain option ``late_family`` ``{name, edition}``; the datagokr
    #: dialect serves the family's options from that edition on and reads either shape back.
    from_edition: int | None = None

    @field_validator("prefixes")
    @classmethod
    def _rooted(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [p for p in v if not p.startswith("/")]
        if bad:
            raise ValueError(f"prefixes {bad!r} must start with '/' (a path prefix)")
        return v

    @field_validator("field_types")
    @classmethod
    def _regexes(cls, v: dict[str, str]) -> dict[str, str]:
        for pattern in v:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"field_types pattern {pattern!r} is not a regex: {exc}") from None
        return v

    def type_of(self, field: str) -> str | None:
        """The JSON type this family gives ``field``, or None."""
        for pattern, ftype in self.field_types.items():
            if re.search(pattern, field):
                return ftype
        return None


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal[1]
    families: list[Family]


@lru_cache(maxsize=1)
def families() -> tuple[Family, ...]:
    """Every family of the table (validated once per process)."""
    try:
        raw = yaml.safe_load(VARIANTS_FILE.read_text(encoding="utf-8"))
        table = _Table.model_validate(raw)
    except (yaml.YAMLError, ValidationError) as exc:
        raise CatalogError(f"family table {str(VARIANTS_FILE)!r} is invalid: {exc}") from None
    names = [f.name for f in table.families]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CatalogError(f"family table {str(VARIANTS_FILE)!r}: duplicate names {dupes}")
    return tuple(table.families)


@lru_cache(maxsize=4096)
def family_for(host: str, path: str) -> Family | None:
    """The family serving ``host`` + ``path`` (longest prefix), or None (the generic shape)."""
    host = host.lower()
    best: tuple[int, Family] | None = None
    for fam in families():
        if host not in fam.hosts:
            continue
        for prefix in fam.prefixes:
            if path.startswith(prefix) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), fam)
    return best[1] if best else None


@lru_cache(maxsize=1)
def envelope_option_names() -> frozenset[str]:
    """Every option name some family sets: what describes a family, not one endpoint."""
    return frozenset(k for fam in families() for k in fam.options) | {"family", "late_family"}


#: What the generator assumed of every data.go.kr envelope (its provenance says so).
_GENERIC_ASSUMPTION = "; response.body.items.item envelope; success 00"


def family_named(name: str) -> Family:
    """The family called ``name`` (``CatalogError`` if the table has none)."""
    for fam in families():
        if fam.name == name:
            return fam
    raise CatalogError(f"family table {str(VARIANTS_FILE)!r} has no family {name!r}")


def family_facts(name: str, provenance: dict[str, str], record_path: str) -> dict[str, Any]:
    """A generated endpoint's ``provenance`` and ``record_path`` once family ``name`` gives its
    envelope: the generic envelope is no longer assumed, the family is named."""
    fam = family_named(name)
    prov = dict(provenance)
    if fam.from_edition is not None:
        prov["envelope"] = (f"the generic data.go.kr envelope up to world edition {fam.from_edition - 1}; "
                            f"from edition {fam.from_edition} on, data.go.kr family {fam.name} ({fam.title}) "
                            "of simulator/catalog/datagokr_families.yaml")
        return {"provenance": prov, "record_path": record_path}
    if "assumed" in prov:
        prov["assumed"] = prov["assumed"].replace(_GENERIC_ASSUMPTION, "")
    prov["envelope"] = (f"data.go.kr family {fam.name} ({fam.title}) of "
                        "simulator/catalog/datagokr_families.yaml, from real bodies")
    return {"provenance": prov, "record_path": fam.record_path or record_path}


def apply_family(
    host: str,
    path: str,
    platform_options: dict[str, Any],
    own_options: dict[str, Any],
    fields: list[dict[str, Any]] | None = None,
    *,
    typed_by_hand: bool = True,
) -> dict[str, Any]:
    """The options of an endpoint at ``host`` + ``path``: its platform's, then its family's,
    then its own (each later one wins), with ``family`` naming the family. Fields of ``fields``
    that carry no ``type`` get the family's type where it names one, unless ``typed_by_hand``
    (a curated endpoint types its fields itself). ``fields`` is changed in place.
    """
    fam = family_for(host, path)
    if fam is None:
        return {**platform_options, **own_options}
    if fam.from_edition is not None:  # served from a later world edition (the dialect's view)
        return {**platform_options, **own_options,
                "late_family": {"name": fam.name, "edition": fam.from_edition}}
    if fields and not typed_by_hand:
        for f in fields:
            if "type" not in f:
                ftype = fam.type_of(str(f.get("name", "")))
                if ftype is not None:
                    f["type"] = ftype
    return {**platform_options, **fam.options, "family": fam.name, **own_options}
