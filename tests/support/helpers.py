"""Small builders shared by tests (not fixtures: plain functions)."""

from __future__ import annotations

from pathlib import Path

from simulator import Resolver, SimRequest, SimResponse, Store, VersionBuilder, load_catalog


def station_records(n: int, city: str = "25") -> list[dict[str, object]]:
    return [
        {
            "gpslati": 36.3 + i / 1000,
            "gpslong": 127.4 + i / 1000,
            "nodeid": f"DJB{8001000 + i}",
            "nodenm": ("대전역" if i % 7 == 0 else "시청") + f"{i}",
            "nodeno": 40000 + i,
        }
        for i in range(n)
    ]


def build_demo_version(root: Path, n: int = 57, *, extra: bool = False) -> Store:
    """A version with one TAGO station collection (city 25, n records) and one exact hit."""
    store = Store(root)
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    b.add_collection(
        endpoint="tago_stations_by_name",
        key="tago_stations_by_name?cityCode=25",
        filters={"cityCode": "25"},
        fmt="json",
        total=n,
        records=station_records(n),
    )
    exact = SimRequest.from_url(
        "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?serviceKey=x&_type=json"
    )
    b.add_interaction(
        exact,
        SimResponse(200, [("content-type", "application/json;charset=UTF-8")],
                    '{"response":{"header":{"resultCode":"00","resultMsg":"NORMAL SERVICE."}}}'.encode()),
    )
    if extra:
        b.add_collection(
            endpoint="tago_stations_by_name",
            key="tago_stations_by_name?cityCode=34010",
            filters={"cityCode": "34010"},
            fmt="json",
            total=3,
            records=station_records(3, "34010"),
        )
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def resolver_for(root: Path, **kw: object) -> Resolver:
    return Resolver(Store(root).open("kopa"), **kw)  # type: ignore[arg-type]


STATIONS = "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"


def run_perf_quick(name: str, tmp_path: Path, timeout: int = 900) -> tuple[dict[str, object], str]:
    """Run ``python -m perf.NAME --quick`` into ``tmp_path`` beside another section of a
    ``RESULTS.md``: (the results JSON, the markdown file's text); fails on a non-zero exit."""
    import json
    import subprocess
    import sys

    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n<!-- edge:begin x -->\nedge numbers\n<!-- edge:end -->\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", f"perf.{name}", "--quick", "--out", str(tmp_path / "r"),
                           "--markdown", str(md)], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "r" / f"{name}.json").read_text(encoding="utf-8"))
    return doc, md.read_text(encoding="utf-8")
