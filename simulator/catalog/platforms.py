"""One platform per real provider: which catalog file's endpoints belong to which platform.

The catalog is read from *parts* (files): the hand-made ``data/<id>.yaml`` and the generated
``generated/gen_<id>.json``. A *platform* is the real API provider (DESIGN §3): OpenDART's
curated and generated endpoints are all platform ``opendart``; whether an endpoint is
curated, generated or inferred is its :attr:`Endpoint.tier`. Parts stay what cassette data
files (``collections/gen_opendart.jsonl``) and sandbox generators are keyed on, so a
version recorded before platforms were merged replays byte for byte.

Generated part → platform (the data.go.kr ones by the agency code that leads their path,
as the real gateway names its providers):

=============== ========== ==========================================================
part            platform   real provider
=============== ========== ==========================================================
gen_opendart    opendart   금융감독원 OpenDART (opendart.fss.or.kr)
gen_lawgokr     lawgokr    법제처 국가법령정보 DRF (www.law.go.kr)
gen_assembly    assembly   열린국회정보 (open.assembly.go.kr)
gen_neis        neis       나이스 교육정보 개방 포털 (open.neis.go.kr)
gen_nec         nec        중앙선거관리위원회, data.go.kr agency 9760000
gen_fsc         fsc        금융위원회, data.go.kr agency 1160100
gen_molit       molit      국토교통부, data.go.kr agencies 1613000 / 1611000
gen_tago        tago       국토교통부 국가대중교통정보센터 (TAGO services of 1613000)
gen_mois        mois       행정안전부, data.go.kr agency 1741000
gen_kma         kma        기상청, data.go.kr agency 1360000
gen_airkorea    airkorea   한국환경공단 에어코리아, data.go.kr agency B552584
gen_pps         pps        조달청, data.go.kr agency 1230000
gen_kasi        kasi       한국천문연구원, data.go.kr agency B090041
=============== ========== ==========================================================

The curated ``datagokr_misc`` file mixes agencies; each of its endpoints goes to its agency's
platform (``kma``, ``airkorea``, ``pps``, ``kasi``, and ``kto`` for 한국관광공사 TourAPI,
B551011, ``molit`` for the K-apt services and ``semas`` for 소상공인시장진흥공단, B553077).
Any other generated part ``gen_<x>`` (the ``all`` tier's ``gen_org_…``) is
platform ``<x>``.

Old platform ids (``gen_opendart``, ``datagokr_misc``) keep working where a user may have
stored them: :func:`resolve_platforms` reads them as the new ids and says so.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import CatalogError

__all__ = [
    "AGENCY_PLATFORMS",
    "MIXED_PART",
    "PLATFORM_NAMES",
    "platform_aliases",
    "platform_for",
    "resolve_platforms",
]

#: The curated file that mixes data.go.kr agencies (its endpoints go by agency code).
MIXED_PART = "datagokr_misc"

#: data.go.kr agency code (first path segment) → platform, for the mixed curated file.
AGENCY_PLATFORMS: dict[str, str] = {
    "1360000": "kma",
    "B552584": "airkorea",
    "1230000": "pps",
    "B090041": "kasi",
    "B551011": "kto",
    "1613000": "molit",  # the K-apt services kopa@v0007 added (AptListService4, AptBasisInfoServiceV5)
    "B553077": "semas",
}

#: Platforms with no curated file of their own: (English name, Korean name, domain).
PLATFORM_NAMES: dict[str, tuple[str, str, str]] = {
    "kma": ("Korea Meteorological Administration (data.go.kr)", "기상청 (공공데이터포털)", "district"),
    "airkorea": ("Korea Environment Corporation AirKorea (data.go.kr)", "한국환경공단 에어코리아 (공공데이터포털)",
                 "district"),
    "pps": ("Public Procurement Service (data.go.kr)", "조달청 (공공데이터포털)", "finance"),
    "kasi": ("Korea Astronomy and Space Science Institute (data.go.kr)", "한국천문연구원 (공공데이터포털)", "district"),
    "kto": ("Korea Tourism Organization TourAPI (data.go.kr)", "한국관광공사 TourAPI (공공데이터포털)", "district"),
    "semas": ("Small Enterprise and Market Service (data.go.kr)", "소상공인시장진흥공단 (공공데이터포털)", "district"),
}


def platform_for(part: str, path: str = "") -> str:
    """The real platform of an endpoint read from catalog file ``part`` at URL ``path``.

    >>> platform_for("gen_opendart"), platform_for("opendart")
    ('opendart', 'opendart')
    >>> platform_for("datagokr_misc", "/1360000/MidFcstInfoService/getMidTa")
    'kma'
    """
    if part == MIXED_PART:
        agency = path.strip("/").split("/", 1)[0]
        return AGENCY_PLATFORMS.get(agency, part)
    return part.removeprefix("gen_")


def platform_aliases(parts: Iterable[str], platforms: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Old ids (catalog parts that are not platforms) → the platforms their endpoints are in."""
    real = set(platforms)
    out: dict[str, tuple[str, ...]] = {}
    for part in parts:
        if part in real:
            continue
        if part == MIXED_PART:
            out[part] = tuple(sorted(p for p in set(AGENCY_PLATFORMS.values()) if p in real))
        else:
            out[part] = (platform_for(part),)
    return out


def resolve_platforms(
    names: Iterable[str], known: Iterable[str], aliases: dict[str, tuple[str, ...]]
) -> tuple[list[str], list[str]]:
    """Platform ids for ``names`` (old ids read as their new ones) and one note per old id.

    Raises:
        CatalogError: a name that is neither a platform nor an old id, listing the platforms.
    """
    real = list(known)
    ids: list[str] = []
    notes: list[str] = []
    for name in names:
        if name in real:
            new: tuple[str, ...] = (name,)
        elif name in aliases or name.startswith("gen_") and name.removeprefix("gen_") in real:
            new = aliases.get(name) or (name.removeprefix("gen_"),)
            notes.append(
                f"platform id {name!r} is deprecated: its tools are platform {', '.join(map(repr, new))} "
                "(curated and generated tools of one provider are one platform; the tier is an "
                "attribute); use " + " ".join(f"--platform {p}" for p in new)
            )
        else:
            raise CatalogError(
                f"unknown platform={name!r}; choose one of {', '.join(sorted(real))} "
                "(`simulator catalog stats` counts tools per platform)"
            )
        ids += [p for p in new if p not in ids]
    return ids, notes
