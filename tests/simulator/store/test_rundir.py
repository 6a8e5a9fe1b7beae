"""A run folder is written whole or not at all (issue 31 §3, STYLE §19).

A writer that fails half-way (a full disk: it writes part of its data, then raises ENOSPC)
leaves the previous run exactly as it was, byte for byte, and no temporary sibling behind;
a run that succeeds replaces the old one whole (no file of the old run is left beside it).
Shown on ``atomic_dir`` / ``atomic_files`` and through the commands ``vcr export``, ``bench
run`` + ``bench report`` and ``edge synthesize`` (its synthesis stood in for).
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from simulator import RunFolderError, SimRequest, SimResponse, Store, VersionBuilder, atomic_dir, atomic_files, load_catalog
from simulator.cli import app


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _old_run(out: Path) -> dict[str, bytes]:
    out.mkdir(parents=True)
    (out / "report.json").write_text('{"run": "old"}\n')
    (out / "verl.jsonl").write_text('{"old": 1}\n' * 3)
    return _snapshot(out)


def _siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def _torn_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write into a temporary sibling writes half its data, then fails like a full disk."""
    real = Path.write_text

    def torn(self: Path, data: str, *args: Any, **kwargs: Any) -> int:
        if any(".new-" in part for part in self.parts):
            real(self, data[: len(data) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", torn)


def test_a_failed_run_leaves_the_old_run_and_no_sibling(tmp_path: Path) -> None:
    out = tmp_path / "synth-out"
    before = _old_run(out)
    with pytest.raises(OSError, match="No space"):
        with atomic_dir(out) as tmp:
            (tmp / "examples.jsonl").write_text("new\n")
            (tmp / "report.json").write_text('{"run": "ne')
            raise OSError(errno.ENOSPC, "No space left on device")
    assert _snapshot(out) == before
    assert _siblings(out) == []


def test_a_finished_run_replaces_the_old_one_whole(tmp_path: Path) -> None:
    out = tmp_path / "synth-out"
    _old_run(out)
    with atomic_dir(out, owns=["*.jsonl", "report.json"]) as tmp:
        assert tmp.parent == out.parent and tmp != out
        (tmp / "examples.jsonl").write_text("new\n")
        (tmp / "report.json").write_text('{"run": "new"}\n')
    assert _snapshot(out) == {"examples.jsonl": b"new\n", "report.json": b'{"run": "new"}\n'}
    assert _siblings(out) == []


def test_a_folder_with_foreign_files_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "work"
    before = _old_run(out)
    (out / "thesis.tex").write_text("mine")
    before["thesis.tex"] = b"mine"
    with pytest.raises(RunFolderError, match="thesis.tex"):
        with atomic_dir(out, owns=["*.jsonl", "report.json"]):
            pytest.fail("nothing may be written")
    assert _snapshot(out) == before and _siblings(out) == []


def test_atomic_files_replace_together_or_not_at_all(tmp_path: Path) -> None:
    a, b = tmp_path / "tool_config.yaml", tmp_path / "train.jsonl"
    a.write_text("old a")
    b.write_text("old b")
    with pytest.raises(OSError):
        with atomic_files(a, b, None) as (ta, tb, none):
            assert none is None and ta is not None and tb is not None
            ta.write_text("new a")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert (a.read_text(), b.read_text()) == ("old a", "old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tool_config.yaml", "train.jsonl"]
    with atomic_files(a, b) as (ta, tb):
        assert ta is not None and tb is not None
        ta.write_text("new a")
        tb.write_text("new b")
    assert (a.read_text(), b.read_text()) == ("new a", "new b")


def _tiny_store(root: Path) -> Store:
    store = Store(root / "cassettes", cache_dir=root / "cache")
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    for i in range(3):
        b.add_interaction(SimRequest.from_url(f"https://apis.data.go.kr/1613000/Echo/get{i}?q={i}"),
                          SimResponse(200, [("content-type", "application/json")], b'{"n": %d}' % i))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def test_vcr_export_on_a_full_disk_keeps_the_old_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _tiny_store(tmp_path)
    out = tmp_path / "exports" / "kopa.yaml"
    args = ["vcr", "export", str(out), "--cassettes", str(store.root)]
    env = {"KOPA_CACHE": str(store.cache_dir)}
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    before = out.read_bytes()
    out.write_bytes(before + b"# the previous export\n")
    before = out.read_bytes()
    _torn_writes(monkeypatch)
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code != 0
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["kopa.yaml"]


@pytest.fixture(scope="module")
def world(shipped_store: Store) -> Any:
    from bench.kopa.env import World

    return World(shipped_store.open("kopa"))


def test_bench_report_on_a_full_disk_keeps_the_old_summaries(world: Any, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.kopa.agents import make_agent
    from bench.kopa.cli import bench_app
    from bench.kopa.runner import RunConfig, load_results, run_bench
    from bench.kopa.tasks import load_tasks

    tasks = load_tasks()[:2]
    out = tmp_path / "run"
    run_bench(make_agent("oracle"), tasks[:1], world, out, RunConfig(seeds=1, k=1))
    assert CliRunner().invoke(bench_app, ["report", str(out)]).exit_code == 0
    old = _snapshot(out)
    assert {"summary.json", "summary.md", "results.jsonl", "run.json"} <= set(old)
    # more episodes appended (the resumable state), then a report that fails half-way
    run_bench(make_agent("oracle"), tasks, world, out, RunConfig(seeds=1, k=1))
    assert len(load_results(out)) == 2
    appended = _snapshot(out)
    _torn_writes(monkeypatch)
    res = CliRunner().invoke(bench_app, ["report", str(out)])
    assert res.exit_code != 0
    assert _snapshot(out) == appended  # the summaries are the old run's, whole
    assert json.loads(appended["summary.json"])["overall"]["episodes"] == 1
    assert _siblings(out) == []
    monkeypatch.undo()
    res = CliRunner().invoke(bench_app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "summary.json").read_text())["overall"]["episodes"] == 2
    assert len(load_results(out)) == 2 and _siblings(out) == []


def test_edge_synthesize_failing_half_way_keeps_the_old_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's writer fails after writing part of the new files: the old run stays whole.
    (The synthesis itself is stood in for: this is about how the run folder is written.)"""
    from types import SimpleNamespace

    import edge.cli as edge_cli
    import edge.synth as synth

    out = tmp_path / "runs" / "synth-out"
    before = _old_run(out)
    graph = tmp_path / "graph"
    graph.mkdir()
    (graph / "graph.json").write_text("{}")
    written: list[Path] = []

    def torn_write_all(examples: Any, where: Path, *args: Any, **kwargs: Any) -> Any:
        written.append(where)
        (where / "examples.jsonl").write_text("torn")
        (where / "report.json").write_text('{"run": "ne')
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(edge_cli.EdgeGraph, "load", staticmethod(lambda *a, **k: object()))
    monkeypatch.setattr(synth, "synthesize", lambda *a, **k: SimpleNamespace(examples=[], report={"filters": {}}))
    monkeypatch.setattr(synth, "write_all", torn_write_all)
    res = CliRunner().invoke(edge_cli.edge_app, ["synthesize", "--n", "1", "--out", str(out), "--graph", str(graph)])
    assert res.exit_code != 0 and written and written[0] != out, res.output
    assert _snapshot(out) == before and _siblings(out) == []
    # a folder holding a file the command does not write is refused before any work
    (out / "notes.txt").write_text("mine")
    written.clear()
    res = CliRunner().invoke(edge_cli.edge_app, ["synthesize", "--n", "1", "--out", str(out), "--graph", str(graph)])
    assert res.exit_code == 1 and "notes.txt" in res.output and not written
