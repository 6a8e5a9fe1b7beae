"""The query tier's equality index (``simulator.query.IndexedRecords``) answers exactly what a
scan of the whole collection (``apply_query``) answers, and the resolver's kept collections
give the same bytes as decoding every time."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import Resolver, SimRequest, Store, load_catalog
from simulator.catalog import Endpoint, FilterRule, Param, QuerySemantics
from simulator.query import IndexedRecords, apply_query
from simulator.tools import build_call

EP = Endpoint(
    id="demo_codes", operation="x", summary="s", path="/x",
    params=[Param(name=n, role="filter") for n in ("cd", "cd5", "nm", "since")],
    query=QuerySemantics(
        filters=[
            FilterRule(param="nm", field="name", op="contains"),
            FilterRule(param="cd", field="code"),
            FilterRule(param="cd5", field="code", transform="slice:0:2"),
            FilterRule(param="since", field="day", op="min"),
        ],
        order_by=["-day"],
    ),
)
codes = st.sampled_from(["11", "1111", "26", "2611", "", "41"])
records = st.lists(st.fixed_dictionaries({
    "code": codes, "name": st.sampled_from(["서울", "부산", "서울역", "수원"]), "day": st.sampled_from(["1", "2", "3"]),
}), max_size=30)
queries = st.dictionaries(st.sampled_from(["cd", "cd5", "nm", "since"]),
                          st.sampled_from(["11", "26", "1111", "서울", "2", ""]), max_size=3)


@settings(max_examples=200, deadline=None)
@given(recs=records, query=queries, again=queries)
def test_select_equals_a_scan(recs: list[dict[str, str]], query: dict[str, str], again: dict[str, str]) -> None:
    idx = IndexedRecords(recs)
    assert idx.select(EP, query) == apply_query(EP, recs, query)
    assert idx.select(EP, again) == apply_query(EP, recs, again)  # a built index is reused


def test_kept_collections_give_the_same_bytes(tmp_path: Path) -> None:
    version = Store(cache_dir=tmp_path).open("kopa", "v0001")
    catalog = load_catalog(tier="curated")
    kept = Resolver(version, catalog, answer_memo_bytes=0)
    fresh = Resolver(version, catalog, answer_memo_bytes=0, query_records_kept=0)
    schools = version.index.records(version.collections("neis_school_info")[0].id, 0, 3)
    calls = [("neis_school_info", {"SD_SCHUL_CODE": s["SD_SCHUL_CODE"]}) for s in schools]
    calls += [("neis_school_info", {"SD_SCHUL_CODE": "0000000"}), ("neis_school_info", {"LCTN_SC_NM": "부산광역시"})]
    calls += [("mois_stan_regin_cd", {"locatadd_nm": n}) for n in ("강남구", "해운대구", "강남구")]
    sources = set()
    for tool, args in calls:
        req = build_call(catalog, tool, args)
        assert isinstance(req, SimRequest)
        a, b = kept.resolve(req), fresh.resolve(req)
        assert (a.status, a.body) == (b.status, b.body), (tool, args)
        sources.add(a.header("x-sim-source"))
    assert sources == {"query"}
    assert len(kept._full) == 2 and len(fresh._full) == 0
