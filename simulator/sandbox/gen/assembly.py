"""National Assembly (열린국회정보): members, their bills, per-member votes, committees.

The members are the NEC winners of 20240410 (same person, same district: ``ORIG_NM``
"서울 강남구갑" ↔ NEC sdName 서울특별시 / sggName 강남구갑). Bills exist for AGE 22 only.
"""

from __future__ import annotations

from typing import Any

from ..world import World
from ._common import shape

__all__ = ["GENERATORS"]


def members(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("assembly_members", world.members(), blank=None)


def member_bills(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    if f.get("AGE") != "22":
        return []
    return shape("assembly_member_bills", world.bills(), blank=None)


def member_votes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    if f.get("AGE") != "22":
        return []
    return shape("assembly_member_votes", world.votes(f.get("BILL_ID", "")), blank=None)


def committee_members(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = [{**m, "ASSEM_TEL": m["TEL_NO"], "ASSEM_EMAIL": m["E_MAIL"], "ROOM_NO": m["ASSEM_ADDR"].replace("의원회관 ", "")}
            for m in world.committee_members(f.get("DEPT_CD") or None)]
    return shape("assembly_committee_members", rows, blank=None)


def bill_votes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Vote tallies of the bills put to a plenary vote."""
    if f.get("AGE") != "22":
        return []
    rows = []
    for b in world.bills():
        if not b["voted"]:
            continue
        votes = world.vote_choices(b["BILL_ID"])
        yes = sum(v == "찬성" for _, v in votes)
        no = sum(v == "반대" for _, v in votes)
        rows.append({"BILL_ID": b["BILL_ID"], "PROC_DT": b["PROC_DT"], "BILL_NO": b["BILL_NO"], "BILL_NAME": b["BILL_NAME"],
                     "CURR_COMMITTEE": b["COMMITTEE"], "CURR_COMMITTEE_ID": b["COMMITTEE_ID"], "PROC_RESULT_CD": b["PROC_RESULT"],
                     "BILL_KIND_CD": "법률안", "AGE": "22", "MEMBER_TCNT": len(world.members()), "VOTE_TCNT": len(votes),
                     "YES_TCNT": yes, "NO_TCNT": no, "BLANK_TCNT": len(votes) - yes - no, "LINK_URL": b["DETAIL_LINK"]})
    rows.reverse()  # newest first
    return shape("assembly_bill_votes", rows, blank=None)


GENERATORS = {
    "assembly_members": members,
    "assembly_member_bills": member_bills,
    "assembly_member_votes": member_votes,
    "assembly_committee_members": committee_members,
    "assembly_bill_votes": bill_votes,
}
