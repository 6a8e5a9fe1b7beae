"""The generated tier's recording plan (``simulator catalog seeds``) keys every collection on a
value a real request would send: no placeholder (``A1``; 1,003 of ``kopa@v0005``'s 3,833
collections hold it), entity codes from the sandbox world's real-format tables, dates in the
label's format; an endpoint that cannot be given a real value is left out with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator import Store
from simulator.catalog import load_catalog
from simulator.catalog.generate.seeds import PLACEHOLDERS, seed_plan, seed_plan_report
from simulator.cli import app
from simulator.sandbox.world import World


@pytest.fixture(scope="module")
def planned() -> tuple[dict, object]:
    return seed_plan_report(load_catalog(tier="full"))


def test_no_seed_holds_a_placeholder_and_every_left_out_endpoint_says_why(planned: tuple[dict, object]) -> None:
    plan, report = planned
    catalog = load_catalog(tier="full")
    values = [v for s in plan["seeds"] for v in s["params"].values()]
    assert values and not [v for v in values if v in PLACEHOLDERS]
    generated = {e.id for e in catalog.endpoints.values() if e.fidelity != "curated" and e.kind != "binary"}
    seeded = {s["endpoint"] for s in plan["seeds"]}
    assert seeded | set(report.unresolved) == generated and not seeded & set(report.unresolved)
    assert len(seeded) >= 2200  # of 2,612: the rest listed, not recorded under a dummy
    for eid, why in report.unresolved.items():
        assert why and all(param and "no published example" in reason for param, reason in why), eid
    assert "left out of the plan" in report.to_markdown()


def test_entity_params_take_codes_of_the_world(planned: tuple[dict, object]) -> None:
    plan, _report = planned
    world = World(0)
    by_param: dict[str, set[str]] = {}
    for s in plan["seeds"]:
        for k, v in s["params"].items():
            by_param.setdefault(k, set()).add(v)
    assert by_param["LAWD_CD"] == {"11680"} and world.district("11680") is not None
    assert all(world.company(v) is not None for v in by_param["corp_code"])
    (city,) = by_param["cityCode"] if "cityCode" in by_param else by_param["citycode"]
    stations = {s["nodeid"] for s in world.bus_stations(int(city) if city.isdigit() else city)}
    assert by_param["nodeId"] <= stations
    assert by_param["DEAL_YMD"] == {"202512"}  # a month the world has trades for
    assert {v[:2] for v in by_param["ctpv_cd"]} == {"11"}


def test_the_old_rule_stays_available_to_rerecord_shipped_versions() -> None:
    old = seed_plan(load_catalog(tier="full"), platforms=["mois"], placeholders=True)
    assert any(v in PLACEHOLDERS for s in old["seeds"] for v in s["params"].values())


def test_cli_writes_the_report(tmp_path: Path) -> None:
    out, report = tmp_path / "plan.yaml", tmp_path / "left-out.md"
    result = CliRunner().invoke(app, ["catalog", "seeds", "--out", str(out), "--platform", "kma",
                                      "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert "left out without a real value" in result.output
    assert "A1" not in out.read_text(encoding="utf-8")
    assert report.read_text(encoding="utf-8").startswith(tuple(f"{n} endpoint" for n in range(200)))


@pytest.mark.integration
def test_a_sample_records_from_the_sandbox_keyed_on_real_values(tmp_path: Path, planned: tuple[dict, object]) -> None:
    """Two seeds per platform and the two tools of #27's examples, recorded from a sandbox of
    the newest edition: every collection has records and no key holds a placeholder."""
    from tests.support.record import record_plan

    plan, _report = planned
    taken: dict[str, int] = {}
    seeds = []
    catalog = load_catalog()
    for s in plan["seeds"]:
        if s["endpoint"] not in catalog.endpoints:
            continue
        pid = catalog.endpoint(s["endpoint"]).platform
        if taken.setdefault(pid, 0) < 2 or s["endpoint"] in ("dart_fnltt_singl_acnt_all", "kma_ultra_srt_ncst"):
            taken[pid] += 1
            seeds.append(s)
    assert len(taken) >= 10
    from simulator.sandbox.world import LATEST_EDITION

    record_plan(tmp_path, {"set": "kopa", "rate_per_sec": {"default": 0}, "fidelity_samples": 0, "seeds": seeds},
                LATEST_EDITION)
    version = Store(tmp_path, cache_dir=tmp_path / "cache").open("kopa")
    cols = version.collections()
    assert len(cols) == len(seeds) and all(c.count > 0 for c in cols)
    assert not [c.key for c in cols if set(c.filters.values()) & PLACEHOLDERS]
    (acnt,) = [c for c in cols if c.endpoint == "dart_fnltt_singl_acnt_all"]
    rows = version.index.records(acnt.id, 0, acnt.count)
    assert {"account_nm", "thstrm_amount", "sj_div"} <= set(rows[0]) and "corp_name" not in rows[0]
    assert all(r["thstrm_amount"].isdigit() and len(r["rcept_no"]) == 14 for r in rows)
