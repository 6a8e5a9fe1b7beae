"""Builders the dialect tests share (plain functions and constants, not fixtures).

The fidelity loop of every family is the same: the cases of ``tests/fidelity/<family>.yaml``
name a raw body under :data:`SAMPLES` and the request it answered; :func:`fidelity` parses
the body and renders it back (:func:`simulator.fidelity.check_fidelity`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator.catalog import DATA_DIR, Catalog, Match, load_platform_file
from simulator.fidelity import FidelityResult, check_fidelity
from simulator.request import SimRequest
from tests.support.paths import SAMPLES

__all__ = [
    "SAMPLES",
    "body_cases",
    "case_params",
    "fidelity",
    "load_cases",
    "match_url",
    "platform_catalog",
]

_CASES_DIR = Path(__file__).resolve().parents[2] / "tests" / "fidelity"


def load_cases(family: str) -> list[dict[str, Any]]:
    """The fidelity cases of ``tests/fidelity/<family>.yaml``."""
    cases: list[dict[str, Any]] = yaml.safe_load(
        (_CASES_DIR / f"{family}.yaml").read_text("utf-8")
    )
    return cases


def body_cases(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cases that name a raw body (no ``skip``)."""
    return [c for c in cases if "skip" not in c]


def case_params(cases: list[dict[str, Any]]) -> list[Any]:
    """``cases`` as pytest params named by their sample; a ``skip`` case is skipped with its reason."""
    out = []
    for case in cases:
        marks = [pytest.mark.skip(reason=case["skip"])] if "skip" in case else []
        out.append(pytest.param(case, id=case["sample"], marks=marks))
    return out


def platform_catalog(*platforms: str) -> Catalog:
    """A catalog of the shipped platform files ``platforms`` only."""
    return Catalog([load_platform_file(DATA_DIR / f"{p}.yaml") for p in platforms])


def match_url(catalog: Catalog, url: str) -> Match:
    """``catalog``'s match of a GET of ``url``."""
    return catalog.match(SimRequest.from_url(url))


def fidelity(catalog: Catalog, case: dict[str, Any]) -> FidelityResult:
    """Parse the case's sample body and render it back (the case's request and status)."""
    body = (SAMPLES / case["sample"]).read_bytes()
    return check_fidelity(catalog, case["request"], body, status=case["status"])
