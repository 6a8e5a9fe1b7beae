"""``simulator train learn-check``: does a model's reward go up when GRPO trains it through the
simulator? A pipeline check on the CPU, not a research result.

A random tiny model never writes a tool call, so GRPO on it sees the same reward on every
sample and moves nothing. This check gives one a start and then lets the simulator's reward
do the rest, through the code a GPU run uses:

1. the shipped rows (``learn_check_data.json``: train-split examples of ``simulator edge
   synthesize`` on the shipped cassettes, with their EDGE conversations) are loaded through
   :func:`~train.grpo.build_dataset_rows` (the bench-overlap and cassette-version checks);
2. a tiny Qwen3 (:func:`~train.tiny.tiny_model_and_tokenizer`, built from a config, no
   download) is **warm-started by SFT** on the EDGE conversations, rendered with exactly the
   tools TRL will show it (the environment classes' methods), loss on the assistant turns
   only, for a few epochs — enough that some samples call the tools and answer right;
3. TRL's ``GRPOTrainer`` is built by :func:`~train.grpo.build_grpo_trainer` (the
   ``environment_factory`` per platform set, the checker reward, ``train grpo``'s code) and
   ``trainer.evaluate()`` samples the training prompts (reward X); ``trainer.train()`` runs
   GRPO, every tool call answered by the simulator; ``trainer.evaluate()`` again (reward Y).

It passes when Y > X. The numbers say that rewards computed from the simulator's answers
reach the weights; with two memorised questions they say nothing about tool-use skill.
"""

from __future__ import annotations

import inspect
import json
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from .errors import TrainError

__all__ = ["LearnCheckConfig", "LearnCheckResult", "load_learn_check_data", "run_learn_check"]

DATA_FILE = "learn_check_data.json"


@dataclass
class LearnCheckConfig:
    """Sizes of the check (defaults: about 2 minutes on 2 shared CPU cores)."""

    sft_epochs: int = 30
    sft_lr: float = 1e-2
    grpo_steps: int = 12
    grpo_lr: float = 1e-3
    num_generations: int = 8
    eval_repeats: int = 4
    hidden: int = 64
    layers: int = 2
    max_completion_length: int = 384
    max_observation_chars: int = 1500
    seed: int = 0


@dataclass
class LearnCheckResult:
    """What the check measured."""

    reward_before: float
    reward_after: float
    sft_seconds: float
    grpo_seconds: float
    simulator_seconds: float
    simulator_calls: int
    train_log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Training raised the mean reward on the training prompts."""
        return self.reward_after > self.reward_before

    @property
    def simulator_share(self) -> float:
        """Share of the GRPO phase's wall time spent answering tool calls."""
        return self.simulator_seconds / self.grpo_seconds if self.grpo_seconds else 0.0


def load_learn_check_data() -> dict[str, Any]:
    """The shipped rows and conversations (``train/learn_check_data.json``)."""
    text = resources.files("train").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _env_tools(env_cls: Any) -> list[Any]:
    """The tools TRL offers for an environment class: its public methods, in TRL's order."""
    inst = env_cls()
    return [getattr(inst, n) for n, _ in inspect.getmembers(env_cls, predicate=inspect.isfunction)
            if n not in ("reset", "get_reward") and not n.startswith("_")]


def _sft_example(tok: Any, messages: list[dict[str, Any]], tools: list[Any],
                 kw: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Token ids of a conversation and a 0/1 mask of its assistant turns' tokens."""

    from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving

    # The template GRPOTrainer renders with when it runs tools (its training template when the
    # tokenizer's own is not prefix-preserving).
    template = None if is_chat_template_prefix_preserving(tok) else get_training_chat_template(tok)

    def render(msgs: list[dict[str, Any]], gen: bool) -> list[int]:
        out = tok.apply_chat_template(msgs, tools=tools, add_generation_prompt=gen, tokenize=True,
                                      return_dict=False, chat_template=template, **kw)
        return list(out)

    ids = render(messages, False)
    mask = [0] * len(ids)
    for i, m in enumerate(messages):
        if m["role"] != "assistant":
            continue
        before = render(messages[:i], True)
        upto = render(messages[: i + 1], False)
        if ids[: len(upto)] != upto or upto[: len(before)] != before:
            raise TrainError(f"the chat template does not render this conversation prefix by prefix (turn {i})")
        for j in range(len(before), len(upto)):
            mask[j] = 1
    return ids, mask


def _sft(model: Any, examples: list[tuple[list[int], list[int]]], cfg: LearnCheckConfig) -> list[float]:
    """A plain causal-LM warm start on the assistant tokens; the mean loss per epoch."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=cfg.sft_lr)
    model.train()
    losses = []
    for _ in range(cfg.sft_epochs):
        total = 0.0
        for ids, mask in examples:
            x = torch.tensor([ids])
            labels = torch.tensor([[t if m else -100 for t, m in zip(ids, mask)]])
            loss = model(input_ids=x, labels=labels).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        losses.append(total / len(examples))
    model.eval()
    return losses


def run_learn_check(out_dir: Path, cfg: LearnCheckConfig = LearnCheckConfig(),
                    echo: Callable[[str], None] = print) -> LearnCheckResult:
    """Warm-start a tiny model by SFT, then GRPO it through the simulator; rewards before/after."""
    import os

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    import torch

    from .grpo import _environments, build_grpo_trainer
    from .config import GRPORunConfig
    from .env import open_world
    from .tiny import tiny_model_and_tokenizer

    data = load_learn_check_data()
    world = open_world("kopa", data["version"])
    out_dir.mkdir(parents=True, exist_ok=True)
    rows_path = out_dir / "trl.jsonl"
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data["trl"]), encoding="utf-8")
    n_rows = len(data["trl"])
    batch = n_rows * cfg.num_generations
    run = GRPORunConfig(
        model="tiny", output_dir=str(out_dir / "grpo"), data=str(rows_path), version=data["version"],
        use_cpu=True, max_steps=cfg.grpo_steps, num_generations=cfg.num_generations,
        per_device_train_batch_size=batch, max_completion_length=cfg.max_completion_length,
        max_observation_chars=cfg.max_observation_chars, max_turns=6, max_calls=8,
        max_tool_calling_iterations=5, learning_rate=cfg.grpo_lr, lr_scheduler_type="constant",
        warmup_steps=0, temperature=1.0, beta=0.0, save_strategy="no", logging_steps=1, seed=cfg.seed,
        extra_args={"per_device_eval_batch_size": batch, "num_generations_eval": cfg.num_generations,
                    "disable_tqdm": True},
    )
    # The rows as `train grpo` builds them, and the environment class of each (its tools).
    from .grpo import build_dataset_rows

    rows, _meta = build_dataset_rows(run, world)
    envs = _environments(run, world, rows)
    tools_of = {name: _env_tools(cls) for name, cls in (envs.items() if isinstance(envs, dict) else [(None, envs)])}
    # Conversations by their question (the row's last user message).
    conv_of = {next(m["content"] for m in reversed(c["messages"]) if m["role"] == "user"): c["messages"]
               for c in data["conversations"]}

    def conv(r: dict[str, Any]) -> list[dict[str, Any]]:
        # Tool results cut as the environment cuts its observations (max_observation_chars).
        msgs = conv_of[next(m["content"] for m in reversed(r["prompt"]) if m["role"] == "user")]
        return [{**m, "content": m["content"][: cfg.max_observation_chars]} if m["role"] == "tool" else m
                for m in msgs]

    kw = {"enable_thinking": run.enable_thinking}

    # Tokenizer: trained on the conversations' text and the tools' schemas.
    from transformers.utils import get_json_schema

    texts = [json.dumps(m, ensure_ascii=False) for c in data["conversations"] for m in c["messages"]]
    texts += [json.dumps(get_json_schema(t), ensure_ascii=False) for ts in tools_of.values() for t in ts]
    model, tok = tiny_model_and_tokenizer(texts * 4, hidden=cfg.hidden, layers=cfg.layers, seed=cfg.seed)
    torch.manual_seed(cfg.seed)

    t0 = time.perf_counter()
    examples = [_sft_example(tok, conv(r), tools_of[r.get("environment")], kw) for r in rows]
    losses = _sft(model, examples, cfg)
    sft_s = time.perf_counter() - t0
    echo(f"SFT warm start: {len(examples)} EDGE conversations × {cfg.sft_epochs} epochs, "
         f"loss {losses[0]:.2f} -> {losses[-1]:.2f} ({sft_s:.0f} s)")

    from datasets import Dataset

    trainer = build_grpo_trainer(run, model=model, tokenizer=tok, world=world,
                                 trainer_kwargs={"eval_dataset": Dataset.from_list(rows * cfg.eval_repeats)})
    before = trainer.evaluate()
    env_classes = list(envs.values()) if isinstance(envs, dict) else [envs]
    sim0 = [c.simulator_time() for c in env_classes]
    t1 = time.perf_counter()
    trainer.train()
    grpo_s = time.perf_counter() - t1
    sim1 = [c.simulator_time() for c in env_classes]
    after = trainer.evaluate()
    sim_s = sum(b[0] - a[0] for a, b in zip(sim0, sim1))
    sim_n = sum(b[1] - a[1] for a, b in zip(sim0, sim1))
    log = [h for h in trainer.state.log_history if "reward" in h]
    return LearnCheckResult(reward_before=float(before["eval_reward"]), reward_after=float(after["eval_reward"]),
                            sft_seconds=sft_s, grpo_seconds=grpo_s, simulator_seconds=sim_s,
                            simulator_calls=sim_n, train_log=log)
