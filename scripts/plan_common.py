"""What the version plan scripts (``scripts/plan_v0006.py`` … ``plan_v0010.py``) share: the
plan's one-seed-a-line YAML, the report of the generated endpoints left out, the carried-over
real-keyed collections of the parent, and the ``--check`` entry point.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulator import Store  # noqa: E402
from simulator.catalog import Catalog  # noqa: E402
from simulator.catalog.generate.seeds import placeholder_params, seed_plan_report  # noqa: E402

Key = tuple[str, tuple[tuple[str, str], ...]]


def key(endpoint: str, params: dict[str, str]) -> Key:
    """A seed's identity (endpoint and sorted params)."""
    return endpoint, tuple(sorted(params.items()))


def _flow(value: Any, *, sort_keys: bool = True) -> str:
    return yaml.safe_dump(value, allow_unicode=True, default_flow_style=True, width=10**6, sort_keys=sort_keys).strip()


def plan_text(header: str, settings: Iterable[tuple[str, Any]], seeds_comment: str, seeds: list[dict[str, Any]],
              crawls_comment: str | None = None, crawls: list[dict[str, Any]] | None = None) -> str:
    """The plan as the scripts write it: the header, one setting a line, one seed (and crawl) a line."""
    lines = [header.rstrip("\n")]
    for k, v in settings:
        lines.append(_flow({k: v})[1:-1])
    lines.append(f"seeds:  # {seeds_comment}")
    lines += ["  - " + _flow(s) for s in seeds]
    if crawls_comment is not None:
        lines.append(f"crawls:  # {crawls_comment}")
        lines += ["  - " + _flow(c, sort_keys=False) for c in crawls or []]
    return "\n".join(lines) + "\n"


def report_text(script: str, version: str, intro: str, left: dict[str, list[tuple[str, str]]]) -> str:
    """``docs/seeds-<version>.md``: the generated endpoints a version does not record, and why."""
    doc = [
        f"<!-- written by scripts/{script} -->",
        f"# Generated endpoints kopa@{version} does not record",
        "",
        f"{len(left)} generated endpoints have a required parameter that no published example, enum value, "
        "entity code of the sandbox world or date format gives a real value. " + intro,
        "",
        *[f"- `{eid}`: " + "; ".join(f"`{p}` — {reason}" for p, reason in why) for eid, why in sorted(left.items())],
    ]
    return "\n".join(doc) + "\n"


def carried_generated(catalog: Catalog, parent: str, planned: set[Key],
                      keep: Callable[[str, dict[str, str]], bool] = lambda e, f: True) -> list[dict[str, Any]]:
    """The parent's real-keyed generated collections the plan does not already record (added to
    ``planned``), in key order; ``keep(endpoint, filters)`` may leave more out."""
    version = Store(ROOT / "cassettes").open("kopa", parent)
    out: list[dict[str, Any]] = []
    for c in sorted(version.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "generated" or placeholder_params(ep, c.filters) or not keep(c.endpoint, c.filters):
            continue
        if key(c.endpoint, c.filters) not in planned:
            out.append({"endpoint": c.endpoint, "params": dict(c.filters)})
            planned.add(key(c.endpoint, c.filters))
    return out


def main(doc: str, script: str, build: Callable[[], tuple[str, str]], plan: Path, report: Path) -> int:
    """Write the plan and the report (``--check``: exit 1 when either is stale)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a written file is stale")
    args = ap.parse_args()
    plan_t, report_t = build()
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, t in ((plan, plan_t), (report, report_t))
                 if not p.exists() or p.read_text(encoding="utf-8") != t]
        if stale:
            print(f"stale: {', '.join(stale)}; run python scripts/{script}", file=sys.stderr)
            return 1
        return 0
    plan.write_text(plan_t, encoding="utf-8")
    report.write_text(report_t, encoding="utf-8")
    print(f"wrote {plan.relative_to(ROOT)} and {report.relative_to(ROOT)}", file=sys.stderr)
    return 0


# --- what plan_v0008.py and plan_v0009.py record beyond `simulator catalog seeds` ---------------

#: Invented listed companies whose curated OpenDART collections are recorded.
COMPANIES = 40
#: The first invented listed companies, named in docs/catalog.md for clients: every periodic
#: report, generated endpoint and FSC statement recorded for them.
NAMED = 3
YEARS = ("2023", "2024")
#: Values the OpenDART guide lists for the params it requires of one operation.
FS_DIV = ("CFS", "OFS")
IDX_CL_CODE = ("M210000", "M220000", "M230000", "M240000")  # 수익성, 안정성, 성장성, 활동성
SJ_DIV = ("BS1", "IS1", "CIS1", "CF1", "SCE1")
#: Seoul's KMA grid point (서울특별시 중구 일대: nx 60, ny 127) and the day clients ask for.
GRID = ("60", "127")
KMA_DAY = "20251201"
#: Search terms and names clients send (docs/clients-outsider.md).
JUSO_KEYWORDS = ("서울특별시 종로구 세종대로 209", "세종대로 209")
LAW_TERMS = {"law_lstrm_search": ("선의",), "law_expc_search": ("임대차",)}
SUBWAY_STATIONS = ("강남", "서울")
MEAL_SCHOOLS = ("7091380",)
#: Law.go.kr search terms, Assembly member names, ECOS tables and AirKorea days held-out clients
#: send (``/work/wt/notes/clients-needs.md`` of stop 37: the names are the world's own members,
#: never a real person's: a generated endpoint answers a name filter from its unfiltered records).
MORE_LAW_TERMS = {"law_detc_search": ("집회",)}
MEMBER_NAMES = ("국회의원명 1",)
ECOS_SEARCHES = (("901Y009", "M", "202401", "202412"),)
DUST_DAYS = ("2025-12-01",)


class Planned:
    """The keys a plan holds, and the collections :meth:`add` appends (``more``) beyond them."""

    def __init__(self, seeds: Iterable[dict[str, Any]]) -> None:
        self.keys = {key(s["endpoint"], s["params"]) for s in seeds}
        self.more: list[dict[str, Any]] = []

    def __contains__(self, k: Key) -> bool:
        return k in self.keys

    def claim(self, endpoint: str, params: dict[str, str]) -> bool:
        """Hold ``(endpoint, params)``; False when the plan already held it."""
        k = key(endpoint, params)
        if k in self.keys:
            return False
        self.keys.add(k)
        return True

    def add(self, endpoint: str, params: dict[str, str]) -> None:
        """Record ``params`` of ``endpoint`` too, unless the plan already does."""
        if self.claim(endpoint, params):
            self.more.append({"endpoint": endpoint, "params": params})


def add_company_values(planned: Planned, catalog: Catalog, world: Any, recorded: list[dict[str, Any]],
                       named: list[dict[str, Any]]) -> None:
    """The real companies' identity, the ``recorded`` invented companies' filings and accounts,
    and for the ``named`` ones every periodic report (with the values the OpenDART guide requires)
    and FSC V2 statement."""
    add = planned.add
    for cc in sorted(world.real_company_codes()):  # a real company: its overview (identity) and, by name, FSC's no-data answer
        add("opendart_company", {"corp_code": cc})
        add("fsc_corp_outline_v2", {"corpNm": world.company(cc)["corp_name"]})
    for c in recorded:
        cc = c["corp_code"]
        add("opendart_company", {"corp_code": cc})
        add("opendart_disclosures", {"corp_code": cc, "bgn_de": "20240101", "end_de": "20241231"})
        add("opendart_major_stock", {"corp_code": cc})
        for year in YEARS:
            add("opendart_single_account", {"corp_code": cc, "bsns_year": year, "reprt_code": "11011"})
        add("fsc_corp_outline_v2", {"corpNm": c["corp_name"]})
    periodic = [e for e in sorted(catalog.endpoints.values(), key=lambda e: e.id)
                if e.platform == "opendart" and e.tier == "generated" and e.param("bsns_year") and e.param("reprt_code")]
    v2 = [e for e in sorted(catalog.endpoints.values(), key=lambda e: e.id)
          if e.platform == "fsc" and e.param("crno") and e.param("bizYear")]
    for c in named:
        cc = c["corp_code"]
        add("opendart_executive_stock", {"corp_code": cc})
        add("opendart_equity_registration", {"corp_code": cc, "bgn_de": "20240101"})
        add("opendart_disclosures", {"corp_code": cc})
        for year in ("2024", "2025"):
            for code in ("11013", "11012", "11014"):
                add("opendart_single_account", {"corp_code": cc, "bsns_year": year, "reprt_code": code})
        for ep in periodic:
            for year in YEARS:
                base = {"corp_code": cc, "bsns_year": year, "reprt_code": "11011"}
                variants: tuple[dict[str, str], ...] = ({},)
                if ep.param("fs_div") and ep.param("fs_div").required:
                    variants = tuple({"fs_div": v} for v in FS_DIV)
                elif ep.param("idx_cl_code") and ep.param("idx_cl_code").required:
                    variants = tuple({"idx_cl_code": v} for v in IDX_CL_CODE)
                elif ep.param("sj_div") and ep.param("sj_div").required:
                    variants = tuple({"sj_div": v} for v in SJ_DIV)
                for extra in variants:
                    add(ep.id, {**base, **extra})
        for ep in v2:
            for year in YEARS:
                add(ep.id, {"crno": c["crno"], "bizYear": year})


def add_client_values(planned: Planned, world: Any) -> None:
    """The values real clients send: KMA at Seoul's grid for every base time of the day, juso
    addresses, law.go.kr terms, a member's name, subway stations, one school, ECOS, AirKorea."""
    add = planned.add
    nx, ny = GRID
    for h in range(24):
        add("kma_ultra_srt_ncst", {"base_date": KMA_DAY, "base_time": f"{h:02d}00", "nx": nx, "ny": ny})
        add("kma_ultra_srt_fcst", {"base_date": KMA_DAY, "base_time": f"{h:02d}30", "nx": nx, "ny": ny})
    for h in range(2, 24, 3):
        add("datagokr_misc_kma_vilage_fcst", {"base_date": KMA_DAY, "base_time": f"{h:02d}00", "nx": nx, "ny": ny})
    for kw in JUSO_KEYWORDS:
        add("juso_address_search", {"keyword": kw})
    for eid, terms in {**LAW_TERMS, **MORE_LAW_TERMS}.items():
        for term in terms:
            add(eid, {"query": term})
    for name in MEMBER_NAMES:
        add("assembly_allnamember", {"NAAS_NM": name})
    for st in SUBWAY_STATIONS:
        add("seoul_subway_arrivals", {"statnNm": st})
    for code in MEAL_SCHOOLS:
        school = world.school(code)
        assert school is not None, code
        for eid in ("neis_meal", "neis_class_info", "neis_school_schedule"):
            add(eid, {"ATPT_OFCDC_SC_CODE": school["ATPT_OFCDC_SC_CODE"], "SD_SCHUL_CODE": code})
    for stat, cycle, start, end in ECOS_SEARCHES:
        add("ecos_stat_search", {"STAT_CODE": stat, "CYCLE": cycle, "START_TIME": start, "END_TIME": end, "LANG": "kr"})
    for day in DUST_DAYS:
        add("airkorea_minu_dust_week_frcst_dspth", {"searchDate": day})


def add_multi_account(planned: Planned, named: list[dict[str, Any]]) -> None:
    """fnlttMultiAcnt of the first two named companies (as DartDataReader sends it)."""
    pair = ",".join(c["corp_code"] for c in named[:2])
    for year in YEARS:
        planned.add("dart_fnltt_multi_acnt", {"corp_code": pair, "bsns_year": year, "reprt_code": "11011"})


def recording_header(version: str, parent: str, edition: int, port: int, recorded_at: str, about: str) -> str:
    """The plan's comment header: what it records (``about``, comment lines without ``# ``) and
    the two commands that recorded it from the sandbox on top of ``parent``."""
    lines = [f"The plan kopa@{version} was recorded with (written by scripts/plan_{version}.py; do not edit by hand).",
             *(about.strip("\n") + f" Recorded on top of {parent}:").split("\n"),
             f"  simulator sandbox serve --seed 0 --edition {edition} --catalog full --port {port} &",
             f"  simulator record --live --upstream http://127.0.0.1:{port} --plan simulator/record/plans/{version}.yaml \\",
             f"    --cassettes cassettes --catalog full --rate 1000 --recorded-at {recorded_at}"]
    return "".join(f"# {line}\n" for line in lines)


def catalog_seeds(catalog: Catalog, world: Any, first_corp_code: str,
                  skip: Callable[[str, dict[str, str]], bool]) -> tuple[list[dict[str, Any]], Any]:
    """``simulator catalog seeds`` on ``world`` (its seeds but those ``skip(endpoint, params)``
    refuses, and its report). OpenDART's published example ``corp_code``, a real company's,
    has given way to the world's first invented listed company (asserted)."""
    plan, report = seed_plan_report(catalog, set_name="kopa", world=world)
    seeds: list[dict[str, Any]] = []
    for s in plan["seeds"]:
        if skip(s["endpoint"], s["params"]):
            continue
        assert s["params"].get("corp_code") in (None, first_corp_code), s
        seeds.append({"endpoint": s["endpoint"], "params": dict(s["params"])})
    return seeds, report


#: Elections whose NEC party codes are recorded (edition 8's parties are invented: s38-politics).
PARTY_CODE_ELECTIONS = ("20220601", "20240410", "20250603")
#: AirKorea versions clients send (pydatagokr 1.0, kpubdata 1.3, the real sample's 1.5): from
#: edition 8 the fields follow ``ver`` (s38-fidelity). The station is the world's first in 서울.
AIRKOREA_VERS = ("1.0", "1.3", "1.5")
AIRKOREA_STATION_VERS = ("1.0", "1.3")
AIRKOREA_STATION = "교북"


def carry_forward(version: str, parent: str, edition: int, header: str, about_more: str,
                  add_more: Callable[[Planned, Any], None] | None = None) -> tuple[str, str]:
    """A version recorded anew from world ``edition``, both tiers (v0009 on, each from the
    version before): ``simulator catalog seeds``, the parent's curated keys (a pledge of a
    candidate the edition lacks gives way to another of the same election; OpenDART's and FSC's
    outlines by name are taken anew), the companies' and clients' values, NEC party codes,
    AirKorea by ``ver`` and by station, then ``add_more(planned, world)``, then the parent's
    other real-keyed generated collections. Returns (the plan's text, the report's text)."""
    from simulator.catalog import load_catalog
    from simulator.sandbox.gen.synth import names_real_company
    from simulator.sandbox.world import World

    catalog = load_catalog(tier="full")
    world = World(0, edition=edition)
    listed = world.listed_companies()
    named, recorded = listed[:NAMED], listed[:COMPANIES]

    def skip(endpoint: str, params: dict[str, str]) -> bool:
        # K-apt's published example names a complex the world lacks; no station named answers
        # no rows from edition 8 (recorded by station below)
        return endpoint == "datagokr_misc_kapt_basis_info" \
            or (endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not params)

    seeds, report = catalog_seeds(catalog, world, named[0]["corp_code"], skip)
    planned = Planned(seeds)

    # the curated tier: the parent's keys; OpenDART's and FSC's outlines by name taken anew
    parent_version = Store(ROOT / "cassettes").open("kopa", parent)
    curated: list[dict[str, Any]] = []
    lost: list[dict[str, str]] = []

    def candidates(sg_id: str, tc: str) -> list[str]:
        return [c["huboid"] for c in world.candidates(sg_id, tc)]

    for c in sorted(parent_version.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "curated" or (ep.platform == "opendart" and c.endpoint != "opendart_corp_codes") \
                or c.endpoint == "fsc_corp_outline_v2":
            continue
        if c.endpoint == "nec_pledges" and c.filters["cnddtId"] not in candidates(c.filters["sgId"], c.filters["sgTypecode"]):
            lost.append(dict(c.filters))  # a candidate this edition does not have: replaced below
            continue
        if planned.claim(c.endpoint, c.filters):
            curated.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    for f in lost:  # as many pledges of the same election, of candidates this edition has
        new = next(h for h in candidates(f["sgId"], f["sgTypecode"])
                   if key("nec_pledges", {**f, "cnddtId": h}) not in planned)
        planned.claim("nec_pledges", {**f, "cnddtId": new})
        curated.append({"endpoint": "nec_pledges", "params": {**f, "cnddtId": new}})
    add_company_values(planned, catalog, world, recorded, named)
    add_client_values(planned, world)
    for sg_id in PARTY_CODE_ELECTIONS:
        planned.add("nec_party_codes", {"sgId": sg_id})
    for ver in AIRKOREA_VERS:
        planned.add("datagokr_misc_airkorea_sido_realtime", {"sidoName": "서울", "ver": ver})
    for ver in AIRKOREA_STATION_VERS:
        planned.add("airkorea_msrstn_accto_rltm_mesure_dnsty",
                    {"stationName": AIRKOREA_STATION, "dataTerm": "DAILY", "ver": ver})
    add_multi_account(planned, named)
    if add_more is not None:
        add_more(planned, world)
    more = planned.more

    def keep(endpoint: str, filters: dict[str, str]) -> bool:
        # no collection about a real company, no outline by name (taken anew above)
        if endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not filters:
            return False  # no station: no rows from edition 8 (recorded by station above)
        return endpoint != "fsc_corp_outline_v2" and not names_real_company(world, catalog.endpoints[endpoint], filters)

    kept = carried_generated(catalog, parent, planned.keys, keep)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0),
                ("replace_tiers", ["curated", "generated"]))
    text = plan_text(header, settings,
                     f"{len(seeds)} from `simulator catalog seeds`, {len(curated)} curated {parent} collections, "
                     f"{len(more)} of edition {edition} ({about_more}), then {len(kept)} more real-keyed "
                     f"generated {parent} collections", seeds + curated + more + kept)
    first = int(version.removeprefix("v"))
    intro = (f"kopa@{version}, like kopa@v0006 to v{first - 1:04d}, records none of them (no collection keyed on a "
             "dummy), so a call to one of these tools misses (`--miss native` answers the platform's no-data "
             "envelope). Record them from the live API with a plan that gives the parameter a real value "
             "(`simulator record --live`).")
    return text, report_text(f"plan_{version}.py", version, intro, report.unresolved)
