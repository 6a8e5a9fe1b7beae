"""pytest plugin ``kopa_sim``: offline tests against pinned cassette versions (DESIGN §6).

Registered as the ``pytest11`` entry point ``kopa_sim``, so installing kopa-sim enables it.
It is import-light: the simulator's own modules load inside fixtures and hooks only.

Fixtures: ``kopa_config`` (override it), ``kopa_settings``, ``kopa_resolver``,
``kopa_transport`` (httpx), ``kopa_client`` (``httpx.Client``), ``kopa_session``
(``requests.Session`` with the adapter mounted on every catalog host), ``kopa_patched``
(every HTTP stack patched for the test).

Marker::

    @pytest.mark.kopa(version="v0001", miss="strict", fault_seed=None, fault_rate=0.1, set="kopa",
                      patch=False, ignore_params=())

``patch=True`` (or the ``kopa_patched`` fixture) answers clients the test builds itself —
requests, httpx, aiohttp, urllib / http.client — for every catalog host, the way
``@pytest.mark.vcr`` does; ``ignore_params`` names query parameters never matched on.

Options (group ``kopa-sim``; each also an ini key, ``kopa_cassettes`` …)::

    --kopa-cassettes DIR  --kopa-set NAME  --kopa-version V
    --kopa-record-mode {none,new_episodes,all,rewrite}  --kopa-upstream URL
    --kopa-ignore-param NAMES  (comma-separated)

Precedence, per setting: command-line option, then marker, then the ``kopa_config``
fixture, then the ini file, then the defaults.

In replay mode (``none``, the default) a test that uses a kopa fixture or the marker may
reach loopback only: any other connection fails with ``KopaNetworkBlocked`` naming the
test and the host:port. The other modes send the test's traffic to the real hosts (or to
``--kopa-upstream``, a sandbox), capture it with vcrpy, fetch whole collections for the
paginated endpoints touched, and publish one new version per set at the end of the session
(keys from ``KOPA_KEY_*`` and those seen in requests are redacted).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from .request import SimRequest, SimResponse
    from .resolve import Resolver

RECORD_MODES = ("none", "new_episodes", "all", "rewrite")
MISS_POLICIES = ("strict", "native")
MARKER_ARGS = ("version", "miss", "fault_seed", "fault_rate", "set", "patch", "ignore_params")
CONFIG_KEYS = (
    "cassettes", "set", "version", "miss", "fault_seed", "fault_rate", "record_mode", "upstream",
    "patch", "ignore_params",
)
_OPTIONS = {  # setting → (command-line flag, ini key, help)
    "cassettes": ("--kopa-cassettes", "kopa_cassettes", "cassette directory (default: $KOPA_CASSETTES or the project's cassettes/)"),
    "set": ("--kopa-set", "kopa_set", "cassette set (default: kopa)"),
    "version": ("--kopa-version", "kopa_version", "cassette version (default: the newest)"),
    "record_mode": ("--kopa-record-mode", "kopa_record_mode",
                    "none (replay, network blocked; default), new_episodes, all or rewrite"),
    "upstream": ("--kopa-upstream", "kopa_upstream",
                 "when recording: send catalog hosts to this base URL (a sandbox: /{host}/{path})"),
    "ignore_params": ("--kopa-ignore-param", "kopa_ignore_params",
                      "query parameters never matched on, comma-separated (like vcrpy's match_on)"),
}
_MARKER_HELP = (
    "kopa(version=None, miss='strict'|'native', fault_seed=None, fault_rate=0.1, set=None, "
    "patch=False, ignore_params=()): replay this test against a pinned kopa-sim cassette "
    "version; patch=True answers clients the test builds itself, like @pytest.mark.vcr (kopa-sim plugin)"
)


class KopaNetworkBlocked(RuntimeError):
    """A test in replay mode tried to reach a host other than loopback."""


# ---- settings ------------------------------------------------------------------------------
@dataclass(frozen=True)
class KopaSettings:
    """The settings one test runs with (see the module docstring for the precedence)."""

    cassettes: str | None = None
    set: str = "kopa"
    version: str | None = None
    miss: str = "strict"
    fault_seed: int | None = None
    fault_rate: float = 0.1
    record_mode: str = "none"
    upstream: str | None = None
    #: Answer clients the test builds itself (``patched``): requests, httpx, aiohttp, urllib.
    patch: bool = False
    ignore_params: tuple[str, ...] = ()
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)


def _check(key: str, value: Any, where: str) -> Any:
    """Validate one setting; raise ``pytest.UsageError`` naming what is accepted."""
    if key == "miss" and value not in MISS_POLICIES:
        raise pytest.UsageError(
            f"kopa-sim: {where}: miss={value!r} is not accepted; use one of: {', '.join(MISS_POLICIES)}"
        )
    if key == "record_mode" and value not in RECORD_MODES:
        raise pytest.UsageError(
            f"kopa-sim: {where}: record mode {value!r} is not accepted; use one of: "
            + ", ".join(RECORD_MODES)
        )
    if key == "fault_seed" and value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise pytest.UsageError(f"kopa-sim: {where}: fault_seed={value!r} must be an int or None")
    if key == "fault_rate":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise pytest.UsageError(
                f"kopa-sim: {where}: fault_rate={value!r} must be a number between 0 and 1"
            )
    if key == "patch" and not isinstance(value, bool):
        raise pytest.UsageError(f"kopa-sim: {where}: patch={value!r} must be True or False")
    if key == "ignore_params":
        names = value.split(",") if isinstance(value, str) else value
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            raise pytest.UsageError(
                f"kopa-sim: {where}: ignore_params={value!r} must be parameter names (a list, or a comma-separated string)"
            )
        return tuple(sorted({n.strip() for n in names if n.strip()}))
    if key in ("set", "version", "cassettes", "upstream") and value is not None and not isinstance(value, (str, os.PathLike)):
        raise pytest.UsageError(f"kopa-sim: {where}: {key}={value!r} must be a string")
    return value


def marker_settings(marker: pytest.Mark, where: str = "@pytest.mark.kopa") -> dict[str, Any]:
    """The settings a ``kopa`` marker gives; bad arguments raise ``pytest.UsageError``."""
    accepted = ", ".join(f"{k}=" for k in MARKER_ARGS)
    if marker.args:
        raise pytest.UsageError(
            f"kopa-sim: {where}: positional arguments {marker.args!r} are not accepted; "
            f"use keywords: {accepted}"
        )
    unknown = sorted(set(marker.kwargs) - set(MARKER_ARGS))
    if unknown:
        raise pytest.UsageError(
            f"kopa-sim: {where}: unknown argument(s) {', '.join(unknown)}; accepted: {accepted}"
        )
    return {k: _check(k, v, where) for k, v in marker.kwargs.items()}


def config_settings(cfg: Any) -> dict[str, Any]:
    """The settings a ``kopa_config`` fixture value gives (a dict with ``CONFIG_KEYS``)."""
    if not isinstance(cfg, dict):
        raise pytest.UsageError(f"kopa-sim: kopa_config must return a dict, got {type(cfg).__name__}")
    unknown = sorted(set(cfg) - set(CONFIG_KEYS))
    if unknown:
        raise pytest.UsageError(
            f"kopa-sim: kopa_config: unknown key(s) {', '.join(unknown)}; accepted: "
            + ", ".join(CONFIG_KEYS)
        )
    return {k: _check(k, v, "kopa_config") for k, v in cfg.items() if v is not None}


def merge_settings(*layers: tuple[str, dict[str, Any]]) -> KopaSettings:
    """Merge ``(source name, settings)`` layers, highest precedence first."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, layer in reversed(layers):
        for k, v in layer.items():
            if v is not None:
                values[k] = v
                sources[k] = name
    if "cassettes" in values:
        values["cassettes"] = str(values["cassettes"])
    return KopaSettings(**values, sources=sources)


def _cli_settings(config: pytest.Config) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _OPTIONS:
        value = config.getoption("kopa_" + key)
        if value is not None:
            if key == "cassettes":
                value = str(Path(config.invocation_params.dir) / value)
            out[key] = _check(key, value, f"{_OPTIONS[key][0]}")
    return out


def _ini_settings(config: pytest.Config) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, (_flag, ini, _help) in _OPTIONS.items():
        value = config.getini(ini)
        if value:
            if key == "cassettes":
                value = str(Path(config.rootpath) / value)
            out[key] = _check(key, value, f"ini {ini}")
    return out


# ---- hooks ---------------------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kopa-sim", "kopa-sim replay and recording")
    for key, (flag, ini, help_text) in _OPTIONS.items():
        group.addoption(flag, dest="kopa_" + key, default=None, metavar=key.upper(), help=help_text)
        parser.addini(ini, help="kopa-sim: " + help_text, default="")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", _MARKER_HELP)
    # Validate the session-wide settings now: a bad record mode stops the run at once.
    _cli_settings(config)
    _ini_settings(config)
    config.stash[_STATE] = _State()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in item.iter_markers("kopa"):
            marker_settings(marker, f"{item.nodeid}: @pytest.mark.kopa")


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is not None:
        state.publish_all()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    for line in state.report:
        terminalreporter.write_line(line)


# ---- session state -------------------------------------------------------------------------
@dataclass
class _Bucket:
    """What one (cassette dir, set, parent version, mode) recorded in this session."""

    cassettes: str | None
    set_name: str
    parent: str | None
    mode: str
    upstream: str | None
    exchanges: list[tuple[Any, Any]] = field(default_factory=list)
    collections: dict[str, dict[str, Any]] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    tests: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _State:
    def __init__(self) -> None:
        self.versions: dict[tuple[str | None, str, str | None], Any] = {}
        self.buckets: dict[tuple[Any, ...], _Bucket] = {}
        self.report: list[str] = []
        self._empty: Any = None

    def version(self, s: KopaSettings) -> Any:
        key = (s.cassettes, s.set, s.version)
        if key not in self.versions:
            from .store import Store

            self.versions[key] = Store(s.cassettes).open(s.set, s.version)
        return self.versions[key]

    def empty_version(self) -> Any:
        """An empty version (recording modes ``all``/``rewrite``: every request goes live)."""
        if self._empty is None:
            import tempfile

            from .catalog import load_catalog
            from .store import Store, VersionBuilder

            root = tempfile.mkdtemp(prefix="kopa-empty-")
            store = Store(root, cache_dir=Path(root) / ".cache")
            VersionBuilder(store, "empty", load_catalog(), parent=None).publish(
                recorded_at="1970-01-01T00:00:00Z", source="test"
            )
            self._empty = store.open("empty")
        return self._empty

    def bucket(self, s: KopaSettings) -> _Bucket:
        parent = None if s.record_mode == "rewrite" else s.version
        key = (s.cassettes, s.set, parent, s.record_mode)
        if key not in self.buckets:
            self.buckets[key] = _Bucket(s.cassettes, s.set, parent, s.record_mode, s.upstream)
        return self.buckets[key]

    def publish_all(self) -> None:
        for bucket in self.buckets.values():
            if not bucket.exchanges and not bucket.collections:
                continue
            try:
                self.report.append(_publish(bucket))
            except Exception as exc:  # noqa: BLE001 - reported, never a crash at session end
                self.report.append(f"kopa-sim: recording for set {bucket.set_name!r} NOT published: {exc}")
            self.report.extend(f"kopa-sim: warning: {w}" for w in bucket.warnings)


_STATE = pytest.StashKey[_State]()


# ---- fixtures ------------------------------------------------------------------------------
@pytest.fixture
def kopa_config() -> dict[str, Any]:
    """Project-wide kopa-sim settings; override this fixture (in a conftest) to change them.

    Keys: ``cassettes``, ``set``, ``version``, ``miss``, ``fault_seed``, ``fault_rate``,
    ``record_mode``, ``upstream``, ``patch``, ``ignore_params``. Precedence: command-line option, then the ``kopa``
    marker, then this fixture, then the ini file, then the defaults.
    """
    return {}


@pytest.fixture
def kopa_settings(request: pytest.FixtureRequest, kopa_config: dict[str, Any]) -> KopaSettings:
    """The merged settings of this test (command line > marker > ``kopa_config`` > ini)."""
    marker: dict[str, Any] = {}
    for m in reversed(list(request.node.iter_markers("kopa"))):  # closest marker wins
        marker.update(marker_settings(m))
    return merge_settings(
        ("command line", _cli_settings(request.config)),
        ("marker", marker),
        ("kopa_config", config_settings(kopa_config)),
        ("ini", _ini_settings(request.config)),
    )


@pytest.fixture
def kopa_resolver(request: pytest.FixtureRequest, kopa_settings: KopaSettings) -> Resolver:
    """A resolver over the pinned version (in a record mode: one that forwards misses live)."""
    from .resolve import FaultConfig, Resolver

    state = request.config.stash[_STATE]
    s = kopa_settings
    faults = FaultConfig(seed=s.fault_seed, rate=s.fault_rate) if s.fault_seed is not None else None
    if s.record_mode == "none":
        return Resolver(state.version(s), miss=s.miss, faults=faults, ignore_params=s.ignore_params)  # type: ignore[arg-type]
    version = state.version(s) if s.record_mode == "new_episodes" else state.empty_version()
    return Resolver(version, miss="live", live=_forwarder(s), faults=faults, ignore_params=s.ignore_params)


@pytest.fixture
def kopa_transport(request: pytest.FixtureRequest, kopa_resolver: Resolver) -> Any:
    """An ``httpx`` transport answering from ``kopa_resolver`` (episode: the test's node id)."""
    from .transports import SimTransport

    return SimTransport(kopa_resolver, episode=request.node.nodeid)


@pytest.fixture
def kopa_client(kopa_transport: Any) -> Iterator[Any]:
    """An ``httpx.Client`` over ``kopa_transport``."""
    import httpx

    with httpx.Client(transport=kopa_transport) as client:
        yield client


@pytest.fixture
def kopa_session(request: pytest.FixtureRequest, kopa_resolver: Resolver) -> Iterator[Any]:
    """A ``requests.Session`` with ``SimAdapter`` mounted on every catalog host (both schemes)."""
    from .transports.requests_adapter import SimAdapter, mount

    import requests

    with requests.Session() as session:
        mount(session, SimAdapter(kopa_resolver, episode=request.node.nodeid))
        yield session


@pytest.fixture
def kopa_patched(request: pytest.FixtureRequest, kopa_resolver: Resolver) -> Iterator[Resolver]:
    """Clients the test builds itself (requests, httpx, aiohttp, urllib / http.client) are
    answered from ``kopa_resolver`` for every catalog host (``simulator.transports.patching``)."""
    from .transports.patching import patched

    with patched(kopa_resolver, episode=request.node.nodeid):
        yield kopa_resolver


@pytest.fixture(autouse=True)
def _kopa_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """Block the network (replay) or capture it (record) for tests that use kopa."""
    item = request.node
    uses = item.get_closest_marker("kopa") is not None or any(
        name.startswith("kopa_") for name in getattr(item, "fixturenames", ())
    )
    if not uses:
        yield
        return
    settings: KopaSettings = request.getfixturevalue("kopa_settings")
    if settings.patch and "kopa_patched" not in getattr(item, "fixturenames", ()):
        request.getfixturevalue("kopa_patched")  # @pytest.mark.kopa(patch=True)
    if settings.record_mode == "none":
        with network_guard(item.nodeid):
            yield
        return
    state = request.config.stash[_STATE]
    with _capture(settings, item.nodeid, state.bucket(settings)):
        yield


# ---- network guard -------------------------------------------------------------------------
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback(host: Any) -> bool:
    """True for loopback names and addresses (and Unix sockets, given as str paths or bytes)."""
    if host is None or host == "":
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").lower()
    if host in _LOOPBACK_NAMES:
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


@contextmanager
def network_guard(nodeid: str) -> Iterator[None]:
    """Allow loopback (and Unix sockets) only; anything else raises ``KopaNetworkBlocked``."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_gai = socket.getaddrinfo

    def refuse(host: Any, port: Any) -> KopaNetworkBlocked:
        return KopaNetworkBlocked(
            f"kopa-sim blocked the network: test {nodeid} tried to reach {host}:{port}. "
            "Replay mode (--kopa-record-mode none) allows loopback only: answer this host from "
            "the cassettes (kopa_client, kopa_session, or simulator.transports.patching.patched), "
            "or record it with --kopa-record-mode new_episodes"
        )

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
            if not is_loopback(address[0]):
                raise refuse(address[0], address[1])

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if not is_loopback(host):
            raise refuse(host.decode() if isinstance(host, bytes) else host, port)
        return real_gai(host, port, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = real_gai


# ---- recording -----------------------------------------------------------------------------
_DROP_RESPONSE_HEADERS = {"content-encoding", "content-length", "transfer-encoding", "connection"}
_DROP_REQUEST_HEADERS = {"host", "content-length", "accept-encoding", "connection"}


def _forwarder(s: KopaSettings) -> Any:
    """The live forwarder of a recording resolver: the real host, or ``s.upstream``."""
    from .catalog import load_catalog
    from .record import LiveClient
    from .request import SimResponse
    from .transports.patching import passthrough

    client = LiveClient(load_catalog(), {}, upstream=s.upstream, rate_per_sec={"default": 0.0})

    def forward(req: SimRequest) -> SimResponse:
        clean = replace(req, headers=tuple(
            (k, v) for k, v in req.headers if k not in _DROP_REQUEST_HEADERS and not k.startswith("x-sim-")
        ))
        with passthrough():
            resp = client.send(clean, "default")
        return SimResponse(resp.status, [(k, v) for k, v in resp.headers if k not in _DROP_RESPONSE_HEADERS], resp.body)

    return forward


def _decoded(body: bytes, encoding: str | None) -> bytes:
    import zlib

    if encoding and "gzip" in encoding and body[:2] == b"\x1f\x8b":
        import gzip

        return gzip.decompress(body)
    if encoding and "deflate" in encoding:
        try:
            return zlib.decompress(body)
        except zlib.error:
            return body
    return body


def from_vcr(request: Any, response: dict[str, Any], upstream: str | None) -> tuple[SimRequest, SimResponse]:
    """A vcrpy (request, response) pair as the simulator's, upstream URLs mapped back."""
    from urllib.parse import urlsplit

    from .request import SimRequest, SimResponse

    uri = request.uri
    if upstream:
        up = urlsplit(upstream)
        parts = urlsplit(uri)
        if (parts.hostname, parts.port or _default_port(parts.scheme)) == (
            up.hostname, up.port or _default_port(up.scheme)
        ):
            rest = uri.split(parts.netloc, 1)[1]
            prefix = up.path.rstrip("/")
            if prefix and rest.startswith(prefix):
                rest = rest[len(prefix):]
            uri = "https:/" + rest  # /{host}/{path} → https://{host}/{path}
    headers = [(k, v if isinstance(v, str) else ", ".join(v)) for k, v in dict(request.headers).items()]
    body = request.body or b""
    req = SimRequest.from_url(
        uri, method=request.method,
        headers=[(k, v) for k, v in headers if k.lower() not in _DROP_REQUEST_HEADERS],
        body=body if isinstance(body, bytes) else str(body).encode("utf-8"),
    )
    rheaders: list[tuple[str, str]] = []
    for k, vs in (response.get("headers") or {}).items():
        for v in (vs if isinstance(vs, list) else [vs]):
            rheaders.append((k.lower(), v))
    encoding = next((v for k, v in rheaders if k == "content-encoding"), None)
    raw = (response.get("body") or {}).get("string") or b""
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    resp = SimResponse(
        int(response["status"]["code"]),
        [(k, v) for k, v in rheaders if k not in _DROP_RESPONSE_HEADERS],
        _decoded(raw, encoding),
    )
    return req, resp


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


@contextmanager
def _capture(s: KopaSettings, nodeid: str, bucket: _Bucket) -> Iterator[None]:
    """Capture the test's traffic with vcrpy, then keep what went to catalog hosts."""
    import shutil
    import tempfile
    from contextlib import ExitStack

    import vcr

    from .catalog import load_catalog
    from .transports.patching import rewrite_to_upstream

    catalog = load_catalog()
    tmp = tempfile.mkdtemp(prefix="kopa-vcr-")
    recorder = vcr.VCR(record_mode="all", decode_compressed_response=False)
    try:
        with ExitStack() as stack:
            if s.upstream:
                stack.enter_context(rewrite_to_upstream(catalog.hosts(), s.upstream))
            cassette = stack.enter_context(recorder.use_cassette(os.path.join(tmp, "test.yaml")))
            yield
            pairs = list(cassette.data)
        _keep(pairs, s, nodeid, bucket, catalog)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _keep(pairs: list[Any], s: KopaSettings, nodeid: str, bucket: _Bucket, catalog: Any) -> None:
    from .errors import SimulatorError

    bucket.tests.append(nodeid)
    bucket.secrets.update(v for k, v in os.environ.items() if k.startswith("KOPA_KEY_") and v)
    touched: list[tuple[Any, dict[str, str], str | None]] = []
    for vreq, vresp in pairs:
        req, resp = from_vcr(vreq, vresp, s.upstream)
        try:
            match = catalog.match(req)
        except SimulatorError:
            continue  # not a catalog request (loopback helpers, other hosts)
        ep = match.endpoint
        key = None
        for p in ep.params_with_role("auth"):
            key = match.params.get(p.name) or key
        if key:
            bucket.secrets.add(key)
        bucket.exchanges.append((req, resp))
        if ep.kind == "collection" and ep.params_with_role("page", "page_size", "range_start", "range_end"):
            touched.append((ep, dict(match.params), key))
    if touched:
        _record_collections(touched, s, bucket, catalog)


def _record_collections(touched: list[Any], s: KopaSettings, bucket: _Bucket, catalog: Any) -> None:
    """Fetch each touched paginated query whole (``Recorder.record_collection``)."""
    import shutil

    from .errors import SimulatorError
    from .record import LiveClient, Plan, Recorder
    from .record.live import key_env_of
    from .store import Store
    from .transports.patching import passthrough

    keys: dict[str, str] = {}
    for ep, _params, key in touched:
        value = key or os.environ.get(key_env_of(catalog, ep))
        if value:
            keys[ep.id] = value
            keys.setdefault(ep.platform, value)
    client = LiveClient(catalog, keys, upstream=s.upstream, rate_per_sec={"default": 0.0})
    store = Store(s.cassettes)
    store.set_dir(s.set).mkdir(parents=True, exist_ok=True)
    rec = Recorder(Plan(set=s.set, fidelity_samples=0), store=store, catalog=catalog, client=client,
                   set_name=s.set, source="sandbox" if s.upstream else "live")
    try:
        with client, passthrough():
            for ep, params, _key in touched:
                try:
                    entry = rec.record_collection(ep, params)
                except SimulatorError as exc:
                    bucket.warnings.append(f"{ep.id}: whole collection not recorded: {exc}")
                    continue
                bucket.collections[entry["key"]] = entry
    finally:
        shutil.rmtree(rec.checkpoint_dir, ignore_errors=True)


def _publish(bucket: _Bucket) -> str:
    from datetime import datetime, timezone

    from .catalog import load_catalog
    from .store import Store, VersionBuilder

    catalog = load_catalog()
    store = Store(bucket.cassettes)
    has_parent = store.set_dir(bucket.set_name).is_dir() and any(
        p.is_dir() and not p.name.startswith(".") for p in store.set_dir(bucket.set_name).iterdir()
    )
    parent = None if bucket.mode == "rewrite" or not has_parent else (bucket.parent or "latest")
    builder = VersionBuilder(store, bucket.set_name, catalog, parent=parent, secrets=sorted(bucket.secrets))
    kept = dict(builder.interactions)
    kept_collections = set(builder.collections)
    added = 0
    for req, resp in bucket.exchanges:
        fp = builder.add_interaction(req, resp)
        if bucket.mode == "new_episodes" and fp in kept:
            builder.interactions[fp] = kept[fp]  # new_episodes keeps the parent's entries
        else:
            added += 1
    colls = 0
    for key, e in sorted(bucket.collections.items()):
        if bucket.mode == "new_episodes" and key in kept_collections:
            continue
        builder.add_collection(endpoint=e["endpoint"], key=e["key"], filters=e["filters"], fmt=e["fmt"],
                               total=e["total"], records=e["records"], envelope=e["envelope"])
        colls += 1
    manifest = builder.publish(
        recorded_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        source="sandbox" if bucket.upstream else "live",
        info={"recorded_by": "pytest", "record_mode": bucket.mode, "tests": bucket.tests[:50]},
    )
    return (
        f"kopa-sim: published {manifest.set}@{manifest.version} (parent {manifest.parent or 'none'}, "
        f"mode {bucket.mode}): {added} interaction(s), {colls} collection(s) recorded "
        f"into {store.root}"
    )
