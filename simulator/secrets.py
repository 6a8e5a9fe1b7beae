"""Keys never reach a cassette, a log or a report: redaction (request identity: ``identity.py``).

Keys live in query parameters (``serviceKey``, ``crtfc_key``, ``KEY``, ``OC`` …), in URL path
segments (Seoul Open Data, ECOS, swopenapi), in headers, and echoed inside response bodies
(law.go.kr detail links embed ``OC``). Everything the store writes passes through here.
"""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

from .catalog import Catalog, Endpoint, KeyLayout, Match
from .errors import UnknownEndpoint
from .request import SimRequest

__all__ = [
    "KEY_PARAM_NAMES",
    "REDACTED",
    "SENSITIVE_HEADERS",
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
