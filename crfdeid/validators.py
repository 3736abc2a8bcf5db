"""Checksum validators that rules refer to by registered name (``validator: es.dni``).

A validator takes the matched PHI text and answers True or False; it never raises, whatever it
is given (None, '€', an emoji, an object), because a crashing validator would stop a batch.
Separators people type inside identifiers (spaces, dots, dashes, slashes) are removed first.
The checks are python-stdnum's, except the Spanish social security number, which stdnum lacks.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from types import MappingProxyType

from stdnum import iban, luhn
from stdnum.es import ccc, dni, nie, nif, postal_code

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


VALIDATORS: Mapping[str, Validator] = MappingProxyType({
    "es.dni": _stdnum(dni.is_valid),
    "es.nie": _stdnum(nie.is_valid),
    "es.nif": _stdnum(nif.is_valid),
    "es.nss": es_nss,
    "es.ccc": _stdnum(ccc.is_valid),
    "es.postal_code": es_postal_code,
    "iban": _stdnum(iban.is_valid),
    "payment_card": payment_card,
    "phone_number": phone_number,
    "ip_address": ip_address,
})


def get_validator(name: str) -> Validator:
    """The validator registered as ``name``; KeyError names the known ones."""
    try:
        return VALIDATORS[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown validator {name!r}; known: {', '.join(sorted(VALIDATORS))}") from None
