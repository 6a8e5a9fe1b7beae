"""Imports run one way: perf → train → bench → edge → simulator (an AST scan of the source).

A package may import the packages to its right, never one to its left; ``bench`` and
``train`` never import ``perf`` (which is not installed), and the wheel packs no ``perf``.
Imports inside functions count too: a lazy import upward is still an upward dependency.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Each package and the layer it sits on (higher imports lower only).
LAYERS = {"simulator": 0, "edge": 1, "bench": 2, "train": 3, "perf": 4}


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every absolute import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


def test_no_import_runs_upward() -> None:
    upward = []
    scanned = 0
    for package, layer in LAYERS.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            scanned += 1
            for line, top in _imports(path):
                if LAYERS.get(top, -1) > layer:
                    upward.append(f"{path.relative_to(ROOT)}:{line} imports {top} ({package} sits below {top})")
    assert scanned > 100
    assert not upward, "imports must run perf → train → bench → edge → simulator:\n" + "\n".join(upward)


def test_the_wheel_packs_no_perf_harness() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert not any(pattern.split("*")[0] in ("perf", "") or pattern.startswith("perf") for pattern in include)
    assert {p.rstrip("*") for p in include} == {"simulator", "edge", "bench", "train"}
    assert not (ROOT / "bench" / "perf").exists()


def test_the_httpx_transport_uses_only_public_httpx_api() -> None:
    """No private httpx attribute or module (``_content``, ``_list``, ``httpx._…``) and no
    import-time probe of httpx's internals: what httpx may change without notice."""
    private = []
    for path in (ROOT / "simulator" / "transports" / name for name in ("httpx_transport.py", "patching.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("httpx._"):
                private.append(f"{path.name}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Attribute) and node.attr in ("_content", "_list", "_encoding", "_decoder"):
                private.append(f"{path.name}:{node.lineno} uses .{node.attr}")
    assert not private, "\n".join(private)
