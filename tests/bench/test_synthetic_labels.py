"""No shipped task lets an invented value pose as a fact about a real company, statute, election
or person (issue 27, item 6): a task whose question or gold program names one opens its question
with the synthetic-world mark, and the bench's outputs say the world is synthetic.

The real names come from the sandbox's code tables (``simulator/sandbox/data/pools.yaml``: the
listed companies with their real corp and stock codes, the parties, the Assembly's committees,
statute titles), read here apart from the author's own lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from bench.kopa.cli import bench_app
from bench.kopa.labels import SYNTHETIC_MARK, label
from bench.kopa.tasks import Task, load_tasks

ROOT = Path(__file__).resolve().parents[2]


def _real_names() -> set[str]:
    pools = yaml.safe_load((ROOT / "simulator" / "sandbox" / "data" / "pools.yaml").read_text(encoding="utf-8"))
    names = {str(x) for row in pools["companies"] for x in row[:3]}  # corp_code, stock_code, name
    names |= {str(p) for p in pools["parties_22"] if p != "무소속"}
    names |= {str(name) for _code, name in pools["committees"]}
    names |= {str(s) for s in pools["bill_topics"]}  # real statute titles
    return names


REAL = _real_names()
#: A statute or ordinance title, a real election, the real Assembly.
REAL_WORDS = ("「", "선거", "총선", "국회")


def _literals(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [s for v in node.values() for s in _literals(v)]
    if isinstance(node, list):
        return [s for v in node for s in _literals(v)]
    return [str(node)] if isinstance(node, (str, int)) else []


def _names_real(task: Task) -> str | None:
    """A real name the question or the gold program's literal arguments hold."""
    texts = [task.question, *_literals(task.program.model_dump(mode="json", by_alias=True))]
    for text in texts:
        for name in sorted(REAL, key=len, reverse=True):
            if name in text:
                return name
    return next((w for w in REAL_WORDS if w in task.question), None)


def unlabelled(tasks: list[Task]) -> dict[str, str]:
    """Tasks naming a real entity whose question lacks the synthetic mark → the name."""
    out = {}
    for t in tasks:
        name = _names_real(t)
        if name is not None and not t.question.startswith(SYNTHETIC_MARK):
            out[t.id] = name
    return out


def test_the_real_name_lists_are_the_real_ones() -> None:
    assert {"삼성바이오로직스", "00877059", "207940", "삼성전자", "00126380"} <= REAL
    assert {"더불어민주당", "국민의힘", "국방위원회", "감염병의 예방 및 관리에 관한 법률"} <= REAL


def test_every_task_naming_a_real_entity_is_labelled_synthetic() -> None:
    tasks = load_tasks()
    assert not unlabelled(tasks), unlabelled(tasks)
    labelled = {t.id for t in tasks if t.question.startswith(SYNTHETIC_MARK)}
    # the cases the issue names: a statute that is no law, 2025's candidates (a real company's PBR
    # was one until kopa@v0008: the finance tasks name invented companies, below)
    assert {"law-ministry-3", "law-fan-articles-1", "nec-pledges-winner-0",
            "nec-pledges-sum-0", "nec-turnout-0"} <= labelled
    # every law and politics task names one; the others (companies, districts, stops, schools) do not
    assert labelled == {t.id for t in tasks if t.domain in {"law", "politics"}}
    # 58 from kopa@v0009 (60 before): asm-month-cmt keeps two months there (docs/bench.md, Version)
    assert len(labelled) == 58


def test_no_finance_task_names_a_real_company() -> None:
    """From kopa@v0008 a real listed company holds no value, so the finance tasks name invented
    ones: no question or gold literal holds a real company's name or code, and no label."""
    finance = [t for t in load_tasks() if t.domain == "finance"]
    assert len(finance) == 21
    assert not unlabelled(finance) and not any(t.question.startswith(SYNTHETIC_MARK) for t in finance)


def test_a_label_removed_is_reported() -> None:
    task = next(t for t in load_tasks() if t.id == "nec-pledges-winner-0")
    bare = task.model_copy(update={"question": task.question.removeprefix(SYNTHETIC_MARK)})
    assert unlabelled([bare]) == {"nec-pledges-winner-0": "선거"}
    # a real company's name in a question is enough
    fin = next(t for t in load_tasks() if t.id == "fsc-dart-mcap-3")
    named = fin.model_copy(update={"question": fin.question.replace(fin.question.split("의 ")[0], "삼성바이오로직스")})
    assert unlabelled([named]) == {"fsc-dart-mcap-3": "삼성바이오로직스"}
    # a real corp code in the gold program alone is enough
    other = next(t for t in load_tasks() if t.id == "tago-arr-soon-0")
    steps = other.program.model_dump(mode="json", by_alias=True)
    steps["steps"][0]["args"]["note"] = "00877059"
    coded = other.model_copy(update={"program": type(other.program).model_validate(steps)})
    assert unlabelled([coded]) == {"tago-arr-soon-0": "00877059"}


@pytest.mark.parametrize(("question", "expect"), [
    ("삼성바이오로직스의 PBR 근사는?", True),
    ("「가족관계의 등록 등법」의 소관부처는 어디인가요?", True),
    ("2025년 대통령선거 당선인의 1번 공약 제목은 무엇인가요?", True),
    ("대전 895번 버스는 정류소를 모두 몇 곳 경유하나요?", False),
])
def test_label_opens_the_question_once(question: str, expect: bool) -> None:
    once = label(question, ["삼성바이오로직스"])
    assert once.startswith(SYNTHETIC_MARK) is expect
    assert label(once, ["삼성바이오로직스"]) == once


def test_stats_and_tasks_say_the_world_is_synthetic() -> None:
    runner = CliRunner()
    res = runner.invoke(bench_app, ["stats", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["world"].startswith("synthetic")
    assert "synthetic" in runner.invoke(bench_app, ["stats", "--markdown"]).stdout
    plain = runner.invoke(bench_app, ["stats"], env={"COLUMNS": "80"}).output
    assert "synthetic" in plain
    out = runner.invoke(bench_app, ["tasks", "--json"])
    assert json.loads(out.stdout)["world"].startswith("synthetic")


def test_the_task_files_and_docs_say_the_world_is_synthetic() -> None:
    for f in sorted((ROOT / "bench" / "kopa" / "tasks").glob("*.yaml")):
        assert "synthetic world" in f.read_text(encoding="utf-8").split("\n- id:")[0], f
    doc = (ROOT / "docs" / "bench.md").read_text(encoding="utf-8")
    assert "Synthetic world" in doc[:3000] and SYNTHETIC_MARK.strip() in doc
