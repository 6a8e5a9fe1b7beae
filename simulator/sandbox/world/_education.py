"""Education (NEIS): offices, schools, meals, schedules, classes and timetables."""

from __future__ import annotations

import re
from datetime import date, timedelta
from collections.abc import Callable, Iterator
from typing import Any

from ._core import NATURAL_NAMES_EDITION, pools
from ._dates import _days, _parse, _ymd, is_business_day
from ._names import _stem, romanize
from ._regions import RegionsMixin

__all__ = ["NATURAL_NAMES_EDITION", "EducationMixin", "school_stem"]

#: Second syllables of a neighbourhood's later schools (잠실 → 잠신초, 잠일초, 잠현초).
_SECOND_SYLLABLES = ("일", "신", "동", "서", "남", "북", "현", "원", "곡", "성", "명", "광", "산", "평", "정", "덕",
                     "천", "은", "림", "양", "수", "화", "도", "빛")
_LEVEL_ENG = {"초등학교": "Elementary", "중학교": "Middle", "고등학교": "High"}
#: A high school's kind as its name says it, and in its English name.
_HS_VARIANTS = {"여자": "Girls'", "공업": "Technical", "상업": "Commercial", "외국어": "Foreign Language"}
#: Stems no school is named after (they read as a school's kind, not a place).
_NOT_STEMS = frozenset(("고등", "초등", "중등", "중학", "학교", "여자", "공업", "상업", "외국어", "중앙로"))

#: School days a school may close on at its discretion (재량휴업일: bridge days of 2025).
_CLOSED_DAY_CHOICES = ["20250502", "20250605", "20251002", "20251010", "20251226"]


class EducationMixin(RegionsMixin):
    """NEIS schools of every district and their per-month, per-day records."""

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
            for d in [x for x in self.entity_districts() if x.sido.sido_cd == sido_cd]:
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
        if self.edition >= NATURAL_NAMES_EDITION:
            self._natural_school_names(out)
        elif self.edition >= 3:
            self._disambiguate_school_names(out)
        return out

    def _natural_school_names(self, schools: list[dict[str, Any]]) -> None:
        """Edition 8: every school named as real Korean schools are (in place; each school's own
        random stream, so no other value changes).

        A school keeps the stem it was drawn with (its 동's, cleaned: 을지로7가 → 을지, or a word of
        the pool) when no other school keeps that name (the first in code order keeps it; as in
        edition 3, every name names one school, across offices too); else it takes another 동 of
        its district,
        the first syllable of its 동's stem and another one (잠실 → 잠신, 잠일, 잠현: as the schools of
        one neighbourhood are named), a word of ``school_words``, the same with another 동's first
        syllable, its 시·군's name (김제중학교; never a 구's), and only then
        "제2", "제3" … A 고등학교 keeps its kind (여자, 공업 …); a Seoul 초등학교 drawn with the
        "서울" prefix keeps it (서울대치초등학교), and the prefix does not make a name free
        (낙원초등학교 and 서울낙원초등학교 are one name). ENG_SCHUL_NM follows, word by word, as
        NEIS writes it ("Seoul Daechi Elementary School", "Hanbit Girls' High School"), and so does
        the homepage's host (HMPG_ADRES).
        """
        words = pools()["school_words"]
        sidos = set(pools()["sido_short"].values()) - {"세종"}  # 부산중학교 only in 부산 (세종 is a king too)
        taken: set[str] = set()
        todo: list[tuple[dict[str, Any], bool, str, str, str, Callable[[str], bool]]] = []
        for s in schools:
            nm, kind = s["SCHUL_NM"], s["SCHUL_KND_SC_NM"]
            if s["SD_SCHUL_CODE"] == "7091380":  # the real sample's school, as it is
                taken.add("대치" + kind)
                s["ENG_SCHUL_NM"] = "Seoul Daechi Elementary School"
                continue
            rest = nm[: -len(kind)]
            seoul = kind == "초등학교" and s["LCTN_SC_NM"] == "서울특별시" and rest.startswith("서울")
            rest = rest[2:] if seoul else rest
            variant = next((v for v in _HS_VARIANTS if kind == "고등학교" and rest.endswith(v) and len(rest) > len(v)), "")
            drawn = rest[: len(rest) - len(variant)]
            leaf = s["ORG_RDNDA"].strip("()")
            first = school_stem(leaf) if drawn == _stem(leaf) else drawn
            d = self.district(s["lawd_cd"])
            own = {pools()["sido_short"][s["dong_code"][:2]], _stem(d.name.split(" ")[0]) if d is not None else ""}

            def fits(t: str, own: set[str] = own) -> bool:
                return bool(t) and 2 <= len(t) <= 3 and t not in _NOT_STEMS and (t not in sidos or t in own)
            todo.append((s, seoul, variant, first, leaf, fits))
        named: dict[str, tuple[str, str]] = {}
        for s, _seoul, variant, first, _leaf, fits in todo:  # first every school its own stem, if free
            if fits(first) and first + variant + s["SCHUL_KND_SC_NM"] not in taken:
                taken.add(first + variant + s["SCHUL_KND_SC_NM"])
                named[s["SD_SCHUL_CODE"]] = (first, "")
        for s, _seoul, variant, first, leaf, fits in todo:  # then the others, in code order
            kind = s["SCHUL_KND_SC_NM"]
            if s["SD_SCHUL_CODE"] in named:
                continue
            tries = (t for t in self._school_stems(s, leaf, first, words) if fits(t))
            stem = next((t for t in tries if t + variant + kind not in taken), "")
            num = ""
            if not stem:
                stem = first
                num = str(next(k for k in range(2, 1000) if f"{stem}제{k}{variant}{kind}" not in taken))
            taken.add(f"{stem}{'제' + num if num else ''}{variant}{kind}")
            named[s["SD_SCHUL_CODE"]] = (stem, num)
        for s, seoul, variant, _first, _leaf, _fits in todo:
            kind = s["SCHUL_KND_SC_NM"]
            stem, num = named[s["SD_SCHUL_CODE"]]
            s["SCHUL_NM"] = f"{'서울' if seoul else ''}{stem}{'제' + num if num else ''}{variant}{kind}"
            eng = [*(["Seoul"] if seoul else []), romanize(stem).capitalize(), *([num] if num else []),
                   *([_HS_VARIANTS[variant]] if variant else []), _LEVEL_ENG[kind], "School"]
            s["ENG_SCHUL_NM"] = " ".join(eng)
            level = {"초등학교": "es", "중학교": "ms", "고등학교": "hs"}[kind]  # the homepage follows the name
            s["HMPG_ADRES"] = f"http://{romanize(stem)}{num}.{s['ATPT_OFCDC_SC_CODE'][0].lower()}{level}.kr/"

    def _disambiguate_school_names(self, schools: list[dict[str, Any]]) -> None:
        """Edition 3: every SCHUL_NM names one school (in place, no generator draw).

        The first school (in code order) keeps its name; a later one with the same name takes
        its district's stem as a prefix ("강남희망초등학교"), else its dong's, else both, else
        "제2", "제3" … before the kind ("희망제2초등학교"). ENG_SCHUL_NM follows the name.
        """
        taken: set[str] = set()
        for s in schools:
            nm, kind = s["SCHUL_NM"], s["SCHUL_KND_SC_NM"]
            if nm in taken:
                d = self.district(s["lawd_cd"])
                dist = _stem(d.name.split(" ")[-1]) if d is not None else ""
                leaf = s["ORG_RDNDA"].strip("()")
                base = nm[len("서울"):] if nm.startswith("서울") and s["LCTN_SC_NM"] == "서울특별시" else nm
                dong = _stem(leaf)
                prefixes = (dist, dong, "" if dong in (dist, "") else dist + dong)
                tries = [f"{pre}{base}" for pre in prefixes if pre and not base.startswith(pre)]
                tries += [f"{base[: -len(kind)]}제{k}{kind}" for k in range(2, 100)]
                nm = next(t for t in tries if t not in taken)
                s["SCHUL_NM"] = nm
            level = {"초등학교": "Elementary", "중학교": "Middle", "고등학교": "High"}[kind]
            s["ENG_SCHUL_NM"] = f"{romanize(nm[:-len(kind)]).capitalize()} {level} School"
            taken.add(nm)

    def _school_stems(self, s: dict[str, Any], leaf: str, first: str, words: list[str]) -> Iterator[str]:
        """The stems a school may take, in order (drawn lazily from its own random stream)."""
        yield first
        rng = self.rng("school_name", s["SD_SCHUL_CODE"])
        d = self.district(s["lawd_cd"])
        others = [school_stem(x.leaf) for x in (d.dongs if d is not None else [])]
        yield from rng.sample(others, len(others))
        home = school_stem(leaf)
        yield from (home[0] + x for x in rng.sample(_SECOND_SYLLABLES, len(_SECOND_SYLLABLES)) if x != home[:1])
        yield from rng.sample(words, len(words))
        firsts = sorted({o[0] for o in others if o} - {home[:1]})
        for a in rng.sample(firsts, len(firsts)):
            yield from (a + b for b in rng.sample(_SECOND_SYLLABLES, len(_SECOND_SYLLABLES)) if b != a)
        if d is not None and d.name.split(" ")[0].endswith(("시", "군")):
            yield _stem(d.name.split(" ")[0])

    def closed_days(self, school_code: str, year: str) -> list[str]:
        """Edition 3: a school's 휴업일 of a school year (YYYYMMDD): its schedule's rows marked
        ``SBTR_DD_SC_NM`` 휴업일 (재량휴업일 and 개교기념일); no meals or classes then."""
        if self.edition < 3:
            return []
        return [r["AA_YMD"] for r in self.schedule(school_code, year) if r["SBTR_DD_SC_NM"] == "휴업일"]

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
            closed = set(self.closed_days(school_code, "2025"))
            for day in self.school_days(ym):
                if day in closed:
                    continue
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
            if self.edition >= NATURAL_NAMES_EDITION:  # events a school of its kind holds, on their days
                days, fixed = self._events_of_kind(s, school_code, year, days, fixed)
            if self.edition >= 3:  # bridge days some schools close on (재량휴업일), 0–4 of them
                rng3 = self.rng("closed_days", school_code, year)
                bridge = rng3.sample(_CLOSED_DAY_CHOICES, rng3.choice([0, 1, 1, 2, 2, 2, 3, 4]))
                days = [(d, ev) for d, ev in days if d not in bridge] + [(d, "재량휴업일") for d in bridge]
            rows = []
            for d, ev in sorted(fixed + days + holidays):
                is_holiday = ev in ("어린이날", "현충일", "광복절", "개천절", "한글날", "기독탄신일")
                closed = self.edition >= 3 and ev in ("재량휴업일", "개교기념일")
                kind = "공휴일" if is_holiday else ("휴업일" if closed else "해당없음")
                row = {"ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "ATPT_OFCDC_SC_NM": s["ATPT_OFCDC_SC_NM"],
                       "SD_SCHUL_CODE": school_code, "SCHUL_NM": s["SCHUL_NM"], "AY": year, "DGHT_CRSE_SC_NM": "주간",
                       "SCHUL_CRSE_SC_NM": s["SCHUL_KND_SC_NM"][:-2], "SBTR_DD_SC_NM": kind,
                       "AA_YMD": d, "EVENT_NM": ev, "EVENT_CNTNT": None}
                for g, key in enumerate(["ONE", "TW", "THREE", "FR", "FIV", "SIX"], start=1):
                    row[f"{key}_GRADE_EVENT_YN"] = ("Y" if g <= grades and kind == "해당없음" else "N") if g <= grades else "*"
                row["LOAD_DTM"] = "20251215"
                rows.append(row)
            return rows
        return self.cached(("schedule", school_code, year), build)

    def _events_of_kind(self, s: dict[str, Any], school_code: str, year: str, days: list[tuple[str, str]],
                        fixed: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """Edition 8: a school's events are those a school of its kind holds, on days they fall on
        (an outside reader found "기말고사" at a Seoul 초등학교, which has none). Of the days drawn
        (edition 7's days, so closures, meals and timetables stay edition 7's: 개교기념일 and
        재량휴업일 are kept), an event its kind does not hold, a ceremony of a fixed day (졸업식 in
        May), an exam off its month or a once-a-year event drawn again gives way to an event of
        ``school_events_by_kind`` that may recur (the school's own random stream). Then the fixed
        days: 종업식 and 졸업식 with the winter 방학식; a 중학교's and 고등학교's 기말고사 in early
        July and December (중간고사 only on April and October days); a 고등학교's
        전국연합학력평가 and 대학수학능력시험 on 2025's dates."""
        p = pools()
        kind = s["SCHUL_KND_SC_NM"]
        held, again = p["school_events_by_kind"][kind], p["school_events_recurring"]
        rng = self.rng("school_events", school_code, year)
        seen: set[str] = set()
        out = []
        for d, ev in days:
            if ev in ("개교기념일", "재량휴업일"):
                pass
            elif ev not in held or ev in seen and ev not in again or ev == "중간고사" and d[4:6] not in ("04", "10"):
                ev = rng.choice([e for e in held if e in again])
            seen.add(ev)
            out.append((d, ev))
        fixed = [*fixed, ("20251231", "종업식"), ("20251231", "졸업식")]
        if kind != "초등학교":
            fixed += [("20250701", "기말고사"), ("20251210", "기말고사")]
        if kind == "고등학교":
            fixed += [(d, "전국연합학력평가") for d in ("20250326", "20250508", "20250710", "20251014")]
            fixed.append(("20251113", "대학수학능력시험"))
        return out, fixed

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
            if (s is None or s["SCHUL_KND_SC_NM"] != "고등학교" or ymd not in self.school_days(ymd[:6])
                    or ymd in self.closed_days(school_code, "2025")):
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


def school_stem(leaf: str) -> str:
    """The stem a school takes from a 동 (edition 8): "을지로7가" → "을지", "종로1.2.3.4가동" →
    "종로", "대치동" → "대치", "청천면" → "청천" (no numbers, no 동/가/로/리/읍/면)."""
    s = re.sub(r"[0-9.,·]+", "", leaf)
    s = re.sub(r"가동$|가$", "", s) if re.search(r"[0-9]", leaf) else s
    if len(s) > 2 and s[-1] in "동리읍면로가":
        s = s[:-1]
    if len(s) > 2 and s[-1] == "로":
        s = s[:-1]
    return s
