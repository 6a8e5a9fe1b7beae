"""``simulator train``: GRPO with TRL, verl tool configs and rollouts (typer app ``train_app``).

Run directly with ``python -m train.cli``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

import typer

__all__ = ["GRPORunConfig", "build_dataset_rows", "run_grpo", "train_app"]

train_app = typer.Typer(help="GRPO rollouts over the simulator: TRL, verl, OpenAI-compatible policies.",
                        no_args_is_help=True)


@dataclass
class GRPORunConfig:
    """Settings of a ``train grpo`` run (TRL's GRPOTrainer with the kopa-sim environment).

    ``model`` is a local path or hub id, or ``tiny`` (a random 2-layer model and a tokenizer
    trained on the prompts: a smoke run, no download). ``data`` is a JSONL of synthesized
    rows (``prompt`` + ``answer`` + …); without it, KOPA-Bench tasks are the rows.
    """

    model: str = "tiny"
    output_dir: str = "grpo-out"
    set_name: str = "kopa"
    version: str | None = None
    data: str | None = None
    tasks: list[str] = field(default_factory=list)
    limit: int | None = None
    platforms: list[str] = field(default_factory=list)
    shaping: dict[str, float] = field(default_factory=dict)
    max_turns: int = 8
    max_calls: int = 32
    max_observation_chars: int = 2000
    num_generations: int = 4
    per_device_train_batch_size: int = 4
    max_completion_length: int = 256
    max_tool_calling_iterations: int = 8
    learning_rate: float = 1e-6
    max_steps: int = 1
    seed: int = 0
    use_cpu: bool = False
    use_vllm: bool = False
    vllm_mode: str = "colocate"
    extra_args: dict[str, Any] = field(default_factory=dict)


def build_dataset_rows(cfg: GRPORunConfig, world: Any) -> list[dict[str, Any]]:
    """The training rows: synthesized JSONL rows, or benchmark tasks (gold answers computed)."""
    from bench.kopa.tasks import load_tasks

    from .env import Example, example_from_task

    if cfg.data:
        rows = [json.loads(line) for line in Path(cfg.data).read_text(encoding="utf-8").splitlines() if line.strip()]
        out = [Example.from_row(r).row() for r in rows]
    else:
        tasks = load_tasks(catalog=world.catalog)
        if cfg.tasks:
            wanted = set(cfg.tasks)
            tasks = [t for t in tasks if t.id in wanted]
        out = [example_from_task(t, world).row() for t in tasks]
    return out[: cfg.limit] if cfg.limit else out


def run_grpo(cfg: GRPORunConfig, *, model: Any = None, tokenizer: Any = None,
             world: Any = None, reward_funcs: list[Any] | None = None,
             trainer_kwargs: dict[str, Any] | None = None) -> Any:
    """Build and run a GRPOTrainer with the kopa-sim environment and rewards; the trainer.

    ``model`` / ``tokenizer`` override ``cfg.model`` (e.g. objects built in a test);
    ``reward_funcs`` override the default (:func:`~train.rewards.make_reward` with
    ``cfg.shaping`` left to the environment's ``get_reward``).
    """
    import os

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from .env import EnvConfig, open_world
    from .rewards import make_reward
    from .trl_adapter import make_environment_class

    world = world or open_world(cfg.set_name, cfg.version)
    rows = build_dataset_rows(cfg, world)
    if not rows:
        raise typer.BadParameter("no training rows (check --data / --task)")
    if model is None or tokenizer is None:
        if cfg.model == "tiny":
            from .tiny import tiny_model_and_tokenizer

            texts = [m["content"] for r in rows for m in r["prompt"]] + [r["answer"] for r in rows]
            model, tokenizer = tiny_model_and_tokenizer(texts * 4)
        else:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            model = AutoModelForCausalLM.from_pretrained(cfg.model)
            tokenizer = AutoTokenizer.from_pretrained(cfg.model)
    plats = cfg.platforms or sorted({p for r in rows for p in r["platforms"]}) or None
    env_cls = make_environment_class(
        world, platforms=plats, shaping=cfg.shaping,
        config=EnvConfig(max_turns=cfg.max_turns, max_calls=cfg.max_calls,
                         max_observation_chars=cfg.max_observation_chars))
    args = GRPOConfig(
        output_dir=cfg.output_dir, num_generations=cfg.num_generations,
        per_device_train_batch_size=cfg.per_device_train_batch_size,
        max_completion_length=cfg.max_completion_length,
        max_tool_calling_iterations=cfg.max_tool_calling_iterations,
        learning_rate=cfg.learning_rate, max_steps=cfg.max_steps, seed=cfg.seed,
        use_cpu=cfg.use_cpu, bf16=False if cfg.use_cpu else None, report_to="none",
        save_strategy="no", logging_steps=1, use_vllm=cfg.use_vllm, vllm_mode=cfg.vllm_mode,
        chat_template_kwargs={"enable_thinking": False}, **cfg.extra_args)
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=args,
                          train_dataset=Dataset.from_list(rows), reward_funcs=reward_funcs or [make_reward()],
                          environment_factory=env_cls, **(trainer_kwargs or {}))
    trainer.train()
    return trainer


@train_app.command("grpo")
def grpo_cmd(
    model: str = typer.Option("tiny", help="Model path or hub id; `tiny` for a random smoke model."),
    output_dir: Path = typer.Option(Path("grpo-out"), help="Trainer output directory."),
    data: Optional[Path] = typer.Option(None, help="Synthesized rows (JSONL); default: bench tasks."),
    task: list[str] = typer.Option([], help="Only these bench task ids (repeatable)."),
    limit: Optional[int] = typer.Option(None, help="At most this many rows."),
    max_steps: int = typer.Option(1, help="Optimizer steps."),
    num_generations: int = typer.Option(4, help="Completions per prompt (the GRPO group)."),
    max_completion_length: int = typer.Option(256, help="Tokens per completion, tool results included."),
    shaping: list[str] = typer.Option([], help="Shaping term NAME=WEIGHT (repeatable), off by default."),
    cpu: bool = typer.Option(False, "--cpu", help="Train on the CPU."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: latest)."),
) -> None:
    """GRPO with TRL's GRPOTrainer, the kopa-sim environment and the checker reward."""
    weights: dict[str, float] = {}
    for s in shaping:
        name, _, w = s.partition("=")
        try:
            weights[name] = float(w or 1.0)
        except ValueError as exc:
            raise typer.BadParameter(f"shaping={s!r}: use NAME=WEIGHT") from exc
    cfg = GRPORunConfig(model=model, output_dir=str(output_dir), data=str(data) if data else None,
                        tasks=list(task), limit=limit, max_steps=max_steps, num_generations=num_generations,
                        per_device_train_batch_size=num_generations,
                        max_completion_length=max_completion_length, shaping=weights, use_cpu=cpu,
                        set_name=set_name, version=version)
    trainer = run_grpo(cfg)
    typer.echo(json.dumps({"config": asdict(cfg), "log": trainer.state.log_history}, ensure_ascii=False,
                          default=str, indent=1))


@train_app.command("verl-config")
def verl_config_cmd(
    out: Path = typer.Option(..., help="Tool-config YAML to write (multi_turn.tool_config_path)."),
    platform: list[str] = typer.Option([], help="Only these platforms' tools (repeatable)."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version pinned in the tool config."),
    dataset: Optional[Path] = typer.Option(None, help="Also write the bench tasks as a verl dataset "
                                           "(.parquet, or .jsonl)."),
) -> None:
    """Write verl's tool-config YAML (one KopaSimTool per catalog tool), optionally the dataset."""
    from .verl_adapter import write_tool_config

    write_tool_config(out, platforms=platform or None, set_name=set_name, version=version)
    typer.echo(f"wrote {out}")
    if dataset is not None:
        from bench.kopa.tasks import load_tasks

        from .env import example_from_task, open_world
        from .verl_adapter import verl_row, write_verl_dataset

        world = open_world(set_name, version)
        rows = []
        for i, t in enumerate(load_tasks(catalog=world.catalog)):
            ex = example_from_task(t, world)
            tools = [e.id for e in world.catalog.endpoints.values() if e.platform in t.platforms]
            rows.append(verl_row(ex, i, tools=tools))
        write_verl_dataset(rows, dataset)
        typer.echo(f"wrote {dataset} ({len(rows)} rows)")


@train_app.command("rollout")
def rollout_cmd(
    base_url: str = typer.Option(..., help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1."),
    out: Path = typer.Option(..., help="Result directory (results.jsonl, resumable)."),
    model: str = typer.Option("default", help="Model name the server expects."),
    seeds: int = typer.Option(1, help="Samples per example."),
    workers: int = typer.Option(8, help="Concurrent episodes."),
    task: list[str] = typer.Option([], help="Only these bench task ids (repeatable)."),
    data: Optional[Path] = typer.Option(None, help="Synthesized rows (JSONL) instead of bench tasks."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: latest)."),
) -> None:
    """Roll out episodes against a policy server; rows in KOPA-Bench's result format."""
    from .env import Example, open_world
    from .rollout import PolicyClient, RolloutConfig, run_rollouts

    world = open_world(set_name, version)
    cfg = GRPORunConfig(data=str(data) if data else None, tasks=list(task), set_name=set_name)
    rows = build_dataset_rows(cfg, world)
    from bench.kopa.tasks import load_tasks

    from .env import example_from_task

    by_id = {t.id: t for t in load_tasks(catalog=world.catalog)}
    examples = [example_from_task(by_id[r["task_id"]], world) if r["task_id"] in by_id and not data
                else Example.from_row(r) for r in rows]
    client = PolicyClient(base_url, model)
    try:
        res = run_rollouts(client, world, examples, RolloutConfig(seeds=seeds, workers=workers), out=out)
    finally:
        client.close()
    passed = sum(1 for r in res if r["passed"])
    typer.echo(f"{len(res)} episodes, {passed} passed -> {out}")


if __name__ == "__main__":
    train_app()
