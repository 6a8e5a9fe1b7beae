"""A hostile or broken model never takes down an episode (issue 31 §5).

Every tool call a model may emit (an argument named ``name`` or ``self``, a lone surrogate,
JSON nested 100k deep, ``function`` or ``tool_calls`` of the wrong type, a 5,000-digit
number …) becomes an error observation, a ``role: tool`` message, and the episode goes on;
every reply (not a message, content of the wrong type …) likewise; ``parse_tool_calls``
never raises on generated text. What the episode keeps (its messages) stays JSON that any
client can send back: no lone surrogates, no objects JSON cannot hold.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.kopa.env import World
from bench.kopa.tasks import load_tasks
from simulator import Store
from train.env import EnvConfig, SimEpisode, example_from_task
from train.trl_adapter import parse_tool_calls

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJ = '{"a":' * 100_000 + "1" + "}" * 100_000
BIG = "9" * 5000
HUGE = 10**5000 - 1  # the same 5,000 digits as a Python int (int(BIG) is refused)
TOOL = "mois_stan_regin_cd"


def _deep_list(n: int) -> Any:
    v: Any = []
    for _ in range(n):
        v = [v]
    return v


def _fn(name: Any = TOOL, arguments: Any = "{}") -> dict[str, Any]:
    return {"id": "call_0", "type": "function", "function": {"name": name, "arguments": arguments}}


#: (label, tool call): each must come back as a tool message, never raise.
HOSTILE_CALLS: list[tuple[str, Any]] = [
    ("argument named name", _fn(arguments='{"name": "x", "locatadd_nm": "서울"}')),
    ("argument named self", _fn(arguments='{"self": 1}')),
    ("argument named name (dict)", _fn(arguments={"name": "x"})),
    ("argument named self (dict)", _fn(arguments={"self": "x"})),
    ("lone surrogate in a value", _fn(arguments='{"locatadd_nm": "\\ud800"}')),
    ("lone surrogate in a value (dict)", _fn(arguments={"locatadd_nm": "\ud800"})),
    ("lone surrogate as an argument name", _fn(arguments='{"\\udfff": "x"}')),
    ("lone surrogate in the tool name", _fn(name="\ud800")),
    ("lone surrogate in the call id", {"id": "\ud800", "function": {"name": TOOL, "arguments": "{}"}}),
    ("arguments nested 100k deep (array)", _fn(arguments=DEEP)),
    ("arguments nested 100k deep (object)", _fn(arguments=DEEP_OBJ)),
    ("a value nested 100k deep", _fn(arguments='{"locatadd_nm": ' + DEEP + "}")),
    ("a dict value nested 100k deep", _fn(arguments={"locatadd_nm": _deep_list(100_000)})),
    ("a 5,000-digit number", _fn(arguments='{"pageNo": ' + BIG + "}")),
    ("a 5,000-digit number (dict)", _fn(arguments={"pageNo": HUGE})),
    ("a 5,000-digit number as the id", {"id": HUGE, "function": {"name": TOOL, "arguments": "{}"}}),
    ("a 5,000-digit number as the name", _fn(name=HUGE)),
    ("a 1e999 float", _fn(arguments='{"pageNo": 1e999}')),
    ("NaN", _fn(arguments='{"pageNo": NaN}')),
    ("function is a string", {"id": "c", "function": "mois_stan_regin_cd"}),
    ("function is a list", {"id": "c", "function": [TOOL, {}]}),
    ("function is null", {"id": "c", "function": None}),
    ("function is a number", {"id": "c", "function": 7}),
    ("call is a string", "mois_stan_regin_cd()"),
    ("call is null", None),
    ("call is a list", [TOOL, {}]),
    ("call is a number", 3),
    ("name is null", _fn(name=None)),
    ("name is a list", _fn(name=[TOOL])),
    ("name is a dict", _fn(name={"x": 1})),
    ("name is empty", _fn(name="")),
    ("name is 100k characters", _fn(name="a" * 100_000)),
    ("name is a dunder", _fn(name="__class__")),
    ("unknown tool", _fn(name="no_such_tool")),
    ("arguments are a list", _fn(arguments="[1, 2]")),
    ("arguments are a number", _fn(arguments="42")),
    ("arguments are null JSON", _fn(arguments="null")),
    ("arguments are a JSON string", _fn(arguments='"x"')),
    ("arguments are not JSON", _fn(arguments="{locatadd_nm: 서울")),
    ("arguments are a list object", _fn(arguments=[1, 2])),
    ("arguments are a number object", _fn(arguments=3.5)),
    ("arguments are a set", _fn(arguments={1, 2})),
    ("argument names are not strings", _fn(arguments={1: "x", None: 2})),
    ("argument value is an object", _fn(arguments='{"locatadd_nm": {"a": [1, 2]}}')),
    ("argument value is bytes", _fn(arguments={"locatadd_nm": b"\xff\xfe"})),
    ("argument value is an arbitrary object", _fn(arguments={"locatadd_nm": object()})),
    ("empty argument name", _fn(arguments='{"": "x"}')),
    ("10 MB argument value", _fn(arguments={"locatadd_nm": "서" * 10_000_000})),
    ("trailing garbage after JSON", _fn(arguments='{"locatadd_nm": "서울"} trailing')),
    ("kwargs form with name clash", {"name": TOOL, "kwargs": {"name": "x", "self": "y"}}),
]

#: (label, assistant reply): each must be taken by ``step`` without raising.
HOSTILE_REPLIES: list[tuple[str, Any]] = [
    ("tool_calls is a string", {"role": "assistant", "content": "", "tool_calls": "mois_stan_regin_cd"}),
    ("tool_calls is a dict", {"role": "assistant", "tool_calls": _fn()}),
    ("tool_calls is a number", {"role": "assistant", "tool_calls": 5}),
    ("tool_calls is True", {"role": "assistant", "tool_calls": True}),
    ("tool_calls holds junk", {"role": "assistant", "tool_calls": [None, 1, "x", [], {}]}),
    ("reply is a string", "ANSWER: 3"),
    ("reply is null", None),
    ("reply is a list", [{"role": "assistant", "content": "x"}]),
    ("reply is a number", 12),
    ("content is a dict", {"role": "assistant", "content": {"text": "x"}}),
    ("content is a list of parts", {"role": "assistant", "content": [{"type": "text", "text": "3"}, 7, None]}),
    ("content has a lone surrogate", {"role": "assistant", "content": "\ud800 answer"}),
    ("content nested 100k deep", {"role": "assistant", "content": _deep_list(100_000)}),
    ("content is a 5,000-digit number", {"role": "assistant", "content": HUGE}),
    ("tool_calls nested 100k deep", {"role": "assistant", "tool_calls": _deep_list(100_000)}),
    ("tool_calls of 1,000 calls", {"role": "assistant", "tool_calls": [_fn(arguments='{"self": 1}')] * 1000}),
]

#: Generated text ``parse_tool_calls`` must read without raising.
HOSTILE_TEXTS = [
    "<tool_call>" + DEEP + "</tool_call>",
    "<tool_call>" + DEEP_OBJ + "</tool_call>",
    '<tool_call>{"name": "x", "arguments": ' + DEEP + "}</tool_call>",
    '<tool_call>{"name": ' + DEEP + "}</tool_call>",
    '<tool_call>{"name": "x", "arguments": {"n": ' + BIG + "}}</tool_call>",
    '<tool_call>{"name": "\\ud800", "arguments": {"a": "\\udfff"}}</tool_call>',
    "<tool_call>[1, 2]</tool_call>",
    '<tool_call>"just a string"</tool_call>',
    "<tool_call>not json</tool_call>",
    '<tool_call>{"name": 5, "arguments": 7}</tool_call>',
]


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> World:
    return World(shipped_store.open("kopa"))


@pytest.fixture(scope="module")
def example(world: World) -> Any:
    return example_from_task(load_tasks()[0], world)


def _sendable(obj: Any) -> None:
    """What an episode keeps can be sent back to a chat endpoint (strict UTF-8 JSON)."""
    json.dumps(obj, ensure_ascii=False).encode("utf-8")


def _check_tool_message(msg: Any) -> None:
    assert isinstance(msg, dict) and msg["role"] == "tool"
    assert isinstance(msg["content"], str) and msg["content"]
    _sendable(msg)


def test_table_sizes() -> None:
    assert len(HOSTILE_CALLS) >= 47 and len(HOSTILE_REPLIES) >= 15


@pytest.mark.parametrize("label,call", HOSTILE_CALLS, ids=[c[0] for c in HOSTILE_CALLS])
def test_a_hostile_tool_call_is_an_error_observation(world: World, example: Any, label: str, call: Any) -> None:
    ep = SimEpisode(world, example, EnvConfig(max_turns=8))
    msg = ep.tool_message(call)
    _check_tool_message(msg)
    assert not ep.done
    out = ep.step({"role": "assistant", "content": "", "tool_calls": [call]})
    assert len(out) == 1
    _check_tool_message(out[0])
    _sendable(ep.messages)
    # and the episode goes on: a good call is answered from the simulator after it
    good = ep.tool_message(_fn(arguments=json.dumps({"locatadd_nm": "서울특별시 종로구"}, ensure_ascii=False)))
    assert "11110" in good["content"], good["content"][:300]


def test_named_clashes_reach_the_tool_as_arguments(world: World, example: Any) -> None:
    """``name`` and ``self`` are ordinary argument names: the tool refuses them by name."""
    ep = SimEpisode(world, example)
    msg = ep.tool_message(_fn(arguments='{"name": "x", "self": 1, "locatadd_nm": "서울특별시 종로구"}'))
    assert msg["content"].startswith("error") and "name" in msg["content"]
    assert ep.trace and ep.trace[-1].tool == TOOL


@pytest.mark.parametrize("label,reply", HOSTILE_REPLIES, ids=[r[0] for r in HOSTILE_REPLIES])
def test_a_hostile_reply_never_ends_the_run(world: World, example: Any, label: str, reply: Any) -> None:
    ep = SimEpisode(world, example, EnvConfig(max_turns=8))
    out = ep.step(reply)
    assert isinstance(out, list)
    for m in out:
        _check_tool_message(m)
    _sendable(ep.messages)
    if not ep.done:  # the episode goes on and can still finish
        ep.step({"role": "assistant", "content": "ANSWER: 1"})
    assert ep.done
    assert isinstance(ep.answer, str)
    _sendable(ep.stats())


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=[f"text{i}" for i in range(len(HOSTILE_TEXTS))])
def test_parse_tool_calls_never_raises(world: World, example: Any, text: str) -> None:
    calls = parse_tool_calls(text)
    assert len(calls) == 1
    _sendable(calls)
    ep = SimEpisode(world, example)
    out = ep.step({"role": "assistant", "content": "", "tool_calls": calls})
    assert len(out) == 1 and out[0]["content"].startswith("error")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6) | st.integers(), kids, max_size=4),
    max_leaves=12,
)
names = st.sampled_from([TOOL, "name", "self", "", "\ud800", "molit_apt_trades"]) | st.text(max_size=12) | json_values
arguments = json_values | json_values.map(lambda v: json.dumps(v, default=str)) | st.text(max_size=40)
calls = st.fixed_dictionaries(
    {}, optional={"id": json_values, "type": json_values, "name": names, "arguments": arguments,
                  "function": json_values | st.fixed_dictionaries({}, optional={"name": names, "arguments": arguments})}
) | json_values


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(reply=st.fixed_dictionaries({}, optional={"content": json_values, "tool_calls": st.lists(calls, max_size=3) | calls}) | json_values)
def test_any_reply_is_taken(world: World, example: Any, reply: Any) -> None:
    ep = SimEpisode(world, example, EnvConfig(max_turns=2))
    for _ in range(2):
        for m in ep.step(reply):
            _check_tool_message(m)
    _sendable(ep.messages)
    _sendable(ep.stats())


@settings(max_examples=150, deadline=None)
@given(body=st.text(max_size=60) | st.from_regex(r'\{"name": ?"?[a-z_\\ud800]{0,12}"?, ?"arguments": ?.{0,20}\}', fullmatch=True))
def test_any_generated_text_parses(body: str) -> None:
    _sendable(parse_tool_calls(f"<tool_call>{body}</tool_call> and <tool_call>{body[::-1]}</tool_call>"))
