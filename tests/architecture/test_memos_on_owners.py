"""Memos live on the objects they serve, never in a module-level table keyed by ``id()``
(an id is reused once its object is collected, and a module table outlives every run)."""

from __future__ import annotations

import ast
from pathlib import Path

from bench.kopa.env import CallRecord
from edge.synth.execute import ProgramRunner
from edge.synth.semantics import field_type
from edge.synth.writers import _caller
from simulator import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[2]


def _tables(tree: ast.Module) -> set[str]:
    """Module-level names bound to a dict or a cache (``{}``, ``dict()``, ``BoundedCache(...)``)."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            table = isinstance(value, ast.Dict) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in ("dict", "OrderedDict", "BoundedCache", "WeakValueDictionary"))
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {t.id for t in targets if table and isinstance(t, ast.Name)}
    return out


def id_keyed_module_tables(root: Path) -> list[str]:
    """``file:line function`` for each function that calls ``id()`` and reads a module table."""
    found = []
    for package in ("edge", "bench", "train"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            tables = _tables(tree)
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
                calls_id = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "id"
                               for n in ast.walk(fn))
                if calls_id and names & tables:
                    found.append(f"{path.relative_to(root)}:{fn.lineno} {fn.name} ({', '.join(sorted(names & tables))})")
    return found


def test_no_module_level_table_is_keyed_by_id() -> None:
    found = id_keyed_module_tables(ROOT)
    assert not found, "module-level memo keyed by id():\n" + "\n".join(found)


def test_field_types_are_kept_on_their_catalog() -> None:
    catalog = load_catalog(tier="curated")
    other = Catalog(list(catalog.platforms.values()))
    tool = next(iter(catalog.endpoints))
    name = catalog.endpoint(tool).fields[0].name
    assert field_type(catalog, tool, name) == field_type(other, tool, name)
    kept = catalog.derived("edge.synth.field_types", lambda c: {})
    assert (tool, name) in kept
    assert other.derived("edge.synth.field_types", lambda c: {}) is not kept


def test_a_runner_keeps_its_record_caller() -> None:
    class _Resolver:
        catalog = None

    a, b = ProgramRunner(_Resolver()), ProgramRunner(_Resolver())  # type: ignore[arg-type]
    assert _caller(a) is _caller(a) is a.record_caller
    assert _caller(b) is not _caller(a) and _caller(a).fmt == "record"


def test_a_call_records_scalar_values_follow_its_records() -> None:
    rec = CallRecord(0, "t", {}, True, 200, records=[{"a": "11110", "b": {"c": 3.0}}, {"d": None}])
    assert rec.scalar_values() == {"11110", "3"}
    assert rec.scalar_values() is rec.scalar_values()
    rec.records = [{"a": "x"}]  # a new list: computed again
    assert rec.scalar_values() == {"x"}
    assert rec == CallRecord(0, "t", {}, True, 200, records=[{"a": "x"}])  # the memo is no field
