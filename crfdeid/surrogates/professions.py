"""Professions: another profession of the same grammatical gender ("maestra" -> "farmacéutica").

Gender comes from the pack's masculine/feminine pairs; a phrase the table does not know takes
the gender of its first word's ending, and an invariant form ("aparcacoches") the patient's sex.
"""

from __future__ import annotations

import random

from .base import DocumentState, Level, Surrogate, chosen, fold, match_case
from .data import SurrogateData


class ProfessionGenerator:
    name = "professions"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def gender(self, text: str, state: DocumentState) -> str:
        pair = self.data.profession_lookup.get(fold(text.strip()))
        if pair is not None and pair[0] != pair[1]:
            return "f" if fold(text.strip()) == fold(pair[1]) else "m"
        first = fold(text.split()[0]) if text.split() else ""
        if pair is None and first.endswith(("a", "as")) and not first.endswith("ista"):
            return "f"
        if pair is None and first.endswith(("o", "os", "or", "ores")):
            return "m"
        sex = state.patient_sex
        return sex if sex in ("m", "f") else "m"

    def neutral_category(self, text: str, label: str) -> str:
        return "profession"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: a short profession of the same gender -> any profession of the
        pack's table, in either form."""
        stripped = text.strip()
        gender = self.gender(stripped, state)

        def make(rng: random.Random) -> str:
            masculine, feminine = rng.choice(self.data.professions)
            return match_case(stripped, feminine if gender == "f" else masculine)

        every = self.data.profession_forms

        def anything(rng: random.Random) -> str:
            return match_case(stripped, rng.choice(every))

        levels = [
            Level(make, f"profession-{gender}"),
            Level(
                anything,
                "profession:any",
                "any-gender",
                "no safe profession of the original's gender: any profession",
            ),
        ]
        new, level = state.draw_chain(stripped, levels, "profession")
        return chosen(text.replace(stripped, new), level, f"gender {gender}")
