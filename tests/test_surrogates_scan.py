"""Word-led patterns: tried only where a word is, they find what the pattern finds on its own,
including where a character matches a word's letter without lowering to it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.surrogates import surrogate_data
from crfdeid.surrogates.people import _PATIENT_SEX, _SEX_FIELD, PeopleGenerator
from crfdeid.surrogates.scan import WordLed, lower

#: Words and the characters that trouble a lower-case search: the dotless ı and long ſ match "i"
#: and "s" without lowering to them, "İ" lowers to two characters, "Σ" by its context.
PIECES = ["el paciente", "La PACIENTE", "varón", "VARÓN", "mujer", "Hombre", "sexo: M", "SEXO. mujer",
          "ſexo: v", "pacıente", "la pacıente", "İ", "Σ", "ΣΑΣ", "mujer de 5", "varon  de 7", "niña de 3",
          "NIÑA DE 3", "embarazada de 9", " ", "\n", "de", "3", "x", "elpaciente", "K", "ó", "Ó"]


def found(matches) -> list:
    return [(m.span(), m.groups()) for m in matches]


def same(led: WordLed, text: str) -> None:
    assert found(led.finditer(text)) == found(led.pattern.finditer(text)), repr(text)
    search, plain = led.search(text), led.pattern.search(text)
    assert (search and (search.span(), search.groups())) == (plain and (plain.span(), plain.groups()))


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=14))
def test_word_led_patterns_find_what_their_pattern_finds(pieces):
    text = "".join(pieces)
    people = PeopleGenerator(surrogate_data("es"))
    for led in (_SEX_FIELD, _PATIENT_SEX, people.patient_intro):
        same(led, text)


def test_a_character_that_matches_without_lowering_sends_the_text_to_the_plain_scan():
    led = WordLed(re.compile(r"\bsexo\b", re.IGNORECASE), ["sexo"])
    for text in ("ſexo", "Sexo ſ", "SEXO İ", "Σ sexo", "sexo"):
        same(led, text)
    assert [m.span() for m in led.finditer("x ſexo y Sexo")] == [(2, 6), (9, 13)]
    dotless = WordLed(re.compile(r"\bdı\b", re.IGNORECASE), ["dı"])  # "i" matches "ı"
    for text in ("di", "DI", "dı", "a di b"):
        same(dotless, text)


def test_every_match_starts_at_a_word_of_the_lower_case():
    led = WordLed(re.compile(r"\b(el|la) paciente\b", re.IGNORECASE), ["el paciente", "la paciente"])
    text = "LA PACIENTE y la paciente, Bella paciente; el pacientes"
    assert [m.span() for m in led.finditer(text)] == [m.span() for m in led.pattern.finditer(text)]
    assert [m.span() for m in led.finditer(text)] == [(0, 11), (14, 25)]


def test_the_kept_lower_case_and_plain_answer_follow_the_text_read() -> None:
    """The last texts' lower case and a pattern's last answer are kept by identity: texts read
    in turn, equal or not, get their own (issue 14: a note's patterns share its lower case)."""
    texts = ["Sexo: M. La paciente", "ſexo: v", "SEXO: H",
             "".join(["Sexo: M.", " La paciente"]), "pacıente", "İ"]  # an equal text, another object
    for text in texts * 3:
        assert lower(text) == text.lower()
        same(_SEX_FIELD, text)
        same(_PATIENT_SEX, text)


def test_a_long_text_is_not_kept() -> None:
    """A long note's copies are let go after its reading (the long-note benchmark's peak)."""
    from crfdeid.surrogates import scan

    long_text = "Sexo: M. " * (scan.LOWER_KEPT // 9 + 1)
    assert lower(long_text) == long_text.lower()
    same(_SEX_FIELD, long_text)
    assert all(known is not long_text for known, _ in scan._LOWERED)
    assert _SEX_FIELD._last[0] is not long_text
