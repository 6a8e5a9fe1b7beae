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

import asyncio
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
    "DATASET_CLASS",
    "KopaSimTool",
    "ToolResponse",
    "compute_score",
    "scoped_prompt_length",
    "scoped_tool_schemas",
    "check_verl_dataset",
    "tool_config",
    "tool_platforms",
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
        """Answer one call: (observation, step reward 0.0, metrics of the call).

        The replay runs in a worker thread (``asyncio.to_thread``), off the agent loop's event
        loop: a cold call renders and parses a native page (tens of ms, hundreds for the
        largest collections) and would otherwise stall every other trajectory the loop is
        driving (their generation requests, their tool calls) for that long. Episodes and
        worlds are thread-safe (locks in :class:`SimEpisode` and the store)."""
        return await asyncio.to_thread(self.execute_sync, instance_id, parameters)

    def execute_sync(self, instance_id: str, parameters: dict[str, Any] | None) -> tuple[ToolResponse, float, dict[str, Any]]:
        """:meth:`execute`'s work, on the calling thread."""
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


def scoped_tool_schemas(schemas: Sequence[Mapping[str, Any]], platform_of: Mapping[str, str],
                        platforms: Sequence[str] | None) -> list[Mapping[str, Any]]:
    """The tool schemas a row is offered: those of its ``platforms`` (all when it names none).

    One rule for the agent loop (what the model is shown) and the dataset's length filter
    (what verl measures), so the filter measures the prompt the rollout really sends."""
    plats = set(platforms or [])
    return [t for t in schemas if not plats or platform_of.get(t["function"]["name"]) in plats]


def scoped_prompt_length(tokenizer: Any, messages: Sequence[Mapping[str, Any]], schemas: Sequence[Mapping[str, Any]],
                         platform_of: Mapping[str, str], platforms: Sequence[str] | None,
                         chat_template_kwargs: Mapping[str, Any] | None = None) -> int:
    """Tokens of a row's prompt rendered with its scoped tools (as verl's ``RLHFDataset``
    filter tokenizes a prompt: ``apply_chat_template(..., add_generation_prompt=True)``)."""
    kw = {k: v for k, v in dict(chat_template_kwargs or {}).items()
          if k not in ("tokenize", "return_dict", "return_tensors")}
    tools = scoped_tool_schemas(schemas, platform_of, platforms)
    ids = tokenizer.apply_chat_template([dict(m) for m in messages], add_generation_prompt=True, tokenize=True,
                                        tools=[dict(t) for t in tools] or None, **kw)
    if isinstance(ids, Mapping):  # transformers 5 may return a BatchEncoding
        ids = ids["input_ids"]
    if ids and isinstance(ids[0], list):
        ids = ids[0]
    return len(ids)


def tool_platforms(tool_config_path: str | Path) -> dict[str, str]:
    """Tool name → platform, read from a tool config written by :func:`write_tool_config`."""
    cfg = yaml.safe_load(Path(tool_config_path).read_text(encoding="utf-8")) or {}
    return {t["tool_schema"]["function"]["name"]: str((t.get("config") or {}).get("platform", ""))
            for t in cfg.get("tools", [])}


def _register_agent_loop() -> Any:  # pragma: no cover - needs verl
    from verl.experimental.agent_loop.agent_loop import register
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop

    counter = itertools.count()

    class KopaToolAgentLoop(ToolAgentLoop):  # type: ignore[misc,valid-type]
        """``ToolAgentLoop`` with one kopa-sim episode per trajectory, tools scoped to the
        row's platforms and the kopa reward as ``reward_score``."""

        shaping: dict[str, float] = {}

        async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
            info = dict(kwargs.get("extra_info") or {})
            row = json.loads(info["row"]) if isinstance(info.get("row"), str) else info.get("row") or {}
            key = f"{info.get('episode_id') or row.get('task_id') or 'row'}:{next(counter)}"
            platform_of = {name: str(t.config.get("platform", "")) for name, t in self.tools.items()}
            scoped = scoped_tool_schemas(self.tool_schemas, platform_of, row.get("platforms"))
            self.tool_schemas = scoped  # this instance only: one agent loop per sample
            kwargs["tools_kwargs"] = trajectory_tools_kwargs(row, [t["function"]["name"] for t in scoped], key)
            out = await super().run(sampling_params, **kwargs)
            text = self.tokenizer.decode(out.response_ids, skip_special_tokens=True)
            out.reward_score = trajectory_reward(key, text, info.get("shaping") or self.shaping, row)
            KopaSimTool.finish_episode(key)
            return out

    # Module-level names before registering: verl's registry records
    # f"{__module__}.{__qualname__}" as the hydra ``_target_``, which must import.
    KopaToolAgentLoop.__qualname__ = "KopaToolAgentLoop"
    return register(AGENT_NAME)(KopaToolAgentLoop)


def _dataset_class() -> Any:  # pragma: no cover - needs verl
    from verl.utils.dataset.rl_dataset import RLHFDataset

    class KopaRLHFDataset(RLHFDataset):  # type: ignore[misc,valid-type]
        """verl's ``RLHFDataset`` whose overlong-prompt filter measures each row with the tools
        :class:`KopaToolAgentLoop` will offer it (its platforms'), not with every tool of the
        tool config: the stock filter renders every prompt with the whole (union) tool set
        and, on a synthesis over several platforms, drops every row. Everything else is
        verl's (``data.custom_cls.path=pkg://train.verl_adapter``, ``name=KopaRLHFDataset``)."""

        def maybe_filter_out_long_prompts(self, dataframe: Any = None) -> Any:
            if (not self.filter_overlong_prompts or self.tool_schemas is None or self.processor is not None
                    or not self.tool_config_path):
                return super().maybe_filter_out_long_prompts(dataframe)
            platform_of = tool_platforms(self.tool_config_path)
            tok, key, schemas = self.tokenizer, self.prompt_key, self.tool_schemas
            kw, limit = dict(self.apply_chat_template_kwargs), self.max_prompt_length

            def fits(doc: Any) -> bool:
                plats = (doc.get("extra_info") or {}).get("platforms")
                return scoped_prompt_length(tok, doc[key], schemas, platform_of, plats, kw) <= limit

            dataframe = dataframe.filter(fits, num_proc=self.num_workers,
                                         desc=f"Filtering prompts (with their own tools) longer than {limit} tokens")
            print(f"filter dataset len: {len(dataframe)}")
            return dataframe

    KopaRLHFDataset.__qualname__ = "KopaRLHFDataset"
    return KopaRLHFDataset


#: ``data.custom_cls`` of the verl recipe: where verl loads :class:`KopaRLHFDataset` from.
DATASET_CLASS = {"path": "pkg://train.verl_adapter", "name": "KopaRLHFDataset"}


if HAVE_VERL:  # pragma: no cover - exercised only where verl is installed
    KopaToolAgentLoop = _register_agent_loop()
    KopaRLHFDataset = _dataset_class()


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
    """Write :func:`tool_config` as YAML (Korean kept readable); creates the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump([{"name": AGENT_NAME, "_target_": f"{__name__}.KopaToolAgentLoop"}],
                                   sort_keys=False), encoding="utf-8")
    return path


def write_verl_dataset(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """Write rows as parquet (needs pyarrow, in the ``train`` extra) or, for ``.jsonl``, JSONL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Nested mappings whose keys vary by row (tools_kwargs) go in as JSON-compatible structs.
    pq.write_table(pa.Table.from_pylist(list(rows)), path)
    return path


def check_verl_dataset(dataset: Path, tool_config_path: Path, tokenizer: Any, *, max_prompt_length: int,
                       chat_template_kwargs: Mapping[str, Any] | None = None,
                       cache_dir: Path | None = None) -> dict[str, Any]:
    """Load ``dataset`` with verl's own dataset class under the recipe's data settings and count
    the rows its overlong-prompt filter keeps (needs verl).

    The settings are the recipe's: ``data.custom_cls`` = :data:`DATASET_CLASS` (resolved by
    verl's ``get_dataset_class``, as ``main_ppo`` does), ``filter_overlong_prompts=True``,
    ``max_prompt_length``, ``return_raw_chat=True``, ``tool_config_path`` and the chat
    template kwargs. Returns ``{"rows", "kept", "min", "median", "max", "dataset_class"}``:
    lengths are of each prompt with its own tools, in ``tokenizer``'s tokens.
    """
    import tempfile

    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import get_dataset_class

    kw = dict(chat_template_kwargs or {})
    with tempfile.TemporaryDirectory(prefix="kopa-verl-check-") as tmp:
        cfg = OmegaConf.create({
            "max_prompt_length": int(max_prompt_length), "filter_overlong_prompts": True,
            "filter_overlong_prompts_workers": 1, "return_raw_chat": True, "prompt_key": "prompt",
            "tool_config_path": str(tool_config_path), "apply_chat_template_kwargs": kw,
            "custom_cls": dict(DATASET_CLASS), "cache_dir": str(cache_dir or tmp), "truncation": "error",
        })
        cls = get_dataset_class(cfg)
        ds = cls(data_files=[str(dataset)], tokenizer=tokenizer, config=cfg)
        kept = len(ds)
    rows = [json.loads(x) for x in dataset.read_text(encoding="utf-8").splitlines()] if dataset.suffix == ".jsonl" \
        else __import__("pyarrow.parquet", fromlist=["read_table"]).read_table(dataset).to_pylist()
    tcfg = yaml.safe_load(tool_config_path.read_text(encoding="utf-8")) or {}
    schemas = [t["tool_schema"] for t in tcfg.get("tools", [])]
    platform_of = tool_platforms(tool_config_path)
    lengths = sorted(scoped_prompt_length(tokenizer, r["prompt"], schemas, platform_of,
                                          (r.get("extra_info") or {}).get("platforms"), kw) for r in rows)
    return {"rows": len(rows), "kept": kept, "dataset_class": cls.__name__,
            "min": lengths[0] if lengths else 0, "median": lengths[len(lengths) // 2] if lengths else 0,
            "max": lengths[-1] if lengths else 0}
