"""Splits that hold out whole platforms, and contamination audits against another task set."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["BENCH_TASKS_DIR", "bench_edges", "bench_entities", "entity_overlap", "example_entities", "edge_jaccard", "load_task_edges", "split_by_platform", "verbatim_overlap"]


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
    """(source tool, target tool) of every data-flow handoff of a gold program (its JSON form);
    none for a row without a valid program."""
    from pydantic import ValidationError

    from simulator.tools import Program, program_edges

    try:
        return program_edges(prog if isinstance(prog, Program) else Program.model_validate(prog))
    except (ValidationError, TypeError):
        return set()


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


# ---- bench entities (held out by default) ---------------------------------------------------
def _yaml_loader() -> Any:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it: ~10x faster


_LOADER = _yaml_loader()
#: Where the KOPA-Bench task files live (read as data: ``edge`` does not import ``bench``).
BENCH_TASKS_DIR = Path(__file__).resolve().parents[2] / "bench" / "kopa" / "tasks"
_DATE_LIKE = re.compile(r"^(19|20)\d\d(0[1-9]|1[0-2])?(0[1-9]|[12]\d|3[01])?$")


#: A region's name (천안시, 강남구, 경기도, 대전광역시/계룡시): the scope of a question, not the
#: thing it asks about. A bench task over a city's bus stops does not make every question
#: about that city a leak (v0003's tasks cover every TAGO city of the shipped world).
_REGION = re.compile(r"^[가-힣]{1,10}(특별시|광역시|특별자치시|특별자치도|도|시|군|구)"
                     r"(/[가-힣]{1,10}(시|군|구))?$")


def _is_entity(value: Any) -> bool:
    """A name or a code worth holding out: not a date, a region, a short number or a flag."""
    if not isinstance(value, str):
        return False
    v = value.strip()
    if len(v) < 2 or _DATE_LIKE.match(v) or _REGION.match(v):
        return False
    if v.isdigit() and len(v) <= 3 or re.fullmatch(r"[A-Za-z]+[_:][A-Za-z0-9_:]*|[a-z][a-zA-Z]*", v):
        return False  # a flag, or a field name / transform of the program language
    return bool(re.search(r"[가-힣]", v)) or len(v) >= 4


#: Filter ops whose value is a keyword or a threshold (역, 공원, 50000), not a named thing.
_NOT_ENTITY_OPS = ("contains", "not_contains", "startswith", "endswith", "gt", "ge", "lt", "le")
_NOT_ENTITY_ROLES = ("page", "page_size", "range_start", "range_end", "format", "auth")


@lru_cache(maxsize=4096)
def _not_entity_params(tool: str | None) -> frozenset[str]:
    """Params of ``tool`` whose values are never entities: paging, format and auth params (a
    page size of 1000 is how a call reads, not what it asks about) and closed code lists
    (``reprt_code=11011``, the annual report, is in every financial-statement call)."""
    from simulator.catalog import load_catalog

    eps = load_catalog(tier="all").endpoints
    ep = eps.get(tool or "")
    params = ep.params if ep is not None else [p for e in eps.values() for p in e.params]
    return frozenset(p.name for p in params if p.role in _NOT_ENTITY_ROLES
                     or (ep is not None and p.enum and len(p.enum) <= 30))


def _constants(node: Any) -> list[str]:
    """Every constant string of a program tree (``$ref`` objects and their fields skipped,
    and the values of :func:`_not_entity_params`)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return []
        if node.get("op") in _NOT_ENTITY_OPS and "value" in node:
            node = {k: v for k, v in node.items() if k != "value"}
        if isinstance(node.get("args"), dict):
            skip = _not_entity_params(node.get("call"))
            node = {**node, "args": {a: w for a, w in node["args"].items() if a not in skip}}
        return [x for k, v in node.items()
                if k not in ("id", "op", "call", "field", "by", "from", "pages", "page_size", "max_pages")
                for x in _constants(v)]
    if isinstance(node, list):
        return [x for v in node for x in _constants(v)]
    return [str(node)] if isinstance(node, (str, int)) and not isinstance(node, bool) else []


def _keywords(node: Any) -> list[str]:
    """The keyword and threshold values of a program's filters (``contains 공원``)."""
    if isinstance(node, dict):
        own = [str(node["value"])] if node.get("op") in _NOT_ENTITY_OPS and "value" in node else []
        return own + [x for v in node.values() for x in _keywords(v)]
    if isinstance(node, list):
        return [x for v in node for x in _keywords(v)]
    return []


def bench_entities(directory: Path | None = None) -> set[str]:
    """Names and codes the KOPA-Bench tasks use: every constant argument and filter value of
    their gold programs and every quoted name of their questions (dates and short numbers
    aside). Empty when the task files are not there (an installed ``edge`` without ``bench``)."""
    import yaml

    d = Path(directory) if directory is not None else BENCH_TASKS_DIR
    out: set[str] = set()
    for path in sorted(d.glob("*.yaml")) if d.is_dir() else []:
        for task in yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or []:
            out |= {v for v in _constants(task.get("program", {})) if _is_entity(v)}
            keywords = set(_keywords(task.get("program", {})))  # quoted in the question too
            out |= {v for v in re.findall(r"'([^']+)'", task.get("question", ""))
                    if _is_entity(v) and v not in keywords}
    return out


def bench_edges(directory: Path | None = None) -> set[tuple[str, str]]:
    """The dependency edges (source tool, target tool) of the KOPA-Bench gold programs: what the
    audit compares. Empty when the task files are not there."""
    import yaml

    d = Path(directory) if directory is not None else BENCH_TASKS_DIR
    out: set[tuple[str, str]] = set()
    for path in sorted(d.glob("*.yaml")) if d.is_dir() else []:
        for task in yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or []:
            out |= _program_edges(task.get("program", {}))
    return out


def example_entities(e: dict[str, Any]) -> set[str]:
    """Names and codes an example uses: constant args and filter values of its program and
    the values passed between its calls."""
    out = {v for v in _constants([{k: x for k, x in s.items() if k in ("call", "args", "where")}
                                  for s in e["gold_program"]["steps"]]) if _is_entity(v)}
    out |= {v for v in e.get("bound_values", []) if _is_entity(v)}
    return out


def entity_overlap(examples: list[dict[str, Any]], entities: set[str]) -> dict[str, Any]:
    """Examples using any of ``entities`` and the entities shared."""
    hit = {e["id"]: sorted(example_entities(e) & entities) for e in examples}
    hit = {k: v for k, v in hit.items() if v}
    return {"examples_with_bench_entities": len(hit),
            "shared_entities": sorted({x for v in hit.values() for x in v})}
