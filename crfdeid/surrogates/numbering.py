"""Telephone numbering plans, as a language pack describes them (``phone_plans`` in its
surrogates.yaml), and the one language-neutral fact the phone generator needs beyond them: how
long an international calling code is (ITU-T E.164: the codes are prefix-free, so the digits
after a "+" say where the code ends).

A plan names a country's calling code and how its national numbers are built: a trunk prefix
("0" in Germany, Austria and Switzerland; none in Spain), the national length where it is fixed
(9 in Spain), the prefixes of mobile numbers, of geographic (fixed) ones and of service numbers,
and, for a plan without a trunk prefix, how many digits of a fixed number's prefix stand for its
province (``area_digits``). Area codes themselves are listed by province in the pack's
``area_codes``, without the trunk prefix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: E.164 country codes of two digits (all others are one digit, "1" and "7", or three).
_TWO_DIGIT_CODES = frozenset(str(code) for code in (
    20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57,
    58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98))


def calling_code(digits: str) -> str:
    """The E.164 calling code at the start of ``digits`` (the digits after "+" or "00")."""
    if digits[:1] in ("1", "7"):
        return digits[:1]
    return digits[:2] if digits[:2] in _TWO_DIGIT_CODES else digits[:3]


@dataclass(frozen=True)
class PhonePlan:
    """One country's numbering plan (see the module's docstring)."""

    country: str
    calling_code: str
    trunk: str = ""
    length: int | None = None
    mobile: tuple[str, ...] = ()
    fixed: tuple[str, ...] = ()
    special: tuple[str, ...] = ()
    area_digits: int = 0
    #: province -> area codes (without the trunk prefix), from the pack's ``area_codes``
    area_codes: dict[str, list[str]] = field(default_factory=dict, compare=False, hash=False)

    def kind(self, national: str) -> tuple[str, str]:
        """("mobile" | "fixed" | "other", the prefix that says so) of a national number
        (without trunk prefix)."""
        for kind, prefixes in (("mobile", self.mobile), ("other", self.special), ("fixed", self.fixed)):
            found = next((p for p in prefixes if national.startswith(p)), None)
            if found is not None:
                return kind, found
        # a plan that lists no fixed prefixes (a trunk plan): any other number is geographic
        return ("fixed", "") if self.trunk and not self.fixed else ("other", "")

    def area_province(self, area: str) -> str | None:
        """The province an area code (as written, without trunk) belongs to (the first listed)."""
        for province, codes in self.area_codes.items():
            if area in codes:
                return province
        return None

    def known_area(self, national: str) -> str | None:
        """The longest area code of the plan that starts a national number written without
        separators ("7071558901" -> "7071")."""
        codes = sorted({c for codes in self.area_codes.values() for c in codes}, key=len, reverse=True)
        return next((c for c in codes if national.startswith(c)), None)


def build_plans(raw: dict[str, dict[str, Any]], area_codes: dict[str, list[str]],
                province_country: dict[str, str]) -> dict[str, PhonePlan]:
    """The plans, each with the area codes of its country's provinces (all of them when the
    pack has a single plan)."""
    plans = {}
    for country, spec in raw.items():
        codes = {p: c for p, c in area_codes.items() if len(raw) == 1 or province_country.get(p) == country}
        plans[country] = PhonePlan(
            country, spec["calling_code"], spec.get("trunk", ""), spec.get("length"),
            tuple(spec.get("mobile", ())), tuple(spec.get("fixed", ())), tuple(spec.get("special", ())),
            spec.get("area_digits", 0), codes)
    return plans
