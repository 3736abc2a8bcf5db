"""The ranges of a note already taken by spans, asked by bisection.

The completion steps (``lone_names``, ``lone_places``, ``lone_professions``) ask, for every
candidate they find, which spans already touch it, and add what they take. A plain list
scanned per candidate made a note of thousands of spans quadratic: 64,000 characters of one
repeated address ("c/ Mayor 3, " 5,000 times) took 4.9 s, a megabyte would have taken
minutes. Here the ranges stay sorted by start and no range but a long one is longer than
``LONG``, which bounds how far back a range that reaches a candidate can start: a question
costs a bisection and the ranges near it (``crfdeid.merge.Ranges`` does the same for a fixed
set of labelled ranges; this one grows as the steps take).

Like the lists it replaces, it is a multiset: a range added twice is held twice (a step that
counts the ranges touching a name counts both). The few long ranges (a span of a whole embedded
document, a data URI) are held apart and scanned: bounding the search by one of them would have
made every question read the whole note again.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Iterator

#: A range longer than this is held apart (``Taken.long``).
LONG = 512


class Taken:
    """Ranges ``(start, end)`` sorted, each question answered from the ranges near it."""

    __slots__ = ("long", "ranges", "starts")

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()) -> None:
        every = sorted(ranges)
        self.ranges: list[tuple[int, int]] = [r for r in every if r[1] - r[0] <= LONG]
        self.long: list[tuple[int, int]] = [r for r in every if r[1] - r[0] > LONG]
        self.starts = [s for s, _ in self.ranges]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(sorted([*self.ranges, *self.long]) if self.long else self.ranges)

    def __len__(self) -> int:
        return len(self.ranges) + len(self.long)

    def copy(self) -> Taken:
        """A copy a step may add to without the caller seeing it."""
        other = Taken.__new__(Taken)
        other.ranges, other.starts, other.long = self.ranges[:], self.starts[:], self.long[:]
        return other

    def add(self, start: int, end: int) -> None:
        if end - start > LONG:
            insort(self.long, (start, end))
            return
        insort(self.ranges, (start, end))
        self.starts.insert(bisect_left(self.starts, start), start)

    def extend(self, ranges: Iterable[tuple[int, int]]) -> None:
        for start, end in ranges:
            self.add(start, end)

    def overlapping(self, start: int, end: int) -> list[tuple[int, int]]:
        """The ranges overlapping ``[start, end)`` (``s < end and start < e``), in order."""
        lo = bisect_left(self.starts, start - LONG)
        hi = bisect_left(self.starts, end)
        near = [r for r in self.ranges[lo:hi] if r[1] > start]
        if self.long:
            near = sorted([*near, *(r for r in self.long if r[0] < end and start < r[1])])
        return near

    def touching(self, start: int, end: int) -> list[tuple[int, int]]:
        """The ranges overlapping or abutting ``[start, end]`` (``s <= end and start <= e``)."""
        lo = bisect_left(self.starts, start - LONG)
        hi = bisect_right(self.starts, end)
        near = [r for r in self.ranges[lo:hi] if r[1] >= start]
        if self.long:
            near = sorted([*near, *(r for r in self.long if r[0] <= end and start <= r[1])])
        return near


def overlapping(taken: Taken | Iterable[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The ranges of ``taken`` overlapping ``[start, end)``: by bisection for a ``Taken``, by a
    scan for a short list of ranges."""
    if isinstance(taken, Taken):
        return taken.overlapping(start, end)
    return [(s, e) for s, e in taken if s < end and start < e]


def touching(taken: Taken | Iterable[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The ranges of ``taken`` overlapping or abutting ``[start, end]``."""
    if isinstance(taken, Taken):
        return taken.touching(start, end)
    return [(s, e) for s, e in taken if s <= end and start <= e]


def own(taken: Taken | Iterable[tuple[int, int]]) -> Taken:
    """A ``Taken`` of the caller's ranges that a step may add to: the caller's is left as it was."""
    return taken.copy() if isinstance(taken, Taken) else Taken(taken)
