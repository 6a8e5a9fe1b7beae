"""A hypothesis-generated corpus of keyed requests, recorded for real; no key byte survives.

Each example makes keys shaped like the platforms' (OpenDART 40-hex, data.go.kr base64 with
``+ / =``, Seoul 30+ character path keys, NEIS 32-hex) and requests to catalog endpoints that
carry them: in the query under every platform's ``auth`` parameter name from the catalog in
any case, in headers (``Authorization``, ``X-Api-Key``), in URL path segments (Seoul Open
Data, ECOS), in request bodies — and a loopback upstream echoes every request back inside its
response body (path, query, headers, body), the worst case of a service echoing its key.

They are recorded the way ``pytest --kopa-record-mode`` records traffic: an ``httpx`` client
over ``SimTransport`` whose resolver forwards misses live (``miss="live"``) to the upstream,
each exchange kept and published with ``VersionBuilder`` (keys known from the ``KOPA_KEY_*``
variables, as in a real run). Two versions are published, then: the index is compiled, the
drift report between them rendered (Markdown and JSON), the version exported as a vcrpy
cassette and audited. No form of any key (raw, URL-encoded, form-encoded) may appear in any
cassette file, compiled index, captured log line (every ``kopa_sim``/``simulator`` logger at
DEBUG), drift report, vcrpy YAML or audit output, and ``simulator audit`` must pass.

Not covered here: a KOPA-Bench report over the corpus version — bench tasks need the shipped
collections, so a run over this version would be all tool errors; bench reports only carry
tool arguments a model chose, never the recorder's keys. Plan-driven recording
(``simulator record --live``) with keys is ``tests/simulator/record/test_keys.py``.
"""

from __future__ import annotations

import json
import logging
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote, quote_plus

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from simulator import Resolver, SimTransport, Store, load_catalog
from simulator.audit import audit_version
from simulator.catalog import Endpoint
from simulator.cli import app as cli_app
from simulator import build_request
from simulator.request import SimRequest, SimResponse
from simulator.store import VersionBuilder
from simulator.store.diff import diff_versions
from simulator.vcr import export_vcr
from tests.support.loopback import serve_in_thread

CATALOG = load_catalog()
QUERY_EPS = sorted(
    (e for e in CATALOG.endpoints.values() if any(p.role == "auth" and p.location == "query" for p in e.params)),
    key=lambda e: e.id,
)
PATH_EPS = sorted(
    (e for e in CATALOG.endpoints.values() if any(p.role == "auth" and p.location == "path" for p in e.params)),
    key=lambda e: e.id,
)
#: Every platform's auth parameter name, from the catalog.
AUTH_NAMES = sorted({p.name for e in CATALOG.endpoints.values() for p in e.params if p.role == "auth"})
KEY_ENVS = sorted({p.key_env for p in CATALOG.platforms.values()})

HEX = "0123456789abcdef"
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
B64 = ALNUM + "+/"


def _decoded(p: Path) -> bytes:
    """A file's bytes as a reader sees them (a gzip'd cassette file decoded)."""
    import gzip

    return gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()


def _keys() -> st.SearchStrategy[str]:
    """Keys shaped like the platforms' (a letter first, so none is all digits)."""
    return st.one_of(
        st.text(HEX, min_size=39, max_size=39).map(lambda s: "a" + s),                         # OpenDART
        st.text(HEX.upper(), min_size=31, max_size=31).map(lambda s: "F" + s),                 # NEIS / Assembly
        st.text(B64, min_size=60, max_size=86).map(lambda s: "k" + s + "=="),                  # data.go.kr
        st.text(ALNUM, min_size=29, max_size=40).map(lambda s: "s" + s),                       # Seoul / ECOS
    )


_CASES = st.sampled_from([str.lower, str.upper, str.swapcase, str.title, lambda s: s])


def _params(ep: Endpoint) -> dict[str, str]:
    """Every parameter the endpoint needs (its examples), so the request is well formed and
    goes upstream rather than being refused locally."""
    return {p.name: str(p.example or p.default or (p.enum[0] if p.enum else "1"))
            for p in ep.params if p.required and p.role != "auth"}


@st.composite
def keyed_request(draw: Any, keys: list[str]) -> tuple[str, SimRequest]:
    """One request carrying one of ``keys`` somewhere; returns (placement, request)."""
    where = draw(st.sampled_from(["query", "header", "path", "body"]))
    key = draw(st.sampled_from(keys))
    if where == "path":
        ep: Endpoint = draw(st.sampled_from(PATH_EPS))
        key = "".join(c for c in key if c.isalnum())  # path keys are letters and digits
        keys.append(key)
        return where, build_request(ep, _params(ep), key, scheme="http")
    ep = draw(st.sampled_from(QUERY_EPS))
    # The endpoint's own key parameter always goes too (without it the platform answers
    # "no key" locally and nothing goes upstream); the corpus adds its placement on top.
    req = build_request(ep, _params(ep), key, scheme="https")
    if where == "query":
        name = draw(_CASES)(draw(st.sampled_from(AUTH_NAMES)))
        return where, replace(req, query=req.query + ((name, key),))
    if where == "header":
        header = draw(st.sampled_from([("Authorization", "Bearer {}"), ("X-Api-Key", "{}"),
                                       ("Authorization", "KakaoAK {}")]))
        return where, replace(req, headers=((header[0], header[1].format(key)),))
    body = draw(st.sampled_from(["serviceKey={}&x=1", '{{"crtfc_key": "{}"}}', "{}"]))
    return where, replace(req, method="POST" if draw(st.booleans()) else "GET", body=body.format(key).encode())


async def echo_upstream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers any request with a JSON body echoing its path, query, headers and body."""
    if scope["type"] != "http":
        return
    body = b""
    more = True
    while more:
        msg = await receive()
        body += msg.get("body", b"")
        more = msg.get("more_body", False)
    echo = {
        "path": (scope.get("raw_path") or b"").decode("latin-1"),
        "query": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "body": body.decode("latin-1"),
    }
    out = json.dumps(echo, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(out)).encode()),
                            (b"x-echo-key", echo["query"].encode("latin-1")[:200])]})
    await send({"type": "http.response.body", "body": out})


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with serve_in_thread(echo_upstream) as url:
        yield url


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def _record(upstream: str, requests: list[SimRequest], store: Store, secrets: list[str], parent: str | None) -> str:
    """Send ``requests`` through a live-miss resolver, keep each exchange, publish them."""
    exchanges: list[tuple[SimRequest, SimResponse]] = []
    drop = {"host", "content-length", "accept-encoding", "connection"}

    def forward(req: SimRequest) -> SimResponse:
        headers = [(k, v) for k, v in req.headers if k.lower() not in drop and not k.lower().startswith("x-sim-")]
        with httpx.Client(timeout=10) as c:
            r = c.request(req.method, upstream + "/" + req.url.split("://", 1)[1], headers=headers, content=req.body)
        resp = SimResponse(r.status_code, [(k.lower(), v) for k, v in r.headers.items()], r.content)
        exchanges.append((req, resp))
        return resp

    base = store.open("kopa") if parent else _empty(store)
    client = httpx.Client(transport=SimTransport(Resolver(base, miss="live", live=forward)))
    for req in requests:
        r = client.request(req.method, req.url, headers=list(req.headers), content=req.body)
        assert r.headers.get("x-sim-source") in ("live", "exact"), r.text[:300]
    b = VersionBuilder(store, "kopa", CATALOG, parent=parent, secrets=secrets)
    for req, resp in exchanges:
        b.add_interaction(req, resp)
    return b.publish(recorded_at="2026-11-02T00:00:00Z", source="test").version


def _empty(store: Store) -> Any:
    empty = Store(store.root / ".." / "empty", store.cache_dir)
    VersionBuilder(empty, "empty", CATALOG, parent=None).publish(recorded_at="1970-01-01T00:00:00Z", source="test")
    return empty.open("empty")


def _forms(key: str) -> set[bytes]:
    return {f.encode() for f in (key, quote(key, safe=""), quote(key), quote_plus(key))}


@settings(max_examples=6, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), env_keys=st.lists(_keys(), min_size=len(KEY_ENVS), max_size=len(KEY_ENVS), unique=True))
def test_no_key_survives_recording(upstream: str, data: Any, env_keys: list[str]) -> None:
    keys = list(env_keys)
    first = [data.draw(keyed_request(keys)) for _ in range(data.draw(st.integers(3, 6)))]
    second = [data.draw(keyed_request(keys)) for _ in range(data.draw(st.integers(1, 3)))]
    placements = {w for w, _ in first + second}
    handler = _Lines()
    loggers = [logging.getLogger(n) for n in ("kopa_sim", "simulator")]
    old = [(lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    texts: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="kopa-corpus-") as tmp:
        root = Path(tmp)
        store = Store(root / "cassettes", root / "cache")
        try:
            v1 = _record(upstream, [r for _, r in first], store, keys, parent=None)
            v2 = _record(upstream, [r for _, r in second], store, keys, parent="latest")
        finally:
            for lg, (level, prop) in zip(loggers, old):
                lg.removeHandler(handler)
                lg.setLevel(level)
        a, b = store.open("kopa", v1), store.open("kopa", v2)
        drift = diff_versions(a, b, CATALOG)
        texts["drift markdown"] = drift.to_markdown()
        texts["drift json"] = json.dumps(drift.to_dict(), ensure_ascii=False)
        export_vcr(b, CATALOG, root / "export.yaml")
        report = audit_version(store, "kopa", v2)
        assert report.ok, [str(f) for f in report.findings]
        assert report.index is not None and report.index_rows > 0
        res = CliRunner().invoke(cli_app, ["audit", "all", "--cassettes", str(store.root)])
        assert res.exit_code == 0, res.output
        texts["audit output"] = res.output
        texts["log lines"] = "\n".join(handler.lines)
        files = [p for p in root.rglob("*") if p.is_file()]
        assert any(p.suffix == ".sqlite" for p in files) and (root / "export.yaml").is_file()
        # Stored files are read as text: a compressed one (format 3) decoded, so a key it held is seen.
        stored = b"".join(_decoded(p) for p in (root / "cassettes" / "kopa").rglob("*.jsonl*"))
        assert stored.count(b"\n") >= len({r.url for _, r in first}) - 1, "the exchanges were recorded"
        leaks = [
            f"key #{i} ({len(k)} chars) in {where}"
            for i, k in enumerate(keys)
            for form in _forms(k)
            for where in [str(p.relative_to(root)) for p in files if form in _decoded(p)]
            + [name for name, text in texts.items() if form in text.encode()]
        ]
        assert leaks == [], f"placements {sorted(placements)}: {leaks}"
