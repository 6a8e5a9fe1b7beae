"""KMA VilageFcstInfoService_2.0 rows whose values fit their ``category`` (world edition 8).

Before edition 8 the generated nowcast and ultra-short forecast drew a category and a value
apart (a rainfall of -6.9 mm, a precipitation type of 18.8). From :data:`KMA_CATEGORY_EDITION`
one announcement for one grid point answers what the KMA guide (the open-API 활용가이드 of
``VilageFcstInfoService_2.0``, as client code republishes its tables) lays out:

* ``getUltraSrtNcst``: one row per category, ``PTY REH RN1 T1H UUU VEC VVV WSD``;
  T1H °C with one decimal, RN1 mm (``"0"`` when dry), UUU/VVV signed m/s, REH %, PTY the
  nowcast codes 0 없음, 1 비, 2 비/눈, 3 눈, 5 빗방울, 6 빗방울눈날림, 7 눈날림, VEC degrees
  0–360, WSD m/s.
* ``getUltraSrtFcst``: ``LGT PTY RN1 SKY T1H REH UUU VVV VEC WSD``, each for the six hours
  after the announcement; RN1 is a class string (``강수없음``, ``1mm 미만``, ``2.0mm``), SKY
  1 맑음 / 3 구름많음 / 4 흐림, LGT 0 when no lightning.
* ``getVilageFcst`` (the curated tier): ``TMP UUU VVV VEC WSD SKY PTY POP WAV PCP REH SNO`` per
  hour, ``TMN`` after them at 06시 and ``TMX`` at 15시 (the day's low and high; today's low
  only in the 02시 announcement): PTY 0 없음, 1 비, 2 비/눈, 3 눈, 4 소나기, POP %, PCP
  ``강수없음`` / ``1mm 미만`` / ``1.0mm``, SNO ``적설없음`` / ``1cm 미만`` / ``1.0cm``. A real
  05시 announcement answers 809 rows (``shared/samples/datagokr_kma``), what this gives.

The values are invented (seeded by the announcement and grid point) but agree with each other:
precipitation only with a precipitation type, its chance high then, winds split into components.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta
from typing import Any

__all__ = ["KMA_CATEGORY_EDITION", "NCST_CATEGORIES", "ULTRA_FCST_CATEGORIES", "VILAGE_CATEGORIES",
           "ultra_ncst_rows", "ultra_fcst_rows", "vilage_rows"]

#: The world edition from which KMA forecast rows carry values that fit their category.
KMA_CATEGORY_EDITION = 8
NCST_CATEGORIES = ("PTY", "REH", "RN1", "T1H", "UUU", "VEC", "VVV", "WSD")
ULTRA_FCST_CATEGORIES = ("LGT", "PTY", "RN1", "SKY", "T1H", "REH", "UUU", "VVV", "VEC", "WSD")
VILAGE_CATEGORIES = ("TMP", "UUU", "VVV", "VEC", "WSD", "SKY", "PTY", "POP", "WAV", "PCP", "REH", "SNO")
#: Monthly mean temperature (°C) the invented values centre on, January first.
_MONTH_MEAN = (-2.4, 0.4, 5.7, 12.5, 17.8, 22.2, 24.9, 25.7, 21.2, 14.8, 7.2, 0.4)


#: The announcement a generated nowcast or ultra-short forecast draws its values for when the
#: request's ``base_date``/``base_time`` is no date and time (the rows echo what was sent).
_FALLBACK = datetime(2025, 12, 1, 5, 0)


def _when(base_date: str, base_time: str) -> datetime | None:
    if len(base_date) != 8 or not base_date.isdigit() or len(base_time) != 4 or not base_time.isdigit():
        return None
    try:
        return datetime(int(base_date[:4]), int(base_date[4:6]), int(base_date[6:]),
                        int(base_time[:2]), int(base_time[2:]))
    except ValueError:
        return None


class _Weather:
    """One grid point's invented weather around an announcement: a seeded wet spell or none."""

    def __init__(self, rng: random.Random, at: datetime) -> None:
        self.rng = rng
        self.offset = rng.uniform(-4.0, 4.0)
        self.wet = rng.random() < 0.25
        self.wet_from = rng.randrange(0, 48)
        self.wet_hours = rng.randrange(2, 12)
        self.start = at
        self.vec = rng.randrange(0, 360)  # wind, humidity and sky drift from hour to hour
        self.wsd = rng.uniform(0.5, 5.0)
        self.reh = rng.uniform(35.0, 80.0)
        self.sky = rng.choice(("1", "1", "3", "4"))

    def temp(self, t: datetime) -> float:
        mean = _MONTH_MEAN[t.month - 1] + self.offset
        return mean + 4.5 * math.sin((t.hour - 9) / 24 * 2 * math.pi) + self.rng.uniform(-0.6, 0.6)

    def raining(self, t: datetime) -> bool:
        h = int((t - self.start).total_seconds() // 3600)
        return self.wet and self.wet_from <= h < self.wet_from + self.wet_hours

    def pty(self, t: datetime, temp: float, *, nowcast: bool) -> int:
        if not self.raining(t):
            return 0
        if temp <= -1:  # snow
            return self.rng.choice((3, 7)) if nowcast else 3
        if temp <= 2:  # sleet
            return self.rng.choice((2, 6)) if nowcast else 2
        if nowcast:
            return self.rng.choice((1, 5))
        return self.rng.choice((1, 4)) if temp > 20 else 1  # showers in the warm months

    def wind(self) -> tuple[int, float, float, float]:
        """The next hour's wind: direction (degrees it blows from), speed and its east and north
        components (KMA's UUU/VVV: the direction the air moves to)."""
        self.vec = (self.vec + self.rng.randint(-25, 25)) % 360
        self.wsd = min(max(self.wsd + self.rng.uniform(-0.8, 0.8), 0.1), 12.0)
        vec, wsd = self.vec, round(self.wsd, 1)
        rad = math.radians(vec)
        return vec, wsd, round(-wsd * math.sin(rad), 1) + 0.0, round(-wsd * math.cos(rad), 1) + 0.0

    def humidity(self, wet: bool) -> str:
        self.reh = min(max(self.reh + self.rng.uniform(-6.0, 6.0), 15.0), 99.0)
        return str(max(round(self.reh), 80) if wet else round(self.reh))

    def sky_state(self, wet: bool) -> str:
        if self.rng.random() < 0.15:
            self.sky = self.rng.choice(("1", "3", "4"))
        return "4" if wet else self.sky


def _amount(rng: random.Random, unit: str) -> str:
    """A precipitation (mm) or new snow (cm) class string of the forecasts."""
    x = rng.choice((0.5, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0, 12.0))
    return f"1{unit} 미만" if x < 1 else f"{x:.1f}{unit}"


def ultra_ncst_rows(rng: random.Random, base_date: str, base_time: str, nx: Any, ny: Any) -> list[dict[str, Any]]:
    """getUltraSrtNcst: the eight observed categories of one hour at one grid point."""
    at = _when(base_date, base_time) or _FALLBACK
    w = _Weather(rng, at)
    temp = w.temp(at)
    pty = w.pty(at, temp, nowcast=True)
    vec, wsd, u, v = w.wind()
    rn1 = "0" if pty == 0 else f"{rng.choice((0.1, 0.3, 0.5, 1.0, 1.5, 2.5, 4.0, 7.5)):.1f}"
    values = {"PTY": str(pty), "REH": w.humidity(pty > 0), "RN1": rn1,
              "T1H": f"{temp:.1f}", "UUU": f"{u:.1f}", "VEC": str(vec), "VVV": f"{v:.1f}", "WSD": f"{wsd:.1f}"}
    return [{"baseDate": base_date, "baseTime": base_time, "category": c, "nx": nx, "ny": ny,
             "obsrValue": values[c]} for c in NCST_CATEGORIES]


def ultra_fcst_rows(rng: random.Random, base_date: str, base_time: str, nx: Any, ny: Any) -> list[dict[str, Any]]:
    """getUltraSrtFcst: ten categories for each of the six hours after the announcement."""
    at = _when(base_date, base_time) or _FALLBACK
    w = _Weather(rng, at)
    hours = [at.replace(minute=0) + timedelta(hours=k) for k in range(1, 7)]
    by_cat: dict[str, list[str]] = {c: [] for c in ULTRA_FCST_CATEGORIES}
    for t in hours:
        temp = w.temp(t)
        pty = w.pty(t, temp, nowcast=True)
        vec, wsd, u, v = w.wind()
        by_cat["LGT"].append("0")
        by_cat["PTY"].append(str(pty))
        by_cat["RN1"].append("강수없음" if pty == 0 else _amount(rng, "mm"))
        by_cat["SKY"].append(w.sky_state(pty > 0))
        by_cat["T1H"].append(str(round(temp)))
        by_cat["REH"].append(w.humidity(pty > 0))
        by_cat["UUU"].append(f"{u:.1f}")
        by_cat["VVV"].append(f"{v:.1f}")
        by_cat["VEC"].append(str(vec))
        by_cat["WSD"].append(str(round(wsd)))
    return [{"baseDate": base_date, "baseTime": base_time, "category": c, "fcstDate": t.strftime("%Y%m%d"),
             "fcstTime": t.strftime("%H%M"), "fcstValue": by_cat[c][k], "nx": nx, "ny": ny}
            for c in ULTRA_FCST_CATEGORIES for k, t in enumerate(hours)]


def vilage_rows(rng: random.Random, base_date: str, base_time: str, nx: Any, ny: Any) -> list[dict[str, Any]]:
    """getVilageFcst: one announcement (02, 05, …, 23시) for one grid point, every hour from the
    next one to the end of the third day after, plus the days' TMN and TMX."""
    at = _when(base_date, base_time)
    if at is None:
        return []
    w = _Weather(rng, at)
    start = date(at.year, at.month, at.day)
    first = at.hour + 1
    rows: list[dict[str, Any]] = []
    for h in range(first, 24 * 3 + 1 - (first // 24)):
        day = start + timedelta(h // 24)
        t = datetime(day.year, day.month, day.day, h % 24)
        temp = w.temp(t)
        pty = w.pty(t, temp, nowcast=False)
        vec, wsd, u, v = w.wind()
        values = {"TMP": str(round(temp)), "UUU": f"{u:.1f}", "VVV": f"{v:.1f}", "VEC": str(vec),
                  "WSD": f"{wsd:.1f}", "SKY": w.sky_state(pty > 0), "PTY": str(pty),
                  "POP": str(rng.choice((60, 70, 80, 90)) if pty else rng.choice((0, 0, 10, 20, 30))),
                  "WAV": "0", "PCP": "강수없음" if pty in (0, 3) else _amount(rng, "mm"),
                  "REH": w.humidity(pty > 0),
                  "SNO": _amount(rng, "cm") if pty in (2, 3) else "적설없음"}
        cats = list(VILAGE_CATEGORIES)
        if t.hour == 6 and (day > start or base_time == "0200"):
            cats.append("TMN")
            values["TMN"] = f"{min(w.temp(t.replace(hour=h2)) for h2 in range(3, 9)):.1f}"
        if t.hour == 15:
            cats.append("TMX")
            values["TMX"] = f"{max(w.temp(t.replace(hour=h2)) for h2 in range(12, 18)):.1f}"
        rows.extend({"baseDate": base_date, "baseTime": base_time, "category": c, "fcstDate": day.strftime("%Y%m%d"),
                     "fcstTime": f"{t.hour:02d}00", "fcstValue": values[c], "nx": nx, "ny": ny} for c in cats)
    return rows
