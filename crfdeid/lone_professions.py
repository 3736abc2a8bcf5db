"""An occupation of the pack's profession table, where the note says it is what someone does.

MEDDOCAN annotates the patient's and relatives' occupations (PROFESION) 28 times in 750 notes,
too few for the tagger to learn them: it found a quarter of dev's. The rules take the fields
and phrases that name one ("Profesión: albañil", "trabaja como camarero"); the notes say it
more often in passing — "Varón de 20 años, pescador, sin antecedentes", "Ana (32 años,
profesora)", "ganadero jubilado", "Es profesora en el IES…", "su hijo Juan, guardia civil en
Linares" — and each was a leak, as were all five occupations of the notes written blind.

The shape is telling where the word alone is not ("militar" is also an adjective, "auxiliar" a
nurse or a verb): a form of the pack's profession table (longest first, any case) in one of the
contexts the pack's manifest names (``lone_professions``):

- ``after_age``: a comma item of the sentence that gives an age ("20 años, pescador", "(52
  años, reside en Barcelona, conductor de autobús)");
- ``before``: after a word that says what one is ("es", "era", "fue", "como");
- ``after``: before a word that says one no longer is, or how ("jubilado", "en paro");
- ``roles``: before a word of ``before``, what makes the rest a role ("actúa como intérprete");
- after a detected person's name and a comma ("Juan, guardia civil");
- ``joins``: after a detected occupation, joined by a comma or a conjunction ("azafata,
  dependienta, monitora de deporte");

and ending where the phrase ends: punctuation, a preposition or one of the ``stops``
("profesora en el IES" is "profesora"). A complement that says of what ("ex profesora de
instituto", "trabajador en canteras durante…") is part of it, as MEDDOCAN marks it, if its words
are in lower case (a name is something else: "profesora del IES Francisco García Pavón" is
"profesora"); a word of ``prefixes`` before the occupation is part of it and says it is one
("ex profesora"). The span touches no detected span.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import regex

from .langpack import LanguagePack, fold
from .lone_places import overlaps
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "lone-profession"
#: Up to six words from a position (an occupation's words: "peón de la construcción").
_WORDS = regex.compile(r"\p{L}[\p{L}’']*(?:[ \t]+\p{L}[\p{L}’']*){0,5}")
_WORD = regex.compile(r"\p{L}[\p{L}’']*")
#: An age: "20 años", "52 años de edad" (the manifest's word for years replaces "años").
_NUMBER = r"(?<![\p{L}\p{N}])\d{1,3}[ \t]*"
#: Where a sentence ends (the age's items go no further).
_SENTENCE_END = regex.compile(r"\.(?:[ \t\n]|$)|\n[ \t]*\n")
#: A colon after a word: the word names a field ("Médico: Carmen Sacristán").
_FIELD_NAME = regex.compile(r"[ \t]*:")
#: Where a comma item starts after an age: a comma, semicolon, parenthesis or middle dot and
#: spaces ("58 a · varón · ganadero").
_ITEM = regex.compile(r"[,;()·][ \t]*(?:\n[ \t>]*)?")
#: The last item of the sentence that gives an age, after "y"/"e" ("Mujer de 27 años, natural de
#: Feira de Santana, residente en Miranda de Ebro desde 2021 y camarera de pisos en el Hotel…").
_LAST_ITEM = regex.compile(r"(?<=\S)[ \t]+(?:y|e)[ \t]+")
#: Spaces and a comma or an opening parenthesis after a person's name ("Maite Etxeberria Lasa
#: (fisioterapeuta)").
_APPOSITION = regex.compile(r"[ \t]*[,(][ \t]*(?:\n[ \t]*)?")
#: The same after a bracket the comma follows ("Su marido, Mohamed Azzouz (tel. +212 661 23 45
#: 67), camionero, la acompañó": the seventh set written blind), tried when the first finds none.
_APPOSITION_AFTER_BRACKET = regex.compile(r"[ \t]*\([^()\n]{0,60}\)[ \t]*,[ \t]*(?:\n[ \t]*)?")
#: Where an occupation may end: punctuation, the line's or the text's end.
_PUNCTUATION = regex.compile(r"[ \t]*(?:[,.;:()\n]|$)")
#: How far after an age its items are looked at.
_AGE_REACH = 160
#: A comma or a semicolon after an occupation: it is an item, not the subject of a sentence.
_ITEM_END = regex.compile(r"[ \t]*[,;]")
#: A field's value at a line's start ("Enfermedad actual: agricultora, …").
_FIELD_VALUE = regex.compile(r"(?m)^[ \t]*\p{Lu}\p{Ll}+(?:[ \t]+\p{Ll}+){0,3}[ \t]*:[ \t]*")
#: The longest occupation looked for, in words.
_MOST_WORDS = 6
#: One or two lower-case adjectives after an occupation, by their endings ("cuidadora interna",
#: "trabajador siderúrgico", "farmacéutica titular", "jornalero agrícola": the tenth set written
#: blind left them in clear, the occupation not ending where its adjective follows).
_QUALIFIER = regex.compile(
    r"(?:[ \t]+\p{Ll}+(?:al|ar|ic[oa]|iv[oa]|ori[oa]|ist[ae]|[ae]n[oa]|in[oa]|ern[oa]|ent[e]|ant[e]"
    r"|col[a]|ari[oa]|il|estre)s?(?![\p{L}\p{N}])){1,2}")


@dataclass(frozen=True)
class LoneProfessions:
    """The lone-profession step of one pack, as plain data (picklable)."""

    label: str
    #: folded forms of the pack's profession table (masculine and feminine)
    forms: frozenset[str]
    #: the labels of people, after whose names an apposition may be an occupation
    person_labels: frozenset[str] = frozenset()
    after_age: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    joins: tuple[str, ...] = ()
    stops: tuple[str, ...] = ()
    prepositions: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()
    #: words before a word of ``before`` that make what follows a role, not an occupation
    #: ("actúa como intérprete": a relative interpreting at the visit)
    roles: tuple[str, ...] = ()
    #: the pack's language: its lexicon tells a subject ("de Matemáticas") from a name
    language: str = ""

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, label: str | None,
                 person_labels: Iterable[str | None] = ()) -> LoneProfessions | None:
        """The step for ``pack``, or None: the pack does not ask for it or the scheme has no
        profession label."""
        if pack is None or not pack.lone_professions or not label or "profession" not in pack.tables:
            return None
        spec = pack.lone_professions
        forms = frozenset(fold(e) for e in pack.table("profession").entries if e.strip())
        # a word of the language's stop list, or one the pack excludes, is never taken alone:
        # notes use it as an ordinary word ("dependiente para las ABVD", "exploración física")
        never = frozenset(fold(w) for w in (*pack.stopwords, *spec.get("exclude", ())))
        forms = frozenset(f for f in forms if f not in never)
        return cls(label, forms, frozenset(lab for lab in person_labels if lab),
                   *(tuple(spec.get(key, ())) for key in
                     ("after_age", "before", "after", "joins", "stops", "prepositions", "prefixes",
                      "roles")), pack.language)

    @cached_property
    def _patterns(self) -> dict[str, regex.Pattern[str]]:
        def words(items: Sequence[str]) -> str:
            return "|".join(regex.escape(w).replace(r"\ ", r"[ \t]+")
                            for w in sorted(items, key=len, reverse=True)) or "(?!)"

        bound = r"(?![\p{L}\p{N}])"
        return {
            "age": regex.compile(rf"{_NUMBER}(?i:{words(self.after_age)}){bound}"),
            "before": regex.compile(
                rf"(?<![\p{{L}}\p{{N}}])(?i:{words(self.before)})[ \t]*\n?[ \t]*(?<=[ \t\n])"),
            "after": regex.compile(rf"[ \t]+(?i:{words(self.after)}){bound}"),
            # the same, scanned for: from a run of spaces' first only (from each of its spaces a
            # scan had read the rest of the run: 8,000 spaces took 8 s, 32,000 two minutes)
            "after_scan": regex.compile(rf"(?<![ \t])[ \t]+(?i:{words(self.after)}){bound}"),
            # "azafata, dependienta", "peón agrícola (vendimiador; tractorista ocasional)"
            "join": regex.compile(rf"(?:[ \t]*[,;(]|[ \t]+(?i:{words(self.joins)}){bound})[ \t]*\n?[ \t]*"),
            "follow": regex.compile(
                rf"[ \t]+(?i:{words(self.stops)}|{words(self.prepositions)}|{words(self.after)}){bound}"),
            "complement": regex.compile(
                rf"[ \t]+(?i:{words(self.prepositions)})[ \t]+"
                r"(?P<words>\p{L}[\p{L}’']*(?:[ \t]+\p{L}[\p{L}’']*){0,2})"),
            "prefix": regex.compile(rf"(?i:{words(self.prefixes)})[ \t]*(?=\p{{L}})"),
            "role": regex.compile(rf"(?<![\p{{L}}\p{{N}}])(?i:{words(self.roles)})[ \t]+$"),
            "prefixed": regex.compile(
                rf"(?<![\p{{L}}\p{{N}}])(?i:{words(self.prefixes)})(?:(?<=-)|[ \t]+)(?=\p{{L}})"),
        }

    @cached_property
    def _closing(self) -> frozenset[str]:
        """Words a complement stops before: the stops, prepositions and ``after`` words."""
        return frozenset(fold(w) for w in (*self.stops, *self.prepositions, *self.after))

    @cached_property
    def _first_words(self) -> frozenset[str]:
        """The first word of every form: most candidates are turned down on it alone."""
        return frozenset(f.split(" ", 1)[0] for f in self.forms)

    def _form_at(self, text: str, start: int) -> int | None:
        """The end of the longest occupation of the table starting at ``start``, or None."""
        first = _WORD.match(text, start)
        if first is None or fold(first.group()) not in self._first_words:
            return None
        m = _WORDS.match(text, start)
        if m is None:
            return None
        ends = [start + w.end() for w in _WORD.finditer(m.group())][:_MOST_WORDS]
        for end in reversed(ends):
            if fold(text[start:end]) in self.forms:
                return end
        return None

    def _subject(self, word: str) -> bool:
        """A capitalised word that is a common word of the language, no name: a school subject
        or a field ("profesor de Matemáticas", "técnica de Laboratorio"), which MEDDOCAN marks
        with the occupation (the seventh set written blind left "Matemáticas" in clear)."""
        if not self.language or not word[1:].islower():
            return False
        from .lexicon import lexicon

        try:
            return lexicon().is_common(word.lower(), self.language)
        except ValueError:  # no word list for the language
            return False

    def _ends_here(self, text: str, end: int) -> bool:
        return (_PUNCTUATION.match(text, end) is not None
                or self._patterns["follow"].match(text, end) is not None)

    def _occupation(self, text: str, start: int, taken: list[tuple[int, int]]) -> Span | None:
        """The occupation starting at ``start`` (after a ``prefixes`` word, taken in), with its
        complement, if it ends where a phrase may end; else None."""
        first = start
        prefix = self._patterns["prefix"].match(text, start)
        if prefix is not None and self._form_at(text, prefix.end()) is not None:
            start = prefix.end()
        end = self._form_at(text, start)
        if end is None:
            return None
        qualified = _QUALIFIER.match(text, end)
        if qualified is not None and not any(fold(w) in self._closing for w in qualified.group().split()):
            # "cuidadora interna", "ingeniero aeronáutico", "farmacéutica titular"; an adjective
            # that is an occupation of its own too ("ingeniero ferroviario": the twelfth set)
            end = qualified.end()
        complement = self._patterns["complement"].match(text, end)
        if complement is not None and self._patterns["after"].match(text, end) is None:  # "en activo"
            words = list(_WORD.finditer(complement["words"]))
            of = complement.group().split()[0].lower() == "de"  # a subject follows "de" only
            for k in range(len(words), 0, -1):
                if any(fold(w.group()) in self._closing or (w.group() != w.group().lower()
                                                           and not (of and self._subject(w.group())))
                       for w in words[:k]):
                    continue  # a capitalised word is a name of its own ("del IES Francisco…")
                stop = complement.start("words") + words[k - 1].end()
                if self._ends_here(text, stop) and not overlaps(taken, end, stop):
                    end = stop
                    break
        if not self._ends_here(text, end) or overlaps(taken, first, end):
            return None
        return Span(first, end, self.label, source=SOURCE)

    def _listed(self, text: str, start: int, taken: list[tuple[int, int]]) -> Span | None:
        """The occupation opening a sentence or a field's value, if a comma or a semicolon ends
        it: the first item of what the patient is ("Pastor; elabora queso", "agricultora, titular
        de una explotación": the eighth set written blind)."""
        span = self._occupation(text, _spaces(text, start), taken)
        return span if span is not None and _ITEM_END.match(text, span.end) else None

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The occupations ``text`` names in the step's contexts that no span of ``spans``
        touches."""
        taken = sorted((s.start, s.end) for s in spans)
        found: list[Span] = []

        def add(span: Span | None) -> None:
            nonlocal taken
            if span is not None and _FIELD_NAME.match(text, span.end):
                return  # "Médico:", a header's field after "(cirugía mayor ambulatoria)", no occupation
            if span is not None and not overlaps(taken, span.start, span.end):
                found.append(span)
                taken = sorted([*taken, (span.start, span.end)])

        pats = self._patterns
        for m in pats["age"].finditer(text):
            stop = _SENTENCE_END.search(text, m.end(), min(len(text), m.end() + _AGE_REACH))
            limit = stop.start() if stop is not None else min(len(text), m.end() + _AGE_REACH)
            add(self._occupation(text, _spaces(text, m.end()), taken))  # "26 años deportista"
            for item in _ITEM.finditer(text, m.end(), limit):
                add(self._occupation(text, item.end(), taken))
            for item in _LAST_ITEM.finditer(text, m.end(), limit):  # "…desde 2021 y camarera de pisos"
                add(self._occupation(text, item.end(), taken))
            if stop is not None and text[stop.start()] == ".":  # "Varón de 62 años. Pastor; elabora…"
                add(self._listed(text, stop.end(), taken))
        for m in _FIELD_VALUE.finditer(text):  # "Enfermedad actual: agricultora, titular de…"
            if text[m.end() : m.end() + 1].islower():
                add(self._listed(text, m.end(), taken))
        for m in pats["before"].finditer(text):
            if not pats["role"].search(text, max(0, m.start() - 24), m.start()):
                add(self._occupation(text, m.end(), taken))
        for m in pats["prefixed"].finditer(text):  # "ex profesora de instituto"
            add(self._occupation(text, m.start(), taken))
        for m in pats["after_scan"].finditer(text):
            # the longest run of up to six words before it that is an occupation, maybe with one
            # lower-case word after it ("maestra rural jubilada": the seventh set written blind)
            words = list(_WORD.finditer(text, max(0, m.start() - 80), m.start()))
            if not words or words[-1].end() != m.start():
                continue
            last = words[-1].group()
            qualified = (len(words) > 1 and last.islower() and fold(last) not in self._closing
                         and fold(last) not in self.forms)
            for k in range(min(len(words), _MOST_WORDS), 0, -1):
                begin = words[-k].start()
                if fold(text[begin : m.start()]) in self.forms or (
                        qualified and k > 1 and fold(text[begin : words[-2].end()]) in self.forms):
                    if not _WORD_BEFORE.search(text[max(0, begin - 1) : begin]):
                        add(Span(begin, m.start(), self.label, source=SOURCE)
                            if not overlaps(taken, begin, m.start()) else None)
                    break
        for s in spans:
            if s.label in self.person_labels:
                for pattern in (_APPOSITION, _APPOSITION_AFTER_BRACKET):
                    apposition = pattern.match(text, s.end)
                    span = self._occupation(text, apposition.end(), taken) if apposition else None
                    if span is not None:
                        add(span)
                        break
        queue = sorted([s for s in spans if s.label == self.label] + found, key=lambda s: s.start)
        while queue:  # "azafata, dependienta, monitora de deporte"
            joined = pats["join"].match(text, queue.pop(0).end)
            if joined is not None:
                span = self._occupation(text, joined.end(), taken)
                if span is not None and not overlaps(taken, span.start, span.end):
                    add(span)
                    queue.append(span)
        return found


#: A letter or digit just before a word (the word goes on backwards).
_WORD_BEFORE = regex.compile(r"[\p{L}\p{N}]$")


def _spaces(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


def with_lone_professions(text: str, spans: Iterable[Span], step: LoneProfessions | None) -> list[Span]:
    """``spans`` and the occupations ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    return sorted([*spans, *step.spans(text, spans)], key=lambda s: (s.start, s.end, s.label))
