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

from .surrogates import fold

#: Whitespace other than a single space: collapsed before the scan, as ``\s+`` did.
_SPACE_RUNS = re.compile(r"\s{2,}|[^\S ]")
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
    header ran them together, the body writes "el Sr. García Escudero")."""
    out: list[str] = []
    for word in _NAME_WORDS.findall(text):
        parts = [p for p in glued_parts(word) if len(p) >= 3]
        out.extend(parts if len(parts) > 1 else [word])
    return out


def glued_parts(word: str) -> list[str]:
    """A word cut where a capital follows a small letter: "ÁngelGarcía" -> Ángel, García."""
    return [p for p in _GLUED.split(word) if p]


def find_whole_words(text: str, keys: Iterable[str]) -> list[tuple[int, int, str]]:
    """(start, end, key) of every whole-word occurrence of the (folded) ``keys`` in ``text``.

    Matching is on folded text (case and accents ignored), whole words, any whitespace between
    words; the leftmost, then longest, match wins and matches do not overlap. Offsets are in
    ``text``.
    """
    keys = [k for k in keys if k]
    if not keys:
        return []
    folded = _fold_in_place(text)
    collapsed, runs = _collapse_spaces(folded)
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


def _fold_in_place(text: str) -> str:
    """``text`` folded character by character (accents and case), same length, so offsets in
    the folded text are offsets in ``text``; each distinct character is folded once."""
    table = {}
    for char in set(text):
        if not char.isascii() or char.isupper():
            folded = fold(char)[:1] or char
            if folded != char:
                table[ord(char)] = folded
    return text.translate(table)


def _collapse_spaces(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every run of whitespace written as one space, and the runs that were
    changed as (position in the collapsed text after the run, characters removed so far)."""
    pieces: list[str] = []
    runs: list[tuple[int, int]] = []
    cursor = removed = 0
    for match in _SPACE_RUNS.finditer(text):
        pieces.append(text[cursor : match.start()])
        pieces.append(" ")
        removed += match.end() - match.start() - 1
        runs.append((match.end() - removed, removed))
        cursor = match.end()
    pieces.append(text[cursor:])
    return "".join(pieces), runs


def _uncollapse(position: int, runs: list[tuple[int, int]]) -> int:
    """A position of the collapsed text in the original text."""
    at = bisect.bisect_right(runs, (position, float("inf"))) - 1
    return position + (runs[at][1] if at >= 0 else 0)
