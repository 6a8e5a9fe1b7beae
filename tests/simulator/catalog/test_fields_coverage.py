"""Held against real response bodies written by others (``../shared/samples``), the fields the
simulator answers with carry >= 95 % of the real records' fields (#27, "what it must show");
``scripts/fields_coverage.py`` prints the figure per body."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from simulator.catalog import Catalog, load_catalog
from tests.support.paths import SAMPLES

ROOT = Path(__file__).resolve().parents[3]


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fields_coverage", ROOT / "scripts" / "fields_coverage.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fields_coverage", mod)  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_real_bodies_fields_are_carried(catalog: Catalog) -> None:
    if not SAMPLES.is_dir():
        pytest.skip(f"no samples at {SAMPLES} (../shared/samples beside the checkout)")
    cov = _script().measure(catalog, SAMPLES)
    assert len(cov.bodies) >= 20, "fewer real bodies with records than the samples hold: is the tree complete?"
    lines = [f"{b.sample} ({b.endpoint}): missing {b.missing}" for b in cov.bodies if b.missing]
    assert cov.share >= 0.95, f"{100 * cov.share:.1f} % of real record fields carried\n" + "\n".join(lines)


def test_a_field_the_endpoint_does_not_serve_counts_as_missing(catalog: Catalog) -> None:
    """The measure can fail: a retired field is not served, so a body holding it misses it."""
    mod = _script()
    ep = next(e for e in catalog.endpoints.values() if (e.options or {}).get("retired_fields"))
    retired = ep.options["retired_fields"][0]
    served = mod.served_fields(catalog, ep.id)
    assert retired not in served and served
    body = mod.BodyCoverage("x", ep.id, [*sorted(served)[:1], retired], [retired])
    cov = mod.Coverage(bodies=[body])
    assert cov.carried == 1 and cov.real_fields == 2 and cov.share == 0.5
