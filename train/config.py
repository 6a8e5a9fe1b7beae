"""The ``train grpo`` run configuration: a pydantic model, loadable from YAML, CLI flags on top.

``simulator train grpo --config recipes/qwen3-grpo.yaml --max-steps 10`` validates the YAML
against :class:`GRPORunConfig` (unknown keys are an error naming the key) and then applies
the flags given on the command line. :meth:`GRPORunConfig.trl_args` maps it onto TRL's
``GRPOConfig``; :meth:`GRPORunConfig.peft_config` onto a ``peft.LoraConfig`` (the ``lora``
extra) when ``lora`` is set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Mapping

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from .errors import TrainError

__all__ = ["ConfigError", "GRPORunConfig", "LoraSettings", "load_config"]


class ConfigError(TrainError):
    """A run config that cannot be used (the message names the key or the fix)."""


class LoraSettings(BaseModel):
    """LoRA adapter settings (``peft.LoraConfig``); absent in the config means full fine-tune."""

    model_config = ConfigDict(extra="forbid")

    r: int = Field(16, ge=1)
    alpha: int = Field(32, ge=1)
    dropout: float = Field(0.05, ge=0.0, lt=1.0)
    target_modules: list[str] | str = "all-linear"


class GRPORunConfig(BaseModel):
    """Settings of a ``train grpo`` run (TRL's GRPOTrainer with the kopa-sim environment).

    ``model`` is a local directory or hub id, or ``tiny`` (a random 2-layer model and a
    tokenizer trained on the prompts: a smoke run, no download). ``data`` is an EDGE
    synthesis output (a directory holding ``trl.jsonl``, or the file); default
    ``synth-out`` (``simulator edge synthesize``'s default ``--out``). Bench tasks
    (``tasks``, or rows that are bench tasks) need ``ablation_train_on_bench``.
    ``tool_scope``: ``row`` offers each row its own platforms' tools (one environment per
    platform set), ``union`` every row the union, ``all`` the whole catalog.
    ``tool_tier`` (``row`` and ``union``): ``curated`` offers the platforms' curated tools plus
    every tool the rows' gold programs call (:func:`train.grpo.offered_tools`), ``full`` every
    tool of the platforms (mois + molit alone are ~1,200 schemas on the full catalog).
    """

    model_config = ConfigDict(extra="forbid")

    model: str = "tiny"
    output_dir: str = "grpo-out"
    set_name: str = "kopa"
    version: str | None = None
    data: str | None = None
    split: str | None = "train"
    ablation_train_on_bench: bool = False
    tasks: list[str] = Field(default_factory=list)
    limit: int | None = Field(None, ge=1)
    platforms: list[str] = Field(default_factory=list)
    tool_scope: Literal["row", "union", "all"] = "row"
    tool_tier: Literal["curated", "full"] = "curated"
    shaping: dict[str, float] = Field(default_factory=dict)
    # episode budgets
    max_turns: int = Field(16, ge=1)
    max_calls: int = Field(48, ge=0)
    max_observation_chars: int = Field(20_000, ge=100)
    # GRPO
    num_generations: int = Field(8, ge=2)
    per_device_train_batch_size: int = Field(8, ge=1)
    gradient_accumulation_steps: int = Field(1, ge=1)
    max_completion_length: int = Field(8192, ge=8)
    max_tool_calling_iterations: int = Field(16, ge=1)
    temperature: float = Field(1.0, gt=0.0)
    beta: float = Field(0.0, ge=0.0)
    learning_rate: float = Field(1e-6, gt=0.0)
    lr_scheduler_type: str = "constant_with_warmup"
    warmup_steps: float = Field(0, ge=0)
    num_train_epochs: float = Field(1.0, gt=0.0)
    max_steps: int = -1
    seed: int = 0
    # precision, memory, parallelism
    bf16: bool | None = None
    gradient_checkpointing: bool = False
    lora: LoraSettings | None = None
    deepspeed: str | None = None
    use_cpu: bool = False
    # checkpoints and logs
    save_strategy: Literal["no", "steps", "epoch"] = "steps"
    save_steps: int = Field(50, ge=1)
    save_total_limit: int | None = 3
    logging_steps: int = Field(1, ge=1)
    report_to: str = "none"
    # rollouts
    use_vllm: bool = False
    vllm_mode: Literal["colocate", "server"] = "colocate"
    vllm_server_base_url: str | None = None
    vllm_gpu_memory_utilization: float = Field(0.3, gt=0.0, le=1.0)
    vllm_max_model_length: int | None = None
    enable_thinking: bool = False
    extra_args: dict[str, Any] = Field(default_factory=dict)

    def trl_args(self) -> dict[str, Any]:
        """Keyword arguments of TRL's ``GRPOConfig`` for this run."""
        bf16 = False if self.use_cpu else self.bf16
        args: dict[str, Any] = {
            "output_dir": self.output_dir, "num_generations": self.num_generations,
            "per_device_train_batch_size": self.per_device_train_batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            "max_completion_length": self.max_completion_length,
            "max_tool_calling_iterations": self.max_tool_calling_iterations,
            "temperature": self.temperature, "beta": self.beta,
            "learning_rate": self.learning_rate, "lr_scheduler_type": self.lr_scheduler_type,
            "warmup_steps": self.warmup_steps, "num_train_epochs": self.num_train_epochs,
            "max_steps": self.max_steps, "seed": self.seed, "use_cpu": self.use_cpu,
            _checkpointing_key(): self.gradient_checkpointing,
            "save_strategy": self.save_strategy, "save_steps": self.save_steps,
            "save_total_limit": self.save_total_limit, "logging_steps": self.logging_steps,
            "report_to": self.report_to, "use_vllm": self.use_vllm, "vllm_mode": self.vllm_mode,
            "vllm_gpu_memory_utilization": self.vllm_gpu_memory_utilization,
            "chat_template_kwargs": {"enable_thinking": self.enable_thinking},
        }
        if bf16 is not None:
            args["bf16"] = bf16
        if self.deepspeed:
            args["deepspeed"] = self.deepspeed
        if self.vllm_server_base_url:
            args["vllm_server_base_url"] = self.vllm_server_base_url
        if self.vllm_max_model_length:
            args["vllm_max_model_length"] = self.vllm_max_model_length
        return {**args, **self.extra_args}

    def peft_config(self) -> Any:
        """A ``peft.LoraConfig`` (causal LM) when ``lora`` is set, else None."""
        if self.lora is None:
            return None
        try:
            from peft import LoraConfig
        except ImportError as exc:
            raise ConfigError("lora needs peft: pip install 'kopa-sim[lora]' (or drop `lora:` "
                               "for a full fine-tune)") from exc
        return LoraConfig(r=self.lora.r, lora_alpha=self.lora.alpha, lora_dropout=self.lora.dropout,
                          target_modules=self.lora.target_modules, task_type="CAUSAL_LM")


def _checkpointing_key() -> str:
    # transformers renamed ``gradient_checkpointing`` to ``activation_checkpointing`` (5.2x).
    import dataclasses

    from transformers import TrainingArguments

    names = {f.name for f in dataclasses.fields(TrainingArguments)}
    return "activation_checkpointing" if "activation_checkpointing" in names else "gradient_checkpointing"


def load_config(path: Path | None, overrides: Mapping[str, Any] | None = None) -> GRPORunConfig:
    """The config in ``path`` (YAML) with ``overrides`` applied (None values are not overrides).

    Raises:
        ConfigError: the file is missing or not a mapping, or a key or value is invalid
            (one line per problem, naming the key).
    """
    data: dict[str, Any] = {}
    if path is not None:
        if not path.is_file():
            raise ConfigError(f"config {path} not found (see recipes/qwen3-grpo.yaml for one)")
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"config {path} must be a YAML mapping of settings")
        data.update(loaded)
    data.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return GRPORunConfig.model_validate(data)
    except ValidationError as exc:
        where = f" in {path}" if path is not None else ""
        probs = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid config{where}: {probs}") from exc
