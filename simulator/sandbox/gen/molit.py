"""MOLIT RTMS real-transaction prices: one district (LAWD_CD) and one month (DEAL_YMD) per call.

An unknown LAWD_CD, the parent code of a city with 일반구 (41110), a malformed DEAL_YMD or a
month without data all give 0 rows (the real service answers ``000`` with an empty body).
Empty values are a single space, as RTMS sends them.
"""

from __future__ import annotations

from typing import Any

from ..world import World
from ._common import shape

__all__ = ["GENERATORS", "RH_FLOORS_EDITION"]

#: The world edition from which a 연립·다세대 trade's floor is one a row house has (1–4: both
#: are houses of at most four storeys); before it, the apartment trade's it was made from (up to
#: the 20s).
RH_FLOORS_EDITION = 9


def _deals(kind: str, endpoint_id: str):  # type: ignore[no-untyped-def]
    def gen(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
        lawd, ym = f.get("LAWD_CD", ""), f.get("DEAL_YMD", "")
        rows = world.apt_trades(lawd, ym) if kind == "trade" else world.apt_rents(lawd, ym)
        return shape(endpoint_id, rows, blank=" ")

    return gen


def _offi(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Officetels: a third of the trade volume, named after the district's 오피스텔 buildings."""
    lawd, ym = f.get("LAWD_CD", ""), f.get("DEAL_YMD", "")
    d = world.district(lawd)
    rows = []
    for i, t in enumerate(world.apt_trades(lawd, ym)[::3]):
        rows.append({**t, "offiNm": t["aptNm"].replace("아파트", "") + "오피스텔", "sggNm": d.name if d else " ",
                     "excluUseAr": f"{float(t['excluUseAr']) * 0.45:.2f}",
                     "dealAmount": f"{int(t['dealAmount'].replace(',', '')) * 2 // 5:,}"})
    return shape("molit_offi_trades", rows, blank=" ")


def _rh(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """연립다세대 trades: half the apartment volume, smaller and cheaper (from edition 9 on floors
    1–4, ``RH_FLOORS_EDITION``)."""
    lawd, ym = f.get("LAWD_CD", ""), f.get("DEAL_YMD", "")
    rows = []
    for t in world.apt_trades(lawd, ym)[1::2]:
        if world.edition >= RH_FLOORS_EDITION and t["floor"].lstrip("-").isdigit() and int(t["floor"]) > 4:
            t = {**t, "floor": str(1 + (int(t["floor"]) - 1) % 4)}
        rows.append({**t, "houseType": "다세대" if int(t["dealDay"]) % 3 else "연립",
                     "mhouseNm": t["aptNm"].rstrip("0123456789단지차") + "빌라",
                     "landAr": f"{float(t['excluUseAr']) * 0.4:.2f}",
                     "dealAmount": f"{int(t['dealAmount'].replace(',', '')) // 3:,}"})
    return shape("molit_rh_trades", rows, blank=" ")


GENERATORS = {
    "molit_apt_trades": _deals("trade", "molit_apt_trades"),
    "molit_apt_trades_detail": _deals("trade", "molit_apt_trades_detail"),
    "molit_apt_rents": _deals("rent", "molit_apt_rents"),
    "molit_offi_trades": _offi,
    "molit_rh_trades": _rh,
}
