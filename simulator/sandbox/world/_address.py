"""Addresses (juso): road-name addresses of a district, keyed by legal-dong code."""

from __future__ import annotations

import random

from ._names import _stem
from ._regions import District, Region, RegionsMixin

__all__ = ["AddressMixin"]


class AddressMixin(RegionsMixin):
    """Road-name addresses whose ``admCd`` is a real legal-dong code."""

    def addresses(self, lawd_cd: str) -> list[dict[str, str]]:
        """Road-name addresses (juso fields) of a district; ``admCd`` is the legal-dong code."""
        def build() -> list[dict[str, str]]:
            d = self.district(lawd_cd)
            if d is None:
                return []
            rng = self.rng("juso", lawd_cd)
            rows = []
            for dong in d.dongs:
                road = f"{_stem(dong.leaf)}{rng.choice(['로', '대로', '길'])}"
                for _ in range(rng.randint(3, 12)):
                    main, sub = rng.randint(1, 400), rng.choice([0, 0, 0, rng.randint(1, 30)])
                    rows.append(_address(rng, d, dong, road, main, sub))
            return rows
        return self.cached(("juso", lawd_cd), build)

    def address_at(self, lawd_cd: str, road: str, main: int, sub: int = 0) -> dict[str, str] | None:
        """Edition 7: the road-name address a full keyword names (``서울특별시 종로구 세종대로 209``)
        when the district's own addresses lack it: in the dong whose name the road's stem leads
        (세종대로 → 세종로), else one drawn for the road; its other values drawn like the rest."""
        d = self.district(lawd_cd)
        if d is None or not d.dongs:
            return None
        rng = self.rng("juso_at", lawd_cd, road, main, sub)
        stem = road[:-2] if road.endswith("대로") else road[:-1]
        dong = next((x for x in d.dongs if stem and x.leaf.startswith(stem)), None) or rng.choice(d.dongs)
        row = _address(rng, d, dong, road, main, sub)
        lo, hi = _ZIP_RANGES.get(d.sido.sido_cd, (1, 63))
        zip_no = f"{rng.randint(lo * 1000, hi * 1000 + 999):05d}"
        part2 = f" ({dong.leaf})"  # no building name is made up for an address a client names
        return {**row, "roadAddr": row["roadAddrPart1"] + part2, "roadAddrPart2": part2, "bdNm": "", "bdKdcd": "0",
                "zipNo": zip_no}


#: The first two digits of the 5-digit postal codes of each 시도 (the published ranges).
_ZIP_RANGES = {"11": (1, 8), "26": (46, 49), "27": (41, 43), "28": (21, 23), "29": (61, 62), "30": (34, 35),
               "31": (44, 45), "36": (30, 30), "41": (10, 18), "42": (24, 26), "51": (24, 26), "43": (27, 29),
               "44": (31, 33), "45": (54, 56), "52": (54, 56), "46": (57, 59), "47": (36, 40), "48": (50, 53),
               "50": (63, 63)}


def _address(rng: random.Random, d: District, dong: Region, road: str, main: int, sub: int) -> dict[str, str]:
    num = f"{main}" + (f"-{sub}" if sub else "")
    lot = rng.randint(1, 900)
    bd = rng.choice(["", "", f"{_stem(dong.leaf)}빌딩", f"{dong.leaf}주민센터", f"{_stem(dong.leaf)}아파트"])
    ri = ""
    sido = d.sido.name
    part1 = f"{d.full_name} {road} {num}"
    part2 = f" ({dong.leaf}{', ' + bd if bd else ''})"
    return {"roadAddr": part1 + part2, "roadAddrPart1": part1, "roadAddrPart2": part2,
            "jibunAddr": f"{dong.name} {lot}", "engAddr": f"{num} {road}, {dong.leaf}, {d.name}, {sido}",
            "zipNo": f"{rng.randint(1000, 63999):05d}", "admCd": dong.code,
            "rnMgtSn": f"{d.lawd_cd}{rng.randint(3_000_000, 4_999_999)}", "bdMgtSn": f"{dong.code}1{lot:04d}{sub:05d}{rng.randint(0, 99999):06d}"[:25],
            "detBdNmList": "", "bdNm": bd, "bdKdcd": "1" if "아파트" in bd else "0", "siNm": sido,
            "sggNm": d.name, "emdNm": dong.leaf, "liNm": ri, "rn": road, "udrtYn": "0",
            "buldMnnm": str(main), "buldSlno": str(sub), "mtYn": "0", "lnbrMnnm": str(lot), "lnbrSlno": "0",
            "emdNo": "01"}
