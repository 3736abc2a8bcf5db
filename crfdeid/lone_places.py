"""A town or country named after "en" or "a" in the narrative is a place.

MEDDOCAN's notes name places in their headers and addresses; in running text seldom ("residente
en Mérida", "ha llegado a Barcelona": 5 times in 750 notes), and the tagger learnt little of
it. Notes of other hospitals say it all the time: "Vive en Getafe con su marido", "problema de
vivienda en Alcorcón" — both left in clear by the tagger, each a leak.

The shape is telling: after the preposition "en", "a", "desde", "hasta" or "hacia" (never "de":
"síndrome de Tolosa-Hunt", "criterios de El Escorial", "Universidad de Granada" are names of
other things), a capitalised name that the pack's tables hold as a municipality of at least
``min_population`` people, a province, a region or a country, whole (not followed by a hyphen
or another capitalised word: "en Santiago Apóstol" is not Santiago), touching no detected span.
Over MEDDOCAN train+dev text (gold ignored) it marks the words listed in ``tests/test_lone_places.py``'s
docstring; the pack switches it on (``lone_places`` in its ``pack.yaml``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .langpack import LanguagePack, fold
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "lone-place"
#: The prepositions a place follows in the narrative.
_PREPOSITIONS = frozenset({"en", "a", "desde", "hasta", "hacia"})
#: A preposition, then a capitalised name of up to five words (particles between).
_CANDIDATE = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<prep>\p{Ll}+)[ \t]+"
    r"(?P<name>\p{Lu}[\p{L}’']*(?:[ \t]+(?:(?:de|del|la|las|los|el)[ \t]+)?\p{Lu}[\p{L}’']*){0,4})"
)
#: What may not follow the place: a hyphen and a letter ("Tolosa-Hunt"), a digit, "@".
_GLUED = regex.compile(r"[-‐@\p{N}]|\.\p{L}")
_WORD = regex.compile(r"\p{L}[\p{L}’']*")


@dataclass(frozen=True)
class LonePlaces:
    """The lone-place step of one pack, as plain data (picklable): folded place names with
    the category each is ("town", "country"), the pack's stop words, and the label of each
    category in the scheme."""

    places: tuple[tuple[str, str], ...]
    stop: frozenset[str]
    labels: tuple[tuple[str, str], ...]

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, labels: Mapping[str, str | None]) -> LonePlaces | None:
        """The step for ``pack``, or None: the pack does not ask for it (``lone_places``) or
        the scheme has no town label."""
        if pack is None or not pack.lone_places or not labels.get("town"):
            return None
        least = pack.lone_places["min_population"]
        places: dict[str, str] = {}
        for row in pack.table("municipality").rows:
            if _count(row.get("population")) >= least:
                places[fold(row["name"])] = "town"
        for name in ("province", "community", "territory"):
            if name in pack.tables:
                places.update(dict.fromkeys((fold(e) for e in pack.table(name).entries), "town"))
        if "country" in pack.tables and labels.get("country"):
            places.update(dict.fromkeys((fold(e) for e in pack.table("country").entries), "country"))
        stop = frozenset(fold(w) for w in pack.stopwords) | frozenset(
            fold(w) for w in pack.word_classes)
        kept = {k: v for k, v in places.items() if k not in stop}
        return cls(tuple(sorted(kept.items())), stop,
                   tuple(sorted((c, lab) for c, lab in labels.items() if lab)))

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The places ``text`` names after a preposition that no span of ``spans`` touches."""
        places, labels = dict(self.places), dict(self.labels)
        taken = sorted((s.start, s.end) for s in spans)
        found: list[Span] = []
        for m in _CANDIDATE.finditer(text):
            if m["prep"] not in _PREPOSITIONS:
                continue
            words = list(_WORD.finditer(m["name"]))
            # the longest run of the name's first words that is a place, and that the name ends
            for k in range(len(words), 0, -1):
                end = m.start("name") + words[k - 1].end()
                key = fold(text[m.start("name") : end])
                if key not in places:
                    continue
                if k < len(words) or _GLUED.match(text, end):
                    break  # a longer name goes on ("en Santiago Apóstol"), or the word does
                if not _touches(taken, m.start("name"), end):
                    found.append(Span(m.start("name"), end, labels[places[key]], source=SOURCE))
                break
        return found


def with_lone_places(text: str, spans: Iterable[Span], step: LonePlaces | None) -> list[Span]:
    """``spans`` and the places ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    return sorted([*spans, *step.spans(text, spans)], key=lambda s: (s.start, s.end, s.label))


def _count(value: str | None) -> float:
    try:
        return float(value or 0)
    except ValueError:
        return 0.0


def _touches(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in taken)
