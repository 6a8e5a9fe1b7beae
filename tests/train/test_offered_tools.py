"""A platform-scoped GRPO run offers the platforms' curated tools plus those the rows' golds
call, not every generated tool of the real platforms (mois + molit: ~1,200 schemas on the full
catalog); ``--tool-tier full`` offers them all."""

from __future__ import annotations

import json

import pytest

from bench.kopa.env import World
from bench.kopa.tasks import load_tasks
from simulator import Store
from train.config import GRPORunConfig
from train.grpo import _environments, offered_tools


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa"))  # the full catalog


@pytest.fixture(scope="module")
def tasks() -> dict[str, object]:
    return {t.id: t for t in load_tasks()}


def _row(task_id: str, platforms: list[str], gold: object = "") -> dict[str, object]:
    return {"prompt": [{"role": "user", "content": "질문"}], "answer": "1", "check": "{}",
            "task_id": task_id, "platforms": platforms, "gold_program": gold}


def test_curated_tools_plus_the_golds_tools(world: World, tasks: dict[str, object]) -> None:
    every = [e for e in world.catalog.endpoints.values() if e.platform in {"mois", "molit"}]
    assert len(every) > 1000  # what `--tool-tier full` offers
    generated = next(e.id for e in every if e.tier != "curated" and e.platform == "molit")
    gold = {"steps": [{"id": "s1", "call": generated, "args": {}}], "answer": {"$ref": "s1"}}
    rows = [_row("molit-trade-max-0", ["mois", "molit"]), _row("synth-1", ["molit"], json.dumps(gold))]
    ids = offered_tools(world, ["mois", "molit"], rows, tasks)
    assert ids is not None and len(ids) <= 20
    assert {"mois_stan_regin_cd", "molit_apt_trades", generated} <= set(ids)  # every row's route is offered
    assert {e.id for e in every if e.tier == "curated"} <= set(ids)            # and the curated distractors
    assert offered_tools(world, ["mois", "molit"], rows, tasks, "full") is None
    assert offered_tools(world, [], rows, tasks) is None  # no platforms: the whole catalog (tool_scope all)


def test_the_trainer_environments_offer_the_scoped_tools(world: World) -> None:
    rows = [_row("molit-trade-max-0", ["mois", "molit"])]
    cfg = GRPORunConfig(ablation_train_on_bench=True, tasks=["molit-trade-max-0"])
    envs = _environments(cfg, world, rows)
    (cls,) = envs.values()
    methods = {n for n in vars(cls) if not n.startswith("_")}
    assert "molit_apt_trades" in methods and "mois_stan_regin_cd" in methods
    assert len(methods) <= 20, len(methods)
    full = _environments(cfg.model_copy(update={"tool_tier": "full"}), world, [dict(r) for r in rows])
    (cls_full,) = full.values()
    assert len({n for n in vars(cls_full) if not n.startswith("_")}) > 1000


def test_a_bad_tool_tier_is_refused() -> None:
    from train.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="tool_tier"):
        load_config(None, {"tool_tier": "everything"})
