"""Hand-made EDGE examples and conversations for rule tests (tests/edge/synth)."""

from __future__ import annotations

import json
from typing import Any


def example(question: str, answer: Any, steps: list[dict[str, Any]], bound: list[str] | None = None) -> dict[str, Any]:
    """An example dict with a gold program whose answer is its last step."""
    return {"question": question, "answer": answer, "bound_values": bound or [],
            "gold_program": {"steps": steps, "answer": {"$ref": steps[-1]["id"]}}}


def tool_messages(calls: list[tuple[str, dict[str, str], str]]) -> list[dict[str, Any]]:
    """Assistant tool calls and their tool results, one pair per ``(tool, args, text)``."""
    out: list[dict[str, Any]] = []
    for i, (tool, args, text) in enumerate(calls):
        out.append({"role": "assistant", "tool_calls": [{"id": f"c{i}", "function": {
            "name": tool, "arguments": json.dumps(args, ensure_ascii=False)}}]})
        out.append({"role": "tool", "tool_call_id": f"c{i}", "content": text})
    return out
