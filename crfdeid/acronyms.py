"""An organisation's acronym, defined in parentheses after its name, is the organisation too.

Clinical notes name a hospital once in full and then by its acronym: "Complejo Hospitalario
Universitario de Vigo (CHUVI)", "Instituto Colombiano del Dolor (INCODOL)", and later "ingresó
en el CHUVI". The tagger finds the full name (lists, "Hospital"/"Instituto" words) but an
acronym it has never seen is a string of capitals like "HTA": on MEDDOCAN dev it missed CHUVI
and INCODOL. The definition itself is the evidence: capitals in parentheses right after a
detected hospital, health centre or organisation take its label, and so does every other
whole-word occurrence of the same capitals in the note.

A name's initials are its acronym too, defined or not ("Hospital General de Fuerteventura" and
later "la UCI del HGF", the ninth set written blind): the first letters of its three to six
capitalised words, in order, none skipped, written as a whole word elsewhere in the note.

Guards: the parenthesis must follow the name directly (spaces only) and hold one token of
2–12 capitals and digits, at least two capitals (hyphen, dot, slash or ampersand allowed
inside: "CBMF-HGO"); capitals the pack lists as clinical acronyms ("UCI", "HTA") are not
taken; a later occurrence counts only written in the same capitals as a whole word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import cache

import regex

from .types import Span

#: The PHI categories whose names are defined with an acronym (``crfdeid.schemes``).
CATEGORIES = frozenset({"hospital", "health_centre", "organisation"})
#: Where a detected span carries it (``Span.source``).
SOURCE = "acronym"
_DEFINED = regex.compile(
    r"[ \t]{0,2}\((?P<acronym>(?=(?:[^\p{Lu}]*\p{Lu}){2})\p{Lu}[\p{Lu}\p{N}]*(?:[-./&][\p{Lu}\p{N}]+)*)\)"
)
_MAX_LENGTH = 12


def acronym_spans(
    text: str,
    spans: Sequence[Span],
    category: Callable[[str], str | None],
    clinical: Callable[[str], bool] = lambda acronym: False,
) -> list[Span]:
    """The spans ``spans`` lacks: acronyms defined right after an organisation's span and
    their other whole-word occurrences in ``text``, each with the organisation's label.
    ``category`` maps a label to its PHI category; ``clinical`` says an acronym is an ordinary
    clinical one (the pack's list), never taken."""
    return _mentions(text, spans, _definitions(text, spans, category, clinical))


def _mentions(text: str, spans: Sequence[Span], definitions: dict[str, tuple[str, str]]) -> list[Span]:
    """Each defined acronym's whole-word occurrences no span of ``spans`` overlaps, with the
    label of the name that defines it."""
    defined = {acronym: label for acronym, (label, _) in definitions.items()}
    if not defined:
        return []
    taken = sorted((s.start, s.end) for s in spans)
    found: list[Span] = []
    for acronym, label in defined.items():
        pattern = regex.compile(r"(?<![\p{L}\p{N}])" + regex.escape(acronym) + r"(?![\p{L}\p{N}])")
        for m in pattern.finditer(text):
            start, end = m.span()
            if not _overlaps(taken, start, end):
                found.append(Span(start, end, label, source=SOURCE))
    return found


def with_acronyms(
    text: str,
    spans: Iterable[Span],
    category: Callable[[str], str | None],
    clinical: Callable[[str], bool] = lambda acronym: False,
) -> list[Span]:
    """``spans`` and the acronym spans they imply, sorted by offset. A detected span of the
    acronym under another organisation's label takes the defining name's ("Complejo
    Hospitalario Universitario de Albacete (CHUA)" with "CHUA" as an institution, later a
    hospital: its two surrogates differed, "CSIC" and "CHUT")."""
    spans = list(spans)
    definitions = _definitions(text, spans, category, clinical)
    # not a unit's acronym after its hospital ("… Maxilofacial del Hospital X (CBMF-HGO)")
    spelled = {acronym: label for acronym, (label, name) in definitions.items() if spells(acronym, name)}
    if spelled:  # only the acronyms' own spans change label: the definitions stay the same
        spans = [replace(s, label=spelled[value]) if s.fragments is None and category(s.label) in CATEGORIES
                 and (value := text[s.start : s.end]) in spelled and s.label != spelled[value] else s
                 for s in spans]
    return sorted([*spans, *_mentions(text, spans, definitions)], key=lambda s: (s.start, s.end, s.label))


def _definitions(
    text: str,
    spans: Sequence[Span],
    category: Callable[[str], str | None],
    clinical: Callable[[str], bool],
) -> dict[str, tuple[str, str]]:
    """The acronyms defined in parentheses right after an organisation's span, each with that
    span's label and text (the first definition's)."""
    defined: dict[str, tuple[str, str]] = {}
    for span in spans:
        if span.fragments is not None or category(span.label) not in CATEGORIES:
            continue
        m = _DEFINED.match(text, span.end)
        if m is None or len(m["acronym"]) > _MAX_LENGTH or clinical(m["acronym"]):
            continue
        defined.setdefault(m["acronym"], (span.label, text[span.start : span.end]))
    for span in spans:  # never defined, but its initials: "Hospital Universitario Lucus Augusti" … "el HULA"
        if span.fragments is not None or category(span.label) not in CATEGORIES:
            continue
        name = text[span.start : span.end]
        words = _CAPITALISED.findall(name)
        initials = "".join(w[0] for w in words)
        if (3 <= len(words) <= 6 and initials not in defined and initials in text and not clinical(initials)
                and regex.search(r"(?<![\p{L}\p{N}/-])" + initials + r"(?![\p{L}\p{N}/-])", text)):
            defined[initials] = (span.label, name)
    return defined


#: A capitalised word of a name (its first letter is an initial of the name).
_CAPITALISED = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}\p{Ll}[\p{L}'’-]*")


def spells(acronym: str, name: str) -> bool:
    """Are the acronym's letters the beginnings of the name's capitalised words, in order (words
    may be skipped; each gives one letter or more): "CHUA" of "Complejo Hospitalario
    Universitario de Albacete", "INCODOL" of "Instituto Colombiano del Dolor"."""
    letters = "".join(c for c in acronym if c.isalpha()).upper()
    words = [w.upper() for w in regex.findall(r"\p{Lu}\p{L}*", name)]

    @cache
    def match(i: int, j: int) -> bool:
        if i == len(letters):
            return True
        for k in range(j, len(words)):
            word = words[k]
            for n in range(min(len(word), len(letters) - i), 0, -1):
                if word[:n] == letters[i : i + n] and match(i + n, k + 1):
                    return True
        return False

    return bool(letters) and match(0, 0)


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in taken)
