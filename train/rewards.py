"""Rewards as plain functions in TRL's contract.

Every function takes keyword arguments — ``completions`` (one per rollout: a string, or the
list of messages the policy produced in conversational mode) plus every dataset column as a
list with one entry per completion, plus whatever the trainer adds (``environments`` in
environment mode, extra keys returned by a ``rollout_func``) — and returns one float, or
None where it does not apply, per completion.

- :func:`answer_reward`: 1.0 when the final answer passes the task's checker (KOPA-Bench's
  :func:`~bench.kopa.checkers.check_answer`, exact / numeric / set), else 0.0. The default.
  Rows of EDGE's synthesized corpus work as they are: their ground truth is canonical JSON
  (``[13,5]``, ``"text"``) and their system prompt asks for ``답: …`` (see
  :func:`answer_matches`).
- Shaping terms, off unless asked for (:func:`make_reward`): :func:`valid_tool_calls` (share
  of calls the simulator answered), :func:`all_pages_fetched` (every record of each
  collection the gold program needs was fetched) and :func:`no_invented_codes` (no code
  argument that appears neither in the question nor in an earlier result). The last two are
  KOPA-Bench's ENVIRONMENT-axis evidence: from the benchmark's scorer on a bench task, from
  the row's ``gold_program`` on a synthesized row (:mod:`train.shaping`); None otherwise.

Traces come from ``environments`` (each an object with an ``episode`` attribute holding a
:class:`~train.env.SimEpisode`, as the TRL adapter's environments do), or from a
``episode_stats`` column of JSON dicts (what :mod:`train.rollout` and the ``rollout_func``
return).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from bench.kopa.checkers import check_answer  # the one checker, shared with the benchmark
from bench.kopa.tasks import Check
from .errors import TrainError

__all__ = [
    "SHAPING",
    "RewardFunc",
    "all_pages_fetched",
    "answer_matches",
    "answer_reward",
    "episode_evidence",
    "gold_text",
    "completion_text",
    "make_reward",
    "no_invented_codes",
    "valid_tool_calls",
]

#: A reward function: keyword arguments in (``completions`` + dataset columns, one entry per
#: completion, and it must accept ``**kwargs``), one float or None per completion out.
RewardFunc = Callable[..., list[float | None]]


def completion_text(completion: Any) -> str:
    """The policy's final text: the string itself, or the last assistant message's content."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    for msg in reversed(list(completion or [])):
        if msg.get("role") != "assistant":
            continue
        content = msg.get("content")
        if isinstance(content, list):
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return str(content or "")
    return ""


def _check(value: Any) -> Check:
    if value is None or value == "":
        return Check()
    if isinstance(value, str):
        value = json.loads(value)
    return Check.model_validate(value)


def gold_text(gold: Any) -> str:
    """The answer text a policy is asked to write for a gold value.

    EDGE's ground truth is canonical JSON (``edge.synth.pipeline.canonical``): a JSON list,
    object or string is written out the way its conversations answer (``[13,5]`` → ``13, 5``,
    ``{"a":1}`` → ``a 1``, ``"법"`` → ``법``); any other text (KOPA-Bench's answers, numbers)
    is returned unchanged.
    """
    text = str(gold)
    if not text.lstrip().startswith(("[", "{", '"')):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text

    if isinstance(value, list):
        return ", ".join(_item_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_item_text(v)}" for k, v in value.items())
    return _item_text(value)


def _item_text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (list, dict)):
        return gold_text(json.dumps(v, ensure_ascii=False))
    return str(v)


def answer_matches(text: str, gold: Any, check: Any = None, question: str = "") -> bool:
    """Whether a policy's final ``text`` passes ``check`` against ``gold``.

    KOPA-Bench's checker (it reads Korean answers as a person would; ``question`` tells the
    asked number from the question's own), plus EDGE's answer form: a final ``답: …`` line
    (what EDGE's system prompt asks for) counts as ``ANSWER: …`` when no ``ANSWER:`` marker is
    present, and the gold value goes through :func:`gold_text`.
    """
    text = text or ""  # extract_answer reads ANSWER / 정답 / 최종 답, else a bare 답: line
    chk = _check(check)
    items = _json_list(gold)
    if items is not None and chk.type == "exact":
        # An ordered list: item by item, numbers by value.
        return check_answer(text, ", ".join(items), chk, question)
    return check_answer(text, gold_text(gold), chk, question)


def _json_list(gold: Any) -> list[str] | None:
    text = str(gold).strip()
    if not text.startswith("["):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return [_item_text(v) for v in value] if isinstance(value, list) else None


def _question(prompt: Any) -> str:
    # The last user message of a TRL prompt (a string prompt is the question itself).
    if isinstance(prompt, str):
        return prompt
    users = [m for m in (prompt or []) if isinstance(m, dict) and m.get("role") == "user"]
    return str(users[-1].get("content") or "") if users else ""


def answer_reward(completions: Sequence[Any], answer: Sequence[Any] | None = None,
                  check: Sequence[Any] | None = None, prompts: Sequence[Any] | None = None,
                  **kwargs: Any) -> list[float | None]:
    """1.0 where the final answer passes the checker against the ``answer`` column, else 0.0.

    None for a completion whose row has no gold answer. ``prompts`` (TRL passes them) give
    the checker the question.
    """
    if answer is None:
        return [None] * len(completions)
    checks = list(check) if check is not None else [None] * len(completions)
    questions = [_question(p) for p in prompts] if prompts is not None else [""] * len(completions)
    out: list[float | None] = []
    for comp, gold, chk, q in zip(completions, answer, checks, questions, strict=True):
        if gold is None or str(gold) == "":
            out.append(None)
            continue
        out.append(1.0 if answer_matches(completion_text(comp), gold, chk, q) else 0.0)
    return out


def _episodes(n: int, environments: Sequence[Any] | None) -> list[Any]:
    if environments is None:
        return [None] * n
    return [getattr(e, "episode", e) for e in environments]


def _stats(n: int, environments: Sequence[Any] | None, episode_stats: Sequence[Any] | None) -> list[dict[str, Any] | None]:
    if episode_stats is not None:
        return [json.loads(s) if isinstance(s, str) else s for s in episode_stats]
    out: list[dict[str, Any] | None] = []
    for ep in _episodes(n, environments):
        out.append(episode_evidence(ep) if ep is not None else None)
    return out


def episode_evidence(ep: Any) -> dict[str, Any]:
    """An episode's stats plus its ENVIRONMENT evidence (``page_gaps``, ``invented``): from
    KOPA-Bench's scorer for a bench task, from the row's gold program for a synthesized row
    (:func:`train.shaping.synth_evidence`); absent when neither applies."""
    st = dict(ep.stats())
    sc = ep.score(answer="")  # the ENVIRONMENT evidence does not depend on the answer
    if sc is not None:
        st["page_gaps"] = len(sc.details.get("page_gaps", []))
        st["invented"] = len(sc.details.get("invented", []))
    elif ep.example is not None and ep.example.gold_program:
        from .shaping import synth_evidence

        st.update(synth_evidence(ep.world, ep.example.gold_program, ep.example.question, ep.trace) or {})
    return st



def valid_tool_calls(completions: Sequence[Any], environments: Sequence[Any] | None = None,
                     episode_stats: Sequence[Any] | None = None, **kwargs: Any) -> list[float | None]:
    """Share of the episode's tool calls the simulator answered (None: no calls or no trace)."""
    out: list[float | None] = []
    for st in _stats(len(completions), environments, episode_stats):
        calls = (st or {}).get("calls", 0) + (st or {}).get("invalid_calls", 0)
        out.append(None if not st or calls == 0 else st["ok_calls"] / calls)
    return out


def all_pages_fetched(completions: Sequence[Any], environments: Sequence[Any] | None = None,
                      episode_stats: Sequence[Any] | None = None, **kwargs: Any) -> list[float | None]:
    """1.0 when every collection the gold program pages through was fetched whole
    (None when the row has no gold program)."""
    return [None if not st or "page_gaps" not in st else float(st["page_gaps"] == 0)
            for st in _stats(len(completions), environments, episode_stats)]


def no_invented_codes(completions: Sequence[Any], environments: Sequence[Any] | None = None,
                      episode_stats: Sequence[Any] | None = None, **kwargs: Any) -> list[float | None]:
    """1.0 when no code argument was invented (None when the row has no gold program)."""
    return [None if not st or "invented" not in st else float(st["invented"] == 0)
            for st in _stats(len(completions), environments, episode_stats)]


#: Shaping terms by name (all off by default).
SHAPING: dict[str, RewardFunc] = {
    "valid_tool_calls": valid_tool_calls,
    "all_pages_fetched": all_pages_fetched,
    "no_invented_codes": no_invented_codes,
}


def make_reward(shaping: dict[str, float] | None = None, *, answer_weight: float = 1.0) -> RewardFunc:
    """One reward: ``answer_weight`` × answer correctness + Σ weight × shaping term.

    A shaping term that is None for a completion adds nothing. ``shaping`` names keys of
    :data:`SHAPING`; with none (the default) this is :func:`answer_reward` scaled.
    """
    shaping = dict(shaping or {})
    bad = sorted(set(shaping) - set(SHAPING))
    if bad:
        raise TrainError(f"shaping={bad!r} unknown; choose from {', '.join(SHAPING)}")

    def kopa_reward(completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        base = answer_reward(completions, **kwargs)
        total: list[float | None] = [None if b is None else answer_weight * b for b in base]
        for name, w in shaping.items():
            for i, v in enumerate(SHAPING[name](completions, **kwargs)):
                if v is not None:
                    total[i] = (total[i] or 0.0) + w * v
        return total

    kopa_reward.__doc__ = f"Answer correctness (weight {answer_weight}) plus shaping {shaping or 'none'}."
    return kopa_reward
