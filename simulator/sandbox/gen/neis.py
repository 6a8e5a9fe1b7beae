"""NEIS: schools → meals, schedules, classes and timetables (ATPT_OFCDC_SC_CODE + SD_SCHUL_CODE)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ..world import World
from ._common import shape

__all__ = ["GENERATORS"]


def _school(world: World, f: dict[str, str]) -> dict[str, Any] | None:
    s = world.school(f.get("SD_SCHUL_CODE", ""))
    if s is None or s["ATPT_OFCDC_SC_CODE"] != f.get("ATPT_OFCDC_SC_CODE", "").upper():
        return None
    return s


def school_info(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = world.schools()
    if f.get("ATPT_OFCDC_SC_CODE"):  # narrowed early; the query step applies the rest
        rows = [s for s in rows if s["ATPT_OFCDC_SC_CODE"] == f["ATPT_OFCDC_SC_CODE"]]
    if f.get("SD_SCHUL_CODE"):
        rows = [s for s in rows if s["SD_SCHUL_CODE"] == f["SD_SCHUL_CODE"]]
    return shape("neis_school_info", rows, blank=None)


def _months(f: dict[str, str], exact: str, lo: str, hi: str) -> list[str]:
    """Months a date filter can touch (the school year, narrowed by the given dates)."""
    months = [f"2025{m:02d}" for m in range(3, 13)] + ["202601", "202602"]
    if f.get(exact):
        want = f[exact][:6]
        months = [m for m in months if m.startswith(want)]
    if f.get(lo):
        months = [m for m in months if m >= f[lo][:6]]
    if f.get(hi):
        months = [m for m in months if m <= f[hi][:6]]
    return months


def meals(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    s = _school(world, f)
    if s is None:
        return []
    rows = [r for m in _months(f, "MLSV_YMD", "MLSV_FROM_YMD", "MLSV_TO_YMD") for r in world.meals(s["SD_SCHUL_CODE"], m)]
    return shape("neis_meal", rows, blank=None)


def schedule(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    s = _school(world, f)
    if s is None:
        return []
    return shape("neis_school_schedule", world.schedule(s["SD_SCHUL_CODE"], "2025"), blank=None)


def classes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    s = _school(world, f)
    if s is None:
        return []
    rows = world.classes(s["SD_SCHUL_CODE"], "2024") + world.classes(s["SD_SCHUL_CODE"], "2025")
    return shape("neis_class_info", rows, blank=None)


def _timetable_days(f: dict[str, str]) -> list[str]:
    if f.get("ALL_TI_YMD"):
        return [f["ALL_TI_YMD"]]
    lo, hi = f.get("TI_FROM_YMD"), f.get("TI_TO_YMD")
    if not lo and not hi:
        # Without dates the collection is the world's current month (a whole school year is
        # ~40,000 rows per high school); date filters inside it are answered from it.
        lo, hi = "20251201", "20251231"
    start = date(int(lo[:4]), int(lo[4:6]), int(lo[6:8])) if lo and len(lo) == 8 and lo.isdigit() else date(2025, 3, 4)
    end = date(int(hi[:4]), int(hi[4:6]), int(hi[6:8])) if hi and len(hi) == 8 and hi.isdigit() else start + timedelta(6)
    end = min(end, start + timedelta(31))  # a month at most per call
    return [(start + timedelta(n)).strftime("%Y%m%d") for n in range((end - start).days + 1)]


def his_timetable(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    s = _school(world, f)
    if s is None:
        return []
    rows = [r for d in _timetable_days(f) for r in world.timetable(s["SD_SCHUL_CODE"], d)]
    if f.get("GRADE"):  # narrowed early (a day of a big school is ~300 rows)
        rows = [r for r in rows if r["GRADE"] == f["GRADE"]]
    if f.get("CLASS_NM"):
        rows = [r for r in rows if r["CLASS_NM"] == f["CLASS_NM"]]
    return shape("neis_his_timetable", rows, blank=None)


def els_timetable(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Elementary timetables: 4–6 periods of homeroom subjects."""
    s = _school(world, f)
    if s is None or s["SCHUL_KND_SC_NM"] != "초등학교":
        return []
    subjects = ["국어", "수학", "사회", "과학", "영어", "체육", "음악", "미술", "도덕", "실과", "창의적 체험활동"]
    rows = []
    for d in _timetable_days(f):
        if d not in world.school_days(d[:6]):
            continue
        rng = world.rng("els", s["SD_SCHUL_CODE"], d)
        for c in world.classes(s["SD_SCHUL_CODE"], "2025"):
            if f.get("GRADE") and c["GRADE"] != f["GRADE"] or f.get("CLASS_NM") and c["CLASS_NM"] != f["CLASS_NM"]:
                continue
            for p in range(1, 5 + (int(c["GRADE"]) > 2) + (int(c["GRADE"]) > 4)):
                rows.append({**c, "SEM": "1" if d < "20250801" else "2", "ALL_TI_YMD": d, "PERIO": str(p),
                             "ITRT_CNTNT": rng.choice(subjects), "LOAD_DTM": d})
    return shape("neis_els_timetable", rows, blank=None)


def school_major(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    s = _school(world, f)
    if s is None or s["SCHUL_KND_SC_NM"] != "고등학교":
        return []
    majors = ["일반과"] if s["HS_SC_NM"] != "특성화고" else ["기계과", "전기과", "전자과", "컴퓨터과", "회계과"]
    return shape("neis_school_major", [{**s, "DGHT_CRSE_SC_NM": "주간", "ORD_SC_NM": "일반계" if len(majors) == 1 else "공업계",
                                        "DDDEP_NM": m, "LOAD_DTM": "20250303"} for m in majors], blank=None)


GENERATORS = {
    "neis_school_info": school_info,
    "neis_meal": meals,
    "neis_school_schedule": schedule,
    "neis_class_info": classes,
    "neis_his_timetable": his_timetable,
    "neis_els_timetable": els_timetable,
    "neis_school_major": school_major,
}
