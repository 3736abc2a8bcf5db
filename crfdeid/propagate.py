"""Second mentions: every other occurrence in a note of a string that is being replaced.

A detector marks "Nombre: Jesús" in the header and misses "Jesús se encontraba bien" three
paragraphs later; an NHC typed twice, an e-mail in a signature. Each replaced string — and each
name word of a replaced name (the given name alone, the surname alone) — is looked for in the
rest of the note, and every whole-word occurrence outside the existing spans becomes a span of
the same label with source ``propagated``, so it is replaced exactly as the first one (one
person, one surrogate).

Guards against ordinary words: a name word is propagated only where it is written with a
capital, never when the pack lists it as a stop word ("Blanco", "Pastor", "Rosa" as a colour
would be lower case anyway) or a closed-class word, and never a name particle ("de", "del").
Labels whose strategy keeps or shifts them are not propagated (dates, ages, sex, kinship,
free-form descriptions).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

import regex

from .langpack import LanguagePack
from .occurrences import find_whole_words
from .surrogates import fold, normalise
from .surrogates.people import PERSON_LABELS
from .types import Document, Span

#: Labels never propagated: a second "2012" or "45 años" is not the same fact, "su madre" is
#: kept, and a free-form description is not a string that identifies on its own.
NOT_PROPAGATED = frozenset({
    "FECHAS", "EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA",
    "OTROS_SUJETO_ASISTENCIA",
})
#: Strings shorter than this (folded) are not looked for: "M", "3", "Gil" is three.
MIN_LENGTH = 3
#: Name words of three letters or more (combining marks included: NFD text).
_NAME_WORDS = regex.compile(r"[^\W\d_]{3,}")
SOURCE = "propagated"


def propagate(document: Document, replaced: Callable[[str], bool], pack: LanguagePack,
              particles: frozenset[str] | set[str] = frozenset()) -> tuple[Span, ...]:
    """The new spans: other whole-word occurrences of the document's replaced strings.

    ``replaced(label)`` says whether the policy replaces a label (a kept label is not
    propagated). Deterministic: depends on the document only.
    """
    text = document.text
    wanted: dict[str, tuple[str, bool]] = {}  # folded key -> (label, a name word?)
    for span in sorted(document.spans, key=lambda s: (s.start, s.end, s.label)):
        if span.label in NOT_PROPAGATED or not replaced(span.label):
            continue
        original = document.span_text(span)
        key = normalise(original)
        single = " " not in key
        if len(key) >= MIN_LENGTH and not (single and _ordinary(original, pack, particles)):
            # one capitalised word needs its capital ("Rosa", not "rosa"); several words
            # ("lucía ferrer") are the string whatever their case
            wanted.setdefault(key, (span.label, single and original[:1].isupper()))
        if span.label in PERSON_LABELS:
            for word in _NAME_WORDS.findall(original):
                if word[0].isupper() and not _ordinary(word, pack, particles):
                    wanted.setdefault(fold(word), (span.label, True))
    if not wanted:
        return ()
    taken = sorted((s.start, s.end) for s in document.spans)
    starts = [t[0] for t in taken]
    longest_end = max((e - s for s, e in taken), default=0)
    found = []
    for start, end, key in find_whole_words(text, wanted):
        label, capitalised = wanted[key]
        if capitalised and not text[start].isupper():
            continue  # "Rosa" the name, "rosa" the colour
        if _overlaps(taken, starts, longest_end, start, end):
            continue
        found.append(Span(start, end, label, SOURCE))
    return tuple(found)


def _ordinary(word: str, pack: LanguagePack, particles: frozenset[str] | set[str]) -> bool:
    """A word that is also ordinary text: a stop word, a closed-class word, a name particle."""
    folded = fold(word)
    return pack.is_stopword(word) or folded in pack.word_classes or folded in particles


def _overlaps(taken: list[tuple[int, int]], starts: list[int], longest: int, start: int, end: int) -> bool:
    """Does [start, end) overlap one of the sorted ``taken`` ranges?"""
    i = bisect.bisect_left(starts, start - longest)
    while i < len(taken) and taken[i][0] < end:
        if taken[i][1] > start:
            return True
        i += 1
    return False
