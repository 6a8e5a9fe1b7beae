"""The synthetic-world label on questions that name real companies, statutes, elections or people.

The shipped cassettes are a synthetic world (manifest ``source: sandbox``): its code tables
and names are real (listed companies' corp codes, statute titles, the 22nd Assembly's
committees, the parties), its values are invented. A question such as "삼성바이오로직스의
PBR 근사" or "2025년 대통령선거 당선인의 1번 공약" has a gold answer computed from invented
values, which would read as a false fact about that company, election or person. Such a
question therefore opens with :data:`SYNTHETIC_MARK`, so the question itself says whose facts
it asks for (the task author adds it: ``author.task``; ``tests/bench/test_synthetic_labels.py``
checks every shipped task against the real names of the sandbox's code tables).

>>> label("삼성전자의 2024년 공시 건수는?", ["삼성전자"])
'[합성 세계] 삼성전자의 2024년 공시 건수는?'
>>> label("대전 '가수원삼거리' 정류소에 지금 가장 먼저 도착하는 버스의 노선번호는?", ["삼성전자"])
"대전 '가수원삼거리' 정류소에 지금 가장 먼저 도착하는 버스의 노선번호는?"
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ELECTION_WORDS", "SYNTHETIC_MARK", "label", "real_entity_in"]

#: The opening of a question about a real entity's invented values on the synthetic world.
SYNTHETIC_MARK = "[합성 세계] "

#: Words that name a real election or the real Assembly (its winners, candidates, members and
#: pledges are invented people and facts on the synthetic world); a statute or ordinance is
#: named in 「…」, as Korean writes a law's title.
ELECTION_WORDS = ("선거", "총선", "국회", "예비후보", "「")


def real_entity_in(question: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` (real companies, parties, committees …) or of
    :data:`ELECTION_WORDS` that ``question`` holds, else ``None``."""
    for name in (*names, *ELECTION_WORDS):
        if name and name in question:
            return name
    return None


def label(question: str, names: Iterable[str]) -> str:
    """``question`` opened with :data:`SYNTHETIC_MARK` when it names a real entity (once)."""
    if question.startswith(SYNTHETIC_MARK) or real_entity_in(question, names) is None:
        return question
    return SYNTHETIC_MARK + question
