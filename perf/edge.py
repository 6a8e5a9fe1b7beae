"""EDGE at the paper's scale: candidate retrieval and verification throughput on 2,500 tools.

The paper builds its graph over 2,318 tools; the shipped catalog has 82. This harness makes a
synthetic catalog of any size in memory — real ``Platform`` / ``Endpoint`` models of the
data.go.kr dialect, grouped in platforms of ten tools over the six domains — whose names come
in families, so candidates exist the way they do across real platforms:

* every tool *gives* one concept (``<stem>_cd`` codes, ``<stem>_nm`` names) and *takes*
  another through a param spelled in one of three house styles (``stemCd``, ``STEM_CODE``,
  ``stem_code``); a third of the concepts carry 10-digit codes taken as a 6-digit prefix
  (``slice:0:6``, like legal-dong → ``LAWD_CD``);
* some tools also give a decoy ``<stem>_no`` of a third concept whose values never match:
  proposed on its name and format, pruned by execution;
* generic fields (``reg_dt``, ``use_yn``, ``seq_no``) appear everywhere and carry nothing.

Measured:

1. candidate retrieval (``edge.Retriever.pairs``) and offline proposal
   (``edge.OfflineProposer.propose``) at 500 / 1,000 / 2,500 tools, with the growth exponent
   (1.0 linear, 2.0 quadratic) and the candidate pairs against all n·(n−1) ordered pairs;
2. verification calls per second: the generated collections are published as a cassette
   version in a temp store, observed with ``Observations.from_version`` and verified with the
   Thompson-sampled loop through ``SimExecutor`` (the strict offline resolver), against the
   executor alone on the same calls (the floor).

Run it (writes ``results/edge.json`` and the edge section of ``RESULTS.md``)::

    python -m perf.edge              # full run, about a minute
    python -m perf.edge --quick      # small sizes, seconds (CI smoke)
"""

from __future__ import annotations

import gc
import math
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from perf._common import (
    base_parser,
    cpu_name,
    median_stats,
    now_utc,
    section_markers,
    timed,
    update_section,
    usable_cores,
    write_results,
)
from edge import (
    EdgeState,
    Observations,
    OfflineProposer,
    Retriever,
    SimExecutor,
    Verifier,
    VerifyConfig,
    apply_transform,
)
from simulator import Catalog, Domain, Endpoint, Param, Platform, Resolver, Store, VersionBuilder
from simulator.catalog import FieldSpec, FilterRule, QuerySemantics

__all__ = [
    "FULL",
    "QUICK",
    "SECTION_BEGIN",
    "SECTION_END",
    "Config",
    "Synthetic",
    "main",
    "render_markdown",
    "run",
    "synthetic_catalog",
    "update_results_md",
]

SECTION_BEGIN, SECTION_END = section_markers("edge")
SET_NAME = "edgebench"
DOMAINS = tuple(d.value for d in Domain)
SYLLABLES = ("ka", "ri", "mo", "tu", "pa", "na", "po", "gi", "lu", "de", "ba", "ho", "ze", "fi", "ju", "wa")
#: Common params of the data.go.kr family (key, paging, format), as the catalog merges them in.
COMMON = [
    Param(name="pageNo", type="integer", role="page", default="1", pattern="^[1-9][0-9]*$"),
    Param(name="numOfRows", type="integer", role="page_size", default="10", pattern="^[1-9][0-9]*$"),
    Param(name="serviceKey", required=True, role="auth", aliases=["ServiceKey"]),
    Param(name="_type", role="format", enum=["json", "xml"], default="xml"),
]
OPTIONS: dict[str, Any] = {
    "default_format": "xml", "format_values": {"json": "json", "xml": "xml"},
    "success": ["00", "NORMAL SERVICE."], "counts": "number",
    "body_keys": ["items", "numOfRows", "pageNo", "totalCount"], "single_item": "object",
    "escape_slash": True, "xml_decl": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    "oversize": "clamp",
}


@dataclass(frozen=True)
class Config:
    """Sizes and repetitions of one run."""

    mode: str
    sizes: tuple[int, ...]
    reps: int
    verify_tools: int
    iterations: int
    paths_per_iteration: int
    floor_calls: int
    records_per_tool: int = 40
    values_per_concept: int = 60
    seed: int = 20260101


FULL = Config(mode="full", sizes=(500, 1000, 2500), reps=3, verify_tools=2500, iterations=40,
              paths_per_iteration=2000, floor_calls=5000)
QUICK = Config(mode="quick", sizes=(100, 250), reps=1, verify_tools=250, iterations=6,
               paths_per_iteration=400, floor_calls=200)


class BenchError(RuntimeError):
    """The harness produced something that cannot be right (stops the run)."""


# ---- the synthetic catalog ---------------------------------------------------------------
def stem(c: int) -> str:
    """A pronounceable, letters-only name stem per concept (``karimo``-like, 3 syllables)."""
    s = ""
    for _ in range(3):
        s = SYLLABLES[c % 16] + s
        c //= 16
    return s + ("x" * c if c else "")


def code_len(c: int) -> int:
    return (6, 8, 10)[c % 3]


def code(c: int, k: int) -> str:
    """The k-th code of concept c; 10-digit codes have a distinct 6-digit prefix per k."""
    n = code_len(c)
    if n == 10:
        return f"{c:04d}{k:02d}{(k * 37) % 10000:04d}"
    return f"{c:04d}{k:0{n - 4}d}"


@dataclass
class Synthetic:
    """A generated catalog with its records (tool id → records) and in-memory observations."""

    catalog: Catalog
    tools: list[Endpoint]
    records: dict[str, list[dict[str, str]]]
    #: tool id → (concept given, concept taken, the param's name)
    plan: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    def observations(self) -> Observations:
        """What a version holding ``records`` shows (built in memory, no store)."""
        obs = Observations(content_hash=f"synthetic-{len(self.tools)}")
        for ep in self.tools:
            recs = self.records[ep.id]
            obs.filters[ep.id] = [{}]
            obs.field_values[ep.id] = {
                f.name: list(dict.fromkeys(sorted({r[f.name] for r in recs if r.get(f.name)}))) for f in ep.fields
            }
        return obs


def synthetic_catalog(n: int, cfg: Config) -> Synthetic:
    """``n`` tools in platforms of ten; see the module docstring for the name families."""
    rng = random.Random(f"{cfg.seed}:{n}")
    concepts = max(6, n // 5)
    platforms: list[Platform] = []
    records: dict[str, list[dict[str, str]]] = {}
    plan: dict[str, tuple[int, int, str]] = {}
    per_platform = 10
    for p in range((n + per_platform - 1) // per_platform):
        domain = DOMAINS[p % len(DOMAINS)]
        pid = f"syn{p:04d}"
        eps: list[Endpoint] = []
        for i in range(p * per_platform, min(n, (p + 1) * per_platform)):
            a = i % concepts
            b = (i * 7 + 3) % concepts
            if b == a:
                b = (b + 1) % concepts
            sa, sb = stem(a), stem(b)
            pname = (f"{sb}Cd", f"{sb.upper()}_CODE", f"{sb}_code")[i % 3]
            sliced = code_len(b) == 10
            plen = 6 if sliced else code_len(b)
            fields = [
                FieldSpec(name=f"{sa}_cd", code=True, description=f"{sa} code"),
                FieldSpec(name=f"{sa}_nm", description=f"{sa} name"),
                FieldSpec(name=f"{sb}_cd", code=True, description=f"{sb} code (the filter's field)"),
                FieldSpec(name="reg_dt"), FieldSpec(name="use_yn"), FieldSpec(name="seq_no"),
            ]
            # A decoy names a third concept (one that other tools take) but holds other values.
            d = (i * 11 + 5) % concepts
            decoy = i % 4 == 1 and d not in (a, b)
            if decoy:
                fields.append(FieldSpec(name=f"{stem(d)}_no", description=f"{stem(d)} running number"))
            tid = f"{pid}_op{i - p * per_platform}"
            ep = Endpoint(
                id=tid, operation=f"Synth{p}Service/getItem{i}", summary=f"합성 도구 {i}",
                summary_en=f"synthetic tool {i}: {sa} records by {sb}",
                host=f"{pid}.apis.example", path=f"/9{p:04d}/Synth{p}Service/getItem{i}",
                params=[Param(name=pname, required=True, role="filter", pattern=f"^[0-9]{{{plen}}}$",
                              example=code(b, 0)[:plen], description=f"{sb} code"), *COMMON],
                fields=fields, max_page_size=100,
                query=QuerySemantics(filters=[FilterRule(param=pname, field=f"{sb}_cd",
                                                         transform=f"slice:0:{plen}" if sliced else None)]),
                options=dict(OPTIONS), platform=pid, domain=domain, dialect="datagokr",
            )
            eps.append(ep)
            plan[tid] = (a, b, pname)
            # The records: a window of concept a's codes, and of concept b's (what the filter
            # selects on), so a handoff succeeds for some source values and not for others.
            k_a, k_b = rng.randrange(cfg.values_per_concept), rng.randrange(cfg.values_per_concept)
            recs = []
            for r in range(cfg.records_per_tool):
                rec = {
                    f"{sa}_cd": code(a, (k_a + r) % cfg.values_per_concept),
                    f"{sa}_nm": f"{sa} {r}",
                    f"{sb}_cd": code(b, (k_b + r // 2) % cfg.values_per_concept),
                    "reg_dt": f"2025{1 + r % 12:02d}{1 + r % 28:02d}", "use_yn": "Y", "seq_no": str(r + 1),
                }
                if decoy:
                    rec[f"{stem(d)}_no"] = f"9{rng.randrange(10 ** (code_len(d) - 1)):0{code_len(d) - 1}d}"
                recs.append(rec)
            records[tid] = recs
        platforms.append(Platform(id=pid, name=f"Synthetic {p}", name_ko=f"합성 {p}", domain=domain,  # type: ignore[arg-type]
                                  dialect="datagokr", host=f"{pid}.apis.example", key_env="KOPA_KEY_SYNTH",
                                  options=dict(OPTIONS), common_params=list(COMMON), endpoints=eps))
    cat = Catalog(platforms)
    tools = [cat.endpoints[k] for k in sorted(cat.endpoints)]
    return Synthetic(cat, tools, records, plan)


# ---- measures ------------------------------------------------------------------------------
def bench_candidates(cfg: Config, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Retrieval and offline proposal at each size."""
    rows = []
    for n in cfg.sizes:
        syn = synthetic_catalog(n, cfg)
        obs = syn.observations()
        log(f"[edge] candidates at {n:,} tools")
        pairs, t_ret = timed(lambda: Retriever().pairs(syn.tools, obs), cfg.reps)
        prop = OfflineProposer()
        bindings, t_prop = timed(lambda: list(prop.propose(syn.tools, obs)), cfg.reps)
        if not pairs or not bindings:
            raise BenchError(f"no candidates at n={n}: the synthetic names do not meet")
        if any(s == t for s, t in pairs):
            raise BenchError("a self-pair among the candidates")
        # Every proposal must be a real field → bindable param pair of the generated tools.
        for b in bindings:
            if b.target_param != syn.plan[b.target_tool][2]:
                raise BenchError(f"proposal {b.key} names a param the tool does not take")
        true_keys = {b.key for b in bindings if _truly_related(syn, b.source_tool, b.source_field, b.target_tool)}
        rows.append({
            "tools": n,
            "all_ordered_pairs": n * (n - 1),
            "candidate_pairs": len(pairs),
            "pairs_per_tool": len(pairs) / n,
            "candidate_share": len(pairs) / (n * (n - 1)),
            "retrieval": median_stats(t_ret),
            "retrieval_us_per_tool": statistics.median(t_ret) / n * 1e6,
            "proposal": median_stats(t_prop),
            "proposal_us_per_pair": statistics.median(t_prop) / len(pairs) * 1e6,
            "proposals": len(bindings),
            "proposals_same_concept": len(true_keys),
            "transforms": sum(1 for b in bindings if b.transform),
        })
    for key in ("retrieval", "proposal"):
        first, last = rows[0], rows[-1]
        growth = last[key]["median_s"] / first[key]["median_s"]
        last[f"{key}_growth"] = growth
        last[f"{key}_exponent"] = math.log(growth) / math.log(last["tools"] / first["tools"])
    return rows


def _truly_related(syn: Synthetic, src: str, fld: str, tgt: str) -> bool:
    """The source field holds codes of the concept the target takes (by construction)."""
    b = syn.plan[tgt][1]
    return fld == f"{stem(b)}_cd"


def _publish(syn: Synthetic, store: Store) -> tuple[float, str]:
    t0 = time.perf_counter()
    b = VersionBuilder(store, SET_NAME, syn.catalog, parent=None)
    for ep in syn.tools:
        b.add_collection(endpoint=ep.id, key=ep.id, filters={}, fmt="xml",
                         total=len(syn.records[ep.id]), records=syn.records[ep.id])
    m = b.publish(recorded_at="2026-01-01T00:00:00Z", source="test", version=f"n{len(syn.tools)}")
    return time.perf_counter() - t0, m.version


def bench_verification(cfg: Config, work: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """Publish the generated collections, observe, propose, verify; calls per second."""
    n = cfg.verify_tools
    syn = synthetic_catalog(n, cfg)
    store = Store(work / "cassettes", cache_dir=work / "cache")
    log(f"[edge] publishing {n:,} generated collections")
    publish_s, name = _publish(syn, store)
    t0 = time.perf_counter()
    version = store.open(SET_NAME, name)
    open_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    obs = Observations.from_version(version, syn.catalog)
    observe_s = time.perf_counter() - t0
    bindings = sorted({b.key: b for b in OfflineProposer().propose(syn.tools, obs)}.values(), key=lambda b: b.key)
    vcfg = VerifyConfig(iterations=cfg.iterations, paths_per_iteration=cfg.paths_per_iteration)
    states = [EdgeState.fresh(b, vcfg.prior_strength) for b in bindings]
    executor = SimExecutor(Resolver(version, syn.catalog, miss="strict"))
    verifier = Verifier(executor, obs, syn.catalog, random.Random(cfg.seed), vcfg)
    log(f"[edge] verifying {len(states):,} edges ({cfg.iterations} × {cfg.paths_per_iteration} paths)")
    gc.collect()
    t0 = time.perf_counter()
    verifier.run(states, version.content_hash)
    verify_s = time.perf_counter() - t0
    if verifier.calls == 0:
        raise BenchError("verification made no calls")
    status = {s: sum(1 for st in states if st.status == s) for s in ("verified", "unverified", "pruned")}
    trials = {k: sum(getattr(st, k) for st in states) for k in ("success", "structural", "environmental", "unknown")}
    if trials["success"] == 0 or trials["unknown"] > 0:
        raise BenchError(f"verification outcomes look wrong: {trials} (every call should be answered)")
    decoys_pruned = sum(1 for st in states if st.status == "pruned" and st.binding.source_field.endswith("_no"))
    decoys = sum(1 for st in states if st.binding.source_field.endswith("_no"))

    # The floor: the executor alone on the same kind of calls (a source value into the target).
    rng = random.Random(cfg.seed + 1)
    calls = []
    for _ in range(cfg.floor_calls):
        b = rng.choice(bindings)
        vals = obs.values(b.source_tool, b.source_field)
        calls.append((b.target_tool, {b.target_param: apply_transform(rng.choice(vals), b.transform)}))
    floor_ex = SimExecutor(Resolver(version, syn.catalog, miss="strict"))
    for tool, params in calls[:50]:
        floor_ex.call(tool, params)  # warm-up
    gc.collect()
    t0 = time.perf_counter()
    for tool, params in calls:
        if floor_ex.call(tool, params).outcome == "unknown":
            raise BenchError(f"floor call {tool} {params} missed")
    floor_s = time.perf_counter() - t0
    return {
        "tools": n,
        "edges": len(states),
        "publish_s": publish_s,
        "open_cold_s": open_s,
        "observe_s": observe_s,
        "verify_s": verify_s,
        "calls": verifier.calls,
        "calls_per_s": verifier.calls / verify_s,
        "us_per_call": verify_s / verifier.calls * 1e6,
        "floor_calls": len(calls),
        "floor_calls_per_s": len(calls) / floor_s,
        "floor_us_per_call": floor_s / len(calls) * 1e6,
        "loop_overhead": (verify_s / verifier.calls) / (floor_s / len(calls)),
        "status": status,
        "trials": trials,
        "decoys": decoys,
        "decoys_pruned": decoys_pruned,
    }


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    return {"cpu": cpu_name(), "cores": os.cpu_count(), "usable_cores": usable_cores(), "os": platform.platform(),
            "python": platform.python_version()}


def run(cfg: Config, work: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure everything and return the results document."""
    started = time.perf_counter()
    candidates = bench_candidates(cfg, log)
    verification = bench_verification(cfg, work, log)
    return {
        "benchmark": "edge",
        "schema": 1,
        "mode": cfg.mode,
        "generated_at": now_utc(),
        "command": "python -m perf.edge" + ("" if cfg.mode == "full" else " --quick"),
        "machine": machine(),
        "config": asdict(cfg),
        "retriever": asdict(Retriever()),
        "candidates": candidates,
        "verification": verification,
        "total_s": time.perf_counter() - started,
    }


# ---- the report ----------------------------------------------------------------------------
def render_markdown(doc: dict[str, Any]) -> str:
    """The edge section of ``RESULTS.md`` (between its markers)."""
    c, v, r = doc["candidates"], doc["verification"], doc["retriever"]
    m = doc["machine"]
    last = c[-1]
    lines = [
        "## EDGE: candidate retrieval and verification throughput",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run, {doc['total_s']:.0f} s) by:",
        "",
        "```sh",
        doc["command"],
        "```",
        "",
        f"Machine: {m['cpu']}, {m['usable_cores']} usable cores, Python {m['python']}.",
        "",
        f"Synthetic catalogs (real `Platform`/`Endpoint` models, data.go.kr dialect, 10 tools per "
        f"platform, n/5 name families); retriever k_same={r['k_same']}, k_cross={r['k_cross']}, "
        f"max_postings={r['max_postings']}. Median of {doc['config']['reps']} runs.",
        "",
        "| tools | candidate pairs | per tool | share of n·(n−1) | retrieval s | µs / tool | proposal s | µs / pair | proposals |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in c:
        lines.append(
            f"| {row['tools']:,} | {row['candidate_pairs']:,} | {row['pairs_per_tool']:.1f} | "
            f"{row['candidate_share'] * 100:.3f} % | {row['retrieval']['median_s']:.3f} | "
            f"{row['retrieval_us_per_tool']:.0f} | {row['proposal']['median_s']:.3f} | "
            f"{row['proposal_us_per_pair']:.0f} | {row['proposals']:,} |"
        )
    ratio = last["tools"] / c[0]["tools"]
    lines += [
        "",
        f"Growth from {c[0]['tools']:,} to {last['tools']:,} tools (×{ratio:.0f}): retrieval "
        f"×{last['retrieval_growth']:.1f} (exponent {last['retrieval_exponent']:.2f}), proposal "
        f"×{last['proposal_growth']:.1f} (exponent {last['proposal_exponent']:.2f}); linear is "
        f"×{ratio:.0f} (1.00), all pairs would be ×{ratio ** 2:.0f} (2.00).",
        "",
        f"Verification on {v['tools']:,} tools ({v['edges']:,} proposed edges; generated "
        f"collections published to a temp store in {v['publish_s']:.1f} s, index compiled in "
        f"{v['open_cold_s']:.1f} s, observed in {v['observe_s']:.1f} s):",
        "",
        "| measure | calls | calls / s | µs / call |",
        "|---|---:|---:|---:|",
        f"| Thompson-sampled verification loop (`Verifier` + `SimExecutor`) | {v['calls']:,} | "
        f"{v['calls_per_s']:,.0f} | {v['us_per_call']:.0f} |",
        f"| the executor alone (floor) | {v['floor_calls']:,} | {v['floor_calls_per_s']:,.0f} | "
        f"{v['floor_us_per_call']:.0f} |",
        "",
        f"Loop overhead over the floor: ×{v['loop_overhead']:.2f}. Outcome: {v['status']['verified']:,} "
        f"verified, {v['status']['unverified']:,} unverified, {v['status']['pruned']:,} pruned "
        f"({v['decoys_pruned']:,} of {v['decoys']:,} decoy `_no` bindings); trials {v['trials']}.",
        "",
        "- Every call is answered by the strict offline resolver (query tier over the generated "
        "full collections); a replay miss would stop the run. Wall-clock `time.perf_counter`, "
        "possibly shared machine. Full results: `perf/results/edge.json`.",
    ]
    return "\n".join(lines) + "\n"


def update_results_md(path: Path, section: str) -> None:
    """Replace the edge section of ``path`` (create the file if needed), keep the rest."""
    update_section(path, "edge", section)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m perf.edge [--quick] [--out DIR] [--markdown FILE]``."""
    p = base_parser("edge", (__doc__ or "").split("\n\n")[0], quick_help="small sizes (seconds; CI smoke)",
                    out_help="folder for edge.json (default: perf/results)",
                    markdown_help="RESULTS.md to update (default: beside --out's parent)")
    args = p.parse_args(list(argv) if argv is not None else None)
    cfg = QUICK if args.quick else FULL
    with tempfile.TemporaryDirectory(prefix="kopa-edge-perf-") as tmp:
        doc = run(cfg, Path(tmp), log=lambda s: print(s, file=sys.stderr, flush=True))
    out_json, md = write_results(doc, "edge", args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
