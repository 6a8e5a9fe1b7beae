"""Splits that hold out whole platforms, and contamination audits against another task set."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["edge_jaccard", "load_task_edges", "split_by_platform", "verbatim_overlap"]


def split_by_platform(examples: list[dict[str, Any]], holdout: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """``train``: examples touching no held-out platform; ``heldout``: the others. Sets ``split``."""
    hold = set(holdout)
    out: dict[str, list[dict[str, Any]]] = {"train": [], "heldout": []}
    for e in examples:
        s = "heldout" if hold & set(e["platforms"]) else "train"
        e["split"] = s
        out[s].append(e)
    return out


def _program_edges(prog: Any) -> set[tuple[str, str]]:
    steps = prog.get("steps") if isinstance(prog, dict) else prog
    if not isinstance(steps, list):
        return set()
    tool_of: dict[str, str] = {}
    src_of: dict[str, set[str]] = {}
    edges: set[tuple[str, str]] = set()
    calls: list[str] = []
    for s in steps:
        if not isinstance(s, dict):
            continue
        sid = str(s.get("id", len(tool_of)))
        tool = s.get("tool")
        refs = [b.get("ref") for b in (s.get("bind") or {}).values() if isinstance(b, dict)]
        if s.get("each"):
            refs.append(s["each"].get("ref"))
        for k in ("from", "ref"):
            if isinstance(s.get(k), str):
                refs.append(s[k])
        origins: set[str] = set()
        for r in refs:
            if r in tool_of:
                origins.add(tool_of[r])
            origins |= src_of.get(r, set())
        if tool:
            tool_of[sid] = tool
            calls.append(tool)
            edges |= {(o, tool) for o in origins if o != tool}
        else:
            src_of[sid] = origins
    if not edges and len(calls) > 1:  # a format without data-flow references: consecutive calls
        edges = {(a, b) for a, b in zip(calls, calls[1:]) if a != b}
    return edges


def load_task_edges(path: Path) -> tuple[set[tuple[str, str]], list[str]]:
    """Dependency edges and questions of a JSONL task file whose rows carry ``gold_program``."""
    edges: set[tuple[str, str]] = set()
    questions: list[str] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        edges |= _program_edges(row.get("gold_program"))
        q = row.get("question") or row.get("query") or row.get("instruction")
        if isinstance(q, str):
            questions.append(q)
    return edges, questions


def example_edges(examples: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """Dependency edges (source tool, target tool) of synthesized examples."""
    out: set[tuple[str, str]] = set()
    for e in examples:
        out |= _program_edges(e["gold_program"])
    return out


def edge_jaccard(a: Iterable[tuple[str, str]], b: Iterable[tuple[str, str]]) -> float:
    """|A ∩ B| / |A ∪ B| of two edge sets (0.0 when both are empty)."""
    sa, sb = {tuple(x) for x in a}, {tuple(x) for x in b}
    union = sa | sb
    return round(len(sa & sb) / len(union), 6) if union else 0.0


def verbatim_overlap(examples: list[dict[str, Any]], questions: Iterable[str]) -> list[str]:
    """Ids of examples whose question appears verbatim (whitespace-normalised) among ``questions``."""
    norm = {" ".join(q.split()) for q in questions}
    return [e["id"] for e in examples if " ".join(e["question"].split()) in norm]


def audit(examples: list[dict[str, Any]], tasks: Path | None = None,
          edges: Iterable[tuple[str, str]] | None = None) -> dict[str, Any]:
    """Edge Jaccard and verbatim question overlap against a task file (or an edge list)."""
    mine = example_edges(examples)
    if tasks is None and edges is None:
        return {"skipped": "no task set given (bench tasks JSONL with gold_program); audit not run"}
    if tasks is not None and not Path(tasks).exists():
        return {"skipped": f"task file {str(tasks)!r} does not exist; audit not run"}
    other: set[tuple[str, str]] = set(tuple(x) for x in (edges or []))  # type: ignore[misc]
    qs: list[str] = []
    if tasks is not None:
        e2, qs = load_task_edges(Path(tasks))
        other |= e2
    return {"edges_synth": len(mine), "edges_tasks": len(other), "edge_jaccard": edge_jaccard(mine, other),
            "shared_edges": sorted(f"{a}->{b}" for a, b in mine & other),
            "verbatim_questions": verbatim_overlap(examples, qs)}
