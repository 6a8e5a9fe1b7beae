"""FSC stock prices (data.go.kr 1160100): daily prices, listed items, ETFs and indices.

The full collection is every listed company on every trading day of the world (2,400 ×
~245 rows), so the generator narrows by the filters first (name, code, date, range) and
returns a lazy :class:`Rows` for whatever is left; newest day first.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..world import PRICE_DAYS, World, _unit
from ._common import Rows, endpoint, shape_one

__all__ = ["GENERATORS"]


def _days(f: dict[str, str]) -> list[str]:
    days = list(reversed(PRICE_DAYS))
    if f.get("basDt"):
        days = [d for d in days if d == f["basDt"]]
    if f.get("beginBasDt"):
        days = [d for d in days if d >= f["beginBasDt"]]
    if f.get("endBasDt"):
        days = [d for d in days if d < f["endBasDt"]]  # endBasDt is exclusive on the real API
    if f.get("likeBasDt"):
        days = [d for d in days if f["likeBasDt"] in d]
    return days


def _companies(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    cs = world.listed_companies()
    if f.get("itmsNm"):
        cs = [c for c in cs if c["corp_name"] == f["itmsNm"]]
    if f.get("likeItmsNm"):
        cs = [c for c in cs if f["likeItmsNm"] in c["corp_name"]]
    if f.get("likeSrtnCd"):
        cs = [c for c in cs if f["likeSrtnCd"] in c["stock_code"]]
    if f.get("isinCd"):
        cs = [c for c in cs if c["isin"] == f["isinCd"]]
    if f.get("mrktCls"):
        cs = [c for c in cs if c["market"] == f["mrktCls"].upper()]
    if f.get("crno"):
        cs = [c for c in cs if c["crno"] == f["crno"]]
    if f.get("likeCorpNm"):
        cs = [c for c in cs if f["likeCorpNm"] in c["corp_name"]]
    return cs


def _grid(days: Sequence[str], items: Sequence[Any], row: Callable[[str, Any], dict[str, Any]]) -> Rows:
    n = len(items)
    return Rows(len(days) * n, lambda i: row(days[i // n], items[i % n]))


def stock_prices(world: World, f: dict[str, str]) -> Rows:
    ep = endpoint("fsc_stock_prices")
    index = {d: i for i, d in enumerate(PRICE_DAYS)}
    return _grid(_days(f), _companies(world, f), lambda d, c: shape_one(ep, world._price_row(c, index[d])))


def listed_items(world: World, f: dict[str, str]) -> Rows:
    ep = endpoint("fsc_listed_items")

    def row(d: str, c: dict[str, Any]) -> dict[str, Any]:
        return shape_one(ep, {"basDt": d, "srtnCd": "A" + c["stock_code"], "isinCd": c["isin"], "mrktCtg": c["market"],
                              "itmsNm": c["corp_name"], "crno": c["crno"], "corpNm": c["corp_name"] + "(주)"})

    return _grid(_days(f), _companies(world, f), row)


_ETF_BRANDS = ["KODEX", "TIGER", "KBSTAR", "ARIRANG", "HANARO", "SOL", "ACE", "KOSEF"]
_ETF_THEMES = [("200", "코스피 200"), ("코스닥150", "코스닥 150"), ("미국S&P500", "S&P 500"), ("미국나스닥100", "NASDAQ 100"),
               ("2차전지산업", "KRX 2차전지 K-뉴딜지수"), ("반도체", "KRX 반도체"), ("고배당", "코스피 고배당 50"),
               ("국고채3년", "KIS 국고채 3년"), ("레버리지", "코스피 200"), ("인버스", "코스피 200")]


def _etfs(world: World) -> list[dict[str, Any]]:
    def build() -> list[dict[str, Any]]:
        rng = world.rng("etfs")
        out = []
        for b in _ETF_BRANDS:
            for t, idx in _ETF_THEMES:
                code = f"{rng.randrange(10000, 49999)}0"
                out.append({"name": f"{b} {t}", "code": code, "isin": f"KR7{code}00" + str(rng.randint(0, 9)), "index": idx,
                            "p0": rng.uniform(5000, 40000), "key": rng.getrandbits(48), "shares": rng.randint(1_000_000, 80_000_000)})
        return out
    return world.cached(("etfs",), build)


def etf_prices(world: World, f: dict[str, str]) -> Rows:
    ep = endpoint("fsc_etf_prices")
    etfs = _etfs(world)
    for key, test in (("itmsNm", lambda e, v: e["name"] == v), ("likeItmsNm", lambda e, v: v in e["name"]),
                      ("likeSrtnCd", lambda e, v: v in e["code"]), ("isinCd", lambda e, v: e["isin"] == v)):
        if f.get(key):
            etfs = [e for e in etfs if test(e, f[key])]
    index = {d: i for i, d in enumerate(PRICE_DAYS)}

    def row(d: str, e: dict[str, Any]) -> dict[str, Any]:
        i = index[d]
        price = int(e["p0"] * math.exp(0.15 * math.sin(i / 30 + e["key"] % 7)) + 20 * _unit(e["key"], i))
        prev = int(e["p0"] * math.exp(0.15 * math.sin((i - 1) / 30 + e["key"] % 7)) + 20 * _unit(e["key"], i - 1))
        vol = int(50_000 + 900_000 * _unit(e["key"], i + 77))
        return shape_one(ep, {"basDt": d, "srtnCd": e["code"], "isinCd": e["isin"], "itmsNm": e["name"], "clpr": str(price),
                              "vs": str(price - prev), "fltRt": f"{(price - prev) / prev * 100:.2f}", "nav": f"{price * 1.001:.2f}",
                              "mkp": str(prev), "hipr": str(max(price, prev) + 15), "lopr": str(min(price, prev) - 15),
                              "trqu": str(vol), "trPrc": str(vol * price), "mrktTotAmt": str(price * e["shares"]),
                              "nPptTotAmt": str(int(price * e["shares"] * 1.001)), "stLstgCnt": str(e["shares"]),
                              "bssIdxIdxNm": e["index"], "bssIdxClpr": f"{price / 10:.2f}"})

    return _grid(_days(f), etfs, row)


_INDICES = [("코스피", "KOSPI시리즈", 2500.0), ("코스피 200", "KOSPI시리즈", 330.0), ("코스닥", "KOSDAQ시리즈", 730.0),
            ("코스닥 150", "KOSDAQ시리즈", 1250.0), ("KRX 300", "KRX시리즈", 1650.0), ("KRX 100", "KRX시리즈", 5200.0)]


def market_index(world: World, f: dict[str, str]) -> Rows:
    ep = endpoint("fsc_market_index")
    idx = list(_INDICES)
    if f.get("idxNm"):
        idx = [x for x in idx if x[0] == f["idxNm"]]
    if f.get("likeIdxNm"):
        idx = [x for x in idx if f["likeIdxNm"] in x[0]]
    index = {d: i for i, d in enumerate(PRICE_DAYS)}
    key = world.rng("index").getrandbits(48)

    def level(base: float, i: int) -> float:
        return base * (1 + 0.12 * math.sin(i / 45.0) + 0.01 * (_unit(key + int(base), i) - 0.5))

    def row(d: str, x: tuple[str, str, float]) -> dict[str, Any]:
        i = index[d]
        cl, prev = level(x[2], i), level(x[2], i - 1)
        return shape_one(ep, {"basDt": d, "idxNm": x[0], "idxCsf": x[1], "epyItmsCnt": "200", "clpr": f"{cl:.2f}",
                              "vs": f"{cl - prev:.2f}", "fltRt": f"{(cl - prev) / prev * 100:.2f}", "mkp": f"{prev:.2f}",
                              "hipr": f"{max(cl, prev) * 1.004:.2f}", "lopr": f"{min(cl, prev) * 0.996:.2f}",
                              "trqu": str(int(4e8 * (0.5 + _unit(key, i)))), "trPrc": str(int(9e12 * (0.5 + _unit(key, i + 1)))),
                              "lstgMrktTotAmt": str(int(cl * 8e11)), "lsYrEdVsFltRg": f"{cl - x[2]:.2f}",
                              "lsYrEdVsFltRt": f"{(cl - x[2]) / x[2] * 100:.2f}", "yrWRcrdHgst": f"{x[2] * 1.12:.2f}",
                              "yrWRcrdHgstDt": "20250801", "yrWRcrdLwst": f"{x[2] * 0.88:.2f}", "yrWRcrdLwstDt": "20250409",
                              "basPntm": "19800104", "basIdx": "100"})

    return _grid(_days(f), idx, row)


GENERATORS = {
    "fsc_stock_prices": stock_prices,
    "fsc_listed_items": listed_items,
    "fsc_etf_prices": etf_prices,
    "fsc_market_index": market_index,
}
