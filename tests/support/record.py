"""Shared pieces of the ``test_record_*`` files (no tests here): a small plan in the default
plan's style, the ``simulator record`` command line, and file-tree digests."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from simulator.catalog import load_catalog
from simulator.record import LiveClient, Recorder, load_plan
from simulator.record.recorder import RecordResult
from simulator.sandbox import default_keys
from simulator.store import Store

ROOT = Path(__file__).resolve().parents[2]
RECORDED_AT = "2026-11-02T00:00:00Z"

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
    on_disk = {k: v for k, v in tree_digest(vdir).items() if k != "manifest.json"}
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
