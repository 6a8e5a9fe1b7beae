"""A checkout someone edited badly is refused at ``simulator publish`` with its file and line,
and a version holding such an entry (published by hand or by an older kopa-sim) is refused when
opened, never a crash (issue 31 §2, §8): a total of 10**30, a FIFO named ``x.jsonl``, every
collection deleted, one collection key twice, and other hostile edits."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator import Store
from simulator.cli import app
from simulator.errors import CorruptVersion
from simulator.store.integrity import file_sha256
from simulator.store.manifest import content_hash_of
from tests.support.helpers import build_demo_version

runner = CliRunner()


def _cli(store: Store, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--cassettes", str(store.root)], env={"KOPA_CACHE": str(store.cache_dir)})
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, res.output


@pytest.fixture
def edit(tmp_path: Path) -> tuple[Store, Path]:
    """The demo version (two collections, one interaction) checked out into ``edit/``."""
    store = Store(build_demo_version(tmp_path / "c", extra=True).root, cache_dir=tmp_path / "cache")
    dest = tmp_path / "edit"
    code, out = _cli(store, "checkout", "v0001", str(dest))
    assert code == 0, out
    return store, dest


def _tago(dest: Path) -> Path:
    return dest / "collections" / "tago.jsonl"


def _edit_lines(path: Path, change: Callable[[list[str]], list[str]]) -> None:
    path.write_text("\n".join(change(path.read_text(encoding="utf-8").split("\n"))), encoding="utf-8")


def _set_header(lines: list[str], **values: object) -> list[str]:
    head = json.loads(lines[0])
    head.update(values)
    for k, v in values.items():
        if v is None:
            del head[k]
    return [json.dumps(head, ensure_ascii=False), *lines[1:]]


def _refused(store: Store, dest: Path, *words: str) -> str:
    code, out = _cli(store, "publish", str(dest))
    assert code == 1 and "Traceback" not in out and out.strip().count("\n") == 0, out
    assert all(w in out for w in words), out
    assert [m.version for m in store.versions("kopa")] == ["v0001"]  # nothing published
    return out


def test_a_total_past_what_readers_hold_is_refused_at_publish(edit: tuple[Store, Path]) -> None:
    store, dest = edit
    _edit_lines(_tago(dest), lambda lines: _set_header(lines, total=10**30))
    _refused(store, dest, str(_tago(dest)), "line 1", "total", "less than or equal to 9007199254740991")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda ls: _set_header(ls, total=-1), ["line 1", "total", "greater than or equal to 0"]),
        (lambda ls: _set_header(ls, total="57"), ["line 1", "total", "valid integer"]),
        (lambda ls: _set_header(ls, n=None), ["line 1", "n=None", "number of record lines"]),
        (lambda ls: _set_header(ls, n="3"), ["line 1", "n='3'"]),
        (lambda ls: _set_header(ls, n=10**30), ["line 1", "number of record lines"]),
        (lambda ls: _set_header(ls, fields=7), ["line 1", "fields=7", "distinct field names"]),
        (lambda ls: _set_header(ls, fields=["a", "a", "b", "c", "d"]), ["line 1", "distinct field names"]),
        (lambda ls: _set_header(ls, filters=["cityCode"]), ["line 1", "filters", "valid dictionary"]),
        (lambda ls: _set_header(ls, endpoint="no_such_tool"), ["line 1", "no_such_tool"]),
        (lambda ls: _set_header(ls, envelope=3), ["line 1", "envelope"]),
        (lambda ls: ["[1, 2]", *ls], ["line 1", "should start a collection"]),
        (lambda ls: [ls[0], "7", *ls[2:]], ["line 2", "is not a record"]),
    ],
)
def test_hostile_collection_headers_are_one_line_errors(
        edit: tuple[Store, Path], change: Callable[[list[str]], list[str]], words: list[str]) -> None:
    store, dest = edit
    _edit_lines(_tago(dest), change)
    _refused(store, dest, str(_tago(dest)), *words)


def test_hostile_interactions_and_files_are_one_line_errors(edit: tuple[Store, Path]) -> None:
    store, dest = edit
    inter = next((dest / "interactions").glob("*.jsonl"))
    good = inter.read_bytes()
    line = json.loads(good)
    inter.write_text(json.dumps({**line, "status": 10**30}), encoding="utf-8")
    _refused(store, dest, str(inter), "line 1", "status")
    inter.write_text("[1, 2]\n", encoding="utf-8")
    _refused(store, dest, str(inter), "line 1", "not a JSON object")
    inter.write_bytes(good + b'{"fp": "\xff\xfe"}\n')
    _refused(store, dest, str(inter), "line 2", "not UTF-8")
    inter.write_bytes(good + good)  # the same request twice
    _refused(store, dest, str(inter), "line 1", "line 2", "keep one")
    inter.write_bytes(good)
    (dest / "collections" / "y.jsonl").mkdir()
    _refused(store, dest, "y.jsonl", "is a folder")
    (dest / "collections" / "y.jsonl").rmdir()
    os.symlink(_tago(dest), dest / "collections" / "z.jsonl")
    _refused(store, dest, "z.jsonl", "is a symlink")
    (dest / "collections" / "z.jsonl").unlink()
    for bad in ("[1, 2]", "{}", '{"set": "kopa"}', "not json"):
        (dest / "checkout.json").write_text(bad, encoding="utf-8")
        _refused(store, dest, "checkout.json", "simulator checkout VERSION DIR")


def test_a_fifo_named_jsonl_is_refused_without_blocking(edit: tuple[Store, Path]) -> None:
    store, dest = edit
    fifo = dest / "collections" / "x.jsonl"
    os.mkfifo(fifo)
    result: list[tuple[int, str]] = []
    worker = threading.Thread(target=lambda: result.append(_cli(store, "publish", str(dest))), daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():  # blocked opening the FIFO: unblock it (a writer that sends nothing)
        with open(fifo, "wb"):
            pass
        worker.join(20)
        pytest.fail("publish blocked reading a FIFO named x.jsonl")
    code, out = result[0]
    assert code == 1 and "x.jsonl" in out and "not a regular file" in out and "Traceback" not in out, out
    assert [m.version for m in store.versions("kopa")] == ["v0001"]


def test_deleting_every_collection_is_refused(edit: tuple[Store, Path]) -> None:
    store, dest = edit
    for p in (dest / "collections").glob("*.jsonl"):
        p.unlink()
    _refused(store, dest, "holds no collection", "kopa@v0001 has 2", "simulator rm")
    for p in (dest / "interactions").glob("*.jsonl"):
        p.unlink()
    _refused(store, dest, "holds no collection")


def test_a_duplicate_collection_key_is_refused_naming_both_lines(edit: tuple[Store, Path]) -> None:
    store, dest = edit
    path = _tago(dest)
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    first = json.loads(lines[0])
    n = first["n"]
    second_at = n + 2  # the second collection's header line
    second = json.loads(lines[second_at - 1])
    second["collection"] = first["collection"]
    second["filters"] = first["filters"]
    lines[second_at - 1] = json.dumps(second, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _refused(store, dest, first["collection"], f"{str(path)!r} line 1", f"line {second_at}", "keep one")


def _rewrite_published(store: Store, change: Callable[[list[str]], list[str]]) -> Path:
    """Edit a published version's collection file in place and re-hash its manifest, as an
    older kopa-sim (which checked less) or a hand edit would have left it."""
    vdir = store.root / "kopa" / "v0001"
    path = vdir / "collections" / "tago.jsonl"
    _edit_lines(path, change)
    mpath = vdir / "manifest.json"
    m = json.loads(mpath.read_text(encoding="utf-8"))
    m["files"]["collections/tago.jsonl"] = file_sha256(path)
    m["content_hash"] = content_hash_of(m["files"])
    mpath.write_text(json.dumps(m, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda ls: _set_header(ls, total=10**30), ["line 1", "total", "less than or equal to"]),
        (lambda ls: _set_header(ls, n=None), ["line 1", "number of record lines"]),
        (lambda ls: [*ls[: 58], ls[0], *ls[1:58], *ls[58:]], ["line 1", "line 59", "keep one"]),
    ],
)
def test_an_unreadable_published_version_is_refused_at_open(
        tmp_path: Path, change: Callable[[list[str]], list[str]], words: list[str]) -> None:
    store = Store(build_demo_version(tmp_path / "c", extra=True).root, cache_dir=tmp_path / "cache")
    path = _rewrite_published(store, change)
    with pytest.raises(CorruptVersion) as info:
        store.open("kopa")
    assert str(path) in str(info.value) and all(w in str(info.value) for w in words), info.value
    for cmd in (["inspect"], ["serve", "--port", "0"]):
        code, out = _cli(store, *cmd)
        assert code == 1 and str(path) in out and "Traceback" not in out, (cmd, out)


def test_a_builder_refuses_a_total_no_reader_holds(tmp_path: Path) -> None:
    """A recording (or any VersionBuilder user) whose API reported an absurd total."""
    from simulator import VersionBuilder, load_catalog
    from simulator.errors import StoreError
    from tests.support.helpers import station_records

    store = Store(tmp_path / "c", cache_dir=tmp_path / "cache")
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    with pytest.raises(StoreError) as info:
        b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                         filters={"cityCode": "25"}, fmt="json", total=10**30, records=station_records(3))
    assert "total" in str(info.value) and "nothing was published" in str(info.value)
    assert not (tmp_path / "c").exists() and not b.collections
