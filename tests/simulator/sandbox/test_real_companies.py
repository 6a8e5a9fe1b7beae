"""World edition 7 (issue 27, item 6): a real listed company of ``pools.yaml`` keeps only its real
public identity; the world holds no invented value about it. Every OpenDART and FSC endpoint of
the catalog asked about one answers its platform's no-data result (the company overview answers
the identity and empty strings); invented companies keep every value; edition 6 is unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from simulator import build_request
from simulator.catalog import Catalog, Endpoint, load_catalog
from simulator.catalog.generate.seeds import seed_plan_report
from simulator.dialects import get_dialect
from simulator.sandbox import SandboxApp, World, create_app
from simulator.sandbox.world import pools
from simulator.sandbox.world._finance import IDENTITY_FIELDS

REAL = [dict(zip(("corp_code", "stock_code", "corp_name"), c[:3])) for c in pools()["companies"]]
#: Which identity value of a company a request parameter takes (lowercased name → key), for the
#: parameters of the finance platforms that select a company.
_NAME_PARAMS = ("itmsnm", "cmpynm", "corpnm", "isurnm", "stckissucmpynm", "issucmpynm")
#: Real values for the OpenDART periodic-report parameters the seeds do not give (curated endpoints).
_PERIODIC = {"bsns_year": "2024", "reprt_code": "11011", "fs_div": "CFS", "sj_div": "BS", "idx_cl_code": "M210000"}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(tier="full")


@pytest.fixture(scope="module")
def app7(catalog: Catalog) -> SandboxApp:
    return create_app(seed=0, catalog=catalog, edition=7)


def _company_params(ep: Endpoint, c: dict[str, str], isin: str) -> dict[str, str]:
    out = {}
    for p in ep.params:
        lo = p.name.lower()
        if lo == "corp_code":
            out[p.name] = c["corp_code"]
        elif lo.endswith("srtncd") or lo == "stock_code":
            out[p.name] = c["stock_code"]
        elif lo.endswith("isincd"):
            out[p.name] = isin
        elif lo.endswith(_NAME_PARAMS):
            out[p.name] = c["corp_name"]
    return out


def _finance_requests(catalog: Catalog) -> list[tuple[Endpoint, dict[str, str]]]:
    """Every OpenDART and FSC endpoint with a parameter that selects a company, with real values
    for its other required parameters (``simulator catalog seeds``)."""
    plan, _ = seed_plan_report(catalog, set_name="kopa")
    seeds = {s["endpoint"]: dict(s["params"]) for s in plan["seeds"]}
    out = []
    for ep in sorted(catalog.endpoints.values(), key=lambda e: e.id):
        if ep.platform not in ("opendart", "fsc") or ep.id.startswith("opendart_corp_codes"):
            continue
        if not _company_params(ep, REAL[0], "x"):
            continue
        base = {p.name: _PERIODIC[p.name] for p in ep.params if p.name in _PERIODIC}
        out.append((ep, {**base, **seeds.get(ep.id, {})}))
    return out


def _answer(app: SandboxApp, ep: Endpoint, params: dict[str, str]) -> Any:
    key = app.keys.get(ep.id, app.keys.get(ep.platform))
    resp = app.handle(build_request(ep, params, key))
    body = resp.body
    fmt = "json" if body.lstrip()[:1] in (b"{", b"[") else "xml"
    return get_dialect(ep.dialect).parse(ep, body, fmt), body


def test_real_companies_keep_their_identity_only() -> None:
    w7, w6 = World(0, edition=7), World(0, edition=6)
    for r in REAL:
        c7, c6 = w7.company(r["corp_code"]), w6.company(r["corp_code"])
        assert c7 is not None and c6 is not None and c7["corp_name"] == r["corp_name"] == c6["corp_name"]
        assert {k: c7[k] for k in IDENTITY_FIELDS} == {k: c6[k] for k in IDENTITY_FIELDS}
        assert all(v in ("", 0, 0.0) for k, v in c7.items() if k not in IDENTITY_FIELDS), c7
        assert c6["ceo_nm"] and c6["adres"]  # edition 6 as kopa@v0007 holds it
        assert w7.filings(r["corp_code"]) == [] and w7.accounts(r["corp_code"], 2024, "11011") == []
        assert w7.major_shareholders(r["corp_code"]) == [] == w7.executive_holdings(r["corp_code"])
        assert w7.company_by_stock(r["stock_code"]) is None and w7.stock_history(r["stock_code"]) == []
        assert w6.filings(r["corp_code"]) and w6.stock_history(r["stock_code"])
    real = {r["corp_code"] for r in REAL}
    names = [r["corp_name"].upper() for r in REAL]
    assert not {c["corp_code"] for c in w7.listed_companies()} & real
    assert not any(c["fssCorpUnqNo"] in real for c in w7.corp_outlines())
    assert not any(r["corp_code"] in real for r in w7.all_filings()[:5000])
    invented = [c for c in w7.companies() if c["corp_code"] not in real]
    assert len(invented) == 5980 and all(c["corp_code"].startswith("09") for c in invented)
    assert not any(n in c["corp_name"].upper() for c in invented for n in names)
    assert not {c["stock_code"] for c in invented} & {r["stock_code"] for r in REAL}
    day = w7.stock_prices("20251128")
    assert day and not {p["srtnCd"] for p in day} & {r["stock_code"] for r in REAL}


def test_every_finance_endpoint_answers_no_data_for_a_real_company(app7: SandboxApp, catalog: Catalog) -> None:
    """Each OpenDART and FSC endpoint that selects a company, asked about each real company of
    the pool in turn (endpoint i about company i mod 20, so every company meets ~15 endpoints)."""
    requests = _finance_requests(catalog)
    assert len(requests) >= 100
    world = app7.world
    seen = set()
    for i, (ep, seed) in enumerate(requests):
        r = REAL[i % len(REAL)]
        c = world.company(r["corp_code"])
        assert c is not None
        params = {**seed, **_company_params(ep, r, c["isin"])}
        parsed, body = _answer(app7, ep, params)
        seen.add(r["corp_code"])
        if ep.id.startswith("opendart_company"):  # the overview: identity, every other field empty
            assert parsed.outcome == "ok" and len(parsed.records) == 1, body[:300]
            rec = parsed.records[0]
            assert rec["corp_code"] == r["corp_code"] and rec["stock_code"] == r["stock_code"]
            assert rec.get("ceo_nm", "") == "" and rec.get("adres", "") == "" and rec.get("est_dt", "") == ""
            continue
        assert parsed.outcome == "empty" or not parsed.records, (ep.id, params, body[:400])
        if ep.platform == "opendart":
            assert parsed.outcome == "empty" and b"013" in body, (ep.id, body[:200])
    assert seen == {r["corp_code"] for r in REAL}


def test_invented_companies_keep_their_values(app7: SandboxApp, catalog: Catalog) -> None:
    world = app7.world
    c = world.listed_companies()[0]
    assert c["ceo_nm"] and c["adres"] and world.filings(c["corp_code"]) and world.accounts(c["corp_code"], 2024, "11011")
    assert world.corp_outlines_by_name(c["corp_name"]) and world.stock_history(c["stock_code"])
    missed = []
    for ep, seed in _finance_requests(catalog):
        if ep.platform != "opendart" or ep.id.startswith("opendart_estk"):
            continue  # estkRs: only companies that filed a registration statement have rows
        params = {**seed, **_company_params(ep, c, c["isin"])}
        parsed, body = _answer(app7, ep, params)
        if not parsed.records:
            missed.append(ep.id)
    assert missed == [], missed
    body = json.loads(_answer(app7, catalog.endpoint("opendart_company"), {"corp_code": c["corp_code"]})[1])
    assert body["status"] == "000" and body["ceo_nm"] == c["ceo_nm"]
