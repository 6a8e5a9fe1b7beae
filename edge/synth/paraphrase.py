"""The optional paraphrase pass: questions rewritten by an OpenAI-compatible model, each
rewrite kept only if it passes the rules its template question passed
(``simulator edge synthesize --paraphrase-base-url``)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import httpx

from simulator import Catalog, Resolver

from .checks import CHECKS, check_example
from .execute import ProgramError, ProgramRunner
from .form import NEAR_THRESHOLD, malformed
from .form import shingles as _shingles
from .writers import conversation, fitting_page_size

__all__ = ["PARAPHRASE_PROMPT", "PARAPHRASE_RULES", "paraphrase", "paraphrase_examples"]


#: What the paraphrasing model is told (the rules :func:`paraphrase_examples` checks again).
PARAPHRASE_PROMPT = (
    "다음 한국어 질문을 사람이 실제로 물을 법한 자연스러운 한 문장 질문으로 다시 써라. 뜻과 조건은 그대로 두고, "
    "따옴표 안의 값, 이름, 날짜, 숫자, 지역명은 하나도 빠뜨리거나 바꾸지 마라. 도구나 API 이름, 조회 절차, "
    "답이나 질문에 없는 값을 넣지 마라. 질문만 출력하라."
)

#: Why a paraphrase is set aside (besides the example rules, :data:`~edge.synth.checks.CHECKS`).
PARAPHRASE_RULES = ("empty", "malformed", "quoted_value", "number", "duplicate", "near_duplicate")


def paraphrase(questions: Sequence[str], *, base_url: str, model: str, api_key: str | None = None,
               timeout: float = 60.0, retries: int = 3, transport: Any = None,
               sleep: Any = None) -> list[str]:
    """Each question rewritten through an OpenAI-compatible chat endpoint (``POST
    {base_url}/chat/completions``, temperature 0), in order, one request per question.

    The raw rewrites: ``""`` where a 200 reply is not a chat completion. Nothing here checks
    them; :func:`paraphrase_examples` does. A transport error, 429 or 5xx is asked again up to
    ``retries`` times; one that still fails (or a 4xx) raises ``ConnectionError`` naming
    ``base_url`` and the status, so a dead endpoint is never mistaken for a paraphrase.
    """
    wait = sleep or time.sleep
    url = base_url.rstrip("/")
    out: list[str] = []
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    with httpx.Client(base_url=url, timeout=timeout, headers=headers, transport=transport) as client:
        for q in questions:
            body = {"model": model, "temperature": 0, "messages": [
                {"role": "system", "content": PARAPHRASE_PROMPT}, {"role": "user", "content": q}]}
            r = _post(client, body, retries, wait, f"base_url={url!r} model={model!r}")
            try:
                text = r.json()["choices"][0]["message"]["content"]
                out.append(text.strip() if isinstance(text, str) else "")
            except (ValueError, KeyError, IndexError, TypeError):
                out.append("")
    return out


def _post(client: Any, body: dict[str, Any], retries: int, wait: Any, where: str) -> Any:
    """A 200 reply to ``body``, asking again on a transport error, 429 or 5xx."""
    why = ""
    for attempt in range(max(1, retries)):
        try:
            r = client.post("/chat/completions", json=body)
        except httpx.HTTPError as exc:
            why = f"{type(exc).__name__}: {exc}"
        else:
            if r.status_code == 200:
                return r
            why = f"HTTP {r.status_code} {r.text[:120]!r}"
            if r.status_code < 500 and r.status_code != 429:
                break  # a 4xx does not get better by asking again
        if attempt + 1 < retries:
            wait(min(4.0, 0.25 * 2**attempt))
    raise ConnectionError(f"paraphrase endpoint {where} failed ({why}); check the URL, the model name "
                          "and that the server is up")


def paraphrase_examples(examples: list[dict[str, Any]], version: Any, catalog: Catalog, *, base_url: str,
                        model: str, api_key: str | None = None, **http: Any) -> dict[str, Any]:
    """Paraphrase the examples' questions in place, keeping only rewrites that pass the rules.

    A rewrite must pass what the template question passed: the example rules
    (:func:`~edge.synth.checks.check_example` on the rebuilt conversation: no tool name, every
    argument value stated, no answer or intermediate value in the question, …), the
    pipeline's question form (Hangul, at least 20 characters, no slot left), one line, every
    quoted value and every number of the template kept, and no (near-)duplicate of another
    question. A rewrite that breaks one is set aside and the template question kept, with
    the rules broken in ``paraphrase_rejected``; every example keeps its template question as
    ``question_template`` (its ``id`` is the template's). Returns the counts for the report.
    Same replies, same bytes: the requests go in order, and nothing here draws at random.
    """
    texts = paraphrase([e["question"] for e in examples], base_url=base_url, model=model, api_key=api_key, **http)
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
    current = [e["question"] for e in examples]
    shingles = [_shingles(q) for q in current]
    rejected: dict[str, int] = dict.fromkeys(PARAPHRASE_RULES + CHECKS, 0)
    used = 0
    for i, (e, text) in enumerate(zip(examples, texts)):
        orig = e["question"]
        e["question_template"] = orig
        bad = _paraphrase_form(orig, text)
        text = re.sub(r"\s+", " ", text).strip()
        cand = {**e, "question": text}
        if not bad and malformed(cand, catalog):
            bad.append("malformed")
        if not bad:
            sh = _shingles(text)
            others = [j for j in range(len(current)) if j != i]
            if any(" ".join(current[j].split()) == text for j in others):
                bad.append("duplicate")
            elif any(len(sh & shingles[j]) >= NEAR_THRESHOLD * len(sh | shingles[j]) for j in others):
                bad.append("near_duplicate")
        if not bad:
            try:
                run = ex.run(e["gold_program"])
                bad = check_example(cand, conversation(cand, ex, catalog), run.values, catalog)
            except ProgramError:
                bad = ["execution"]
                rejected.setdefault("execution", 0)
        if bad:
            e["paraphrase_rejected"] = bad
            for b in bad:
                rejected[b] += 1
            continue
        if text != orig:
            used += 1
        e["question"], current[i], shingles[i] = text, text, _shingles(text)
    rejected = {k: v for k, v in rejected.items() if v}
    return {"model": model, "asked": len(examples), "used": used,
            "rejected": sum(1 for e in examples if "paraphrase_rejected" in e), "rejected_by_rule": rejected}


def _paraphrase_form(orig: str, text: str) -> list[str]:
    """The text rules a rewrite breaks: empty, more than one line, quoted values or numbers of
    ``orig`` missing (a top-k's k, a threshold, a year: the question would ask something else)."""
    if not text.strip():
        return ["empty"]
    bad = ["malformed"] if "\n" in text.strip() else []
    if not all(v in text for v in re.findall(r"'([^']+)'", orig)):
        bad.append("quoted_value")
    if not all(n in text for n in re.findall(r"\d+(?:[.,]\d+)*", orig)):
        bad.append("number")
    return bad
