"""A catalog endpoint called as a tool: arguments → request → resolver → observation.

This is the one place that turns a model's (or a program's) tool call into the platform's
real request, answers it from a :class:`~simulator.Resolver` and reads the answer back. MCP,
KOPA-Bench's world, EDGE's verifier and synthesizer and the GRPO environment all call it.

Rules decided here, once:

* **Arguments** are JSON values written as the query-string text the platform expects
  (:func:`arg_text`: ``true``/``false``, ``3.0`` → ``3``); ``None`` means "left out". Auth
  and format parameters are not the caller's: an argument the endpoint does not take, or a
  required one left out, refuses the call with a message listing what it takes.
* **Ranges left out** (``range_start``/``range_end``, e.g. Seoul's ``/{START}/{END}/``)
  default to the first page at the endpoint's default size: ``start = range_base``,
  ``end = range_base + default_page_size - 1`` — the window the dialect itself reads for an
  absent range. (A path range cannot be absent from the URL, so the call fills it in.)
* **Format**: ``fmt="record"`` asks for the endpoint's ``record_format`` (JSON where the
  platform offers a choice, as the recorder does); ``fmt="native"`` sends no format
  parameter the URL can do without (the platform's default format, as a bare client gets).
* **Key**: every request carries :data:`DUMMY_KEY`; the resolver never checks keys. A key tool
  (:mod:`simulator.tools.keys`) is answered with its key for the call's episode, and the key a
  call of a keyed family carries in its auth parameter is set aside.
* **Body text** for a model (:func:`body_text`): text bodies decoded as UTF-8; a ZIP body
  (OpenDART's corp-code list) unzipped, its XML shown as text.
* **Body format** is sniffed from the bytes by :func:`simulator.fidelity.sniff_format`
  (errors ignore the requested format).
* **Faults** are the resolver's (``Resolver(faults=…)``, chosen by ``(seed, episode, call
  index)``): a memo here keeps only unfaulted answers, so faults always apply below it. A
  ``latency`` fault still answers (the body is the real one); any other fault fails the call.

>>> from simulator import Store, Resolver            # doctest: +SKIP
>>> caller = ToolCaller(Resolver(Store().open("kopa")))  # doctest: +SKIP
>>> obs = caller.call("tago_city_codes", {})           # doctest: +SKIP
>>> obs.ok, len(obs.records), obs.total                # doctest: +SKIP
(True, 132, 132)
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Mapping

from ..catalog import Catalog, Endpoint, build_request
from ..dialects import get_dialect
from ..dialects.base import Parsed
from ..fidelity import sniff_format
from ..request import SimRequest, SimResponse
from ..resolve import Resolution, Resolver
from ..cache import BoundedCache
from .keys import is_key_tool, issue_key, split_key

__all__ = [
    "DUMMY_KEY",
    "MEMO_BYTES",
    "FormatChoice",
    "Observation",
    "ToolCaller",
    "arg_text",
    "body_text",
    "build_call",
    "call_tool",
    "check_args",
    "read_response",
    "request_params",
]

#: The key placed in every request a tool call builds; the resolver never checks keys.
DUMMY_KEY = "kopa-sim"

#: Body bytes a caller's memo holds at most (with its entry bound).
MEMO_BYTES = 64 << 20

#: ``record``: ask for the endpoint's record format; ``native``: the platform's default.
FormatChoice = Literal["record", "native"]

#: Sources that mean "nothing answered this call" (no native body to read).
_FAILED_SOURCES = ("error", "miss")

_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def arg_text(value: Any) -> str:
    """A JSON argument value as the query-string text the platform expects.

    >>> arg_text(True), arg_text(3.0), arg_text(2.5), arg_text("서울")
    ('true', '3', '2.5', '서울')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def body_text(body: bytes) -> str:
    """The text a model is shown for a native body.

    Text bodies are decoded as UTF-8 (undecodable bytes replaced). A ZIP body (OpenDART's
    corp-code list: ``CORPCODE.xml`` zipped, as the real API sends it) is shown as a one-line
    note naming the archive and its members, then each member's text (XML decoded with its
    declared encoding, UTF-8 by default), so the model reads the records, not compressed
    bytes. Deterministic: same bytes, same text.

    >>> import io, zipfile
    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as zf:
    ...     zf.writestr("CORPCODE.xml", "<result><list><corp_code>1</corp_code></list></result>")
    >>> print(body_text(buf.getvalue()).splitlines()[1])
    <result><list><corp_code>1</corp_code></list></result>
    """
    if body[:4] != b"PK\x03\x04":
        return body.decode("utf-8", errors="replace")
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as zf:
            members = [(i.filename, zf.read(i)) for i in zf.infolist() if not i.is_dir()]
    # A corrupt, encrypted or oddly compressed archive: say so rather than show bytes.
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError,
            NotImplementedError, RuntimeError) as exc:
        return f"[binary body: {len(body):,} bytes, a ZIP that cannot be read ({exc})]"
    if not members:
        return f"[ZIP archive of {len(body):,} bytes with no files]"
    listed = ", ".join(f"{name} ({len(data):,} bytes)" for name, data in members)
    parts = [f"[ZIP archive of {len(body):,} bytes holding {listed}; unzipped text follows]"]
    for name, data in members:
        if len(members) > 1:
            parts.append(f"[{name}]")
        parts.append(_member_text(data))
    return "\n".join(parts)


def _member_text(data: bytes) -> str:
    m = _XML_ENCODING.match(data)
    enc = m.group(1).decode("ascii") if m else "utf-8"
    try:
        return data.decode(enc, errors="replace")
    except LookupError:  # an encoding Python does not know: read it as UTF-8
        return data.decode("utf-8", errors="replace")


def check_args(ep: Endpoint, args: Mapping[str, str]) -> tuple[dict[str, str], str | None]:
    """``args`` with left-out ranges filled in (module rules), or the refusal message.

    >>> from simulator import load_catalog
    >>> ep = load_catalog().endpoint("seoul_subway_arrivals")
    >>> check_args(ep, {"statnNm": "서울"})[0]
    {'statnNm': '서울', 'START_INDEX': '0', 'END_INDEX': '4'}
    """
    allowed = {p.name: p for p in ep.params if p.role not in ("auth", "format")}
    unknown = sorted(set(args) - set(allowed))
    if unknown:
        return dict(args), (f"{ep.id}: unknown argument(s) {', '.join(unknown)}; "
                            f"takes {', '.join(allowed) or 'none'}")
    out = dict(args)
    base = int(ep.opt("range_base", 1))
    missing = []
    for name, p in allowed.items():
        if not p.required or out.get(name, "") != "":
            continue
        if p.role == "range_start":
            out[name] = str(base)
        elif p.role == "range_end":
            out[name] = str(base + ep.default_page_size - 1)
        else:
            missing.append(name)
    if missing:
        return out, f"{ep.id}: missing required argument(s) {', '.join(missing)}"
    return out, None


def request_params(ep: Endpoint, args: Mapping[str, str], fmt: FormatChoice = "record") -> dict[str, str]:
    """``args`` plus the format parameter a request of ``ep`` carries (see ``fmt``)."""
    out = dict(args)
    fparams = ep.params_with_role("format")
    if not fparams or ep.kind == "binary":
        return out
    if fmt == "record":
        dialect = get_dialect(ep.dialect)
        want = str(ep.opt("record_format", "json"))
        out[fparams[0].name] = dialect.format_value(ep, want) if hasattr(dialect, "format_value") else want
        return out
    for p in fparams:  # native: only what the URL path cannot do without
        if p.location == "path" and not p.default and p.name not in out:
            out[p.name] = "json" if "json" in (p.enum or ["json"]) else (p.enum or ["json"])[0]
    return out


@dataclass
class Observation:
    """What one tool call returned, read once.

    ``ok`` means the platform answered with data (possibly no records); ``error`` says why
    not. ``records``/``total`` are the parsed page (``total`` as the platform reports it,
    else the records' count); ``filters``/``offset``/``limit`` say which collection and which
    window of it the request read. ``native`` is the parsed body whenever there was one to
    parse (a native error included); ``parse_error`` when it would not parse.
    """

    tool: str
    args: dict[str, str]
    ok: bool
    status: int
    source: str
    body: bytes = b""
    records: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    error: str | None = None
    filters: dict[str, str] = field(default_factory=dict)
    offset: int = 0
    limit: int = 0
    fault: str | None = None
    sim_error: str | None = None
    native: Parsed | None = None
    parse_error: BaseException | None = None
    version: str = ""
    request: SimRequest | None = None

    @cached_property
    def text(self) -> str:
        """The text a model reads: the native body as text (:func:`body_text`), or the
        refusal message of a call that never reached the resolver."""
        if self.source == "error" and not self.body:
            return self.error or ""
        return body_text(self.body)

    @classmethod
    def refused(cls, tool: str, args: dict[str, str], status: int, msg: str, version: str = "") -> Observation:
        """A call refused before any request (unknown tool, bad arguments)."""
        return cls(tool, args, False, status, "error", error=msg, version=version)


def build_call(catalog: Catalog, tool: str, args: Mapping[str, Any] | None, *, fmt: FormatChoice = "record",
               scheme: str | None = None, key: str | None = DUMMY_KEY) -> SimRequest | Observation:
    """The request a call of ``tool`` with ``args`` sends, or the refusal when it cannot be built.

    ``key`` is :data:`DUMMY_KEY` for the simulator (a live client passes the platform's key);
    ``scheme`` defaults to the platform's own.
    """
    clean = {k: arg_text(v) for k, v in (args or {}).items() if v is not None}
    if tool not in catalog.endpoints:
        return Observation.refused(tool, clean, 404, f"unknown tool {tool!r}")
    ep = catalog.endpoints[tool]
    params, problem = check_args(ep, clean)
    if problem is not None:
        return Observation.refused(tool, clean, 400, problem)
    scheme = scheme or (catalog.platforms[ep.platform].scheme if ep.platform in catalog.platforms else "https")
    return build_request(ep, request_params(ep, params, fmt), key=key, scheme=scheme)


def read_response(catalog: Catalog, tool: str, args: Mapping[str, str], req: SimRequest,
                  resp: SimResponse | Resolution) -> Observation:
    """Read the answer ``resp`` to the request ``req`` of a call of ``tool`` (module rules)."""
    ep = catalog.endpoints[tool]
    args = dict(args)
    if isinstance(resp, Resolution):  # typed: the tier and the fault as the resolver said
        source = resp.source.value
        fault = resp.fault
        resp = resp.response
    else:  # a response read back from the wire: its headers say
        source = resp.header("x-sim-source") or ""
        fault = resp.header("x-sim-fault")
    obs = Observation(tool, args, True, resp.status, source, resp.body, fault=fault,
                      sim_error=resp.header("x-sim-error"), version=resp.header("x-sim-version") or "",
                      request=req)
    dialect = get_dialect(ep.dialect)
    try:
        split = dialect.split(catalog.match(req))
        obs.filters = dict(split.filters)
        obs.offset, obs.limit = split.window.offset, split.window.limit
    except Exception:  # noqa: BLE001 - natively answered bad input; the body says why
        pass
    faulted = source == "fault" and fault != "latency"
    if source == "miss" or faulted or obs.sim_error or resp.status == 429 or resp.status >= 500:
        pass  # no native body to read
    else:
        try:
            obs.native = dialect.parse(ep, resp.body, sniff_format(resp.body))
        except Exception as exc:  # noqa: BLE001 - any parse failure is a schema mismatch
            obs.parse_error = exc
    if resp.status >= 400 or source in _FAILED_SOURCES or faulted:
        stripped = obs.text.strip()
        first = stripped.splitlines()[0][:400] if stripped else ""
        obs.ok, obs.error = False, f"HTTP {resp.status} ({source}): {first}"
    elif obs.parse_error is not None:
        obs.ok, obs.error = False, f"unparseable body: {obs.parse_error}"
    elif obs.native is not None and obs.native.outcome == "error":
        obs.ok, obs.error, obs.total = False, f"platform error {obs.native.code}", obs.native.total
    elif obs.native is not None:
        obs.records = list(obs.native.records)
        obs.total = obs.native.total if obs.native.total is not None else len(obs.records)
    return obs


class ToolCaller:
    """Calls catalog endpoints as tools through one resolver; memoises unfaulted answers.

    Args:
        resolver: the pinned simulator (its ``faults``, when set, apply to every call); any
            object with ``resolve(req, episode=, call_index=)`` will do (a wrapper that
            records requests, say) when ``catalog`` is given.
        catalog: the tools (default: the resolver's catalog).
        fmt: which format to ask for (module rules).
        scheme: URL scheme of the requests (default: each platform's own).
        memo_size: unfaulted observations kept, least recently used out first (0: none).
        memo_bytes: the most body bytes those observations hold together.
    """

    def __init__(self, resolver: Resolver, *, catalog: Catalog | None = None, fmt: FormatChoice = "record",
                 scheme: str | None = None, memo_size: int = 4096, memo_bytes: int = MEMO_BYTES) -> None:
        self.resolver = resolver
        self.catalog: Catalog = catalog if catalog is not None else resolver.catalog
        self.fmt: FormatChoice = fmt
        self.scheme = scheme
        self.memo: BoundedCache[tuple[str, tuple[tuple[str, str], ...]], Observation] = BoundedCache(
            memo_size, weigh=lambda o: len(o.body), max_weight=memo_bytes)
        #: Requests sent to the resolver (memo hits are not counted).
        self.requests = 0

    def build(self, tool: str, args: Mapping[str, Any] | None) -> SimRequest | Observation:
        """The request a call of ``tool`` sends, or the refusal when it cannot be built."""
        out = build_call(self.catalog, tool, args, fmt=self.fmt, scheme=self.scheme)
        if isinstance(out, Observation):
            version = getattr(self.resolver, "version", None)
            out.version = str(getattr(version, "content_hash", ""))
        return out

    def call(self, tool: str, args: Mapping[str, Any] | None = None, *, episode: str | None = None,
             call_index: int = 0) -> Observation:
        """Answer one call (never raises for bad input: a refusal is an observation).

        ``episode`` and ``call_index`` key the resolver's seeded faults.
        """
        clean = {k: arg_text(v) for k, v in (args or {}).items() if v is not None}
        if is_key_tool(tool):  # simulator.tools.keys: the episode's key, checked by no one here
            return Observation(tool, {}, True, 200, "key", records=[{"key": issue_key(tool, episode or "")}], total=1)
        clean = split_key(self.catalog, tool, clean)[0]  # a key a call carries is not an argument
        key = (tool, tuple(sorted(clean.items())))
        faults = getattr(self.resolver, "faults", None) is not None
        if not faults:
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        req = self.build(tool, clean)
        if isinstance(req, Observation):
            return req
        self.requests += 1
        resp = self.resolver.resolve(req, episode=episode, call_index=call_index)
        if faults and resp.source == "fault":
            return read_response(self.catalog, tool, clean, req, resp)
        if faults:
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        obs = read_response(self.catalog, tool, clean, req, resp)
        self.memo.put(key, obs)
        return obs


def call_tool(resolver: Resolver, tool: str, args: Mapping[str, Any] | None = None, *,
              fmt: FormatChoice = "record", scheme: str | None = None) -> Observation:
    """One call of ``tool`` with ``args`` through ``resolver`` (no memo): see :class:`ToolCaller`."""
    return ToolCaller(resolver, fmt=fmt, scheme=scheme, memo_size=0).call(tool, args)
