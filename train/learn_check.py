"""``simulator train learn-check``: does a model's reward go up when GRPO trains it through the
simulator? A pipeline check on the CPU, not a research result.

A random tiny model never writes a tool call, so GRPO on it sees the same reward on every
sample and moves nothing. This check gives one a start and then lets the simulator's reward
do the rest, through the code a GPU run uses:

1. the shipped rows (``learn_check_data.json``: train-split examples of ``simulator edge
   synthesize`` on the shipped cassettes, with their EDGE conversations) are loaded through
   :func:`~train.grpo.build_dataset_rows` (the bench-overlap and cassette-version checks);
2. a tiny Qwen3 (:func:`~train.tiny.tiny_model`, built from a config, no download) with a
   tokenizer trained on the rendered conversations (:func:`~train.tiny.tiny_tokenizer`,
   ``merges="lines"``) is **warm-started by SFT** on the EDGE conversations, rendered with
   exactly the tools TRL will show it (the environment classes' methods), loss on the
   assistant turns only — until it reproduces them nearly, not exactly: sampled at
   temperature 1 it still goes astray on some rows, so a GRPO group's rewards differ;
3. TRL's ``GRPOTrainer`` is built by :func:`~train.grpo.build_grpo_trainer` (the
   ``environment_factory`` per platform set, the checker reward, ``train grpo``'s code) and
   ``trainer.evaluate()`` samples the training prompts (reward X); ``trainer.train()`` runs
   GRPO, every tool call answered by the simulator; ``trainer.evaluate()`` again (reward Y).

It passes when Y > X. The numbers say that rewards computed from the simulator's answers
reach the weights; with a few memorised questions they say nothing about tool-use skill.
"""

from __future__ import annotations

import inspect
import json
import math
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from .errors import TrainError

__all__ = ["LearnCheckConfig", "LearnCheckResult", "build_learn_check_data", "load_learn_check_data",
           "run_learn_check"]

DATA_FILE = "learn_check_data.json"


@dataclass
class LearnCheckConfig:
    """Sizes of the check (defaults: 9.5 minutes measured on 2 CPU cores shared with other
    jobs, load average 4–6; no quiet-machine figure yet).

    SFT stops short of exact recall on purpose (loss ≈ 0.15): sampled at temperature 1 the
    model then answers about a third of its samples right, so GRPO groups have reward spread.
    ``grpo_steps`` generation rounds of ``num_generations`` samples per row, each used for
    ``grpo_iterations`` optimizer steps (TRL's ``num_iterations``). ``eval_generations``
    samples per row before and after (X and Y).
    ``max_completion_length`` None: 1.5 × the longest conversation's completion (tool
    results included, as TRL counts them), so every demonstrated route fits the budget.
    ``threads`` None: torch's own choice, capped at 2.
    """

    sft_epochs: int = 60
    sft_lr: float = 3e-3
    grpo_steps: int = 8
    grpo_iterations: int = 4
    grpo_lr: float = 1e-3
    num_generations: int = 8
    eval_generations: int = 32
    hidden: int = 64
    layers: int = 2
    vocab_size: int = 4000
    max_completion_length: int | None = None
    max_observation_chars: int = 1500
    threads: int | None = None
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
    sft_losses: list[float] = field(default_factory=list)
    train_log: list[dict[str, Any]] = field(default_factory=list)
    per_row_before: dict[str, float] = field(default_factory=dict)
    per_row_after: dict[str, float] = field(default_factory=dict)
    eval_before: dict[str, float] = field(default_factory=dict)
    eval_after: dict[str, float] = field(default_factory=dict)
    samples_per_row: int = 0

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


def build_learn_check_data(synth_dir: Path, ids: Sequence[str], version: str, about: str) -> dict[str, Any]:
    """The content of ``learn_check_data.json`` from a ``simulator edge synthesize`` output
    folder: the ``trl.jsonl`` rows and ``conversations.jsonl`` conversations of ``ids`` (train
    split only), with ``about`` saying how they were made. How the shipped file was made is its
    own ``about``.
    """
    def by_id(name: str) -> dict[str, dict[str, Any]]:
        lines = (synth_dir / name).read_text(encoding="utf-8").splitlines()
        return {r["id"]: r for r in map(json.loads, filter(None, lines))}

    trl, conv = by_id("trl.jsonl"), by_id("conversations.jsonl")
    missing = [i for i in ids if i not in trl or i not in conv]
    if missing:
        raise TrainError(f"ids {missing!r} are not in {synth_dir}: synthesize with the command in `about`")
    not_train = [i for i in ids if trl[i].get("split") != "train"]
    if not_train:
        raise TrainError(f"ids {not_train!r} are not train-split rows; pick train rows")
    return {"about": about, "version": version, "ids": list(ids),
            "trl": [trl[i] for i in ids], "conversations": [conv[i] for i in ids]}


def _env_tools(env_cls: Any) -> list[Any]:
    """The tools TRL offers for an environment class: its public methods, in TRL's order."""
    inst = env_cls()
    return [getattr(inst, n) for n, _ in inspect.getmembers(env_cls, predicate=inspect.isfunction)
            if n not in ("reset", "get_reward") and not n.startswith("_")]


def _template(tok: Any) -> str | None:
    """The template GRPOTrainer renders with when it runs tools (its training template when
    the tokenizer's own is not prefix-preserving)."""
    from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving

    return None if is_chat_template_prefix_preserving(tok) else get_training_chat_template(tok)


def _render_text(tok: Any, messages: list[dict[str, Any]], tools: list[Any], kw: dict[str, Any]) -> str:
    """A conversation as the text GRPOTrainer's template makes of it (what the tokenizer learns)."""
    out = tok.apply_chat_template(messages, tools=tools, tokenize=False, chat_template=_template(tok), **kw)
    return str(out)


def _sft_example(tok: Any, messages: list[dict[str, Any]], tools: list[Any],
                 kw: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Token ids of a conversation and a 0/1 mask of its assistant turns' tokens."""
    template = _template(tok)

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
    """A plain causal-LM warm start on the assistant tokens, one conversation per step, in a
    seeded shuffled order each epoch; the mean loss per epoch."""
    import random

    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=cfg.sft_lr)
    rng = random.Random(cfg.seed)
    model.train()
    losses = []
    for _ in range(cfg.sft_epochs):
        total = 0.0
        order = list(range(len(examples)))
        rng.shuffle(order)
        for k in order:
            ids, mask = examples[k]
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


def _recording(reward: Any, seen: list[tuple[str, float]]) -> Any:
    """``reward`` unchanged, each (row id, reward) it gives also appended to ``seen``."""

    def kopa_reward(completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        out = reward(completions, **kwargs)
        seen.extend((str(i), float(r or 0.0)) for i, r in zip(kwargs.get("task_id") or [""] * len(out), out))
        return out  # type: ignore[no-any-return]

    kopa_reward.__doc__ = reward.__doc__
    return kopa_reward


def _per_row(seen: list[tuple[str, float]]) -> dict[str, float]:
    sums: dict[str, list[float]] = {}
    for i, r in seen:
        sums.setdefault(i, []).append(r)
    return {i: sum(v) / len(v) for i, v in sums.items()}


def run_learn_check(out_dir: Path, cfg: LearnCheckConfig = LearnCheckConfig(),
                    echo: Callable[[str], None] = print,
                    data: dict[str, Any] | None = None) -> LearnCheckResult:
    """Warm-start a tiny model by SFT, then GRPO it through the simulator; rewards before/after.

    ``data`` overrides the shipped rows (same shape as :func:`load_learn_check_data`).
    """
    import os

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    import torch

    from .config import GRPORunConfig
    from .env import open_world
    from .grpo import _environments, build_dataset_rows, build_grpo_trainer
    from .rewards import make_reward
    from .tiny import tiny_model, tiny_tokenizer

    # Two shared cores are the target machine: more threads than cores only adds contention.
    torch.set_num_threads(cfg.threads or min(2, torch.get_num_threads()))
    data = data or load_learn_check_data()
    world = open_world("kopa", data["version"])
    out_dir.mkdir(parents=True, exist_ok=True)
    rows_path = out_dir / "trl.jsonl"
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data["trl"]), encoding="utf-8")
    n_rows = len(data["trl"])

    def run_config(max_completion_length: int) -> GRPORunConfig:
        return GRPORunConfig(
            model="tiny", output_dir=str(out_dir / "grpo"), data=str(rows_path), version=data["version"],
            use_cpu=True, max_steps=cfg.grpo_steps * cfg.grpo_iterations, num_generations=cfg.num_generations,
            per_device_train_batch_size=n_rows * cfg.num_generations, max_completion_length=max_completion_length,
            max_observation_chars=cfg.max_observation_chars, max_turns=6, max_calls=8,
            max_tool_calling_iterations=5, learning_rate=cfg.grpo_lr, lr_scheduler_type="constant",
            warmup_steps=0, temperature=1.0, beta=0.0, save_strategy="no", logging_steps=1, seed=cfg.seed,
            extra_args={"per_device_eval_batch_size": n_rows * cfg.eval_generations,
                        "num_generations_eval": cfg.eval_generations, "disable_tqdm": True,
                        "num_iterations": cfg.grpo_iterations},
        )

    # The rows as `train grpo` builds them, and the environment class of each (its tools).
    run = run_config(cfg.max_completion_length or 8192)
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
    # Tokenizer: trained on the conversations as GRPOTrainer renders them (tool schemas and all).
    boot = tiny_tokenizer(["<|im_start|>"], vocab_size=300)
    texts = [_render_text(boot, conv(r), tools_of[r.get("environment")], kw) for r in rows]
    tok = tiny_tokenizer(texts * 4, vocab_size=cfg.vocab_size, merges="lines")
    model = tiny_model(tok, hidden=cfg.hidden, layers=cfg.layers, seed=cfg.seed)
    torch.manual_seed(cfg.seed)

    t0 = time.perf_counter()
    examples = [_sft_example(tok, conv(r), tools_of[r.get("environment")], kw) for r in rows]
    prompt_lens = [len(tok.apply_chat_template(r["prompt"], tools=tools_of[r.get("environment")],
                                               add_generation_prompt=True, tokenize=True, return_dict=False,
                                               chat_template=_template(tok), **kw)) for r in rows]
    longest = max(len(ids) - p for (ids, _), p in zip(examples, prompt_lens))
    mcl = cfg.max_completion_length or 64 * math.ceil(1.5 * longest / 64)
    losses = _sft(model, examples, cfg)
    sft_s = time.perf_counter() - t0
    echo(f"SFT warm start: {len(examples)} EDGE conversations × {cfg.sft_epochs} epochs "
         f"({sum(len(i) for i, _ in examples) // len(examples)} tokens each on average, "
         f"{sum(sum(m) for _, m in examples)} assistant tokens in all), "
         f"loss {' '.join(f'{x:.2f}' for x in losses[:: max(1, len(losses) // 6)])} ... {losses[-1]:.3f} "
         f"({sft_s:.0f} s); completion budget {mcl} tokens (longest demonstrated route {longest})")

    from datasets import Dataset

    run = run_config(mcl)
    seen: list[tuple[str, float]] = []
    reward = _recording(make_reward(run.shaping), seen)
    trainer = build_grpo_trainer(run, model=model, tokenizer=tok, world=world, reward_funcs=[reward],
                                 trainer_kwargs={"eval_dataset": Dataset.from_list(rows)})
    from transformers.trainer_callback import PrinterCallback

    trainer.remove_callback(PrinterCallback)  # the check prints its own summary of the logs
    before = trainer.evaluate()
    per_row_before = _per_row(seen)
    env_classes = list(trainer.environment_factories.values())  # the classes whose instances run the tools
    sim0 = [c.simulator_time() for c in env_classes]
    t1 = time.perf_counter()
    trainer.train()
    grpo_s = time.perf_counter() - t1
    sim1 = [c.simulator_time() for c in env_classes]
    seen.clear()
    after = trainer.evaluate()
    per_row_after = _per_row(seen)
    sim_s = sum(b[0] - a[0] for a, b in zip(sim0, sim1))
    sim_n = sum(b[1] - a[1] for a, b in zip(sim0, sim1))
    log = [h for h in trainer.state.log_history if "reward" in h]
    return LearnCheckResult(reward_before=float(before["eval_reward"]), reward_after=float(after["eval_reward"]),
                            sft_seconds=sft_s, grpo_seconds=grpo_s, simulator_seconds=sim_s,
                            simulator_calls=sim_n, sft_losses=losses, train_log=log,
                            per_row_before=per_row_before, per_row_after=per_row_after,
                            eval_before={k: float(v) for k, v in before.items()},
                            eval_after={k: float(v) for k, v in after.items()},
                            samples_per_row=cfg.eval_generations)
