"""Dataset writers: OpenAI-format conversations, a TRL-ready table, verl parquet.

Every file is written with sorted keys and no clock, so the same examples give the same
bytes. Conversations are rebuilt by executing each gold program (memoised calls): one
assistant turn per program call step (an ``each`` step is one turn of parallel calls), one
tool call per page, and tool results holding that page's records — projected to the fields
the program reads, so the files stay small; the RL rows carry no results at all (the
simulator answers the rollouts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simulator import Catalog, Resolver, Version

from .execute import PagedExecutor, run_program

__all__ = ["SYSTEM_PROMPT", "conversation", "have_parquet", "write_all"]

SYSTEM_PROMPT = (
    "당신은 한국 공공데이터 API 도구를 사용하는 조수입니다. 필요한 코드는 먼저 조회하고, "
    "결과가 여러 페이지면 모든 페이지를 확인한 뒤, 마지막에 '답: ...' 형식으로 답하세요."
)


def _lookup_only(program: dict[str, Any], sid: str) -> set[str] | None:
    """Where every read of call ``sid`` is a name lookup (``pick`` + ``where eq``): the names."""
    names: set[str] = set()
    for s in program["steps"]:
        if s.get("from") == sid or (s.get("label") or {}).get("from") == sid:
            if s.get("op") != "pick" or not s.get("where") or s["where"].get("op", "eq") != "eq":
                return None
            names.add(f"{s['where']['field']}\x00{s['where']['value']}")
    return names or None


def _fields_read(program: dict[str, Any]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for s in program["steps"]:
        src = s.get("from")
        if s.get("op") == "call":
            for b in s.get("bind", {}).values():
                out.setdefault(b["ref"], set())
            continue
        if not src:
            continue
        f = out.setdefault(src, set())
        for k in ("field", "key"):
            if s.get(k):
                f.add(s[k])
        if s.get("where"):
            f.add(s["where"]["field"])
        lab = s.get("label")
        if lab:
            out.setdefault(lab["from"], set()).update({lab["key"], lab["field"]})
    return out


def _sv(v: Any) -> str:
    from ..observe import scalar

    return scalar(v) or ""


def _visible(tool: str, args: dict[str, str], catalog: Catalog) -> dict[str, str]:
    ep = catalog.endpoint(tool)
    hidden = {p.name for p in ep.params if p.role in ("auth", "format")}
    return {k: v for k, v in sorted(args.items()) if k not in hidden}


def conversation(example: dict[str, Any], ex: PagedExecutor, catalog: Catalog) -> list[dict[str, Any]]:
    """The OpenAI messages of one example: system, user, tool calls + results, final answer."""
    prog = example["gold_program"]
    run = run_program(prog, ex)
    reads = _fields_read(prog)
    calls_by_field: dict[str, set[str]] = {}
    # step reading a call's values directly by bind: the bound step's own fields
    msgs: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT},
                                  {"role": "user", "content": example["question"]}]
    n = 0
    for s in prog["steps"]:
        if s.get("op") != "call" or s["id"] not in run.step_calls:
            continue
        keep = reads.get(s["id"], set()) | calls_by_field.get(s["id"], set())
        lookup = _lookup_only(prog, s["id"])
        tool_calls, results = [], []
        for res in run.step_calls[s["id"]]:
            start = 0
            for page in res.pages:
                n += 1
                cid = f"call_{n}"
                tool_calls.append({"id": cid, "type": "function", "function": {
                    "name": page.tool,
                    "arguments": json.dumps(_visible(page.tool, page.args, catalog), ensure_ascii=False, sort_keys=True)}})
                recs = res.records[start:start + page.count]
                start += page.count
                body: dict[str, Any] = {"totalCount": res.total}
                if lookup is not None and len(recs) > 50:
                    # A name lookup in a long list: only the rows it finds are kept (the rest
                    # would make one example megabytes); the count of the others is stated.
                    hit = [r for r in recs if any(f"{f}\x00{_sv(r.get(f))}" in lookup for f in keep)]
                    body["items"] = [{k: r.get(k) for k in sorted(keep) if k in r} for r in hit]
                    body["omitted_not_matching"] = len(recs) - len(hit)
                else:
                    body["items"] = [{k: r.get(k) for k in sorted(keep) if k in r} if keep else {} for r in recs]
                results.append({"role": "tool", "tool_call_id": cid, "name": page.tool,
                                "content": json.dumps(body, ensure_ascii=False, sort_keys=True)})
        msgs.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        msgs.extend(results)
    msgs.append({"role": "assistant", "content": example["answer_text"]})
    return msgs


def _schemas(example: dict[str, Any], catalog: Catalog) -> list[dict[str, Any]]:
    """The used tools plus the rest of their platforms' tools (the choice a model faces)."""
    plats = sorted(example["platforms"])
    return sorted(catalog.tools(platforms=plats), key=lambda t: json.dumps(t, sort_keys=True, ensure_ascii=False))


def have_parquet() -> bool:
    """Whether pyarrow is importable (verl rows are then written as parquet)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _line(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def write_all(examples: list[dict[str, Any]], out: Path, version: Version, catalog: Catalog,
              report: dict[str, Any] | None = None) -> dict[str, Path]:
    """Write ``examples.jsonl``, ``conversations.jsonl``, ``trl.jsonl``, ``verl.parquet`` (or
    ``verl.jsonl`` without pyarrow) and ``report.json`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    ex = PagedExecutor(Resolver(version, catalog, miss="strict"))
    paths = {k: out / f for k, f in (("examples", "examples.jsonl"), ("conversations", "conversations.jsonl"),
                                     ("trl", "trl.jsonl"))}
    verl_rows = []
    with (paths["examples"].open("w", encoding="utf-8") as fe, paths["conversations"].open("w", encoding="utf-8") as fc,
          paths["trl"].open("w", encoding="utf-8") as ft):
        for e in examples:
            fe.write(_line(e))
            tools = _schemas(e, catalog)
            fc.write(_line({"id": e["id"], "messages": conversation(e, ex, catalog), "tools": tools,
                            "junction": e["junction"], "split": e.get("split", "train")}))
            prompt = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": e["question"]}]
            ft.write(_line({"id": e["id"], "prompt": prompt, "answer": e["ground_truth"],
                            "gold_program": json.dumps(e["gold_program"], ensure_ascii=False, sort_keys=True),
                            "tools": [t["function"]["name"] for t in tools], "split": e.get("split", "train"),
                            "platforms": sorted(e["platforms"]), "cassettes": e["cassettes"]["content_hash"]}))
            verl_rows.append({
                "data_source": "kopa-edge",
                "prompt": prompt,
                "ability": "tool_use",
                "reward_model": {"style": "rule", "ground_truth": e["ground_truth"]},
                "extra_info": {"id": e["id"], "split": e.get("split", "train"), "platforms": sorted(e["platforms"]),
                               "gold_program": json.dumps(e["gold_program"], ensure_ascii=False, sort_keys=True),
                               "tools_kwargs": {t["function"]["name"]: {"create_kwargs": {
                                   "cassettes": e["cassettes"]["content_hash"], "episode_id": e["id"]}}
                                   for t in tools if t["function"]["name"] in e["tools"]}},
            })
    if have_parquet():
        import pyarrow as pa
        import pyarrow.parquet as pq

        # tools_kwargs differs in keys per row: stored as a JSON string to keep one schema.
        rows = [{**r, "extra_info": {**r["extra_info"], "tools_kwargs": json.dumps(r["extra_info"]["tools_kwargs"],
                                                                                   ensure_ascii=False, sort_keys=True)}}
                for r in verl_rows]
        paths["verl"] = out / "verl.parquet"
        pq.write_table(pa.Table.from_pylist(rows), paths["verl"], compression="zstd")
    else:
        paths["verl"] = out / "verl.jsonl"
        with paths["verl"].open("w", encoding="utf-8") as fv:
            for r in verl_rows:
                fv.write(_line(r))
    if report is not None:
        paths["report"] = out / "report.json"
        paths["report"].write_text(json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    return paths
