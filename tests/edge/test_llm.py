"""The LLM proposer against a local OpenAI-compatible chat-completions server (real HTTP).

The stub is a raw ASGI app on a loopback port (``tests.support.loopback.serve_in_thread``). It reads
which (source, target) pair each request asks about from the user message and answers from
a script: good proposals, malformed JSON, out-of-range scores, scores under 0.3, unknown
field and param names, HTTP 500 then success, and a server that keeps failing.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from edge import MIN_SCORE, Binding, LLMProposer, Observations, Retriever
from simulator import Catalog, Endpoint, load_catalog
from tests.support.loopback import read_body, serve_in_thread

Reply = tuple[int, Any]  # (HTTP status, body: a dict is sent as JSON, a str as it is)


def chat(content: str) -> Reply:
    """A 200 chat completion whose message content is ``content``."""
    return 200, {"id": "cmpl-1", "object": "chat.completion", "model": "stub",
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": content}}]}


def answer(score: float, *bindings: tuple[str, str, str]) -> Reply:
    return chat(json.dumps({"score": score, "bindings": [
        {"source_field": f, "target_param": p, "transform": t, "rationale": f"{f} is {p}"} for f, p, t in bindings
    ]}))


@dataclass
class StubLLM:
    """Raw ASGI chat-completions server; ``script`` maps "source->target" to replies in order
    (the last one repeats). Every request is logged."""

    script: dict[str, list[Reply]]
    log: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        body = await read_body(receive)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if scope["method"] != "POST" or scope["path"] != "/v1/chat/completions":
            status, reply = 404, {"error": {"message": f"no route {scope['path']}"}}
        else:
            payload = json.loads(body)
            user = json.loads(payload["messages"][-1]["content"])
            pair = f"{user['source']['tool']}->{user['target']['tool']}"
            with self._lock:
                n = sum(1 for e in self.log if e.get("pair") == pair)
                self.log.append({"pair": pair, "headers": headers, "payload": payload, "user": user})
            replies = self.script.get(pair, [answer(0.0)])
            status, reply = replies[min(n, len(replies) - 1)]
        data = reply.encode("utf-8") if isinstance(reply, str) else json.dumps(reply).encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})


@dataclass
class FixedPairs(Retriever):
    """Offers exactly these (source, target) pairs, so each scripted answer is asked once."""

    fixed: Sequence[tuple[str, str]] = ()

    def pairs(self, tools: Sequence[Endpoint], obs: Observations | None = None) -> list[tuple[str, str]]:
        return sorted(self.fixed)


GOOD = "opendart_corp_codes->opendart_company"
RENAMED = "opendart_corp_codes->fsc_stock_prices"
FENCED = "mois_stan_regin_cd->molit_apt_trades"
MALFORMED = "neis_school_info->neis_meal"
OUT_OF_RANGE = "nec_candidates->nec_pledges"
LOW = "tago_route_stops->tago_city_codes"
RETRY = "neis_meal->neis_school_info"
NOT_A_COMPLETION = "nec_pledges->nec_candidates"
DOWN = "opendart_company->fsc_stock_prices"

SCRIPT: dict[str, list[Reply]] = {
    GOOD: [answer(0.92, ("corp_code", "corp_code", ""))],
    # One real binding (names differ), three that name nothing real or an unknown transform.
    RENAMED: [answer(0.81, ("stock_code", "likeSrtnCd", ""), ("STOCK_CD", "likeSrtnCd", ""),
                     ("stock_code", "shortCode", ""), ("stock_code", "isinCd", "upper"))],
    FENCED: [chat("Here you go:\n```json\n" + json.dumps({"score": 0.77, "bindings": [
        {"source_field": "region_cd", "target_param": "LAWD_CD", "transform": "slice:0:5",
         "rationale": "first 5 digits of the legal-dong code", "confidence": "high"}]}) + "\n```")],
    MALFORMED: [chat('{"score": 0.9, "bindings": [{"source_field": "SD_SCHUL_CODE",')],
    OUT_OF_RANGE: [answer(1.7, ("huboid", "cnddtId", ""))],
    LOW: [answer(0.2, ("routeid", "cityCode", ""), ("nodeid", "cityCode", ""))],
    RETRY: [(500, {"error": {"message": "overloaded"}}), (503, "upstream busy"),
            answer(0.66, ("SD_SCHUL_CODE", "SD_SCHUL_CODE", ""))],
    NOT_A_COMPLETION: [(200, {"error": {"message": "model not loaded"}})],
    DOWN: [(500, {"error": {"message": "down"}})],
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture()
def stub() -> Iterator[tuple[StubLLM, str]]:
    app = StubLLM({k: list(v) for k, v in SCRIPT.items()})
    with serve_in_thread(app) as base:
        yield app, base


def _tools(catalog: Catalog) -> list[Endpoint]:
    ids = sorted({t for pair in SCRIPT for t in pair.split("->")})
    return [catalog.endpoint(i) for i in ids]


def _proposer(base: str, sleeps: list[float], **kw: Any) -> LLMProposer:
    pairs = [tuple(p.split("->")) for p in SCRIPT]
    return LLMProposer(base_url=base + "/v1", model="stub-7b", api_key="sk-test-123", environ={},
                       retriever=FixedPairs(fixed=pairs), sleep=sleeps.append, timeout=10.0, **kw)  # type: ignore[arg-type]


def test_llm_proposals_kept_dropped_and_counted(stub: tuple[StubLLM, str], catalog: Catalog) -> None:
    app, base = stub
    sleeps: list[float] = []
    p = _proposer(base, sleeps)
    got = list(p.propose(_tools(catalog), Observations()))
    pairs = [(b.source_tool, b.target_tool) for b in got]
    assert pairs == sorted(pairs)  # pairs are asked in sorted order
    assert {b.key for b in got} == {
        "opendart_corp_codes.corp_code->opendart_company.corp_code",
        "opendart_corp_codes.stock_code->fsc_stock_prices.likeSrtnCd",
        "mois_stan_regin_cd.region_cd->molit_apt_trades.LAWD_CD|slice:0:5",
        "neis_meal.SD_SCHUL_CODE->neis_school_info.SD_SCHUL_CODE",
    }
    by_key = {b.key: b for b in got}
    assert by_key["opendart_corp_codes.corp_code->opendart_company.corp_code"].score == 0.92
    fenced = by_key["mois_stan_regin_cd.region_cd->molit_apt_trades.LAWD_CD|slice:0:5"]
    assert fenced.rationale == "first 5 digits of the legal-dong code" and fenced.transform == "slice:0:5"
    assert all(isinstance(b, Binding) and MIN_SCORE <= b.score <= 1.0 for b in got)

    assert p.asked == len(SCRIPT)
    # malformed JSON, score 1.7 (outside [0, 1]), a 200 that is not a chat completion
    assert p.malformed == 3
    # score 0.2: both bindings; RENAMED: unknown field, unknown param, unknown transform
    assert p.dropped == 2 + 3
    assert p.failed == 1  # DOWN: three 500s in a row, then it gives up
    # Retries: RETRY took 3 attempts (500, 503, 200), DOWN 3 attempts; backoff doubled each time.
    per_pair = {k: sum(1 for e in app.log if e["pair"] == k) for k in SCRIPT}
    assert per_pair[RETRY] == 3 and per_pair[DOWN] == 3
    assert all(n == 1 for k, n in per_pair.items() if k not in (RETRY, DOWN))
    assert sleeps == [0.5, 1.0, 0.5, 1.0]


def test_llm_request_shape(stub: tuple[StubLLM, str], catalog: Catalog) -> None:
    app, base = stub
    list(_proposer(base, []).propose(_tools(catalog), Observations()))
    e = next(e for e in app.log if e["pair"] == FENCED)
    assert e["headers"]["authorization"] == "Bearer sk-test-123"
    assert e["payload"]["model"] == "stub-7b" and e["payload"]["temperature"] == 0.0
    assert e["payload"]["messages"][0]["role"] == "system" and "slice:0:5" in e["payload"]["messages"][0]["content"]
    # The model sees the source's fields and the target's bindable params (not key or paging).
    assert "region_cd" in e["user"]["source"]["fields"]
    assert set(e["user"]["target"]["params"]) == {"LAWD_CD", "DEAL_YMD"}
    assert e["user"]["target"]["params"]["LAWD_CD"]["pattern"]


def test_llm_min_score_and_retry_budget_are_settings(stub: tuple[StubLLM, str], catalog: Catalog) -> None:
    app, base = stub
    sleeps: list[float] = []
    p = _proposer(base, sleeps, min_score=0.8, retries=1)
    got = {b.key for b in p.propose(_tools(catalog), Observations())}
    # Only the 0.92 and 0.81 answers clear 0.8; with one attempt the 500 pairs both fail.
    assert got == {"opendart_corp_codes.corp_code->opendart_company.corp_code",
                   "opendart_corp_codes.stock_code->fsc_stock_prices.likeSrtnCd"}
    assert p.failed == 2 and sleeps == []


def test_llm_config_comes_from_the_injected_environ(stub: tuple[StubLLM, str]) -> None:
    _, base = stub
    p = LLMProposer(environ={"EDGE_LLM_BASE_URL": base + "/v1", "EDGE_LLM_MODEL": "m"})
    assert p.base_url == base + "/v1" and p.model == "m" and p.api_key is None
    with pytest.raises(ValueError, match="EDGE_LLM_BASE_URL"):
        LLMProposer(environ={})
