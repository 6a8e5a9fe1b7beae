"""Long commands say what they are doing on stderr (issue 31: `diff` took 12-16 s and `audit`
20-47 s printing nothing; `record --live` at a plan's rate ran for minutes silently): a short
line per stage, the same on every run, and stdout's report unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator import Store, VersionBuilder, load_catalog
from simulator.cli import app
from simulator.sandbox import create_app as sandbox_app
from simulator.store.diff import diff_versions
from tests.support.helpers import build_demo_version, station_records
from tests.support.loopback import serve_in_thread
from tests.support.record import RECORDED_AT, SMALL_PLAN_COLLECTIONS, write_plan

runner = CliRunner()


@pytest.fixture
def two_versions(tmp_path: Path) -> Store:
    store = Store(build_demo_version(tmp_path / "c").root, cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "kopa", load_catalog(), parent="v0001")
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=34010",
                     filters={"cityCode": "34010"}, fmt="json", total=3, records=station_records(3, "34010"))
    b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    return store


def _invoke(store: Store, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [*args, "--cassettes", str(store.root)], env={"KOPA_CACHE": str(store.cache_dir)})


def test_diff_says_each_stage_on_stderr_and_keeps_stdout(two_versions: Store) -> None:
    store = two_versions
    res = _invoke(store, "diff", "v0001", "v0002", "--json")
    assert res.exit_code == 0, res.output
    expected = diff_versions(store.open("kopa", "v0001"), store.open("kopa", "v0002"), load_catalog())
    assert json.loads(res.stdout) == expected.to_dict()  # the report, and only it, on stdout
    assert res.stderr.splitlines() == [
        "diff: opening kopa@v0001 and kopa@v0002 (a first open compiles each index)…",
        "diff: comparing collections (2)…",
        "diff: comparing interactions (1)…",
    ]
    again = _invoke(store, "diff", "v0001", "v0002", "--json")
    assert (again.stdout, again.stderr) == (res.stdout, res.stderr)  # deterministic


def test_diff_versions_reports_every_collection(two_versions: Store) -> None:
    seen: list[tuple[int, int | None, str]] = []
    diff_versions(two_versions.open("kopa", "v0001"), two_versions.open("kopa", "v0002"),
                  progress=lambda d, t, s: seen.append((d, t, s)))
    assert seen == [(0, 2, "comparing collections"), (1, 2, "comparing collections"),
                    (2, 2, "comparing collections"), (0, 1, "comparing interactions")]


def test_audit_says_each_stage_on_stderr_and_keeps_stdout(two_versions: Store) -> None:
    store = two_versions
    store.open("kopa", "v0002")  # compiles the index, so the audit scans it too
    res = _invoke(store, "audit", "v0002")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("kopa@v0002: ") and "clean" in res.stdout and "audit:" not in res.stdout
    lines = res.stderr.splitlines()
    assert lines[0].startswith("audit: scanning kopa@v0002 files (") and lines[-1].startswith(
        "audit: scanning the index ("), lines


def test_record_says_each_endpoint_as_it_starts(tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "plan.yaml")
    with serve_in_thread(sandbox_app(seed=0)) as upstream:
        res = runner.invoke(app, ["record", "--live", "--upstream", upstream, "--cassettes", str(tmp_path / "c"),
                                  "--plan", str(plan), "--recorded-at", RECORDED_AT],
                            env={"KOPA_CACHE": str(tmp_path / "cache"), "COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    lines = [x for x in res.stderr.splitlines() if x.startswith("record: ")]
    assert lines[0] == "record: 0 collections done; tago_stations_by_name…"
    assert lines[-1] == f"record: {SMALL_PLAN_COLLECTIONS:,} collections done; publishing…"
    assert len(lines) == 10  # 8 seed endpoints, the crawled one, publishing
