"""One shard of a synthesis run: sample, execute, phrase and check drafts.

:func:`~edge.synth.pipeline.synthesize` runs the shards in order here, or as Ray tasks
(:mod:`edge.synth.distributed`); either way each shard is :func:`synth_shard`, so the bytes
are the same.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator import Catalog, Resolver, Version
from simulator.tools import program_edges

from ..catalog import EDGE_TIER, INTENT_TOOLS
from ..graph import EdgeGraph
from ..observe import Observations
from .checks import check_example
from .contamination import Footprints, GoldHoldout
from .execute import ProgramError, ProgramRunner
from .form import NEAR_THRESHOLD, shingles as _shingles
from .intent_kit import real_companies
from .intents import GENERIC_SHARE, INTENTS, build_intent, spare, wanted
from .questions import answer_kinds, answer_text, write_question_t
from .draft import Draft
from .junctions import build as build_junction
from .sample import JUNCTIONS, Sampler, sane_edges
from .splits import bench_edges, bench_entities, example_entities
from .writers import conversation, fitting_page_size

__all__ = ["DEFAULT_SHARDS", "ShardResult", "ShardSpec", "SynthConfig", "canonical", "synth_shard"]

#: Shards of a run in one process when ``SynthConfig.shards`` is not set.
DEFAULT_SHARDS = 4


def canonical(answer: Any) -> str:
    """The answer as the ground-truth string rewards compare against (sorted-key JSON)."""
    return json.dumps(answer, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@dataclass
class SynthConfig:
    """Knobs of one synthesis run."""

    min_len: int = 2
    max_len: int = 8
    #: Attempts at most per requested example (drafts that fail are discarded). Most attempts
    #: fail cheaply (no recorded onward call, a rule refuses the draft), so the bound is wide:
    #: at 30, a 1,000-run on ``kopa@v0005`` stopped at 405 kept with its shards' quota unmet.
    attempts_per_example: int = 150
    #: Extra drafts made beyond ``n`` so that filtering still leaves ``n`` (shards draw
    #: independently, so one program may be drawn by two shards; the later copy is dropped).
    overshoot: float = 0.5
    #: Shards of the work (each its own seeded sampler); ``--ray`` runs them in parallel.
    #: ``None``: :data:`DEFAULT_SHARDS` in one process, the cluster's CPUs on Ray. The same
    #: shard count gives the same bytes with or without Ray.
    shards: int | None = None


def _example(d: Draft, question: str, answer: Any, catalog: Catalog, version: Version, seed: int) -> dict[str, Any]:
    prog = d.program_json()
    tools = list(dict.fromkeys(s.call for s in d.program().calls()))
    plats = list(dict.fromkeys(catalog.endpoint(t).platform for t in tools))
    doms = list(dict.fromkeys(catalog.endpoint(t).domain for t in tools))
    main = _main_junction(d.junctions)
    blob = json.dumps({"q": question, "p": prog}, ensure_ascii=False, sort_keys=True)
    return {
        "id": hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16],
        "question": question,
        "answer": answer,
        "ground_truth": canonical(answer),
        "answer_text": answer_text(answer, question, answer_kinds(d.program(), catalog)),
        "junction": main,
        "junctions": list(d.junctions),
        "length": d.calls,
        "tools": tools,
        "platforms": plats,
        "domains": doms,
        "domain": doms[0],
        "edges": sorted({f"{a}->{b}" for a, b in d.edges}),
        "bound_values": list(d.bound),
        "cardinality": d.cardinality(),
        "gold_program": prog,
        "cassettes": {"set": version.manifest.set, "version": version.manifest.version,
                      "content_hash": version.content_hash},
        "seed": seed,
    }


_PRIORITY = ("COND", "CMP", "SEM", "FAN", "DRV", "SEQ")


def _draft_entities(d: Draft) -> set[str]:
    return example_entities({"gold_program": d.program_json(), "bound_values": d.bound})


def _answer_names(answer: Any) -> set[str]:
    """The names an answer gives (``삼성전자(주)`` read as ``삼성전자``)."""
    vals = answer if isinstance(answer, list) else [answer]
    return {str(v).strip().removesuffix("(주)").removeprefix("(주)").strip() for v in vals
            if isinstance(v, str)}


def _main_junction(js: list[str]) -> str:
    for j in _PRIORITY:
        if j in js:
            return j
    return "SEQ"


@dataclass(frozen=True)
class ShardSpec:
    """One shard of a run: its seed, index, drafts wanted and the bench hold-out rules."""

    seed: int
    index: int
    want: int
    allow_bench_entities: bool = False
    allow_bench_edges: bool = False
    #: Shards of the run: each intent entity belongs to one (``intent_kit.mine``).
    shards: int = 1


@dataclass
class ShardResult:
    """A shard's drafts (in order) and its counters (failed, rules, early)."""

    drafts: list[dict[str, Any]]
    counts: dict[str, dict[str, int]]
    attempts: int
    requests: int


def synth_shard(version: Version, catalog: Catalog, graph: EdgeGraph, obs: Observations, spec: ShardSpec,
                cfg: SynthConfig, progress: Callable[[int, int], None] | None = None,
                gold: GoldHoldout | None = None,
                bench: tuple[set[str], set[tuple[str, str]]] | None = None) -> ShardResult:
    """Drafts of one shard: sampled, executed, phrased and checked (:mod:`edge.synth.checks`).

    ``gold`` (:func:`~edge.synth.contamination.gold_holdout`): a draft that makes a bench gold
    call or shows a record a bench gold is computed from is refused and another drawn.
    ``bench``: the bench's entities and edges if the caller has read them already (else read
    here, as ``spec`` says)."""
    rng = random.Random(f"{spec.seed}:{spec.index}")
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
    ents, bedges = bench if bench is not None else (bench_entities(), bench_edges())
    held = set() if spec.allow_bench_entities else ents
    held_edges = set() if spec.allow_bench_edges else bedges
    # a held-out edge is never drawn (a draft on one would only be dropped), so the attempts
    # go to chains training may use; the check after execution stays for what a pick adds
    edges = [b for b in sane_edges(graph) if (b.source_tool, b.target_tool) not in held_edges]
    if catalog.tier == EDGE_TIER:
        # EDGE's default catalog holds its generated tools for the intents' sake: the walks keep
        # to the curated tools, whose words (lexicon.TOOL_NOUNS) they phrase their questions in
        edges = [b for b in edges if b.source_tool not in INTENT_TOOLS and b.target_tool not in INTENT_TOOLS]
    sampler = Sampler(catalog, edges, obs, ex, rng)
    sampler.portion = (spec.index, spec.shards)
    # on EDGE's default catalog a COND is asked by an intent, as a fallback with its reason
    # (intents.nec_cond); the walks' generic COND ("…300건 이상인지 확인해 주십시오. 이상이라면
    # A가, 미만이라면 B가") reads as a program's branches to every outside reader, so it is not drawn
    walk_junctions = tuple(j for j in JUNCTIONS if j != "COND") if catalog.tier == EDGE_TIER else JUNCTIONS
    real = real_companies(sampler)
    prints = Footprints(catalog)
    made: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    early: Counter[str] = Counter()
    shingles: list[set[str]] = []
    programs: set[str] = set()
    lengths: Counter[int] = Counter()
    drafts: list[dict[str, Any]] = []
    want = spec.want
    attempts = 0
    intent_failed: Counter[str] = Counter()
    intent_made: Counter[str] = Counter()
    held_names = frozenset(held)

    def miss(j: str, ip: str | None) -> None:
        failed[j] += 1
        if ip:
            intent_failed[ip] += 1

    while len(drafts) < want and attempts < want * cfg.attempts_per_example:
        attempts += 1
        jtype = min(walk_junctions, key=lambda j: (made[j] + 0.1 * failed[j], rng.random()))
        length = min(range(cfg.min_len, cfg.max_len + 1), key=lambda k: (lengths[k], rng.random()))
        # the sampler's walks up to their share (the junctions no intent asks), then a question
        # written for the platform furthest under its share (edge.synth.intents), else for one
        # whose intents still make examples; the walks again only when all keep failing
        generic = len(drafts) - sum(intent_made.values())
        ip = None if generic < GENERIC_SHARE * (len(drafts) + 1) else (
            wanted(intent_made, len(drafts), intent_failed, rng) or spare(intent_made, intent_failed, rng))
        if ip is not None:
            d = build_intent(sampler, rng.choices(INTENTS[ip], weights=[i.weight for i in INTENTS[ip]])[0], rng, held_names)
            if d is not None and held_edges and program_edges(d.program()) & held_edges:
                d = None  # its chain takes a held-out bench edge: not drawn (as the sampler's walks)
            jtype = _main_junction(d.junctions) if d else "SEQ"
        else:
            ip = None
            d = build_junction(sampler, jtype, length)
        main = _main_junction(d.junctions) if d else None
        if d is None or main is None or not cfg.min_len <= d.calls <= cfg.max_len:
            miss(jtype, ip)
            continue
        made[main] += 1  # a draft asked as SEQ that reduced a large set counts as DRV
        lengths[d.calls] += 1
        try:
            run = ex.run(d.program())
        except ProgramError:
            miss(jtype, ip)
            continue
        domain = catalog.endpoint(d.program().calls()[0].call).domain
        if held and _draft_entities(d) & held:
            early["bench_entity"] += 1
            miss(jtype, ip)
            continue
        if held_edges and program_edges(d.program()) & held_edges:
            early["bench_edge"] += 1
            miss(jtype, ip)
            continue
        if real and (_draft_entities(d) | _answer_names(run.answer)) & real:
            early["real_company"] += 1  # a real company's invented figures (a synthetic world)
            miss(jtype, ip)
            continue
        pk = d.program().model_dump_json()
        if pk in programs:  # the same program again: drawn anew rather than phrased twice
            early["duplicate"] += 1
            miss(jtype, ip)
            continue
        hits = prints.hits(run, d.program(), gold) if gold is not None else []
        if hits:  # what the conversation would show: a bench gold call or a gold record
            early[hits[0]] += 1
            miss(jtype, ip)
            continue
        for _try in range(3):  # a near-duplicate phrasing is drawn again, then given up
            question, template = write_question_t(catalog, rng, d.parts, domain)
            sh = _shingles(question)
            if not any(len(sh & o) >= NEAR_THRESHOLD * len(sh | o) for o in shingles):
                break
        else:
            early["near_duplicate"] += 1
            miss(jtype, ip)
            continue
        e = _example(d, question, run.answer, catalog, version, spec.seed)
        e["template"] = template
        try:
            bad = check_example(e, conversation(e, ex, catalog), run.values, catalog)
        except ProgramError:
            bad = ["execution"]
        if bad:
            rules.update(bad)
            miss(jtype, ip)
            continue
        drafts.append(e)
        programs.add(pk)
        shingles.append(sh)
        sampler.made.update(e["platforms"])
        if ip:
            intent_made[ip] += 1
        if progress:
            progress(len(drafts), want)
    return ShardResult(drafts, {"failed": dict(failed), "rules": dict(rules), "early": dict(early)},
                       attempts, ex.requests)
