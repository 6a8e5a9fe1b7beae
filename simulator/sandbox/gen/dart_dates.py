"""Edition 9: a generated OpenDART report's dates in the order its events happen.

An OpenDART receipt number (``rcept_no``, 14 digits) begins with the day the report was
received (YYYYMMDD). Up to edition 8 a generated report's other dates were drawn one by one over
2024–2025: a board resolution (``bddd`` 이사회결의일) after the receipt, a listing of new shares
before their allotment. From :data:`DART_DATES_EDITION` each date of a record is set from its
receipt day by what its label says it is:

- a decision or a confirmation (결의일, 결정일, 확인일, 신청일, 제기일, 사유발생일) is on the receipt day or
  up to three days before it (a report follows its decision);
- 결산기준일 is the last year-end before the receipt day;
- a date in the past by meaning (최초 취득 일자, 발행일자, 상장일자) is before the receipt day;
- a date the report announces (예정일, 청약일, 납입일, 기준일, 기산일, 기일, 교부, 상장, 등기, 종료일, 만기일 …)
  is after it, the record's announced dates in the order such events follow one another
  (계약체결 < 주주총회 < 청약 < 납입 < 배정기준 < 기일 < 등기 < 교부 < 상장 …; a 만기일 years later; a
  배당기산일 is 1 January of the allotment's year).

Each date keeps the format its field had ("2025년 09월 20일", "20250920", "2025-09-20").
Values come from the record's own generator (``dart_dates|…``), so other draws stay edition 8's.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from typing import Any

from ...catalog import Endpoint

__all__ = ["DART_DATES_EDITION", "dart_dates"]

#: The edition from which a generated OpenDART record's dates follow its receipt number.
DART_DATES_EDITION = 9

_FORMATS = ((re.compile(r"\d{4}년 \d\d월 \d\d일"), "%Y년 %m월 %d일"), (re.compile(r"20\d{6}"), "%Y%m%d"),
            (re.compile(r"\d{4}-\d\d-\d\d"), "%Y-%m-%d"), (re.compile(r"\d{4}\.\d\d\.\d\d"), "%Y.%m.%d"))
_DECISION = re.compile(r"결의일|결정일|확인일|신청일|제기일|사유발생일|정지일자|부도")
_PAST = re.compile(r"최초 ?취득|발행일자|^상장일자|발행 감소일자")
#: Announced events in the order they follow one another (the first matching word ranks a label).
_SEQUENCE = ("계약체결", "주주총회", "청약", "납입", "배정기준", "감자기준", "기준일", "시작", "취득", "양수", "양도",
             "기일", "교환", "분할", "합병", "등기", "교부", "해지", "상장", "폐지", "매매거래종료", "종료")


def _format(value: str) -> str | None:
    for rx, fmt in _FORMATS:
        if rx.fullmatch(value):
            return fmt
    return None


def dart_dates(ep: Endpoint, rec: dict[str, Any], seed: str) -> dict[str, Any]:
    """``rec`` with its dates set from its ``rcept_no`` (see the module docstring)."""
    receipt = str(rec.get("rcept_no", ""))
    if not re.fullmatch(r"20\d{12}", receipt):
        return rec
    try:
        day = date(int(receipt[:4]), int(receipt[4:6]), int(receipt[6:8]))
    except ValueError:
        return rec
    labels = {f.name: f.description or "" for f in ep.fields}
    own = random.Random(f"dart_dates|{seed}")
    out = dict(rec)
    announced: list[tuple[int, str, str]] = []
    maturity: list[tuple[str, str]] = []
    dividend: list[tuple[str, str]] = []
    for name, label in labels.items():
        value = out.get(name)
        if (name == "rcept_no" or not isinstance(value, str) or (fmt := _format(value)) is None
                or not re.search(r"일|날짜", label)):
            continue  # not a date (an amount may read 20345678)
        if label.startswith("결산기준일") or name == "stlm_dt":
            out[name] = date(day.year - 1, 12, 31).strftime(fmt)
        elif _DECISION.search(label):
            out[name] = (day - timedelta(days=own.choice((0, 0, 0, 1, 1, 2, 3)))).strftime(fmt)
        elif _PAST.search(label):
            out[name] = (day - timedelta(days=own.randint(30, 3_000))).strftime(fmt)
        elif "만기" in label:
            maturity.append((name, fmt))
        elif "배당기산" in label:
            dividend.append((name, fmt))
        else:
            rank = next((i for i, w in enumerate(_SEQUENCE) if w in label), len(_SEQUENCE))
            announced.append((rank, name, fmt))
    offsets = sorted(own.sample(range(1, 121), len(announced))) if announced else []
    first = None
    for (rank, name, fmt), off in zip(sorted(announced), offsets, strict=True):
        when = day + timedelta(days=off)
        first = first or when
        out[name] = when.strftime(fmt)
    for name, fmt in maturity:
        out[name] = (day + timedelta(days=365 * own.randint(1, 5) + own.randint(0, 30))).strftime(fmt)
    for name, fmt in dividend:
        out[name] = date((first or day).year, 1, 1).strftime(fmt)
    return out
