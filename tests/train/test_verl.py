"""train.verl_adapter: the BaseTool-compatible class, compute_score, tool config and rows (no GPU)."""

from __future__ import annotations

import asyncio
import inspect
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from bench.kopa.env import World
from bench.kopa.tasks import load_tasks
from simulator import Store
from train.cli import train_app
from train.env import example_from_task
from train.verl_adapter import KopaSimTool, ToolResponse, compute_score, tool_config, verl_row


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa"))


def _tool(world: World, name: str) -> KopaSimTool:
    schema = world.catalog.endpoints[name].tool_schema()
    return KopaSimTool({"type": "native", "world": world, "max_calls": 3}, schema)


def test_tool_interface_matches_verl_signatures() -> None:
    for meth in ("create", "execute", "calc_reward", "release"):
        assert inspect.iscoroutinefunction(getattr(KopaSimTool, meth)), meth
    assert list(inspect.signature(KopaSimTool.execute).parameters) == ["self", "instance_id", "parameters", "kwargs"]
    assert list(inspect.signature(KopaSimTool.create).parameters) == ["self", "instance_id", "kwargs"]


def test_tools_share_the_trajectory_episode(world: World) -> None:
    task = next(t for t in load_tasks() if t.id == "molit-trade-max-0")
    ex = example_from_task(task, world)
    row = verl_row(ex, 3, tools=["mois_stan_regin_cd", "molit_apt_trades"])
    lookup, trades = _tool(world, "mois_stan_regin_cd"), _tool(world, "molit_apt_trades")

    async def go() -> tuple[Any, ...]:
        ck = row["extra_info"]["tools_kwargs"]
        a, _ = await lookup.create(None, **ck["mois_stan_regin_cd"]["create_kwargs"])
        b, _ = await trades.create("inst-b", **ck["molit_apt_trades"]["create_kwargs"])
        r1, step, m1 = await lookup.execute(a, {"locatadd_nm": "서울특별시 종로구"})
        r2, _, m2 = await trades.execute(b, {"LAWD_CD": "11110", "DEAL_YMD": "202503"})
        r3, _, m3 = await trades.execute(b, {"LAWD_CD": "11110"})
        ep = trades.episode(b)
        reward = await trades.calc_reward(b)
        await lookup.release(a)
        still = trades.episode(b)
        await trades.release(b)
        return r1, step, m1, r2, m2, r3, m3, ep, reward, still

    r1, step, m1, r2, m2, r3, m3, ep, reward, still = asyncio.run(go())
    assert isinstance(r1, ToolResponse) and "region_cd" in (r1.text or "") and step == 0.0
    assert m1["ok"] and m1["records"] > 0 and m1["source"] in ("exact", "window", "query")
    assert m2["ok"] and m2["status"] == 200
    assert not m3["ok"] and m3["status"] == 400 and "DEAL_YMD" in (r3.text or "")
    assert [r.tool for r in ep.trace] == ["mois_stan_regin_cd", "molit_apt_trades", "molit_apt_trades"]
    assert ep.episode_id == "molit-trade-max-0:3" and still is ep
    assert reward == pytest.approx(2 / 3)
    with pytest.raises(KeyError):
        trades.episode("inst-b")


def test_compute_score_uses_the_checker() -> None:
    assert compute_score("kopa-sim", "…\nANSWER: 1,234", "1234", {"check": json.dumps({"type": "numeric"})}) == 1.0
    assert compute_score("kopa-sim", "ANSWER: 12", "1234") == 0.0
    assert compute_score("kopa-sim", "ANSWER: b, a", "a, b", {"check": {"type": "set"}}) == 1.0


def test_tool_config_and_cli(world: World, tmp_path: Path) -> None:
    cfg = tool_config(world, platforms=["mois"])
    names = {t["tool_schema"]["function"]["name"] for t in cfg["tools"]}
    assert names == {e.id for e in world.catalog.endpoints.values() if e.platform == "mois"}
    out = tmp_path / "tools.yaml"
    res = CliRunner().invoke(train_app, ["verl-config", "--out", str(out), "--dataset", str(tmp_path / "d.jsonl"),
                                         "--ablation-train-on-bench"])
    assert res.exit_code == 0, res.output
    loaded = yaml.safe_load(out.read_text(encoding="utf-8"))
    bench_plats = {p for t in load_tasks() for p in t.platforms}
    assert len(loaded["tools"]) == sum(1 for e in world.catalog.endpoints.values() if e.platform in bench_plats)
    for t in loaded["tools"]:
        # verl's schema: class_name importable, config.type, an OpenAI function schema.
        assert t["class_name"] == "train.verl_adapter.KopaSimTool" and t["config"]["type"] == "native"
        fn = t["tool_schema"]["function"]
        assert t["tool_schema"]["type"] == "function" and fn["parameters"]["type"] == "object"
        assert set(fn["parameters"]["required"]) <= set(fn["parameters"]["properties"])
    rows = [json.loads(x) for x in (tmp_path / "d.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(load_tasks())
    r = rows[0]
    assert set(r) == {"data_source", "prompt", "ability", "reward_model", "extra_info", "agent_name"}
    assert r["extra_info"]["episode_id"] == f"{r['extra_info']['task_id']}:0"
    assert r["reward_model"]["style"] == "rule" and r["reward_model"]["ground_truth"]
    assert r["extra_info"]["tools_kwargs"]


def test_tool_config_loads_with_verls_own_loader(world: World, tmp_path: Path) -> None:
    """Where verl is installed (a separate environment: verl 0.9 pins transformers < 5.11 and
    pulls ray), verl's ``initialize_tools_from_config`` builds our tools from the generated
    YAML (OmegaConf load, class import, pydantic ``OpenAIFunctionToolSchema``) and they answer."""
    registry = pytest.importorskip("verl.tools.tool_registry")
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse as VerlToolResponse

    from train.verl_adapter import write_tool_config

    path = write_tool_config(tmp_path / "tools.yaml", world=world)
    tools = registry.initialize_tools_from_config(str(path))
    assert [t.name for t in tools] == [e.id for e in world.catalog.endpoints.values()]
    assert all(isinstance(t, KopaSimTool) and isinstance(t, BaseTool) for t in tools)
    lookup = next(t for t in tools if t.name == "mois_stan_regin_cd")
    lookup._world_override = world  # the YAML names the set; the test's world has its own cache dir

    async def go() -> tuple[Any, dict[str, Any]]:
        iid, _ = await lookup.create(None, episode_id="verl-loader:0")
        resp, _, metrics = await lookup.execute(iid, {"locatadd_nm": "서울특별시 종로구"})
        await lookup.release(iid)
        return resp, metrics

    resp, metrics = asyncio.run(go())
    assert isinstance(resp, VerlToolResponse)
    assert resp.text == world.answer("mois_stan_regin_cd", {"locatadd_nm": "서울특별시 종로구"}).text
    assert metrics["ok"] and metrics["source"] in ("exact", "window", "query")
