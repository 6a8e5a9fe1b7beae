"""Every ``>>>`` example in the four packages runs, as ``pytest --doctest-modules`` would run it.

The modules are found by reading their source for ``>>>`` (not by importing every module, which
would import optional extras such as verl that the test environment need not have); each is
imported and its examples run with the standard ``doctest`` finder, one test per module, so a
failure names the module and shows doctest's own report.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

PACKAGES = ("simulator", "edge", "bench", "train")
#: At least this many examples run (issue 26 counted 207 in 62 modules). A module whose examples
#: vanish (an import that fails, a docstring rewritten without one) shows up here.
MIN_EXAMPLES = 200


def _modules_with_examples() -> list[str]:
    names: list[str] = []
    for pkg in PACKAGES:
        root = importlib.import_module(pkg)
        for name in [pkg, *(m.name for m in pkgutil.walk_packages(root.__path__, pkg + "."))]:
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
                continue
            if ">>>" in Path(spec.origin).read_text(encoding="utf-8"):
                names.append(name)
    return sorted(names)


MODULES = _modules_with_examples()


def _tests_of(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder().find(module, name) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    tests = _tests_of(name)
    assert tests, f"{name} has '>>>' in its source but no example doctest can find"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_examples_are_counted() -> None:
    total = sum(len(t.examples) for name in MODULES for t in _tests_of(name))
    assert len(MODULES) >= 50 and total >= MIN_EXAMPLES, (len(MODULES), total)
