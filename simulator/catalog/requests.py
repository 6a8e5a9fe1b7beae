"""Building a platform's real request from an endpoint and its parameters.

>>> from simulator.catalog import load_catalog
>>> ep = load_catalog().endpoint("opendart_company")
>>> build_request(ep, {"corp_code": "00126380"}, key="KEY").url
'https://opendart.fss.or.kr/api/company.json?crtfc_key=KEY&corp_code=00126380'
"""

from __future__ import annotations

from typing import Mapping

from ..request import SimRequest
from .models import Endpoint

__all__ = ["build_request"]


def build_request(ep: Endpoint, params: Mapping[str, str], key: str | None, scheme: str = "https") -> SimRequest:
    """The real request for ``ep`` with ``params`` (key placed where the platform wants it)."""
    path = ep.path
    query: list[tuple[str, str]] = []
    all_params = {**ep.match, **params}
    for p in ep.params:
        token = "{" + p.name + "}"
        if p.location == "path":
            if p.role == "auth":
                value = key or ""
            else:
                value = all_params.get(p.name, p.default or "")
            # SimRequest.path is decoded; SimRequest.url encodes it once.
            path = path.replace(token, value.replace("/", "%2F"))
        elif p.role == "auth" and key:
            query.append((p.name, key))
    path_names = {p.name for p in ep.params if p.location == "path"}
    for k, v in all_params.items():
        if k not in path_names:
            query.append((k, v))
    while path.endswith("/"):
        path = path[:-1]
    return SimRequest(method=ep.method, host=ep.host, path=path, query=tuple(query), scheme=scheme)
