"""A damaged version's message says how to repair it where the version lives
(``simulator.store.roots.repair_hint``): record again outside git, restore from git in a
checkout, reinstall when it is the installed package's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.errors import CorruptVersion
from simulator.store import roots
from simulator.store.roots import repair_hint
from tests.support.helpers import build_demo_version


def _damage(root: Path) -> Path:
    vdir = root / "kopa" / "v0001"
    target = next(p for p in sorted(vdir.rglob("*.jsonl")) if p.is_file())
    target.write_bytes(target.read_bytes().replace(b"{", b"[", 1))
    return vdir


def _corrupt_message(root: Path) -> str:
    from simulator import Store

    with pytest.raises(CorruptVersion) as exc:
        v = Store(root, cache_dir=root.parent / "cache").open("kopa")
        list(v.collections())
    return str(exc.value)


def test_a_damaged_version_outside_git_is_not_told_to_restore_from_git(tmp_path: Path) -> None:
    store = build_demo_version(tmp_path / "userdata" / "cassettes")
    _damage(store.root)
    msg = _corrupt_message(store.root)
    assert "git" not in msg, msg
    assert "`simulator rm v0001`" in msg and "record it again" in msg, msg


def test_a_damaged_version_in_a_git_checkout_is_restored_from_git(tmp_path: Path) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    store = build_demo_version(tmp_path / "proj" / "cassettes")
    _damage(store.root)
    msg = _corrupt_message(store.root)
    assert "restore it from git (`git checkout -- <file>`)" in msg, msg


def test_a_damaged_shipped_version_is_reinstalled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_site = tmp_path / "site-packages"
    monkeypatch.setattr(roots, "_installed_dirs", lambda: [fake_site.resolve()])
    assert repair_hint(fake_site / "simulator" / "_cassettes" / "kopa" / "v0001" / "x.jsonl") == (
        "reinstall kopa-sim (`pip install --force-reinstall kopa-sim`)"
    )
    assert json.dumps(repair_hint(tmp_path / "elsewhere" / "kopa" / "v0007" / "m.json")).count("v0007") == 1
