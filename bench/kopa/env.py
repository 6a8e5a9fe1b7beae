"""The tool environment: catalog endpoints as tools, answered by the simulator.

A tool call is built into the platform's real request (``simulator.build_request``),
answered by a pinned ``Resolver`` and parsed back into records with the endpoint's dialect.
Every call is logged as a :class:`CallRecord` (the trace the scorers read).
"""

from __future__ import annotations

import io
import re
import threading
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from simulator import Catalog, Resolver, SimRequest, get_dialect, load_catalog
from simulator.errors import SimulatorError
from simulator.fidelity import sniff_format
from simulator import build_request

__all__ = ["CallRecord", "ToolEnv", "World", "arg_text", "body_text"]

DUMMY_KEY = "kopa-bench"
#: Largest native body text handed to a model (longer bodies are cut with a note).
MAX_TEXT = 60_000

_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


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


def arg_text(value: Any) -> str:
    """A JSON argument value as the query-string text the platform expects."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class CallRecord:
    """One tool call and what it returned (the unit of a trace)."""

    index: int
    tool: str
    args: dict[str, str]
    ok: bool
    status: int
    #: Collection key filters (non-paging, non-auth, non-format params), canonical.
    filters: dict[str, str] = field(default_factory=dict)
    #: Window asked: ``records[offset : offset + limit]`` of the collection.
    offset: int = 0
    limit: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    error: str | None = None
    source: str = ""

    def to_json(self, *, with_records: bool = False) -> dict[str, Any]:
        """JSON form for result files (records left out unless asked)."""
        out: dict[str, Any] = {
            "index": self.index, "tool": self.tool, "args": self.args, "ok": self.ok,
            "status": self.status, "filters": self.filters, "offset": self.offset,
            "limit": self.limit, "n_records": len(self.records), "total": self.total,
            "error": self.error, "source": self.source,
        }
        if with_records:
            out["records"] = self.records
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CallRecord:
        """Inverse of :meth:`to_json` (records empty when they were left out)."""
        return cls(
            index=d["index"], tool=d["tool"], args=d["args"], ok=d["ok"], status=d["status"],
            filters=d.get("filters", {}), offset=d.get("offset", 0), limit=d.get("limit", 0),
            records=d.get("records", []), total=d.get("total"), error=d.get("error"),
            source=d.get("source", ""),
        )


@dataclass
class _Answer:
    ok: bool
    status: int
    filters: dict[str, str]
    offset: int
    limit: int
    records: list[dict[str, Any]]
    total: int | None
    error: str | None
    source: str
    text: str


class World:
    """A pinned simulator version plus the catalog: answers tool calls (thread-safe, cached).

    Args:
        version: an opened version (``Store().open("kopa")``).
        catalog: default the shipped catalog.
    """

    def __init__(self, version: Any, catalog: Catalog | None = None) -> None:
        self.version = version
        self.catalog = catalog or load_catalog()
        self.resolver = Resolver(version, self.catalog)
        self._cache: dict[tuple[str, tuple[tuple[str, str], ...]], _Answer] = {}
        self._lock = threading.Lock()

    @property
    def content_hash(self) -> str:
        """Content hash of the pinned version (recorded in results)."""
        return str(self.version.content_hash)

    def tools(self, platforms: list[str] | None = None) -> list[dict[str, Any]]:
        """OpenAI tool schemas of the catalog (optionally restricted to platforms)."""
        return self.catalog.tools(platforms=platforms)

    def answer(self, tool: str, args: dict[str, Any]) -> _Answer:
        """Answer one call (memoised by tool and arguments)."""
        clean = {k: arg_text(v) for k, v in (args or {}).items() if v is not None}
        key = (tool, tuple(sorted(clean.items())))
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit
        ans = self._answer(tool, clean)
        with self._lock:
            self._cache[key] = ans
        return ans

    def _fail(self, status: int, msg: str, filters: dict[str, str] | None = None) -> _Answer:
        return _Answer(False, status, filters or {}, 0, 0, [], None, msg, "error", msg)

    def _answer(self, tool: str, args: dict[str, str]) -> _Answer:
        cat = self.catalog
        if tool not in cat.endpoints:
            return self._fail(404, f"unknown tool {tool!r}")
        ep = cat.endpoints[tool]
        allowed = {p.name: p for p in ep.params if p.role not in ("auth", "format")}
        unknown = sorted(set(args) - set(allowed))
        if unknown:
            return self._fail(400, f"{tool}: unknown argument(s) {', '.join(unknown)}; "
                                   f"takes {', '.join(allowed) or 'none'}")
        missing = [n for n, p in allowed.items() if p.required and args.get(n, "") == ""]
        # Range params get defaults here (a model may leave them out); others are errors.
        for n in list(missing):
            if allowed[n].role == "range_start":
                args[n] = "1"
                missing.remove(n)
            elif allowed[n].role == "range_end":
                args[n] = str(ep.default_page_size)
                missing.remove(n)
        if missing:
            return self._fail(400, f"{tool}: missing required argument(s) {', '.join(missing)}")
        dialect = get_dialect(ep.dialect)
        params = dict(args)
        fparams = ep.params_with_role("format")
        fmt = "json"
        if fparams and ep.kind != "binary":
            fmt = str(ep.opt("record_format", "json"))
            fv = dialect.format_value(ep, fmt) if hasattr(dialect, "format_value") else fmt
            params[fparams[0].name] = fv
        scheme = cat.platforms[ep.platform].scheme if ep.platform in cat.platforms else "https"
        req: SimRequest = build_request(ep, params, key=DUMMY_KEY, scheme=scheme)
        filters: dict[str, str] = {}
        offset, limit = 0, 0
        try:
            match = cat.match(req)
            split = dialect.split(match)
            filters = dict(split.filters)
            offset, limit = split.window.offset, split.window.limit
        except Exception:  # noqa: BLE001 - natively answered bad input; the body says why
            pass
        resp = self.resolver.resolve(req)
        source = resp.header("x-sim-source") or ""
        text = body_text(resp.body)
        if resp.status >= 400 or source in ("error", "miss", "fault"):
            first = text.strip().splitlines()[0][:400] if text.strip() else ""
            return _Answer(False, resp.status, filters, offset, limit, [], None,
                           f"HTTP {resp.status} ({source}): {first}", source, text)
        try:
            parsed = dialect.parse(ep, resp.body, sniff_format(resp.body))
        except (SimulatorError, ValueError) as exc:
            return _Answer(False, resp.status, filters, offset, limit, [], None,
                           f"unparseable body: {exc}", source, text)
        if parsed.outcome == "error":
            return _Answer(False, resp.status, filters, offset, limit, [], parsed.total,
                           f"platform error {parsed.code}", source, text)
        total = parsed.total if parsed.total is not None else len(parsed.records)
        return _Answer(True, resp.status, filters, offset, limit, list(parsed.records),
                       total, None, source, text)


class ToolEnv:
    """One episode's view of a :class:`World`: answers calls and keeps the trace.

    Args:
        world: the shared world.
        max_calls: call budget; calls past it are refused (and logged as budget errors).
    """

    def __init__(self, world: World, max_calls: int = 64) -> None:
        self.world = world
        self.max_calls = max_calls
        self.trace: list[CallRecord] = []
        self.budget_exhausted = False

    def call(self, tool: str, args: dict[str, Any] | None = None) -> CallRecord:
        """Call ``tool`` with ``args``; the record is appended to the trace."""
        clean = {k: arg_text(v) for k, v in (args or {}).items() if v is not None}
        idx = len(self.trace)
        if idx >= self.max_calls:
            self.budget_exhausted = True
            rec = CallRecord(idx, tool, clean, False, 429, error="call budget exhausted",
                             source="budget")
            self.trace.append(rec)
            return rec
        a = self.world.answer(tool, clean)
        rec = CallRecord(idx, tool, clean, a.ok, a.status, a.filters, a.offset, a.limit,
                         a.records, a.total, a.error, a.source)
        self.trace.append(rec)
        return rec

    def observation(self, rec: CallRecord) -> str:
        """The text a model sees for a call: the native body as text (:func:`body_text`),
        cut at ``MAX_TEXT`` characters with a note of the full length."""
        if rec.source == "budget":
            return "error: call budget exhausted"
        a = self.world.answer(rec.tool, rec.args)
        text = a.text
        if len(text) > MAX_TEXT:
            text = text[:MAX_TEXT] + f"\n…(cut: {len(a.text)} characters in all)"
        return text
