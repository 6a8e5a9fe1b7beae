"""Where the shared reference material lives: ``../shared`` beside the checkout (as in CI)."""

from __future__ import annotations

import os
from pathlib import Path


def shared_dir() -> Path:
    env = os.environ.get("KOPA_SHARED")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parents[3] / "shared"
    return beside if beside.is_dir() else Path("/work/shared")


SAMPLES = shared_dir() / "samples"
