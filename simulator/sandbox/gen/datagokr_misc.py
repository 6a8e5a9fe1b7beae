"""Other data.go.kr services: KMA forecasts, KASI special days, TourAPI, AirKorea, G2B, and (world
edition 6) MOLIT's K-apt complexes and SEMAS's shops."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from ..world import _HOLIDAYS, World
from ._common import shape
from .kma_values import KMA_CATEGORY_EDITION, vilage_rows

__all__ = ["GENERATORS"]

_CATS = ["TMP", "UUU", "VVV", "VEC", "WSD", "SKY", "PTY", "POP", "WAV", "PCP", "REH", "SNO"]


def vilage_fcst(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """One announcement for one grid point: 12 categories × every hour of ~3 days (~800 rows)."""
    bd, bt = f.get("base_date", ""), f.get("base_time", "")
    if len(bd) != 8 or not bd.isdigit() or bt not in ("0200", "0500", "0800", "1100", "1400", "1700", "2000", "2300"):
        return []
    if world.edition >= KMA_CATEGORY_EDITION:  # TMN/TMX, and values that agree with each other
        rows = vilage_rows(world.rng("kma8", bd, bt, f.get("nx"), f.get("ny")), bd, bt,
                           f.get("nx", "0"), f.get("ny", "0"))
        return shape("datagokr_misc_kma_vilage_fcst", rows)
    rng = world.rng("kma", bd, bt, f.get("nx"), f.get("ny"))
    start = date(int(bd[:4]), int(bd[4:6]), int(bd[6:])) + timedelta(hours=0)
    rows = []
    first = int(bt[:2]) + 1
    for h in range(first, 24 * 3 + 1 - (first // 24)):
        day = start + timedelta(h // 24)
        for cat in _CATS:
            val = {"TMP": str(rng.randint(-5, 30)), "UUU": f"{rng.uniform(-5, 5):.1f}", "VVV": f"{rng.uniform(-5, 5):.1f}",
                   "VEC": str(rng.randint(0, 359)), "WSD": f"{rng.uniform(0, 9):.1f}", "SKY": str(rng.choice([1, 3, 4])),
                   "PTY": str(rng.choice([0, 0, 0, 1])), "POP": str(rng.choice([0, 10, 20, 30, 60])), "WAV": "0",
                   "PCP": "강수없음", "REH": str(rng.randint(30, 95)), "SNO": "적설없음"}[cat]
            rows.append({"baseDate": bd, "baseTime": bt, "category": cat, "fcstDate": day.strftime("%Y%m%d"),
                         "fcstTime": f"{h % 24:02d}00", "fcstValue": val, "nx": f.get("nx", "0"), "ny": f.get("ny", "0")})
    return shape("datagokr_misc_kma_vilage_fcst", rows)


def mid_ta(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    if not f.get("regId") or len(f.get("tmFc", "")) != 12:
        return []
    rng = world.rng("midta", f["regId"], f["tmFc"])
    row: dict[str, Any] = {"regId": f["regId"]}
    for d in range(4, 11):
        lo, hi = rng.randint(-5, 20), rng.randint(5, 32)
        row.update({f"taMin{d}": min(lo, hi - 3), f"taMin{d}Low": 0, f"taMin{d}High": 0,
                    f"taMax{d}": max(hi, lo + 3), f"taMax{d}Low": 0, f"taMax{d}High": 0})
    return shape("datagokr_misc_kma_mid_ta", [row])


def mid_land(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    if not f.get("regId") or len(f.get("tmFc", "")) != 12:
        return []
    rng = world.rng("midland", f["regId"], f["tmFc"])
    sky = ["맑음", "구름많음", "흐림", "흐리고 비", "구름많고 비"]
    row: dict[str, Any] = {"regId": f["regId"]}
    for d in range(4, 11):
        for half in (("Am", "Pm") if d <= 7 else ("",)):
            row[f"rnSt{d}{half}"] = rng.choice([0, 10, 20, 30, 40, 60])
            row[f"wf{d}{half}"] = rng.choice(sky)
    return shape("datagokr_misc_kma_mid_land_fcst", [row])


_NAMES = {"0101": "1월1일", "0301": "삼일절", "0505": "어린이날", "0606": "현충일", "0815": "광복절", "1003": "개천절",
          "1009": "한글날", "1225": "기독탄신일", "0410": "국회의원선거일", "0603": "대통령선거일"}


def _special_days(world: World, f: dict[str, str], endpoint_id: str, rest_only: bool) -> list[dict[str, Any]]:
    year = f.get("solYear", "")
    if not year.isdigit() or int(year) not in _HOLIDAYS:
        return []
    rows = []
    for md in sorted(_HOLIDAYS[int(year)]):
        if f.get("solMonth") and md[:2] != f["solMonth"].zfill(2):
            continue
        if md in ("0501", "1231"):
            continue  # 근로자의 날 and the market's year-end close are not public holidays
        name = _NAMES.get(md, "설날" if md[:2] in ("01", "02") else ("추석" if md[:2] in ("09", "10") else "대체공휴일"))
        rows.append({"dateKind": "01", "dateName": name, "isHoliday": "Y", "locdate": int(year + md), "remarks": "", "seq": 1})
    return shape(endpoint_id, rows)


def _tour_items(world: World) -> list[dict[str, Any]]:
    def build() -> list[dict[str, Any]]:
        rng = world.rng("tour")
        kinds = [("12", "관광지", ["해수욕장", "공원", "계곡", "폭포", "사찰", "전망대", "수목원"]), ("14", "문화시설", ["박물관", "미술관", "전시관"]),
                 ("15", "행사", ["축제", "문화제", "페스티벌"]), ("39", "음식점", ["맛집", "식당", "국밥"])]
        rows = []
        for i, d in enumerate(world.entity_districts() * 10):
            tid, _, words = rng.choice(kinds)
            dong = rng.choice(d.dongs)
            title = f"{d.name.split(' ')[0][:-1] if len(d.name) > 2 else d.name}{rng.choice(words)}"
            rows.append({"addr1": f"{d.full_name} {dong.leaf[:-1]}로 {rng.randint(1, 300)}", "addr2": "", "areacode": d.sido.sido_cd,
                         "cat1": "A02" if tid != "39" else "A05", "cat2": "A0201", "cat3": "A02010100", "contentid": str(120000 + i * 7),
                         "contenttypeid": tid, "createdtime": "20200101000000", "firstimage": "", "firstimage2": "", "cpyrhtDivCd": "Type3",
                         "mapx": f"{126.5 + rng.uniform(0, 3):.10f}", "mapy": f"{34.5 + rng.uniform(0, 3.5):.10f}", "mlevel": "6",
                         "modifiedtime": "20250301120000", "sigungucode": str(rng.randint(1, 25)), "tel": "", "title": title,
                         "zipcode": f"{rng.randint(1000, 63999):05d}", "lDongRegnCd": d.sido.sido_cd, "lDongSignguCd": d.lawd_cd[2:],
                         "lclsSystm1": "NA", "lclsSystm2": "NA04", "lclsSystm3": "NA040500", "booktour": ""})
        return rows
    return world.cached(("tour",), build)


def _tour(endpoint_id: str):  # type: ignore[no-untyped-def]
    def gen(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
        kw = f.get("keyword", "")
        rows = [r for r in _tour_items(world) if kw and kw in r["title"] + r["addr1"]]
        if f.get("areaCode"):
            rows = [r for r in rows if r["areacode"] == f["areaCode"]]
        if f.get("contentTypeId"):
            rows = [r for r in rows if r["contenttypeid"] == f["contentTypeId"]]
        return shape(endpoint_id, rows)
    return gen


def photo_gallery(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for i, t in enumerate(_tour_items(world)[:5251]):
        rows.append({"galContentId": str(2_000_000 + i * 3), "galContentTypeId": "17", "galTitle": t["title"],
                     "galWebImageUrl": f"http://tong.visitkorea.or.kr/cms2/website/{i % 100:02d}/{2_000_000 + i * 3}.jpg",
                     "galCreatedtime": "20200101000000", "galModifiedtime": "20250301120000",
                     "galPhotographyMonth": f"20{10 + i % 15}{i % 12 + 1:02d}", "galPhotographyLocation": t["addr1"].rsplit(" ", 2)[0],
                     "galPhotographer": "한국관광공사 사진갤러리", "galSearchKeyword": t["title"]})
    return shape("datagokr_misc_tour_photo_gallery", rows)


def airkorea(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    name = f.get("sidoName", "")
    sido = next((s for s in world.sidos() if world.sido_short(s.sido_cd) == name or s.name == name), None)
    if sido is None and name != "전국":
        return []
    districts = [d for d in world.districts() if sido is None or d.sido.sido_cd == sido.sido_cd]
    rows = []
    for d in districts:
        rng = world.rng("air", d.lawd_cd)
        dong = rng.choice(d.dongs)
        pm10, pm25 = rng.randint(8, 90), rng.randint(3, 50)
        grade = lambda v, cut: str(1 + (v > cut) + (v > cut * 2) + (v > cut * 4))  # noqa: E731
        rows.append({"stationName": dong.leaf[:-1] or dong.leaf, "stationCode": str(100000 + int(d.lawd_cd) % 100000),
                     "mangName": "도시대기", "sidoName": world.sido_short(d.sido.sido_cd), "dataTime": "2025-12-31 14:00",
                     "so2Value": "0.003", "coValue": "0.4", "o3Value": f"{rng.uniform(0.005, 0.06):.3f}", "no2Value": f"{rng.uniform(0.005, 0.05):.3f}",
                     "pm10Value": str(pm10), "pm10Value24": str(pm10 + rng.randint(-5, 5)), "pm25Value": str(pm25),
                     "pm25Value24": str(pm25 + rng.randint(-3, 3)), "khaiValue": str(30 + pm10), "khaiGrade": grade(pm10, 30),
                     "so2Grade": "1", "coGrade": "1", "o3Grade": "1", "no2Grade": "1", "pm10Grade": grade(pm10, 30),
                     "pm25Grade": grade(pm25, 15), "pm10Grade1h": grade(pm10, 30), "pm25Grade1h": grade(pm25, 15),
                     "so2Flag": None, "coFlag": None, "o3Flag": None, "no2Flag": None, "pm10Flag": None, "pm25Flag": None})
    shaped = shape("datagokr_misc_airkorea_sido_realtime", rows, blank=None)
    if world.edition >= AIRKOREA_VER_EDITION:
        return [as_version(world, r, f.get("ver", "")) for r in shaped]
    return shaped


#: The world edition from which AirKorea's real-time measurements answer the fields and decimals
#: of the ``ver`` asked (editions before answer every field of 1.5 with the decimals of 1.4).
AIRKOREA_VER_EDITION = 8
#: The ``ver`` that first carries each field (AirKorea's technical document, 버전(ver) 항목설명, as
#: client code republishes it): none → no PM2.5; 1.0 PM2.5; 1.1 the 24-hour moving averages;
#: 1.2 the network (측정망); 1.3 the 1-hour grades; 1.4 the station code; 1.5 more decimals
#: (CO 1 → 2, O3/SO2/NO2 3 → 4).
AIRKOREA_FIELD_VER = {"pm25Value": 1.0, "pm25Grade": 1.0, "pm25Flag": 1.0, "pm10Value24": 1.1, "pm25Value24": 1.1,
                      "mangName": 1.2, "pm10Grade1h": 1.3, "pm25Grade1h": 1.3, "stationCode": 1.4}


#: How many hourly rows each ``dataTerm`` of getMsrstnAcctoRltmMesureDnsty answers (a day, a
#: month, three months), latest first.
_TERM_HOURS = {"DAILY": 24, "MONTH": 24 * 30, "3MONTH": 24 * 90}


def airkorea_station_rows(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """getMsrstnAcctoRltmMesureDnsty (generated tier) from edition 8: one station of the Seoul…
    lists above (``stationName``), hourly over ``dataTerm``, its latest hour what
    getCtprvnRltmMesureDnsty answers for it; every field of ver 1.5 (the caller projects)."""
    name = f.get("stationName", "")
    for d in world.districts():
        rng = world.rng("air", d.lawd_cd)  # the same draws as airkorea(): the same station and values
        dong = rng.choice(d.dongs)
        if (dong.leaf[:-1] or dong.leaf) != name:
            continue
        pm10, pm25 = rng.randint(8, 90), rng.randint(3, 50)
        o3, no2 = rng.uniform(0.005, 0.06), rng.uniform(0.005, 0.05)
        walk = world.rng("air-station", d.lawd_cd, f.get("dataTerm", "").upper())
        rows = []
        at = datetime(2025, 12, 31, 14)
        for k in range(_TERM_HOURS.get(f.get("dataTerm", "").upper(), 24)):
            if k:
                pm10 = max(3, pm10 + walk.randint(-6, 6))
                pm25 = max(1, min(pm10, pm25 + walk.randint(-4, 4)))
                o3 = min(max(0.002, o3 + walk.uniform(-0.004, 0.004)), 0.12)
                no2 = min(max(0.002, no2 + walk.uniform(-0.004, 0.004)), 0.09)
            rows.append({"dataTime": (at - timedelta(hours=k)).strftime("%Y-%m-%d %H:%M"), "mangName": "도시대기",
                         "stationName": name, "stationCode": str(100000 + int(d.lawd_cd) % 100000),
                         "so2Value": "0.003", "coValue": "0.4", "o3Value": f"{o3:.3f}", "no2Value": f"{no2:.3f}",
                         "pm10Value": str(pm10), "pm25Value": str(pm25), "khaiValue": str(30 + pm10)})
        return rows
    return []


def version_of(text: str) -> float:
    """The version asked (0 when none or unreadable; above 1.5 counts as 1.5)."""
    try:
        return min(float(text), 1.5) if text.strip() else 0.0
    except ValueError:
        return 0.0


def as_version(world: World, row: dict[str, Any], ver: str) -> dict[str, Any]:
    """``row`` (every field of ver 1.5, the decimals of 1.4) as ``ver`` answers it: without the
    fields a later version adds; from 1.5 with a seeded further decimal."""
    v = version_of(ver)
    out = {k: val for k, val in row.items() if AIRKOREA_FIELD_VER.get(k, 0.0) <= v}
    if v >= 1.5:  # the finer decimals: a seeded last digit on the coarser value
        rng = world.rng("air15", row.get("stationCode") or row.get("stationName"), row.get("dataTime"))
        for name, places in (("so2Value", 4), ("coValue", 2), ("o3Value", 4), ("no2Value", 4)):
            try:
                base = float(out[name])
            except (KeyError, TypeError, ValueError):
                continue
            step = 10 ** -places
            out[name] = f"{max(base + rng.randint(-4, 4) * step, step):.{places}f}"
    return out


def g2b(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rng = world.rng("g2b", f.get("inqryDiv"), f.get("inqryBgnDt"), f.get("inqryEndDt"), f.get("bidNtceNo"))
    cos = world.invented_companies()  # edition 7: no real company wins an invented bid
    rows = []
    for i in range(1 if f.get("bidNtceNo") else 249):
        amt = rng.randint(10, 5000) * 1_000_000
        d = world.district(rng.choice(world.entity_districts()).lawd_cd)
        assert d is not None
        rows.append({"bidNtceNo": f.get("bidNtceNo") or f"R25BK{rng.randint(100000, 999999):08d}", "bidNtceOrd": "000",
                     "bidNtceNm": f"{d.name} {rng.choice(['도로 정비공사', '청사 리모델링', '정보시스템 유지관리', '청소용역', '급식 식자재 구매'])}",
                     "dminsttNm": f"{d.full_name}", "bidwinnrNm": rng.choice(cos)["corp_name"], "sucsfbidAmt": str(amt),
                     "sucsfbidRate": f"{rng.uniform(86, 99):.3f}", "rlOpengDt": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} 11:00:00"})
    return shape("datagokr_misc_g2b_award_results", rows)


# ---- world edition 6 (kopa@v0007): MOLIT K-apt and SEMAS sdsc2 -------------------------------
#: The edition from which the endpoints kopa@v0007 added answer (before it: no data).
ADDED_EDITION = 6


def kapt_list(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """AptListService4 getSigunguAptList4: the complexes of one district (``sigunguCode``)."""
    if world.edition < ADDED_EDITION:
        return []
    return shape("datagokr_misc_kapt_sigungu_apt_list", world.apt_complexes(f.get("sigunguCode", "")))


def kapt_basis(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """AptBasisInfoServiceV5 getAphusBassInfoV5: one complex (``kaptCode``)."""
    c = world.apt_complex(f.get("kaptCode", "")) if world.edition >= ADDED_EDITION else None
    return [] if c is None else shape("datagokr_misc_kapt_basis_info", [c])


def semas_stores(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """sdsc2 storeListInDong: the shops of a 시도 (ctprvnCd), district (signguCd) or dong (adongCd)."""
    if world.edition < ADDED_EDITION:
        return []
    div, key = f.get("divId", ""), f.get("key", "")
    if div == "signguCd":
        rows = world.semas_stores(key)
    elif div == "adongCd" and len(key) == 8:
        rows = [r for r in world.semas_stores(key[:5]) if r["adongCd"] == key]
    elif div == "ctprvnCd" and len(key) == 2:
        rows = [r for d in world.districts() if d.lawd_cd.startswith(key) for r in world.semas_stores(d.lawd_cd)]
    else:
        rows = []
    if f.get("indsLclsCd"):
        rows = [r for r in rows if r["indsLclsCd"] == f["indsLclsCd"]]
    return shape("datagokr_misc_semas_store_list_in_dong", rows)


GENERATORS = {
    "datagokr_misc_kapt_sigungu_apt_list": kapt_list,
    "datagokr_misc_kapt_basis_info": kapt_basis,
    "datagokr_misc_semas_store_list_in_dong": semas_stores,
    "datagokr_misc_kma_vilage_fcst": vilage_fcst,
    "datagokr_misc_kma_mid_ta": mid_ta,
    "datagokr_misc_kma_mid_land_fcst": mid_land,
    "datagokr_misc_kasi_holidays": lambda w, f: _special_days(w, f, "datagokr_misc_kasi_holidays", False),
    "datagokr_misc_kasi_rest_days": lambda w, f: _special_days(w, f, "datagokr_misc_kasi_rest_days", True),
    "datagokr_misc_tour_keyword_v1": _tour("datagokr_misc_tour_keyword_v1"),
    "datagokr_misc_tour_keyword": _tour("datagokr_misc_tour_keyword"),
    "datagokr_misc_tour_photo_gallery": photo_gallery,
    "datagokr_misc_airkorea_sido_realtime": airkorea,
    "datagokr_misc_g2b_award_results": g2b,
}
