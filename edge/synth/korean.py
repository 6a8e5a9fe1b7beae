"""Korean text helpers for question templates: particles chosen by the final syllable."""

from __future__ import annotations

import re

from ..errors import EdgeError

__all__ = ["clean_desc", "counter", "date_text", "josa", "num_text", "won_text"]


def _has_batchim(word: str) -> bool | None:
    for ch in reversed(word.strip()):
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3:
            return (code - 0xAC00) % 28 != 0
        if ch.isdigit():
            return ch in "013678"
        if ch.isalpha():
            return ch.lower() in "lmnr"
        if ch in ")'\"]":
            continue
        return None
    return None


_PAIRS = {"이": ("이", "가"), "을": ("을", "를"), "은": ("은", "는"), "과": ("과", "와"), "으로": ("으로", "로"),
          "이다": ("이다", "다"), "이나": ("이나", "나"), "이라": ("이라", "라"), "아": ("아", "야"),
          "이에요": ("이에요", "예요"), "이랑": ("이랑", "랑")}
#: Any form of a pair names the pair (``josa(w, "가")`` is ``josa(w, "이")``).
_ALIASES = {b: a for a, (_x, b) in _PAIRS.items()} | {"와": "과", "로": "으로", "를": "을", "는": "은"}


def josa(word: str, particle: str) -> str:
    """``word`` with the particle form that fits its last syllable.

    >>> josa("정당명", "이"), josa("노선번호", "을"), josa("서울", "으로")
    ('정당명이', '노선번호를', '서울로')
    """
    particle = particle if particle in _PAIRS else _ALIASES.get(particle, particle)
    if particle not in _PAIRS:
        raise EdgeError(f"particle {particle!r} unknown; use one of {', '.join(_PAIRS)}")
    with_b, without_b = _PAIRS[particle]
    b = _has_batchim(word)
    if particle == "으로" and word and ord(word[-1]) >= 0xAC00 and (ord(word[-1]) - 0xAC00) % 28 == 8:
        return word + "로"  # ㄹ 받침
    return word + (with_b if b or b is None and particle != "으로" else without_b)


def clean_desc(text: str, fallback: str) -> str:
    """A catalog description cut to its noun phrase (``'정당명 (…)'`` → ``'정당명'``)."""
    t = re.split(r"\s*[(（;,:]|\s+e\.g\.|\s+/\s", text or "", maxsplit=1)[0].strip()
    return t or fallback


def num_text(x: object) -> str:
    """A number as a question writes it (thousands separators)."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        return f"{x:,.2f}".rstrip("0").rstrip(".")
    return str(x)


def won_text(x: float) -> str | None:
    """An amount in 원 as a person reads it, by 조, 억 and 만 (None for a fraction of a 원).

    >>> won_text(365070000), won_text(1293982000000), won_text(-62725000), won_text(4500)
    ('3억 6,507만 원', '1조 2,939억 8,200만 원', '-6,272만 5,000원', '4,500원')
    """
    if isinstance(x, bool) or not float(x).is_integer():
        return None
    n = int(x)
    sign, n = ("-" if n < 0 else ""), abs(n)
    parts = [f"{v:,}{unit}" for v, unit in ((n // 10**12, "조"), (n // 10**8 % 10**4, "억"), (n // 10**4 % 10**4, "만"))
             if v]
    rest = n % 10**4
    if rest or not parts:
        return sign + " ".join([*parts, f"{rest:,}원"])
    return sign + " ".join(parts) + " 원"


def date_text(value: str) -> str | None:
    """A ``YYYYMMDD`` / ``YYYYMM`` / ``YYYY-MM-DD`` value as a person says it, else None.

    >>> date_text("20240410"), date_text("202403"), date_text("천안")
    ('2024년 4월 10일', '2024년 3월', None)
    """
    m = re.fullmatch(r"((?:19|20)\d\d)-?(0[1-9]|1[0-2])(?:-?(0[1-9]|[12]\d|3[01]))?", value.strip())
    if not m:
        return None
    y, mo, d = m.group(1), int(m.group(2)), m.group(3)
    return f"{y}년 {mo}월" + (f" {int(d)}일" if d else "")


#: The counter a person counts a noun with, by the noun's last word (first match wins):
#: 건 only for filings and deals (거래, 신고, 공시, 판례 …), 곳 for places, 명 for people,
#: 대 for vehicles, 번 for times; anything else 개.
_COUNTERS: tuple[tuple[str, str], ...] = (
    (r"(노선|종목|학과|학급|조문|항목|일정|행사|통계|지표|계열|표)$", "개"),
    (r"(거래|매매|신고|공시|판례|의안|법안|법률안|사건|민원|계약|청원|보고서|낙찰|입찰|내역|건)$", "건"),
    (r"(정류소|정류장|역|학교|지점|기관|업체|회사|법인|점포|시설|동|구|곳)$", "곳"),
    (r"(후보|후보자|당선인|당선자|의원|사람|인원|출마자|선거인|학생|교원)$", "명"),
    (r"(버스|열차|차량|택시)$", "대"),
    (r"(횟수|번|급식|식단)$", "번"),
)


def counter(noun: str) -> str:
    """The counter for ``noun`` ("300개 노선", not "300건").

    >>> counter("버스 노선"), counter("오피스텔 매매"), counter("버스정류소"), counter("당선인")
    ('개', '건', '곳', '명')
    """
    n = noun.strip()
    for pat, c in _COUNTERS:
        if re.search(pat, n):
            return c
    return "개"
