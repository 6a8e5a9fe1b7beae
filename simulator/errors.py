"""Exceptions raised by kopa-sim.

The tree::

    SimulatorError
    ├── CatalogError            a catalog data file is invalid, or a name is unknown
    │   └── UnknownEndpoint     no catalog endpoint serves this host and path
    ├── DialectError            a native body could not be parsed or a request not split
    ├── StoreError              cassette store problems
    │   ├── VersionNotFound     no such set or version
    │   ├── CorruptVersion      a file's sha256 differs from the manifest, or it does not parse
    │   ├── FormatVersionError  a cassette written by an incompatible format version
    │   └── SetLocked (simulator.store.lock)  another process records or publishes into the set
    ├── ReplayMiss              strict miss: nothing recorded answers this request
    ├── RecordError             a recording job failed (nothing was published)
    ├── RunFolderError (simulator.rundir)  an output folder would lose files the command did not write
    ├── VcrError (simulator.vcr)  a vcrpy cassette could not be read or converted
    ├── PageFailed              a page of a tool call did not answer (also ValueError)
    ├── ProgramError            a gold program (bench or EDGE) is malformed or failed (also ValueError)
    │   └── CallFailed          a call of a program did not answer with records
    ├── EdgeError (edge.errors)  bad input to EDGE or a failed step (also ValueError)
    │   └── GraphError (edge.graph)  an EDGE dependency graph is invalid (a cycle, a missing input)
    ├── BenchError (bench.kopa.errors)  bad input to KOPA-Bench or a failed step (also ValueError)
    │   ├── TaskError (bench.kopa.tasks)  a task file is invalid
    │   └── AuditError (bench.kopa.audit)  a task audit found a problem
    └── TrainError (train.errors)  bad input to GRPO training or a failed step (also ValueError)
        ├── ConfigError (train.config)  a GRPO run config (YAML or flags) is invalid
        ├── DataError (train.data)  training rows are missing, or are KOPA-Bench tasks
        └── ContextTooLong (train.serve)  a chat request exceeds the served model's context (HTTP 400)

``EdgeError``, ``BenchError`` and ``TrainError`` live in their packages (which import
``simulator``, never the other way); each is a ``ValueError`` too, so code that caught the
bare ``ValueError`` they replace keeps working.

Defined beside their users (each names its module; ``tests/architecture/test_exported_members.py`` checks
that every exception class of ``simulator``, ``edge``, ``bench`` and ``train`` is drawn here,
under its real base)::

    Exception
    ├── SplitError (simulator.dialects.base)  a request does not split into a collection (internal)
    └── ContextWindowFull (bench.kopa.agents)  a chat request outgrew the model's context: the episode ends
    RuntimeError
    ├── KopaNetworkBlocked (simulator.pytest_plugin)  a test reached for a real host
    ├── ModelEndpointError (bench.kopa.agents)  the model's endpoint failed (HTTP error, timeout, bad body): the run stops
    └── ServerClosing (train.serve)  the built-in model server is stopping (HTTP 503)
    OSError
    └── CorruptBlob (simulator.store.objects)  a compressed cassette file does not decode (readers turn it into CorruptVersion)

Every message names the offending value as ``name=value!r`` and says how to fix it.
"""

from __future__ import annotations

__all__ = [
    "CallFailed",
    "CatalogError",
    "CorruptVersion",
    "DialectError",
    "FormatVersionError",
    "PageFailed",
    "ProgramError",
    "RecordError",
    "ReplayMiss",
    "SimulatorError",
    "StoreError",
    "UnknownEndpoint",
    "VersionNotFound",
]


class SimulatorError(Exception):
    """Base class of every error kopa-sim raises on purpose."""


class CatalogError(SimulatorError):
    """A catalog file is invalid or a catalog name is unknown."""


class UnknownEndpoint(CatalogError):
    """No endpoint of the catalog serves the requested host and path."""


class DialectError(SimulatorError):
    """A native response could not be parsed, or a request could not be split."""


class StoreError(SimulatorError):
    """A problem with the cassette store."""


class VersionNotFound(StoreError):
    """The requested cassette set or version does not exist."""


class CorruptVersion(StoreError):
    """A version's file does not match the sha256 in its manifest, or does not parse."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class FormatVersionError(StoreError):
    """The cassette was written with a format version this kopa-sim cannot read."""


class ReplayMiss(SimulatorError):
    """A strict miss: nothing recorded answers the request.

    ``nearest`` lists the closest recorded requests with what differs from each.
    """

    def __init__(self, message: str, *, nearest: list[dict[str, object]] | None = None) -> None:
        super().__init__(message)
        self.nearest = nearest or []


class RecordError(SimulatorError):
    """A recording job failed; nothing was published."""


class PageFailed(SimulatorError, ValueError):
    """A page of a tool call did not answer (the message names the tool, arguments and page)."""


class ProgramError(SimulatorError, ValueError):
    """A gold program is malformed, or failed while running (the message names the step)."""


class CallFailed(ProgramError):
    """A call of a gold program did not answer with records (miss, empty, error, too many pages)."""
