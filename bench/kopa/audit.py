"""Contamination audit of KOPA-Bench against an EDGE dataset (``simulator edge synthesize``).

Three measures, each overall and per held-out split:

- **Dependency-edge Jaccard.** An edge is a consecutive data-flow tool pair ``a->b``: tool
  ``b`` takes an argument (or its fan-out list) from tool ``a``'s output, directly or through
  op steps only (not through another call). Self-edges (``a->a``) are left out, as EDGE's own
  audit does. Synthesized edges come from each example's ``edges`` field (or, for rows
  without it, from its ``gold_program`` via :func:`edge.synth.splits.example_edges`).
- **Verbatim questions.** Whitespace-normalised equality
  (:func:`edge.synth.splits.verbatim_overlap`).
- **Contamination by content** (``content``): each example's gold program re-run on the
  cassette version its rows name; the examples that make a call a bench gold program makes
  (tool + record-selecting arguments) and those whose tool messages show a whole record set
  a bench answer is computed from, with their ids and the bench tasks they touch
  (:func:`edge.synth.contamination.content_audit`). Skipped, with the reason, when the rows
  carry no version or the version cannot be opened here.
- **Near-verbatim questions.** Character 5-gram shingles of the NFKC-normalised question with
  whitespace and punctuation removed; a bench/synthesized pair whose shingle sets have a
  Jaccard similarity of at least ``near_threshold`` (default 0.5) and that is not verbatim.
  Shingles catch reworded templates ("…몇 건인가요?" vs "…몇 건입니까?") that exact matching
  misses, while a shared entity name alone (a law title, a school) stays well below 0.5.

Splits: bench tasks are ``heldout`` when they touch a held-out platform (the runner's split),
``seen`` otherwise; synthesized examples keep their own ``split`` field (``train`` /
``heldout``, from :func:`edge.synth.splits.split_by_platform`). The pair that matters most is
bench ``heldout`` × synthesized ``train``: any shared edge there means a held-out platform's
chains were trained on.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from edge.synth.contamination import bench_versions, content_audit, gold_holdout
from edge.synth.pipeline import matched_distinct
from edge.synth.splits import edge_jaccard, example_edges, verbatim_overlap

from simulator.tools import program_edges

from .program import Program
from .runner import DEFAULT_HELDOUT
from .tasks import Task
from .errors import BenchError

__all__ = [
    "AuditError",
    "NEAR_N",
    "NEAR_THRESHOLD",
    "audit",
    "audit_table",
    "content_contamination",
    "export_tasks",
    "load_edge_dataset",
    "matched_diversity",
    "overlap_failures",
    "shingles",
    "task_edges",
]

#: Character n-gram length of the near-verbatim shingles.
NEAR_N = 5
#: Shingle Jaccard at or above which two questions are near-verbatim.
NEAR_THRESHOLD = 0.5
EXAMPLES = "examples.jsonl"

Edge = tuple[str, str]


class AuditError(BenchError):
    """The EDGE dataset directory is missing or malformed (the message names the fix)."""


# ---- bench side ---------------------------------------------------------------------------


def task_edges(program: Program) -> set[Edge]:
    """Consecutive data-flow tool pairs ``(a, b)`` of a gold program (self-pairs left out):
    :func:`simulator.tools.program_edges`, the rule EDGE's audit uses too."""
    return program_edges(program)


def export_tasks(tasks: list[Task], path: Path) -> int:
    """Write ``tasks`` as JSONL rows EDGE's own audit reads (``simulator edge synthesize --tasks``).

    Each row has ``id``, ``question``, ``platforms`` and the ``gold_program`` in its JSON form
    (the one language: :class:`simulator.tools.Program`), so
    :func:`edge.synth.splits.load_task_edges` finds the same edges as :func:`task_edges`.
    Returns the number of rows.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for t in tasks:
            row = {"id": t.id, "question": t.question, "platforms": t.platforms,
                   "gold_program": t.program.model_dump(mode="json", by_alias=True, exclude_defaults=True)}
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    return len(tasks)


# ---- EDGE side ----------------------------------------------------------------------------


def load_edge_dataset(directory: Path) -> dict[str, Any]:
    """Examples and provenance of an EDGE dataset directory; raises :class:`AuditError`."""
    directory = Path(directory)
    path = directory / EXAMPLES
    if not directory.is_dir():
        raise AuditError(f"--edge {str(directory)!r} is not a directory: pass the --out directory of "
                         "`simulator edge synthesize`")
    if not path.exists():
        raise AuditError(f"{str(directory)!r} has no {EXAMPLES}: pass the --out directory of "
                         "`simulator edge synthesize`")
    raw = path.read_bytes()
    examples: list[dict[str, Any]] = []
    for no, line in enumerate(raw.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AuditError(f"{path}:{no}: not JSON ({exc.msg}); re-run `simulator edge synthesize`") from exc
        missing = [k for k in ("question",) if not isinstance(row.get(k), str)]
        if not isinstance(row, dict) or missing or ("edges" not in row and "gold_program" not in row):
            raise AuditError(f"{path}:{no}: an example needs 'question' and 'edges' (or 'gold_program'); "
                             f"got keys {sorted(row) if isinstance(row, dict) else type(row).__name__}")
        row.setdefault("id", f"line{no}")
        row.setdefault("split", "train")
        examples.append(row)
    if not examples:
        raise AuditError(f"{path} holds no examples")
    report_path = directory / "report.json"
    holdout: list[str] | None = None
    if report_path.exists():
        try:
            rep = json.loads(report_path.read_text(encoding="utf-8"))
            holdout = list((rep.get("splits") or {}).get("holdout") or [])
        except (json.JSONDecodeError, AttributeError):
            holdout = None
    hashes = sorted({str((e.get("cassettes") or {}).get("content_hash", "")) for e in examples} - {""})
    return {
        "examples": examples,
        "info": {"dir": str(directory), "examples": len(examples),
                 "sha256": hashlib.sha256(raw).hexdigest(), "holdout": holdout,
                 "content_hashes": hashes},
    }


def _edges_of(example: dict[str, Any]) -> set[Edge]:
    if isinstance(example.get("edges"), list):
        out: set[Edge] = set()
        for s in example["edges"]:
            a, sep, b = str(s).partition("->")
            if sep and a and b and a != b:
                out.add((a, b))
        return out
    return {e for e in example_edges([example]) if e[0] != e[1]}


# ---- questions ----------------------------------------------------------------------------


def _norm(q: str) -> str:
    return " ".join(q.split())


def shingles(question: str, n: int = NEAR_N) -> frozenset[str]:
    """Character ``n``-grams of ``question`` (NFKC, no whitespace or punctuation, lowercased)."""
    text = "".join(ch for ch in unicodedata.normalize("NFKC", question).lower()
                   if ch.isalnum())
    if len(text) <= n:
        return frozenset([text]) if text else frozenset()
    return frozenset(text[i:i + n] for i in range(len(text) - n + 1))


def _near_pairs(tasks: list[Task], examples: list[dict[str, Any]],
                threshold: float) -> tuple[list[dict[str, Any]], dict[tuple[str, str], float]]:
    """Pairs at or above ``threshold``; each (task, example split)'s highest similarity."""
    best: dict[tuple[str, str], float] = {}
    index: dict[str, list[int]] = defaultdict(list)
    sh_ex = [shingles(e["question"]) for e in examples]
    for i, sh in enumerate(sh_ex):
        for g in sh:
            index[g].append(i)
    pairs = []
    for t in tasks:
        st = shingles(t.question)
        if not st:
            continue
        shared: dict[int, int] = defaultdict(int)
        for g in st:
            for i in index.get(g, ()):
                shared[i] += 1
        for i, k in shared.items():
            sim = k / (len(st) + len(sh_ex[i]) - k)
            key = (t.id, str(examples[i]["split"]))
            best[key] = max(best.get(key, 0.0), round(sim, 4))
            if sim >= threshold and _norm(t.question) != _norm(examples[i]["question"]):
                pairs.append({"task": t.id, "example": examples[i]["id"], "similarity": round(sim, 4),
                              "task_question": t.question, "example_question": examples[i]["question"]})
    pairs.sort(key=lambda p: (-p["similarity"], p["task"], p["example"]))
    return pairs, best


# ---- the audit ----------------------------------------------------------------------------


def _measure(tasks: list[Task], examples: list[dict[str, Any]], t_edges: dict[str, set[Edge]],
             e_edges: dict[str, set[Edge]], near: list[dict[str, Any]],
             best: dict[tuple[str, str], float]) -> dict[str, Any]:
    mine: set[Edge] = set().union(*(t_edges[t.id] for t in tasks)) if tasks else set()
    theirs: set[Edge] = set().union(*(e_edges[e["id"]] for e in examples)) if examples else set()
    shared = mine & theirs
    verbatim_ex = set(verbatim_overlap(examples, [t.question for t in tasks]))
    vq = {_norm(e["question"]) for e in examples if e["id"] in verbatim_ex}
    task_ids = {t.id for t in tasks}
    ex_ids = {e["id"] for e in examples}
    nr = [p for p in near if p["task"] in task_ids and p["example"] in ex_ids]
    return {
        "tasks": len(tasks), "examples": len(examples),
        "edges_bench": len(mine), "edges_synth": len(theirs), "edges_shared": len(shared),
        "edge_jaccard": edge_jaccard(mine, theirs),
        "bench_edges_covered": round(len(shared) / len(mine), 4) if mine else 0.0,
        "tasks_with_shared_edge": sum(1 for t in tasks if t_edges[t.id] & theirs),
        "verbatim_tasks": sorted(t.id for t in tasks if _norm(t.question) in vq),
        "verbatim_examples": len(verbatim_ex),
        "near_verbatim_tasks": sorted({p["task"] for p in nr}),
        "near_verbatim_pairs": len(nr),
        "max_question_similarity": max((best.get((t.id, sp), 0.0) for t in tasks
                                        for sp in {str(e["split"]) for e in examples}), default=0.0),
        "shared_edges": sorted(f"{a}->{b}" for a, b in shared),
    }


def content_contamination(tasks: list[Task], examples: list[dict[str, Any]], *, version: Any = None,
                          store: Any = None) -> dict[str, Any]:
    """Examples that make a bench gold call or show a gold record set (module docstring), on
    ``version`` (default: the one the examples name, opened from ``store`` or the default
    store); ``{"skipped": reason}`` when there is none to run them on."""
    from simulator import SimulatorError, Store, load_catalog

    if version is None:
        named = sorted({(str(c.get("set", "")), str(c.get("version", "")), str(c.get("content_hash", "")))
                        for c in (e.get("cassettes") for e in examples) if isinstance(c, dict)})
        if len(named) != 1 or not all(named[0][:2]):
            return {"skipped": "the examples name no single cassette version ('cassettes' of each row): "
                               "content not checked"}
        set_name, vid, chash = named[0]
        try:
            version = (store or Store()).open(set_name, vid)
        except SimulatorError as exc:
            return {"skipped": f"cannot open {set_name}@{vid} here ({exc}): pass the cassettes it was made on"}
        if chash and version.content_hash != chash:
            return {"skipped": f"{set_name}@{vid} here has content hash {version.content_hash[:12]}, the examples "
                               f"were made on {chash[:12]}: content not checked"}
    catalog = load_catalog()
    hold = gold_holdout(version, catalog, tasks=[(t.id, t.program) for t in tasks],
                        also=bench_versions(version, store))
    return content_audit(examples, version, catalog, hold)


def audit(
    tasks: list[Task],
    edge_dir: Path,
    *,
    heldout: Iterable[str] = DEFAULT_HELDOUT,
    near_threshold: float = NEAR_THRESHOLD,
    version: Any = None,
    store: Any = None,
) -> dict[str, Any]:
    """Audit ``tasks`` against the EDGE dataset in ``edge_dir``; a JSON-ready dict.

    ``splits`` holds one entry per (bench split, synthesized split) pair, ``bench`` being
    ``all`` / ``heldout`` / ``seen`` and ``synth`` being ``all`` or a split name of the dataset.
    """
    if not 0.0 < near_threshold <= 1.0:
        raise AuditError(f"near_threshold={near_threshold!r} must be in (0, 1]")
    data = load_edge_dataset(edge_dir)
    examples = data["examples"]
    hold = tuple(heldout)
    t_edges = {t.id: task_edges(t.program) for t in tasks}
    e_edges = {e["id"]: _edges_of(e) for e in examples}
    near, best = _near_pairs(tasks, examples, near_threshold)
    bench_splits = {"all": tasks,
                    "heldout": [t for t in tasks if set(t.platforms) & set(hold)],
                    "seen": [t for t in tasks if not set(t.platforms) & set(hold)]}
    synth_splits: dict[str, list[dict[str, Any]]] = {"all": examples}
    for e in examples:
        synth_splits.setdefault(str(e["split"]), []).append(e)
    splits = {f"{b}/{s}": _measure(bt, se, t_edges, e_edges, near, best)
              for b, bt in bench_splits.items() for s, se in synth_splits.items()}
    return {
        "edge_dataset": data["info"],
        "bench": {"tasks": len(tasks), "heldout_platforms": list(hold)},
        "method": {"edge": "consecutive data-flow tool pair a->b (through op steps, self-pairs left out)",
                   "verbatim": "whitespace-normalised equality",
                   "near_verbatim": f"character {NEAR_N}-gram shingle Jaccard >= {near_threshold} "
                                    "(NFKC, lowercased, whitespace and punctuation removed), not verbatim"},
        "overall": splits["all/all"],
        "splits": splits,
        "near_verbatim": near[:50],
        "diversity": matched_diversity([t.question for t in tasks], [str(e["question"]) for e in examples]),
        "content": content_contamination(tasks, examples, version=version, store=store),
    }


def matched_diversity(bench: list[str], synth: list[str]) -> dict[str, Any]:
    """Word distinct-1..4 of the bench's and the EDGE set's questions at one set size (the
    smaller set's; distinct-n falls as a set grows), and whether the EDGE set is at least as
    diverse at every n (issue 20's target)."""
    size = min(len(bench), len(synth))
    b, s = matched_distinct(bench, size), matched_distinct(synth, size)
    return {"size": size, "bench": b, "edge": s, "edge_at_least_bench": all(s[k] >= b[k] for k in b)}


def overlap_failures(result: dict[str, Any], max_jaccard: float | None = None) -> list[str]:
    """Why ``--fail-on-overlap`` fails: shared questions, held-out leakage, too high a Jaccard."""
    out: list[str] = []
    ov = result["overall"]
    if ov["verbatim_tasks"]:
        out.append(f"{len(ov['verbatim_tasks'])} bench questions appear verbatim in the EDGE set: "
                   f"{', '.join(ov['verbatim_tasks'][:5])}")
    if ov["near_verbatim_tasks"]:
        out.append(f"{len(ov['near_verbatim_tasks'])} bench questions are near-verbatim in the EDGE set: "
                   f"{', '.join(ov['near_verbatim_tasks'][:5])}")
    leak = result["splits"].get("heldout/train")
    if leak and leak["edges_shared"]:
        out.append(f"held-out bench tasks share {leak['edges_shared']} dependency edges with the EDGE "
                   f"train split ({', '.join(leak['shared_edges'][:3])}…): synthesize with "
                   f"--holdout {','.join(result['bench']['heldout_platforms'])}")
    content = result.get("content") or {}
    for key, what in (("gold_call_examples", "make a bench gold call"),
                      ("gold_record_examples", "show a whole record set a bench gold is computed from")):
        hit = content.get(key) or {}
        if hit:
            n = content["examples_making_gold_call" if key == "gold_call_examples" else "examples_showing_gold_records"]
            out.append(f"{n} EDGE examples {what}: {', '.join(list(hit)[:5])} (synthesize again: held out "
                       "by default, kept only with --allow-bench-gold)")
    if max_jaccard is not None and ov["edge_jaccard"] > max_jaccard:
        out.append(f"edge Jaccard {ov['edge_jaccard']} > --max-jaccard {max_jaccard}")
    return out


def audit_table(result: dict[str, Any]) -> list[str]:
    """The per-split audit as Markdown table lines."""
    lines = ["| bench split × EDGE split | tasks | examples | edges bench/synth/shared | edge Jaccard | "
             "verbatim | near-verbatim |", "|---|---|---|---|---|---|---|"]
    for name, m in result["splits"].items():
        lines.append(f"| {name} | {m['tasks']} | {m['examples']} | {m['edges_bench']}/{m['edges_synth']}/"
                     f"{m['edges_shared']} | {m['edge_jaccard']:.4f} | {len(m['verbatim_tasks'])} | "
                     f"{len(m['near_verbatim_tasks'])} |")
    return lines
