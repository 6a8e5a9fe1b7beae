"""The synthesis pipeline: sample → execute → phrase → filter → examples (DESIGN §8).

>>> res = synthesize(version, catalog, graph, n=1000, seed=0)   # doctest: +SKIP
>>> res.report["filters"]                                        # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from simulator import Catalog, Domain, MainPlatform, Resolver, Version

from ..graph import EdgeGraph
from ..observe import Observations
from .execute import ProgramError, ProgramRunner
from .checks import CHECKS
from .asks import opener_frame
from .quality import opener_stats
from .contamination import GOLD_CALL, GOLD_RECORDS, GoldHoldout, bench_versions, gold_holdout
from .splits import bench_edges, bench_entities, example_edges, example_entities
from .sample import JUNCTIONS, family
from .form import NEAR_THRESHOLD
from .form import malformed as _malformed
from .form import shingles as _shingles
from .shards import DEFAULT_SHARDS, ShardResult, ShardSpec, SynthConfig, canonical, synth_shard

__all__ = ["MAIN_PLATFORMS", "ShardResult", "ShardSpec", "synth_shard", "diversity", "distinct_n", "matched_distinct", "near_duplicate_rate", "SynthConfig", "SynthResult", "canonical", "recompute", "summarize_examples", "synthesize"]

#: The ten main platforms and the six domains the report counts (``simulator.vocab``).
MAIN_PLATFORMS: tuple[str, ...] = tuple(x.value for x in MainPlatform)
DOMAINS: tuple[str, ...] = tuple(x.value for x in Domain)


@dataclass
class SynthResult:
    """Kept examples, the filter report and the summary."""

    examples: list[dict[str, Any]]
    report: dict[str, Any]
    dropped: dict[str, list[str]] = field(default_factory=dict)


def synthesize(
    version: Version,
    catalog: Catalog,
    graph: EdgeGraph,
    *,
    n: int = 1000,
    seed: int = 0,
    obs: Observations | None = None,
    config: SynthConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    allow_bench_entities: bool = False,
    allow_bench_edges: bool | None = None,
    ray_address: str | None = None,
    allow_bench_gold: bool = False,
    gold: GoldHoldout | None = None,
    ray_cpus: int | None = None,
    ray_store: str | None = None,
) -> SynthResult:
    """Make about ``n`` verified examples from ``graph``'s verified paths on ``version``.

    The work is ``config.shards`` shards, each with its own seeded sampler
    (``random.Random(f"{seed}:{shard}")``) and executor; their drafts are joined in shard order
    and filtered together. ``ray_address`` runs the shards as Ray tasks (``"local"`` starts a
    local instance, of ``ray_cpus`` CPUs if given; :mod:`edge.synth.distributed`): the same
    shards, so the same bytes as a run without it. Unset, the shard count is
    :data:`~edge.synth.shards.DEFAULT_SHARDS` in one process and the cluster's CPUs on Ray.
    ``ray_store``: the cassette root as the workers see it (a path or ``file://`` URI; default
    the driver's).

    KOPA-Bench's entities (the names and codes its tasks use, :func:`~edge.synth.splits.
    bench_entities`) are held out unless ``allow_bench_entities``. Its dependency edges (a
    handoff from one tool to another that a bench gold program makes,
    :func:`~edge.synth.splits.bench_edges`) are held out when ``allow_bench_edges`` is False
    (training data then shares no chain with the benchmark: the paper's edge Jaccard of 0.0);
    unset, they are held out only when the content hold-out below is off. With it on, a chain
    may take a bench edge (a statute's search → its text, a city's code → its stops: the lookups
    a whole platform is asked through) but never makes a bench gold call or shows a gold record.

    And by content, unless ``allow_bench_gold``: no example makes a call a bench gold program
    makes or shows a record a bench gold is computed from (:mod:`edge.synth.contamination`;
    ``gold`` is that hold-out if the caller has it already, else it is computed here once by
    running the bench's gold programs on ``version``)."""
    cfg = config or SynthConfig()
    if allow_bench_edges is None:
        allow_bench_edges = not allow_bench_gold
    want = int(n * (1 + cfg.overshoot)) + 1
    if allow_bench_gold:
        hold = None
    else:  # the bench's gold calls on this version, and on the bench's own where it is older
        hold = gold if gold is not None else gold_holdout(version, also=bench_versions(version))
    held = set() if allow_bench_entities else bench_entities()  # read once, handed to every shard
    held_edges = set() if allow_bench_edges else bench_edges()

    def specs_for(shards: int) -> list[ShardSpec]:
        per = -(-want // shards)
        return [ShardSpec(seed, i, per, allow_bench_entities, allow_bench_edges, shards) for i in range(shards)]

    if ray_address:
        from .distributed import RayCluster

        obs = obs or Observations.from_version(version, catalog)  # once, put in the object store
        with RayCluster(ray_address, cpus=ray_cpus) as cluster:
            cfg = replace(cfg, shards=cfg.shards or cluster.cpu_count())
            outs = cluster.run_shards(version, graph, specs_for(cfg.shards), cfg, obs=obs, gold=hold,
                                      bench=(held, held_edges), store=ray_store, progress=progress, want=want)
    else:
        cfg = replace(cfg, shards=cfg.shards or DEFAULT_SHARDS)
        obs = obs or Observations.from_version(version, catalog)
        outs = []
        for spec in specs_for(cfg.shards):
            base = sum(len(o.drafts) for o in outs)
            outs.append(synth_shard(version, catalog, graph, obs, spec, cfg,
                                    progress=(lambda k, _w, b=base: progress(b + k, want)) if progress else None,
                                    gold=hold, bench=(held, held_edges)))
    drafts = [e for o in outs for e in o.drafts]
    counts: dict[str, Counter[str]] = {}
    for o in outs:
        for name, c in o.counts.items():
            counts.setdefault(name, Counter()).update(c)
    kept, report, dropped = apply_filters(drafts, version, catalog, held, held_edges)
    report["filters"] |= {GOLD_CALL: 0, GOLD_RECORDS: 0}  # drafts refused in the shards (held out by content)
    for k, x in counts.get("early", Counter()).items():
        report["filters"][k] = report["filters"].get(k, 0) + x
    report["bench_gold"] = (hold.summary() | {"held_out": True}) if hold is not None else {"held_out": False}
    kept = kept[:n]
    rules = counts.get("rules", Counter())
    report.update({"attempts": sum(o.attempts for o in outs), "drafts": len(drafts), "kept": len(kept),
                   "requested": n, "shards": cfg.shards,
                   "failed_attempts": dict(sorted(counts.get("failed", Counter()).items())),
                   "requests": sum(o.requests for o in outs),
                   "rules_refused": {k: rules.get(k, 0) for k in CHECKS},
                   "summary": summarize_examples(kept)})
    return SynthResult(kept, report, dropped)


# ---- filters -------------------------------------------------------------------------------
def _single_call(e: dict[str, Any]) -> bool:
    """True when one call could give the answer: fewer than two calls, or an intermediate
    value given away by the question, or the answer is just a value passed between calls."""
    if e["length"] < 2 or len(e["tools"]) < 2 and e["junction"] not in ("FAN", "CMP"):
        return True
    q = e["question"]
    for v in e["bound_values"]:
        if len(v) >= 3 and v in q:
            return True
    ans = e["answer"]
    return isinstance(ans, str) and ans in e["bound_values"]


def recompute(examples: list[dict[str, Any]], version: Version, catalog: Catalog) -> list[tuple[Any, str | None]]:
    """Run every example's gold program again on ``version``: (answer, error) per example."""
    ex = ProgramRunner(Resolver(version, catalog, miss="strict"))
    out: list[tuple[Any, str | None]] = []
    for e in examples:
        try:
            out.append((ex.run(e["gold_program"]).answer, None))
        except ProgramError as exc:
            out.append((None, str(exc)))
    return out


def apply_filters(drafts: list[dict[str, Any]], version: Version, catalog: Catalog,
                  held_entities: set[str] | None = None, held_edges: set[tuple[str, str]] | None = None
                  ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, list[str]]]:
    """Malformed → single-call → bench entity → bench edge → duplicate → near-duplicate →
    re-execution; counts what each removed."""
    dropped: dict[str, list[str]] = {"malformed": [], "single_call": [], "bench_entity": [], "bench_edge": [],
                                     "duplicate": [], "near_duplicate": [], "reexecution": []}
    stage: list[dict[str, Any]] = []
    for e in drafts:
        if _malformed(e, catalog):
            dropped["malformed"].append(e["id"])
        elif _single_call(e):
            dropped["single_call"].append(e["id"])
        elif held_entities and example_entities(e) & held_entities:
            dropped["bench_entity"].append(e["id"])
        elif held_edges and example_edges([e]) & held_edges:
            dropped["bench_edge"].append(e["id"])
        else:
            stage.append(e)
    seen_q: set[str] = set()
    seen_p: set[str] = set()
    uniq = []
    for e in stage:
        pk = json.dumps(e["gold_program"], sort_keys=True, ensure_ascii=False)
        qk = " ".join(e["question"].split())
        if pk in seen_p or qk in seen_q or e["id"] in {u["id"] for u in uniq[-1:]}:
            dropped["duplicate"].append(e["id"])
            continue
        seen_p.add(pk)
        seen_q.add(qk)
        uniq.append(e)
    shingles: list[set[str]] = []
    distinct = []
    for e in uniq:  # near-duplicates: the bench audit's character-5-gram Jaccard >= 0.5
        sh = _shingles(e["question"])
        if any(len(sh & o) >= NEAR_THRESHOLD * len(sh | o) for o in shingles):
            dropped["near_duplicate"].append(e["id"])
            continue
        shingles.append(sh)
        distinct.append(e)
    uniq = distinct
    kept = []
    for e, (ans, err) in zip(uniq, recompute(uniq, version, catalog)):
        if err is not None or canonical(ans) != e["ground_truth"]:
            dropped["reexecution"].append(e["id"])
        else:
            kept.append(e)
    report = {"filters": {k: len(v) for k, v in dropped.items()}}
    return kept, report, dropped


# ---- summary -------------------------------------------------------------------------------
_BUCKETS = ((1, "1"), (5, "2-5"), (20, "6-20"), (100, "21-100"), (1000, "101-1000"))


def _card_buckets(examples: list[dict[str, Any]]) -> dict[str, int]:
    """Examples by the largest result a step of theirs read whole (records)."""
    out = {name: 0 for _n, name in _BUCKETS} | {">1000": 0}
    for e in examples:
        m = max(e.get("cardinality") or [0])
        out[next((name for top, name in _BUCKETS if m <= top), ">1000")] += 1
    return out


def distinct_n(questions: list[str], n: int) -> float:
    """Distinct word n-grams over all n-grams of ``questions`` (whitespace words)."""
    grams = [tuple(w[i:i + n]) for q in questions for w in [q.split()] for i in range(len(w) - n + 1)]
    return round(len(set(grams)) / len(grams), 3) if grams else 0.0


def near_duplicate_rate(questions: list[str], threshold: float = NEAR_THRESHOLD) -> float:
    """Share of questions with another at character-5-gram Jaccard >= ``threshold``
    (the bench audit's near-verbatim measure)."""
    sh = [_shingles(q) for q in questions]
    near = set()
    for i in range(len(sh)):
        for j in range(i + 1, len(sh)):
            a, b = sh[i], sh[j]
            if len(a & b) >= threshold * len(a | b):
                near |= {i, j}
    return round(len(near) / len(sh), 4) if sh else 0.0


def matched_distinct(questions: list[str], size: int, *, samples: int = 20, seed: int = 0) -> dict[str, float]:
    """distinct-1..4 of ``questions`` at a set size of ``size`` questions: the mean over
    ``samples`` seeded draws of ``size`` questions (all of them if there are no more).

    distinct-n falls as a set grows (more n-grams repeat), so two sets of different sizes are
    compared at the smaller one's size, each measured the same way.

    >>> matched_distinct(["a b", "a c", "a b"], 3)
    {'distinct_1': 0.5, 'distinct_2': 0.667, 'distinct_3': 0.0, 'distinct_4': 0.0}
    """
    import random

    if size >= len(questions) or samples < 1:
        draws = [list(questions)]
    else:
        rng = random.Random(seed)
        draws = [rng.sample(questions, size) for _ in range(samples)]
    return {f"distinct_{n}": round(sum(distinct_n(d, n) for d in draws) / len(draws), 3) for n in (1, 2, 3, 4)}


def diversity(questions: list[str]) -> dict[str, Any]:
    """distinct-1..4 and the near-duplicate rate of a question set."""
    return {**{f"distinct_{n}": distinct_n(questions, n) for n in (1, 2, 3, 4)},
            "near_duplicate_rate": near_duplicate_rate(questions)}


def summarize_examples(examples: list[dict[str, Any]]) -> dict[str, Any]:
    """Distributions over junction types, platforms, domains and lengths, and what is missing."""
    j = Counter(e["junction"] for e in examples)
    jall = Counter(x for e in examples for x in set(e["junctions"]))
    plat = Counter(p for e in examples for p in e["platforms"])
    first = Counter(e["platforms"][0] for e in examples)
    fam = Counter(family(p) for e in examples for p in dict.fromkeys(e["platforms"]))
    dom = Counter(d for e in examples for d in e["domains"])
    lens = Counter(e["length"] for e in examples)
    return {
        "diversity": diversity([e["question"] for e in examples]),
        "templates": len({e.get("template", "") for e in examples}),
        # how often questions open with the same frame ("… 말인데요,"), and the pairs of a blind
        # sample of 40 expected to share one (edge.synth.quality.opener_stats)
        "openers": opener_stats(opener_frame(str(e.get("template", ""))) for e in examples),
        "cardinality": _card_buckets(examples),
        "calls_per_example": round(sum(e["length"] for e in examples) / max(1, len(examples)), 2),
        "examples": len(examples),
        "junction": {k: j.get(k, 0) for k in JUNCTIONS},
        "junction_any": {k: jall.get(k, 0) for k in JUNCTIONS},
        "platforms": dict(sorted(plat.items())),
        "providers": dict(sorted(fam.items())),
        "start_platform": dict(sorted(first.items())),
        "domains": {k: dom.get(k, 0) for k in DOMAINS},
        "lengths": {str(k): lens[k] for k in sorted(lens)},
        "missing": {
            "junctions": [k for k in JUNCTIONS if not j.get(k)],
            "platforms": [p for p in MAIN_PLATFORMS if not fam.get(p)],
            "domains": [d for d in DOMAINS if not dom.get(d)],
        },
    }
