"""One ``StrEnum`` per shared vocabulary (``simulator.vocab``), defined once: the tuples other
modules list are those enums' values, the values are the ones files hold, and the catalog
validates against them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bench.kopa.tasks as tasks
import edge.synth.pipeline as pipeline
import edge.synth.sample as sample
from simulator import Domain, Junction, MainPlatform, MissPolicy, Resolver, Role, load_catalog
from simulator.catalog import Param

ROOT = Path(__file__).resolve().parents[2]


def test_the_values_are_the_ones_files_hold() -> None:
    assert [r.value for r in Role] == ["auth", "page", "page_size", "range_start", "range_end", "format",
                                       "filter", "plain", "ignore", "order"]
    assert [m.value for m in MissPolicy] == ["strict", "native", "live"]
    assert [j.value for j in Junction] == ["SEQ", "FAN", "DRV", "SEM", "CMP", "COND"]
    assert [d.value for d in Domain] == ["traffic", "finance", "education", "law", "politics", "district"]
    assert len(MainPlatform) == 10


def test_the_listed_tuples_are_the_enums() -> None:
    assert tasks.DOMAINS == pipeline.DOMAINS == tuple(d.value for d in Domain)
    assert tasks.JUNCTIONS == sample.JUNCTIONS == tuple(j.value for j in Junction)
    assert tasks.MAIN_PLATFORMS == pipeline.MAIN_PLATFORMS == tuple(p.value for p in MainPlatform)
    assert all(type(x) is str for x in tasks.DOMAINS + tasks.JUNCTIONS + tasks.MAIN_PLATFORMS)


def test_the_catalog_validates_roles_and_domains_and_dumps_plain_text() -> None:
    cat = load_catalog(tier="curated")
    assert {p.domain for p in cat.platforms.values()} <= set(Domain)
    param = Param.model_validate({"name": "pageNo", "role": "page"})
    assert param.role == Role.PAGE and type(param.model_dump()["role"]) is str
    with pytest.raises(ValueError, match="role"):
        Param.model_validate({"name": "x", "role": "pager"})


def test_a_bad_miss_policy_names_the_choices(tmp_path: Path) -> None:
    from tests.support.helpers import build_demo_version, resolver_for

    build_demo_version(tmp_path)
    assert resolver_for(tmp_path, miss="native").miss is MissPolicy.NATIVE
    with pytest.raises(ValueError, match="use strict, native, live"):
        Resolver(resolver_for(tmp_path).version, miss="lenient")  # type: ignore[arg-type]


def test_no_vocabulary_is_spelled_out_again() -> None:
    """No module lists a vocabulary's values as a literal tuple (use the enum)."""
    vocabularies = [tuple(e.value for e in enum) for enum in (Domain, Junction, MainPlatform)]
    found = []
    for package in ("simulator", "edge", "bench", "train", "perf"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Constant) for e in node.elts):
                    values = tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
                    if values in vocabularies:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "import the enum from simulator.vocab instead:\n" + "\n".join(found)
