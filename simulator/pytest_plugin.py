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
    --kopa-record-mode {none,new_episodes,all,rewrite}  --kopa-upstream URL  --kopa-keep-errors
    --kopa-ignore-param NAMES  (comma-separated)

Precedence, per setting: command-line option, then marker, then the ``kopa_config``
fixture, then the ini file, then the defaults.

In replay mode (``none``, the default) a test that uses a kopa fixture or the marker may
reach loopback only: any other connection fails with ``KopaNetworkBlocked`` naming the
test and the host:port. The other modes send the test's traffic to the real hosts (or, for
every HTTP stack, to ``--kopa-upstream``; a loopback upstream — a sandbox — then is the
only host a test may reach), capture it with vcrpy, fetch whole collections for the
paginated endpoints touched, and publish one new version per set at the end of the session
(keys from ``KOPA_KEY_*`` and those seen in requests are redacted). ``new_episodes`` keeps
only what the parent version cannot answer; error answers are dropped with a warning unless
``--kopa-keep-errors``; a session whose calls all failed publishes nothing
(``simulator.record.session``).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .request import is_loopback
from .vocab import MissPolicy

if TYPE_CHECKING:  # pragma: no cover
    from .record.session import RecordBucket
    from .resolve import Resolver

RECORD_MODES = ("none", "new_episodes", "all", "rewrite")
MISS_POLICIES = (MissPolicy.STRICT.value, MissPolicy.NATIVE.value)
MARKER_ARGS = ("version", "miss", "fault_seed", "fault_rate", "set", "patch", "ignore_params")
CONFIG_KEYS = (
    "cassettes", "set", "version", "miss", "fault_seed", "fault_rate", "record_mode", "upstream",
    "patch", "ignore_params",
)
_OPTIONS = {  # setting → (command-line flag, ini key, help)
    "cassettes": ("--kopa-cassettes", "kopa_cassettes", "cassette directory (default: $KOPA_CASSETTES, else ./cassettes or the user data directory, over the shipped set)"),
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
    group.addoption("--kopa-keep-errors", dest="kopa_keep_errors", action="store_true", default=False,
                    help=_KEEP_ERRORS_HELP)
    parser.addini("kopa_keep_errors", help="kopa-sim: " + _KEEP_ERRORS_HELP, type="bool", default=False)


_KEEP_ERRORS_HELP = (
    "when recording: publish native error answers (refused key, quota, bad parameter) too; "
    "by default they are dropped with a warning"
)


def _keep_errors(config: pytest.Config) -> bool:
    return bool(config.getoption("kopa_keep_errors") or config.getini("kopa_keep_errors"))


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
    for line in state.used_lines() + state.report:
        terminalreporter.write_line(line)


# ---- session state -------------------------------------------------------------------------
class _State:
    def __init__(self) -> None:
        self.versions: dict[tuple[str | None, str, str | None], Any] = {}
        self.buckets: dict[tuple[Any, ...], RecordBucket] = {}
        self.report: list[str] = []
        self._empty: Any = None
        #: Per version opened: the line saying which version the tests replayed and why, and
        #: the newer versions of its set when a test pinned one (summary lines at the end).
        self.used: dict[tuple[str | None, str, str | None], tuple[str, list[str]]] = {}

    def used_lines(self) -> list[str]:
        """``kopa-sim: replayed …`` for every version the session opened; a pinned version with
        newer ones in its set says so (a summary line, never a warning: ``filterwarnings =
        error`` suites stay green), so a pin that has fallen behind is seen."""
        out = []
        for (_c, _s, pin), (line, newer) in sorted(self.used.items(), key=lambda kv: str(kv[0])):
            out.append(f"kopa-sim: replayed {line}")
            if pin is not None and newer:
                out.append(f"kopa-sim: note: tests pin version={pin!r}; newer versions exist: "
                           f"{', '.join(newer)} (pin the newest with @pytest.mark.kopa(version={newer[-1]!r}) "
                           f"or --kopa-version {newer[-1]})")
        return out

    def version(self, s: KopaSettings) -> Any:
        key = (s.cassettes, s.set, s.version)
        if key not in self.versions:
            from .errors import VersionNotFound
            from .store import Store

            try:
                store = Store(s.cassettes)
                m, line = store.choose(s.set, s.version)
                if s.version is not None:  # pinned by the marker, kopa_config, an option or the ini
                    line = f"{store.label(m)}: pinned (version={s.version!r})"
                self.versions[key] = store.open(s.set, m.version)
                newer = [x.version for x in store.versions(s.set) if x.seq > m.seq]
                self.used[key] = (line, newer)
            except VersionNotFound as exc:
                # The store names the CLI's flag; under pytest the option is --kopa-cassettes.
                msg = str(exc).replace("Pass --cassettes DIR", "Pass --kopa-cassettes DIR (ini: kopa_cassettes)")
                if s.record_mode != "none":
                    msg += "; to record into an empty directory, use --kopa-record-mode rewrite"
                raise VersionNotFound(msg) from None
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

    def bucket(self, s: KopaSettings, keep_errors: bool) -> RecordBucket:
        from .record.session import RecordBucket

        parent = None if s.record_mode == "rewrite" else s.version
        key = (s.cassettes, s.set, parent, s.record_mode)
        if key not in self.buckets:
            self.buckets[key] = RecordBucket(s.cassettes, s.set, parent, s.record_mode, s.upstream, keep_errors)
        return self.buckets[key]

    def publish_all(self) -> None:
        from .record.session import publish

        for bucket in self.buckets.values():
            try:
                line = publish(bucket)
            except Exception as exc:  # noqa: BLE001 - reported, never a crash at session end
                line = f"kopa-sim: recording for set {bucket.set_name!r} NOT published: {exc}"
            if line is not None:
                self.report.append(line)
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
        return Resolver(state.version(s), miss=s.miss, faults=faults, miss_hint=MISS_HINT,  # type: ignore[arg-type]
                        ignore_params=s.ignore_params)
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
        # A record session against a loopback upstream (a sandbox) reaches nothing else, not
        # even from tests that do not use kopa (no DNS lookup, no datagram leaves).
        why = _sandbox_session(request.config)
        if why is None:
            yield
            return
        with network_guard(item.nodeid, why):
            yield
        return
    settings: KopaSettings = request.getfixturevalue("kopa_settings")
    if settings.patch and "kopa_patched" not in getattr(item, "fixturenames", ()):
        request.getfixturevalue("kopa_patched")  # @pytest.mark.kopa(patch=True)
    if settings.record_mode == "none":
        with network_guard(item.nodeid):
            yield
        return
    from .record.session import capture

    state = request.config.stash[_STATE]
    bucket = state.bucket(settings, _keep_errors(request.config))
    parent = state.version(settings) if settings.record_mode == "new_episodes" else None
    with capture(bucket, item.nodeid, parent=parent, guard=_record_guard(settings, item.nodeid)):
        yield


# ---- network guard -------------------------------------------------------------------------
@contextmanager
def network_guard(nodeid: str, why: str | None = None) -> Iterator[None]:
    """Allow loopback (and Unix sockets) only; anything else raises ``KopaNetworkBlocked``
    naming the test, the host and ``why`` (default: replay mode's rule and its fixes).

    Guarded before the kernel: ``connect``/``connect_ex`` (TCP and UDP), ``sendto`` and
    ``sendmsg`` with a destination (UDP datagrams), and name lookups (``getaddrinfo``,
    ``gethostbyname``, ``gethostbyname_ex``, ``gethostbyaddr``, ``getnameinfo``)."""
    real = {
        "connect": socket.socket.connect, "connect_ex": socket.socket.connect_ex,
        "sendto": socket.socket.sendto, "sendmsg": socket.socket.sendmsg,
    }
    real_dns = {name: getattr(socket, name) for name in _DNS_FUNCTIONS}

    def refuse(host: Any, port: Any) -> KopaNetworkBlocked:
        return KopaNetworkBlocked(
            f"kopa-sim blocked the network: test {nodeid} tried to reach {host}:{port}. "
            + (why or "Replay mode (--kopa-record-mode none) allows loopback only: answer this host from "
               "the cassettes (kopa_client, kopa_session, or simulator.transports.patching.patched), "
               "or record it with --kopa-record-mode new_episodes")
        )

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple) and address:
            if not is_loopback(address[0]):
                raise refuse(address[0], address[1] if len(address) > 1 else "?")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        return real["connect"](self, address)  # type: ignore[no-any-return]

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real["connect_ex"](self, address)  # type: ignore[no-any-return]

    def sendto(self: socket.socket, data: Any, *args: Any) -> int:
        if args:  # sendto(data, address) or sendto(data, flags, address)
            check(self, args[-1])
        return real["sendto"](self, data, *args)  # type: ignore[no-any-return]

    def sendmsg(self: socket.socket, buffers: Any, *args: Any) -> int:
        if len(args) >= 3:  # sendmsg(buffers, ancdata, flags, address)
            check(self, args[2])
        return real["sendmsg"](self, buffers, *args)  # type: ignore[no-any-return]

    def lookup(name: str) -> Any:
        fn = real_dns[name]

        def guarded(host: Any, *args: Any, **kwargs: Any) -> Any:
            target = host[0] if name == "getnameinfo" and isinstance(host, tuple) else host
            if not is_loopback(target):
                shown = target.decode() if isinstance(target, bytes) else target
                raise refuse(shown, args[0] if args and name == "getaddrinfo" else "(name lookup)")
            return fn(host, *args, **kwargs)

        return guarded

    methods = {"connect": connect, "connect_ex": connect_ex, "sendto": sendto, "sendmsg": sendmsg}
    for name, fn in methods.items():
        setattr(socket.socket, name, fn)
    for name in _DNS_FUNCTIONS:
        setattr(socket, name, lookup(name))
    try:
        yield
    finally:
        for name, fn in real.items():
            setattr(socket.socket, name, fn)
        for name, fn in real_dns.items():
            setattr(socket, name, fn)


#: The name lookups the guard refuses for any host that is not loopback.
_DNS_FUNCTIONS = ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr", "getnameinfo")


# ---- recording (simulator.record.session does the work) ----------------------------------------
#: The miss hint under pytest: the fix is a plugin option, not ``simulator record``.
MISS_HINT = (
    "record it with `pytest --kopa-record-mode new_episodes` (add `--kopa-upstream URL` to "
    "record from a sandbox)"
)


def _forwarder(s: KopaSettings) -> Any:
    """The live forwarder of a recording resolver: the real host, or ``s.upstream``."""
    from .record.session import forwarder

    return forwarder(s.upstream)


def _sandbox_session(config: pytest.Config) -> str | None:
    """Why every test is guarded in a record session against a loopback upstream, or None."""
    from urllib.parse import urlsplit

    s = merge_settings(("command line", _cli_settings(config)), ("ini", _ini_settings(config)))
    if s.record_mode == "none" or not s.upstream or not is_loopback(urlsplit(s.upstream).hostname):
        return None
    return (f"This record session's upstream is loopback ({s.upstream}, a sandbox): every test of "
            "the session reaches loopback only, tests without kopa too; run them in another session")


def _record_guard(s: KopaSettings, nodeid: str) -> Any:
    """With a loopback upstream (a sandbox), refuse every other non-loopback connection."""
    from urllib.parse import urlsplit

    if not s.upstream or not is_loopback(urlsplit(s.upstream).hostname):
        return None
    return lambda: network_guard(
        nodeid,
        f"Record mode against a loopback upstream ({s.upstream}, a sandbox) allows loopback "
        "only: every catalog host is sent there; reach other hosts in a test without kopa",
    )
