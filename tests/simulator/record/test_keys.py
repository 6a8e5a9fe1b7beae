"""No key appears in any written file: ``simulator record`` with keys made at run time (query
keys, keys in the URL path — Seoul Open Data, ECOS, swopenapi — and a body that echoes its
key), killed mid-job and rerun; every file under the cassettes and the index cache, and the
command's own output, is grepped for each key raw and URL-encoded.

Also: an endpoint's own ``key_env`` (the Seoul real-time subway API, ``KOPA_KEY_SEOUL_SUBWAY``)
wins over its platform's key.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import httpx
import pytest

from simulator import Resolver, SimTransport, Store, load_catalog
from simulator import build_request
from simulator.record import LiveClient, key_env_of
from simulator.sandbox import Limits, create_app
from tests.support.loopback import serve_in_thread
from tests.support.record import ROOT, cli_env, latest_hash, record_argv, run_record, write_plan

SUBWAY_PREFIX = "/swopenapi.seoul.go.kr/api/subway/"


class KeyedUpstream:
    """ASGI wrapper of a sandbox that plays two parts of the real services it lacks.

    * The real-time subway API has its own key (the sandbox checks the Seoul platform key on
      every Seoul host): a request must carry ``subway_key`` in its path, which is swapped
      for the platform key before the sandbox sees it; any other key is made invalid.
    * law.go.kr echoes the caller's ``OC`` in its answers: search pages get it back in their
      detail links (``OC=test`` → ``OC=<key>``) and, raw, in the keyword echo.
    """

    def __init__(self, app: Any, subway_key: str, seoul_key: str, oc_key: str) -> None:
        self.app = app
        self.subway_key = subway_key
        self.seoul_key = seoul_key
        self.oc_key = oc_key
        self.seen: Counter[str] = Counter()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(SUBWAY_PREFIX):
            key, _, rest = path[len(SUBWAY_PREFIX):].partition("/")
            self.seen["subway"] += 1
            if key == self.subway_key:
                self.seen["subway_own_key"] += 1
                key = self.seoul_key
            else:
                key = "not-the-subway-key"
            path = SUBWAY_PREFIX + key + "/" + rest
            scope = {**scope, "path": path, "raw_path": quote(path).encode()}
        elif path.endswith("/DRF/lawSearch.do"):
            self.seen["law"] += 1
            send = self._echoing(send)
        await self.app(scope, receive, send)

    def _echoing(self, send: Any) -> Any:
        start: dict[str, Any] = {}

        async def wrapped(msg: dict[str, Any]) -> None:
            if msg["type"] == "http.response.start":
                start.update(msg)
                return
            body = msg.get("body", b"").replace(b"OC=test", b"OC=" + self.oc_key.encode())
            body = body.replace('"키워드":""'.encode(), f'"키워드":"{self.oc_key}"'.encode())
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": headers + [(b"content-length", str(len(body)).encode())]})
            await send({**msg, "body": body})

        return wrapped


def _run_time_keys() -> dict[str, str]:
    """One fresh key per variable. data.go.kr keys carry ``+ / =`` like real encoding keys,
    so their URL-encoded forms differ from the raw one; path keys are hex like Seoul's."""
    catalog = load_catalog()
    env_names = {p.key_env for p in catalog.platforms.values()} | {"KOPA_KEY_SEOUL_SUBWAY"}
    keys = {name: "k" + secrets.token_hex(16) for name in sorted(env_names)}
    keys["KOPA_KEY_DATAGOKR"] = secrets.token_hex(12) + "+/" + secrets.token_hex(8) + "=="
    return keys


def _forms(key: str) -> set[bytes]:
    return {f.encode() for f in (key, quote(key, safe=""), quote(key), quote_plus(key))}


def _leaks(roots: list[Path], texts: dict[str, str], keys: dict[str, str]) -> list[str]:
    found = []
    files = [p for root in roots if root.exists() for p in root.rglob("*") if p.is_file()]
    assert files, "nothing was written"
    for name, key in keys.items():
        for form in _forms(key):
            found += [f"{name} in {p}" for p in files if form in p.read_bytes()]
            found += [f"{name} in {what}" for what, text in texts.items() if form in text.encode()]
    return found


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[tuple[dict[str, str], str, str, list[KeyedUpstream]]]:
    keys = _run_time_keys()
    catalog = load_catalog()
    platform_keys = {pid: keys[p.key_env] for pid, p in catalog.platforms.items()}
    slow = Limits(fault_rate=1.0, faults=("slow",), slow_seconds=0.04)

    def wrap(limits: Limits | None) -> KeyedUpstream:
        return KeyedUpstream(create_app(seed=0, keys=platform_keys, limits=limits),
                             keys["KOPA_KEY_SEOUL_SUBWAY"], keys["KOPA_KEY_SEOUL"], keys["KOPA_KEY_LAWGOKR"])

    apps = [wrap(slow), wrap(None)]
    with serve_in_thread(apps[0]) as slow_url, serve_in_thread(apps[1]) as fast_url:
        yield keys, slow_url, fast_url, apps


@pytest.mark.integration
def test_no_key_in_any_written_file(tmp_path: Path, keyed: tuple[dict[str, str], str, str, list[KeyedUpstream]],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    keys, slow_url, fast_url, apps = keyed
    plan = write_plan(tmp_path / "plan.yaml")
    cassettes, cache = tmp_path / "cassettes", tmp_path / "cache"
    texts: dict[str, str] = {}

    # 1. Killed once the law search (8th collection, whose answers echo the key) is checkpointed.
    log = tmp_path / "killed.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(record_argv(slow_url, cassettes, plan), cwd=ROOT, env=cli_env(cache, keys),
                                stdout=fh, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            lines = 0
            while lines < 8 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
                lines = sum(ck.read_bytes().count(b"\n") for ck in (cassettes / "kopa").glob(".record-*/checkpoint.jsonl"))
            assert proc.poll() is None, f"the job ended before it could be killed:\n{log.read_text()}"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    texts["killed run output"] = log.read_text()
    (checkpoint,) = (cassettes / "kopa").glob(".record-*/checkpoint.jsonl")
    law = [json.loads(line) for line in checkpoint.read_text(encoding="utf-8").splitlines()
           if '"lawgokr_law_search"' in line]
    assert law and law[0]["records"], "the law search is in the checkpoint"
    assert _leaks([cassettes, cache], texts, keys) == []

    # 2. The rerun resumes and publishes; then the version is opened and replayed (index cache).
    out = run_record(fast_url, cassettes, plan, cache, keys)
    texts["rerun stdout"], texts["rerun stderr"] = out.stdout, out.stderr
    assert "resumed" in out.stderr
    seen = sum((a.seen for a in apps), Counter())
    assert seen["subway"] >= 1 and seen["subway_own_key"] == seen["subway"], seen
    assert seen["law"] >= 16, seen
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    version = Store(cassettes).open("kopa")
    assert version.manifest.endpoints["seoul_subway_arrivals"].records > 0
    assert version.manifest.endpoints["lawgokr_law_search"].records == 1600
    assert version.manifest.endpoints["seoul_public_library"].records > 0
    assert version.manifest.endpoints["ecos_stat_tables"].records > 0
    c = httpx.Client(transport=SimTransport(Resolver(version)))
    r = c.get(f"http://openapi.seoul.go.kr:8088/{keys['KOPA_KEY_SEOUL']}/json/SeoulPublicLibraryInfo/1/5/")
    assert r.status_code == 200
    texts["replay"] = r.text
    assert list(cache.rglob("*")), "the index cache was written"
    assert _leaks([cassettes, cache], texts, keys) == []

    # 3. A second recording of the same content: it is the newest version's already, so
    # nothing new is published (no duplicate version), and it says so.
    out2 = run_record(fast_url, cassettes, plan, cache, keys)
    texts["second stdout"], texts["second stderr"] = out2.stdout, out2.stderr
    assert "nothing new to publish" in " ".join(out2.stderr.split())
    assert latest_hash(cassettes)
    assert _leaks([cassettes, cache], texts, keys) == []


def test_endpoint_key_env_wins_over_platform_key() -> None:
    catalog = load_catalog()
    subway, library = catalog.endpoint("seoul_subway_arrivals"), catalog.endpoint("seoul_public_library")
    assert key_env_of(catalog, subway) == "KOPA_KEY_SEOUL_SUBWAY"
    assert key_env_of(catalog, library) == catalog.platforms["seoul"].key_env == "KOPA_KEY_SEOUL"
    with LiveClient(catalog, {"seoul": "general", "seoul_subway_arrivals": "realtime"}) as client:
        assert client.key_for(subway) == "realtime"
        assert client.key_for(library) == "general"
        req = build_request(subway, {"statnNm": "가능"}, client.key_for(subway))
        assert req.path.split("/")[3] == "realtime"
    with LiveClient(catalog, {"seoul": "general"}) as client:
        assert client.key_for(subway) == "general"  # no own key: the platform's


def test_cli_reads_endpoint_key_env(tmp_path: Path) -> None:
    """Against a sandbox that only takes the subway key on the subway host, the CLI's job
    fails without ``KOPA_KEY_SEOUL_SUBWAY`` (and names that variable) and passes with it."""
    keys = _run_time_keys()
    catalog = load_catalog()
    platform_keys = {pid: keys[p.key_env] for pid, p in catalog.platforms.items()}
    app = KeyedUpstream(create_app(seed=0, keys=platform_keys), keys["KOPA_KEY_SEOUL_SUBWAY"],
                        keys["KOPA_KEY_SEOUL"], keys["KOPA_KEY_LAWGOKR"])
    plan = write_plan(tmp_path / "plan.yaml", {
        "set": "kopa", "fidelity_samples": 0,
        "seeds": [{"endpoint": "seoul_subway_arrivals", "params": {"statnNm": "가능"}}],
    })
    without = {k: v for k, v in keys.items() if k != "KOPA_KEY_SEOUL_SUBWAY"}
    with serve_in_thread(app) as url:
        proc = subprocess.run(record_argv(url, tmp_path / "a", plan), cwd=ROOT, env=cli_env(tmp_path / "c", without),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode != 0
        assert "KOPA_KEY_SEOUL_SUBWAY" in proc.stderr
        assert not (tmp_path / "a" / "kopa").exists() or not list((tmp_path / "a" / "kopa").glob("v*"))
        run_record(url, tmp_path / "b", plan, tmp_path / "c", keys)
    assert app.seen["subway_own_key"] >= 1
    for key in keys.values():
        for p in (tmp_path / "b").rglob("*"):
            if p.is_file():
                assert key.encode() not in p.read_bytes()
