"""No import cycle among the modules of ``simulator``, ``edge``, ``bench`` and ``train``.

An AST scan builds the module import graph (networkx): module-level imports and imports
inside functions alike (a lazy import is still a dependency), relative imports resolved
against the importing module. ``from package import name`` counts as an import of
``package.name`` when that is a module, else of ``package``. A package's ``__init__`` that
re-exports its submodules is an edge like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("simulator", "edge", "bench", "train")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    return {_module_name(path, root): path for package in packages for path in sorted((root / package).rglob("*.py"))}


def _resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (``from ..x import y`` → ``pkg.x``)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> nx.DiGraph:
    """module → modules it imports (only modules of ``packages`` under ``root``)."""
    modules = _modules(root, packages)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)

    def known(name: str) -> str | None:
        # "simulator.catalog.loader.load" → the longest prefix that is a module
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in modules:
                return candidate
        return None

    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve_from(module, is_package, node)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.append(full if full in modules else base)
            for target in targets:
                hit = known(target)
                if hit is not None and hit != module:
                    graph.add_edge(module, hit, line=node.lineno)
    return graph


def _describe(graph: nx.DiGraph, cycle: list[tuple[str, str]]) -> str:
    return " -> ".join(f"{a} (line {graph.edges[a, b]['line']})" for a, b in cycle) + f" -> {cycle[0][0]}"


def test_the_graph_sees_relative_and_function_level_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")  # a relative module import
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..a import thing\n    return thing\n")  # lazy, two dots
    (pkg / "sub" / "c.py").write_text("import pkg.a\nfrom . import b\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert set(graph.edges) == {("pkg.a", "pkg.sub.b"), ("pkg.sub.b", "pkg.a"), ("pkg.sub.c", "pkg.a"),
                                ("pkg.sub.c", "pkg.sub.b")}
    assert sorted(nx.find_cycle(graph)) == [("pkg.a", "pkg.sub.b"), ("pkg.sub.b", "pkg.a")]
    # and on the project: a module-level relative import is an edge
    project = import_graph()
    assert project.number_of_nodes() > 150
    assert project.has_edge("simulator.resolve", "simulator.errors")


def test_no_import_cycle() -> None:
    graph = import_graph()
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    cycles = [c for c in nx.simple_cycles(graph) if len(c) <= 6][:20]
    shown = "\n".join(" -> ".join(c + [c[0]]) for c in cycles)
    raise AssertionError(f"import cycle: {_describe(graph, cycle)}\nshort cycles:\n{shown}")
