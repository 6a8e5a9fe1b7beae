"""Load the catalog from data files and match requests to endpoints."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from ..cache import BoundedCache
from ..errors import CatalogError, UnknownEndpoint
from ..request import SimRequest, form_params
from .files import DATA_DIR, load_platform_file
from .infer import infer_endpoint
from ..vocab import Role
from .models import Endpoint, Param, Platform
from .platforms import PLATFORM_NAMES, platform_aliases, platform_for, resolve_platforms
from .tiers import Tier, check_tier, generated_platforms

__all__ = ["Catalog", "DATA_DIR", "DEFAULT_TIER", "Match", "ReadPlan", "load_catalog"]

T = TypeVar("T")

@dataclass(frozen=True)
class Match:
    """A request matched to an endpoint, with its parameters by canonical name.

    ``params`` holds query and path parameters under the catalog's names (aliases and,
    where the platform says so, other letter cases folded in); empty values are dropped,
    as the real APIs treat them as absent.
    """

    endpoint: Endpoint
    params: dict[str, str]
    #: Names as sent, for parameters the catalog does not know (kept in the collection key).
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReadPlan:
    """How :meth:`Catalog.match` reads every request of one shape (method, host, path and
    query names in order, no body) when the values play no part in choosing the endpoint.

    ``match`` on any request of the shape gives ``endpoint`` and, for its params: each query
    position's value (empties dropped) under ``slots[i]``'s name — a known name keeps the
    first value sent under any of its spellings, an unknown one is kept as sent — then the
    path's ``path_params`` over them.
    """

    endpoint: Endpoint
    #: Per query position: (the catalog's name, or the name as sent; whether it is known).
    slots: tuple[tuple[str, bool], ...]
    #: The path's non-empty parameters, set after the query's.
    path_params: tuple[tuple[str, str], ...]


#: Path-param roles that may never be left out of a URL, even at its end (paging and key).
_MANDATORY_PATH_ROLES = (Role.AUTH, Role.FORMAT, Role.RANGE_START, Role.RANGE_END)


class _Route:
    """One endpoint's path regex, with what matching needs precomputed once."""

    def __init__(self, ep: Endpoint, order: int = 0) -> None:
        self.endpoint = ep
        #: Position in the host's route order (the tie rule of ``Catalog``).
        self.order = order
        pieces = ep.path.strip("/").split("/")
        whole = [re.fullmatch(r"\{([^}]+)\}", piece) for piece in pieces]
        # Trailing path params may be omitted (Seoul's positional filters): optional ones
        # anywhere (as before), and required ones when every piece after them may be omitted
        # too, so that the dialect answers its native missing-parameter error instead of
        # the request matching no endpoint. Key, format and row range stay mandatory.
        optional = [False] * len(pieces)
        tail_ok = True
        for i in range(len(pieces) - 1, -1, -1):
            m = whole[i]
            if m is None:
                tail_ok = False
                continue
            p = ep.param(m.group(1))
            assert p is not None
            optional[i] = p.role not in _MANDATORY_PATH_ROLES and (not p.required or tail_ok)
            tail_ok = tail_ok and optional[i]
        regex = ""
        self.path_names: list[str] = []
        for i, piece in enumerate(pieces):
            m = whole[i]
            if m:
                self.path_names.append(m.group(1))
                regex += r"(?:/([^/]*))?" if optional[i] else r"/([^/]*)"
            elif "{" in piece:
                # A param inside a segment: OpenDART's format suffix ``list.{format}``.
                regex += "/"
                for literal, name in re.findall(r"([^{]*)\{([^}]+)\}", piece):
                    self.path_names.append(name)
                    regex += re.escape(literal) + r"([^/]*?)"
                regex += re.escape(piece[piece.rfind("}") + 1 :])
            else:
                regex += "/" + re.escape(piece)
        self._pattern = "^" + regex + "/?$"
        self.literal_count = sum(1 for p in pieces if not p.startswith("{"))
        #: The whole path when it has no params (matched by a dict lookup first).
        self.fixed_path: str | None = (
            "/" + "/".join(pieces) if all(p and "{" not in p for p in pieces) else None
        )
        #: The first segment when it is a plain literal (the index of templated paths).
        self.first_segment: str | None = pieces[0] if pieces[0] and "{" not in pieces[0] else None
        # Query-param names (aliases; other letter cases where the platform folds them).
        self.fold = bool(ep.opt("param_case_insensitive", False))
        lookup: dict[str, str] = {}
        for p in ep.params:
            if p.location != "query":
                continue
            for name in (p.name, *p.aliases):
                lookup[name] = p.name
                if self.fold:
                    lookup[name.lower()] = p.name
        self.lookup = lookup
        self.conditions = tuple((k, v.lower()) for k, v in ep.match.items())

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The path regex, compiled on first use (most routes of a large catalog never are)."""
        return re.compile(self._pattern)


class _HostRoutes:
    """A host's routes in match order, indexed so a request tries only those that can match.

    Candidates keep the host's route order, so the first match is the one a scan of every
    route would find: the ordering rule still decides ties.
    """

    def __init__(self, routes: list[_Route]) -> None:
        self.routes = routes
        self.paths = sorted({r.endpoint.path for r in routes})
        by_path: dict[str, list[_Route]] = {}
        by_first: dict[str, list[_Route]] = {}
        rest: list[_Route] = []
        for r in routes:
            if r.fixed_path is not None:
                by_path.setdefault(r.fixed_path, []).append(r)
            elif r.first_segment is not None:
                by_first.setdefault(r.first_segment, []).append(r)
            else:
                rest.append(r)

        def order(*groups: list[_Route]) -> tuple[_Route, ...]:
            return tuple(sorted((r for g in groups for r in g), key=lambda r: r.order))

        #: Routes when nothing more specific applies: templates led by a path param.
        self.rest = order(rest)
        #: Candidates by first path segment: its templates and the param-led ones.
        self.by_first = {seg: order(rs, rest) for seg, rs in by_first.items()}
        #: Candidates by whole path: its fixed routes, then as ``by_first`` of its first segment.
        self.by_path = {
            path: order(rs, by_first.get(path[1:].split("/", 1)[0], []), rest)
            for path, rs in by_path.items()
        }
        #: Fixed paths whose routes are told apart by one query param (law.go.kr ``target``:
        #: a hundred routes on ``/DRF/lawSearch.do``): path → (param, value → candidates).
        #: Only the routes of that value and those without conditions can match.
        self.by_condition: dict[str, tuple[str, dict[str, tuple[_Route, ...]], tuple[_Route, ...]]] = {}
        for path, cands in self.by_path.items():
            names = {k for r in cands for k, _ in r.conditions}
            if len(names) != 1:
                continue
            (name,) = names
            if any(_spelled_otherwise(r, name) or len(r.conditions) > 1 for r in cands):
                continue  # aliases or case folding: keep the plain scan (rare, small)
            plain = tuple(r for r in cands if not r.conditions)
            values = {v for r in cands for _, v in r.conditions}
            groups = {v: tuple(r for r in cands if not r.conditions or r.conditions[0][1] == v) for v in values}
            self.by_condition[path] = (name, groups, plain)

    def candidates(self, path: str, query: dict[str, str] | None = None) -> tuple[_Route, ...]:
        """Every route whose regex (and, given ``query``, match condition) can match, in route order."""
        key = path[:-1] if len(path) > 1 and path.endswith("/") else path
        found = self.by_path.get(key)
        if found is not None:
            cond = self.by_condition.get(key) if query is not None else None
            if cond is not None and query is not None:
                # A value no route names, or none at all, leaves the routes without conditions.
                return cond[1].get(query.get(cond[0], "").lower(), cond[2])
            return found
        return self.by_first.get(path[1:].split("/", 1)[0], self.rest)


def _spelled_otherwise(route: _Route, name: str) -> bool:
    """Whether a request may carry ``name`` under another spelling (alias, letter case)."""
    return route.fold or route.lookup.get(name, name) != name or any(
        canon == name and sent != name for sent, canon in route.lookup.items()
    )


class Catalog:
    """All platforms and endpoints, with request matching and tool schemas.

    >>> cat = load_catalog()
    >>> ep = cat.endpoint("molit_apt_trade")   # doctest: +SKIP
    """

    def __init__(self, platforms: list[Platform]) -> None:
        #: The catalog files (parts) as read: ``opendart``, ``gen_opendart``, ``datagokr_misc``.
        self.parts: dict[str, Platform] = {}
        #: The real platforms (``simulator.catalog.platforms``), each with every endpoint of
        #: its parts: ``platforms["opendart"]`` holds the curated and the generated tools.
        self.platforms: dict[str, Platform] = {}
        #: Old platform ids (parts that are not platforms) → the platforms they are read as.
        self.platform_aliases: dict[str, tuple[str, ...]] = {}
        self.endpoints: dict[str, Endpoint] = {}
        self._routes: dict[str, list[_Route]] = {}
        self._hosts: dict[str, _HostRoutes] = {}
        self._derived: dict[str, Any] = {}
        #: The tier this catalog was loaded as (``load_catalog``), and the generated
        #: endpoints left out because a curated one serves their URL: (generated, curated).
        self.tier: str = "curated"
        self.shadowed: list[tuple[str, str]] = []
        #: Endpoints inferred so far (``infer``), by id: a pure function of host and path.
        self._inferred: dict[str, Endpoint] = {}
        # (host, path, match params) → its inferred route, or False (none): bounded.
        self._inferred_routes: BoundedCache[tuple[str, str, tuple[tuple[str, str], ...]], _Route | bool] = (
            BoundedCache(1024)
        )
        by_platform: dict[str, list[Endpoint]] = {}
        for plat in platforms:
            if plat.id in self.parts:
                raise CatalogError(f"duplicate platform id={plat.id!r}")
            merged = plat.endpoints
            self.parts[plat.id] = plat
            if not merged:
                by_platform.setdefault(platform_for(plat.id), [])
            for ep in merged:
                by_platform.setdefault(ep.platform or plat.id, []).append(ep)
                if ep.id in self.endpoints:
                    raise CatalogError(
                        f"endpoint id={ep.id!r} is used by platforms "
                        f"{self.endpoints[ep.id].platform!r} and {plat.id!r}; ids are tool names "
                        "and must be unique"
                    )
                self.endpoints[ep.id] = ep
                self._routes.setdefault(ep.host.lower(), []).append(_Route(ep))
        for pid, eps in by_platform.items():
            self.platforms[pid] = _real_platform(pid, eps, self.parts)
        self.platform_aliases = platform_aliases(self.parts, self.platforms)
        #: Other hosts serving a platform's paths (``www.juso.go.kr`` beside
        #: ``business.juso.go.kr``; option ``host_aliases``) → the catalog's host.
        self.host_aliases: dict[str, str] = {}
        for ep in self.endpoints.values():
            for alias in ep.opt("host_aliases") or ():
                self.host_aliases.setdefault(str(alias).lower(), ep.host.lower())
        #: Query parameters that pick an endpoint on a shared path (law.go.kr ``target``).
        self._match_names = frozenset(k for ep in self.endpoints.values() for k in ep.match)
        for host, routes in self._routes.items():
            # Most literal segments first, then most match conditions: the specific wins.
            routes.sort(key=lambda r: (-r.literal_count, -len(r.endpoint.match)))
            for i, r in enumerate(routes):
                r.order = i
            self._hosts[host] = _HostRoutes(routes)

    @staticmethod
    def _merge(plat: Platform, ep: Endpoint) -> Endpoint:
        """``ep`` with its platform's common params, options and identity merged in.

        Idempotent: endpoints loaded from files arrive merged already (``files.merge_raw``).
        """
        names = {p.name for p in ep.params}
        return ep.model_copy(
            update={
                "params": list(ep.params) + [p for p in plat.common_params if p.name not in names],
                "options": {**plat.options, **ep.options},
                "host": ep.host or plat.host,
                "platform": platform_for(plat.id, ep.path),
                "part": plat.id,
                "domain": plat.domain,
                "dialect": ep.dialect or plat.dialect,
            }
        )

    def endpoint(self, endpoint_id: str) -> Endpoint:
        try:
            return self.endpoints.get(endpoint_id) or self._inferred[endpoint_id]
        except KeyError:
            near = _nearest(endpoint_id, list(self.endpoints))
            raise CatalogError(
                f"unknown endpoint id={endpoint_id!r}; did you mean {near}? "
                "`simulator tools` lists every endpoint"
            ) from None

    def infer(self, req: SimRequest) -> Match | None:
        """``req`` matched to an endpoint inferred from its host's platform (an unknown path
        on a known host), or None (``simulator.catalog.infer``)."""
        req = self.canonical_host(req)
        if req.host not in self._hosts:
            return None
        sig = tuple(sorted((k, v) for k, v in req.query if k in self._match_names))
        key = (req.host, req.path, sig)
        route = self._inferred_routes.get(key)
        if route is None:
            ep = infer_endpoint(self.endpoints.values(), self.parts, req)
            if ep is not None:
                ep = self._inferred.setdefault(ep.id, ep)  # one per host and path template
            route = _Route(ep) if ep is not None else False
            self._inferred_routes.put(key, route)
        if not isinstance(route, _Route):
            return None
        m = route.regex.match(req.path)
        if m is None:
            return None
        query: dict[str, str] = {}
        for k, v in req.query:
            query.setdefault(k, v)
        params, unknown = _read_params(route, query)
        for name, value in zip(route.path_names, m.groups()):
            if value:
                params[name] = value
        return Match(route.endpoint, params, tuple(unknown))

    def platform_of(self, ep: Endpoint) -> Platform:
        return self.platforms[ep.platform]

    def hosts(self) -> list[str]:
        """Every host the catalog serves, alias hosts (``www.juso.go.kr``) included."""
        return sorted({*self._routes, *self.host_aliases})

    def canonical_host(self, req: SimRequest) -> SimRequest:
        """``req`` on the catalog's host when it was sent to an alias host (else ``req``)."""
        host = self.host_aliases.get(req.host)
        if host is None:
            return req
        from dataclasses import replace

        return replace(req, host=host)

    def read_plan(self, req: SimRequest) -> ReadPlan | None:
        """How :meth:`match` reads every request shaped like ``req`` (same method, host, path
        and query names in order, no body), or None where values choose the endpoint (match
        conditions), a name repeats, a body is sent or nothing matches: match those one by one.
        """
        if req.body:
            return None
        names = [k for k, _ in req.query]
        if len(set(names)) != len(names):
            return None
        creq = self.canonical_host(req)
        host = self._hosts.get(creq.host)
        if host is None:
            return None
        path = creq.path
        if (path[:-1] if len(path) > 1 and path.endswith("/") else path) in host.by_condition:
            return None
        for route in host.candidates(path):
            m = route.regex.match(path)
            if m is None:
                continue
            if route.conditions:
                return None  # whether it matches depends on a value
            lookup, fold = route.lookup, route.fold
            slots = []
            for k in names:
                canon = lookup.get(k) or (lookup.get(k.lower()) if fold else None)
                slots.append((canon, True) if canon is not None else (k, False))
            path_params = tuple((n, v) for n, v in zip(route.path_names, m.groups()) if v)
            return ReadPlan(route.endpoint, tuple(slots), path_params)
        return None

    def resolve_platforms(self, names: list[str]) -> tuple[list[str], list[str]]:
        """Platform ids for ``names``, old ids (``gen_opendart``) read as their platform, and
        a deprecation note per old id (for a CLI to show).

        Raises:
            CatalogError: a name that is no platform and no old id, listing the platforms.
        """
        return resolve_platforms(names, self.platforms, self.platform_aliases)

    def tools(self, *, platforms: list[str] | None = None) -> list[dict[str, Any]]:
        """OpenAI function-calling schemas of every endpoint (optionally of some platforms;
        an old id such as ``gen_opendart`` selects its platform, ``opendart``)."""
        wanted = None if platforms is None else set(self.resolve_platforms(list(platforms))[0])
        return [
            ep.tool_schema()
            for ep in self.endpoints.values()
            if wanted is None or ep.platform in wanted
        ]

    def derived(self, name: str, make: Callable[[Catalog], T]) -> T:
        """``make(self)``, computed once per catalog and kept under ``name`` (a catalog is
        immutable, so what is derived from it stays true), e.g. the OpenAPI document."""
        try:
            return cast(T, self._derived[name])
        except KeyError:
            value = self._derived[name] = make(self)
            return value

    def match(self, req: SimRequest) -> Match:
        """Find the endpoint serving ``req`` and read its parameters.

        Raises:
            UnknownEndpoint: with the known paths of the host, or the known hosts.
        """
        req = self.canonical_host(req)
        host = self._hosts.get(req.host)
        if host is None:
            raise UnknownEndpoint(
                f"unknown host={req.host!r}: the catalog serves {', '.join(self.hosts())}"
            )
        query: dict[str, str] = {}
        # a form body's parameters count as the query's (juso: POST); the query wins a repeat
        for k, v in (*req.query, *form_params(req)):
            query.setdefault(k, v)
        for route in host.candidates(req.path, query):
            m = route.regex.match(req.path)
            if m is None:
                continue
            params, unknown = _read_params(route, query)
            if route.conditions and any(
                params.get(k, "").lower() != v for k, v in route.conditions
            ):
                continue
            for name, value in zip(route.path_names, m.groups()):
                if value:
                    params[name] = value
            return Match(route.endpoint, params, tuple(unknown))
        raise UnknownEndpoint(
            f"unknown path={req.path!r} on host={req.host!r}; known paths: " + _nearest_paths(req.path, host.paths)
        )


def _real_platform(pid: str, eps: list[Endpoint], parts: dict[str, Platform]) -> Platform:
    """The platform ``pid`` over ``eps``: its own curated file's facts (name, key, scheme)
    where it has one, else those of the part of its first endpoint, named as the provider."""
    base = parts.get(pid)
    if base is None or (base.endpoints and base.endpoints[0].platform not in ("", pid)):
        base = parts[eps[0].part_id] if eps and eps[0].part_id in parts else next(iter(parts.values()))
    update: dict[str, Any] = {"id": pid, "endpoints": eps}
    if base.id != pid:
        name, name_ko, domain = PLATFORM_NAMES.get(pid) or (
            base.name.replace(" (generated)", "").replace(", generated)", ")"),
            base.name_ko.replace(" (생성)", "").replace(", 생성)", ")"),
            base.domain,
        )
        update.update(name=name, name_ko=name_ko, domain=domain)
    return base.model_copy(update=update)


def _nearest_paths(path: str, paths: list[str], n: int = 12) -> str:
    """Up to ``n`` of a host's ``paths``, the closest to ``path`` first (a typo's fix leads)."""
    import difflib

    close = difflib.get_close_matches(path, paths, n=n, cutoff=0.5)
    shown = close + [p for p in paths if p not in close][: n - len(close)]
    return ", ".join(shown) + (" …" if len(paths) > n else "")


def _read_params(route: _Route, query: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    lookup = route.lookup
    fold = route.fold
    params: dict[str, str] = {}
    unknown: list[str] = []
    for k, v in query.items():
        canon = lookup.get(k) or (lookup.get(k.lower()) if fold else None)
        if canon is None:
            if v != "":
                params[k] = v
                unknown.append(k)
            continue
        if v == "":
            continue
        params.setdefault(canon, v)
    return params, unknown


def _nearest(name: str, names: list[str]) -> str:
    import difflib

    near = difflib.get_close_matches(name, names, n=3, cutoff=0.4)
    return ", ".join(repr(n) for n in near) if near else "(no close name)"


#: The tier ``load_catalog()`` loads when none is named (``tiers.py``): the paper-scale set;
#: ``kopa@v0002`` records every tool of it but ``nec_preliminary_candidates``.
DEFAULT_TIER: Tier = "full"


def load_catalog(directory: Path | None = None, *, tier: str | None = None) -> Catalog:
    """Load every ``*.yaml`` platform file of ``directory`` (default: the shipped catalog).

    ``tier`` (shipped catalog only): ``curated``, ``full`` (+ the generated paper-scale
    set) or ``all`` (+ every operation the facts know); default :data:`DEFAULT_TIER`.
    """
    if directory is None:
        return _default_catalog(check_tier(tier or DEFAULT_TIER))
    files = sorted(Path(directory).glob("*.yaml"))
    return Catalog([load_platform_file(f) for f in files])


@lru_cache(maxsize=3)
def _default_catalog(tier: Tier) -> Catalog:
    files = sorted(DATA_DIR.glob("*.yaml"))
    curated = [load_platform_file(f) for f in files]
    generated, shadowed = generated_platforms(tier, curated)
    if tier == "curated":
        # the curated tier is the endpoints checked against real bodies; an endpoint a hand-made
        # file declares with fidelity ``partial`` (the services kopa@v0007 added) comes with ``full``
        curated = [p.model_copy(update={"endpoints": [e for e in p.endpoints if e.fidelity == "curated"]})
                   for p in curated]
    catalog = Catalog(curated + generated)
    catalog.tier = tier
    catalog.shadowed = shadowed
    return catalog
