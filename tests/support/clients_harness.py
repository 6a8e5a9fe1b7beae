"""Unmodified third-party clients, replayed and live: the calls, their endpoints, the runner.

Each :class:`Call` runs a library's documented public function the way its README shows,
twice: inside ``patched(resolver)`` over the shipped cassettes (replay), and inside
``patched(SandboxForwarder)``, which sends the same requests over a loopback socket to the
sandbox (the stand-in the cassettes were recorded from) with the sandbox's key for each
platform (live). A call *works* when it returns without error and its parsed result equals
the live one. ``tests/simulator/transports/test_third_party_clients.py`` asserts it per call;
``scripts/clients_table.py`` writes ``docs/clients.md`` from the same list.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from simulator import Resolver
from simulator.catalog import Catalog
from simulator.errors import ReplayMiss, UnknownEndpoint
from simulator.request import SimRequest, SimResponse
from simulator.resolve import Resolution, Source
from simulator.transports.patching import passthrough, patched

#: The key every library is given; the forwarder swaps it for the sandbox's own.
KEY = "kopa0test0key0000000000000000000000000000"[:40]
#: Hosts outside the catalog that a library asks on the way (dart-fss's market lists): answered
#: too (unknown host, 404), so no call ever leaves the machine.
EXTRA_HOSTS = ("kind.krx.co.kr",)


@dataclass(frozen=True)
class Call:
    """One documented call of a library, with the catalog endpoints it reaches."""

    library: str
    name: str
    endpoints: tuple[str, ...]
    run: Callable[[Path], Any]
    #: What the shipped version gives: ``worked``; ``unrecorded`` (a catalogued endpoint the
    #: version holds no recording of); ``uncovered`` (an endpoint the catalog lacks);
    #: ``skipped`` (the library fails live against the sandbox too: its own bug, said where
    #: the call is listed).
    expect: str = "worked"


@dataclass(frozen=True)
class Library:
    """A PyPI client: how to import it and where its surface (the endpoints it supports) is."""

    name: str
    module: str
    #: ``(host, operation)`` pairs the library can call, read from its source.
    surface: Callable[[], set[tuple[str, str]]]
    #: Surface entries that are no endpoint (a name read off a non-URL map), with the reason.
    not_endpoints: Callable[[], dict[tuple[str, str], str]] = dict


@dataclass
class Outcome:
    """What one call did in replay, compared with live."""

    call: Call
    status: str  # worked | failed | unrecorded | uncovered | skipped
    detail: str = ""
    sources: list[str] = field(default_factory=list)


class RecordingResolver:
    """A resolver wrapper that notes how each request was answered (``x-sim-source``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.catalog: Catalog = inner.catalog
        self.seen: list[tuple[str, str]] = []

    def resolve(self, req: SimRequest, **kw: Any) -> Resolution:
        resp: Resolution = self.inner.resolve(req, **kw)
        self.seen.append((req.url, resp.header("x-sim-source") or ""))
        return resp


class SandboxForwarder:
    """Answers like a resolver by forwarding to the sandbox on loopback (the live run)."""

    def __init__(self, catalog: Catalog, base: str, keys: dict[str, str]) -> None:
        self.catalog = catalog
        self.base = base.rstrip("/")
        self.keys = keys
        self._client = httpx.Client(timeout=60)

    def close(self) -> None:
        self._client.close()

    def resolve(self, req: SimRequest, **_kw: Any) -> Resolution:
        try:
            ep = self.catalog.match(req).endpoint
        except UnknownEndpoint:
            m = self.catalog.infer(req)
            ep = m.endpoint if m is not None else None
        key = self.keys.get(ep.platform, KEY) if ep is not None else KEY
        netloc = req.host if req.port is None else f"{req.host}:{req.port}"
        url = self.base + "/" + netloc + req.url.split(netloc, 1)[1].replace(KEY, key)
        headers = {k: v for k, v in req.headers if k not in ("host", "content-length")}
        body = req.body.replace(KEY.encode(), key.encode())  # a form body may carry the key (juso)
        with passthrough():
            r = self._client.request(req.method, url, headers=headers, content=body or None)
        resp = SimResponse(r.status_code, [(k.lower(), v) for k, v in r.headers.items()], r.content)
        return Resolution(Source.LIVE, resp)


def installed(module: str) -> bool:
    """True when ``module`` imports (OpenDartReader replaces its module with a class)."""
    import sys

    if module in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:
        return False


def _normalise(value: Any) -> Any:
    """A comparable, JSON-able form of a library's result (DataFrames, models, objects)."""
    if hasattr(value, "to_dict") and hasattr(value, "columns"):  # pandas DataFrame
        return json.loads(value.to_json(orient="records", force_ascii=False))
    if hasattr(value, "model_dump"):
        return _normalise(value.model_dump())
    if isinstance(value, dict):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalise(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "__dict__"):
        return {k: _normalise(v) for k, v in vars(value).items() if not k.startswith("_")}
    return repr(value)


@contextmanager
def _cwd(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _hosts(resolver: Any) -> list[str]:
    return [*resolver.catalog.hosts(), *EXTRA_HOSTS]


def run_call(call: Call, replay: Any, live: SandboxForwarder, tmp: Path) -> Outcome:
    """Run ``call`` live (sandbox) and in replay; compare the parsed results.

    A call reaching no catalogued endpoint is run in replay only (the sandbox serves the
    catalog, nothing else) and reported ``uncovered`` with what the replay answered.
    """
    spy = RecordingResolver(replay)
    if not call.endpoints:
        (tmp / "replay").mkdir(parents=True, exist_ok=True)
        try:
            with patched(spy, _hosts(spy), raise_on_miss=False), _cwd(tmp / "replay"):  # type: ignore[arg-type]
                call.run(tmp / "replay")
            detail = "returned"
        except Exception as exc:  # noqa: BLE001
            detail = f"{type(exc).__name__}"
        answers = sorted({s or "unknown_endpoint" for _u, s in spy.seen})
        return Outcome(call, "uncovered", f"{detail}; replay answered: {', '.join(answers) or 'nothing'}",
                       [s for _u, s in spy.seen])
    (tmp / "live").mkdir(parents=True, exist_ok=True)
    (tmp / "replay").mkdir(parents=True, exist_ok=True)
    try:
        with patched(live, _hosts(live), raise_on_miss=False), _cwd(tmp / "live"):  # type: ignore[arg-type]
            want = _normalise(call.run(tmp / "live"))
    except Exception as exc:  # noqa: BLE001 - reported in the table
        return Outcome(call, "skipped", f"live run failed: {type(exc).__name__}: {exc}"[:300])
    try:
        with patched(spy, _hosts(spy), raise_on_miss=True), _cwd(tmp / "replay"):  # type: ignore[arg-type]
            got = _normalise(call.run(tmp / "replay"))
    except ReplayMiss as exc:
        return Outcome(call, "unrecorded", str(exc).splitlines()[0][:200], [s for _u, s in spy.seen])
    except Exception as exc:  # noqa: BLE001
        sources = [s for _u, s in spy.seen]
        if "miss" in sources:
            return Outcome(call, "unrecorded", f"{type(exc).__name__} after a replay miss", sources)
        return Outcome(call, "failed", f"{type(exc).__name__}: {exc}"[:300], sources)
    sources = [s for _u, s in spy.seen]
    if "miss" in sources:
        return Outcome(call, "unrecorded", "a request was not recorded (the library swallowed the miss)", sources)
    if got != want:
        return Outcome(call, "failed", "replayed result differs from the sandbox's live result", sources)
    return Outcome(call, "worked", "", sources)


# ---- surfaces: the endpoints each library can call, read from its installed source -----------
def _source(dist: str) -> str:
    """The Python source of an installed distribution (its RECORD), as one text."""
    return "\n".join(_sources(dist).values())


def _sources(dist: str) -> dict[str, str]:
    """The Python source files of an installed distribution, by their path in it."""
    from importlib import metadata

    try:
        files = metadata.files(dist) or []
    except metadata.PackageNotFoundError:
        return {}
    texts = {}
    for f in sorted(files, key=str):
        if str(f).endswith(".py"):
            path = Path(str(f.locate()))
            if path.is_file():
                texts[str(f)] = path.read_text("utf-8", "replace")
    return texts


def _urls(module: str, host: str) -> set[tuple[str, str]]:
    text = _source(module)
    pat = re.compile(r"https?://" + re.escape(host) + r"(/[A-Za-z0-9_./{}-]+)")
    out = set()
    for m in pat.finditer(text):
        path = re.sub(r"\.(json|xml)$|\.\{[^}]*\}$", "", m.group(1))
        if path.rstrip("/").count("/") >= 2:
            out.add((host, path.rstrip("/")))
    # a base URL the library appends operation names to (``.../sdsc2`` + ``/storeOne``) is
    # no endpoint of its own
    return {(h, p) for h, p in out if not any(q.startswith(p + "/") for _h, q in out)}


def _names(module: str, host: str, prefix: str, pattern: str) -> set[tuple[str, str]]:
    return {(host, prefix + m) for m in re.findall(pattern, _source(module))}


_INF_ID = re.compile(r"\bO[A-Z0-9]{18}\b")


def catalog_operations(catalog: Catalog) -> set[tuple[str, str]]:
    """Every catalog endpoint as ``(host, path without the format suffix)``; an Assembly
    endpoint also as ``(host, "infId:<id>")`` for the infId its provenance names (the
    published infId → endpoint-code table), which is how assembly-api-client names it."""
    return set(operation_platforms(catalog))


def operation_platforms(catalog: Catalog) -> dict[tuple[str, str], set[str]]:
    """:func:`catalog_operations` with the platform family (``gen_neis`` → ``neis``) of each."""
    out: dict[tuple[str, str], set[str]] = {}
    inf_ids: dict[str, set[str]] = {}
    for ep in catalog.endpoints.values():
        path = re.sub(r"\.\{[^}]*\}$|\.(json|xml)$", "", ep.path)
        literal = "/".join(p for p in path.split("/") if p and "{" not in p)
        out.setdefault((ep.host, "/" + literal), set()).add(platform_family(ep.platform))
        if ep.host == "open.assembly.go.kr":
            text = " ".join([ep.summary, ep.summary_en, *ep.provenance.values()])
            inf_ids.setdefault(literal.rsplit("/", 1)[-1], set()).update(_INF_ID.findall(text))
    for ids in inf_ids.values():  # an operation catalogued twice (curated and generated) once
        for i in ids:
            out.setdefault(("open.assembly.go.kr", f"infId:{i}"), set()).add("assembly")
    return out


def platform_family(platform: str) -> str:
    """The platform a catalog platform belongs to: a generated one (``gen_molit``) is its
    curated family's (``molit``)."""
    return platform[4:] if platform.startswith("gen_") else platform


#: The agencies of data.go.kr surface entries off the ten platforms, named in docs/clients.md.
AGENCY_NAMES = {"B553077": "소상공인시장진흥공단 상가정보, SEMAS"}


@dataclass(frozen=True)
class SurfaceSplit:
    """A library's surface, split by the ten platforms (``bench.kopa.MAIN_PLATFORMS``)."""

    on_ten: set[tuple[str, str]]
    #: Entries off the ten platforms, with the reason.
    off_ten: dict[tuple[str, str], str]


def split_surface(
    catalog: Catalog, surface: set[tuple[str, str]], ten: tuple[str, ...],
    not_endpoints: dict[tuple[str, str], str] | None = None,
) -> SurfaceSplit:
    """Which of ``surface`` is on the ten platforms ``ten``.

    A catalogued entry is on them when an endpoint of one of them serves it; an entry the
    catalog lacks, when its host (and on ``apis.data.go.kr`` its agency code, the first path
    segment) is one that the ten platforms' endpoints use, and it is an endpoint at all
    (``not_endpoints`` names those that are not, with the reason).
    """
    not_endpoints = not_endpoints or {}
    ops = operation_platforms(catalog)
    hosts: set[str] = set()
    agencies: set[str] = set()
    for ep in catalog.endpoints.values():
        if platform_family(ep.platform) in ten:
            hosts.add(ep.host)
            if ep.host == "apis.data.go.kr":
                agencies.add(ep.path.strip("/").split("/")[0])
    on, off = set(), {}
    for host, path in surface:
        fams = ops.get((host, path))
        if fams is not None:
            if fams & set(ten):
                on.add((host, path))
            else:
                off[(host, path)] = f"catalogued on `{'`, `'.join(sorted(fams))}`, not one of the ten platforms"
        elif (host, path) in not_endpoints:
            off[(host, path)] = not_endpoints[(host, path)]
        elif host not in hosts:
            owners = sorted({f for (h, _p), fs in ops.items() if h == host for f in fs})
            whose = f" (`{'`, `'.join(owners)}`'s)" if owners else ""
            off[(host, path)] = f"not in the catalog; host {host}{whose} is none of the ten platforms'"
        elif host == "apis.data.go.kr" and (agency := path.strip("/").split("/")[0]) not in agencies:
            name = AGENCY_NAMES.get(agency, "")
            off[(host, path)] = (f"not in the catalog; data.go.kr agency {agency}{f' ({name})' if name else ''} "
                                 "is none of the ten platforms'")
        else:
            on.add((host, path))
    return SurfaceSplit(on, off)


_DART_MAP = re.compile(r"'[가-힣A-Za-z0-9()·\s]+'\s*:\s*'([a-z][A-Za-z]{5,})'")


def _dart(dist: str) -> set[tuple[str, str]]:
    """OpenDART operations: ``api/<op>.json|xml`` in URLs and the ``'한글': 'opName'`` maps
    OpenDartReader templates its report and event URLs from."""
    text = _source(dist)
    ops = set(re.findall(r"api/([A-Za-z]+)\.(?:json|xml)", text))
    ops |= set(_DART_MAP.findall(text))
    ops |= set(re.findall(r'DartEndpoint\(\s*"([A-Za-z]+)', text))
    return {("opendart.fss.or.kr", f"/api/{op}") for op in ops}


def _dart_non_endpoints(dist: str) -> dict[tuple[str, str], str]:
    """Names :func:`_dart` reads off a ``'한글': 'name'`` map in a file that builds no OpenDART
    URL (dart-fss's KRX KIND form values, its XBRL label roles): surface entries, not endpoints."""
    files = _sources(dist)
    dart_files = {f for f, t in files.items() if "opendart" in t or re.search(r"api/[A-Za-z]+\.(json|xml)", t)}
    in_dart = {n for f in dart_files for n in _DART_MAP.findall(files[f])}
    in_dart |= {n for t in files.values() for n in re.findall(r"api/([A-Za-z]+)\.(?:json|xml)", t)}
    out: dict[tuple[str, str], str] = {}
    for f, text in files.items():
        if f in dart_files:
            continue
        hosts = sorted(set(re.findall(r"https?://([a-z0-9.-]+)", text)))
        where = f"its URLs are {', '.join(hosts)}'s" if hosts else "it builds no URL"
        for name in sorted(set(_DART_MAP.findall(text)) - in_dart):
            out[("opendart.fss.or.kr", f"/api/{name}")] = f"not an endpoint: a map value in {f} ({where})"
    return out


def _ecos(module: str) -> set[tuple[str, str]]:
    names = ("StatisticSearch", "StatisticItemList", "StatisticTableList", "StatisticWord",
             "KeyStatisticList", "StatisticMeta")
    text = _source(module)
    return {("ecos.bok.or.kr", f"/api/{n}") for n in names if f'"{n}"' in text or f"'{n}'" in text or f"/{n}/" in text}


def _assembly_surface() -> set[tuple[str, str]]:
    """Its ``Service`` enum: 274 services by infId (endpoint names come from each spec)."""
    text = _source("assembly-api-client")
    return {("open.assembly.go.kr", f"infId:{m}") for m in re.findall(r'= "(O[A-Z0-9]{18})"', text)}


def _tago_surface() -> set[tuple[str, str]]:
    """unoffical-tago-api: each resource class names its service (``middle_path``) and the
    operations its methods call; the client's ``BASE_URL`` is ``apis.data.go.kr/1613000``."""
    out = set()
    for text in _sources("unoffical-tago-api").values():
        service = re.search(r'middle_path = "(/\w+)"', text)
        if service:
            out |= {("apis.data.go.kr", f"/1613000{service.group(1)}{op}") for op in re.findall(r'"(/get\w+)"', text)}
    return out


def _pydatagokr_surface() -> set[tuple[str, str]]:
    """pydatagokr: each service module names its ``BASE_URL`` and one ``Table`` per operation
    (``Table.endpoint``, the path after the base): its offline catalog's own source."""
    import importlib
    from urllib.parse import urlsplit

    from pydatagokr import catalog
    from pydatagokr._spec import Table

    out = set()
    for svc in catalog.services():
        mod = importlib.import_module(f"pydatagokr.services.{svc['service']}")
        base = urlsplit(mod.BASE_URL)
        out |= {(base.hostname or "", f"{base.path}/{t.endpoint}") for t in vars(mod).values() if isinstance(t, Table)}
    return out


def _dart_names(dist: str) -> set[tuple[str, str]]:
    """OpenDART operations a client names as quoted ``"<op>.json"`` / ``"<op>.xml"`` strings it
    appends to its ``.../api`` base (dart-enhanced, opendart-py)."""
    ops = set(re.findall(r"[\"']([a-z][A-Za-z]+)\.(?:json|xml)[\"']", _source(dist)))
    return {("opendart.fss.or.kr", f"/api/{op}") for op in ops}


#: opendart-py names four reports by names that are not the published operations (its docstrings
#: give the report; the catalog holds it under the published name).
_OPENDART_PY_MISNAMED = {
    "crstDecsn": ("감자 결정", "crDecsn"),
    "esRgistSttus": ("지분증권 증권신고서", "estkRs"),
    "dbRgistSttus": ("채무증권 증권신고서", "bdRs"),
    "hyslrChg": ("최대주주 변동현황", "hyslrChgSttus"),
}


def _opendart_py_non_endpoints() -> dict[tuple[str, str], str]:
    names = {op for _h, p in _dart_names("opendart-py") for op in [p.rsplit("/", 1)[-1]]}
    return {
        ("opendart.fss.or.kr", f"/api/{bad}"): f"not an OpenDART operation: the catalog holds the report it names ({label}) "
                                              f"as `{good}`, the published operation name"
        for bad, (label, good) in _OPENDART_PY_MISNAMED.items() if bad in names
    }


def _kpubdata_surface() -> set[tuple[str, str]]:
    """kpubdata: each provider's ``catalogue.json`` names a dataset's ``base_url`` and its
    ``default_operation`` (appended to the base, but on law.go.kr, whose base is the whole URL)."""
    from importlib import metadata
    from urllib.parse import urlsplit

    out = set()
    for f in metadata.files("kpubdata") or []:
        if not str(f).endswith("catalogue.json"):
            continue
        data = json.loads(Path(str(f.locate())).read_text("utf-8"))
        for ds in data if isinstance(data, list) else data.get("datasets", []):
            url = urlsplit(ds.get("base_url") or "")
            op = ds.get("default_operation") or ""
            host = (url.hostname or "").lower()
            base = url.path.rstrip("/")
            whole = base.endswith(".do") or not op or base.endswith("/" + op)  # the base is the whole URL
            path = base if whole else f"{base}/{op}"
            if host and path:
                out.add((host, path))
    return out


LIBRARIES: dict[str, Library] = {
    "OpenDartReader": Library("OpenDartReader", "OpenDartReader", lambda: _dart("OpenDartReader")),
    "dart-fss": Library("dart-fss", "dart_fss", lambda: _dart("dart-fss"), lambda: _dart_non_endpoints("dart-fss")),
    "opendart-client": Library("opendart-client", "opendart_client", lambda: _dart("opendart-client")),
    "PublicDataReader": Library(
        "PublicDataReader", "PublicDataReader",
        lambda: _urls("PublicDataReader", "apis.data.go.kr") | _ecos("PublicDataReader"),
    ),
    "neispy": Library("neispy", "neispy", lambda: _names("neispy", "open.neis.go.kr", "/hub/", r'request\(\s*"GET",\s*"/(\w+)"')),
    "ecos-reader": Library("ecos-reader", "ecos", lambda: _ecos("ecos-reader")),
    "pyecos": Library("pyecos", "pyecos", lambda: _ecos("pyecos")),
    "assembly-api-client": Library("assembly-api-client", "assembly_client", _assembly_surface),
    "unoffical-tago-api": Library("unoffical-tago-api", "tagoapi", _tago_surface),
    # law.go.kr is catalogued by path (lawSearch.do / lawService.do, the ``target`` picks the
    # endpoint), so moleg-api's surface is its two DRF URLs.
    "moleg-api": Library("moleg-api", "moleg_api", lambda: _urls("moleg-api", "www.law.go.kr")),
    "data-go-kr-client": Library("data-go-kr-client", "data_go_kr_client",
                                 lambda: _urls("data-go-kr-client", "apis.data.go.kr")),
    # Held out until stop 35 (an outsider check of issue 27), then added: NEIS by requests, and
    # pydatagokr (urllib) over KMA, AirKorea, KASI, MOLIT RTMS, KOFIA (FSC), G2B and customs.
    "Neis_API": Library("Neis_API", "Neis_API", lambda: _urls("Neis_API", "open.neis.go.kr")),
    "pydatagokr": Library("pydatagokr", "pydatagokr", _pydatagokr_surface),
    # Held out until stop 36's outsider check (scripts/clients_outsider.py), then added: two
    # async httpx OpenDART clients and kpubdata (httpx; data.go.kr, NEIS, law.go.kr, Seoul).
    "dart-enhanced": Library("dart-enhanced", "dart_enhanced", lambda: _dart_names("dart-enhanced")),
    "opendart-py": Library("opendart-py", "opendart", lambda: _dart_names("opendart-py"), _opendart_py_non_endpoints),
    "kpubdata": Library("kpubdata", "kpubdata", _kpubdata_surface),
}


# ---- the calls -------------------------------------------------------------------------------
def _odr(_tmp: Path) -> Any:
    import OpenDartReader

    return OpenDartReader(KEY)


def _dart_fss_key() -> None:
    import dart_fss

    dart_fss.set_api_key(KEY)


def _dart_fss_corp_list(_tmp: Path) -> Any:
    import warnings

    import dart_fss

    dart_fss.set_api_key(KEY)
    with warnings.catch_warnings():  # it warns that the KRX market lists failed, and goes on
        warnings.simplefilter("ignore")
        return len(dart_fss.get_corp_list().corps)


def _neis(method: str, **params: str) -> Callable[[Path], Any]:
    def run(_tmp: Path) -> Any:
        import neispy

        async def main() -> Any:
            async with neispy.Neispy(KEY=KEY) as neis:
                return await getattr(neis, method)(**params)

        return asyncio.run(main())

    return run


def _ecos_reader(method: str, *args: Any) -> Callable[[Path], Any]:
    def run(_tmp: Path) -> Any:
        from ecos.client import EcosClient

        return getattr(EcosClient(api_key=KEY, use_cache=False), method)(*args)

    return run


def _pyecos(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    def run(_tmp: Path) -> Any:
        import pyecos

        with pyecos.ECOS(KEY) as client:
            return getattr(client, method)(*args, **kw)

    return run


def _pdr(cls: str, method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    def run(_tmp: Path) -> Any:
        import warnings

        import PublicDataReader as pdr

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(getattr(pdr, cls)(KEY), method)(*args, **kw)

    return run


SAMSUNG = "00126380"
KIA = "00106641"


def _newest_seq() -> int:
    from simulator import Store

    return Store().manifest("kopa").seq


#: The companies the calls ask about. From kopa@v0008 (world edition 7) a real listed company
#: keeps only its public identity (company.json: name and codes) and every value-bearing
#: endpoint answers "no data" for it, so the calls name two of the world's invented listed
#: companies instead (09529646 and 09420425: invented, like their filings; 영성전자 and
#: 태일로보틱스 from kopa@v0009, world edition 8, 일양삼익케미칼 and 금강유한케미칼 in v0008);
#: on the versions before, Samsung Electronics and Kia as before.
#: ``KOPA_CLIENTS_COMPANY=invented|real`` overrides the choice (what a recording plan needs).
NEWEST_SEQ = _newest_seq()
_COMPANY = os.environ.get("KOPA_CLIENTS_COMPANY") or ("invented" if NEWEST_SEQ >= 8 else "real")
#: What a call recorded from kopa@v0008 on (the values real clients send) gives before it.
RECORDED_FROM_V0008 = "worked" if NEWEST_SEQ >= 8 else "unrecorded"
CO, STOCK, CO2, STOCK2, ITEM = (
    ("09529646", "827420", "09420425", "201310", "영성" if NEWEST_SEQ >= 9 else "일양삼익") if _COMPANY == "invented"
    else (SAMSUNG, "005930", KIA, "000270", "삼성")
)

CALLS: list[Call] = [
    # -- OpenDartReader (requests) --------------------------------------------------------------
    Call("OpenDartReader", "OpenDartReader(key)  # corpCode.xml ZIP", ("opendart_corp_codes",),
         lambda t: len(_odr(t).corp_codes)),
    Call("OpenDartReader", f"dart.find_corp_code({STOCK!r})", ("opendart_corp_codes",),
         lambda t: _odr(t).find_corp_code(STOCK)),
    Call("OpenDartReader", f"dart.company({STOCK!r})", ("opendart_corp_codes", "opendart_company"),
         lambda t: _odr(t).company(STOCK)),
    Call("OpenDartReader", f"dart.list({STOCK!r}, start='2024-01-01', end='2024-12-31')",
         ("opendart_corp_codes", "opendart_disclosures"),
         lambda t: _odr(t).list(STOCK, start="2024-01-01", end="2024-12-31")),
    Call("OpenDartReader", "dart.list(CO2, start=…, end=…, final=True)", ("opendart_disclosures",),
         lambda t: _odr(t).list(CO2, start="2024-01-01", end="2024-12-31", final=True)),
    Call("OpenDartReader", f"dart.major_shareholders({STOCK!r})", ("opendart_corp_codes", "opendart_major_stock"),
         lambda t: _odr(t).major_shareholders(STOCK)),
    Call("OpenDartReader", f"dart.finstate({STOCK!r}, 2024)", ("opendart_corp_codes", "opendart_single_account"),
         lambda t: _odr(t).finstate(STOCK, 2024)),
    Call("OpenDartReader", f"dart.finstate('{STOCK},{STOCK2}', 2024)  # fnlttMultiAcnt", ("opendart_corp_codes", "dart_fnltt_multi_acnt"),
         lambda t: _odr(t).finstate(f"{STOCK},{STOCK2}", 2024)),
    # -- dart-fss (requests) ---------------------------------------------------------------------
    Call("dart-fss", "dart_fss.get_corp_list()", ("opendart_corp_codes",),
         _dart_fss_corp_list),
    Call("dart-fss", "dart_fss.api.filings.get_corp_info(CO)", ("opendart_company",),
         lambda t: (_dart_fss_key(), __import__("dart_fss").api.filings.get_corp_info(CO))[1]),
    Call("dart-fss", "dart_fss.api.filings.search_filings(corp_code=…, bgn_de=…, end_de=…, sort='date', sort_mth='desc')",
         ("opendart_disclosures",),
         lambda t: (_dart_fss_key(), __import__("dart_fss").api.filings.search_filings(
             corp_code=CO, bgn_de="20240101", end_de="20241231", sort="date", sort_mth="desc", page_count=100))[1]),
    Call("dart-fss", "dart_fss.api.finance.fnltt_singl_acnt(CO, '2024', '11011')", ("opendart_single_account",),
         lambda t: (_dart_fss_key(), __import__("dart_fss").api.finance.fnltt_singl_acnt(CO, "2024", "11011"))[1]),
    Call("dart-fss", "dart_fss.api.shareholder.majorstock(CO)", ("opendart_major_stock",),
         lambda t: (_dart_fss_key(), __import__("dart_fss").api.shareholder.majorstock(CO))[1]),
    Call("dart-fss", "dart_fss.api.finance.fnltt_multi_acnt(CO, '2024', '11011')", ("dart_fnltt_multi_acnt",),
         lambda t: (_dart_fss_key(), __import__("dart_fss").api.finance.fnltt_multi_acnt(CO, "2024", "11011"))[1]),
    # -- opendart-client (urllib) -----------------------------------------------------------------
    Call("opendart-client", "OpenDart(key).corp_codes()", ("opendart_corp_codes",),
         lambda t: len(__import__("opendart_client").OpenDart(KEY).corp_codes())),
    Call("opendart-client", "od.disclosure.company(CO)", ("opendart_company",),
         lambda t: __import__("opendart_client").OpenDart(KEY).disclosure.company(CO)),
    Call("opendart-client", "od.disclosure.search(corp_code=…, begin_date=…, end_date=…)", ("opendart_disclosures",),
         lambda t: __import__("opendart_client").OpenDart(KEY).disclosure.search(
             corp_code=CO, begin_date="20240101", end_date="20241231")),
    Call("opendart-client", "od.disclosure.search(…, last_report_only=True, sort_order='asc')", ("opendart_disclosures",),
         lambda t: __import__("opendart_client").OpenDart(KEY).disclosure.search(
             corp_code=CO2, begin_date="20240101", end_date="20241231", last_report_only=True, sort_order="asc")),
    Call("opendart-client", "od.finance.single_accounts(CO, fiscal_year=2024)", ("opendart_single_account",),
         lambda t: __import__("opendart_client").OpenDart(KEY).finance.single_accounts(CO, fiscal_year=2024)),
    Call("opendart-client", "od.ownership.five_percent_holdings(CO)", ("opendart_major_stock",),
         lambda t: __import__("opendart_client").OpenDart(KEY).ownership.five_percent_holdings(CO)),
    # -- neispy (aiohttp) ---------------------------------------------------------------------------
    Call("neispy", "schoolInfo(ATPT_OFCDC_SC_CODE='B10', SD_SCHUL_CODE='7010005')", ("neis_school_info",),
         _neis("schoolInfo", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005")),
    Call("neispy", "mealServiceDietInfo(B10, 7010005)", ("neis_meal",),
         _neis("mealServiceDietInfo", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005")),
    Call("neispy", "SchoolSchedule(B10, 7010005)", ("neis_school_schedule",),
         _neis("SchoolSchedule", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005")),
    Call("neispy", "classInfo(B10, 7010798)", ("neis_class_info",),
         _neis("classInfo", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010798")),
    Call("neispy", "hisTimetable(B10, 7010798)", ("neis_his_timetable",),
         _neis("hisTimetable", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010798")),
    Call("neispy", "acaInsTiInfo(ATPT_OFCDC_SC_CODE='B10')", ("neis_aca_ins_ti_info",),
         _neis("acaInsTiInfo", ATPT_OFCDC_SC_CODE="B10")),
    Call("neispy", "hisTimetable(B10, 7010798, AY='2022')  # a past year: hisTimetablebgs", ("neis_his_timetablebgs",),
         _neis("hisTimetable", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010798", AY="2022")),
    # -- PublicDataReader (requests) ----------------------------------------------------------------
    Call("PublicDataReader", "TransactionPrice(key).get_data('아파트', '전월세', '11110', '202503')", ("molit_apt_rents",),
         _pdr("TransactionPrice", "get_data", "아파트", "전월세", "11110", "202503")),
    Call("PublicDataReader", "TransactionPrice(key).get_data('아파트', '매매', '11110', '202503')", ("molit_apt_trades_detail",),
         _pdr("TransactionPrice", "get_data", "아파트", "매매", "11110", "202503")),
    Call("PublicDataReader", "Ecos(key).get_statistic_table_list()", ("ecos_stat_tables",),
         _pdr("Ecos", "get_statistic_table_list")),
    Call("PublicDataReader", "Ecos(key).get_statistic_item_list('200Y101')", ("ecos_stat_items",),
         _pdr("Ecos", "get_statistic_item_list", "200Y101")),
    Call("PublicDataReader", "Ecos(key).get_key_statistic_list()", ("ecos_key_stats",),
         _pdr("Ecos", "get_key_statistic_list")),
    # -- ecos-reader (requests) -----------------------------------------------------------------------
    Call("ecos-reader", "EcosClient().get_statistic_table_list()", ("ecos_stat_tables",),
         _ecos_reader("get_statistic_table_list")),
    Call("ecos-reader", "EcosClient().get_statistic_item_list('200Y101')", ("ecos_stat_items",),
         _ecos_reader("get_statistic_item_list", "200Y101")),
    Call("ecos-reader", "EcosClient().get_key_statistic_list()", ("ecos_key_stats",),
         _ecos_reader("get_key_statistic_list")),
    # -- pyecos (httpx) --------------------------------------------------------------------------------
    Call("pyecos", "Ecos(key).fetch_tables()", ("ecos_stat_tables",), _pyecos("fetch_tables")),
    Call("pyecos", "Ecos(key).fetch_items('200Y101')", ("ecos_stat_items",), _pyecos("fetch_items", "200Y101")),
    Call("pyecos", "Ecos(key).fetch_key_statistics()", ("ecos_key_stats",), _pyecos("fetch_key_statistics")),
]


def _assembly(endpoint: str | None, params: dict[str, str]) -> Callable[[Path], Any]:
    """assembly-api-client's ``get_data``. Its first step downloads the service's Excel spec
    from ``open.assembly.go.kr/portal/data/openapi/downloadOpenApiSpec.do``; with ``endpoint``
    given, the library's own spec cache is seeded with that endpoint instead (a spec JSON in
    ``SpecParser(cache_dir=…)``, the file the library writes after a download)."""

    def run(tmp: Path) -> Any:
        from assembly_client.api import AssemblyAPIClient
        from assembly_client.parser import SpecParser

        cache = tmp / "assembly-specs"
        cache.mkdir(parents=True, exist_ok=True)
        service = "OOWY4R001216HX11439"  # 국회의원 인적사항 (the library's README example)
        if endpoint is not None:
            spec = {"service_id": service, "endpoint": endpoint,
                    "endpoint_url": f"https://open.assembly.go.kr/portal/openapi/{endpoint}",
                    "basic_params": [], "request_params": [], "response_fields": []}
            (cache / f"{service}.json").write_text(json.dumps(spec), "utf-8")

        async def main() -> Any:
            async with AssemblyAPIClient(api_key=KEY, spec_parser=SpecParser(cache_dir=cache)) as client:
                return await client.get_data(service, params)

        return asyncio.run(main())

    return run


CALLS += [
    Call("assembly-api-client", "get_data(service_id)  # downloads its Excel spec first", (),
         _assembly(None, {}), expect="uncovered"),
    Call("assembly-api-client", "get_data(service_id) with the spec cache seeded (members)", ("assembly_members",),
         _assembly("nwvrqwxyaytdsfvhu", {})),
    Call("assembly-api-client", "get_data(…, {'AGE': '22'}) with the spec cache seeded (member bills)",
         ("assembly_member_bills",), _assembly("nzmimeepazxkubdpn", {"AGE": "22"})),
    Call("ecos-reader", "EcosClient().get_statistic_search('722Y001', 'M', '202401', '202412', '0101000')",
         ("ecos_stat_search",), _ecos_reader("get_statistic_search", "722Y001", "M", "202401", "202412", "0101000")),
    Call("pyecos", "ECOS(key).fetch_series('722Y001', cycle='M', start='202401', end='202412', item_code1='0101000')",
         ("ecos_stat_search",),
         _pyecos("fetch_series", "722Y001", cycle="M", start="202401", end="202412", item_code1="0101000")),
]


def _tago(resource: str, method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    """unoffical-tago-api (httpx): ``TAGOClient(service_key).<resource>.<method>(…)``, its README's
    resource API; the result is a ``TagoPage`` of models (or a list of them)."""

    def run(_tmp: Path) -> Any:
        from tagoapi import TAGOClient

        page = getattr(getattr(TAGOClient(service_key=KEY), resource), method)(*args, **kw)
        return [m.to_dict() for m in page] if hasattr(page, "__iter__") else page

    return run


def _moleg(fn: Callable[[Any], Any]) -> Callable[[Path], Any]:
    """moleg-api (urllib): ``MolegApi`` over a ``LawGoKrClient`` given the key as its OC (the
    README's ``oc=``), with no retries (a replay miss is final)."""

    def run(_tmp: Path) -> Any:
        from moleg_api import MolegApi
        from moleg_api.source import LawGoKrClient

        return fn(MolegApi(LawGoKrClient(oc=KEY, max_retries=0)))

    return run


def _dgk(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    """data-go-kr-client (httpx): one generated method per data.go.kr operation."""

    def run(_tmp: Path) -> Any:
        from data_go_kr_client import DataGoKrClient

        return getattr(DataGoKrClient(api_key=KEY), method)(*args, **kw)

    return run


CALLS += [
    # -- unoffical-tago-api (httpx) ---------------------------------------------------------------
    Call("unoffical-tago-api", "client.cities.list()", ("tago_city_codes",), _tago("cities", "list")),
    Call("unoffical-tago-api", "client.routes.list(25, '5')", ("tago_routes_by_number",), _tago("routes", "list", 25, "5")),
    Call("unoffical-tago-api", "client.routes.list_stations(25, 'DJB30000000', num_of_rows=100)", ("tago_route_stops",),
         _tago("routes", "list_stations", 25, "DJB30000000", num_of_rows=100)),
    Call("unoffical-tago-api", "client.stations.list(25, station_name='중앙')", ("tago_stations_by_name",),
         _tago("stations", "list", 25, station_name="중앙")),
    Call("unoffical-tago-api", "client.stations.list_nearby(36.8195, 127.1566)", ("tago_stations_nearby",),
         _tago("stations", "list_nearby", 36.8195, 127.1566)),
    Call("unoffical-tago-api", "client.stations.list_routes(12, 'SJB8000005')", ("tago_station_routes",),
         _tago("stations", "list_routes", 12, "SJB8000005")),
    Call("unoffical-tago-api", "client.arrivals.list_by_station(12, 'SJB8000005')", ("tago_station_arrivals",),
         _tago("arrivals", "list_by_station", 12, "SJB8000005")),
    Call("unoffical-tago-api", "client.arrivals.list_by_station_and_route(12, 'SJB8000187', 'SJB30000000')",
         ("tago_route_arrival_at_station",), _tago("arrivals", "list_by_station_and_route", 12, "SJB8000187", "SJB30000000")),
    Call("unoffical-tago-api", "client.vehicles.list_by_route(12, 'SJB30000000')", ("tago_route_bus_locations",),
         _tago("vehicles", "list_by_route", 12, "SJB30000000")),
    # getRouteInfoIem and getRouteAcctoSpcifySttnAccesBusLcInfo are not in the catalog
    Call("unoffical-tago-api", "client.routes.get(12, 'SJB30000000')  # getRouteInfoIem", (),
         _tago("routes", "get", 12, "SJB30000000"), expect="uncovered"),
    Call("unoffical-tago-api", "client.vehicles.list_approaching_station(12, 'SJB30000000', 'SJB8000187')", (),
         _tago("vehicles", "list_approaching_station", 12, "SJB30000000", "SJB8000187"), expect="uncovered"),
    # -- moleg-api (urllib) -----------------------------------------------------------------------------
    # '가정폭력방지' is in the statute's title in every edition (edition 8 titles it as the real
    # one, 가정폭력방지 및 피해자보호 등에 관한 법률; edition 7 wrote 가정폭력방지법)
    Call("moleg-api", "api.search_laws('가정폭력방지', basis='promulgated')  # target=law", ("lawgokr_law_search",),
         _moleg(lambda api: api.search_laws("가정폭력방지", basis="promulgated"))),
    Call("moleg-api", "api.get_law(api.search_laws(…, basis='promulgated')[0], basis='promulgated')",
         ("lawgokr_law_search", "lawgokr_law_detail"),
         _moleg(lambda api: api.get_law(api.search_laws("가정폭력방지", basis="promulgated")[0], basis="promulgated"))),
    Call("moleg-api", "api.search_cases('명예훼손')  # sends search=1, the default", ("lawgokr_prec_search",),
         _moleg(lambda api: api.search_cases("명예훼손"))),
    Call("moleg-api", "api.get_case('604049')", ("lawgokr_prec_detail",), _moleg(lambda api: api.get_case("604049"))),
    Call("moleg-api", "api.get_case(api.search_cases('명예훼손')[0])", ("lawgokr_prec_search", "lawgokr_prec_detail"),
         _moleg(lambda api: api.get_case(api.search_cases("명예훼손")[0]))),
    # its default basis 'effective' searches target=eflaw (시행일 법령), which the catalog lacks
    Call("moleg-api", "api.search_laws('가정폭력방지')  # target=eflaw", (),
         _moleg(lambda api: api.search_laws("가정폭력방지")), expect="uncovered"),
    # -- data-go-kr-client (httpx) ---------------------------------------------------------------------
    Call("data-go-kr-client", "get_stock_price_info(result_type='json', bas_dt='20250314', page_size=100)",
         ("fsc_stock_prices",), _dgk("get_stock_price_info", result_type="json", bas_dt="20250314", page_size=100)),
    Call("data-go-kr-client", f"get_stock_price_info(…, bas_dt='20250314', like_srtn_cd={STOCK!r})", ("fsc_stock_prices",),
         _dgk("get_stock_price_info", result_type="json", bas_dt="20250314", like_srtn_cd=STOCK)),
    Call("data-go-kr-client", f"get_item_info(result_type='json', bas_dt='20250314', like_itms_nm={ITEM!r})", ("fsc_listed_items",),
         _dgk("get_item_info", result_type="json", bas_dt="20250314", like_itms_nm=ITEM)),
    Call("data-go-kr-client", "stan_regin_cd_get_stan_regin_cd_list(type='json', locatadd_nm='서울특별시 종로구')",
         ("mois_stan_regin_cd",),
         _dgk("stan_regin_cd_get_stan_regin_cd_list", type="json", locatadd_nm="서울특별시 종로구", page_size=100)),
    # The library parses JSON only, and its NEC and TAGO methods cannot ask for it (no resultType;
    # TAGO's switch is ``_type``, the method sends ``type``): the XML answer fails its parser live
    # against the sandbox as against the real API (a library bug: ``skipped``).
    Call("data-go-kr-client", "winner_info_inqire_service2_get_winner_info_inqire('20240410', '2')", ("nec_winners",),
         _dgk("winner_info_inqire_service2_get_winner_info_inqire", "20240410", "2", page_size=100), expect="skipped"),
    Call("data-go-kr-client", "bus_sttn_info_inqire_service_get_sttn_no_list(city_code='25', node_nm='중앙')",
         ("tago_stations_by_name",),
         _dgk("bus_sttn_info_inqire_service_get_sttn_no_list", city_code="25", node_nm="중앙", page_size=100),
         expect="skipped"),
]


def _neis_api(fn: str, **kw: Any) -> Callable[[Path], Any]:
    """Neis_API (requests): its module functions return ``SchoolInfo``/``MealInfo``/… objects
    over the row dicts (``.data``). It spells the region filter ``ATPT_OFCDDC_SC_CODE`` (sic),
    which the real API, the sandbox and the replay ignore alike."""

    def run(_tmp: Path) -> Any:
        import Neis_API

        return [row.data for row in getattr(Neis_API, fn)(key=KEY, **kw)]

    return run


def _neis_api_school_meals(_tmp: Path) -> Any:
    from Neis_API import School

    return [m.data for m in School.find("B10", "7010005", key=KEY).get_meal_info(key=KEY)]


def _pydatagokr(service: str, method: str, **kw: Any) -> Callable[[Path], Any]:
    """pydatagokr (urllib): ``DataGoKr(key).<service>.<method>(…)``, typed rows (its README)."""

    def run(_tmp: Path) -> Any:
        from pydatagokr import DataGoKr

        return getattr(getattr(DataGoKr(KEY), service), method)(**kw)

    return run


CALLS += [
    # -- Neis_API (requests) ----------------------------------------------------------------------
    Call("Neis_API", "get_school_data(region_code='B10', school_code='7010005')", ("neis_school_info",),
         _neis_api("get_school_data", region_code="B10", school_code="7010005")),
    Call("Neis_API", "get_school_data(school_name='세종초등학교')", ("neis_school_info",),
         _neis_api("get_school_data", school_name="세종초등학교")),
    Call("Neis_API", "get_meal_data(region_code='B10', school_code='7010005')", ("neis_meal",),
         _neis_api("get_meal_data", region_code="B10", school_code="7010005")),
    Call("Neis_API", "get_schedule_data(region_code='B10', school_code='7010005')", ("neis_school_schedule",),
         _neis_api("get_schedule_data", region_code="B10", school_code="7010005")),
    Call("Neis_API", "School.find('B10', '7010005').get_meal_info()", ("neis_school_info", "neis_meal"),
         _neis_api_school_meals),
    # -- pydatagokr (urllib) ------------------------------------------------------------------------
    Call("pydatagokr", "realestate.apt_trade(lawd_code='11110', deal_ym='202503')", ("molit_apt_trades",),
         _pydatagokr("realestate", "apt_trade", lawd_code="11110", deal_ym="202503")),
    Call("pydatagokr", "realestate.apt_rent(lawd_code='11110', deal_ym='202503')", ("molit_apt_rents",),
         _pydatagokr("realestate", "apt_rent", lawd_code="11110", deal_ym="202503")),
    Call("pydatagokr", "weather.forecast(base_date='20220524', base_time='0500', nx=55, ny=127)",
         ("datagokr_misc_kma_vilage_fcst",),
         _pydatagokr("weather", "forecast", base_date="20220524", base_time="0500", nx=55, ny=127)),
    Call("pydatagokr", "midforecast.land(regid='11B00000', time_forecast='202610040600')",
         ("datagokr_misc_kma_mid_land_fcst",),
         _pydatagokr("midforecast", "land", regid="11B00000", time_forecast="202610040600")),
    Call("pydatagokr", "holidays.holidays(year=2025)  # getRestDeInfo", ("datagokr_misc_kasi_rest_days",),
         _pydatagokr("holidays", "holidays", year=2025)),
    # It bounds the dates with beginBasDt/endBasDt, which the catalog (from data-go-kr-client's
    # published params: basDt only) lacks: the sandbox and the replay ignore them alike.
    Call("pydatagokr", "kofia.credit_balance(begin='20250301', end='20250314')",
         ("fsc_granting_of_credit_balance_info",),
         _pydatagokr("kofia", "credit_balance", begin="20250301", end="20250314")),
    # It asks AirKorea with ver=1.0; kopa@v0005 recorded the Seoul list without ver (ver picks
    # the response's fields, so it keys the collection).
    # its default ver 1.0 keys the collection from edition 8 (the fields follow ver): v0009 records it
    Call("pydatagokr", "airquality.by_sido(sido='서울')", ("datagokr_misc_airkorea_sido_realtime",),
         _pydatagokr("airquality", "by_sido", sido="서울"), expect="worked" if NEWEST_SEQ >= 9 else "unrecorded"),
]


def _dart_enhanced(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    """dart-enhanced (httpx, async): ``DartClient(api_key)`` as an async context manager."""

    def run(_tmp: Path) -> Any:
        from dart_enhanced import DartClient

        async def main() -> Any:
            async with DartClient(api_key=KEY) as client:
                return await getattr(client, method)(*args, **kw)

        return asyncio.run(main())

    return run


def _opendart_py(method: str, *args: Any, **kw: Any) -> Callable[[Path], Any]:
    """opendart-py (httpx, async): ``DartClient(key)``; ``search_disclosures`` takes its
    ``DisclosureSearchParams`` model. One try per request (a replay miss is final)."""

    def run(_tmp: Path) -> Any:
        from opendart.client import DartClient
        from opendart.models import DisclosureSearchParams

        async def main() -> Any:
            async with DartClient(KEY, max_retries=1) as client:
                if method == "search_disclosures":
                    return await client.search_disclosures(DisclosureSearchParams(**kw))
                return await getattr(client, method)(*args, **kw)

        return asyncio.run(main())

    return run


def _kpubdata(dataset: str, **kw: Any) -> Callable[[Path], Any]:
    """kpubdata (httpx): ``Client().dataset(id).list(**filters)``; its keys come from
    ``KPUBDATA_<PROVIDER>_API_KEY`` (set for the call only)."""

    def run(_tmp: Path) -> Any:
        from kpubdata import Client

        names = [f"KPUBDATA_{p}_API_KEY" for p in ("DATAGO", "NEIS", "LAW", "SEOUL")]
        old = {n: os.environ.get(n) for n in names}
        os.environ.update({n: KEY for n in names})
        try:
            batch = Client().dataset(dataset).list(**kw)
        finally:
            for n, v in old.items():
                if v is None:
                    os.environ.pop(n, None)
                else:
                    os.environ[n] = v
        return [dict(r) for r in getattr(batch, "items", batch)]

    return run


CALLS += [
    # -- dart-enhanced (httpx, async) -------------------------------------------------------------
    Call("dart-enhanced", "get_company_info(CO)", ("opendart_company",), _dart_enhanced("get_company_info", CO)),
    Call("dart-enhanced", f"get_corp_code({STOCK!r})  # corpCode.xml", ("opendart_corp_codes",),
         _dart_enhanced("get_corp_code", STOCK)),
    Call("dart-enhanced", "search_disclosures(CO, '20240101', '20241231')", ("opendart_disclosures",),
         _dart_enhanced("search_disclosures", corp_code=CO, begin_date="20240101", end_date="20241231")),
    # v0006 and v0007 hold bsns_year 2023 only, and fnlttSinglAcntAll without fs_div (which the
    # library, like the real API, always sends); v0008 records 2024 with fs_div
    Call("dart-enhanced", "get_financial_statements(CO, 2024)  # fnlttSinglAcntAll fs_div=CFS",
         ("dart_fnltt_singl_acnt_all",), _dart_enhanced("get_financial_statements", CO, 2024),
         expect=RECORDED_FROM_V0008),
    Call("dart-enhanced", "get_dividend_info(CO, 2024)  # alotMatter", ("dart_alot_matter",),
         _dart_enhanced("get_dividend_info", CO, 2024), expect=RECORDED_FROM_V0008),
    # -- opendart-py (httpx, async) ---------------------------------------------------------------
    Call("opendart-py", "search_disclosures(corp_code=CO, bgn_de='20240101', end_de='20241231')",
         ("opendart_disclosures",), _opendart_py("search_disclosures", corp_code=CO, bgn_de="20240101", end_de="20241231")),
    Call("opendart-py", "get_company_overview(CO)", ("opendart_company",), _opendart_py("get_company_overview", CO)),
    Call("opendart-py", "get_dividends(CO, '2023', '11011')", ("dart_alot_matter",),
         _opendart_py("get_dividends", CO, "2023", "11011")),
    Call("opendart-py", "get_employees(CO, '2024', '11011')", ("dart_emp_sttus",),
         _opendart_py("get_employees", CO, "2024", "11011"), expect=RECORDED_FROM_V0008),
    # -- kpubdata (httpx) ---------------------------------------------------------------------------
    Call("kpubdata", "dataset('datago.apt_trade').list(LAWD_CD='11110', DEAL_YMD='202503')", ("molit_apt_trades_detail",),
         _kpubdata("datago.apt_trade", LAWD_CD="11110", DEAL_YMD="202503")),
    Call("kpubdata", "dataset('datago.apt_rent').list(LAWD_CD='11110', DEAL_YMD='202503')", ("molit_apt_rents",),
         _kpubdata("datago.apt_rent", LAWD_CD="11110", DEAL_YMD="202503")),
    Call("kpubdata", "dataset('datago.air_quality').list(sidoName='서울')", ("datagokr_misc_airkorea_sido_realtime",),
         _kpubdata("datago.air_quality", sidoName="서울")),
    Call("kpubdata", "dataset('neis.school_info').list(SCHUL_NM='서울대치초등학교')", ("neis_school_info",),
         _kpubdata("neis.school_info", SCHUL_NM="서울대치초등학교")),
    Call("kpubdata", "dataset('neis.meal_diet').list(ATPT_OFCDC_SC_CODE='B10', SD_SCHUL_CODE='7010005', MLSV_YMD='20250314')",
         ("neis_meal",), _kpubdata("neis.meal_diet", ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE="7010005", MLSV_YMD="20250314")),
    Call("kpubdata", "dataset('law.law_search').list(query='민법')", ("lawgokr_law_search",),
         _kpubdata("law.law_search", query="민법")),
    # v0006 and v0007 hold one nowcast (2025-12-01 05:00 at grid 61,126); v0008 every base time
    # of 2025-12-01 at Seoul's grid (60, 127)
    Call("kpubdata", "dataset('datago.ultra_srt_ncst').list(base_date='20251201', base_time='0600', nx=60, ny=127)",
         ("kma_ultra_srt_ncst",), _kpubdata("datago.ultra_srt_ncst", base_date="20251201", base_time="0600", nx="60", ny="127"),
         expect=RECORDED_FROM_V0008),
    # Seoul's 따릉이 bikeList is not in the catalog (issue 27)
    Call("kpubdata", "dataset('seoul.bike_realtime').list()  # bikeList", (), _kpubdata("seoul.bike_realtime"),
         expect="uncovered"),
]
