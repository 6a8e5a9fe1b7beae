"""The whole loop on the CPU with the tiny model: synthesize a small EDGE dataset, a real GRPO
step (TRL's GRPOTrainer, per-row tool scoping) whose tool calls the simulator executes, a saved
checkpoint, ``simulator train eval`` on it through the built-in OpenAI-compatible server, and
a report with the base and the trained model side by side.

A random tiny model never writes a tool call, so its first turn is constrained
(:func:`train.tiny.script_generation`, a logits processor inside the model's own ``generate``)
to the row's first gold call as a Qwen ``<tool_call>`` block; TRL parses and dispatches it to
the environment like any model's. Equal scores for base and trained are expected: the point is
that every seam runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("torch")

# Third-party deprecation chatter (torch / transformers / trl) is not ours to fix.
pytestmark = [pytest.mark.slow, *(pytest.mark.filterwarnings(f"ignore::{w}")
                                  for w in ("DeprecationWarning", "FutureWarning", "UserWarning"))]

from typer.testing import CliRunner  # noqa: E402

from bench.kopa.env import World  # noqa: E402
from edge.cli import edge_app  # noqa: E402
from simulator import Store  # noqa: E402
from train.cli import GRPORunConfig, run_grpo, train_app  # noqa: E402
from train.rewards import episode_evidence, make_reward  # noqa: E402
from train.serve import ChatModel  # noqa: E402
from train.tiny import script_generation, tiny_model_and_tokenizer  # noqa: E402

EVAL_TASK = "molit-trade-max-0"


def _first_call(row: dict[str, Any], world: World) -> dict[str, Any]:
    prog = json.loads(row["gold_program"])
    step = next(s for s in prog["steps"] if "call" in s)  # the first call: constant args only
    return {"name": step["call"], "arguments": dict(step.get("args", {}))}


def test_synthesize_train_checkpoint_eval_report(tmp_path: Path) -> None:
    os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"
    world = World(Store().open("kopa"))
    synth = tmp_path / "synth-out"
    res = CliRunner().invoke(edge_app, ["synthesize", "--n", "4", "--out", str(synth)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (synth / "trl.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["split"] == "train"][:2]
    assert len(rows) == 2 and all(r["platforms"] for r in rows)

    # The base model, saved like any checkpoint (the eval serves it from disk).
    plats = sorted({p for r in rows for p in r["platforms"]})
    texts = ([m["content"] for r in rows for m in r["prompt"]] + [r["answer"] for r in rows]
             + [json.dumps(t, ensure_ascii=False) for t in world.tools(plats)]) * 4
    model, tok = tiny_model_and_tokenizer(texts)
    base = tmp_path / "base"
    model.save_pretrained(base)
    tok.save_pretrained(base)

    calls = {r["prompt"][1]["content"]: _first_call(r, world) for r in rows}

    def script(prompt: str) -> str | None:
        if "<tool_response>" in prompt:
            return "답: 0"
        q = next(q for q in calls if q in prompt)
        return "<tool_call>\n" + json.dumps(calls[q], ensure_ascii=False) + "\n</tool_call>"

    script_generation(model, tok, script)
    seen: list[Any] = []
    reward = make_reward({"valid_tool_calls": 0.1, "all_pages_fetched": 0.1, "no_invented_codes": 0.1})

    def kopa_reward(completions: Any, **kw: Any) -> list[float | None]:
        seen.extend(kw["environments"])
        return reward(completions, **kw)

    out = tmp_path / "run"
    cfg = GRPORunConfig(model=str(base), output_dir=str(out), data=str(synth), limit=2, num_generations=2,
                        per_device_train_batch_size=2, max_completion_length=768, max_observation_chars=300,
                        max_tool_calling_iterations=2, max_steps=1, use_cpu=True, save_steps=1,
                        shaping={"valid_tool_calls": 0.1})
    trainer = run_grpo(cfg, model=model, tokenizer=tok, world=world, reward_funcs=[kopa_reward])
    assert trainer.state.global_step == 1
    # Per-row tool scoping: one environment per platform set, the row's tools only.
    assert set(trainer.environment_factories) == {"kopa_" + "_".join(r["platforms"]) for r in rows}
    # The scripted tool calls went through TRL's tool loop to the simulator.
    traces = [e.episode.trace for e in seen]
    assert traces and all(t and t[0].tool == calls[e.episode.example.question]["name"] for t, e in zip(traces, seen))
    assert all(t[0].ok and t[0].source in ("exact", "window", "query") for t in traces)
    assert all("page_gaps" in episode_evidence(e.episode) for e in seen)  # shaping scores synthesized rows
    assert (out / "checkpoint-1").is_dir() and (out / "model.safetensors").is_file()
    meta = json.loads((out / "kopa_run.json").read_text(encoding="utf-8"))
    assert meta["data"]["source"] == "edge synthesis" and meta["data"]["split"] == "train"
    assert meta["cassettes"]["content_hash"] == world.content_hash and meta["config"]["model"] == str(base)

    # The built-in server's parser reads the template's tool-call blocks back as OpenAI calls.
    q = rows[0]["prompt"][1]["content"]
    msg = ChatModel(model, tok).complete({"messages": rows[0]["prompt"], "tools": world.tools(rows[0]["platforms"]),
                                          "seed": 0})["choices"][0]["message"]
    assert msg["tool_calls"][0]["function"]["name"] == calls[q]["name"]
    assert json.loads(msg["tool_calls"][0]["function"]["arguments"]) == calls[q]["arguments"]

    # train eval: base (from kopa_run.json) and trained, served in turn, KOPA-Bench with k samples.
    ev = tmp_path / "eval"
    res = CliRunner().invoke(train_app, ["eval", str(out), "--out", str(ev), "--seeds", "2", "--k", "2",
                                         "--task", EVAL_TASK, "--backend", "builtin", "--max-tokens", "8",
                                         "--max-turns", "2", "--workers", "2", "--tools", "platform"])
    assert res.exit_code == 0, res.output
    report = json.loads((ev / "eval_report.json").read_text(encoding="utf-8"))
    assert [m["model"] for m in report["models"]] == ["base", "trained"]
    assert report["models"][0]["path"] == str(base) and report["meta"]["backend"] == "builtin"
    for m in report["models"]:
        assert m["episodes"] == 2 and m["tasks"] == 1 and 0.0 <= m["pass@1"] <= 1.0 and "pass@2" in m
        assert {"response", "action", "environment", "taxonomy"} <= set(m)
        assert sum(m["taxonomy"].values()) == round(2 * (1 - m["pass@1"]))
    md = (ev / "eval_report.md").read_text(encoding="utf-8")
    assert "| base |" in md and "| trained |" in md and "Failure taxonomy" in md
    assert (ev / "base" / "results.jsonl").is_file() and (ev / "trained" / "results.jsonl").is_file()
