"""Generated endpoints sit on the paths clients call: no invisible characters from the source.

data.go.kr's published URL of FSC's 주식 대차거래 service (GetCMStckLnbInfoService) carries a
byte-order mark before ``service`` (copied into data-go-kr-client 4.16.0); the real path has
none, so the generated endpoints were reachable only by a path no client sends.
"""

from __future__ import annotations

import unicodedata

from simulator.catalog import load_catalog
from simulator.request import SimRequest


def test_no_endpoint_path_holds_an_invisible_character() -> None:
    bad = [ep.id for ep in load_catalog().endpoints.values()
           if any(unicodedata.category(ch) in ("Cf", "Cc", "Zs") for ch in ep.path)]
    assert bad == []


def test_stock_lending_operations_match_their_real_path() -> None:
    catalog = load_catalog()
    for op, eid in (("getStckLnbDetail", "fsc_stck_lnb_detail"), ("getStckLnbProgress", "fsc_stck_lnb_progress"),
                    ("getStckLnbInvpnDetail", "fsc_stck_lnb_invpn_detail")):
        url = f"https://apis.data.go.kr/1160100/service/GetCMStckLnbInfoService/{op}?serviceKey=k"
        assert catalog.match(SimRequest.from_url(url)).endpoint.id == eid
