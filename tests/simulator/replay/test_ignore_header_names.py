"""Any ignored parameter name travels in ``x-sim-ignored``, percent-encoded where it is not
printable ASCII (issue 31 §1): ``…&%ED%95%9C=1`` or ``…&%ff%fe=1`` once gave a 500 from the
server and raised ``UnicodeEncodeError`` out of ``httpx.Client.get``, on every endpoint."""

from __future__ import annotations

import asyncio
from urllib.parse import quote, unquote

import httpx
import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import AsyncSimTransport, Resolver, SimTransport, Store, Version, load_catalog
from simulator.catalog import Catalog
from simulator.catalog.generate.seeds import seed_params
from simulator.ignore import ignored_header_value
from simulator.server import create_app
from simulator.tools.call import build_call
from simulator.transports.requests_adapter import SimAdapter, mount
from tests.support.loopback import serve_in_thread

#: A name as it goes on the wire: any text (surrogate-free), or any raw bytes, percent-encoded.
wire_names = st.one_of(
    st.text(min_size=1, max_size=6).map(lambda t: quote(t.encode("utf-8"), safe="")),
    st.binary(min_size=1, max_size=6).map(lambda b: quote(b, safe="")),
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def version(tmp_path_factory: pytest.TempPathFactory) -> Version:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"  # shared with other modules
    cache.mkdir(exist_ok=True)
    return Store(cache_dir=cache).open("kopa")


@pytest.fixture(scope="module")
def urls(version: Version, catalog: Catalog) -> dict[str, str]:
    """One recorded request URL per endpoint of the shipped version (its first collection)."""
    args: dict[str, dict[str, str]] = {}
    for info in sorted(version.index.collections(), key=lambda i: (i.endpoint, i.key)):
        args.setdefault(info.endpoint, {**seed_params(catalog.endpoint(info.endpoint)), **info.filters})
    out = {}
    for tool, a in args.items():
        req = build_call(catalog, tool, a)
        assert not hasattr(req, "ok"), f"{tool}: {req}"
        out[tool] = req.url + ("&" if "?" in req.url else "?")
    return out


def _check_headers(headers: list[tuple[str, str]], status: int, where: str) -> None:
    assert status < 500, where
    for name, value in headers:
        assert value.isascii() and value.isprintable(), (where, name, value)


def _ignored(headers: httpx.Headers | requests.structures.CaseInsensitiveDict) -> list[str]:
    value = headers.get("x-sim-ignored") or ""
    return [unquote(n, errors="replace") for n in value.split(",")] if value else []


#: Names that broke a header: Korean, invalid UTF-8, CR LF, the separator, an escape.
HOSTILE = ["%ED%95%9C", "%ff%fe", "a%0D%0Ab", "a%2Cb", "%25"]


def test_every_endpoint_answers_unknown_names_in_process(
        urls: dict[str, str], version: Version, catalog: Catalog) -> None:
    client = httpx.Client(transport=SimTransport(Resolver(version, catalog), raise_on_miss=False))
    extra = "&".join(f"{n}={i}" for i, n in enumerate(HOSTILE))
    decoded = [unquote(n, errors="replace") for n in HOSTILE]
    named = 0
    for tool, url in urls.items():
        resp = client.get(f"{url}{extra}")
        _check_headers(list(resp.headers.items()), resp.status_code, tool)
        if not catalog.endpoint(tool).opt("inferred"):
            assert set(decoded) <= set(_ignored(resp.headers)), (tool, resp.headers.get("x-sim-ignored"))
            named += 1
    assert named >= 2000


def test_header_value_round_trips() -> None:
    names = ["utm_source", "한", "\ufffd\ufffd", "a\r\nb", "a,b", "%ff", " x ", "é"]
    value = ignored_header_value(names)
    assert value == "utm_source,%ED%95%9C,%EF%BF%BD%EF%BF%BD,a%0D%0Ab,a%2Cb,%25ff,%20x%20,%C3%A9"
    value.encode("latin-1")
    assert [unquote(n) for n in value.split(",")] == names


@given(st.lists(st.text(min_size=1), min_size=1, max_size=5))
def test_header_value_is_printable_ascii_and_decodes(names: list[str]) -> None:
    value = ignored_header_value(names)
    assert value.isascii() and value.isprintable()
    assert [unquote(n) for n in value.split(",")] == names


@pytest.fixture(scope="module")
def server(version: Version, catalog: Catalog):  # type: ignore[no-untyped-def]
    with serve_in_thread(create_app(Resolver(version, catalog))) as base:
        yield base


SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(data=st.data(), name=wire_names)
def test_no_adapter_answers_5xx_for_any_name(  # type: ignore[no-untyped-def]
        urls: dict[str, str], version: Version, catalog: Catalog, server, data: st.DataObject, name: str) -> None:
    """The same request through the sync and async transports, the requests adapter, the
    server's replay URL form and the server as an HTTP proxy: never a 5xx, every header
    printable ASCII, and (off inferred endpoints) the name in ``x-sim-ignored``."""
    tool = data.draw(st.sampled_from(sorted(urls)))
    url = f"{urls[tool]}{name}=1"
    decoded = unquote(name, errors="replace")
    resolver = Resolver(version, catalog)
    answers: dict[str, tuple[int, list[tuple[str, str]], list[str]]] = {}

    with httpx.Client(transport=SimTransport(resolver, raise_on_miss=False)) as c:
        r = c.get(url)
        answers["sync"] = (r.status_code, list(r.headers.items()), _ignored(r.headers))

    async def async_get() -> httpx.Response:
        async with httpx.AsyncClient(transport=AsyncSimTransport(resolver, raise_on_miss=False)) as ac:
            return await ac.get(url)

    r = asyncio.run(async_get())
    answers["async"] = (r.status_code, list(r.headers.items()), _ignored(r.headers))

    session = mount(requests.Session(), SimAdapter(resolver, raise_on_miss=False), hosts=["*"])
    rr = session.get(url)
    answers["requests"] = (rr.status_code, list(rr.headers.items()), _ignored(rr.headers))

    with httpx.Client(timeout=30) as c:
        r = c.get(f"{server}/{url.split('://', 1)[1]}")
        answers["server"] = (r.status_code, list(r.headers.items()), _ignored(r.headers))
    with httpx.Client(timeout=30, proxy=server) as c:
        r = c.get("http://" + url.split("://", 1)[1])
        answers["proxy"] = (r.status_code, list(r.headers.items()), _ignored(r.headers))

    for where, (status, headers, ignored) in answers.items():
        _check_headers(headers, status, f"{where} {tool} {name}")
        if not catalog.endpoint(tool).opt("inferred") and catalog.endpoint(tool).param(decoded) is None:
            assert decoded in ignored, (where, tool, name, ignored)
    assert len({a[0] for a in answers.values()}) == 1, {k: a[0] for k, a in answers.items()}
