"""verl adapter: a ``BaseTool`` backed by the simulator, its tool-config YAML, the dataset
rows, an agent loop that keys episodes per trajectory and scores them, and ``compute_score``.

verl builds one tool object per entry of the tool-config YAML (``tools: [{class_name,
config, tool_schema}]``). Its ``ToolAgentLoop`` calls, around *every* tool call,
``create(create_kwargs=<row's extra_info.tools_kwargs[tool].create_kwargs>)``, ``execute``
and ``release``; the create kwargs are the same for the n samples of a row. So:

- episodes are keyed by the ``episode_id`` create kwarg and outlive ``release``;
- :class:`KopaToolAgentLoop` (``agent_name: kopa_tool_agent``, registered where verl is
  installed) gives each trajectory its own key (``<row episode_id>:<n>``), offers the row
  only its platforms' tools, and at the end scores the episode with the same checker and
  shaping as the TRL path (:func:`trajectory_reward`), set as the output's
  ``reward_score``; :func:`compute_score` (answer only) stays the reward manager's function
  for the stock ``tool_agent`` loop.

verl is imported lazily: when it is installed, :class:`KopaSimTool` subclasses
``verl.tools.base_tool.BaseTool`` and returns ``verl.tools.schemas.ToolResponse``; when it
is not, the same interface (same async signatures) stands alone, so the class is testable
without verl or a GPU.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from bench.kopa.env import World

from .env import EnvConfig, Example, SimEpisode, open_world
from .rewards import answer_matches

__all__ = [
    "AGENT_NAME",
    "KopaSimTool",
    "ToolResponse",
    "compute_score",
    "tool_config",
    "trajectory_reward",
    "trajectory_tools_kwargs",
    "verl_row",
    "write_agent_loop_config",
    "write_tool_config",
    "write_verl_dataset",
]

DATA_SOURCE = "kopa-sim"
#: The agent loop name rows select (``agent_name``) and :class:`KopaToolAgentLoop` registers.
AGENT_NAME = "kopa_tool_agent"
#: Live episodes kept per process before the oldest is dropped (stock ``tool_agent`` loops
#: never finish theirs).
MAX_LIVE_EPISODES = 4096

try:  # pragma: no cover - exercised only where verl is installed
    from verl.tools.base_tool import BaseTool as _Base
    from verl.tools.schemas import ToolResponse

    HAVE_VERL = True
except ImportError:
    HAVE_VERL = False

    @dataclass
    class ToolResponse:  # type: ignore[no-redef]
        """Stand-in for ``verl.tools.schemas.ToolResponse`` (text only)."""

        text: str | None = None
        image: Any = None
        video: Any = None

    class _Base:  # type: ignore[no-redef]
        """Stand-in for ``verl.tools.base_tool.BaseTool`` with the same constructor."""

        def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
            self.config = config
            self.tool_schema = tool_schema
            self.name = _schema_name(tool_schema)

        def get_openai_tool_schema(self) -> Any:
            """The tool's OpenAI function schema."""
            return self.tool_schema


def _schema_name(schema: Any) -> str:
    if isinstance(schema, dict):
        return str(schema.get("function", {}).get("name", ""))
    return str(schema.function.name)


class KopaSimTool(_Base):  # type: ignore[misc,valid-type]
    """One catalog tool, answered in-process by the simulator.

    ``config`` keys: ``set`` (cassette set, default ``kopa``), ``version`` (default latest),
    ``max_calls``, ``max_turns``, ``max_observation_chars``. Worlds and live episodes are
    shared by every tool of the process (verl builds the tools itself, so there is no other
    place to hold them); ``release`` drops an episode.
    """

    _lock = threading.Lock()
    _worlds: dict[tuple[str, str | None], World] = {}
    _episodes: dict[str, SimEpisode] = {}
    _instances: dict[str, str] = {}

    def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
        if HAVE_VERL and isinstance(tool_schema, dict):
            # verl's loader passes a validated OpenAIFunctionToolSchema; accept the plain
            # dict form too (tool_config()'s entries), validated the same way.
            from verl.tools.schemas import OpenAIFunctionToolSchema

            tool_schema = OpenAIFunctionToolSchema.model_validate(tool_schema)
        super().__init__(config, tool_schema)
        self.name = _schema_name(tool_schema)
        self._world_override: World | None = config.get("world") if isinstance(config, dict) else None

    def _world(self) -> World:
        if self._world_override is not None:
            return self._world_override
        key = (str(self.config.get("set", "kopa")), self.config.get("version"))
        with self._lock:
            w = self._worlds.get(key)
            if w is None:
                w = self._worlds[key] = open_world(key[0], key[1])
        return w

    def _env_config(self) -> EnvConfig:
        c = self.config
        return EnvConfig(max_turns=int(c.get("max_turns", 24)), max_calls=int(c.get("max_calls", 64)),
                         max_observation_chars=int(c.get("max_observation_chars", 20_000)))

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        """Open (or join) the trajectory's episode.

        ``kwargs`` are the row's create kwargs, flat or as verl's ``ToolAgentLoop`` passes
        them (``create_kwargs={...}``): ``episode_id`` (the trajectory's key; every tool
        call with the same key lands in one episode) and ``row`` (the example's dataset row,
        a dict or its JSON text)."""
        import uuid

        if isinstance(kwargs.get("create_kwargs"), dict):
            kwargs = {**kwargs["create_kwargs"], **{k: v for k, v in kwargs.items() if k != "create_kwargs"}}
        iid = instance_id or str(uuid.uuid4())
        eid = str(kwargs.get("episode_id") or iid)
        with self._lock:
            ep = self._episodes.get(eid)
        if ep is None:
            row = kwargs.get("row")
            if isinstance(row, str):
                row = json.loads(row)
            ex = Example.from_row(row) if row else None
            ep = SimEpisode(self._world(), ex, self._env_config(), episode_id=eid)
            with self._lock:
                ep = self._episodes.setdefault(eid, ep)
                while len(self._episodes) > MAX_LIVE_EPISODES:  # oldest first (dicts keep order)
                    self._episodes.pop(next(iter(self._episodes)))
        with self._lock:
            self._instances[iid] = eid
        return iid, ToolResponse()

    @classmethod
    def episode_by_key(cls, episode_id: str) -> SimEpisode | None:
        """The live episode of a trajectory key (None when never opened or finished)."""
        with cls._lock:
            return cls._episodes.get(episode_id)

    @classmethod
    def finish_episode(cls, episode_id: str) -> SimEpisode | None:
        """Drop a trajectory's episode (its agent loop is done); the episode, if it was live."""
        with cls._lock:
            return cls._episodes.pop(episode_id, None)

    def episode(self, instance_id: str) -> SimEpisode:
        """The episode an instance belongs to."""
        with self._lock:
            return self._episodes[self._instances[instance_id]]

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[ToolResponse, float, dict[str, Any]]:
        """Answer one call: (observation, step reward 0.0, metrics of the call)."""
        ep = self.episode(instance_id)
        rec = ep.call(self.name, dict(parameters or {}))
        text = ep.observation(rec)
        metrics = {"status": rec.status, "source": rec.source, "records": len(rec.records),
                   "ok": rec.ok}
        return ToolResponse(text=text), 0.0, metrics

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """Share of the trajectory's calls the simulator answered (0.0 with none)."""
        ep = self.episode(instance_id)
        st = ep.stats()
        return st["ok_calls"] / st["calls"] if st["calls"] else 0.0

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Forget the instance. The episode stays: verl's ``ToolAgentLoop`` creates and
        releases an instance around every single call, so the trajectory's episode lives on
        until :meth:`finish_episode` (:class:`KopaToolAgentLoop` calls it) or until
        :data:`MAX_LIVE_EPISODES` newer ones push it out."""
        with self._lock:
            self._instances.pop(instance_id, None)


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: dict[str, Any] | None = None, **kwargs: Any) -> float:
    """verl's custom reward: 1.0 when ``solution_str``'s final answer passes the checker
    (``extra_info["check"]``, default exact) against ``ground_truth``, else 0.0."""
    return 1.0 if answer_matches(solution_str or "", ground_truth, (extra_info or {}).get("check")) else 0.0


def trajectory_tools_kwargs(row: Mapping[str, Any], tools: Sequence[str], episode_id: str) -> dict[str, Any]:
    """``tools_kwargs`` for one trajectory: every tool's create kwargs name its episode."""
    create = {"episode_id": episode_id, "row": json.dumps(dict(row), ensure_ascii=False, sort_keys=True)}
    return {t: {"create_kwargs": dict(create)} for t in tools}


def trajectory_reward(episode_id: str, solution_str: str, shaping: Mapping[str, float] | None = None,
                      row: Mapping[str, Any] | None = None) -> float:
    """The reward of a finished trajectory: the checker on its final text plus the shaping
    terms on its episode (:func:`~train.rewards.make_reward`, as in the TRL path). A
    trajectory that made no tool call has no episode: its answer is checked against ``row``
    (0.0 without one)."""
    from .rewards import completion_text, make_reward

    ep = KopaSimTool.episode_by_key(episode_id)
    ex = ep.example if ep is not None else (Example.from_row(row) if row else None)
    if ex is None:
        return 0.0
    text = completion_text(solution_str)
    if ep is not None and ep.answer is None:
        ep.finish(text)
    out = make_reward(dict(shaping or {}))([text], answer=[ex.answer], check=[json.dumps(ex.check)],
                                           environments=[ep] if ep is not None else None)
    return float(out[0] or 0.0)


def _register_agent_loop() -> Any:  # pragma: no cover - needs verl
    from verl.experimental.agent_loop.agent_loop import register
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop

    counter = itertools.count()

    @register(AGENT_NAME)
    class _Loop(ToolAgentLoop):  # type: ignore[misc,valid-type]
        """``ToolAgentLoop`` with one kopa-sim episode per trajectory, tools scoped to the
        row's platforms and the kopa reward as ``reward_score``."""

        shaping: dict[str, float] = {}

        async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
            info = dict(kwargs.get("extra_info") or {})
            row = json.loads(info["row"]) if isinstance(info.get("row"), str) else info.get("row") or {}
            key = f"{info.get('episode_id') or row.get('task_id') or 'row'}:{next(counter)}"
            plats = set(row.get("platforms") or [])
            scoped = [t for t in self.tool_schemas if not plats
                      or self.tools[t["function"]["name"]].config.get("platform") in plats]
            self.tool_schemas = scoped  # this instance only: one agent loop per sample
            kwargs["tools_kwargs"] = trajectory_tools_kwargs(row, [t["function"]["name"] for t in scoped], key)
            out = await super().run(sampling_params, **kwargs)
            text = self.tokenizer.decode(out.response_ids, skip_special_tokens=True)
            out.reward_score = trajectory_reward(key, text, info.get("shaping") or self.shaping, row)
            KopaSimTool.finish_episode(key)
            return out

    _Loop.__name__ = _Loop.__qualname__ = "KopaToolAgentLoop"
    return _Loop


if HAVE_VERL:  # pragma: no cover - exercised only where verl is installed
    KopaToolAgentLoop = _register_agent_loop()


def tool_config(world: World | None = None, *, platforms: Sequence[str] | None = None,
                set_name: str = "kopa", version: str | None = None,
                max_calls: int = 64, max_observation_chars: int = 20_000) -> dict[str, Any]:
    """The tool-config mapping (``tools: [...]``) for ``multi_turn.tool_config_path``: the
    tools of ``platforms`` (the scoped set; default every catalog tool)."""
    from simulator import load_catalog

    catalog = world.catalog if world is not None else load_catalog()
    cfg: dict[str, Any] = {"type": "native", "set": set_name, "max_calls": max_calls,
                           "max_observation_chars": max_observation_chars}
    if version:
        cfg["version"] = version
    wanted = None if platforms is None else set(catalog.resolve_platforms(list(platforms))[0])  # old gen_ ids too
    return {"tools": [
        {"class_name": f"{KopaSimTool.__module__}.{KopaSimTool.__name__}", "config": {**cfg, "platform": ep.platform},
         "tool_schema": ep.tool_schema()}
        for ep in catalog.endpoints.values() if wanted is None or ep.platform in wanted
    ]}


def write_tool_config(path: Path, **kwargs: Any) -> Path:
    """Write :func:`tool_config` as YAML (Korean kept readable)."""
    path.write_text(yaml.safe_dump(tool_config(**kwargs), allow_unicode=True, sort_keys=False),
                    encoding="utf-8")
    return path


def verl_row(example: Example, index: int, *, tools: Sequence[str] | None = None,
             split: str = "train", gold_program: str = "") -> dict[str, Any]:
    """A verl dataset row (the ``gsm8k_tool_agent_loop`` layout) for an example.

    ``extra_info`` carries the row's ``episode_id`` and the example row (JSON text) that
    :class:`KopaToolAgentLoop` reads; ``tools_kwargs`` names the same ``episode_id`` for the
    stock ``tool_agent`` loop (one episode per row there: its samples share it)."""
    row = {**example.row(), "gold_program": gold_program}
    eid = f"{example.id}:{index}"
    return {
        "data_source": DATA_SOURCE,
        "prompt": example.prompt,
        "ability": "tool-use",
        "reward_model": {"style": "rule", "ground_truth": example.answer},
        "extra_info": {"split": split, "index": index, "task_id": example.id, "episode_id": eid,
                       "check": json.dumps(example.check), "platforms": list(example.platforms),
                       "row": json.dumps(row, ensure_ascii=False, sort_keys=True),
                       "tools_kwargs": trajectory_tools_kwargs(row, list(tools or []), eid)},
        "agent_name": AGENT_NAME,
    }


def write_agent_loop_config(path: Path) -> Path:
    """Write the agent-loop YAML registering :class:`KopaToolAgentLoop` under
    :data:`AGENT_NAME` (``actor_rollout_ref.rollout.agent.agent_loop_config_path``)."""
    path.write_text(yaml.safe_dump([{"name": AGENT_NAME, "_target_": f"{__name__}.KopaToolAgentLoop"}],
                                   sort_keys=False), encoding="utf-8")
    return path


def write_verl_dataset(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """Write rows as parquet (needs pyarrow, in the ``train`` extra) or, for ``.jsonl``, JSONL."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Nested mappings whose keys vary by row (tools_kwargs) go in as JSON-compatible structs.
    pq.write_table(pa.Table.from_pylist(list(rows)), path)
    return path
