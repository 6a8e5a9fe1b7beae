"""The README's test command (``-n auto --dist loadgroup``) runs the tests of one
``xdist_group`` in one worker, so a session-scoped build they share is made once in the run
(tests/support/xdist_groups.py; on pytest 9.2 xdist's own grouping is lost)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

pytest.importorskip("xdist")

_SHIM = Path(__file__).resolve().parents[1] / "support" / "xdist_groups.py"

_MODULE = '''
import os
from pathlib import Path

import pytest

LOG = Path({log!r})


{mark}
@pytest.mark.parametrize("i", range(4))
def test_grouped(build, i):
    with open(LOG / "runs", "a") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")


@pytest.mark.parametrize("i", range(4))
def test_free(i):
    pass
'''

_CONFTEST = '''
import os
from pathlib import Path

import pytest

LOG = Path({log!r})


@pytest.fixture(scope="session")
def build():
    with open(LOG / "builds", "a") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")


def pytest_collection_modifyitems(config, items):
    group_by_fixture(items, {{"build": "shared"}})
    keep_groups(config, items)
'''


def test_a_group_runs_in_one_worker_and_builds_once(pytester: pytest.Pytester, tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.mkdir()
    pytester.makeconftest(_SHIM.read_text(encoding="utf-8") + _CONFTEST.format(log=str(log)))
    # one module marks its tests; the other's are put in the group by the fixture they use
    for name, mark in (("test_one", '@pytest.mark.xdist_group("shared")'), ("test_two", "")):
        pytester.makepyfile(**{name: _MODULE.format(log=str(log), mark=mark)})
    result = pytester.runpytest_subprocess("-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider",
                                           "-p", "no:kopa_sim", "-q")
    result.assert_outcomes(passed=16)
    runs = (log / "runs").read_text().split()
    assert len(runs) == 8 and len(set(runs)) == 1, runs  # all eight grouped tests in one worker
    assert (log / "builds").read_text().split() == runs[:1]  # and its session fixture made once there
