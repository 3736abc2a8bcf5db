"""The cells of a table's column whose header names an identifier.

Notes paste tables laid out with spaces or tabs: a vaccination record with a lot per dose, a
ward list with record numbers, a contact sheet with phones. The tagger reads a cell ("X3B471V")
as one word among words and, without "Lote:" before it, rarely as a lot: the eleventh set
written blind left five vaccine lots of one table in its output. The header row says what each
column holds, so the step reads the table as a reader does.

The pack's manifest names the header words by category (``table_columns``: ``device: [lote,
"nº de lote"]``). A header line has three cells or more, parted by two spaces or a tab, none
ending in a colon (a form's fields are no table), one of them a header word as a whole cell.
The rows under it, up to a blank line or a line of one cell, give each cell to a column: by
its index where the header is parted by tabs, else by where it starts (a header cell's column
runs from its start to the next header cell's). A cell of such a column that holds a digit
becomes a span of the category's label, unless a detected span touches it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .langpack import LanguagePack, fold
from .lone_places import overlaps
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "table-column"
#: A cell: text up to two spaces, a tab or the line's end.
_CELL = regex.compile(r"[^ \t](?:[^\t ]| (?![ \t]|$))*")
#: What a header cell may end with besides its word ("Lote.", "Nº lote:").
_TRIM = ".:"
#: A cell an identifier can be: a digit in it, at most this long.
_MAX_CELL = 40
_DIGIT = regex.compile(r"\p{Nd}")
#: The most rows read under one header (a note's table; past that, something else).
_MAX_ROWS = 200


@dataclass(frozen=True)
class TableColumns:
    """The completion step: header words (folded) and the label their column's cells take."""

    headers: Mapping[str, str]

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, labels: Mapping[str, str | None]) -> TableColumns | None:
        """The step for ``pack`` with the scheme's label of each category, or None: the pack
        names no header, or the scheme has none of their categories."""
        if pack is None or not pack.table_columns:
            return None
        headers = {fold(word): label for category, words in pack.table_columns.items()
                   if (label := labels.get(category)) for word in words}
        return cls(headers) if headers else None

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The cells under a header word that hold a digit and that no span of ``spans`` touches."""
        if "  " not in text and "\t" not in text:
            return []
        taken = sorted((s.start, s.end) for s in spans)
        found: list[Span] = []
        lines = _lines(text)
        i = 0
        while i < len(lines):
            _, line = lines[i]
            header = self._header(line)
            i += 1
            if header is None:
                continue
            tabbed = "\t" in line
            for row_start, row in lines[i : i + _MAX_ROWS]:
                cells = _cells(row)
                if len(cells) < 2:
                    break
                i += 1
                for index, (offset, cell) in enumerate(cells):
                    column = index if tabbed else _column_at(header, offset)
                    label = header[column][2] if column is not None and column < len(header) else None
                    if label is None or len(cell) > _MAX_CELL or not _DIGIT.search(cell):
                        continue
                    cell = cell.rstrip(".,;")
                    begin = row_start + offset
                    end = begin + len(cell)
                    if not overlaps(taken, begin, end):
                        found.append(Span(begin, end, label, source=SOURCE))
        return found

    def _header(self, line: str) -> list[tuple[int, str, str | None]] | None:
        """A header line's cells (offset, text, the label of its column or None), or None."""
        cells = _cells(line)
        if len(cells) < 3 or any(c.endswith(":") for _, c in cells):
            return None
        header = [(offset, cell, self.headers.get(fold(cell.rstrip(_TRIM).strip())))
                  for offset, cell in cells]
        return header if any(label for _, _, label in header) else None


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line of ``text`` with its offset."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _cells(line: str) -> list[tuple[int, str]]:
    """A line's cells and their offsets in it (a tab, or two spaces or more, part cells)."""
    return [(m.start(), m.group()) for m in _CELL.finditer(line)]


def _column_at(header: Sequence[tuple[int, str, str | None]], offset: int) -> int | None:
    """The header column a cell starting at ``offset`` falls in (the last header cell starting
    at or before it; a cell before the first header cell belongs to none)."""
    column = None
    for index, (start, _, _) in enumerate(header):
        if start <= offset:
            column = index
        else:
            break
    return column


def with_table_columns(text: str, spans: Iterable[Span], step: TableColumns | None) -> list[Span]:
    """``spans`` and the table cells ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    return sorted([*spans, *step.spans(text, spans)], key=lambda s: (s.start, s.end, s.label))
