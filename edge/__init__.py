"""EDGE: an execution-grounded dynamic graph of tool dependencies (DESIGN §8).

Propose candidate edges (``proposers``), verify them by executing them through the simulator
(``verify``), label each handoff's cardinality (``cardinality``) and keep the result as a
validated, deterministic graph (``graph``). ``build.build_graph`` runs the whole pipeline.
"""

from __future__ import annotations

from .build import BuildResult, build_graph, reverify, summarize
from .cardinality import Cardinality, cardinality_of, label
from .errors import EdgeError
from .graph import EdgeGraph, GraphError
from .observe import Observations
from .proposers import MIN_SCORE, Binding, LLMProposer, OfflineProposer, Proposer
from .retrieve import Retriever
from .transforms import apply_transform
from .verify import (
    CallResult,
    EdgeState,
    Executor,
    LiveExecutor,
    SimExecutor,
    Verifier,
    VerifyConfig,
    classify,
)

__all__ = [
    "MIN_SCORE",
    "Binding",
    "BuildResult",
    "CallResult",
    "EdgeError",
    "Cardinality",
    "EdgeGraph",
    "EdgeState",
    "Executor",
    "GraphError",
    "LLMProposer",
    "LiveExecutor",
    "Observations",
    "OfflineProposer",
    "Proposer",
    "Retriever",
    "SimExecutor",
    "Verifier",
    "VerifyConfig",
    "apply_transform",
    "build_graph",
    "cardinality_of",
    "classify",
    "label",
    "reverify",
    "summarize",
]
