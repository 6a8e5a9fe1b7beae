"""Honest labels (issue 27 item 6): the docs say the shipped world is synthetic, and every
report of results (bench run meta and summary, ``edge synthesize``'s report.json) names the
world it was computed on, from the version manifest's ``source``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.kopa.agents import OracleAgent
from bench.kopa.env import World
from bench.kopa.report import write_report
from bench.kopa.runner import META, RESULTS, RunConfig, run_bench, world_of
from bench.kopa.scoring import Score
from edge.synth import write_all
from simulator import Store, VersionBuilder, load_catalog
from simulator.store import Manifest

REPO = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/bench.md", "docs/synthesis.md", "docs/training.md")
#: How far down a page the statement must start ("near the top").
TOP_LINES = 30


def _top(doc: str) -> str:
    lines = (REPO / doc).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "synthetic world" in line.lower())
    assert start < TOP_LINES, f"{doc}: the synthetic-world statement starts at line {start + 1}"
    block = []
    for line in lines[start:]:
        if not line.startswith(">"):
            break
        block.append(line.lstrip("> "))
    return re.sub(r"\s+", " ", " ".join(block))


@pytest.mark.parametrize("doc", DOCS)
def test_docs_say_the_shipped_world_is_synthetic(doc: str) -> None:
    text = _top(doc)
    assert "sandbox" in text and "source: sandbox" in text
    assert "real" in text and "invented" in text  # what is real, what is invented
    assert "wire formats" in text and "catalog facts" in text and "code tables" in text
    assert "not comparable with" in text and "live APIs" in text
    assert "simulator record --live" in text and "your own keys" in text
    assert "--cassettes my-cassettes" in text  # how to rerun on the recording


def test_manifest_names_its_world() -> None:
    shipped = json.loads(sorted((REPO / "cassettes" / "kopa").glob("v*/manifest.json"))[-1].read_text("utf-8"))
    assert shipped["source"] == "sandbox"
    assert Manifest.model_validate(shipped).world == "synthetic (sandbox)"
    assert Manifest.model_validate({**shipped, "source": "live"}).world == "real (live)"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A one-collection version recorded from the sandbox (as the shipped ones say)."""
    root = tmp_path_factory.mktemp("labels")
    store = Store(root / "cassettes", cache_dir=root / "cache")
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    b.add_collection(endpoint="tago_city_codes", key="tago_city_codes", filters={}, fmt="json", total=1,
                     records=[{"citycode": 25, "cityname": "대전광역시"}], envelope={})
    b.publish(recorded_at="2026-12-01T00:00:00Z", source="sandbox")
    return World(store.open("kopa"))


def test_bench_run_and_report_carry_the_world(tiny: World, tmp_path: Path) -> None:
    assert world_of(tiny.version) == "synthetic (sandbox)"
    out = tmp_path / "run"
    run_bench(OracleAgent(), [], tiny, out, RunConfig(seeds=1, k=1))
    assert json.loads((out / META).read_text(encoding="utf-8"))["world"] == "synthetic (sandbox)"
    row = {"task": "t-0", "seed": 0, "agent": "oracle", "content_hash": tiny.version.content_hash,
           "platforms": ["tago"], "domain": "traffic", **Score(True, True, True).to_json(),
           "answer": "x", "calls": 1, "gold_calls": 1, "turns": 1, "error": None, "elapsed_s": 0.0, "trace": []}
    (out / RESULTS).write_text(json.dumps(row) + "\n", encoding="utf-8")
    summary = write_report(out)
    assert summary["world"] == "synthetic (sandbox)"
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["world"] == "synthetic (sandbox)"
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "World: **synthetic (sandbox)**" in md and "not comparable with results on the live APIs" in md


def test_edge_synthesize_report_carries_the_world(tiny: World, tmp_path: Path) -> None:
    paths = write_all([], tmp_path, tiny.version, tiny.catalog, {"attempts": 0})
    report = json.loads(paths["report"].read_text(encoding="utf-8"))
    assert report["world"] == "synthetic (sandbox)" and report["attempts"] == 0


def test_task_files_say_their_answers_come_from_the_synthetic_world() -> None:
    from bench.kopa.author import HEADER

    files = sorted((REPO / "bench" / "kopa" / "tasks").glob("*.yaml"))
    assert len(files) == 6
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert text.startswith(HEADER.format(domain=f.stem)), f.name
        assert "synthetic world" in text[:400] and "invented values" in text[:400]
