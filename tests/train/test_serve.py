"""The built-in OpenAI-compatible server (``train/serve.py``): a prompt beyond the model's
context is refused like the OpenAI API refuses it, and stopping the server stops generation.

Before these, a 2 MB tool list (every catalog tool) went to a 32k-context model: each request
ran for minutes, the bench client timed out and retried, and the abandoned generations were
still running in the server's threads when the process exited (CI aborted with
``terminate called without an active exception``)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("trl")

import httpx  # noqa: E402

from train.serve import ChatModel, ServerClosing, serve_checkpoint  # noqa: E402
from train.tiny import tiny_model_and_tokenizer  # noqa: E402

WORDS = "서울 부산 대구 인천 광주 대전 울산 세종 학교 버스 정류소 아파트 거래".split()


@pytest.fixture(scope="module")
def tiny() -> tuple[Any, Any]:
    model, tok = tiny_model_and_tokenizer([" ".join(WORDS)] * 20, vocab_size=400)
    model.config.max_position_embeddings = 256
    return model, tok


def _messages(n_words: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": " ".join(WORDS[i % len(WORDS)] for i in range(n_words))}]


def test_a_prompt_beyond_the_context_is_a_400_at_once(tiny: tuple[Any, Any], tmp_path: Path) -> None:
    model, tok = tiny
    model.save_pretrained(tmp_path / "m")
    tok.save_pretrained(tmp_path / "m")
    with serve_checkpoint(tmp_path / "m", backend="builtin", max_tokens=4) as url:
        ok = httpx.post(f"{url}/chat/completions", json={"messages": _messages(5)}, timeout=60)
        assert ok.status_code == 200 and ok.json()["choices"][0]["finish_reason"] in ("stop", "length")
        r = httpx.post(f"{url}/chat/completions", json={"messages": _messages(600)}, timeout=60)
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "context_length_exceeded" and err["type"] == "invalid_request_error"
    assert "maximum context length is 256 tokens" in err["message"] and "--tools platform" in err["message"]


def test_close_stops_a_generation_in_progress_and_refuses_queued_ones(tiny: tuple[Any, Any]) -> None:
    model, tok = tiny
    chat = ChatModel(model, tok, max_tokens=200)
    chat.max_context = 0  # no limit: this one is about stopping
    started = threading.Event()
    real_forward = model.forward
    calls = {"n": 0}

    def forward(*a: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            started.set()
            chat.close()  # as the server's shutdown does, while a token is being generated
        return real_forward(*a, **kw)

    model.forward = forward
    try:
        out = chat.complete({"messages": _messages(3), "max_tokens": 200, "temperature": 0})
    finally:
        model.forward = real_forward
    assert started.is_set()
    assert out["usage"]["completion_tokens"] < 10 and out["choices"][0]["finish_reason"] == "length"
    with pytest.raises(ServerClosing, match="shutting down"):
        chat.complete({"messages": _messages(3), "max_tokens": 4})
