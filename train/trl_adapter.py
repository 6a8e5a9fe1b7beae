"""TRL (≥ 1.16) adapter: an ``environment_factory`` class generated from the catalog, and a
``rollout_func`` that drives :class:`~train.env.SimEpisode` with the trainer's model.

``GRPOTrainer(environment_factory=make_environment_class(...))``: TRL builds one instance per
rollout, calls ``reset(**row)`` with the dataset row, exposes every public method as a tool
(schemas from type hints and Google docstrings — generated here from the catalog, codes typed
``str`` so leading zeros survive) and adds ``get_reward()`` as a reward source.

TRL executes a tool call *before* it checks the completion-length budget and may then drop
the result: the tools are side-effect-free (the simulator is read-only) and every call,
kept or dropped, is in the episode's trace.

Nothing here imports torch, transformers or trl at module level.
"""

from __future__ import annotations

import inspect
import itertools
import json
import keyword
import re
import threading
import time
from typing import Any, Callable, Mapping, Sequence

from bench.kopa.env import World
from bench.kopa.tasks import Task, load_tasks
from simulator import Endpoint

from .env import EnvConfig, Example, SimEpisode, clean_text, example_from_task
from .rewards import SHAPING, episode_evidence
from .errors import TrainError

__all__ = [
    "KopaEnvBase",
    "make_environment_class",
    "make_rollout_func",
    "parse_tool_calls",
    "tool_method",
]

_PY_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _param_doc(p: Any) -> str:
    desc = p.description or p.description_en
    if p.description and p.description_en:
        desc = f"{p.description} ({p.description_en})"
    desc = _one_line(desc or f"{p.name} ({p.role})")
    if p.example:
        desc += f" 예: {_one_line(p.example)}"
    if p.enum:
        desc += " (choices: " + json.dumps([str(e) for e in p.enum], ensure_ascii=False) + ")"
    return desc


def _identifiers(names: list[str]) -> dict[str, str]:
    """Each parameter name as a Python identifier (a method signature needs one).

    Most names are already identifiers; a generated endpoint's may not be
    (``cond[BASE_DATE::EQ]`` → ``cond_BASE_DATE_EQ``). Calls map the alias back.
    """
    out: dict[str, str] = {}
    taken = {"self"}
    for name in names:
        a = name
        if not name.isidentifier() or keyword.iskeyword(name) or name == "self":
            a = re.sub(r"\W+", "_", name).strip("_") or "arg"
            if not a.isidentifier() or keyword.iskeyword(a):
                a = f"p_{a}"
        base, n = a, 2
        while a in taken:
            a, n = f"{base}_{n}", n + 1
        taken.add(a)
        out[name] = a
    return out


def tool_method(ep: Endpoint) -> Callable[..., str]:
    """A method calling ``ep`` through ``self.episode``, typed and documented from the catalog.

    The signature (``__signature__``) lists the endpoint's parameters, required ones first,
    optional ones defaulting to None; the body accepts any keyword so that a call with a
    wrong argument still reaches the simulator and is logged (answered with its 400 error).
    """
    params = [p for p in ep.params if p.role not in ("auth", "format")]
    params.sort(key=lambda p: not p.required)
    alias = _identifiers([p.name for p in params])
    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for p in params:
        t: Any = _PY_TYPES[p.type]
        if p.required:
            sig_params.append(inspect.Parameter(alias[p.name], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                annotation=t))
        else:
            t = t | None
            sig_params.append(inspect.Parameter(alias[p.name], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                annotation=t, default=None))
        annotations[alias[p.name]] = t
    annotations["return"] = str
    names = [p.name for p in params]
    real = {a: n for n, a in alias.items()}
    tool = ep.id

    def method(self: Any, *args: Any, **kwargs: Any) -> str:
        kwargs = {real.get(k, k): v for k, v in kwargs.items()}
        kwargs.update(zip(names, args))
        return str(self._call(tool, kwargs))

    summary = ep.summary if not ep.summary_en else f"{ep.summary} — {ep.summary_en}"
    doc = _one_line(summary) + "\n"
    if params:
        doc += "\nArgs:\n" + "".join(f"    {alias[p.name]}: {_param_doc(p)}\n" for p in params)
    doc += "\nReturns:\n    The platform's native response body (JSON or XML text), or an error line.\n"
    method.__name__ = method.__qualname__ = tool
    method.__doc__ = doc
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
    return method


class KopaEnvBase:
    """Base of the generated environment classes (TRL's duck-typed environment contract).

    Class attributes set by :func:`make_environment_class`: the world factory, the episode
    config, the shaping weights of :meth:`get_reward` and the benchmark tasks by id.
    """

    _world_factory: Callable[[], World]
    _config: EnvConfig = EnvConfig()
    _shaping: dict[str, float] = {}
    _tasks: dict[str, Task] | None = None
    _shared: dict[str, Any]

    def __init__(self) -> None:
        self.episode: SimEpisode | None = None

    @classmethod
    def world(cls) -> World:
        """The shared world (opened once per class)."""
        with cls._shared["lock"]:
            if cls._shared.get("world") is None:
                cls._shared["world"] = cls._world_factory()
            return cls._shared["world"]  # type: ignore[no-any-return]

    @classmethod
    def _episode_id(cls, row_id: str) -> str:
        with cls._shared["lock"]:
            n = cls._shared["resets"].get(row_id, 0)
            cls._shared["resets"][row_id] = n + 1
        return f"{row_id}:{n}"

    def reset(self, **row: Any) -> str | None:
        """Start an episode for a dataset row (bench-derived or synthesized); no prompt text added."""
        world = self.world()
        ex = Example.from_row(row)
        task = (self._tasks or {}).get(ex.id)
        if task is not None:
            full = example_from_task(task, world)
            ex.task, ex.gold = full.task, full.gold
        self.episode = SimEpisode(world, ex, self._config, episode_id=self._episode_id(ex.id or "row"))
        return None

    def _call(self, tool: str, kwargs: dict[str, Any]) -> str:
        if self.episode is None:
            raise RuntimeError("reset() must be called before a tool (TRL calls it per rollout)")
        t0 = time.perf_counter()
        try:
            return self.episode.call_tool(tool, **kwargs)
        finally:  # measured, not modelled: the simulator's share of a run's wall time
            dt = time.perf_counter() - t0
            with self._shared["lock"]:
                self._shared["sim_seconds"] = self._shared.get("sim_seconds", 0.0) + dt
                self._shared["sim_calls"] = self._shared.get("sim_calls", 0) + 1

    @classmethod
    def simulator_time(cls) -> tuple[float, int]:
        """(seconds spent answering tool calls, calls answered) by this class's instances."""
        with cls._shared["lock"]:
            return float(cls._shared.get("sim_seconds", 0.0)), int(cls._shared.get("sim_calls", 0))

    def get_reward(self) -> float:
        """The environment's own reward: Σ weight × shaping term (0.0 with shaping off)."""
        if self.episode is None or not self._shaping:
            return 0.0
        total = 0.0
        for name, w in self._shaping.items():
            v = SHAPING[name]([""], environments=[self])[0]
            total += w * (v or 0.0)
        return total


class _KopaEnvNoReward(KopaEnvBase):
    """:class:`KopaEnvBase` without ``get_reward`` (TRL finds methods on the class)."""

    get_reward = None  # type: ignore[assignment]


def make_environment_class(
    world: World | Callable[[], World] | None = None,
    *,
    platforms: Sequence[str] | None = None,
    tools: Sequence[str] | None = None,
    config: EnvConfig = EnvConfig(),
    shaping: Mapping[str, float] | None = None,
    tasks: Sequence[Task] | None = None,
    name: str = "KopaSimEnv",
    own_reward: bool = True,
) -> type[KopaEnvBase]:
    """An environment class for ``GRPOTrainer(environment_factory=...)``.

    Args:
        world: a :class:`World`, a zero-argument factory, or None (the latest ``kopa`` version).
        platforms: expose only these platforms' tools (default all; keep prompts short).
        tools: expose only these tool ids (overrides ``platforms``).
        config: episode budgets and faults.
        shaping: weights of :data:`~train.rewards.SHAPING` terms returned by ``get_reward``.
        tasks: benchmark tasks by which rows' ``task_id`` get three-axis scoring
            (default: the shipped KOPA-Bench tasks).
        name: the class name (TRL logs ``get_reward`` under it).
        own_reward: give the class ``get_reward`` (TRL then adds it as a reward source);
            False when the reward functions carry the shaping (one class per platform set
            would otherwise add one zero reward column each).
    """
    bad = sorted(set(shaping or {}) - set(SHAPING))
    if bad:
        raise TrainError(f"shaping={bad!r} unknown; choose from {', '.join(SHAPING)}")
    if world is None:
        from .env import open_world

        factory: Callable[[], World] = open_world
    elif isinstance(world, World):
        w = world
        factory = lambda: w  # noqa: E731
    else:
        factory = world
    from simulator import load_catalog

    catalog = world.catalog if isinstance(world, World) else load_catalog()
    if tools is not None:
        unknown = sorted(set(tools) - set(catalog.endpoints))
        if unknown:
            raise TrainError(f"tools={unknown!r} are not catalog tools")
        eps = [catalog.endpoints[t] for t in tools]
    else:
        wanted = None if platforms is None else set(catalog.resolve_platforms(list(platforms))[0])  # old gen_ ids too
        eps = [e for e in catalog.endpoints.values() if wanted is None or e.platform in wanted]
    ns: dict[str, Any] = {ep.id: tool_method(ep) for ep in eps}
    task_map = {t.id: t for t in (tasks if tasks is not None else load_tasks(catalog=catalog))}
    ns.update(_world_factory=staticmethod(factory), _config=config, _shaping=dict(shaping or {}),
              _tasks=task_map, _shared={"lock": threading.Lock(), "world": None, "resets": {}},
              __doc__=f"kopa-sim environment with {len(eps)} catalog tools (generated).",
              __module__=__name__)
    return type(name, (KopaEnvBase,) if own_reward else (_KopaEnvNoReward,), ns)


# ---- rollout_func ------------------------------------------------------------------------

_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)

#: A scripted turn: (messages so far, episode) → the assistant's text for this turn, or None
#: to let the model generate it. Lets tests and warm starts inject tool calls.
ScriptedTurn = Callable[[list[dict[str, Any]], SimEpisode], "str | None"]


def parse_tool_calls(text: str) -> list[dict[str, Any]]:
    """OpenAI tool-call dicts from ``<tool_call>{"name":…, "arguments":…}</tool_call>`` blocks
    (Hermes / Qwen format); a block that cannot be read (not JSON, nested too deep, a number
    Python refuses, not an object) becomes a call with its text as unparseable arguments, for
    the episode to answer with an error. Never raises on generated text, and what it returns is
    JSON a chat endpoint accepts (a lone surrogate escaped by the JSON ``\\u`` form, or replaced).
    """
    calls = []
    for i, m in enumerate(_TOOL_CALL.finditer(text)):
        name: Any = ""
        args: Any = m.group(1)
        try:
            obj = json.loads(m.group(1))
        except (ValueError, RecursionError):  # JSONDecodeError, too deep, too many digits
            obj = None
        if isinstance(obj, dict):
            name, args = obj.get("name", ""), obj.get("arguments", {})
        calls.append({"id": f"call_{i}", "type": "function",
                      "function": {"name": clean_text(name) if isinstance(name, str) else _json_text(name),
                                   "arguments": clean_text(args) if isinstance(args, str) else _json_text(args)}})
    return calls


def _json_text(value: Any) -> str:
    """``value`` (parsed from generated text) as JSON text: readable Korean when it can be,
    ``\\uXXXX`` escapes when it holds a lone surrogate, its type when it cannot be dumped."""
    try:
        out = json.dumps(value, ensure_ascii=False)
        out.encode("utf-8")
        return out
    except UnicodeEncodeError:
        return json.dumps(value)
    except (ValueError, RecursionError, TypeError):
        return clean_text(value)


def _suffix_ids(tok: Any, tool_messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> list[int]:
    """Token ids a template puts after an assistant turn for ``tool_messages`` plus the next
    generation prompt (the EOS-aligned difference of two renderings, as TRL computes it)."""
    dummy = [{"role": "user", "content": "dummy"},
             {"role": "assistant", "content": "",
              "tool_calls": [{"type": "function", "function": {"name": tool_messages[0].get("name", "tool"),
                                                               "arguments": {}}}]}]
    pre = list(tok.apply_chat_template(dummy, tokenize=True, return_dict=False, **kwargs))
    full = list(tok.apply_chat_template(dummy + tool_messages, add_generation_prompt=True,
                                        tokenize=True, return_dict=False, **kwargs))
    eos = [i for i, t in enumerate(pre) if t == tok.eos_token_id]
    if eos:
        pre = pre[: eos[-1] + 1]
    if full[: len(pre)] != pre:
        raise TrainError("the chat template is not prefix-preserving for tool messages")
    return full[len(pre):]


def _training_template(trainer: Any, tok: Any) -> str | None:
    """A prefix-preserving template for multi-turn token concatenation (TRL's training
    template when the tokenizer's own is not; TRL sets it itself only when it runs tools)."""
    if getattr(trainer, "chat_template", None):
        return str(trainer.chat_template)
    from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving

    if is_chat_template_prefix_preserving(tok):
        return None
    return str(get_training_chat_template(tok))


def make_rollout_func(
    rows: Sequence[Mapping[str, Any]],
    world: World,
    *,
    config: EnvConfig = EnvConfig(max_turns=4),
    tasks: Sequence[Task] | None = None,
    max_new_tokens: int = 1024,
    scripted: ScriptedTurn | None = None,
    chat_template_kwargs: Mapping[str, Any] | None = None,
) -> Callable[[list[Any], Any], dict[str, Any]]:
    """A ``GRPOTrainer(rollout_func=...)`` running multi-turn episodes with the trainer's model.

    Each received prompt (TRL passes them already repeated per generation) is matched to its
    row by the last user message; the model generates a turn, ``<tool_call>`` blocks are
    answered by the episode, tool-result tokens are appended with ``env_mask`` 0, until a
    turn has no call or ``config.max_turns`` is reached. Extra outputs forwarded to the
    reward functions: ``episode_stats`` (JSON per completion) and ``trace`` (JSON).

    Args:
        rows: the dataset rows (``prompt`` + ``answer`` + …).
        world: the pinned world.
        scripted: optional scripted turns (see :data:`ScriptedTurn`).
    """
    task_map = {t.id: t for t in (tasks if tasks is not None else load_tasks(catalog=world.catalog))}
    by_question: dict[str, Mapping[str, Any]] = {}
    for r in rows:
        by_question[Example.from_row(r).question] = r
    counter = itertools.count()

    def rollout(prompts: list[Any], trainer: Any) -> dict[str, Any]:
        import torch

        tok = trainer.processing_class
        model = trainer.accelerator.unwrap_model(trainer.model)
        kw = dict(chat_template_kwargs or getattr(trainer.args, "chat_template_kwargs", None) or {})
        template = _training_template(trainer, tok)
        if template is not None:
            kw["chat_template"] = template
        out: dict[str, list[Any]] = {"prompt_ids": [], "completion_ids": [], "logprobs": [],
                                     "env_mask": [], "episode_stats": [], "trace": []}
        for prompt in prompts:
            msgs = [dict(m) for m in prompt]
            ex = Example.from_row({"prompt": msgs})
            row = by_question.get(ex.question)
            if row is None:
                raise KeyError(f"no dataset row for the prompt {ex.question[:80]!r}")
            ex = Example.from_row(row)
            task = task_map.get(ex.id)
            if task is not None:
                full = example_from_task(task, world)
                ex.task, ex.gold = full.task, full.gold
            ep = SimEpisode(world, ex, config, episode_id=f"{ex.id}:{next(counter)}")
            tools = ep.tools()
            prompt_ids = list(tok.apply_chat_template(msgs, tools=tools, add_generation_prompt=True,
                                                      tokenize=True, return_dict=False, **kw))
            completion: list[int] = []
            mask: list[int] = []
            logps: list[float] = []
            conv = list(msgs)
            while not ep.done:
                text = scripted(conv, ep) if scripted is not None else None
                if text is not None:
                    gen = list(tok.encode(text, add_special_tokens=False)) + [tok.eos_token_id]
                    gen_lp = [0.0] * len(gen)
                else:
                    ids = torch.tensor([prompt_ids + completion])
                    with torch.no_grad():
                        res = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids),
                                             max_new_tokens=max_new_tokens, do_sample=True,
                                             output_scores=True, return_dict_in_generate=True,
                                             pad_token_id=tok.pad_token_id)
                    gen = res.sequences[0, ids.shape[1]:].tolist()
                    gen_lp = [float(torch.log_softmax(s[0].float(), -1)[t]) for s, t in zip(res.scores, gen)]
                    if tok.eos_token_id in gen:
                        cut = gen.index(tok.eos_token_id) + 1
                        gen, gen_lp = gen[:cut], gen_lp[:cut]
                    text = tok.decode(gen, skip_special_tokens=True)
                completion += gen
                mask += [1] * len(gen)
                logps += gen_lp
                calls = parse_tool_calls(text)
                msg: dict[str, Any] = {"role": "assistant", "content": _TOOL_CALL.sub("", text).strip()}
                if calls:
                    msg["tool_calls"] = calls
                tool_msgs = ep.step(msg)
                if not tool_msgs or ep.done:
                    conv.append(msg)
                    break
                if gen and gen[-1] != tok.eos_token_id:
                    completion.append(tok.eos_token_id)
                    mask.append(1)
                    logps.append(0.0)
                tmsgs = [{"role": "tool", "name": m.get("name", ""), "content": m["content"]} for m in tool_msgs]
                suffix = _suffix_ids(tok, tmsgs, kw)
                completion += suffix
                mask += [0] * len(suffix)
                logps += [0.0] * len(suffix)
                conv += [msg, *tool_msgs]
            out["prompt_ids"].append(prompt_ids)
            out["completion_ids"].append(completion)
            out["logprobs"].append(logps)
            out["env_mask"].append(mask)
            out["episode_stats"].append(json.dumps(episode_evidence(ep)))
            out["trace"].append(json.dumps(ep.trace_json(), ensure_ascii=False))
        return out

    return rollout
