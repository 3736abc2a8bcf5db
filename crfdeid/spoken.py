"""Numbers and addresses read aloud: a dictation's identifiers, found and replaced in words.

A voice recogniser left unrevised writes what the clinician says: "historia clínica número
cuatro cinco siete dos cero uno nueve", "teléfono nueve cinco tres cincuenta y cinco cero ocho
doce", "el correo mjortega arroba correo guion ejemplo punto es". No digit, no "@": the rules
and the tagger, which look for the written forms, left every identifier of such a transcript in
clear (the fourteenth set written blind). This step reads a run of spoken digits, tens and
spelled letters as the characters it stands for, and labels it by the word before it
("colegiado", "teléfono", "código postal", "matrícula"…); the pseudonymiser draws the surrogate
of the characters (``read``) and says it back in words (``speak``), so a dictated phone stays a
dictated phone.

Spanish (the ``es`` pack) only: the words are the language's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .merge import LabelledStep, with_found
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "spoken"

_DIGITS = {"cero": "0", "uno": "1", "una": "1", "un": "1", "dos": "2", "tres": "3", "cuatro": "4",
           "cinco": "5", "seis": "6", "siete": "7", "ocho": "8", "nueve": "9"}
_TEENS = {"diez": "10", "once": "11", "doce": "12", "trece": "13", "catorce": "14", "quince": "15",
          "dieciséis": "16", "dieciseis": "16", "diecisiete": "17", "dieciocho": "18", "diecinueve": "19",
          "veinte": "20", "veintiuno": "21", "veintiún": "21", "veintidós": "22", "veintidos": "22",
          "veintitrés": "23", "veintitres": "23", "veinticuatro": "24", "veinticinco": "25",
          "veintiséis": "26", "veintiseis": "26", "veintisiete": "27", "veintiocho": "28",
          "veintinueve": "29"}
_TENS = {"treinta": "3", "cuarenta": "4", "cincuenta": "5", "sesenta": "6", "setenta": "7",
         "ochenta": "8", "noventa": "9"}
#: Spelled letters that are no Spanish word as well ("de", "a", "e" are): taken anywhere in a run.
_LETTERS = {"be": "B", "ce": "C", "efe": "F", "ge": "G", "hache": "H", "jota": "J", "ka": "K",
            "ele": "L", "eme": "M", "ene": "N", "eñe": "Ñ", "pe": "P", "cu": "Q", "erre": "R",
            "ese": "S", "te": "T", "uve": "V", "equis": "X", "ye": "Y", "zeta": "Z"}
#: Every letter's name, after "letra" ("letra ene", "letra a").
_ANY_LETTER = {**_LETTERS, "a": "A", "de": "D", "e": "E", "i": "I", "o": "O", "u": "U"}
_SAY_DIGIT = {v: k for k, v in _DIGITS.items() if k not in ("una", "un")}
_SAY_LETTER = {v: k for k, v in _ANY_LETTER.items()}
_SAY_LETTER.update({"W": "uve doble"})
#: An e-mail address's signs, spoken.
_SIGNS = {"arroba": "@", "punto": ".", "guion": "-", "guión": "-"}
_SAY_SIGN = {"@": "arroba", ".": "punto", "-": "guion", "_": "guion bajo"}

_WORD = regex.compile(r"[\p{L}\p{N}]+")
#: A spoken e-mail address: a name, "arroba", a domain of words parted by "punto" or "guion".
_EMAIL = regex.compile(
    r"(?i)(?<![\p{L}\p{N}])[\p{L}\p{N}._]+(?:\ (?:punto|guion|guión)\ [\p{L}\p{N}]+)*\ arroba"
    r"\ [\p{L}\p{N}]+(?:\ (?:punto|guion|guión|guion\ bajo)\ [\p{L}\p{N}]+)+(?![\p{L}\p{N}])")
#: The word before a run that says what it is, and the run's category (the first that matches,
#: within the 48 characters before the run on its line).
_CONTEXT = [
    (regex.compile(r"(?i)\bfax\b"), "fax"),
    (regex.compile(r"(?i)\b(?:tel[eé]fono|m[oó]vil|tfno|tlf|extensi[oó]n|llam(?:ar|e)\ al)\b"), "phone"),
    (regex.compile(r"(?i)\bcolegiad[oa]\b"), "id_licence"),
    (regex.compile(r"(?i)\bc[oó]digo\ postal\b"), "postal_code"),
    (regex.compile(r"(?i)\bmatr[ií]cula\b"), "vehicle"),
    (regex.compile(r"(?i)\b(?:nuhsa|nuss|tarjeta|cip|tsi|tis|seguridad\ social|p[oó]liza)\b"),
     "id_insurance"),
    (regex.compile(r"(?i)\b(?:historia|nhc|dni|nie|nif|pasaporte|documento)\b"), "id_patient"),
    (regex.compile(r"(?i)\b(?:episodio|cita|ingreso|petici[oó]n|solicitud)\b"), "id_case"),
    (regex.compile(r"(?i)\b(?:lote|serie)\b"), "device"),
]
CONTEXT_REACH = 48
#: Digits a run needs to be taken without a word before it that says what it is, and with one.
MIN_DIGITS, MIN_DIGITS_NAMED = 5, 4

#: Every category the step can give a span.
CATEGORIES = ("phone", "fax", "id_licence", "postal_code", "vehicle", "id_insurance", "id_patient",
              "id_case", "device", "id_other", "email")


def read(text: str) -> str | None:
    """The characters a spoken identifier stands for ("dos cinco letra ene" -> "25N", "mjortega
    arroba correo guion ejemplo punto es" -> "mjortega@correo-ejemplo.es"); None when ``text``
    is not one (any word that is no number, letter or sign, or no digit and no "@")."""
    words = text.split()
    if "arroba" in (w.lower() for w in words):
        out, i = [], 0
        while i < len(words):
            word = words[i].lower()
            if word == "guion" and i + 1 < len(words) and words[i + 1].lower() == "bajo":
                out.append("_")
                i += 2
                continue
            out.append(_SIGNS.get(word, words[i]))
            i += 1
        return "".join(out) if "@" in out else None
    lowered = [w.lower() for w in words]
    out, i = [], 0
    while i < len(lowered):
        step = _step(lowered, i)
        if step is None:
            return None
        value, i = step
        out.append(value)
    characters = "".join(out)
    return characters if any(c.isdigit() for c in characters) else None


def _step(words: Sequence[str], i: int) -> tuple[str, int] | None:
    """What the (lower-case) words from ``i`` on say first — a digit, a number of two digits
    ("doce", "cincuenta y cinco"), a letter ("be", "letra ene") — and the index after it; None
    for a word that says none."""
    word = words[i]
    if word in _DIGITS:
        return _DIGITS[word], i + 1
    if word in _TEENS:
        return _TEENS[word], i + 1
    if word in _TENS:
        if i + 2 < len(words) and words[i + 1] == "y" and words[i + 2] in _DIGITS:
            return _TENS[word] + _DIGITS[words[i + 2]], i + 3
        return _TENS[word] + "0", i + 1
    if word == "letra" and i + 1 < len(words) and words[i + 1] in _ANY_LETTER:
        return _ANY_LETTER[words[i + 1]], i + 2
    if word in _LETTERS:
        return _LETTERS[word], i + 1
    return None


def speak(characters: str, spoken: str = "") -> str:
    """A surrogate's characters said as the dictation says them: a digit or a letter at a time
    (a letter as "letra ene" when the original ``spoken`` said it so, a vowel always); an e-mail
    address's words as they are, its signs by name."""
    if "@" in characters:
        pieces = regex.split(r"([@._-])", characters)
        return " ".join(_SAY_SIGN.get(p, p) for p in pieces if p)
    letter = "letra " if regex.search(r"(?i)\bletra\b", spoken) else ""
    words = []
    for c in characters:
        if c.isdigit():
            words.append(_SAY_DIGIT[c])
        elif c.isalpha():
            name = _SAY_LETTER.get(c.upper(), c.lower())
            # a vowel's name or "de" is a word of the sentence too: "letra u", as one dictates it
            words.append((letter or ("" if name in _LETTERS else "letra ")) + name)
    return " ".join(words)


def _runs(text: str) -> Iterable[tuple[int, int, int, bool]]:
    """Each run of spoken digits and letters (its words one space or tab apart): start, end, its
    digits, whether it has a letter."""
    words = list(_WORD.finditer(text))
    lowered = [w.group().lower() for w in words]
    i = 0
    while i < len(words):
        start = j = i
        digits, letters, end = 0, False, -1
        while j < len(words):
            if j > start and text[words[j - 1].end():words[j].start()] not in (" ", "\t"):
                break
            step = _step(lowered, j)
            if step is None:
                break
            value, j = step
            digits += sum(c.isdigit() for c in value)
            letters = letters or any(c.isalpha() for c in value)
            end = j - 1
        if end >= start and digits:
            # a run starts and ends at a digit or a letter named as one, never at "un"/"una"
            first = start
            while first < end and lowered[first] in ("un", "una"):
                first += 1
            yield words[first].start(), words[end].end(), digits, letters
        i = max(j, i + 1)


@dataclass(frozen=True)
class SpokenNumbers(LabelledStep):
    """The completion step: the scheme's label of each category a spoken run can be."""

    @classmethod
    def for_language(cls, language: str | None, labels: Mapping[str, str | None]) -> SpokenNumbers | None:
        """The step for a pack of ``language``: Spanish only (the words are the language's)."""
        return cls.for_scheme(labels) if language == "es" else None

    def spans(self, text: str) -> list[Span]:
        """The spoken identifiers of ``text``, each under its category's label."""
        found: list[Span] = []
        lowered = text.lower()
        if "arroba" in lowered:
            for m in _EMAIL.finditer(text):
                label = self.labels.get("email")
                if label is not None:
                    found.append(Span(m.start(), m.end(), label, source=SOURCE))
        if not any(w in lowered for w in ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete",
                                          "ocho", "nueve")):
            return found
        taken = [(s.start, s.end) for s in found]
        for start, end, digits, letters in _runs(text):
            if any(a < end and start < b for a, b in taken):
                continue
            line_start = text.rfind("\n", 0, start) + 1
            before = text[max(line_start, start - CONTEXT_REACH):start]
            category = next((c for pattern, c in _CONTEXT if pattern.search(before)), None)
            if digits < (MIN_DIGITS_NAMED if category is not None else MIN_DIGITS):
                continue
            if category is None and not letters and digits < MIN_DIGITS + 1:
                continue  # five digits and no word for them: a number in the prose, likely
            label = self.labels.get(category or "id_other")
            if label is not None:
                found.append(Span(start, end, label, source=SOURCE))
        return sorted(found, key=lambda s: s.start)


def with_spoken_numbers(text: str, spans: Iterable[Span], step: SpokenNumbers | None) -> list[Span]:
    """``spans`` with the spoken identifiers ``step`` finds; a detected span overlapping one gives way."""
    spans = list(spans)
    if step is None:
        return spans
    return with_found(spans, step.spans(text))
