"""A member of staff named by initials that a legend of the note spells out.

A session log or a dialysis sheet signs each row with the initials of whoever ran it ("M.R.",
"J.B.") and ends with a legend: "M.R. = Mireia Rius Camps, enfermera; J.B. = Jordi Barberà Solé".
The tagger found the names of the legend and left every "M.R." in clear (the fifteenth and
sixteenth sets written blind). Here dotted initials that a legend ties to a person found in the
note — the initials, then "=", ":" or a dash, then the name; or the name, then the initials in
brackets — and whose letters are the initials of that name's first words (every capitalised word
but particles: "M.R." of "Mireia Rius Camps", "M.J.S." of "María José Sanchis") are that person,
under the person's label, wherever they stand in the note as a whole word.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import regex

from .merge import Ranges
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "initials"

#: Dotted initials as a whole word: two to four capitals, each with its full stop.
_INITIALS = regex.compile(r"(?<![\p{L}\p{N}.])(?:\p{Lu}\.){2,4}(?![\p{L}\p{N}])")
#: Between the initials and the name in a legend: "=", ":", a dash, maybe a title.
_LINK = regex.compile(r"[ \t]*(?:=|:|-|–|—)[ \t]*(?:(?:Dr|Dra|D|Dña|Sr|Sra)\.[ \t]*)?")
_PARTICLES = frozenset({"de", "del", "la", "las", "los", "y", "i", "da", "do", "dos", "das", "van", "von"})


@dataclass(frozen=True)
class Initials:
    """The completion step: which labels are people's, and the acronyms no initials are."""

    #: the scheme's labels of people (plain data: the step travels to CV's worker processes)
    people: frozenset[str]
    #: the pack's medical acronyms ("EF", exploración física): initials that spell one are left
    #: alone outside the legend
    clinical: frozenset[str] = frozenset()

    def spans(self, text: str, spans: list[Span]) -> list[Span]:
        """The dotted initials a legend ties to a person of ``spans``, every occurrence."""
        people = {s.start: s for s in spans if s.fragments is None and s.label in self.people}
        ends = {s.end: s for s in people.values()}
        if not people:
            return []
        tied: dict[str, str] = {}
        legend: set[int] = set()  # where a legend ties initials to a name
        occurrences = list(_INITIALS.finditer(text))
        for m in occurrences:
            person = None
            link = _LINK.match(text, m.end())
            if link is not None and link.end() > m.end():
                person = people.get(link.end())
            bracketed = text[max(0, m.start() - 2) : m.start()] == " (" and text[m.end() : m.end() + 1] == ")"
            if person is None and bracketed:
                person = ends.get(m.start() - 2)
            if person is None:
                continue
            letters = m.group().replace(".", "")
            words = [w for w in regex.findall(r"\p{L}[\p{L}'’-]*", text[person.start : person.end])
                     if w.lower() not in _PARTICLES and w[:1].isupper()]
            if len(words) >= len(letters) and "".join(w[0] for w in words[: len(letters)]).upper() == letters:
                tied.setdefault(m.group(), person.label)
                legend.add(m.start())
        if not tied:
            return []
        # an occurrence a span runs into or out of stays as found; the tagger's pieces inside one
        # ("M" as a sex, "J" as a name, of a legend's "M.J.S.") give way to it
        detected = Ranges((s.start, s.end) for s in spans)

        def crossed(m: regex.Match[str]) -> bool:  # by bisection: a long log stays linear
            a, b = m.span()
            return any(not (a <= start and end <= b) for start, end in detected.near(a, b))

        def clinical(m: regex.Match[str]) -> bool:  # "E.F.: normal" (exploración física), not Elena Fuster
            return m.start() not in legend and (
                m.group().replace(".", "") in self.clinical or text[m.end() : m.end() + 1] == ":")

        return [Span(m.start(), m.end(), tied[m.group()], source=SOURCE) for m in occurrences
                if m.group() in tied and not crossed(m) and not clinical(m)]


def with_initials(text: str, spans: Iterable[Span], step: Initials | None) -> list[Span]:
    """``spans`` with the initials ``step`` ties to their people, the spans inside them gone."""
    spans = list(spans)
    if step is None or "." not in text:
        return spans
    found = step.spans(text, spans)
    if not found:
        return spans
    inside = Ranges((f.start, f.end) for f in found)
    kept = [s for s in spans if not any(a <= s.start and s.end <= b for a, b in inside.near(s.start, s.end))]
    return sorted([*kept, *found], key=lambda s: (s.start, s.end, s.label))
