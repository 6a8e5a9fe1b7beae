"""World edition 8: no invented value poses as a fact about a real election or a real party.

The elections' sgIds, dates and offices are real; their candidates and results are invented, so
from edition 8 they carry invented parties (``parties_invented`` in ``data/pools.yaml``), never a
real one (``data/real_party_names.txt``), and every election row names its places as they were
on the vote date (강원도 before 2023-06-11, 전라북도 before 2024-01-18, 군위군 in 경상북도 before
2023-07-01, 부천시 and 화성시 without their 일반구 before 2024-01-01 and 2026-02-01). Editions up to
7 serve the same bytes as before.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any

from simulator.sandbox.gen import assembly, nec
from simulator.sandbox.world import World, pools
from simulator.sandbox.world._core import DATA
from simulator.sandbox.world._politics import INVENTED_PARTIES_EDITION, invented_parties

G = {**nec.GENERATORS, **assembly.GENERATORS}
#: Endings every Korean party name may share (더불어민주당, 새천년민주당, 한국국민당 …).
_GENERIC = {"민주당", "국민당"}


def _real() -> list[str]:
    return (DATA / "real_party_names.txt").read_text(encoding="utf-8").splitlines()


def _served(w: World) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every NEC and Assembly answer of the world, by endpoint (the cassettes record these)."""
    out = [("nec_election_codes", G["nec_election_codes"](w, {}))]
    for e in w.elections():
        f = {"sgId": e["sgId"], "sgTypecode": e["sgTypecode"]}
        for ep in ("nec_district_codes", "nec_candidates", "nec_winners", "nec_turnout", "nec_preliminary_candidates",
                   "nec_gusigun_codes", "nec_party_codes"):
            out.append((ep, G[ep](w, f)))
        for c in w.candidates(e["sgId"], e["sgTypecode"])[:2]:
            out.append(("nec_pledges", G["nec_pledges"](w, {**f, "cnddtId": c["huboid"]})))
    out += [("assembly_members", G["assembly_members"](w, {})), ("assembly_committee_members", G["assembly_committee_members"](w, {})),
            ("assembly_member_bills", G["assembly_member_bills"](w, {"AGE": "22"})),
            ("assembly_bill_votes", G["assembly_bill_votes"](w, {"AGE": "22"}))]
    for b in [b for b in w.bills() if b["voted"]][:20]:
        out.append(("assembly_member_votes", G["assembly_member_votes"](w, {"AGE": "22", "BILL_ID": b["BILL_ID"]})))
    return out


@lru_cache(maxsize=1)
def _served_8() -> tuple[World, list[tuple[str, list[dict[str, Any]]]]]:
    w = World(0, edition=INVENTED_PARTIES_EDITION)
    return w, _served(w)


def test_the_real_list_is_loaded_and_no_invented_party_is_real() -> None:
    real = _real()
    assert real == sorted(set(real)) and all(n.strip() == n and n for n in real) and len(real) > 150
    for n in ("더불어민주당", "국민의힘", "정의당", "국민의당", "조국혁신당", "개혁신당", "진보당", "녹색정의당", "새누리당"):
        assert n in real, n
    assert {str(p) for p in pools()["parties_22"] if p != "무소속"} <= set(real)  # editions <= 7 served these
    invented = [str(row[0]) for row in pools()["parties_invented"]]
    assert len(invented) == len(set(invented)) == 7
    for name in invented:
        assert name not in real, name
        held = [r for r in real if len(r) >= 3 and r in name and r not in _GENERIC]
        assert not held, (name, held)


def test_parties_run_between_their_dates() -> None:
    assert invented_parties("20220601") == ["한빛민주당", "새길국민당", "푸른희망당", "미래나눔당"]  # 한마음연대 dissolved
    assert "한마음연대" in invented_parties("20200415") and "새날연합" not in invented_parties("20200415")
    assert invented_parties("20240410")[-2:] == ["바른내일당", "새날연합"]


def test_edition_8_serves_no_real_party() -> None:
    real = (set(_real()) | {str(p) for p in pools()["parties_22"] + pools()["parties_other"] if p != "무소속"}) - _GENERIC
    w, served = _served_8()
    seen: set[str] = set()
    for ep, rows in served:
        for r in rows:
            for field in ("jdName", "partyName", "POLY_NM"):
                if field in r:
                    seen.add(str(r[field]))
            text = json.dumps(r, ensure_ascii=False)
            assert not [n for n in real if n in text], (ep, r)
    invented = {str(row[0]) for row in pools()["parties_invented"]}
    assert seen - {"", "무소속"} == invented  # every invented party runs somewhere
    # 교육감 run without a party, and NEC's party list names none for them
    assert {c["jdName"] for c in w.candidates("20220601", "11")} == {""}
    assert [r["jdName"] for r in G["nec_party_codes"](w, {"sgId": "20220601"})] == invented_parties("20220601")
    # the 22nd Assembly: its members are the world's winners of 2024-04-10, with their invented parties
    members = w.members()
    assert {m["POLY_NM"] for m in members} <= {*invented_parties("20240410"), "무소속"}


def test_edition_8_names_places_as_of_the_vote_date() -> None:
    w, served = _served_8()
    checked = 0
    for ep, rows in served:
        for r in rows:
            sg = str(r.get("sgId", ""))
            if not sg:
                continue
            text = json.dumps(r, ensure_ascii=False)
            before = {"강원특별자치도": sg < "20230611", "전북특별자치도": sg < "20240118"}
            for new, old in (("강원특별자치도", "강원도"), ("전북특별자치도", "전라북도")):
                assert (new in text) <= (not before[new]) and (old in text) <= before[new], (ep, r)
            gunwi = "경상북도" if sg < "20230701" else "대구광역시"
            if r.get("wiwName") == "군위군":
                assert r.get("sdName", r.get("sidoName")) == gunwi, (ep, r)
            if "군위군" in str(r.get("addr", "")):
                assert str(r["addr"]).startswith(f"{gunwi} 군위군"), (ep, r)
            if sg < "20240101":
                assert "부천시원미구" not in text and "부천시 원미구" not in text, (ep, r)
            assert "화성시만세구" not in text and "화성시 만세구" not in text or sg >= "20260201", (ep, r)
            checked += 1
    assert checked > 10_000
    sds = [r["sdName"] for r in w.constituencies("20220601", "3")]
    assert sds[8:13] == ["경기도", "강원도", "충청북도", "충청남도", "전라북도"]  # the NEC's order
    heads = {r["sggName"] for r in w.constituencies("20220601", "4")}
    assert {"수원시", "부천시", "화성시", "군위군"} <= heads and not {"제주시", "세종특별자치시"} & heads
    assert not [r for r in w.constituencies("20220601", "4") if " " in r["sggName"] or r["sggName"].endswith("시장안구")]
    assert [r["sdName"] for r in w.constituencies("20240410", "3")] == []  # no 시·도지사 election in 2024
    assert {r["sdName"] for r in w.constituencies("20180613", "10")} == {"제주특별자치도"}  # 교육의원
    assert not {r["sdName"] for r in w.constituencies("20220601", "6")} & {"제주특별자치도", "세종특별자치시"}
    sds24 = {r["sdName"] for r in w.candidates("20240410", "2")}
    assert {"강원특별자치도", "전북특별자치도"} <= sds24


def _digest(w: World) -> str:
    h = hashlib.sha256()
    for _ep, rows in _served(w):
        h.update(json.dumps(rows, ensure_ascii=False, sort_keys=True, default=str).encode())
    return h.hexdigest()


def test_edition_7_is_unchanged() -> None:
    """Edition 7 (``kopa@v0008``) serves what it served before edition 8 existed (the digest was
    taken from the code before the change), real party names included."""
    w7 = World(0, edition=7)
    assert _digest(w7) == "c77f35d22480aac4a17fe1a6e33297bdb9ff682eaff959e3ac27df0cd5817da8"
    assert "더불어민주당" in {c["jdName"] for c in w7.candidates("20220601", "3")}


def test_the_assembly_keeps_its_keys() -> None:
    """Edition 8 keeps the 22nd Assembly's size, bill ids and votes taken (the cassettes' keys)."""
    w7, w8 = World(0, edition=7), World(0, edition=INVENTED_PARTIES_EDITION)
    assert len(w8.members()) == len(w7.members())
    assert [(b["BILL_ID"], b["voted"]) for b in w8.bills()] == [(b["BILL_ID"], b["voted"]) for b in w7.bills()]


def test_edition_8_bills_take_no_real_bill_number() -> None:
    """The real 22nd Assembly numbers its bills 2200001 up; the world's invented bills take
    2290001 up (edition 7: 2200001 up). A bill that amends a real statute goes to that statute's
    standing committee (edition 7 sent 유아교육법 to 국방위원회); no bill enacts a real statute anew
    (edition 7: '의료법 특별법안'); a vote's LAW_TITLE is the amended statute's whole title."""
    w7, w8 = World(0, edition=7), World(0, edition=INVENTED_PARTIES_EDITION)
    assert w7.bills()[0]["BILL_NO"] == "2200001"
    statutes = {str(t) for t in pools()["bill_topics"]}
    committee: dict[str, str] = {}
    for b in w8.bills():
        assert "2290001" <= b["BILL_NO"] <= "2299999", b
        law, kind = b["BILL_NAME"].rsplit(" ", 1)
        if kind in ("일부개정법률안", "전부개정법률안"):
            assert law in statutes, b
            assert committee.setdefault(law, b["COMMITTEE"]) == b["COMMITTEE"], b  # one committee a statute
        else:  # a new law: never a real statute's title, nor one of them made 'special'
            assert not [t for t in statutes if b["BILL_NAME"].startswith(f"{t} ") or b["BILL_NAME"] == f"{t}안"], b
    assert (committee["의료법"], committee["병역법"], committee["유아교육법"], committee["민법"]) == (
        "보건복지위원회", "국방위원회", "교육위원회", "법제사법위원회")
    assert set(committee) == statutes
    voted = next(b for b in w8.bills() if b["voted"] and b["BILL_NAME"].endswith("개정법률안"))
    assert {v["LAW_TITLE"] for v in w8.votes(voted["BILL_ID"])} == {voted["BILL_NAME"].rsplit(" ", 1)[0]}


def test_edition_8_byelections_fill_a_few_seats() -> None:
    """A 재·보궐선거 holds the real contests where the world knows them (2021's 서울·부산 시장,
    2024-10-16's four 기초단체장 …) and one to three elsewhere, one seat each, and its turnout
    counts only the places that voted; edition 7 held one in every 선거구."""
    w7, w8 = World(0, edition=7), World(0, edition=INVENTED_PARTIES_EDITION)
    assert len(w7.constituencies("20230405", "2")) > 200
    assert [(r["sdName"], r["sggName"]) for r in w8.constituencies("20230405", "2")] == [("전라북도", "전주시을")]
    assert {r["sggName"] for r in w8.constituencies("20210407", "3")} == {"서울특별시", "부산광역시"}
    assert {r["sggName"] for r in w8.constituencies("20241016", "4")} == {"금정구", "강화군", "영광군", "곡성군"}
    assert {r["sggName"] for r in w8.constituencies("20250402", "4")} == {"구로구", "아산시", "김천시", "담양군", "거제시"}
    for e in w8.elections():
        if e["sgTypecode"] == "0" or not e["sgName"].endswith("선거") or e["sgId"] not in (
                "20210407", "20230405", "20241016", "20250402"):
            continue
        rows = w8.constituencies(e["sgId"], e["sgTypecode"])
        assert 1 <= len(rows) <= 5 and {r["sggJungsu"] for r in rows} == {"1"}, e
        assert len(w8.winners(e["sgId"], e["sgTypecode"])) == len(rows), e
        places = {r["wiwName"] for r in w8.turnout(e["sgId"], e["sgTypecode"])} - {""}
        assert places and len(places) <= 41, e  # 서울 and 부산's 구·군 at most
    assert len(w8.constituencies("20220601", "4")) == 225  # a 전국동시지방선거 holds every one
