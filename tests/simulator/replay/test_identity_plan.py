"""A request's identity from its shape's plan is the identity ``canonical_request`` gives.

The resolver matches a request shape (method, host, path, query names in order) once and
reads every later request of that shape by the plan (``identity.identity_plan``); the exact
tier looks the answer up by that fingerprint. If the two ever differed, a recorded request
would miss, so the property is checked over the whole default catalog.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.catalog import Endpoint, load_catalog
from simulator.identity import canonical_by_plan, canonical_request, identity_plan
from simulator.request import SimRequest
from tests.support.helpers import STATIONS, build_demo_version, resolver_for

CATALOG = load_catalog()
ENDPOINTS = sorted(CATALOG.endpoints.values(), key=lambda e: e.id)
#: Values a client may send: empty (dropped), plain, Korean, with reserved characters.
VALUES = st.sampled_from(["", "1", "25", "N000123", "json", "서울", "a b", "x&y=z", "2024-01-01", "A1+B"])


def _path_of(ep: Endpoint, draw: st.DrawFn) -> str:
    """``ep.path`` with each ``{param}`` filled (a key, a format, a value)."""
    out = ep.path
    while "{" in out:
        head, rest = out.split("{", 1)
        _name, tail = rest.split("}", 1)
        out = head + draw(st.sampled_from(["json", "xml", "KEY123", "1", "5", "sample"])) + tail
    return out


@st.composite
def requests_to(draw: st.DrawFn) -> SimRequest:
    """A request to a catalog endpoint: some of its params under any spelling (aliases,
    other letter cases), maybe a key, maybe an unknown name, in any order."""
    ep = draw(st.sampled_from(ENDPOINTS))
    spellings = []
    for p in ep.params:
        if p.location == "query":
            spellings += [p.name, *p.aliases, p.name.lower(), p.name.upper()]
    names = draw(st.lists(st.sampled_from(spellings + ["serviceKey", "crtfc_key", "unknownParam", "_type"]),
                          max_size=6, unique=True)) if spellings else []
    query = "&".join(f"{quote(n)}={quote(draw(VALUES))}" for n in names)
    host = draw(st.sampled_from([ep.host, *(ep.opt("host_aliases") or [])]))
    return SimRequest.from_url(f"https://{host}{_path_of(ep, draw)}" + (f"?{query}" if query else ""))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=requests_to(), values=st.lists(VALUES, min_size=6, max_size=6))
def test_a_plan_gives_the_canonical_form_of_every_request_of_its_shape(
    req: SimRequest, values: list[str]
) -> None:
    plan = identity_plan(req, CATALOG)
    if plan is None:
        return  # values choose the endpoint here: the resolver matches each request
    assert canonical_by_plan(plan, req.query) == canonical_request(req, CATALOG)
    # Another request of the same shape (same names, other values) reads by the same plan.
    other = SimRequest(req.method, req.host, req.path,
                       tuple((k, values[i % len(values)]) for i, (k, _v) in enumerate(req.query)))
    assert canonical_by_plan(plan, other.query) == canonical_request(other, CATALOG)


def test_most_shapes_have_a_plan_and_conditions_or_repeats_have_none() -> None:
    planned = [
        ep.id for ep in ENDPOINTS
        if "{" not in ep.path and not ep.match
        and identity_plan(SimRequest.from_url(f"https://{ep.host}{ep.path}?a=1"), CATALOG) is not None
    ]
    assert len(planned) > 0.9 * sum(1 for ep in ENDPOINTS if "{" not in ep.path and not ep.match)
    law = "https://www.law.go.kr/DRF/lawSearch.do?OC=k&target=law&query=x"
    assert identity_plan(SimRequest.from_url(law), CATALOG) is None  # `target` picks the endpoint
    repeated = "https://opendart.fss.or.kr/api/company.json?corp_code=1&corp_code=2"
    assert identity_plan(SimRequest.from_url(repeated), CATALOG) is None


EXACT = "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?_type=json&serviceKey={}"


def test_answers_by_plan_are_the_answers_without_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact hits, windows, queries, misses and errors: the same answers with plans as
    without, and a shape's later requests are read by its plan (no catalog match)."""
    build_demo_version(tmp_path)
    urls = [
        EXACT.format("k"),
        f"{STATIONS}?serviceKey=k&_type=json&cityCode=25&pageNo=2&numOfRows=10",   # a window
        f"{STATIONS}?_type=json&cityCode=25&nodeNm=%EB%8C%80%EC%A0%84%EC%97%AD",    # a query
        f"{STATIONS}?_type=json&cityCode=26",                                        # a strict miss
        f"{STATIONS}?_type=json&cityCode=25&cityCode=26",                            # a repeated name
        "https://www.law.go.kr/DRF/lawSearch.do?OC=k&target=law&type=JSON&query=x",  # no plan
        "https://nowhere.example/x?a=1",                                             # no endpoint
    ]
    planned = resolver_for(tmp_path, miss="strict", answer_memo_bytes=0)
    plain = resolver_for(tmp_path, miss="strict", answer_memo_bytes=0)
    monkeypatch.setattr(plain, "_planned_fingerprint", lambda req: None)
    for url in urls * 2:  # the second round: identities kept (a fingerprint alone, for some)
        a, b = planned.resolve(SimRequest.from_url(url)), plain.resolve(SimRequest.from_url(url))
        assert (a.source, a.status, a.headers, a.body) == (b.source, b.status, b.headers, b.body), url
        assert a.miss == b.miss

    matched: list[str] = []
    match = planned.catalog.match
    monkeypatch.setattr(planned.catalog, "match", lambda req: matched.append(req.path) or match(req))
    first = planned.resolve(SimRequest.from_url(EXACT.format("k2")))
    second = planned.resolve(SimRequest.from_url(EXACT.format("k3")))
    assert first.source == second.source == "exact"
    assert first.body == second.body
    assert matched == []  # the shape's plan was made in the first round
