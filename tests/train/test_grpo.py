"""A real GRPO step on the CPU: tiny random Qwen3, local tokenizer, TRL's GRPOTrainer with the
kopa-sim environment (environment_factory) and with the rollout_func path (scripted tool call
turn, model-generated or scripted answer turn); rewards from KOPA-Bench's checker."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from simulator import load_catalog

pytest.importorskip("trl")
pytest.importorskip("torch")

pytestmark = [
    pytest.mark.slow,
    # Third-party deprecation chatter (torch / transformers / trl) is not ours to fix.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

from bench.kopa.env import World  # noqa: E402
from bench.kopa.tasks import load_tasks  # noqa: E402
from simulator import Store  # noqa: E402
from train.cli import GRPORunConfig, run_grpo  # noqa: E402
from train.env import EnvConfig, SimEpisode, example_from_task  # noqa: E402
from train.rewards import answer_reward  # noqa: E402
from train.tiny import tiny_model_and_tokenizer  # noqa: E402
from train.trl_adapter import make_rollout_func  # noqa: E402

#: The bench task these steps train on (its question names the district the lookup needs);
#: rows are repeated to fill a batch of two prompts.
TASK_IDS = ["molit-trade-max-0"]


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"
    # The curated tier: since platforms are the real providers, mois + molit of the full tier
    # offer ~1,200 tool schemas, a prompt a CPU step cannot prefill in CI's time.
    return World(shipped_store.open("kopa"), load_catalog(tier="curated"))


def _recording(fn: Any, log: list[dict[str, Any]]) -> Any:
    def reward(completions: Any, **kw: Any) -> list[float | None]:
        out = fn(completions, **kw)
        log.append({"out": out, "kw": kw, "completions": completions})
        return out  # type: ignore[no-any-return]
    reward.__name__ = "kopa_answer"
    return reward


def test_grpo_step_with_environment_factory(world: World, tmp_path: Any) -> None:
    tasks = [t for t in load_tasks() if t.id in TASK_IDS]
    rows = [example_from_task(t, world).row() for t in tasks]
    # Tool schemas in the tokenizer's corpus keep the prompts short (no byte-level fallback).
    texts = ([m["content"] for r in rows for m in r["prompt"]]
             + [json.dumps(t, ensure_ascii=False) for t in world.tools(["mois", "molit"])]) * 4
    model, tok = tiny_model_and_tokenizer(texts)
    log: list[dict[str, Any]] = []
    cfg = GRPORunConfig(output_dir=str(tmp_path / "out"), tasks=TASK_IDS, ablation_train_on_bench=True,
                        platforms=["mois", "molit"], num_generations=2, per_device_train_batch_size=2,
                        max_completion_length=24, max_tool_calling_iterations=2, max_steps=1, use_cpu=True,
                        save_strategy="no")
    trainer = run_grpo(cfg, model=model, tokenizer=tok, world=world,
                       reward_funcs=[_recording(answer_reward, log)])
    assert trainer.state.global_step == 1
    # The catalog tools were offered as the environment's methods, and the checker scored.
    assert "molit_apt_trades" in {getattr(t, "__name__", "") for t in trainer.tools}
    assert log and all(v in (0.0, 1.0) for call in log for v in call["out"])
    assert set(log[0]["kw"]["answer"]) <= {r["answer"] for r in rows}
    envs = log[0]["kw"]["environments"]
    assert all(isinstance(e.episode, SimEpisode) for e in envs)
    logged = trainer.state.log_history[0]
    assert "rewards/kopa_answer/mean" in logged
    meta = json.loads((tmp_path / "out" / "kopa_run.json").read_text(encoding="utf-8"))
    assert meta["data"]["source"] == "kopa-bench tasks (ablation)" and meta["data"]["ablation_train_on_bench"]
    assert (tmp_path / "out" / "model.safetensors").is_file()  # the final model is saved


def test_grpo_step_with_rollout_func_reaches_the_simulator(world: World, tmp_path: Any) -> None:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    tasks = [t for t in load_tasks() if t.id in TASK_IDS]
    exs = [example_from_task(t, world) for t in tasks]
    rows = [e.row() for e in exs] * 2
    # Tool schemas in the tokenizer's corpus keep the prompts short (no byte-level fallback).
    texts = ([m["content"] for r in rows for m in r["prompt"]]
             + [json.dumps(t, ensure_ascii=False) for t in world.tools(["mois", "molit"])]) * 4
    model, tok = tiny_model_and_tokenizer(texts)
    gold = {e.question: e.answer for e in exs}

    def scripted(conv: list[dict[str, Any]], ep: SimEpisode) -> str | None:
        if ep.turns == 0:  # first turn: the prerequisite code lookup, as a Qwen tool call
            q = ep.example.question if ep.example else ""
            region = q.split("서울특별시 ")[1].split("에서")[0]
            call = {"name": "mois_stan_regin_cd", "arguments": {"locatadd_nm": f"서울특별시 {region}"}}
            return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"
        # second turn: every other episode answers right (reward variance), the rest generate
        n = int(ep.episode_id.rsplit(":", 1)[1])
        return f"ANSWER: {gold[ep.example.question]}" if n % 2 == 0 and ep.example else None

    log: list[dict[str, Any]] = []
    rollout = make_rollout_func(rows, world, config=EnvConfig(max_turns=2, max_observation_chars=200),
                                tasks=tasks, max_new_tokens=8, scripted=scripted)
    args = GRPOConfig(output_dir=str(tmp_path / "out"), num_generations=2, per_device_train_batch_size=4,
                      max_completion_length=512, max_steps=1, use_cpu=True, bf16=False, report_to="none",
                      save_strategy="no", logging_steps=1, seed=0,
                      chat_template_kwargs={"enable_thinking": False})
    trainer = GRPOTrainer(model=model, processing_class=tok, args=args, train_dataset=Dataset.from_list(rows),
                          reward_funcs=[_recording(answer_reward, log)], rollout_func=rollout)
    trainer.train()
    assert trainer.state.global_step == 1
    kw = log[0]["kw"]
    traces = [json.loads(t) for t in kw["trace"]]
    assert len(traces) == 4 and all(t and t[0]["tool"] == "mois_stan_regin_cd" and t[0]["ok"] for t in traces)
    assert all(t[0]["source"] in ("exact", "window", "query") for t in traces)
    # Rewards come from the checker: the scripted right answers score 1, generated text 0.
    assert sorted(log[0]["out"]) == [0.0, 0.0, 1.0, 1.0]
    assert trainer.state.log_history[0]["rewards/kopa_answer/mean"] == pytest.approx(0.5)


def test_grpo_cli_runs_on_synthesized_data_with_a_config_lora_and_overrides(tmp_path: Any) -> None:
    """`simulator train grpo --config C.yaml` on synthesized rows: tiny model, a LoRA adapter,
    flags over the YAML, per-row tool scoping, run metadata, checkpoint and saved adapter."""
    pytest.importorskip("peft")
    from typer.testing import CliRunner

    from tests.train.test_data import _synth_row, _write
    from train.cli import train_app

    data = tmp_path / "synth-out"
    data.mkdir()
    _write(data / "trl.jsonl", [_synth_row(0), _synth_row(1), _synth_row(2, split="heldout")])
    cfg = tmp_path / "c.yaml"
    cfg.write_text(json.dumps({  # JSON is YAML
        "model": "tiny", "data": str(data), "version": "v0001", "use_cpu": True, "use_vllm": False,
        "bf16": False,
        "num_generations": 2, "per_device_train_batch_size": 2, "max_completion_length": 16,
        "max_steps": 5, "save_steps": 1, "max_tool_calling_iterations": 1,
        "shaping": {"all_pages_fetched": 0.1},
        "lora": {"r": 4, "alpha": 8, "target_modules": ["q_proj", "v_proj"]}}), encoding="utf-8")
    out = tmp_path / "run"
    res = CliRunner().invoke(train_app, ["grpo", "--config", str(cfg), "--max-steps", "1",
                                         "--output-dir", str(out)])
    assert res.exit_code == 0, res.output
    assert '"steps": 1,' in res.output and not (out / "checkpoint-2").exists()  # the flag beat the YAML's 5
    meta = json.loads((out / "kopa_run.json").read_text(encoding="utf-8"))
    assert meta["data"]["rows"] == 2 and meta["data"]["split"] == "train" and meta["config"]["lora"]["r"] == 4
    assert (out / "checkpoint-1").is_dir() and (out / "adapter_config.json").is_file()
