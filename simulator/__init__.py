"""kopa-sim: record/replay simulator for Korean public open APIs.

The public names below are what ``edge``, ``bench`` and ``train`` (and users) import.

>>> from simulator import Store, Resolver, SimTransport   # doctest: +SKIP
>>> import httpx                                           # doctest: +SKIP
>>> resolver = Resolver(Store().open("kopa"))             # doctest: +SKIP
>>> client = httpx.Client(transport=SimTransport(resolver))  # doctest: +SKIP
"""

from __future__ import annotations

from .cache import BoundedCache
from .catalog import Catalog, Endpoint, Param, Platform, build_request, load_catalog
from .dialects import get_dialect
from .errors import (
    CallFailed,
    CatalogError,
    CorruptVersion,
    DialectError,
    FormatVersionError,
    PageFailed,
    ProgramError,
    RecordError,
    ReplayMiss,
    SimulatorError,
    StoreError,
    UnknownEndpoint,
    VersionNotFound,
)
from .fidelity import check_fidelity
from .identity import canonical_request, fingerprint
from .request import SimRequest, SimResponse
from .resolve import FaultConfig, MissDetails, Resolution, Resolver
from .rundir import RunFolderError, atomic_dir, atomic_files, check_run_folder
from .store import Manifest, Store, Version, VersionBuilder
from .tools import Observation, PagedResult, Program, ToolCaller, page_args, read_pages, run_program
from .transports import AsyncSimTransport, SimTransport
from .vocab import Domain, Junction, MainPlatform, MissPolicy, Role

__version__ = "0.1.0"

__all__ = [
    "RunFolderError",
    "atomic_dir",
    "atomic_files",
    "check_run_folder",
    "AsyncSimTransport",
    "BoundedCache",
    "CallFailed",
    "Catalog",
    "CatalogError",
    "CorruptVersion",
    "DialectError",
    "Domain",
    "Endpoint",
    "FaultConfig",
    "FormatVersionError",
    "Junction",
    "MainPlatform",
    "Manifest",
    "MissDetails",
    "MissPolicy",
    "Observation",
    "PageFailed",
    "PagedResult",
    "Param",
    "Platform",
    "Program",
    "ProgramError",
    "RecordError",
    "ReplayMiss",
    "Resolution",
    "Resolver",
    "Role",
    "SimRequest",
    "SimResponse",
    "SimTransport",
    "SimulatorError",
    "Store",
    "StoreError",
    "ToolCaller",
    "UnknownEndpoint",
    "Version",
    "VersionBuilder",
    "VersionNotFound",
    "build_request",
    "canonical_request",
    "check_fidelity",
    "fingerprint",
    "get_dialect",
    "load_catalog",
    "page_args",
    "read_pages",
    "run_program",
]
