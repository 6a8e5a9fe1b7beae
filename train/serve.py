"""Serve a checkpoint behind an OpenAI-compatible ``/v1/chat/completions`` endpoint.

Two backends, one contract (what ``bench/kopa/agents.py``'s :class:`OpenAIAgent` speaks):

- **vLLM** when it is installed (``vllm serve DIR --enable-auto-tool-choice
  --tool-call-parser hermes``, a subprocess; LoRA checkpoints through ``--lora-modules``);
- otherwise a small built-in server (:func:`make_app`): starlette on loopback around
  ``transformers`` ``generate``, one request at a time, the model's chat template rendering
  the tools, and tool calls parsed from the Qwen / Hermes ``<tool_call>{json}</tool_call>``
  blocks the template asks for (:func:`train.trl_adapter.parse_tool_calls`, the same parser
  the rollouts use). Sampling is seeded by the request's ``seed`` (``temperature`` 0 is greedy).

>>> with serve_checkpoint("runs/qwen3-0.6b-grpo") as base_url:   # doctest: +SKIP
...     print(base_url)                                         # http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

from .errors import TrainError

_THINK = re.compile(r"<think>.*?</think>\s*", re.DOTALL)

__all__ = ["ChatModel", "ContextTooLong", "ServerClosing", "have_vllm", "load_model", "make_app", "serve_checkpoint", "to_hf_messages"]


def have_vllm() -> bool:
    """Whether the ``vllm`` command is on PATH (and importable)."""
    try:
        import vllm  # noqa: F401
    except ImportError:
        return False
    return shutil.which("vllm") is not None


def load_model(path: str | Path) -> tuple[Any, Any]:
    """``(model, tokenizer)`` from a checkpoint directory or hub id (a LoRA adapter directory
    is loaded on its base model and merged)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    p = Path(path)
    if (p / "adapter_config.json").is_file():
        try:
            from peft import AutoPeftModelForCausalLM
        except ImportError as exc:
            raise RuntimeError(f"{p} is a LoRA adapter: pip install 'kopa-sim[lora]' to load it") from exc
        model = AutoPeftModelForCausalLM.from_pretrained(str(p)).merge_and_unload()
    else:
        model = AutoModelForCausalLM.from_pretrained(str(path))
    model.eval()
    return model, AutoTokenizer.from_pretrained(str(path))


def to_hf_messages(messages: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI messages in the form HF chat templates take (tool-call arguments as dicts)."""
    out = []
    for m in messages:
        msg = dict(m)
        if msg.get("tool_calls"):
            calls = []
            for c in msg["tool_calls"]:
                fn = dict(c.get("function", c))
                args = fn.get("arguments")
                if isinstance(args, str):
                    try:
                        fn["arguments"] = json.loads(args or "{}")
                    except json.JSONDecodeError:
                        fn["arguments"] = {"_unparsed": args}
                calls.append({"type": "function", "function": fn})
            msg["tool_calls"] = calls
        if msg.get("content") is None:
            msg["content"] = ""
        out.append(msg)
    return out


class ContextTooLong(TrainError):
    """A request's prompt and completion budget exceed the model's context (HTTP 400)."""


class ServerClosing(RuntimeError):
    """The built-in server is stopping; the request was not run (HTTP 503)."""


class ChatModel:
    """A model and tokenizer answering chat-completions requests (serialised by a lock)."""

    def __init__(self, model: Any, tokenizer: Any, name: str = "default", *,
                 chat_template_kwargs: Mapping[str, Any] | None = None, max_tokens: int = 512) -> None:
        self.model, self.tokenizer, self.name = model, tokenizer, name
        self.chat_template_kwargs = dict(chat_template_kwargs or {"enable_thinking": False})
        self.max_tokens = max_tokens
        self.max_context = int(getattr(model.config, "max_position_embeddings", 0) or 0)
        self._lock = threading.Lock()
        self._closing = threading.Event()

    def close(self) -> None:
        """Stop: a generation in progress ends at its next token, queued requests are refused.

        A client that gave up (a timeout) leaves its request running here; without this the
        server's worker threads would still be generating when the process exits."""
        self._closing.set()

    def complete(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """A ``chat.completion`` response body for an OpenAI request body."""
        import torch

        from .trl_adapter import _TOOL_CALL, parse_tool_calls

        tok = self.tokenizer
        ids = tok.apply_chat_template(to_hf_messages(list(request.get("messages") or [])),
                                      tools=request.get("tools") or None, add_generation_prompt=True,
                                      tokenize=True, return_dict=False, **self.chat_template_kwargs)
        temperature = float(request.get("temperature", 1.0) or 0.0)
        max_new = int(request.get("max_tokens") or request.get("max_completion_tokens") or self.max_tokens)
        if self.max_context and len(ids) + max_new > self.max_context:
            raise ContextTooLong(
                f"this model's maximum context length is {self.max_context} tokens; the request has "
                f"{len(ids)} prompt tokens and asks for {max_new} more: send fewer tools or messages "
                "(e.g. `simulator train eval --tools platform`)")
        from transformers import StoppingCriteria

        closing = self._closing

        class _Closing(StoppingCriteria):  # type: ignore[misc]
            def __call__(self, input_ids: Any, scores: Any, **kw: Any) -> Any:
                return torch.full((input_ids.shape[0],), closing.is_set(), dtype=torch.bool)

        with self._lock:
            if closing.is_set():
                raise ServerClosing("the server is shutting down")
            torch.manual_seed(int(request.get("seed") or 0))
            inp = torch.tensor([list(ids)])
            with torch.no_grad():
                seq = self.model.generate(input_ids=inp, attention_mask=torch.ones_like(inp),
                                          max_new_tokens=max_new, do_sample=temperature > 0,
                                          temperature=temperature if temperature > 0 else None,
                                          top_p=None, top_k=None, pad_token_id=tok.pad_token_id,
                                          stopping_criteria=[_Closing()])
        gen = seq[0, inp.shape[1]:].tolist()
        finish = "stop" if tok.eos_token_id in gen else "length"
        # Special tokens kept: ``<tool_call>`` is one in some tokenizers (the tiny model's);
        # only the end-of-turn and padding tokens are dropped, and a reasoning block.
        text = tok.decode(gen, skip_special_tokens=False)
        for t in {tok.eos_token, tok.pad_token, "<|im_end|>", "<|endoftext|>"} - {None}:
            text = text.replace(t, "")
        text = _THINK.sub("", text)
        calls = parse_tool_calls(text)
        msg: dict[str, Any] = {"role": "assistant", "content": _TOOL_CALL.sub("", text).strip() or None}
        if calls:
            msg["tool_calls"] = calls
            finish = "tool_calls"
        else:
            msg["content"] = msg["content"] or ""
        return {"id": f"chatcmpl-{int(request.get('seed') or 0)}", "object": "chat.completion",
                "model": self.name, "created": 0,
                "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                "usage": {"prompt_tokens": len(ids), "completion_tokens": len(gen),
                          "total_tokens": len(ids) + len(gen)}}


def make_app(chat: ChatModel) -> Any:
    """The starlette app: ``POST /v1/chat/completions``, ``GET /v1/models``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def completions(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": {"message": "body is not JSON"}}, status_code=400)
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return JSONResponse({"error": {"message": "messages (a list) is required"}}, status_code=400)
        try:
            return JSONResponse(await run_in_threadpool(chat.complete, body))
        except ContextTooLong as exc:  # the OpenAI API's answer to the same request
            return JSONResponse({"error": {"message": str(exc), "type": "invalid_request_error",
                                           "code": "context_length_exceeded"}}, status_code=400)
        except ServerClosing as exc:
            return JSONResponse({"error": {"message": str(exc)}}, status_code=503)

    async def models(request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": chat.name, "object": "model"}]})

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"]),
                             Route("/v1/models", models, methods=["GET"])])


def _free_socket() -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def _builtin(path: str | Path, name: str, max_tokens: int) -> Iterator[str]:
    import uvicorn

    model, tok = load_model(path)
    chat = ChatModel(model, tok, name, max_tokens=max_tokens)
    app = make_app(chat)
    sock = _free_socket()
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                           access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not server.started:
        raise RuntimeError(f"the built-in server for {path} did not start")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        chat.close()
        server.should_exit = True
        thread.join(30)
        sock.close()


@contextmanager
def _vllm(path: str | Path, name: str, base_model: str | None, timeout: float) -> Iterator[str]:
    import httpx

    sock = _free_socket()
    port = int(sock.getsockname()[1])
    sock.close()
    p = Path(path)
    cmd = ["vllm", "serve", str(base_model or path), "--host", "127.0.0.1", "--port", str(port),
           "--enable-auto-tool-choice", "--tool-call-parser", "hermes", "--served-model-name", name]
    if (p / "adapter_config.json").is_file():
        if not base_model:
            base_model = json.loads((p / "adapter_config.json").read_text())["base_model_name_or_path"]
            cmd[2] = str(base_model)
        cmd[-1] = f"{name}-base"
        cmd += ["--enable-lora", "--lora-modules", f"{name}={p}"]
    proc = subprocess.Popen(cmd)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"vllm serve exited with {proc.returncode}: {' '.join(cmd)}")
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"vllm serve did not answer within {timeout:.0f}s: {' '.join(cmd)}")
            time.sleep(1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def serve_checkpoint(path: str | Path, *, name: str = "default", backend: str = "auto",
                     base_model: str | None = None, max_tokens: int = 512,
                     timeout: float = 900.0) -> Iterator[str]:
    """Serve ``path`` for the duration of the ``with`` block; yields the ``/v1`` base URL.

    Args:
        backend: ``vllm``, ``builtin`` or ``auto`` (vLLM when installed).
        base_model: for a LoRA adapter under vLLM, the base model (default: the adapter's).
        max_tokens: the built-in server's default completion budget.
    """
    if backend not in ("auto", "vllm", "builtin"):
        raise TrainError(f"backend={backend!r}; use auto, vllm or builtin")
    if backend == "vllm" or (backend == "auto" and have_vllm()):
        with _vllm(path, name, base_model, timeout) as url:
            yield url
    else:
        with _builtin(path, name, max_tokens) as url:
            yield url
