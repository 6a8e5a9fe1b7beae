"""verl adapter: a ``BaseTool`` backed by the simulator, its tool-config YAML, the dataset
rows and a ``compute_score`` reward function.

verl builds one tool object per entry of the tool-config YAML (``tools: [{class_name,
config, tool_schema}]``) and, per trajectory, calls ``create(instance_id, **create_kwargs)``
(``create_kwargs`` from the row's ``extra_info.tools_kwargs[<tool>]``), ``execute`` for each
call, ``calc_reward`` and ``release``. All tools of one trajectory share one
:class:`~train.env.SimEpisode`, keyed by the ``episode_id`` create kwarg (the dataset rows
written here set it), so the trace holds every call of the trajectory.

verl is imported lazily: when it is installed, :class:`KopaSimTool` subclasses
``verl.tools.base_tool.BaseTool`` and returns ``verl.tools.schemas.ToolResponse``; when it
is not, the same interface (same async signatures) stands alone, so the class is testable
without verl or a GPU.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from bench.kopa.env import World

from .env import EnvConfig, Example, SimEpisode, open_world
from .rewards import answer_matches

__all__ = [
    "KopaSimTool",
    "ToolResponse",
    "compute_score",
    "tool_config",
    "verl_row",
    "write_tool_config",
    "write_verl_dataset",
]

DATA_SOURCE = "kopa-sim"

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
        """Open (or join) the trajectory's episode; ``kwargs`` are the row's create kwargs
        (``episode_id``, ``row``: the example's dataset row)."""
        import uuid

        iid = instance_id or str(uuid.uuid4())
        eid = str(kwargs.get("episode_id") or iid)
        with self._lock:
            ep = self._episodes.get(eid)
        if ep is None:
            row = kwargs.get("row")
            ex = Example.from_row(row) if row else None
            ep = SimEpisode(self._world(), ex, self._env_config(), episode_id=eid)
            with self._lock:
                ep = self._episodes.setdefault(eid, ep)
        with self._lock:
            self._instances[iid] = eid
        return iid, ToolResponse()

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
        """Forget the instance; the episode goes with its last instance."""
        with self._lock:
            eid = self._instances.pop(instance_id, None)
            if eid is not None and eid not in self._instances.values():
                self._episodes.pop(eid, None)


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: dict[str, Any] | None = None, **kwargs: Any) -> float:
    """verl's custom reward: 1.0 when ``solution_str``'s final answer passes the checker
    (``extra_info["check"]``, default exact) against ``ground_truth``, else 0.0."""
    return 1.0 if answer_matches(solution_str or "", ground_truth, (extra_info or {}).get("check")) else 0.0


def tool_config(world: World | None = None, *, platforms: Sequence[str] | None = None,
                set_name: str = "kopa", version: str | None = None,
                max_calls: int = 64) -> dict[str, Any]:
    """The tool-config mapping (``tools: [...]``) for ``multi_turn.tool_config_path``."""
    from simulator import load_catalog

    catalog = world.catalog if world is not None else load_catalog()
    cfg: dict[str, Any] = {"type": "native", "set": set_name, "max_calls": max_calls}
    if version:
        cfg["version"] = version
    return {"tools": [
        {"class_name": f"{KopaSimTool.__module__}.{KopaSimTool.__name__}", "config": dict(cfg),
         "tool_schema": ep.tool_schema()}
        for ep in catalog.endpoints.values() if platforms is None or ep.platform in platforms
    ]}


def write_tool_config(path: Path, **kwargs: Any) -> Path:
    """Write :func:`tool_config` as YAML (Korean kept readable)."""
    path.write_text(yaml.safe_dump(tool_config(**kwargs), allow_unicode=True, sort_keys=False),
                    encoding="utf-8")
    return path


def verl_row(example: Example, index: int, *, tools: Sequence[str] | None = None,
             split: str = "train") -> dict[str, Any]:
    """A verl dataset row (the ``gsm8k_tool_agent_loop`` layout) for an example."""
    row = example.row()
    create = {"episode_id": f"{example.id}:{index}", "row": row}
    names = list(tools) if tools is not None else []
    return {
        "data_source": DATA_SOURCE,
        "prompt": example.prompt,
        "ability": "tool-use",
        "reward_model": {"style": "rule", "ground_truth": example.answer},
        "extra_info": {"split": split, "index": index, "task_id": example.id,
                       "check": json.dumps(example.check),
                       "tools_kwargs": {n: {"create_kwargs": create} for n in names}},
        "agent_name": "tool_agent",
    }


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
