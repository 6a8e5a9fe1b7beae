"""OpenDART: corp codes (ZIP), company overview, disclosures, key accounts, ownership."""

from __future__ import annotations

from typing import Any, Sequence

from ..world import TODAY, World
from ._common import shape

__all__ = ["GENERATORS"]


def corp_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = [{**c, "corp_eng_name": c["corp_name_eng"]} for c in world.companies()]
    return shape("opendart_corp_codes", rows)


def company(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    c = world.company(f.get("corp_code", ""))
    if c is None:
        return []
    suffix = "(주)" if c["stock_code"].strip() else ""
    return shape("opendart_company", [{**c, "corp_name": c["corp_name"] + suffix,
                                       "stock_code": c["stock_code"].strip()}])


_TYPES = [("A", ("사업보고서", "반기보고서", "분기보고서")), ("B", ("주요사항보고서",)),
          ("C", ("증권발행실적보고서", "투자설명서", "유상증자결정")), ("D", ("임원ㆍ주요주주", "최대주주", "주식등의대량보유")),
          ("F", ("감사보고서",))]


def _pblntf_ty(report_nm: str) -> str:
    name = report_nm.replace("[기재정정]", "")
    for ty, prefixes in _TYPES:
        if name.startswith(prefixes):
            return ty
    return "I"


def disclosures(world: World, f: dict[str, str]) -> Sequence[dict[str, Any]]:
    """list.json: one company's filings, or everybody's; newest first."""
    corp = f.get("corp_code")
    rows = world.filings(corp) if corp else world.all_filings()
    if f.get("corp_cls"):
        rows = [r for r in rows if r["corp_cls"] == f["corp_cls"]]
    if f.get("pblntf_ty"):
        rows = [r for r in rows if _pblntf_ty(r["report_nm"]) == f["pblntf_ty"].upper()]
    if f.get("last_reprt_at", "N").upper() == "Y":
        rows = [r for r in rows if not r["report_nm"].startswith("[기재정정]")]
    if not f.get("bgn_de"):
        # Without bgn_de the service searches from end_de (default today) back 3 months.
        end = f.get("end_de") or TODAY.strftime("%Y%m%d")
        y, m = int(end[:4]), int(end[4:6]) - 3
        if m < 1:
            y, m = y - 1, m + 12
        start = f"{y}{m:02d}{end[6:8]}"
        rows = [r for r in rows if start <= r["rcept_dt"] <= end]
    # sort / sort_mth (role order) are applied by the app, as the resolver applies them.
    return shape("opendart_disclosures", rows) if len(rows) < 20_000 else _lazy(rows)


def _lazy(rows: Sequence[dict[str, Any]]) -> Sequence[dict[str, Any]]:
    from ._common import Rows, endpoint, shape_one

    ep = endpoint("opendart_disclosures")
    return Rows(len(rows), lambda i: shape_one(ep, rows[i]), ordered=True)


def single_account(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    year = f.get("bsns_year", "")
    if not year.isdigit():
        return []
    return shape("opendart_single_account", world.accounts(f.get("corp_code", ""), int(year), f.get("reprt_code", "")))


def major_stock(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("opendart_major_stock", world.major_shareholders(f.get("corp_code", "")))


def executive_stock(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("opendart_executive_stock", world.executive_holdings(f.get("corp_code", "")))


def equity_registration(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """estkRs: registration statements filed in [bgn_de, end_de], rows tagged by group."""
    c = world.company(f.get("corp_code", ""))
    if c is None or not c["stock_code"].strip():
        return []
    bgn, end = f.get("bgn_de", ""), f.get("end_de") or TODAY.strftime("%Y%m%d")
    filings = [x for x in world.filings(c["corp_code"]) if x["report_nm"] in ("유상증자결정", "증권발행실적보고서", "투자설명서")
               and bgn <= x["rcept_dt"] <= end]
    rows: list[dict[str, Any]] = []
    for fl in filings:
        rng = world.rng("estkRs", fl["rcept_no"])
        base = {"rcept_no": fl["rcept_no"], "corp_cls": c["corp_cls"], "corp_code": c["corp_code"], "corp_name": c["corp_name"]}
        count = rng.randint(1, 20) * 1_000_000
        price = rng.randint(2, 80) * 500
        rows.append({**base, "group_title": "일반사항", "sbd": f"{fl['rcept_dt'][:4]}년 {rng.randint(1, 12):02d}월 {rng.randint(1, 28):02d}일",
                     "pymd": f"{fl['rcept_dt'][:4]}년 {rng.randint(1, 12):02d}월 {rng.randint(1, 28):02d}일", "sband": "-", "asand": "-",
                     "asstd": "-", "exstk": "-", "exprc": "-", "expd": "-", "rpt_rcpn": "-"})
        rows.append({**base, "group_title": "증권의종류", "stksen": "기명식보통주", "stkcnt": f"{count:,}", "fv": "500",
                     "slprc": f"{price:,}", "slta": f"{count * price:,}", "slmthn": "주주배정후 실권주 일반공모"})
        rows.append({**base, "group_title": "인수인정보", "actsen": "대표", "actnmn": rng.choice(["미래에셋증권", "한국투자증권", "NH투자증권", "KB증권"]),
                     "stksen": "기명식보통주", "udtcnt": f"{count:,}", "udtamt": f"{count * price:,}", "udtprc": f"{count * price // 100:,}",
                     "udtmth": "잔액인수"})
        rows.append({**base, "group_title": "자금의사용목적", "se": rng.choice(["운영자금", "시설자금", "채무상환자금"]), "amt": f"{count * price:,}"})
    return shape("opendart_equity_registration", rows)


GENERATORS = {
    "opendart_corp_codes": corp_codes,
    "opendart_company": company,
    "opendart_disclosures": disclosures,
    "opendart_single_account": single_account,
    "opendart_major_stock": major_stock,
    "opendart_executive_stock": executive_stock,
    "opendart_equity_registration": equity_registration,
}
for _id in list(GENERATORS):
    GENERATORS[f"{_id}_xml"] = GENERATORS[_id]
