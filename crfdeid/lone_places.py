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
Over MEDDOCAN train+dev, beside the embedded model's spans, it adds one ("su vuelta a España").

The same step takes an address named after its street type (the pack's ``street_types``, less
the ones that are ordinary words: "vía", "camino", "parque"…): the type, a capitalised name of
up to four words, and the number, floor and door if written ("C/ Real, 45 - 1º" heading a
letter, "en la calle Corrida" in a forensic report) — where the scheme has a street label and
no detected span touches it. The pack switches the step on (``lone_places`` in its
``pack.yaml``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import regex

from .langpack import LanguagePack, fold
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "lone-place"
STREET_SOURCE = "lone-street"
#: The prepositions a place follows in the narrative.
_PREPOSITIONS = frozenset({"en", "a", "desde", "hasta", "hacia"})
#: A preposition, then a capitalised name of up to five words (particles between).
_CANDIDATE = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?P<prep>{'|'.join(sorted(_PREPOSITIONS, key=len, reverse=True))})[ \t]+"
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
    #: the pack's street-type words that can head an address ("C/", "Avda.", "calle")
    street_types: tuple[str, ...] = ()

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
        types = tuple(sorted(
            {form for forms in pack.street_types.values() for form in forms
             if fold(form) not in _AMBIGUOUS_TYPES and (len(form) > 2 or "/" in form or "º" in form)},
            key=lambda f: (-len(f), f),
        )) if labels.get("street") else ()
        return cls(tuple(sorted(kept.items())), stop,
                   tuple(sorted((c, lab) for c, lab in labels.items() if lab)), types)

    @cached_property
    def _place_of(self) -> dict[str, str]:
        """``places`` as a mapping, built once (ten thousand names: not per note)."""
        return dict(self.places)

    def streets(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """An address named after its street type that no detected span touches: "C/ Real,
        45 - 1º" heading a letter, "en la calle Corrida" in a forensic report."""
        return _streets(self, text, taken)

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The places ``text`` names after a preposition, and the streets it names after a
        street type, that no span of ``spans`` touches."""
        places, labels = self._place_of, dict(self.labels)
        taken = sorted((s.start, s.end) for s in spans)
        found: list[Span] = self.streets(text, taken)
        taken = sorted([*taken, *((s.start, s.end) for s in found)])
        for m in _CANDIDATE.finditer(text):
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


def _street_pattern(types: tuple[str, ...]) -> regex.Pattern[str]:
    forms = "|".join(regex.escape(t).replace("\\ ", "[ \\t]*") for t in types)
    return regex.compile(
        rf"(?<![\p{{L}}\p{{N}}])(?i:{forms})(?<=[./º]|\p{{L}})[ \t]{{0,2}}"
        r"(?:(?:de|del|de[ \t]+la|de[ \t]+los|de[ \t]+las)[ \t]+)?"
        r"(?:\p{Lu}\p{Ll}[\p{L}’'-]*|\p{Lu}{2,})"
        r"(?:[ \t]+(?:(?:de|del|la|las|los|el|y)[ \t]+)?(?:\p{Lu}\p{Ll}[\p{L}’'-]*|\p{Lu}{2,})){0,3}"
        r"(?:[ \t]*,?[ \t]*(?:n[º°o]\.?[ \t]*)?\d{1,4}[A-Za-z]?(?![\p{L}\p{N}/.,]\d)"
        r"(?:[ \t]*[-,][ \t]*(?:\d{1,2}[ \t]*[ºª°]?(?:[ \t]*[A-Za-z](?![\p{L}]))?|bajo|izda\.?|dcha\.?))*)?"
    )


def with_lone_places(text: str, spans: Iterable[Span], step: LonePlaces | None) -> list[Span]:
    """``spans`` and the places ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    return sorted([*spans, *step.spans(text, spans)], key=lambda s: (s.start, s.end, s.label))


#: Street-type words that are ordinary words or other things's abbreviations in notes ("vía
#: oral", "lugar", "parque", "col." for colegiado, "pol." for polígono and polimedicado).
_AMBIGUOUS_TYPES = frozenset({"via", "lugar", "parque", "partida", "camino", "cuesta", "barrio", "colonia",
                              "col.", "pol.", "p.i.", "cl", "cl.", "c.", "pl.", "pasaje", "lg.", "cta.",
                              "urbanizacion", "urb", "urb.", "alameda", "rambla", "glorieta", "callejon",
                              "poligono", "poligono industrial", "bulevar", "bo.", "ronda", "vía"})


def _count(value: str | None) -> float:
    try:
        return float(value or 0)
    except ValueError:
        return 0.0


def _streets(step: LonePlaces, text: str, taken: list[tuple[int, int]]) -> list[Span]:
    label = dict(step.labels).get("street")
    if not label or not step.street_types:
        return []
    pattern = _STREETS.get(step.street_types)
    if pattern is None:
        pattern = _STREETS[step.street_types] = _street_pattern(step.street_types)
    return [Span(m.start(), m.end(), label, source=STREET_SOURCE)
            for m in pattern.finditer(text) if not _touches(taken, m.start(), m.end())]


#: Compiled street patterns by street types (one pack per process, in practice).
_STREETS: dict[tuple[str, ...], regex.Pattern[str]] = {}


def _touches(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in taken)
