"""The requests adapter and the patching context manager, over a small version."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys

import httpx
import pytest
import requests
import requests.adapters

from simulator import FaultConfig, ReplayMiss, Resolver, Store, VersionBuilder, load_catalog
from simulator.request import SimRequest, SimResponse
from simulator.transports.patching import patched
from simulator.transports.requests_adapter import SimAdapter, mount

from tests.support.loopback import serve_in_thread

COMPANY = "https://opendart.fss.or.kr/api/company.json?corp_code=00126380&crtfc_key=K"
BODY = json.dumps({"status": "000", "corp_name": "삼성전자(주)"}, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def resolver(cassette_root) -> Resolver:  # type: ignore[no-untyped-def]
    store = Store(cassette_root)
    b = VersionBuilder(store, "t", load_catalog(), parent=None)
    b.add_interaction(
        SimRequest.from_url(COMPANY),
        SimResponse(200, [("content-type", "application/json; charset=utf-8")], BODY),
    )
    b.publish(recorded_at="2026-01-01T00:00:00Z", source="test")
    return Resolver(store.open("t"))


def test_adapter_answers_a_mounted_session(resolver: Resolver) -> None:
    s = mount(requests.Session(), SimAdapter(resolver))
    r = s.get("https://opendart.fss.or.kr/api/company.json", params={"crtfc_key": "other", "corp_code": "00126380"})
    assert r.status_code == 200 and r.ok
    assert r.json()["corp_name"] == "삼성전자(주)"
    assert r.encoding == "utf-8" and r.content == BODY
    assert r.url.startswith("https://opendart.fss.or.kr/api/company.json?")
    assert r.headers["X-Sim-Source"] == "exact"
    assert r.raw.read() == BODY
    assert isinstance(s.get_adapter("https://open.neis.go.kr/hub/x"), SimAdapter)
    assert isinstance(s.get_adapter("http://openapi.seoul.go.kr:8088/x"), SimAdapter)
    assert isinstance(s.get_adapter("http://127.0.0.1:9/x"), requests.adapters.HTTPAdapter)
    assert isinstance(SimAdapter(resolver), requests.adapters.BaseAdapter)


def test_strict_miss_raises_or_answers_404(resolver: Resolver) -> None:
    s = mount(requests.Session(), SimAdapter(resolver))
    with pytest.raises(ReplayMiss, match="no recording answers"):
        s.get("https://opendart.fss.or.kr/api/company.json?corp_code=00164779&crtfc_key=K")
    s = mount(requests.Session(), SimAdapter(resolver, raise_on_miss=False))
    r = s.get("https://opendart.fss.or.kr/api/company.json?corp_code=00164779&crtfc_key=K")
    assert r.status_code == 404 and r.json()["error"]["type"] == "replay_miss"


def test_seeded_timeout_fault_is_a_requests_timeout(resolver: Resolver) -> None:
    faulty = Resolver(resolver.version, faults=FaultConfig(seed=1, rate=1.0, kinds=("timeout",)))
    s = mount(requests.Session(), SimAdapter(faulty), hosts=["*"])
    with pytest.raises(requests.exceptions.ReadTimeout, match="injected timeout"):
        s.get(COMPANY)


def test_missing_requests_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "requests", None)
    monkeypatch.delitem(sys.modules, "simulator.transports.requests_adapter")
    with pytest.raises(ImportError, match=r"pip install 'kopa-sim\[requests\]'"):
        importlib.import_module("simulator.transports.requests_adapter")


async def _loopback_app(scope, receive, send):  # type: ignore[no-untyped-def]
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"real loopback"})


def test_patched_answers_every_client_kind_and_passes_others_through(resolver: Resolver) -> None:
    import aiohttp

    originals = (
        requests.adapters.HTTPAdapter.send,
        httpx.HTTPTransport.handle_request,
        httpx.AsyncHTTPTransport.handle_async_request,
        aiohttp.ClientSession._request,
    )

    async def aio(url: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session:
            async with session.get(url, params={"x": "1"} if "127.0.0.1" in url else None) as resp:
                return resp.status, await resp.text()

    async def ahttpx(url: str) -> httpx.Response:
        async with httpx.AsyncClient() as c:
            return await c.get(url)

    with serve_in_thread(_loopback_app) as base:
        with patched(resolver):
            assert requests.get(COMPANY).json()["status"] == "000"
            assert httpx.get(COMPANY).json()["corp_name"] == "삼성전자(주)"
            assert asyncio.run(ahttpx(COMPANY)).headers["x-sim-source"] == "exact"
            status, text = asyncio.run(aio(COMPANY))
            assert status == 200 and json.loads(text)["status"] == "000"
            # Other hosts go out unchanged (loopback here).
            assert requests.get(base + "/x").text == "real loopback"
            assert httpx.get(base + "/x").text == "real loopback"
            assert asyncio.run(aio(base + "/x")) == (200, "real loopback")
    assert originals == (
        requests.adapters.HTTPAdapter.send,
        httpx.HTTPTransport.handle_request,
        httpx.AsyncHTTPTransport.handle_async_request,
        aiohttp.ClientSession._request,
    )


def test_patched_restores_on_exceptions_and_honours_hosts(
    resolver: Resolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def fake_send(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(request.url)
        raise requests.exceptions.ConnectionError("would go to the network")

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", fake_send)
    with pytest.raises(RuntimeError, match="boom"):
        with patched(resolver, hosts=["open.neis.go.kr"]):
            with pytest.raises(requests.exceptions.ConnectionError):
                requests.get(COMPANY)  # not one of the chosen hosts: passes through
            raise RuntimeError("boom")
    assert seen == [COMPANY]
    assert requests.adapters.HTTPAdapter.send is fake_send
