"""Bounded memory of a pure function's results, for the pseudonymiser's and the packs' hot paths."""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """Results kept by argument, at most ``size`` of them; when full it starts afresh (cheaper
    than an LRU's bookkeeping on a path run per word). Only for pure functions of the key: what
    is kept never changes a result, so one note's words cannot change another note's output."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def remember(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (emptying the memo first when it is full); return it."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value
