"""OpenDART's financial indices (``fnlttSinglIndx``, ``fnlttCmpnyIndx``) from world edition 8.

Before edition 8 the generated rows drew ``idx_cl_nm``, ``idx_nm`` and ``stlm_dt`` apart from the
request (``idx_cl_code=M210000`` for 2024 answered 성장성지표, settled 2022-12-31). From
:data:`INDX_EDITION` one request answers, for each company asked (a comma list for
``fnlttCmpnyIndx``), one row per index of the requested class, in the order the real API lists
them, with the class name of the code, the year and report asked and the settlement date of the
report. Published facts (names only): the OpenDART guide DS003 (classes M210000 수익성지표,
M220000 안정성지표, M230000 성장성지표, M240000 활동성지표; response fields); the index names
and their order as recorded from live answers in public client code (66 indices: 15, 22, 18, 11;
the first profitability row is 세전계속사업이익률 with ``idx_code`` M211100). The other
``idx_code`` values continue that shape and are assumed. The values are the world's: 37 of the 66
indices computed from the company's own statements (what ``fnlttSinglAcnt`` answers for the same
year and report), the others invented within a plausible range.
"""

from __future__ import annotations

from typing import Any

__all__ = ["INDEX_CLASSES", "INDEX_NAMES", "INDX_EDITION", "index_rows"]

#: The world edition from which the index rows follow the request and the published index lists.
INDX_EDITION = 8
INDEX_CLASSES = {"M210000": "수익성지표", "M220000": "안정성지표", "M230000": "성장성지표", "M240000": "활동성지표"}
INDEX_NAMES: dict[str, tuple[str, ...]] = {
    "M210000": ("세전계속사업이익률", "순이익률", "총포괄이익률", "매출총이익률", "매출원가율", "ROE", "판관비율",
                "총자산영업이익률", "총자산세전계속사업이익률", "자기자본영업이익률", "자기자본세전계속사업이익률",
                "자본금영업이익률", "자본금세전계속사업이익률", "납입자본이익률", "영업수익경비율"),
    "M220000": ("자기자본비율", "부채비율", "유동비율", "당좌비율", "유동부채비율", "비유동부채비율", "이자보상배율",
                "순이자보상배율", "비유동비율", "금융비용부담률", "자본유보율", "유보액대비율", "재무레버리지", "비유동적합률",
                "비유동자산구성비율", "유형자산구성비율", "유동자산구성비율", "재고자산구성비율", "유동자산/비유동자산비율",
                "재고자산/유동자산비율", "매출채권/매입채무비율", "매입채무/재고자산비율"),
    "M230000": ("매출액증가율(YoY)", "매출총이익증가율(YoY)", "영업이익증가율(YoY)", "세전계속사업이익증가율(YoY)",
                "순이익증가율(YoY)", "총포괄이익증가율(YoY)", "총자산증가율", "비유동자산증가율", "유형자산증가율",
                "부채총계증가율", "총차입금증가율", "자기자본증가율", "유동자산증가율", "매출채권증가율", "재고자산증가율",
                "유동부채증가율", "매입채무증가율", "비유동부채증가율"),
    "M240000": ("총자산회전율", "매출채권회전율", "재고자산회전율", "매출원가/재고자산", "매입채무회전율", "비유동자산회전율",
                "유형자산회전율", "타인자본회전율", "자기자본회전율", "자본금회전율", "배당성향(%)"),
}
#: The settlement date (month-day) of each report: annual, half-year, first and third quarter.
_SETTLED = {"11011": "12-31", "11012": "06-30", "11013": "03-31", "11014": "09-30"}
#: Ranges (percent) of the invented values by index name (else by class).
_RANGE = {"매출원가율": (45.0, 92.0), "판관비율": (4.0, 35.0), "영업수익경비율": (70.0, 105.0),
          "자본금영업이익률": (-150.0, 900.0), "자본금세전계속사업이익률": (-150.0, 950.0), "납입자본이익률": (-150.0, 800.0),
          "자기자본비율": (25.0, 88.0), "부채비율": (15.0, 260.0), "유동비율": (70.0, 420.0), "당좌비율": (50.0, 330.0),
          "이자보상배율": (-300.0, 4000.0), "순이자보상배율": (-300.0, 5000.0), "자본유보율": (100.0, 9000.0),
          "유보액대비율": (80.0, 5000.0), "재무레버리지": (110.0, 380.0), "자본금회전율": (100.0, 6000.0),
          "배당성향(%)": (0.0, 65.0)}
_CLASS_RANGE = {"M210000": (-20.0, 30.0), "M220000": (5.0, 160.0), "M230000": (-45.0, 60.0), "M240000": (15.0, 900.0)}


#: Indices computed from the world's own statements (``fnlttSinglAcnt``: CFS, else OFS), by their
#: textbook definitions (ending balances; DART's own formulas are not published): name →
#: (numerator, denominator), or (account, None) for a year-on-year growth of that account.
_ACCT = {"매출": "매출액", "영업": "영업이익", "세전": "법인세차감전 순이익", "순익": "당기순이익(손실)",
         "자산": "자산총계", "유동자산": "유동자산", "비유동자산": "비유동자산", "부채": "부채총계", "유동부채": "유동부채",
         "비유동부채": "비유동부채", "자본": "자본총계", "자본금": "자본금", "잉여금": "이익잉여금"}
_COMPUTED: dict[str, tuple[str, str | None]] = {
    "세전계속사업이익률": ("세전", "매출"), "순이익률": ("순익", "매출"), "ROE": ("순익", "자본"),
    "총자산영업이익률": ("영업", "자산"), "총자산세전계속사업이익률": ("세전", "자산"), "자기자본영업이익률": ("영업", "자본"),
    "자기자본세전계속사업이익률": ("세전", "자본"), "자본금영업이익률": ("영업", "자본금"),
    "자본금세전계속사업이익률": ("세전", "자본금"), "납입자본이익률": ("순익", "자본금"),
    "자기자본비율": ("자본", "자산"), "부채비율": ("부채", "자본"), "유동비율": ("유동자산", "유동부채"),
    "유동부채비율": ("유동부채", "자본"), "비유동부채비율": ("비유동부채", "자본"), "비유동비율": ("비유동자산", "자본"),
    "자본유보율": ("잉여금", "자본금"), "재무레버리지": ("자산", "자본"), "비유동자산구성비율": ("비유동자산", "자산"),
    "유동자산구성비율": ("유동자산", "자산"), "유동자산/비유동자산비율": ("유동자산", "비유동자산"),
    "매출액증가율(YoY)": ("매출", None), "영업이익증가율(YoY)": ("영업", None), "세전계속사업이익증가율(YoY)": ("세전", None),
    "순이익증가율(YoY)": ("순익", None), "총자산증가율": ("자산", None), "비유동자산증가율": ("비유동자산", None),
    "부채총계증가율": ("부채", None), "자기자본증가율": ("자본", None), "유동자산증가율": ("유동자산", None),
    "유동부채증가율": ("유동부채", None), "비유동부채증가율": ("비유동부채", None),
    "총자산회전율": ("매출", "자산"), "비유동자산회전율": ("매출", "비유동자산"), "타인자본회전율": ("매출", "부채"),
    "자기자본회전율": ("매출", "자본"), "자본금회전율": ("매출", "자본금"),
}


def _amounts(accounts: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Account name → (this term, last term) in won: the consolidated statement, else the separate one."""
    rows = [r for r in accounts if r.get("fs_div") == "CFS"] or [r for r in accounts if r.get("fs_div") == "OFS"]
    out = {}
    for r in rows:
        try:
            out[r["account_nm"]] = (int(str(r["thstrm_amount"]).replace(",", "")),
                                    int(str(r["frmtrm_amount"]).replace(",", "")))
        except (KeyError, ValueError):
            continue
    return out


def _computed(name: str, amounts: dict[str, tuple[int, int]]) -> str | None:
    if name not in _COMPUTED:
        return None
    num, den = _COMPUTED[name]
    a = amounts.get(_ACCT[num])
    if a is None:
        return None
    if den is None:  # growth on the last term
        return f"{(a[0] / a[1] - 1) * 100:.3f}" if a[1] else None
    b = amounts.get(_ACCT[den])
    return f"{a[0] / b[0] * 100:.3f}" if b is not None and b[0] else None


def _values(amounts: dict[str, tuple[int, int]], rng_for: Any) -> dict[str, str]:
    """Every index of one company: computed where the statements give it, the ones that follow
    from those (gross margin = operating margin + SG&A ratio, cost ratio = 100 - gross margin,
    quick ratio under the current ratio, …) from them, the rest drawn in its range."""
    out: dict[str, str] = {}
    for names in INDEX_NAMES.values():
        for name in names:
            if (v := _computed(name, amounts)) is not None:
                out[name] = v

    def num(name: str) -> float | None:
        return float(out[name]) if name in out else None

    def draw(name: str, lo: float, hi: float) -> float:
        return float(rng_for(name).uniform(lo, hi))
    sales, opi = amounts.get("매출액"), amounts.get("영업이익")
    if sales and opi and sales[0]:
        op_margin = opi[0] / sales[0] * 100
        sga = draw("판관비율", 4.0, 30.0)
        out["판관비율"] = f"{sga:.3f}"
        out["매출총이익률"] = f"{op_margin + sga:.3f}"
        out["매출원가율"] = f"{100 - op_margin - sga:.3f}"
    if (net := num("순이익률")) is not None:
        out["총포괄이익률"] = f"{net + draw('총포괄이익률', -1.5, 1.5):.3f}"
    if (cur := num("유동비율")) is not None:
        out["당좌비율"] = f"{cur * draw('당좌비율', 0.55, 0.95):.3f}"
    if (g := num("매출액증가율(YoY)")) is not None:
        out["매출총이익증가율(YoY)"] = f"{g + draw('매출총이익증가율(YoY)', -8.0, 8.0):.3f}"
    if (g := num("순이익증가율(YoY)")) is not None:
        out["총포괄이익증가율(YoY)"] = f"{g + draw('총포괄이익증가율(YoY)', -5.0, 5.0):.3f}"
    for cls, names in INDEX_NAMES.items():
        for name in names:
            if name not in out:
                lo, hi = _RANGE.get(name, _CLASS_RANGE[cls])
                out[name] = f"{draw(name, lo, hi):.3f}"
    return out


def _idx_code(cls: str, k: int) -> str:
    """``M2{class}{1100 + 100k}``: M211100 for the first profitability index (published), the rest
    assumed in the same shape."""
    return f"M2{cls[2]}{1100 + 100 * k}"


def index_rows(rng_for: Any, accounts_for: Any, companies: list[dict[str, Any]], year: str, reprt: str,
               cls: str, fields: list[str]) -> list[dict[str, Any]]:
    """The rows of one request: each company, each index of class ``cls`` (``fields`` in order).
    ``accounts_for(corp_code)``: the company's statement rows for the year and report (what the
    computed indices read); ``rng_for(corp_code, name)`` seeds an index no statement gives (the
    same in both operations)."""
    if cls not in INDEX_NAMES or reprt not in _SETTLED or not (len(year) == 4 and year.isdigit()):
        return []
    rows = []
    for c in companies:
        values = _values(_amounts(accounts_for(c["corp_code"])), lambda name, corp=c["corp_code"]: rng_for(corp, name))
        for k, name in enumerate(INDEX_NAMES[cls]):
            value = values[name]
            row = {"reprt_code": reprt, "bsns_year": year, "corp_code": c["corp_code"], "stock_code": c["stock_code"],
                   "stlm_dt": f"{year}-{_SETTLED[reprt]}", "idx_cl_code": cls, "idx_cl_nm": INDEX_CLASSES[cls],
                   "idx_code": _idx_code(cls, k), "idx_nm": name, "idx_val": value}
            rows.append({n: row.get(n, "") for n in fields})
    return rows
