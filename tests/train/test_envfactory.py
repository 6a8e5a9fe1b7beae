"""Tool calls through TRL's ``environment_factory`` path reach the simulator inside GRPOTrainer.

TRL (≥ 1.16, ``GRPOTrainer._generate`` → ``_tool_call_loop``) runs an environment method as
a tool only when ``tokenizer.parse_response`` finds a tool call in the *generated* tokens.
A randomly initialised tiny model never writes one, so the first turn is constrained
(:func:`train.tiny.script_generation`: a logits processor that masks all but the scripted
token inside the model's own ``generate``) to emit a Qwen ``<tool_call>`` block. From there
on everything is TRL's own machinery, unpatched: response parsing, dispatch to the
environment instance's generated method, the ``role: tool`` message, the template suffix,
the second generation, the rewards and the optimizer step.

The second turn reads ``totalCount`` out of the tool response *as it appears in the
model's prompt* and answers with it for every other sample (the rest sample freely), so a
reward of 1.0 from KOPA-Bench's checker can only come from the simulator's answer having
travelled through the trainer into the next generation.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("torch")

pytestmark = [
    pytest.mark.slow,
    # Third-party deprecation chatter (torch / transformers / trl) is not ours to fix.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

from bench.kopa.env import World  # noqa: E402
from simulator import Store  # noqa: E402
from train.env import EnvConfig, Example, SimEpisode  # noqa: E402
from train.rewards import answer_reward  # noqa: E402
from train.tiny import script_generation, tiny_model_and_tokenizer  # noqa: E402
from train.trl_adapter import make_environment_class  # noqa: E402

REGIONS = ["서울특별시 종로구", "서울특별시 중구"]
TOOL = "mois_stan_regin_cd"


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"
    return World(shipped_store.open("kopa"))


def _rows(world: World) -> list[dict[str, Any]]:
    """Synthesized-style rows; gold answers computed from the simulator directly."""
    rows = []
    for i, region in enumerate(REGIONS):
        total = world.answer(TOOL, {"locatadd_nm": region}).total
        assert total, region
        q = (f"{region}의 법정동 코드는 모두 몇 개인가요? "
             "도구로 찾아 'ANSWER: 숫자'로 답하세요.")
        rows.append(Example.from_row({"id": f"count-{i}", "platforms": ["mois"], "answer": str(total),
                                      "check": {"type": "numeric"},
                                      "prompt": [{"role": "user", "content": q}]}).row())
    return rows


def _script() -> Any:
    """Turn 1: the lookup as a Qwen tool call. Turn 2 (a tool response is in the prompt):
    every other sample answers with the totalCount it reads there; the others sample."""
    turn2 = {"n": 0}

    def script(prompt: str) -> str | None:
        if "<tool_response>" not in prompt:
            region = re.findall(r"(서울특별시 \S+?구)의 법정동", prompt)[-1]
            call = {"name": TOOL, "arguments": {"locatadd_nm": region}}
            return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"
        turn2["n"] += 1
        if turn2["n"] % 2 == 0:
            return None
        seen = re.findall(r'"totalCount":\s*"?(\d+)', prompt.rsplit("<tool_response>", 1)[1])
        return f"ANSWER: {seen[0]}" if seen else "ANSWER: ?"

    return script


def test_environment_factory_tool_calls_reach_the_simulator_in_a_grpo_step(world: World, tmp_path: Any) -> None:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    rows = _rows(world)
    env_cls = make_environment_class(world, tools=[TOOL], tasks=[],
                                     config=EnvConfig(max_turns=4, max_calls=4, max_observation_chars=400))
    # The tokenizer's corpus: prompts, the tool schema and the observations (short token ids).
    obs = [world.answer(TOOL, {"locatadd_nm": r}).text[:400] for r in REGIONS]
    texts = ([m["content"] for r in rows for m in r["prompt"]] + obs
             + [json.dumps(world.tools(["mois"]), ensure_ascii=False)]) * 4
    model, tok = tiny_model_and_tokenizer(texts)
    script_generation(model, tok, _script())
    log: list[dict[str, Any]] = []

    def kopa_answer(completions: Any, **kw: Any) -> list[float | None]:
        out = answer_reward(completions, **kw)
        log.append({"out": out, "completions": completions, "environments": kw["environments"],
                    "answer": kw["answer"]})
        return out

    args = GRPOConfig(output_dir=str(tmp_path / "out"), num_generations=2, per_device_train_batch_size=4,
                      max_completion_length=768, max_tool_calling_iterations=2, max_steps=1, use_cpu=True,
                      bf16=False, report_to="none", save_strategy="no", logging_steps=1, seed=0,
                      chat_template_kwargs={"enable_thinking": False})
    trainer = GRPOTrainer(model=model, processing_class=tok, args=args, train_dataset=Dataset.from_list(rows),
                          reward_funcs=[kopa_answer], environment_factory=env_cls)
    trainer.train()
    assert trainer.state.global_step == 1

    (call,) = log
    envs = call["environments"]
    assert len(envs) == 4 and all(isinstance(e.episode, SimEpisode) for e in envs)
    for env, comp, gold in zip(envs, call["completions"], call["answer"]):
        ep = env.episode
        # TRL executed the parsed call through the environment instance: the simulator answered.
        (rec,) = ep.trace
        assert rec.tool == TOOL and rec.ok and rec.source in ("exact", "window", "query")
        assert rec.args["locatadd_nm"] in ep.example.question and rec.total == int(gold)
        # The tool message TRL appended carries the episode's observation, byte for byte.
        tool_msgs = [m for m in comp if m["role"] == "tool"]
        assert [m["name"] for m in tool_msgs] == [TOOL]
        assert tool_msgs[0]["content"] == ep.observation(rec)
        assert comp[0]["tool_calls"][0]["function"]["name"] == TOOL
    # Rewards from the checker: the samples that answered from the tool response score 1.
    assert sorted(call["out"]) == [0.0, 0.0, 1.0, 1.0]
    logged = trainer.state.log_history[0]
    assert logged["rewards/kopa_answer/mean"] == pytest.approx(0.5)
    assert logged["tools/call_frequency"] > 0 and logged["tools/failure_frequency"] == 0
