"""Audit a published version for anything key-shaped, before it is committed anywhere public.

Recording scrubs keys as it writes (``simulator.secrets``); the audit is the independent
check on the result. It reads every file of a version (manifest and JSON Lines, line by line)
and, when it is cached, every row of its compiled SQLite index, and reports:

* ``key_param`` — a key parameter with a value: ``serviceKey=``, ``crtfc_key=``, ``KEY=``,
  ``OC=``, ``confmKey=``, ``auth=`` … (every catalog ``auth`` parameter and
  :data:`simulator.secrets.KEY_PARAM_NAMES`, any case; ``=`` raw or URL-encoded; also the
  ``"name": "value"`` form);
* ``auth_header`` — an ``Authorization`` / ``Proxy-Authorization`` / ``X-…-Key`` /
  ``X-…-Token`` / ``X-…-Secret`` header with a value;
* ``path_key`` — a URL of a catalog host whose key path segment (Seoul Open Data, ECOS,
  swopenapi: ``/{KEY}/json/…``) holds a value;
* ``path_token`` — any URL path segment of 30+ letters and digits (Seoul-style keys);
* ``hex40_token`` / ``hex32_token`` — OpenDART-style 40-hex and NEIS/Assembly-style 32-hex runs;
* ``encoded_key`` — a base64-ish run of 32+ characters ending in ``=``/``==`` or ``%3D``/``%3D%3D``
  (data.go.kr service keys, raw or URL-encoded);
* ``escaped_key`` — a run of 12+ characters each written as an escape (``%6B``, ``%256B``,
  ``&#107;``, ``&#x6b;``, ``\\u006b``) that decodes to letters, digits and ``+/=_-``: text
  nobody escapes character by character unless hiding it (a key echoed in every-byte form).

With the configured keys (``KOPA_KEY_*``), every form :func:`simulator.secrets.secret_forms`
lists and every 14+ character prefix of a key is a ``known_key`` finding.

Placeholders are not findings: ``REDACTED``, ``{KEY}``-style templates, ``sandbox-<platform>``
keys and the platforms' public sample keys (``sample``, ``test``). Digests the format itself
stores (interaction fingerprints, sha256 file hashes, the plan digest) are skipped by field.

A finding names the file, the line (or index table and row) and an excerpt in which every
key-shaped value is masked (``«masked 40 chars #1a2b3c4d»``, the tag a sha256 prefix so the
same secret can be traced across files): the audit never prints a secret.

>>> from simulator.store import Store                              # doctest: +SKIP
>>> report = audit_version(Store(), "kopa")                         # doctest: +SKIP
>>> report.ok, len(report.findings)                                 # doctest: +SKIP
(True, 0)
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any, Iterable, Iterator
from urllib.parse import unquote

from .catalog import Catalog, load_catalog
from .errors import SimulatorError
from .request import SimRequest
from .secrets import KEY_PARAM_NAMES, REDACTED, Scrubber, _run_spans, unescape_run

__all__ = ["AuditReport", "Finding", "Progress", "audit_dir", "audit_version", "mask", "scan_text"]

#: ``progress(done, total, stage)``: how far a scan is (``total`` None when unknown); the CLI
#: shows it on stderr (``simulator.cli.progress``). It must not raise.
Progress = Callable[[int, "int | None", str], None]

#: Values that stand in for a key and are not secrets (compared case-insensitively).
PLACEHOLDERS = frozenset(
    v.lower()
    for v in (REDACTED, "KEY", "sample", "test", "any", "none", "null", "xxx", "your_key",
              "your-key", "yourkey", "api_key", "apikey", "servicekey", "mykey", "my_key",
              "true", "false")
)
_PLACEHOLDER_RE = re.compile(
    r"(?i)\{[^{}]*\}|<[^<>]*>|\$\{?\w+\}?|%7B[^%]*%7D|[x*._\-]+|sandbox-[a-z0-9_]+|redacted[a-z0-9_%-]*"
)
#: Extra names that carry keys in the wild, beside the catalog's and ``KEY_PARAM_NAMES``.
_EXTRA_NAMES = ("auth", "confmKey", "OC", "KEY", "serviceKey", "crtfc_key", "client_secret", "secret",
                "apikey", "api-key", "x-api-key")
#: Value characters of a ``name=value`` pair (stops at separators, quotes, escapes, markup).
_VALUE = r"[^&\s\"'<>\\;,#)\]}|]+"
_HEADER_NAMES = (
    r"(?:proxy-)?authorization|x-[a-z0-9-]*?(?:api[-_]?key|key|token|secret|auth|signature)"
)
#: Field names whose values are digests the format stores (never keys).
_DIGEST_FIELDS = ("fp", "content_hash", "plan", "sha256", "digest")
_DIGEST_RE = re.compile(r'"(?:%s)"\s*:\s*"([0-9a-f]{16,64})"' % "|".join(_DIGEST_FIELDS))
_FILE_DIGEST_RE = re.compile(r'"[^"]+\.[a-z]+"\s*:\s*"([0-9a-f]{64})"')

KINDS = ("known_key", "key_param", "auth_header", "path_key", "path_token", "hex40_token", "hex32_token", "encoded_key",
         "escaped_key")

_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")


def _escaped_keys(text: str) -> Iterator[Hit]:
    """Runs of escaped characters that decode to a token of 12+ characters (``escaped_key``)."""
    for a, b in _run_spans(text):
        decoded = unescape_run(text[a:b])
        if len(decoded) >= 12 and all(c in _TOKEN_CHARS for c in decoded) and any(c.isalnum() for c in decoded):
            yield Hit("escaped_key", f"key escaped character by character ({len(decoded)} chars)", a, b)


def _is_placeholder(value: str) -> bool:
    v = unquote(value).strip().strip("\"'")
    if len(v) < 3 or v.lower() in PLACEHOLDERS:
        return True
    return _PLACEHOLDER_RE.fullmatch(v) is not None


def mask(value: str) -> str:
    """How a finding shows a secret: its length and a sha256 tag, never its characters.

    >>> mask("0123456789abcdef0123456789abcdef01234567")
    '«masked 40 chars #deb87fab»'
    """
    tag = hashlib.sha256(value.encode("utf-8")).hexdigest()[:8]
    return f"«masked {len(value)} chars #{tag}»"


@dataclass(frozen=True)
class Hit:
    """One key-shaped value inside a text: its kind, a label and the value's span."""

    kind: str
    label: str
    start: int
    end: int


class _Scanner:
    """The detectors, compiled once per catalog. ``scan`` runs over a whole file at once:
    cheap anchors (``=``, a catalog host, a run of token characters) are found by regex and
    classified in Python, which keeps a 20 MB version to a few seconds."""

    def __init__(self, catalog: Catalog) -> None:
        names = {p.name for ep in catalog.endpoints.values() for p in ep.params if p.role == "auth"}
        names |= set(KEY_PARAM_NAMES) | set(_EXTRA_NAMES)
        self.names = frozenset(n.lower() for n in names)
        #: Key-like names some endpoint takes as an ordinary parameter (``_a_code``).
        self.coded_names = frozenset(
            p.name.lower() for ep in catalog.endpoints.values() for p in ep.params
            if p.role not in ("auth", None) and p.name.lower() in self.names
        )
        alt = "|".join(sorted({re.escape(n) for n in self.names}, key=len, reverse=True))
        self.assign_re = re.compile(r"=|%3[dD]|%253[dD]")
        self.name_before_re = re.compile(r"[A-Za-z0-9_\-]+$")
        self.value_re = re.compile(r"\s*(" + _VALUE + ")")
        self.json_param_re = re.compile(rf"[\"']({alt})[\"']\s*:\s*[\"']([^\"'\\]+)[\"']")
        self.header_re = re.compile(
            rf"({_HEADER_NAMES})[\"']?\s*(?::|=|,)\s*[\"']?"
            r"((?:(?:bearer|basic|token|kakaoak|apikey)\s+)?[^\"'\s,\]}\\]+)"
        )
        self.catalog = catalog
        self.auth_path_hosts = {
            ep.host for ep in catalog.endpoints.values()
            if any(p.role == "auth" and p.location == "path" for p in ep.params)
        }
        hosts = sorted(self.auth_path_hosts, key=len, reverse=True)
        self.url_re = re.compile(
            "(" + "|".join(re.escape(h) for h in hosts) + r")(?::\d+)?(/[^\s\"'<>\\?#]*)", re.IGNORECASE
        ) if hosts else None
        self.run_re = re.compile(r"[A-Za-z0-9][A-Za-z0-9+/%=]{29,}")
        self.seg_re = re.compile(r"[A-Za-z0-9]{30,}")
        self.hex_re = re.compile(r"[0-9a-fA-F]{32,40}")
        self.encoded_re = re.compile(
            r"((?:[A-Za-z0-9+/]|%2[BbFf]){32,}(?:==?|(?:%3[Dd]){1,2}|(?:%253[Dd]){1,2}))"
        )

    def _a_code(self, name: str, value: str) -> bool:
        """Whether ``name=value`` is a code the catalog takes under a key-like name, not a key:
        the name is a non-key parameter of some endpoint (SEMAS ``key``: an area code, not
        NEIS's or Seoul's ``KEY``) and the value is a short run of digits, as no platform's
        key is (their keys are 20 to 96 letters and digits, or a user id in letters)."""
        v = unquote(value).strip().strip("\"'")
        return name.lower() in self.coded_names and v.isdigit() and len(v) <= 10

    def _path_keys(self, host: str, path: str, offset: int) -> Iterator[Hit]:
        try:
            match = self.catalog.match(SimRequest(method="GET", host=host.lower(), path=unquote(path)))
        except (SimulatorError, ValueError):
            return
        segs = path.split("/")
        for p in match.endpoint.params:
            if p.location != "path" or p.role != "auth":
                continue
            value = match.params.get(p.name, "")
            if not value or _is_placeholder(value):
                continue
            pos = 0
            for seg in segs:
                if seg and unquote(seg) == value:
                    yield Hit("path_key", f"{host} path segment {{{p.name}}}", offset + pos, offset + pos + len(seg))
                    break
                pos += len(seg) + 1

    def scan(self, text: str, ignore: frozenset[str] = frozenset(), known: Scrubber | None = None) -> list[Hit]:
        """Every key-shaped value in ``text`` (offsets into ``text``), and every form of the
        ``known`` keys (the configured ``KOPA_KEY_*`` values: base64, entities, any case …)."""
        low = text.lower()
        if len(low) != len(text):  # a few Unicode letters change length when lowered
            low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
        hits: list[Hit] = []
        if known is not None:
            hits.extend(Hit("known_key", "a configured key", a, b) for a, b in known.spans(text))
        for m in self.assign_re.finditer(text):
            nm = self.name_before_re.search(low, max(0, m.start() - 40), m.start())
            if nm is None or nm.group(0) not in self.names:
                continue
            v = self.value_re.match(text, m.end())
            if v is not None and not _is_placeholder(v.group(1)) and not self._a_code(nm.group(0), v.group(1)):
                hits.append(Hit("key_param", f"{text[nm.start():nm.end()]}=", v.start(1), v.end(1)))
        for m in self.json_param_re.finditer(low):
            if not _is_placeholder(m.group(2)) and not self._a_code(m.group(1), m.group(2)):
                hits.append(Hit("key_param", f'"{text[m.start(1):m.end(1)]}":', m.start(2), m.end(2)))
        for m in self.header_re.finditer(low):
            if m.start() > 0 and (low[m.start() - 1].isalnum() or low[m.start() - 1] in "_-"):
                continue
            token = m.group(2).split()[-1]
            if not _is_placeholder(token):
                hits.append(Hit("auth_header", f"{text[m.start(1):m.end(1)]} header", m.start(2), m.end(2)))
        if self.url_re is not None:
            for m in self.url_re.finditer(text):
                hits.extend(self._path_keys(m.group(1), m.group(2), m.start(2)))
        hits.extend(_escaped_keys(text))
        for run in self.run_re.finditer(text):
            a, b = run.span()
            if a > 0 and (text[a - 1].isascii() and text[a - 1].isalnum()):
                continue
            hits.extend(self._tokens(text, a, b, ignore))
        return _dedupe(hits)

    def _tokens(self, text: str, a: int, b: int, ignore: frozenset[str]) -> Iterator[Hit]:
        """Token-shaped values inside one run of token characters ``text[a:b]``."""
        run = text[a:b]
        for m in self.encoded_re.finditer(run):
            tok = m.group(1)
            if any(c.isdigit() for c in tok) and tok not in ignore and unquote(tok) not in ignore:
                yield Hit("encoded_key", "encoded key", a + m.start(1), a + m.end(1))
        for m in self.hex_re.finditer(run):
            s, e = m.span()
            tok = m.group(0)
            if len(tok) not in (32, 40) or tok in ignore:
                continue
            if (s > 0 and run[s - 1].isalnum()) or (e < len(run) and run[e].isalnum()):
                continue
            if len(tok) == 32 and not (tok.islower() or tok.isupper() or tok.isdigit()):
                continue
            if tok.isdigit():
                continue
            yield Hit("hex40_token" if len(tok) == 40 else "hex32_token", f"{len(tok)}-hex token", a + s, a + e)
        for m in self.seg_re.finditer(run):
            s, e = m.span()
            before = run[s - 1] if s > 0 else (text[a - 1] if a > 0 else "")
            after = run[e] if e < len(run) else (text[b] if b < len(text) else "")
            tok = m.group(0)
            if before != "/" or after not in _SEG_END or tok in ignore:
                continue
            if any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok):
                yield Hit("path_token", "30+ char path segment", a + s, a + e)


_SEG_END = frozenset({"/", "?", "", '"', "'", " ", "&", "#", "\\", "\n"})


def _dedupe(hits: list[Hit]) -> list[Hit]:
    """One hit per span: overlapping hits keep the first by (start, most specific kind)."""
    order = {k: i for i, k in enumerate(KINDS)}
    out: list[Hit] = []
    for h in sorted(hits, key=lambda h: (h.start, order[h.kind], -h.end)):
        if out and h.start < out[-1].end:
            last = out[-1]  # overlapping: one hit over both spans (never a tail left unmasked)
            if h.end > last.end:
                out[-1] = Hit(last.kind, last.label, last.start, h.end)
            continue
        out.append(h)
    return out


def _masked(text: str, hits: list[Hit]) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every hit masked, and each hit's span in the masked text."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    size = 0
    for h in hits:
        parts.append(text[pos:h.start])
        size += h.start - pos
        m = mask(text[h.start:h.end])
        spans.append((size, size + len(m)))
        parts.append(m)
        size += len(m)
        pos = h.end
    parts.append(text[pos:])
    return "".join(parts), spans


#: A run of token characters long enough to be a key nobody detected: shown as a prefix only.
_CONTEXT_TOKEN_RE = re.compile(r"[A-Za-z0-9+/=%_\-]{16,}")


def _excerpt(masked: str, span: tuple[int, int], width: int = 48) -> str:
    """The masked hit with up to ``width`` characters of context each side, on one line.

    The context is masked too: any 16+ character token run in it (a key of a shape no
    detector knows, a tail cut off by the window) shows only its first 4 characters, so an
    audit never prints more of a secret than a masked prefix.
    """
    a, b = span
    lo, hi = max(0, a - width), min(len(masked), b + width)

    def short(text: str) -> str:
        return _CONTEXT_TOKEN_RE.sub(lambda m: f"{m.group(0)[:4]}…[{len(m.group(0))} chars]", text)

    out = short(masked[lo:a]) + masked[a:b] + short(masked[b:hi])
    out = out.replace("\n", "\\n").replace("\r", "\\r")
    return ("…" if lo > 0 else "") + out + ("…" if hi < len(masked) else "")


def scan_text(text: str, catalog: Catalog | None = None) -> list[tuple[str, str, str]]:
    """Key-shaped values in ``text`` as ``(kind, label, masked excerpt)`` triples.

    >>> scan_text("GET https://opendart.fss.or.kr/api/company.json?crtfc_key=" + "ab12" * 10)[0][:2]
    ('key_param', 'crtfc_key=')
    """
    sc = _scanner(catalog)
    hits = sc.scan(text, _ignored(text))
    masked, spans = _masked(text, hits)
    return [(h.kind, h.label, _excerpt(masked, s)) for h, s in zip(hits, spans)]


def _scanner(catalog: Catalog | None) -> _Scanner:
    return (catalog or load_catalog()).derived("audit_scanner", _Scanner)


# ---- reports -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One key-shaped value: where it is and a masked excerpt (never the value itself)."""

    file: str
    where: str
    kind: str
    label: str
    excerpt: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.file}:{self.where}: {self.kind} ({self.label}): {self.excerpt}"


@dataclass
class AuditReport:
    """What ``audit_version`` / ``audit_dir`` scanned and found."""

    target: str
    content_hash: str | None = None
    files: list[str] = field(default_factory=list)
    lines: int = 0
    index: str | None = None
    index_rows: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "content_hash": self.content_hash,
            "ok": self.ok,
            "files_scanned": len(self.files),
            "lines_scanned": self.lines,
            "index": self.index,
            "index_rows_scanned": self.index_rows,
            "findings": [f.to_dict() for f in self.findings],
        }

    def summary(self) -> str:
        idx = f", index {self.index_rows} rows" if self.index else ", index not cached (not scanned)"
        head = f"{self.target}: {len(self.files)} files, {self.lines} lines{idx}"
        if self.ok:
            return f"{head}: clean — nothing key-shaped found"
        kinds: dict[str, int] = {}
        for f in self.findings:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        return f"{head}: {len(self.findings)} finding(s) (" + ", ".join(
            f"{k} {n}" for k, n in sorted(kinds.items())
        ) + ")"


def _ignored(text: str) -> frozenset[str]:
    """Digests the format stores (fingerprints, file hashes, the plan digest) in ``text``."""
    found = set(_DIGEST_RE.findall(text))
    found.update(_FILE_DIGEST_RE.findall(text))
    return frozenset(found)


def _report_hits(text: str, hits: list[Hit], locate: Any, report: AuditReport) -> None:
    """Turn hits in a multi-line ``text`` into findings, one excerpt per hit from its line
    with every hit of that line masked; ``locate(start, end)`` names (file, where) of a line."""
    if not hits:
        return
    import bisect

    starts = _line_starts(text)
    by_line: dict[int, list[Hit]] = {}
    for h in hits:
        by_line.setdefault(bisect.bisect_right(starts, h.start) - 1, []).append(h)
    for i, line_hits in sorted(by_line.items()):
        lo = starts[i]
        hi = starts[i + 1] - 1 if i + 1 < len(starts) else len(text)
        line = text[lo:hi]
        local = [Hit(h.kind, h.label, h.start - lo, min(h.end, hi) - lo) for h in line_hits]
        masked, spans = _masked(line, local)
        file, where = locate(i)
        for h, sp in zip(local, spans):
            report.findings.append(Finding(file, where, h.kind, h.label, _excerpt(masked, sp)))


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def _scan_file(sc: _Scanner, name: str, text: str, report: AuditReport, known: Scrubber | None = None) -> None:
    report.lines += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    hits = sc.scan(text, _ignored(text), known)
    _report_hits(text, hits, lambda i: (name, f"line {i + 1}"), report)


def _scan_index(sc: _Scanner, path: Path, report: AuditReport, known: Scrubber | None = None,
                tick: Progress | None = None) -> None:
    """Every text or blob cell of every table, one table at a time (cells joined by newlines,
    each cell's newlines escaped, so a hit maps back to its row and column)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = sum(int(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]) for t in tables) if tick else 0
        for table in tables:
            if tick is not None:
                tick(report.index_rows, rows, "scanning the index")
            info = list(conn.execute(f'PRAGMA table_info("{table}")'))
            cols = [r[1] for r in info]
            pks = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
            cells: list[str] = []
            where: list[str] = []
            digests: set[str] = set()
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                report.index_rows += 1
                if tick is not None and report.index_rows % 20000 == 0:
                    tick(report.index_rows, rows, "scanning the index")
                values = dict(zip(cols, row))
                rowid = ", ".join(f"{k}={values[k]!r}" for k in pks) or "?"
                for col, value in values.items():
                    if isinstance(value, bytes):
                        value = value.decode("utf-8", "replace")
                    if not isinstance(value, str):
                        continue
                    if col in _DIGEST_FIELDS:
                        digests.add(value)
                        continue
                    cells.append(value.replace("\n", "\\n"))
                    where.append(f"table {table} row ({rowid}) column {col}")
            text = "\n".join(cells)
            ignore = _ignored(text) | frozenset(digests)
            hits = sc.scan(text, ignore, known)
            _report_hits(text, hits, lambda i: (f"index:{path.name}", where[i]), report)
    finally:
        conn.close()


def audit_dir(version_dir: Path | str, catalog: Catalog | None = None, index: Path | str | None = None,
              target: str | None = None, secrets: Iterable[str] = (),
              progress: Progress | None = None) -> AuditReport:
    """Audit every file under a version folder (and ``index``, a compiled SQLite file, if given).

    The folder need not be a valid version: a damaged or unlisted file is scanned too.
    ``secrets`` are key values to look for in every form a server may echo (the CLI passes
    the ``KOPA_KEY_*`` values); short keys and placeholders are ignored. ``progress(done,
    total, stage)`` is told how far the scan is (the CLI's bar): files, then the index.
    """
    vdir = Path(version_dir)
    known = Scrubber(list(secrets)) or None
    sc = _scanner(catalog)
    report = AuditReport(target or str(vdir))
    try:
        report.content_hash = json.loads((vdir / "manifest.json").read_text(encoding="utf-8")).get("content_hash")
    except (OSError, ValueError, AttributeError):
        report.content_hash = None
    files = sorted(x for x in vdir.rglob("*") if x.is_file())
    for done, p in enumerate(files):
        if progress is not None:
            progress(done, len(files), f"scanning {report.target} files")
        rel = str(p.relative_to(vdir))
        report.files.append(rel)
        _scan_file(sc, rel, _stored_text(p).decode("utf-8", "replace"), report, known)
    for rel, data in _shared_files(vdir):
        if progress is not None:
            progress(len(report.files), None, f"scanning {report.target} shared files")
        report.files.append(rel)
        _scan_file(sc, rel, data.decode("utf-8", "replace"), report, known)
    if index is not None and Path(index).is_file():
        report.index = str(index)
        _scan_index(sc, Path(index), report, known, progress)
    return report


def _stored_text(path: Path) -> bytes:
    """A file's bytes as a reader sees them: a compressed cassette file (``x.jsonl.gz``,
    ``simulator.store.objects``) decoded, so a key it holds is found; one that does not
    decode is scanned as it is (``simulator verify`` reports the damage)."""
    from .store.objects import CODECS, CorruptBlob, open_decoded

    if path.suffix in CODECS:
        try:
            with open_decoded(path) as fh:
                return fh.read()
        except (CorruptBlob, EOFError, OSError, ValueError):
            pass
    return path.read_bytes()


def _shared_files(vdir: Path) -> Iterator[tuple[str, bytes]]:
    """Files a version stores as ranges of shared blobs (not in its folder), assembled."""
    from .store import read_manifest
    from .store.objects import file_bytes

    try:
        m = read_manifest(vdir)
    except SimulatorError:
        return
    for rel in sorted(m.segments):
        try:
            yield rel, file_bytes(vdir, m, rel)
        except OSError:
            continue  # a missing blob is `simulator verify`'s finding


def audit_version(store: Any, set_name: str = "kopa", version: str | None = None,
                  catalog: Catalog | None = None, *, scan_index: bool = True,
                  secrets: Iterable[str] = (), progress: Progress | None = None) -> AuditReport:
    """Audit a published version of ``store`` (a :class:`simulator.store.Store`) and its
    compiled index when it is in the cache, or prebuilt beside a read-only root (an installed
    wheel's): the one replay reads (it is not compiled for the audit)."""
    m = store.manifest(set_name, version)
    vdir = store.version_dir(set_name, m.version)
    idx = None
    if scan_index:
        idx = store.index_path(m)
        idx = idx if idx.is_file() else (store.prebuilt_index(m) or idx)
    return audit_dir(vdir, catalog, index=idx, target=f"{set_name}@{m.version}", secrets=secrets,
                     progress=progress)
