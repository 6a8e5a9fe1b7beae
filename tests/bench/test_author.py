"""``bench.kopa.author``: importing it does no work, and ``select`` does what its docstring
and ``TARGET`` say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.kopa import author

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_author_reads_no_catalog_and_builds_no_task() -> None:
    code = ("import bench.kopa.author as a, simulator.catalog.loader as l; "
            "print(l._default_catalog.cache_info().currsize, a._catalog.cache_info().currsize, len(a._TASKS))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True)
    assert out.stdout.split() == ["0", "0", "0"], out.stdout + out.stderr


def _tasks(per_template: dict[str, tuple[int, list[str]]]) -> list[dict[str, Any]]:
    return [{"id": f"{tpl}-{i}", "template": tpl, "platforms": plats}
            for tpl, (n, plats) in per_template.items() for i in range(n)]


def test_select_keeps_four_per_template_and_treats_target_as_a_floor() -> None:
    tasks = _tasks({"a": (6, ["opendart"]), "b": (3, ["neis"]), "c": (6, ["tago"])})
    kept = author.select(tasks, target=5)
    assert [t["id"] for t in kept] == ["a-0", "a-1", "a-2", "a-3", "b-0", "b-1", "b-2",
                                       "c-0", "c-1", "c-2", "c-3"]  # 11 > 5: a floor, not a cap
    more = author.select(tasks, target=13)
    ids = [t["id"] for t in more]
    assert len(ids) == 13 == len(set(ids)) and {"a-4", "c-4"} <= set(ids)
    assert len(author.select(tasks, target=100)) == len(tasks)  # never more than there is


def test_select_leaves_out_dropped_and_retired_templates() -> None:
    dropped = next(iter(author.DROPPED))
    retired = next(t for t in author.RETIRED if t not in author.ONE_INSTANCE)
    tasks = _tasks({dropped: (2, ["law"]), retired: (2, ["molit"]), "kept": (2, ["seoul"])})
    assert [t["id"] for t in author.select(tasks, target=1)] == ["kept-0", "kept-1"]


def test_the_shipped_selection_is_the_authored_one() -> None:
    chosen = author.select(author.authored_tasks())
    assert len(chosen) >= author.TARGET and author.TASKS is author.authored_tasks()
    shipped = sum(1 for f in (ROOT / "bench" / "kopa" / "tasks").glob("*.yaml")
                  for line in f.read_text(encoding="utf-8").splitlines() if line.startswith("- id: "))
    assert shipped == len(chosen)


def test_finance_tasks_name_invented_companies_the_cassettes_record() -> None:
    """The author picks the finance tasks' companies from the invented ones on the version it
    authors on (``BENCH_VERSION``): recorded with every value field and a 09xxxxxx corp code.
    kopa@v0007 records none (its companies with values are edition 6's, codes 001xxxxx–01xxxxxx)."""
    from bench.kopa import BENCH_VERSION
    from bench.kopa.tasks import load_tasks

    companies = author.invented_companies(BENCH_VERSION)
    assert len(companies) == 40 and all(c.corp_code.startswith("09") for c in companies)
    assert not set(author.REAL_CORPS) & {c.name for c in companies}
    assert author.invented_companies("v0007") == ()
    names = {c.name for c in companies}
    finance = [t for t in load_tasks() if t.domain == "finance"]
    named = {t.id: [n for n in names if n in t.question] for t in finance}
    assert all(named.values()), [tid for tid, ns in named.items() if not ns]
    # every other one (by corp_code): the other half is left to EDGE, which holds out what the bench names
    assert {n for ns in named.values() for n in ns} == {c.name for c in companies[::2]}


def test_a_newer_shipped_version_leaves_the_bench_on_its_own(monkeypatch: Any) -> None:
    """Without --version the bench takes BENCH_VERSION while a newer version is shipped (a later
    world edition may rename the invented companies its finance tasks name, as edition 8 did), the
    newest when that is the bench's, and a version asked for as asked."""
    from types import SimpleNamespace

    import simulator
    from bench.kopa import BENCH_VERSION, bench_version

    monkeypatch.setattr(simulator.Store, "newest_shipped", lambda self, s: SimpleNamespace(version="v0010"))
    assert bench_version(None) == BENCH_VERSION == "v0009"
    assert bench_version("v0010") == "v0010" and bench_version(None, "other") is None
    monkeypatch.setattr(simulator.Store, "newest_shipped", lambda self, s: SimpleNamespace(version=BENCH_VERSION))
    assert bench_version(None) is None  # the newest shipped one, which is the bench's


def test_the_stock_to_issuer_hop_cannot_be_skipped_by_name() -> None:
    """An invented company's stock has the company's name, so finding it in OpenDART's code table
    by name reaches the issuer without FSC. fsc-dart-addr-* and fsc-dart-ceo-* also ask what only
    FSC's records of the stock hold (its ISIN, its closing price that day): the answer of that
    shortcut run on the bench's version (what OpenDART gives) is rejected, the gold accepted, in
    prose too."""
    from bench.kopa import BENCH_VERSION
    from bench.kopa.checkers import check_answer
    from bench.kopa.env import World
    from bench.kopa.tasks import gold_run, load_tasks
    from simulator import Store
    from simulator.tools import Program

    world = World(Store().open("kopa", BENCH_VERSION))
    tasks = {t.id: t for t in load_tasks()}
    for tid, field in (("fsc-dart-addr-0", "adres"), ("fsc-dart-ceo-0", "ceo_nm")):
        t = tasks[tid]
        name = next(c.name for c in author.invented_companies(BENCH_VERSION) if c.name in t.question)
        skip = Program.model_validate({"steps": [
            {"id": "s1", "call": "opendart_corp_codes"},
            {"id": "s2", "op": "filter", "from": "s1", "where": [{"field": "corp_name", "op": "eq", "value": name}]},
            {"id": "s3", "call": "opendart_company", "args": {"corp_code": {"$ref": "s2", "field": "corp_code",
                                                                            "pick": "first"}}}],
            "answer": {"$ref": "s3", "field": field, "pick": "first"}})
        shortcut = gold_run(t.model_copy(update={"id": f"{tid}~byname", "program": skip}), world).answer
        gold = gold_run(t, world).answer
        assert gold.startswith(shortcut) or gold.endswith(shortcut)  # the OpenDART part is the same
        for said in (shortcut, f"{shortcut}입니다.", f"발행 회사는 {name}이고, {shortcut}입니다."):
            assert not check_answer(said, gold, t.check, t.question), said
        assert check_answer(gold, gold, t.check, t.question)
    ceo = tasks["fsc-dart-ceo-0"]
    who, price = gold_run(ceo, world).answer.split(", ")
    assert check_answer(f"대표자는 {who}이고, 그날 종가는 {int(price):,}원입니다.", f"{who}, {price}", ceo.check, ceo.question)
    assert not check_answer(f"대표자는 {who}이고, 그날 종가는 {int(price) + 5:,}원입니다.", f"{who}, {price}",
                            ceo.check, ceo.question)
    addr = tasks["fsc-dart-addr-0"]
    isin, where = gold_run(addr, world).answer.split(", ", 1)
    assert check_answer(f"표준코드는 {isin}이고, 본사 주소는 {where}입니다.", f"{isin}, {where}", addr.check, addr.question)
    assert not check_answer(f"표준코드는 {isin[:-1]}9이고, 본사 주소는 {where}입니다.", f"{isin}, {where}",
                            addr.check, addr.question)
