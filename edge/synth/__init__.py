"""EDGE synthesis (DESIGN §8): executable multi-step trajectories from verified paths.

``synthesize`` samples chains over the verified graph, executes every step through the
simulator (all pages), computes the gold answer from the execution, writes a Korean
question, filters, and returns examples that keep their gold programs (the JSON form of a
:class:`simulator.tools.Program`, run by :func:`simulator.tools.run_program`); ``write_all``
writes them as OpenAI conversations, a TRL table and verl rows.
"""

from __future__ import annotations

from .execute import CallFailed, ProgramError, ProgramRunner, Run, program_json, value_of
from .pipeline import MAIN_PLATFORMS, SynthConfig, SynthResult, canonical, recompute, summarize_examples, synthesize
from .paraphrase import paraphrase
from .questions import write_question
from .sample import JUNCTIONS, Sampler, sane_edges
from .splits import audit, edge_jaccard, split_by_platform, verbatim_overlap
from .writers import conversation, have_parquet, write_all

__all__ = [
    "JUNCTIONS",
    "MAIN_PLATFORMS",
    "CallFailed",
    "ProgramError",
    "ProgramRunner",
    "Run",
    "Sampler",
    "SynthConfig",
    "SynthResult",
    "audit",
    "canonical",
    "conversation",
    "edge_jaccard",
    "have_parquet",
    "paraphrase",
    "program_json",
    "recompute",
    "sane_edges",
    "split_by_platform",
    "summarize_examples",
    "synthesize",
    "value_of",
    "verbatim_overlap",
    "write_all",
    "write_question",
]
