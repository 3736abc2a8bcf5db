"""Professions: another profession of the same grammatical gender ("maestra" -> "farmacéutica").

Gender comes from the pack's masculine/feminine pairs; a phrase the table does not know takes
the gender of its first word's ending, and an invariant form ("aparcacoches") the patient's sex.
"""

from __future__ import annotations

import random

from ..langpack import fold
from .base import DocumentState, Surrogate, match_case
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
        sex = state.extras.get("patient_sex")
        return sex if sex in ("m", "f") else "m"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        gender = self.gender(stripped, state)

        def make(rng: random.Random) -> str:
            masculine, feminine = rng.choice(self.data.professions)
            return match_case(stripped, feminine if gender == "f" else masculine)

        new = state.draw(f"profession-{gender}", stripped, make)
        return Surrogate(text.replace(stripped, new), note=f"gender {gender}")
