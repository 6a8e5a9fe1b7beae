"""``--dist loadgroup`` that groups again on pytest 9.2.

pytest-xdist (3.8, the newest release) tells its scheduler a test's ``xdist_group`` by
appending ``@<group>`` to the test's node id in the worker, writing ``item._nodeid``. pytest
9.2 keeps node ids in a structured ``item._id`` (``_pytest.nodeid.NodeId``) and no longer
reads ``_nodeid``, so the suffix is lost and every grouped test is scheduled on its own:
the session-scoped builds a group shares (tests/support/synth_runs.py) were made once per
worker, the 1,000-example synthesis twice in a CI run (pytest-dev/pytest-xdist#1386, fix
pending in #1388). :func:`keep_groups` writes the suffix where this pytest reads it, and
does nothing where xdist's own suffix took (older pytest, or a fixed xdist).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest


def group_by_fixture(items: list[pytest.Item], groups: Mapping[str, str]) -> None:
    """Give every item that uses one of ``groups``' fixtures (directly or through another
    fixture) that fixture's ``xdist_group``, so no test of a shared build can miss its mark."""
    for item in items:
        for name in sorted(set(getattr(item, "fixturenames", ())) & groups.keys()):
            item.add_marker(pytest.mark.xdist_group(groups[name]))


def group_of(item: pytest.Item) -> str | None:
    """The group name xdist gives ``item`` (its ``xdist_group`` marks' names, sorted and
    joined by ``_``), or None when it has none."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) or None


def keep_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker under ``--dist loadgroup``, make every grouped item's node id end
    with ``@<group>`` (what the loadgroup scheduler splits its scope from)."""
    if not getattr(config.option, "loadgroup", False):  # set by xdist in its workers only
        return
    for item in items:
        group = group_of(item)
        if group is None or item.nodeid.endswith(f"@{group}"):
            continue
        _set_nodeid(item, f"{item.nodeid}@{group}")


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    current: Any = getattr(item, "_id", None)
    parse = getattr(type(current), "parse", None)
    if parse is not None:  # pytest >= 9.2: a NodeId, parsed back from its string form
        item._id = parse(nodeid)  # type: ignore[attr-defined]
    else:
        item._nodeid = nodeid  # type: ignore[attr-defined]
    if item.nodeid != nodeid:
        raise pytest.UsageError(
            f"could not add the xdist group to {item.nodeid!r} on this pytest; run without "
            "--dist loadgroup or pin the pytest that tests/support/xdist_groups.py supports")
