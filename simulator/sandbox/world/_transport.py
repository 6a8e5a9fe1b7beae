"""Traffic and Seoul open data: TAGO buses, Seoul subway arrivals, public Wi-Fi."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

from ._core import DATA, pools
from ._names import _stem
from ._regions import Region, RegionsMixin

__all__ = ["STATION_ENG_EDITION", "TransportMixin", "station_name_eng"]

#: The edition from which a Seoul subway station's English name (``STATION_NM_ENG``) is its real
#: one (``data/subway_names_eng.txt``, a fact list: see ``data/SOURCES.txt``), empty where no
#: source gives one; before it the Korean name romanized syllable by syllable.
STATION_ENG_EDITION = 9


@lru_cache(maxsize=1)
def _names_eng() -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    with open(DATA / "subway_names_eng.txt", encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                sub, name, eng = line.rstrip("\n").split("\t")
                out[(sub, name)] = eng
    return out


def station_name_eng(line: str, name: str) -> str:
    """The real English name of station ``name`` of line ``line`` ("2호선", "이대" → "Ewha Womans
    Univ."), or "" where none is sourced (never a made-up one)."""
    return _names_eng().get((line, name), "")

#: Edition 3: more kinds of landmark an added stop is named after.
_MORE_SUFFIXES = ["네거리", "교회", "중학교", "고등학교", "농협", "주유소", "공영주차장", "차고지", "마을", "보건소", "도서관",
                  "체육관", "성당", "복지관", "파크", "빌라", "상가", "교차로", "시장입구", "우체국앞", "지하차도", "육교",
                  "종점", "회관", "약국", "은행", "센터", "타운", "그린빌", "농공단지"]
#: Edition 3: what tells an added stop from an older one of the same name (as TAGO names do).
_NAME_TAGS = ["건너편", "앞", "방면", "정문", "후문", "남측", "북측", "동측", "서측", *(f"{k}" for k in range(2, 200))]


class TransportMixin(RegionsMixin):
    """TAGO cities, stops, routes and arrivals; Seoul subway stations and Wi-Fi."""

    def bus_cities(self) -> list[dict[str, Any]]:
        """TAGO cities (real list): ``citycode`` (int), ``cityname``."""
        def build() -> list[dict[str, Any]]:
            import json
            with open(DATA / "tago_cities.json", encoding="utf-8") as f:
                return list(json.load(f))
        return self.cached(("bus_cities",), build)

    _NODE_PREFIX: ClassVar[dict[int, str]] = {
        12: "SJB", 21: "BSB", 22: "DGB", 23: "ICB", 24: "GJB", 25: "DJB", 26: "USB", 39: "JJB",
        34010: "CAB", 37050: "GMB", 33010: "CJB", 35010: "JJB", 37010: "PHB", 38010: "CWB",
    }

    _CITY_CENTERS: ClassVar[dict[int, tuple[float, float]]] = {
        25: (36.3504, 127.3845), 34010: (36.8151, 127.1139), 21: (35.1796, 129.0756),
        22: (35.8714, 128.6014), 23: (37.4563, 126.7052), 24: (35.1595, 126.8526),
        26: (35.5384, 129.3114), 12: (36.4800, 127.2890), 31010: (37.2636, 127.0286),
        37050: (36.1195, 128.3446), 33010: (36.6424, 127.4890), 35010: (35.8242, 127.1480),
        39: (33.4996, 126.5312),
    }

    #: Edition 3: stops of the cities whose stop lists outgrow one page (max 1,000 rows).
    _BIG_CITY_STOPS: ClassVar[dict[int, int]] = {25: 3120, 34010: 1840, 12: 1210, 21: 5480}

    def _stop_count(self, citycode: int, edition: int | None = None) -> int:
        """Stops of a city: 600 (metropolitan) / 150, 900 for 대전 and 천안; edition 3 gives the
        busy cities thousands (edition 2's stops come first, unchanged)."""
        if (self.edition if edition is None else edition) >= 3 and citycode in self._BIG_CITY_STOPS:
            return self._BIG_CITY_STOPS[citycode]
        return 900 if citycode in (34010, 25) else (150 if citycode >= 1000 else 600)

    def _bus_region(self, citycode: int) -> list[Region]:
        name = next((c["cityname"] for c in self.bus_cities() if c["citycode"] == citycode), "")
        first = name.split("/")[0].replace("특별시", "").replace("광역시", "").replace("제주도", "제주시")
        out: list[Region] = []
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
            n, legacy = self._stop_count(citycode), self._stop_count(citycode, edition=2)
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
                if nm in seen and i >= legacy:  # edition 3's added stops take names no stop has
                    for _ in range(30):
                        nm = f"{_stem(rng.choice(dongs).leaf)}{rng.choice(_MORE_SUFFIXES)}"
                        if nm not in seen:
                            break
                    else:
                        nm = next(f"{nm}({tag})" for tag in _NAME_TAGS if f"{nm}({tag})" not in seen)
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
            # Edition 2's routes over edition 2's stops, then (edition 3) one more route per 20
            # added stops, over the added stops only (edition 2's stops keep their routes), from
            # a generator of their own.
            legacy = self._stop_count(citycode, edition=2)
            n = max(20, legacy // 6)
            extra = max(0, (len(stations) - legacy) // 20)
            pool = range(legacy)
            rows = []
            used: set[int] = set()
            for i in range(n + extra):
                if i == n:
                    rng = self.rng("bus_routes_extra", citycode)
                    pool = range(legacy, len(stations))
                while True:
                    no = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(100, 999)])
                    if no not in used:
                        break
                used.add(no)
                tp = rng.choice(["일반버스", "일반버스", "좌석버스", "마을버스", "급행버스", "지선버스"])
                stops = rng.sample(pool, min(len(pool), rng.randint(20, 60)))
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
            own = statn_nm
            if not st and self.edition >= 7:  # the arrival API names 서울역 "서울" (edition 7)
                st = [s for s in self.subway_stations() if s["statnNm"] == statn_nm + "역"]
                own = statn_nm + "역"
            rng = self.rng("subway_arrivals", statn_nm)
            lines = {sid: names for sid, _, names in pools()["subway_lines"]}
            rows = []
            for s in st:
                names = lines[s["subwayId"]]
                i = names.index(own)
                for updn, end, prev in (("상행", names[0], names[max(0, i - 1)]), ("하행", names[-1], names[min(len(names) - 1, i + 1)])):
                    if end == own:
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
