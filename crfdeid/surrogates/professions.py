"""Professions: another profession of the same field, in the gender of the person it describes.

A profession is clinically relevant (silicosis in a quarry worker, burns in a cook), so the
surrogate stays in the original's ISCO group where the pack knows it (the same sub-major group,
then the same major group: a manual trade stays a manual trade), and only then anywhere.

Gender: a form the pack's masculine/feminine pairs tell apart keeps its gender ("maestra" ->
"farmacéutica"); anything else — an invariant form ("militar"), a phrase ("tareas del hogar",
"fuerza policial") — takes the patient's sex, so that a "Varón de 41 años" is never an
"interventora"; without it, the ending of the first word decides (the pack's
``feminine_endings``: German "-in").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .base import LETTERS, DocumentState, Level, Surrogate, chosen, fold, match_case
from .data import SurrogateData

#: How far before an occupation a kinship word says whose it is (characters).
_KIN_REACH = 48
#: Where a clause ends: the kinship word before it is another's.
_CLAUSE_END = re.compile(r"[.;:!?\n]")
#: A line's field key, one word and a colon ("Padre:", "Madre :").
_KIN_FIELD = re.compile(r"[ \t]*([^\W\d_]+)[ \t]*:")
#: ISCO code prefixes tried in turn: the sub-major group (two digits), then the major group.
GROUP_LEVELS = (2, 1)
MAJOR_REASON = "no safe profession of the same field: one of the same ISCO major group"
ANY_FIELD_REASON = "no safe profession of the original's field (or none known): any profession"


class ProfessionGenerator:
    name = "professions"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def gender(self, text: str, state: DocumentState, start: int | None = None) -> str:
        for form in self.forms(text):
            pair = self.data.profession_lookup[form]
            if fold(pair[0]) != fold(pair[1]):
                return "f" if form == fold(pair[1]) else "m"
        kin = self.kin_before(state, start) if start is not None else None
        if kin is not None:
            return kin
        if state.patient_sex in ("m", "f"):
            return state.patient_sex
        first = fold(text.split()[0]) if text.split() else ""
        if self.data.feminine_endings is not None:  # the pack's ("-in": "Rettungsschwimmerin")
            return "f" if first.endswith(self.data.feminine_endings) else "m"
        if first.endswith(("a", "as")) and not first.endswith("ista"):
            return "f"
        return "m"

    def kin_before(self, state: DocumentState, start: int) -> str | None:
        """The sex of the relative a kinship word just before names, in the same clause ("su
        marido, ebanista jubilado" had become "su marido, pastelera jubilado", the patient's
        sex): an invariant occupation is that relative's."""
        if not state.text:
            return None
        before = state.text[max(0, start - _KIN_REACH) : start]
        clause = _CLAUSE_END.split(before)[-1]
        for word in reversed(LETTERS.findall(clause)[-4:]):
            term = self.data.pack.kinship_term(word)
            if term is not None and term.sex in ("m", "f"):
                return term.sex
        # a field whose key is a kinship word, on the occupation's line ("Padre: Sergio Hernández
        # Amorós, 35 años, electricista autónomo" had become "oficiala autónomo": the twelfth set)
        line = state.text[state.text.rfind("\n", 0, start) + 1 : start]
        key = _KIN_FIELD.match(line)
        term = self.data.pack.kinship_term(key[1]) if key is not None else None
        return term.sex if term is not None and term.sex in ("m", "f") else None

    def forms(self, text: str) -> list[str]:
        """The professions of the pack the original spells, folded: the whole phrase, then its
        words ("ex profesora de instituto" -> "profesora")."""
        lookup = self.data.profession_lookup
        whole = fold(text.strip())
        found = [whole] if whole in lookup else []
        return found + [w for w in (fold(m.group()) for m in LETTERS.finditer(text)) if w in lookup]

    def group(self, text: str) -> str:
        """The ISCO unit group of the original: of a profession it spells, else of the
        professions one of its words heads ("minero" -> "minero de minería subterránea");
        "" when none is known."""
        isco = self.data.profession_isco
        for form in self.forms(text):
            if isco.get(form):
                return isco[form]
        for match in LETTERS.finditer(text):
            found = self.data.profession_heads.get(fold(match.group()))
            if found:
                return found
        return ""

    def neutral_category(self, text: str, label: str) -> str:
        return "profession"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: a short profession of the same ISCO sub-major group -> of the same
        major group -> any short profession, each in the person's gender -> any profession of
        the pack's table, in either form."""
        stripped = text.strip()
        gender = self.gender(stripped, state, start)
        isco = self.group(stripped)

        # never the original's own profession in another form or phrase ("profesora" ->
        # "profesor particular"): the words it spells and their other gender are left out
        own = {fold(m.group()) for m in LETTERS.finditer(stripped)}
        for form in self.forms(stripped):
            own.update(fold(f.split()[0]) for f in self.data.profession_lookup[form] if f.split())

        def pick(pairs: list[tuple[str, str]]) -> Callable[[random.Random], str] | None:
            pairs = [p for p in pairs if not any(fold(f.split()[0]) in own for f in p if f.split())]
            if not pairs:
                return None

            def make(rng: random.Random) -> str:
                masculine, feminine = rng.choice(pairs)
                return match_case(stripped, feminine if gender == "f" else masculine)

            return make

        levels = [
            Level(pick(pairs), f"profession-{gender}-group{length}", "same-major-group", MAJOR_REASON)
            for length in GROUP_LEVELS
            if len(isco) >= length and (pairs := self.data.professions_by_group.get(isco[:length]))
        ]
        anywhere = Level(pick(self.data.professions), f"profession-{gender}", "any-field", ANY_FIELD_REASON)
        levels.append(anywhere)
        # the first rung is the first choice, whichever it is
        levels[0] = Level(levels[0].make, levels[0].category)
        every = self.data.profession_forms

        def anything(rng: random.Random) -> str:
            return match_case(stripped, rng.choice(every))

        levels.append(
            Level(
                anything,
                "profession:any",
                "any-gender",
                "no safe profession of the original's gender: any profession",
            )
        )
        new, level = state.draw_chain(stripped, levels, "profession")
        field = ", same field" if isco and level.fallback is None else ""
        return chosen(text.replace(stripped, new), level, f"gender {gender}{field}")
