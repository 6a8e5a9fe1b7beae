"""``simulator train learn-check`` and what it rests on: the shipped rows and conversations, the
SFT mask, the zero-spread warning, the base model of a tiny run; the check itself (slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("trl")
pytest.importorskip("torch")

pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}")
              for w in ("DeprecationWarning", "FutureWarning", "UserWarning")]

from bench.kopa.env import World  # noqa: E402
from simulator import Store  # noqa: E402
from train.cli import GRPORunConfig, build_dataset_rows, train_app, zero_spread_callback  # noqa: E402
from train.evaluate import base_model_of  # noqa: E402
from train.learn_check import _sft_example, load_learn_check_data  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(Store(cache_dir=tmp_path_factory.mktemp("lc-cache")).open("kopa", load_learn_check_data()["version"]))


def test_shipped_rows_load_as_training_rows(world: World, tmp_path: Path) -> None:
    data = load_learn_check_data()
    path = tmp_path / "trl.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data["trl"]), encoding="utf-8")
    # Same checks as `train grpo`: not bench tasks, synthesized on this very version.
    rows, meta = build_dataset_rows(GRPORunConfig(data=str(path), version=data["version"]), world)
    assert len(rows) == len(data["conversations"]) == 2
    assert meta["cassettes"]["content_hash"] == world.content_hash
    for r, c in zip(rows, data["conversations"]):
        assert r["prompt"][-1]["content"] == c["messages"][1]["content"]
        assert c["messages"][-1]["content"].startswith("답:")


def test_sft_mask_covers_assistant_turns_only(world: World) -> None:
    from train.tiny import tiny_model_and_tokenizer

    conv = load_learn_check_data()["conversations"][0]["messages"]
    _, tok = tiny_model_and_tokenizer([json.dumps(m, ensure_ascii=False) for m in conv] * 4)
    ids, mask = _sft_example(tok, conv, [], {"enable_thinking": False})
    taught = tok.decode([t for t, m in zip(ids, mask) if m])
    assert "<tool_call>" in taught and conv[-1]["content"] in taught  # the calls and the answer
    assert "schoolInfo" not in taught and conv[1]["content"] not in taught  # not the tool results, not the question
    assert 0 < sum(mask) < len(ids) / 2


def test_zero_spread_steps_are_warned_about() -> None:
    said: list[str] = []
    cb = zero_spread_callback(said.append)

    class _State:
        global_step = 3

    cb.on_log(None, _State(), None, logs={"reward": 0.0, "frac_reward_zero_std": 1.0})
    cb.on_log(None, _State(), None, logs={"reward": 0.4, "frac_reward_zero_std": 0.5})
    assert len(said) == 1 and "step 3" in said[0] and "zero reward spread" in said[0] and cb.flat_steps == [3]


def test_eval_base_of_a_tiny_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "kopa_run.json").write_text(json.dumps({"config": {"model": "tiny"},
                                                   "base_model": str(run / "base-model")}), encoding="utf-8")
    assert base_model_of(run) == str(run / "base-model")
    assert base_model_of(run / "checkpoint-1") == str(run / "base-model")
    (run / "kopa_run.json").write_text(json.dumps({"config": {"model": "Qwen/Qwen3-0.6B"}}), encoding="utf-8")
    assert base_model_of(run) == "Qwen/Qwen3-0.6B"
