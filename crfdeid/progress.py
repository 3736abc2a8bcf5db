"""Progress bars for long batch work, shown only where a person is watching."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], *, total: int | None = None, desc: str = "",
             enabled: bool | None = None, unit: str = "doc") -> Iterator[T]:
    """Wrap ``items`` in a tqdm bar on stderr; ``enabled=None`` means "only on a terminal"."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield from items
        return
    from tqdm import tqdm  # imported lazily: no cost when output is not a terminal

    yield from tqdm(items, total=total, desc=desc, unit=unit, leave=False, file=sys.stderr)


def say(line: str) -> None:
    """Print a line on stderr without tearing a progress bar that may be drawn there."""
    if sys.stderr.isatty():
        from tqdm import tqdm

        tqdm.write(line, file=sys.stderr)
    else:
        print(line, file=sys.stderr)
