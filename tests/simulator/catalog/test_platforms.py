"""One platform per real provider (issue 27 item 4) and alias hosts (item 5, www.juso.go.kr).

Curated and generated endpoints of one provider are one platform (the tier is an attribute);
catalog files (parts) still name cassette data files; old platform ids keep working with a
note; ``www.juso.go.kr`` answers like ``business.juso.go.kr``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from simulator import Resolver, SimTransport, Store, VersionBuilder
from simulator.catalog import load_catalog
from simulator.catalog.platforms import platform_for
from simulator.dialects import get_dialect
from simulator.cli import app
from simulator.errors import CatalogError, ReplayMiss
from simulator.request import SimRequest

FULL = load_catalog(tier="full")
SHIPPED = Path(__file__).resolve().parents[3] / "cassettes"

#: The true tool counts of the full tier per platform (curated + generated).
FULL_COUNTS = {
    "opendart": 85, "lawgokr": 168, "assembly": 271, "neis": 16, "nec": 35, "fsc": 343,
    "molit": 357, "tago": 39, "mois": 870, "kma": 150, "airkorea": 144, "pps": 186, "kasi": 16,
    "kto": 3, "seoul": 9, "ecos": 6, "juso": 4, "semas": 1,
}  # kopa@v0007 added molit's K-apt two, seoul's three, ecos's StatisticMeta and semas's sdsc2 (fidelity partial)


def test_full_tier_has_one_platform_per_provider() -> None:
    counts = Counter(ep.platform for ep in FULL.endpoints.values())
    assert dict(counts) == FULL_COUNTS
    assert sum(counts.values()) == len(FULL.endpoints) == 2703
    assert set(FULL.platforms) == set(FULL_COUNTS)
    assert not any(p.startswith("gen_") or p == "datagokr_misc" for p in FULL.platforms)
    for pid, plat in FULL.platforms.items():
        assert plat.id == pid and {ep.platform for ep in plat.endpoints} == {pid}
        assert len(plat.endpoints) == FULL_COUNTS[pid]
        assert "generated" not in plat.name and "생성" not in plat.name_ko


def test_the_tier_is_an_attribute() -> None:
    dart = [ep for ep in FULL.endpoints.values() if ep.platform == "opendart"]
    assert Counter(ep.tier for ep in dart) == {"curated": 7, "generated": 78}
    assert {ep.part_id for ep in dart} == {"opendart", "gen_opendart"}
    assert FULL.endpoint("datagokr_misc_kma_mid_ta").platform == "kma"
    assert FULL.endpoint("datagokr_misc_kma_mid_ta").part_id == "datagokr_misc"
    assert FULL.endpoint("datagokr_misc_tour_keyword").platform == "kto"
    # The curated catalog alone: the mixed data.go.kr file's endpoints by agency too.
    curated = load_catalog(tier="curated")
    assert {curated.endpoint(e).platform for e in curated.endpoints if e.startswith("datagokr_misc")} == {
        "kma", "kasi", "kto", "airkorea", "pps"}
    assert curated.platforms["kma"].name_ko.startswith("기상청")


def test_platform_for_maps_parts_and_agencies() -> None:
    assert platform_for("gen_lawgokr") == "lawgokr"
    assert platform_for("gen_tago") == "tago"
    assert platform_for("datagokr_misc", "/B552584/ArpltnInforInqireSvc/x") == "airkorea"
    assert platform_for("gen_org_b551182") == "org_b551182"  # the ``all`` tier's other agencies


@pytest.mark.parametrize(("platform", "least"), [("opendart", 80), ("lawgokr", 150), ("assembly", 250)])
def test_cli_tools_per_platform(platform: str, least: int) -> None:
    res = CliRunner().invoke(app, ["tools", "--platform", platform])
    assert res.exit_code == 0, res.output
    tools = json.loads(res.stdout)
    assert len(tools) == FULL_COUNTS[platform] >= least
    names = {t["function"]["name"] for t in tools}
    assert names == {e.id for e in FULL.endpoints.values() if e.platform == platform}


def test_old_platform_id_is_read_as_the_new_one_with_a_note() -> None:
    res = CliRunner().invoke(app, ["tools", "--platform", "gen_opendart"])
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.stdout)) == 85
    assert "'gen_opendart' is deprecated" in res.stderr and "--platform opendart" in res.stderr
    ids, notes = FULL.resolve_platforms(["datagokr_misc", "kma"])
    assert ids == ["airkorea", "kasi", "kma", "kto", "molit", "pps", "semas"] and len(notes) == 1
    assert len(FULL.tools(platforms=["gen_lawgokr"])) == 168  # a stored old id, library side


def test_unknown_platform_fails_naming_the_platforms() -> None:
    res = CliRunner().invoke(app, ["tools", "--platform", "opendarts"])
    assert res.exit_code == 1
    assert "unknown platform='opendarts'" in res.stderr and "opendart" in res.stderr
    assert "Traceback" not in res.output
    with pytest.raises(CatalogError, match="choose one of"):
        FULL.tools(platforms=["nope"])


def test_mcp_platform_filter_lists_the_whole_provider() -> None:
    pytest.importorskip("mcp")
    from simulator.server.mcp import list_tools

    assert len(list_tools(FULL, ["opendart"])) == 85
    assert len(list_tools(FULL, ["gen_assembly"])) == 271


def test_cassette_files_stay_named_by_catalog_file(tmp_path: Path) -> None:
    """A generated endpoint's data goes to collections/gen_<x>.jsonl, as in the shipped versions."""
    store = Store(tmp_path / "cassettes", cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "t", FULL, parent=None)
    for eid in ("dart_accnut_adtor_nm_nd_adt_opinion", "opendart_company", "datagokr_misc_kma_mid_ta"):
        b.add_collection(endpoint=eid, key=f"{eid}|k", filters={}, fmt="json", total=0, records=[], envelope={})
    files = set(b.publish(recorded_at="2026-12-01T00:00:00Z", source="test").files)
    assert {"collections/gen_opendart.jsonl", "collections/opendart.jsonl",
            "collections/datagokr_misc.jsonl"} <= files
    newest = sorted((SHIPPED / "kopa").glob("v*/manifest.json"))[-1]
    shipped = json.loads(newest.read_text(encoding="utf-8"))["files"]
    assert "collections/gen_opendart.jsonl" in shipped and "collections/kma.jsonl" not in shipped


# ---- www.juso.go.kr, an alias host of the address API ----------------------------------------
def test_juso_alias_host_matches_the_same_endpoint() -> None:
    assert "www.juso.go.kr" in FULL.hosts()
    for host in ("business.juso.go.kr", "www.juso.go.kr"):
        m = FULL.match(SimRequest.from_url(f"https://{host}/addrlink/addrLinkApi.do?confmKey=k&keyword=x"))
        assert m.endpoint.id == "juso_address_search"


SEARCH = "https://business.juso.go.kr/addrlink/addrLinkApi.do?confmKey=k&keyword=%EA%B0%95%EB%82%A8%EA%B5%AC"


@pytest.fixture(scope="module")
def juso_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A version holding one address search recorded on business.juso.go.kr (25 addresses)."""
    root = tmp_path_factory.mktemp("juso")
    store = Store(root / "cassettes", cache_dir=root / "cache")
    split = get_dialect("juso").split(FULL.match(SimRequest.from_url(SEARCH)))
    records = [{"roadAddr": f"서울특별시 강남구 테헤란로 {i + 1}", "admCd": "1168010100", "zipNo": "06236"}
               for i in range(25)]
    b = VersionBuilder(store, "kopa", FULL, parent=None)
    b.add_collection(endpoint="juso_address_search", key=split.key, filters=dict(split.filters), fmt="json",
                     total=25, records=records, envelope={})
    b.publish(recorded_at="2026-12-01T00:00:00Z", source="test")
    with httpx.Client(transport=SimTransport(Resolver(store.open("kopa"), FULL))) as c:
        yield c


@pytest.mark.parametrize(("page", "size", "fmt"), [("1", "10", "json"), ("3", "10", "json"), ("2", "20", "xml")])
def test_juso_replays_the_same_bytes_on_both_hosts(
    page: str, size: str, fmt: str, api_key: str, juso_client: httpx.Client
) -> None:
    query = f"confmKey={api_key}&keyword=%EA%B0%95%EB%82%A8%EA%B5%AC&currentPage={page}&countPerPage={size}&resultType={fmt}"
    real = juso_client.get(f"https://business.juso.go.kr/addrlink/addrLinkApi.do?{query}")
    alias = juso_client.get(f"https://www.juso.go.kr/addrlink/addrLinkApi.do?{query}")
    assert real.status_code == alias.status_code == 200
    assert real.content == alias.content
    assert real.headers.get("x-sim-source") == alias.headers.get("x-sim-source") == "window"
    if fmt == "json":
        body = real.json()["results"]
        assert body["common"]["errorCode"] == "0" and body["common"]["totalCount"] == "25"
        assert len(body["juso"]) == (5 if page == "3" else 10)
    # An unrecorded keyword misses on both hosts alike (the alias is no wildcard).
    for host in ("business.juso.go.kr", "www.juso.go.kr"):
        with pytest.raises(ReplayMiss, match="GET business.juso.go.kr/addrlink/addrLinkApi.do"):
            juso_client.get(f"https://{host}/addrlink/addrLinkApi.do?confmKey={api_key}&keyword=%EC%84%9C%EC%B4%88%EA%B5%AC")


def test_juso_alias_shares_the_exact_identity() -> None:
    """An exact recording made on one host answers the other: one canonical request."""
    from simulator.identity import canonical_request

    a = SimRequest.from_url(SEARCH)
    b = SimRequest.from_url(SEARCH.replace("business.juso.go.kr", "www.juso.go.kr"))
    assert canonical_request(a, FULL) == canonical_request(b, FULL)
    assert canonical_request(a, FULL).startswith("GET business.juso.go.kr/addrlink/addrLinkApi.do?")


def test_bench_platform_ablation_sees_the_whole_provider(tmp_path: Path) -> None:
    """``--tools platform``: a task on opendart sees its 85 tools, not the 7 curated ones."""
    from bench.kopa.env import World

    store = Store(tmp_path / "cassettes", cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "kopa", FULL, parent=None)
    b.add_collection(endpoint="tago_city_codes", key="tago_city_codes", filters={}, fmt="json", total=0,
                     records=[], envelope={})
    b.publish(recorded_at="2026-12-01T00:00:00Z", source="test")
    world = World(store.open("kopa"), FULL)
    names = {t["function"]["name"] for t in world.tools(["opendart"])}
    assert {e.id for e in FULL.endpoints.values() if e.platform == "opendart"} <= names
    assert "dart_alot_matter" in names and "opendart_company" in names
    assert len([n for n in names if not n.startswith("get_")]) == 85  # + the key tools of its family


def test_sandbox_keys_follow_the_platform_and_old_file_keys_still_work() -> None:
    from simulator.sandbox import create_app

    app = create_app(seed=0)
    corp = app.world.listed_companies()[0]["corp_code"]  # an invented company (real ones hold no values)
    url = f"https://opendart.fss.or.kr/api/alotMatter.json?corp_code={corp}&bsns_year=2023&reprt_code=11011"

    def status(key: str) -> str:
        body = app.handle(SimRequest.from_url(f"{url}&crtfc_key={key}")).body
        return str(json.loads(body)["status"])

    assert status("sandbox-opendart") == "000"  # the platform's key answers its generated tools
    assert status("sandbox-gen_opendart") == "000"  # the key of its catalog file, as before
    assert status("sandbox-lawgokr") == "010"  # another platform's key is unregistered
    own = create_app(seed=0, keys={"opendart": "my-key"})
    assert json.loads(own.handle(SimRequest.from_url(f"{url}&crtfc_key=sandbox-gen_opendart")).body)["status"] == "010"


def test_training_tool_configs_read_old_platform_ids() -> None:
    """A dataset synthesized before platforms merged names ``gen_kasi``: its tools are still offered."""
    from train.verl_adapter import tool_config

    old = {t["tool_schema"]["function"]["name"] for t in tool_config(platforms=["gen_kasi"])["tools"]}
    new = {t["tool_schema"]["function"]["name"] for t in tool_config(platforms=["kasi"])["tools"]}
    assert old == new and len(new) == FULL_COUNTS["kasi"]
    assert {t["config"]["platform"] for t in tool_config(platforms=["kasi"])["tools"]} == {"kasi"}
