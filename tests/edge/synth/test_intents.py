"""Questions written per platform (edge.synth.intents): each newly covered platform gets a valid,
natural, name-first example on the shipped world, and the default run may take bench edges
only because bench gold calls and records are held out."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from edge import Observations
from edge.synth.checks import check_example
from edge.synth.contamination import Footprints, GoldHoldout, gold_holdout
from edge.synth.execute import ProgramRunner
from edge.synth.intents import INTENTS, TARGET_SHARE, build_intent, wanted
from edge.synth.questions import write_question_t
from edge.synth.sample import Sampler
from edge.synth.shards import _example
from edge.synth.splits import bench_entities
from edge.synth.writers import conversation, fitting_page_size
from simulator import Resolver, Store, load_catalog
from simulator.tools import program_edges


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ...]]:
    version = Store(cache_dir=tmp_path_factory.mktemp("intent-cache")).open("kopa", "v0005")
    catalog = load_catalog(tier="curated")
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
    obs = Observations.from_version(version, catalog)
    sampler = Sampler(catalog, [], obs, ex, random.Random(0))  # intents need no graph edge
    gold: GoldHoldout = gold_holdout(version, catalog)
    yield version, catalog, ex, sampler, gold, frozenset(bench_entities())


#: The chain each platform's questions must make, name first: (source tool, target tool).
CHAINS = {
    "lawgokr": {("lawgokr_law_search", "lawgokr_law_detail"), ("lawgokr_ordin_search", "lawgokr_ordin_detail")},
    "tago": {("tago_city_codes", "tago_stations_by_name")},
    "seoul": {("seoul_card_subway_stats", "seoul_subway_station_by_name"),
              ("seoul_card_subway_stats", "seoul_subway_arrivals")},
    "fsc": {("fsc_stock_prices", "fsc_listed_items")},
    "assembly": {("assembly_member_bills", "assembly_members")},
    "nec": {("nec_election_codes", "nec_winners"), ("nec_election_codes", "nec_candidates")},
}


@pytest.mark.parametrize("platform", sorted(INTENTS))
def test_every_intent_gives_a_valid_example(world: tuple[Any, ...], platform: str) -> None:
    """Every intent of the platform builds, on v0005, an example that keeps every rule
    (check_example: no hidden argument, no raw code, no answer in the question …), makes no
    bench gold call and shows no gold record, uses no bench entity, and chains name → code →
    data along the platform's lookup edge."""
    version, catalog, ex, sampler, gold, held = world
    prints = Footprints(catalog)
    rng = random.Random(1)
    for intent in INTENTS[platform]:
        made = 0
        for _ in range(6):
            d = build_intent(sampler, intent, rng, held)
            if d is None:
                continue
            run = ex.run(d.program())
            question, template = write_question_t(catalog, rng, d.parts, "x")
            e = _example(d, question, run.answer, catalog, version, 0)
            assert template.startswith(f"INT:{intent.name}")
            assert platform in e["platforms"] and e["length"] >= 2
            assert program_edges(d.program()) & CHAINS[platform], e["edges"]
            assert not set(e["bound_values"]) & held
            # a draft that breaks a rule or meets the bench's gold is refused in its shard
            # (another drawn): enough of them must pass
            if check_example(e, conversation(e, ex, catalog), run.values, catalog) == [] \
                    and prints.hits(run, d.program(), gold) == []:
                made += 1
        assert made >= 2, f"{intent.name}: {made} of 6 valid"


def test_statute_questions_chain_search_then_detail(world: tuple[Any, ...]) -> None:
    """A statute is asked by its title (「…」 or bare), never by its serial number: the program
    searches by the title, picks the exact title's 법령일련번호 and reads the text by it; the
    article count is what the text holds (articles only, not 장·절 headings)."""
    version, catalog, ex, sampler, _gold, held = world
    intent = next(i for i in INTENTS["lawgokr"] if i.name == "law_articles")
    d = build_intent(sampler, intent, random.Random(3), held)
    assert d is not None
    prog = d.program()
    calls = prog.calls()
    assert [c.call for c in calls] == ["lawgokr_law_search", "lawgokr_law_detail"]
    name = d.parts[-1]["slots"]["name"]
    assert calls[0].args == {"query": name} and isinstance(calls[1].args["MST"], dict)
    run = ex.run(prog)
    text = run.values[calls[1].id][0]
    units = text["조문"]["조문단위"]
    assert run.answer == sum(1 for u in units if u["조문여부"] == "조문") >= 3
    question, _t = write_question_t(catalog, random.Random(0), d.parts, "law")
    assert name in question and d.bound[0] not in question


def test_intents_never_name_a_bench_entity(world: tuple[Any, ...]) -> None:
    """Entities the bench uses (its statutes, stops, bills) are never drawn: with every
    candidate statute held, the statute intent has nothing to ask."""
    _v, _c, _ex, sampler, _gold, held = world
    intent = next(i for i in INTENTS["lawgokr"] if i.name == "law_articles")
    from edge.synth.intents import _table

    every = frozenset(str(r["법령명한글"]) for r in _table(sampler, "lawgokr_law_search", {}))
    assert build_intent(sampler, intent, random.Random(0), every) is None
    d = build_intent(sampler, intent, random.Random(0), held)
    assert d is not None and d.parts[-1]["slots"]["name"] not in held


def test_wanted_gives_the_platform_furthest_under_its_share() -> None:
    made = Counter({"lawgokr": 50, "tago": 3, "seoul": 40, "fsc": 40, "assembly": 40, "nec": 40})
    assert wanted(made, 1000, Counter(), random.Random(0), Counter({"lawgokr": 41})) == "tago"
    # law.go.kr counts the examples its intents made: the sampler's precedents do not count
    assert wanted(made | Counter({"tago": 41}), 1000, Counter(), random.Random(0), Counter({"lawgokr": 30})) == "lawgokr"
    full = Counter({p: int(TARGET_SHARE * 1000) + 1 for p in INTENTS})
    assert wanted(full, 1000, Counter(), random.Random(0), full) is None
    # a platform whose intents keep failing is given up, and the next one is asked for
    assert wanted(made, 1000, Counter({"tago": 10_000}), random.Random(0), Counter({"lawgokr": 41})) in {
        "seoul", "fsc", "assembly", "nec"}


def test_edge_hold_out_flags_contradict_in_one_line(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from simulator.cli import app

    res = CliRunner().invoke(app, ["edge", "synthesize", "--n", "1", "--out", str(tmp_path / "o"),
                                   "--allow-bench-edges", "--hold-out-bench-edges"])
    assert res.exit_code == 1
    assert "contradict" in res.output and "Traceback" not in res.output
