"""vcrpy cassettes ↔ kopa-sim versions.

``import_vcr`` reads vcrpy YAML cassettes (format version 1, as vcrpy writes them) into a new
version: where the interactions of one collection (same collection key: endpoint + filters)
form a complete set of pages — page windows covering records ``0..total-1`` with one
reported total — the whole collection is added and its pages are folded into it (as a
recording stores them), so the window and query tiers answer those pages and pages and
filters never recorded; every other interaction is kept exact (``keep_pages=True`` keeps
the folded pages exact too).

``export_vcr`` writes any version as a vcrpy cassette that vcrpy itself replays: every exact
interaction at its stored redacted URL, and for each collection the requests of its pages
at the endpoint's maximum page size, with bodies rendered by the resolver (so they equal
replay). Key parameters are ``REDACTED`` in the cassette; a client replaying it sends its own
key, so match with ``kopa_vcr_config()``, whose ``before_record_request`` redacts keys (query
and path) the same way before vcrpy compares requests:

>>> import vcr                                                      # doctest: +SKIP
>>> from simulator.vcr import kopa_vcr_config                      # doctest: +SKIP
>>> with vcr.use_cassette("kopa.yaml", **kopa_vcr_config()):       # doctest: +SKIP
...     httpx.get("https://apis.data.go.kr/...&serviceKey=MYKEY")   # doctest: +SKIP

Compressed bodies (a ``Content-Encoding`` response header: gzip, deflate, br) are out of
scope: record with vcrpy's ``decode_compressed_response=True``.
"""

from __future__ import annotations

import base64
import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import yaml

from .catalog import Catalog, Endpoint, load_catalog
from .dialects import get_dialect
from .errors import SimulatorError, UnknownEndpoint
from .fidelity import sniff_format
from .request import SimRequest, SimResponse
from .resolve import Resolver
from .identity import canonical_request
from .secrets import REDACTED, redact_url
from .store import Manifest, Store, Version, VersionBuilder
from .store.index import iter_entries

__all__ = [
    "ExportResult",
    "VcrError",
    "export_vcr",
    "import_vcr",
    "kopa_vcr_config",
    "read_cassette",
    "vcr_exchange",
]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The vcrpy cassette format this module reads and writes.
VCR_FORMAT_VERSION = 1

_HTTP_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
                 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
                 502: "Bad Gateway", 503: "Service Unavailable"}


class VcrError(SimulatorError):
    """A vcrpy cassette that cannot be imported (format, compression, shape)."""


# ---- reading -------------------------------------------------------------------------
def _body_bytes(body: Any, where: str) -> bytes:
    """A vcrpy body (``{"string": …}``, a bare str/bytes, or None) as bytes."""
    if isinstance(body, dict):
        if "string" in body:
            body = body["string"]
        elif "base64_string" in body:
            return base64.b64decode(body["base64_string"])
        else:
            raise VcrError(f"{where}: body {sorted(body)!r} has no 'string'; not a vcrpy body")
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    raise VcrError(f"{where}: body of type {type(body).__name__} is not a vcrpy body")


def _header_pairs(headers: Any) -> list[tuple[str, str]]:
    """vcrpy headers (``{name: [values]}``, or ``{name: value}`` in old cassettes)."""
    out: list[tuple[str, str]] = []
    if not headers:
        return out
    for name, values in dict(headers).items():
        if not isinstance(values, list):
            values = [values]
        for v in values:
            out.append((str(name).lower(), str(v)))
    return out


def read_cassette(path: Path | str) -> list[tuple[SimRequest, SimResponse]]:
    """The interactions of one vcrpy YAML cassette, in recorded order.

    Raises ``VcrError`` for another format version, an old (pre-1.0) vcrpy list, or a
    compressed response body.
    """
    path = Path(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise VcrError(f"{str(path)!r} is not YAML: {exc}") from None
    if isinstance(data, list):
        raise VcrError(
            f"{str(path)!r} is a pre-1.0 vcrpy cassette; migrate it with "
            "`python -m vcr.migration` first"
        )
    if not isinstance(data, dict) or "interactions" not in data:
        raise VcrError(f"{str(path)!r} has no 'interactions': not a vcrpy cassette")
    version = data.get("version")
    if version != VCR_FORMAT_VERSION:
        raise VcrError(
            f"{str(path)!r} is vcrpy cassette format version {version!r}; only "
            f"{VCR_FORMAT_VERSION} is supported"
        )
    out: list[tuple[SimRequest, SimResponse]] = []
    for i, item in enumerate(data["interactions"] or []):
        where = f"{path.name} interaction {i}"
        try:
            rq, rs = item["request"], item["response"]
            uri, method = str(rq["uri"]), str(rq.get("method", "GET"))
        except (KeyError, TypeError):
            raise VcrError(f"{where}: needs request.uri and response") from None
        out.append(vcr_exchange(uri, method, rq.get("headers"), rq.get("body"), rs, where))
    return out


def vcr_exchange(
    uri: str, method: str, request_headers: Any, request_body: Any, response: dict[str, Any], where: str
) -> tuple[SimRequest, SimResponse]:
    """One vcrpy interaction (a cassette's, or a live ``vcr.cassette.Cassette``'s) as the
    simulator's request and response.

    The one rule for compressed bodies, for imports and for the pytest plugin's recording:
    vcrpy decodes them while recording (``decode_compressed_response=True``, as
    ``kopa_vcr_config`` and the plugin set); a body still ``Content-Encoding``-encoded here
    raises ``VcrError`` naming that setting.
    """
    req = SimRequest.from_url(
        uri,
        method=method,
        headers=_header_pairs(request_headers),
        body=_body_bytes(request_body, where + " request"),
    )
    rs = response
    if "status_code" in rs:  # httpx cassettes of vcrpy < 5
        status = int(rs["status_code"])
        body = _body_bytes(rs.get("content"), where + " response")
    else:
        status = int((rs.get("status") or {}).get("code", 200))
        body = _body_bytes(rs.get("body"), where + " response")
    headers = _header_pairs(rs.get("headers"))
    enc = [v for k, v in headers if k == "content-encoding" and v.lower() != "identity"]
    if enc:
        raise VcrError(
            f"{where}: response body is {enc[0]}-encoded; compressed bodies are out of "
            "scope — record with vcr.VCR(decode_compressed_response=True)"
        )
    return req, SimResponse(status, headers, body)


# ---- importing -----------------------------------------------------------------------
@dataclass
class _Page:
    offset: int
    limit: int
    total: int
    records: list[dict[str, Any]]
    envelope: dict[str, Any]


@dataclass
class _Group:
    endpoint: Endpoint
    key: str
    filters: dict[str, str]
    fmt: str
    pages: list[_Page] = field(default_factory=list)


def _page_of(catalog: Catalog, req: SimRequest, resp: SimResponse) -> tuple[_Group, _Page] | None:
    """The collection page ``resp`` is, or None when it is not one (error, binary, unknown)."""
    if resp.status != 200:
        return None
    try:
        match = catalog.match(req)
    except UnknownEndpoint:
        return None
    ep = match.endpoint
    if ep.kind == "binary":
        return None
    dialect = get_dialect(ep.dialect)
    try:
        split = dialect.split(match)
    except Exception:  # noqa: BLE001 - a natively refused request is no page
        return None
    fmt = sniff_format(resp.body)
    if fmt not in ("json", "xml"):
        return None
    try:
        parsed = dialect.parse(ep, resp.body, fmt)
    except Exception:  # noqa: BLE001 - unparseable: kept as an exact interaction only
        return None
    w = split.window
    unbounded = w.limit >= 10**9
    if parsed.outcome == "ok":
        total = parsed.total
        if total is None:
            # no reported total: only a first page that is not full is known to be everything
            if not (unbounded or (w.offset == 0 and len(parsed.records) < w.limit)):
                return None
            total = len(parsed.records)
        records = list(parsed.records)
    elif parsed.outcome == "empty" and parsed.kind in (None, "no_data"):
        total, records = 0, []
    else:
        return None
    group = _Group(ep, split.key, dict(split.filters), fmt)
    return group, _Page(w.offset, w.limit, int(total), records, dict(parsed.envelope))


def _complete(group: _Group) -> tuple[int, list[dict[str, Any]], dict[str, Any]] | None:
    """(total, records, envelope) when the pages cover ``0..total-1`` consistently."""
    totals = {p.total for p in group.pages}
    if len(totals) != 1:
        return None
    total = totals.pop()
    by_index: dict[int, dict[str, Any]] = {}
    for p in group.pages:
        expected = max(0, min(p.limit, total - p.offset))
        if len(p.records) != expected:
            return None
        for i, r in enumerate(p.records):
            prev = by_index.setdefault(p.offset + i, r)
            if prev != r:
                return None
    if any(i not in by_index for i in range(total)):
        return None
    first = min(group.pages, key=lambda p: p.offset)
    return total, [by_index[i] for i in range(total)], first.envelope


def import_vcr(
    paths: Iterable[Path | str],
    store: Store,
    set_name: str,
    catalog: Catalog | None = None,
    parent: str | None = "latest",
    secrets: Sequence[str] = (),
    *,
    recorded_at: str | None = None,
    version: str | None = None,
    keep_pages: bool = False,
) -> Manifest:
    """Import vcrpy cassettes as a new version (source ``imported``); returns its manifest.

    Every complete set of pages of one collection becomes a whole collection, and its pages
    are folded into it (the window tier answers them), as a recording stores them; every
    other interaction is kept exact. ``keep_pages=True`` keeps the folded pages as exact
    interactions too (their bytes as recorded). ``manifest.info`` names the cassettes, the
    collections added, the collections seen but incomplete and how many pages were folded.
    """
    catalog = catalog or load_catalog()
    builder = VersionBuilder(store, set_name, catalog, parent=parent, secrets=tuple(secrets))
    groups: dict[tuple[str, str], _Group] = {}
    members: dict[tuple[str, str], list[int]] = {}
    exchanges: list[tuple[SimRequest, SimResponse]] = []
    files: list[str] = []
    for path in paths:
        files.append(Path(path).name)
        for req, resp in read_cassette(path):
            exchanges.append((req, resp))
            found = _page_of(catalog, req, resp)
            if found is None:
                continue
            g, page = found
            groups.setdefault((g.key, g.fmt), g).pages.append(page)
            members.setdefault((g.key, g.fmt), []).append(len(exchanges) - 1)
    added: list[str] = []
    incomplete: list[str] = []
    folded: set[int] = set()
    for gk, g in sorted(groups.items()):
        key = gk[0]
        done = _complete(g)
        if done is None:
            incomplete.append(key)
            continue
        if key not in added:
            total, records, envelope = done
            builder.add_collection(
                endpoint=g.endpoint.id,
                key=key,
                filters=g.filters,
                fmt=g.fmt,
                total=total,
                records=records,
                envelope=envelope,
            )
            added.append(key)
        if not keep_pages:
            folded.update(members[gk])
    for i, (req, resp) in enumerate(exchanges):
        if i not in folded:
            builder.add_interaction(req, resp)
    incomplete = [k for k in incomplete if k not in added]
    stamp = recorded_at or _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    info = {
        "vcr_cassettes": files,
        "interactions_imported": len(exchanges) - len(folded),
        "pages_folded": len(folded),
        "collections_added": added,
        "collections_incomplete": incomplete,
    }
    return builder.publish(recorded_at=stamp, source="imported", info=info, version=version)


# ---- exporting -----------------------------------------------------------------------
@dataclass
class ExportResult:
    """What ``export_vcr`` wrote."""

    path: Path
    interactions: int = 0
    exact: int = 0
    collection_pages: int = 0
    #: Collections with more pages than ``max_pages`` (only the first pages were written).
    truncated: list[str] = field(default_factory=list)


def _vcr_interaction(
    method: str, url: str, status: int, headers: Sequence[tuple[str, str]], body: bytes
) -> dict[str, Any]:
    hdrs: dict[str, list[str]] = {}
    for k, v in headers:
        hdrs.setdefault(k, []).append(v)
    try:
        text: str | bytes = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body  # YAML !!binary, as vcrpy writes undecodable bodies
    return {
        "request": {"body": None, "headers": {}, "method": method, "uri": url},
        "response": {
            "status": {"code": status, "message": _HTTP_REASONS.get(status, "")},
            "headers": hdrs,
            "body": {"string": text},
        },
    }


def _without_paging(ep: Endpoint, params: dict[str, str]) -> dict[str, str] | None:
    """``params`` without its optional query paging params (``None`` when nothing is left
    out, or paging is in the path or required)."""
    paging = [p for p in ep.params if p.role in ("page", "page_size")]
    if not paging or any(p.required or p.location == "path" for p in paging):
        return None
    names = {p.name for p in paging}
    out = {k: v for k, v in params.items() if k not in names}
    return out if out != params else None


def _keyed(ep: Endpoint) -> str:
    return REDACTED if ep.params_with_role("auth") else ""


def export_vcr(
    version: Version,
    catalog: Catalog | None,
    out_path: Path | str,
    *,
    include_collections: bool = True,
    max_pages: int = 200,
    scheme: str = "https",
) -> ExportResult:
    """Write ``version`` as a vcrpy cassette (format 1) that vcrpy replays.

    Exact interactions keep their stored redacted URLs. Each collection adds the requests of
    its pages (``page_requests`` at the endpoint's maximum page size, in the collection's
    format), at most ``max_pages`` per collection, answered by ``Resolver(version)`` — the
    same bytes replay gives. Pages that are also exact interactions are written once.
    """
    from .catalog import build_request

    catalog = catalog or load_catalog()
    out = Path(out_path)
    result = ExportResult(out)
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for e in iter_entries(version.path, version.manifest, "interactions"):
        body = base64.b64decode(e["body_b64"]) if "body_b64" in e else e.get("body", "").encode("utf-8")
        method = e["request"].split(" ", 1)[0] if " " in e["request"] else "GET"
        items.append(_vcr_interaction(method, e["url"], e["status"], e["headers"], body))
        seen.add(e["request"])
        result.exact += 1
    if include_collections:
        resolver = Resolver(version, catalog)
        for coll in version.collections():
            ep = catalog.endpoint(coll.endpoint)
            pages = get_dialect(ep.dialect).page_requests(ep, coll.filters, coll.total, coll.fmt)
            if len(pages) > max_pages:
                result.truncated.append(coll.key)
                pages = pages[:max_pages]
            # The request a client sends without paging (the API's default first page), so
            # the plainest request of a collection replays too.
            plain = _without_paging(ep, pages[0]) if pages else None
            for params in pages + ([plain] if plain is not None else []):
                req = build_request(ep, params, key=_keyed(ep) or None, scheme=scheme)
                canon = canonical_request(req, catalog)
                if canon in seen:
                    continue
                seen.add(canon)
                resp = resolver.resolve(req)
                headers = [(k, v) for k, v in resp.headers if k != "content-length"]
                items.append(
                    _vcr_interaction(req.method, redact_url(req, catalog), resp.status, headers, resp.body)
                )
                result.collection_pages += 1
    result.interactions = len(items)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = yaml.dump(
        {"interactions": items, "version": VCR_FORMAT_VERSION},
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=True,
        width=1 << 30,
    )
    from .rundir import atomic_files

    with atomic_files(out) as (tmp,):  # a failure leaves the previous export as it was
        assert tmp is not None
        tmp.write_text(text, encoding="utf-8")
    return result


# ---- replaying with vcrpy ------------------------------------------------------------
def redact_vcr_request(catalog: Catalog | None = None) -> Callable[[Any], Any]:
    """A vcrpy ``before_record_request`` that writes every key (query or path) as ``REDACTED``.

    vcrpy applies it to recorded requests and, at replay, to each live request before
    matching, so a client with its own key matches a cassette written by ``export_vcr``.
    """
    cat = catalog or load_catalog()

    def before_record_request(request: Any) -> Any:
        sim = SimRequest.from_url(request.uri, method=request.method)
        request.uri = redact_url(sim, cat)
        return request

    return before_record_request


def kopa_vcr_config(catalog: Catalog | None = None, **overrides: Any) -> dict[str, Any]:
    """vcrpy keyword arguments for recording and replaying kopa cassettes.

    Use with ``vcr.use_cassette(path, **kopa_vcr_config())`` or ``vcr.VCR(**…)``, or return
    it from pytest-recording's ``vcr_config`` fixture. Keys are redacted before matching
    (vcrpy's default ``match_on`` — method, scheme, host, port, path, sorted query — then
    compares key-free requests), recorded responses may be played more than once, nothing
    is recorded unless ``record_mode`` is overridden, and compressed bodies are stored
    decoded (as ``import_vcr`` needs them).
    """
    config: dict[str, Any] = {
        "before_record_request": redact_vcr_request(catalog),
        "record_mode": "none",
        "allow_playback_repeats": True,
        "decode_compressed_response": True,
    }
    config.update(overrides)
    return config
