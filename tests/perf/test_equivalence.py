"""The hot-path shortcuts of issue 9 give exactly what the plain code they replace gives.

Each fast path (orjson writing and reading JSON, memoised header conversion, the quick query
split, the datagokr row plan, the builder's text-held collections, line-streamed verification)
is compared with the standard-library or straightforward form it stands in for, on generated
inputs that include the cases where the two could differ (small floats, NaN, huge integers,
line separators inside strings).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.catalog import load_catalog
from simulator.dialects.base import json_bytes
from simulator.dialects.datagokr import DataGoKrDialect, _json_value
from simulator.server.app import _decoded_headers, _encoded_headers
from simulator.request import parse_query
from simulator.store.builder import _Collections
from simulator.store.index import _decode_records, _verified_lines, collection_lines
from simulator.store.manifest import Manifest
from simulator.cache import BoundedCache
from simulator.transports.httpx_transport import _headers_of

# Text with the characters where writers and line splitters differ.
_TEXT = st.lists(
    st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(["\u2028", "\u2029", "\x85", "\x1c", "\r", "\n", "/", '"', "\\", "e-", "0.0000", "null"]),
    ),
    max_size=8,
).map("".join)
_FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-3, max_value=1e-3),
    st.sampled_from([1e-05, 1e-7, 1e16, 1.5e300, -0.0, 0.1, 1e-4]),
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    _FLOATS,
    _TEXT,
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=20,
)


def _reference_dump(obj: Any, escape_slash: bool) -> bytes:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("/", "\\/") if escape_slash else text).encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(obj=st.one_of(st.lists(_JSON, max_size=4), st.dictionaries(_TEXT, _JSON, max_size=5)), slash=st.booleans())
def test_json_bytes_is_json_dumps(obj: Any, slash: bool) -> None:
    assert json_bytes(obj, escape_slash=slash) == _reference_dump(obj, slash)


def test_json_bytes_small_floats_and_specials() -> None:
    for value in (1e-05, 3.0e-5, 1.8778781534757888e-08, float("nan"), float("inf"), -math.inf, 2**64, 1e16):
        obj = {"v": [value], "s": "가/나"}
        assert json_bytes(obj) == _reference_dump(obj, False)
        assert json_bytes(obj, escape_slash=True) == _reference_dump(obj, True)


@settings(max_examples=100, deadline=None)
@given(records=st.lists(st.dictionaries(_TEXT, _JSON, max_size=5), max_size=6))
def test_decode_records_is_json_loads(records: list[dict[str, Any]]) -> None:
    texts = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records]
    got = _decode_records(texts)
    want = [json.loads(t) for t in texts]
    # NaN != NaN: compare the re-encoded forms (which keep every value, NaN included).
    assert json.dumps(got) == json.dumps(want)
    assert [type(x) for x in got] == [type(x) for x in want]


def test_decode_records_huge_integers_fall_back() -> None:
    for big in (2**80, 2**64, -(2**63) - 1, 10**18):
        texts = ['{"a":1}', '{"b":' + str(big) + "}", '{"c":NaN}', '{"d":1e400}']
        got = _decode_records(texts)
        assert got[1]["b"] == big and type(got[1]["b"]) is int
        assert math.isnan(got[2]["c"]) and got[3]["d"] == math.inf


def test_datagokr_rows_match_the_per_field_conversion() -> None:
    """The row plan converts exactly the values the per-field comprehension converts."""
    cat = load_catalog()
    dialect = DataGoKrDialect()
    eps = [ep for ep in cat.endpoints.values() if ep.dialect == "datagokr" and ep.fields]
    assert any(any(f.type in ("integer", "number", "boolean") for f in ep.fields) for ep in eps)
    samples = ["12", "-3", "1.5", "007", "true", "false", "x", " ", "", "1,000", "1e5"]
    for ep in eps:
        types = {f.name: f.type for f in ep.fields}
        coerce = bool(ep.opt("coerce_numbers", False))
        names = [*types, "unknownField"]
        records = [
            {n: (samples[(i + j) % len(samples)] if j % 4 else 5) for j, n in enumerate(names)}
            for i in range(len(samples))
        ]
        want = [{k: _json_value(v, types.get(k), coerce) for k, v in r.items()} for r in records]
        got = dialect._json_rows(ep, records)
        assert json.dumps(got) == json.dumps(want), ep.id
        assert [list(r) for r in got] == [list(r) for r in want], ep.id


@settings(max_examples=100, deadline=None)
@given(pairs=st.lists(st.tuples(st.text("ab=&+% %2Bx가", max_size=5), st.text("ab=+%20가&", max_size=5)), max_size=5),
       extra=st.sampled_from(["", "&", "&&", "a", "=x", "&b="]))
def test_parse_query_is_parse_qsl(pairs: list[tuple[str, str]], extra: str) -> None:
    raw = "&".join(f"{k}={v}" for k, v in pairs) + extra
    assert parse_query(raw) == tuple(parse_qsl(raw, keep_blank_values=True))


def test_header_memos_give_the_plain_conversion() -> None:
    memo: dict = {}
    decoded: BoundedCache = BoundedCache(8)
    encoded: BoundedCache = BoundedCache(8)
    for headers in (
        [("Host", "x.invalid"), ("X-Sim-Episode", "ep1"), ("x-sim-episode", "ep2")],
        [(b"Accept", b"*/*"), (b"User-Agent", b"t\xc3\xa9st")],
        [],
    ):
        h = httpx.Headers(headers)
        for _ in range(2):  # the second call answers from the memo
            assert _headers_of(h, memo) == tuple((k.lower(), v) for k, v in h.items())
    raw = [(b"host", b"127.0.0.1"), (b"X-Sim-Episode", b"\xe9p")]
    for _ in range(2):
        assert _decoded_headers(raw, decoded) == tuple((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in raw)
    out = [("content-type", "text/xml"), ("x-sim-source", "window")]
    for _ in range(2):
        assert list(_encoded_headers(out, encoded)) == [(k.encode("latin-1"), v.encode("latin-1")) for k, v in out]


def test_builder_collections_read_back_what_was_stored() -> None:
    entry = {
        "key": "ep?a=1",
        "endpoint": "ep",
        "filters": {"a": "1"},
        "fmt": "json",
        "total": 3,
        "envelope": {"x": [1, 2.5, None]},
        "records": [
            {"f": "line\u2028sep\x85", "g": 1.5e-07},
            {"f": "b", "g": 2},
            {"other": "shape", "f": "c"},
        ],
        "cardinality": {"f": 3},
    }
    colls = _Collections()
    colls["ep?a=1"] = entry
    got = colls["ep?a=1"]
    assert got == entry
    assert set(colls) == {"ep?a=1"} and len(colls) == 1 and "ep?a=1" in colls
    assert colls.text("ep?a=1") == ("ep", 3, "".join(collection_lines(entry)))
    del colls["ep?a=1"]
    assert not colls


def test_verified_lines_split_at_newline_only(tmp_path: Path) -> None:
    """JSON Lines' own lines: ``\n`` only (``str.splitlines`` also split at U+2028, U+0085,
    ``\r`` … inside strings, which once wedged a published set)."""
    text = 'a\r\nb\n\n{"x":"\u2028"}\rc\x85d\n\ne'
    data = text.encode("utf-8")
    (tmp_path / "collections").mkdir()
    (tmp_path / "collections" / "p.jsonl").write_bytes(data)
    manifest = Manifest(
        set="s", version="v1", seq=1, parent=None, recorded_at="2026-01-01T00:00:00Z",
        source="test", content_hash="0" * 64,
        files={"collections/p.jsonl": hashlib.sha256(data).hexdigest()}, endpoints={}, info={},
    )
    got = [(n, line) for _p, n, line in _verified_lines(tmp_path, manifest, "collections")]
    want = [(n, line.rstrip("\r")) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    assert got == want


def test_answer_memo_gives_the_rendered_bytes(tmp_path: Path) -> None:
    """A repeated window or query answer is byte for byte the freshly rendered one (headers
    and their order included), with and without faults, and the memo keeps to its budget."""
    from simulator import Resolver, SimRequest, Store
    from simulator.dialects import get_dialect
    from simulator import build_request
    from simulator.resolve import FaultConfig

    store = Store(Path(__file__).resolve().parents[2] / "cassettes", cache_dir=tmp_path / "cache")
    version = store.open("kopa")
    catalog = load_catalog()
    urls = []
    for c in version.index.collections()[:60]:
        ep = catalog.endpoints.get(c.endpoint)
        if ep is None:
            continue
        for fmt in ("json", "xml"):
            first = get_dialect(ep.dialect).page_requests(ep, c.filters, 1, fmt)[0]
            urls.append(build_request(ep, first, key="KEY", scheme="https").url)
    assert len(urls) > 50
    for faults in (None, FaultConfig(seed=3, rate=0.5)):
        fresh = Resolver(version, catalog, faults=faults, answer_memo_bytes=0)
        memo = Resolver(version, catalog, faults=faults, answer_memo_bytes=64 << 10)
        sources = set()
        for rep in range(2):
            for i, url in enumerate(urls):
                a = fresh.resolve(SimRequest.from_url(url), episode="e", call_index=i)
                b = memo.resolve(SimRequest.from_url(url), episode="e", call_index=i)
                assert (a.status, a.headers, a.body) == (b.status, b.headers, b.body), url
                sources.add(b.header("x-sim-source"))
        assert "window" in sources
        assert memo._answers and memo._answers.weight <= 64 << 10
        assert not fresh._answers
