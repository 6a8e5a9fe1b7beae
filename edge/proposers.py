"""Proposers: where candidate edges come from (DESIGN §8, "propose").

Two implementations of one Protocol:

* ``OfflineProposer`` — no model: names (canonical tokens), catalog types and patterns, value
  formats (a 10-digit code into a 5-digit param by ``slice:0:5``) and value overlap in the
  cassettes (the source's values against the values the target was recorded with).
* ``LLMProposer`` — any OpenAI-compatible chat-completions endpoint scores each candidate pair
  and proposes its bindings; malformed answers are skipped and counted.

Both only score pairs the ``Retriever`` returns, so the work is O(n·k). No edge is written
down by hand anywhere: every edge comes from a proposer's reasoning over the catalog and data.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator import Endpoint

from .names import fixed_length, name_similarity, shape
from .observe import Observations
from .retrieve import Retriever, bindable_params, scalar_fields
from .transforms import apply_all, apply_transform, validate_transform
from .errors import EdgeError

__all__ = ["Binding", "LLMProposer", "OfflineProposer", "Proposer", "MIN_SCORE"]

#: Proposals scoring under this are dropped (the paper's admission threshold).
MIN_SCORE = 0.3


@dataclass(frozen=True, order=True)
class Binding:
    """A candidate edge: ``source_tool.source_field`` (transformed) fills ``target_tool.target_param``."""

    source_tool: str
    source_field: str
    target_tool: str
    target_param: str
    transform: str = ""
    score: float = 0.0
    rationale: str = ""

    @property
    def key(self) -> str:
        """Identity of the edge (score and rationale are not part of it)."""
        t = f"|{self.transform}" if self.transform else ""
        return f"{self.source_tool}.{self.source_field}->{self.target_tool}.{self.target_param}{t}"


# Contract: ``propose(tools, obs)`` yields Bindings between tools of ``tools`` only, each naming
# an existing field of its source and a bindable param of its target, score in [0, 1] and at
# least MIN_SCORE; it never raises for one bad candidate (it skips it), and is deterministic for
# the same tools, observations and answers.
class Proposer(Protocol):
    name: str

    def propose(self, tools: Sequence[Endpoint], obs: Observations) -> Iterator[Binding]: ...


# ---- offline ------------------------------------------------------------------------------


def _fullmatch_share(pattern: re.Pattern[str] | None, values: Sequence[str]) -> float | None:
    if pattern is None or not values:
        return None
    return sum(1 for v in values if pattern.fullmatch(v)) / len(values)


def _transforms(src_values: Sequence[str], target_len: int | None) -> list[str]:
    """Identity, plus prefix slices / zero padding suggested by the value shapes."""
    out = [""]
    if target_len is None:
        return out
    shapes = {shape(v) for v in src_values[:20]}
    digit_lens = {int(s[1:]) for s in shapes if s.startswith("d") and s[1:].isdigit()}
    if digit_lens and all(n > target_len for n in digit_lens):
        out.append(f"slice:0:{target_len}")
    elif digit_lens and all(n < target_len for n in digit_lens):
        out.append(f"pad:{target_len}")
    return out


@dataclass
class OfflineProposer:
    """Scores (field → param) bindings from names, types, formats and observed value overlap.

    score = 0.30·name + 0.25·format + 0.45·overlap (+0.05 for a field the catalog marks as a
    code), where *name* is the canonical-token similarity, *format* the share of transformed
    source values the param's pattern accepts (0.5 without a pattern), and *overlap* the
    share of the target's recorded values (its request params, or the records its filter
    selects on) found among the transformed source values.

    Args:
        retriever: candidate pairs (default: 15 same-domain + 10 cross-domain).
        min_score: proposals under it are dropped.
        per_pair: at most this many bindings per (source, target) pair, best first.
    """

    retriever: Retriever = field(default_factory=Retriever)
    min_score: float = MIN_SCORE
    per_pair: int = 2
    name: str = "offline"
    #: How many candidate pairs the last ``propose`` scored.
    pairs_scored: int = 0

    def propose(self, tools: Sequence[Endpoint], obs: Observations) -> Iterator[Binding]:
        by_id = {ep.id: ep for ep in tools}
        pairs = self.retriever.pairs(tools, obs)
        self.pairs_scored = len(pairs)
        sets: dict[tuple[str, str, str], set[str]] = {}

        def src_set(tool: str, fld: str, t: str) -> set[str]:
            k = (tool, fld, t)
            s = sets.get(k)
            if s is None:
                s = set(apply_all(obs.values(tool, fld), t))
                sets[k] = s
            return s

        patterns: dict[tuple[str, str], re.Pattern[str] | None] = {}
        fmts: dict[tuple[str, str, str, str | None, str], tuple[float | None, bool]] = {}
        src_fields = {ep.id: scalar_fields(ep) for ep in tools}
        tsets: dict[tuple[str, str], set[str]] = {}
        xforms: dict[tuple[str, str, int | None], list[str]] = {}
        for a_id, b_id in pairs:
            a, b = by_id[a_id], by_id[b_id]
            found: list[Binding] = []
            for pname in bindable_params(b):
                p = b.param(pname)
                assert p is not None
                pk = (b.id, pname)
                if pk not in patterns:
                    patterns[pk] = re.compile(p.pattern) if p.pattern else None
                pat = patterns[pk]
                tlen = fixed_length(p.pattern)
                recorded = {v for v in obs.recorded(b.id, pname) if len(v) >= _MIN_LEN}
                if p.example and len(p.example) >= _MIN_LEN:
                    recorded.add(p.example)
                # The records this param selects on: the query rule's field, else a same-named one.
                rule_field = next((r.field for r in (b.query.filters if b.query else []) if r.param == pname), None)
                tfield = rule_field or next((f for f in scalar_fields(b) if name_similarity(f, pname) == 1.0), None)
                tk = (b.id, tfield or "")
                if tk not in tsets:
                    tsets[tk] = {v for v in obs.values(b.id, tfield) if len(v) >= _MIN_LEN} if tfield else set()
                tvalues = tsets[tk]
                best: Binding | None = None
                for fname in src_fields[a.id]:
                    name = name_similarity(fname, pname)
                    values = obs.values(a.id, fname)
                    if not values:
                        continue
                    if name == 0.0 and pat is None:
                        continue  # nothing ties these two: skip the overlap work
                    xk = (a.id, fname, tlen)
                    if xk not in xforms:
                        xforms[xk] = _transforms(values, tlen)
                    for t in xforms[xk]:
                        fk = (a.id, fname, t, p.pattern, p.type)
                        if fk not in fmts:
                            sample = apply_all(values[:20], t)
                            ok = p.type not in ("integer", "number") or all(_numeric(v) for v in sample)
                            fmts[fk] = (_fullmatch_share(pat, sample), ok)
                        fmt, ok = fmts[fk]
                        if not ok or (fmt is not None and fmt < 0.5):
                            continue
                        s = src_set(a.id, fname, t)
                        overlap = 0.0
                        if recorded:
                            overlap = len(recorded & s) / len(recorded)
                        if tvalues:
                            small, big = (tvalues, s) if len(tvalues) <= len(s) else (s, tvalues)
                            hits = sum(1 for v in small if v in big)
                            overlap = max(overlap, hits / max(1, len(small)))
                        if name == 0.0 and overlap == 0.0:
                            continue  # a format alone fits too many params
                        code = any(f.code for f in a.fields if f.name == fname)
                        score = 0.30 * name + 0.25 * (0.5 if fmt is None else fmt) + 0.45 * overlap
                        score = round(min(1.0, score + (0.05 if code else 0.0)), 4)
                        if score < self.min_score:
                            continue
                        why = (
                            f"name {name:.2f}, format {'-' if fmt is None else f'{fmt:.2f}'}, "
                            f"overlap {overlap:.2f}{', code field' if code else ''}"
                            + (f", transform {t}" if t else "")
                        )
                        cand = Binding(a.id, fname, b.id, pname, t, score, why)
                        if best is None or (cand.score, -len(t)) > (best.score, -len(best.transform)):
                            best = cand
                if best is not None:
                    found.append(best)
            found.sort(key=lambda x: (-x.score, x.key))
            yield from found[: self.per_pair]


#: Values shorter than this (``1``, ``Y``) match by chance: they are no evidence of overlap.
_MIN_LEN = 3


def _numeric(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


# ---- LLM ----------------------------------------------------------------------------------


class _LLMBinding(BaseModel):
    model_config = ConfigDict(extra="ignore")
    source_field: str
    target_param: str
    transform: str = ""
    rationale: str = ""


class _LLMAnswer(BaseModel):
    model_config = ConfigDict(extra="ignore")
    score: float = Field(ge=0.0, le=1.0)
    bindings: list[_LLMBinding] = Field(default_factory=list)


SYSTEM_PROMPT = (
    "You judge whether the output of one Korean public open API can feed an input of another. "
    "Bind semantically equal fields even when names differ (SIGUN_NM = REGION_NM = rgn). "
    "Transforms: '' (none), 'slice:A:B' (characters A..B, e.g. slice:0:5 for the 5-digit "
    "sigungu code of a 10-digit legal-dong code, slice:0:6 for YYYYMM of YYYYMMDD), 'pad:N' "
    "(left zero-pad). Answer with JSON only: {\"score\": 0..1, \"bindings\": [{\"source_field\": "
    "..., \"target_param\": ..., \"transform\": ..., \"rationale\": ...}]}"
)


def _signature(ep: Endpoint, obs: Observations, side: str) -> dict[str, Any]:
    if side == "source":
        return {
            "tool": ep.id,
            "summary": ep.summary_en or ep.summary,
            "fields": {
                f: {"type": next(x.type for x in ep.fields if x.name == f),
                    "examples": obs.values(ep.id, f)[:3]}
                for f in scalar_fields(ep)
            },
        }
    params = {}
    for name in bindable_params(ep):
        p = ep.param(name)
        assert p is not None
        params[name] = {"type": p.type, "required": p.required, "pattern": p.pattern,
                        "example": p.example, "description": p.description_en or p.description}
    return {"tool": ep.id, "summary": ep.summary_en or ep.summary, "params": params}


@dataclass
class LLMProposer:
    """Asks an OpenAI-compatible chat-completions endpoint to score each candidate pair.

    Args:
        base_url: e.g. ``http://localhost:8000/v1`` (vLLM, SGLang, Ollama, hosted);
            default ``$EDGE_LLM_BASE_URL``.
        model: model name; default ``$EDGE_LLM_MODEL``.
        api_key: default ``$EDGE_LLM_API_KEY`` (sent as a bearer token, never logged).
        retries: attempts per request on transport errors, 429 and 5xx.
        environ: where the defaults are read (injected; default ``os.environ``).

    Counters after ``propose``: ``asked``, ``malformed`` (answers skipped), ``failed``
    (requests that gave up), ``dropped`` (bindings under ``min_score`` or naming nothing real).
    """

    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    retriever: Retriever = field(default_factory=Retriever)
    min_score: float = MIN_SCORE
    retries: int = 3
    timeout: float = 60.0
    environ: Mapping[str, str] | None = None
    transport: httpx.BaseTransport | None = None
    sleep: Callable[[float], None] = time.sleep
    name: str = "llm"
    asked: int = 0
    malformed: int = 0
    failed: int = 0
    dropped: int = 0

    def __post_init__(self) -> None:
        env = os.environ if self.environ is None else self.environ
        self.base_url = self.base_url or env.get("EDGE_LLM_BASE_URL")
        self.model = self.model or env.get("EDGE_LLM_MODEL")
        self.api_key = self.api_key or env.get("EDGE_LLM_API_KEY")
        if not self.base_url or not self.model:
            raise EdgeError(
                f"base_url={self.base_url!r} and model={self.model!r} are both needed: pass "
                "--base-url/--model or set EDGE_LLM_BASE_URL and EDGE_LLM_MODEL"
            )

    def _ask(self, client: httpx.Client, messages: list[dict[str, str]]) -> str | None:
        url = self.base_url.rstrip("/") + "/chat/completions"  # type: ignore[union-attr]
        payload = {"model": self.model, "messages": messages, "temperature": 0.0,
                   "response_format": {"type": "json_object"}}
        for attempt in range(self.retries):
            try:
                r = client.post(url, json=payload)
            except httpx.HTTPError:
                r = None
            if r is not None and r.status_code == 200:
                try:
                    return str(r.json()["choices"][0]["message"]["content"])
                except (ValueError, KeyError, IndexError, TypeError):
                    return ""  # a 200 that is not a chat completion: malformed
            if r is not None and r.status_code < 500 and r.status_code != 429:
                break  # 4xx other than 429 will not get better by asking again
            if attempt + 1 < self.retries:
                self.sleep(min(8.0, 0.5 * 2**attempt))
        self.failed += 1
        return None

    def propose(self, tools: Sequence[Endpoint], obs: Observations) -> Iterator[Binding]:
        by_id = {ep.id: ep for ep in tools}
        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        with httpx.Client(timeout=self.timeout, headers=headers, transport=self.transport) as client:
            for a_id, b_id in self.retriever.pairs(tools, obs):
                a, b = by_id[a_id], by_id[b_id]
                user = json.dumps({"source": _signature(a, obs, "source"),
                                   "target": _signature(b, obs, "target")}, ensure_ascii=False)
                self.asked += 1
                text = self._ask(client, [{"role": "system", "content": SYSTEM_PROMPT},
                                          {"role": "user", "content": user}])
                if text is None:
                    continue
                answer = _parse_answer(text)
                if answer is None:
                    self.malformed += 1
                    continue
                if answer.score < self.min_score:
                    self.dropped += len(answer.bindings) or 1
                    continue
                fields, params = set(scalar_fields(a)), set(bindable_params(b))
                for bd in answer.bindings:
                    try:
                        validate_transform(bd.transform)
                    except ValueError:
                        self.dropped += 1
                        continue
                    if bd.source_field not in fields or bd.target_param not in params:
                        self.dropped += 1
                        continue
                    yield Binding(a.id, bd.source_field, b.id, bd.target_param, bd.transform,
                                  round(answer.score, 4), bd.rationale[:300])


def _parse_answer(text: str) -> _LLMAnswer | None:
    """The answer's JSON (a fenced block is accepted), validated; None when malformed."""
    m = re.search(r"\{.*\}", text, re.S)
    if not m:
        return None
    try:
        return _LLMAnswer.model_validate(json.loads(m.group(0)))
    except (json.JSONDecodeError, ValidationError, TypeError):
        return None
