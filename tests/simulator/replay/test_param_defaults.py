"""A parameter sent with its documented default value asks what leaving it out asks.

moleg-api's ``search_cases`` sends law.go.kr's ``search=1`` (the default scope, case names):
the request keyed a collection ``?search=1`` that no version records, and replay answered a
404 ``replay_miss`` where the real server answers as without it.
"""

from __future__ import annotations

import json

import pytest

from simulator import Resolver, Store
from simulator.catalog import Endpoint, Match, Param
from simulator.dialects import get_dialect
from simulator.request import SimRequest

PREC = ("https://www.law.go.kr/DRF/lawSearch.do?OC=k&target=prec&type=JSON"
        "&query=%EB%AA%85%EC%98%88%ED%9B%BC%EC%86%90")  # 명예훼손


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Resolver:
    cache = tmp_path_factory.getbasetemp() / "kopa-shipped-cache"
    cache.mkdir(exist_ok=True)
    return Resolver(Store(cache_dir=cache).open("kopa"))


def test_default_value_keys_like_an_absent_param() -> None:
    ep = Endpoint(id="demo", operation="x", summary="s", path="/x", dialect="lawgokr", params=[
        Param(name="q", role="filter"), Param(name="search", role="plain", default="1"),
        Param(name="mode", role="plain")])
    dialect = get_dialect(ep.dialect)
    key = lambda **params: dialect.key_filters(Match(ep, params))  # noqa: E731
    assert key(q="a", search="1") == key(q="a") == {"q": "a"}
    assert key(q="a", search="2") == {"q": "a", "search": "2"}  # another value still selects
    assert key(q="a", mode="1") == {"q": "a", "mode": "1"}  # no default declared: kept


def test_law_go_kr_search_1_replays_like_no_search(shipped: Resolver) -> None:
    plain = shipped.resolve(SimRequest.from_url(PREC))
    with_default = shipped.resolve(SimRequest.from_url(PREC + "&search=1"))
    assert plain.status == with_default.status == 200, with_default.body[:300]
    rows = json.loads(with_default.body)["PrecSearch"]["prec"]
    assert rows and all("명예훼손" in r["사건명"] for r in rows)
    assert with_default.body == plain.body
