"""Addresses (juso): road-name addresses of a district, keyed by legal-dong code."""

from __future__ import annotations

from ._names import _stem
from ._regions import RegionsMixin

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
            sido = d.sido.name
            for dong in d.dongs:
                road = f"{_stem(dong.leaf)}{rng.choice(['로', '대로', '길'])}"
                for _ in range(rng.randint(3, 12)):
                    main, sub = rng.randint(1, 400), rng.choice([0, 0, 0, rng.randint(1, 30)])
                    num = f"{main}" + (f"-{sub}" if sub else "")
                    lot = rng.randint(1, 900)
                    bd = rng.choice(["", "", f"{_stem(dong.leaf)}빌딩", f"{dong.leaf}주민센터", f"{_stem(dong.leaf)}아파트"])
                    ri = ""
                    part1 = f"{d.full_name} {road} {num}"
                    part2 = f" ({dong.leaf}{', ' + bd if bd else ''})"
                    rows.append({"roadAddr": part1 + part2, "roadAddrPart1": part1, "roadAddrPart2": part2,
                                 "jibunAddr": f"{dong.name} {lot}", "engAddr": f"{num} {road}, {dong.leaf}, {d.name}, {sido}",
                                 "zipNo": f"{rng.randint(1000, 63999):05d}", "admCd": dong.code,
                                 "rnMgtSn": f"{lawd_cd}{rng.randint(3_000_000, 4_999_999)}", "bdMgtSn": f"{dong.code}1{lot:04d}{sub:05d}{rng.randint(0, 99999):06d}"[:25],
                                 "detBdNmList": "", "bdNm": bd, "bdKdcd": "1" if "아파트" in bd else "0", "siNm": sido,
                                 "sggNm": d.name, "emdNm": dong.leaf, "liNm": ri, "rn": road, "udrtYn": "0",
                                 "buldMnnm": str(main), "buldSlno": str(sub), "mtYn": "0", "lnbrMnnm": str(lot), "lnbrSlno": "0",
                                 "emdNo": "01"})
            return rows
        return self.cached(("juso", lawd_cd), build)
