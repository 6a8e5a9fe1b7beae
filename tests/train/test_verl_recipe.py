"""The verl recipe as written (issue 30): its reward path and dataset class load through verl's
own loaders, ``train verl-config`` makes its folders and checks its rows with verl's dataset
class, the tool answers off the event loop, the agent loop's registered target imports.

Tests that need verl are skipped where it is absent (it lives in its own environment:
``pip install -e '.[test,train,verl]'``)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from bench.kopa.env import World
from simulator import Store
from train.cli import train_app
from train.verl_adapter import KopaSimTool, scoped_tool_schemas, tool_platforms

RECIPE = Path(__file__).resolve().parents[2] / "recipes" / "verl-qwen3-grpo.sh"


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa"))


def _rows_file(tmp_path: Path) -> Path:
    from train.learn_check import load_learn_check_data

    path = tmp_path / "trl.jsonl"
    rows = load_learn_check_data()["trl"]  # eight synthesized train rows, three platforms (neis, ecos, nec)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_verl_config_creates_its_folders(tmp_path: Path) -> None:
    out = tmp_path / "verl-out"  # does not exist: the README's command used to crash here
    res = CliRunner().invoke(train_app, ["verl-config", "--version", "v0005", "--data", str(_rows_file(tmp_path)),
                                         "--out", str(out / "tools.yaml"), "--dataset", str(out / "d" / "train.jsonl"),
                                         "--agent-loop-config", str(out / "agent_loop.yaml")])
    assert res.exit_code == 0, res.output
    assert (out / "tools.yaml").is_file() and (out / "agent_loop.yaml").is_file()
    rows = (out / "d" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 8
    plats = tool_platforms(out / "tools.yaml")
    assert set(plats.values()) == {"ecos", "neis", "nec"}
    schemas = [t["tool_schema"] for t in yaml.safe_load((out / "tools.yaml").read_text(encoding="utf-8"))["tools"]]
    for r in map(json.loads, rows):  # each row is offered its own platform's tools only
        scoped = scoped_tool_schemas(schemas, plats, r["extra_info"]["platforms"])
        assert scoped and {plats[s["function"]["name"]] for s in scoped} == set(r["extra_info"]["platforms"])
        assert len(scoped) < len(schemas)


def test_execute_runs_the_replay_off_the_event_loop(world: World) -> None:
    tool = KopaSimTool({"type": "native", "world": world}, world.catalog.endpoints["mois_stan_regin_cd"].tool_schema())
    seen: dict[str, Any] = {}
    original = tool.execute_sync

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen["thread"] = threading.get_ident()
        return original(*args, **kwargs)

    tool.execute_sync = spy  # type: ignore[method-assign]

    async def go() -> Any:
        seen["loop_thread"] = threading.get_ident()
        iid, _ = await tool.create(None, episode_id="thread-check")
        return await tool.execute(iid, {"locatadd_nm": "서울특별시 종로구"})

    resp, step, metrics = asyncio.run(go())
    assert metrics["ok"] and "region_cd" in (resp.text or "") and step == 0.0
    assert seen["thread"] != seen["loop_thread"]


def test_recipe_names_loadable_paths() -> None:
    text = RECIPE.read_text(encoding="utf-8")
    assert "reward.custom_reward_function.path=pkg://train.verl_adapter" in text
    assert "data.custom_cls.path=pkg://train.verl_adapter" in text and "data.custom_cls.name=KopaRLHFDataset" in text
    assert "train/verl_adapter.py" not in text
    assert '--tokenizer "$MODEL"' in text  # verl-config checks the rows with the run's tokenizer


# ---- with verl ----------------------------------------------------------------------------

def _recipe_overrides(out: Path, model: str, max_prompt_length: int) -> list[str]:
    """The recipe's ``main_ppo`` overrides, variables filled in (as bash would)."""
    block = RECIPE.read_text(encoding="utf-8").split("python -m verl.trainer.main_ppo", 1)[1]
    env = {"OUT": str(out), "MODEL": model, "NGPUS": "8", "MAX_PROMPT_LENGTH": str(max_prompt_length)}
    ov = []
    for line in block.splitlines()[1:]:
        line = line.strip().rstrip("\\").strip()
        if not line or line.startswith('"$@"'):
            continue
        line = re.sub(r'\$\(basename "\$MODEL"\)', Path(model).name, line)
        for k, v in env.items():
            line = line.replace(f'"${k}"', v).replace(f"${k}", v)
        ov.append(line.replace('"', "").replace("'", ""))
    return ov


def test_recipe_composes_and_loads_with_verls_own_code(tmp_path: Path) -> None:
    """verl's hydra config takes every override of the recipe; the reward path loads through
    verl's loader; main_ppo's ``create_rl_dataset`` keeps every row under a limit that verl's
    stock filter (every tool of tools.yaml in every prompt) would drop them all at."""
    pytest.importorskip("verl.utils.dataset.rl_dataset")
    pytest.importorskip("transformers")
    from hydra import compose, initialize_config_dir
    from verl.trainer import main_ppo
    from verl.trainer.ppo.reward import get_custom_reward_fn
    from verl.trainer.ppo.utils import create_rl_dataset

    from train.tiny import tiny_model_and_tokenizer
    from train.verl_adapter import check_verl_dataset, compute_score, scoped_prompt_length

    out = tmp_path / "verl-out"
    data = _rows_file(tmp_path)
    rows = [json.loads(x) for x in data.read_text(encoding="utf-8").splitlines()]
    _, tok = tiny_model_and_tokenizer([json.dumps(r, ensure_ascii=False) for r in rows] * 4)
    tok.save_pretrained(tmp_path / "tok")
    res = CliRunner().invoke(train_app, ["verl-config", "--version", "v0005", "--data", str(data),
                                         "--out", str(out / "tools.yaml"), "--dataset", str(out / "train.parquet"),
                                         "--agent-loop-config", str(out / "agent_loop.yaml")])
    assert res.exit_code == 0, res.output
    cfg_tools = yaml.safe_load((out / "tools.yaml").read_text(encoding="utf-8"))["tools"]
    schemas = [t["tool_schema"] for t in cfg_tools]
    plats = tool_platforms(out / "tools.yaml")
    kw = {"enable_thinking": False}
    scoped = [scoped_prompt_length(tok, r["prompt"], schemas, plats, r["platforms"], kw) for r in rows]
    union = [scoped_prompt_length(tok, r["prompt"], schemas, plats, None, kw) for r in rows]
    assert max(scoped) < min(union)
    limit = max(scoped)

    cfgdir = os.path.join(os.path.dirname(main_ppo.__file__), "config")
    with initialize_config_dir(config_dir=cfgdir, version_base=None):
        cfg = compose(config_name="ppo_trainer", overrides=_recipe_overrides(out, str(tmp_path / "tok"), limit))
    fn = get_custom_reward_fn(cfg)
    assert fn is not None and fn.args[0] is compute_score
    ds = create_rl_dataset(cfg.data.train_files, cfg.data, tok, None, is_train=True)
    assert type(ds).__name__ == "KopaRLHFDataset" and len(ds) == len(rows)
    cfg.data.custom_cls.path = None  # verl's stock RLHFDataset: every prompt measured with every tool
    assert len(create_rl_dataset(cfg.data.train_files, cfg.data, tok, None, is_train=True)) == 0

    checked = check_verl_dataset(out / "train.parquet", out / "tools.yaml", tok, max_prompt_length=limit,
                                 chat_template_kwargs=kw)
    assert checked["kept"] == len(rows) and checked["max"] == limit
    # ... and verl-config refuses, with the numbers, a limit no row fits.
    res = CliRunner().invoke(train_app, ["verl-config", "--version", "v0005", "--data", str(data),
                                         "--out", str(out / "tools.yaml"), "--dataset", str(out / "train.parquet"),
                                         "--tokenizer", str(tmp_path / "tok"), "--max-prompt-length", "100"])
    assert res.exit_code == 2
    assert f"at least {max(scoped)}" in res.output and f"keeps 0 of {len(rows)} rows" in res.output


def test_agent_loop_registration_target_imports() -> None:
    pytest.importorskip("verl.experimental.agent_loop.agent_loop")
    import hydra.utils
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry

    import train.verl_adapter as va

    target = _agent_loop_registry[va.AGENT_NAME]["_target_"]
    assert target == "train.verl_adapter.KopaToolAgentLoop"
    assert hydra.utils.get_class(target) is va.KopaToolAgentLoop
