"""Case-insensitive patterns that start with a word of a list, tried only where a word is.

``re`` tries an IGNORECASE pattern at every position of a text, some 50 ns a character: reading a
note for the patient's sex ("Sexo: M", "la paciente", "Varón de 51 años") took three such scans,
half a millisecond. Every match of these patterns begins with one of a few words, so the note's
lower case is searched for the words (``str.find``, in C) and the pattern is tried there alone.

The answer is the pattern's own, always. A character the pattern matches without being the
word's letter in ``str.lower`` (the dotless "ı" for "i", the long "ſ" for "s", a capital sigma
lowered by its context), or a text whose lower case has another length ("İ"), sends the text
to the plain scan: whether a character is such is asked of the pattern's own case rules, once
per character.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..memo import Memo

#: Runs of ASCII characters: what is left of a text without them is its other characters. An
#: ASCII character matches a word's letter only as its lower case does.
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")
#: Characters remembered as safe or not for one pattern, at most this many.
_KNOWN_SIZE = 1 << 12


def lower(text: str) -> str:
    """``text.lower()``, kept for the last two texts: a note's patterns read it in turn (its
    "Sexo:", "varón de", "la paciente" scans, one of them on the folded note), each lowering
    all of it. Not for a text over ``LOWER_KEPT`` characters: a copy of a long note would
    outlive its reading (one lowering more is little beside the rest of its work)."""
    global _LOWERED
    kept = _LOWERED  # one tuple, read and replaced whole (threads may share the module)
    for known, lowered in kept:
        if known is text:
            return lowered
    lowered = text.lower()
    if len(text) <= LOWER_KEPT:
        _LOWERED = ((text, lowered), kept[0])
    return lowered


#: The longest text whose lower case is kept (a clinical note is a few thousand characters).
LOWER_KEPT = 1 << 16
_LOWERED: tuple[tuple[str | None, str], tuple[str | None, str]] = ((None, ""), (None, ""))


class WordLed:
    """``pattern`` (compiled with ``re.IGNORECASE``), every match of which starts with one of
    ``words`` as written in lower case: ``finditer`` and ``search`` give what the pattern's own
    give, trying it only where ``text.lower()`` spells a word."""

    def __init__(self, pattern: re.Pattern[str], words: Iterable[str]) -> None:
        self.pattern = pattern
        self.words = tuple(dict.fromkeys(w.lower() for w in words if w))
        letters = sorted({c for w in self.words for c in w})
        self._letters = [(c, re.compile(re.escape(c), re.IGNORECASE)) for c in letters]
        self._safe: Memo[str, bool] = Memo(_KNOWN_SIZE)
        #: ASCII characters that match a letter they do not lower to (an "i" for a dotless "ı")
        self._risky_ascii = [c for c in map(chr, range(128)) if not self._is_safe(c)]
        self._last: tuple[str | None, bool] = (None, False)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``."""
        starts = self._starts(text)
        if starts is None:
            yield from self.pattern.finditer(text)
            return
        free = 0
        for start in starts:
            if start < free:
                continue
            match = self.pattern.match(text, start)
            if match is not None:
                yield match
                free = match.end()

    def search(self, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``."""
        starts = self._starts(text)
        if starts is None:
            return self.pattern.search(text)
        match = self.pattern.match
        return next((m for m in (match(text, s) for s in starts) if m is not None), None)

    def _starts(self, text: str) -> list[int] | None:
        """Every position where a word is written (sorted), or None where the lower case does
        not tell: the pattern then reads the text itself."""
        lowered = lower(text)
        if len(lowered) != len(text) or not self._plain(text):
            return None
        starts = set()
        for word in self.words:
            at = lowered.find(word)
            while at >= 0:
                starts.add(at)
                at = lowered.find(word, at + 1)
        return sorted(starts)

    def _plain(self, text: str) -> bool:
        """No character of the text matches a letter of the words unless it lowers to it (and
        no capital sigma, lowered by its context). The last text's answer is kept (a note is
        read by each pattern once, and again by ``search`` after ``finditer``), not for a long
        text: the pseudonymiser lets a long note's folded copy go after reading it."""
        last = self._last  # one tuple, read and replaced whole (threads may share a pattern)
        if last[0] is text:
            return last[1]
        plain = self._read_plain(text)
        if len(text) <= LOWER_KEPT:
            self._last = (text, plain)
        return plain

    def _read_plain(self, text: str) -> bool:
        if self._risky_ascii and any(c in text for c in self._risky_ascii):
            return False
        if text.isascii():
            return True
        if "\u03a3" in text:
            return False
        for char in set(_ASCII_RUNS.sub("", text)):
            safe = self._safe.get(char)
            if safe is None:
                safe = self._safe.remember(char, self._is_safe(char))
            if not safe:
                return False
        return True

    def _is_safe(self, char: str) -> bool:
        """Does ``char`` match a letter of the words only where it lowers to that letter?"""
        lowered = char.lower()
        return all(lowered == letter or pattern.fullmatch(char) is None for letter, pattern in self._letters)
