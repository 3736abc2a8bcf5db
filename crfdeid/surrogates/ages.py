"""Ages: kept by default, generalised at 90 and above, optionally perturbed.

Dates shift by whole weeks, so an age stays consistent with the timeline and is kept. Ages of
90 years or more are rare enough to identify and are generalised ("93 años" -> "90 o más años",
as HIPAA's safe harbour does), written out in words too ("noventa y tres años", read with the
pack's number words). A policy may ask to perturb ages by up to ±k years; children under
``perturb_from`` (14) are never perturbed, since a year matters clinically for them.
"""

from __future__ import annotations

import re
import unicodedata

from .base import DocumentState, Surrogate, fold
from .data import SurrogateData

_WORD = re.compile(r"[^\W\d_]+\.?")
_LETTERS = re.compile(r"[^\W\d_]+")
#: An age longer than this many digits is junk: it is read as "very old" and generalised.
MAX_DIGITS = 3


def first_number(text: str) -> tuple[int, int, int] | None:
    """(start, end, value) of the first run of digits — of any script ('٩٣', '⑨③' read as 93,
    so that an old age in unusual digits is generalised too) — or None."""
    start = next((i for i, c in enumerate(text) if c.isdigit()), None)
    if start is None:
        return None
    end = start
    while end < len(text) and text[end].isdigit():
        end += 1
    run = text[start:end]
    if len(run) > MAX_DIGITS:
        return start, end, 10**MAX_DIGITS
    return start, end, int("".join(str(unicodedata.digit(c)) for c in run))


def number_in_words(text: str, numbers: dict[str, int]) -> tuple[int, int, int] | None:
    """(start, end, value) of the first run of number words ("noventa y tres" -> 93), or None."""
    start = end = None
    value = 0
    for match in _LETTERS.finditer(text):
        word = fold(match.group())
        if word in numbers:
            start = match.start() if start is None else start
            end = match.end()
            value += numbers[word]
        elif start is not None and word != "y":
            break
    return (start, end, value) if start is not None and end is not None else None


class AgeGenerator:
    name = "ages"
    phase = 2

    def __init__(
        self, data: SurrogateData, generalise_from: int = 90, perturb_years: int = 0, perturb_from: int = 14
    ) -> None:
        self.data = data
        self.generalise_from = generalise_from
        self.perturb_years = perturb_years
        self.perturb_from = perturb_from

    def unit(self, text: str, end: int) -> str:
        """The unit written after the number: years unless it says months, weeks or days."""
        match = _WORD.search(text, end)
        if match is None:
            return "years"
        return self.data.age_units.get(fold(match.group()), "years")

    def neutral_category(self, text: str, label: str) -> str:
        return "age"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        number = first_number(text) or number_in_words(text, self.data.age_numbers)
        if number is None:
            return Surrogate(text, kept=True, note="no number")
        begin, end, value = number
        if self.unit(text, end) != "years":
            return Surrogate(text, kept=True, note="age under a year")
        if value >= self.generalise_from:
            new = self.data.age_generalised.format(limit=self.generalise_from)
            return Surrogate(text[:begin] + new + text[end:], note="generalised")
        if self.perturb_years > 0 and value >= self.perturb_from:
            rng = state.rng("age", str(value))
            offsets = [d for d in range(-self.perturb_years, self.perturb_years + 1) if d != 0]
            new_value = min(max(value + rng.choice(offsets), self.perturb_from), self.generalise_from - 1)
            if new_value != value:
                return Surrogate(text[:begin] + str(new_value) + text[end:], note="perturbed")
        return Surrogate(text, kept=True, note="kept (dates carry the timeline)")
