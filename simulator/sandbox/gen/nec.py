"""NEC elections (data.go.kr 9760000): codes → districts → candidates/winners → pledges."""

from __future__ import annotations

from typing import Any

from ..world import World
from ..world._politics import INVENTED_PARTIES_EDITION, invented_parties
from ._common import shape

__all__ = ["GENERATORS"]


def _renum(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "num": str(i)} for i, r in enumerate(rows, start=1)]


def election_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("nec_election_codes", world.elections())


def district_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("nec_district_codes", world.constituencies(f.get("sgId", ""), f.get("sgTypecode", "")))


def gusigun_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    sg = f.get("sgId", "")
    if not any(e["sgId"] == sg for e in world.elections()):
        return []
    rows = []
    for d in world.election_places(sg):  # edition 8: the places as of the election's date
        rows.append({"sgId": sg, "sdName": d.sd_name, "wiwName": d.name.replace(" ", "")})
    rows = _renum(rows)
    for r in rows:
        r["wOrder"] = r["num"]
    return shape("nec_gusigun_codes", rows)


def party_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """The parties whose candidates run in an election (edition 8: the world's invented ones)."""
    sg = f.get("sgId", "")
    parties = sorted({c["jdName"] for e in world.elections() if e["sgId"] == sg and e["sgTypecode"] != "0"
                      for c in world.candidates(sg, e["sgTypecode"])} - {"무소속", ""})  # "": 교육감 (edition 8)
    if world.edition >= INVENTED_PARTIES_EDITION:  # invented parties, in their ballot order (pOrder)
        parties = [p for p in invented_parties(sg) if p in parties]
    rows = _renum([{"sgId": sg, "jdName": p} for p in parties])
    return shape("nec_party_codes", [{**r, "pOrder": r["num"]} for r in rows])


def candidates(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("nec_candidates", world.candidates(f.get("sgId", ""), f.get("sgTypecode", "")))


def preliminary(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """예비후보자: the upcoming election's (world edition 3); a past election has none (INFO-03)."""
    return shape("nec_preliminary_candidates", world.preliminary_candidates(f.get("sgId", ""), f.get("sgTypecode", "")))


def winners(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("nec_winners", _renum(world.winners(f.get("sgId", ""), f.get("sgTypecode", ""))))


def turnout(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("nec_turnout", world.turnout(f.get("sgId", ""), f.get("sgTypecode", "")))


_REALMS = ["일자리", "교통", "주거", "복지", "교육", "환경", "안전", "문화", "경제", "행정"]


def pledges(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """공약 of one candidate (cnddtId = huboid); only for sgTypecode 1, 3, 4 and 11."""
    sg, tc, cid = f.get("sgId", ""), f.get("sgTypecode", ""), f.get("cnddtId", "")
    if tc not in ("1", "3", "4", "11"):
        return []
    cand = next((c for c in world.candidates(sg, tc) if c["huboid"] == cid), None)
    if cand is None:
        return []
    rng = world.rng("pledges", cid)
    n = rng.randint(3, 10)
    row: dict[str, Any] = {"num": "1", "sgId": sg, "sgTypecode": tc, "cnddtId": cid, "sggName": cand["sggName"],
                           "sidoName": cand["sdName"], "wiwName": cand["wiwName"], "partyName": cand["jdName"],
                           "krName": cand["name"], "cnName": cand["hanjaName"], "prmsCnt": str(n)}
    where = cand["wiwName"] or cand["sdName"]
    for i in range(1, n + 1):
        realm = rng.choice(_REALMS)
        row[f"prmsOrd{i}"] = str(i)
        row[f"prmsRealmName{i}"] = realm
        row[f"prmsTitle{i}"] = f"{where} {realm} 혁신 {i}"
        row[f"prmmCont{i}"] = f"○ 목표\n - {where} {realm} 여건 개선\n○ 이행방법\n - 예산 확보 및 관련 조례 정비"
    return shape("nec_pledges", [row])


GENERATORS = {
    "nec_election_codes": election_codes,
    "nec_district_codes": district_codes,
    "nec_gusigun_codes": gusigun_codes,
    "nec_party_codes": party_codes,
    "nec_candidates": candidates,
    "nec_preliminary_candidates": preliminary,
    "nec_winners": winners,
    "nec_turnout": turnout,
    "nec_pledges": pledges,
}
