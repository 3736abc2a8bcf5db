"""Identifiers: same format, new value, valid check characters where the format has them.

Digits become digits and letters letters of the same case; separators, spaces and length stay.
When the original is a valid DNI/NIF, NIE, Spanish social security number (NSS), IBAN (with the
Spanish account check digits inside) or payment card, the surrogate is made valid too, so that
downstream validation behaves as on the original and nobody can tell real from surrogate by a
failing checksum. The NIE's leading X/Y/Z is kept (it is format, not identity).

A professional's collegiate number ("NºCol: 28 28 57810", "colegiado 4608123") starts with the
INE code of its college's province (the postal prefix): the surrogate starts with a real province
code — the province the note's towns went to when the note has one, else any — repeated where the
original repeats it ("28 28" -> "41 41"), the rest redrawn, spaces and grouping kept. A number
grouped as a social security number ("28 12345678 40": province, number, two check digits) gets a
real province and valid check digits even when the original's do not check.

An Austrian social insurance number (VNR, "1234 150372": serial, check digit, birth date DDMMYY)
carries the patient's birth date: the surrogate's date part is that date moved by the note's own
date shift — the same one every date of the note gets, so it agrees with the shifted
"Geburtsdatum" — with a new serial and a valid check digit.

Words written inside an identifier span are kept: "Residente de 3° año" (filed as an employee
id) is a job title around a number, and scrambled letters ("Qjhykdjkv lx 9° uey") showed the
reader what was replaced. Only codes change: digits, and letters of a token that has digits or
is written in capitals ("NHC-00431/B", "ab12").
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import regex
from stdnum import iban, luhn
from stdnum.at import vnr as at_vnr
from stdnum.es import ccc, cif, dni, nie

from ..memo import Memo
from ..validators import VALIDATORS, es_nss
from .base import MAX_ATTEMPTS, DocumentState, Level, Surrogate, chosen, fold, match_case, scramble
from .data import SurrogateData, display
from .dates import full_year

if TYPE_CHECKING:
    from .dates import DateGenerator
    from .descriptions import DescriptionGenerator

#: No checksummed format is longer (an IBAN has at most 34 characters).
LONGEST_CHECKED = 34
#: A token of letters and digits: a code when it has a digit or no lower-case letter, a word else.
_TOKEN = regex.compile(r"[^\W_]+")
#: Ordinal marks ("5º", "3ª"): letters to Unicode, format to a reader; never replaced.
_ORDINAL_MARKS = "ºª"
#: Labels of professional licence numbers: a Spanish collegiate number starts with the INE code
#: of its college's province.
LICENCE_LABELS = frozenset({"ID_TITULACION_PERSONAL_SANITARIO"})
#: A social security number written in its groups: province, number, check ("28 12345678 40").
_NSS_GROUPS = regex.compile(r"(\d{2})[ ./-](\d{7,8})[ ./-](\d{2})")


def is_word(token: str) -> bool:
    """A token written as a word ("Residente", "año", "nº"), not as a code ("B", "NHC", "ab12")."""
    return len(token) > 1 and not any(c.isnumeric() for c in token) and any(c.islower() for c in token)


def kept_tokens(text: str) -> list[tuple[int, int]]:
    """The tokens of an identifier span that stay: its words, and — in a span that has words —
    its capitals without digits too ("MIR 3º año": a job title around a number)."""
    tokens = [(m.start(), m.end(), m[0]) for m in _TOKEN.finditer(text)]
    wordy = any(is_word(t) for _, _, t in tokens)
    return [
        (s, e) for s, e, t in tokens if is_word(t) or (wordy and not any(c.isnumeric() for c in t))
    ]


def code_positions(text: str) -> list[int]:
    """Where the code characters of an identifier are: every letter or digit outside kept words."""
    kept = {i for s, e in kept_tokens(text) for i in range(s, e)}
    return [i for i, c in enumerate(text) if c.isalnum() and i not in kept and c not in _ORDINAL_MARKS]


#: Given a word kept in an identifier and the RNG, its replacement, or None to keep it.
WordSwap = Callable[[str, random.Random], "str | None"]


def scramble_codes(text: str, rng: random.Random, swap: WordSwap | None = None) -> str:
    """``scramble`` on the code characters only; words and ordinal marks stay, but ``swap``
    may replace one (a name or a town of the note written inside the identifier)."""
    out = list(scramble(text, rng))
    for start, end in kept_tokens(text):
        word = text[start:end]
        new = swap(word, rng) if swap else None
        out[start:end] = match_case(word, new) if new else word
    for i, char in enumerate(text):
        if char in _ORDINAL_MARKS:
            out[i] = char
    return "".join(out)


#: The label of plates and vehicles' serials.
VEHICLE_LABEL = "IDENTIF_VEHICULOS_NRSERIE_PLACAS"
#: A Spanish plate since 2000: four digits, three consonants (no vowel, Ñ or Q).
_PLATE_LETTERS = "BCDFGHJKLMNPRSTVWXYZ"
_SPANISH_PLATE = re.compile(rf"(\d{{4}})([ -]?)([{_PLATE_LETTERS}]{{3}})")


#: An aircraft's registration: its country's letters, a hyphen, three or four letters ("EC-NRB").
_AIRCRAFT = re.compile(r"([A-Z]{1,2})-([A-Z]{3,4})")


def _new_registration(text: str, registration: re.Match[str], rng: random.Random) -> str:
    """Another registration of the same country: the prefix kept (it names a state, no one)."""
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in registration[2])
    lead = len(text) - len(text.lstrip())
    return text[:lead] + registration[1] + "-" + letters + text[lead + len(registration[0]):]


def _new_plate(text: str, plate: re.Match[str], rng: random.Random) -> str:
    """Another plate of the same format: four digits, the separator, three consonants."""
    digits = "".join(rng.choice("0123456789") for _ in range(4))
    letters = "".join(rng.choice(_PLATE_LETTERS) for _ in range(3))
    lead = len(text) - len(text.lstrip())
    return text[:lead] + digits + plate[2] + letters + text[lead + len(plate[0]):]


def kind_of(compact: str) -> str | None:
    """The checksummed format an identifier follows, if any. Remembered (five validators a
    call; a pure function's results, bounded)."""
    if len(compact) > LONGEST_CHECKED:
        return None
    if compact not in _KINDS:
        return _KINDS.remember(compact, _kind_of(compact))
    return _KINDS[compact]


_KINDS: Memo[str, str | None] = Memo(1 << 14)


def _kind_of(compact: str) -> str | None:
    if VALIDATORS["es.dni"](compact):
        return "dni"
    if VALIDATORS["es.nie"](compact):
        return "nie"
    if VALIDATORS["es.cif"](compact):
        return "cif"
    if VALIDATORS["iban"](compact):
        return "iban"
    if es_nss(compact):
        return "nss"
    if VALIDATORS["payment_card"](compact) and len(compact) >= 15:
        return "card"
    return None


def with_check(text: str, kind: str | None, rng: random.Random, swap: WordSwap | None = None) -> str:
    """A format-preserving scramble of ``text``'s codes whose check characters are valid for
    ``kind``; words are kept (see ``scramble_codes``)."""
    if kind is None:
        return scramble_codes(text, rng, swap)
    positions = [i for i, c in enumerate(text) if c.isalnum()]
    original = "".join(text[i] for i in positions).upper()
    out = list(scramble(text, rng))
    compact = [out[i].upper() for i in positions]
    if kind in ("nie", "cif"):  # the letter says the kind of person or organisation
        compact[0] = original[0]
    if kind == "iban":
        compact[0:2] = list(original[0:2])
    value = "".join(compact)
    if kind == "dni":
        value = value[:8] + dni.calc_check_digit(value[:8])
    elif kind == "nie":
        value = value[:8] + nie.calc_check_digit(value[:8])
    elif kind == "cif":  # the check is a digit or a letter by the organisation's kind: as written
        digit, letter = cif.calc_check_digits(value[:8])
        value = value[:8] + (letter if original[8].isalpha() else digit)
    elif kind == "nss":
        province, number = int(value[:2]), int(value[2:10])
        base = number + province * 10_000_000 if number < 10_000_000 else int(value[:10])
        value = value[:10] + f"{base % 97:02d}"
    elif kind == "card":
        value = value[:-1] + luhn.calc_check_digit(value[:-1])
    elif kind == "iban":
        bban = value[4:]
        if value.startswith("ES") and len(bban) == 20:
            bban = bban[:8] + ccc.calc_check_digits(bban[:8] + "00" + bban[10:]) + bban[10:]
        value = value[:2] + iban.calc_check_digits(value[:2] + "00" + bban) + bban
    for i, char in zip(positions, value, strict=True):
        out[i] = char.lower() if text[i].islower() else char
    return "".join(out)


def vnr_birth_date(compact: str) -> dt.date | None:
    """The birth date inside an Austrian VNR (digits 5–10, DDMMYY), None when it is not one.

    Two-digit years are read as the date generator reads them (``dates.full_year``: up to 30 is
    20YY), never against today's date: the output must not depend on the day it runs."""
    if len(compact) != 10 or not compact.isdigit() or not at_vnr.is_valid(compact):
        return None
    day, month = int(compact[4:6]), int(compact[6:8])
    year = full_year(compact[8:10])
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def vnr_with_date(text: str, born: dt.date, rng: random.Random) -> str:
    """A VNR in ``text``'s layout: a new serial (never 0 first), ``born`` as DDMMYY and the check
    digit stdnum computes; a serial whose check would be 10 (never issued) is redrawn."""
    tail = born.strftime("%d%m%y")
    while True:
        serial = str(rng.randint(100, 999))
        check = at_vnr.calc_check_digit(serial + "0" + tail)
        if len(check) == 1:
            break
    digits = iter(serial + check + tail)
    return "".join(next(digits) if c.isdigit() else c for c in text)


def province_digits(text: str, codes: list[str], province: str | None, rng: random.Random) -> str:
    """``text`` with its digits redrawn, the first two (a province's INE code) set to
    ``province`` (or a real code drawn from ``codes``), and the next two too where the original
    repeats its code ("28 28 57810"); everything but digits kept."""
    positions = [i for i, c in enumerate(text) if c in "0123456789"]
    original = "".join(text[i] for i in positions)
    code = province or rng.choice(codes)
    digits = [rng.choice("0123456789") for _ in positions]
    digits[0:2] = code
    if len(original) >= 4 and original[2:4] == original[:2]:
        digits[2:4] = code
    out = list(text)
    for i, digit in zip(positions, digits, strict=True):
        out[i] = digit
    return "".join(out)


def nss_in_groups(text: str, province: str | None, codes: list[str], rng: random.Random) -> str:
    """A social security number in the groups of ``text`` ("28 12345678 40"): a real province
    code (``province``, else one of ``codes``), a new number and valid check digits."""
    match = _NSS_GROUPS.fullmatch(text.strip())
    assert match is not None
    code = province or rng.choice(codes)
    length = len(match[2])
    number = "".join(rng.choice("0123456789") for _ in range(length))
    base = int(code) * 10_000_000 + int(number) if int(number) < 10_000_000 else int(code + number)
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    stripped = text.strip()
    first, second = stripped[2], stripped[2 + 1 + length]
    return f"{lead}{code}{first}{number}{second}{base % 97:02d}{trail}"


class IdentifierGenerator:
    """Record, insurance, licence, employee and other numbers; vehicle and device ids."""

    name = "identifiers"
    phase = 2

    def __init__(self, data: SurrogateData, descriptions: DescriptionGenerator | None = None,
                 dates: DateGenerator | None = None) -> None:
        self.data = data
        self.descriptions = descriptions
        #: the note's date shift, for the birth date inside an Austrian VNR — read only where
        #: Austria is one of the pack's countries: a Spanish ten-digit record number passes the
        #: VNR check by chance one time in eleven, and is no birth date
        self.dates = dates if "AT" in data.national_countries else None

    def neutral_category(self, text: str, label: str) -> str:
        return "identifier"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: valid check characters -> a plain format-preserving scramble."""
        compact = "".join(c for c in text if c.isalnum()).upper()
        kind = kind_of(compact) if compact.isascii() else None
        if not any(c.isalnum() for c in text):
            return Surrogate(text, kept=True, note="no identifier characters")
        registration = _AIRCRAFT.fullmatch(text.strip()) if label == VEHICLE_LABEL else None
        if registration is not None:  # "EC-NRB", a medical helicopter's: letters only, no words
            new, level = state.draw_chain(
                text, [Level(lambda rng: _new_registration(text, registration, rng), f"id:{label}")],
                f"id:{label}")
            return chosen(new, level, "aircraft registration")
        people = getattr(self.descriptions, "people", None)
        if not any(c.isdigit() for c in text) and people is not None and " " not in text.strip() \
                and (login := people.login(state, text) or people.user_name(state, text)) is not None:
            # a user's login ("ainhoa.lhe", "jlsaez"): another, made of the note's surrogate
            # names where it spells them (it had become "un dato personal")
            return Surrogate(login, note="a login: its names and initials replaced")
        if not any(c.isdigit() for c in text):
            # Words filed as an identifier ("casada", "raza negra" under
            # ID_SUJETO_ASISTENCIA): scrambled letters would turn prose into gibberish and a
            # mask gives the release away; the span is a description and gets what it is
            if self.descriptions is not None:
                return self.descriptions.generate(text, label, start, state)
            return Surrogate(f"[{label}]", note="words, masked")
        # one edit from the original is only a leak when the code is longer than one character
        # ("Residente de 3° año" -> "Residente de 7° año" is a new value, not a near copy)
        check = len(code_positions(text)) > 1

        def swap(word: str, rng: random.Random) -> str | None:
            """A name of the note takes its surrogate; a town ("Colegiado 2828 de Madrid")
            another town: kept, it would narrow the identifier down."""
            if fold(word) in state.name_map:
                return state.name_map[fold(word)]
            if word[:1].isupper() and self.data.find_town(word):
                towns = (display(self.data.town_pool_all.choose(rng)) for _ in range(MAX_ATTEMPTS))
                return next((t for t in towns if fold(t) != fold(word)), None)
            return None

        levels = [Level(lambda rng: with_check(text, kind, rng, swap), f"id:{label}", check_close=check)]
        plate = _SPANISH_PLATE.fullmatch(text.strip()) if label == VEHICLE_LABEL else None
        if plate is not None:  # "4821 KZP": consonants only, as Spain's plates ("3860 IWC" was none)
            levels.insert(0, Level(lambda rng: _new_plate(text, plate, rng), f"id:{label}",
                                   check_close=check))
        born = vnr_birth_date(compact) if self.dates is not None and compact.isascii() else None
        if born is not None:
            moved = born + self.dates.shift(state)  # type: ignore[union-attr]
            vnr = Level(lambda rng: vnr_with_date(text, moved, rng), f"id:{label}", check_close=check)
            redrawn = Level(levels[0].make, f"id:{label}", "digits",
                            "no safe VNR with the shifted birth date: digits redrawn", check)
            new, level = state.draw_chain(text, [vnr, redrawn], f"id:{label}")
            return chosen(new, level, "valid at.vnr, birth date shifted")
        special = self.province_levels(text, label, state, check)
        if special:
            levels = [*special, Level(levels[0].make, f"id:{label}", "digits",
                                      "no safe number of a real province: digits redrawn", check)]
        if kind is not None:
            levels.append(
                Level(
                    lambda rng: scramble_codes(text, rng, swap),
                    f"id:{label}:plain",
                    "no-check",
                    "no safe value with valid check characters: a plain format-preserving one",
                    check,
                )
            )
        new, level = state.draw_chain(text, levels, f"id:{label}")
        note = "valid nss" if special and kind is None and _NSS_GROUPS.fullmatch(text.strip()) else ""
        return chosen(new, level, f"valid {kind}" if kind else note)

    def province_levels(self, text: str, label: str, state: DocumentState, check: bool) -> list[Level]:
        """The chain of a number that starts with a province's code: a collegiate number (its
        college's province) or a social security number in its groups. First the province the
        note's towns went to (for a collegiate number) or its own province's (for an NSS),
        then any real province."""
        if not text.isascii() or any(c.isalpha() for c in text):
            return []
        codes = sorted(self.data.code_province)
        digits = "".join(c for c in text if c.isdigit())
        province = self.data.code_province.get(digits[:2])
        if label not in LICENCE_LABELS and _NSS_GROUPS.fullmatch(text.strip()):
            # its province, or the one the note's towns of it went to; a code that is no
            # province's ("71"): any real one
            mapped = state.province_map.get(province, province) if province else None
            own = self.data.province_code.get(mapped) if mapped else None
            return [
                Level(lambda rng: nss_in_groups(text, own, codes, rng), f"nss:{label}", check_close=check),
                Level(lambda rng: nss_in_groups(text, None, codes, rng), f"nss:{label}:any", "anywhere",
                      "no safe number of its province: a social security number of another", check),
            ]
        if label not in LICENCE_LABELS or len(digits) < 4 or province is None:
            return []
        target = state.province_map.get(province) or next(iter(state.province_map.values()), None)
        code = self.data.province_code.get(target) if target else None
        levels = []
        if code is not None:
            levels.append(Level(lambda rng: province_digits(text, codes, code, rng), f"college:{label}",
                                check_close=check))
        levels.append(Level(lambda rng: province_digits(text, codes, None, rng), f"college:{label}:any",
                            "anywhere" if code is not None else None,
                            "no safe number of the note's province: another province's college"
                            if code is not None else "", check))
        return levels
