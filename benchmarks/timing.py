"""Timing shared by the benchmark scripts: best of several passes, on one core."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any


def best_seconds(fn: Callable[[Any], Any], items: Iterable[Any], repeat: int) -> float:
    """The fastest of ``repeat`` passes of ``fn`` over ``items`` (noise only ever adds time)."""
    items = list(items)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - started)
    return best
