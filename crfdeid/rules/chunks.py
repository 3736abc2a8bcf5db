"""Cutting a document into chunks, so that a rule's time limit scales with the text.

A chunk is a run of whole lines of at most ``CHUNK_SIZE`` characters; a longer line is cut after
its last whitespace in the second half of the chunk, or hard-cut inside a token with no
whitespace at all. Chunks only decide which matches a search *owns* (those that start inside it)
and what a time limit applies to: every search still runs over the whole text, so lookbehind,
``^`` and ``\\b`` see the characters before a chunk, and it may read ``MARGIN`` characters past
its end, so that a match crossing a cut is found whole, once, by the chunk that holds its start.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

#: Characters per chunk. Measured by ``benchmarks/rules.py --chunk-sizes``: smaller chunks pay
#: the per-search overhead and the margin more often, larger ones gain nothing (see the readme).
CHUNK_SIZE = 8192
#: How far past its chunk a search may read: a match (with what its lookahead checks) that ends
#: within this many characters after the chunk holding its start is found exactly as on the
#: whole text.
MARGIN = 256
#: A match ending this close to the end of what the search could read may have been cut short
#: (a greedy ``\\d+``, a lookahead that saw the end of the text): the chunk is searched again
#: with a four times wider margin, up to the whole rest of the text.
GUARD = 64

_LAST_SPACE = regex.compile(r"\s", regex.REVERSE)


@dataclass(frozen=True, slots=True)
class Chunk:
    """Characters ``[start, end)`` of a text, and the start of the line that holds ``start``."""

    start: int
    end: int
    line_start: int


def plan_chunks(text: str, size: int = CHUNK_SIZE) -> list[Chunk]:
    """Consecutive chunks covering ``text`` (none for an empty text); linear in its length."""
    if size < 2:
        raise ValueError(f"chunk size must be at least 2 characters, got {size!r}")
    n = len(text)
    chunks: list[Chunk] = []
    start = line_start = 0
    while start < n:
        target = start + size
        if target >= n:
            end = n
        else:
            cut = max(text.rfind("\n", start, target), text.rfind("\r", start, target))
            if cut >= 0:
                end = cut + 1
                if text[cut] == "\r" and end < n and text[end] == "\n":
                    end += 1  # keep a CRLF together
            else:
                space = _LAST_SPACE.search(text, start + size // 2, target)
                end = space.end() if space is not None else target
        chunks.append(Chunk(start, end, line_start))
        last_break = max(text.rfind("\n", start, end), text.rfind("\r", start, end))
        if last_break >= 0:
            line_start = last_break + 1
        start = end
    return chunks
