"""Seoul Open Data (openapi.seoul.go.kr:8088) and real-time subway arrival (swopenapi)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ..world import World, romanize
from ..world._transport import STATION_ENG_EDITION, station_name_eng
from ._common import shape

__all__ = ["GENERATORS"]


def _line_num(line: str) -> str:
    return f"0{line}" if line[0].isdigit() and len(line) == 3 else line  # "2호선" → "02호선"


def _name_eng(world: World, s: dict[str, str]) -> str:
    if world.edition >= STATION_ENG_EDITION:
        return station_name_eng(s["lineNm"], s["statnNm"])
    return romanize(s["statnNm"]).capitalize()


def station_by_name(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = [{"STATION_CD": s["STATION_CD"], "STATION_NM": s["statnNm"], "STATION_NM_ENG": _name_eng(world, s),
             "LINE_NUM": _line_num(s["lineNm"]), "FR_CODE": s["FR_CODE"], "STATION_NM_CHN": "", "STATION_NM_JPN": ""}
            for s in world.subway_stations()]
    return shape("seoul_subway_station_by_name", rows)


def station_address(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    seoul = [d for d in world.districts() if d.sido.sido_cd == "11"]
    rows = []
    for s in world.subway_stations():
        if not s["subwayId"].startswith("100"):
            continue
        rng = world.rng("station_address", s["statnId"])
        d = rng.choice(seoul)
        dong = rng.choice(d.dongs)
        rows.append({"LINE": s["lineNm"][0] if s["lineNm"][0].isdigit() else s["lineNm"], "STATN_NM": s["statnNm"],
                     "ADRES": f"{dong.name} {rng.randint(1, 900)}", "RDNMADR": f"{d.full_name} {dong.leaf[:-1]}로 지하{rng.randint(1, 300)}",
                     "TELNO": s["tel"]})
    return shape("seoul_station_address", rows)


def card_stats(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Boardings and alightings per station for one day (USE_YMD, data from 2024 to the world's today)."""
    ymd = f.get("USE_YMD", "")
    if len(ymd) != 8 or not ymd.isdigit() or not ("20240101" <= ymd <= "20251228"):
        return []
    day = date(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:]))
    rows = []
    for s in world.subway_stations():
        rng = world.rng("card", s["statnId"], ymd)
        base = rng.randint(3000, 60000) * (0.6 if day.weekday() >= 5 else 1.0)
        rows.append({"USE_YMD": ymd, "SBWY_ROUT_LN_NM": s["lineNm"], "SBWY_STNS_NM": s["statnNm"],
                     "GTON_TNOPE": str(int(base)), "GTOFF_TNOPE": str(int(base * rng.uniform(0.9, 1.1))),
                     "REG_YMD": (day + timedelta(3)).strftime("%Y%m%d")})
    return shape("seoul_card_subway_stats", rows)


def public_wifi(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = world.public_wifi()
    if f.get("X_SWIFI_WRDOFC"):
        rows = [r for r in rows if r["X_SWIFI_WRDOFC"] == f["X_SWIFI_WRDOFC"]]
    return shape("seoul_public_wifi", rows)


def public_library(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rng = world.rng("libraries")
    rows = []
    for i, d in enumerate([d for d in world.districts() if d.sido.sido_cd == "11"] * 9):
        dong = rng.choice(d.dongs)
        kind = rng.choice(["구립도서관", "작은도서관", "공공도서관"])
        rows.append({"LBRRY_SEQ_NO": str(i + 1), "LBRRY_NAME": f"{d.name} {dong.leaf[:-1]}{kind.replace('공공', '')}",
                     "GU_CODE": str(d.lawd_cd), "CODE_VALUE": d.name, "ADRES": f"{d.full_name} {dong.leaf[:-1]}로 {rng.randint(1, 200)}",
                     "TEL_NO": f"02-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", "HMPG_URL": f"https://lib.{romanize(d.name[:-1])}.go.kr",
                     "OP_TIME": "평일 09:00~22:00, 주말 09:00~17:00", "FDRM_CLOSE_DATE": "매주 월요일 및 법정공휴일",
                     "LBRRY_SE_NAME": kind, "XCNTS": f"{37.45 + rng.uniform(0, 0.25):.7f}", "YDNTS": f"{126.8 + rng.uniform(0, 0.35):.7f}"})
    return shape("seoul_public_library", rows[:216])


def subway_arrivals(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("seoul_subway_arrivals", world.subway_arrivals(f.get("statnNm", "")))


#: The edition from which the endpoints kopa@v0007 added answer (before it: no data).
ADDED_EDITION = 6


def city_air(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """RealtimeCityAir: the 25 자치구 stations' latest hour (the app filters 권역 and station)."""
    return [] if world.edition < ADDED_EDITION else shape("seoul_realtime_city_air", world.city_air())


def bike_list(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """bikeList: every 따릉이 station and the bikes parked there now."""
    return [] if world.edition < ADDED_EDITION else shape("seoul_bike_list", world.bike_stations())


def subway_positions(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """realtimePosition: the trains of one line (``subwayNm``: 1호선 …)."""
    if world.edition < ADDED_EDITION:
        return []
    return shape("seoul_subway_positions", world.subway_positions(f.get("subwayNm", "")))


GENERATORS = {
    "seoul_realtime_city_air": city_air,
    "seoul_bike_list": bike_list,
    "seoul_subway_positions": subway_positions,
    "seoul_subway_station_by_name": station_by_name,
    "seoul_station_address": station_address,
    "seoul_card_subway_stats": card_stats,
    "seoul_public_wifi": public_wifi,
    "seoul_public_library": public_library,
    "seoul_subway_arrivals": subway_arrivals,
}
