"""Every rule's trigger strings found in one pass over a document (one Aho-Corasick automaton).

A rule's trigger (``prefilter.Trigger``) may be matched ignoring case, as ``regex`` matches it:
one character against the other characters ``regex`` takes for the same letter, which is not
always what ``str.lower`` does ("ſ" is an "s" to ``regex``, "İ" lowers to two characters). So
the automaton runs over a *folded* text, one character for one, in which two characters that
``regex`` may match to each other are always the same character. Folding can only make more
strings equal, so the index finds every place a rule could match, and perhaps a few more.

The fold is built for the characters of the triggers: which characters ``regex`` matches to
them is asked of ``regex`` itself, over every code point below ``FOLD_LIMIT``. A text with a
character at or above it gets no index (its rules are searched as without triggers), since its
characters were not asked about.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import ahocorasick
import regex

from .prefilter import Shape

#: Code points the fold knows (the Basic Multilingual Plane); clinical text beyond it (emoji,
#: historic scripts) is rare and is simply searched without the index.
FOLD_LIMIT = 0x10000
#: What characters the fold has nothing to say about become: lowers to itself, one character.
_ELSEWHERE = "\uffff"
#: Characters of a text folded at a time.
SLICE = 1 << 20
_BEYOND = regex.compile(f"[^\\x00-\\U{FOLD_LIMIT - 1:08x}]")


@lru_cache(maxsize=16)
def _fold_table(alphabet: frozenset[str]) -> dict[int, str]:
    """``str.translate`` table applied before ``str.lower``: one character for one, each group of
    characters ``regex`` matches to one another ignoring case ending up as one character.

    Which characters ``regex`` matches to a trigger's character is asked of ``regex`` itself: the
    character as a pattern, ignoring case, over every code point below FOLD_LIMIT (some 20 ms
    for a pack, once per process).
    """
    universe = "".join(map(chr, range(FOLD_LIMIT)))
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for a in sorted(alphabet):
        for x in regex.findall(f"\\U{ord(a):08x}", universe, flags=regex.IGNORECASE):
            parent[root(x)] = root(a)
    groups: dict[str, list[str]] = {}
    for c in list(parent):
        groups.setdefault(root(c), []).append(c)
    table: dict[int, str] = {}
    for members in groups.values():
        lowered = [c.lower() for c in sorted(members)]
        value = next((low for low in lowered if len(low) == 1 and low.lower() == low), _ELSEWHERE)
        # "Σ" lowers to "ς" at the end of a word: the only character str.lower reads in context
        table.update({ord(c): value for c in members if c.lower() != value or c == "\u03a3"})
    for c in _longer_when_lowered(universe):  # so that every character keeps its place
        table.setdefault(ord(c), _ELSEWHERE)
    return table


def _longer_when_lowered(text: str) -> str:
    """The characters of ``text`` that ``str.lower`` turns into more than one (halving search:
    there are a handful among tens of thousands)."""
    if len(text.lower()) == len(text):
        return ""
    if len(text) == 1:
        return text
    half = len(text) // 2
    return _longer_when_lowered(text[:half]) + _longer_when_lowered(text[half:])


def _anchors(keys: Iterable[str], reverse: bool = False) -> list[str]:
    """The keys that no shorter key starts (ends, ``reverse``): "tel" finds every "telefono"
    at the same start, so a rule's hits are the same with "tel" alone, and found faster."""
    kept: list[str] = []
    for key in sorted({k[::-1] if reverse else k for k in keys}):  # a prefix sorts first
        if not kept or not key.startswith(kept[-1]):
            kept.append(key)
    return [k[::-1] for k in kept] if reverse else kept


class TriggerIndex:
    """The trigger strings of a rule list, compiled once; ``find`` indexes one document."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        """``shapes``: one per rule; a rule without a trigger gets no hits."""
        self.slots = len(shapes)
        strings = {s for shape in shapes if shape.trigger is not None for s in shape.trigger.strings}
        self._table = _fold_table(frozenset("".join(strings)))
        self._unusual = "".join(map(chr, self._table))
        self._latin: bytes | None = None
        folded = [self.fold(chr(i)) for i in range(256)]  # the same fold as bytes, for Latin-1 text
        self._latin = bytes(map(ord, folded)) if all(len(c) == 1 and c < "\u0100" for c in folded) else None
        by_key: dict[str, set[tuple[int, bool]]] = {}
        for slot, shape in enumerate(shapes):
            keys = _anchors((self.fold(s) for s in shape.trigger.strings), reverse=shape.behind) \
                if shape.trigger is not None else []
            for key in keys:
                by_key.setdefault(key, set()).add((slot, shape.behind))
        self._automaton: ahocorasick.Automaton | None = None
        self._longest = max(map(len, by_key), default=1)
        if by_key:
            self._automaton = ahocorasick.Automaton()
            for key, slots in by_key.items():
                self._automaton.add_word(key, (len(key), tuple(sorted(slots))))
            self._automaton.make_automaton()

    def fold(self, text: str) -> str:
        """``text`` with each character replaced by its group's, one for one (below FOLD_LIMIT)."""
        if self._latin is not None:
            try:  # most notes are Latin-1: a byte table is ten times faster than str.lower
                return text.encode("latin-1").translate(self._latin).decode("latin-1")
            except UnicodeEncodeError:
                pass
        if any(c in text for c in self._unusual):
            text = text.translate(self._table)
        return text.lower()

    def find(self, text: str) -> list[list[int]] | None:
        """For each rule, the sorted offsets where its triggers start in ``text`` (end, for a
        trigger in a look-behind); None when ``text`` holds characters the fold does not know
        (search it without the index).

        A long text is folded a slice at a time, so a 9 MiB note never has a folded copy of
        itself in memory; slices overlap by a key's length, and a trigger belongs to the slice
        it starts in.
        """
        hits: list[list[int]] = [[] for _ in range(self.slots)]
        if self._automaton is None or not text:
            return hits
        overlap = self._longest - 1
        for begin in range(0, len(text), SLICE):
            piece = text[begin:begin + SLICE + overlap]
            folded = self.fold(piece)
            if not folded.isascii() and _BEYOND.search(folded) is not None:
                return None
            if len(folded) != len(piece):
                return None  # cannot happen below FOLD_LIMIT; offsets would drift if it did
            for last, (length, slots) in self._automaton.iter(folded):
                first = last + 1 - length
                if first >= SLICE:
                    continue  # the next slice's
                for slot, behind in slots:
                    hits[slot].append(begin + (last + 1 if behind else first))
        for found in hits:
            found.sort()
        return hits
