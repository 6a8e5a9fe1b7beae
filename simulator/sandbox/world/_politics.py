"""Politics: elections (NEC) and the 22nd National Assembly (members, bills, votes)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from ._core import DATA, NATURAL_NAMES_EDITION, pools
from ._dates import TODAY, _parse, _ymd
from ._names import _stem, hanja_name, has_final_consonant, person_name, roman_name
from ._regions import District, RegionsMixin

__all__ = ["BILLS_EDITION", "BYELECTION_EDITION", "DATED_ADDRESSES_EDITION", "DATED_REGIONS_EDITION", "INVENTED_PARTIES_EDITION",
           "PRELIMINARY_TYPES", "REAL_CONSTITUENCIES_EDITION", "UPCOMING_SG_ID", "Place", "PoliticsMixin",
           "assembly22_constituencies", "bill_law_title", "invented_parties", "new_law_bill_title"]

#: Edition 3: the election whose preliminary-candidate registration is open on ``TODAY``.
UPCOMING_SG_ID = "20260603"
#: The sgTypecodes of the upcoming election that take preliminary candidates in the sandbox.
PRELIMINARY_TYPES = ("3", "4", "11")
#: Edition 8: the elections' candidates and winners, and so the 22nd Assembly's members and votes,
#: carry invented parties (``parties_invented`` in ``data/pools.yaml``, each running between its
#: founding and dissolution dates), never a real party: the sgIds, dates and offices are real, the
#: candidates and results invented, and a real party's name next to an invented result would pose
#: as a fact about that party. 교육감 and 교육의원 candidates carry no party (they run without one).
INVENTED_PARTIES_EDITION = 8
#: Edition 8: an election row names its places as they were on the vote date (강원도 before
#: 2023-06-11, 전라북도 before 2024-01-18, 군위군 in 경상북도 before 2023-07-01, 부천시 without its
#: 일반구 before 2024-01-01, 화성시 without its 일반구 before February 2026) and lists the 시도 in the
#: NEC's order; 구·시·군의 장 are elected per 시 (not per 일반구) and not in 세종 and 제주, which have no
#: 기초자치단체, and 구·시·군의회 (and its 비례대표) likewise; 교육의원 only in 제주.
DATED_REGIONS_EDITION = 8
#: Edition 9: the generated NEC endpoints' places (투표소, 사전투표소, 개표소, 선거사무소: ``sdName``,
#: ``wiwName``, ``emdName``, ``addr``, ``placeAddr``) lie in one of the election's places as of its
#: vote date (:meth:`PoliticsMixin.election_places`, :meth:`PoliticsMixin.dated_address`), within
#: the 시도 and 구시군 the request names (none where it names a place that did not exist then),
#: as the curated candidates' and winners' addresses do from edition 8; before, an address of
#: today's districts anywhere in the country ("강원특별자치도 동해시" for a 2020 polling place).
DATED_ADDRESSES_EDITION = 9
#: Edition 9: the 22nd National Assembly election (20240410, sgTypecode 2) has its 254 real 지역구
#: (``data/assembly22_constituencies.txt``, a fact list: see ``data/SOURCES.txt``), each covering
#: the districts its name lists (a city's 갑/을/… each the whole city: the real boundaries within a
#: city are not modelled), so the 22nd Assembly has its 300 seats (254 and 46 비례대표); the
#: candidates and results stay invented. Before, 245 지역구 named after the districts by the
#: world's own rule (종로구갑 and 종로구을, 금천구갑 …), names the real election did not have.
REAL_CONSTITUENCIES_EDITION = 9
#: The sgId of the election whose 지역구 are the real ones from edition 9.
_ASSEMBLY22 = "20240410"


@lru_cache(maxsize=1)
def assembly22_constituencies() -> tuple[tuple[str, str], ...]:
    """The 254 (sdName, sggName) of the 22nd Assembly election's 지역구, in the NEC's order."""
    with open(DATA / "assembly22_constituencies.txt", encoding="utf-8") as f:
        return tuple((sd, sgg) for sd, sgg in (line.rstrip("\n").split("\t") for line in f
                                                if line.strip() and not line.startswith("#")))

#: Edition 8: the 22nd Assembly's invented bills take numbers (``BILL_NO``) from 2290001 on, a range
#: the real 22nd Assembly has not reached (its bills are numbered 2200001 up), so no invented bill
#: carries a real bill's number; a bill goes to its statute's standing committee
#: (``_STATUTE_COMMITTEE``); a bill that enacts a law is titled as a new law of that committee
#: (``new_law_bill_title``: a real statute cannot be enacted anew; a committee without new-law
#: topics amends its statute), and a vote's ``LAW_TITLE`` is the whole statute title
#: (``bill_law_title``; not its first word).
BILLS_EDITION = 8
#: Edition 9: the invented bills are numbered from 2260001 on (edition 8: 2290001, which reads as
#: ninety thousand bills into the 22nd Assembly). The real 22nd Assembly's numbers will not reach
#: it: its members had proposed 19,058 bills by 2026-08-30 (shared/apis.md), numbers near 2220000
#: in about 27 months; at that pace the term (to May 2028) ends near 2235000, and even at twice the
#: pace below 2250000 — while 2260001 reads as a number of the same Assembly.
BILL_NUMBERS_EDITION = 9


def bill_number(edition: int, i: int) -> str:
    """The ``BILL_NO`` of the world's ``i``-th bill (0-based) in ``edition``."""
    if edition >= BILL_NUMBERS_EDITION:
        return f"226{i + 1:04d}"
    return f"229{i + 1:04d}" if edition >= BILLS_EDITION else f"22{i + 1:05d}"

#: Edition 8: a 재·보궐선거 fills a few seats, not every one: the contests below are the real ones
#: (the office and place are public facts, as the NEC announced them and the press reported them;
#: candidates and results stay invented); an office of a 재·보궐선거 not listed here holds one to
#: three contests picked by the seed (invented places: the real 지방의회 by-elections are not here).
BYELECTION_EDITION = 8
_BYELECTION_CONTESTS: dict[tuple[str, str], set[tuple[str, str]]] = {
    ("20210407", "3"): {("서울특별시", "서울특별시"), ("부산광역시", "부산광역시")},
    ("20230405", "2"): {("전라북도", "전주시을")},
    ("20230405", "4"): {("경상남도", "창녕군")},
    ("20230405", "11"): {("울산광역시", "울산광역시")},
    ("20241016", "4"): {("부산광역시", "금정구"), ("인천광역시", "강화군"), ("전라남도", "영광군"), ("전라남도", "곡성군")},
    ("20241016", "11"): {("서울특별시", "서울특별시")},
    ("20250402", "4"): {("서울특별시", "구로구"), ("충청남도", "아산시"), ("경상북도", "김천시"), ("전라남도", "담양군"),
                        ("경상남도", "거제시")},
}

#: Edition 8: the standing committee a bill amending each statute of ``bill_topics`` goes to (the
#: statute's ministry's committee; before, a committee by the statute's position in the pool).
_STATUTE_COMMITTEE = {
    "주택임대차보호법": "법제사법위원회",
    "형법": "법제사법위원회",
    "형사소송법": "법제사법위원회",
    "민법": "법제사법위원회",
    "상법": "법제사법위원회",
    "중대재해 처벌 등에 관한 법률": "법제사법위원회",
    "자본시장과 금융투자업에 관한 법률": "정무위원회",
    "개인정보 보호법": "정무위원회",
    "전자상거래 등에서의 소비자보호에 관한 법률": "정무위원회",
    "독점규제 및 공정거래에 관한 법률": "정무위원회",
    "은행법": "정무위원회",
    "보험업법": "정무위원회",
    "여신전문금융업법": "정무위원회",
    "신용정보의 이용 및 보호에 관한 법률": "정무위원회",
    "조세특례제한법": "기획재정위원회",
    "소득세법": "기획재정위원회",
    "법인세법": "기획재정위원회",
    "부가가치세법": "기획재정위원회",
    "교육기본법": "교육위원회",
    "초·중등교육법": "교육위원회",
    "고등교육법": "교육위원회",
    "유아교육법": "교육위원회",
    "전기통신사업법": "과학기술정보방송통신위원회",
    "정보통신망 이용촉진 및 정보보호 등에 관한 법률": "과학기술정보방송통신위원회",
    "병역법": "국방위원회",
    "군인사법": "국방위원회",
    "도로교통법": "행정안전위원회",
    "지방세법": "행정안전위원회",
    "공직선거법": "행정안전위원회",
    "정치자금법": "행정안전위원회",
    "지방자치법": "행정안전위원회",
    "국가공무원법": "행정안전위원회",
    "지방공무원법": "행정안전위원회",
    "재난 및 안전관리 기본법": "행정안전위원회",
    "소방기본법": "행정안전위원회",
    "저작권법": "문화체육관광위원회",
    "문화예술진흥법": "문화체육관광위원회",
    "관광진흥법": "문화체육관광위원회",
    "체육시설의 설치·이용에 관한 법률": "문화체육관광위원회",
    "농업협동조합법": "농림축산식품해양수산위원회",
    "수산업법": "농림축산식품해양수산위원회",
    "특허법": "산업통상자원중소벤처기업위원회",
    "국민건강보험법": "보건복지위원회",
    "영유아보육법": "보건복지위원회",
    "아동복지법": "보건복지위원회",
    "노인복지법": "보건복지위원회",
    "장애인복지법": "보건복지위원회",
    "국민연금법": "보건복지위원회",
    "식품위생법": "보건복지위원회",
    "약사법": "보건복지위원회",
    "의료법": "보건복지위원회",
    "감염병의 예방 및 관리에 관한 법률": "보건복지위원회",
    "근로기준법": "환경노동위원회",
    "고용보험법": "환경노동위원회",
    "산업안전보건법": "환경노동위원회",
    "환경영향평가법": "환경노동위원회",
    "대기환경보전법": "환경노동위원회",
    "물환경보전법": "환경노동위원회",
    "폐기물관리법": "환경노동위원회",
    "건축법": "국토교통위원회",
    "주택법": "국토교통위원회",
    "도시 및 주거환경정비법": "국토교통위원회",
    "국토의 계획 및 이용에 관한 법률": "국토교통위원회",
    "부동산 거래신고 등에 관한 법률": "국토교통위원회",
    "청소년 보호법": "여성가족위원회",
}

#: Provinces renamed since 2017: sido_cd → (the name before, the day the new name began).
_SIDO_RENAMED = {"51": ("강원도", "20230611"), "52": ("전라북도", "20240118")}
#: Districts moved to another province: lawd_cd → (the province's code before, the day it moved).
_DISTRICT_MOVED = {"27720": ("47", "20230701")}  # 군위군: 경상북도 → 대구광역시
#: Cities whose 일반구 began after 2017 (city → the day): before it the city was one district.
_GU_SINCE = {"부천시": "20240101", "화성시": "20260201"}  # 화성: the 구청 opened in February 2026
#: The NEC's order of the 시도 (강원 after 경기, 전북 after 충남, as their old codes 42 and 45).
_NEC_ORDER = {"51": "42", "52": "45"}


def invented_parties(sg_id: str) -> list[str]:
    """The invented parties that run in the election of ``sg_id`` (ballot order, without 무소속)."""
    return [str(n) for n, founded, gone in pools()["parties_invented"] if founded <= sg_id and (not gone or sg_id < gone)]


@dataclass(frozen=True, slots=True)
class Place:
    """A 구시군 as an election of one date knew it (edition 8 dates it; before, one per district)."""

    name: str  # "강남구", "수원시 장안구", "부천시" (before its 일반구)
    sido_cd: str
    sd_name: str
    lawd_cds: tuple[str, ...]
    activity: float
    district: District  # its first district (for addresses)
    parts: int = 1  # the 일반구 of today merged into it (the Assembly gives each a seat, as before)


class PoliticsMixin(RegionsMixin):
    """NEC elections, constituencies, candidates and turnout; Assembly members and bills."""

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
            if self.edition >= 3:  # upcoming: preliminary candidates registered, no vote yet
                plan.append((UPCOMING_SG_ID, "제9회 전국동시지방선거", ["0", "3", "4", "5", "6", "8", "9", "11"]))
            rows: list[dict[str, str]] = []
            for sg_id, name, types in plan:
                for tc in types:
                    rows.append({"num": str(len(rows) + 1), "sgId": sg_id,
                                 "sgName": name if tc == "0" else t[tc], "sgTypecode": tc, "sgVotedate": sg_id})
            return rows
        return self.cached(("elections",), build)

    def sido_name_on(self, sido_cd: str, sg_id: str) -> str:
        """A province's name on an election's date (edition 8; before, today's name)."""
        region = self.region(sido_cd + "00000000")
        assert region is not None
        old = _SIDO_RENAMED.get(sido_cd)
        if self.edition >= DATED_REGIONS_EDITION and old and sg_id < old[1]:
            return old[0]
        return region.name

    def election_places(self, sg_id: str) -> list[Place]:
        """The 구시군 of an election (edition 8: as of its date, in the NEC's 시도 order)."""
        def build() -> list[Place]:
            if self.edition < DATED_REGIONS_EDITION:
                return [Place(d.name, d.sido.sido_cd, d.sido.name, (d.lawd_cd,), d.activity, d) for d in self.districts()]
            out: list[Place] = []
            merged: dict[str, int] = {}
            for d in self.districts():
                moved = _DISTRICT_MOVED.get(d.lawd_cd)
                sido_cd = moved[0] if moved and sg_id < moved[1] else d.sido.sido_cd
                city = d.name.split(" ")[0] if " " in d.name else ""
                if city and sg_id < _GU_SINCE.get(city, ""):
                    if city in merged:
                        p = out[merged[city]]
                        out[merged[city]] = replace(p, lawd_cds=(*p.lawd_cds, d.lawd_cd), activity=p.activity + d.activity,
                                                    parts=p.parts + 1)
                        continue
                    merged[city] = len(out)
                    out.append(Place(city, sido_cd, self.sido_name_on(sido_cd, sg_id), (d.lawd_cd,), d.activity, d))
                    continue
                out.append(Place(d.name, sido_cd, self.sido_name_on(sido_cd, sg_id), (d.lawd_cd,), d.activity, d))
            out.sort(key=lambda p: _NEC_ORDER.get(p.sido_cd, p.sido_cd))
            return out
        return self.cached(("places", sg_id), build)

    def _place_of(self, sg_id: str, lawd_cd: str) -> Place | None:
        return self.cached(("place_index", sg_id), lambda: {c: p for p in self.election_places(sg_id) for c in p.lawd_cds}).get(lawd_cd)

    def _address(self, d: District, sg_id: str) -> str:
        """A district's full name on an election's date (edition 8; before, today's)."""
        full = d.full_name
        place = self._place_of(sg_id, d.lawd_cd) if self.edition >= DATED_REGIONS_EDITION else None
        if place is None:
            return full
        if full.startswith(d.sido.name):
            full = place.sd_name + full[len(d.sido.name):]
        return full.replace(d.name, place.name, 1) if place.name != d.name else full

    def dated_address(self, d: District, sg_id: str) -> str:
        """A district's full name on an election's date ("강원도 춘천시" for 20200415), as the
        election's candidates and winners carry it (edition 8 on; before, today's)."""
        return self._address(d, sg_id)

    def _parties(self, sg_id: str, tc: str) -> list[str] | None:
        """Edition 8: the parties of an election's candidates in ballot order, then 무소속 ([] for
        교육감 and 교육의원, who run without one); None before edition 8."""
        if self.edition < INVENTED_PARTIES_EDITION:
            return None
        return [] if tc in ("10", "11") else [*invented_parties(sg_id), "무소속"]

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
        if self.edition >= DATED_REGIONS_EDITION:
            rows = self._build_constituencies_dated(sg_id, tc, rows, add)
            return self._byelection_contests(sg_id, tc, rows) if self.edition >= BYELECTION_EDITION else rows
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

    def _build_constituencies_dated(self, sg_id: str, tc: str, rows: list[dict[str, Any]], add: Any) -> list[dict[str, Any]]:
        """Edition 8's 선거구: places as of the vote date (:meth:`election_places`)."""
        places = self.election_places(sg_id)
        if tc in ("3", "8", "11"):
            for sido_cd in dict.fromkeys(p.sido_cd for p in places):
                sd = self.sido_name_on(sido_cd, sg_id)
                add(sd if tc != "8" else f"{sd}비례대표", sd, "", [c for p in places if p.sido_cd == sido_cd for c in p.lawd_cds])
            return rows
        if tc == "2":
            if sg_id == _ASSEMBLY22 and self.edition >= REAL_CONSTITUENCIES_EDITION:
                return self._real_assembly_districts(sg_id)
            return self._assembly_districts(sg_id)
        local = [p for p in places if p.sido_cd not in ("36", "50")]  # 세종, 제주: no 기초자치단체
        if tc == "4":
            cities: dict[tuple[str, str], list[Place]] = {}
            for p in local:
                cities.setdefault((p.sido_cd, p.name.split(" ")[0]), []).append(p)
            for (_sido, city), ps in cities.items():
                add(city, ps[0].sd_name, city, [c for p in ps for c in p.lawd_cds])
            return rows
        rng = self.rng("sgg", sg_id, tc)
        if tc == "10":  # 교육의원: only 제주 elects them
            places = [p for p in places if p.sido_cd == "50"]
        for p in (places if tc in ("5", "10") else local):
            wiw = p.name.replace(" ", "")
            for k in range(1, 2 + min(5, int(p.activity * 2.5))):
                suffix = f"제{k}선거구" if tc in ("5", "10") else f"{'가나다라마바'[k - 1]}선거구"
                add(f"{wiw}{suffix}", p.sd_name, wiw, list(p.lawd_cds), 1 if tc in ("5", "10") else rng.randint(2, 4))
        return rows

    def _byelection_contests(self, sg_id: str, tc: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A 재·보궐선거's contests among every 선거구 of its office (edition 8)."""
        if not self._is_byelection(sg_id):
            return rows
        real = _BYELECTION_CONTESTS.get((sg_id, tc))
        if real is not None:
            kept = [r for r in rows if (r["sdName"], r["sggName"]) in real]
            assert len(kept) == len(real), (sg_id, tc, real)
        else:
            rng = self.rng("byelection", sg_id, tc)
            kept = [rows[i] for i in sorted(rng.sample(range(len(rows)), min(len(rows), rng.randint(1, 3))))]
        return [{**r, "num": str(i), "sOrder": str(i), "sggJungsu": "1"} for i, r in enumerate(kept, start=1)]

    def _is_byelection(self, sg_id: str) -> bool:
        return any(e["sgId"] == sg_id and e["sgTypecode"] == "0" and "재·보궐" in e["sgName"] for e in self.elections())

    def _assembly_districts(self, sg_id: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        marks = "갑을병정무"
        by_sido: dict[str, list[Place]] = {}
        for d in self.election_places(sg_id):
            by_sido.setdefault(d.sido_cd, []).append(d)
        for sido_cd, ds in by_sido.items():
            sd = ds[0].sd_name
            cities: dict[str, list[Place]] = {}
            for d in ds:
                if " " in d.name:  # 일반구 of a city: one 선거구 per 구, named after the city
                    cities.setdefault(d.name.split(" ")[0], []).append(d)
                elif d.parts > 1:  # a city before its 일반구 (edition 8): as many 선거구, in the city
                    cities.setdefault(d.name, []).extend([d] * d.parts)
            for city, gus in cities.items():
                for k, d in enumerate(gus):
                    rows.append(self._sgg_row(rows, sg_id, f"{city}{marks[k % 5]}", sd, d.name.replace(" ", ""), list(d.lawd_cds)))
            small: list[Place] = []
            for d in ds:
                if " " in d.name or d.parts > 1:
                    continue
                seats = 1 + (d.activity > 0.9) + (d.activity > 1.5)
                if seats == 1 and d.activity < 0.1:
                    small.append(d)
                    if len(small) == 2:
                        nm = "".join(x.name for x in small)
                        rows.append(self._sgg_row(rows, sg_id, nm, sd, small[0].name, [c for x in small for c in x.lawd_cds]))
                        small = []
                    continue
                for k in range(seats):
                    nm = d.name + (marks[k] if seats > 1 else "")
                    rows.append(self._sgg_row(rows, sg_id, nm, sd, d.name, list(d.lawd_cds)))
            for d in small:
                rows.append(self._sgg_row(rows, sg_id, d.name, sd, d.name, list(d.lawd_cds)))
        return rows

    def _real_assembly_districts(self, sg_id: str) -> list[dict[str, Any]]:
        """Edition 9: the real 지역구 of the 22nd Assembly election, each over the places its name
        lists ("춘천시철원군화천군양구군갑": 춘천시, 철원군, 화천군, 양구군; "수원시갑": every 구 of 수원시)."""
        places = self.election_places(sg_id)
        rows: list[dict[str, Any]] = []
        for sd, sgg in assembly22_constituencies():
            mine = [p for p in places if p.sd_name == sd]
            names: dict[str, list[Place]] = {}
            for p in mine:
                names.setdefault(p.name.replace(" ", ""), []).append(p)
                if " " in p.name:  # a city of 일반구 by its own name: all its 구
                    names.setdefault(p.name.split(" ")[0], []).append(p)
            if mine:  # a real 시군 the world's district list lacks (충청북도 영동군): named, not covered
                for r in self.regions():
                    if r.code[:2] == mine[0].sido_cd and r.code[5:] == "00000" and r.code[2:5] != "000":
                        names.setdefault(r.leaf, [])
            rest = sgg[:-1] if sgg[-1] in "갑을병정무" and sgg[:-1] not in ("", "세종특별자치") and sgg[:-1][-1] in "시군구" else sgg
            if sd == "세종특별자치시":
                rest = "세종특별자치시"
            covered: list[Place] = []
            heads: list[str] = []
            while rest:
                head = max((n for n in names if rest.startswith(n)), key=len, default=None)
                if head is None:
                    raise ValueError(f"선거구 {sd} {sgg}: no place of {sg_id} named {rest!r}")
                covered += names[head]
                heads.append(head)
                rest = rest[len(head):]
            rows.append(self._sgg_row(rows, sg_id, sgg, sd, heads[0], [c for p in covered for c in p.lawd_cds]))
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

    def preliminary_candidates(self, sg_id: str, sg_typecode: str) -> list[dict[str, Any]]:
        """예비후보자 rows of the upcoming election (edition 3; [] for a past one: INFO-03)."""
        return self.cached(("prelim", sg_id, sg_typecode), lambda: self._build_preliminary(sg_id, sg_typecode))

    def _build_preliminary(self, sg_id: str, tc: str) -> list[dict[str, Any]]:
        if self.edition < 3 or sg_id != UPCOMING_SG_ID or tc not in PRELIMINARY_TYPES:
            return []
        rng = self.rng("preliminary", sg_id, tc)
        p = pools()
        dated = self._parties(sg_id, tc)
        parties = [x for x in p["parties_22"] if x != "무소속"] if dated is None else [x for x in dated if x != "무소속"]
        opened = _parse("20251202")  # the sandbox opens registration early so the endpoint has data
        rows: list[dict[str, Any]] = []
        hid = 900_000_000 + int(tc) * 1_000_000
        for sgg in self.constituencies(sg_id, tc):
            for _ in range(rng.randint(1, 4) if tc == "4" else rng.randint(2, 7)):
                hid += rng.randint(1, 40)
                name = person_name(rng)
                birth = date(rng.randint(1950, 1988), rng.randint(1, 12), rng.randint(1, 28))
                addr_d = self.district(sgg["lawd_cds"][0]) if sgg["lawd_cds"] else rng.choice(self.entity_districts())
                assert addr_d is not None
                rows.append({
                    "num": "0", "sgId": sg_id, "sgTypecode": tc, "huboid": str(hid), "sggName": sgg["sggName"],
                    "sdName": sgg["sdName"], "wiwName": sgg["wiwName"],
                    "jdName": "" if tc == "11" or not parties else (rng.choice(parties) if rng.random() < 0.85 else "무소속"),
                    "name": name, "hanjaName": hanja_name(name), "gender": rng.choice(["남", "남", "여"]),
                    "birthday": _ymd(birth), "age": str(2026 - birth.year - 1),
                    "addr": f"{self._address(addr_d, sg_id)} {_stem(rng.choice(addr_d.dongs).leaf) if addr_d.dongs else ''}로",
                    "jobId": str(rng.randint(1, 90)), "job": rng.choice(p["jobs"]), "eduId": str(rng.randint(1, 80)),
                    "edu": rng.choice(p["edus"]), "career1": rng.choice(p["careers"]), "career2": rng.choice(p["careers"]),
                    "status": "사퇴" if rng.random() < 0.06 else "등록",
                    "regdate": _ymd(opened + timedelta(rng.randint(0, (TODAY - opened).days))),
                })
        for i, r in enumerate(rows, start=1):
            r["num"] = str(i)
        return rows

    def _build_candidates(self, sg_id: str, tc: str) -> list[dict[str, Any]]:
        if self.edition >= 3 and sg_id > _ymd(TODAY):
            return []  # the upcoming election: candidates register in May, nobody has won yet
        rng = self.rng("candidates", sg_id, tc)
        p = pools()
        dated = self._parties(sg_id, tc)
        if dated is not None:
            parties = dated
        else:
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
                party = ("" if not parties else parties[k % len(parties)] if k < len(parties) else "무소속")
                win = order.index(k) < seats
                addr_d = self.district(sgg["lawd_cds"][0]) if sgg["lawd_cds"] else rng.choice(self.entity_districts())
                assert addr_d is not None
                rows.append({
                    "num": "0", "sgId": sg_id, "sgTypecode": tc, "huboid": str(hid), "sggName": sgg["sggName"],
                    "sdName": sgg["sdName"], "wiwName": sgg["wiwName"], "giho": str(k + 1), "gihoSangse": "",
                    "jdName": party, "name": name, "hanjaName": hanja_name(name), "gender": rng.choice(["남", "남", "여"]),
                    "birthday": _ymd(birth), "age": str(int(sg_id[:4]) - birth.year - 1),
                    "addr": f"{self._address(addr_d, sg_id)} {_stem(rng.choice(addr_d.dongs).leaf) if addr_d.dongs else ''}로",
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
            if self.edition >= 3 and sg_id > _ymd(TODAY):
                return []  # not voted yet
            rng = self.rng("turnout", sg_id, sg_typecode)
            rows = []
            tot = [0, 0]
            places = self.election_places(sg_id)
            if self.edition >= BYELECTION_EDITION and self._is_byelection(sg_id):  # only where a contest was held
                types = [sg_typecode] if sg_typecode != "0" else [e["sgTypecode"] for e in self.elections() if e["sgId"] == sg_id]
                held = {c for t in types for r in self.constituencies(sg_id, t) for c in r["lawd_cds"]}
                places = [p for p in places if held & set(p.lawd_cds)]
            for d in places:
                electors = int(40_000 + d.activity * 300_000 * rng.uniform(0.8, 1.2))
                voted = int(electors * rng.uniform(0.55, 0.78))
                tot[0] += electors
                tot[1] += voted
                rows.append({"sgId": sg_id, "sgTypecode": sg_typecode, "sdName": d.sd_name, "wiwName": d.name.replace(" ", ""),
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

    # ---- National Assembly ---------------------------------------------------------
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
            elif self.edition >= REAL_CONSTITUENCIES_EDITION and w["sggName"].startswith(w["sdName"]):
                orig = w["sggName"]  # "세종특별자치시갑", as the Assembly names it (no 시도 before it)
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
        if self.edition >= BILLS_EDITION:
            by_name = {n: (c, n) for c, n in pools()["committees"]}
            comm_by_topic = {t: by_name[_STATUTE_COMMITTEE[t]] for t in p["bill_topics"]}
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        rows = []
        start = date(2024, 5, 30)
        span = (date(2025, 12, 20) - start).days
        dates = sorted(start + timedelta(rng.randint(0, span)) for _ in range(6000))
        # Edition 9 (254 real 지역구, 300 members): every member is drawn from a generator of its
        # own, and the bills' stream draws as edition 8 did over its members (so BILL_IDs, dates
        # and which bills were voted stay edition 8's; ``_members_before``); co-proposers' names
        # and MONA_CDs are the same members (edition 8 drew them apart).
        stable = self.edition >= REAL_CONSTITUENCIES_EDITION
        before = self._members_before() if stable else len(members)

        def pick(i: int, k: int) -> dict[str, Any]:
            if not stable:
                return rng.choice(members)
            rng.randrange(before)
            return members[self.rng("bill_member", i, k).randrange(len(members))]

        for i, when in enumerate(dates):
            m = pick(i, 0)
            topic = rng.choice(p["bill_topics"])
            kind = rng.choice(["일부개정법률안", "일부개정법률안", "일부개정법률안", "전부개정법률안", "제정법률안"])
            name = f"{topic} {kind}" if kind != "제정법률안" else f"{topic.split(' ')[0]} 특별법안"
            if kind == "제정법률안" and self.edition >= NATURAL_NAMES_EDITION:  # a new law of the bill's committee
                name = new_law_bill_title(self.rng("bill_title", i), comm_by_topic[topic][1]) or f"{topic} 일부개정법률안"
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
                "BILL_ID": bill_id, "BILL_NO": bill_number(self.edition, i), "BILL_NAME": name, "COMMITTEE": cmit[1],
                "COMMITTEE_ID": f"9700{cmit[0] % 1000:03d}" if False else str(cmit[0]),
                "PROPOSE_DT": when.isoformat(), "PROC_RESULT": result, "PROC_DT": proc.isoformat() if proc else None,
                "AGE": "22", "DETAIL_LINK": f"http://likms.assembly.go.kr/bill/billDetail.do?billId={bill_id}",
                "PROPOSER": f"{m['HG_NM']}의원 등 {co}인", "MEMBER_LIST": f"https://open.assembly.go.kr/portal/assm/search/memberSchPage.do?billId={bill_id}",
                "RST_PROPOSER": m["HG_NM"], "PUBL_PROPOSER": ",".join(pick(i, k)["HG_NM"] for k in range(1, 1 + min(co, 6))),
                "RST_MONA_CD": m["MONA_CD"], "PUBL_MONA_CD": ",".join(pick(i, k if stable else 0)["MONA_CD"]
                                                                     for k in range(1, 1 + min(co, 6))),
                "CMT_PROC_RESULT_CD": result if result in ("원안가결", "수정가결", "대안반영폐기") else None,
                "CMT_PRESENT_DT": (when + timedelta(7)).isoformat(), "CMT_PROC_DT": proc.isoformat() if proc else None,
                "LAW_PRESENT_DT": None, "LAW_PROC_DT": None, "LAW_PROC_RESULT_CD": None,
                "voted": result in ("원안가결", "수정가결", "부결"),
            })
        return rows

    def _members_before(self) -> int:
        """How many members edition 8's 22nd Assembly had (its rule-made 지역구 and 46 비례대표)."""
        return min(300, len(self._assembly_districts(_ASSEMBLY22)) + 46)

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
        parties = pools()["parties_22"] if self.edition < INVENTED_PARTIES_EDITION else [*invented_parties("20240410"), "무소속"]
        members = self.members()
        rows = []
        law_title = bill_law_title(b["BILL_NAME"]) if self.edition >= NATURAL_NAMES_EDITION else b["BILL_NAME"].split(" ")[0]
        for i, vote in choices:
            m = members[i]
            rows.append({
                "HG_NM": m["HG_NM"], "HJ_NM": m["HJ_NM"], "POLY_NM": m["POLY_NM"], "ORIG_NM": m["ORIG_NM"],
                "MEMBER_NO": str(i + 1), "POLY_CD": str(101000 + (parties.index(m["POLY_NM"]) if m["POLY_NM"] in parties else 999)),
                "ORIG_CD": str(200 + i), "VOTE_DATE": when, "BILL_NO": b["BILL_NO"], "BILL_NAME": b["BILL_NAME"],
                "BILL_ID": bill_id, "LAW_TITLE": law_title, "CURR_COMMITTEE": b["COMMITTEE"],
                "RESULT_VOTE_MOD": vote, "DEPT_CD": b["COMMITTEE_ID"], "CURR_COMMITTEE_ID": b["COMMITTEE_ID"],
                "DISP_ORDER": i + 1, "BILL_URL": b["DETAIL_LINK"], "BILL_NAME_URL": b["DETAIL_LINK"],
                "SESSION_CD": 420 + (int(b["PROC_DT"][:4]) - 2024) * 10, "CURRENTS_CD": 1 + i % 20,
                "AGE": 22, "MONA_CD": m["MONA_CD"],
            })
        return rows


def new_law_bill_title(rng: random.Random, committee: str) -> str | None:
    """Edition 8: a 제정법률안's title, as the Assembly's read: a topic of ``bill_new_topics`` of
    the committee the bill goes to, in one of the usual forms ("…에 관한 법률안", "…에 관한
    특별법안", "…을 위한 특별법안", "… 기본법안"); None for a committee without new-law topics
    (the bill amends its statute instead). Edition 7 titled it from an existing law ("의료법
    특별법안")."""
    topics = pools()["bill_new_topics"].get(committee)
    if not topics:
        return None
    topic = rng.choice(topics)
    obj = "을" if has_final_consonant(topic) else "를"
    return rng.choice([f"{topic}에 관한 법률안", f"{topic}에 관한 특별법안", f"{topic}{obj} 위한 특별법안", f"{topic} 기본법안"])


def bill_law_title(bill_name: str) -> str:
    """The law a bill is about (the vote rows' ``LAW_TITLE``, edition 8): "자본시장과 금융투자업에
    관한 법률 일부개정법률안" → "자본시장과 금융투자업에 관한 법률"; a new law's bill → its title
    without 안 ("반려동물 보호 기본법안" → "반려동물 보호 기본법")."""
    for tail in (" 일부개정법률안", " 전부개정법률안"):
        if bill_name.endswith(tail):
            return bill_name[: -len(tail)]
    return bill_name.removesuffix("안")
