"""``simulator bench stats``: the difficulty measures agree with the gold runs, and the CLI
prints them with the paper's figures."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bench.kopa import BENCH_VERSION
from bench.kopa.cli import bench_app
from bench.kopa.env import World
from bench.kopa.stats import PAPER, bench_stats, needs_chain, needs_more_than_first_page, paper_rows, passed_on
from bench.kopa.tasks import gold_run, load_tasks
from simulator import Store


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", BENCH_VERSION))


def test_measures_agree_with_the_gold_runs(world: World) -> None:
    tasks = load_tasks()
    st = bench_stats(tasks, world)
    ov = st["overall"]
    golds = {t.id: gold_run(t, world) for t in tasks}
    assert ov["tasks"] == len(tasks)
    assert ov["calls_mean"] == round(statistics.mean(g.length for g in golds.values()), 2)
    assert ov["calls_max"] == max(g.length for g in golds.values())
    sizes = [s for t in tasks if needs_chain(t, golds[t.id]) for s in passed_on(t, golds[t.id])]
    assert ov["junction_median"] == statistics.median(sizes) and ov["junction_max"] == max(sizes)
    assert 0 < ov["genuine_all_pages"] <= ov["needs_all_pages"]
    assert ov["needs_all_pages"] == sum(needs_more_than_first_page(t, golds[t.id], world) for t in tasks)
    # per-platform counts add up to platform memberships, per-domain to the tasks
    assert sum(m["tasks"] for m in st["by_domain"].values()) == len(tasks)
    assert sum(m["tasks"] for m in st["by_platform"].values()) == sum(len(t.platforms) for t in tasks)
    rows = paper_rows(ov)
    assert [r["measure"] for r in rows] == [m for m, _f, _t in PAPER]
    assert all(r["meets"] == (r["ours"] >= r["target"]) for r in rows)


def test_cli_stats_json_and_markdown() -> None:
    runner = CliRunner()
    res = runner.invoke(bench_app, ["stats", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)  # stderr says which version it used ("using kopa@…")
    assert data["overall"]["tasks"] >= 145 and {r["measure"] for r in data["paper"]} >= {"calls_mean", "parallel_pct"}
    md = runner.invoke(bench_app, ["stats", "--markdown"]).stdout
    assert md.startswith("| group | tasks | calls_mean") and "| measure | paper | ours | target met |" in md
    # the console tables read at 80 columns: no line wider, no measure cut to "…"
    plain = runner.invoke(bench_app, ["stats"], env={"COLUMNS": "80"}).output
    lines = plain.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in plain
    assert any(line.split()[:2] == ["all", str(len(load_tasks()))] for line in lines if line.strip())


def test_honest_difficulty_uses_documented_filters_single_calls_and_values_passed_on(world: World) -> None:
    """Issue 29 item 3: ``tago-cmp-routes-0`` pages through 대전's 3,120 stops for two stop
    names, but TAGO documents ``nodeNm``, and with it one page holds them; a task one documented call
    answers (the committee list) does not need its chain; a junction counts the values a call
    receives, not the lookup table they were picked from."""
    tasks = {t.id: t for t in load_tasks()}
    kw, busy = tasks["tago-cmp-routes-0"], tasks["tago-stop-far-0"]
    assert gold_run(kw, world).needs_all_pages and not needs_more_than_first_page(kw, gold_run(kw, world), world)
    assert needs_more_than_first_page(busy, gold_run(busy, world), world)
    one_call = tasks["nec-asm-cmt-winners-0"]
    assert not needs_chain(one_call, gold_run(one_call, world))
    assert needs_chain(tasks["dart-fan-revenue-0"], gold_run(tasks["dart-fan-revenue-0"], world))
    fan = tasks["dart-fan-revenue-0"]  # 3 companies picked from the ~6,000-row corp-code table
    assert passed_on(fan, gold_run(fan, world)) == [3]
    assert max(gold_run(fan, world).junction_sizes) > 1000  # what the old measure counted


#: The difficulty targets for the shipped set (measure → least value): issue 29 item 3.
TARGETS = {
    "calls_mean": 4.9, "calls_max": 14, "parallel_pct": 55, "genuine_all_pages": 50,
    "needs_chain_pct": 95, "cross_platform_pct": 30, "chained_multi_pct": 80, "junction_median": 27,
}
#: Measures below their target, honestly counted (docs/bench.md, "Difficulty"), pinned so any
#: change shows: chained calls receiving more than one value, and the median values passed on
#: (the paper's figures count something larger than the values passed on).
SHORT = {"chained_multi_pct": 23.3, "junction_median": 1}


def test_the_shipped_set_meets_the_difficulty_targets_and_the_docs_print_its_tables(world: World) -> None:
    """A regression below a target fails here, and docs/bench.md shows what the command prints."""
    st = bench_stats(load_tasks(), world)
    ov = st["overall"]
    short = {m: ov[m] for m, least in TARGETS.items() if ov[m] < least}
    assert short == SHORT, f"below the targets: {short} (known: {SHORT})"
    domains = {"traffic", "finance", "education", "law", "politics", "district"}
    assert domains <= set(st["by_domain"])
    md = CliRunner().invoke(bench_app, ["stats", "--markdown"]).stdout
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bench.md").read_text(encoding="utf-8")
    stale = [line for line in md.splitlines() if line.startswith("|") and line not in doc]
    assert not stale, f"docs/bench.md lacks these rows of `simulator bench stats --markdown`: {stale[:3]}"
    # and says which version they were measured on (the bench's own: bench.kopa.BENCH_VERSION)
    measured = next(line for line in md.splitlines() if line.startswith("Measured on"))
    assert f"`kopa@{BENCH_VERSION}`" in measured and measured in doc, measured
