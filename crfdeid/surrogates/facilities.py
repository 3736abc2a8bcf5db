"""Hospitals and health centres: a facility of the same type, from the province of the note's
surrogate town; the type is written as the original wrote it ("Hospital Universitario X" stays a
"Hospital Universitario …")."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .base import DocumentState, Level, Surrogate, chosen, fold, scramble
from .data import SurrogateData
from .places import FACILITY_WINDOW


class FacilityGenerator:
    """HOSPITAL and CENTRO_SALUD: a facility of the same type, from the same province when the
    original is in the catalogue; the type is written as the original wrote it."""

    name = "facilities"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data
        # catalogue hospitals grouped by the type their name starts with ("Hospital Universitario
        # X"), so that the original's type words can be put in front of the surrogate's name
        self.typed: dict[str, list[tuple[str, str]]] = {}
        for rows in data.hospitals.values():
            for name, province in rows:
                _, kind = self.facility_type(name)
                if kind is not None:
                    self.typed.setdefault(kind, []).append((name, province))
        self._every_hospital = [c for rows in self.typed.values() for c in rows]
        self._every_centre = data.centres.get("*", [])
        self._local_cache: dict[tuple[bool, str, str], list[tuple[str, str]]] = {}

    def facility_type(self, text: str) -> tuple[str, str | None]:
        folded = fold(text)
        for form, kind in self.data.facility_forms:
            end = len(form)
            if folded.startswith(form) and (
                end == len(folded) or not folded[end].isalnum() or form.endswith(".")
            ):
                return text[:end], kind
        return "", None

    def neutral_category(self, text: str, label: str) -> str:
        _, kind = self.facility_type(text)
        centre = label == "CENTRO_SALUD" or kind in ("centro de salud", "consultorio")
        return "health_centre" if centre else "hospital"

    def target_province(
        self, original: str | None, start: int, text: str, state: DocumentState
    ) -> str | None:
        """Where a facility's surrogate comes from: the province of the surrogate town beside it
        (after the name first: "Hospital X, C/ Mayor 3, 50009 Zaragoza"), else where the note's
        towns of the original's province went (from the catalogue, or a province or town named
        at the end of the name), else where the note's first town went (a note is about one
        place), else the original's."""
        for position in (start + len(text), start):
            near = state.towns.near(state.text, position, FACILITY_WINDOW)
            if near is not None:
                return near.target
        original = original or self.named_province(text)
        if original is not None:
            return state.province_map.get(original, original)
        return next(iter(state.province_map.values()), None)

    def named_province(self, text: str) -> str | None:
        """The province a facility's name ends with ("Hospital San Rafael La Coruña",
        "Hospital Comarcal de Medina del Campo"): the province named, or the town's."""
        words = text.split()
        for size in range(min(4, len(words) - 1), 0, -1):
            tail = " ".join(words[-size:])
            if fold(tail) in self.data.province_lookup:
                return self.data.province_lookup[fold(tail)]
            town = self.data.find_town(tail)
            if town is not None and tail[:1].isupper():
                return town[1]
        return None

    def _local(self, centre: bool, kind: str, province: str) -> list[tuple[str, str]]:
        """Facilities of a type in a province (memoised: the catalogue has thousands); kind ""
        of a hospital: any type."""
        key = (centre, kind, province)
        if key not in self._local_cache:
            table = self.data.centres if centre else self.typed
            candidates = table.get(kind, []) or table.get("hospital", []) or table.get("*", [])
            if not centre and kind == "":
                candidates = self._every_hospital
            self._local_cache[key] = [c for c in candidates if province and c[1] == province]
        return self._local_cache[key]

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: same type in the province the facility follows (``target_province``)
        -> any type there -> same type anywhere -> any type; an abbreviation ("HUMS") becomes
        another."""
        type_text, kind = self.facility_type(text)
        centre = label == "CENTRO_SALUD" or kind in ("centro de salud", "consultorio")
        table = self.data.centres if centre else self.typed
        province = self.target_province(self.data.hospital_lookup.get(fold(text)), start, text, state)
        typed = table.get(kind or "", []) or table.get("hospital", []) or table.get("*", [])
        local = self._local(centre, kind or "", province or "")
        if len(local) < 3 and province:  # any facility of the province: the type words stay the original's
            local = self._local(centre, "*" if centre else "", province)
        letters = [c for c in text if c.isalpha()]
        if not type_text and letters and all(c.isupper() for c in letters) and len(text.split()) == 1:
            abbreviation = [Level(lambda rng: scramble(text, rng), "facility")]
            new, level = state.draw_chain(text, abbreviation, "facility")
            return chosen(new, level, "abbreviation scrambled")

        def make(candidates: list[tuple[str, str]]) -> Callable[[random.Random], str]:
            def one(rng: random.Random) -> str:
                name = rng.choice(candidates)[0] if candidates else "General"
                own_type, _ = self.facility_type(name)
                rest = name[len(own_type) :].strip() if own_type else name
                # type words the original's type already has go ("Hospital Universitario" +
                # "Universitario Virgen de la Arrixaca" -> "… Virgen de la Arrixaca")
                typed_words = {fold(w) for w in type_text.split()}
                words = rest.split()
                while len(words) > 1 and fold(words[0]) in typed_words:
                    words.pop(0)
                rest = " ".join(words)
                if not type_text or not text[len(type_text) :].strip():
                    return name  # no name to replace after the type ("Hospital General"): a whole one
                after = text[len(type_text) :]
                de = re.match(r"\s+de\s", after) and not re.match(r"(de|del)\b", rest)
                connector = " de " if de else " "
                return type_text + connector + rest if rest else type_text

            return one

        category = f"facility:{label}"
        levels = [Level(make(local if local else typed), category)]
        if local:
            levels.append(
                Level(
                    make(typed),
                    category,
                    "anywhere",
                    "no safe facility of the original's type in its province: one from anywhere",
                )
            )
        every = self._every_centre if centre else self._every_hospital
        if every is not typed:
            levels.append(
                Level(
                    make(every),
                    category,
                    "any-type",
                    "no safe facility of the original's type: a facility of any type",
                )
            )
        if type_text and every:
            # the type words as written may themselves be an original of the note ("Hospital
            # General" annotated alone): a whole catalogue name, its own type included
            levels.append(
                Level(
                    lambda rng: rng.choice(every)[0],
                    f"{category}:whole",
                    "any-type",
                    "no safe facility keeping the original's type words: a whole name of any type",
                )
            )
        new, level = state.draw_chain(text, levels, category)
        return chosen(new, level, f"type {kind}" if kind else "")
