"""Checksum validators that rules refer to by registered name (``validator: es.dni``).

A validator takes the matched PHI text and answers True or False; it never raises, whatever it
is given (None, '€', an emoji, an object), because a crashing validator would stop a batch.
Separators people type inside identifiers (spaces, dots, dashes, slashes) are removed first.
The checks are python-stdnum's, except the Spanish social security number, the German health
insurance number (KVNR) and the German postal code, which stdnum lacks.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from stdnum import iban, imei, luhn
from stdnum.at import postleitzahl as at_postleitzahl
from stdnum.at import vnr as at_vnr
from stdnum.ch import ssn as ch_ssn
from stdnum.es import ccc, cif, dni, nie, nif, postal_code

Validator = Callable[[object], bool]

_SEPARATORS = str.maketrans("", "", " \t.-/\u00a0")


def _compact(value: object) -> str | None:
    """The value without separators, or None when it is not a non-empty string."""
    if not isinstance(value, str):
        return None
    compact = value.translate(_SEPARATORS).upper()
    return compact or None


def _stdnum(check: Callable[[str], bool]) -> Validator:
    """Wrap a python-stdnum ``is_valid`` so that junk input is a clean False."""
    def validate(value: object) -> bool:
        compact = _compact(value)
        if compact is None:
            return False
        try:
            return bool(check(compact))
        except Exception:  # stdnum promises no exception from is_valid; belt and braces
            return False
    validate.__doc__ = check.__doc__
    return validate


def es_nss(value: object) -> bool:
    """Spanish social security number (NSS/NASS): 12 digits, the last two a mod-97 check.

    Province PP, number N (8 digits), control CC: CC = (PP·10⁷ + N) mod 97 when N < 10⁷,
    else int(PP ‖ N) mod 97 — the Tesorería General de la Seguridad Social's rule.
    """
    compact = _compact(value)
    if compact is None or len(compact) != 12 or not compact.isascii() or not compact.isdigit():
        return False
    province, number, control = int(compact[:2]), int(compact[2:10]), int(compact[10:])
    base = number + province * 10_000_000 if number < 10_000_000 else int(compact[:10])
    return base % 97 == control


def es_postal_code(value: object) -> bool:
    """A Spanish postal code (province 01–52), also with the "E-" country prefix of addresses."""
    compact = _compact(value)
    if compact is not None and compact.startswith("E"):
        compact = compact[1:]
    return compact is not None and len(compact) == 5 and compact.isascii() and postal_code.is_valid(compact)


def de_kvnr(value: object) -> bool:
    """German health insurance number (Krankenversichertennummer, the unchangeable part): a
    capital letter and nine digits, the last a check digit. The letter becomes its two-digit
    position in the alphabet (A = 01 … Z = 26); those two digits and the next eight are weighted
    1, 2, 1, 2…; a product above 9 counts as the sum of its digits; the total modulo 10 is the
    check digit (GKV-Spitzenverband, "Richtlinien … Krankenversichertennummer", Anlage 1).
    A123456780 is valid."""
    compact = _compact(value)
    if (compact is None or len(compact) != 10 or not compact.isascii() or not compact[0].isalpha()
            or not compact[1:].isdigit()):
        return False
    digits = f"{ord(compact[0]) - ord('A') + 1:02d}" + compact[1:9]
    total = 0
    for i, digit in enumerate(digits):
        product = int(digit) * (1 if i % 2 == 0 else 2)
        total += product // 10 + product % 10
    return total % 10 == int(compact[9])


#: German postal regions (first two digits) that are not in use.
_DE_UNUSED_REGIONS = frozenset({"00", "05", "43", "62"})


def de_postal_code(value: object) -> bool:
    """A German postal code: five digits 01001–99998 in a region in use (not 00, 05, 43, 62),
    also with the "D-" or "DE-" prefix of addresses."""
    compact = _compact(value)
    if compact is not None:
        compact = compact.removeprefix("DE").removeprefix("D")
    return (compact is not None and len(compact) == 5 and compact.isascii() and compact.isdigit()
            and compact[:2] not in _DE_UNUSED_REGIONS and "01001" <= compact <= "99998")


def at_postal_code(value: object) -> bool:
    """An Austrian postal code in use (python-stdnum's table of the RTR), also with "A-" or "AT-"."""
    compact = _compact(value)
    if compact is not None:
        compact = compact.removeprefix("AT").removeprefix("A")
    return compact is not None and len(compact) == 4 and compact.isascii() and _stdnum(
        at_postleitzahl.is_valid)(compact)


def ch_postal_code(value: object) -> bool:
    """A Swiss postal code by its shape: four digits 1000–9699, also with "CH-"."""
    compact = _compact(value)
    if compact is not None:
        compact = compact.removeprefix("CH")
    return (compact is not None and len(compact) == 4 and compact.isascii() and compact.isdigit()
            and "1000" <= compact <= "9699")


def phone_number(value: object) -> bool:
    """A plausible phone number: 7 to 15 digits (E.164's maximum), ignoring an extension."""
    if not isinstance(value, str):
        return False
    number = value.lower().split("ext")[0]
    digits = sum(c.isdigit() for c in number if c.isascii())
    return 7 <= digits <= 15 and all(c.isascii() for c in number)


def payment_card(value: object) -> bool:
    """A payment card number: 13 to 19 digits passing the Luhn check."""
    compact = _compact(value)
    if compact is None or not 13 <= len(compact) <= 19 or not compact.isascii() or not compact.isdigit():
        return False
    return luhn.is_valid(compact)


def ip_address(value: object) -> bool:
    """An IPv4 or IPv6 address (each IPv4 octet at most 255)."""
    if not isinstance(value, str):
        return False
    try:
        ipaddress.ip_address(value.strip())
    except ValueError:
        return False
    return True


def _real_date(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def numeric_date(value: object) -> bool:
    """A calendar date written in digits with one kind of separator, in any order people use:
    day-month-year (12.03.2019), month-day-year (03/12/2019), year-month-day (2019-03-12); a
    two-digit year is 19xx or 20xx. 31.02.2019 and 13/13/2019 are no dates in any order."""
    if not isinstance(value, str) or not value.isascii():
        return False
    parts = [p.strip() for p in re.split(r"[./-]", value)]
    if len(parts) != 3 or not all(p.isdigit() and 1 <= len(p) <= 4 for p in parts):
        return False
    seps = {c for c in value if c in "./-"}
    if len(seps) != 1:
        return False
    a, b, c = (int(p) for p in parts)
    if len(parts[0]) == 4:
        return _real_date(a, b, c)
    if len(parts[2]) not in (2, 4):
        return False
    year = c if len(parts[2]) == 4 else (2000 + c if c < 50 else 1900 + c)
    return _real_date(year, b, a) or _real_date(year, a, b)


VALIDATORS: Mapping[str, Validator] = MappingProxyType({
    "es.dni": _stdnum(dni.is_valid),
    "es.nie": _stdnum(nie.is_valid),
    "es.nif": _stdnum(nif.is_valid),
    "es.cif": _stdnum(cif.is_valid),
    "imei": _stdnum(imei.is_valid),
    "es.nss": es_nss,
    "es.ccc": _stdnum(ccc.is_valid),
    "es.postal_code": es_postal_code,
    "de.kvnr": de_kvnr,
    "de.postal_code": de_postal_code,
    "at.postal_code": at_postal_code,
    "at.vnr": _stdnum(at_vnr.is_valid),
    "ch.postal_code": ch_postal_code,
    "ch.ssn": _stdnum(ch_ssn.is_valid),
    "iban": _stdnum(iban.is_valid),
    "payment_card": payment_card,
    "phone_number": phone_number,
    "ip_address": ip_address,
    "numeric_date": numeric_date,
})


def get_validator(name: str) -> Validator:
    """The validator registered as ``name``; KeyError names the known ones."""
    try:
        return VALIDATORS[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown validator {name!r}; known: {', '.join(sorted(VALIDATORS))}") from None
