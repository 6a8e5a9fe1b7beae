"""Any endpoint recorded and replayed: an unknown path on a known platform host is inferred
from the platform's dialect (pages replay as windows), any other host replays exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator import Resolver, Store, VersionBuilder
from simulator.catalog import DATA_DIR, Catalog, load_catalog, load_platform_file
from simulator.catalog.infer import is_inferred
from simulator.record import LiveClient
from simulator.record.plan import Plan
from simulator.record.recorder import Recorder
from simulator.request import SimRequest, SimResponse

from tests.support.loopback import serve_in_thread
from tests.support.standin import SILV, StandIn



def test_unknown_path_on_a_known_host_is_inferred_from_its_platform() -> None:
    cat = load_catalog()
    m = cat.infer(SimRequest.from_url(SILV + "?serviceKey=k&LAWD_CD=11680&DEAL_YMD=202607&pageNo=2"))
    assert m is not None and is_inferred(m.endpoint)
    ep = m.endpoint
    assert ep.platform == "molit" and ep.dialect == "datagokr" and ep.id.startswith("inferred_molit_")
    assert {p.role for p in ep.params} >= {"auth", "page", "page_size", "format"}
    assert m.params["LAWD_CD"] == "11680" and m.params["pageNo"] == "2"
    assert cat.infer(SimRequest.from_url("https://example.org/x")) is None  # unknown host
    # The id is a pure function of host and path: a fresh catalog infers the same endpoint.
    fresh = Catalog([load_platform_file(p) for p in sorted(DATA_DIR.glob("*.yaml"))])
    assert fresh.infer(SimRequest.from_url(SILV + "?serviceKey=other")).endpoint.id == ep.id  # type: ignore[union-attr]
    assert cat.endpoint(ep.id) is ep


@pytest.fixture
def recorded(tmp_path: Path) -> Iterator[Store]:
    cat = load_catalog()
    store = Store(tmp_path / "cass", cache_dir=tmp_path / "cache")
    with serve_in_thread(StandIn()) as base, LiveClient(cat, {"molit": "live-key"}, upstream=base,
                                                         rate_per_sec={"default": 0.0}) as client:
        rec = Recorder(Plan(set="mine"), store=store, catalog=cat, client=client, source="sandbox")
        ep = cat.infer(SimRequest.from_url(SILV)).endpoint  # type: ignore[union-attr]
        entry = rec.record_collection(ep, {"LAWD_CD": "11680", "DEAL_YMD": "202607"})
        assert entry["total"] == 23 and len(entry["records"]) == 23 and client.calls == 1
    b = VersionBuilder(store, "mine", cat, parent=None)
    b.add_collection(endpoint=entry["endpoint"], key=entry["key"], filters=entry["filters"], fmt=entry["fmt"],
                     total=entry["total"], records=entry["records"], envelope=entry["envelope"])
    b.add_interaction(SimRequest.from_url("https://example.org/api/thing?id=7"),
                      SimResponse(200, [("content-type", "application/json")], b'{"id":7}'))
    b.publish(recorded_at="2026-01-01T00:00:00Z", source="sandbox")
    yield store


def test_recorded_inferred_collection_answers_pages_never_requested(recorded: Store) -> None:
    r = Resolver(recorded.open("mine"))
    resp = r.resolve(SimRequest.from_url(
        SILV + "?serviceKey=k&LAWD_CD=11680&DEAL_YMD=202607&pageNo=3&numOfRows=5"
    ))
    assert resp.status == 200, resp.body[:300]
    assert resp.header("x-sim-source") == "window" and resp.header("x-sim-endpoint") == "inferred"
    body = resp.body.decode()
    assert "단지10" in body and "단지14" in body and "단지15" not in body and "<totalCount>23</totalCount>" in body
    miss = r.resolve(SimRequest.from_url(SILV + "?serviceKey=k&LAWD_CD=11110&DEAL_YMD=202607"))
    assert miss.status == 404 and miss.header("x-sim-endpoint") == "inferred"
    assert json.loads(miss.body)["error"]["type"] == "replay_miss"


def test_other_hosts_replay_exactly_and_go_live_in_live_mode(recorded: Store) -> None:
    version = recorded.open("mine")
    r = Resolver(version)
    hit = r.resolve(SimRequest.from_url("https://example.org/api/thing?id=7"))
    assert hit.status == 200 and hit.body == b'{"id":7}' and hit.header("x-sim-source") == "exact"
    other = r.resolve(SimRequest.from_url("https://example.org/api/thing?id=8"))
    assert other.status == 404 and json.loads(other.body)["error"]["type"] == "unknown_endpoint"
    seen: list[str] = []

    def forward(req: SimRequest) -> SimResponse:
        seen.append(req.url)
        return SimResponse(200, [("content-type", "text/plain")], b"live")

    live = Resolver(version, miss="live", live=forward)
    got = live.resolve(SimRequest.from_url("https://example.org/api/thing?id=8"))
    assert got.body == b"live" and got.header("x-sim-source") == "live"
    assert seen == ["https://example.org/api/thing?id=8"]
