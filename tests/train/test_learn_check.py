"""``simulator train learn-check`` and what it rests on: the shipped rows and conversations, the
SFT mask, the line-merging tokenizer, the zero-spread warning, the base
model of a tiny run; the check itself end to end (slow)."""

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
from train.errors import TrainError  # noqa: E402
from train.evaluate import base_model_of  # noqa: E402
from train.learn_check import _render_text, _sft_example, load_learn_check_data  # noqa: E402


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", load_learn_check_data()["version"]))


def test_shipped_rows_load_as_training_rows(world: World, tmp_path: Path) -> None:
    data = load_learn_check_data()
    path = tmp_path / "trl.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data["trl"]), encoding="utf-8")
    # Same checks as `train grpo`: not bench tasks, synthesized on this very version.
    rows, meta = build_dataset_rows(GRPORunConfig(data=str(path), version=data["version"]), world)
    assert len(rows) == len(data["conversations"]) == len(data["ids"]) == 8
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


def test_line_merging_tokenizer_keeps_turns_apart_and_shortens_prompts(world: World) -> None:
    # learn-check's tokenizer: merges across words but never across a newline, so the chat
    # template's turns render prefix by prefix (the SFT mask) and seven tool schemas cost
    # hundreds of tokens, not thousands; text it never saw still round-trips.
    from train.config import GRPORunConfig
    from train.grpo import _environments
    from train.learn_check import _env_tools
    from train.tiny import tiny_tokenizer

    data = load_learn_check_data()
    conv = data["conversations"][0]["messages"]
    envs = _environments(GRPORunConfig(), world, [{**data["trl"][0], "platforms": ["neis"]}])
    tools = _env_tools(next(iter(envs.values())))
    kw = {"enable_thinking": False}
    boot = tiny_tokenizer(["<|im_start|>"], vocab_size=300)
    text = _render_text(boot, conv, tools, kw)
    lines, words = (tiny_tokenizer([text] * 4, vocab_size=4000, merges=m) for m in ("lines", "words"))
    ids, mask = _sft_example(lines, conv, tools, kw)  # raises if turns merge across boundaries
    n_words = len(_sft_example(words, conv, tools, kw)[0])
    assert len(ids) * 5 < n_words, (len(ids), n_words)
    assert lines.decode([t for t, m in zip(ids, mask) if m]).count("<tool_call>") == 2
    unseen = "새 질문 \n {\"x\": 1}"
    assert lines.decode(lines.encode(unseen, add_special_tokens=False)) == unseen
    with pytest.raises(TrainError, match="merges="):
        tiny_tokenizer([text], merges="sentences")


@pytest.mark.slow
def test_learn_check_raises_the_reward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The documented command, from an empty directory (only the package and its cassettes):
    # SFT warm start, GRPO through the simulator, `mean reward X -> Y` with Y > X, exit 0.
    # 9.5 min measured on 2 shared cores (load average 4-6).
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(train_app, ["learn-check"])
    out = res.output
    print(out)  # the figures docs/training.md quotes (shown with -s)
    assert res.exit_code == 0, out[-3000:]
    m = re.search(r"mean reward (\d\.\d+) -> (\d\.\d+) \((\d+) samples per training prompt", out)
    assert m is not None, out[-3000:]
    x, y = float(m.group(1)), float(m.group(2))
    assert y > x and int(m.group(3)) >= 32
    calls = re.search(r"(\d+) tool calls answered by the simulator", out)
    assert calls is not None and int(calls.group(1)) > 0  # the rewards went through real tool calls
    assert "ok: GRPO through the simulator raised the reward" in out
    assert list(tmp_path.iterdir()) == []  # nothing left behind in the working directory
