"""``EdgeError``, ``BenchError`` and ``TrainError``: each package's bad input raises its own
error, under ``SimulatorError`` and still a ``ValueError`` (callers that caught it keep working)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bench.kopa.errors import BenchError
from bench.kopa.metrics import pass_at_k
from bench.kopa.tasks import TaskError
from edge import EdgeError, GraphError
from edge.transforms import validate_transform
from simulator import SimulatorError
from train import TrainError, parse_tool_call
from train.config import ConfigError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("cls", [EdgeError, BenchError, TrainError])
def test_each_package_error_is_a_simulator_error_and_a_value_error(cls: type[Exception]) -> None:
    assert issubclass(cls, SimulatorError) and issubclass(cls, ValueError)


def test_the_named_errors_sit_under_their_package() -> None:
    assert issubclass(GraphError, EdgeError) and issubclass(TaskError, BenchError)
    assert issubclass(ConfigError, TrainError)


def test_bad_input_raises_the_package_error_with_the_fix() -> None:
    with pytest.raises(EdgeError, match="step='bogus' is unknown; use one of"):
        validate_transform("bogus")
    with pytest.raises(BenchError, match="k=5 > n=2"):
        pass_at_k(2, 1, 5)
    with pytest.raises(TrainError, match="must be a JSON object"):
        parse_tool_call({"name": "t", "arguments": "[1, 2]"})


def test_no_bare_value_error_is_raised_in_edge_bench_train() -> None:
    bare = []
    for package in ("edge", "bench", "train"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                        isinstance(node.exc.func, ast.Name) and node.exc.func.id == "ValueError":
                    bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bare, "raise the package's error (EdgeError, BenchError, TrainError) instead:\n" + "\n".join(bare)
