"""Endpoints inferred for unknown paths on a known platform host (DESIGN §6 "Like the real server").

A test may call a data.go.kr service, a NEIS hub or an OpenDART operation the catalog does
not list. On a host the catalog knows, the platform's wire dialect is known too, so the
request is answered like a catalogued one: an endpoint is *inferred* from the platform's
closest catalogued sibling (same host, most leading path segments in common), taking its
dialect, envelope options, key, paging and format parameters and the platform's common
parameters — and nothing that is the sibling's own (its fields, filters, query semantics,
service name; on data.go.kr the envelope is the family of the inferred path, see
``simulator.catalog.datagokr_families``). Every other parameter
stays part of the collection key: which of them select records is unknown.

The inferred endpoint's id is a pure function of host and path template
(``inferred_<platform>_<hash>``), so a recording made in one process replays in another;
it is marked with the option ``inferred: true`` and answers carry ``x-sim-endpoint:
inferred``. A host the catalog does not know is not inferred: it is recorded and replayed
exactly (the exact tier), like vcrpy.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable, Mapping

from ..request import SimRequest
from ..vocab import Role
from .models import Endpoint, Platform

__all__ = ["INFERRED_PREFIX", "infer_endpoint", "is_inferred"]

#: Ids of inferred endpoints start with this.
INFERRED_PREFIX = "inferred_"
#: Parameter roles an inferred endpoint takes from its sibling (the platform's own).
_PLATFORM_ROLES = (Role.AUTH, Role.PAGE, Role.PAGE_SIZE, Role.RANGE_START, Role.RANGE_END, Role.FORMAT)
#: Sibling options that describe the sibling itself, not its platform.
_OWN_OPTIONS = ("service", "response_headers", "float_format", "keyless_rows", "sample_key")
_SUFFIX = re.compile(r"^(?P<lit>[^{}]*)\.\{(?P<name>[^}]+)\}$")


def is_inferred(ep: Endpoint) -> bool:
    """True for an endpoint made by :func:`infer_endpoint`."""
    return bool(ep.opt("inferred", False))


def _template(sibling: Endpoint, path: str) -> str | None:
    """``path`` as a template shaped like ``sibling``'s (its params where it has them)."""
    want = sibling.path.strip("/").split("/")
    have = path.strip("/").split("/")
    if len(want) != len(have) or any("{" in h or "}" in h for h in have):
        return None  # a brace in the request would read as a template parameter
    out = []
    for w, h in zip(want, have):
        if "{" not in w:
            out.append(h)
            continue
        if re.fullmatch(r"\{[^}]+\}", w):
            out.append(w)
            continue
        m = _SUFFIX.match(w)  # OpenDART's ``list.{format}``: keep the suffix param
        if m is None or "." not in h:
            return None
        out.append(h.rsplit(".", 1)[0] + ".{" + m.group("name") + "}")
    return "/" + "/".join(out)


def _shared(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.strip("/").split("/"), b.strip("/").split("/")):
        if x != y:
            break
        n += 1
    return n


def infer_endpoint(
    endpoints: Iterable[Endpoint], platforms: Mapping[str, Platform], req: SimRequest
) -> Endpoint | None:
    """The endpoint inferred for ``req`` on a known host, or None (unknown host, or no
    catalogued sibling with the same path shape).

    ``endpoints`` and ``platforms`` are a catalog's endpoints and its parts (the catalog files,
    ``Catalog.parts``; ``Catalog.infer`` passes its own)."""
    siblings = [ep for ep in endpoints if ep.host.lower() == req.host]
    # Curated siblings first (their dialect facts are checked by hand; a generated entry's may
    # be partial), then most path in common, collections before single objects and files;
    # then catalog order.
    siblings.sort(key=lambda ep: (ep.fidelity != "curated", -_shared(ep.path, req.path),
                                  ep.kind != "collection"))
    for sib in siblings:
        template = _template(sib, req.path)
        if template is None:
            continue
        query = dict(req.query)
        match = {k: query[k] for k in sib.match if query.get(k)}
        ident = f"{req.host}{template}?" + "&".join(f"{k}={v}" for k, v in sorted(match.items()))
        digest = hashlib.sha256(ident.encode("utf-8")).hexdigest()[:10]
        literals = [p for p in template.strip("/").split("/") if p and "{" not in p]
        operation = (literals[-1] if literals else template).split(".")[0]
        # The platform's common params (MOLIT's LAWD_CD / DEAL_YMD) are every endpoint's.
        # Ids and summaries name the sibling's catalog part (``gen_molit``), as before parts
        # were merged into platforms, so recordings made then keep their endpoint ids.
        part = sib.part_id
        common = {p.name for p in platforms[part].common_params} if part in platforms else set()
        options = {k: v for k, v in sib.options.items() if k not in _OWN_OPTIONS}
        if sib.dialect == "datagokr":
            # The envelope is the inferred path's data.go.kr family's (an unknown AirKorea
            # operation answers like AirKorea), never the sibling's own family.
            from .datagokr_families import apply_family, envelope_option_names

            kept = {k: v for k, v in options.items() if k not in envelope_option_names()}
            options = apply_family(sib.host, template, kept, {})
        options["inferred"] = True
        return Endpoint(
            id=f"{INFERRED_PREFIX}{part}_{digest}",
            operation=operation,
            summary=f"(inferred from {part}) {req.host}{template}",
            method=sib.method,
            host=sib.host,
            path=template,
            match=match,
            params=[
                p for p in sib.params
                if p.role in _PLATFORM_ROLES
                or p.name in common
                or (p.location == "path" and "{" + p.name + "}" in template)
            ],
            kind="collection" if sib.kind == "object" else sib.kind,
            default_page_size=sib.default_page_size,
            max_page_size=sib.max_page_size,
            options=options,
            platform=sib.platform,
            part=part,
            domain=sib.domain,
            dialect=sib.dialect,
        )
    return None
