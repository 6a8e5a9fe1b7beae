"""The dialect contract and the parts every wire family shares.

A dialect is the wire format of a family of endpoints (DESIGN §4). It knows how to

1. ``split`` a matched request into (collection key, page window, format);
2. ``parse`` a native body into records + reported total + envelope remainder;
3. ``render`` a window of records back into a native body, in the requested format;
4. ``render_error`` the platform's own error bodies;
5. ``page_requests``: the parameters of every page of a whole collection.

Splitting and paging are generic: they follow the parameter *roles* of the catalog
(``page``/``page_size`` or ``range_start``/``range_end``, ``format``, ``auth``), so a
family module only implements parsing and rendering. Variants (success codes, count
types, wrappers, quirks) are endpoint ``options`` — data, not code.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Sequence
from urllib.parse import quote

from ..catalog import Endpoint, Match
from ..request import SimResponse

try:  # a core dependency; the standard library writes everything when it is missing
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None  # type: ignore[assignment]

__all__ = [
    "Dialect",
    "ErrorKind",
    "Parsed",
    "Split",
    "SplitError",
    "Window",
    "BaseDialect",
    "collection_key",
    "json_bytes",
    "xml_escape",
]

#: Native error situations every dialect can render (``render_error``).
#:   no_data        the query matched nothing (platforms that answer that with an error body)
#:   invalid_key    the key is unknown or not approved for this service
#:   missing_key    no key at all
#:   bad_param      a parameter has the wrong type or value (non-integer page, …)
#:   missing_param  a required parameter is absent
#:   page_too_large page size above the platform's maximum
#:   rate_limited   per-second limit exceeded
#:   quota_exceeded daily quota exceeded
#:   server_error   the provider failed (5xx or its in-band equivalent)
#:   unknown_operation  the path names no operation of the service
ErrorKind = Literal[
    "no_data",
    "invalid_key",
    "missing_key",
    "bad_param",
    "missing_param",
    "page_too_large",
    "rate_limited",
    "quota_exceeded",
    "server_error",
    "unknown_operation",
]


@dataclass(frozen=True)
class Window:
    """Which records a request asks for: ``records[offset : offset + limit]``.

    ``page`` and ``size`` are the values to echo in the envelope (``pageNo``,
    ``numOfRows``); for path ranges they are the 1-based ``start`` and ``end``.
    """

    offset: int
    limit: int
    page: int
    size: int


@dataclass(frozen=True)
class Split:
    """A request split into what identifies its data and which part of it is asked."""

    endpoint: Endpoint
    #: Collection key: endpoint id + canonical non-paging, non-auth, non-format params.
    key: str
    filters: dict[str, str]
    window: Window
    fmt: str  # "json" or "xml" (or "zip" for binary endpoints)
    #: Raw values of the format param etc., for dialects that echo them.
    extra: dict[str, str] = field(default_factory=dict)


class SplitError(Exception):
    """The request is invalid in a way the platform answers with a native error."""

    def __init__(self, kind: ErrorKind, fmt: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.fmt = fmt
        self.detail = detail


@dataclass
class Parsed:
    """A native body read back: its records, reported total and envelope remainder.

    ``outcome`` is ``ok`` (records, possibly empty in the platform's success form),
    ``empty`` (the platform's no-data form, which some render as an error body) or
    ``error`` (any other native error; ``code`` holds the native code).
    """

    records: list[dict[str, Any]]
    total: int | None
    envelope: dict[str, Any] = field(default_factory=dict)
    outcome: Literal["ok", "empty", "error"] = "ok"
    code: str | None = None
    #: For ``empty`` and ``error`` outcomes: which ``render_error`` kind reproduces the body
    #: (None when ``empty`` is the platform's success-shaped empty result).
    kind: ErrorKind | None = None


class Dialect(Protocol):
    """A wire family. Implementations are stateless and safe to share across threads."""

    name: str

    def split(self, match: Match) -> Split:
        """Split a matched request; raises ``SplitError`` for natively answered bad input."""
        ...

    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        """Read a native body; raises ``DialectError`` naming what is malformed."""
        ...

    def render(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        """Render ``records`` (already the requested window) in the native envelope."""
        ...

    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        """The platform's own body (and status) for ``kind``."""
        ...

    def page_requests(
        self, endpoint: Endpoint, filters: dict[str, str], total: int, fmt: str = "json"
    ) -> list[dict[str, str]]:
        """Parameters (query and path, without the key) of every page of a collection."""
        ...


def collection_key(endpoint_id: str, filters: dict[str, str]) -> str:
    """Canonical collection key: ``endpoint?k=v&…`` with params sorted by name.

    >>> collection_key("neis_meal", {"SD_SCHUL_CODE": "7091380", "ATPT_OFCDC_SC_CODE": "B10"})
    'neis_meal?ATPT_OFCDC_SC_CODE=B10&SD_SCHUL_CODE=7091380'
    """
    qs = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in sorted(filters.items()))
    return f"{endpoint_id}?{qs}" if qs else endpoint_id


#: orjson refuses (so the standard library writes) subclasses, dataclasses and datetimes,
#: which ``json.dumps`` treats differently or refuses itself.
_ORJSON_OPTS = (
    (
        _orjson.OPT_PASSTHROUGH_SUBCLASS
        | _orjson.OPT_PASSTHROUGH_DATACLASS
        | _orjson.OPT_PASSTHROUGH_DATETIME
    )
    if _orjson is not None
    else 0
)
#: orjson writes a float as ``float.__repr__`` does except below 1e-4 (``0.00001`` and
#: ``1e-7`` for ``1e-05`` and ``1e-07``) and NaN / infinities (``null``); an output holding
#: none of these substrings is ``json.dumps``'s, byte for byte (checked on millions of
#: random doubles, tests/perf/test_equivalence.py). Strings holding them only cost a rewrite.
_ORJSON_DOUBTS = (b"e-", b"0.0000", b"null")  # spelled out in ``json_bytes`` (speed)


def json_bytes(obj: Any, *, escape_slash: bool = False, indent: int | None = None) -> bytes:
    """JSON as the Korean APIs write it: UTF-8, Korean unescaped, no spaces.

    ``escape_slash`` writes ``/`` as ``\\/`` (TAGO and other Java-built services).

    The bytes are ``json.dumps(obj, ensure_ascii=False, separators=(",", ":"))``'s; orjson
    writes them (ten times faster) where it is known to write the same: every string, key,
    integer, boolean and float of 1e-4 or more alike; a body where orjson may differ (see
    ``_ORJSON_DOUBTS``), or holding anything orjson refuses, is written by ``json``.
    """
    if indent is None and _orjson is not None and type(obj) in (dict, list):
        try:
            out = _orjson.dumps(obj, option=_ORJSON_OPTS)
        except TypeError:  # orjson.JSONEncodeError: a type, size or depth it does not take
            out = None
        if out is not None and b"e-" not in out and b"0.0000" not in out and b"null" not in out:
            return out.replace(b"/", b"\\/") if escape_slash else out
    if indent is None:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(obj, ensure_ascii=False, indent=indent)
    if escape_slash:
        text = text.replace("/", "\\/")
    return text.encode("utf-8")


def xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: Numerals a client means as a count: ASCII digits, an optional minus (``int()`` also takes
#: ``1_0``, ``+3``, `` 3 ``, Arabic-Indic and full-width digits, which no client sends).
_NUMERAL = re.compile(r"-?[0-9]{1,12}")
#: The platforms are Java services: a paging value above ``Integer.MAX_VALUE`` is refused.
MAX_INT = 2**31 - 1


def parse_count(value: str | None, default: int, name: str, fmt: str, *, maximum: int = MAX_INT) -> int:
    """A paging parameter's value, parsed once: ASCII digits only, within ``±maximum``.

    Anything else raises ``SplitError("bad_param")``, which the dialect renders as the
    platform's native parameter error (never an exception into SQLite).

    >>> parse_count("20", 1, "pageNo", "json")
    20
    >>> try:
    ...     parse_count("1_0", 1, "pageNo", "json")
    ... except SplitError as exc:
    ...     print(exc.kind)
    bad_param
    """
    if value is None or value == "":
        return default
    if not _NUMERAL.fullmatch(value):
        raise SplitError("bad_param", fmt, f"{name}={value[:40]!r} is not an integer")
    n = int(value)
    if not -maximum <= n <= maximum:
        raise SplitError("bad_param", fmt, f"{name}={value!r} is out of range (at most {maximum})")
    return n


_int_param = parse_count


class BaseDialect:
    """Generic splitting and paging driven by parameter roles and endpoint options.

    Options read here (all optional, per endpoint or platform):

    ``default_format``   format when the request names none (``"xml"`` or ``"json"``)
    ``format_values``    map of the format param's values (lowercased) to ``json``/``xml``
    ``oversize``         ``"error"`` (native ``page_too_large``) or ``"clamp"`` (NEC)
    ``range_base``       0 or 1: first index of path ranges (Seoul 1, swopenapi 0)
    ``min_page``         pages below this give ``bad_param`` (default 1)
    """

    name = "base"

    # ---- splitting -------------------------------------------------------------------
    def request_format(self, ep: Endpoint, params: dict[str, str]) -> str:
        if ep.kind == "binary":
            return "zip"
        default = str(ep.opt("default_format", "xml"))
        fparams = ep.params_with_role("format")
        if not fparams:
            return default
        raw = params.get(fparams[0].name)
        if raw is None:
            return default
        values: dict[str, str] = {"json": "json", "xml": "xml"}
        values.update({k.lower(): v for k, v in ep.opt("format_values", {}).items()})
        return values.get(raw.lower(), default)

    def key_filters(self, match: Match) -> dict[str, str]:
        ep = match.endpoint
        skip = {
            p.name
            for p in ep.params
            if p.role
            in ("auth", "page", "page_size", "range_start", "range_end", "format", "ignore", "order")
        }
        skip.update(ep.match)  # the discriminator is part of the endpoint id already
        # A value equal to the param's documented default asks what leaving it out asks (the
        # real API fills the default in): law.go.kr's ``search=1``, OpenDART's
        # ``last_reprt_at=N``. One key for both, so a recording of either answers the other.
        defaults = {
            p.name: p.default
            for p in ep.params
            if p.role in ("filter", "plain") and p.default is not None
        }
        return {k: v for k, v in match.params.items() if k not in skip and defaults.get(k) != v}

    def window(self, match: Match, fmt: str) -> Window:
        ep = match.endpoint
        params = match.params
        starts = ep.params_with_role("range_start")
        ends = ep.params_with_role("range_end")
        if starts and ends:
            base = int(ep.opt("range_base", 1))
            s_name, e_name = starts[0].name, ends[0].name
            start = _int_param(params.get(s_name), base, s_name, fmt)
            end = _int_param(params.get(e_name), start + ep.default_page_size - 1, e_name, fmt)
            if start < base:
                raise SplitError("bad_param", fmt, f"{s_name}={start} is below {base}")
            if end < start:
                raise SplitError("bad_param", fmt, f"{e_name}={end} < {s_name}={start}")
            size = end - start + 1
            if size > ep.max_page_size:
                if ep.opt("oversize", "error") == "clamp":
                    size = ep.max_page_size
                else:
                    raise SplitError(
                        "page_too_large", fmt, f"{size} rows asked; max {ep.max_page_size}"
                    )
            return Window(offset=start - base, limit=size, page=start, size=end)
        pages = ep.params_with_role("page")
        sizes = ep.params_with_role("page_size")
        page = 1
        size = ep.default_page_size
        if pages:
            page = _int_param(params.get(pages[0].name), 1, pages[0].name, fmt)
        if sizes:
            size = _int_param(params.get(sizes[0].name), ep.default_page_size, sizes[0].name, fmt)
        min_page = int(ep.opt("min_page", 1))
        if page < min_page:
            name = pages[0].name if pages else "page"
            raise SplitError("bad_param", fmt, f"{name}={page} must be >= {min_page}")
        if size < 1:
            name = sizes[0].name if sizes else "page size"
            raise SplitError("bad_param", fmt, f"{name}={size} must be >= 1")
        if size > ep.max_page_size:
            if ep.opt("oversize", "error") == "clamp":
                size = ep.max_page_size
            else:
                raise SplitError(
                    "page_too_large", fmt, f"page size {size} > max {ep.max_page_size}"
                )
        if not pages and not sizes and ep.kind != "collection":
            return Window(offset=0, limit=10**9, page=1, size=10**9)
        return Window(offset=(page - 1) * size, limit=size, page=page, size=size)

    def split(self, match: Match) -> Split:
        ep = match.endpoint
        fmt = self.request_format(ep, match.params)
        filters = self.key_filters(match)
        win = self.window(match, fmt)
        extra = {p.name: match.params[p.name] for p in ep.params_with_role("format") if p.name in match.params}
        return Split(ep, collection_key(ep.id, filters), filters, win, fmt, extra)

    # ---- paging ----------------------------------------------------------------------
    def page_requests(
        self, endpoint: Endpoint, filters: dict[str, str], total: int, fmt: str = "json"
    ) -> list[dict[str, str]]:
        ep = endpoint
        size = ep.max_page_size
        out: list[dict[str, str]] = []
        base_params = dict(filters)
        base_params.update(ep.match)
        fparams = ep.params_with_role("format")
        if fparams and ep.kind != "binary":
            base_params[fparams[0].name] = self.format_value(ep, fmt)
        if ep.kind != "collection":
            return [base_params]
        n_pages = max(1, -(-max(total, 0) // size))
        starts = ep.params_with_role("range_start")
        ends = ep.params_with_role("range_end")
        for i in range(n_pages):
            p = dict(base_params)
            if starts and ends:
                base = int(ep.opt("range_base", 1))
                p[starts[0].name] = str(base + i * size)
                p[ends[0].name] = str(base + (i + 1) * size - 1)
            else:
                pages = ep.params_with_role("page")
                sizes = ep.params_with_role("page_size")
                if pages:
                    p[pages[0].name] = str(i + 1)
                if sizes:
                    p[sizes[0].name] = str(size)
            out.append(p)
        return out

    def format_value(self, ep: Endpoint, fmt: str) -> str:
        """The value of the format param that asks for ``fmt`` (inverse of ``format_values``)."""
        for raw, f in ep.opt("format_values", {}).items():
            if f == fmt:
                return str(raw)
        return fmt
