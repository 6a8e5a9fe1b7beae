"""GRPO rollouts over the simulator (DESIGN §10): environment, rewards, TRL and verl adapters,
and a rollout runner against OpenAI-compatible policy servers.

The core (``env``, ``rewards``, ``rollout``, ``verl_adapter``) needs no heavy dependency;
``trl_adapter`` and the ``grpo`` command need the ``train`` extra (torch, transformers, trl).
"""

from __future__ import annotations

from .errors import TrainError
from .env import EnvConfig, Example, SimEpisode, example_from_task, open_world, parse_tool_call
from .rewards import RewardFunc, answer_reward, make_reward, no_invented_codes, all_pages_fetched, valid_tool_calls

__all__ = [
    "EnvConfig",
    "Example",
    "RewardFunc",
    "SimEpisode",
    "TrainError",
    "all_pages_fetched",
    "answer_reward",
    "example_from_task",
    "make_reward",
    "no_invented_codes",
    "open_world",
    "parse_tool_call",
    "valid_tool_calls",
]
