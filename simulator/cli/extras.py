"""One-line errors for what a user can fix: a missing extra, a missing cassette set.

``main`` turns these exceptions, raised anywhere under a command, into ``error: …`` lines
that name the fix, instead of a traceback.
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint", "missing_module"]

#: Top-level module → the kopa-sim extra that installs it (``pyproject.toml``).
EXTRAS: dict[str, str] = {
    "torch": "train",
    "transformers": "train",
    "trl": "train",
    "tokenizers": "train",
    "datasets": "train",
    "verl": "verl",
    "jmespath": "verl",
    "matplotlib": "plots",
    "mcp": "mcp",
    # The mcp distribution's types live in their own package (mcp-types, module mcp_types).
    "mcp_types": "mcp",
    "vcr": "vcr",
    "requests": "requests",
    "uvloop": "fast",
    "httptools": "fast",
    "OpenDartReader": "clients",
    "neispy": "clients",
    "dart_fss": "clients",
    "opendart_client": "clients",
    "ecos": "clients",
    "pyecos": "clients",
    "assembly_client": "clients",
    "PublicDataReader": "clients",
}


def install_hint(module: str | None) -> str:
    """What to run for a missing module: ``pip install 'kopa-sim[train]'`` for torch, etc."""
    top = (module or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return f"pip install {top}" if top else "reinstall kopa-sim"
    return f"pip install 'kopa-sim[{extra}]'"


def missing_module(exc: BaseException) -> str | None:
    """The module a ``ModuleNotFoundError`` in ``exc``'s cause/context chain names, if any."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, ModuleNotFoundError) and cur.name:
            return cur.name
        cur = cur.__cause__ or cur.__context__
    return None
