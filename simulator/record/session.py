"""Recording a test session: capture each test's traffic, keep what is new, publish once.

The pytest plugin (``simulator.pytest_plugin``) is glue over this module. In a record mode
(``new_episodes``, ``all``, ``rewrite``):

* every HTTP stack (httpx sync and async, requests, urllib, aiohttp) sends catalog hosts to
  the upstream when one is named (``rewrite_to_upstream``), and every other remote host too
  when the upstream is a loopback stand-in; vcrpy captures the traffic below that, decoding
  compressed bodies (``simulator.vcr.vcr_exchange``, the one converter);
* an exchange with a host no catalog platform has is kept exactly, like vcrpy (replayed by
  fingerprint; ``patched()`` answers the hosts a version holds); an unknown path on a
  platform host is an *inferred* endpoint, whose pages also record a whole collection;
* with a loopback upstream the caller's ``guard`` refuses any other non-loopback
  connection (a raw socket), naming the test and the host;
* ``new_episodes`` keeps only the requests the parent version cannot answer (nor its
  collections the parent already holds);
* an answer that is a native error (a refused key, a quota, a bad parameter; or any
  4xx/5xx) is not published as data unless ``keep_errors``; each one dropped is a warning;
* a session whose calls all failed publishes nothing, and its summary says so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

from ..catalog import Catalog, Endpoint, load_catalog
from ..errors import SimulatorError
from ..ignore import collection_filters
from ..request import SimRequest, SimResponse, is_loopback

__all__ = ["RecordBucket", "capture", "forwarder", "native_error", "publish"]

#: Parameter roles that are not part of a collection's key (as ``Recorder.record_collection``).
_DROP_RESPONSE_HEADERS = {"content-encoding", "content-length", "transfer-encoding", "connection"}
_DROP_REQUEST_HEADERS = {"host", "content-length", "accept-encoding", "connection"}


@dataclass
class RecordBucket:
    """What one (cassette dir, set, parent version, mode) recorded in a session."""

    cassettes: str | None
    set_name: str
    parent: str | None
    mode: str
    upstream: str | None
    keep_errors: bool = False
    exchanges: list[tuple[SimRequest, SimResponse]] = field(default_factory=list)
    collections: dict[str, dict[str, Any]] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    tests: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Catalog calls the tests made (kept or not), and how many of them failed.
    calls: int = 0
    failed: int = 0


def forwarder(upstream: str | None) -> Callable[[SimRequest], SimResponse]:
    """The live forwarder of a recording resolver: the real host, or ``upstream``."""
    from ..transports.patching import passthrough
    from .live import LiveClient

    client = LiveClient(load_catalog(), {}, upstream=upstream, rate_per_sec={"default": 0.0})

    def forward(req: SimRequest) -> SimResponse:
        clean = replace(req, headers=tuple(
            (k, v) for k, v in req.headers if k not in _DROP_REQUEST_HEADERS and not k.startswith("x-sim-")
        ))
        with passthrough():
            resp = client.send(clean, "default")
        return SimResponse(resp.status, [(k, v) for k, v in resp.headers if k not in _DROP_RESPONSE_HEADERS], resp.body)

    return forward


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def _original_uri(uri: str, upstream: str | None) -> str:
    """``{upstream}/{host}/{path}`` → ``https://{host}/{path}``; other URIs as they are."""
    if not upstream:
        return uri
    up, parts = urlsplit(upstream), urlsplit(uri)
    if (parts.hostname, parts.port or _default_port(parts.scheme)) != (
        up.hostname, up.port or _default_port(up.scheme)
    ):
        return uri
    rest = uri.split(parts.netloc, 1)[1]
    prefix = up.path.rstrip("/")
    if prefix and rest.startswith(prefix):
        rest = rest[len(prefix):]
    # The first segment is the original host[:port]; clients %-encode an IPv6 literal's
    # brackets in a path (``/%5B2001:db8::1%5D:8080/…``), which must read back as a host.
    host, sep, tail = rest.lstrip("/").partition("/")
    return "https://" + unquote(host) + sep + tail


def from_vcr(request: Any, response: dict[str, Any], upstream: str | None, where: str) -> tuple[SimRequest, SimResponse]:
    """A live vcrpy (request, response) pair as the simulator's, upstream URLs mapped back."""
    from ..vcr import vcr_exchange

    req, resp = vcr_exchange(
        _original_uri(request.uri, upstream), request.method, dict(request.headers), request.body, response, where
    )
    req = replace(req, headers=tuple((k, v) for k, v in req.headers if k not in _DROP_REQUEST_HEADERS))
    return req, SimResponse(resp.status, [(k, v) for k, v in resp.headers if k not in _DROP_RESPONSE_HEADERS], resp.body)


def native_error(ep: Endpoint, resp: SimResponse) -> str | None:
    """Why ``resp`` is an error answer of ``ep`` (None: it is data, an empty result included)."""
    from ..dialects import get_dialect
    from ..fidelity import sniff_format

    if resp.status >= 400:
        return f"HTTP {resp.status}"
    try:
        parsed = get_dialect(ep.dialect).parse(ep, resp.body, sniff_format(resp.body))
    except Exception:  # noqa: BLE001 - a body no dialect parses (a file): judged by status
        return None
    if parsed.outcome == "error" or (parsed.outcome == "empty" and parsed.kind not in (None, "no_data")):
        return f"native error {parsed.code or parsed.kind} ({parsed.kind or 'server_error'})"
    return None


@contextmanager
def capture(
    bucket: RecordBucket,
    nodeid: str,
    *,
    parent: Any = None,
    guard: Callable[[], AbstractContextManager[None]] | None = None,
) -> Iterator[None]:
    """Capture one test's traffic (vcrpy), redirected to ``bucket.upstream``; then keep in
    ``bucket`` what went to catalog hosts (see the module docstring).

    Args:
        bucket: where the session's recording collects.
        nodeid: the test (for messages and the version's info).
        parent: the parent version (``new_episodes``: what it answers is not recorded).
        guard: refuses other connections (the plugin's network guard, for a sandbox).
    """
    import vcr

    from ..transports.patching import rewrite_to_upstream

    catalog = load_catalog()
    tmp = tempfile.mkdtemp(prefix="kopa-vcr-")
    recorder = vcr.VCR(record_mode="all", decode_compressed_response=True)
    try:
        with ExitStack() as stack:
            # vcrpy first: it replaces the transports' methods with ones that call the
            # originals, so the upstream rewrite must wrap vcrpy's, not the other way round.
            cassette = stack.enter_context(recorder.use_cassette(os.path.join(tmp, "test.yaml")))
            if bucket.upstream:
                # a loopback stand-in is sent every remote host (recorded exactly when the
                # catalog has no platform for it); a remote upstream only the catalog's
                remote = is_loopback(urlsplit(bucket.upstream).hostname)
                stack.enter_context(rewrite_to_upstream(None if remote else catalog.hosts(), bucket.upstream))
            stack.enter_context(guard() if guard is not None else nullcontext())
            yield
            pairs = list(cassette.data)
        _keep(pairs, nodeid, bucket, catalog, parent)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _parent_answers(parent: Any, req: SimRequest) -> bool:
    from ..resolve import Resolver

    return Resolver(parent).resolve(req).source in ("exact", "window", "query")


def _keep(pairs: list[Any], nodeid: str, bucket: RecordBucket, catalog: Catalog, parent: Any) -> None:
    bucket.tests.append(nodeid)
    bucket.secrets.update(v for k, v in os.environ.items() if k.startswith("KOPA_KEY_") and v)
    touched: list[tuple[Endpoint, dict[str, str], str | None]] = []
    for i, (vreq, vresp) in enumerate(pairs):
        try:
            req, resp = from_vcr(vreq, vresp, bucket.upstream, f"{nodeid} call {i}")
        except (ValueError, SimulatorError) as exc:  # a URL no request can be made of: said, not raised
            bucket.calls += 1
            bucket.failed += 1
            bucket.warnings.append(f"{nodeid}: call {i} ({getattr(vreq, 'uri', '?')!s:.200}) not recorded: {exc}")
            continue
        try:
            match = catalog.match(req)
        except SimulatorError:
            inferred = catalog.infer(req)  # an unknown path on a platform host (catalog.infer)
            if inferred is None:
                if not is_loopback(req.host):  # loopback: the test's own helpers
                    _keep_exact(req, resp, nodeid, bucket, parent)
                continue
            match = inferred
        ep = match.endpoint
        key = None
        for p in ep.params_with_role("auth"):
            key = match.params.get(p.name) or key
        if key:
            bucket.secrets.add(key)
        problem = native_error(ep, resp)
        hint = "check the key: the sandbox takes sandbox-<platform>; "
        if not _admit(bucket, nodeid, req, resp, parent, ep.id, problem, hint):
            continue
        if problem is None and ep.kind == "collection" and ep.params_with_role(
            "page", "page_size", "range_start", "range_end"
        ):
            touched.append((ep, dict(match.params), key))
    if touched:
        _record_collections(touched, bucket, catalog, parent)


def _keep_exact(req: SimRequest, resp: SimResponse, nodeid: str, bucket: RecordBucket, parent: Any) -> None:
    """A host no catalog platform has: the exchange is kept as it was, like vcrpy."""
    problem = f"HTTP {resp.status}" if resp.status >= 400 else None
    _admit(bucket, nodeid, req, resp, parent, f"{req.method} {req.host}{req.path}", problem, "")


def _admit(
    bucket: RecordBucket, nodeid: str, req: SimRequest, resp: SimResponse, parent: Any,
    what: str, problem: str | None, hint: str,
) -> bool:
    """Count one call and keep it; False when it is not kept (an error answer, unless
    ``keep_errors``; in ``new_episodes``, what the parent already answers)."""
    bucket.calls += 1
    if problem is not None:
        bucket.failed += 1
        if not bucket.keep_errors:
            bucket.warnings.append(
                f"{nodeid}: {what} answered {problem}; not published ({hint}--kopa-keep-errors "
                "keeps error answers)"
            )
            return False
    if bucket.mode == "new_episodes" and parent is not None and _parent_answers(parent, req):
        return False
    bucket.exchanges.append((req, resp))
    return True


def _record_collections(touched: list[Any], bucket: RecordBucket, catalog: Catalog, parent: Any) -> None:
    """Fetch each touched paginated query whole (``Recorder.record_collection``)."""
    from ..dialects import collection_key
    from ..store import Store
    from ..transports.patching import passthrough
    from .live import LiveClient, key_env_of
    from .plan import Plan
    from .recorder import Recorder

    keys: dict[str, str] = {}
    for ep, _params, key in touched:
        value = key or os.environ.get(key_env_of(catalog, ep))
        if value:
            keys[ep.id] = value
            keys.setdefault(ep.platform, value)
    client = LiveClient(catalog, keys, upstream=bucket.upstream, rate_per_sec={"default": 0.0})
    store = Store(bucket.cassettes)
    store.set_dir(bucket.set_name).mkdir(parents=True, exist_ok=True)
    rec = Recorder(Plan(set=bucket.set_name, fidelity_samples=0), store=store, catalog=catalog, client=client,
                   set_name=bucket.set_name, source="sandbox" if bucket.upstream else "live")
    held = set() if parent is None or bucket.mode != "new_episodes" else {c.key for c in parent.collections()}
    try:
        with client, passthrough():
            for ep, params, _key in touched:
                filters = collection_filters(ep, params)
                if collection_key(ep.id, filters) in held:
                    continue
                try:
                    entry = rec.record_collection(ep, params)
                except SimulatorError as exc:
                    bucket.warnings.append(f"{ep.id}: whole collection not recorded: {exc}")
                    continue
                bucket.collections[entry["key"]] = entry
    finally:
        shutil.rmtree(rec.checkpoint_dir, ignore_errors=True)


def publish(bucket: RecordBucket) -> str | None:
    """Publish ``bucket`` as a new version; the summary line (None: nothing to publish)."""
    from ..store import Store, VersionBuilder

    if not bucket.exchanges and not bucket.collections:
        if bucket.calls and bucket.failed == bucket.calls:
            return (
                f"kopa-sim: nothing published for set {bucket.set_name!r}: all {bucket.calls} "
                "recorded call(s) failed (see the warnings)"
            )
        return None
    catalog = load_catalog()
    store = Store(bucket.cassettes)
    # Any root of the search path counts: the shipped, read-only set can be the parent.
    has_parent = store.has_set(bucket.set_name) and bool(store.versions(bucket.set_name))
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
    if not added and not colls:
        return f"kopa-sim: nothing published for set {bucket.set_name!r}: the parent version answers every call"
    manifest = builder.publish(
        recorded_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        source="sandbox" if bucket.upstream else "live",
        info={"recorded_by": "pytest", "record_mode": bucket.mode, "tests": bucket.tests[:50]},
    )
    dropped = f"; {bucket.failed} failed call(s) not published" if bucket.failed and not bucket.keep_errors else ""
    return (
        f"kopa-sim: published {manifest.set}@{manifest.version} (parent {manifest.parent or 'none'}, "
        f"mode {bucket.mode}): {added} interaction(s), {colls} collection(s) recorded "
        f"into {store.root}{dropped}"
    )
