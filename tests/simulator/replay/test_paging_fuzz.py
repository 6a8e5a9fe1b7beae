"""Every paging parameter of every endpoint, fuzzed with huge, negative, non-ASCII and odd
numerals: the platform's native error or an answer, never a 5xx or an exception (issue 15 §2)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from simulator import ReplayMiss, Resolver, SimRequest, SimTransport, Store, load_catalog
from simulator.catalog import Endpoint
from simulator.dialects.base import MAX_INT, SplitError, parse_count
from tests.support.loopback import serve_in_thread

SHIPPED = Path(__file__).resolve().parents[3] / "cassettes"

_ROLES = ("page", "page_size", "range_start", "range_end")
#: Numerals ``int()`` takes (or chokes on) that no client means as a count.
ODD = [
    str(2**63), str(2**64 + 1), str(MAX_INT + 1), "9" * 40, "9" * 5000, "-1", "-" + str(2**63), "0",
    "1_0", "+3", " 3", "3 ", "١٢", "１２", "²", "0x10", "1e3", "3.0", "NaN", "", "-",
]


def _url(ep: Endpoint, name: str, value: str) -> str:
    path = ep.path
    query: list[tuple[str, str]] = list(ep.match.items())
    for p in ep.params:
        if p.name in ep.match:
            continue
        v = value if p.name == name else (p.example or p.default or ("1" if p.type == "integer" else "x"))
        if p.location == "path":
            path = path.replace("{" + p.name + "}", quote(v, safe="") or "1")
        elif p.name == name or p.required or p.role in ("auth", "format"):
            query.append((p.name, v))
    qs = "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in query)
    return f"https://{ep.host}{path}?{qs}"


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for ep in load_catalog().endpoints.values():
        for p in ep.params:
            if p.role in _ROLES:
                for v in ODD:
                    out.append((ep.id, p.name, _url(ep, p.name, v)))
    return out


CASES = _cases()


@pytest.fixture(scope="module")
def resolver(shipped_store: Store) -> Resolver:
    store = shipped_store
    return Resolver(store.open("kopa"))


def test_parse_count_takes_ascii_digits_within_bounds() -> None:
    assert parse_count("0012", 1, "pageNo", "json") == 12
    assert parse_count(None, 7, "pageNo", "json") == 7
    assert parse_count(str(MAX_INT), 1, "pageNo", "json") == MAX_INT
    for bad in ODD:
        if bad in ("", "-1", "0"):
            continue
        with pytest.raises(SplitError) as info:
            parse_count(bad, 1, "pageNo", "json")
        assert info.value.kind == "bad_param"


def test_every_paging_parameter_in_process(resolver: Resolver) -> None:
    assert len({c[0] for c in CASES}) >= 40  # every paged endpoint of the catalog
    client = httpx.Client(transport=SimTransport(resolver))
    bad = []
    for eid, name, url in CASES:
        try:
            resp = resolver.resolve(SimRequest.from_url(url))
            try:
                status = client.get(url).status_code
            except ReplayMiss:  # documented: a strict miss raises in the transport
                status = 404
        except Exception as exc:  # noqa: BLE001 - the point: nothing may raise
            bad.append(f"{eid} {name}: {type(exc).__name__}: {exc}"[:200])
            continue
        if resp.status >= 500 or status >= 500:
            bad.append(f"{eid} {name} -> {resp.status}/{status}: {resp.body[:120]!r}")
    assert not bad, "\n".join(bad[:20])


def test_every_paging_parameter_over_http(tmp_path: Path) -> None:
    from simulator.server import create_app

    store = Store(SHIPPED, cache_dir=tmp_path / "cache")
    app = create_app(Resolver(store.open("kopa")))
    bad = []
    with serve_in_thread(app) as base:
        with httpx.Client(base_url=base, timeout=30) as client:
            for eid, name, url in CASES[::3] + [c for c in CASES if "9999" in c[2]]:
                target = url.replace("https://", "/", 1)
                r = client.get(target)
                if r.status_code >= 500:
                    bad.append(f"{eid} {name} -> {r.status_code} {r.text[:100]}")
        # An absolute-form request target with a malformed IPv6 authority (httpx cannot send it).
        import socket

        host, port = base.removeprefix("http://").split(":")
        for target in ("http://[::1/x", "http://[::1]:99999999/x?pageNo=1", "http://a:²/x"):
            with socket.create_connection((host, int(port)), timeout=10) as sock:
                sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                head = sock.recv(200).decode("latin-1")
            status = int(head.split()[1])
            if status >= 500:
                bad.append(f"{target} -> {head[:80]!r}")
    assert not bad, "\n".join(bad[:20])
