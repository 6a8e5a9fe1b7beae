"""Keys never reach a cassette, a log or a report: redaction (request identity: ``identity.py``).

Keys live in query parameters (``serviceKey``, ``crtfc_key``, ``KEY``, ``OC`` …), in URL path
segments (Seoul Open Data, ECOS, swopenapi), in headers, and echoed inside response bodies
(law.go.kr detail links embed ``OC``). Everything the store writes passes through here.
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any
from urllib.parse import quote, quote_plus, unquote

from .catalog import Catalog, Endpoint, KeyLayout, Match
from .errors import UnknownEndpoint
from .request import SimRequest

__all__ = [
    "KEY_PARAM_NAMES",
    "MIN_PREFIX_LEN",
    "MIN_SECRET_LEN",
    "PLACEHOLDER_KEYS",
    "REDACTED",
    "SENSITIVE_HEADERS",
    "Scrubber",
    "unescape_run",
    "is_secret",
    "prefix_pattern",
    "secret_forms",
    "redact_body",
    "redact_headers",
    "redact_url",
]

REDACTED = "REDACTED"

#: Parameter names that carry a key on some platform (compared case-insensitively).
KEY_PARAM_NAMES = frozenset(
    n.lower()
    for n in (
        "serviceKey",
        "crtfc_key",
        "confmKey",
        "apiKey",
        "OC",
        "KEY",
        "authKey",
        "AUTH_KEY",
        "accessKey",
        "api_key",
        "access_token",
        "token",
        # Spellings clients use for the same keys (``service_key`` for ``serviceKey`` …).
        "service_key",
        "service-key",
        "crtfc-key",
        "api-key",
        "access_key",
        "auth-key",
        "client_secret",
        "secret_key",
    )
)

#: Headers never stored (credentials, cookies, per-connection noise).
SENSITIVE_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "auth_key"}
)

#: Response headers worth keeping in a cassette.
KEPT_RESPONSE_HEADERS = ("content-type", "content-disposition", "retry-after")

_QUERY_KEY_RE = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(serviceKey|crtfc_key|confmKey|apiKey|OC|KEY|authKey|AUTH_KEY|accessKey)"
    r"=([^&\"'<>\s\\]+)"
)


def _keys(ep: Endpoint) -> KeyLayout:
    return ep.key_layout


def _is_key(layout: KeyLayout, name: str) -> bool:
    role = layout.roles.get(name)
    if role is not None:
        return role == "auth"
    return name.lower() in KEY_PARAM_NAMES


def _is_key_param(name: str, match: Match | None) -> bool:
    if match is not None:
        return _is_key(_keys(match.endpoint), name)
    return name.lower() in KEY_PARAM_NAMES


def redact_headers(headers: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """Response headers to store: the useful ones, never credentials or cookies."""
    out = []
    for k, v in headers:
        k = k.lower()
        if k in KEPT_RESPONSE_HEADERS and k not in SENSITIVE_HEADERS:
            out.append((k, v))
    return out


def _try_match(req: SimRequest, catalog: Catalog | None) -> Match | None:
    if catalog is None:
        return None
    try:
        return catalog.match(req)
    except UnknownEndpoint:
        return None


def _masked_path(req: SimRequest, match: Match | None) -> str:
    if match is None:
        return req.path
    keys = _keys(match.endpoint)
    if not keys.auth_path:
        return req.path
    # Rebuild from the template so the key segment is replaced wherever it sits.
    segs = []
    for name, literal in keys.template:
        if name is None:
            segs.append(literal)
        elif name in keys.auth_path:
            segs.append("{" + name + "}")
        elif name in match.params:
            segs.append(match.params[name])
        else:
            break
    return "/" + "/".join(segs)


def redact_url(req: SimRequest, catalog: Catalog | None = None) -> str:
    """The request URL with every key replaced by ``REDACTED`` (query and path)."""
    match = _try_match(req, catalog)
    path = _masked_path(req, match)
    if match is not None:
        for p in match.endpoint.params:
            if p.location == "path" and p.role == "auth":
                path = path.replace("{" + p.name + "}", REDACTED)
    netloc = req.host if req.port is None else f"{req.host}:{req.port}"
    qs = "&".join(
        f"{quote(k, safe='')}={REDACTED if _is_key_param(k, match) else quote(v, safe='')}"
        for k, v in req.query
    )
    path_q = quote(path, safe="/:@!$&'()*+,;=-._~")
    return f"{req.scheme}://{netloc}{path_q}" + (f"?{qs}" if qs else "")


#: Keys shorter than this are placeholders, never scrubbed as substrings: masking ``any``
#: wherever it occurs would turn ``/api/company.json`` into ``/api/compREDACTED.json``. (As
#: parameter values they are still never stored: key parameters are dropped by name.)
MIN_SECRET_LEN = 8
#: Values that stand for a key in examples and tests: placeholders, not secrets.
PLACEHOLDER_KEYS = frozenset(
    {"any", "test", "x", "xxx", "sample", "key", "demo", "none", "null", "redacted", "your_key",
     "yourkey", "your-key", "servicekey", "api_key", "apikey", "mykey", "my_key", "testkey",
     "test_key", "test-key", "changeme"}
)


def is_secret(value: str) -> bool:
    """Whether a configured key value is a secret to scrub (not a short key or placeholder)."""
    return len(value) >= MIN_SECRET_LEN and value.lower() not in PLACEHOLDER_KEYS


def _b64_forms(raw: bytes) -> set[str]:
    """base64 (standard and URL-safe, padded or not) of ``raw``, and, for each of the three
    ways ``raw`` can sit inside longer base64-encoded data, the 4-character groups that hold
    only its bytes (the same wherever it sits)."""
    full = base64.b64encode(raw).decode("ascii")
    out = {full, full.rstrip("=")}
    for lead in range(3):
        enc = base64.b64encode(b"\0" * lead + raw).decode("ascii")
        first, end = (1 if lead else 0), (lead + len(raw)) // 3
        out.add(enc[4 * first : 4 * end])
    out |= {f.replace("+", "-").replace("/", "_") for f in out}
    return {f for f in out if len(f) >= MIN_SECRET_LEN}


def _entities(text: str) -> set[str]:
    """HTML/XML forms of ``text``: named, decimal and hex entities for its punctuation."""
    if text.isalnum():
        return set()
    dec = "".join(c if c.isalnum() else f"&#{ord(c)};" for c in text)
    hexa = "".join(c if c.isalnum() else f"&#x{ord(c):x};" for c in text)
    hexa0 = "".join(c if c.isalnum() else f"&#x{ord(c):02X};" for c in text)
    return {html.escape(text), html.escape(text, quote=False), dec, hexa, hexa0}


#: One character written as an escape: ``%6B`` (%-encoded any number of times: ``%256B``), an
#: HTML numeric entity (``&#107;``, ``&#x6b;``, zero-padded, or itself escaped ``&amp;#107;``),
#: JSON ``\\u006b`` (behind any number of backslashes: inside JSON strings within JSON strings).
ESCAPE_UNIT = (r"%(?:25)*[0-9A-Fa-f]{2}|&(?:amp;)*#[0-9]{1,7};|&(?:amp;)*#[xX][0-9A-Fa-f]{1,6};"
               r"|\\+u[0-9A-Fa-f]{4}")
_UNIT_RE = re.compile(ESCAPE_UNIT)
#: Runs of one kind of escape long enough to hold a key (``MIN_SECRET_LEN``): one pattern per
#: kind, each starting with a literal character so the regex engine skips ahead fast (one
#: alternation of all three is ten times slower over a body full of ordinary %-encoding).
_RUNS = (
    r"%(?:25)*[0-9A-Fa-f]{2}(?:%(?:25)*[0-9A-Fa-f]{2}){7,}",
    r"&(?:amp;)*#(?:[0-9]{1,7}|[xX][0-9A-Fa-f]{1,6});(?:&(?:amp;)*#(?:[0-9]{1,7}|[xX][0-9A-Fa-f]{1,6});){7,}",
    r"\\\\*u[0-9A-Fa-f]{4}(?:\\\\*u[0-9A-Fa-f]{4}){7,}",
)
_RUN_RES = tuple(re.compile(r) for r in _RUNS)
_RUN_BRES = tuple(re.compile(r.encode("ascii")) for r in _RUNS)
_RUN_MARKS = ("%", "&", "\\")


def _run_spans(text: str) -> list[tuple[int, int]]:
    """Spans of escaped runs in ``text`` (each kind whose marker it holds at all)."""
    return [m.span() for mark, rx in zip(_RUN_MARKS, _RUN_RES) if mark in text for m in rx.finditer(text)]


def _run_bspans(data: bytes) -> list[tuple[int, int]]:
    return [m.span() for mark, rx in zip(_RUN_MARKS, _RUN_BRES) if mark.encode() in data for m in rx.finditer(data)]


def unescape_run(run: str) -> str:
    """The text a run of escaped characters stands for (each unit decoded once, fully).

    >>> unescape_run("%6B&#101;&#x79;\\\\u0073%2573")
    'keyss'
    """
    out = []
    for unit in _UNIT_RE.findall(run):
        if unit.startswith("%"):
            out.append(chr(int(unit[-2:], 16)))
        elif unit.startswith("&"):
            num = unit.rsplit("#", 1)[1][:-1]
            code = int(num[1:], 16) if num[:1] in ("x", "X") else int(num)
            out.append(chr(min(code, 0x10FFFF)))
        else:
            out.append(chr(int(unit[-4:], 16)))
    return "".join(out)


#: A server may echo the start of a key (a log line cut short, a "key ab12…" hint): a prefix
#: this long or longer is masked (shorter runs are too likely to be something else).
MIN_PREFIX_LEN = 14


def secret_forms(key: str) -> set[str]:
    """Every form in which a server may echo ``key``: raw, %-encoded once or twice (either hex
    case: matching ignores case), form-encoded, HTML entities, JSON ``\\/``, base64, and the
    same for the decoded form of a data.go.kr "Encoding" key (and the encoded form of a
    "Decoding" one). The key with every character escaped (in any mix of escapes) is found by
    decoding each run of escapes (:func:`unescape_run`), its prefixes by :func:`prefix_pattern`."""
    bases = {key, unquote(key), quote(key, safe=""), quote_plus(key)}
    forms: set[str] = set()
    for b in bases:
        once = quote(b, safe="")
        # ``\/``: JSON's escaped slash, once or (a JSON string holding it, encoded) twice.
        forms |= {b, once, quote_plus(b), quote(once, safe=""), quote(quote_plus(b), safe=""),
                  b.replace("/", "\\/"), b.replace("/", "\\\\/")}
        forms |= _entities(b)
        forms |= _b64_forms(b.encode("utf-8"))
    return {f for f in forms if len(f) >= MIN_SECRET_LEN}


def prefix_pattern(key: str) -> str | None:
    """A regex matching any prefix of ``key`` (raw or decoded) of ``MIN_PREFIX_LEN`` or more
    characters, longest first; None for a key too short to have one.

    >>> import re
    >>> re.sub(prefix_pattern("0123456789abcdefghij"), "R", "x=0123456789abcdefg&y")
    'x=R&y'
    """
    parts = []
    for b in sorted({key, unquote(key)}):
        if len(b) <= MIN_PREFIX_LEN:
            continue
        tail = ""
        for c in reversed(b[MIN_PREFIX_LEN:]):
            tail = f"(?:{re.escape(c)}{tail})?"
        parts.append(re.escape(b[:MIN_PREFIX_LEN]) + tail)
    return "|".join(parts) or None


def _anchors(key: str) -> set[str]:
    """Lowercased substrings such that every form of ``key`` (and every prefix the Scrubber
    masks) holds at least one of them; none holds another (each is one scan of a body)."""
    decoded = unquote(key)
    runs = sorted(re.findall(r"[A-Za-z0-9]+", decoded), key=len)
    out: set[str] = set()
    if runs and len(runs[-1]) >= 4:
        # Encodings and entities change only punctuation: each text form keeps this run.
        out.add(runs[-1].lower())
        out |= {f.lower() for f in secret_forms(key) if not _is_text_form(f, runs[-1])}
    else:
        out |= {f.lower() for f in secret_forms(key)}
    out |= {b[:MIN_PREFIX_LEN].lower() for b in (key, decoded) if len(b) > MIN_PREFIX_LEN}
    kept: list[str] = []
    for a in sorted(out, key=len):
        if not any(k in a for k in kept):
            kept.append(a)
    return set(kept)


def _is_text_form(form: str, run: str) -> bool:
    return run.lower() in form.lower()


class Scrubber:
    """Masks configured keys, in every form a server may echo, case-insensitively.

    Keys that are not secrets (shorter than ``MIN_SECRET_LEN``, or placeholders such as
    ``any``, ``test``, ``x``) are ignored, so they never mask unrelated text.

    >>> s = Scrubber(["Ab12+Cd34/Ef56=="])
    >>> s.text("echo=ab12%2bcd34%2fef56%3d%3d b64=QWIxMitDZDM0L0VmNTY9PQ== raw=AB12+CD34/EF56==")
    'echo=REDACTED b64=REDACTED raw=REDACTED'
    >>> Scrubber(["any"]).text("/api/company.json")
    '/api/company.json'
    """

    def __init__(self, keys: list[str] | tuple[str, ...] = ()) -> None:
        self.keys = tuple(k for k in dict.fromkeys(keys) if k and is_secret(k))
        forms: set[str] = set()
        for k in self.keys:
            forms |= secret_forms(k)
        alt = "|".join(re.escape(f) for f in sorted(forms, key=lambda f: (-len(f), f)))
        # Prefixes last: a whole form starting at the same place wins over a prefix.
        prefixes = [p for p in (prefix_pattern(k) for k in self.keys) if p]
        alt = "|".join(x for x in (alt, *prefixes) if x)
        # What a run of escapes must hold, decoded and lowercased, to be a key: the key (raw or
        # decoded) or its first MIN_PREFIX_LEN characters (every longer prefix holds those).
        self._needles = tuple(sorted({
            (b[:MIN_PREFIX_LEN] if len(b) > MIN_PREFIX_LEN else b).lower()
            for k in self.keys for b in (k, unquote(k))
        }))
        self._re = re.compile(alt, re.IGNORECASE) if alt else None
        self._bre = re.compile(alt.encode("utf-8"), re.IGNORECASE) if alt else None
        self._values = frozenset(f.lower() for f in forms)
        # A cheap test first: every form holds one of these (lowercased) anchors, so a body
        # holding none (nearly all of them) skips the regex, which is slow over many forms.
        anchors: set[str] = set()
        for k in self.keys:
            anchors |= _anchors(k)
        self._anchors = tuple(a.encode("utf-8") for a in sorted(anchors))

    def __bool__(self) -> bool:
        return self._re is not None

    def is_key(self, value: str) -> bool:
        """Whether ``value`` is one of the keys (in any of its forms)."""
        return value.lower() in self._values

    def _maybe(self, data: bytes) -> bool:
        low = data.lower()
        return any(a in low for a in self._anchors)

    def _escaped(self, run: str) -> bool:
        decoded = unescape_run(run).lower()
        return any(n in decoded for n in self._needles)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where the forms of the keys occur in ``text`` (start, end)."""
        if self._re is None:
            return []
        found = []
        if self._maybe(text.encode("utf-8", "surrogatepass")):
            found = [m.span() for m in self._re.finditer(text)]
        found += [(a, b) for a, b in _run_spans(text) if self._escaped(text[a:b])]
        return sorted(found)

    def text(self, text: str) -> str:
        """``text`` with every form of every key replaced by ``REDACTED``."""
        if self._re is None:
            return text
        if self._maybe(text.encode("utf-8", "surrogatepass")):
            text = self._re.sub(REDACTED, text)
        return _replace(text, [(a, b) for a, b in _run_spans(text) if self._escaped(text[a:b])], REDACTED)

    def bytes(self, data: bytes) -> bytes:
        """``data`` (any encoding) with every form of every key replaced by ``REDACTED``."""
        if self._bre is None:
            return data
        if self._maybe(data):
            data = self._bre.sub(REDACTED.encode(), data)
        hits = [(a, b) for a, b in _run_bspans(data) if self._escaped(data[a:b].decode("ascii"))]
        return _replace(data, hits, REDACTED.encode())


def _replace(value: Any, spans: list[tuple[int, int]], by: Any) -> Any:
    """``value`` (str or bytes) with each of the (possibly overlapping) spans replaced by ``by``."""
    if not spans:
        return value
    parts, pos = [], 0
    for a, b in sorted(spans):
        if a < pos:  # overlaps the previous span: extend it
            pos = max(pos, b)
            continue
        parts += [value[pos:a], by]
        pos = b
    parts.append(value[pos:])
    return value[:0].join(parts)


def redact_body(body: bytes, secrets: list[str] | tuple[str, ...] | Scrubber = ()) -> bytes:
    """Mask keys echoed inside a response body.

    Replaces every known secret value in every form a server may echo (see ``Scrubber``) and
    any ``key=value`` pair whose name is a key parameter (``OC=…`` in law.go.kr links).
    """
    if not body:
        return body
    scrub = secrets if isinstance(secrets, Scrubber) else Scrubber(list(secrets))
    out = scrub.bytes(body)
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        return out
    new = _QUERY_KEY_RE.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    return new.encode("utf-8") if new != text else out
