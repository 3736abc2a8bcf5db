"""A listing laid out in columns: the ruler under its header, and where its cells are.

Mainframe and laboratory listings print each record on one line, its fields in columns of fixed
width, and often a ruler of dashes under the header ("-------- ------------ - ---"). The table step
reads a listing's cells by that ruler (``crfdeid.table_columns``); the pseudonymiser keeps its
columns where they were, a surrogate padded to its original's width, or cut at it under a ruler
(``crfdeid.pseudonymise``): the sixteenth set's admissions listing had every row's columns shifted.
Everything here is read without patterns of nested repeats: a line of thousands of dashes stays
linear.
"""

from __future__ import annotations

import bisect
import re


def is_ruler(line: str) -> bool:
    """A ruler under a listing's header: runs of dashes parted by spaces, three runs or more
    (read without a pattern: a long line of dashes and spaces stays linear)."""
    body = line.rstrip(" \t\r")
    return bool(body) and not body.strip(" -") and "-" in body and "\t" not in body.strip() \
        and len(body.split()) >= 3


class Lines:
    """Where a text's lines start and end, and which have two column gaps or more, found once:
    per span, a search over its whole line had made a note of one long line quadratic (7,000
    e-mail addresses in one line took 8 s, all in ``in_aligned_column``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks = [m.start() for m in re.finditer("\n", text)]
        self._gapped: dict[tuple[int, int], bool] = {}

    def bounds(self, at: int) -> tuple[int, int]:
        """The start and end (its line break, or the text's end) of the line holding ``at``."""
        k = bisect.bisect_left(self._breaks, at)
        start = self._breaks[k - 1] + 1 if k else 0
        return start, self._breaks[k] if k < len(self._breaks) else len(self.text)

    def gapped(self, line_start: int, line_end: int) -> bool:
        """Has the text from ``line_start`` to ``line_end`` two column gaps or more?"""
        key = (line_start, line_end)
        if key not in self._gapped:
            gaps = _COLUMN_GAP.finditer(self.text, line_start, line_end)
            self._gapped[key] = next(gaps, None) is not None and next(gaps, None) is not None
        return self._gapped[key]


def in_aligned_column(text: str, start: int, end: int, lines: Lines | None = None) -> bool | None:
    """Is ``[start, end)`` a cell of a listing laid out in columns — a line of two column gaps
    (two spaces or more) at least, a column gap after the cell (one space in a listing with a
    ruler under its header), then the next cell, which starts where a cell starts on the line
    above or below too (a space before it, none at it)? None when not; else whether the listing
    has a ruler, whose cells are cut at their width. Prose has no such line, and a form's field
    between column gaps is padded, never cut. ``lines``: the text's ``Lines``, made once for
    all the spans of a note."""
    gap = end
    while gap < len(text) and text[gap] == " ":
        gap += 1
    if gap == end or gap >= len(text) or text[gap] in "\r\n":
        return None
    if lines is None or lines.text is not text:
        lines = Lines(text)
    line_start, line_end = lines.bounds(start)[0], lines.bounds(end)[1]
    if not lines.gapped(line_start, line_end):
        return None
    ruled = under_ruler(text, line_start)
    if gap - end < 2 and not ruled:
        return None  # one space after it: a sentence's next word
    column = gap - line_start
    for other in neighbour_lines(text, line_start):
        if len(other) > column and other[column] != " " and other[column - 1] == " ":
            return ruled
    return None


def under_ruler(text: str, line_start: int, reach: int = 60) -> bool:
    """Is the line at ``line_start`` a row of a listing whose header has a ruler under it
    ("-------- ------------- - ---"), no blank line between? Such a listing cuts what is longer
    than its column; a form's line is never cut."""
    at = line_start
    for _ in range(reach):
        if at == 0:
            return False
        above = text.rfind("\n", 0, at - 1) + 1
        line = text[above : at - 1]
        if not line.strip():
            return False
        if is_ruler(line):
            return True
        at = above
    return False


#: A column gap: two spaces or more between two cells.
_COLUMN_GAP = re.compile(r"(?<=\S)  +(?=\S)")


def neighbour_lines(text: str, line_start: int) -> list[str]:
    """The lines just above and below the line starting at ``line_start``."""
    out = []
    if line_start > 0:
        above = text.rfind("\n", 0, line_start - 1) + 1
        out.append(text[above : line_start - 1].rstrip("\r"))
    below = text.find("\n", line_start)
    if below >= 0:
        after = text.find("\n", below + 1)
        out.append(text[below + 1 : after if after >= 0 else len(text)].rstrip("\r"))
    return out
