"""Institutions: a template chosen by the name's first words (Universidad, Instituto…) filled with
surrogate places and surnames; acronyms become acronyms of the pack's list.

The place a template names follows the note: the surrogate of the town, province or community the
original names ("Instituto de Medicina Legal de Cádiz", "Servicio Andaluz de Salud"), else the
province of the note's surrogate towns, else one drawn; never the original's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from .base import LETTERS, DocumentState, Level, Surrogate, chosen, fold, normalise, weighted_choice
from .data import SurrogateData, words_of
from .places import TerritoryGenerator, nearby_province

#: A run of capitals in an acronym ("SDOM" and "HGR" in "SDOM-HGR").
_CAPITALS = re.compile(r"[^\W\d_a-z]+")
#: A feminine article or determiner just before the name: "en la", "una", "esta".
#: A company's legal form at the end of its name, with what separates it ("…, S.L.", " LLC").
_LEGAL_FORM = re.compile(
    r",?\s+(?:S\.\s?[AL]\.(?:\s?U\.)?|S\.\s?Coop\.|S\.\s?C\.\s?[LA]\.|S\.\s?A\.\s?T\.|S(?:LU|L|A|CL|CA|AT)"
    r"|LLC|Ltd\.?|GmbH|SRL|S\.\s?R\.\s?L\.|Inc\.|SARL|B\.\s?V\.)$")
#: The trades a company with a legal form and no ordinary first word is given.
_TRADES = ("Comercial", "Distribuciones", "Industrias", "Talleres", "Servicios")
_FEMININE_BEFORE = re.compile(r"(?<!\w)(?:la|una|esta|dicha|nuestra|La|Una|Esta)\s+$")
#: "Instituto Riojano del Corazón (IRC)": a name with its acronym in brackets.
_NAMED_ACRONYM = re.compile(r"(?P<name>.*\S)\s*\((?P<acronym>[^\W\d_a-z]{2,})\)")


@dataclass(frozen=True)
class Place:
    """What an institution's template names: the note's surrogate province, community and town
    where known (``None``: drawn), and the original's own, never drawn."""

    province: str | None = None
    community: str | None = None
    town: str | None = None
    avoid: frozenset[str] = frozenset()


class InstitutionGenerator:
    """INSTITUCION: a template chosen by the name's first words (Universidad, Instituto…)
    filled with surrogate places and surnames; acronyms become other acronyms."""

    name = "institutions"
    phase = 2

    def __init__(self, data: SurrogateData, territories: TerritoryGenerator | None = None) -> None:
        self.data = data
        self.territories = territories

    @cached_property
    def makers(self) -> frozenset[str]:
        """The folded names and aliases of the pack's drug and device makers (organisation list,
        kind ``manufacturer``): MEDDOCAN leaves the maker of an implant in clear."""
        pack = self.data.pack
        if "organisation" not in pack.tables:
            return frozenset()
        return frozenset(fold(name) for row in pack.table("organisation").rows
                         if row.get("kind") == "manufacturer"
                         for name in (row["name"], *filter(None, (row.get("aliases") or "").split("|"))))

    def made_by(self, text: str) -> bool:
        """Does the span open with a maker's name ("Medtronic Azure XT DR MRI SureScan", a
        pacemaker's model)?"""
        words = LETTERS.findall(text)
        return any(fold(" ".join(words[:k])) in self.makers for k in range(1, min(4, len(words)) + 1))

    def named_place(self, name: str) -> tuple[str, str, str]:
        """The Spanish place an institution's name names, last one first: ("town", town,
        province), ("province", province, province), ("community", community, "") — a community
        by its name or its adjective ("Servicio Andaluz de Salud") —, or ("", "", "")."""
        data = self.data
        words = LETTERS.findall(name)
        for end in range(len(words), 0, -1):
            for begin in range(max(0, end - 5), end):
                phrase = " ".join(words[begin:end])
                if not phrase[:1].isupper() or fold(phrase) in data.name_particles:
                    continue
                town = data.find_town(phrase)
                if town is not None:
                    return "town", town[0], town[1]
                if fold(phrase) in data.province_lookup:
                    province = data.province_lookup[fold(phrase)]
                    return "province", province, province
                if fold(phrase) in data.community_lookup:
                    return "community", data.community_lookup[fold(phrase)], ""
        folded = " ".join(words_of(name.replace("-", " ")))
        for form, (community, _) in data.community_adjective.items():
            if f" {form.replace('-', ' ')} " in f" {folded} ":
                return "community", community, ""
        return "", "", ""

    def place(self, name: str, start: int, end: int, state: DocumentState) -> Place:
        """Where the template's places come from (see the module's docstring)."""
        data = self.data
        kind, value, province = self.named_place(name)
        avoid = frozenset(fold(v) for v in (value, province, data.province_community.get(province, "")) if v)
        territories = self.territories
        if kind == "town" and fold(value) in state.town_provinces:
            target = state.town_provinces[fold(value)][1]
            town = state.memo[("territory-plain", fold(value))].text
            return Place(target, data.province_community.get(target), town, avoid)
        if kind in ("town", "province") and territories is not None:
            target = territories.province_surrogate(province, state)
            return Place(target, data.province_community.get(target or ""), None, avoid)
        if kind == "community":
            # the note's towns of that community went somewhere: the institution goes with them
            # ("Servicio Castellano-Leonés de Salud … Medina del Campo (Valladolid)" -> the
            # health service of the community of the town Medina del Campo became)
            followed = next((t for o, t in state.province_map.items()
                             if data.province_community.get(o) == value), None)
            if followed:
                return Place(followed, data.province_community.get(followed), None, frozenset())
        if kind == "community" and territories is not None:
            return Place(None, territories.community_surrogate(value, state), None, avoid)
        if kind:
            return Place(avoid=avoid)
        target = nearby_province(state, start, end)
        return Place(target, data.province_community.get(target or ""), None, avoid)

    def fill(self, template: str, rng: random.Random, place: Place | None = None) -> str:
        place = place or Place()
        data = self.data
        community_provinces = data.provinces_of.get(place.community or "", [])

        def drawn(options: list[str]) -> str:
            kept = [o for o in options if fold(o) not in place.avoid]
            return rng.choice(kept or options)

        def province() -> str:
            if place.province:
                return place.province
            return drawn(sorted(community_provinces) or sorted(data.province_code))

        def town() -> str:
            # the note's own town where the original named it, else a capital: universities,
            # faculties, courts and institutes are in one ("Facultad de Medicina de Torre-Pacheco"
            # would stand out)
            return place.town or data.capitals[province()]

        def community() -> str:
            if place.community:
                return place.community
            if place.province:
                return data.province_community[place.province]
            return drawn(data.communities)

        def surname() -> str:
            pool = data.surname_pool
            return weighted_choice(rng, pool.items[:300], pool.cum[:300])

        fillers = {"municipality": town, "surname": surname, "province": province, "community": community}
        if "{community}" in template:  # "de {community}" -> "del País Vasco", "de la Comunidad de Madrid"
            value = community()
            after_de = data.extra.get("community_after_de") or {}
            template = template.replace("de {community}", str(after_de.get(value, f"de {value}")))
            template = template.replace("{community}", value)
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
        kin = self.data.acronyms_of_kind.get(key)
        if kin:  # a listed body's acronym: another of its kind ("SERGAS" -> "SESCAM", not "ISCIII")
            levels.append(Level(lambda rng: rng.choice(kin), "institution:kind", options=kin))
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

    def company(self, name: str) -> list[str] | None:
        """Templates for a company no head of the pack's names that writes its legal form: the
        form kept, after a generic trade and a surname ("Kolkhida Trans LLC" -> "Comercial Ortega
        LLC", "Conservas Vegetales del Noroeste S.L." -> "Talleres Ruiz S.L."; the generic
        templates, a laboratory's, had made it "Guerrero Farma"). No word of the name is kept:
        its trade tells the reader which company it was ("Hullera"). None: no legal form."""
        legal = _LEGAL_FORM.search(name)
        if legal is None:
            return None
        own = {fold(w) for w in name.split()}  # "Talleres Ferri S.L." never "Talleres Ruiz S.L."
        return [f"{trade} {{surname}}{legal.group()}" for trade in _TRADES if fold(trade) not in own]

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
        if self.made_by(name):
            # a device's or a drug's maker and model name no one ("(Medtronic Azure XT DR MRI
            # SureScan, nº serie …)" had become "(Toledo Farma, …")
            return Surrogate(text, kept=True, note="a maker of drugs or devices names no one: kept")
        if folded not in self.data.institutions_regional and any(
                head == folded and (" " not in head or all(fold(t).startswith(head) for t in options))
                for head, options in self.data.institutions):
            # a kind alone names no institution ("si el Juzgado lo estima oportuno"): every
            # surrogate of its kind was the note's other court's, and it had become "Grupo Martínez";
            # nor does a national force whose every template repeats it ("Atestado de la Guardia
            # Civil": "Guardia Civil de …" holds the original, and it became "Domínguez Farma")
            return Surrogate(text, kept=True, note="a kind of institution alone names none: kept")
        default = self.data.institution_default
        templates = default
        for head, options in self.data.institutions:
            if folded.startswith(head):
                templates = options
                break
        if (templates is not default and folded not in self.data.institutions_regional
                and all(fold(t).startswith(folded + " ") for t in templates)):
            # a body written without its place ("Atestado número 551/2019 de la Policía Local"):
            # every template begins with the original, which names nobody (it had become
            # "Simón Farma")
            return Surrogate(text, kept=True, note="a kind of institution alone names none: kept")
        if templates is default and self.data.institution_feminine and _FEMININE_BEFORE.search(
                state.text, max(0, start - 8), start):
            # "la Hullera Vasco-Leonesa" had become "la Laboratorios Díaz": after a feminine
            # article, a name of that gender
            default = templates = self.data.institution_feminine
        if templates is default:
            templates = self.company(name) or default
        elif (legal := _LEGAL_FORM.search(name)) is not None and not any(
                _LEGAL_FORM.search(t) for t in templates):
            # a company of a listed kind keeps its legal form too ("Transportes Ebro, S.L." had
            # become "Transportes Ferreira.")
            templates = [t + legal.group() for t in templates]

        place = self.place(name, start, start + len(text), state)
        upper = len(letters) > 3 and all(c.isupper() for c in letters)  # a header in capitals

        def make(options: list[str], where: Place = place) -> Callable[[random.Random], str]:
            def one(rng: random.Random) -> str:
                new = self.fill(rng.choice(options), rng, where)
                if upper:  # "INSTITUTO DE MEDICINA LEGAL … DE CÓRDOBA" stays in capitals
                    new = new.upper()
                return f"{new} ({self.initials(new)})" if named else new

            return one

        levels = [Level(make(templates), "institution")]
        if templates is not default and place.community and not place.avoid and self.territories is not None:
            # the note's towns stayed in the community the name names, and a template that
            # names nothing else was the name itself ("Junta de Extremadura" beside Alange ->
            # Coria had become "Grupo Gómez"): the community's own surrogate
            kind, value, _ = self.named_place(name)
            if kind == "community":
                other = Place(None, self.territories.community_surrogate(value, state), None,
                              frozenset({fold(value)}))
                levels.append(Level(make(templates, other), "institution:community", "any-type",
                                    "the note's community named as written: another community"))
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
