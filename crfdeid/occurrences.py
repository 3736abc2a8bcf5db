"""Whole-word occurrences of many strings in one text, in one Aho-Corasick pass.

Shared by the leftover scan (originals still in the output) and by propagation (second
mentions of a replaced string the detector did not mark): both must find the same things in
the same way, or a propagated note would still be held back for a leftover.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable

import ahocorasick
import regex

from .memo import Memo
from .surrogates import fold

#: How much of a key the automaton holds (the rest is compared where it matched).
_PREFIX = 32
#: Name words of three letters or more (combining marks included: NFD text).
_NAME_WORDS = regex.compile(r"[^\W\d_]{3,}")
#: Where two words were written without a space: a capital after a small letter.
_GLUED = regex.compile(r"(?<=\p{Ll}\p{M}*)(?=\p{Lu})")


def word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened over the word it cuts. A word goes on across an edge where a
    letter (or a combining mark) meets a letter that is not a capital: "DR.F|rancisco" and
    "Cande|l" are cut words; a capital there starts another word written glued
    ("ÁngelGarcía", "Medina|NºCol") and is a boundary, as are digits and punctuation."""
    while 0 < start < len(text) and _in_word(text[start - 1]) and _goes_on(text[start]):
        start -= 1
    while 0 < end < len(text) and _in_word(text[end - 1]) and _goes_on(text[end]):
        end += 1
    return start, end


def _in_word(char: str) -> bool:
    """A letter, or a combining mark on one (decomposed text)."""
    return char.isalpha() or unicodedata.combining(char) > 0


def _goes_on(char: str) -> bool:
    """A character that goes on the word before it: a letter but a capital, or a mark."""
    return _in_word(char) and not char.isupper()


def name_words(text: str) -> list[str]:
    """The words of a name that may be written alone elsewhere in the note: three letters or
    more, and the parts of a glued word ("ÁngelGarcía Escudero" -> Ángel, García, Escudero: the
    header ran them together, the body writes "el Sr. García Escudero"). A name's words are
    asked for by propagation, the pseudonymiser and its leftover scan: short names are
    remembered (a pure function's results, bounded; a copy is returned)."""
    found = _NAME_WORDS_OF.get(text)
    if found is None:
        out: list[str] = []
        for word in _NAME_WORDS.findall(text):
            parts = [p for p in glued_parts(word) if len(p) >= 3]
            out.extend(parts if len(parts) > 1 else [word])
        found = tuple(out)
        if len(text) <= _NAME_CACHE_LENGTH:
            _NAME_WORDS_OF.remember(text, found)
    return list(found)


_NAME_CACHE_LENGTH = 256
_NAME_CACHE_SIZE = 1 << 14
_NAME_WORDS_OF: Memo[str, tuple[str, ...]] = Memo(_NAME_CACHE_SIZE)


def glued_parts(word: str) -> list[str]:
    """A word cut where a capital follows a small letter: "ÁngelGarcía" -> Ángel, García."""
    return [p for p in _GLUED.split(word) if p]


class Scannable:
    """A text as ``find_whole_words`` scans it: folded character by character (same length),
    every run of whitespace written as one space, and the runs that changed (to map offsets
    back). Made once per text and passed to every scan of that text (propagation scans a note
    twice): preparing it costs more than a scan."""

    __slots__ = ("collapsed", "folded", "runs", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = _fold_in_place(text)
        self.collapsed, self.runs = _collapse_spaces(self.folded)

    def fold(self) -> str:
        """``fold(text)``, taken from ``folded`` where every character of the text folds to one
        character (the common case: then folding the whole text is folding each character)."""
        return self.folded if folds_in_place(self.text) else fold(self.text)


def folds_in_place(text: str) -> bool:
    """Is ``fold(text)`` the text folded character by character? So when each of its characters
    folds to exactly one (no combining mark, which folds to nothing, no "ß", which folds to
    two): a character that folds to one does not decompose into a leading mark (a test checks
    every code point), so no mark crosses from one character to the next."""
    for char in set(_ASCII_RUNS.sub("", text)):
        one = _FOLDS_TO_ONE.get(char)
        if one is None:
            one = _FOLDS_TO_ONE.remember(char, len(fold(char)) == 1)
        if not one:
            return False
    return True


_FOLDS_TO_ONE: Memo[str, bool] = Memo(_NAME_CACHE_SIZE)


def find_whole_words(
    text: str, keys: Iterable[str], scannable: Scannable | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, key) of every whole-word occurrence of the (folded) ``keys`` in ``text``.

    Matching is on folded text (case and accents ignored), whole words, any whitespace between
    words; the leftmost, then longest, match wins and matches do not overlap. Offsets are in
    ``text``. ``scannable``: ``Scannable(text)`` made beforehand, for a text scanned more than once.
    """
    keys = [k for k in keys if k]
    if not keys:
        return []
    if scannable is None or scannable.text is not text:
        scannable = Scannable(text)
    collapsed, runs = scannable.collapsed, scannable.runs
    # The automaton holds at most the first PREFIX characters of a key (a long key's tail
    # is checked where its head matched): pyahocorasick slows down with key length on
    # repetitive text. Word boundaries are checked on the collapsed text, where every
    # whitespace run is one space (a non-word character, as it was).
    by_prefix: dict[str, list[str]] = {}
    for key in sorted(keys, key=len, reverse=True):
        by_prefix.setdefault(key[:_PREFIX], []).append(key)
    automaton = ahocorasick.Automaton()
    for prefix in by_prefix:
        automaton.add_word(prefix, prefix)
    automaton.make_automaton()
    longest: dict[int, str] = {}  # start in the collapsed text -> longest key found there
    for last, prefix in automaton.iter(collapsed):
        start = last - len(prefix) + 1
        if start > 0 and _is_word(collapsed[start - 1]):
            continue
        for key in by_prefix[prefix]:  # longest first
            end = start + len(key)
            if (len(key) > len(prefix) and not collapsed.startswith(key, start)) or (
                end < len(collapsed) and _is_word(collapsed[end])
            ):
                continue
            if len(key) > len(longest.get(start, "")):
                longest[start] = key
            break
    found = []
    free_from = 0
    for collapsed_start in sorted(longest):
        if collapsed_start < free_from:
            continue  # inside the previous match
        key = longest[collapsed_start]
        free_from = collapsed_start + len(key)
        start = _uncollapse(collapsed_start, runs)
        end = _uncollapse(collapsed_start + len(key) - 1, runs) + 1
        found.append((start, end, key))
    return found


def _is_word(char: str) -> bool:
    """``\\w`` of ``re``: what the leftover scan's word boundaries are made of."""
    return char.isalnum() or char == "_"


#: Runs of ASCII characters: what is left of a text without them is its non-ASCII characters.
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")
#: Capital sigma: the one character ``str.lower`` writes by its context (final "ς" or "σ").
_SIGMA = "\u03a3"


def _fold_in_place(text: str) -> str:
    """``text`` folded character by character (accents and case), same length, so offsets in
    the folded text are offsets in ``text``: each character becomes the first character of its
    ``fold`` (itself if that is empty; an ASCII small letter stays as it is).

    Done as ``str.lower`` and one ``str.replace`` per distinct non-ASCII character left, all
    in C: for every code point, the first character of the fold of its lower case is the first
    character of its own fold, and is its own first character (a test checks both over every
    code point), so the replacements neither differ from nor feed into one another. A text
    whose lower case is longer ("İ") or depends on context ("Σ") is folded one character at
    a time."""
    lowered = text.lower()
    if text.isascii():
        return lowered
    if len(lowered) != len(text) or _SIGMA in text:
        return _fold_each(text)
    for char in set(_ASCII_RUNS.sub("", lowered)):
        folded = fold(char)[:1] or char
        if folded != char:
            lowered = lowered.replace(char, folded)
    return lowered


def _fold_each(text: str) -> str:
    """``_fold_in_place`` by a translation table of each distinct character: the definition."""
    table = {}
    for char in set(text):
        if not char.isascii() or char.isupper():
            folded = fold(char)[:1] or char
            if folded != char:
                table[ord(char)] = folded
    return text.translate(table)


#: Whitespace other than a single space: collapsed before the scan, as ``\s+`` did.
_SPACE_RUNS = re.compile(r"\s{2,}|[^\S ]")
#: Where a text's only whitespace is spaces and line feeds (nearly every note), its runs are
#: found from these two patterns, each with a literal head the ``re`` search skips to at C
#: speed: a line feed and the spaces and line feeds after it, and two spaces or more.
_LINE_FEED_RUNS = re.compile(r"\n[ \n]*")
_SPACES = re.compile(r"  +")


def _collapse_spaces(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every run of whitespace written as one space, and the runs that were
    changed as (position in the collapsed text after the run, characters removed so far)."""
    pieces: list[str] = []
    runs: list[tuple[int, int]] = []
    cursor = removed = 0
    for start, end in _space_runs(text):
        pieces.append(text[cursor:start])
        pieces.append(" ")
        removed += end - start - 1
        runs.append((end - removed, removed))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), runs


def _space_runs(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every match of ``_SPACE_RUNS`` in ``text``, in order: the maximal
    runs of whitespace but a single space."""
    if not text.replace("\n", " ").isprintable():  # a tab, a CR, an NBSP… (or a control)
        return [match.span() for match in _SPACE_RUNS.finditer(text)]
    # spaces and line feeds alone: a run holding a line feed starts at the spaces before its
    # first one; a run of spaces alone touches no line feed
    runs = []
    for match in _LINE_FEED_RUNS.finditer(text):
        start = match.start()
        while start and text[start - 1] == " ":
            start -= 1
        runs.append((start, match.end()))
    for match in _SPACES.finditer(text):
        start, end = match.span()
        if (end == len(text) or text[end] != "\n") and (not start or text[start - 1] != "\n"):
            runs.append((start, end))
    runs.sort()
    return runs


def _uncollapse(position: int, runs: list[tuple[int, int]]) -> int:
    """A position of the collapsed text in the original text."""
    at = bisect.bisect_right(runs, (position, float("inf"))) - 1
    return position + (runs[at][1] if at >= 0 else 0)
