"""Slow work never holds up the event loop: ``/_sim/health`` answers fast while large misses
are diagnosed (issue 15 §6), over a real socket."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx

from simulator import Resolver, SimRequest, SimResponse, Store, VersionBuilder, load_catalog
from simulator.server import create_app
from tests.support.loopback import serve_in_thread

STATIONS = "/apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"


def _big_version(root: Path) -> Store:
    """2,000 exact interactions of one endpoint with long queries: a miss has much to compare."""
    store = Store(root / "c", cache_dir=root / "cache")
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    for i in range(2000):
        url = f"https://apis.data.go.kr{STATIONS.removeprefix('/apis.data.go.kr')}?cityCode={i}&nodeNm={'역' * 200}{i}&_type=json"
        b.add_interaction(SimRequest.from_url(url), SimResponse(200, [("content-type", "application/json")], b"{}"))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def test_health_stays_fast_under_eight_slow_misses(tmp_path: Path) -> None:
    store = _big_version(tmp_path)
    app = create_app(Resolver(store.open("kopa")))
    with serve_in_thread(app) as base:
        big = "&".join(f"p{i}={'x' * 90}" for i in range(150))  # ~14 KB of query
        assert 13_000 < len(big) < 16_000
        statuses: list[int] = []
        worst = 0.0

        def miss() -> None:
            with httpx.Client(base_url=base, timeout=120) as c:
                for _ in range(3):
                    statuses.append(c.get(f"{STATIONS}?cityCode=99999&nodeNm=zz&{big}").status_code)

        threads = [threading.Thread(target=miss) for _ in range(8)]
        for t in threads:
            t.start()
        with httpx.Client(base_url=base, timeout=60) as c:
            while any(t.is_alive() for t in threads):
                t0 = time.perf_counter()
                assert c.get("/_sim/health").status_code == 200
                worst = max(worst, time.perf_counter() - t0)
                time.sleep(0.01)
        for t in threads:
            t.join()
    assert statuses == [404] * 24
    assert worst < 2.0, f"/_sim/health took {worst:.2f} s under 8 concurrent slow misses"
