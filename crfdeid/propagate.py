"""Second mentions: every other occurrence in a note of a string that is being replaced.

A detector marks "Nombre: Jesús" in the header and misses "Jesús se encontraba bien" three
paragraphs later; an NHC typed twice, an e-mail in a signature. Each replaced string — and each
name word of a replaced name (the given name alone, the surname alone) — is looked for in the
rest of the note, and every whole-word occurrence outside the existing spans becomes a span of
the same label with source ``propagated``, so it is replaced exactly as the first one (one
person, one surrogate).

Guards against ordinary words: a name word is propagated only where it is written with a
capital, a word found in lower case (an occupation: "estudiante") not where a capital inside a
sentence makes it part of a name ("Unidad de Salud del Estudiante"), never a closed-class
word or a name particle ("de", "del"); a name word that is also an
ordinary word (the pack's stop list: "Mora", "Blanco", "Pastor") only after an honorific ("Sra.
Mora") or inside a sentence, not where a sentence or line starts ("Mora en el diagnóstico…"
stays, and the leftover scan holds the note for a reader if it was the name). An acronym the
pack lists as spelled like a name (``name_acronyms``: "ANA" the antinuclear antibodies, "EVA"
the pain scale) written in capitals is not a mention of a name written otherwise. Labels whose
strategy keeps or shifts them are not propagated (dates, ages, sex, kinship).

A name's span is widened to what is written glued or beside it and belongs to the name:
initials outside it ("Dr. F. A. [Ferrer]", "[Nikolaos Antoniadis] P. Departamento de…") and the
rest of a word it cuts ("DR.F[rancisco Javier Candel]"); kept outside, they would keep the
original's letters. And a word of three or four capitals equal to the initials of a replaced
person of the note ("FAF" signing for the Dr. Francisco Alberto Ferrer) is a mention of that
person, unless the pack knows it as something else (``known_acronym``: "HTA", "TAC", "NHC",
a name, a closed-class word).

A relative's span is not propagated for its kinship words ("su madre" is kept); the name in it
is ("Hijo Pedro José", then "Llamar a Pedro José": the leftover scan had held the note), and so
is each word of a name of two words or more ("su sobrino Tomás Hernando Lafuente", then "Tomás
autoriza el ingreso").
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass

import regex

from .langpack import LanguagePack
from .occurrences import Scannable, find_whole_words, glued_parts, name_words, word_bounds
from .surrogates import fold, normalise
from .surrogates.base import LETTERS
from .surrogates.people import PERSON_LABELS
from .types import Document, Span

#: Labels never propagated: a second "2012" or "45 años" is not the same fact, and "su madre"
#: is kept. A description (OTROS_SUJETO_ASISTENCIA) is: generalised once, generalised everywhere,
#: or the leftover scan would hold the note for its second mention.
NOT_PROPAGATED = frozenset({
    "FECHAS", "EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA",
})
#: A relative's span: its kinship words are kept, its name (the capitalised words) is propagated.
RELATIVE = "FAMILIARES_SUJETO_ASISTENCIA"
#: An organisation's span: one word of the language alone under it is a kind, not a name.
ORGANISATION = "INSTITUCION"
#: What a longer name goes on with after a word ("Santiago de Compostela", "San Juan de la Cruz").
_NAME_GOES_ON = regex.compile(r"[ \t]+(?:de|del|de[ \t]+la|de[ \t]+los|de[ \t]+las)[ \t]+\p{Lu}")
#: A hospital's span: its proper part alone is a mention of it ("el Valme").
HOSPITAL = "HOSPITAL"
#: What may lead a proper part and is no part of its name alone ("de Valme", "del Rocío").
_LEADING = regex.compile(r"^(?:(?:de|del|de la|de los|de las|d['’])\s+)+", regex.IGNORECASE)
#: Strings shorter than this (folded) are not looked for: "M", "3", "Gil" is three.
MIN_LENGTH = 3
#: The most words a lower-case name's run has ("maria del carmen de la fuente garcia" is seven).
MAX_RUN = 8
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
    lower: bool = False  # one word in lower case: a common noun ("estudiante"), not a capitalised one
    #: a hospital's proper part alone: no occurrence that a longer name goes on from ("Santiago"
    #: of "Complexo Hospitalario Universitario de Santiago" in "Santiago de Compostela", which
    #: had become "Carmen y Severo Ochoa de Compostela": the seventeenth set written blind)
    bare: bool = False


def propagate(document: Document, replaced: Callable[[str], bool], pack: LanguagePack,
              particles: frozenset[str] | set[str] = frozenset(),
              acronyms: frozenset[str] | set[str] = frozenset(),
              kind: Callable[[str], str | None] | None = None,
              known_acronym: Callable[[str], bool] | None = None,
              scannable: Scannable | None = None,
              proper: Callable[[str], str] | None = None,
              place: Callable[[str], bool] | None = None) -> tuple[Span, ...]:
    """The new spans: other whole-word occurrences of the document's replaced strings, names
    widened to their initials and cut words, and acronyms of the note's people.

    ``replaced(label)`` says whether the policy replaces a label (a kept label is not
    propagated); ``acronyms`` are the folded ``name_acronyms`` of the pack; ``kind(label)`` is
    the MEDDOCAN label a label of another scheme counts as (``surrogates.generator_label``: a
    generic DATE is not propagated, a NAME_PATIENT's words are); ``known_acronym`` (folded
    word -> bool) tells capitals that are no one's initials, and without it acronyms of people
    are not looked for. A widened name is a new span that covers its source (which the
    pseudonymiser then drops as inside it). Deterministic: depends on the document only.
    ``scannable``: ``occurrences.Scannable`` of the document's text, made beforehand (the
    pseudonymiser reads the folded note again). ``proper`` (a hospital's name -> its proper
    part, the facilities generator's) and ``place`` (is a name a town or a province?): a
    hospital's proper part is looked for alone too ("Hospital Universitario de Valme", then
    "trasladado a Valme": the fifteenth set written blind), unless it is a place ("Hospital de
    León": León is the town) or a word of the language.
    """
    text = document.text
    wanted: dict[str, _Wanted] = {}  # folded key -> what an occurrence must look like
    for span in sorted(document.spans, key=lambda s: (s.start, s.end, s.label)):
        as_label = (kind(span.label) if kind is not None else None) or span.label
        if as_label == RELATIVE and replaced(span.label):
            # the relative's name, not the kinship words: "Hijo Pedro José", then "Llamar a
            # Pedro José" (the leftover scan had held the note for it)
            name = [w for w in name_words(document.span_text(span))
                    if w[0].isupper() and pack.kinship_term(w) is None and not _closed(w, pack, particles)]
            if name and len(" ".join(name)) >= MIN_LENGTH:
                whole = " ".join(name)
                wanted.setdefault(normalise(whole), _Wanted(span.label, " " not in whole,
                                                            pack.is_stopword(whole), _upper(whole)))
            # and each of its words, as a person's are: "su sobrino Tomás Hernando Lafuente",
            # then "Tomás autoriza el ingreso" (the fourth set written blind left it in clear)
            for word in name if len(name) > 1 else ():
                if len(word) >= MIN_LENGTH:
                    wanted.setdefault(fold(word), _Wanted(span.label, True, pack.is_stopword(word),
                                                          _upper(word)))
            continue
        if as_label in NOT_PROPAGATED or not replaced(span.label):
            continue
        original = document.span_text(span)
        key = normalise(original)
        single = " " not in key
        if single and as_label == ORGANISATION and _common(original, pack):
            continue  # "Juzgado" alone: a kind of body, not one ("COMUNICACIÓN AL JUZGADO" had become
            # "AL IMSERSO": the twelfth set written blind)
        if len(key) >= MIN_LENGTH and not (single and _closed(original, pack, particles)):
            # one capitalised word needs its capital ("Rosa", not "rosa"); several words
            # ("lucía ferrer") are the string whatever their case
            capitalised = single and original[:1].isupper()
            wanted.setdefault(key, _Wanted(span.label, capitalised,
                                           capitalised and pack.is_stopword(original), _upper(original),
                                           single and original.islower() and as_label not in PERSON_LABELS))
        if as_label == HOSPITAL and proper is not None:
            part = _proper_part(proper(original))
            words = [w for w in name_words(part) if not _closed(w, pack, particles)]
            if (len(part) >= MIN_LENGTH + 1 and part[:1].isupper() and not (place and place(part))
                    and words and not all(_common(w, pack) for w in words)):
                # (a kind of care is no name: "Hospital de Cuidados Paliativos", then "Unidad de
                # Cuidados Paliativos", MEDDOCAN dev)
                wanted.setdefault(normalise(part),
                                  _Wanted(span.label, True, pack.is_stopword(part), _upper(part), bare=True))
        if as_label in PERSON_LABELS:
            for word in name_words(original):
                if word[0].isupper() and not _closed(word, pack, particles):
                    wanted.setdefault(fold(word), _Wanted(span.label, True, pack.is_stopword(word),
                                                          _upper(word)))
            if original.islower():
                # a name typed in lower case: its runs of two words or more, each a string (a
                # dictation's "juan de dios ortega quesada", then "repito ortega quesada"), never
                # a lower-case word alone ("ortega" is a bird, "quesada" a pastry)
                parts = original.split()
                for i in range(len(parts)):
                    # at most a name's length: a span of a whole lower-case page had made the
                    # runs cubic (4,000 "enf nieves" took minutes)
                    for j in range(i + 2, min(len(parts), i + MAX_RUN) + 1):
                        run = parts[i:j]
                        if run[0] in particles or run[-1] in particles:
                            continue
                        key_run = normalise(" ".join(run))
                        if len(key_run) >= MIN_LENGTH:
                            wanted.setdefault(key_run, _Wanted(span.label, False, False, False))
    if not wanted:
        return ()
    taken = sorted((s.start, s.end) for s in document.spans)
    starts = [t[0] for t in taken]
    longest_end = max((e - s for s, e in taken), default=0)
    found = []
    if scannable is None or scannable.text is not text:
        scannable = Scannable(text)  # folded once for both scans
    occurrences = list(find_whole_words(text, wanted, scannable))
    words = [k for k in wanted if " " not in k]
    at = 0
    while at < len(occurrences):
        start, end, key = occurrences[at]
        at += 1
        want = wanted[key]
        if want.capitalised and not text[start].isupper():
            continue  # "Rosa" the name, "rosa" the colour
        if want.lower and text[start].isupper() and inside_sentence(text, start, pack):
            continue  # "estudiante" the occupation, "Unidad de Salud del Estudiante" a name
        if key in acronyms and not want.upper and _upper(text[start:end]):
            continue  # "ANA positivos": the antibodies, not Ana
        if want.ordinary and not inside_sentence(text, start, pack):
            continue  # "Mora en el diagnóstico…": the word, as far as a scan can tell
        if want.bare and _NAME_GOES_ON.match(text, end):
            continue  # "Santiago" of "Santiago de Compostela"
        named = (kind(want.label) if kind is not None else None) or want.label
        if _overlaps(taken, starts, longest_end, start, end) and not (
                " " in key and named not in PERSON_LABELS
                and _covers(text, taken, starts, longest_end, start, end)):
            # a name of several words whose occurrence holds only pieces the tagger found
            # ("Hospital General Básico" + "Serranía" + "Ronda" in a header, the whole name
            # found further down: the tenth set written blind) is replaced whole, the pieces
            # inside it dropped by the pseudonymiser; one that crosses a span is left, and a
            # person's name is widened over its pieces by ``_widened`` instead
            if " " in key and words:
                # its words are looked for inside it: the longest match had hidden them ("Popescu,
                # Ioana-Maria" over a street "Popescu" left "Ioana-Maria": the twelfth set)
                inner = [(start + s, start + e, k) for s, e, k in find_whole_words(text[start:end], words)]
                occurrences[at:at] = [o for o in inner if o[2] != key]
            continue
        found.append(Span(start, end, want.label, SOURCE))
    def person(label: str) -> bool:
        return ((kind(label) if kind is not None else None) or label) in PERSON_LABELS

    found = _widened(document, found, replaced, pack, person)
    if known_acronym is not None:
        found.extend(_acronyms(document, found, replaced, pack, particles, known_acronym, person, scannable))
    return tuple(found)


#: Initials written just before a name, outside its span ("Dr. F. A. ", "por J.M. "): capitals
#: with their full stop, none glued to a word or a stop before it.
_INITIALS_BEFORE = regex.compile(r"(?<![\w.])(?:\p{Lu}\.[ \t]?){1,3}$")
#: ... or just after it ("Antoniadis P. Departamento", "García A.B., Servicio"): then a line or
#: a clause ends, or a capitalised word follows.
_INITIALS_AFTER = regex.compile(
    r"[ \t]\p{Lu}\.(?:[ \t]?\p{Lu}\.){0,2}(?=[ \t]*(?:$|[\n\r.,;:)])|[ \t]+\p{Lu})")
#: What may stand before initials that belong to the name after them: a line start, an
#: opening or separating mark, a title or a closed-class word ("Dr.", "por", "y").
_BEFORE_INITIALS = regex.compile(r"(?:^|[:;,(\[/-]|(?<![\w.])(?P<word>[^\W\d_]+\.?))[ \t]*$")
#: Capitals that are roman numerals ("III", "VII"), not initials.
_ROMAN = regex.compile(r"[IVXLCDM]+")


def _widened(document: Document, found: list[Span], replaced: Callable[[str], bool],
             pack: LanguagePack, person: Callable[[str], bool]) -> list[Span]:
    """``found`` with every person span (the document's and the propagated ones) widened to the
    initials beside it and to the whole words it cuts: a propagated span is replaced by its
    widened self, a span of the document gets a widened copy (source ``propagated``)."""
    text = document.text
    every = sorted((*document.spans, *found), key=lambda s: (s.start, s.end))
    ranges = [(s.start, s.end) for s in every]
    starts = [r[0] for r in ranges]
    longest = max((e - s for s, e in ranges), default=0)
    propagated = {id(s) for s in found}
    out = [s for s in found if not person(s.label)]
    for span in every:
        if not person(span.label):
            continue
        if id(span) not in propagated and not replaced(span.label):
            continue
        start, end = _name_edges(text, span.start, span.end, pack)
        clear = all(
            not _overlaps(ranges, starts, longest, a, b)
            for a, b in ((start, span.start), (span.end, end)) if b > a
        )
        if (start, end) == (span.start, span.end) or not clear:
            if id(span) in propagated:
                out.append(span)
            continue
        out.append(Span(start, end, span.label, SOURCE))
    return sorted(out, key=lambda s: (s.start, s.end, s.label))


def _name_edges(text: str, start: int, end: int, pack: LanguagePack) -> tuple[int, int]:
    """The bounds of a name span widened over the word it cuts and the initials beside it."""
    start, end = word_bounds(text, start, end)  # "DR.F|rancisco", not "Medina|NºCol"
    newline = text.rfind("\n", max(0, start - 40), start)
    line = text[newline + 1 if newline >= 0 else max(0, start - 40) : start]
    before = _INITIALS_BEFORE.search(line)
    if before is not None:
        lead = _BEFORE_INITIALS.search(line[: before.start()])
        word = lead["word"] if lead is not None else None
        if lead is not None and (word is None or pack.honorific(word) is not None
                                 or pack.honorific(word.rstrip(".")) is not None
                                 or (not word.endswith(".") and fold(word) in pack.word_classes)):
            start -= len(line) - before.start()
    after = _INITIALS_AFTER.match(text, end)
    if after is not None:
        end = after.end()
    return start, end


def _acronyms(document: Document, found: list[Span], replaced: Callable[[str], bool], pack: LanguagePack,
              particles: frozenset[str] | set[str], known: Callable[[str], bool],
              person: Callable[[str], bool], scannable: Scannable | None = None) -> list[Span]:
    """Words of three or four capitals equal to the initials of a replaced person of the note
    ("FAF", "JMLV"), outside every span: spans of that person's label."""
    text = document.text
    wanted: dict[str, str] = {}
    for span in sorted((*document.spans, *found), key=lambda s: (s.start, s.end)):
        if person(span.label) and replaced(span.label):
            for form in initials_of(text[span.start:span.end], pack, particles):
                if not known(form) and not _ROMAN.fullmatch(form.upper()):
                    wanted.setdefault(form, span.label)
    if not wanted:
        return []
    taken = sorted((s.start, s.end) for s in (*document.spans, *found))
    starts = [t[0] for t in taken]
    longest = max((e - s for s, e in taken), default=0)
    return [
        Span(start, end, wanted[key], SOURCE)
        for start, end, key in find_whole_words(text, wanted, scannable)
        if text[start:end].isupper() and text[start:end].isalpha()
        and not _overlaps(taken, starts, longest, start, end)
    ]


def initials_of(name: str, pack: LanguagePack,
                particles: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The folded acronyms of three or four letters a name is signed with: every name word
    ("fafg" for Francisco Alberto Ferrer Gómez), all but the second ("ffg"), all but the last
    ("faf"). Titles, particles, kinship and lower-case words are no name words; "M.a" is "M"."""
    words = []
    for word in LETTERS.findall(name):
        if not word[0].isupper() or fold(word) in particles or pack.kinship_term(word) is not None:
            continue
        if pack.honorific(word) is not None or pack.honorific(word + ".") is not None:
            continue
        words.extend(glued_parts(word))
    forms = [words, words[:1] + words[2:], words[:-1]] if len(words) >= 3 else [words]
    out = []
    for form in forms:
        initials = fold("".join(w[0] for w in form))
        if 3 <= len(initials) <= 4 and initials not in out:
            out.append(initials)
    return out


def _proper_part(proper: str) -> str:
    """A proper part without the "de" it follows its type with ("de Valme" -> "Valme")."""
    return _LEADING.sub("", proper.strip()).strip(" ,;()-")


def _closed(word: str, pack: LanguagePack, particles: frozenset[str] | set[str]) -> bool:
    """A closed-class word or a name particle: never a name on its own."""
    folded = fold(word)
    return folded in pack.word_classes or folded in particles


def _common(word: str, pack: LanguagePack) -> bool:
    """A word of the language's lexicon (no lexicon for it: none is)."""
    from .lexicon import lexicon

    try:
        return lexicon().is_common(word.lower(), pack.language)
    except ValueError:
        return False


def _upper(text: str) -> bool:
    """Written all in capitals (two letters or more)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def inside_sentence(text: str, start: int, pack: LanguagePack) -> bool:
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


def _covers(text: str, taken: list[tuple[int, int]], starts: list[int], longest: int, start: int,
            end: int) -> bool:
    """Does [start, end) hold every sorted ``taken`` range it overlaps, and a word none of them
    holds? (A key that only adds punctuation — the catalogue's "Hospital del MAR." over a span
    "Hospital del Mar" and its sentence's full stop — covers nothing a reader would miss.)"""
    i = bisect.bisect_left(starts, start - longest)
    outside, at = [], start
    while i < len(taken) and taken[i][0] < end:
        s, e = taken[i]
        if e > start:
            if s < start or e > end or (s, e) == (start, end):
                return False
            outside.append(text[at:s])
            at = max(at, e)
        i += 1
    outside.append(text[at:end])
    return any(c.isalnum() for part in outside for c in part)


def _overlaps(taken: list[tuple[int, int]], starts: list[int], longest: int, start: int, end: int) -> bool:
    """Does [start, end) overlap one of the sorted ``taken`` ranges?"""
    i = bisect.bisect_left(starts, start - longest)
    while i < len(taken) and taken[i][0] < end:
        if taken[i][1] > start:
            return True
        i += 1
    return False


def nationalities(document: Document, country_label: Callable[[str], bool],
                  countries: Callable[[str], str | None], forms: dict[str, tuple[str, int]],
                  kept: Callable[[str], bool], scannable: Scannable | None = None) -> tuple[Span, ...]:
    """New spans over the nationality adjectives of the countries the note's country spans
    name ("Nacionalidad: tunecina" beside "Sfax (Túnez)"): each takes its country span's label,
    so that it becomes the surrogate country's adjective, in its gender and number ("argelina"
    once Túnez became Argelia; it had stayed "tunecina", the country a reader could then put
    back). ``country_label(label)``: a label the pseudonymiser replaces as a country;
    ``countries(span text)``: the ISO code a country span (name or adjective) names, else
    None; ``forms``: folded adjective -> (code, form index), the pack's ``nationalities``;
    ``kept(code)``: a country whose name the pseudonymiser keeps (the home country), whose
    adjective stays too. Only lower-case or capitalised whole words, outside every span."""
    text = document.text
    label_of: dict[str, str] = {}
    for span in document.spans:
        if not country_label(span.label):
            continue
        code = countries(document.span_text(span).strip())
        if code is not None and not kept(code):
            label_of.setdefault(code, span.label)
    if not label_of:
        return ()
    wanted = {form: code for form, (code, _) in forms.items() if code in label_of}
    taken = sorted((s.start, s.end) for s in document.spans)
    starts = [t[0] for t in taken]
    longest_end = max((e - s for s, e in taken), default=0)
    found = []
    for start, end, key in find_whole_words(text, wanted, scannable):
        word = text[start:end]
        if " " in word or not (word.islower() or word[1:].islower()):
            continue
        if not _overlaps(taken, starts, longest_end, start, end):
            found.append(Span(start, end, label_of[wanted[key]], SOURCE))
    return tuple(found)
