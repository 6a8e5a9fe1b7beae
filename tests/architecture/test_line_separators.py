"""JSON Lines are split at ``\\n`` only: a recorded string holding any Unicode line or
paragraph separator is published, opened, replayed (issue 15 §1)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import Resolver, SimRequest, SimResponse, Store, VersionBuilder, load_catalog
from tests.support.helpers import STATIONS, station_records

#: Every character ``str.splitlines`` splits at (and a few more a JSON string may hold raw).
SEPARATORS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

_TEXT = st.text(alphabet=st.sampled_from(SEPARATORS + "가a \\\""), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(_TEXT, min_size=1, max_size=4), body=_TEXT)
def test_separators_in_recorded_strings_publish_open_and_replay(tmp_path: Path, names: list[str], body: str) -> None:
    root = tmp_path / uuid.uuid4().hex
    store = Store(root, cache_dir=root / "cache")
    catalog = load_catalog()
    records = station_records(len(names))
    for rec, name in zip(records, names):
        rec["nodenm"] = name
    b = VersionBuilder(store, "kopa", catalog, parent=None)
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                     filters={"cityCode": "25"}, fmt="json", total=len(records), records=records)
    exact = SimRequest.from_url("https://example.go.kr/api/echo?q=1")
    payload = json.dumps({"echo": body}, ensure_ascii=False).encode("utf-8")
    b.add_interaction(exact, SimResponse(200, [("content-type", "application/json")], payload))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    assert store.verify("kopa") == []
    # A second version on top of it (the parent is read back through the same reader).
    VersionBuilder(store, "kopa", catalog).publish(recorded_at="2026-11-02T00:00:00Z", source="test", version="v0002")
    for version in ("v0001", "v0002"):
        resolver = Resolver(store.open("kopa", version))
        hit = resolver.resolve(SimRequest.from_url("https://example.go.kr/api/echo?q=1"))
        assert hit.status == 200 and hit.body == payload
        page = resolver.resolve(SimRequest.from_url(f"{STATIONS}?serviceKey=k&cityCode=25&nodeNm=&numOfRows=100&pageNo=1&_type=json"))
        assert page.status == 200, page.body[:300]
        items = json.loads(page.body)["response"]["body"]["items"]["item"]
        items = items if isinstance(items, list) else [items]
        assert [i["nodenm"] for i in items] == names


def test_checkpoint_lines_split_at_newline_only(tmp_path: Path) -> None:
    from simulator.record.recorder import Recorder

    text = "".join(json.dumps({"key": f"k{i}", "v": f"a{s}b"}, ensure_ascii=False) + "\n" for i, s in enumerate(SEPARATORS[2:]))
    path = tmp_path / "checkpoint.jsonl"
    path.write_text(text, encoding="utf-8")
    rec = Recorder.__new__(Recorder)
    rec.checkpoint, rec.done = path, {}
    assert rec._load_checkpoint() == len(SEPARATORS) - 2
