"""vcrpy cassettes ↔ versions: a real vcrpy recording is imported, exported and replayed by vcrpy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import vcr
import yaml
from typer.testing import CliRunner
from vcr.errors import CannotOverwriteExistingCassetteException

from simulator import Resolver, SimRequest, Store, load_catalog
from simulator.cli import app
from simulator.sandbox import create_app
from simulator.vcr import VcrError, export_vcr, import_vcr, kopa_vcr_config, read_cassette

from tests.support.loopback import serve_in_thread

STATIONS = "apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList"
CITIES = "apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList"
KEY = "sandbox-tago"  # the sandbox's key for TAGO


def _stations(city: str, page: int, size: int, **extra: str) -> dict[str, Any]:
    return {"serviceKey": KEY, "cityCode": city, "pageNo": page, "numOfRows": size, "_type": "json", **extra}


def _items(body: bytes) -> tuple[list[dict[str, Any]], int]:
    b = json.loads(body)["response"]["body"]
    items = b["items"]["item"] if b["items"] else []
    return (items if isinstance(items, list) else [items]), int(b["totalCount"])


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A vcrpy cassette recorded by vcrpy itself from httpx and requests calls to the sandbox.

    The sandbox is served on loopback as ``/{upstream-host}/{path}``; a ``before_record_request``
    writes each request back to its upstream URL (and vcrpy filters the key), so the cassette
    reads exactly as one recorded against the real API.
    """
    out = tmp_path_factory.mktemp("vcr") / "recorded.yaml"
    expected: dict[str, bytes] = {}
    # world edition 2: city 25 has the 900 stops this test pages through (edition 3 has 3,120)
    with serve_in_thread(create_app(seed=0, edition=2)) as base:

        def to_upstream(request: Any) -> Any:
            if request.uri.startswith(base + "/"):
                request.uri = "https://" + request.uri[len(base) + 1 :]
            return request

        recorder = vcr.VCR(
            before_record_request=to_upstream,
            filter_query_parameters=[("serviceKey", "REDACTED")],
            decode_compressed_response=True,
        )
        with recorder.use_cassette(str(out), record_mode="all"):
            with httpx.Client() as client:
                # city 25: every page of 900 stops, 300 a page → a complete collection
                first = client.get(f"{base}/{STATIONS}", params=_stations("25", 1, 300))
                _, total = _items(first.content)
                for page in range(2, -(-total // 300) + 1):
                    client.get(f"{base}/{STATIONS}", params=_stations("25", page, 300))
                # city 12: the first page only → exact interactions, no collection
                client.get(f"{base}/{STATIONS}", params=_stations("12", 1, 10))
            with requests.Session() as session:
                r = session.get(f"{base}/{CITIES}", params={"serviceKey": KEY, "_type": "json"})
                assert r.status_code == 200
        # what the upstream itself answers for pages and filters never recorded
        with httpx.Client() as client:
            expected["window"] = client.get(f"{base}/{STATIONS}", params=_stations("25", 5, 7)).content
            expected["query"] = client.get(
                f"{base}/{STATIONS}", params=_stations("25", 1, 50, nodeNm="아파트")
            ).content
    return {"path": out, "total": total, "expected": expected}


def _imported(recording: dict[str, Any], root: Path, *, keep_pages: bool = False) -> Store:
    store = Store(root)
    import_vcr([recording["path"]], store, "kopa", load_catalog(), parent=None, keep_pages=keep_pages)
    return store


def test_the_recording_is_a_real_vcrpy_cassette(recording: dict[str, Any]) -> None:
    data = yaml.safe_load(recording["path"].read_text(encoding="utf-8"))
    assert data["version"] == 1
    uris = [i["request"]["uri"] for i in data["interactions"]]
    assert len(uris) == 3 + 1 + 1 and recording["total"] == 900
    assert all(u.startswith("https://apis.data.go.kr/") and "sandbox-tago" not in u for u in uris)
    assert KEY not in recording["path"].read_text(encoding="utf-8")


def test_import_folds_complete_pages_into_a_collection_and_keeps_the_rest_exact(
    recording: dict[str, Any], cassette_root: Path
) -> None:
    store = _imported(recording, cassette_root)
    v = store.open("kopa")
    m = v.manifest
    assert m.source == "imported"
    # the 3 station pages of city 25 and the one city-list page fold into their collections,
    # as a recording stores them; city 12's lone page stays exact
    assert (m.info["interactions_imported"], m.info["pages_folded"]) == (1, 4)
    assert sum(c.interactions for c in m.endpoints.values()) == 1
    # city codes: one page, not full, no reported total → all of it
    assert m.info["collections_added"] == ["tago_city_codes", "tago_stations_by_name?cityCode=25"]
    assert m.info["collections_incomplete"] == ["tago_stations_by_name?cityCode=12"]
    coll = {c.key: c for c in v.collections()}["tago_stations_by_name?cityCode=25"]
    assert (coll.total, coll.count) == (900, 900)

    resolver = Resolver(v)
    recorded = read_cassette(recording["path"])
    for req, resp in recorded:  # whatever key the caller sends: the recorded page, folded or exact
        keyed = SimRequest.from_url(req.url.replace("REDACTED", "some-other-key"))
        got = resolver.resolve(keyed)
        exact = "cityCode=12" in req.url
        assert (got.header("x-sim-source"), got.status) == ("exact" if exact else "window", 200)
        assert json.loads(got.body) == json.loads(resp.body)
        if exact:
            assert got.body == resp.body

    # window tier: a page size never recorded, answered as the upstream answers it
    page = resolver.resolve(SimRequest.from_url(f"https://{STATIONS}?" + _qs(_stations("25", 5, 7))))
    assert page.header("x-sim-source") == "window"
    assert _items(page.body) == _items(recording["expected"]["window"])
    # query tier: a filter never recorded
    q = resolver.resolve(
        SimRequest.from_url(f"https://{STATIONS}?" + _qs(_stations("25", 1, 50, nodeNm="아파트")))
    )
    assert q.header("x-sim-source") == "query"
    assert _items(q.body) == _items(recording["expected"]["query"])
    assert _items(q.body)[1] > 0
    # the incomplete collection answers its recorded page only
    miss = resolver.resolve(SimRequest.from_url(f"https://{STATIONS}?" + _qs(_stations("12", 2, 10))))
    assert miss.header("x-sim-source") == "miss"


def _qs(params: dict[str, Any]) -> str:
    return str(httpx.QueryParams(params))


def test_round_trip_vcrpy_replays_the_export_with_the_same_bodies(
    recording: dict[str, Any], cassette_root: Path, tmp_path: Path
) -> None:
    store = _imported(recording, cassette_root, keep_pages=True)
    v = store.open("kopa")
    assert v.manifest.info["interactions_imported"] == 5 and v.manifest.info["pages_folded"] == 0
    out = tmp_path / "export.yaml"
    result = export_vcr(v, load_catalog(), out)
    assert result.exact == 5
    # 900 stops at max page size 1000: one new request, and the plain request (no paging
    # params: the API's default first page); the city list is already exact
    assert result.collection_pages == 2
    text = out.read_text(encoding="utf-8")
    assert "serviceKey=REDACTED" in text and KEY not in text

    recorded = read_cassette(recording["path"])
    my_key = "my-own-key-123"
    with vcr.use_cassette(str(out), **kopa_vcr_config()):
        with httpx.Client() as client:
            for req, resp in recorded:
                url = req.url.replace("REDACTED", my_key)
                got = client.get(url)
                assert got.status_code == 200 and got.content == resp.body
            # the collection's page at the max page size, as the resolver renders it
            whole = client.get(f"https://{STATIONS}", params=_stations("25", 1, 1000) | {"serviceKey": my_key})
            records, total = _items(whole.content)
            assert total == 900 and len(records) == 900
            with pytest.raises(CannotOverwriteExistingCassetteException):
                client.get(f"https://{STATIONS}", params=_stations("25", 9, 3))
        with requests.Session() as session:
            req, resp = recorded[-1]
            got = session.get(req.url.replace("REDACTED", my_key))
            assert got.content == resp.body
    # and the export imports again to the same data
    again = Store(tmp_path / "again")
    m = import_vcr([out], again, "kopa", load_catalog(), parent=None)
    assert m.info["collections_added"] == ["tago_city_codes", "tago_stations_by_name?cityCode=25"]
    v2 = again.open("kopa")
    for c1, c2 in zip(v.collections(), v2.collections(), strict=True):
        assert (c1.key, c1.total) == (c2.key, c2.total)
        assert v2.index.records(c2.id, 0, c2.count) == v.index.records(c1.id, 0, c1.count)


def _cassette(tmp_path: Path, **response: Any) -> Path:
    body = {"string": '{"response":{}}'}
    data = {
        "version": 1,
        "interactions": [
            {
                "request": {"body": None, "headers": {}, "method": "GET",
                            "uri": f"https://{CITIES}?serviceKey=REDACTED&_type=json"},
                "response": {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": body}
                | response,
            }
        ],
    }
    p = tmp_path / "c.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def test_compressed_bodies_and_other_formats_are_refused_with_a_reason(tmp_path: Path) -> None:
    p = _cassette(tmp_path, headers={"Content-Encoding": ["gzip"]}, body={"string": b"\x1f\x8b\x08"})
    with pytest.raises(VcrError, match="gzip-encoded.*decode_compressed_response"):
        read_cassette(p)
    p.write_text(p.read_text().replace("version: 1", "version: 2"))
    with pytest.raises(VcrError, match="format version 2"):
        read_cassette(p)


def test_bytes_bodies_are_read(tmp_path: Path) -> None:
    p = _cassette(tmp_path, body={"string": "한글".encode("utf-8")})
    assert "!!binary" in p.read_text()
    ((req, resp),) = read_cassette(p)
    assert resp.body == "한글".encode("utf-8") and req.host == "apis.data.go.kr"


def test_cli_import_then_export(recording: dict[str, Any], cassette_root: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["vcr", "import", str(recording["path"]), "--cassettes", str(cassette_root)])
    assert r.exit_code == 0, r.output
    assert "1 interactions, 2 collections (4 pages folded into them)" in r.output
    out = tmp_path / "out.yaml"
    r = runner.invoke(app, ["vcr", "export", str(out), "--cassettes", str(cassette_root), "--max-pages", "1"])
    assert r.exit_code == 0, r.output
    # 1 exact; the stations' page at the max size and their plain request; the city list
    # (no paging parameters) once
    assert len(read_cassette(out)) == 4
