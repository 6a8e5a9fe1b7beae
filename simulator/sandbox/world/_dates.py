"""The world's calendar: its fixed "today", holidays, business days and data months."""

from __future__ import annotations

from datetime import date, timedelta

__all__ = ["PRICE_DAYS", "TODAY", "TRADE_MONTHS", "is_business_day"]

#: The world's "today": nothing reads the wall clock.
TODAY = date(2025, 12, 31)

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
