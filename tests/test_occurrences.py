"""Whole-word scans: the folded, collapsed text they read is the one the definitions give, over
every code point the premises of the fast fold rest on, and a text prepared once scans as a text
prepared per call."""

from __future__ import annotations

import re
import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.langpack import fold
from crfdeid.occurrences import (
    Scannable,
    _collapse_spaces,
    _fold_each,
    _fold_in_place,
    find_whole_words,
    name_words,
)

#: The characters the fold and the whitespace rules treat apart, and plain ones around them.
TRICKY = "aAzZ ñÑéÉçÇßẞİıſΣσςKǅΩµ\u0301\u0300\n\r\t\x0b\x0c\x1c\x85\u00a0\u2028\u3000 ." + "x" * 6
_SPACE_RUNS = re.compile(r"\s{2,}|[^\S ]")


def reference_collapse(text: str) -> tuple[str, list[tuple[int, int]]]:
    """What ``_collapse_spaces`` did before its fast path: one regex over the whole text."""
    pieces, runs, cursor, removed = [], [], 0, 0
    for match in _SPACE_RUNS.finditer(text):
        pieces += [text[cursor : match.start()], " "]
        removed += match.end() - match.start() - 1
        runs.append((match.end() - removed, removed))
        cursor = match.end()
    pieces.append(text[cursor:])
    return "".join(pieces), runs


def target(char: str) -> str:
    """The character ``_fold_in_place`` writes for ``char`` (its definition)."""
    if char.isascii() and not char.isupper():
        return char
    return fold(char)[:1] or char


def test_the_fold_of_a_lower_case_is_the_fold_and_a_fixed_point_for_every_code_point():
    """The two facts ``_fold_in_place`` rests on (str.lower, then one replacement per distinct
    character), checked for every code point whose lower case is one character."""
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        lowered = char.lower()
        if len(lowered) != 1 or char == "\u03a3":
            continue
        assert target(lowered) == target(char), hex(code)
        assert target(target(lowered)) == target(lowered), hex(code)


def test_fold_in_place_is_its_definition_on_the_whole_plane():
    plane = "".join(chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000)
    assert _fold_in_place(plane) == _fold_each(plane) == "".join(map(target, plane))
    assert len(_fold_in_place(plane)) == len(plane)


@settings(max_examples=400, deadline=None, database=None)
@given(st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=60))
def test_fold_in_place_and_collapse_are_their_definitions(text):
    assert _fold_in_place(text) == _fold_each(text)
    assert _collapse_spaces(text) == reference_collapse(text)


def test_collapse_finds_the_runs_of_spaces_and_line_feeds_the_regex_finds():
    for text in ("a\nb", "a \n b", "a  b\n\n  c ", "\n", "  ", " a", "a ", " \n", "a\n \n b  c\n", ""):
        assert _collapse_spaces(text) == reference_collapse(text), repr(text)


def test_a_text_prepared_once_scans_as_one_prepared_per_scan():
    text = "Paciente:  Ana LÓPEZ\nGil.  Ana López   Gil vive en Madrid; ANA."
    keys = ["ana", "ana lopez gil", "madrid", "gil"]
    prepared = Scannable(text)
    assert find_whole_words(text, keys, prepared) == find_whole_words(text, keys)
    assert find_whole_words(text, keys, prepared) == find_whole_words(text, keys, prepared)
    other = text.replace("Madrid", "Toledo")  # a Scannable of another text is not used
    assert find_whole_words(other, ["madrid"], prepared) == []


def test_name_words_are_remembered_but_never_shared():
    first = name_words("ÁngelGarcía Escudero")
    first.append("changed")
    assert name_words("ÁngelGarcía Escudero") == ["Ángel", "García", "Escudero"]


def test_a_character_that_folds_to_one_starts_with_no_mark():
    """Why ``Scannable.fold`` may take the in-place fold: no code point that folds to one
    character decomposes into a leading combining mark."""
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        if not char.isascii() and len(fold(char)) == 1:
            assert not unicodedata.combining(unicodedata.normalize("NFD", char)[0]), hex(code)


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=60))
def test_the_scannable_fold_is_the_fold(text):
    assert Scannable(text).fold() == fold(text)
