"""Identifiers: same format, new value, valid check characters where the format has them.

Digits become digits and letters letters of the same case; separators, spaces and length stay.
When the original is a valid DNI/NIF, NIE, Spanish social security number (NSS), IBAN (with the
Spanish account check digits inside) or payment card, the surrogate is made valid too, so that
downstream validation behaves as on the original and nobody can tell real from surrogate by a
failing checksum. The NIE's leading X/Y/Z is kept (it is format, not identity).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from stdnum import iban, luhn
from stdnum.es import ccc, dni, nie

from ..validators import VALIDATORS, es_nss
from .base import DocumentState, Level, Surrogate, chosen, scramble
from .data import SurrogateData

if TYPE_CHECKING:
    from .descriptions import DescriptionGenerator

#: No checksummed format is longer (an IBAN has at most 34 characters).
LONGEST_CHECKED = 34


def kind_of(compact: str) -> str | None:
    """The checksummed format an identifier follows, if any."""
    if len(compact) > LONGEST_CHECKED:
        return None
    if VALIDATORS["es.dni"](compact):
        return "dni"
    if VALIDATORS["es.nie"](compact):
        return "nie"
    if VALIDATORS["iban"](compact):
        return "iban"
    if es_nss(compact):
        return "nss"
    if VALIDATORS["payment_card"](compact) and len(compact) >= 15:
        return "card"
    return None


def with_check(text: str, kind: str | None, rng: random.Random) -> str:
    """A format-preserving scramble of ``text`` whose check characters are valid for ``kind``."""
    positions = [i for i, c in enumerate(text) if c.isalnum()]
    original = "".join(text[i] for i in positions).upper()
    out = list(scramble(text, rng))
    compact = [out[i].upper() for i in positions]
    if kind == "nie":
        compact[0] = original[0]
    if kind == "iban":
        compact[0:2] = list(original[0:2])
    value = "".join(compact)
    if kind == "dni":
        value = value[:8] + dni.calc_check_digit(value[:8])
    elif kind == "nie":
        value = value[:8] + nie.calc_check_digit(value[:8])
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


class IdentifierGenerator:
    """Record, insurance, licence, employee and other numbers; vehicle and device ids."""

    name = "identifiers"
    phase = 2

    def __init__(self, data: SurrogateData, descriptions: DescriptionGenerator | None = None) -> None:
        self.data = data
        self.descriptions = descriptions

    def neutral_category(self, text: str, label: str) -> str:
        return "identifier"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: valid check characters -> a plain format-preserving scramble."""
        compact = "".join(c for c in text if c.isalnum()).upper()
        kind = kind_of(compact) if compact.isascii() else None
        if not any(c.isalnum() for c in text):
            return Surrogate(text, kept=True, note="no identifier characters")
        if not any(c.isdigit() for c in text):
            # Words filed as an identifier ("casada", "raza negra" under
            # ID_SUJETO_ASISTENCIA): scrambled letters would turn prose into gibberish and a
            # mask gives the release away; the span is a description and gets what it is
            if self.descriptions is not None:
                return self.descriptions.generate(text, label, start, state)
            return Surrogate(f"[{label}]", note="words, masked")
        check = len(compact) > 1
        levels = [Level(lambda rng: with_check(text, kind, rng), f"id:{label}", check_close=check)]
        if kind is not None:
            levels.append(
                Level(
                    lambda rng: scramble(text, rng),
                    f"id:{label}:plain",
                    "no-check",
                    "no safe value with valid check characters: a plain format-preserving one",
                    check,
                )
            )
        new, level = state.draw_chain(text, levels, f"id:{label}")
        return chosen(new, level, f"valid {kind}" if kind else "")
