"""``simulator mcp`` over stdio answers every message it cannot read, and serves after it.

The SDK's stdio transport dropped a line it could not parse (a lone surrogate ``"\\ud800"``,
which strict JSON refuses) without a word, so the client waited forever while the same call
over HTTP got a 400. A real ``simulator mcp`` subprocess gets each hostile line, then a good
call, raw JSON-RPC over its pipes.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

ROOT = Path(__file__).resolve().parents[3]

GOOD_CALL = {"name": "mois_stan_regin_cd", "arguments": {"locatadd_nm": "서울특별시 종로구"}}

#: (raw line, expected id, expected error code): every line is answered, none is dropped.
HOSTILE: list[tuple[str, Any, int]] = [
    ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mois_stan_regin_cd",'
     '"arguments":{"locatadd_nm":"\\ud800"}}}', 2, -32602),
    ('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\\ud800","arguments":{}}}', 3, -32602),
    ('{"jsonrpc":"2.0","id":"s4","method":"tools/call","params":{"name":"x","arguments":{"\\udfff":1}}}', "s4", -32602),
    ('{"jsonrpc":"2.0","id":"\\udc00","method":"tools/list"}', None, -32602),
    ("this is not json", None, -32700),
    ("[1, 2]", None, -32600),
    ('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"not an object"}', 5, -32602),
    ('{"jsonrpc":"1.0","id":6,"method":"tools/list"}', 6, -32600),
    ('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":' + "[" * 5000 + "]" * 5000 + "}}",
     None, -32700),
]


class _Client:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.proc.stdin.flush()

    def recv(self, timeout: float = 60) -> dict[str, Any]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "the server did not answer (the client would wait forever)"
        line = self.proc.stdout.readline()
        assert line, "the server closed stdout"
        out: dict[str, Any] = json.loads(line)
        return out


def test_stdio_answers_every_hostile_line_and_serves_after(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KOPA_CACHE=str(tmp_path / "cache"))
    with open(tmp_path / "stderr.txt", "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "simulator", "mcp"], cwd=ROOT, env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        try:
            c = _Client(proc)
            c.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
            assert "result" in c.recv(120)
            c.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            for line, rid, code in HOSTILE:
                reply = c.recv() if c.send(line) is None else None
                assert reply is not None and reply.get("id") == rid and reply["error"]["code"] == code, (line[:80], reply)
                # and it still serves: a good call right after each hostile one
                c.send(json.dumps({"jsonrpc": "2.0", "id": 100, "method": "tools/call", "params": GOOD_CALL}))
                good = c.recv()
                assert good["id"] == 100 and not good["result"].get("isError"), good
                assert "11110" in good["result"]["content"][0]["text"]
            assert proc.poll() is None
        finally:
            proc.kill()
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()
