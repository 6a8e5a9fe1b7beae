"""The GRPO run as a library: the dataset rows, the environment classes, the model and TRL's
trainer that ``simulator train grpo`` and ``simulator train learn-check`` build (the CLI in
``train.cli`` only parses options and calls these)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .config import GRPORunConfig

__all__ = ["TINY_BASE_DIR", "build_dataset_rows", "build_grpo_trainer", "offered_tools", "run_grpo",
           "zero_spread_callback"]

#: Where a ``--model tiny`` run keeps the weights it started from (``train eval``'s base).
TINY_BASE_DIR = "base-model"

def _row_platforms(row: dict[str, Any], world: Any) -> list[str]:
    plats = row.get("platforms") or []
    if isinstance(plats, str):
        plats = [plats]
    if not plats and row.get("tools"):  # trl.jsonl written before the platforms column
        eps = world.catalog.endpoints
        plats = sorted({eps[t].platform for t in row["tools"] if t in eps})
    return sorted(plats)


def build_dataset_rows(cfg: GRPORunConfig, world: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The training rows and the run metadata saying what they are.

    Synthesized rows from ``cfg.data`` (default :data:`~train.data.DEFAULT_DATA`), in
    ``cfg.split``; bench tasks only with ``cfg.ablation_train_on_bench`` (``cfg.tasks``
    picks some). Raises :class:`~train.data.DataError` (naming the fix) otherwise.
    """
    from bench.kopa.tasks import load_tasks

    from .data import DataError, load_training_rows, resolve_data_path, run_metadata
    from .env import Example, example_from_task

    tasks = load_tasks(catalog=world.catalog)
    path = None
    if cfg.tasks and not cfg.data:
        if not cfg.ablation_train_on_bench:
            raise DataError("--task picks KOPA-Bench tasks, the test set: pass --ablation-train-on-bench to "
                            "train on them on purpose, or train on `simulator edge synthesize` output (--data)")
        wanted = set(cfg.tasks)
        out = [{**example_from_task(t, world).row(), "gold_program": ""} for t in tasks if t.id in wanted]
        source, split = "kopa-bench tasks (ablation)", None
    else:
        path = resolve_data_path(cfg.data)
        raw = load_training_rows(path, split=cfg.split, tasks=tasks,
                                 ablation_train_on_bench=cfg.ablation_train_on_bench,
                                 content_hash=world.content_hash)
        out = []
        for r in raw:
            gp = r.get("gold_program") or ""
            out.append({**Example.from_row({**r, "platforms": _row_platforms(r, world)}).row(),
                        "gold_program": gp if isinstance(gp, str) else json.dumps(gp, ensure_ascii=False)})
        source, split = "edge synthesis", cfg.split
    if cfg.limit:
        out = out[: cfg.limit]
    meta = run_metadata(data=path, rows=out, split=split, world=world, source=source,
                        ablation_train_on_bench=cfg.ablation_train_on_bench,
                        config=cfg.model_dump(mode="json"))
    return out, meta


def _gold_tools(row: dict[str, Any], tasks: dict[str, Any]) -> set[str]:
    """The tools a row's gold program calls (a bench row's from its task)."""
    from .env import parse_program

    program = parse_program(row.get("gold_program") or None)
    if program is None:
        task = tasks.get(str(row.get("task_id", "")))
        program = task.program if task is not None else None
    return {s.call for s in program.calls()} if program is not None else set()


def offered_tools(world: Any, platforms: list[str], rows: list[dict[str, Any]], tasks: dict[str, Any],
                  tier: str = "curated") -> list[str] | None:
    """The tool ids a platform-scoped run offers the model, in catalog order.

    ``tier="curated"``: the curated tools of ``platforms`` (the hand-written few each platform
    has: nine for mois + molit) plus every tool the ``rows``' gold programs call, so each row's
    own route is always on offer and the rest of the platform's curated tools are its
    distractors. ``tier="full"``: None, every tool of the platforms (on the full catalog mois +
    molit alone are ~1,200 schemas, a prompt too long to train on). No platforms: None.
    """
    if tier == "full" or not platforms:
        return None
    wanted = set(world.catalog.resolve_platforms(list(platforms))[0])  # old gen_ ids too
    used = set().union(*(_gold_tools(r, tasks) for r in rows)) if rows else set()
    return [e.id for e in world.catalog.endpoints.values()
            if e.platform in wanted and (e.tier == "curated" or e.id in used)]


def _env_name(platforms: list[str]) -> str:
    return "kopa_" + ("_".join(platforms) or "all")


def _environments(cfg: GRPORunConfig, world: Any, rows: list[dict[str, Any]]) -> Any:
    """TRL's ``environment_factory``: one class per platform set (``tool_scope: row``, rows
    get an ``environment`` column), else one class with the union (or all) of the tools."""
    from .env import EnvConfig
    from .trl_adapter import make_environment_class

    from bench.kopa.tasks import load_tasks

    env_cfg = EnvConfig(max_turns=cfg.max_turns, max_calls=cfg.max_calls,
                        max_observation_chars=cfg.max_observation_chars)
    tasks = load_tasks(catalog=world.catalog)  # once, shared by every class (ablation rows)
    by_id = {t.id: t for t in tasks}
    if cfg.tool_scope == "row" and not cfg.platforms:
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            name = _env_name(list(r["platforms"]))
            r["environment"] = name
            groups.setdefault(name, []).append(r)
        return {name: make_environment_class(
                    world, platforms=rs[0]["platforms"] or None, config=env_cfg, own_reward=False, name=name,
                    tools=offered_tools(world, list(rs[0]["platforms"]), rs, by_id, cfg.tool_tier), tasks=tasks)
                for name, rs in groups.items()}
    plats = (cfg.platforms or sorted({p for r in rows for p in r["platforms"]})) if cfg.tool_scope != "all" else []
    return make_environment_class(world, platforms=plats or None, tasks=tasks, config=env_cfg, own_reward=False,
                                  tools=offered_tools(world, plats, rows, by_id, cfg.tool_tier))


def _load_model(cfg: GRPORunConfig, rows: list[dict[str, Any]], world: Any) -> tuple[Any, Any]:
    if cfg.model == "tiny":
        from .tiny import tiny_model_and_tokenizer

        from bench.kopa.tasks import load_tasks

        plats = cfg.platforms or sorted({p for r in rows for p in r["platforms"]})
        ids = offered_tools(world, plats, rows, {t.id: t for t in load_tasks(catalog=world.catalog)}, cfg.tool_tier)
        schemas = world.tools(plats or None)
        schemas = schemas if ids is None else [t for t in schemas if t["function"]["name"] in set(ids)]
        texts = ([m["content"] for r in rows for m in r["prompt"]] + [r["answer"] for r in rows]
                 + [json.dumps(t, ensure_ascii=False) for t in schemas])
        return tiny_model_and_tokenizer(texts * 4)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    dtype = "auto" if not cfg.use_cpu else None
    model = AutoModelForCausalLM.from_pretrained(cfg.model, dtype=dtype)
    return model, AutoTokenizer.from_pretrained(cfg.model)


def zero_spread_callback(echo: Any = None) -> Any:
    """A ``TrainerCallback`` that warns loudly (stderr) at every step whose GRPO groups all had
    zero reward spread (``frac_reward_zero_std`` 1.0): every advantage is 0, so the step cannot
    change the policy (loss 0, grad_norm 0) however long the run goes on."""
    import sys

    from transformers import TrainerCallback

    say = echo or (lambda m: print(m, file=sys.stderr, flush=True))

    class ZeroSpreadWarning(TrainerCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.flat_steps: list[int] = []

        def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kwargs: Any) -> None:
            v = (logs or {}).get("frac_reward_zero_std")
            if v is not None and float(v) >= 1.0:
                self.flat_steps.append(int(state.global_step))
                say(f"WARNING: step {state.global_step}: every GRPO group had zero reward spread "
                    f"(frac_reward_zero_std=1.0, reward {logs.get('reward')}): all advantages are 0 and this "
                    "step cannot change the model. A model that never calls a tool or never answers right "
                    "gets the same reward on every sample: warm-start it (SFT) or pick easier rows; "
                    "`simulator train learn-check` shows a run whose rewards move.")

    return ZeroSpreadWarning()


def build_grpo_trainer(cfg: GRPORunConfig, *, model: Any = None, tokenizer: Any = None,
                       world: Any = None, reward_funcs: list[Any] | None = None,
                       trainer_kwargs: dict[str, Any] | None = None) -> Any:
    """The GRPOTrainer :func:`run_grpo` trains (environment, rewards, rows, metadata written);
    ``trainer.kopa_rows`` holds the dataset rows (with their ``environment`` column)."""
    import os

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from .data import write_run_metadata
    from .env import open_world
    from .rewards import make_reward

    world = world or open_world(cfg.set_name, cfg.version)
    rows, meta = build_dataset_rows(cfg, world)
    if model is None or tokenizer is None:
        model, tokenizer = _load_model(cfg, rows, world)
    envs = _environments(cfg, world, rows)
    if cfg.model == "tiny":
        # The tiny model exists only in this process: keep its starting weights beside the run
        # so `train eval` compares the trained model with the model it started from.
        base = Path(cfg.output_dir) / TINY_BASE_DIR
        model.save_pretrained(base)
        tokenizer.save_pretrained(base)
        meta["base_model"] = str(base.resolve())
    write_run_metadata(cfg.output_dir, meta)
    extra = dict(trainer_kwargs or {})
    peft = cfg.peft_config()
    if peft is not None:
        extra.setdefault("peft_config", peft)
    callbacks = list(extra.pop("callbacks", None) or []) + [zero_spread_callback()]
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=GRPOConfig(**cfg.trl_args()),
                          train_dataset=Dataset.from_list(rows),
                          reward_funcs=reward_funcs or [make_reward(cfg.shaping)],
                          environment_factory=envs, callbacks=callbacks, **extra)
    trainer.kopa_rows = rows
    return trainer


def run_grpo(cfg: GRPORunConfig, *, model: Any = None, tokenizer: Any = None,
             world: Any = None, reward_funcs: list[Any] | None = None,
             trainer_kwargs: dict[str, Any] | None = None) -> Any:
    """Build and run a GRPOTrainer with the kopa-sim environment and rewards; the trainer.

    Writes ``<output_dir>/kopa_run.json`` (data, split, cassette version, config) before
    training and the final model (plus tokenizer) into ``output_dir`` after it.
    ``model`` / ``tokenizer`` override ``cfg.model`` (e.g. objects built in a test);
    ``reward_funcs`` override the default (:func:`~train.rewards.make_reward` with
    ``cfg.shaping``). Every step whose groups all have zero reward spread is warned about
    on stderr (:func:`zero_spread_callback`).
    """
    trainer = build_grpo_trainer(cfg, model=model, tokenizer=tokenizer, world=world,
                                 reward_funcs=reward_funcs, trainer_kwargs=trainer_kwargs)
    trainer.train()
    trainer.save_model(cfg.output_dir)
    return trainer


