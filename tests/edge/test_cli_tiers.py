"""``edge graph``, ``edge report`` and ``edge synthesize`` share one default catalog tier, so the
docs' ``edge graph`` then ``edge synthesize --graph`` runs with no flag; a graph of another tier
is refused in one short line that names the flag that loads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from edge.catalog import edge_catalog
from edge.cli import edge_app
from simulator import load_catalog

from tests.support.helpers import build_demo_version


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("KOPA_CATALOG", raising=False)
    root = tmp_path / "cassettes"
    build_demo_version(root)
    return root


class _Synthesized(Exception):
    """Raised by the stand-in synthesis: the command got past loading the graph."""


def test_graph_then_synthesize_with_no_catalog_flag(demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import edge.synth

    seen: dict[str, object] = {}

    def synthesize(version: object, catalog: object, graph: object, **kw: object) -> None:
        seen.update(catalog=catalog, graph=graph)
        raise _Synthesized

    monkeypatch.setattr(edge.synth, "synthesize", synthesize)  # the graph load is what is tested here
    runner = CliRunner()
    g = tmp_path / "edge-out"
    r = runner.invoke(edge_app, ["graph", "--cassettes", str(demo), "--out", str(g), "--iterations", "1", "--paths", "1"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(edge_app, ["synthesize", "--cassettes", str(demo), "--graph", str(g), "--n", "1",
                                 "--out", str(tmp_path / "synth-out")])
    assert isinstance(r.exception, _Synthesized), r.output[:500]
    assert getattr(seen["catalog"], "tier") == "edge"  # EDGE's default catalog (edge.catalog)
    data = json.loads((g / "graph.json").read_text(encoding="utf-8"))
    assert data["catalog"] == "edge"  # the name a mismatch error names (--catalog edge)
    assert len(data["nodes"]) == len(edge_catalog().endpoints) == len(load_catalog(tier="curated").endpoints) + 1
    r = runner.invoke(edge_app, ["report", str(g)])
    assert r.exit_code == 0, r.output[:500]


def test_a_graph_of_another_tier_is_one_short_line(demo: Path, tmp_path: Path) -> None:
    full = sorted(load_catalog(tier="full").endpoints)
    g = tmp_path / "edge-full"
    g.mkdir()
    (g / "graph.json").write_text(json.dumps({"format": 1, "catalog": "full", "nodes": full, "edges": []}),
                                  encoding="utf-8")
    from edge.graph import GRAPH_FORMAT

    assert GRAPH_FORMAT == 1  # the hand-written file above is of the format edge reads
    r = CliRunner().invoke(edge_app, ["synthesize", "--cassettes", str(demo), "--graph", str(g), "--n", "1",
                                      "--out", str(tmp_path / "o")])
    assert r.exit_code == 1
    assert r.stderr.startswith("using kopa@v0001 ")  # which version: the first line
    (err,) = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert len(err) < 600, err[:800]
    default = edge_catalog().endpoints
    extra = sorted(set(full) - set(default))
    assert f"{len(extra):,} of them are not in the edge catalog" in err
    assert extra[0] in err and extra[-1] not in err
    assert "--catalog full" in err
    assert not (tmp_path / "o").exists()
