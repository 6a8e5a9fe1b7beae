"""MOIS 행정안전통계연보 services answer in the StanReginCd head/row envelope from world edition 9
(``YEARBOOK_ENVELOPE_EDITION``; family ``mois_yearbook`` of ``datagokr_families.yaml``, #27 item 3):
JSON ``{"<Service>":[{"head":[…RESULT INFO-0…]},{"row":[…]}]}``, XML ``<Service><head>…</head>
<row>…</row></Service>``, an empty answer StanReginCd's bare ``RESULT`` INFO-3. Editions 2–8 serve
the generic ``response/header/body`` bytes they always did (sha256 taken before the family
existed), and a body of either shape reads back and renders back as it was served."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from simulator import build_request
from simulator.catalog import Catalog
from simulator.catalog.datagokr_families import YEARBOOK_ENVELOPE_EDITION, family_named
from simulator.catalog.files import load_platform_file
from simulator.catalog.generate import GENERATED_DIR
from simulator.dialects import get_dialect
from simulator.dialects.base import Split, Window
from simulator.sandbox import create_app
from simulator.sandbox.world import EDITIONS

#: A 2021 service (its own ``type`` param) and a 2022 one (no published params: the family
#: names ``type``); the hashes are what edition 8 served before the family existed.
PC = "mois_number_pcbased_video_conferencing_list"
POP = "mois_registration_population_by_region"
BEFORE = {
    (PC, "json"): "7eb515d51187fcba",
    (PC, "xml"): "43b3735950083d27",
    (POP, "json"): "2e67b2eb72481eb6",  # type=json was not a parameter: XML, as without it
    (POP, "xml"): "2e67b2eb72481eb6",
}


@pytest.fixture(scope="module")
def mois() -> Catalog:
    return Catalog([load_platform_file(GENERATED_DIR / "gen_mois.json")])


def _get(mois: Catalog, edition: int, eid: str, fmt: str, **extra: str) -> bytes:
    app = create_app(seed=0, catalog=mois, edition=edition)
    ep = mois.endpoints[eid]
    params = {"numOfRows": "2", **extra}
    if fmt == "json" or eid == PC:
        params["type"] = fmt
    resp = app.handle(build_request(ep, params, app.keys.get(ep.id, app.keys.get(ep.platform))))
    assert resp.status == 200
    return resp.body


def test_the_family_is_served_from_its_named_edition() -> None:
    fam = family_named("mois_yearbook")
    assert fam.from_edition == YEARBOOK_ENVELOPE_EDITION == 9 and YEARBOOK_ENVELOPE_EDITION in EDITIONS
    assert fam.options["envelope"] == "head_row" and fam.options["success"] == ["INFO-0", "NOMAL SERVICE"]


@pytest.mark.parametrize("edition", [2, 5, 8])
def test_editions_before_9_serve_the_generic_bytes(mois: Catalog, edition: int) -> None:
    for (eid, fmt), digest in BEFORE.items():
        body = _get(mois, edition, eid, fmt)
        assert hashlib.sha256(body).hexdigest()[:16] == digest, (eid, fmt)
        assert b"<response><header><resultCode>00</resultCode>" in body or body.startswith(b'{"response"')


@pytest.mark.parametrize("eid,service", [(PC, "NumberPCBasedVideoConferencing"), (POP, "RegistrationPopulationByRegion")])
def test_edition_9_answers_in_the_head_row_envelope(mois: Catalog, eid: str, service: str) -> None:
    doc = json.loads(_get(mois, 9, eid, "json"))
    assert list(doc) == [service]
    head, rows = doc[service]
    assert head["head"][0]["totalCount"] > 2 and head["head"][1] == {"numOfRows": "2", "pageNo": "1", "type": "JSON"}
    assert head["head"][2] == {"RESULT": {"resultCode": "INFO-0", "resultMsg": "NOMAL SERVICE"}}
    assert len(rows["row"]) == 2 and all(isinstance(r, dict) and r for r in rows["row"])
    root = ET.fromstring(_get(mois, 9, eid, "xml"))
    assert root.tag == service and [c.tag for c in root.find("head")] == ["totalCount", "numOfRows", "pageNo", "type", "RESULT"]
    assert root.findtext("head/type") == "XML" and root.findtext("head/RESULT/resultCode") == "INFO-0"
    assert len(root.findall("row")) == 2


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_either_shape_reads_back_and_renders_back_as_served(mois: Catalog, fmt: str) -> None:
    """What a recording of edition 9 holds replays in the family's shape; the generic bodies of
    edition 8 in theirs (the catalog endpoint reads both)."""
    ep = mois.endpoints[POP]
    dialect = get_dialect(ep.dialect)
    split = Split(ep, POP, {}, Window(offset=0, limit=2, page=1, size=2), fmt)
    for edition in (8, 9):
        body = _get(mois, edition, POP, fmt)
        parsed = dialect.parse(ep, body, "json" if body.startswith(b"{") else "xml")
        assert parsed.outcome == "ok" and len(parsed.records) == 2
        assert parsed.envelope == ({"family": "mois_yearbook"} if edition == 9 else {})
        if edition == 9:
            assert dialect.render(split, parsed.records, parsed.total or 0, parsed.envelope).body == body


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_an_empty_result_is_the_bare_result_info_3(mois: Catalog, fmt: str) -> None:
    ep = mois.endpoints[POP]
    dialect = get_dialect(ep.dialect)
    served = dialect.served_endpoint(ep, 9)
    assert served is not ep and dialect.served_endpoint(ep, 8) is ep
    split = Split(served, POP, {}, Window(offset=0, limit=10, page=1, size=10), fmt)
    body = dialect.render(split, [], 0, {}).body
    text = body.decode()
    if fmt == "json":
        assert json.loads(text) == {"RESULT": {"resultCode": "INFO-3", "resultMsg": "데이터없음 에러"}}
    else:
        assert re.sub(r"<\?xml[^>]*\?>", "", text) == "<RESULT><resultCode>INFO-3</resultCode><resultMsg>데이터없음 에러</resultMsg></RESULT>"
    parsed = dialect.parse(ep, body, fmt)  # the catalog endpoint reads it as no data, in its family
    assert (parsed.outcome, parsed.kind, parsed.envelope) == ("empty", "no_data", {"family": "mois_yearbook"})
    replayed = Split(ep, POP, {}, split.window, fmt)
    assert dialect.render(replayed, [], 0, parsed.envelope).body == body
    generic = dialect.render(replayed, [], 0, {}).body  # edition 8's empty page stays generic
    assert b"INFO-3" not in generic and b"response" in generic


def test_the_listed_services_are_the_yearbook_operations(mois: Catalog) -> None:
    """Every prefix names one catalogued 1741000 service whose one operation is titled as a
    statistics one; StanReginCd and the population services keep their own shapes."""
    fam = family_named("mois_yearbook")
    by_service: dict[str, list[str]] = {}
    for ep in mois.endpoints.values():
        by_service.setdefault("/" + "/".join(ep.path.split("/")[1:3]) + "/", []).append(ep.id)
    assert len(fam.prefixes) == 328
    for prefix in fam.prefixes:
        (eid,) = by_service[prefix]
        ep = mois.endpoints[eid]
        assert ep.opt("late_family") == {"name": "mois_yearbook", "edition": 9}
        assert re.search(r"통계 (조회|정보)|지역 통계|통일 정보", ep.summary), ep.summary
        assert "from edition 9 on, data.go.kr family mois_yearbook" in ep.provenance["envelope"]
    assert not any(ep.opt("late_family") for ep in mois.endpoints.values()
                   if "/StanReginCd/" in ep.path or "/admm" in ep.path)


def test_a_version_recorded_from_edition_9_replays_the_family_envelope(mois: Catalog, tmp_path: Path) -> None:
    """Recorded from an edition-9 sandbox, a yearbook collection keeps its family in the
    collection's envelope: the replay answers a window of it in the head/row shape, byte for byte
    what the sandbox answers (the recording's own format; the collection key is the same as
    edition 8's)."""
    from simulator import Resolver
    from tests.support.record import record_seeds

    version = record_seeds(tmp_path, 9, [{"endpoint": PC, "params": {"bas_yy": "2019"}}], catalog=mois)
    (coll,) = version.collections()
    assert coll.envelope == {"family": "mois_yearbook"} and coll.count > 2
    resolver = Resolver(version, mois)
    app = create_app(seed=0, catalog=mois, edition=9)
    ep = mois.endpoints[PC]
    for fmt in ("json", "xml"):
        params = {"bas_yy": "2019", "numOfRows": "2", "pageNo": "2", "type": fmt}
        req = build_request(ep, params, app.keys.get(ep.id, app.keys.get(ep.platform)))
        replayed = resolver.resolve(req).response
        assert replayed.status == 200 and replayed.body == app.handle(req).body, fmt


@pytest.mark.parametrize("edition", [8, 9])
def test_a_2022_service_replays_type_json_as_the_sandbox_that_recorded_it(mois: Catalog, tmp_path: Path,
                                                                          edition: int) -> None:
    """A 2022 service publishes no ``type`` (the catalog endpoint has no format param). Recorded
    from an edition-9 sandbox (``kopa@v0010``) its collection is in the family's shape, and the
    replay answers ``type=json`` in JSON as that sandbox does (the family declares ``type``), with
    no ``type`` ignored; recorded from edition 8 (``kopa@v0009`` and older) it answers the XML it
    always did, the edition-8 sandbox's bytes, naming ``type`` ignored."""
    from simulator import Resolver
    from simulator.ignore import IGNORED_HEADER
    from tests.support.record import record_seeds

    version = record_seeds(tmp_path, edition, [{"endpoint": POP, "params": {}}], catalog=mois)
    (coll,) = version.collections()
    assert (coll.envelope.get("family") == "mois_yearbook") == (edition >= YEARBOOK_ENVELOPE_EDITION)
    resolver = Resolver(version, mois)
    app = create_app(seed=0, catalog=mois, edition=edition)
    ep = mois.endpoints[POP]
    assert ep.param("type") is None
    for fmt in ("json", "JSON", "xml", None):
        params = {"numOfRows": "3", "pageNo": "2", **({"type": fmt} if fmt else {})}
        req = build_request(ep, params, app.keys.get(ep.id, app.keys.get(ep.platform)))
        replayed = resolver.resolve(req).response
        assert replayed.status == 200 and replayed.body == app.handle(req).body, fmt
        json_asked = fmt is not None and fmt.lower() == "json"
        assert replayed.body.startswith(b"{") == (json_asked and edition >= 9), fmt
        named = (replayed.header(IGNORED_HEADER) or "").split(",")
        assert ("type" in named) == (fmt is not None and edition < 9), (fmt, named)
