from __future__ import annotations

import os
import secrets as _secrets
from pathlib import Path

import pytest

# No network but loopback: Hugging Face libraries stay offline and send no telemetry (their
# telemetry thread would otherwise try huggingface.co from the training tests).
for _name in ("HF_HUB_OFFLINE", "HF_HUB_DISABLE_TELEMETRY", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_name, "1")


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own index cache, so no test reads another's compiled files, and
    its own user data directory (``platformdirs``), so no test records into the real one."""
    monkeypatch.setenv("KOPA_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def api_key() -> str:
    """A key made at run time (never a real one, never committed)."""
    return "k" + _secrets.token_hex(20)


@pytest.fixture
def cassette_root(tmp_path: Path) -> Path:
    root = tmp_path / "cassettes"
    root.mkdir()
    return root


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run with ``-m slow`` or ``KOPA_SLOW=1`` (CI sets it); else skipped."""
    import os

    expr = str(config.getoption("markexpr") or "")
    if os.environ.get("KOPA_SLOW") == "1" or ("slow" in expr and "not slow" not in expr):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or KOPA_SLOW=1 (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
