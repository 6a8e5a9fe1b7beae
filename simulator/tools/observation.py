"""The text a model reads for one tool call, within an observation budget.

One function for every place that shows a tool result to a model: the KOPA-Bench
``ToolEnv`` (and the GRPO environment built on it) and the EDGE synthesis conversations, so a
model is trained on exactly what the environment will return.
"""

from __future__ import annotations

from .call import Observation

__all__ = ["observation_text"]


def observation_text(obs: Observation, max_chars: int) -> str:
    """``obs.text`` (the native body as text), cut at ``max_chars`` with a note of its length.

    >>> observation_text(Observation("t", {}, True, 200, "cassette", body=b"abcdef"), 3)
    'abc\\n…(cut: 6 characters in all)'
    """
    text = obs.text
    if len(text) > max_chars:
        return text[:max_chars] + f"\n…(cut: {len(text)} characters in all)"
    return text
