"""The optional LLM judge (issue 29, item 1): graded through a loopback chat-completions stub
with the fixed rubric, recorded beside the deterministic verdict, agreement in the summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bench.kopa.cli import bench_app
from bench.kopa.judge import RUBRIC, LLMJudge
from bench.kopa.runner import load_results
from tests.support.loopback import read_body, serve_in_thread


def _judge_stub(seen: list[dict[str, Any]]) -> Any:
    """Says CORRECT when the reference answer's text is in the graded answer, else INCORRECT."""
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        req = json.loads(await read_body(receive) or b"{}")
        seen.append(req)
        user = req["messages"][1]["content"]
        gold = user.split("Reference answer: ", 1)[1].split("\n", 1)[0]
        graded = user.split("Final answer to grade:\n", 1)[1]
        word = "CORRECT" if gold and gold in graded else "INCORRECT"
        body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": word}}]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
    return app


def test_judge_reads_its_one_word() -> None:
    seen: list[dict[str, Any]] = []
    with serve_in_thread(_judge_stub(seen)) as base:
        judge = LLMJudge(f"{base}/v1", "judge-m", retries=1, backoff=0.01)
        assert judge("몇 건?", "265", "총 265건입니다.") is True
        assert judge("몇 건?", "265", "264건") is False
        judge.close()
    assert seen[0]["messages"][0]["content"] == RUBRIC and seen[0]["temperature"] == 0.0


def test_bench_run_records_the_judge_beside_the_checker(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    out = tmp_path / "run"
    tasks = "molit-trade-count-0,law-ministry-0"
    with serve_in_thread(_judge_stub(seen)) as base:
        half = CliRunner().invoke(bench_app, ["run", "--agent", "oracle", "--out", str(out), "--tasks", tasks,
                                              "--seeds", "1", "--k", "1", "--judge-model", "j"])
        assert half.exit_code == 2 and "needs both --judge-base-url and --judge-model" in half.output
        res = CliRunner().invoke(bench_app, ["run", "--agent", "skip-lookup", "--out", str(out), "--tasks", tasks,
                                             "--seeds", "1", "--k", "1", "--judge-base-url", f"{base}/v1",
                                             "--judge-model", "judge-m"])
    assert res.exit_code == 0, res.output
    rows = load_results(out)
    assert len(rows) == 2 and len(seen) == 2
    assert all(isinstance(r["judge"], bool) for r in rows)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    agree = sum(r["judge"] == r["response"] for r in rows) / 2
    assert summary["judge"] == {"episodes": 2, "accepted": sum(r["judge"] for r in rows) / 2, "agreement": agree}
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "LLM judge (judge-m)" in md and "the checker's verdict is the one that scores" in md
