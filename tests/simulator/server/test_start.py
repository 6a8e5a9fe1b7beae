"""`simulator serve` prints its banner only once its socket listens (issue #18): a request
sent the moment the banner appears is answered, never refused; ``--port 0`` names the port."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from perf.coldstart import first_answer
from tests.support.helpers import build_demo_version

pytestmark = pytest.mark.integration


def test_a_request_right_after_the_banner_is_answered(tmp_path: Path) -> None:
    build_demo_version(tmp_path / "cassettes", n=57)
    env = dict(os.environ, KOPA_CASSETTES=str(tmp_path / "cassettes"), KOPA_CACHE=str(tmp_path / "cache"))
    sim = shutil.which("simulator")
    assert sim is not None
    wall, _cpu = first_answer(sim, env, tmp_path, timeout=60)  # raises unless a window came back
    assert wall > 0
