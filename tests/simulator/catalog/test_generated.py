"""The generated catalog tier: deterministic generation, tiers, curated-wins, provenance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.catalog import load_catalog
from simulator.catalog.generate import GENERATED_DIR, build_platforms, dump_platform
from simulator.catalog.provenance import PAPER_PLATFORMS
from simulator.cli import app
from simulator.errors import CatalogError


@pytest.fixture(scope="module")
def full():  # type: ignore[no-untyped-def]
    return load_catalog(tier="full")


def test_committed_output_is_what_the_facts_give() -> None:
    """The shipped generated files are a fresh build's bytes (re-run `simulator catalog generate`)."""
    plats, report = build_platforms()
    assert sum(report.generated.values()) >= 2318 - 82
    for plat in plats:
        path = GENERATED_DIR / f"{plat['id']}.json"
        assert path.read_bytes() == dump_platform(plat), f"{path.name} is stale: run `simulator catalog generate`"
    assert sorted(p.name for p in GENERATED_DIR.glob("gen_*.json")) == sorted(f"{p['id']}.json" for p in plats)
    again, _ = build_platforms()
    assert [dump_platform(p) for p in again] == [dump_platform(p) for p in plats]


def test_tiers_and_the_paper_scale(full) -> None:  # type: ignore[no-untyped-def]
    from simulator.catalog import DEFAULT_TIER

    assert load_catalog().tier == DEFAULT_TIER  # the one-line switch (loader.py) decides
    curated = load_catalog(tier="curated")
    assert curated.tier == "curated" and len(curated.endpoints) == 82
    assert all(e.fidelity == "curated" for e in curated.endpoints.values())
    assert full.tier == "full" and len(full.endpoints) >= 2318
    assert len(full.tools()) == len(full.endpoints)
    for name in ("OpenDART", "data.go.kr MOIS", "data.go.kr KMA", "law.go.kr DRF"):
        published, pids = PAPER_PLATFORMS[name]
        have = sum(e.platform in pids for e in full.endpoints.values())
        assert have >= published * 0.9, (name, have, published)
    assert sum(e.platform in PAPER_PLATFORMS["OpenDART"][1] for e in full.endpoints.values()) == 85


def test_curated_always_wins(full) -> None:  # type: ignore[no-untyped-def]
    curated = load_catalog(tier="curated")
    for eid, ep in curated.endpoints.items():
        assert full.endpoints[eid] == ep
    routes: dict[tuple[str, str, tuple[tuple[str, str], ...]], str] = {}
    for ep in full.endpoints.values():
        key = (ep.host, ep.path, tuple(sorted(ep.match.items())))
        assert key not in routes, f"{ep.id} and {routes[key]} serve the same URL"
        routes[key] = ep.id
    assert ("molit_rtmsdata_svc_apt_trade", "molit_apt_trades") in full.shadowed
    for g, c in full.shadowed:  # a left-out id is absent, or is the curated endpoint of that id
        assert c in curated.endpoints and (g not in full.endpoints or full.endpoints[g].fidelity == "curated")


def test_generated_entries_are_typed_tools_with_provenance(full) -> None:  # type: ignore[no-untyped-def]
    gen = [e for e in full.endpoints.values() if e.fidelity != "curated"]
    assert len(gen) >= 2318 - 82
    for ep in gen:
        assert ep.fidelity == "partial" and ep.provenance["source"], ep.id
        assert ep.summary and ep.summary_en and ep.fields or ep.kind == "binary", ep.id
        schema = ep.tool_schema()["function"]
        assert schema["name"] == ep.id and len(ep.id) <= 64
        assert not {p.name for p in ep.params_with_role("auth")} & set(schema["parameters"]["properties"])


def test_unknown_tier_is_a_clear_error() -> None:
    with pytest.raises(CatalogError, match="tier='big' is unknown; choose one of curated, full, all"):
        load_catalog(tier="big")


def test_cli_show_stats_tools(tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["catalog", "show", "dart_alot_matter", "--catalog", "full"])
    assert shown.exit_code == 0, shown.output
    assert "fidelity: partial" in shown.output and "source: github:chrisryugj/korean-dart-mcp" in shown.output
    cur = runner.invoke(app, ["catalog", "show", "molit_apt_trades", "--catalog", "full"])
    assert "fidelity: curated" in cur.output and "shadows generated: molit_rtmsdata_svc_apt_trade" in cur.output
    left = runner.invoke(app, ["catalog", "show", "molit_rtmsdata_svc_apt_trade"])
    assert left.exit_code == 0 and "the curated endpoint 'molit_apt_trades' serves its URL" in left.output
    bad = runner.invoke(app, ["catalog", "show", "no_such_tool", "--catalog", "curated"])
    assert bad.exit_code == 1 and "unknown endpoint id='no_such_tool'" in bad.output
    stats = runner.invoke(app, ["catalog", "stats"])
    assert "| OpenDART | 85 | 85 | 7 | 78 |" in stats.output
    out = tmp_path / "tools.json"
    listed = runner.invoke(app, ["tools", "--catalog", "full", "--out", str(out)])
    assert listed.exit_code == 0, listed.output
    assert len(json.loads(out.read_text(encoding="utf-8"))) == len(load_catalog(tier="full").endpoints)
    env = runner.invoke(app, ["tools", "--out", str(out)], env={"KOPA_CATALOG": "full"})
    assert env.exit_code == 0 and len(json.loads(out.read_text(encoding="utf-8"))) >= 2318
    wrong = runner.invoke(app, ["tools", "--catalog", "huge"])
    assert wrong.exit_code == 1 and "--catalog='huge': choose curated, full, all" in wrong.output


@pytest.mark.parametrize("tier", ["curated", "full"])
def test_every_endpoint_is_matched_back(tier: str) -> None:
    """A request built for an endpoint matches that endpoint (host, path and condition indexes)."""
    from simulator import build_request

    catalog = load_catalog(tier=tier)
    for ep in catalog.endpoints.values():
        params = {p.name: p.example or (p.enum[0] if p.enum else "1") for p in ep.params
                  if p.role != "auth" and (p.required or p.location == "path")}
        assert catalog.match(build_request(ep, params, key="k")).endpoint.id == ep.id


def test_condition_index_keeps_the_scan_answers(full) -> None:  # type: ignore[no-untyped-def]
    """law.go.kr routes picked by `target`: a known value, another case, an unknown one, none."""
    from simulator.errors import UnknownEndpoint
    from simulator.request import SimRequest

    def match(*query: tuple[str, str]) -> str:
        req = SimRequest(method="GET", host="www.law.go.kr", path="/DRF/lawSearch.do", query=query,
                         headers=(), scheme="https")
        return full.match(req).endpoint.id

    assert match(("target", "law"), ("OC", "x")) == "lawgokr_law_search"
    assert match(("target", "PREC")) == "lawgokr_prec_search"
    assert match(("target", "admrul")) == "law_admrul_search"
    for query in ((("target", "nope"),), (), (("target", ""),)):
        with pytest.raises(UnknownEndpoint, match="unknown path='/DRF/lawSearch.do'"):
            match(*query)
