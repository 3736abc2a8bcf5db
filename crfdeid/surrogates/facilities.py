"""Hospitals and health centres: a facility of the same type, from the province of the note's
surrogate town; the type is written as the original wrote it ("Hospital Universitario X" stays a
"Hospital Universitario …")."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

from .base import DocumentState, Level, Surrogate, chosen, fold, scramble
from .data import SurrogateData, words_of
from .places import FACILITY_WINDOW, cased

#: Words of letters, as written (their capitals say which words an acronym spells).
_LETTER_WORDS = re.compile(r"[^\W\d_]+")

#: A word of this many catalogue names or more ("Virgen", "San", "Norte") tells no facility apart.
COMMON_WORD = 30
#: The first words of a hospital's name that is a saint's or a title's ("Virgen del Rocío").
_EPONYM_HEADS = frozenset({"san", "santa", "santo", "sant", "virgen", "nuestra", "doctor", "reina",
                           "rey", "principe", "princesa", "infanta", "marques"})
#: Particles inside a proper name ("Virgen de la Arrixaca", "Príncipe de Asturias").
_PARTICLES = frozenset({"de", "del", "la", "las", "los", "y", "i"})
#: Articles that may start a facility's proper part ("La Paz", "A Coruña", "El Bierzo").
_ARTICLES = frozenset({"la", "las", "los", "el", "a", "o", "as", "os", "les", "els"})


class FacilityGenerator:
    """HOSPITAL and CENTRO_SALUD: a facility of the same type, from the same province when the
    original is in the catalogue; the type is written as the original wrote it."""

    name = "facilities"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data
        self._type_start = re.compile("|".join(re.escape(form) for form, _ in data.facility_forms))
        #: how far into a name a type or a qualifier is read: twice the longest, and a margin
        self._reach = 2 * max((len(p) for p in (*(f for f, _ in data.facility_forms),
                                               *data.facility_qualifiers)), default=0) + 16
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
        self._words: dict[str, frozenset[str]] = {}
        self._propers: dict[str, str] = {}
        counts: Counter[str] = Counter()
        for name, _ in (*self._every_hospital, *self._every_centre):
            counts.update(set(words_of(name)))
        self._common = frozenset(w for w, n in counts.items() if n >= COMMON_WORD)

    def facility_type(self, text: str) -> tuple[str, str | None]:
        folded = self._folded_start(text)
        if not self._type_start.match(folded):
            return "", None  # no form starts the name: most candidates, checked fast
        for form, kind in self.data.facility_forms:
            end = len(form)
            if folded.startswith(form) and (
                end == len(folded) or not folded[end].isalnum() or form.endswith(".")
            ):
                return text[:end], kind
        return "", None

    def _folded_start(self, text: str) -> str:
        """``fold(text)``, or of as much of its start as a type or qualifier can read: the head
        of a span of a thousand words ("HOSPITAL HOSPITAL …") had folded its rest once per word."""
        if len(text) > self._reach:
            folded = fold(text[: self._reach])
            if len(folded) > self._reach // 2:  # a start that kept its length: enough to read
                return folded
        return fold(text)

    def head(self, text: str) -> int:
        """How long the facility's type and the qualifiers after it are, as written ("Complejo
        Hospitalario Universitario" of "… Universitario de A Coruña"; "Hospital General
        Universitario" of "… de Elda"): the part a surrogate keeps. 0 without a type."""
        type_text, _ = self.facility_type(text)
        if not type_text:
            return 0
        end = len(type_text)
        while True:
            rest = text[end:]
            gap = len(rest) - len(rest.lstrip())
            folded = self._folded_start(rest[gap:])
            # a qualifier is a word of its own: "Insular" of "Insular-Materno Infantil" is a name
            qualifier = next((q for q in self.data.facility_qualifiers if folded.startswith(q) and (
                len(folded) == len(q) or folded[len(q)].isspace() or folded[len(q)] in ",;")), None)
            # a second type ("Fundación Hospital de Calahorra", "Complejo Hospitalario Hospital
            # General de Segovia") belongs to the head too
            length = len(qualifier) if qualifier else len(self.facility_type(rest[gap:])[0])
            if not length or not gap:
                return end
            end += gap + length

    def telling_words(self, text: str) -> frozenset[str]:
        """The folded words of a facility's name that tell which one it is: those of fewer than
        ``COMMON_WORD`` catalogue names ("Rocío", "Parapléjicos"; not "Virgen", "San") and those of
        the towns and provinces it names ("Santiago de Compostela"), particles aside. A surrogate
        sharing one would all but name the original ("Hospital Nacional de Parapléjicos de
        Toledo" -> "Hospital Nacional de Parapléjicos", "… de Santiago" for Santiago's)."""
        words = words_of(text)
        data = self.data
        found = {w for w in words if len(w) > 2 and w not in self._common and w not in data.name_particles}
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + 5) + 1):
                phrase = " ".join(words[i:j])
                if phrase in data.province_lookup or phrase in data.municipality_lookup:
                    found.update(w for w in words[i:j] if w not in data.name_particles and len(w) > 2)
        return frozenset(found)

    def _proper(self, name: str) -> str:
        if name not in self._propers:
            self._propers[name] = self.proper(name)
        return self._propers[name]

    def _names_place(self, name: str, places: frozenset[str]) -> bool:
        if name not in self._words:
            self._words[name] = frozenset(words_of(name))
        return not places.isdisjoint(self._words[name])

    def tied_acronym(self, acronym: str, state: DocumentState) -> str | None:
        """The acronym of the note's own facility, spelt from its surrogate: "Complejo
        Hospitalario Universitario de Vigo (CHUVI)" replaced by "… de Pontevedra" makes the
        CHUVI of the note "CHUPO" — the initials of the new name's capitalised words, and as
        many letters of its last word as the original took of its own — not random capitals
        ("ADWYH") that a reader takes for a redaction. None: no facility of the note spells it
        (the acronym is then scrambled)."""
        key = fold(acronym).upper()
        for space, used in state.used.items():
            if not space.startswith("facility:"):
                continue
            for original, surrogate in used.items():
                extra = self._spelt_by(key, words_of(original))
                if extra is None:
                    continue
                words = [w for w in _LETTER_WORDS.findall(surrogate) if w[:1].isupper()]
                tail = fold(words[-1])[1 : 1 + extra].upper() if words else ""
                if words and len(tail) == extra:
                    return "".join(fold(w)[0] for w in words).upper() + tail
        return None

    def _spelt_by(self, key: str, words: tuple[str, ...]) -> int | None:
        """How many more letters of its last word ``key`` takes after the initials of
        ``words`` (all of them, "HULP", or all but the particles, "CHUV|I"); None: it is not
        their acronym. Names are keyed in lower case, so which words were capitalised is lost."""
        plain = [w for w in words if w not in self.data.name_particles]
        for chosen_words in (words, plain):
            if not chosen_words:
                continue
            initials = "".join(w[0] for w in chosen_words).upper()
            extra = key[len(initials):]
            if key.startswith(initials) and len(extra) <= 3 and (
                    chosen_words[-1][1 : 1 + len(extra)].upper() == extra):
                return len(extra)
        return None

    def proper(self, name: str) -> str:
        """A catalogue name without its type and qualifiers, however many it stacks ("Fundación
        Hospital de Calahorra" -> "de Calahorra"; "" for a type alone): what a surrogate puts
        after the original's type. An article it starts with takes its capital ("A Coruña")."""
        rest = name.strip()
        while end := self.head(rest):
            rest = rest[end:].strip(" ,;-")
        first, _, after = rest.partition(" ")
        if after and fold(first) in _ARTICLES and first.islower():
            rest = f"{first.capitalize()} {after}"
        return rest

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

    def national(self, centre: bool, kind: str, province: str | None) -> list[list[tuple[str, str]]]:
        """Where the pack's communities are countries: the facilities of the province's country
        of the original's type, then of any type (none otherwise: a Spanish hospital may come
        from another community)."""
        data = self.data
        country = data.province_country.get(province or "")
        if not data.national_communities or country is None:
            return []
        table = data.centres if centre else self.typed
        typed = table.get(kind, []) if centre else table.get(kind, []) if kind else self._every_hospital
        every = self._every_centre if centre else self._every_hospital
        return [[c for c in rows if data.province_country.get(c[1]) == country] for rows in (typed, every)]

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: same type in the province the facility follows (``target_province``)
        -> any type there -> (where the pack's communities are countries: same type in the
        country -> any type there ->) same type anywhere -> any type; an abbreviation ("HUMS")
        becomes another."""
        type_text, kind = self.facility_type(text)
        centre = label == "CENTRO_SALUD" or kind in ("centro de salud", "consultorio")
        table = self.data.centres if centre else self.typed
        province = self.target_province(self.data.hospital_lookup.get(fold(text)), start, text, state)
        typed = table.get(kind or "", []) or table.get("hospital", []) or table.get("*", [])
        local = self._local(centre, kind or "", province or "")
        if len(local) < 3 and province:  # any facility of the province: the type words stay the original's
            local = self._local(centre, "*" if centre else "", province)
        letters = [c for c in text if c.isalpha()]
        capitals = bool(letters) and all(c.isupper() for c in letters) and len(text.split()) == 1
        if not type_text and capitals and len(letters) > 4 and fold(text) in self.data.municipality_lookup:
            # a town in capitals taken for a hospital ("HOSPITAL PUNTA DE EUROPA - ALGECIRAS"), no
            # abbreviation: another town, in capitals ("ALGECIRAS" had become "ASUUXFLQS")
            level = Level(lambda rng: self.data.town_pool_all.choose(rng).upper(), "facility:town")
            new, level = state.draw_chain(text, [level], "facility")
            return chosen(new, level, "a town in capitals: another town")
        if not type_text and letters and all(c.isupper() for c in letters) and len(text.split()) == 1:
            tied = self.tied_acronym(text, state)
            abbreviation = [Level(lambda rng: tied, "facility:tied", check_close=False)] if tied else []
            abbreviation.append(Level(lambda rng: scramble(text, rng), "facility"))
            new, level = state.draw_chain(text, abbreviation, "facility")
            tied_level = level.category == "facility:tied"
            return chosen(new, level,
                          "acronym of the note's facility" if tied_level else "abbreviation scrambled")

        # the original's type and qualifiers as written, then the proper part of a catalogue
        # name with its own connector: "Hospital de Manises" + "Hospital General Universitario
        # de Elda" -> "Hospital de Elda", "Complejo Hospitalario Universitario de A Coruña" +
        # "Hospital La Paz" -> "Complejo Hospitalario Universitario La Paz"
        head = text[: self.head(text)]
        # no catalogue name sharing a telling word with the original's proper part
        places = self.telling_words(text[len(head) :])

        rebuilt = bool(head and text[len(head) :].strip())
        # a hospital called by its proper part alone ("intervenida en el Morales Meseguer", "del
        # Trueta") is called by another's ("en el Santa Lucía"): a whole name after "la" or
        # "de" had read "ingresó en la Hospital Gijón"
        bare = not type_text and not head and label != "CENTRO_SALUD" and text[:1].isupper()

        def fits(candidate: tuple[str, str], alone: bool = False) -> bool:
            """Names no telling word of the original, and has a proper part where one is put
            after the original's type (a type alone, "Hospital Provincial", has none to give),
            or (``alone``) a proper part that is a name of its own where the original is one."""
            if places and self._names_place(candidate[0], places):
                return False
            if alone:  # a name notes use alone: a person's or a saint's ("Severo Ochoa", "Santa Lucía")
                words = self._proper(candidate[0]).split()
                return (2 <= len(words) <= 4 and all(w[:1].isupper() or w in _PARTICLES for w in words)
                        and (fold(words[0]) in self.data.given or fold(words[0]) in _EPONYM_HEADS))
            return not rebuilt or bool(self._proper(candidate[0]))

        own = self.proper_key(text)
        propers = state.facility_propers

        def make(candidates: list[tuple[str, str]],
                 alone: bool = False) -> Callable[[random.Random], str] | None:
            # the catalogue is filtered on the level's first draw, not before: most notes never
            # reach the later levels, whose lists hold thousands of names
            if not any(fits(c, alone) for c in candidates):
                return None
            pool: list[tuple[str, str]] = []

            def one(rng: random.Random) -> str:
                if not pool:
                    pool.extend(c for c in candidates if fits(c, alone))
                name = rng.choice(pool)[0]
                proper = self._proper(name)
                if propers.get(self.proper_key(proper), own) != own:
                    return ""  # another facility of the note has it: no draw (``_safe``)
                if alone:
                    return cased(text, proper)
                if not rebuilt or not proper:
                    # no proper part to replace after the type ("Hospital General"), or none to
                    # take from the candidate: a whole catalogue name
                    return name
                # a head in capitals writes the name in capitals ("HOSPITAL PÚBLICO DA MARIÑA -
                # Burela" had become "HOSPITAL Do Salnes": the twelfth set written blind)
                model = head if len(head) > 3 and head.isupper() else text[len(head) :]
                return f"{head} {cased(model, proper)}"

            return one

        category = f"facility:{label}"
        national = self.national(centre, kind or "", province)
        first = local if local else national[0] if national else typed
        levels = [Level(make(first), category)]
        if bare:  # another proper part alone first, from anywhere; else the chain as for any name
            levels = [Level(make(first, alone=True), category), Level(make(typed, alone=True), category),
                      *levels]
        for candidates in national[0 if local else 1 :]:  # the province's country: its type, any
            levels.append(Level(make(candidates), category, "community",
                                "no safe facility in the province: one of its country"))
        if local or national:
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
        whole: list[tuple[str, str]] = []

        def any_whole(rng: random.Random) -> str:
            if not whole:
                whole.extend(c for c in every if not (places and self._names_place(c[0], places)))
            name = rng.choice(whole)[0]
            # the last resort too: no proper part another facility of the note has
            return "" if propers.get(self.proper_key(name), own) != own else name

        if type_text and any(not (places and self._names_place(c[0], places)) for c in every):
            # the type words as written may themselves be an original of the note ("Hospital
            # General" annotated alone): a whole catalogue name, its own type included
            levels.append(
                Level(
                    any_whole,
                    f"{category}:whole",
                    "any-type",
                    "no safe facility keeping the original's type words: a whole name of any type",
                )
            )
        new, level = state.draw_chain(text, levels, category)
        propers.setdefault(self.proper_key(new), own)
        return chosen(new, level, f"type {kind}" if kind else "")

    def proper_key(self, name: str) -> str:
        """What tells a facility from the others: its proper part, folded, without particles
        ("Hospital Universitario de Valme" and "Valme" -> "valme")."""
        return " ".join(w for w in fold(self._proper(name)).split() if w not in _PARTICLES)
