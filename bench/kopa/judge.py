"""An optional LLM judge of RESPONSE, recorded beside the deterministic checker's verdict.

Any OpenAI-compatible ``/chat/completions`` endpoint grades the final message against the
gold answer with a fixed rubric (:data:`RUBRIC`) and answers one word. The deterministic
checker (:func:`bench.kopa.checkers.check_answer`) stays the verdict that scores; the judge's
is stored as ``judge`` in each result row and the summary reports how often the two agree.
"""

from __future__ import annotations

from typing import Any

from .agents import OpenAIAgent

__all__ = ["RUBRIC", "LLMJudge"]

#: The fixed grading rubric (the system message of every judge request).
RUBRIC = (
    "You grade a model's final answer to a question about Korean public data against the "
    "reference answer. The answer is CORRECT when the value it commits to is the reference: "
    "the same number (counts exactly; real values as rounded in the question), with units the "
    "question names converted (만원, 억), a sign said in words counted (적다/낮다 = negative), "
    "dates in any form, names with or without a region prefix or company suffix, list items in "
    "any order unless the question asks for an order. It is INCORRECT when it commits to another "
    "value, hedges between values, or gives none. Reply with exactly one word: CORRECT or INCORRECT."
)


class LLMJudge:
    """Grades answers through ``base_url``'s chat completions (temperature 0).

    Args:
        base_url, model, api_key: the judge's endpoint, as for :class:`OpenAIAgent`.
        retries, backoff, timeout: as for :class:`OpenAIAgent` (an endpoint failure raises
            :class:`~bench.kopa.agents.ModelEndpointError`: the run stops, nothing is stored).
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *, retries: int = 4,
                 backoff: float = 1.0, timeout: float = 120.0) -> None:
        self._client = OpenAIAgent(base_url, model, api_key, temperature=0.0, retries=retries, backoff=backoff,
                                   timeout=timeout, max_tokens=16)
        self.model = self._client.model

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()

    def __call__(self, question: str, gold: str, answer: str) -> bool | None:
        """True (CORRECT), False (INCORRECT), or None when the reply is neither word."""
        payload: dict[str, Any] = {
            "model": self.model, "temperature": 0.0, "max_tokens": 16, "seed": 0,
            "messages": [{"role": "system", "content": RUBRIC},
                         {"role": "user", "content": f"Question: {question}\nReference answer: {gold}\n"
                                                     f"Final answer to grade:\n{answer}"}]}
        text = str(self._client._post(payload)["choices"][0]["message"].get("content") or "")
        word = text.strip().strip("*.` ").upper()
        if word.startswith("INCORRECT"):
            return False
        if word.startswith("CORRECT"):
            return True
        return None
