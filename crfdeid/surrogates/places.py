"""Places: towns, provinces, postal codes and countries (streets are in ``streets``, hospitals
and health centres in ``facilities``, institutions in ``institutions``).

A town becomes another town of the same province, weighted by population (a note from
Zaragoza stays a note from Aragón, and big towns stay likely). A postal code keeps its province
prefix, and agrees with the surrogate town written next to it: Spanish postal codes of a
province capital have 0 as third digit, other towns do not.
"""

from __future__ import annotations

import itertools
import operator
import random
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import cache
from itertools import repeat

from rapidfuzz.distance import Levenshtein

from ..memo import Memo
from .base import (
    LETTERS,
    MAX_ATTEMPTS,
    DocumentState,
    ForeignPlace,
    Level,
    Surrogate,
    SurrogateFailure,
    chosen,
    fold,
    match_case,
    normalise,
    scramble,
    too_close,
)
from .data import Pool, SurrogateData, country_key, display, size_class
from .postal import PostalCodes

_POSTAL = re.compile(r"(?P<lead>E[- ]?)?(?P<code>\d{5})")
#: A postal code of another country ("1650000", "C1059ABG", "40140-276", "80 100"): digits, maybe
#: a few capitals at either end; its digits are redrawn, its letters and separators kept.
_FOREIGN_POSTAL = re.compile(r"(?=(?:\D*\d){3})[A-Z]{0,3}[- ]?\d[\d ./-]*[A-Z]{0,3}")
#: What may stand between a place and the country written after it: "Heredia, Costa Rica",
#: "Casablanca (Marruecos)", "Monterrey, Nuevo León, México" (other places are skipped).
_TO_COUNTRY = re.compile(r"[^\S\n]*[,.;:()/^-]{0,2}[^\S\n]*")
#: How far (characters) a place looks for the country written after it.
COUNTRY_WINDOW = 60
#: How far (characters, same line or the next) a postal code looks for the town it belongs to.
TOWN_WINDOW = 40
#: How far (characters) a province looks back, past postal codes, for its town: an address's
#: fields on their own lines ("Localidad: Coria / CP: 10800 / Provincia: Cáceres", a CDA's
#: ``<city>``, ``<postalCode>``, ``<state>``).
PROVINCE_WINDOW = 120
#: How far (characters, same line or the next) a hospital or health centre looks for its town.
FACILITY_WINDOW = 80
#: Fallback chains kept by a generator (they depend on the pack alone), at most this many.
LEVELS_CACHE_SIZE = 4096
#: How many times a town is redrawn while the draw is one the note refuses (its province named
#: elsewhere in the note, its island written after it).
MAX_REDRAWS = 8
#: Draws for a town after an elision: about one town in five begins with a vowel or an h.
ELIDED_REDRAWS = 40
#: An elided article or preposition right before a town ("l'", "d'", "L’").
_ELISION_BEFORE = re.compile(r"(?<![^\W\d_])[lLdD]['’]$")
#: A name an elision can go before: a vowel or an h first.
_ELIDABLE = re.compile(r"[AEIOUÁÉÍÓÚHaeiouáéíóúh]")
#: (country code, adjective wanted, countries to try first): what a chain of country draws depends on.
_ChainKey = tuple[str | None, bool, tuple[frozenset[str], ...]]
#: What separates a town from its province written after it: "Alcorcón (Madrid)", "Getafe,
#: Madrid", "Aranda de Duero / Burgos", "Utrera - Sevilla", "Aranjuez. Madrid".
_PAIR_GAP = re.compile(r"\s*[(,/.^-]\s*|\s+")  # "^": an HL7 address's components

#: What may stand between a town and its province besides postal codes: punctuation, line
#: breaks, markup and the fields' names ("Coria (10800), Cáceres", "Localidad: Coria / CP:
#: 10800 / Provincia: Cáceres", "<city>Coria</city> <postalCode>…", a FHIR address's
#: ``"city": "Carmona", "district": "Sevilla"``), never a sentence's words.
_FIELD_GAP = re.compile(
    r"(?:\s|[,;:()/.\-^|*#>\"']|<[^<>\n]*>|(?i:c\.?\s?p\.?|c[óo]digo\s+postal|provincia|prov\.|municipio"
    r"|localidad|poblaci[óo]n|estado|state|city|postal\s?code|postcode|zip|district|county))*")

#: What a birthplace follows ("natural de", "originario de la región de", "nacida en").
_ORIGIN_BEFORE = re.compile(
    r"(?:natural|originari[oa]s?|oriund[oa]s?|nacid[oa]s?|procedentes?)\s+(?:de|en)\s+"
    r"(?:(?:la\s+región|la\s+provincia|la\s+ciudad|el\s+pueblo)\s+de\s+)?$", re.IGNORECASE)


def _distinct(items: Iterable[str], limit: int) -> tuple[str, ...]:
    """The first ``limit`` distinct items, in order, reading no further than needed."""
    seen: dict[str, None] = {}
    for item in items:
        seen[item] = None
        if len(seen) >= limit:
            break
    return tuple(seen)


def cased(model: str, word: str) -> str:
    """UPPER stays UPPER; anything else takes the surrogate's own capitalisation."""
    letters = [c for c in model if c.isalpha()]
    return word.upper() if len(letters) > 1 and all(c.isupper() for c in letters) else word


def nearby_province(state: DocumentState, start: int, end: int, window: int = FACILITY_WINDOW) -> str | None:
    """The province an address part between ``start`` and ``end`` follows: that of the surrogate
    town written beside it (after it first: "C/ Mayor 3, 50009 Zaragoza"), else where the note's
    first town went (a note is about one place), else None."""
    for position in (end, start):
        near = state.towns.near(state.text, position, window)
        if near is not None and near.target:
            return near.target
    return next(iter(state.province_map.values()), None)


#: The particle between a district's kind and its name ("Barrio de la Estación").
_DISTRICT_CONNECTOR = re.compile(r"(?:de la|de las|de los|del|de) ")


class TerritoryGenerator:
    """TERRITORIO: municipalities, provinces, communities and postal codes.

    Fallback chains: a town -> another town of its size class in its province -> of its
    community -> of anywhere; a capital -> a capital of its size class in its community -> of
    its class anywhere -> of its community -> any capital; a province -> the province the note's
    towns of it went to, else another province of its community -> any province; a postal code
    -> the prefix of the surrogate town beside it -> another province's prefix. A province
    written right after its town ("Alcorcón (Madrid)", "Getafe, Madrid", "Localidad/ Provincia:
    Ayora/ Valencia") becomes the surrogate town's province, so that town is drawn from another
    province. Single-province communities take the later rungs on every note; the audit records
    it.
    """

    name = "territories"
    phase = 1

    def __init__(self, data: SurrogateData, countries: CountryGenerator | None = None) -> None:
        self.data = data
        self.countries = countries  # a country written as a place ("01009 Vitoria, España")
        self.postal = PostalCodes(data)
        self._filtered: dict[tuple[int, bool, str], Pool | None] = {}
        self._masks: dict[tuple[int, bool], list[bool]] = {}
        self._pool_provinces: dict[int, list[str | None]] = {}
        self._foreign_levels: dict[tuple[str, str, str], list[Level]] = {}
        self._town_levels_cache: Memo[tuple[str, str | None, bool], list[Level]] = Memo(LEVELS_CACHE_SIZE)

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Find the places in other countries (``find_foreign``), pair provinces written after
        their town, then replace the towns (paired ones first, provinces last), so that postal
        codes, hospitals, phones and provinces written elsewhere can follow them. A town that
        fails here fails again in ``generate``, where the pseudonymiser catches and records it."""
        text = state.text
        self.find_foreign(state, spans)
        places = sorted((s, e) for s, e, label in spans if label == "TERRITORIO")
        for (a_start, a_end), (b_start, b_end) in itertools.pairwise(places):
            if not _PAIR_GAP.fullmatch(text[a_end:b_start]):
                continue
            town = self.data.find_town(text[a_start:a_end])
            after = fold(text[b_start:b_end].strip())
            if town is not None and after in self.data.islands and self.data.town_island.get(town):
                state.paired_islands[a_start] = after  # "La Laguna (Tenerife)": an island
                continue
            province = self.data.province_lookup.get(after)
            if province is not None and (town[1] == province if town else self.unknown(text[a_start:a_end])):
                state.town_pairs[b_start] = a_start
                state.paired_towns[a_start] = province
        self._pair_past_postal_codes(text, places, state)
        paired = set(state.paired_towns)

        def rank(span: tuple[int, int, str]) -> tuple[int, int]:
            start, end, _ = span
            stripped = text[start:end].strip()
            province = self.data.find_town(stripped) is None and fold(stripped) in self.data.province_lookup
            # towns before unknown places (which go where the note's towns went), provinces last
            return (0 if start in paired else 3 if province else 2 if self.unknown(stripped) else 1, start)

        # the places alone are ranked (a stable sort keeps their order among themselves)
        for start, end, label in sorted((s for s in spans if s[2] == "TERRITORIO"), key=rank):
            if start in state.town_pairs:
                continue  # a paired province follows its town in generate
            if _POSTAL.fullmatch(text[start:end].strip()) or self.postal.read(text[start:end]):
                continue  # a postal code follows its town in generate
            try:
                self.generate(text[start:end], label, start, state)
            except Exception:  # surfaces again, per span, in generate
                continue

    def _pair_past_postal_codes(self, text: str, places: list[tuple[int, int]], state: DocumentState) -> None:
        """Pair a province with the town before it when only postal codes (and what an address
        puts between its fields) stand between them and the town lies in that province: "Coria
        (10800), Cáceres" had kept a town of Cáceres and made the province Pontevedra."""
        for i, (b_start, b_end) in enumerate(places):
            if b_start in state.town_pairs:
                continue
            province = self.data.province_lookup.get(fold(text[b_start:b_end].strip()))
            if province is None:
                continue
            gap_end = b_start
            for a_start, a_end in reversed(places[:i]):
                if b_start - a_end > PROVINCE_WINDOW or not _FIELD_GAP.fullmatch(text, a_end, gap_end):
                    break
                piece = text[a_start:a_end].strip()
                if _POSTAL.fullmatch(piece) or self.postal.read(piece):
                    gap_end = a_start
                    continue
                if fold(piece) == fold(text[b_start:b_end].strip()):
                    break  # the town named again ("Bern … 3010 Bern"), not its canton
                town = self.data.find_town(piece)
                if town is not None and town[1] == province and a_start not in state.paired_towns:
                    state.town_pairs[b_start] = a_start
                    state.paired_towns[a_start] = province
                break

    def country_code(self, text: str) -> str | None:
        """The ISO code of a country name written as a place or a country ("Marruecos", "EE.
        UU."), None for anything else (a town named like a country is a town)."""
        code = self.data.country_code.get(country_key(text.strip()))
        return code if code is not None and self.data.find_town(text) is None else None

    def country_inside(self, text: str) -> str | None:
        """The country a place's own name contains ("Santiago de Chile", "México D.F.", "Ciudad
        de Guatemala")."""
        words = LETTERS.findall(text)
        for size in range(min(3, len(words) - 1), 0, -1):
            for i in range(len(words) - size + 1):
                code = self.data.country_code.get(country_key(" ".join(words[i : i + size])))
                if code is not None:
                    return code
        return None

    def _country_after(self, text: str, ordered: list[tuple[int, int]], codes: list[str | None],
                       i: int) -> str | None:
        """The country written after place ``i`` on its line, maybe past other places ("Heredia,
        Costa Rica", "San Martín. Caracas. Venezuela"); the home country for a Spanish province
        there ("San Juan (Alicante)"); None for neither."""
        data, end = self.data, ordered[i][1]
        reach = end
        for j in range(i + 1, len(ordered)):
            gap = text[reach : ordered[j][0]]
            if ordered[j][0] - end > COUNTRY_WINDOW or not _TO_COUNTRY.fullmatch(gap):
                return None
            if codes[j]:
                return codes[j]
            after = fold(text[ordered[j][0] : ordered[j][1]].strip())
            if after in data.province_lookup or after in data.community_lookup:
                return data.home_code  # "San Juan (Alicante)": a Spanish province after it
            reach = ordered[j][1]
        return None

    def foreign_kind(self, text: str, country: str) -> str:
        """"region" for a region of the country in the pack's table ("Antioquia", "California"),
        else "city"."""
        options = self.data.foreign_lookup.get(fold(text.strip()), [])
        return "region" if (country, "region") in options and (country, "city") not in options else "city"

    def find_foreign(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """The note's places in other countries, into ``state.foreign_places``: a place with a
        foreign country written after it on its line ("Casablanca (Marruecos)", "Heredia, Costa
        Rica"; the home country or a Spanish province there makes it Spanish: "San Juan
        (Alicante)") or inside its name ("Santiago de Chile"); else a place the pack does not know as
        Spanish but lists as a city or region of another country ("Caracas", "California"); else,
        in a note naming one foreign country and neither the home country nor a Spanish place,
        every place that is not clearly Spanish ("Localidad/ Provincia: Heredia" with "País:
        Costa Rica"). A place with the home country after it is Spanish."""
        data, text = self.data, state.text
        ordered = sorted((s, e) for s, e, label in spans if label in ("TERRITORIO", "PAIS"))
        places = {(s, e) for s, e, label in spans if label == "TERRITORIO"}
        codes = [self.country_code(text[s:e]) for s, e in ordered]
        home = data.home_code
        undecided = []
        named_like_country = {}
        for i, (start, end) in enumerate(ordered):
            # a place named like a country, with another country written after it on its line,
            # is a place of that country: "San Martín. Caracas. Venezuela" (a parish, not the
            # island of Saint Martin), "Georgia, Estados Unidos"
            if codes[i] and (start, end) in places:
                beside = self._country_after(text, ordered, codes, i)
                # or the country's own city named like it, the country after it: "natural de Santo
                # Domingo (República Dominicana)" (the city; it had become "Haití (Haití)")
                if beside is not None and beside != home and (beside != codes[i] or (beside, "city") in (
                        data.foreign_lookup.get(fold(text[start:end].strip()), []))):
                    named_like_country[i] = beside
                    codes[i] = None
        mentioned = {c for c in codes if c}
        for i, (start, end) in enumerate(ordered):
            stripped = text[start:end].strip()
            if i in named_like_country:
                code = named_like_country[i]
                state.foreign_places[start] = ForeignPlace(code, self.foreign_kind(stripped, code), True)
                continue
            if codes[i] or not stripped or (start, end) not in places:
                continue  # a country, or a PAIS span that is not a country name
            if _POSTAL.fullmatch(stripped) or _FOREIGN_POSTAL.fullmatch(stripped):
                continue
            beside = self._country_after(text, ordered, codes, i)
            spanish = not self.unknown(stripped)
            code = beside or (None if spanish else self.country_inside(stripped))
            if code is None and not spanish:
                options = data.foreign_lookup.get(fold(stripped), [])
                pick = next((o for o in options if o[0] in mentioned), options[0] if options else None)
                code = pick[0] if pick else None
            if code is None and not spanish and len(mentioned - {home}) == 1 and _ORIGIN_BEFORE.search(
                    text, max(0, start - 48), start):
                # where a patient of the one foreign country the note names was born, no table
                # holding it ("natural de Nador" beside "Marruecos" had become "Lora del Río")
                code = next(iter(mentioned - {home}))
            if code is None:
                undecided.append((start, stripped, spanish))
            elif code != home:
                kind = self.foreign_kind(stripped, code)
                state.foreign_places[start] = ForeignPlace(code, kind, code in mentioned)
        foreign = sorted(mentioned - {home})
        if len(foreign) == 1 and home not in mentioned:
            only = foreign[0]
            if not any(spanish and (only, "city") not in data.foreign_lookup.get(fold(stripped), [])
                       for _, stripped, spanish in undecided):  # no Spanish place: one foreign country
                for start, stripped, _ in undecided:
                    state.foreign_places[start] = ForeignPlace(only, self.foreign_kind(stripped, only), True)
        # how many places of each country and kind the note names, for the country's surrogate
        names: dict[ForeignPlace, set[str]] = {}
        for start, place in state.foreign_places.items():
            end = next(e for s, e in ordered if s == start)
            names.setdefault(place, set()).add(fold(text[start:end].strip()))
        for start, place in state.foreign_places.items():
            state.foreign_places[start] = replace(place, siblings=len(names[place]))

    def foreign_levels(self, country: str, kind: str, original: str) -> list[Level]:
        """A city (or region) of ``country``, the big ones (CLDR's) first (a region: else a city
        of it) -> of another country of its world region -> of its continent -> of anywhere;
        never of the ``original`` country when that was replaced."""
        key = (country, kind, original)
        if key not in self._foreign_levels:
            self._foreign_levels[key] = self._foreign_chain(country, kind, original)
        return self._foreign_levels[key]

    def _foreign_chain(self, country: str, kind: str, original: str) -> list[Level]:
        data = self.data
        region = data.region_of.get(country)
        others = sorted({c for c, _ in data.foreign_places if c not in (country, original)})
        near = [c for c in others if region is not None and data.region_of.get(c) == region]
        in_near = set(near)  # a set: ``others`` holds some two hundred countries
        continent = [c for c in others if region is not None and c not in in_near
                     and continent_of(data.region_of.get(c, "")) == continent_of(region)]

        def draw(codes: list[str], major: bool) -> Callable[[random.Random], str] | None:
            """A country by how often Spanish notes name it (the frequent ones, not Svalbard),
            then one of its places."""
            table = data.foreign_major if major else data.foreign_places
            lists = [(table[(code, kind)], data.country_weight.get(code, 0.005)) for code in codes
                     if table.get((code, kind))]
            if not lists:
                return None
            # added up once, as ``choices`` would add up ``weights`` on every draw
            cum = list(itertools.accumulate(weight for _, weight in lists))
            return lambda rng: rng.choice(rng.choices(lists, cum_weights=cum, k=1)[0][0])

        def level(codes: list[str], major: bool, category: str, fallback: str | None = None,
                  reason: str = "") -> Level:
            table = data.foreign_major if major else data.foreign_places
            # the options are wanted only when few: the distinct names are counted no further
            # than one past the limit (the "anywhere" rung holds thousands)
            names = _distinct((n for code in codes for n in table.get((code, kind), ())), MAX_ATTEMPTS + 1)
            return Level(draw(codes, major), category, fallback, reason,
                         options=names if len(names) <= MAX_ATTEMPTS else None)

        what = "city" if kind == "city" else "region"
        levels = [level([country], major, f"foreign:{kind}") for major in (True, False)]
        if kind != "city":
            kind = "city"
            levels.append(level([country], True, "foreign:city", "any-type",
                                "no safe region of the country in the pack: one of its cities"))
        for codes, fallback, reason in (
            (near, "same region", f"no safe {what} of the country in the pack: one of its world region"),
            (continent, "same continent",
             f"no safe {what} of the country's world region: one of its continent"),
            (others, "anywhere", f"no safe {what} of the country's continent: one from anywhere"),
        ):
            levels += [level(codes, True, f"foreign:{kind}:{fallback}", fallback, reason),
                       level(codes, False, f"foreign:{kind}:{fallback}", fallback, reason)]
        return levels

    def foreign(self, text: str, stripped: str, start: int, state: DocumentState) -> Surrogate:
        """A place in another country: a city (region) of the country's surrogate when the note
        names the country ("Casablanca (Marruecos)" -> "Orán (Argelia)"), else of the same
        country ("Londres" -> "Belfast"... of the pack's lists), else of its region."""
        place = state.foreign_places[start]
        country = place.country
        if place.named and self.countries is not None:
            # one with as many places of the kind as the note names there, if its region has one
            country = self.countries.surrogate_code(country, state, place.kind, place.siblings) or country
        levels = self.foreign_levels(country, place.kind, place.country)
        new, level = state.draw_chain(stripped, levels, "town")
        note = "foreign place, of the country's surrogate" if place.named else "foreign place, of its country"
        # "CDMX", "D.F." are abbreviations, not upper case: "Managua", not "MANAGUA"
        abbreviated = "." in stripped or sum(c.isalpha() for c in stripped) <= 4
        return chosen(text.replace(stripped, new if abbreviated else cased(stripped, new)), level, note)

    def unknown(self, text: str) -> bool:
        """A place name the pack does not know (a hamlet, "Puerto de Santa María" without its
        article), neither a town, a province, a community nor a postal code."""
        stripped = text.strip()
        key = fold(stripped)
        return not (_POSTAL.fullmatch(stripped) or self.postal.read(stripped)
                    or self.data.find_town(stripped) is not None
                    or key in self.data.province_lookup or key in self.data.community_lookup)

    def neutral_category(self, text: str, label: str) -> str:
        stripped = text.strip()
        if _POSTAL.fullmatch(stripped) or _FOREIGN_POSTAL.fullmatch(stripped):
            return "postal_code"
        if self.data.find_town(stripped) is None:
            if fold(stripped) in self.data.province_lookup:
                return "province"
            if fold(stripped) in self.data.community_lookup:
                return "community"
        return "town"

    def town_levels(
        self, province: str, town: str | None = None, other_province: bool = False
    ) -> list[Level]:
        """``_town_levels``, built once per (province, town, other_province): the chain is the
        pack's, not the note's (bounded: cleared when full)."""
        key = (province, town, other_province)
        levels = self._town_levels_cache.get(key)
        if levels is None:
            levels = self._town_levels_cache.remember(key, self._town_levels(province, town, other_province))
        return levels

    def _town_levels(
        self, province: str, town: str | None = None, other_province: bool = False
    ) -> list[Level]:
        """Where a town of ``province`` may be replaced from, most faithful first.

        A province capital becomes another capital (of its size and community first); any
        other town a town of its size class (city, town, village) in its province, then its
        community, then anywhere, before the size is given up. Capitals are not drawn for other
        towns. ``other_province``: the town's province is written beside it and changes with
        it, so the town is never drawn from its own province."""
        data = self.data
        community = data.province_community.get(province, "")
        capital = town is not None and data.capital_of.get(town) == province
        levels = self.capital_levels(province, community) if capital else []
        away = province if other_province else ""
        if town is not None and not capital:
            size = size_class(data.town_population.get((town, province), 0.0))
            own_size = data.town_pool_class.get((province, size))
            community_size = data.community_town_pool_class.get((community, size))
            levels += [
                Level(None if away else self._draw(own_size), f"town:{province}:{size}"),
                Level(self._draw(community_size, away=away), f"town-community:{community}:{size}",
                      None if away else "community",
                      "" if away else "no safe town of the same size in the original's province: "
                      "one of its community"),
                Level(self._draw(data.town_pool_all_class.get(size), away=away), f"town:*:{size}", "anywhere",
                      "no safe town of the same size in the original's community: one from anywhere"),
                Level(None if away else self._draw(data.town_pool.get(province)), f"town:{province}:any-size",
                      "any-size", "no safe town of the same size anywhere: another town of its province"),
            ]
        own = data.town_pool.get(province) or data.town_pool_all
        wider = data.community_town_pool.get(community)
        if wider is not None and len(data.provinces_of.get(community, ())) < 2:
            wider = None  # a single-province community has no other towns
        sized = town is not None
        levels += [
            Level(own.choose if len(own.items) > 1 and not away else None, f"town:{province}",
                  "any-size" if sized else None,
                  "no safe town other than a capital in the province: any town of it" if sized else ""),
            Level(
                self._draw(wider, capitals=True, away=away),
                f"town-community:{community}",
                "community",
                "no safe town in the original's province: a town of the same community",
            ),
            Level(
                self._draw(data.town_pool_all, capitals=True, away=away),
                "town:*",
                "anywhere",
                "no safe town in the original's province or community: a town from anywhere",
            ),
        ]
        return levels

    def capital_levels(self, province: str, community: str) -> list[Level]:
        """Another province's capital, weighted by population, of the original's size class:
        of the same community, else of any province ("Madrid", a city alone in its community,
        becomes another city capital — Barcelona or Valencia likeliest —, never Teruel); only
        then a capital of another size (community, then anywhere). Ceuta and Melilla are
        capitals of their own."""
        data = self.data

        def population(p: str) -> float:
            return data.town_population.get((data.capitals[p], p), 0.0)

        size = size_class(population(province))

        def draw(provinces: list[str]) -> Callable[[random.Random], str] | None:
            pairs = [(data.capitals[p], max(population(p), 1.0)) for p in sorted(provinces) if p != province]
            return Pool.of(pairs).choose if pairs else None

        near = list(data.provinces_of.get(community, ()))
        every = sorted(data.capitals)
        near_sized = [p for p in near if size_class(population(p)) == size]
        every_sized = [p for p in every if size_class(population(p)) == size]
        return [
            Level(draw(near_sized), f"capital:{community}:{size}"),
            Level(draw(every_sized), f"capital:*:{size}", "anywhere",
                  "no other safe capital of its size in the original's community: a capital from "
                  "anywhere, of the same size"),
            Level(draw(near), f"capital:{community}", "any-size",
                  "no other safe capital of its size: a capital of the original's community"),
            Level(draw(every), "capital:*", "anywhere",
                  "no other safe capital in the original's community: a capital from anywhere"),
        ]

    def _draw(
        self, pool: Pool | None, capitals: bool = False, away: str = ""
    ) -> Callable[[random.Random], str] | None:
        """A draw from ``pool`` without the province capitals (unless ``capitals``) and without
        the towns of province ``away`` (``None`` if nothing is left)."""
        if pool is None:
            return None
        if capitals and not away:
            return pool.choose if pool.items else None
        key = (id(pool), capitals, away)
        if key not in self._filtered:
            keep = self._drawable(pool, capitals)
            if away:  # and not in province ``away``: compared in C, the pool is 8,000 towns long
                keep = list(map(operator.and_, keep, map(operator.ne, self._provinces(pool), repeat(away))))
            self._filtered[key] = pool.where(keep)
        filtered = self._filtered[key]
        return filtered.choose if filtered is not None else None

    def _drawable(self, pool: Pool, capitals: bool) -> list[bool]:
        """Which items of ``pool`` may be drawn at all: a weight above 0, and no province capital
        unless ``capitals`` (worked out once per pool and flag, for every province kept away)."""
        key = (id(pool), capitals)
        keep = self._masks.get(key)
        if keep is None:
            capital_of = self.data.capital_of
            keep = [weight > 0 and (capitals or item not in capital_of)
                    for item, weight in zip(pool.items, pool.weights, strict=True)]
            self._masks[key] = keep
        return keep

    def _provinces(self, pool: Pool) -> list[str | None]:
        """The province of each item of ``pool`` (as ``town_province`` has it), once per pool."""
        found = self._pool_provinces.get(id(pool))
        if found is None:
            found = self._pool_provinces[id(pool)] = list(map(self.data.town_province.get, pool.items))
        return found

    def surrogate_province(self, new: str, level: Level, province: str) -> str:
        """The province a surrogate town is in: the original's where the rung drew from it,
        a capital's own, else the most populous town of that name (in the rung's community)."""
        if level.category.startswith(f"town:{province}"):
            return province
        if new in self.data.capital_of:
            return self.data.capital_of[new]
        rows = self.data.municipality_lookup.get(fold(new), [])
        if level.category.startswith("town-community:"):
            community = level.category.split(":")[1]
            rows = [r for r in rows if self.data.province_community.get(r[1]) == community] or rows
        return rows[0][1] if rows else province

    def town(self, text: str, province: str, state: DocumentState, town: str | None = None,
             other_province: bool = False, off_island: str = "", elided: bool = False) -> tuple[str, Level]:
        """``off_island``: the island (folded) written after the town, which changes with it:
        the town is drawn off that island. ``elided``: written after "l'" or "d'"."""
        levels = self.town_levels(province, town, other_province)
        if other_province:
            # its province's name changes with it: never to one the note names ("Lepe (Huelva)"
            # drawn as "Tomares" in a note naming Sevilla would need "(Huelva)" to become
            # "(Sevilla)", an original: the province was then drawn on its own, "Tomares (Cádiz)")
            def named(new: str, target: str) -> bool:
                return target != province and state.contains_original(normalise(target))

            levels = [self._redrawn(level, province, named) for level in levels]
        if off_island:
            # "La Laguna (Tenerife)": a town of another island, for "(Tenerife)" to change with it
            def on_island(new: str, target: str) -> bool:
                where = self.data.town_island.get((new, target), "")
                return off_island in {fold(part) for part in where.split("/")}

            levels = [self._redrawn(level, province, on_island) for level in levels]
        return state.draw_chain(text, self._elided(levels, province, elided), "town")

    def _elided(self, levels: list[Level], province: str, elided: bool) -> list[Level]:
        """After an elided article or preposition ("l'Hospitalet", "d'Osona"), a town that
        begins with a vowel or an h, as the elision needs ("l'Mataró" told the reader); a rung
        whose draws never give one falls to the next, as for any unsafe draw."""
        if not elided:
            return levels
        out = []
        for level in levels:
            make = level.make
            if make is None:
                out.append(level)
                continue

            def vowel_first(rng: random.Random, make: Callable[[random.Random], str] = make) -> str:
                for _ in range(ELIDED_REDRAWS):
                    new = make(rng)
                    if _ELIDABLE.match(new):
                        return new
                return ""  # an unsafe draw: the rung fails, the next one is tried

            out.append(replace(level, make=vowel_first, options=None))
        return out

    def _redrawn(self, level: Level, province: str, refused: Callable[[str, str], bool]) -> Level:
        """``level`` redrawing, up to ``MAX_REDRAWS`` times from the same RNG, a town the caller
        refuses (``refused(town, its province)``)."""
        make = level.make
        if make is None:
            return level

        def redraw(rng: random.Random) -> str:
            new = make(rng)
            for _ in range(MAX_REDRAWS):
                if not refused(new, self.surrogate_province(new, level, province)):
                    break
                new = make(rng)
            return new

        return replace(level, make=redraw)

    def _island_followed(self, town: str, province: str, new: str, target: str, state: DocumentState) -> None:
        """Where a town on an island went to another island, that island is where the note's
        mentions of the first go (``island_map``)."""
        island = self.data.town_island.get((town, province))
        landed = self.data.town_island.get((new, target))
        if island and landed and landed != island:
            for part in island.split("/"):
                state.island_map.setdefault(fold(part), display(landed))

    def went_levels(self, town: str, province: str, went: str) -> list[Level]:
        """Where a town of ``province`` goes once the note's towns of it went to province
        ``went``: a capital to that province's capital, another town to a town of its size
        class there, then any town there; then the usual chain (``town_levels``)."""
        data = self.data
        capital = data.capital_of.get(town) == province
        size = size_class(data.town_population.get((town, province), 0.0))
        own = data.town_pool.get(went)
        levels = [
            Level((lambda rng: data.capitals[went]) if capital and went in data.capitals else None,
                  f"went:{went}:capital",
                  options=(data.capitals[went],) if went in data.capitals else None),
            Level(None if capital else self._draw(data.town_pool_class.get((went, size))),
                  f"went:{went}:{size}"),
            Level(None if capital or own is None else self._draw(own), f"went:{went}", "any-size",
                  "no safe town of the same size where the note's towns of its province went: any "
                  "town there"),
        ]
        return levels + self.town_levels(province, town)

    def district(self, text: str, stripped: str, state: DocumentState) -> Surrogate | None:
        """A district named with its kind ("Barrio de la Estación", "Barriada Príncipe Alfonso"):
        the kind kept, another district's name after it with the article it takes ("Barrio del
        Carmen"), never the original's (it had become a town: "en el Logroño")."""
        data = self.data
        kind = next((k for k in data.district_kinds if stripped.startswith(k + " ")), None)
        if kind is None or not data.district_names:
            return None
        rest = stripped[len(kind) + 1 :]
        connector = _DISTRICT_CONNECTOR.match(rest)
        own = fold(rest[connector.end() :] if connector else rest)
        options = [n for n in data.district_names if fold(n) != own and fold(n.split(" ", 1)[-1]) != own]

        def one(rng: random.Random) -> str:
            name = rng.choice(options)
            if connector is None:
                return f"{kind} {name}"
            article, _, bare = name.partition(" ")
            joined = {"El": "del", "La": "de la", "Los": "de los", "Las": "de las"}.get(article)
            return f"{kind} {joined} {bare}" if joined and bare else f"{kind} de {name}"

        new, level = state.draw_chain(stripped, [Level(one, "district")], "district")
        return chosen(text.replace(stripped, new), level, "district")

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        ranged = self.postal.read(stripped)
        if ranged is not None:  # a pack with postal-code ranges by state (crfdeid.surrogates.postal)
            levels, key = self.postal.levels(ranged, start + text.index(stripped), state)
            new, level = state.draw_chain(key, levels, "postal")
            return chosen(text.replace(stripped, new), level, "postal code")
        postal = _POSTAL.fullmatch(stripped)
        if postal:
            new, level = self.postal_code(stripped, postal, start, state)
            return chosen(text.replace(stripped, new), level, "postal code")
        if _FOREIGN_POSTAL.fullmatch(stripped):  # digits redrawn, letters and separators kept
            digits = re.compile(r"\d")
            redrawn = [Level(lambda rng: digits.sub(lambda _: rng.choice(string.digits), stripped), "postal")]
            new, level = state.draw_chain(stripped, redrawn, "postal")
            return chosen(text.replace(stripped, new), level, "postal code of another country")
        district = self.district(text, stripped, state)
        if district is not None:  # before a foreign place: "Cala Anguila" is no Anguilla
            return district
        if start in state.foreign_places:
            return self.foreign(text, stripped, start, state)
        if (self.countries is not None and country_key(stripped) in self.data.country_code
                and self.data.find_town(stripped) is None):
            return self.countries.generate(text, "PAIS", start, state)  # España kept, as under PAIS
        if start in state.town_pairs:
            paired = self.paired_province(text, stripped, start, state)
            if paired is not None:
                return paired
        key = fold(stripped)
        # an island named like a town of it ("Ibiza", "Formentera") is the island
        found = self.data.find_town(stripped) if key not in self.data.islands else None
        # one town, one surrogate, whichever of its names a mention writes ("La Laguna" and "San
        # Cristóbal de La Laguna", "Vitoria" and "Vitoria-Gasteiz" had two)
        identity = f"town:{found[0]}|{found[1]}" if found is not None else key
        memo_key = ("territory", identity)
        if memo_key in state.memo:
            known = state.memo[memo_key]
            plain = state.memo[("territory-plain", identity)].text
            state.memo[("territory-plain", key)] = Surrogate(plain)
            if identity in state.town_provinces:
                province, target = state.town_provinces[key] = state.town_provinces[identity]
                state.towns.add(start, start + len(text), province, plain, target)
            # the same surrogate, in this mention's case ("Sevilla" ... "SEVILLA")
            return replace(known, text=text.replace(stripped, cased(stripped, plain)))
        if found is not None:
            shown, province = found
            paired = start in state.paired_towns
            lead = start + text.index(stripped)
            elided = _ELISION_BEFORE.search(state.text, max(0, lead - 3), lead) is not None
            went = state.province_map.get(province)
            if not paired and went is not None and went != province:
                # a town of a province the note's towns left ("Lepe (Huelva)" went to Málaga):
                # it goes there too, not back to a town of Huelva beside "Málaga"
                new, level = state.draw_chain(
                    stripped, self._elided(self.went_levels(shown, province, went), province, elided), "town")
                target = went if level.category.startswith(f"went:{went}") else \
                    self.surrogate_province(new, level, province)
            else:
                new, level = self.town(stripped, province, state, shown, other_province=paired,
                                       off_island=state.paired_islands.get(start, ""), elided=elided)
                target = self.surrogate_province(new, level, province)
            self._island_followed(shown, province, new, target, state)
            state.town_provinces[key] = state.town_provinces[identity] = (province, target)
            state.province_map.setdefault(province, target)
            state.towns.add(start, start + len(text), province, new, target)
            note = "town of another province" if target != province else "town of the same province"
            result = chosen(text.replace(stripped, cased(stripped, new)), level, note)
        elif key in self.data.province_lookup:
            province = self.data.province_lookup[key]
            mapped = state.province_map.get(province)
            if mapped is not None and mapped != province and not too_close(mapped, stripped) \
                    and not state.contains_original(normalise(mapped)):
                # the note's towns of this province went to another: the province goes with them
                new = mapped
                written = text.replace(stripped, cased(stripped, new))
                result = Surrogate(written, note="province of its towns")
            else:
                new, level = state.draw_chain(stripped, self.province_levels(province), "province")
                result = chosen(text.replace(stripped, cased(stripped, new)), level, "province")
            # a province where a town would be ("15006 La Coruña"): what is beside it follows
            state.town_provinces[key] = state.town_provinces[identity] = (province, new)
            state.province_map.setdefault(province, new)
            state.towns.add(start, start + len(text), province, new, new)
        elif key in self.data.community_lookup:
            new, level = state.draw_chain(stripped, self.community_levels(), "community")
            result = chosen(text.replace(stripped, cased(stripped, new)), level, "community")
        elif key in self.data.islands:
            # the island the note's towns of it went to, else another island of the archipelago
            # ("Tenerife" -> "Lanzarote"), its first name
            others = sorted(display(n) for n in self.data.islands[key]
                            if key not in {fold(part.strip()) for part in n.split("/")})
            went = state.island_map.get(key)
            levels = [Level((lambda rng: went) if went else None, "island-of-towns",
                            options=(went,) if went else None),
                      Level((lambda rng: rng.choice(others)) if others else None, "island"),
                      Level(self.data.town_pool_all.choose, "town:*", "anywhere",
                            "no other safe island in the archipelago: a town")]
            new, level = state.draw_chain(stripped, levels, "island")
            result = chosen(text.replace(stripped, cased(stripped, new)), level, "island of the archipelago")
        else:
            # an unknown place written before its province ("Gorraiz (Navarra)") is a town of it
            province = state.paired_towns.get(start, "")
            note = "unknown place: a town"
            if province:
                new, level = self.town(stripped, province, state, other_province=True)
                target = self.surrogate_province(new, level, province)
                state.province_map.setdefault(province, target)
            elif state.province_map:
                # a neighbourhood or hamlet ("Playamar"): a town where the note's first town went
                home = next(iter(state.province_map.values()))
                new, level = self.town(stripped, home, state)
                target = self.surrogate_province(new, level, home)
                note = "unknown place: a town of the province the note's towns went to"
            else:
                levels = [Level(self.data.town_pool_all.choose, "town:*")]
                new, level = state.draw_chain(stripped, levels, "town")
                target = self.data.town_province.get(new, "")
            if target:  # its postal code, hospital and phone follow it; its province is unknown
                state.town_provinces[key] = state.town_provinces[identity] = (province, target)
                state.towns.add(start, start + len(text), province, new, target)
            result = chosen(text.replace(stripped, cased(stripped, new)), level, note)
        state.memo[memo_key] = result
        # the plain surrogate under the written name too: institutions and facilities look a
        # town up by the name they write ("Instituto de Medicina Legal de Málaga")
        state.memo[("territory-plain", identity)] = state.memo[("territory-plain", key)] = Surrogate(new)
        return result

    def province_levels(self, province: str) -> list[Level]:
        """Another province of the community -> any province."""
        community = self.data.province_community[province]
        siblings = [p for p in self.data.provinces_of[community] if p != province]
        everywhere = sorted(self.data.province_code)
        return [
            Level((lambda rng: rng.choice(siblings)) if siblings else None, "province"),
            Level(
                lambda rng: rng.choice(everywhere),
                "province",  # the category of old: same draws where the first rung is empty
                "anywhere",
                "no other safe province in the original's community: a province from anywhere"
                if siblings
                else "the original's community has one province: a province from anywhere",
            ),
        ]

    def community_levels(self) -> list[Level]:
        communities = self.data.communities
        return [Level(lambda rng: rng.choice(communities), "community")]

    def province_surrogate(self, province: str, state: DocumentState) -> str | None:
        """Where a province named outside a TERRITORIO span goes (an institution "de Cádiz"):
        where the note's towns of it went, else the draw a mention of it would get."""
        mapped = state.province_map.get(province)
        if mapped is not None and mapped != province:
            return mapped
        try:
            return state.draw_chain(province, self.province_levels(province), "province")[0]
        except SurrogateFailure:
            return None

    def community_surrogate(self, community: str, state: DocumentState) -> str | None:
        """Where a community named outside a TERRITORIO span goes ("Servicio Andaluz de
        Salud"): the community of a province the note's towns of it went to, else the draw a
        mention of it would get."""
        data = self.data
        for original, target in state.province_map.items():
            moved = data.province_community.get(target)
            if data.province_community.get(original) == community and moved and moved != community:
                return moved
        try:
            return state.draw_chain(community, self.community_levels(), "community")[0]
        except SurrogateFailure:
            return None

    def paired_province(self, text: str, stripped: str, start: int, state: DocumentState) -> Surrogate | None:
        """The province written after its town: the surrogate town's province (None: the town
        could not leave its province, and the province is replaced on its own)."""
        mention = state.towns.at(state.town_pairs[start])
        if mention is None:
            return None
        new = mention.target
        if new == mention.province or too_close(new, stripped) or state.contains_original(normalise(new)):
            return None
        return Surrogate(text.replace(stripped, cased(stripped, new)), note="province of the surrogate town")

    def postal_code(
        self, code_text: str, match: re.Match, start: int, state: DocumentState
    ) -> tuple[str, Level]:
        code = match["code"]
        lead = match["lead"] or ""
        province = self.data.code_province.get(code[:2])
        near = state.towns.near(state.text, start, TOWN_WINDOW)
        town: tuple[str, str] | None = None
        prefix = code[:2]
        if near is not None and near.province in (province, ""):  # "": a place the pack does not know
            # the code follows its town: a capital may have become another province's capital
            town = (near.province, near.surrogate)
            province = near.target
            prefix = self.data.province_code.get(province, prefix)
        elif province in state.province_map:
            # no town of its province beside it: where the note's towns of its province went
            province = state.province_map[province]
            prefix = self.data.province_code.get(province, prefix)

        def make(rng: random.Random) -> str:
            if province is None:
                return lead + scramble(code, rng)
            capital = town is not None and town[1] == self.data.capitals.get(province)
            digits = "0123456789" if town is None else "0" if capital else "123456789"
            third = rng.choice(digits)
            rest = "".join(rng.choice("0123456789") for _ in range(2))
            if rest == "00" and third == "0":
                rest = f"{rng.randint(1, 99):02d}"
            return lead + prefix + third + rest

        prefixes = sorted(self.data.code_province)

        def elsewhere(rng: random.Random) -> str:
            return lead + rng.choice(prefixes) + "".join(rng.choice("0123456789") for _ in range(3))

        key = code_text if town is None else f"{code_text}|{town[1]}"
        levels = [
            Level(make, "postal"),
            Level(
                elsewhere,
                "postal:any",
                "anywhere",
                "no safe postal code in the original's province: one of another province",
            ),
        ]
        return state.draw_chain(key, levels, "postal")


#: Continents, for a region whose own countries run out (world regions are named *_africa…).
_CONTINENTS = {
    "africa": ("africa",), "america": ("america", "caribbean"), "asia": ("asia",),
    "europe": ("europe",), "oceania": ("australia", "melanesia", "micronesia", "polynesia"),
}


@cache  # a few dozen regions, asked for every country of a chain
def continent_of(region: str) -> str:
    return next((c for c, keys in _CONTINENTS.items() if any(k in region for k in keys)), region)


class CountryGenerator:
    """PAIS: another country of the same world region (Senegal -> Malí, never Japón), frequent
    ones in Spanish notes more likely; a nationality adjective becomes the surrogate country's,
    in the same gender and number. The pack's home country ("España", "española") is kept by
    default: it identifies no one, and a foreign country in every address gives the text away.
    So are the countries of a pack whose communities are countries (Deutschland, Österreich,
    Schweiz: the note's towns stay in theirs), which are never a foreign country's surrogate."""

    name = "countries"
    phase = 2

    def __init__(self, data: SurrogateData, keep_home_country: bool = True) -> None:
        self.data = data
        self.keep_home_country = keep_home_country
        by_region: dict[str, list[str]] = {}
        for code, region in data.region_of.items():
            if code in data.country_name and code != data.home_code and code not in data.national_countries:
                by_region.setdefault(region, []).append(code)
        self.by_region = {r: sorted(codes) for r, codes in by_region.items()}
        self._levels: Memo[_ChainKey, list[Level]] = Memo(LEVELS_CACHE_SIZE)
        self._misspelt: Memo[str, str | None] = Memo(LEVELS_CACHE_SIZE)
        self._named: Memo[_ChainKey, list[Level]] = Memo(LEVELS_CACHE_SIZE)
        self._among: Memo[tuple[str, int], tuple[frozenset[str], ...]] = Memo(LEVELS_CACHE_SIZE)

    def neutral_category(self, text: str, label: str) -> str:
        return "country"

    def home(self, text: str) -> bool:
        """Is this the home country, by name, alias or nationality adjective (or a country of a
        pack whose communities are countries)?"""
        data = self.data
        code = data.country_code.get(country_key(text))
        if code is not None and code in data.national_countries:
            return True
        return data.home_code is not None and (code == data.home_code or fold(text) in data.home_words)

    def misspelt(self, text: str) -> str | None:
        """The country a name of five letters or more is one typing slip away from ("Chie" is
        too short to tell; "Argentia" is Argentina): its region still applies."""
        key = country_key(text)
        if len(key) < 5:
            return None
        if key not in self._misspelt:  # a scan of every country: remembered by name (bounded)
            near = {code for name, code in self.data.country_code.items()
                    if abs(len(name) - len(key)) <= 1
                    and Levenshtein.distance(name, key, score_cutoff=1) <= 1}
            return self._misspelt.remember(key, near.pop() if len(near) == 1 else None)
        return self._misspelt[key]

    def _pool(self, codes: list[str], adjective: bool) -> Callable[[random.Random], str] | None:
        """A weighted draw among ``codes`` (only those with adjectives when one is needed)."""
        if adjective:
            codes = [c for c in codes if c in self.data.nationality]
        if not codes:
            return None
        # added up once, as ``choices`` would add up ``weights`` on every draw
        cum = list(itertools.accumulate(self.data.country_weight[c] for c in codes))
        return lambda rng: rng.choices(codes, cum_weights=cum, k=1)[0]

    def levels(
        self, code: str | None, adjective: bool, among: tuple[frozenset[str], ...] = ()
    ) -> list[Level]:
        """Same region -> same continent -> any country. Countries with a nationality adjective
        come first at each step (the common ones, and a later "senegalesa" can follow its
        country); a name may then fall back on the others, an adjective may not. ``among``: sets
        of countries to try first, in order, at each step (those with as many cities in the pack
        as the note names, then those with one: for the note's cities to follow their country).
        Built once per arguments (they depend on the pack alone; bounded)."""
        key = (code, adjective, among)
        levels = self._levels.get(key)
        if levels is None:
            levels = self._levels.remember(key, self._chain(code, adjective, among))
        return levels

    def _chain(
        self, code: str | None, adjective: bool, among: tuple[frozenset[str], ...] = ()
    ) -> list[Level]:
        region = self.data.region_of.get(code or "")
        steps: list[tuple[list[str], str, str | None, str]] = []
        if region is not None:
            own = [c for c in self.by_region.get(region, []) if c != code]
            continent = continent_of(region)
            near = [c for r, codes in self.by_region.items() if continent_of(r) == continent
                    for c in codes if c != code and r != region]
            steps.append((own, "country", None, ""))
            steps.append((near, "country:continent", "same continent",
                          "no safe country in the same world region: one of the same continent"))
        every = [c for codes in self.by_region.values() for c in codes if c != code]
        if region is None:
            steps.append((every, "country", None, ""))
        else:
            steps.append((every, "country:any", "anywhere",
                          "no safe country on the same continent: any country"))
        levels = []
        for codes, category, fallback, reason in steps:
            for subset in (*(among or ()), None):  # the preferred countries first, at every step
                kept = codes if subset is None else [c for c in codes if c in subset]
                levels.append(Level(self._pool(kept, True), category, fallback, reason))
                if not adjective:
                    levels.append(Level(self._pool(kept, False), category + ":all", fallback, reason))
        return levels

    def draw(
        self, code: str | None, canonical: str, adjective: bool, state: DocumentState,
        among: tuple[frozenset[str], ...] = (),
    ) -> tuple[str, Level]:
        """The surrogate country's name for a country (its canonical name keys the draw)."""
        key = (code, adjective, among)
        levels = self._named.get(key)
        if levels is None:  # the chain of names, built once per arguments (bounded)
            names = self.data.country_name
            levels = self._named.remember(key, [
                Level(None if level.make is None else (lambda rng, make=level.make: names[make(rng)]),
                      level.category, level.fallback, level.reason)
                for level in self.levels(code, adjective, among)
            ])
        return state.draw_chain(canonical, levels, "country")

    def surrogate_code(
        self, code: str, state: DocumentState, kind: str = "city", needed: int = 1
    ) -> str | None:
        """The code of the country a foreign country of the note becomes — the same draw its
        mentions get, so that a city follows its country ("Casablanca (Marruecos)"), drawn among
        the countries with ``needed`` places of ``kind`` in the pack first, then with one; None
        when there is none."""
        among = self._among.get((kind, needed))
        if among is None:  # the pack's countries with that many places: remembered (bounded)
            places = self.data.foreign_places
            among = self._among.remember((kind, needed), tuple(
                frozenset(c for (c, k), names in places.items() if k == kind and len(names) >= n)
                for n in sorted({needed, 1}, reverse=True)))
        try:
            new, _ = self.draw(code, self.data.country_name.get(code, code), False, state, among)
        except SurrogateFailure:
            return None
        return self.data.country_code.get(country_key(new))

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        if self.keep_home_country and self.home(stripped):
            return Surrogate(text, kept=True, note="home country kept")
        data = self.data
        form = data.nationality_forms.get(fold(stripped))
        # "Alemana" is an adjective, not "Alemania" misspelt
        code = data.country_code.get(country_key(stripped)) or (None if form else self.misspelt(stripped))
        adjective = form is not None and (code is None or stripped[:1].islower())
        if adjective:
            assert form is not None
            code, index = form
        # the canonical name keys the draw: "EE. UU." and "Estados Unidos" get one surrogate,
        # and "senegalés" the adjective of the country "Senegal" became
        canonical = data.country_name.get(code or "", stripped)
        new, level = self.draw(code, canonical, adjective, state)
        if adjective:
            new_code = data.country_code[country_key(new)]
            forms = data.nationality.get(new_code)
            if forms is None:
                raise SurrogateFailure("the surrogate country has no nationality adjective")
            return chosen(text.replace(stripped, match_case(stripped, forms[index])), level, "nationality")
        if code is not None and stripped == data.country_alpha3.get(code):  # "ROU" -> "BGR"
            alpha3 = data.country_alpha3.get(data.country_code.get(country_key(new), ""))
            if alpha3 is not None:
                return chosen(text.replace(stripped, alpha3), level, "alpha-3 code")
        # "EE. UU." and "USA" are abbreviations, not upper case: "Canadá", not "CANADÁ"
        abbreviated = "." in stripped or sum(c.isalpha() for c in stripped) <= 4
        return chosen(text.replace(stripped, new if abbreviated else cased(stripped, new)), level)
