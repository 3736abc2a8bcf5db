"""Timing shared by the benchmark scripts: best of several passes, on one core; the commit a
figure was measured at."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def best_seconds(fn: Callable[[Any], Any], items: Iterable[Any], repeat: int,
                 clock: Callable[[], float] = time.perf_counter) -> float:
    """The fastest of ``repeat`` passes of ``fn`` over ``items`` (noise only ever adds time);
    ``clock=time.process_time`` counts this process's CPU time alone (on a shared machine, time
    spent waiting for a core is not counted)."""
    items = list(items)
    best = float("inf")
    for _ in range(repeat):
        started = clock()
        for item in items:
            fn(item)
        best = min(best, clock() - started)
    return best


def commit() -> str:
    """The short hash of the checked-out commit ("unknown" outside a git work tree)."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
