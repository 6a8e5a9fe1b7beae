"""The sandbox world: a seeded, deterministic model of linked Korean public entities.

``World(seed)`` is cheap to create; every collection is generated on first use from its own
``random.Random`` (seeded with the world seed and the collection's name and key, never the
global generator) and cached, so the same seed gives the same data in any process and in any
call order, and a different seed gives different data. The legal-dong table is real
(``data/regions.txt``, see ``data/SOURCES.txt``); everything else is synthetic but shaped
like the real APIs and linked by real-format codes.

The world's "today" is ``TODAY`` (2025-12-31): nothing reads the wall clock.

World API (what the per-platform generators in ``simulator.sandbox.gen`` read)
------------------------------------------------------------------------------

Records are plain dicts keyed by the native field names of the platform that serves them
(generators project them onto the catalog's fields); values are strings unless noted.

Regions (MOIS 법정동코드, real)
    ``regions()`` → every code in force (20,570 :class:`Region`: 시도, 시군구, 읍면동, 리);
    ``region(code)``; ``sidos()`` (17); ``sido_short(sido_cd)`` → "서울";
    ``districts()`` → the ~250 :class:`District` that take a ``LAWD_CD`` (자치구, 일반구, 시, 군 —
    not a city that has 일반구); ``district(lawd_cd)``; ``district_by_name(sido_cd, name)``.
Real estate (MOLIT RTMS)
    ``apartments(lawd_cd)``; ``apt_trades(lawd_cd, "YYYYMM")`` and ``apt_rents(...)`` →
    RTMS-named dicts (``dealAmount`` "164,000" 만원, blanks " "), hundreds per busy
    district-month, for ``TRADE_MONTHS`` (2024-01 … 2025-12) only.
Finance (OpenDART, FSC)
    ``companies()`` (6,000; 2,400 listed) / ``company(corp_code)`` / ``company_by_stock(code)``
    → dicts with ``corp_code`` (8 digits), ``stock_code`` (6 digits or " "), ``corp_cls``,
    ``isin``, … ; ``filings(corp_code)`` / ``all_filings()`` (list.json rows,
    ``rcept_no`` = YYYYMMDD + 6 digits); ``accounts(corp_code, year, reprt_code)``
    (fnlttSinglAcnt rows); ``major_shareholders(corp_code)``; ``executive_holdings(corp_code)``;
    ``business_days(begin, end)``; ``stock_prices(basDt)`` (every listed company that day,
    FSC-named string fields) and ``stock_history(srtn_cd)``; ``PRICE_DAYS``.
Politics (NEC, National Assembly)
    ``elections()`` (선거코드 rows); ``constituencies(sgId, sgTypecode)`` (선거구 rows, each
    with ``lawd_cds``); ``candidates(sgId, sgTypecode)``; ``winners(...)``; ``turnout(...)``;
    ``members()`` (the 300 members of the 22nd Assembly: NEC winners of 20240410 type 2 and
    7 with ``MONA_CD``, ``ORIG_NM`` = "서울 강남구갑", ``huboid``); ``member(mona_cd)``;
    ``bills()`` (AGE 22, ``BILL_ID``, ``BILL_NO``, ``PROPOSER``, ``RST_MONA_CD``);
    ``votes(bill_id)`` (~275 rows per voted bill; ``vote_choices`` for cheap tallies); ``committees()``;
    ``committee_members(dept_cd | None)``.
Education (NEIS)
    ``offices()``; ``schools()`` (~11,000, names repeat across regions) / ``school(code)``;
    ``meals(school_code, "YYYYMM")``; ``schedule(school_code, year)``;
    ``classes(school_code, year)``; ``timetable(school_code, "YYYYMMDD")`` (high schools).
Traffic (TAGO, Seoul)
    ``bus_cities()`` (real TAGO city list); ``bus_stations(citycode)``;
    ``bus_routes(citycode)``; ``route_stops(citycode, routeid)``;
    ``station_routes(citycode, nodeid)``; ``bus_arrivals(citycode, nodeid)``;
    ``subway_stations()`` (real Seoul lines/names); ``subway_arrivals(statnNm)``;
    ``public_wifi()`` (25,000+ rows).
Law (law.go.kr)
    ``laws()`` (1,500+), ``precedents()`` (3,000+), ``ordinances()`` (per local
    government, names reference regions); each row carries its detail text.
Extras
    ``addresses(lawd_cd)`` (juso rows, ``admCd`` = legal-dong code); ``population(code, ym)``
    (a region and its children, 2022-10 … 2025-12; a 행정동 code maps onto its district);
    ``ecos_tables()``, ``ecos_items(stat_code)``, ``ecos_series(stat_code, item_code, cycle)``.

Helpers: ``rng(*parts)`` (a fresh seeded ``random.Random``) and ``cached(key, build)``
(whole-world collections are kept; per-key detail collections live in a bounded LRU and are
rebuilt identically after eviction, so a long recording does not grow memory without bound).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

import yaml
from collections import OrderedDict

__all__ = ["District", "Region", "TODAY", "TRADE_MONTHS", "PRICE_DAYS", "World"]

DATA = Path(__file__).parent / "data"
_MISSING = object()
TODAY = date(2025, 12, 31)
T = TypeVar("T")

#: Months with RTMS data (YYYYMM).
TRADE_MONTHS = [f"{y}{m:02d}" for y in (2024, 2025) for m in range(1, 13)]

#: Public holidays of 2024–2025 (MMDD by year): no trading, no school.
_HOLIDAYS = {
    2024: {"0101", "0209", "0210", "0211", "0212", "0301", "0410", "0501", "0506", "0515",
           "0606", "0815", "0916", "0917", "0918", "1001", "1003", "1009", "1225", "1231"},
    2025: {"0101", "0127", "0128", "0129", "0130", "0303", "0501", "0505", "0506", "0603",
           "0606", "0815", "1003", "1006", "1007", "1008", "1009", "1225", "1231"},
}


def _ymd(d: date) -> str:
    return d.strftime("%Y%m%d")


def _parse(ymd: str) -> date:
    return date(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:8]))


def is_business_day(d: date) -> bool:
    return d.weekday() < 5 and d.strftime("%m%d") not in _HOLIDAYS.get(d.year, set())


def _next_business_day(d: date) -> date:
    while not is_business_day(d):
        d += timedelta(1)
    return d


def _days(begin: date, end: date) -> list[date]:
    return [begin + timedelta(n) for n in range((end - begin).days + 1)]


#: FSC trading days (YYYYMMDD) of the world: 2025's business days.
PRICE_DAYS = [_ymd(d) for d in _days(date(2025, 1, 2), date(2025, 12, 30)) if is_business_day(d)]


def comma(n: int) -> str:
    """``1234567`` → ``"1,234,567"`` (the OpenDART / RTMS amount style)."""
    return f"{n:,}"


@lru_cache(maxsize=1)
def pools() -> dict[str, Any]:
    """The hand-written word pools (``data/pools.yaml``)."""
    with open(DATA / "pools.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- regions


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


# --------------------------------------------------------------------------- names


def person_name(rng: random.Random) -> str:
    p = pools()
    return rng.choice(p["surnames"]) + rng.choice(p["given"]) + rng.choice(p["given"])


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


def isin(stock_code: str) -> str:
    """The ISIN of a Korean common share: ``KR7`` + code + ``00`` + check digit (Luhn)."""
    body = f"KR7{stock_code}00"
    digits = "".join(str(int(ch, 36)) for ch in body)
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return body + str((10 - total % 10) % 10)


# --------------------------------------------------------------------------- the world


class World:
    """A deterministic model of linked entities; see the module docstring for the API.

    >>> w = World(seed=7)
    >>> w.region("1168000000").name
    '서울특별시 강남구'
    >>> w.district("11680").lawd_cd
    '11680'
    """

    #: Detail collections (one district-month, one school-month, …) kept at most: the world
    #: stays memory-light however much a long recording asks of it.
    DETAIL_CACHE = 2048

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
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

    # ---- regions -------------------------------------------------------------------
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

    # ---- real estate ---------------------------------------------------------------
    def apartments(self, lawd_cd: str) -> list[dict[str, Any]]:
        """Apartment complexes of a district (``aptNm``, ``umdNm``, ``buildYear``, …)."""
        return self.cached(("apartments", lawd_cd), lambda: self._build_apartments(lawd_cd))

    def _build_apartments(self, lawd_cd: str) -> list[dict[str, Any]]:
        d = self.district(lawd_cd)
        if d is None or not d.dongs:
            return []
        rng = self.rng("apartments", lawd_cd)
        p = pools()
        dongs = [r for r in d.dongs if r.leaf.endswith(("동", "가", "읍", "로"))] or d.dongs
        n = int(15 + d.activity * 110)
        out = []
        seen: set[str] = set()
        road_base = rng.randrange(3_000_000, 4_900_000)
        for i in range(n):
            dong = rng.choice(dongs)
            for _ in range(10):
                brand = rng.choice(p["apt_brands"])
                style = rng.random()
                stem = _stem(dong.leaf)
                if style < 0.45:
                    nm = f"{stem}{brand}{rng.choice(p['apt_suffixes'])}"
                elif style < 0.75:
                    nm = f"{brand}{rng.choice(['', stem])}{rng.choice(p['apt_suffixes'])}"
                else:
                    nm = f"{stem}{rng.choice(['주공', '현대', '삼익', '우성', '한양', '신동아', '상록'])}{rng.randint(1, 12)}단지"
                if nm not in seen:
                    break
            seen.add(nm)
            year = rng.choice([rng.randint(1978, 1999), rng.randint(2000, 2015), rng.randint(2010, 2024)])
            areas = sorted(rng.sample(p["apt_areas"], rng.randint(2, 4)))
            bonbun = rng.randint(1, 999)
            out.append({
                "aptNm": nm, "aptSeq": f"{lawd_cd}-{i + 1}", "umdNm": dong.leaf, "umdCd": dong.code[5:10],
                "dongCode": dong.code, "jibun": str(bonbun) if rng.random() < 0.7 else f"{bonbun}-{rng.randint(1, 30)}",
                "bonbun": f"{bonbun:04d}", "bubun": "0000", "buildYear": str(year), "areas": areas,
                "roadNm": f"{_stem(dong.leaf)}{rng.choice(['로', '대로', '길'])}" + (f"{rng.randint(1, 40)}길" if rng.random() < 0.5 else ""),
                "roadNmBonbun": f"{rng.randint(1, 500):05d}", "roadNmCd": str(road_base + i * 7),
                "households": rng.randint(80, 3000), "price_factor": rng.uniform(0.6, 1.6),
                "dongs": rng.randint(1, 30),
            })
        return out

    def _price_per_m2(self, d: District) -> float:
        """만원 per m² (Gangnam ≈ 2,300; a rural 군 ≈ 250)."""
        rng = self.rng("ppm2", d.lawd_cd)
        top = {"11650": 2600, "11680": 2500, "11710": 1900, "11170": 1800, "11440": 1500, "11200": 1400}
        if d.lawd_cd in top:
            return top[d.lawd_cd] * rng.uniform(0.95, 1.05)
        sido = d.sido.sido_cd
        base = {"11": 1100, "41": 600, "28": 450, "26": 450, "27": 400, "30": 400, "29": 350, "31": 350, "36": 450}.get(sido, 250)
        return base * rng.uniform(0.6, 1.4)

    def _deal_count(self, d: District, ym: str, kind: str) -> int:
        rng = self.rng("deals", kind, d.lawd_cd, ym)
        month = int(ym[4:])
        season = 1.0 + 0.25 * (month in (3, 4, 5, 10)) - 0.2 * (month in (1, 8, 12))
        trend = 1.0 + 0.15 * (ym >= "202503")
        factor = 1.0 if kind == "trade" else 1.4
        return max(0, int(250 * d.activity * season * trend * factor * rng.uniform(0.8, 1.2)))

    def apt_trades(self, lawd_cd: str, ym: str) -> list[dict[str, str]]:
        """RTMS apartment trades of one district-month (empty outside ``TRADE_MONTHS``)."""
        return self.cached(("apt_trades", lawd_cd, ym), lambda: self._build_deals(lawd_cd, ym, "trade"))

    def apt_rents(self, lawd_cd: str, ym: str) -> list[dict[str, str]]:
        """RTMS apartment rents (전월세) of one district-month."""
        return self.cached(("apt_rents", lawd_cd, ym), lambda: self._build_deals(lawd_cd, ym, "rent"))

    def _build_deals(self, lawd_cd: str, ym: str, kind: str) -> list[dict[str, str]]:
        d = self.district(lawd_cd)
        if d is None or ym not in TRADE_MONTHS:
            return []
        apts = self.apartments(lawd_cd)
        if not apts:
            return []
        rng = self.rng(kind, lawd_cd, ym)
        n = self._deal_count(d, ym, kind)
        year, month = int(ym[:4]), int(ym[4:])
        last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(1)).day
        ppm2 = self._price_per_m2(d) * (1 + 0.004 * (TRADE_MONTHS.index(ym)))
        short = f"{self.sido_short(d.sido.sido_cd)} {d.name.split(' ')[0]}"
        weights = [a["households"] for a in apts]
        out = []
        for _ in range(n):
            a = rng.choices(apts, weights)[0]
            area = rng.choice(a["areas"])
            age = max(0, year - int(a["buildYear"]))
            price = ppm2 * area * a["price_factor"] * (1.25 if age > 35 else 1.0 - 0.006 * min(age, 30))
            price *= rng.uniform(0.9, 1.1)
            floor = rng.randint(1, 25) if rng.random() > 0.02 else -1
            day = rng.randint(1, last)
            rec: dict[str, str] = {
                "aptDong": str(rng.randint(101, 100 + a["dongs"])) if rng.random() < 0.4 else " ",
                "aptNm": a["aptNm"], "aptSeq": a["aptSeq"], "bonbun": a["bonbun"], "bubun": a["bubun"],
                "buildYear": a["buildYear"],
            }
            if kind == "trade":
                cancelled = rng.random() < 0.03
                amount = max(3000, int(round(price / 50.0)) * 50)
                reg = date(year, month, day) + timedelta(rng.randint(5, 40))
                rec.update({
                    "buyerGbn": rng.choice(["개인", "개인", "개인", "법인", "기타"]),
                    "cdealDay": f"{(month % 12) + 1:02d}.{rng.randint(1, 28):02d}" if cancelled else " ",
                    "cdealType": "O" if cancelled else " ",
                    "dealAmount": comma(amount),
                    "dealDay": str(day), "dealMonth": str(month), "dealYear": str(year),
                    "dealingGbn": "중개거래" if rng.random() < 0.88 else "직거래",
                    "estateAgentSggNm": short if rng.random() < 0.88 else " ",
                    "excluUseAr": f"{area:g}", "floor": str(floor), "jibun": a["jibun"],
                    "landCd": "1", "landLeaseholdGbn": "N",
                    "rgstDate": reg.strftime("%y.%m.%d") if reg <= TODAY and rng.random() < 0.7 else " ",
                    "roadNm": a["roadNm"], "roadNmBonbun": a["roadNmBonbun"], "roadNmBubun": "00000",
                    "roadNmCd": a["roadNmCd"], "roadNmSeq": "01", "roadNmSggCd": lawd_cd, "roadNmbCd": "0",
                    "sggCd": lawd_cd, "slerGbn": rng.choice(["개인", "개인", "개인", "법인"]),
                    "umdCd": a["umdCd"], "umdNm": a["umdNm"],
                })
            else:
                monthly = rng.random() < 0.45
                deposit = int(price * (0.25 if monthly else 0.6) * rng.uniform(0.8, 1.2) / 100) * 100
                rent = int(price * 0.0025 * rng.uniform(0.6, 1.4)) if monthly else 0
                renewed = rng.random() < 0.3
                start = date(year, month, 1)
                rec.update({
                    "contractTerm": f"{start.strftime('%y.%m')}~{(start.year + 2) % 100:02d}.{start.month:02d}",
                    "contractType": "갱신" if renewed else ("신규" if rng.random() < 0.8 else " "),
                    "dealDay": str(day), "dealMonth": str(month), "dealYear": str(year),
                    "deposit": comma(max(500, deposit)), "excluUseAr": f"{area:g}", "floor": str(max(1, floor)),
                    "jibun": a["jibun"], "monthlyRent": str(rent),
                    "preDeposit": comma(int(deposit * 0.95)) if renewed else " ",
                    "preMonthlyRent": str(int(rent * 0.95)) if renewed else " ",
                    "roadnm": a["roadNm"], "roadnmbonbun": a["roadNmBonbun"], "roadnmbubun": "00000",
                    "roadnmcd": a["roadNmCd"], "roadnmseq": "01", "roadnmsggcd": lawd_cd, "roadnmbcd": "0",
                    "sggCd": lawd_cd, "umdNm": a["umdNm"], "useRRRight": "사용" if renewed and rng.random() < 0.5 else " ",
                })
            out.append(rec)
        out.sort(key=lambda r: (r["umdNm"], r["aptNm"], int(r["dealDay"])))
        return out

    # ---- finance -------------------------------------------------------------------
    def companies(self) -> list[dict[str, Any]]:
        """Every company of CORPCODE.xml: the real big ones first, then generated ones."""
        return self.cached(("companies",), self._build_companies)

    def company(self, corp_code: str) -> dict[str, Any] | None:
        return self.cached(("company_index",), lambda: {c["corp_code"]: c for c in self.companies()}).get(corp_code)

    def company_by_stock(self, stock_code: str) -> dict[str, Any] | None:
        idx = self.cached(
            ("company_stock_index",),
            lambda: {c["stock_code"]: c for c in self.companies() if c["stock_code"].strip()},
        )
        return idx.get(stock_code)

    def listed_companies(self) -> list[dict[str, Any]]:
        return self.cached(("listed",), lambda: [c for c in self.companies() if c["stock_code"].strip()])

    def _build_companies(self) -> list[dict[str, Any]]:
        rng = self.rng("companies")
        p = pools()
        districts = [d for d in self.districts() if d.dongs]
        heavy = [d for d in districts if d.sido.sido_cd in ("11", "41")]
        out: list[dict[str, Any]] = []
        used_corp: set[str] = set()
        used_stock: set[str] = set()
        used_names: set[str] = set()
        for corp, stock, name, eng, market, ind in p["companies"]:
            used_corp.add(corp)
            used_stock.add(stock)
            used_names.add(name)
            out.append(self._company(rng, corp, stock, name, eng, market, ind, heavy))
        markets = ["KOSPI"] * 800 + ["KOSDAQ"] * 1480 + ["KONEX"] * 100
        rng.shuffle(markets)
        total = 6000
        for i in range(total - len(out)):
            while True:
                corp = f"{rng.randrange(100_000, 1_700_000):08d}"
                if corp not in used_corp:
                    break
            used_corp.add(corp)
            while True:
                name = rng.choice(p["corp_words"]) + rng.choice(p["corp_kinds"])
                if rng.random() < 0.3:
                    name = rng.choice(p["corp_words"]) + name
                if name not in used_names:
                    break
            used_names.add(name)
            market = markets[i] if i < len(markets) else ""
            stock = " "
            if market:
                while True:
                    stock = f"{rng.randrange(1000, 99999):05d}0"
                    if stock not in used_stock:
                        break
                used_stock.add(stock)
            ind = rng.choice(p["industries"])
            out.append(self._company(rng, corp, stock, name, "", market, ind, heavy if rng.random() < 0.7 else districts))
        return out

    def _company(self, rng: random.Random, corp: str, stock: str, name: str, eng: str, market: str,
                 ind: str, districts: list[District]) -> dict[str, Any]:
        d = rng.choice(districts)
        dong = rng.choice(d.dongs)
        cls = {"KOSPI": "Y", "KOSDAQ": "K", "KONEX": "N"}.get(market, "E")
        est = date(rng.randint(1950, 2018), rng.randint(1, 12), rng.randint(1, 28))
        area = {"11": "02", "26": "051", "27": "053", "28": "032", "29": "062", "30": "042", "31": "052"}.get(
            d.sido.sido_cd, "031")
        slug = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 9)))
        return {
            "corp_code": corp, "corp_name": name, "corp_name_eng": eng or f"{slug.upper()} CO., LTD.",
            "stock_name": name, "stock_code": stock, "ceo_nm": person_name(rng), "corp_cls": cls,
            "market": market, "isin": isin(stock) if stock.strip() else "",
            "jurir_no": f"{rng.randrange(10**12, 10**13)}", "bizr_no": f"{rng.randrange(10**9, 10**10)}",
            "crno": f"{rng.randrange(10**12, 10**13)}",
            "adres": f"{dong.name.rsplit(' ', 1)[0]} {_stem(dong.leaf)}로 {rng.randint(1, 400)} ({dong.leaf})",
            "hm_url": f"www.{slug}.co.kr", "ir_url": "", "phn_no": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
            "fax_no": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", "induty_code": ind,
            "est_dt": _ymd(est), "acc_mt": "12", "modify_date": _ymd(date(2025, rng.randint(1, 12), rng.randint(1, 28))),
            "lawd_cd": d.lawd_cd,
            "shares": rng.randint(5_000_000, 300_000_000) if stock.strip() else rng.randint(100_000, 5_000_000),
            "size": rng.lognormvariate(0, 1.2),
        }

    def _periodic(self, year: int, reprt_code: str) -> tuple[date, str]:
        """Filing date and report name of a periodic report for business year ``year``."""
        if reprt_code == "11011":
            return date(year + 1, 3, 14), f"사업보고서 ({year}.12)"
        if reprt_code == "11012":
            return date(year, 8, 14), f"반기보고서 ({year}.06)"
        if reprt_code == "11013":
            return date(year, 5, 15), f"분기보고서 ({year}.03)"
        return date(year, 11, 14), f"분기보고서 ({year}.09)"

    def filings(self, corp_code: str) -> list[dict[str, str]]:
        """list.json rows of one company, newest first (2023-01-01 … ``TODAY``)."""
        return self.cached(("filings", corp_code), lambda: self._build_filings(corp_code))

    def all_filings(self) -> list[dict[str, str]]:
        """Every filing of every company, newest first (the unfiltered list.json collection)."""
        def build() -> list[dict[str, str]]:
            rows = [f for c in self.companies() for f in self.filings(c["corp_code"])]
            rows.sort(key=lambda r: r["rcept_no"], reverse=True)
            return rows
        return self.cached(("all_filings",), build)

    def _company_index(self, corp_code: str) -> int:
        return self.cached(("company_pos",), lambda: {c["corp_code"]: i for i, c in enumerate(self.companies())})[corp_code]

    def _build_filings(self, corp_code: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        if c is None:
            return []
        rng = self.rng("filings", corp_code)
        p = pools()
        listed = bool(c["stock_code"].strip())
        items: list[tuple[date, str, str, str]] = []  # date, report, filer, rm
        if listed:
            for year in (2022, 2023, 2024, 2025):
                for code in ("11013", "11012", "11014", "11011"):
                    when, nm = self._periodic(year, code)
                    if date(2023, 1, 1) <= when <= TODAY:
                        items.append((when, nm, c["corp_name"], "연" if code == "11011" else ""))
            n = max(3, int(12 * c["size"] * rng.uniform(0.5, 1.5)))
            for _ in range(min(n, 80)):
                when = date(2023, 1, 2) + timedelta(rng.randint(0, (TODAY - date(2023, 1, 2)).days))
                nm = rng.choice(p["report_names"][4:]).replace("{y}", str(when.year - 1))
                filer = c["corp_name"] if rng.random() < 0.75 else person_name(rng)
                items.append((when, nm, filer, rng.choice(["", "", "유", "공", "코", "정"])))
        else:
            for year in (2022, 2023, 2024):
                when = date(year + 1, 4, rng.randint(1, 14))
                items.append((when, f"감사보고서 ({year}.12)", f"{rng.choice(['삼일', '삼정', '안진', '한영', '대주'])}회계법인", "외"))
        items = [(_next_business_day(w), nm, f, rm) for w, nm, f, rm in items]
        items.sort(key=lambda t: (t[0], t[1]))
        ci = self._company_index(corp_code)
        per_day: dict[date, int] = {}
        rows = []
        for when, nm, filer, rm in items:
            k = per_day.get(when, 0)
            per_day[when] = k + 1
            serial = f"{(ci * 97 + k * 13 + 101) % 1_000_000:06d}"  # unique per day (k < 97)
            rows.append({
                "corp_code": corp_code, "corp_name": c["corp_name"], "stock_code": c["stock_code"],
                "corp_cls": c["corp_cls"], "report_nm": nm, "rcept_no": _ymd(when) + serial,
                "flr_nm": filer, "rcept_dt": _ymd(when), "rm": rm,
            })
        rows.sort(key=lambda r: r["rcept_no"], reverse=True)
        return rows

    def periodic_rcept_no(self, corp_code: str, year: int, reprt_code: str) -> str | None:
        """``rcept_no`` of a company's periodic report (what fnlttSinglAcnt rows carry)."""
        _, nm = self._periodic(year, reprt_code)
        for f in self.filings(corp_code):
            if f["report_nm"] == nm:
                return f["rcept_no"]
        return None

    def accounts(self, corp_code: str, year: int, reprt_code: str) -> list[dict[str, str]]:
        """fnlttSinglAcnt rows (CFS then OFS; BS then IS); [] when no such report was filed."""
        return self.cached(("accounts", corp_code, year, reprt_code),
                           lambda: self._build_accounts(corp_code, year, reprt_code))

    def _build_accounts(self, corp_code: str, year: int, reprt_code: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        rcept = self.periodic_rcept_no(corp_code, year, reprt_code)
        if c is None or rcept is None:
            return []
        rng = self.rng("accounts", corp_code)
        scale = int(c["size"] * 400_000_000_000)
        era = int(c["est_dt"][:4])
        growth = [rng.uniform(0.85, 1.25) for _ in range(12)]

        def level(y: int) -> float:
            v = 1.0
            for g in growth[: max(0, min(11, y - 2014))]:
                v *= g
            return v

        period = {"11013": (3, 31), "11012": (6, 30), "11014": (9, 30), "11011": (12, 31)}[reprt_code]
        frac = {"11013": 0.25, "11012": 0.5, "11014": 0.75, "11011": 1.0}[reprt_code]
        names = {"11011": "기", "11012": "반기", "11013": "분기", "11014": "분기"}
        bs = [("유동자산", 0.45), ("비유동자산", 0.55), ("자산총계", 1.0), ("유동부채", 0.2), ("비유동부채", 0.1),
              ("부채총계", 0.3), ("자본금", 0.02), ("이익잉여금", 0.6), ("자본총계", 0.7)]
        is_ = [("매출액", 0.8), ("영업이익", 0.08), ("법인세차감전 순이익", 0.09), ("당기순이익(손실)", 0.07)]
        out = []
        for fs_div, fs_nm, k in (("CFS", "연결재무제표", 1.0), ("OFS", "재무제표", 0.72)):
            for sj_div, sj_nm, items in (("BS", "재무상태표", bs), ("IS", "손익계산서", is_)):
                for ordn, (acc, share) in enumerate(items, start=1):
                    def amt(y: int) -> str:
                        v = scale * k * share * level(y) * (frac if sj_div == "IS" else 1.0)
                        return comma(int(v) // 1_000_000 * 1_000_000)
                    term = year - era + 1
                    ym = f"{year}.{period[0]:02d}.{period[1]:02d}"
                    row = {
                        "rcept_no": rcept, "reprt_code": reprt_code, "bsns_year": str(year), "corp_code": corp_code,
                        "stock_code": c["stock_code"], "fs_div": fs_div, "fs_nm": fs_nm, "sj_div": sj_div, "sj_nm": sj_nm,
                        "account_nm": acc, "thstrm_nm": f"제 {term} {names[reprt_code]}",
                        "thstrm_dt": f"{ym} 현재" if sj_div == "BS" else f"{year}.01.01 ~ {ym}",
                        "thstrm_amount": amt(year), "frmtrm_nm": f"제 {term - 1} 기",
                        "frmtrm_dt": f"{year - 1}.12.31 현재" if sj_div == "BS" else f"{year - 1}.01.01 ~ {year - 1}.{period[0]:02d}.{period[1]:02d}",
                        "frmtrm_amount": amt(year - 1),
                        "bfefrmtrm_nm": f"제 {term - 2} 기" if reprt_code == "11011" else "",
                        "bfefrmtrm_dt": f"{year - 2}.12.31 현재" if reprt_code == "11011" else "",
                        "bfefrmtrm_amount": amt(year - 2) if reprt_code == "11011" else "",
                        "ord": str(len(out) + 1), "currency": "KRW",
                    }
                    out.append(row)
        return out

    def major_shareholders(self, corp_code: str) -> list[dict[str, str]]:
        """majorstock.json rows (5%+ holders' reports) of a listed company."""
        return self.cached(("majorstock", corp_code), lambda: self._build_holders(corp_code, "major"))

    def executive_holdings(self, corp_code: str) -> list[dict[str, str]]:
        """elestock.json rows (executives' and major holders' own reports)."""
        return self.cached(("elestock", corp_code), lambda: self._build_holders(corp_code, "exec"))

    def _build_holders(self, corp_code: str, kind: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        if c is None or not c["stock_code"].strip():
            return []
        rng = self.rng(kind, corp_code)
        out = []
        others = self.listed_companies()
        for _ in range(rng.randint(2, 12)):
            when = date(2023, 1, 2) + timedelta(rng.randint(0, (TODAY - date(2023, 1, 2)).days))
            qty = int(c["shares"] * rng.uniform(0.001, 0.25))
            delta = int(qty * rng.uniform(-0.05, 0.05))
            rate = qty / c["shares"] * 100
            rcept = _ymd(when) + f"{rng.randint(0, 999999):06d}"
            if kind == "major":
                holder = rng.choice(others)["corp_name"] if rng.random() < 0.5 else rng.choice(
                    ["국민연금공단", "블랙록", "머스크", person_name(rng)])
                out.append({
                    "rcept_no": rcept, "rcept_dt": when.isoformat(), "corp_code": corp_code, "corp_name": c["corp_name"],
                    "report_tp": rng.choice(["일반", "약식"]), "repror": holder, "stkqy": comma(qty),
                    "stkqy_irds": comma(delta), "stkrt": f"{rate:.2f}", "stkrt_irds": f"{delta / c['shares'] * 100:.2f}",
                    "ctr_stkqy": comma(int(qty * 0.1)), "ctr_stkrt": f"{rate * 0.1:.2f}",
                    "report_resn": rng.choice(["특별관계자 및 보유주식수 변동", "보유목적 변경", "단순투자 목적 신규보고", "장내매수"]),
                })
            else:
                small = int(qty * 0.01)
                out.append({
                    "rcept_no": rcept, "rcept_dt": when.isoformat(), "corp_code": corp_code, "corp_name": c["corp_name"],
                    "repror": person_name(rng), "isu_exctv_rgist_at": rng.choice(["등기임원", "비등기임원"]),
                    "isu_exctv_ofcps": rng.choice(["대표이사", "사내이사", "전무", "상무", "부사장", "사외이사"]),
                    "isu_main_shrholdr": rng.choice(["-", "-", "10%이상주주"]), "sp_stock_lmp_cnt": comma(small),
                    "sp_stock_lmp_irds_cnt": comma(int(small * rng.uniform(-0.2, 0.2))),
                    "sp_stock_lmp_rate": f"{small / c['shares'] * 100:.2f}", "sp_stock_lmp_irds_rate": "0.00",
                })
        out.sort(key=lambda r: r["rcept_no"])
        return out

    def business_days(self, begin: str, end: str) -> list[str]:
        return [_ymd(d) for d in _days(_parse(begin), _parse(end)) if is_business_day(d)]

    def _stock_params(self, stock_code: str) -> tuple[float, float, float, float, float, float, int, int]:
        """(p0, drift, amp1, phase1, amp2, phase2, volume, noise key) of one stock's price path."""
        def build() -> dict[str, tuple[float, float, float, float, float, float, int, int]]:
            out = {}
            for c in self.listed_companies():
                rng = self.rng("prices", c["stock_code"])
                p0 = 53_000.0 if c["stock_code"] == "005930" else max(500.0, rng.lognormvariate(9.3, 1.1))
                out[c["stock_code"]] = (p0, rng.gauss(0, 0.0008), rng.uniform(0.02, 0.2), rng.uniform(0, 6.28),
                                        rng.uniform(0.01, 0.08), rng.uniform(0, 6.28),
                                        max(1000, int(rng.lognormvariate(11, 1.3))), rng.getrandbits(48))
            return out
        return self.cached(("stock_params",), build)[stock_code]

    def _price_row(self, c: dict[str, Any], i: int) -> dict[str, str]:
        # A closed-form path (trend + two cycles + daily noise from a counter hash), so any
        # day's price costs O(1) and needs no earlier day.
        p0, drift, a1, f1, a2, f2, vol, key = self._stock_params(c["stock_code"])

        def close(k: int) -> int:
            z = _unit(key, k) + _unit(key, k + 7919) - 1.0
            return _tick(p0 * math.exp(drift * k + a1 * math.sin(k / 40.0 + f1) + a2 * math.sin(k / 9.0 + f2) + 0.03 * z))

        cl, prev = close(i), close(i - 1)
        o = _tick(prev * (1 + 0.01 * (_unit(key, i + 104729) - 0.5)))
        h = _tick(max(o, cl) * (1 + 0.02 * _unit(key, i + 15485863)))
        lo = _tick(min(o, cl) * (1 - 0.02 * _unit(key, i + 32452843)))
        v = int(vol * (0.3 + 2.2 * _unit(key, i + 49979687)))
        vs = cl - prev
        return {
            "basDt": PRICE_DAYS[i], "srtnCd": c["stock_code"], "isinCd": c["isin"], "itmsNm": c["corp_name"],
            "mrktCtg": c["market"], "clpr": str(cl), "vs": str(vs), "fltRt": f"{vs / prev * 100:.2f}" if prev else "0",
            "mkp": str(o), "hipr": str(h), "lopr": str(lo), "trqu": str(v), "trPrc": str(v * cl),
            "lstgStCnt": str(c["shares"]), "mrktTotAmt": str(c["shares"] * cl),
        }

    def stock_prices(self, bas_dt: str) -> list[dict[str, str]]:
        """FSC getStockPriceInfo rows of every listed company on one trading day."""
        if bas_dt not in PRICE_DAYS:
            return []
        i = PRICE_DAYS.index(bas_dt)
        return self.cached(("stock_prices", bas_dt), lambda: [self._price_row(c, i) for c in self.listed_companies()])

    def stock_history(self, srtn_cd: str) -> list[dict[str, str]]:
        """FSC rows of one stock over every trading day, oldest first."""
        c = self.company_by_stock(srtn_cd)
        if c is None:
            return []
        return self.cached(("stock_history", srtn_cd), lambda: [self._price_row(c, i) for i in range(len(PRICE_DAYS))])

    # ---- politics ------------------------------------------------------------------
    def elections(self) -> list[dict[str, str]]:
        """NEC getCommonSgCodeList rows (num, sgId, sgName, sgTypecode, sgVotedate), oldest first."""
        def build() -> list[dict[str, str]]:
            t = pools()["sg_types"]
            plan = [
                ("20170509", "제19대 대통령선거", ["0", "1"]),
                ("20180613", "제7회 전국동시지방선거", ["0", "3", "4", "5", "6", "8", "9", "10", "11"]),
                ("20200415", "제21대 국회의원선거", ["0", "2", "7"]),
                ("20210407", "2021년 재·보궐선거", ["0", "3", "2", "4", "5", "6"]),
                ("20220309", "제20대 대통령선거", ["0", "1"]),
                ("20220601", "제8회 전국동시지방선거", ["0", "3", "4", "5", "6", "8", "9", "11"]),
                ("20230405", "2023년 상반기 재·보궐선거", ["0", "2", "4", "5", "6", "11"]),
                ("20240410", "제22대 국회의원선거", ["0", "2", "7"]),
                ("20241016", "2024년 하반기 재·보궐선거", ["0", "4", "5", "6", "11"]),
                ("20250402", "2025년 상반기 재·보궐선거", ["0", "4", "5", "6"]),
                ("20250603", "제21대 대통령선거", ["0", "1"]),
            ]
            rows = []
            for sg_id, name, types in plan:
                for tc in types:
                    rows.append({"num": str(len(rows) + 1), "sgId": sg_id,
                                 "sgName": name if tc == "0" else t[tc], "sgTypecode": tc, "sgVotedate": sg_id})
            return rows
        return self.cached(("elections",), build)

    def constituencies(self, sg_id: str, sg_typecode: str) -> list[dict[str, Any]]:
        """선거구 rows (sggName, sdName, wiwName, sggJungsu, sOrder, ``lawd_cds``)."""
        return self.cached(("sgg", sg_id, sg_typecode), lambda: self._build_constituencies(sg_id, sg_typecode))

    def _build_constituencies(self, sg_id: str, tc: str) -> list[dict[str, Any]]:
        if not any(e["sgId"] == sg_id and e["sgTypecode"] == tc for e in self.elections()) or tc == "0":
            return []
        rows: list[dict[str, Any]] = []

        def add(sgg: str, sd: str, wiw: str, lawd: list[str], jungsu: int = 1) -> None:
            rows.append({"num": str(len(rows) + 1), "sgId": sg_id, "sgTypecode": tc, "sggName": sgg, "sdName": sd,
                         "wiwName": wiw, "sggJungsu": str(jungsu), "sOrder": str(len(rows) + 1), "lawd_cds": lawd})

        if tc in ("1", "7"):
            add("대한민국", "전국", "", [], 1 if tc == "1" else 46)
            return rows
        if tc in ("3", "8", "11"):
            for s in self.sidos():
                add(s.name if tc != "8" else f"{s.name}비례대표", s.name, "", [d.lawd_cd for d in self.districts() if d.sido.sido_cd == s.sido_cd])
            return rows
        if tc == "2":
            return self._assembly_districts(sg_id)
        if tc == "4":
            for d in self.districts():
                if d.sido.sido_cd == "36" or (d.name.endswith("구") and " " in d.name):
                    continue  # 세종 and 일반구 have no elected head
                add(d.name, d.sido.name, d.name, [d.lawd_cd])
            return rows
        # 시도의원 / 구시군의원: 1–4 constituencies per district
        rng = self.rng("sgg", sg_id, tc)
        for d in self.districts():
            for k in range(1, 2 + int(d.activity * 2.5)):
                suffix = f"제{k}선거구" if tc in ("5", "10") else f"{'가나다라마바'[k - 1]}선거구"
                add(f"{d.name.replace(' ', '')}{suffix}", d.sido.name, d.name.replace(" ", ""), [d.lawd_cd],
                    1 if tc in ("5", "10") else rng.randint(2, 4))
        return rows

    def _assembly_districts(self, sg_id: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        marks = "갑을병정무"
        by_sido: dict[str, list[District]] = {}
        for d in self.districts():
            by_sido.setdefault(d.sido.sido_cd, []).append(d)
        for sido_cd, ds in by_sido.items():
            sido = self.region(sido_cd + "00000000")
            assert sido is not None
            i = 0
            cities: dict[str, list[District]] = {}
            for d in ds:
                if " " in d.name:  # 일반구 of a city: one 선거구 per 구, named after the city
                    cities.setdefault(d.name.split(" ")[0], []).append(d)
            for city, gus in cities.items():
                for k, d in enumerate(gus):
                    rows.append(self._sgg_row(rows, sg_id, f"{city}{marks[k % 5]}", sido.name, d.name.replace(" ", ""), [d.lawd_cd]))
            small: list[District] = []
            for d in ds:
                if " " in d.name:
                    continue
                seats = 1 + (d.activity > 0.9) + (d.activity > 1.5)
                if seats == 1 and d.activity < 0.1:
                    small.append(d)
                    if len(small) == 2:
                        nm = "".join(x.name for x in small)
                        rows.append(self._sgg_row(rows, sg_id, nm, sido.name, small[0].name, [x.lawd_cd for x in small]))
                        small = []
                    continue
                for k in range(seats):
                    nm = d.name + (marks[k] if seats > 1 else "")
                    rows.append(self._sgg_row(rows, sg_id, nm, sido.name, d.name, [d.lawd_cd]))
                i += 1
            for d in small:
                rows.append(self._sgg_row(rows, sg_id, d.name, sido.name, d.name, [d.lawd_cd]))
        return rows

    @staticmethod
    def _sgg_row(rows: list[dict[str, Any]], sg_id: str, sgg: str, sd: str, wiw: str, lawd: list[str]) -> dict[str, Any]:
        n = str(len(rows) + 1)
        return {"num": n, "sgId": sg_id, "sgTypecode": "2", "sggName": sgg, "sdName": sd, "wiwName": wiw,
                "sggJungsu": "1", "sOrder": n, "lawd_cds": lawd}

    def candidates(self, sg_id: str, sg_typecode: str) -> list[dict[str, Any]]:
        """후보자 rows (huboid 9 digits, giho, jdName, name, …; ``winner`` True/False)."""
        return self.cached(("cand", sg_id, sg_typecode), lambda: self._build_candidates(sg_id, sg_typecode))

    def winners(self, sg_id: str, sg_typecode: str) -> list[dict[str, Any]]:
        """당선인 rows: the winning candidates with ``dugsu``/``dugyul``."""
        return [c for c in self.candidates(sg_id, sg_typecode) if c["winner"]]

    def _build_candidates(self, sg_id: str, tc: str) -> list[dict[str, Any]]:
        rng = self.rng("candidates", sg_id, tc)
        p = pools()
        parties = p["parties_22"] if sg_id >= "20240101" else ["더불어민주당", "국민의힘", "정의당", "국민의당", "무소속"]
        base = 100_000_000 + (int(sg_id) % 100_000) * 10 + int(tc) * 1_000_000 % 9_000_000
        rows: list[dict[str, Any]] = []
        hid = base
        for sgg in self.constituencies(sg_id, tc):
            seats = int(sgg["sggJungsu"])
            n = seats + rng.randint(1, 3) if tc != "7" else 46 + 20
            votes = [rng.lognormvariate(10, 0.6) for _ in range(n)]
            order = sorted(range(n), key=lambda k: -votes[k])
            total = sum(votes)
            electors = int(total * rng.uniform(1.3, 1.6))
            for k in range(n):
                hid += rng.randint(1, 40)
                name = person_name(rng)
                birth = date(rng.randint(1955, 1990), rng.randint(1, 12), rng.randint(1, 28))
                party = parties[k % len(parties)] if k < len(parties) else "무소속"
                win = order.index(k) < seats
                addr_d = self.district(sgg["lawd_cds"][0]) if sgg["lawd_cds"] else rng.choice(self.districts())
                assert addr_d is not None
                rows.append({
                    "num": "0", "sgId": sg_id, "sgTypecode": tc, "huboid": str(hid), "sggName": sgg["sggName"],
                    "sdName": sgg["sdName"], "wiwName": sgg["wiwName"], "giho": str(k + 1), "gihoSangse": "",
                    "jdName": party, "name": name, "hanjaName": hanja_name(name), "gender": rng.choice(["남", "남", "여"]),
                    "birthday": _ymd(birth), "age": str(int(sg_id[:4]) - birth.year - 1),
                    "addr": f"{addr_d.full_name} {_stem(rng.choice(addr_d.dongs).leaf) if addr_d.dongs else ''}로",
                    "jobId": str(rng.randint(1, 90)), "job": rng.choice(p["jobs"]), "eduId": str(rng.randint(1, 80)),
                    "edu": rng.choice(p["edus"]), "career1": rng.choice(p["careers"]), "career2": rng.choice(p["careers"]),
                    "status": "등록", "regdate": _ymd(_parse(sg_id) - timedelta(25)),
                    "dugsu": str(int(votes[k] * (20 if tc == "7" else 1))),
                    "dugyul": f"{votes[k] / total * 100:.2f}", "winner": win, "lawd_cds": sgg["lawd_cds"],
                    "electors": electors,
                })
        for i, r in enumerate(rows, start=1):
            r["num"] = str(i)
        return rows

    def turnout(self, sg_id: str, sg_typecode: str) -> list[dict[str, str]]:
        """투표율 rows: one per 시도 and 구시군, plus the "합계" row."""
        def build() -> list[dict[str, str]]:
            if not any(e["sgId"] == sg_id and e["sgTypecode"] == sg_typecode for e in self.elections()):
                return []
            rng = self.rng("turnout", sg_id, sg_typecode)
            rows = []
            tot = [0, 0]
            for d in self.districts():
                electors = int(40_000 + d.activity * 300_000 * rng.uniform(0.8, 1.2))
                voted = int(electors * rng.uniform(0.55, 0.78))
                tot[0] += electors
                tot[1] += voted
                rows.append({"sgId": sg_id, "sgTypecode": sg_typecode, "sdName": d.sido.name, "wiwName": d.name.replace(" ", ""),
                             "totSunsu": str(electors), "psSunsu": str(int(electors * 0.97)), "psEtcSunsu": str(electors - int(electors * 0.97)),
                             "totTusu": str(voted), "psTusu": str(int(voted * 0.7)), "psEtcTusu": str(voted - int(voted * 0.7)),
                             "turnout": f"{voted / electors * 100:.2f}"})
            head = {"sgId": sg_id, "sgTypecode": sg_typecode, "sdName": "합계", "wiwName": "", "totSunsu": str(tot[0]),
                    "psSunsu": str(int(tot[0] * 0.97)), "psEtcSunsu": str(tot[0] - int(tot[0] * 0.97)), "totTusu": str(tot[1]),
                    "psTusu": str(int(tot[1] * 0.7)), "psEtcTusu": str(tot[1] - int(tot[1] * 0.7)), "turnout": f"{tot[1] / tot[0] * 100:.2f}"}
            out = [head, *rows]
            for i, r in enumerate(out, start=1):
                r["num"] = str(i)
                r["vrOrder"] = str(i)
            return out
        return self.cached(("turnout", sg_id, sg_typecode), build)

    def members(self) -> list[dict[str, Any]]:
        """The 22nd National Assembly: the NEC winners of 20240410 (types 2 and 7)."""
        return self.cached(("members",), self._build_members)

    def member(self, mona_cd: str) -> dict[str, Any] | None:
        return self.cached(("member_index",), lambda: {m["MONA_CD"]: m for m in self.members()}).get(mona_cd)

    def _build_members(self) -> list[dict[str, Any]]:
        rng = self.rng("members")
        p = pools()
        comms = p["committees"]
        out = []
        used: set[str] = set()
        winners = self.winners("20240410", "2") + self.winners("20240410", "7")
        for w in winners[:300]:
            while True:
                mona = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(8))
                if mona not in used and not mona.isdigit():
                    break
            used.add(mona)
            if w["sgTypecode"] == "7":
                orig = "비례대표"
            else:
                orig = f"{self.sido_short(w['lawd_cds'][0][:2])} {w['sggName']}"
            cmit = comms[rng.randrange(len(comms) - 3)]
            terms = rng.choice(["초선", "초선", "재선", "3선", "4선", "5선"])
            name = w["name"]
            out.append({
                "HG_NM": name, "HJ_NM": w["hanjaName"], "ENG_NM": roman_name(name), "BTH_GBN_NM": "음" if rng.random() < 0.1 else "양",
                "BTH_DATE": f"{w['birthday'][:4]}-{w['birthday'][4:6]}-{w['birthday'][6:]}", "JOB_RES_NM": "위원",
                "POLY_NM": w["jdName"], "ORIG_NM": orig, "ELECT_GBN_NM": "비례대표" if orig == "비례대표" else "지역구",
                "CMIT_NM": cmit[1], "CMITS": cmit[1], "REELE_GBN_NM": terms, "UNITS": "제22대",
                "SEX_GBN_NM": w["gender"], "TEL_NO": f"02-784-{rng.randint(1000, 9999)}",
                "E_MAIL": f"{roman_name(name).split(' ')[0].lower()}{rng.randint(1, 99)}@assembly.go.kr",
                "HOMEPAGE": "", "STAFF": person_name(rng), "SECRETARY": person_name(rng), "SECRETARY2": person_name(rng),
                "MONA_CD": mona, "MEM_TITLE": f"{w['career1']}\n{w['career2']}", "ASSEM_ADDR": f"의원회관 {rng.randint(3, 10)}{rng.randint(1, 50):02d}호",
                "huboid": w["huboid"], "lawd_cds": w["lawd_cds"], "sggName": w["sggName"], "sdName": w["sdName"],
                "dept_cd": str(cmit[0]),
            })
        return out

    def committees(self) -> list[dict[str, str]]:
        """Standing and special committees (DEPT_CD, DEPT_NM)."""
        return [{"DEPT_CD": str(c), "DEPT_NM": n} for c, n in pools()["committees"]]

    def committee_members(self, dept_cd: str | None = None) -> list[dict[str, Any]]:
        """Members of each committee (a member sits on their main committee, some on two)."""
        def build() -> list[dict[str, Any]]:
            rng = self.rng("committee_members")
            comms = {str(c): n for c, n in pools()["committees"]}
            rows = []
            for m in self.members():
                depts = [m["dept_cd"]]
                if rng.random() < 0.35:
                    depts.append(rng.choice(list(comms)))
                for i, dc in enumerate(dict.fromkeys(depts)):
                    rows.append({**m, "DEPT_CD": dc, "DEPT_NM": comms[dc],
                                 "JOB_RES_NM": "위원장" if rng.random() < 0.02 else ("간사" if rng.random() < 0.08 else "위원")})
            rows.sort(key=lambda r: (r["DEPT_CD"], r["HG_NM"]))
            return rows
        rows = self.cached(("committee_members",), build)
        return rows if dept_cd is None else [r for r in rows if r["DEPT_CD"] == dept_cd]

    def bills(self) -> list[dict[str, Any]]:
        """22nd-Assembly bills proposed by members (BILL_ID, BILL_NO, PROPOSER, …), oldest first."""
        return self.cached(("bills",), self._build_bills)

    def bill(self, bill_id: str) -> dict[str, Any] | None:
        return self.cached(("bill_index",), lambda: {b["BILL_ID"]: b for b in self.bills()}).get(bill_id)

    def _build_bills(self) -> list[dict[str, Any]]:
        rng = self.rng("bills")
        p = pools()
        members = self.members()
        comm_by_topic = {t: pools()["committees"][i % 16] for i, t in enumerate(p["bill_topics"])}
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        rows = []
        start = date(2024, 5, 30)
        span = (date(2025, 12, 20) - start).days
        dates = sorted(start + timedelta(rng.randint(0, span)) for _ in range(6000))
        for i, when in enumerate(dates):
            m = rng.choice(members)
            topic = rng.choice(p["bill_topics"])
            kind = rng.choice(["일부개정법률안", "일부개정법률안", "일부개정법률안", "전부개정법률안", "제정법률안"])
            name = f"{topic} {kind}" if kind != "제정법률안" else f"{topic.split(' ')[0]} 특별법안"
            co = rng.randint(9, 30)
            age_days = (TODAY - when).days
            if age_days > 120 and rng.random() < 0.35:
                result = rng.choice(p["proc_results"])
                proc = when + timedelta(rng.randint(30, min(age_days, 400)))
            else:
                result, proc = None, None
            bill_id = "PRC_" + "".join(rng.choice(alphabet) for _ in range(30))
            cmit = comm_by_topic[topic]
            rows.append({
                "BILL_ID": bill_id, "BILL_NO": f"22{i + 1:05d}", "BILL_NAME": name, "COMMITTEE": cmit[1],
                "COMMITTEE_ID": f"9700{cmit[0] % 1000:03d}" if False else str(cmit[0]),
                "PROPOSE_DT": when.isoformat(), "PROC_RESULT": result, "PROC_DT": proc.isoformat() if proc else None,
                "AGE": "22", "DETAIL_LINK": f"http://likms.assembly.go.kr/bill/billDetail.do?billId={bill_id}",
                "PROPOSER": f"{m['HG_NM']}의원 등 {co}인", "MEMBER_LIST": f"https://open.assembly.go.kr/portal/assm/search/memberSchPage.do?billId={bill_id}",
                "RST_PROPOSER": m["HG_NM"], "PUBL_PROPOSER": ",".join(rng.choice(members)["HG_NM"] for _ in range(min(co, 6))),
                "RST_MONA_CD": m["MONA_CD"], "PUBL_MONA_CD": ",".join(rng.choice(members)["MONA_CD"] for _ in range(min(co, 6))),
                "CMT_PROC_RESULT_CD": result if result in ("원안가결", "수정가결", "대안반영폐기") else None,
                "CMT_PRESENT_DT": (when + timedelta(7)).isoformat(), "CMT_PROC_DT": proc.isoformat() if proc else None,
                "LAW_PRESENT_DT": None, "LAW_PROC_DT": None, "LAW_PROC_RESULT_CD": None,
                "voted": result in ("원안가결", "수정가결", "부결"),
            })
        return rows

    def vote_choices(self, bill_id: str) -> list[tuple[int, str]]:
        """(member index, 찬성/반대/기권) of every member present at a bill's vote."""
        def build() -> list[tuple[int, str]]:
            b = self.bill(bill_id)
            if b is None or not b["voted"]:
                return []
            rng = self.rng("votes", bill_id)
            passed = b["PROC_RESULT"] != "부결"
            out = []
            for i in range(len(self.members())):
                r = rng.random()
                if r < 0.08:
                    continue  # absent members have no row
                out.append((i, ("찬성" if r < 0.85 else ("반대" if r < 0.95 else "기권")) if passed else ("반대" if r < 0.6 else "찬성")))
            return out
        return self.cached(("vote_choices", bill_id), build)

    def votes(self, bill_id: str) -> list[dict[str, Any]]:
        """Per-member plenary votes on a bill (~275 rows; [] for bills never put to a vote)."""
        choices = self.vote_choices(bill_id)
        if not choices:
            return []
        b = self.bill(bill_id)
        assert b is not None
        rng = self.rng("vote_time", bill_id)
        when = b["PROC_DT"].replace("-", "") + f" {rng.randint(14, 18)}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}"
        parties = pools()["parties_22"]
        members = self.members()
        rows = []
        for i, vote in choices:
            m = members[i]
            rows.append({
                "HG_NM": m["HG_NM"], "HJ_NM": m["HJ_NM"], "POLY_NM": m["POLY_NM"], "ORIG_NM": m["ORIG_NM"],
                "MEMBER_NO": str(i + 1), "POLY_CD": str(101000 + (parties.index(m["POLY_NM"]) if m["POLY_NM"] in parties else 999)),
                "ORIG_CD": str(200 + i), "VOTE_DATE": when, "BILL_NO": b["BILL_NO"], "BILL_NAME": b["BILL_NAME"],
                "BILL_ID": bill_id, "LAW_TITLE": b["BILL_NAME"].split(" ")[0], "CURR_COMMITTEE": b["COMMITTEE"],
                "RESULT_VOTE_MOD": vote, "DEPT_CD": b["COMMITTEE_ID"], "CURR_COMMITTEE_ID": b["COMMITTEE_ID"],
                "DISP_ORDER": i + 1, "BILL_URL": b["DETAIL_LINK"], "BILL_NAME_URL": b["DETAIL_LINK"],
                "SESSION_CD": 420 + (int(b["PROC_DT"][:4]) - 2024) * 10, "CURRENTS_CD": 1 + i % 20,
                "AGE": 22, "MONA_CD": m["MONA_CD"],
            })
        return rows

    # ---- education -----------------------------------------------------------------
    def offices(self) -> list[dict[str, str]]:
        """The 17 시도교육청 (ATPT_OFCDC_SC_CODE B10 … T10)."""
        return [{"ATPT_OFCDC_SC_CODE": c, "ATPT_OFCDC_SC_NM": n, "sido_cd": s} for s, (c, n) in pools()["offices"].items()]

    def schools(self) -> list[dict[str, Any]]:
        """Every school (NEIS schoolInfo fields), by office then code."""
        return self.cached(("schools",), self._build_schools)

    def school(self, code: str) -> dict[str, Any] | None:
        return self.cached(("school_index",), lambda: {s["SD_SCHUL_CODE"]: s for s in self.schools()}).get(code)

    def _build_schools(self) -> list[dict[str, Any]]:
        rng = self.rng("schools")
        p = pools()
        offices = {o["sido_cd"]: o for o in self.offices()}
        prefix = {s: 7000000 + i * 100000 + (0 if i < 10 else 1000000) for i, s in enumerate(sorted(offices))}
        out = []
        for sido_cd in sorted(offices):
            o = offices[sido_cd]
            code = prefix[sido_cd] + 10000
            for d in [x for x in self.districts() if x.sido.sido_cd == sido_cd]:
                dongs = d.dongs or [d.region]
                counts = {"초등학교": max(2, int(len(dongs) * 0.9 * (2 if sido_cd in ("11", "41") else 1))),
                          "중학교": max(1, int(len(dongs) * 0.45)), "고등학교": max(1, int(len(dongs) * 0.4))}
                if sido_cd not in ("11", "26", "27", "28", "29", "30", "31", "41"):
                    counts = {k: max(1, v // 3) for k, v in counts.items()}
                for kind, n in counts.items():
                    for k in range(n):
                        code += rng.randint(1, 7)
                        dong = rng.choice(dongs)
                        stem = _stem(dong.leaf) if rng.random() < 0.7 else rng.choice(p["school_stems"])
                        nm = f"{stem}{kind}"
                        if kind == "초등학교" and sido_cd == "11" and rng.random() < 0.5:
                            nm = f"서울{nm}"
                        sd_code = code
                        if d.lawd_cd == "11680" and kind == "초등학교" and k == 0:
                            # The real sample's school (samples/neis/schoolInfo_B10_7091380_single.json).
                            dong = next((x for x in dongs if x.leaf == "대치동"), dong)
                            stem, nm, sd_code = "대치", "서울대치초등학교", 7091380
                        if kind == "고등학교" and rng.random() < 0.2:
                            nm = f"{stem}{rng.choice(['여자', '공업', '상업', '외국어'])}고등학교"
                        fond = rng.choice(["공립", "공립", "공립", "사립"]) if kind != "초등학교" else "공립"
                        road = f"{_stem(dong.leaf)}로 {rng.randint(1, 300)}"
                        area = {"11": "02", "26": "051", "27": "053", "28": "032", "29": "062", "30": "042", "31": "052", "36": "044", "41": "031"}.get(sido_cd, "0" + str(rng.randint(33, 64)))
                        est = date(rng.randint(1946, 2022), rng.randint(1, 12), rng.randint(1, 28))
                        hs_kind = None if kind != "고등학교" else ("특성화고" if "공업" in nm or "상업" in nm else ("특수목적고" if "외국어" in nm else "일반고"))
                        out.append({
                            "ATPT_OFCDC_SC_CODE": o["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": o["ATPT_OFCDC_SC_NM"],
                            "SD_SCHUL_CODE": f"{sd_code:07d}", "SCHUL_NM": nm, "ENG_SCHUL_NM": f"{romanize(nm[:-4]).capitalize()} {({'초등학교': 'Elementary', '중학교': 'Middle', '고등학교': 'High'})[kind]} School",
                            "SCHUL_KND_SC_NM": kind, "LCTN_SC_NM": d.sido.name,
                            "JU_ORG_NM": f"{d.sido.name}{d.name.split(' ')[0]}교육지원청" if sido_cd != "36" else None,
                            "FOND_SC_NM": fond, "ORG_RDNZC": f"{rng.randint(1000, 63999):05d}",
                            "ORG_RDNMA": f"{d.full_name} {road}", "ORG_RDNDA": f"({dong.leaf})",
                            "ORG_TELNO": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                            "HMPG_ADRES": f"http://{romanize(stem)}.{o['ATPT_OFCDC_SC_CODE'][0].lower()}{({'초등학교': 'es', '중학교': 'ms', '고등학교': 'hs'})[kind]}.kr/",
                            "COEDU_SC_NM": rng.choice(["남여공학", "남여공학", "남", "여"]) if kind != "초등학교" else "남여공학",
                            "ORG_FAXNO": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                            "HS_SC_NM": hs_kind, "INDST_SPECL_CCCCL_EXST_YN": "N",
                            "HS_GNRL_BUSNS_SC_NM": "일반계" if hs_kind != "특성화고" else "전문계",
                            "SPCLY_PURPS_HS_ORD_NM": "외국어계열" if hs_kind == "특수목적고" else None,
                            "ENE_BFE_SEHF_SC_NM": "전기", "DGHT_SC_NM": "주간", "FOND_YMD": _ymd(est), "FOAS_MEMRD": _ymd(est),
                            "LOAD_DTM": "20251215", "lawd_cd": d.lawd_cd, "dong_code": dong.code,
                            "students": rng.randint(150, 1500),
                        })
        return out

    def school_days(self, ym: str) -> list[str]:
        """School days (YYYYMMDD) of a month of the 2025 school year (Mar 2025 – Feb 2026)."""
        y, m = int(ym[:4]), int(ym[4:])
        if not (date(2025, 3, 1) <= date(y, m, 1) <= date(2026, 2, 1)):
            return []
        first = date(y, m, 1)
        last = date(y + (m == 12), m % 12 + 1, 1) - timedelta(1)
        out = []
        for d in _days(first, last):
            if not is_business_day(d) and d.year <= 2025 or d.weekday() >= 5:
                continue
            if date(2025, 7, 21) <= d <= date(2025, 8, 15) or date(2025, 12, 31) <= d <= date(2026, 2, 28):
                continue
            if d < date(2025, 3, 4):
                continue
            out.append(_ymd(d))
        return out

    def meals(self, school_code: str, ym: str) -> list[dict[str, Any]]:
        """mealServiceDietInfo rows of a school for one month (lunch; high schools also dinner)."""
        def build() -> list[dict[str, Any]]:
            s = self.school(school_code)
            if s is None:
                return []
            rng = self.rng("meals", school_code, ym)
            p = pools()
            rows = []
            for day in self.school_days(ym):
                kinds = [("2", "중식")] + ([("3", "석식")] if s["SCHUL_KND_SC_NM"] == "고등학교" and rng.random() < 0.6 else [])
                for code, kname in kinds:
                    def allergy() -> str:
                        nums = sorted(rng.sample(range(1, 19), rng.randint(0, 4)))
                        return f" ({'.'.join(map(str, nums))})" if nums else " "
                    dishes = [rng.choice(p["dishes_rice"]) + " ", rng.choice(p["dishes_soup"]) + allergy(),
                              rng.choice(p["dishes_main"]) + allergy(), rng.choice(p["dishes_side"]) + allergy(),
                              rng.choice(["배추김치", "깍두기", "총각김치"]) + " (9)", rng.choice(p["dishes_dessert"]) + " "]
                    if s["SCHUL_KND_SC_NM"] == "초등학교":
                        dishes.append("우유 (2)")
                    kcal = rng.uniform(550, 850)
                    rows.append({
                        "ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": s["ATPT_OFCDC_SC_NM"],
                        "SD_SCHUL_CODE": school_code, "SCHUL_NM": s["SCHUL_NM"], "MMEAL_SC_CODE": code, "MMEAL_SC_NM": kname,
                        "MLSV_YMD": day, "MLSV_FGR": float(s["students"]), "DDISH_NM": "<br/>".join(dishes),
                        "ORPLC_INFO": "쌀 : 국내산<br/>쇠고기(종류) : 국내산(한우)<br/>돼지고기 : 국내산<br/>비고 : ",
                        "CAL_INFO": f"{kcal:.1f} Kcal",
                        "NTR_INFO": f"탄수화물(g) : {kcal * 0.13:.1f}<br/>단백질(g) : {kcal * 0.04:.1f}<br/>지방(g) : {kcal * 0.025:.1f}",
                        "MLSV_FROM_YMD": day, "MLSV_TO_YMD": day, "LOAD_DTM": _ymd(_parse(day) + timedelta(7)),
                    })
            return rows
        return self.cached(("meals", school_code, ym), build)

    def schedule(self, school_code: str, year: str) -> list[dict[str, Any]]:
        """SchoolSchedule rows of a school for a school year (AY)."""
        def build() -> list[dict[str, Any]]:
            s = self.school(school_code)
            if s is None or year not in ("2025",):
                return []
            rng = self.rng("schedule", school_code, year)
            events = pools()["school_events"]
            grades = 6 if s["SCHUL_KND_SC_NM"] == "초등학교" else 3
            fixed = [("20250304", "입학식"), ("20250304", "시업식"), ("20250718", "방학식"), ("20250818", "개학식"),
                     ("20251231", "방학식")]
            days = [(d, rng.choice(events)) for d in rng.sample(self.school_days("202504") + self.school_days("202505") +
                                                                   self.school_days("202509") + self.school_days("202510") +
                                                                   self.school_days("202511"), 25)]
            holidays = [(f"2025{md}", nm) for md, nm in (("0505", "어린이날"), ("0606", "현충일"), ("0815", "광복절"), ("1003", "개천절"), ("1009", "한글날"), ("1225", "기독탄신일"))]
            rows = []
            for d, ev in sorted(fixed + days + holidays):
                is_holiday = ev in ("어린이날", "현충일", "광복절", "개천절", "한글날", "기독탄신일")
                row = {"ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": s["ATPT_OFCDC_SC_NM"],
                       "SD_SCHUL_CODE": school_code, "SCHUL_NM": s["SCHUL_NM"], "AY": year, "DGHT_CRSE_SC_NM": "주간",
                       "SCHUL_CRSE_SC_NM": s["SCHUL_KND_SC_NM"][:-2], "SBTR_DD_SC_NM": "공휴일" if is_holiday else "해당없음",
                       "AA_YMD": d, "EVENT_NM": ev, "EVENT_CNTNT": None}
                for g, key in enumerate(["ONE", "TW", "THREE", "FR", "FIV", "SIX"], start=1):
                    row[f"{key}_GRADE_EVENT_YN"] = ("Y" if g <= grades and not is_holiday else "N") if g <= grades else "*"
                row["LOAD_DTM"] = "20251215"
                rows.append(row)
            return rows
        return self.cached(("schedule", school_code, year), build)

    def classes(self, school_code: str, year: str) -> list[dict[str, Any]]:
        """classInfo rows (GRADE, CLASS_NM) of a school for a school year."""
        def build() -> list[dict[str, Any]]:
            s = self.school(school_code)
            if s is None or year not in ("2024", "2025"):
                return []
            rng = self.rng("classes", school_code, year)
            grades = 6 if s["SCHUL_KND_SC_NM"] == "초등학교" else 3
            n = max(1, s["students"] // (grades * 25))
            rows = []
            for g in range(1, grades + 1):
                for c in range(1, n + rng.randint(0, 1) + 1):
                    rows.append({"ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": s["ATPT_OFCDC_SC_NM"],
                                 "SD_SCHUL_CODE": school_code, "SCHUL_NM": s["SCHUL_NM"], "AY": year, "GRADE": str(g),
                                 "DGHT_CRSE_SC_NM": "주간", "SCHUL_CRSE_SC_NM": s["SCHUL_KND_SC_NM"][:-2],
                                 "ORD_SC_NM": "일반계" if s["SCHUL_KND_SC_NM"] == "고등학교" else None,
                                 "DDDEP_NM": None, "CLASS_NM": str(c), "LOAD_DTM": "20250303"})
            return rows
        return self.cached(("classes", school_code, year), build)

    def timetable(self, school_code: str, ymd: str) -> list[dict[str, Any]]:
        """hisTimetable rows of a high school for one day (every class, 6–7 periods)."""
        def build() -> list[dict[str, Any]]:
            s = self.school(school_code)
            if s is None or s["SCHUL_KND_SC_NM"] != "고등학교" or ymd not in self.school_days(ymd[:6]):
                return []
            rng = self.rng("timetable", school_code, ymd)
            subjects = pools()["subjects_high"]
            rows = []
            for c in self.classes(school_code, "2025"):
                for period in range(1, 8 - (_parse(ymd).weekday() in (2, 4))):
                    rows.append({"ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": s["ATPT_OFCDC_SC_NM"],
                                 "SD_SCHUL_CODE": school_code, "SCHUL_NM": s["SCHUL_NM"], "AY": "2025",
                                 "SEM": "1" if ymd < "20250801" else "2", "ALL_TI_YMD": ymd, "DGHT_CRSE_SC_NM": "주간",
                                 "ORD_SC_NM": "일반계", "DDDEP_NM": "일반과", "GRADE": c["GRADE"], "CLRM_NM": None,
                                 "CLASS_NM": c["CLASS_NM"], "PERIO": str(period), "ITRT_CNTNT": rng.choice(subjects),
                                 "LOAD_DTM": ymd})
            return rows
        return self.cached(("timetable", school_code, ymd), build)

    # ---- traffic -------------------------------------------------------------------
    def bus_cities(self) -> list[dict[str, Any]]:
        """TAGO cities (real list): ``citycode`` (int), ``cityname``."""
        def build() -> list[dict[str, Any]]:
            import json
            with open(DATA / "tago_cities.json", encoding="utf-8") as f:
                return list(json.load(f))
        return self.cached(("bus_cities",), build)

    _NODE_PREFIX = {12: "SJB", 21: "BSB", 22: "DGB", 23: "ICB", 24: "GJB", 25: "DJB", 26: "USB", 39: "JJB",
                    34010: "CAB", 37050: "GMB", 33010: "CJB", 35010: "JJB", 37010: "PHB", 38010: "CWB"}

    _CITY_CENTERS = {25: (36.3504, 127.3845), 34010: (36.8151, 127.1139), 21: (35.1796, 129.0756),
                     22: (35.8714, 128.6014), 23: (37.4563, 126.7052), 24: (35.1595, 126.8526),
                     26: (35.5384, 129.3114), 12: (36.4800, 127.2890), 31010: (37.2636, 127.0286),
                     37050: (36.1195, 128.3446), 33010: (36.6424, 127.4890), 35010: (35.8242, 127.1480),
                     39: (33.4996, 126.5312)}

    def _bus_region(self, citycode: int) -> list[Region]:
        name = next((c["cityname"] for c in self.bus_cities() if c["citycode"] == citycode), "")
        first = name.split("/")[0].replace("특별시", "").replace("광역시", "").replace("제주도", "제주시")
        out = []
        for d in self.districts():
            if d.name.split(" ")[0] == first or d.sido.name.startswith(first) and d.sido.sido_cd in ("26", "27", "28", "29", "30", "31", "36"):
                out.extend(x for x in d.dongs if x.level == "emd")
        return out

    def bus_stations(self, citycode: int) -> list[dict[str, Any]]:
        """Stops of a TAGO city: nodeid, nodenm, nodeno (int), gpslati/gpslong (float), citycode."""
        def build() -> list[dict[str, Any]]:
            if not any(c["citycode"] == citycode for c in self.bus_cities()):
                return []
            rng = self.rng("bus_stations", citycode)
            dongs = self._bus_region(citycode) or [r for r in self.regions() if r.level == "emd"][:50]
            prefix = self._NODE_PREFIX.get(citycode, "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(2)) + "B")
            n = 150 if citycode >= 1000 else 600
            if citycode in (34010, 25):
                n = 900
            lat0, lon0 = self._CITY_CENTERS.get(citycode, (35.2 + rng.uniform(0, 2.5), 126.8 + rng.uniform(0, 2.4)))
            suffixes = ["정류장", "입구", "사거리", "삼거리", "주민센터", "초등학교", "시장", "아파트", "우체국", "공원", "역", "병원", "파출소", "터미널"]
            rows, seen = [], set()
            for i in range(n):
                dong = rng.choice(dongs)
                for _ in range(5):
                    nm = f"{_stem(dong.leaf)}{rng.choice(suffixes)}"
                    if rng.random() < 0.3:
                        nm = f"{dong.leaf}{rng.choice(['행정복지센터', '주민센터', '입구'])}"
                    if nm not in seen:
                        break
                seen.add(nm)
                if citycode == 34010 and i == 0:
                    nm = "종합터미널"
                nodeid = f"{prefix}{285000000 + i * 3 + 686:09d}" if prefix == "CAB" else f"{prefix}{8000000 + i * 7 + rng.randint(0, 6)}"
                rows.append({"citycode": citycode, "gpslati": round(lat0 + rng.uniform(-0.06, 0.06), 7),
                             "gpslong": round(lon0 + rng.uniform(-0.07, 0.07), 7), "nodeid": nodeid, "nodenm": nm,
                             "nodeno": 10000 + i * 3 + rng.randint(0, 2)})
            return rows
        return self.cached(("bus_stations", citycode), build)

    def bus_routes(self, citycode: int) -> list[dict[str, Any]]:
        """Routes of a TAGO city: routeid, routeno (int or str), routetp, start/end stops, times."""
        def build() -> list[dict[str, Any]]:
            stations = self.bus_stations(citycode)
            if not stations:
                return []
            rng = self.rng("bus_routes", citycode)
            prefix = stations[0]["nodeid"][:3]
            n = max(20, len(stations) // 6)
            rows = []
            used: set[int] = set()
            for i in range(n):
                while True:
                    no = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(100, 999)])
                    if no not in used:
                        break
                used.add(no)
                tp = rng.choice(["일반버스", "일반버스", "좌석버스", "마을버스", "급행버스", "지선버스"])
                stops = rng.sample(range(len(stations)), min(len(stations), rng.randint(20, 60)))
                rows.append({"routeid": f"{prefix}{285000000 + no * 1 + 1000 * i:09d}" if prefix == "CAB" else f"{prefix}{30000000 + i * 11}",
                             "routeno": no, "routetp": tp, "startnodenm": stations[stops[0]]["nodenm"],
                             "endnodenm": stations[stops[-1]]["nodenm"], "startvehicletime": f"0{rng.randint(5, 6)}{rng.choice(['00', '20', '30', '40'])}",
                             "endvehicletime": f"2{rng.randint(1, 3)}{rng.choice(['00', '30', '40'])}", "stop_idx": stops,
                             "intervaltime": rng.randint(8, 40)})
            return rows
        return self.cached(("bus_routes", citycode), build)

    def route_stops(self, citycode: int, routeid: str) -> list[dict[str, Any]]:
        """Stops on a route in order: nodeid, nodenm, nodeno, nodeord (int), gps, updowncd."""
        stations = self.bus_stations(citycode)
        for r in self.bus_routes(citycode):
            if r["routeid"] == routeid:
                half = len(r["stop_idx"]) // 2
                return [{**stations[k], "nodeord": i + 1, "routeid": routeid, "updowncd": 0 if i < half else 1}
                        for i, k in enumerate(r["stop_idx"])]
        return []

    def station_routes(self, citycode: int, nodeid: str) -> list[dict[str, Any]]:
        """Routes through a stop (routeid, routeno, routetp, start/end names)."""
        def build() -> dict[str, list[dict[str, Any]]]:
            stations = self.bus_stations(citycode)
            idx: dict[str, list[dict[str, Any]]] = {}
            for r in self.bus_routes(citycode):
                for k in r["stop_idx"]:
                    idx.setdefault(stations[k]["nodeid"], []).append(r)
            return idx
        return list(self.cached(("station_routes", citycode), build).get(nodeid, []))

    def bus_arrivals(self, citycode: int, nodeid: str) -> list[dict[str, Any]]:
        """Arrival predictions at a stop (a fixed snapshot: the world has no clock)."""
        def build() -> list[dict[str, Any]]:
            rng = self.rng("arrivals", citycode, nodeid)
            st = next((s for s in self.bus_stations(citycode) if s["nodeid"] == nodeid), None)
            if st is None:
                return []
            rows = []
            for r in self.station_routes(citycode, nodeid):
                if rng.random() < 0.15:
                    continue
                cnt = rng.randint(1, 30)
                rows.append({"arrprevstationcnt": cnt, "arrtime": cnt * rng.randint(50, 100), "nodeid": nodeid,
                             "nodenm": st["nodenm"], "routeid": r["routeid"], "routeno": r["routeno"], "routetp": r["routetp"],
                             "vehicletp": rng.choice(["일반차량", "일반차량", "저상버스"])})
            return rows
        return self.cached(("bus_arrivals", citycode, nodeid), build)

    def subway_stations(self) -> list[dict[str, str]]:
        """Seoul subway stations, one row per (line, station): statnNm, subwayId, line, codes."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("subway_stations")
            rows = []
            for sid, line, names in pools()["subway_lines"]:
                for i, nm in enumerate(names):
                    n = int(sid[-2:]) if sid.startswith("100") else 0
                    fr = f"{n}{i + 1:02d}" if n else f"K{int(sid[-2:]) * 3 + i + 100}"
                    rows.append({"statnNm": nm, "subwayId": sid, "lineNm": line, "STATION_CD": f"{int(sid) - 1000:02d}{i + 1:02d}" if n else f"{int(sid)}{i:02d}",
                                 "FR_CODE": fr, "statnId": f"{sid}000{i + 100:03d}",
                                 "tel": f"02-6110-{rng.randint(1000, 9999)}"})
            return rows
        return self.cached(("subway_stations",), build)

    def subway_arrivals(self, statn_nm: str) -> list[dict[str, Any]]:
        """realtimeStationArrival rows at a station (all lines; a fixed snapshot)."""
        def build() -> list[dict[str, Any]]:
            st = [s for s in self.subway_stations() if s["statnNm"] == statn_nm]
            rng = self.rng("subway_arrivals", statn_nm)
            lines = {sid: names for sid, _, names in pools()["subway_lines"]}
            rows = []
            for s in st:
                names = lines[s["subwayId"]]
                i = names.index(statn_nm)
                for updn, end, prev in (("상행", names[0], names[max(0, i - 1)]), ("하행", names[-1], names[min(len(names) - 1, i + 1)])):
                    if end == statn_nm:
                        continue
                    for k in range(2):
                        secs = rng.randint(0, 300) + k * 360
                        msg2 = "전역 도착" if secs < 60 else (f"{secs // 60}분 {secs % 60}초 후 ({prev})" if secs < 600 else f"[{k + 2}]번째 전역 ({prev})")
                        rows.append({"subwayId": s["subwayId"], "updnLine": updn, "trainLineNm": f"{end}행 - {prev}방면",
                                     "statnNm": statn_nm, "btrainSttus": rng.choice(["일반", "일반", "급행"]),
                                     "barvlDt": str(secs), "btrainNo": str(rng.randint(1000, 9999)), "bstatnNm": end,
                                     "arvlMsg2": msg2, "arvlMsg3": prev, "arvlCd": str(rng.choice([0, 1, 2, 3, 99])),
                                     "lstcarAt": "0"})
            for i, r in enumerate(rows, start=1):
                r["rowNum"] = i
            return rows
        return self.cached(("subway_arrivals", statn_nm), build)

    def public_wifi(self) -> list[dict[str, str]]:
        """Seoul TbPublicWifiInfo: 25,000+ access points across the 25 자치구."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("wifi")
            gus = [d for d in self.districts() if d.sido.sido_cd == "11"]
            kinds = [("공공", "주요거리"), ("공공", "공원(하천)"), ("공공", "버스정류소"), ("공공", "전통시장"), ("공공", "문화시설"), ("공공", "복지시설")]
            rows = []
            for i in range(25_174):
                d = gus[i % len(gus)]
                dong = rng.choice(d.dongs)
                inst = rng.choice(kinds)
                rows.append({"X_SWIFI_MGR_NO": f"{d.name[:2]}-{rng.choice(['WF', 'PW'])}{i:06d}", "X_SWIFI_WRDOFC": d.name,
                             "X_SWIFI_MAIN_NM": f"{dong.leaf} {inst[1]} {rng.randint(1, 40)}", "X_SWIFI_ADRES1": f"{_stem(dong.leaf)}로 {rng.randint(1, 300)}",
                             "X_SWIFI_ADRES2": rng.choice(["", "", f"{rng.randint(1, 5)}층"]), "X_SWIFI_INSTL_FLOOR": "",
                             "X_SWIFI_INSTL_TY": inst[1], "X_SWIFI_INSTL_MBY": rng.choice(["서울시(AP)", "자치구", "과기부"]),
                             "X_SWIFI_SVC_SE": "공공WiFi", "X_SWIFI_CMCWR": rng.choice(["자가망", "임대망"]),
                             "X_SWIFI_CNSTC_YEAR": str(rng.randint(2012, 2025)), "X_SWIFI_INOUT_DOOR": rng.choice(["실외", "실내"]),
                             "X_SWIFI_REMARS3": "", "LAT": f"{37.45 + rng.uniform(0, 0.25):.6f}", "LNT": f"{126.8 + rng.uniform(0, 0.35):.6f}",
                             "WORK_DTTM": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} 10:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.0"})
            return rows
        return self.cached(("wifi",), build)

    # ---- law -----------------------------------------------------------------------
    def laws(self) -> list[dict[str, str]]:
        """Laws, 시행령 and 시행규칙 (법령일련번호 = MST, 법령ID, 법령명한글, 공포일자, …)."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("laws")
            p = pools()
            stems = list(p["law_stems"]) + [t for t in p["bill_topics"] if t.endswith("법") or t.endswith("률")]
            rows = []
            names: set[str] = set()
            for stem in stems:
                base = stem if stem.endswith(("법", "률")) else (f"{stem} 법률" if stem.endswith("관한") else f"{stem}법")
                if base in names:
                    continue
                for suffix, kind in (("", "법률"), (" 시행령", "대통령령"), (" 시행규칙", "총리령" if rng.random() < 0.2 else "부령")):
                    names.add(base + suffix)
                    rows.append((base + suffix, kind))
            extra = 0
            while len(rows) < 1600:
                extra += 1
                region = rng.choice(self.sidos())
                nm = f"{region.leaf[:2]}{rng.choice(['지역', '권역', '광역'])} {rng.choice(p['law_stems'])} 지원에 관한 특별법"
                if nm not in names:
                    names.add(nm)
                    rows.append((nm, "법률"))
            out = []
            mst = 250000
            for i, (nm, kind) in enumerate(rows):
                mst += rng.randint(1, 60)
                prom = date(rng.randint(2015, 2025), rng.randint(1, 12), rng.randint(1, 28))
                enf = min(TODAY, prom + timedelta(rng.choice([0, 30, 90, 180, 365])))
                out.append({"법령일련번호": str(mst), "현행연혁코드": "현행", "법령명한글": nm,
                            "법령약칭명": "", "법령ID": f"{1000 + i * 3:06d}", "공포일자": _ymd(prom),
                            "공포번호": str(rng.randint(10000, 21000)), "제개정구분명": rng.choice(["일부개정", "일부개정", "타법개정", "전부개정", "제정"]),
                            "소관부처코드": str(1170000 + rng.randint(0, 999)), "소관부처명": rng.choice(p["law_ministries"]),
                            "법령구분명": kind, "공동부령정보": "", "시행일자": _ymd(enf), "자법타법여부": "",
                            "법령상세링크": f"/DRF/lawService.do?OC={{OC}}&target=law&MST={mst}&type=HTML&mobileYn=&efYd={_ymd(enf)}"})
            out.sort(key=lambda r: r["법령명한글"])
            return out
        return self.cached(("laws",), build)

    def law_articles(self, mst: str) -> list[dict[str, str]]:
        """조문 of a law (조문번호, 조문제목, 조문내용) for lawService detail."""
        def build() -> list[dict[str, str]]:
            law = next((l for l in self.laws() if l["법령일련번호"] == mst), None)
            if law is None:
                return []
            rng = self.rng("articles", mst)
            titles = ["목적", "정의", "적용 범위", "국가 등의 책무", "다른 법률과의 관계", "기본계획의 수립", "실태조사", "위원회의 설치",
                      "신고", "허가", "지원", "보고 및 검사", "청문", "권한의 위임", "벌칙", "양벌규정", "과태료"]
            out = []
            for n, t in enumerate(titles[: rng.randint(8, len(titles))], start=1):
                out.append({"조문번호": str(n), "조문여부": "조문", "조문제목": t, "조문시행일자": law["시행일자"],
                            "조문내용": f"제{n}조({t}) 이 {'법' if law['법령구분명'] == '법률' else '영'}은 {law['법령명한글'].split(' ')[0]}에 관하여 필요한 사항을 {t}에 따라 정한다."})
            return out
        return self.cached(("articles", mst), build)

    def precedents(self) -> list[dict[str, str]]:
        """Court decisions (판례일련번호, 사건명, 사건번호, 선고일자, 법원명, …), newest first."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("precedents")
            p = pools()
            out = []
            pid = 600000
            for i in range(3200):
                pid += rng.randint(1, 30)
                kind, mark = rng.choice(p["case_kinds"])
                when = date(rng.randint(2010, 2025), rng.randint(1, 12), rng.randint(1, 28))
                court = rng.choice(p["courts"])
                topic = rng.choice(p["case_topics"])
                no = f"{when.year - rng.randint(0, 2)}{mark}{rng.randint(1000, 99999)}"
                out.append({"판례일련번호": str(pid), "사건명": topic, "사건번호": no, "선고일자": _ymd(when),
                            "법원명": court, "법원종류코드": "400201" if court == "대법원" else "400202",
                            "사건종류명": kind, "사건종류코드": str(400100 + p["case_kinds"].index([kind, mark]) + 1),
                            "판결유형": "판결" if mark != "후" else "결정", "선고": "선고", "데이터출처명": "대법원",
                            "판례상세링크": f"/DRF/lawService.do?OC={{OC}}&target=prec&ID={pid}&type=HTML&mobileYn=",
                            "판시사항": f"[1] {topic}에 관한 법리 [2] 원심판단의 당부", "판결요지": f"{topic} 사건에서 원심의 판단에 법리오해의 잘못이 없다."})
            out.sort(key=lambda r: r["선고일자"], reverse=True)
            return out
        return self.cached(("precedents",), build)

    def ordinances(self) -> list[dict[str, str]]:
        """Local ordinances (자치법규) of every 시도 and 시군구, named after their government."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("ordinances")
            p = pools()
            govs: list[tuple[str, str]] = [(s.name, s.code) for s in self.sidos()]
            for d in self.districts():
                if " " in d.name or d.sido.sido_cd == "36":
                    continue
                govs.append((d.full_name, d.region.code))
            out = []
            oid = 2000000
            for gov, code in govs:
                for topic in rng.sample(p["ordin_topics"], rng.randint(12, 25)):
                    oid += rng.randint(1, 40)
                    kind = "조례" if rng.random() < 0.85 else "규칙"
                    nm = f"{gov} {topic}{'' if topic.endswith('조례') else (' ' + kind if kind == '규칙' else ' 조례')}"
                    prom = date(rng.randint(2010, 2025), rng.randint(1, 12), rng.randint(1, 28))
                    out.append({"자치법규일련번호": str(oid), "자치법규명": nm, "자치법규ID": f"{oid - 1000000:07d}",
                                "공포일자": _ymd(prom), "공포번호": str(rng.randint(100, 9000)),
                                "제개정구분명": rng.choice(["일부개정", "일부개정", "제정", "전부개정"]), "지자체기관명": gov,
                                "자치법규종류": kind, "시행일자": _ymd(min(TODAY, prom + timedelta(rng.choice([0, 0, 30, 90])))),
                                "자치법규분야명": rng.choice(["일반공공행정", "사회복지", "문화관광", "국토 및 지역개발", "교통 및 물류", "환경"]),
                                "자치법규상세링크": f"/DRF/lawService.do?OC={{OC}}&target=ordin&MST={oid}&type=HTML&mobileYn=",
                                "region_cd": code})
            out.sort(key=lambda r: r["자치법규명"])
            return out
        return self.cached(("ordinances",), build)

    # ---- extras --------------------------------------------------------------------
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

    def ecos_tables(self) -> list[dict[str, str]]:
        """ECOS StatisticTableList rows (a small real-looking tree)."""
        rows = [("", "722Y001", "1.3.1. 한국은행 기준금리 및 여수신금리", "M"), ("", "731Y001", "3.1.1.1. 주요국 통화의 대원화환율", "D"),
                ("", "901Y009", "4.2.1. 소비자물가지수", "M"), ("", "200Y101", "2.1.1.1. 주요지표(연간지표)", "A"),
                ("", "817Y002", "1.3.2.2. 시장금리(일별)", "D"), ("", "901Y062", "4.3.1. 주택매매가격지수(KB)", "M")]
        return [{"P_STAT_CODE": p, "STAT_CODE": c, "STAT_NAME": n, "CYCLE": cy, "SRCH_YN": "Y", "ORG_NAME": "한국은행"}
                for p, c, n, cy in rows]

    def ecos_items(self, stat_code: str) -> list[dict[str, str]]:
        items = {"722Y001": [("0101000", "한국은행 기준금리")], "731Y001": [("0000001", "원/미국달러(매매기준율)"), ("0000002", "원/일본엔(100엔)"), ("0000003", "원/유로")],
                 "901Y009": [("0", "총지수")], "200Y101": [("10101", "국내총생산(GDP)(명목, 원화표시)")],
                 "817Y002": [("010200000", "국고채(3년)"), ("010210000", "국고채(10년)")], "901Y062": [("P63A", "전국")]}
        t = next((x for x in self.ecos_tables() if x["STAT_CODE"] == stat_code), None)
        if t is None:
            return []
        return [{"STAT_CODE": stat_code, "STAT_NAME": t["STAT_NAME"], "GRP_CODE": "Group1", "GRP_NAME": "계정항목",
                 "ITEM_CODE": c, "ITEM_NAME": n, "P_ITEM_CODE": "", "P_ITEM_NAME": "", "CYCLE": t["CYCLE"],
                 "START_TIME": {"D": "20000103", "M": "200001", "A": "2000"}[t["CYCLE"]],
                 "END_TIME": {"D": "20251230", "M": "202512", "A": "2024"}[t["CYCLE"]], "DATA_CNT": "0", "UNIT_NAME": "%", "WEIGHT": ""}
                for c, n in items.get(stat_code, [])]

    def ecos_series(self, stat_code: str, item_code: str, cycle: str) -> list[dict[str, str]]:
        """StatisticSearch rows of one item, oldest first (values as strings)."""
        def build() -> list[dict[str, str]]:
            item = next((i for i in self.ecos_items(stat_code) if i["ITEM_CODE"] == item_code), None)
            if item is None or item["CYCLE"] != cycle:
                return []
            rng = self.rng("ecos", stat_code, item_code)
            if cycle == "D":
                times = [_ymd(d) for d in _days(date(2020, 1, 2), date(2025, 12, 30)) if is_business_day(d) or d.year < 2024 and d.weekday() < 5]
            elif cycle == "M":
                times = [f"{y}{m:02d}" for y in range(2000, 2026) for m in range(1, 13)]
            else:
                times = [str(y) for y in range(2000, 2025)]
            v = {"722Y001": 3.0, "731Y001": 1150.0, "901Y009": 80.0, "200Y101": 650000.0, "817Y002": 2.0, "901Y062": 60.0}[stat_code]
            rows = []
            for t in times:
                v = max(0.25, v * (1 + rng.gauss(0.0005, 0.004 if cycle == "D" else 0.01)))
                rows.append({"STAT_CODE": stat_code, "STAT_NAME": item["STAT_NAME"], "ITEM_CODE1": item_code, "ITEM_NAME1": item["ITEM_NAME"],
                             "ITEM_CODE2": "", "ITEM_NAME2": "", "ITEM_CODE3": "", "ITEM_NAME3": "", "ITEM_CODE4": "", "ITEM_NAME4": "",
                             "UNIT_NAME": item["UNIT_NAME"], "WGT": "", "TIME": t,
                             "DATA_VALUE": f"{v:,.1f}" if v > 1000 else f"{v:.2f}"})
            return rows
        return self.cached(("ecos", stat_code, item_code, cycle), build)


def _unit(key: int, n: int) -> float:
    """A uniform number in [0, 1) from (key, n): splitmix64, cheap and deterministic."""
    z = (key + (n + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return ((z ^ (z >> 31)) >> 11) / float(1 << 53)


def _tick(price: float) -> int:
    """Round a price to the KRX tick size."""
    p = int(price)
    for limit, tick in ((2000, 1), (5000, 5), (20000, 10), (50000, 50), (200000, 100), (500000, 500)):
        if p < limit:
            return max(tick, p // tick * tick)
    return p // 1000 * 1000

