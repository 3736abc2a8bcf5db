"""Words of gold PHI still in a de-identified text: the leak a reader of the output would see.

Span metrics count a name found as "Francisco Javier Ruiz" where the gold says "Francisco
Javier Ruiz-Gallardo Peñalver" as one miss among many; the de-identified note still carries
"Gallardo Peñalver". And a check that a gold span's whole text is absent from the output
misses it too. This module compares words: a word of a gold span is left when the output has
it (as a whole word, same case) more often than the original note has it outside every gold
span. Words a surrogate keeps by design are not counted — the kind of a place or
organisation ("Hospital", "Residencia", "C/"), titles, kinship words, function words —
nor are words of fewer than three characters, and the labels a policy keeps on purpose
(an age, the patient's sex) are left out by the caller.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import regex

from .langpack import LanguagePack, fold
from .types import Document

_WORD = regex.compile(r"[\p{L}\p{M}\d]+")


@dataclass(frozen=True)
class LeakedWord:
    """A word of a gold span the output still holds."""

    document: str
    label: str
    span_text: str
    word: str


def kept_by_design(pack: LanguagePack | None) -> frozenset[str]:
    """Folded words a surrogate keeps on purpose: kinds of streets, the words no facility or
    organisation is told apart by (``SurrogateData.facility_generic_words``), titles, kinship
    words."""
    if pack is None:
        return frozenset()
    from .surrogates.data import surrogate_data

    words: set[str] = set(surrogate_data(pack.language).facility_generic_words)
    for forms in pack.street_types.values():
        for form in forms:
            words.update(fold(w) for w in _WORD.findall(form))
    words.update(fold(w) for form in pack.honorifics for w in _WORD.findall(form))
    words.update(fold(w) for term in pack.kinship for w in _WORD.findall(term))
    return frozenset(words)


def leaked_words(gold: Document, output: str, *, skip_labels: Collection[str] = (),
                 kept: Collection[str] = (), names: Collection[str] = (),
                 dates: Collection[str] = ()) -> list[LeakedWord]:
    """The words of ``gold``'s spans (labels in ``skip_labels`` aside) that ``output`` holds
    more often than the original text holds them outside every gold span.

    Counted: a word with a capital or a digit (numbers of four digits or more, and none of a
    span labelled in ``dates``: a date shifted by weeks may keep its year), or a lower-case
    word in ``names`` (folded given names and surnames: "su hija marta"); of an e-mail
    address, its local part. Not counted: words in ``kept`` (folded; ``kept_by_design``) and
    words of fewer than three characters. A lower-case phrase (a profession, "familia de
    nueve miembros") is the whole-span check's to find."""
    text = gold.text
    covered = sorted((s, e) for span in gold.spans for s, e in (span.fragments or ((span.start, span.end),)))
    outside = Counter(m.group() for m in _WORD.finditer(text) if not _inside(covered, m.start(), m.end()))
    produced = Counter(_WORD.findall(output))
    found: list[LeakedWord] = []
    seen: set[tuple[str, str]] = set()
    for span in gold.spans:
        if span.label in skip_labels:
            continue
        pieces = span.fragments or ((span.start, span.end),)
        value = " ".join(text[s:e] for s, e in pieces)
        local = value.split("@", 1)[0]  # the provider and domain of an address are no one's
        for word in _WORD.findall(local):
            if len(word) < 3 or fold(word) in kept or (span.label, word) in seen:
                continue
            if word.isdigit():
                if len(word) < 4 or span.label in dates:
                    continue
            elif word == word.lower() and fold(word) not in names:
                continue
            if produced[word] > outside[word]:
                seen.add((span.label, word))
                found.append(LeakedWord(gold.id, span.label, value, word))
    return found


def _inside(covered: Iterable[tuple[int, int]], start: int, end: int) -> bool:
    return any(s <= start and end <= e for s, e in covered)
