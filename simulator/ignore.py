"""Parameters a replay ignores, the way the real server does (DESIGN §6 "Like the real server").

A real API answers ``list.json?corp_code=…&foo=1`` as it answers it without ``foo``: it
reads the parameters it knows and ignores the rest. The resolver does the same with

* parameters the catalog does not know for the endpoint (``Match.unknown``),
* parameters whose catalog role is ``ignore`` (sent by clients, selecting nothing),
* parameters the user asks to ignore (``Resolver(ignore_params=[...])``,
  ``simulator serve --ignore-param``, the pytest option ``--kopa-ignore-param``), like
  vcrpy's ``match_on`` or mitmproxy's ``--replay-ignore-param``.

Every answer that ignored something says so in ``x-sim-ignored`` (names, comma-separated,
sorted by name), and a miss lists them in its diagnostics. A header value must be Latin-1 text without
control characters, and a name may be anything (``한``, ``\ufffd``, ``a\r\nb``, ``a,b``), so
each name is written percent-encoded (UTF-8) where it holds a byte outside printable ASCII,
a ``%`` or a ``,``: ``urllib.parse.unquote`` of each comma-separated item gives the name back.

>>> ignored_header_value(["a,b", "utm_source", "한"])
'a%2Cb,utm_source,%ED%95%9C'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from urllib.parse import quote

from .catalog import Endpoint, Match
from .request import SimRequest
from .vocab import Role

__all__ = [
    "IGNORED_HEADER",
    "collection_filters",
    "drop_ignored",
    "ignored_header_value",
    "normalize_ignore_params",
    "without_params",
]

#: Roles that never key a collection: the key, paging, format, and what selects nothing.
UNKEYED_ROLES = (Role.AUTH, Role.PAGE, Role.PAGE_SIZE, Role.RANGE_START, Role.RANGE_END, Role.FORMAT, Role.IGNORE,
                 Role.ORDER)

#: Response header naming the request parameters the answer ignored.
IGNORED_HEADER = "x-sim-ignored"


#: Printable ASCII a header value keeps as it is (all but ``%``, which starts an escape, and
#: ``,``, which separates names).
_HEADER_SAFE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "%,")


def ignored_header_value(names: Iterable[str]) -> str:
    """The ``x-sim-ignored`` value for ``names`` (in their order), each percent-encoded (UTF-8) where it
    holds anything but printable ASCII, or a ``%`` or a ``,``; always ASCII, so every client and
    server can send it.

    >>> ignored_header_value(["%ff", "a b", "b"])
    '%25ff,a%20b,b'
    """
    # A lone surrogate (an undecodable byte under ``surrogateescape``) is kept as its own bytes.
    return ",".join(quote(n.encode("utf-8", "surrogatepass"), safe=_HEADER_SAFE) for n in names)


def normalize_ignore_params(names: Iterable[str] | str | None) -> frozenset[str]:
    """User ignore list as a set; a string is split on commas (CLI and ini values).

    >>> sorted(normalize_ignore_params("a, b"))
    ['a', 'b']
    """
    if names is None:
        return frozenset()
    if isinstance(names, str):
        names = names.split(",")
    out = set()
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"ignore_params entry {n!r} must be a parameter name (str)")
        if n.strip():
            out.add(n.strip())
    return frozenset(out)


def drop_ignored(match: Match, user: frozenset[str]) -> tuple[Match, list[str]]:
    """``match`` without the parameters a replay ignores, and their names (sorted).

    Role ``ignore`` params are left in (the dialect drops them from the collection key)
    but named; unknown and user-ignored ones are removed so the dialect never sees them.
    """
    ep = match.endpoint
    unknown = set(match.unknown)
    ignored: list[str] = []
    kept: dict[str, str] = {}
    for name, value in match.params.items():
        param = ep.param(name)
        # On an inferred endpoint nobody knows which params select records: all are kept.
        if name in user or (name in unknown and param is None and not ep.opt("inferred")):
            ignored.append(name)
            continue
        if param is not None and param.role == "ignore":
            ignored.append(name)
        kept[name] = value
    if not ignored:
        return match, []
    remaining = tuple(n for n in match.unknown if n in kept)
    return Match(ep, kept, remaining), sorted(ignored)


def without_params(req: SimRequest, names: Iterable[str]) -> SimRequest:
    """``req`` without the query parameters ``names`` (for the exact tier's second look)."""
    drop = set(names)
    return replace(req, query=tuple((k, v) for k, v in req.query if k not in drop))


def collection_filters(ep: Endpoint, params: dict[str, str]) -> dict[str, str]:
    """The params of a request that key ``ep``'s collection, as replay reads them: not the key,
    paging, format, ``ignore`` or ``order`` params, not the endpoint's discriminator and — but on
    an inferred endpoint — not params the catalog does not know (a recording keyed by them
    could never be found again).

    >>> from simulator.catalog import load_catalog
    >>> ep = load_catalog().endpoint("opendart_disclosures")
    >>> collection_filters(ep, {"crtfc_key": "k", "corp_code": "00126380", "sort": "date", "utm": "x"})
    {'corp_code': '00126380'}
    """
    out = {}
    for k, v in params.items():
        p = ep.param(k)
        if k in ep.match or (p is not None and p.role in UNKEYED_ROLES):
            continue
        if p is None and not ep.opt("inferred"):
            continue
        out[k] = v
    return out
