from __future__ import annotations

import json
import os
import secrets as _secrets
import shutil
from pathlib import Path
from typing import Iterator

import pytest

# No network but loopback: Hugging Face libraries stay offline and send no telemetry (their
# telemetry thread would otherwise try huggingface.co from the training tests).
for _name in ("HF_HUB_OFFLINE", "HF_HUB_DISABLE_TELEMETRY", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_name, "1")


_SHIPPED = Path(__file__).resolve().parents[1] / "cassettes"


def _shipped_hashes() -> frozenset[str]:
    hashes = set()
    for manifest in _SHIPPED.glob("*/*/manifest.json"):
        try:
            hashes.add(json.loads(manifest.read_text(encoding="utf-8"))["content_hash"])
        except (OSError, ValueError, KeyError):
            continue
    return frozenset(hashes)


@pytest.fixture(scope="session")
def _shipped_index_seed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compiled indexes of the *shipped* versions, kept for this test process (one per xdist
    worker): a test's own cache starts with hard links to them, so it opens a shipped version
    in about 0.5 s (the text's and the index's sha256 are still checked, as on any cold open)
    instead of compiling it again (5–20 s). Filled from what tests compile (below)."""
    return tmp_path_factory.mktemp("shipped-index-seed")


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                    _shipped_index_seed: Path) -> Iterator[None]:
    """Every test gets its own index cache, so no test reads another's compiled files, and
    its own user data directory (``platformdirs``), so no test records into the real one.

    The cache starts with hard links to the shipped versions' indexes compiled earlier in this
    process. A link is only a starting point: opening re-checks the index against its sha256
    and recompiles a damaged one into a *new* file (an atomic rename, which leaves the shared
    inode alone). A test that damages a linked file in place is noticed after it (size or
    mtime changed) and that seed is dropped, so the next test compiles afresh."""
    cache = tmp_path_factory.mktemp("cache")
    data = tmp_path_factory.mktemp("data")
    index = cache / "index"
    index.mkdir()
    seeds = {f.name: f.stat() for f in _shipped_index_seed.iterdir()}
    for name in seeds:
        os.link(_shipped_index_seed / name, index / name)
    monkeypatch.setenv("KOPA_CACHE", str(cache))
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    yield
    try:
        _publish_seeds(index, seeds, _shipped_index_seed)
    finally:
        # A test's compiled indexes are 10-110 MB each; kept for the whole run they filled
        # CI's disk (11 GB in one run). What is worth keeping is linked into the seed above.
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


def _publish_seeds(index: Path, seeds: dict[str, os.stat_result], _shipped_index_seed: Path) -> None:
    """Drop a seed the test wrote in place; link the shipped indexes it compiled intact into
    the seed folder for the tests after it."""
    for name, before in seeds.items():
        seed = _shipped_index_seed / name
        now = seed.stat()
        if (now.st_size, now.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
            seed.unlink()  # written in place by the test: never hand it to another
    shipped = _shipped_hashes()
    for sqlite in index.glob("*.sqlite"):
        sidecar = sqlite.with_name(sqlite.name + ".sha256")
        if sqlite.name.split(".")[0] not in shipped or (_shipped_index_seed / sqlite.name).exists():
            continue
        if not sidecar.is_file() or not _intact(sqlite):
            continue
        os.link(sqlite, _shipped_index_seed / sqlite.name)
        os.link(sidecar, _shipped_index_seed / sidecar.name)


def _intact(sqlite: Path) -> bool:
    from simulator.store.integrity import index_intact

    try:
        return bool(index_intact(sqlite))
    except Exception:  # noqa: BLE001 - anything unreadable is simply not shared
        return False


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
    """Tests marked ``slow`` run with ``-m slow`` or ``KOPA_SLOW=1`` (CI sets it); else skipped.
    Under ``--dist loadgroup`` the tests of one ``xdist_group`` go to one worker
    (tests/support/xdist_groups.py: xdist's own grouping is lost on pytest 9.2); a test using a
    shared build's fixture is put in its group here."""
    import os

    from tests.support.synth_runs import GROUP_OF_FIXTURE
    from tests.support.xdist_groups import group_by_fixture, keep_groups

    group_by_fixture(items, GROUP_OF_FIXTURE)
    keep_groups(config, items)
    expr = str(config.getoption("markexpr") or "")
    if os.environ.get("KOPA_SLOW") == "1" or ("slow" in expr and "not slow" not in expr):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or KOPA_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def shipped_store(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The shipped cassettes with one index cache for this test process: module- and
    session-scoped fixtures that only read shipped versions open them here, so each version's
    index is compiled once per process, not once per module (5-20 s each). Tests that write
    or damage a cache make their own."""
    from simulator import Store

    return Store(cache_dir=tmp_path_factory.mktemp("shipped-store-cache"))


@pytest.fixture(scope="session")
def synth_1000(shipped_store, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One 1,000-example synthesis run with the CLI's defaults (tests/support/synth_runs.py),
    shared by the tests that check it (each put in ``xdist_group(SYNTH_1000)``)."""
    from tests.support.synth_runs import thousand_run

    return thousand_run(shipped_store, tmp_path_factory.mktemp("synth-1000"))


@pytest.fixture(scope="session")
def v0005_full(shipped_store):  # type: ignore[no-untyped-def]
    """kopa@v0005's full-tier graph (seed 7, the small budget) and gold hold-out, shared (the
    tests using it are put in ``xdist_group(V0005_FULL)``)."""
    from tests.support.synth_runs import v0005_full_graph

    return v0005_full_graph(shipped_store)


@pytest.fixture(scope="session")
def v0001_small(shipped_store, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """kopa@v0001's curated-tier graph (seed 7, the small budget) and a 150-example synthesis
    run over it with its files (tests/support/synth_runs.py), shared by EDGE's pipeline and
    rules tests and the bench's audit test (put in ``xdist_group(V0001_SMALL)``). Read only:
    a test that annotates examples copies them first."""
    from tests.support.synth_runs import v0001_small_run

    return v0001_small_run(shipped_store, tmp_path_factory.mktemp("v0001-small"))
