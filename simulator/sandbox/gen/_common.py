"""Helpers shared by the generators: projection onto catalog fields, lazy row sequences."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, overload

from ...catalog import Endpoint, load_catalog

__all__ = ["Rows", "endpoint", "shape", "shape_one"]


@lru_cache(maxsize=None)
def endpoint(endpoint_id: str) -> Endpoint:
    return load_catalog().endpoint(endpoint_id)


def _convert(value: Any, ftype: str) -> Any:
    if value is None:
        return None
    if ftype == "integer":
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, (int, float)):
            return int(value)
        text = str(value).replace(",", "").strip()
        try:
            return int(text)
        except ValueError:
            return value
    if ftype == "number":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        try:
            return float(str(value).replace(",", ""))
        except ValueError:
            return value
    if ftype == "string":
        return value if isinstance(value, str) else str(value)
    return value


def shape_one(ep: Endpoint, source: Mapping[str, Any], blank: Any = "") -> dict[str, Any]:
    """``source`` projected onto the endpoint's fields, in their order and JSON types.

    A field the source lacks gets ``blank`` ("" for most platforms, " " for RTMS, None
    where the platform sends null).
    """
    out: dict[str, Any] = {}
    for f in ep.fields:
        out[f.name] = _convert(source[f.name], f.type) if f.name in source else blank
    return out


def shape(endpoint_id: str, rows: Iterable[Mapping[str, Any]], blank: Any = "") -> list[dict[str, Any]]:
    """:func:`shape_one` over rows, for the endpoint ``endpoint_id``."""
    ep = endpoint(endpoint_id)
    return [shape_one(ep, r, blank) for r in rows]


class Rows(Sequence[dict[str, Any]]):
    """A lazy, read-only sequence of ``n`` records built on access (huge collections).

    ``ordered`` says the rows are already in the endpoint's declared order, so the app can
    skip the query step when no query filter is given.
    """

    def __init__(self, n: int, get: Callable[[int], dict[str, Any]], *, ordered: bool = True) -> None:
        self._n = n
        self._get = get
        self.ordered = ordered

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self._get(k) for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._get(i)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for k in range(self._n):
            yield self._get(k)
