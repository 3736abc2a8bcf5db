"""Second mentions: every other occurrence in a note of a string that is being replaced.

A detector marks "Nombre: Jesús" in the header and misses "Jesús se encontraba bien" three
paragraphs later; an NHC typed twice, an e-mail in a signature. Each replaced string — and each
name word of a replaced name (the given name alone, the surname alone) — is looked for in the
rest of the note, and every whole-word occurrence outside the existing spans becomes a span of
the same label with source ``propagated``, so it is replaced exactly as the first one (one
person, one surrogate).

Guards against ordinary words: a name word is propagated only where it is written with a
capital, never a closed-class word or a name particle ("de", "del"); a name word that is also an
ordinary word (the pack's stop list: "Mora", "Blanco", "Pastor") only after an honorific ("Sra.
Mora") or inside a sentence, not where a sentence or line starts ("Mora en el diagnóstico…"
stays, and the leftover scan holds the note for a reader if it was the name). An acronym the
pack lists as spelled like a name (``name_acronyms``: "ANA" the antinuclear antibodies, "EVA"
the pain scale) written in capitals is not a mention of a name written otherwise. Labels whose
strategy keeps or shifts them are not propagated (dates, ages, sex, kinship).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass

import regex

from .langpack import LanguagePack
from .occurrences import find_whole_words, name_words
from .surrogates import fold, normalise
from .surrogates.people import PERSON_LABELS
from .types import Document, Span

#: Labels never propagated: a second "2012" or "45 años" is not the same fact, and "su madre"
#: is kept. A description (OTROS_SUJETO_ASISTENCIA) is: generalised once, generalised everywhere,
#: or the leftover scan would hold the note for its second mention.
NOT_PROPAGATED = frozenset({
    "FECHAS", "EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA",
})
#: Strings shorter than this (folded) are not looked for: "M", "3", "Gil" is three.
MIN_LENGTH = 3
SOURCE = "propagated"
#: What ends a sentence or a line: the capital after it says nothing.
_SENTENCE_ENDS = frozenset(".!?¡¿\n\r\u2028\u2029")
#: The words just before an occurrence, honorifics with or without their full stop.
_WORDS_BEFORE = regex.compile(r"[^\W\d_]+\.?")


@dataclass(frozen=True)
class _Wanted:
    label: str
    capitalised: bool  # a single capitalised word: only capitalised occurrences ("Rosa", not "rosa")
    ordinary: bool  # also an ordinary word: after an honorific or inside a sentence only
    upper: bool  # written all in capitals in the span


def propagate(document: Document, replaced: Callable[[str], bool], pack: LanguagePack,
              particles: frozenset[str] | set[str] = frozenset(),
              acronyms: frozenset[str] | set[str] = frozenset(),
              kind: Callable[[str], str | None] | None = None) -> tuple[Span, ...]:
    """The new spans: other whole-word occurrences of the document's replaced strings.

    ``replaced(label)`` says whether the policy replaces a label (a kept label is not
    propagated); ``acronyms`` are the folded ``name_acronyms`` of the pack; ``kind(label)`` is
    the MEDDOCAN label a label of another scheme counts as (``surrogates.generator_label``: a
    generic DATE is not propagated, a NAME_PATIENT's words are). Deterministic: depends on the
    document only.
    """
    text = document.text
    wanted: dict[str, _Wanted] = {}  # folded key -> what an occurrence must look like
    for span in sorted(document.spans, key=lambda s: (s.start, s.end, s.label)):
        as_label = (kind(span.label) if kind is not None else None) or span.label
        if as_label in NOT_PROPAGATED or not replaced(span.label):
            continue
        original = document.span_text(span)
        key = normalise(original)
        single = " " not in key
        if len(key) >= MIN_LENGTH and not (single and _closed(original, pack, particles)):
            # one capitalised word needs its capital ("Rosa", not "rosa"); several words
            # ("lucía ferrer") are the string whatever their case
            capitalised = single and original[:1].isupper()
            wanted.setdefault(key, _Wanted(span.label, capitalised,
                                           capitalised and pack.is_stopword(original), _upper(original)))
        if as_label in PERSON_LABELS:
            for word in name_words(original):
                if word[0].isupper() and not _closed(word, pack, particles):
                    wanted.setdefault(fold(word), _Wanted(span.label, True, pack.is_stopword(word),
                                                          _upper(word)))
    if not wanted:
        return ()
    taken = sorted((s.start, s.end) for s in document.spans)
    starts = [t[0] for t in taken]
    longest_end = max((e - s for s, e in taken), default=0)
    found = []
    for start, end, key in find_whole_words(text, wanted):
        want = wanted[key]
        if want.capitalised and not text[start].isupper():
            continue  # "Rosa" the name, "rosa" the colour
        if key in acronyms and not want.upper and _upper(text[start:end]):
            continue  # "ANA positivos": the antibodies, not Ana
        if want.ordinary and not _inside_sentence(text, start, pack):
            continue  # "Mora en el diagnóstico…": the word, as far as a scan can tell
        if _overlaps(taken, starts, longest_end, start, end):
            continue
        found.append(Span(start, end, want.label, SOURCE))
    return tuple(found)


def _closed(word: str, pack: LanguagePack, particles: frozenset[str] | set[str]) -> bool:
    """A closed-class word or a name particle: never a name on its own."""
    folded = fold(word)
    return folded in pack.word_classes or folded in particles


def _upper(text: str) -> bool:
    """Written all in capitals (two letters or more)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _inside_sentence(text: str, start: int, pack: LanguagePack) -> bool:
    """An occurrence after an honorific ("Sra. Mora"), or neither at the start of the text, of
    a line nor of a sentence: where a capital says "a name" rather than "a sentence begins"."""
    before = text[max(0, start - 24):start]
    words = _WORDS_BEFORE.findall(before)
    if words and pack.honorific(words[-1]) is not None:
        return True
    stripped = before.rstrip(" \t")
    if len(before) == len(stripped) and start > 0 and not text[start - 1].isspace():
        return True  # glued to what precedes it: not a sentence start
    return bool(stripped) and stripped[-1] not in _SENTENCE_ENDS


def _overlaps(taken: list[tuple[int, int]], starts: list[int], longest: int, start: int, end: int) -> bool:
    """Does [start, end) overlap one of the sorted ``taken`` ranges?"""
    i = bisect.bisect_left(starts, start - longest)
    while i < len(taken) and taken[i][0] < end:
        if taken[i][1] > start:
            return True
        i += 1
    return False
