"""Edition-9 texts and values a reader checks first. Ordinance articles (law.go.kr
``lawService`` target ``ordin``) in the formulae real 조례 and 규칙 use
(``ORDINANCE_TEXT_EDITION``): particles that agree with their word (이 조례는, 이 규칙은), the
subject once, the local government's head by its kind (군수, 구청장, 시장, 도지사). Row-house
trades on the floors a row house has (``RH_FLOORS_EDITION``). Edition 8 keeps its bytes."""

from __future__ import annotations

import hashlib
import json
import re

from simulator.sandbox.gen.lawgokr import ORDINANCE_TEXT_EDITION, ordin_detail
from simulator.sandbox.world import World
from simulator.sandbox.world._names import has_final_consonant


def _articles(edition: int, step: int = 97) -> list[tuple[dict[str, str], list[dict[str, str]]]]:
    w = World(0, edition=edition)
    out = []
    for o in w.ordinances()[::step]:
        (rec,) = ordin_detail(w, {"MST": o["자치법규일련번호"]})
        out.append((o, rec["조문"]["조"]))
    return out


def test_edition_8_keeps_its_articles() -> None:
    assert ORDINANCE_TEXT_EDITION == 9
    text = json.dumps([a for _o, arts in _articles(8) for a in arts], ensure_ascii=False, sort_keys=True)
    # sha256 of these articles before ORDINANCE_TEXT_EDITION existed
    assert "이 조례은" in text and hashlib.sha256(text.encode()).hexdigest()[:16] == "95bd38dc59b0b0aa"


def test_edition_9_articles_read_as_real_ones() -> None:
    particles = re.compile(r"(조례|규칙|군수|구청장|시장|도지사)(은|는|이|가) ")
    seen = 0
    for o, arts in _articles(9):
        kind, org = o["자치법규종류"], o["지자체기관명"]
        assert [a["조제목"] for a in arts][:3] == ["목적", "정의", "적용범위"] and arts[3]["조제목"].endswith("의 책무")
        first = arts[0]["조내용"]
        assert first.startswith(f"제1조(목적) 이 {kind}{'는' if kind == '조례' else '은'} {org}의 ")
        assert first.endswith("에 관하여 필요한 사항을 규정함을 목적으로 한다.") and " 조례에 관하여" not in first
        head = arts[3]["조제목"].removesuffix("의 책무")
        assert head == {"군": "군수", "구": "구청장", "도": "도지사"}.get(org[-1], "시장")
        for a in arts:
            for word, p in particles.findall(a["조내용"]):
                assert (p in "은이") == has_final_consonant(word), a["조내용"]
            seen += 1
    assert seen > 200


def test_row_house_floors_from_edition_9() -> None:
    """연립·다세대 are houses of at most four storeys: from edition 9 (``RH_FLOORS_EDITION``) a
    row-house trade's floor is 1–4 (or a basement, -1, as before); edition 8 keeps the apartment floors it was made from."""
    from simulator.sandbox.gen.molit import GENERATORS, RH_FLOORS_EDITION

    assert RH_FLOORS_EDITION == 9
    asked = [{"LAWD_CD": d, "DEAL_YMD": ym} for d in ("11110", "11650", "11680") for ym in ("202407", "202412")]
    floors = {e: [int(r["floor"]) for f in asked for r in GENERATORS["molit_rh_trades"](World(0, edition=e), f)]
              for e in (8, 9)}
    assert len(floors[8]) == len(floors[9]) > 300
    assert max(floors[8]) > 10 and {1, 2, 3, 4} <= set(floors[9]) <= {-1, 1, 2, 3, 4}  # -1: a basement, kept
    offi8, offi9 = (GENERATORS["molit_offi_trades"](World(0, edition=e), asked[0]) for e in (8, 9))
    assert offi8 == offi9  # officetels keep theirs
