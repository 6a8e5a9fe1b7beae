"""``simulator.tools``: one tool call and one paging for MCP, the bench, EDGE and training."""

from __future__ import annotations

import ast
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator import FaultConfig, Resolver, Store, Version, load_catalog
from simulator.catalog.generate.seeds import seed_params
from simulator.catalog.datagokr_families import family_for
from simulator.dialects.lawgokr import scrub_key
from simulator.tools import (
    DUMMY_KEY,
    PageFailed,
    ToolCaller,
    body_text,
    check_args,
    is_paged,
    page_args,
    read_pages,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def version(shipped_store: Store) -> Iterator[Version]:
    yield shipped_store.open("kopa")


def _style(ep) -> str:  # type: ignore[no-untyped-def]
    if ep.params_with_role("range_start"):
        return f"range base {int(ep.opt('range_base', 1))}"
    if ep.params_with_role("page"):
        return "page " + "/".join(p.name for p in ep.params if p.role in ("page", "page_size"))
    return "unpaged"


def _family_typed(ep, rows):  # type: ignore[no-untyped-def]
    """``rows`` with the digit strings of fields a data.go.kr family types as numbers made
    numbers: versions before the family table recorded a generated endpoint's TAGO ``citycode``
    or KASI ``locdate`` as strings, which the real services send as JSON numbers (issue 27)."""
    fam = family_for(ep.host, ep.path) if ep.dialect == "datagokr" and ep.fidelity != "curated" else None
    typed = {f.name for f in ep.fields if fam is not None and f.type != "string" and fam.type_of(f.name)}
    if not typed:
        return rows
    return [{k: int(v) if k in typed and isinstance(v, str) and re.fullmatch(r"-?(0|[1-9][0-9]*)", v) else v
             for k, v in r.items()} for r in rows]


def test_every_collection_endpoint_reads_back_whole_through_the_tool_layer(version: Version) -> None:
    """For every endpoint with a collection in the shipped version, its largest collection read
    through ``read_pages`` in three or more pages gives exactly the recorded records, in order,
    in the format models are shown (record format) and in the platform's default format."""
    catalog = load_catalog()
    record, native = ToolCaller(Resolver(version, catalog)), ToolCaller(Resolver(version, catalog), fmt="native")
    by_endpoint: dict[str, object] = {}
    for info in version.index.collections():
        best = by_endpoint.get(info.endpoint)
        if best is None or (info.count, info.key) > (best.count, best.key):  # type: ignore[attr-defined]
            by_endpoint[info.endpoint] = info
    styles: dict[str, int] = {}
    checked = 0
    for eid, info in sorted(by_endpoint.items()):
        ep = catalog.endpoint(eid)
        want = version.index.records(info.id, 0, info.count)  # type: ignore[attr-defined]
        size = max(1, min(ep.max_page_size, len(want) // 3))  # three pages or more
        for caller in (record, native):
            args = {**seed_params(ep), **info.filters}  # type: ignore[attr-defined]  # + required, unkeyed (TourAPI's MobileOS)
            got = read_pages(lambda a, c=caller: c.call(eid, a), ep, args, size,  # type: ignore[misc]
                             max_pages=len(want) + 2)
            assert len(got.records) == len(want), (eid, caller.fmt, len(got.records), len(want))
            # law.go.kr links carry the caller's OC key: recorded redacted, rendered as a
            # placeholder (the dialect's rule); everything else is the recorded record.
            if caller.fmt == "record":  # (the default format, XML for many, carries text)
                # (read as XML they stay strings; as JSON they are the family's numbers)
                assert scrub_key(got.records) in (scrub_key(want), scrub_key(_family_typed(ep, want))), eid
            sized = ep.params_with_role("page_size") or ep.params_with_role("range_start")
            if is_paged(ep) and sized and len(want) >= 3:  # (law.go.kr targets without a page size: one page)
                assert len(got.pages) >= 3, (eid, len(got.pages))
        styles[_style(ep)] = styles.get(_style(ep), 0) + 1
        checked += 1
    # v0006: every tool of the full catalog that a real value can key (2,352; the 344 without
    # are listed in docs/seeds-v0006.md; test_every_tool checks which)
    assert checked == len(by_endpoint) >= 2352
    assert {"range base 0", "range base 1", "unpaged"} <= set(styles), styles
    assert {"page pageNo/numOfRows", "page page_no/page_count", "page pIndex/pSize"} <= set(styles), styles


def test_seoul_subway_arrivals_reads_four_of_four(version: Version) -> None:
    """``range_base: 0``: the first page starts at index 0 (the old copies started at 1 and
    silently lost a record)."""
    catalog = load_catalog()
    ep = catalog.endpoint("seoul_subway_arrivals")
    caller = ToolCaller(Resolver(version, catalog))
    # Stations whose recorded arrivals are four (v0008 also records 강남, which has eight).
    colls = [c for c in version.index.collections("seoul_subway_arrivals") if c.count == 4]
    assert len(colls) >= 5
    for info in colls[:5]:
        want = version.index.records(info.id, 0, info.count)
        for size in (1, 3, 4, 100):
            got = read_pages(lambda a: caller.call(ep.id, a), ep, info.filters, size)
            assert got.records == want and got.total == 4, (info.key, size)
    want = version.index.records(colls[0].id, 0, colls[0].count)
    assert page_args(ep, 0, 3) == {"START_INDEX": "0", "END_INDEX": "2"}
    assert page_args(ep, 1, 3) == {"START_INDEX": "3", "END_INDEX": "5"}
    # A model that leaves the range out reads the first page (default size) from index 0.
    first = caller.call(ep.id, {"statnNm": colls[0].filters["statnNm"]})
    assert first.ok and first.offset == 0 and first.records == want[: ep.default_page_size]
    assert check_args(ep, {"statnNm": "서울"})[0] == {
        "statnNm": "서울", "START_INDEX": "0", "END_INDEX": str(ep.default_page_size - 1)}


def test_page_args_follow_each_style() -> None:
    cat = load_catalog()
    assert page_args(cat.endpoint("seoul_public_library"), 2, 10) == {"START_INDEX": "21", "END_INDEX": "30"}
    assert page_args(cat.endpoint("tago_city_codes"), 0, 50) in (
        {"pageNo": "1", "numOfRows": "50"}, {})
    neis = next(e for e in cat.endpoints.values() if e.params_with_role("page")
                and e.params_with_role("page")[0].name == "pIndex")
    assert page_args(neis, 1, 7) == {"pIndex": "2", "pSize": "7"}
    with pytest.raises(ValueError, match="size=0"):
        page_args(neis, 0, 0)


def test_a_call_refuses_bad_arguments_with_what_it_takes(version: Version) -> None:
    caller = ToolCaller(Resolver(version))
    bad = caller.call("seoul_subway_arrivals", {"station": "서울"})
    assert not bad.ok and bad.status == 400 and bad.request is None
    assert "unknown argument(s) station; takes START_INDEX, END_INDEX, statnNm" in bad.text
    unknown = caller.call("no_such_tool", {})
    assert unknown.status == 404 and unknown.error == "unknown tool 'no_such_tool'"
    assert caller.requests == 0


def test_a_read_needing_too_many_pages_fails_loudly(version: Version) -> None:
    catalog = load_catalog()
    caller = ToolCaller(Resolver(version, catalog))
    info = max(version.index.collections("molit_apt_trades"), key=lambda c: c.count)
    ep = catalog.endpoint("molit_apt_trades")
    assert is_paged(ep) and info.count > 10
    with pytest.raises(PageFailed, match="need more than 2 pages"):
        read_pages(lambda a: caller.call(ep.id, a), ep, info.filters, 5, max_pages=2)
    first = read_pages(lambda a: caller.call(ep.id, a), ep, info.filters, 5, first_page_only=True)
    assert len(first.records) == 5 and len(first.pages) == 1 and first.total == info.count


def test_faults_apply_below_the_memo(version: Version) -> None:
    """A faulted resolver: the same call at different call indexes faults exactly where the
    seeded choice says, and a faulted answer is never remembered for a later call."""
    faults = FaultConfig(seed=3, rate=0.5, kinds=("server_error",))
    caller = ToolCaller(Resolver(version, faults=faults))
    args = {"cityCode": "25"} if "cityCode" in {p.name for p in load_catalog().endpoint("tago_city_codes").params} else {}
    seen = []
    for i in range(12):
        obs = caller.call("tago_city_codes", args, episode="ep-1", call_index=i)
        seen.append(obs.ok)
        assert (obs.source == "fault") == (faults.choose("ep-1", i) is not None), i
    assert True in seen and False in seen
    clean = ToolCaller(Resolver(version))
    assert clean.call("tago_city_codes", args).records == next(
        caller.call("tago_city_codes", args, episode="ep-1", call_index=i)
        for i in range(12) if faults.choose("ep-1", i) is None).records


def test_zip_bodies_are_unzipped_once_for_models() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("CORPCODE.xml", '<?xml version="1.0" encoding="UTF-8"?><result><corp_name>삼성</corp_name></result>')
    text = body_text(buf.getvalue())
    assert text.startswith("[ZIP archive of") and "<corp_name>삼성</corp_name>" in text


def test_a_callers_memo_is_bounded(version: Version) -> None:
    caller = ToolCaller(Resolver(version), memo_size=3)
    for i in range(10):
        caller.call("mois_stan_regin_cd", {"locatadd_nm": f"서울특별시 {i}"})
    assert len(caller.memo) == 3 and caller.requests == 10
    caller.call("mois_stan_regin_cd", {"locatadd_nm": "서울특별시 9"})
    assert caller.requests == 10  # a kept answer: no new request


def test_mcp_tool_calls_go_through_the_tool_layer(version: Version) -> None:
    pytest.importorskip("mcp")
    from simulator.server.mcp import call_tool

    subway = version.index.collections("seoul_subway_arrivals")[0]
    out = call_tool(Resolver(version), "seoul_subway_arrivals", {"statnNm": subway.filters["statnNm"]})
    assert not out.error and out.source in ("window", "exact", "query")
    zipped = call_tool(Resolver(version), "opendart_corp_codes", {})
    assert zipped.text.startswith("[ZIP archive of") and "corp_code" in zipped.text


#: The modules that used to build requests, page or sniff bodies themselves.
USERS = ["simulator/server/mcp.py", "bench/kopa/env.py", "bench/kopa/execute.py", "edge/verify.py",
         "edge/synth/execute.py", "train/env.py"]


@pytest.mark.parametrize("path", USERS)
def test_no_user_keeps_its_own_tool_call_or_paging(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        a.attr for a in ast.walk(tree) if isinstance(a, ast.Attribute)}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not ({"build_request", "sniff_format", "range_base"} & (names | imported)), path
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert "range_base" not in strings and "PK\x03\x04" not in strings, path
    assert DUMMY_KEY not in strings or path == "simulator/server/mcp.py", path
