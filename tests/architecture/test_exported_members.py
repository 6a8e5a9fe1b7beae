"""Every package says what it exports, and the error tree in ``simulator/errors.py`` is true.

Like httpx's ``test_exported_members.py``: a package's ``__all__`` names exactly what it
defines for others (names it merely imports, from ``typing`` or a sibling, are not exports),
and every exception class the packages define is drawn in the ``errors.py`` docstring under
its real base class.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import types
from typing import Any

import pytest

import simulator.errors

TOPS = ("simulator", "edge", "bench", "train")


def _modules(packages_only: bool) -> list[types.ModuleType]:
    out = []
    for top in TOPS:
        pkg = importlib.import_module(top)
        out.append(pkg)
        for info in pkgutil.walk_packages(pkg.__path__, top + "."):
            if info.name.endswith("__main__") or (packages_only and not info.ispkg):
                continue
            try:
                out.append(importlib.import_module(info.name))
            except ImportError as exc:  # an optional extra that is not installed here
                if "pip install" not in str(exc) and not isinstance(exc, ModuleNotFoundError):
                    raise
    return out


def _defined_here(pkg: types.ModuleType, value: Any) -> bool:
    """Whether ``value`` belongs to ``pkg`` (a constant, or defined in ``pkg`` or below)."""
    origin = getattr(value, "__module__", None)
    if not isinstance(origin, str) or isinstance(value, (str, int, float, tuple, frozenset, dict, list)):
        return True
    return origin == pkg.__name__ or origin.startswith(pkg.__name__ + ".")


@pytest.mark.parametrize("pkg", _modules(packages_only=True), ids=lambda m: m.__name__)
def test_all_is_what_the_package_exports(pkg: types.ModuleType) -> None:
    assert hasattr(pkg, "__all__"), f"{pkg.__name__} has no __all__; list what it exports"
    listed = set(pkg.__all__)
    missing = sorted(n for n in listed if not hasattr(pkg, n))
    assert not missing, f"{pkg.__name__}.__all__ names {missing}, which it does not have"
    public = {
        name
        for name, value in vars(pkg).items()
        if not name.startswith("_")
        and name != "annotations"
        and not isinstance(value, types.ModuleType)
        and _defined_here(pkg, value)
    }
    unlisted = sorted(public - listed)
    assert not unlisted, f"{pkg.__name__} defines {unlisted} but its __all__ leaves them out (list them, or make them private)"


#: A line of the drawn tree: its branches (4 characters a level), the class, its module.
_LINE = re.compile(r"^    ((?:[│ ]   |[├└]── )*)([A-Z]\w*)(?: \(([\w.]+)\))?(?:\s|$)")


def _drawn_tree() -> dict[str, str | None]:
    """``module:Class`` (or ``Class`` for ``simulator.errors``) → the class drawn above it."""
    tree: dict[str, str | None] = {}
    stack: list[str] = []
    for line in (simulator.errors.__doc__ or "").splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        depth, name, module = len(m.group(1)) // 4, m.group(2), m.group(3)
        del stack[depth:]
        tree[f"{module}:{name}" if module else name] = stack[-1] if stack else None
        stack.append(name)
    return tree


def test_the_error_tree_draws_every_exception_class_under_its_base() -> None:
    tree = _drawn_tree()
    found = {}
    for mod in _modules(packages_only=False):
        for name, value in vars(mod).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == mod.__name__:
                found[f"{mod.__name__}.{name}"] = value
    assert len(found) >= 10
    problems = []
    for qualified, cls in sorted(found.items()):
        key = cls.__name__ if cls.__module__ == "simulator.errors" else f"{cls.__module__}:{cls.__name__}"
        if key not in tree:
            problems.append(f"{qualified} is not drawn (add '{cls.__name__} ({cls.__module__})' to the tree)")
            continue
        drawn_parent = tree[key]
        base = cls.__bases__[0].__name__
        builtin_root = drawn_parent is None and cls.__bases__[0].__module__ == "builtins"
        if drawn_parent != base and not builtin_root:
            problems.append(f"{qualified} is drawn under {drawn_parent} but subclasses {base}")
    assert not problems, "simulator/errors.py's tree is out of date:\n" + "\n".join(problems)
