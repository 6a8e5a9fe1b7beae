"""Shared pieces of the recording tests (no tests here): a small plan in the default plan's
style, the ``simulator record`` command line, file-tree digests, and recording a plan from a
sandbox of one world edition in process (the shipped versions' re-recordings)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterable

import shutil
from unittest import mock

import yaml

from simulator.catalog import Catalog, load_catalog
from simulator.record import LiveClient, Plan, Recorder, load_plan
from simulator.record.recorder import RecordResult
from simulator.sandbox import create_app, default_keys
from simulator.store import Store, Version
from simulator.store.objects import logical_name, stored_sha256
from tests.support.loopback import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
RECORDED_AT = "2026-11-02T00:00:00Z"
SHIPPED = ROOT / "cassettes" / "kopa"
PLANS = ROOT / "simulator" / "record" / "plans"

#: Seeds and one crawl, like ``simulator/record/plans/default.yaml`` but small: keys in the
#: query (data.go.kr ``serviceKey``, law.go.kr ``OC``, Assembly ``KEY``, Juso ``confmKey``)
#: and in the URL path (Seoul Open Data, ECOS, swopenapi); multi-page collections (law
#: search: 16 pages of 100, NEC: 3 of 100, Juso: 2 of 100) so a kill can land mid-collection.
SMALL_PLAN: dict[str, Any] = {
    "set": "kopa",
    "rate_per_sec": {"default": 0},
    "fidelity_samples": 1,
    "seeds": [
        {"endpoint": "tago_stations_by_name", "params": {"cityCode": "25"}},
        {"endpoint": "seoul_public_library", "params": {}},
        {"endpoint": "ecos_stat_tables", "params": {"LANG": "kr"}},
        {"endpoint": "seoul_subway_arrivals", "params": {"statnNm": "가능"}},
        {"endpoint": "juso_address_search", "params": {"keyword": "강남구"}},
        {"endpoint": "assembly_committee_members", "params": {}},
        {"endpoint": "nec_winners", "params": {"sgId": "20240410", "sgTypecode": "2"}},
        {"endpoint": "lawgokr_law_search", "params": {}},
    ],
    "crawls": [
        {"from": "tago_stations_by_name", "source_filters": {"cityCode": "25"}, "field": "nodeid",
         "limit": 3, "to": "tago_station_arrivals", "param": "nodeId", "params": {"cityCode": "25"}},
    ],
}

#: Collections the small plan records (8 seeds + 3 crawled).
SMALL_PLAN_COLLECTIONS = 11


def write_plan(path: Path, plan: dict[str, Any] | None = None) -> Path:
    path.write_text(yaml.safe_dump(plan or SMALL_PLAN, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def record_argv(upstream: str, cassettes: Path, plan: Path, *, rate: float = 0) -> list[str]:
    """``python -m simulator record --live …`` against a sandbox."""
    return [
        sys.executable, "-m", "simulator", "record", "--live", "--upstream", upstream,
        "--cassettes", str(cassettes), "--plan", str(plan), "--recorded-at", RECORDED_AT,
        "--rate", str(rate),
    ]


def cli_env(cache: Path, keys: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a CLI run: its own index cache, only the given ``KOPA_KEY_*``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOPA_")}
    env["KOPA_CACHE"] = str(cache)
    env["COLUMNS"] = "200"  # rich wraps its stderr lines at the terminal width
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(keys or {})
    return env


def run_record(upstream: str, cassettes: Path, plan: Path, cache: Path,
               keys: dict[str, str] | None = None, rate: float = 0) -> subprocess.CompletedProcess[str]:
    """One uninterrupted CLI recording; fails the test with its output if it fails."""
    proc = subprocess.run(record_argv(upstream, cassettes, plan, rate=rate), cwd=ROOT, env=cli_env(cache, keys),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"record failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def record_in_process(upstream: str, cassettes: Path, plan: Path) -> RecordResult:
    """The job ``simulator record --live --upstream …`` runs (sandbox keys), in this process:
    same plan file, so the same checkpoint as the command's."""
    catalog = load_catalog()
    with LiveClient(catalog, default_keys(catalog), upstream=upstream, rate_per_sec={"default": 0},
                    sleep=lambda _s: None) as client:
        return Recorder(load_plan(plan), store=Store(cassettes), catalog=catalog, client=client,
                        source="sandbox").run(recorded_at=RECORDED_AT, info={"upstream": "sandbox"})


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (relative path → hex)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def verify_version(cassettes: Path, version: str, set_name: str = "kopa") -> str:
    """Every file of a visible version matches its manifest; returns the content hash."""
    vdir = cassettes / set_name / version
    manifest = json.loads((vdir / "manifest.json").read_text(encoding="utf-8"))
    # A file stored compressed (``x.jsonl.gz``, format 3) is hashed as the text it decodes to.
    on_disk = {
        str(logical_name(p).relative_to(vdir)): stored_sha256(p)
        for p in sorted(vdir.rglob("*"))
        if p.is_file() and p.name != "manifest.json"
    }
    # Files sharing their parent's bytes (``segments``) are not in the folder; verify reads them.
    whole = {k: v for k, v in manifest["files"].items() if k not in manifest.get("segments", {})}
    assert on_disk == whole, f"{version}: files differ from its manifest"
    assert Store(cassettes).verify(set_name, version) == []
    return str(manifest["content_hash"])


def versions(cassettes: Path, set_name: str = "kopa") -> list[str]:
    if not (cassettes / set_name).is_dir():
        return []
    return [m.version for m in Store(cassettes).versions(set_name)]


def latest_hash(cassettes: Path, set_name: str = "kopa") -> str:
    vs = versions(cassettes, set_name)
    assert vs, f"no version in {cassettes}"
    return verify_version(cassettes, vs[-1], set_name)


# ---- recording from a world edition, in process -------------------------------------------------
def record_plan(root: Path, plan: dict[str, Any], edition: int, recorded_at: str = RECORDED_AT,
                catalog: Catalog | None = None) -> None:
    """Record ``plan`` from a seed-0 sandbox of world ``edition`` on loopback into ``root``
    (``catalog``: the one both sides use, default the shipped full tier)."""
    catalog = catalog or load_catalog()
    with serve_in_thread(create_app(seed=0, catalog=catalog, edition=edition)) as base:
        with LiveClient(catalog, default_keys(catalog), upstream=base, rate_per_sec={"default": 0},
                        sleep=lambda _s: None) as client:
            Recorder(Plan.model_validate(plan), store=Store(root), catalog=catalog, client=client,
                     source="sandbox").run(recorded_at=recorded_at)


def record_seeds(root: Path, edition: int, seeds: list[dict[str, Any]], catalog: Catalog | None = None,
                 crawls: list[dict[str, Any]] | None = None) -> Version:
    """Record ``seeds`` (and ``crawls``) from world ``edition`` into ``root``; the version published."""
    plan = {"set": "kopa", "rate_per_sec": {"default": 0}, "fidelity_samples": 0, "seeds": seeds,
            "crawls": crawls or []}
    record_plan(root, plan, edition, catalog=catalog)
    return Store(root, cache_dir=root / "cache").open("kopa")


def records_by_key(v: Version, keys: Iterable[str] | None = None) -> dict[str, list[str]]:
    """The collections of ``v`` (those of ``keys`` that ``v`` holds, default all): key → its
    records as sorted-key JSON lines."""
    wanted = None if keys is None else set(keys)
    return {c.key: [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in v.index.records(c.id, 0, c.count)]
            for c in v.collections() if wanted is None or c.key in wanted}


def shipped_hash(version: str) -> str:
    return str(json.loads((SHIPPED / version / "manifest.json").read_text(encoding="utf-8"))["content_hash"])


def rerecorded_hash(tmp_path: Path, plan_path: Path, version: str, recorded_at: str, edition: int = 4) -> str:
    """``plan_path`` recorded from a fresh sandbox of world ``edition`` onto copies of the
    shipped versions before ``version``: the content hash of the ``version`` it publishes."""
    root = tmp_path / "cassettes"
    for v in sorted(p.name for p in SHIPPED.glob("v*") if p.name < version):
        shutil.copytree(SHIPPED / v, root / "kopa" / v)
    shutil.copytree(SHIPPED / "objects", root / "kopa" / "objects")
    plan = yaml.safe_load(plan_path.read_text(encoding="utf-8"))
    plan["rate_per_sec"] = {"default": 0}
    record_plan(root, plan, edition, recorded_at=recorded_at)
    return str(json.loads((root / "kopa" / version / "manifest.json").read_text(encoding="utf-8"))["content_hash"])


def catalog_before_family_types() -> Catalog:
    """The shipped full tier as it was before the data.go.kr families typed generated
    endpoints' fields (``field_types`` of ``simulator/catalog/datagokr_families.yaml``, added
    after kopa@v0005 was recorded): every such field left at ``string``. A fresh catalog, not
    the cached one ``load_catalog()`` hands out."""
    from simulator.catalog import loader
    from simulator.catalog.datagokr_families import Family

    with mock.patch.object(Family, "type_of", lambda _self, _field: None):
        return loader._default_catalog.__wrapped__("full")  # type: ignore[attr-defined,no-any-return]


#: Field facts the generator reads since after ``kopa@v0005`` was recorded: the FSC guides'
#: response items and kpubdata's catalogue (LOCALDATA's permit services, AirKorea, KMA). They
#: relabel, retype and add fields of generated endpoints that v0003–v0005 hold; the sandbox
#: draws a field's values from its label and type, so editions 2–4 now answer those tools with
#: other values than the shipped versions hold (``BPLC_NM``: "사업장명 1", recorded as
#: "사업자명 을 1" from the filter param it was named by). kloud80/datagokr-mcp's measured
#: schemas (``datagokr_mcp_fields``) came later still; they only add fields served from world
#: edition 6 (``late_fields``), and are left out here too.
LATER_FIELD_FACTS = frozenset({"kpubdata_fields", "fields_guides", "datagokr_mcp_fields"})


def catalog_as_recorded() -> Catalog:
    """The shipped full tier as ``kopa@v0003``–``kopa@v0005`` were recorded with it: the
    generated endpoints built again from the facts without :data:`LATER_FIELD_FACTS`, and
    no data.go.kr family types (:func:`catalog_before_family_types`). A fresh catalog."""
    from simulator.catalog import loader, tiers
    from simulator.catalog.datagokr_families import Family
    from simulator.catalog.generate import build

    read_facts = build.read_facts

    def facts_then(name: str) -> Any:
        return {"operations": []} if name in LATER_FIELD_FACTS else read_facts(name)

    with mock.patch.object(build, "read_facts", facts_then):
        platforms = build.build_platforms()[0]
    with mock.patch.object(Family, "type_of", lambda _self, _field: None), \
            mock.patch.object(tiers, "_raw_generated", lambda _tier: platforms):
        return loader._default_catalog.__wrapped__("full")  # type: ignore[attr-defined,no-any-return]
