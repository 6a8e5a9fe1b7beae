"""``recipes/gpu-check.sh --dry-run``: the GPU runbook's steps on the CPU with the tiny model
(GRPO from the shipped rows, ``train eval`` with the base picked from the run, the summary)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("trl")
pytest.importorskip("torch")

SCRIPT = Path(__file__).resolve().parents[2] / "recipes" / "gpu-check.sh"


@pytest.mark.slow
def test_gpu_check_dry_run(tmp_path: Path) -> None:
    sim = Path(sys.executable).parent / "simulator"
    env = {**os.environ, "OUT": str(tmp_path / "out"), "PY": sys.executable, "SIM": str(sim),
           "PYTHONPATH": os.pathsep.join([str(SCRIPT.parents[1]), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run(["bash", str(SCRIPT), "--dry-run"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=1500)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "base: pass@1" in out and "trained: pass@1" in out and "GRPO: 1 step(s)" in out
    assert (tmp_path / "out" / "grpo" / "base-model").is_dir()  # eval's base: the tiny run's own start


def test_gpu_check_refuses_a_missing_model_dir(tmp_path: Path) -> None:
    res = subprocess.run(["bash", str(SCRIPT), str(tmp_path / "nope")], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 2 and "not a directory" in res.stderr
