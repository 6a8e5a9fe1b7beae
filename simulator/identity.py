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
from dataclasses import dataclass
from urllib.parse import quote_plus

from .catalog import Catalog, Match, ReadPlan
from .request import SimRequest

# Which parameters and path segments are keys is the key rules' business (``secrets.py``).
from .secrets import KEY_PARAM_NAMES, _is_key_param, _keys, _masked_path, _try_match

__all__ = ["IdentityPlan", "canonical_by_plan", "canonical_request", "fingerprint", "identity_plan"]

#: Strings ``quote_plus`` leaves as they are (its always-safe characters).
_PLUS_SAFE = re.compile(r"[A-Za-z0-9_.~-]*")


def _quote_plus(text: str) -> str:
    if text.isalnum() and text.isascii():  # the common case, without the regex
        return text
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


@dataclass(frozen=True)
class IdentityPlan:
    """``canonical_request`` for every request of one shape, with the matching done once.

    A shape is a request's method, host, path and query names in order, without a body
    (:meth:`Catalog.read_plan`): what the canonical form takes of each query position and
    of the path is the same for all of them; only the values differ.
    """

    #: ``"GET host/path"``, as ``canonical_request`` begins.
    prefix: str
    #: Per query position: (name in the canonical form, whether the first value sent under
    #: any spelling wins), or None for a position left out (a key).
    slots: tuple[tuple[str, bool] | None, ...]
    #: The path's parameters over the query's: (name, value), value None to leave it out.
    path_params: tuple[tuple[str, str | None], ...]
    #: Each name of the canonical form as it is written there (quoted), with its ``=``.
    written: dict[str, str]


def identity_plan(req: SimRequest, catalog: Catalog) -> IdentityPlan | None:
    """The plan of ``req``'s shape, or None where ``canonical_request`` must see each request
    (values choose the endpoint, a body, a key in the path, no endpoint).

    >>> from simulator.catalog import load_catalog
    >>> cat = load_catalog()
    >>> req = SimRequest.from_url("https://opendart.fss.or.kr/api/company.json?crtfc_key=K&corp_code=00126380")
    >>> canonical_by_plan(identity_plan(req, cat), req.query) == canonical_request(req, cat)
    True
    """
    read: ReadPlan | None = catalog.read_plan(req)
    if read is None:
        return None
    ep = read.endpoint
    keys = _keys(ep)
    if keys.auth_path:
        return None
    dropped, roles = keys.dropped, keys.roles

    def kept(name: str) -> bool:
        return name not in dropped and (name in roles or name.lower() not in KEY_PARAM_NAMES)

    host = req.host
    if host in (ep.opt("host_aliases") or ()):
        host = ep.host.lower()
    slots = tuple(slot if kept(slot[0]) else None for slot in read.slots)
    path_params = tuple((n, v if kept(n) else None) for n, v in read.path_params)
    names = [slot[0] for slot in slots if slot is not None] + [n for n, v in path_params if v is not None]
    return IdentityPlan(
        prefix=f"{req.method} {host}{req.path}",
        slots=slots,
        path_params=path_params,
        written={n: _quote_plus(n) + "=" for n in names},
    )


def canonical_by_plan(plan: IdentityPlan, query: tuple[tuple[str, str], ...]) -> str:
    """``canonical_request`` of a request of ``plan``'s shape whose query is ``query``."""
    params: dict[str, str] = {}
    for (_sent, value), slot in zip(query, plan.slots):
        if slot is None or value == "":
            continue
        name, first_wins = slot
        if not first_wins or name not in params:
            params[name] = value
    for name, path_value in plan.path_params:
        if path_value is None:
            params.pop(name, None)
        else:
            params[name] = path_value
    if not params:
        return plan.prefix
    written = plan.written
    return plan.prefix + "?" + "&".join([written[k] + _quote_plus(v) for k, v in sorted(params.items())])
