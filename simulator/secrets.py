"""Keys never reach a cassette, a log or a report: redaction and canonical request identity.

Keys live in query parameters (``serviceKey``, ``crtfc_key``, ``KEY``, ``OC`` …), in URL path
segments (Seoul Open Data, ECOS, swopenapi), in headers, and echoed inside response bodies
(law.go.kr detail links embed ``OC``). Everything the store writes passes through here.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote, quote_plus

from .catalog import Catalog, Endpoint, Match
from .errors import UnknownEndpoint
from .request import SimRequest

__all__ = [
    "KEY_PARAM_NAMES",
    "REDACTED",
    "SENSITIVE_HEADERS",
    "canonical_request",
    "fingerprint",
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


class _EndpointKeys:
    """What key stripping needs of one endpoint, computed once (see ``_keys``)."""

    __slots__ = ("endpoint", "roles", "path_names", "auth_path", "template", "dropped")

    def __init__(self, ep: Endpoint) -> None:
        self.endpoint = ep
        roles: dict[str, str] = {}
        for p in ep.params:
            roles.setdefault(p.name, p.role)  # ``Endpoint.param``: the first of a name wins
        #: Role of each param name the endpoint knows.
        self.roles = roles
        self.path_names = frozenset(p.name for p in ep.params if p.location == "path")
        self.auth_path = frozenset(
            p.name for p in ep.params if p.location == "path" and p.role == "auth"
        )
        #: Path template pieces: (param name, None) or (None, literal).
        self.template: tuple[tuple[str | None, str | None], ...] = tuple(
            (m.group(1), None) if m else (None, piece)
            for piece in ep.path.strip("/").split("/")
            for m in (re.fullmatch(r"\{([^}]+)\}", piece),)
        )
        #: Names never in a canonical query: path params and the endpoint's auth params.
        self.dropped = self.path_names | {n for n, r in roles.items() if r == "auth"}

    def is_key(self, name: str) -> bool:
        role = self.roles.get(name)
        if role is not None:
            return role == "auth"
        return name.lower() in KEY_PARAM_NAMES


#: Per-endpoint key facts by ``id(endpoint)``; the entry holds the endpoint, so an id is
#: never reused while cached. Cleared when full (catalogs are few and small).
_KEYS_CACHE: dict[int, _EndpointKeys] = {}
_KEYS_CACHE_MAX = 4096


def _keys(ep: Endpoint) -> _EndpointKeys:
    k = _KEYS_CACHE.get(id(ep))
    if k is None or k.endpoint is not ep:
        if len(_KEYS_CACHE) >= _KEYS_CACHE_MAX:
            _KEYS_CACHE.clear()
        k = _KEYS_CACHE[id(ep)] = _EndpointKeys(ep)
    return k


def _is_key_param(name: str, match: Match | None) -> bool:
    if match is not None:
        return _keys(match.endpoint).is_key(name)
    return name.lower() in KEY_PARAM_NAMES


#: Strings ``quote_plus`` leaves as they are (its always-safe characters).
_PLUS_SAFE = re.compile(r"[A-Za-z0-9_.~-]*")


def _quote_plus(text: str) -> str:
    return text if _PLUS_SAFE.fullmatch(text) else quote_plus(text)


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


def canonical_request(req: SimRequest, catalog: Catalog | None = None, match: Match | None = None) -> str:
    """Human-readable canonical identity: method, host, key-free path, sorted key-free query.

    Parameter names are the catalog's (aliases and case folded where the platform does),
    empty values are dropped, and a body is represented by its sha256.
    """
    if match is None:
        match = _try_match(req, catalog)
    path = _masked_path(req, match)
    if match is not None:
        keys = _keys(match.endpoint)
        dropped, roles = keys.dropped, keys.roles
        items = [
            (k, v)
            for k, v in match.params.items()
            if k not in dropped and (k in roles or k.lower() not in KEY_PARAM_NAMES)
        ]
    else:
        items = [(k, v) for k, v in req.query if v != "" and not _is_key_param(k, None)]
    qs = "&".join(f"{_quote_plus(k)}={_quote_plus(v)}" for k, v in sorted(items))
    canon = f"{req.method} {req.host}{path}"
    if qs:
        canon += "?" + qs
    if req.body:
        canon += " body:" + hashlib.sha256(req.body).hexdigest()[:16]
    return canon


def fingerprint(canonical: str) -> str:
    """Stable fingerprint of a canonical request (sha256 hex, 32 chars)."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def redact_body(body: bytes, secrets: list[str] | tuple[str, ...] = ()) -> bytes:
    """Mask keys echoed inside a response body.

    Replaces every known secret value (raw, URL-encoded and form-encoded) and any
    ``key=value`` pair whose name is a key parameter (``OC=…`` in law.go.kr links).
    """
    if not body:
        return body
    out = body
    for s in secrets:
        if not s:
            continue
        for form in {s, quote(s, safe=""), quote_plus(s)}:
            out = out.replace(form.encode("utf-8"), REDACTED.encode())
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        return out
    new = _QUERY_KEY_RE.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    return new.encode("utf-8") if new != text else out
