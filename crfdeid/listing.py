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

import re


def is_ruler(line: str) -> bool:
    """A ruler under a listing's header: runs of dashes parted by spaces, three runs or more
    (read without a pattern: a long line of dashes and spaces stays linear)."""
    body = line.rstrip(" \t\r")
    return bool(body) and not body.strip(" -") and "-" in body and "\t" not in body.strip() \
        and len(body.split()) >= 3


def in_aligned_column(text: str, start: int, end: int) -> bool | None:
    """Is ``[start, end)`` a cell of a listing laid out in columns — a line of two column gaps
    (two spaces or more) at least, a column gap after the cell (one space in a listing with a
    ruler under its header), then the next cell, which starts where a cell starts on the line
    above or below too (a space before it, none at it)? None when not; else whether the listing
    has a ruler, whose cells are cut at their width. Prose has no such line, and a form's field
    between column gaps is padded, never cut."""
    gap = end
    while gap < len(text) and text[gap] == " ":
        gap += 1
    if gap == end or gap >= len(text) or text[gap] in "\r\n":
        return None
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if len(_COLUMN_GAP.findall(text, line_start, line_end if line_end >= 0 else len(text))) < 2:
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
