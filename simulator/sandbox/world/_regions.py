"""Regions: the real MOIS legal-dong table (StanReginCd), districts and population.

The table is ``data/regions.txt`` (see ``data/SOURCES.txt``); a :class:`District` is a 시군구
that takes a MOLIT ``LAWD_CD``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ._core import DATA, WorldBase, pools

__all__ = ["COUNTY_SIBLINGS_EDITION", "District", "Region", "RegionsMixin"]

#: The edition from which a county whose code neighbours another's (충청북도 증평군 43745 beside
#: 영동군 43740) no longer hides it as if it were its 일반구: 영동군 is a district again (editions
#: 2-8 lack it, and the 22nd Assembly's 보은군옥천군영동군괴산군 covered three counties).
COUNTY_SIBLINGS_EDITION = 9
#: The districts :data:`COUNTY_SIBLINGS_EDITION` restores (43740 충청북도 영동군).
_RESTORED = frozenset({"43740"})


@dataclass(frozen=True, slots=True)
class Region:
    """One legal-dong code in force (a row of StanReginCd)."""

    code: str  # 10 digits
    name: str  # full name, "경기도 수원시 장안구 파장동"
    leaf: str  # last part, "파장동" (for 일반구 "장안구")
    adpt_de: str  # YYYYMMDD or ""
    high: str  # locathigh_cd (일반구 → the province, as the real API does)
    order: int  # locat_order: rank among siblings

    @property
    def sido_cd(self) -> str:
        return self.code[:2]

    @property
    def sgg_cd(self) -> str:
        return self.code[2:5]

    @property
    def umd_cd(self) -> str:
        return self.code[5:8]

    @property
    def ri_cd(self) -> str:
        return self.code[8:]

    @property
    def lawd_cd(self) -> str:
        return self.code[:5]

    @property
    def level(self) -> str:
        """``sido``, ``sigungu``, ``emd`` or ``ri``."""
        if self.code[2:] == "00000000":
            return "sido"
        if self.code[5:] == "00000":
            return "sigungu"
        if self.code[8:] == "00":
            return "emd"
        return "ri"


@dataclass(slots=True)
class District:
    """A 시군구 that takes a ``LAWD_CD`` (MOLIT), with its 읍면동."""

    lawd_cd: str
    name: str  # without the province: "강남구", "수원시 장안구", "세종특별자치시"
    region: Region
    sido: Region
    dongs: list[Region] = field(default_factory=list)
    #: Activity weight (≈ trades per month / 250): Seoul's busy 구 ≈ 1.5, a rural 군 ≈ 0.05.
    activity: float = 0.1

    @property
    def full_name(self) -> str:
        return self.region.name


@lru_cache(maxsize=1)
def _region_table() -> tuple[tuple[Region, ...], dict[str, Region]]:
    rows: list[tuple[str, str, str]] = []
    with open(DATA / "regions.txt", encoding="utf-8") as f:
        for line in f:
            code, leaf, adpt = line.rstrip("\n").split("\t")
            rows.append((code, leaf, adpt))
    codes = {r[0] for r in rows}
    full: dict[str, str] = {}
    leaves: dict[str, str] = {}
    for code, leaf, _ in rows:  # sorted by code: parents come first
        if leaf.startswith("="):
            full[code] = leaf[1:]
            leaves[code] = leaf[1:].split(" ")[-1]
            continue
        parent = _naming_parent(code, codes)
        full[code] = leaf if parent is None else f"{full[parent]} {leaf}"
        leaves[code] = leaf.split(" ")[-1]
    high: dict[str, str] = {}
    for code, _, _ in rows:
        if code[2:] == "00000000":
            high[code] = ""
        elif code[5:] == "00000":
            high[code] = code[:2] + "00000000"
        elif code[8:] == "00":
            high[code] = code[:5] + "00000"
        else:
            high[code] = code[:8] + "00"
    order: dict[str, int] = {}
    count: dict[str, int] = {}
    for code, _, _ in rows:
        h = high[code]
        count[h] = count.get(h, 0) + 1
        order[code] = count[h]
    regions = tuple(
        Region(code, full[code], leaves[code], adpt, high[code], order[code]) for code, _, adpt in rows
    )
    return regions, {r.code: r for r in regions}


def _naming_parent(code: str, codes: set[str]) -> str | None:
    # Mirrors data/make_regions.py.
    if code[2:] == "00000000":
        return None
    if code[5:] == "00000":
        city = code[:4] + "0" + "00000"
        if city != code and city in codes:
            return city
        return code[:2] + "00000000"
    if code[8:] == "00":
        return code[:5] + "00000"
    return code[:8] + "00"


class RegionsMixin(WorldBase):
    """Legal-dong regions, districts and 주민등록 population (what every other part links to)."""

    def regions(self) -> list[Region]:
        return list(_region_table()[0])

    def region(self, code: str) -> Region | None:
        return _region_table()[1].get(code)

    def sidos(self) -> list[Region]:
        return self.cached(("sidos",), lambda: [
            r for r in _region_table()[0] if r.level == "sido" and r.sido_cd in pools()["sido_short"]])

    def sido_short(self, sido_cd: str) -> str:
        return str(pools()["sido_short"].get(sido_cd, ""))

    def districts(self) -> list[District]:
        return self.cached(("districts",), self._build_districts)

    def entity_districts(self) -> list[District]:
        """The districts the world's entities (companies, schools, ordinances, tour spots, bids)
        are drawn over: edition 8's list, without 영동군 (:data:`COUNTY_SIBLINGS_EDITION`), so
        every entity keeps its name and code and a recorded key still answers; the district list,
        lookups, elections and generated rows know 영동군 from edition 9."""
        if self.edition < COUNTY_SIBLINGS_EDITION:
            return self.districts()
        return self.cached(("entity_districts",), lambda: [d for d in self.districts() if d.lawd_cd not in _RESTORED])

    def district(self, lawd_cd: str) -> District | None:
        return self.cached(("district_index",), lambda: {d.lawd_cd: d for d in self.districts()}).get(lawd_cd)

    def district_by_name(self, sido_cd: str, name: str) -> District | None:
        """The district of a province by name ("강남구", "수원시 장안구", "수원시장안구")."""
        key = name.replace(" ", "")
        for d in self.districts():
            if d.sido.sido_cd == sido_cd and d.name.replace(" ", "") == key:
                return d
        return None

    def _build_districts(self) -> list[District]:
        regions, index = _region_table()
        sgg = [r for r in regions if r.level == "sigungu" and "출장" not in r.name]
        if self.edition >= COUNTY_SIBLINGS_EDITION:
            # a 일반구 is named after its city ("수원시 장안구" under "수원시"); 증평군 (43745) is
            # 영동군's (43740) neighbour in code only, not its 일반구
            named = {r.code: r.name for r in sgg}
            parents = {r.code[:4] + "0" for r in sgg if r.code[4] != "0"
                       and r.name.startswith(named.get(r.code[:4] + "000000", "\0") + " ")}
        else:
            parents = {r.code[:4] + "0" for r in sgg if r.code[4] != "0"}
        out: list[District] = []
        for r in sgg:
            if r.lawd_cd in parents and r.code[4] == "0":
                continue  # a city with 일반구: LAWD_CD wants the 구
            sido = index[r.sido_cd + "00000000"]
            name = r.name[len(sido.name) + 1 :] if r.name.startswith(sido.name + " ") else r.name
            out.append(District(r.lawd_cd, name, r, sido))
        by_lawd = {d.lawd_cd: d for d in out}
        for r in regions:
            if r.level == "emd" and r.lawd_cd in by_lawd:
                by_lawd[r.lawd_cd].dongs.append(r)
        for d in out:
            d.activity = self._activity(d)
        return out

    def _activity(self, d: District) -> float:
        rng = self.rng("activity", d.lawd_cd)
        sido = d.sido.sido_cd
        if sido == "11":
            base = 1.0 + (0.6 if d.lawd_cd in ("11680", "11710", "11350", "11500", "11650") else 0.0)
        elif sido == "41":
            base = 0.25 if d.name.endswith("군") else 0.8
        elif sido in ("26", "27", "28", "29", "30", "31", "36"):
            base = 0.12 if d.name.endswith("군") else 0.55
        else:
            base = 0.06 if d.name.endswith("군") else 0.35
        return round(base * rng.uniform(0.7, 1.3), 3)

    # ---- population (MOIS) ---------------------------------------------------------
    def population(self, code: str, ym: str) -> list[dict[str, str]]:
        """주민등록 인구 rows of a region and its children for one month (all strings)."""
        def build() -> list[dict[str, str]]:
            r = self.region(code)
            if not ("202210" <= ym <= "202512") or (r is not None and r.level == "ri"):
                return []
            if r is None:
                # A 행정동 code (e.g. 1168064000) is not a legal-dong code: answer for a
                # legal dong of its district, under the code asked for.
                d = self.district(code[:5])
                if d is None or not d.dongs or not code.isdigit() or len(code) != 10:
                    return []
                legal = d.dongs[int(code[5:8]) % len(d.dongs)]
                r = Region(code, legal.name, legal.leaf, legal.adpt_de, legal.high, legal.order)
            regions, _ = _region_table()
            kids = [x for x in regions if x.high == code and x.level != "ri"] or [r]
            rows = []
            for k in kids:
                rng = self.rng("population", k.code)
                people = int(rng.lognormvariate(9.5 if k.level == "emd" else 12, 0.5)) * (1 + (int(ym) % 97) // 1000)
                males = int(people * rng.uniform(0.48, 0.51))
                hh = int(people / rng.uniform(2.0, 2.5))
                parts = k.name.split(" ")
                rows.append({"ctpvNm": parts[0], "sggNm": " ".join(parts[1:2]) if len(parts) > 1 else "",
                             "dongNm": parts[2] if len(parts) > 2 else "", "liNm": "", "tong": "", "ban": "", "statsYm": ym,
                             "admmCd": k.code, "stdgCd": k.code, "stdgNm": k.leaf, "totNmprCnt": str(people), "hhCnt": str(hh),
                             "hhNmpr": f"{people / hh:.2f}", "maleNmprCnt": str(males), "femlNmprCnt": str(people - males),
                             "maleFemlRate": f"{males / (people - males):.2f}"})
            return rows
        return self.cached(("population", code, ym), build)
