"""Paging: the one place that computes page parameters and reads a collection page by page.

Page requests follow the endpoint's parameter roles, as the dialect reads them
(:meth:`simulator.dialects.base.BaseDialect.window`):

* ``page``/``page_size`` (``pageNo``/``numOfRows``, ``page_no``/``page_count``,
  ``pIndex``/``pSize``): page ``i`` (0-based here) is ``page = i + 1``;
* ``range_start``/``range_end`` (``/{start}/{end}/`` in the URL path): the first index is
  the endpoint's ``range_base`` (Seoul 1, ``swopenapi`` 0), so page ``i`` of ``size`` is
  ``start = base + i*size``, ``end = base + (i+1)*size - 1``, both inclusive.

:func:`read_pages` reads every page of one call through any function answering one page
(a :class:`~simulator.tools.ToolCaller`, a bench episode that logs each page, …) and stops
at the reported total, a short page or an empty one.

>>> from simulator import load_catalog
>>> ep = load_catalog().endpoint("seoul_subway_arrivals")
>>> page_args(ep, 0, 3), page_args(ep, 1, 3)
({'START_INDEX': '0', 'END_INDEX': '2'}, {'START_INDEX': '3', 'END_INDEX': '5'})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..catalog import Endpoint
from ..errors import PageFailed

__all__ = [
    "PageCall",
    "PageFailed",
    "PageResult",
    "PagedResult",
    "is_paged",
    "page_args",
    "read_pages",
]


# Contract: what one page's answer must offer (an Observation, a bench CallRecord).
class PageResult(Protocol):
    ok: bool
    records: list[dict[str, Any]]
    total: int | None


@dataclass(frozen=True)
class PageCall:
    """One request as a client sends it: the tool and every argument (paging included)."""

    tool: str
    args: dict[str, str]
    count: int


@dataclass
class PagedResult:
    """All the records of a call, read page by page."""

    tool: str
    args: dict[str, str]
    records: list[dict[str, Any]]
    total: int
    pages: list[PageCall]


def is_paged(ep: Endpoint) -> bool:
    """Whether ``ep`` is a collection read in pages (page numbers or index ranges)."""
    return ep.kind == "collection" and bool(ep.params_with_role("page") or ep.params_with_role("range_start"))


def page_args(ep: Endpoint, index: int, size: int) -> dict[str, str]:
    """The paging arguments of page ``index`` (0-based) of ``size`` records of ``ep``.

    Empty for an endpoint that takes no paging parameters.
    """
    if index < 0 or size < 1:
        raise ValueError(f"index={index!r} must be >= 0 and size={size!r} >= 1")
    starts, ends = ep.params_with_role("range_start"), ep.params_with_role("range_end")
    if starts and ends:
        base = int(ep.opt("range_base", 1))
        return {starts[0].name: str(base + index * size), ends[0].name: str(base + (index + 1) * size - 1)}
    out: dict[str, str] = {}
    pages, sizes = ep.params_with_role("page"), ep.params_with_role("page_size")
    if pages:
        out[pages[0].name] = str(index + 1)
    if sizes:
        out[sizes[0].name] = str(size)
    return out


def _default_problem(result: PageResult) -> str | None:
    return None if result.ok else str(getattr(result, "error", None) or "the call failed")


def read_pages(
    fetch: Callable[[dict[str, str]], PageResult],
    ep: Endpoint,
    args: Mapping[str, str],
    size: int,
    *,
    max_pages: int | None = None,
    first_page_only: bool = False,
    problem: Callable[[PageResult, int], str | None] | None = None,
) -> PagedResult:
    """Every record of ``ep`` called with ``args``, ``size`` per page.

    ``fetch(full_args)`` answers one page. Reading stops when the records reach the reported
    total, at a short page, or at an empty page after the first. An endpoint that is not paged
    is fetched once.

    Args:
        max_pages: a call needing more pages raises ``PageFailed`` (never cut silently).
        first_page_only: read page 0 only (a naive baseline's behaviour).
        problem: ``problem(result, index)`` → why the page failed, None when it did not
            (default: ``result.ok``); a failed page raises ``PageFailed`` with that reason.
    """
    check = problem or (lambda r, _i: _default_problem(r))
    paged = is_paged(ep)
    records: list[dict[str, Any]] = []
    pages: list[PageCall] = []
    total = 0
    index = 0
    while True:
        full = {**args, **page_args(ep, index, size)} if paged else dict(args)
        res = fetch(full)
        if index > 0 and res.ok and not res.records:
            break
        why = check(res, index)
        if why is not None:
            raise PageFailed(why)
        pages.append(PageCall(ep.id, full, len(res.records)))
        records.extend(res.records)
        if index == 0:
            total = res.total if res.total is not None else len(res.records)
        if not paged or first_page_only or len(records) >= total or len(res.records) < size:
            break
        index += 1
        if max_pages is not None and index >= max_pages:
            raise PageFailed(f"{ep.id}: {total} records need more than {max_pages} pages")
    return PagedResult(ep.id, dict(args), records, max(total, len(records)), pages)
