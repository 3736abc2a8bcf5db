"""People's names: token-level surrogates that keep one person one person.

Every name token maps to a surrogate of its kind (given name -> given name of the same sex,
surname -> surname), drawn from the pack's frequent names weighted by frequency. Before any
name is replaced, ``prepare`` reads every name span of the document: it groups spelling
variants (same folded form, or one edit apart as in "Cuéllar"/"Cuelar") with rapidfuzz, decides
each group's kind by vote and each given name's sex from the name lists and the context
(honorifics, kinship words, the patient's sex), then draws one surrogate per group. So
"Ignacio Navarro Cuéllar", "Dr. Navarro" and "Navarro Cuellar" stay one person, and relatives
sharing a surname keep sharing it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

import regex
from rapidfuzz.distance import Levenshtein

from ..memo import Memo
from .base import (
    LETTERS,
    DocumentState,
    Level,
    Surrogate,
    SurrogateFailure,
    chosen,
    fold,
    match_case,
    normalise,
    scramble,
)
from .data import SurrogateData
from .scan import WordLed

PERSON_LABELS = ("NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO")
PATIENT_LABEL = "NOMBRE_SUJETO_ASISTENCIA"
#: A user name: lower-case letters (four or more), maybe digits after them ("vrocamora", "igoni2").
_USER_NAME = regex.compile(r"(?P<letters>[a-zñç]{4,30})(?P<digits>\d{0,4})")
#: A login of lower-case parts joined by a dot, an underscore or a hyphen ("ainhoa.lhe").
_LOGIN = regex.compile(r"[a-zñç]{1,30}(?:[._-][a-zñç]{1,30}){1,3}")
#: Someone else around the patient (a carer, a neighbour): a name there is a person's name.
OTHER_LABEL = "OTROS_SUJETO_ASISTENCIA"
#: The longest name read under ``OTHER_LABEL``, in words.
OTHER_NAME_WORDS = 5
SEX_LABEL = "SEXO_SUJETO_ASISTENCIA"
_WORD = LETTERS
#: The last word of a text, maybe a comma or a colon after it, then spaces.
_LAST_WORD = re.compile(r"([^\W\d_]+)[,:]?\s*$")

#: A header field before a name, at the start of its line or with its colon: "Apellidos:",
#: "Nombre:" (not "… su hija de nombre Natalia Ontiveros", a full name in prose).
#: "Nombre y apellidos:" heads a whole name, given names first.
_SURNAMES_FIELD = re.compile(r"(?:^\W*apellidos?\s*[:.]?|(?<!y )(?<!\w)apellidos?\s*:)\s*$", re.IGNORECASE)
_GIVEN_FIELD = re.compile(r"(?:^\W*nombre\s*[:.]?|(?<!y )(?<!\w)nombre\s*:)\s*$", re.IGNORECASE)
_SURNAMES_ANYWHERE = re.compile(r"^\W*apellidos?\s*[:.]", re.IGNORECASE | re.MULTILINE)
#: Where two names were written glued ("ÁngelGarcía"): a lower-case letter (two, so that "McArdle"
#: stays whole) followed by a capitalised word.
_GLUED = regex.compile(r"(?<=\p{Ll}{2})(?=\p{Lu}\p{Ll})")
#: How many more bearers as a given name than as a surname make a name's last word a given name.
#: Quotation marks that open a nickname ("«Loli»", '"Curro"').
_NICKNAME_OPENINGS = ("«", '"', "“")
#: What a village's nickname is after the name: "el/la de (los/las) NOUN" ("Rafa el de los
#: pájaros", "Lola la de la lonja"; Galician "a da ponte"). The noun is drawn again.
NICKNAME_NOUN = regex.compile(
    r"(?<![\p{L}])(?i:el|la|o|a)[ ](?i:de|da|do)[ ](?:(?i:los|las|la|el|os|as)[ ])?(?P<noun>\p{Ll}{3,})"
    r"(?![\p{L}])")
#: What opens a nickname in brackets after a name: "(«", '("', "(“".
_NICKNAME_OPENING = re.compile(r"\([ \t]*[«\"“]$")
#: How many times more often a first word must be borne as a surname than as a given name to
#: be read as a surname.
_SURNAME_OVER_GIVEN = 100
_GIVEN_OVER_SURNAME = 10
_SEX_FIELD = WordLed(re.compile(r"\bsexo\s*[:.]?\s*([^\W\d_]+)", re.IGNORECASE), ["sexo"])
#: how a case report introduces its patient: a sex word (the pack's), at most two words, then
#: an age: "Varón de 51 años", "mujer caucásica de 56 años", "paciente masculino de 52 años"
_PATIENT_INTRO = r"\b({words})\b(?:\s+[^\W\d_]+){{0,2}}?\s+de\s+\d"
_PATIENT_SEX = WordLed(re.compile(r"\b(el|la) paciente\b|\b(varón|mujer|hombre)\b", re.IGNORECASE),
                       ["el paciente", "la paciente", "varón", "mujer", "hombre"])
#: A bare "de" just before a name word ("de Juan"), not "del", "de la", "de los".
_AFTER_DE = re.compile(r"(?<!\w)de\s+$", re.IGNORECASE)
#: "María" abbreviated at the head of a compound: "M.a José", "Mª Pilar", "M.ª Teresa".
_MARIA = re.compile(r"M(?:\.\s?[aª]|ª)(?=\s)")
#: "del", "de la", "de los", "de las" right before a word (a devotional end: "Mª DEL MAR").
_DEVOTION_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(?:del|de\s+la|de\s+los|de\s+las)\s+$")
#: The abbreviation of María as a token of its own ("Mª", "M.ª").
_MARIA_WORD = re.compile(r"M\.?ª\.?")
#: Variants are merged only when both tokens are at least this long (shorter names are too
#: close to each other: "Ana"/"Ada") and not both frequent in the lists ("Marín"/"Martín").
FUZZY_MIN_LENGTH = 4
FREQUENT = 1000
#: A name list decides a given name's sex on its own when one sex bears it this often.
DECISIVE_SHARE = 0.9
#: How far back (characters, same line) the context of a name is read: honorifics, "Nombre:",
#: "Apellidos:". Bounded so that a note written as one long line stays linear.
CONTEXT = 256
#: Spelling variants are looked up through their one-deletion neighbourhood up to this length
#: (real names are far shorter; a 100,000-letter token only joins its exact spelling).
VARIANT_MAX_LENGTH = 64
INITIALS = "ABCDEFGHIJLMNOPRSTVZ"
#: token kinds that abbreviate a name rather than spell one
ABBREVIATIONS = ("initial", "initials")
#: Name tokens not drawn through the name groups: abbreviations (an initial follows its name)
#: and the second part of "María del Carmen" (drawn among the names said after "del").
NOT_DRAWN = (*ABBREVIATIONS, "devotional")


@dataclass
class Occurrence:
    token: str
    kind: str
    sex: str | None
    #: "given" or "surname" for a word that is a given name of one person and a surname of
    #: another in the note ("Alvaro" the patient, Dra. Rubio Álvaro): each role its own group
    role: str = ""
    #: the particle written before a surname in its span ("de la" of "García de la Vega")
    particle: str = ""


@dataclass
class Person:
    """One name span read in prepare(): its tokens (offset, folded token, kind) and sex."""

    tokens: list[tuple[int, str, str]]
    sex: str | None


@dataclass
class Group:
    canonical: str
    role: str = ""
    members: set[str] = field(default_factory=set)
    kinds: Counter = field(default_factory=Counter)
    sexes: Counter = field(default_factory=Counter)
    particles: Counter = field(default_factory=Counter)


def _ascii(text: str) -> str:
    """``text`` without its accents ("Núñez" -> "Nunez"): a user name's letters."""
    import unicodedata

    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def words(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def unglued(word: str) -> list[tuple[int, str]]:
    """(offset, part) of a word that may be two names written together ("ÁngelGarcía")."""
    cuts = [0, *(m.start() for m in _GLUED.finditer(word)), len(word)]
    return [(a, word[a:b]) for a, b in itertools.pairwise(cuts)]


def is_acronym(word: str) -> bool:
    """Initials written together ("JGE"): two to four capitals."""
    return 2 <= len(word) <= 4 and word.isupper()


#: A title just before a name: "Dr.", "Sra", "D.", "Doña".
_TITLE_END = re.compile(r"\b(dra?|sra?|d|dña|don|doña)\.?\s*$", re.IGNORECASE)


def _after_title(before: str) -> bool:
    """Does ``before`` end with a title? Searched from a few characters before its last one
    that is no space: a title there is the only one that can end it (``\\b`` still reads the
    character before)."""
    return _TITLE_END.search(before, max(0, len(before.rstrip()) - 8)) is not None


def line_before(text: str, start: int, width: int = CONTEXT) -> tuple[int, str]:
    """(offset, text) of the line up to ``start``, at most ``width`` characters of it."""
    low = max(0, start - width)
    newline = text.rfind("\n", low, start)
    begin = newline + 1 if newline >= 0 else low
    return begin, text[begin:start]


def comma_kinds(span_text: str, tokens: list[tuple[int, int, str]]) -> list[str]:
    """The kinds of a name written surname first, then a comma ("Huber, Josef", "Kowalski,
    Agnieszka"): surname before the comma, given names after it; [] for any other span."""
    if span_text.count(",") != 1 or len(tokens) < 2:
        return []
    comma = span_text.index(",")
    kinds = ["surname" if e <= comma else "given" for _, e, _ in tokens]
    return kinds if "surname" in kinds and "given" in kinds else []


def deletions(token: str) -> frozenset[str]:
    """The token and every string one deletion away: two strings within one edit share one.
    Remembered for name-sized tokens (a pure function's results, bounded)."""
    found = _DELETIONS.get(token)
    if found is None:
        found = frozenset({token, *(token[:i] + token[i + 1 :] for i in range(len(token)))})
        if len(token) <= VARIANT_MAX_LENGTH:
            _DELETIONS.remember(token, found)
    return found


_DELETIONS: Memo[str, frozenset[str]] = Memo(1 << 14)


class PeopleGenerator:
    """NOMBRE_SUJETO_ASISTENCIA and NOMBRE_PERSONAL_SANITARIO (and names inside FAMILIARES)."""

    name = "people"
    phase = 0

    def __init__(self, data: SurrogateData) -> None:
        self.data = data
        sex_words = sorted((w for w in data.sex_words if len(w) > 1 and " " not in w), key=len, reverse=True)
        self.patient_intro = WordLed(re.compile(
            _PATIENT_INTRO.format(words="|".join(map(re.escape, sex_words))), re.IGNORECASE
        ), sex_words)
        #: the pack's phrases that say the patient's sex ("#" an age), one pattern per sex
        self.sex_phrases = {
            sex: re.compile(r"(?<!\w)(?:" + "|".join(
                re.escape(p).replace(r"\#", r"\d{1,3}") for p in sorted(phrases, key=len, reverse=True)
            ) + r")(?!\w)", re.IGNORECASE)
            for sex, phrases in data.patient_sex_phrases.items() if phrases
        }
        self._chains: dict[tuple[bool, str | None], list[Level]] = {}
        self._surnames: tuple[str | None, bool] = (None, False)

    # --- reading the document -----------------------------------------------------------------

    def patient_sex(
        self, text: str, spans: list[tuple[int, int, str]], folded: str | None = None
    ) -> str | None:
        """The patient's sex from SEXO spans, "Sexo: M", "la paciente", "varón"/"mujer".
        ``folded``: ``fold(text)``, where the caller has it."""
        votes: Counter = Counter()
        counted = set()
        for start, end, label in spans:
            if label == SEX_LABEL:
                word = fold(text[start:end].strip(" ."))
                sex = self.data.sex_words.get(word)
                if sex:
                    votes[sex] += self._sex_weight(word)
                    counted.add(start)
        for match in _SEX_FIELD.finditer(text):
            word = fold(match.group(1))
            sex = self.data.sex_words.get(word)
            if sex and match.start(1) not in counted:
                votes[sex] += self._sex_weight(word)
        # the pack's words are folded
        match = self.patient_intro.search(fold(text) if folded is None else folded)
        if match is not None:  # the first one: later ones may be of someone else
            sex = self.data.sex_words.get(match.group(1))
            if sex:
                votes[sex] += 3
        phrases = self.phrase_sex(text)
        if phrases is not None:  # the pack's phrases: "Die 81-jährige Patientin"
            votes[phrases] += 2
        mentions: Counter = Counter()
        for match in _PATIENT_SEX.finditer(text):
            sex = self.data.sex_words.get(fold(match.group(0).lower()))
            if sex:
                mentions[sex] += 1
        if mentions:  # "la paciente" four times is one piece of evidence, not four
            top = mentions.most_common()
            if len(top) == 1 or top[0][1] > top[1][1]:
                votes[top[0][0]] += 1
        return votes.most_common(1)[0][0] if votes else None

    def phrase_sex(self, text: str) -> str | None:
        """The sex the pack's ``patient_sex_phrases`` say most often in the note (None: none,
        or as often one as the other)."""
        counts = Counter({sex: len(pattern.findall(text)) for sex, pattern in self.sex_phrases.items()})
        top = counts.most_common(2)
        if not top or not top[0][1] or (len(top) == 2 and top[0][1] == top[1][1]):
            return None
        return top[0][0]

    def _sex_weight(self, word: str) -> int:
        """A letter that also abbreviates a word of the other sex weighs less: "Sexo: M" is
        written for "mujer" and, in some notes, for "masculino" — "Varón de 51 años" in the same
        note then decides."""
        sex = self.data.sex_words.get(word)
        ambiguous = len(word) == 1 and any(
            w.startswith(word) and other != sex for w, other in self.data.sex_words.items() if len(w) > 1
        )
        return 2 if ambiguous else 3

    def context_sex(self, text: str, start: int, span_text: str) -> str | None:
        """Sex from an honorific or a kinship word in the span ("hermano Mohamed": a relative's
        span holds its kinship word) or just before it."""
        for _, _, word in words(span_text)[:2]:
            title = self.data.pack.honorific(word)
            if title is not None and title.sex != "any":
                return title.sex
            term = self.data.pack.kinship_term(word)
            if term is not None and term.sex != "any" and not term.ambiguous:
                # before any word outside it: "una hija de su hermano Mohamed" had made him a
                # woman, "Aina" (the tenth set written blind)
                return term.sex
        line_start, _ = line_before(text, start)
        if _NICKNAME_OPENING.search(text, max(line_start, start - 3), start):
            # a nickname in brackets after a name is that person's: the sex of the name's first
            # given name the lists are sure of ("Carmen Seoane Díaz («Carmiña»)" had become
            # "(«Eduardo»)", the patient's sex)
            for _, _, word in words(text[max(line_start, start - 48) : start])[-5:]:
                sex = self._table_sex(fold(word), DECISIVE_SHARE)
                if sex is not None:
                    return sex
        before = words(text[max(line_start, start - 30) : start])[-3:]
        for k, (_, _, word) in enumerate(reversed(before)):
            if k == 0 and fold(word) in ("de", "del"):
                # "como hija de Eusebio Pérez": the kinship word is the writer's, not the named
                # one's ("Eusebio" had become "Purificación" beside "mi padre"; the sixteenth set)
                return None
            title = self.data.pack.honorific(word)
            if title is not None and title.sex != "any":
                return title.sex
            term = self.data.pack.kinship_term(word)
            if term is not None and term.sex != "any" and not term.ambiguous:
                return term.sex
            sex = self.data.sex_words.get(fold(word))
            if sex and len(word) > 1:
                return sex
        return None

    def classify(self, text: str, start: int, span_text: str) -> list[tuple[int, int, str, str]]:
        """The name tokens of a span: (start, end, token, kind) with kind given / surname /
        initial; particles, honorifics and kinship words are left out (they are kept)."""
        _, before = line_before(text, start)
        field_kind = (
            "surname"
            if _SURNAMES_FIELD.search(before)
            else ("given" if _GIVEN_FIELD.search(before) else None)
        )
        # "Nombre: Julián Fernández Gómez" is a full name unless the note has its own
        # "Apellidos:" field: only the first word is then known to be a given name
        given_field_first_only = field_kind == "given" and not self._surnames_field(text)
        tokens = []
        for s, e, word in self.name_words(span_text):
            folded = fold(word)
            title = self.data.pack.honorific(word) or (
                self.data.pack.honorific(word + ".") if span_text[e : e + 1] == "." else None
            )
            is_title = title is not None
            if folded in self.data.name_particles and len(words(span_text)) != 1:
                continue
            if is_title and folded not in self.data.given and folded not in self.data.surname:
                continue
            if self.data.pack.kinship_term(word) is not None and word[0].islower():
                continue
            if word[0].islower() and folded not in self.data.given and folded not in self.data.surname:
                continue  # not a name ("su", "materna")
            tokens.append((s, e, word))
        # "Victoria de Juan Herráez": after a bare "de" inside a name comes a surname, even one
        # spelled like a man's name; "María del Carmen", "María de Lourdes" stay given names
        after_de = {
            s for s, _, word in tokens
            if _AFTER_DE.search(span_text, max(0, s - 8), s)
            and self._table_sex(fold(word), DECISIVE_SHARE) != "f"
        }
        if not tokens:
            # a name made of particles only ("Del Santo"): its last capitalised word is the name
            pack = self.data.pack
            capitalised = [
                (s, e, w)
                for s, e, w in words(span_text)
                if w[0].isupper() and pack.honorific(w) is None and pack.kinship_term(w) is None
            ]
            tokens = capitalised[-1:]
        out = []
        inverted = comma_kinds(span_text, tokens)
        seen_surname = False
        for index, (s, e, word) in enumerate(tokens):
            if len(word) == 1:
                out.append((s, e, word, "initial"))
                continue
            folded = fold(word)
            if out and out[-1][3] == "given" and self._devotional(span_text[out[-1][1] : s], folded):
                out.append((s, e, word, "devotional"))  # "María del Carmen": one given name
                continue
            if is_acronym(word) and folded not in self.data.given and folded not in self.data.surname:
                out.append((s, e, word, "initials"))
                continue
            if field_kind is not None and not (given_field_first_only and index > 0):
                out.append((s, e, word, field_kind))
                seen_surname = seen_surname or field_kind == "surname"
                continue
            if inverted:  # "Huber, Josef": the surnames, a comma, the given names
                out.append((s, e, word, inverted[index]))
                continue
            g = sum(self.data.name_sex(word))
            n = self.data.surname.get(fold(word), 0)
            alone = len(tokens) == 1
            if seen_surname or s in after_de:
                kind = "surname"
            elif alone and before.rstrip().endswith(_NICKNAME_OPENINGS):
                kind = "given"  # a nickname in quotation marks ("«Tato»" had become "«Santana»")
            elif alone and g == 0 and n == 0 and self._after_kin(before):
                kind = "given"  # a name no table holds after "El hermano," ("Pachi" had become "Ceballos")
            elif alone:
                kind = "given" if (g > n and not _after_title(before)) or (g > 0 and n == 0) else "surname"
            elif index == 0:
                # a first word borne as a surname far more than as a given name opens a name
                # written surnames first ("SOLÉ I BARRUFET" before ", MONTSERRAT": Sole is a
                # given name of 56 women, Solé a surname of 11,986 people; it had become "IRENE")
                kind = "given" if (g > 0 and g * _SURNAME_OVER_GIVEN >= n) or n == 0 else "surname"
            elif index == len(tokens) - 1 and not seen_surname:
                # "Pedro José", "María José": a second given name far more borne than its
                # surname (José is both) is one — "Hijo Pedro José" had become "Francisco Arrabal"
                kind = "surname" if (n > 0 and g <= _GIVEN_OVER_SURNAME * n) or g == 0 else "given"
            else:
                kind = "given" if g > n else "surname"
            seen_surname = seen_surname or kind == "surname"
            out.append((s, e, word, kind))
        return out

    def is_name(self, text: str) -> bool:
        """Is ``text`` a person's name written out ("Nicoleta Dumitrescu", "Paquita Cortés"):
        a few capitalised words (particles between them), the first a given name of the
        tables ("Hijo Predilecto de Guadix" is none, though Guadix is a surname)? What a carer
        or a neighbour filed as another subject is called by (it had become "un dato personal"
        in a FHIR contact's name)."""
        found = words(text)
        if not found or len(found) > OTHER_NAME_WORDS:
            return False
        particles = self.data.name_particles
        named = [w for _, _, w in found if fold(w) not in particles]
        if not named or any(not w[:1].isupper() for w in named):
            return False
        named = [fold(w) for w in named]
        return named[0] in self.data.given

    def read(self, state: DocumentState, start: int, span_text: str) -> list[tuple[int, int, str, str]]:
        """``classify`` of a span of the note, read once: ``prepare``, ``generate``, kinship words
        and tags read each name span again."""
        key = ("people.classify", start, span_text)
        found = state.readings.get(key)
        if found is None:
            found = state.readings[key] = self.classify(state.text, start, span_text)
        return found

    def _after_kin(self, before: str) -> bool:
        """Does a kinship word end ``before`` (a comma or a colon after it)? "El hermano, Pachi":
        a relative called by one word is called by a given name or a nickname."""
        found = _LAST_WORD.search(before)
        return found is not None and self.data.pack.kinship_term(found[1]) is not None

    def _surnames_field(self, text: str) -> bool:
        """Does the note have its own "Apellidos:" field? Read once per note (the last note's
        answer is kept: a pure function of the text)."""
        last = self._surnames  # one tuple, read and replaced whole (threads may share a generator)
        if last[0] is not text:
            last = self._surnames = (text, _SURNAMES_ANYWHERE.search(text) is not None)
        return last[1]

    def name_words(self, span_text: str) -> list[tuple[int, int, str]]:
        """The span's words, a glued pair of names ("ÁngelGarcía") as two words when one part
        is a known name: the parts must get the surrogates they get when written apart."""
        out = []
        for s, e, word in words(span_text):
            parts = unglued(word)
            if len(parts) > 1 and any(
                fold(p) in self.data.given or fold(p) in self.data.surname for _, p in parts
            ):
                out.extend((s + a, s + a + len(p), p) for a, p in parts)
            else:
                out.append((s, e, word))
        return out

    def sex_evidence(
        self, text: str, start: int, span_text: str, label: str, classified: list, patient: str | None
    ) -> Counter:
        """What one mention says of its person's sex, weighed: the patient's sex (the note's own
        statement) for the patient; a title or kinship word before the name — a feminine one
        more than a masculine one, which is also the generic form ("Dr." heads notes signed by
        women); the first given name as the name lists know it."""
        votes: Counter = Counter()
        context = self.context_sex(text, start, span_text)
        if context is not None:
            votes[context] += 2 if context == "f" else 1
        if label == PATIENT_LABEL and patient in ("m", "f"):
            votes[patient] += 3
        first = next((t for _, _, t, k in classified if k == "given"), None)
        lead = next((c for c in classified if c[3] in ("initial", "given")), None)
        if lead is not None and _MARIA.match(span_text, lead[0]):
            # "M.a José", "Mª Pilar", "GARCÍA FUENTES, Mª DEL MAR": María abbreviated, a woman
            first = "María"
        if first is not None:
            decisive = self._table_sex(fold(first), DECISIVE_SHARE)
            leaning = decisive or self._table_sex(fold(first), 0.5 + 1e-9)
            if leaning:
                votes[leaning] += 1.5 if decisive else 0.5
        return votes

    @staticmethod
    def given_key(classified: list) -> tuple[str, ...]:
        """The given names of a mention: mentions with the same ones are taken for one person
        (and two people who share every given name are of one sex in practice)."""
        return tuple(fold(t) for _, _, t, k in classified if k == "given")

    @staticmethod
    def decide(votes: Counter) -> str | None:
        top = votes.most_common(2)
        if not top or (len(top) == 2 and top[0][1] == top[1][1]):
            return None
        return top[0][0]

    # --- the whole document first -------------------------------------------------------------

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Group the document's name tokens and draw one surrogate per group."""
        text = state.text
        patient = self.patient_sex(text, spans, state.folded)
        occurrences: list[Occurrence] = []
        people: list[Person] = []
        named: list[tuple[int, list, str, str]] = []  # (start, classified, label, text) per mention
        evidence: dict[tuple[str, ...], Counter] = {}
        for start, end, label in spans:
            span_text = text[start:end]
            if label == OTHER_LABEL and self.is_name(span_text):
                label = "NOMBRE_PERSONAL_SANITARIO"  # a carer's name, read with everyone's
            if label not in PERSON_LABELS and label != "FAMILIARES_SUJETO_ASISTENCIA":
                continue
            if label == "FAMILIARES_SUJETO_ASISTENCIA" and not any(
                w[0].isupper() and self.data.pack.kinship_term(w) is None for _, _, w in words(span_text)
            ):
                continue
            classified = self.read(state, start, span_text)
            named.append((start, classified, label, span_text))
        # a note of several patients (a ward list, an appointment list) says no one sex of "the
        # patient": each name's own evidence decides ("GARCÍA-CARRASCO MERINO, JOSÉ IGNACIO
        # 78 / V" in a list of women had become "JULIA NURIA")
        firsts = {key[0] for _, c, label, _ in named if label == PATIENT_LABEL and (key := self.given_key(c))}
        note_patient = patient if len(firsts) <= 1 else None
        for start, classified, label, span_text in named:
            key = self.given_key(classified)
            if key:
                evidence.setdefault(key, Counter()).update(
                    self.sex_evidence(text, start, span_text, label, classified, note_patient)
                )
        mentions = [(start, classified) for start, classified, _, _ in named]
        # every mention of a person takes the person's sex, read from all of them at once
        state.people_sex = {key: self.decide(votes) for key, votes in evidence.items()}
        split = self.two_roles(text, mentions)
        for start, classified in mentions:
            sex = state.people_sex.get(self.given_key(classified))
            previous_end = 0
            for s, e, token, kind in classified:
                role = kind if fold(token) in split and kind in ("given", "surname") else ""
                particle = " ".join(text[start + previous_end : start + s].split()).lower()
                if kind != "surname" or particle not in self.data.particle_surnames:
                    particle = ""
                occurrences.append(Occurrence(token, kind, sex, role, particle))
                previous_end = e
            people.append(Person([(start + s, fold(t), k) for s, _, t, k in classified], sex))
        state.patient_sex = patient
        self._assign(state, occurrences)
        self._initials(state, people)

    def firm(self, text: str, start: int, classified: list) -> bool:
        """Does a mention itself say which of its words are given names and which surnames: two
        name words or more ("Noelia Rubio Álvaro": the last is a surname), or a field
        ("Nombre:", "Apellidos:")? A word alone ("Álvaro") is read from the lists: either."""
        if sum(k in ("given", "surname") for *_, k in classified) >= 2:
            return True
        _, before = line_before(text, start)
        return bool(_SURNAMES_FIELD.search(before) or _GIVEN_FIELD.search(before))

    def two_roles(self, text: str, mentions: list[tuple[int, list]]) -> set[str]:
        """The folded words that are a given name of one person and a surname of another: the
        patient "Alvaro" and the Dra. Noelia Rubio Álvaro. A word counts only where its mention
        says its role (``firm``), only when the name lists know it as both (a misread
        "Ontiveros" is no given name), and only when no mention of it as a given name shares
        another name word with a mention of it as a surname ("Álvaro Pérez" and "Pérez Álvaro"
        are one person written two ways: one surrogate)."""
        others: dict[str, dict[str, set[frozenset[str]]]] = {}
        for start, classified in mentions:
            if not self.firm(text, start, classified):
                continue
            names = frozenset(fold(t) for _, _, t, k in classified if k in ("given", "surname"))
            for _, _, token, kind in classified:
                if kind in ("given", "surname"):
                    others.setdefault(fold(token), {}).setdefault(kind, set()).add(names - {fold(token)})
        return {
            word
            for word, roles in others.items()
            if len(roles) == 2
            and sum(self.data.given.get(word, (0, 0))) > 0 < self.data.surname.get(word, 0)
            and all(a.isdisjoint(b) for a in roles["given"] for b in roles["surname"])
        }

    def _initials(self, state: DocumentState, people: list[Person]) -> None:
        """Which names an initial ("J. García") or an acronym ("JGE") abbreviates: the person
        of the note with the same surname (or the only given name) starting with that letter,
        or the person whose initials those are. Their surrogate's initials replace them."""
        full = [p for p in people if all(k in ("given", "surname") for _, _, k in p.tokens) and p.tokens]
        full_ids = {id(p) for p in full}
        # initials written together -> the names they abbreviate: a full name first; else a
        # name written with initials ("F. A. Ferrer" signing "FAF"), whose initials are the
        # surrogate's initials there too. Built once: a long note has thousands of each.
        partial = [p for p in people if p.tokens and id(p) not in full_ids]
        # a header's "Nombre: Irune." then "Apellidos: Goikoetxea Larrañaga.": one person, two
        # spans, whose initials "IGL" sign the note as a full name's would
        fielded = [Person(a.tokens + b.tokens, a.sex) for a, b in itertools.pairwise(people)
                   if a.tokens and b.tokens and {k for _, _, k in a.tokens} == {"given"}
                   and {k for _, _, k in b.tokens} == {"surname"}]
        signed: dict[str, tuple[tuple[str, str, str | None], ...]] = {}
        for other in (*full, *fielded, *partial):
            for names in self.abbreviable(other):
                if 2 <= len(names) <= 4:
                    acronym = "".join(t[:1] for t, _ in names)
                    signed.setdefault(acronym, tuple((t, k, other.sex) for t, k in names))
        group = state.name_groups
        givens: dict[str, set[str]] = {}
        for person in full:
            for _, token, kind in person.tokens:
                if kind == "given":
                    givens.setdefault(token[:1], set()).add(group.get(token, token))
        for person in people:
            letters = "".join(t for _, t, k in person.tokens if k == "initial")
            if 2 <= len(letters) == len(person.tokens) and letters in signed:
                # initials written apart ("L.B.S.", "L. B. S."): one person's, letter by letter
                for (offset, _, _), name in zip(person.tokens, signed[letters], strict=True):
                    state.person_initials[offset] = (name,)
                continue
            surnames = {group.get(t, t) for _, t, k in person.tokens if k == "surname"}
            for index, (offset, token, kind) in enumerate(person.tokens):
                if kind == "initial":
                    named = [
                        (t, other.sex)
                        for other in full
                        if surnames and surnames <= {group.get(x, x) for _, x, k in other.tokens}
                        for _, t, k in other.tokens[index : index + 1]
                        if k == "given" and t[:1] == token
                    ]
                    if not named and len(givens.get(token, ())) == 1:
                        named = [(min(givens[token]), None)]
                    if named:
                        state.person_initials[offset] = ((named[0][0], "given", named[0][1]),)
                elif kind == "initials" and token in signed:
                    state.person_initials[offset] = signed[token]

    @staticmethod
    def abbreviable(person: Person) -> list[tuple[tuple[str, str], ...]]:
        """The ways a name is written as initials, as (token, kind) sequences: every name
        ("JMLV" for José María Lasso Vidal), the first given name and the surnames ("JLV"), the
        given names and the first surname ("JML"); an initial stands for its given name."""
        given = [(t, k) for _, t, k in person.tokens if k in ("given", "initial")]
        surnames = [(t, k) for _, t, k in person.tokens if k == "surname"]
        return [tuple(given + surnames), tuple(given[:1] + surnames), tuple(given + surnames[:1])]

    def _group(self, occurrences: list[Occurrence]) -> list[Group]:
        """Spelling variants into groups. Each token joins the first group (in creation order)
        of its role whose canonical spelling is one edit away, found through a one-deletion
        index rather than by comparing with every group (quadratic in a long note)."""
        counts = Counter((fold(o.token), o.role) for o in occurrences if o.kind not in NOT_DRAWN)
        groups: list[Group] = []
        index: dict[tuple[str, str], Group] = {}
        neighbours: dict[tuple[str, str], list[int]] = {}
        for (token, role), _ in sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0][0]), kv[0])):
            home = None
            if FUZZY_MIN_LENGTH <= len(token) <= VARIANT_MAX_LENGTH:
                variants = deletions(token)
                candidates = sorted({i for v in variants for i in neighbours.get((v, role), ())})
                for i in candidates:
                    other = groups[i].canonical
                    if Levenshtein.distance(token, other, score_cutoff=1) > 1:
                        continue
                    if self._frequent(token) and self._frequent(other):
                        continue  # two real, common names ("Marín"/"Martín"), not a typo
                    if self._opposite_sex(token, other):
                        continue  # "Julio"/"Julia"
                    home = groups[i]
                    break
            if home is None:
                home = Group(token, role)
                groups.append(home)
                if FUZZY_MIN_LENGTH <= len(token) <= VARIANT_MAX_LENGTH:
                    for variant in deletions(token):
                        neighbours.setdefault((variant, role), []).append(len(groups) - 1)
            home.members.add(token)
            index[(token, role)] = home
        for occ in occurrences:
            if occ.kind in NOT_DRAWN:
                continue
            group = index[(fold(occ.token), occ.role)]
            group.kinds[occ.kind] += 1
            if occ.kind == "surname":
                group.particles[occ.particle] += 1
            if occ.kind == "given" and occ.sex:
                group.sexes[occ.sex] += 1
        return groups

    def _frequent(self, folded: str) -> bool:
        given = sum(self.data.given.get(folded, (0, 0)))
        return self.data.surname.get(folded, 0) >= FREQUENT or given >= FREQUENT

    def _opposite_sex(self, a: str, b: str) -> bool:
        sa, sb = self._table_sex(a, DECISIVE_SHARE), self._table_sex(b, DECISIVE_SHARE)
        return sa is not None and sb is not None and sa != sb

    def _table_sex(self, folded: str, share: float) -> str | None:
        m, f = self.data.given.get(folded, (0, 0))
        if m + f == 0:
            return None
        if m >= share * (m + f):
            return "m"
        if f >= share * (m + f):
            return "f"
        return None

    def group_sex(self, group: Group) -> str:
        """The sex of the people who bear a given name in the note (their title, the patient's
        sex, the first name of a compound), then what the name lists say."""
        if group.sexes:
            top = group.sexes.most_common()
            if len(top) == 1 or top[0][1] > top[1][1]:
                return top[0][0]
        decided = self._table_sex(group.canonical, DECISIVE_SHARE)
        if decided:
            return decided
        return self._table_sex(group.canonical, 0.5 + 1e-9) or "any"

    def _assign(self, state: DocumentState, occurrences: list[Occurrence]) -> None:
        for group in self._group(occurrences):
            kind = group.role or self._group_kind(group)
            sex = self.group_sex(group) if kind == "given" else None
            for member in group.members:
                if group.role:
                    state.name_role_groups[(member, group.role)] = f"{group.canonical}:{group.role}"
                state.name_groups.setdefault(member, group.canonical)
            state.name_sex[group.canonical] = sex
            try:
                surrogate, level = (self._after_particle(state, group) if kind == "surname"
                                    else (None, None))
                if surrogate is None:
                    surrogate, level = self.draw_token(state, group.canonical, kind, sex)
            except SurrogateFailure:
                continue  # every rung failed: each span with this name gets the neutral word
            for member in group.members:
                if group.role:
                    state.name_roles[(member, group.role)] = surrogate
                    # the plain map (e-mails, identifiers) takes the given name's: addresses
                    # are made of given names more often than not ("alvaro.gil@")
                    if state.name_map.get(member) is None or kind == "given":
                        state.name_map[member] = surrogate
                else:
                    state.name_map[member] = surrogate
                if level.fallback:
                    state.name_fallbacks[member] = level
            if kind != "given":
                continue
            for other in group.sexes:
                if other == sex:
                    continue  # a name borne by both sexes in the note: one surrogate for each
                try:
                    alternative, _ = self.draw_token(state, group.canonical, kind, other, f"given-{other}")
                except SurrogateFailure:
                    continue
                for member in group.members:
                    state.name_map_sex[(member, other)] = alternative

    def _group_kind(self, group: Group) -> str:
        """Given name or surname, as its mentions read it; a tie by the tables ("Nombre:
        Rosario." and "Dña. Rosario", read once as each: 113,368 women are called Rosario, 4,290
        people bear it as a surname — it had become the surname "Serra")."""
        given, surname = group.kinds["given"], group.kinds["surname"]
        if given == surname:
            folded = group.canonical
            as_given = sum(self.data.given.get(folded, (0, 0)))
            return "given" if as_given > self.data.surname.get(folded, 0) else "surname"
        return "given" if given > surname else "surname"

    def _after_particle(self, state: DocumentState, group: Group) -> tuple[str | None, Level | None]:
        """A surname written after a particle in most of its mentions ("Vega" of "García de la
        Vega", "Pozo" of "Martín del Pozo"): a word the pack's surnames write after the same
        particle ("de la Torre", "del Valle"), where "de la Fuentes" or "del Larrea" read as
        made up; the usual surnames when none is safe. (None, None) for any other surname."""
        particle, count = max(
            ((p, n) for p, n in group.particles.items() if p), key=lambda pn: (pn[1], pn[0]), default=("", 0)
        )
        if not particle or count < group.particles[""]:
            return None, None
        pool = self.data.particle_surnames[particle]
        levels = [Level(pool.choose, f"surname:{particle}"), *self._chains_for("surname", None)]
        return state.draw_chain(group.canonical, levels, "surname")

    def _chains_for(self, kind: str, sex: str | None) -> list[Level]:
        key = (kind == "given", sex)
        levels = self._chains.get(key)
        if levels is None:  # the chains are the pack's: built once per kind and sex
            levels = self._chains[key] = self._chain(kind, sex)
        return levels

    def draw_token(
        self, state: DocumentState, folded: str, kind: str, sex: str | None, namespace: str = "given"
    ) -> tuple[str, Level]:
        """Fallback chains: a frequent given name of the sex -> of either sex; a frequent
        surname -> any surname of the pack. Returns the surrogate and the level used."""
        space = namespace if kind == "given" else "surname"
        return state.draw_chain(folded, self._chains_for(kind, sex), space)

    def _chain(self, kind: str, sex: str | None) -> list[Level]:
        if kind == "given":
            pool = self.data.given_pool[sex or "any"] or self.data.given_pool["f"]
            return [
                Level(pool.choose, f"given-{sex or 'any'}"),
                Level(
                    self.data.given_either.choose,
                    "given-either",
                    "any-sex",
                    "no safe given name of the person's sex: a given name of either sex",
                ),
            ]
        every = self.data.surname_all
        return [
            Level(self.data.surname_pool.choose, "surname"),
            Level(
                lambda rng: rng.choice(every),
                "surname:any",
                "anywhere",
                "no safe surname among the frequent ones: any surname of the pack",
            ),
        ]

    # --- replacing one span -------------------------------------------------------------------

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        pieces = []
        last = 0
        classified = (
            self.read(state, start, text)
            if state.text[start : start + len(text)] == text
            else self.classify(text, 0, text)
        )
        in_place = state.text[start : start + len(text)] == text
        sex = state.people_sex.get(self.given_key(classified))
        if sex is None and classified and in_place:
            votes = self.sex_evidence(state.text, start, text, label, classified, state.patient_sex)
            sex = self.decide(votes)
        # an initial may be the surrogate's own, even if it is the original's letter, where the
        # span spells a replaced name too ("J. Lasso" -> "J. Martín" for José -> Julián); an
        # initial alone must differ from the original
        spelled = any(kind not in ABBREVIATIONS for _, _, _, kind in classified)
        if (in_place and len(classified) == 1 and classified[0][3] == "given"
                and _DEVOTION_BEFORE.search(state.text, max(0, start - 8), start)
                and self._devotional_surrogate(state, classified[0][2]) != classified[0][2]):
            # "Hola M. DEL MAR" after "Mª DEL MAR": "MAR" said after "del" is the devotional end
            # it is in the full name ("DEL ROCÍO"), not a given name of its own ("DEL CARLA")
            classified = [(*classified[0][:3], "devotional")]
        for s, e, token, kind in classified:
            pieces.append(text[last:s])
            names = state.person_initials.get(start + s) if in_place else None
            pieces.append(self.replace_token(state, token, kind, sex, names, spelled))
            last = e
        pieces.append(text[last:])
        result = "".join(pieces)
        if (classified and all(kind in ABBREVIATIONS for _, _, _, kind in classified)
                and normalise(result) in state.forbidden):
            # initials taken from a surrogate name may spell an original ("M.R." of "Mireia Rius"
            # drawn as "Jordi Blasco": "J.B.", the note's other nurse; the sixteenth set written
            # blind): drawn letter by letter instead, each a letter the original did not have
            pieces, last = [], 0
            for s, e, token, kind in classified:
                pieces += [text[last:s], self.replace_token(state, token, kind, sex)]
                last = e
            result = "".join([*pieces, text[last:]])
        described = self.nickname_nouns(result, state)
        if not classified:
            user = self.user_name(state, text)
            if user is not None:
                return Surrogate(user, note="a user name: its letters drawn as a name's")
            if described != text:
                return Surrogate(described, note="a nickname's noun drawn again")
            if any(c.isnumeric() for c in text):
                # a number or a code read as a person ("Unitat mòbil: 7714 GXT" as a clinician: a
                # retrained model's reading): kept, it was released as it was; its characters
                # drawn again, as an identifier's
                level = Level(lambda rng: scramble(text, rng), "person-digits", "digits",
                              "no name token: its digits and letters drawn again")
                new, _ = state.draw_chain(text, [level], "person-digits")
                return chosen(new, level)
            return Surrogate(text, kept=True, note="no name token")
        return self.with_fallback(described, [t for _, _, t, _ in classified], state)

    def nickname_nouns(self, text: str, state: DocumentState) -> str:
        """``text`` with the noun of each "el/la de (los/las) NOUN" drawn again from the pack's
        ``nickname_nouns`` of its gender and number (guessed by its ending and article), one
        surrogate per noun in the note; ``text`` as it is without such a phrase or list."""
        lists = self.data.extra.get("nickname_nouns")
        if not lists or NICKNAME_NOUN.search(text) is None:
            return text

        def drawn(m: regex.Match[str]) -> str:
            noun = m["noun"]
            article = m.group().split()[-2].lower() if m.group().count(" ") >= 2 else ""
            if article in ("las", "la", "as", "a", "da", "das"):  # Galician "da": "de a"
                feminine = True
            elif article in ("los", "el", "os", "o", "do", "dos"):
                feminine = False
            else:
                feminine = noun.endswith(("a", "as"))
            plural = noun.endswith("s")
            key = ("feminine" if feminine else "masculine") + ("_plural" if plural else "")
            options = [w for w in lists.get(key) or () if fold(w) != fold(noun)]
            if not options:
                return m.group()
            new = state.draw("nickname-noun", noun, lambda rng: rng.choice(options), check_close=False)
            return m.group()[: m.start("noun") - m.start()] + match_case(noun, new)

        return NICKNAME_NOUN.sub(drawn, text)

    def user_name(self, state: DocumentState, text: str) -> str | None:
        """A person's user name ("vrocamora", "sgelabert": an export's ``generated_by``) as
        another, or None for anything else: its initials and the surname it ends with are
        replaced as a name's (the surname as in the note's other mentions), in lower-case
        ASCII, as user names are written. It had been released as it was ("no name token")."""
        found = _USER_NAME.fullmatch(text.strip())
        if found is None or self._common_word(found["letters"]):
            return None
        letters = found["letters"]
        # initials (three at most) and the longest surname the tables know after them, else
        # one initial before a long run ("vrocamora": v + rocamora)
        cut = next((i for i in range(min(3, len(letters) - 3) + 1) if letters[i:] in self.data.surname),
                   1 if len(letters) > 6 else 0)
        head, tail = letters[:cut], letters[cut:]
        initials = "".join(self.replace_token(state, c.upper(), "initial", None) for c in head).lower()
        surname = _ascii(self.replace_token(state, tail.capitalize(), "surname", None)).lower()
        new = initials + surname
        if not new or new == letters:
            return None
        start, end = found.span("letters")
        stripped = text.strip()
        lead = len(text) - len(text.lstrip())
        return text[:lead] + stripped[:start] + new + stripped[end:] + text[lead + len(stripped):]

    def login(self, state: DocumentState, text: str) -> str | None:
        """A login of lower-case parts joined by dots, underscores or hyphens ("ainhoa.lhe",
        "u.etxezarreta": a ticket's reporter and assignee, the nineteenth set written blind) as
        another, or None for anything else: a part that is a given name or a surname of the
        tables is replaced as the note's name (the person's surrogate where the note names them),
        a part of three letters or fewer letter by letter as initials, the rest as a user name
        (``user_name``). In lower-case ASCII, the separators kept. It had become "un dato
        personal" in a reporter's brackets and a merge log's "usuario=" alike."""
        stripped = text.strip()
        if _LOGIN.fullmatch(stripped) is None:
            return None
        parts = regex.split(r"([._-])", stripped)
        out = []
        for part in parts:
            if part in "._-" or not part:
                out.append(part)
            elif len(part) <= 3:
                out.append("".join(_ascii(self.replace_token(state, c.upper(), "initial", None)).lower()
                                   for c in part))
            elif part in self.data.given or part in self.data.surname:
                kind = "given" if part in self.data.given else "surname"
                out.append(_ascii(self.replace_token(state, part.capitalize(), kind, None)).lower())
            else:
                out.append(self.user_name(state, part) or part)
        new = "".join(out)
        if new == stripped:
            return None
        lead = len(text) - len(text.lstrip())
        return text[:lead] + new + text[lead + len(stripped):]

    def _common_word(self, word: str) -> bool:
        from ..lexicon import lexicon

        try:
            return lexicon().is_known(word, self.data.pack.language)
        except ValueError:  # no lexicon for the language
            return False

    def _devotional(self, between: str, folded: str) -> bool:
        """Is ``folded`` a name said after the words ``between`` ("del", "de los")?"""
        names = self.data.devotional.get(" ".join(fold(w) for w in between.split()))
        return names is not None and folded in {fold(n) for n in names}

    def _devotional_surrogate(self, state: DocumentState, token: str) -> str:
        """Another name of the same list ("Carmen" -> "Pilar"), the same one for every mention
        of the note; the list is found by the token itself."""
        folded = fold(token)
        names = next((n for n in self.data.devotional.values() if folded in {fold(x) for x in n}), ())
        options = sorted({n for n in names if fold(n) != folded})
        if not options:
            return token
        return match_case(token, state.rng("devotional", folded).choice(options))

    @staticmethod
    def with_fallback(text: str, tokens: list[str], state: DocumentState) -> Surrogate:
        """A span's surrogate, recording the first fallback one of its name tokens needed."""
        for token in tokens:
            level = state.name_fallbacks.get(fold(token))
            if level is not None:
                return Surrogate(text, note=level.reason, fallback=level.fallback)
        return Surrogate(text)

    def replace_token(
        self,
        state: DocumentState,
        token: str,
        kind: str,
        sex: str | None,
        names: tuple[tuple[str, str, str | None], ...] | None = None,
        spelled: bool = False,
    ) -> str:
        folded = fold(token)
        if names:
            # a name word by its surrogate's initial, an initial ("F." of "F. A. Ferrer") by the
            # letter it becomes
            initials = "".join(
                self.replace_token(state, n, "initial", None) if k == "initial"
                else fold(self.known(state, n, k, s) or "")[:1]
                for n, k, s in names
            ).upper()
            if len(initials) == len(names) and (spelled or initials != folded.upper()):
                return match_case(token, initials) if len(token) > 1 or token.isupper() else initials.lower()
        if kind == "devotional":
            return self._devotional_surrogate(state, token)
        if kind == "initials":
            return "".join(self.replace_token(state, letter, "initial", None) for letter in token)
        if kind == "initial":
            levels = [
                Level(lambda rng: rng.choice(INITIALS), "initial", check_close=False),
                Level(
                    lambda rng: rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                    "initial:any",
                    "anywhere",
                    "no safe common initial: any letter",
                    check_close=False,
                ),
            ]
            new, level = state.draw_chain(folded, levels, "initial")
            if level.fallback:
                state.name_fallbacks[folded] = level
            return match_case(token, new) if token.isupper() else new.lower()
        if kind == "given" and _MARIA_WORD.fullmatch(token):
            return token  # "Mª" stands for María, the commonest name: "Mª DEL MAR" -> "Mª DEL ROCÍO"
        surrogate = self.known(state, folded, kind, sex)
        if surrogate is None:  # a name prepare() did not see (e.g. a span of another label)
            if sex is None and kind == "given":
                sex = self._table_sex(folded, 0.5 + 1e-9)
            surrogate, level = self.draw_token(state, folded, kind, sex)
            state.name_map[folded] = surrogate
            if level.fallback:
                state.name_fallbacks[folded] = level
        return match_case(token, surrogate)

    @staticmethod
    def known(state: DocumentState, folded: str, kind: str, sex: str | None) -> str | None:
        """The surrogate drawn in prepare() for a name token of this kind and person's sex; a
        given name said alone ("José acude sola" after "Mª José Ruiz") takes the one its person
        drew when the note holds only one."""
        surrogate = state.name_map_sex.get((folded, sex)) if kind == "given" and sex else None
        if surrogate is None and kind == "given" and sex is None:
            drawn = {state.name_map_sex.get((folded, s)) for s in ("m", "f")} - {None}
            surrogate = drawn.pop() if len(drawn) == 1 else None
        return surrogate or state.name_roles.get((folded, kind)) or state.name_map.get(folded)

    def neutral_category(self, text: str, label: str) -> str:
        return "person"

    def entity(self, text: str, start: int, state: DocumentState) -> frozenset[str]:
        """The name groups a span mentions: spans whose groups nest are one person (for tags)."""
        groups, roles = state.name_groups, state.name_role_groups
        return frozenset(
            roles.get((fold(t), k)) or groups.get(fold(t), fold(t))
            for _, _, t, k in self.read(state, start, text)
            if k not in NOT_DRAWN
        )
