"""One small bounded cache for every memo in the package: an LRU owned by its user.

A memo is an attribute of the object whose work it saves (a resolver, a transport, a
server), never a module-level dict, so it goes away with its owner and two owners never
share (or fight over) one. Every cache here is bounded by entry count and, optionally, by
a total weight (bytes of rendered answers, say), and is safe to use from several threads.

>>> memo = BoundedCache[str, int](maxsize=2)
>>> memo.put("a", 1); memo.put("b", 2); memo.get("a")
1
>>> memo.put("c", 3)            # "b" was used least recently: it leaves
>>> sorted(memo.keys())
['a', 'c']
>>> memo.get_or_set("d", lambda: 4), len(memo)
(4, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, Iterator, TypeVar

__all__ = ["BoundedCache"]

#: What ``get`` reads for a key that is not there (None may be a kept value).
_ABSENT = object()

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A thread-safe least-recently-used mapping holding at most ``maxsize`` entries.

    Args:
        maxsize: the most entries kept (0: keep nothing).
        weigh: a value's weight (e.g. ``len`` of a body); with ``max_weight``, the least
            recently used entries leave until the total fits. A value heavier than
            ``max_weight`` on its own is not kept.
        max_weight: the most total weight kept (needs ``weigh``).
    """

    def __init__(
        self,
        maxsize: int,
        *,
        weigh: Callable[[V], int] | None = None,
        max_weight: int | None = None,
    ) -> None:
        if maxsize < 0:
            raise ValueError(f"maxsize={maxsize!r} must be >= 0")
        if (weigh is None) != (max_weight is None):
            raise ValueError("weigh and max_weight go together: give both or neither")
        self.maxsize = maxsize
        self.max_weight = max_weight
        self._weigh = weigh
        self._data: OrderedDict[K, V] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value for ``key`` (marked as just used), else ``default``."""
        with self._lock:
            value = self._data.get(key, _ABSENT)  # a miss raises nothing (cheaper than KeyError)
            if value is _ABSENT:
                return default
            self._data.move_to_end(key)
            return value  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used past the bounds."""
        if self._weigh is None:  # bounded by count alone: one insert, at most one eviction
            with self._lock:
                data = self._data
                if key in data:
                    data.move_to_end(key)
                elif self.maxsize == 0:
                    return
                data[key] = value
                if len(data) > self.maxsize:
                    data.popitem(last=False)
            return
        w = self._weigh(value)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None and self._weigh is not None:
                self._weight -= self._weigh(old)
            if self.maxsize == 0 or (self.max_weight is not None and w > self.max_weight):
                return
            self._data[key] = value
            self._weight += w
            while len(self._data) > self.maxsize or (
                self.max_weight is not None and self._weight > self.max_weight
            ):
                _k, dropped = self._data.popitem(last=False)
                if self._weigh is not None:
                    self._weight -= self._weigh(dropped)

    def get_or_set(self, key: K, make: Callable[[], V]) -> V:
        """The value for ``key``, made with ``make()`` and kept when absent."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        value = make()
        self.put(key, value)
        return value

    @property
    def weight(self) -> int:
        """The total weight held (0 without ``weigh``)."""
        return self._weight

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._data.clear()
            self._weight = 0

    def keys(self) -> list[K]:
        """The keys, least recently used first (a copy)."""
        with self._lock:
            return list(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())

    def __bool__(self) -> bool:
        return bool(self._data)
