"""``simulator train``: GRPO with TRL, verl tool configs and rollouts (typer app ``train_app``).

Run directly with ``python -m train.cli``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .config import GRPORunConfig
from .grpo import (
    build_dataset_rows,
    build_grpo_trainer,
    run_grpo,
    zero_spread_callback,
)

__all__ = ["GRPORunConfig", "build_dataset_rows", "build_grpo_trainer", "run_grpo", "train_app", "zero_spread_callback"]

train_app = typer.Typer(help="GRPO rollouts over the simulator: TRL, verl, OpenAI-compatible policies.",
                        no_args_is_help=True)


def _announce(set_name: str, version: str | None) -> str:
    """The version a training command uses (``--version``, else the newest *shipped* one), said
    on stderr first (``using kopa@v0006 (…): the newest shipped version``); its name, pinned."""
    from simulator import SimulatorError

    from .env import version_line

    try:
        name, line = version_line(set_name, version)
    except SimulatorError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"using {line}", err=True)
    return name


def _weights(shaping: list[str]) -> dict[str, float] | None:
    if not shaping:
        return None
    out: dict[str, float] = {}
    for s in shaping:
        name, _, w = s.partition("=")
        try:
            out[name] = float(w or 1.0)
        except ValueError as exc:
            raise typer.BadParameter(f"shaping={s!r}: use NAME=WEIGHT") from exc
    return out


@train_app.command("grpo")
def grpo_cmd(
    config: Optional[Path] = typer.Option(None, "--config", help="Run config YAML (recipes/qwen3-grpo.yaml); "
                                          "flags below override it."),
    model: Optional[str] = typer.Option(None, help="Model dir or hub id; `tiny` for a random smoke model."),
    output_dir: Optional[Path] = typer.Option(None, help="Trainer output directory (checkpoints, final model)."),
    data: Optional[Path] = typer.Option(None, help="EDGE synthesis output (dir with trl.jsonl, or the file); "
                                        "default synth-out."),
    split: Optional[str] = typer.Option(None, help="Rows of this split (default train)."),
    ablation_train_on_bench: bool = typer.Option(False, "--ablation-train-on-bench",
                                                 help="Allow KOPA-Bench tasks as training rows (an ablation)."),
    task: list[str] = typer.Option([], help="Bench task ids as rows (needs --ablation-train-on-bench)."),
    limit: Optional[int] = typer.Option(None, help="At most this many rows."),
    platform: list[str] = typer.Option([], help="Offer only these platforms' tools (repeatable)."),
    tool_tier: Optional[str] = typer.Option(None, help="curated (default: the platforms' curated tools plus "
                                            "those the rows' golds call) or full (every tool of the platforms)."),
    max_steps: Optional[int] = typer.Option(None, help="Optimizer steps (-1: by epochs)."),
    num_generations: Optional[int] = typer.Option(None, help="Completions per prompt (the GRPO group)."),
    batch_size: Optional[int] = typer.Option(None, help="Per-device train batch size (completions)."),
    max_completion_length: Optional[int] = typer.Option(None, help="Tokens per completion, tool results included."),
    max_observation_chars: Optional[int] = typer.Option(None, help="Tool result text cut beyond this."),
    max_turns: Optional[int] = typer.Option(None, help="Assistant turns per episode."),
    max_calls: Optional[int] = typer.Option(None, help="Tool calls per episode."),
    learning_rate: Optional[float] = typer.Option(None, help="Learning rate."),
    save_steps: Optional[int] = typer.Option(None, help="Checkpoint every this many steps."),
    shaping: list[str] = typer.Option([], help="Shaping term NAME=WEIGHT (repeatable), off by default."),
    use_vllm: Optional[bool] = typer.Option(None, "--vllm/--no-vllm", help="Generate with vLLM."),
    vllm_mode: Optional[str] = typer.Option(None, help="colocate or server (`trl vllm-serve`)."),
    cpu: Optional[bool] = typer.Option(None, "--cpu", help="Train on the CPU."),
    set_name: Optional[str] = typer.Option(None, "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
) -> None:
    """GRPO with TRL's GRPOTrainer, the kopa-sim environment and the checker reward."""
    from .config import ConfigError, load_config
    from .data import DataError

    overrides = {
        "model": model, "output_dir": str(output_dir) if output_dir else None,
        "data": str(data) if data else None, "split": split,
        "ablation_train_on_bench": ablation_train_on_bench or None, "tasks": list(task) or None,
        "limit": limit, "platforms": list(platform) or None, "tool_tier": tool_tier, "max_steps": max_steps,
        "num_generations": num_generations, "per_device_train_batch_size": batch_size,
        "max_completion_length": max_completion_length, "max_observation_chars": max_observation_chars,
        "max_turns": max_turns, "max_calls": max_calls,
        "learning_rate": learning_rate, "save_steps": save_steps, "shaping": _weights(shaping),
        "use_vllm": use_vllm, "vllm_mode": vllm_mode, "use_cpu": cpu, "set_name": set_name, "version": version,
    }
    try:
        cfg = load_config(config, overrides)
        if cfg.ablation_train_on_bench and not cfg.data:
            from bench.kopa import bench_version  # the bench's tasks run on its version (kopa@v0008)

            cfg.version = bench_version(cfg.version, cfg.set_name)
        cfg.version = _announce(cfg.set_name, cfg.version)
        if cfg.model == "tiny":
            typer.echo("note: --model tiny is a randomly initialised model: it cannot write a tool call, so every "
                       "sample gets the same reward and this run moves no weights (a smoke run of the trainer). "
                       "`simulator train learn-check` warm-starts a tiny model on EDGE conversations and shows "
                       "GRPO raising its reward.", err=True)
        trainer = run_grpo(cfg)
    except (DataError, ConfigError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(json.dumps({"output_dir": cfg.output_dir, "steps": trainer.state.global_step,
                           "log": trainer.state.log_history}, ensure_ascii=False, default=str, indent=1))


@train_app.command("learn-check")
def learn_check_cmd(
    out: Optional[Path] = typer.Option(None, help="Working folder (default: a temporary one, removed after)."),
    sft_epochs: Optional[int] = typer.Option(None, help="SFT warm-start epochs."),
    grpo_steps: Optional[int] = typer.Option(None, help="GRPO generation rounds."),
    eval_generations: Optional[int] = typer.Option(None, help="Samples per training prompt for X and Y."),
    seed: int = typer.Option(0, help="Seed of the model, SFT and sampling."),
) -> None:
    """CPU pipeline check: a tiny model, SFT warm start on EDGE conversations, then GRPO through
    the simulator; prints `mean reward X -> Y` on the training prompts, exit 0 only when Y > X.

    Not a research result: a few memorised questions show that the simulator's rewards reach the
    weights through the same code a GPU run uses, nothing about tool-use skill."""
    import tempfile

    from .learn_check import LearnCheckConfig, run_learn_check

    cfg = LearnCheckConfig(seed=seed)
    for name, value in (("sft_epochs", sft_epochs), ("grpo_steps", grpo_steps),
                        ("eval_generations", eval_generations)):
        if value is not None:
            setattr(cfg, name, value)
    typer.echo("learn-check: a pipeline check, not a research result (a tiny model memorising eight synthetic "
               "kopa@v0005 questions; the rewards come from the simulator's answers)")
    with tempfile.TemporaryDirectory(prefix="kopa-learn-check-") as tmp:
        res = run_learn_check(out or Path(tmp), cfg, echo=typer.echo)
    for h in res.train_log:
        typer.echo(f"  GRPO step {h.get('step')}: reward {h.get('reward', 0):.3f} (spread {h.get('reward_std', 0):.3f}, "
                   f"groups without spread {h.get('frac_reward_zero_std', 0):.2f}), "
                   f"tool calls/sample {h.get('tools/call_frequency', 0):.2f}")
    typer.echo(f"GRPO: {cfg.grpo_steps} rounds × {cfg.grpo_iterations} steps in {res.grpo_seconds:.0f} s; "
               f"{res.simulator_calls} tool calls answered by the simulator in {res.simulator_seconds:.2f} s "
               f"({100 * res.simulator_share:.2f}% of the GRPO wall time)")
    typer.echo("per row (share of samples right, before -> after): " + ", ".join(
        f"{k[:8]} {res.per_row_before.get(k, 0):.2f}->{v:.2f}" for k, v in sorted(res.per_row_after.items())))
    calls = [e.get("eval_tools/call_frequency", 0.0) for e in (res.eval_before, res.eval_after)]
    typer.echo(f"tool calls per sample {calls[0]:.2f} -> {calls[1]:.2f}")
    typer.echo(f"mean reward {res.reward_before:.3f} -> {res.reward_after:.3f} "
               f"({res.samples_per_row} samples per training prompt, before and after GRPO)")
    if not res.passed:
        typer.echo("error: GRPO did not raise the mean reward on its training prompts", err=True)
        raise typer.Exit(1)
    typer.echo("ok: GRPO through the simulator raised the reward")


@train_app.command("verl-config")
def verl_config_cmd(
    out: Path = typer.Option(..., help="Tool-config YAML to write (multi_turn.tool_config_path)."),
    dataset: Optional[Path] = typer.Option(None, help="Also write the training rows as a verl dataset "
                                           "(.parquet, or .jsonl)."),
    data: Optional[Path] = typer.Option(None, help="EDGE synthesis output (dir with trl.jsonl, or the file); "
                                        "default synth-out."),
    split: str = typer.Option("train", help="Rows of this split."),
    ablation_train_on_bench: bool = typer.Option(False, "--ablation-train-on-bench",
                                                 help="Write the KOPA-Bench tasks as the rows (an ablation)."),
    agent_loop_config: Optional[Path] = typer.Option(None, help="Also write the agent-loop YAML "
                                                     "(rollout.agent.agent_loop_config_path)."),
    platform: list[str] = typer.Option([], help="Only these platforms' tools (default: the rows' platforms)."),
    max_observation_chars: int = typer.Option(20_000, help="Tool result text cut beyond this."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version pinned in the tool config (default: the newest shipped one)."),
    tokenizer: Optional[str] = typer.Option(None, help="Model dir or hub id whose tokenizer measures the "
                                            "prompts: with verl importable, the written dataset is loaded "
                                            "with verl's own dataset class and filter to check it."),
    max_prompt_length: int = typer.Option(6144, help="The recipe's data.max_prompt_length (the check's limit)."),
    enable_thinking: bool = typer.Option(False, help="apply_chat_template_kwargs.enable_thinking of the recipe."),
) -> None:
    """Write verl's tool config (the scoped tool set), the dataset rows and the agent-loop YAML.

    Folders are created. With ``--tokenizer`` and verl installed, the rows are loaded the way
    ``verl.trainer.main_ppo`` loads them (``data.custom_cls`` = ``KopaRLHFDataset``, the
    overlong-prompt filter on, ``--max-prompt-length``): the command prints how many rows the
    filter keeps and refuses (exit 2) when it keeps none."""
    from .data import DataError
    from .env import Example, open_world
    from simulator import atomic_files

    from .verl_adapter import verl_row, write_agent_loop_config, write_tool_config, write_verl_dataset

    if ablation_train_on_bench and data is None:
        from bench.kopa import bench_version  # the bench's tasks run on its version (kopa@v0008)

        version = bench_version(version, set_name)
    version = _announce(set_name, version)  # pinned in the tool config: never "whatever is newest"
    world = open_world(set_name, version)
    rows: list[dict[str, Any]] = []
    if dataset is not None:
        cfg = GRPORunConfig(data=str(data) if data else None, split=split, set_name=set_name, version=version,
                            ablation_train_on_bench=ablation_train_on_bench)
        if ablation_train_on_bench and data is None:
            from bench.kopa.tasks import load_tasks

            cfg.tasks = [t.id for t in load_tasks(catalog=world.catalog)]
        try:
            rows, _meta = build_dataset_rows(cfg, world)
        except DataError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from exc
    plats = list(platform) or sorted({p for r in rows for p in r["platforms"]}) or None
    wanted = None if plats is None else set(world.catalog.resolve_platforms(plats)[0])  # old gen_ ids too
    tools = [e.id for e in world.catalog.endpoints.values() if wanted is None or e.platform in wanted]
    # The two or three files are written beside their targets and replace them together at the
    # end: a failure leaves every old file as it was (never a new tool config with an old dataset).
    with atomic_files(out, dataset, agent_loop_config) as (out_tmp, dataset_tmp, loop_tmp):
        assert out_tmp is not None
        write_tool_config(out_tmp, world=world, platforms=plats, set_name=set_name, version=version,
                          max_observation_chars=max_observation_chars)
        if dataset_tmp is not None:
            vrows = [verl_row(Example.from_row(r), i, tools=tools, split=split,
                              gold_program=r.get("gold_program", "")) for i, r in enumerate(rows)]
            write_verl_dataset(vrows, dataset_tmp)
        if loop_tmp is not None:
            write_agent_loop_config(loop_tmp)
    typer.echo(f"wrote {out} ({len(tools)} tools)")
    if dataset is not None:
        typer.echo(f"wrote {dataset} ({len(rows)} rows)")
    if agent_loop_config is not None:
        typer.echo(f"wrote {agent_loop_config}")
    if dataset is not None and tokenizer is not None:
        _check_verl_rows(dataset, out, tokenizer, max_prompt_length, {"enable_thinking": enable_thinking})


def _check_verl_rows(dataset: Path, tools: Path, tokenizer: str, limit: int, template_kw: dict[str, Any]) -> None:
    """verl-config's check: the rows through verl's own dataset class and filter."""
    try:
        from verl.utils.dataset.rl_dataset import get_dataset_class  # noqa: F401
    except ImportError:
        typer.echo("not checked: verl is not importable here (pip install -e '.[verl]' in its own environment)")
        return
    from transformers import AutoTokenizer

    from .verl_adapter import check_verl_dataset

    tok = AutoTokenizer.from_pretrained(tokenizer)
    res = check_verl_dataset(dataset, tools, tok, max_prompt_length=limit, chat_template_kwargs=template_kw)
    share = res["kept"] / res["rows"] if res["rows"] else 0.0
    typer.echo(f"verl {res['dataset_class']} (max_prompt_length={limit}, filter_overlong_prompts=True) keeps "
               f"{res['kept']} of {res['rows']} rows ({share:.0%}); prompt + its own tools: min {res['min']}, "
               f"median {res['median']}, max {res['max']} tokens ({tokenizer})")
    if res["kept"] == 0:
        typer.echo(f"error: verl would filter out every row: the shortest prompt with its tools is {res['min']} "
                   f"tokens > max_prompt_length={limit}; raise --max-prompt-length (and data.max_prompt_length) "
                   f"to at least {res['max']}, or keep fewer platforms per row (--platform)", err=True)
        raise typer.Exit(2)
    if share < 0.9:
        typer.echo(f"warning: verl drops {res['rows'] - res['kept']} of {res['rows']} rows as overlong; "
                   f"--max-prompt-length {res['max']} keeps them all", err=True)


@train_app.command("eval")
def eval_cmd(
    checkpoint: Path = typer.Argument(..., help="A `train grpo` output dir (or checkpoint-N, or a LoRA adapter)."),
    out: Path = typer.Option(Path("eval-out"), help="Report directory (per-model results + eval_report.{json,md})."),
    base: Optional[str] = typer.Option(None, help="Base model to compare with (default: the run's model, "
                                       "from kopa_run.json); `none` for the checkpoint alone."),
    seeds: int = typer.Option(8, help="Samples per task (n of pass@k)."),
    k: int = typer.Option(4, help="The k of pass@k."),
    task: list[str] = typer.Option([], help="Only these bench task ids (repeatable)."),
    backend: str = typer.Option("auto", help="auto (vLLM when installed), vllm or builtin."),
    max_tokens: int = typer.Option(2048, help="Tokens per completion."),
    max_turns: int = typer.Option(24, help="Assistant turns per episode."),
    workers: int = typer.Option(8, help="Concurrent episodes."),
    temperature: float = typer.Option(0.7, help="Sampling temperature."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
    tools: str = typer.Option("search", "--tools", help="Tools the model sees: search (every catalog "
                              "tool through a search_tools step), all (every tool in each request) "
                              "or platform (the task's platforms only: the ablation)."),
) -> None:
    """Serve CHECKPOINT and its base model (OpenAI-compatible), run KOPA-Bench on both, report."""
    from .evaluate import EvalConfig, base_model_of, run_eval

    if not checkpoint.exists():
        typer.echo(f"error: checkpoint {checkpoint} not found (a `simulator train grpo` --output-dir)", err=True)
        raise typer.Exit(2)
    base_path = base if base is not None else base_model_of(checkpoint)
    if base_path is None:
        typer.echo("error: the base model is not recorded in the run (kopa_run.json): pass --base MODEL "
                   "or --base none", err=True)
        raise typer.Exit(2)
    models = ([("base", base_path)] if base_path != "none" else []) + [("trained", str(checkpoint))]
    version = _announce(set_name, version)
    try:
        cfg = EvalConfig(seeds=seeds, k=k, tasks=list(task), backend=backend, max_tokens=max_tokens,
                         max_turns=max_turns, workers=workers, temperature=temperature,
                         set_name=set_name, version=version, tool_scope=tools)
        report = run_eval(models, out, cfg)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    for r in report["models"]:
        typer.echo(f"{r['model']}: pass@1 {r['pass@1']}, pass@{k} {r.get(f'pass@{k}')} ({r['episodes']} episodes)")
    typer.echo(f"wrote {out / 'eval_report.md'}")


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
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
) -> None:
    """Roll out episodes against a policy server; rows in KOPA-Bench's result format."""
    from .env import Example, open_world
    from .rollout import PolicyClient, RolloutConfig, run_rollouts

    world = open_world(set_name, _announce(set_name, version))
    if data is not None:  # rollouts evaluate: any split, bench rows allowed
        from .data import load_training_rows, resolve_data_path

        examples = [Example.from_row(r) for r in load_training_rows(resolve_data_path(data), split=None)]
    else:
        from bench.kopa.tasks import load_tasks

        from .env import example_from_task

        examples = [example_from_task(t, world) for t in load_tasks(catalog=world.catalog)
                    if not task or t.id in set(task)]
    client = PolicyClient(base_url, model)
    try:
        res = run_rollouts(client, world, examples, RolloutConfig(seeds=seeds, workers=workers), out=out)
    finally:
        client.close()
    passed = sum(1 for r in res if r["passed"])
    typer.echo(f"{len(res)} episodes, {passed} passed -> {out}")


if __name__ == "__main__":
    train_app()
