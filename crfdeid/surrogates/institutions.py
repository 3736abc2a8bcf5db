"""Institutions: a template chosen by the name's first words (Universidad, Instituto…) filled with
surrogate places and surnames; acronyms become acronyms of the pack's list."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .base import LETTERS, DocumentState, Level, Surrogate, chosen, fold, normalise, weighted_choice
from .data import SurrogateData, display

#: A run of capitals in an acronym ("SDOM" and "HGR" in "SDOM-HGR").
_CAPITALS = re.compile(r"[^\W\d_a-z]+")
#: "Instituto Riojano del Corazón (IRC)": a name with its acronym in brackets.
_NAMED_ACRONYM = re.compile(r"(?P<name>.*\S)\s*\((?P<acronym>[^\W\d_a-z]{2,})\)")


class InstitutionGenerator:
    """INSTITUCION: a template chosen by the name's first words (Universidad, Instituto…)
    filled with surrogate places and surnames; acronyms become other acronyms."""

    name = "institutions"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def fill(self, template: str, rng: random.Random) -> str:
        def town() -> str:
            return display(weighted_choice(rng, self.data.town_pool_all.items, self.data.town_pool_all.cum))

        def surname() -> str:
            pool = self.data.surname_pool
            return weighted_choice(rng, pool.items[:300], pool.cum[:300])

        fillers = {
            "municipality": town,
            "surname": surname,
            "province": lambda: rng.choice(sorted(self.data.province_code)),
            "community": lambda: rng.choice(self.data.communities),
        }
        out = template
        while "{" in out:
            head, _, rest = out.partition("{")
            field, _, tail = rest.partition("}")
            out = head + (fillers[field]() if field in fillers else field) + tail
        return out

    def neutral_category(self, text: str, label: str) -> str:
        return "institution"

    def initials(self, name: str) -> str:
        """The acronym a name spells: the initials of its capitalised words ("Instituto de
        Medicina Legal de Santa Cruz" -> "IMLSC"); of a name keyed in lower case, of its words
        but the particles."""
        words = LETTERS.findall(name)
        capitalised = [w for w in words if w[:1].isupper()]
        words = capitalised or [w for w in words if fold(w) not in self.data.name_particles]
        return "".join(w[0] for w in words).upper()

    def acronym_levels(self, acronym: str, state: DocumentState) -> list[Level]:
        """An acronym of the note's own institutions takes the initials of that institution's
        surrogate (so "Instituto Riojano del Corazón … IRC" stay one institution); any other
        becomes acronyms of the pack's list, one per capital run, of the same length where the list
        has one ("SDOM-HGR" -> "CNIO-SEC")."""
        key = fold(acronym)
        tied = next(
            (
                self.initials(surrogate)
                for original, surrogate in state.used.get("institution", {}).items()
                if len(key) > 1 and fold(self.initials(original)) == key
            ),
            None,
        )
        # the initials of a safe surrogate name may fall one letter from the original's
        # ("IMLM" -> "IMLS"): they follow the new name, not the old one, and are not a near copy
        levels = [Level(lambda rng: tied, "institution:tied", check_close=False)] if tied else []
        pool = self.data.institution_acronyms

        def one(run: str, rng: random.Random) -> str:
            if len(run) < 2:
                return run
            same = [a for a in pool if len(a) == len(run)]  # same length where the list allows
            return rng.choice(same or pool)

        def drawn(rng: random.Random) -> str:
            return _CAPITALS.sub(lambda m: one(m[0], rng), acronym)

        levels.append(Level(drawn, "institution"))
        return levels

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: a template of the original's kind -> a generic template. An acronym
        becomes the initials of the note's surrogate institution or an acronym of the pack's
        list, never random capitals ("SCMV" -> "KLMY" told the reader what was replaced)."""
        stripped = text.strip()
        letters = [c for c in stripped if c.isalpha()]
        if letters and all(c.isupper() for c in letters) and " " not in stripped:
            new, level = state.draw_chain(stripped, self.acronym_levels(stripped, state), "institution")
            return chosen(text.replace(stripped, new), level, "acronym")
        named = _NAMED_ACRONYM.fullmatch(stripped)
        name = named["name"] if named else stripped
        folded = fold(name)
        default = self.data.institution_default
        templates = default
        for head, options in self.data.institutions:
            if folded.startswith(head):
                templates = options
                break

        def make(options: list[str]) -> Callable[[random.Random], str]:
            def one(rng: random.Random) -> str:
                new = self.fill(rng.choice(options), rng)
                return f"{new} ({self.initials(new)})" if named else new

            return one

        levels = [Level(make(templates), "institution")]
        if templates is not default:
            levels.append(
                Level(
                    make(default),
                    "institution:any",
                    "any-type",
                    "no safe name of the original's kind: a generic institution",
                )
            )
        new, level = state.draw_chain(stripped, levels, "institution")
        if named:  # the acronym alone, later in the note, follows this surrogate
            state.used["institution"].setdefault(normalise(name), new.rsplit(" (", 1)[0])
        return chosen(text.replace(stripped, new), level)
