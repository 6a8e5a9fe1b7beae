"""Dataset writers: OpenAI-format conversations, a TRL-ready table, verl parquet.

Every file is written with sorted keys and no clock, so the same examples give the same
bytes. Conversations are rebuilt by executing each gold program (memoised calls): one
assistant turn per program call step (a ``foreach`` step is one turn of parallel calls), one
tool call per page, and each tool result the text the environment returns to the policy for
that page (the native body within the observation budget); the RL rows carry no results at
all (the simulator answers the rollouts).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simulator import Catalog, Endpoint, Resolver, Version

from simulator.tools import ToolCaller
from simulator.tools.observation import observation_text

from .execute import ProgramRunner

__all__ = ["CONVERSATION_BUDGET", "SYSTEM_PROMPT", "TOOL_MESSAGE_BUDGET", "conversation", "have_parquet", "write_all"]

SYSTEM_PROMPT = (
    "당신은 한국 공공데이터 API 도구를 사용하는 조수입니다. 필요한 코드는 먼저 조회하고, "
    "결과가 여러 페이지면 모든 페이지를 확인한 뒤, 마지막에 '답: ...' 형식으로 답하세요."
)


#: Characters at most in one tool message: the GRPO environment's observation budget
#: (``train`` ``max_observation_chars``), so no message a model trains on is one it would see cut.
TOOL_MESSAGE_BUDGET = 20_000
#: Characters at most in one conversation's tool messages (with the question and the schemas
#: this stays inside a 32k-token context).
CONVERSATION_BUDGET = 100_000
#: Page sizes a synthesized conversation asks for: the largest whose page fits the budget.
PAGE_SIZES = (1000, 500, 100, 50, 30, 20, 10)


def fitting_page_size(resolver: Resolver) -> Callable[[Endpoint, dict[str, str]], int]:
    """Records per page for a call: the largest of ``PAGE_SIZES`` whose page of native text
    fits ``TOOL_MESSAGE_BUDGET`` (measured on a 10-record probe in the environment's format of that same call; the same
    call always gets the same size, so conversations are rebuilt byte for byte)."""
    caller = ToolCaller(resolver, fmt="record", memo_size=0)
    sizes: dict[str, int] = {}

    def size(ep: Endpoint, args: dict[str, str]) -> int:
        key = ep.id + json.dumps(args, sort_keys=True, ensure_ascii=False)
        if key not in sizes:
            from simulator.tools import page_args

            probe = caller.call(ep.id, {**args, **page_args(ep, 0, 10)})
            per = len(probe.text) / max(1, min(10, len(probe.records)))
            sizes[key] = next((n for n in PAGE_SIZES if n * per <= 0.9 * TOOL_MESSAGE_BUDGET), PAGE_SIZES[-1])
        return sizes[key]

    return size


def _visible(tool: str, args: dict[str, str], catalog: Catalog) -> dict[str, str]:
    ep = catalog.endpoint(tool)
    hidden = {p.name for p in ep.params if p.role in ("auth", "format")}
    return {k: v for k, v in sorted(args.items()) if k not in hidden}


def conversation(example: dict[str, Any], ex: ProgramRunner, catalog: Catalog,
                 max_chars: int = TOOL_MESSAGE_BUDGET) -> list[dict[str, Any]]:
    """The OpenAI messages of one example: system, user, tool calls + results, final answer.

    Each tool message is what the environment returns to the policy for that page request:
    the body in the environment's format, as text within the observation budget
    (:func:`simulator.tools.observation.observation_text`, the function the bench ``ToolEnv``
    and the GRPO environment use), never a condensed view.
    """
    run = ex.run(example["gold_program"])
    caller = _caller(ex)
    msgs: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT},
                                  {"role": "user", "content": example["question"]}]
    n = 0
    for pages in run.pages.values():
        if not pages:
            continue  # a guarded call that did not run
        tool_calls, results = [], []
        for page in pages:
            n += 1
            cid = f"call_{n}"
            tool_calls.append({"id": cid, "type": "function", "function": {
                "name": page.tool,
                "arguments": json.dumps(_visible(page.tool, page.args, catalog), ensure_ascii=False, sort_keys=True)}})
            text = observation_text(caller.call(page.tool, page.args), max_chars)
            results.append({"role": "tool", "tool_call_id": cid, "name": page.tool, "content": text})
        msgs.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        msgs.extend(results)
    msgs.append({"role": "assistant", "content": example["answer_text"]})
    return msgs


def _caller(ex: ProgramRunner) -> ToolCaller:
    """A memoising caller on ``ex``'s resolver in the format the environment asks for
    (``fmt="record"``, as the bench ``World`` and the GRPO environment call), one per executor
    (:attr:`ProgramRunner.record_caller`)."""
    return ex.record_caller


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
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
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
        # Which version (and tier) the dataset was made on, as every research output says.
        m = version.manifest
        report = {**report, "cassettes": {"set": m.set, "version": m.version, "content_hash": m.content_hash},
                  "catalog": getattr(catalog, "tier", None), "world": m.world}
        paths["report"] = out / "report.json"
        paths["report"].write_text(json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    return paths
