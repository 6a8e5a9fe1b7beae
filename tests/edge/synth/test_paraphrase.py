"""The paraphrase pass against a real OpenAI-compatible chat-completions stub on a loopback port.

One small synthesis (shipped cassettes, ``n=6``) is shared; each test gives the stub its own
rewrite rule (question in, HTTP status and content out) and paraphrases a copy of the examples:
a good rewrite is used and the example still passes every rule; a rewrite that drops a stated
value, names a tool or slips the answer in is rejected, the template kept and counted; a server
that answers 500 or is down is a one-line error naming ``--paraphrase-base-url``; and without
the option no request reaches the stub at all, whatever the environment says.
"""

from __future__ import annotations

import copy
import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from edge import Observations, VerifyConfig, build_graph
from edge.cli import edge_app
from edge.synth import ProgramRunner, SynthConfig, conversation, synthesize, write_all
from edge.synth.checks import check_example
from edge.synth.korean import date_text
from edge.synth.paraphrase import paraphrase_examples
from edge.synth.writers import fitting_page_size
from simulator import Resolver, Store, load_catalog
from tests.support.loopback import read_body, serve_in_thread

Rewrite = Callable[[str], tuple[int, str]]  # template question -> (HTTP status, message content)


@dataclass
class ChatStub:
    """Raw ASGI ``POST /v1/chat/completions``: answers each question with ``rewrite``; logs requests."""

    rewrite: Rewrite = lambda q: (200, q)
    log: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        body = await read_body(receive)
        with self._lock:
            self.log.append({"method": scope["method"], "path": scope["path"], "body": body})
        if scope["method"] != "POST" or scope["path"] != "/v1/chat/completions":
            status, reply = 404, {"error": {"message": f"no route {scope['path']}"}}
        else:
            payload = json.loads(body)
            status, content = self.rewrite(payload["messages"][-1]["content"])
            reply = {"id": "cmpl-1", "object": "chat.completion", "model": payload["model"], "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]}
            if status != 200:
                reply = {"error": {"message": "stub failure"}}
        data = json.dumps(reply, ensure_ascii=False).encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})


@pytest.fixture(scope="module")
def env(shipped_store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ...]]:
    cache = shipped_store.cache_dir
    version = shipped_store.open("kopa", "v0001")
    catalog = load_catalog(tier="curated")
    obs = Observations.from_version(version, catalog)
    graph = build_graph(version, catalog, seed=7, obs=obs,
                        config=VerifyConfig(iterations=4, paths_per_iteration=30, min_trials=2)).graph
    gdir = tmp_path_factory.mktemp("para-graph")
    graph.save(gdir / "graph.json", obs)
    # the bench hold-out is beside the point here (and loading the bench costs seconds)
    res = synthesize(version, catalog, graph, n=6, seed=3, obs=obs, config=SynthConfig(shards=1),
                     allow_bench_entities=True, allow_bench_edges=True)
    assert len(res.examples) >= 4
    yield version, catalog, res, gdir, cache


@pytest.fixture
def stub() -> Iterator[tuple[ChatStub, str]]:
    app = ChatStub()
    with serve_in_thread(app) as base:
        yield app, base + "/v1"


def _rules_broken(e: dict[str, Any], version: Any, catalog: Any) -> list[str]:
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
    return check_example(e, conversation(e, ex, catalog), ex.run(e["gold_program"]).values, catalog)


def _run(env: tuple[Any, ...], base: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    version, catalog, res, *_ = env
    examples = copy.deepcopy(res.examples)
    report = paraphrase_examples(examples, version, catalog, base_url=base, model="stub", sleep=lambda s: None)
    return examples, report


def test_a_good_paraphrase_is_used_and_still_passes_the_rules(env, stub, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    version, catalog, res, *_ = env
    app, base = stub
    app.rewrite = lambda q: (200, f"혹시 {q}")
    examples, report = _run(env, base)
    assert report == {"model": "stub", "asked": len(examples), "used": len(examples), "rejected": 0,
                      "rejected_by_rule": {}}
    assert len(app.log) == len(examples)
    assert json.loads(app.log[0]["body"])["messages"][-1]["content"] == res.examples[0]["question"]
    for e, t in zip(examples, res.examples):
        assert e["question"] == f"혹시 {t['question']}" and e["question_template"] == t["question"]
        assert e["id"] == t["id"] and "paraphrase_rejected" not in e
        assert _rules_broken(e, version, catalog) == []
    # same seed + same stub answers -> same bytes
    again, _ = _run(env, base)
    a = write_all(examples, tmp_path / "a", version, catalog)
    b = write_all(again, tmp_path / "b", version, catalog)
    for k in ("examples", "conversations", "trl"):
        assert a[k].read_bytes() == b[k].read_bytes()
    assert "혹시 " in a["conversations"].read_text(encoding="utf-8")


def test_a_the_cli_option_paraphrases_and_reports(env, stub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _v, _c, res, gdir, cache = env
    app, base = stub
    app.rewrite = lambda q: (200, f"혹시 {q}")
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    monkeypatch.setattr("edge.synth.synthesize", lambda *a, **k: copy.deepcopy(res))
    out = tmp_path / "out"
    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "6", "--version", "v0001", "--graph", str(gdir),
                                      "--out", str(out), "--allow-bench-entities", "--allow-bench-edges",
                                      "--paraphrase-base-url", base, "--paraphrase-model", "stub"])
    assert r.exit_code == 0, r.output
    assert f"paraphrase: {len(res.examples)} used, 0 rejected" in r.output
    rows = [json.loads(x) for x in (out / "examples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(x["question"] == "혹시 " + x["question_template"] for x in rows)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["paraphrase"]["used"] == len(rows)


def _drop_arguments(e: dict[str, Any], catalog: Any) -> str:
    """The question without the values it states: arguments (raw, as dates in words, as
    labels) and quoted names."""
    from edge.synth.checks import arg_label

    q = e["question"]
    for s in e["gold_program"]["steps"]:
        for k, v in (s.get("args") or {}).items():
            if isinstance(v, dict):
                continue
            for form in (date_text(str(v)), arg_label(catalog, s["call"], k, str(v)), str(v)):
                if form:
                    q = q.replace(f"'{form}'", "그곳").replace(form, "그곳")
    return re.sub(r"'[^']+'", "그곳", q)  # and the names it picks or filters by


def test_b_a_paraphrase_that_breaks_a_rule_is_rejected_and_the_template_kept(env, stub) -> None:  # type: ignore[no-untyped-def]
    version, catalog, res, *_ = env
    app, base = stub
    by_q = {e["question"]: e for e in res.examples}
    numeric = [e for e in res.examples if isinstance(e["answer"], (int, float)) and not isinstance(e["answer"], bool)
               and e["junction"] != "CMP"]
    assert numeric, [e["answer"] for e in res.examples]
    answer_one = numeric[0]["question"]
    kinds = {}
    for i, e in enumerate(res.examples):
        kinds[e["question"]] = "answer" if e["question"] == answer_one else ("tool", "drop")[i % 2]
        if kinds[e["question"]] == "drop" and _drop_arguments(e, catalog) == e["question"]:
            kinds[e["question"]] = "tool"  # it states no argument to drop: break another rule

    def rewrite(q: str) -> tuple[int, str]:
        e = by_q[q]
        kind = kinds[q]
        if kind == "tool":  # a tool's name in the question
            return 200, f"{e['tools'][0]} 도구로 보면, {q}"
        if kind == "answer":  # the answer slipped in (every quoted value and number kept)
            ans = e["answer"]
            shown = str(int(ans)) if float(ans).is_integer() else str(ans)
            return 200, f"{q} 혹시 {shown} 정도인가요?"
        return 200, _drop_arguments(e, catalog)

    app.rewrite = rewrite
    examples, report = _run(env, base)
    assert report["used"] == 0 and report["rejected"] == len(examples), report
    for e, t in zip(examples, res.examples):
        assert e["question"] == t["question"] == e["question_template"]
        kind = kinds[t["question"]]
        want = {"tool": {"tool_name"}, "answer": {"answer_in_question"},
                "drop": {"hidden_argument", "quoted_value", "number"}}[kind]
        assert set(e["paraphrase_rejected"]) & want, (kind, e["paraphrase_rejected"], t["question"])
    by_rule = report["rejected_by_rule"]
    assert by_rule.get("tool_name", 0) >= 1 and by_rule.get("answer_in_question", 0) >= 1, by_rule
    assert sum(by_rule.get(k, 0) for k in ("hidden_argument", "quoted_value", "number")) >= 1, by_rule


def test_c_a_failing_server_is_one_line_naming_the_option(env, stub, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    version, catalog, res, gdir, cache = env
    app, base = stub
    app.rewrite = lambda q: (500, "")
    examples = copy.deepcopy(res.examples)
    with pytest.raises(ConnectionError, match=r"HTTP 500") as info:
        paraphrase_examples(examples, version, catalog, base_url=base, model="stub", sleep=lambda s: None)
    assert base in str(info.value)
    assert len(app.log) == 3  # asked three times, then given up
    assert [e["question"] for e in examples] == [e["question"] for e in res.examples]

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    monkeypatch.setattr("edge.synth.synthesize", lambda *a, **k: copy.deepcopy(res))
    out = tmp_path / "out"
    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "6", "--seed", "3", "--version", "v0001",
                                      "--graph", str(gdir), "--out", str(out),
                                      "--paraphrase-base-url", down, "--paraphrase-model", "stub"])
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    err = [ln for ln in r.output.splitlines() if ln.startswith("error:")]
    assert len(err) == 1 and "--paraphrase-base-url" in err[0] and down in err[0], r.output
    assert "Traceback" not in r.output and not out.exists()

    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "6", "--graph", str(gdir), "--out", str(out),
                                      "--paraphrase-base-url", down])
    assert r.exit_code == 2 and "--paraphrase-model" in r.output


def test_d_paraphrase_is_off_by_default(env, stub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    version, catalog, res, gdir, cache = env
    app, base = stub
    for var in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "EDGE_LLM_BASE_URL"):
        monkeypatch.setenv(var, base)
    monkeypatch.setenv("EDGE_LLM_MODEL", "stub")
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    monkeypatch.setattr("edge.synth.synthesize", lambda *a, **k: copy.deepcopy(res))
    out = tmp_path / "out"
    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "6", "--seed", "3", "--version", "v0001",
                                      "--graph", str(gdir), "--out", str(out), "--allow-bench-entities",
                                      "--allow-bench-edges"])
    assert r.exit_code == 0, r.output
    assert app.log == []
    assert "paraphrase:" not in r.output and "paraphrasing" not in r.output
    rows = [json.loads(x) for x in (out / "examples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["question"] for x in rows] == [e["question"] for e in res.examples]
    assert not any("question_template" in x or "paraphrase_rejected" in x for x in rows)
    assert "paraphrase" not in json.loads((out / "report.json").read_text(encoding="utf-8"))
