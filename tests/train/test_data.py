"""Training data and recipe (no torch): the bench refused as training rows, the default data,
run metadata, the pydantic run config and the YAML recipe, shaping evidence on synthesized
rows, the Qwen3 template's tool-call format against the environment's parser, and verl rows
against verl's documented schema with one episode per trajectory."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from bench.kopa.env import World
from bench.kopa.tasks import load_tasks
from simulator import Store
from train.cli import GRPORunConfig, build_dataset_rows, train_app
from train.config import ConfigError, load_config
from train.data import DataError, load_training_rows, resolve_data_path
from train.env import EnvConfig, Example, SimEpisode
from train.rewards import all_pages_fetched, episode_evidence, no_invented_codes
from train.trl_adapter import parse_tool_calls
from train.verl_adapter import (AGENT_NAME, KopaSimTool, tool_config, trajectory_reward,
                                trajectory_tools_kwargs, verl_row)

ROOT = Path(__file__).resolve().parents[2]

#: A synthesized row as `simulator edge synthesize` writes it to trl.jsonl (seed 0): a
#: 21-page region-code list, a name lookup in it, then two chained MOLIT calls.
PROGRAM = {"answer": {"$ref": "v4"}, "steps": [
    {"call": "mois_stan_regin_cd", "id": "s1", "pages": "all"},
    {"from": "s1", "id": "v2", "op": "filter", "where": [{"field": "locallow_nm", "op": "eq", "value": "하왕십리동"}]},
    {"args": {"DEAL_YMD": "202503",
              "LAWD_CD": {"$ref": "v2", "field": "region_cd", "pick": "first", "transform": "slice:0:5"}},
     "call": "molit_apt_rents", "id": "s3", "pages": "all"},
    {"args": {"DEAL_YMD": "202503", "LAWD_CD": {"$ref": "s3", "field": "roadnmsggcd", "pick": "first"}},
     "call": "molit_apt_trades", "id": "s5", "pages": "all"},
    {"field": "floor", "from": "s5", "id": "v4", "op": "sum", "round": 4}]}
QUESTION = ("법정동코드 검색에서 최하위 지역명이 '하왕십리동'인 항목의 법정동코드 10자리를 찾고, 그 값으로 "
            "아파트 전월세 실거래(계약년월 202503)를 조회합니다. 도로명 시군구 코드를 얻어 아파트 매매 "
            "실거래가(계약년월 202503)에 나온 층의 합계를 구해 주세요.")


def _synth_row(i: int = 0, split: str = "train", cassettes: str | None = None) -> dict[str, Any]:
    return {"id": f"synth-{i}", "prompt": [{"role": "user", "content": QUESTION + f" ({i})"}],
            "answer": "4376", "gold_program": json.dumps(PROGRAM, ensure_ascii=False),
            "platforms": ["mois", "molit"], "split": split,
            "cassettes": cassettes or "60ad9f8f0e0c14d670b264eaee88c09bd880a7823468dad3036f4d56696746c4"}


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa", "v0001"))  # the rows below were synthesized on v0001


# ---- train on training data only ---------------------------------------------------------

def test_bench_tasks_as_data_exit_nonzero_with_a_clear_message(tmp_path: Path) -> None:
    from bench.kopa.cli import bench_app

    bench = tmp_path / "bench.jsonl"
    assert CliRunner().invoke(bench_app, ["export-tasks", str(bench)]).exit_code == 0
    res = CliRunner().invoke(train_app, ["grpo", "--data", str(bench), "--output-dir", str(tmp_path / "o"), "--cpu"])
    assert res.exit_code == 2
    n = len(load_tasks())
    assert f"{n} of {n} rows" in res.output and "KOPA-Bench tasks" in res.output
    assert "--ablation-train-on-bench" in res.output and "simulator edge synthesize" in res.output
    res = CliRunner().invoke(train_app, ["grpo", "--task", "molit-trade-max-0", "--output-dir", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--ablation-train-on-bench" in res.output
    res = CliRunner().invoke(train_app, ["verl-config", "--out", str(tmp_path / "t.yaml"), "--data", str(bench),
                                         "--dataset", str(tmp_path / "d.jsonl")])
    assert res.exit_code == 2 and "KOPA-Bench tasks" in res.output
    assert not (tmp_path / "o").exists()  # refused before anything was written


def test_a_bench_question_under_another_id_is_refused_too(tmp_path: Path) -> None:
    task = load_tasks()[0]
    rows = [_synth_row(0), {**_synth_row(1), "prompt": [{"role": "user", "content": task.question}]}]
    path = _write(tmp_path / "trl.jsonl", rows)
    with pytest.raises(DataError, match="1 of 2 rows"):
        load_training_rows(path, tasks=load_tasks())
    assert len(load_training_rows(path, tasks=load_tasks(), ablation_train_on_bench=True)) == 2


def test_default_data_missing_says_how_to_make_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DataError, match=r"no --data given and training data synth-out not found: "
                                        r"make it with `simulator edge synthesize"):
        resolve_data_path(None)
    (tmp_path / "synth-out").mkdir()
    _write(tmp_path / "synth-out" / "trl.jsonl", [_synth_row(0)])
    assert resolve_data_path(None) == Path("synth-out/trl.jsonl")


def test_rows_split_cassettes_and_run_metadata(world: World, tmp_path: Path) -> None:
    path = _write(tmp_path / "trl.jsonl", [_synth_row(0), _synth_row(1, split="heldout"), _synth_row(2)])
    rows, meta = build_dataset_rows(GRPORunConfig(data=str(tmp_path)), world)
    assert [r["task_id"] for r in rows] == ["synth-0", "synth-2"]
    assert rows[0]["platforms"] == ["mois", "molit"] and json.loads(rows[0]["gold_program"]) == PROGRAM
    assert meta["data"]["split"] == "train" and meta["data"]["rows"] == 2 and meta["data"]["path"] == str(path)
    assert len(meta["data"]["sha256"]) == 64 and meta["data"]["source"] == "edge synthesis"
    assert meta["cassettes"] == {"set": "kopa", "version": world.version.id, "content_hash": world.content_hash}
    rows, meta = build_dataset_rows(GRPORunConfig(data=str(path), split="heldout"), world)
    assert [r["task_id"] for r in rows] == ["synth-1"] and meta["data"]["split"] == "heldout"
    _write(path, [_synth_row(0, cassettes="f" * 64)])
    with pytest.raises(DataError, match="synthesized on cassettes ffffffffffff"):
        build_dataset_rows(GRPORunConfig(data=str(path)), world)


# ---- the recipe --------------------------------------------------------------------------

def test_recipe_validates_and_flags_override() -> None:
    cfg = load_config(ROOT / "recipes" / "qwen3-grpo.yaml", {"max_steps": 3, "model": None})
    assert cfg.max_steps == 3 and cfg.model == "Qwen/Qwen3-0.6B" and cfg.lora is not None
    args = cfg.trl_args()
    assert args["bf16"] is True and args["use_vllm"] and args["save_strategy"] == "steps" and args["save_steps"] == 25
    assert args["max_completion_length"] >= 8192 and cfg.max_observation_chars >= 20_000
    assert args["chat_template_kwargs"] == {"enable_thinking": False}
    assert cfg.tool_scope == "row" and set(cfg.shaping) == {"all_pages_fetched", "no_invented_codes"}
    from trl import GRPOConfig  # the mapping is accepted by TRL as written

    GRPOConfig(**{**args, "use_cpu": True, "bf16": False, "use_vllm": False, "output_dir": "/nonexistent"})


def test_config_errors_name_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text(yaml.safe_dump({"modle": "x", "num_generations": 1}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"invalid config in .*c.yaml: num_generations: .*; modle: Extra"):
        load_config(bad)
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "none.yaml")


def test_lora_block_gives_a_peft_config() -> None:
    pytest.importorskip("peft")
    cfg = GRPORunConfig(lora={"r": 8, "alpha": 16})
    peft = cfg.peft_config()
    assert peft.r == 8 and peft.lora_alpha == 16 and peft.task_type == "CAUSAL_LM"
    assert GRPORunConfig().peft_config() is None


def test_qwen3_template_tool_call_round_trips_through_the_parser() -> None:
    """The Qwen3 chat template (TRL's copy of the hub template) writes an assistant tool call
    as a ``<tool_call>`` JSON block; the environment's parser reads it back unchanged."""
    jinja2 = pytest.importorskip("jinja2")
    from trl.chat_template_utils import qwen3_chat_template

    assert "<tool_call>" in qwen3_chat_template and "tool_call.arguments | tojson" in qwen3_chat_template
    args = {"LAWD_CD": "01110", "DEAL_YMD": "202503"}  # leading zero: must stay a string
    msgs = [{"role": "user", "content": "q"},
            {"role": "assistant", "content": "", "tool_calls": [
                {"type": "function", "function": {"name": "molit_apt_trades", "arguments": args}}]}]
    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = lambda v, **kw: json.dumps(v, ensure_ascii=False)
    text = env.from_string(qwen3_chat_template).render(messages=msgs, add_generation_prompt=False)
    block = text[text.index("<tool_call>"): text.index("</tool_call>") + len("</tool_call>")]
    calls = parse_tool_calls(block)
    assert len(calls) == 1 and calls[0]["function"]["name"] == "molit_apt_trades"
    assert json.loads(calls[0]["function"]["arguments"]) == args


# ---- shaping on synthesized rows ---------------------------------------------------------

def test_shaping_scores_synthesized_rows(world: World) -> None:
    ex = Example.from_row(_synth_row(0))
    first_page = SimEpisode(world, ex, EnvConfig(max_calls=64))
    first_page.call("mois_stan_regin_cd", {})
    first_page.call("molit_apt_rents", {"LAWD_CD": "99999", "DEAL_YMD": "202503"})  # invented code
    st = episode_evidence(first_page)
    assert st["page_gaps"] >= 1 and st["invented"] == 1
    assert all_pages_fetched([""], environments=[first_page]) == [0.0]
    assert no_invented_codes([""], environments=[first_page]) == [0.0]
    whole = SimEpisode(world, ex, EnvConfig(max_calls=64))
    rec = whole.call("mois_stan_regin_cd", {"numOfRows": "1000"})
    page = 1
    while rec.offset + len(rec.records) < (rec.total or 0):
        page += 1
        rec = whole.call("mois_stan_regin_cd", {"numOfRows": "1000", "pageNo": str(page)})
    lookup = [r for c in whole.trace for r in c.records if r.get("locallow_nm") == "하왕십리동"]
    code = str(lookup[0]["region_cd"])
    rents = whole.call("molit_apt_rents", {"LAWD_CD": code[:5], "DEAL_YMD": "202503"})
    assert rents.ok
    st = episode_evidence(whole)
    assert st["invented"] == 0 and page > 1
    # every page of the region list read: that collection is no longer a gap (MOLIT's trades still are)
    assert 1 <= st["page_gaps"] < episode_evidence(first_page)["page_gaps"]
    assert no_invented_codes([""], environments=[whole]) == [1.0]


# ---- verl ---------------------------------------------------------------------------------

class _Fn(BaseModel):  # verl.tools.schemas.OpenAIFunctionSchema (documented fields)
    model_config = ConfigDict(extra="forbid")
    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool = False


class _ToolSchema(BaseModel):  # verl.tools.schemas.OpenAIFunctionToolSchema
    model_config = ConfigDict(extra="forbid")
    type: str
    function: _Fn


class _RewardModel(BaseModel):
    style: str
    ground_truth: str


class _VerlRow(BaseModel):  # verl's RLHFDataset row (examples/data_preprocess/*_tool_agent_loop.py)
    model_config = ConfigDict(extra="forbid")
    data_source: str
    prompt: list[dict[str, str]]
    ability: str
    reward_model: _RewardModel
    extra_info: dict[str, Any]
    agent_name: str


def test_verl_rows_match_the_documented_schema_and_key_episodes_per_trajectory(world: World) -> None:
    ex = Example.from_row(_synth_row(0))
    tools = ["mois_stan_regin_cd", "molit_apt_rents"]
    row = _VerlRow.model_validate(verl_row(ex, 7, tools=tools, gold_program=json.dumps(PROGRAM)))
    assert row.agent_name == AGENT_NAME and row.reward_model.ground_truth == "4376"
    tk = row.extra_info["tools_kwargs"]
    assert set(tk) == set(tools) and all(v["create_kwargs"]["episode_id"] == "synth-0:7" for v in tk.values())
    assert "example_id" not in json.dumps(tk)
    for t in tool_config(world, platforms=["mois"])["tools"]:
        _ToolSchema.model_validate(t["tool_schema"])
        assert t["config"]["platform"] == "mois" and t["config"]["max_observation_chars"] == 20_000

    lookup = KopaSimTool({"type": "native", "world": world}, world.catalog.endpoints["mois_stan_regin_cd"].tool_schema())
    rents = KopaSimTool({"type": "native", "world": world}, world.catalog.endpoints["molit_apt_rents"].tool_schema())
    inner = json.loads(row.extra_info["row"])

    async def trajectory(key: str, code: str) -> None:
        # verl's ToolAgentLoop: create(create_kwargs=...) / execute / release around each call
        kw = trajectory_tools_kwargs(inner, tools, key)
        for tool, args in ((lookup, {"locatadd_nm": "서울특별시 성동구"}),
                           (rents, {"LAWD_CD": code, "DEAL_YMD": "202503"})):
            iid, _ = await tool.create(create_kwargs=kw[tool.name]["create_kwargs"])
            await tool.execute(iid, args)
            await tool.release(iid)

    async def both() -> None:
        await asyncio.gather(trajectory("synth-0:7:0", "11200"), trajectory("synth-0:7:1", "99999"))

    asyncio.run(both())
    a, b = KopaSimTool.episode_by_key("synth-0:7:0"), KopaSimTool.episode_by_key("synth-0:7:1")
    assert a is not None and b is not None and a is not b
    assert [r.tool for r in a.trace] == ["mois_stan_regin_cd", "molit_apt_rents"] == [r.tool for r in b.trace]
    # The reward: the checker on the final text plus shaping on the trajectory's own trace.
    assert trajectory_reward("synth-0:7:0", "답: 4376") == 1.0
    assert trajectory_reward("synth-0:7:1", "답: 12") == 0.0
    assert trajectory_reward("synth-0:7:1", "답: 4376", {"no_invented_codes": 0.5}) == 1.0  # 99999 invented
    assert trajectory_reward("synth-0:7:0", "답: 4376", {"no_invented_codes": 0.5}) == 1.5
    assert KopaSimTool.finish_episode("synth-0:7:0") is a and KopaSimTool.episode_by_key("synth-0:7:0") is None
    # No tool call, no episode: the answer is still checked against the row.
    assert trajectory_reward("synth-0:7:9", "답: 4376", row=inner) == 1.0
    assert trajectory_reward("synth-0:7:9", "답: 4376") == 0.0


def test_verl_config_writes_the_scoped_tool_set_rows_and_agent_loop(world: World, tmp_path: Path) -> None:
    _write(tmp_path / "trl.jsonl", [_synth_row(0), _synth_row(1)])
    out, ds, loop = tmp_path / "tools.yaml", tmp_path / "train.jsonl", tmp_path / "loop.yaml"
    res = CliRunner().invoke(train_app, ["verl-config", "--version", "v0001", "--out", str(out), "--data", str(tmp_path),
                                         "--dataset", str(ds), "--agent-loop-config", str(loop)])
    assert res.exit_code == 0, res.output
    tools = yaml.safe_load(out.read_text(encoding="utf-8"))["tools"]
    assert {t["config"]["platform"] for t in tools} == {"mois", "molit"}
    rows = [_VerlRow.model_validate_json(x) for x in ds.read_text(encoding="utf-8").splitlines()]
    assert [r.extra_info["episode_id"] for r in rows] == ["synth-0:0", "synth-1:1"]
    assert set(rows[0].extra_info["tools_kwargs"]) == {t["tool_schema"]["function"]["name"] for t in tools}
    assert yaml.safe_load(loop.read_text()) == [{"name": AGENT_NAME, "_target_": "train.verl_adapter.KopaToolAgentLoop"}]
