"""EDGE synthesis on the shipped cassettes: executed programs, junction types, filters, writers."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from edge.synth import (
    JUNCTIONS,
    MAIN_PLATFORMS,
    ProgramError,
    ProgramRunner,
    audit,
    canonical,
    edge_jaccard,
    recompute,
    split_by_platform,
    synthesize,
    write_all,
)
from simulator import Resolver, Store, load_catalog
from simulator.store import VersionBuilder
from tests.support.synth_runs import SYNTH_1000, SmallRun, ThousandRun

#: Main platforms a small run (150 examples) reaches; seoul's recorded chains are few (its
#: stations are named in the question itself), so only the full run below must reach it.
ACHIEVABLE = set(MAIN_PLATFORMS) - {"seoul"}


@pytest.fixture(scope="module")
def env(v0001_small: SmallRun) -> tuple:  # type: ignore[type-arg]
    # kopa@v0001's curated graph (seed 7, the small budget) and 150 draws (seed 3) with the
    # bench's edges let in (as by default): 150 draws then reach every junction type (held out,
    # COND has no chain left at this size; test_bench_edges_are_held_out_when_asked). Shared
    # with test_rules.py and bench's test_audit.py (tests/support/synth_runs.py).
    s = v0001_small
    return s.version, s.catalog, s.obs, s.graph, s.res


def test_examples_cover_junction_types_platforms_domains(env) -> None:  # type: ignore[no-untyped-def]
    _v, _c, _o, _g, res = env
    ex = res.examples
    assert len(ex) >= 50 and len({e["id"] for e in ex}) == len(ex)
    s = res.report["summary"]
    print(json.dumps(res.report, ensure_ascii=False))
    # Five of the six junction types at this size: since starts must be stated the way a person
    # states them (no raw stop/route ids, coordinates or LAWD_CD codes, issue 28), v0001's 150
    # draws reach no SEM (its SEM chains started at such codes; neis SEM drafts are built but
    # rarely, 5 in 200 tries). The full run on v0005 reaches all six (the slow test below). Four
    # since stop 39's round 2: the SEM this size reached was a school's lunch days *and* its
    # calendar events of a month (``school_month_pair``), no longer asked (three outside reads
    # marked it); SEM stays in every default run (16 of 1,000 on v0009: home_pair, school_year_pair).
    assert sum(s["junction"][j] > 0 for j in JUNCTIONS) >= 4, s["junction"]
    # the rules (no hidden arguments, budgets, no bench entities) keep fewer platforms in a small
    # run than before: at least four of the main ones and four domains. (Six until verification
    # at scale verified more curated edges, 190 → 251, and the seeded draws moved: opendart no
    # longer starts a kept example at n=150 or n=300, cause not yet found; issue #20 tracks it.
    # Five until joins had to mean the same thing (semantics.joins): the fifth was reached only
    # through joins such as fsc crno → molit LAWD_CD or a closing price → LAWD_CD.)
    assert len(ACHIEVABLE & set(s["platforms"])) >= 4, s["platforms"]
    assert sum(s["domains"][d] > 0 for d in ("traffic", "finance", "education", "law", "politics", "district")) >= 4, s["domains"]
    assert all(2 <= e["length"] <= 8 for e in ex)
    assert set(res.report["filters"]) == {"malformed", "single_call", "bench_entity", "bench_edge", "duplicate",
                                          "near_duplicate", "reexecution", "bench_gold_call", "bench_gold_records"}
    for e in ex:  # intermediate values are never handed over in the question
        assert not any(len(b) >= 3 and b in e["question"] for b in e["bound_values"]), e["question"]


def test_high_cardinality_inputs_are_read_across_all_pages(env) -> None:  # type: ignore[no-untyped-def]
    version, catalog, *_ = env
    ex = ProgramRunner(Resolver(version, catalog, miss="strict"), page_size=100)
    prog = {"steps": [{"id": "s1", "call": "nec_candidates", "args": {"sgId": "20240410", "sgTypecode": "2"},
                       "pages": "all"},
                      {"id": "v1", "op": "count", "from": "s1"}], "answer": {"$ref": "v1"}}
    run = ex.run(prog)
    assert len(run.pages["s1"]) > 1 and len(run.values["s1"]) == 738
    assert run.answer == 738  # not the first page's 100


def test_gold_programs_reproduce_their_answers(env) -> None:  # type: ignore[no-untyped-def]
    version, catalog, _o, _g, res = env
    ex = ProgramRunner(Resolver(version, catalog, miss="strict"))
    for e in random.Random(0).sample(res.examples, min(40, len(res.examples))):
        assert canonical(ex.run(e["gold_program"]).answer) == e["ground_truth"], e["id"]


def test_bad_programs_fail_with_a_reason(env) -> None:  # type: ignore[no-untyped-def]
    version, catalog, *_ = env
    ex = ProgramRunner(Resolver(version, catalog, miss="strict"))
    with pytest.raises(ProgramError, match="invalid gold program: .*steps"):
        ex.run({"answer": {"$ref": "x"}})
    with pytest.raises(ProgramError, match="nosuch_tool"):
        ex.run({"steps": [{"id": "s1", "call": "nosuch_tool", "pages": "all"}], "answer": {"$ref": "s1"}})


def test_same_seed_same_bytes(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    version, catalog, obs, graph, _ = env
    a = synthesize(version, catalog, graph, n=8, seed=11, obs=obs)
    b = synthesize(version, catalog, graph, n=8, seed=11, obs=obs)
    pa = write_all(a.examples, tmp_path / "a", version, catalog, a.report)
    pb = write_all(b.examples, tmp_path / "b", version, catalog, b.report)
    for k in pa:
        assert pa[k].read_bytes() == pb[k].read_bytes(), k
    other = synthesize(version, catalog, graph, n=8, seed=12, obs=obs)
    assert [e["id"] for e in other.examples] != [e["id"] for e in a.examples]


def test_writers_formats(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    version, catalog, _o, _g, res = env
    some = res.examples[:15]
    paths = write_all(some, tmp_path, version, catalog, res.report)
    conv = [json.loads(x) for x in paths["conversations"].read_text(encoding="utf-8").splitlines()]
    for row in conv:
        msgs = row["messages"]
        assert [m["role"] for m in msgs[:2]] == ["system", "user"] and msgs[-1]["role"] == "assistant"
        calls = [c for m in msgs if m["role"] == "assistant" and m.get("tool_calls") for c in m["tool_calls"]]
        results = [m for m in msgs if m["role"] == "tool"]
        assert calls and len(calls) == len(results)
        assert {c["id"] for c in calls} == {r["tool_call_id"] for r in results}
        assert all(isinstance(c["function"]["arguments"], str) for c in calls)
        names = {t["function"]["name"] for t in row["tools"]}
        assert {c["function"]["name"] for c in calls} <= names
    trl = [json.loads(x) for x in paths["trl"].read_text(encoding="utf-8").splitlines()]
    assert all(r["prompt"][1]["role"] == "user" and r["answer"] and json.loads(r["gold_program"])["steps"] for r in trl)
    if paths["verl"].suffix == ".parquet":
        import pyarrow.parquet as pq

        rows = pq.read_table(paths["verl"]).to_pylist()
    else:
        rows = [json.loads(x) for x in paths["verl"].read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(some)
    assert all(r["reward_model"]["ground_truth"] and r["extra_info"]["tools_kwargs"] and r["prompt"] for r in rows)


def test_bench_edges_are_held_out_when_asked(env) -> None:  # type: ignore[no-untyped-def]
    """With ``allow_bench_edges=False`` (``--hold-out-bench-edges``; the default only when the
    content hold-out is off) no kept example passes a value along a tool-to-tool edge a bench
    gold program uses (issue 20); with ``allow_bench_edges`` such chains come back, so the
    hold-out is what keeps them out.
    The sampler never draws a held-out edge (no attempt is spent on a draft that would be
    dropped), and the filter after it still drops any example that has one."""
    from edge.synth.pipeline import apply_filters
    from edge.synth.splits import bench_edges, example_edges

    version, catalog, obs, graph, allowed = env
    held = bench_edges()
    assert len(held) >= 30  # the 156 tasks' handoffs
    res = synthesize(version, catalog, graph, n=40, seed=3, obs=obs, allow_bench_edges=False)
    assert res.examples and not example_edges(res.examples) & held
    assert res.report["filters"]["bench_edge"] == 0  # never drawn
    on_bench = [e for e in allowed.examples if example_edges([e]) & held]
    assert on_bench and allowed.report["filters"]["bench_edge"] == 0
    kept, report, _dropped = apply_filters(on_bench, version, catalog, held_edges=held)
    assert kept == [] and report["filters"]["bench_edge"] == len(on_bench)


def test_splits_and_audit(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    *_, res = env
    ex = [dict(e) for e in res.examples]
    sp = split_by_platform(ex, ["tago"])
    assert sp["heldout"] and all("tago" in e["platforms"] for e in sp["heldout"])
    assert all("tago" not in e["platforms"] for e in sp["train"])
    assert "skipped" in audit(ex, tmp_path / "nope.jsonl")
    assert "skipped" in audit(ex, None)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"question": ex[0]["question"], "gold_program": ex[0]["gold_program"]},
                                ensure_ascii=False) + "\n", encoding="utf-8")
    rep = audit(ex, tasks)
    assert rep["edge_jaccard"] > 0 and rep["verbatim_questions"] == [ex[0]["id"]]
    assert edge_jaccard([("a", "b")], [("c", "d")]) == 0.0


def test_cli_synthesize(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from edge.cli import edge_app

    _v, _c, obs, graph, _ = env
    graph.save(tmp_path / "g" / "graph.json", obs)
    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "12", "--seed", "1", "--out", str(tmp_path / "o"),
                                      "--graph", str(tmp_path / "g"), "--holdout", "tago"])
    assert r.exit_code == 0, r.output
    assert "junction" in r.output and "audit: no task set given" in r.output
    assert (tmp_path / "o" / "conversations.jsonl").exists() and (tmp_path / "o" / "report.json").exists()


def test_programs_recompute_on_a_new_version(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A new cassette version (here: one endpoint's collections lose their last record, as a
    refreshed recording would) → every program runs again there; answers that read the changed
    endpoint are recomputed from the new data, the others stay byte-identical."""
    version, catalog, _o, _g, res = env
    src = Path(version.path)
    store = Store(root=tmp_path / "cassettes", cache_dir=tmp_path / "cache")
    import shutil

    shutil.copytree(src, store.set_dir("kopa") / version.manifest.version)
    # the endpoints most answers are reduced from (the last call of their programs), most
    # used first: the first whose change moves an answer is the one checked (dropping a last
    # record need not move any answer of a given endpoint: a reduction may not read it).
    uses = Counter([s["call"] for s in e["gold_program"]["steps"] if "call" in s][-1] for e in res.examples)
    shrinkable = {c["endpoint"] for c in VersionBuilder(store, "kopa", catalog).collections.values()
                  if len(c["records"]) > 1}
    candidates = [t for t, _n in uses.most_common() if t in shrinkable][:3]
    assert candidates
    for n, changed in enumerate(candidates):
        b = VersionBuilder(store, "kopa", catalog)
        for key, c in list(b.collections.items()):
            if c["endpoint"] == changed and len(c["records"]) > 1:
                b.add_collection(endpoint=changed, key=key, filters=c["filters"], fmt=c["fmt"],
                                 total=c["total"] - 1, records=c["records"][:-1], envelope=c["envelope"])
        m2 = b.publish(recorded_at=f"2026-11-30T00:00:0{n}Z", source="test")
        v2 = store.open("kopa", m2.version)
        assert v2.content_hash != version.content_hash
        again = recompute(res.examples, v2, catalog)
        touched = [e for e in res.examples if changed in e["tools"]]
        assert touched, changed
        differ = 0
        for e, (ans, err) in zip(res.examples, again):
            if changed not in e["tools"]:
                assert err is None and canonical(ans) == e["ground_truth"], (e["id"], err)
            elif err is None and canonical(ans) != e["ground_truth"]:
                differ += 1
        if differ:
            break
        # the next candidate is checked against the shipped version, not this one
        store = Store(root=tmp_path / f"cassettes{n + 1}", cache_dir=tmp_path / f"cache{n + 1}")
        shutil.copytree(src, store.set_dir("kopa") / version.manifest.version)
    assert differ > 0, f"no answer reading {candidates} changed on a new version"
    # the recomputed answers are those of the programs run directly on the new version
    ex2 = ProgramRunner(Resolver(v2, catalog, miss="strict"))
    for e, (ans, err) in zip(res.examples, again):
        if changed in e["tools"] and err is None:
            assert canonical(ex2.run(e["gold_program"]).answer) == canonical(ans)


@pytest.mark.slow
@pytest.mark.xdist_group(SYNTH_1000)
def test_a_thousand_examples_from_the_shipped_cassettes(synth_1000: ThousandRun) -> None:
    """1,000 requested from the shipped cassettes with the CLI's defaults (kopa@v0005, EDGE's
    default catalog, the bench's entities and edges held out): 1,000 distinct verified examples
    survive the rules (tests/edge/synth/test_rules.py, which checks them over this same run),
    over all junction types. (On v0004, with 30 attempts per example and no in-shard
    de-duplication, the same run kept 270: the same few recorded chains were drawn again;
    v0005 records the other Seoul districts' trades and more schools. On v0001 it kept 132.)"""
    version, catalog, res = synth_1000.version, synth_1000.catalog, synth_1000.res
    s = res.report["summary"]
    print(json.dumps(s, ensure_ascii=False))
    assert len(res.examples) == 1000 and len({e["id"] for e in res.examples}) == len(res.examples)
    assert len({e["question"] for e in res.examples}) == len(res.examples)
    assert s["missing"]["junctions"] == [], s["missing"]
    ex = ProgramRunner(Resolver(version, catalog, miss="strict"))
    for e in random.Random(1).sample(res.examples, min(60, len(res.examples))):
        assert canonical(ex.run(e["gold_program"]).answer) == e["ground_truth"], e["id"]
    # no conversation makes a bench gold call or shows a bench gold record set (issue #28: one
    # made a gold call, one read the whole turnout table of four tasks, before they were held out)
    from edge.synth.contamination import content_audit, gold_holdout

    bench_catalog = load_catalog()
    content = content_audit(res.examples, version, bench_catalog, gold_holdout(version, bench_catalog))
    assert content["examples_making_gold_call"] == 0 and content["examples_showing_gold_records"] == 0, content
