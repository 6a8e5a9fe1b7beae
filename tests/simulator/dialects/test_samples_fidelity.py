"""Every real sample in ``../shared/samples`` passes ``simulator fidelity`` or is listed with
the reason it cannot (its case in ``tests/fidelity/*.yaml`` says why, or its platform is not
in the catalog). Run with ``-s`` to see the list; it is also printed on failure."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator.catalog import load_catalog
from simulator.fidelity import check_fidelity
from tests.support.paths import SAMPLES

CASES = Path(__file__).resolve().parents[3] / "tests" / "fidelity"


def _cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(f.read_text("utf-8")):
            out[case["sample"]] = case
    return out


def test_every_sample_passes_fidelity_or_has_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    if not SAMPLES.is_dir():
        pytest.skip(f"no samples at {SAMPLES} (../shared/samples beside the checkout)")
    cases, catalog = _cases(), load_catalog()
    files = sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.glob("*/*") if p.is_file())
    passing, reasons, failing = [], [], []
    for name in files:
        case = cases.get(name)
        if case is None:
            folder = name.split("/", 1)[0]
            reasons.append((name, f"platform folder {folder!r} is not in the catalog (no endpoint to render it)"))
            continue
        if "skip" in case:
            reasons.append((name, case["skip"]))
            continue
        result = check_fidelity(catalog, case["request"], (SAMPLES / name).read_bytes(), status=case["status"])
        (passing if result.ok else failing).append((name, result))
    lines = [f"samples: {len(files)}; pass simulator fidelity: {len(passing)}; cannot, with reason: "
             f"{len(reasons)}; failing: {len(failing)}"]
    lines += [f"  PASS  {n} ({r.endpoint}, {r.outcome})" for n, r in passing]
    lines += [f"  CAN'T {n}: {why}" for n, why in reasons]
    lines += [f"  FAIL  {n}: {r.differences[:3]}" for n, r in failing]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert not failing, "\n".join(lines)
    assert len(passing) + len(reasons) == len(files)
    assert passing, "no sample passed: is the sample tree complete?"
