"""A small bounded, thread-safe LRU: the one memo class of the tool layer.

Memos of the tool layer belong to an instance (a caller, a world, an executor) and hold at
most ``size`` entries; the least recently used entry leaves first. Nothing here is
module-level state.

>>> memo = LRU(2)
>>> memo.put("a", 1); memo.put("b", 2); memo.get("a")
1
>>> memo.put("c", 3)          # "b" was used least recently: it leaves
>>> memo.get("b") is None, len(memo)
(True, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

__all__ = ["LRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``size`` entries; ``get`` refreshes an entry, ``put`` evicts the oldest.

    Args:
        size: the bound (``0`` keeps nothing: every ``get`` misses).
    """

    def __init__(self, size: int = 4096) -> None:
        if size < 0:
            raise ValueError(f"size={size!r} must be >= 0")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (None when absent)."""
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, evicting the least recently used past the bound."""
        if self.size == 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
