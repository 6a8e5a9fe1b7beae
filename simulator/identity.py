"""Request identity: the canonical form of a request and its fingerprint.

Two requests that a platform answers the same way have the same canonical form: the
catalog's parameter names (aliases and case folded where the platform does), no key
(query, path or header), no empty values, the query sorted. The store indexes recorded
answers by its fingerprint, and the resolver looks them up by it.

>>> from simulator.catalog import load_catalog
>>> from simulator.request import SimRequest
>>> req = SimRequest.from_url("https://opendart.fss.or.kr/api/company.json?crtfc_key=K&corp_code=00126380")
>>> canonical_request(req, load_catalog())
'GET opendart.fss.or.kr/api/company.json?corp_code=00126380'
>>> len(fingerprint(canonical_request(req, load_catalog())))
32
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote_plus

from .catalog import Catalog, Match
from .request import SimRequest

# Which parameters and path segments are keys is the key rules' business (``secrets.py``).
from .secrets import KEY_PARAM_NAMES, _is_key_param, _keys, _masked_path, _try_match

__all__ = ["canonical_request", "fingerprint"]

#: Strings ``quote_plus`` leaves as they are (its always-safe characters).
_PLUS_SAFE = re.compile(r"[A-Za-z0-9_.~-]*")


def _quote_plus(text: str) -> str:
    return text if _PLUS_SAFE.fullmatch(text) else quote_plus(text)


def canonical_request(req: SimRequest, catalog: Catalog | None = None, match: Match | None = None) -> str:
    """Human-readable canonical identity: method, host, key-free path, sorted key-free query.

    Parameter names are the catalog's (aliases and case folded where the platform does),
    empty values are dropped, and a body is represented by its sha256.

    Args:
        req: the request.
        catalog: matches ``req`` to its endpoint (None: the query as sent, keys dropped).
        match: an existing match of ``req`` (skips matching again).
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
    host = req.host
    if match is not None and host in (match.endpoint.opt("host_aliases") or ()):
        host = match.endpoint.host.lower()  # an alias host is the same API: one identity
    canon = f"{req.method} {host}{path}"
    if qs:
        canon += "?" + qs
    if req.body:
        canon += " body:" + hashlib.sha256(req.body).hexdigest()[:16]
    return canon


def fingerprint(canonical: str) -> str:
    """Stable fingerprint of a canonical request (sha256 hex, 32 chars)."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]
