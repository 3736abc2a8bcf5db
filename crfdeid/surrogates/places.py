"""Places: towns, provinces, postal codes, streets, hospitals, health centres, countries,
institutions.

A town becomes another town of the same province, weighted by population (a note from
Zaragoza stays a note from Aragón, and big towns stay likely). A postal code keeps its province
prefix, and agrees with the surrogate town written next to it: Spanish postal codes of a
province capital have 0 as third digit, other towns do not. Streets keep their type and the
spelling of it ("c/", "Avda."), their shape (number ranges, floor, door); hospitals and health
centres keep their facility type ("Hospital Universitario X" stays a "Hospital Universitario …").
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import replace

from rapidfuzz.distance import Levenshtein

from .base import (
    LETTERS,
    DocumentState,
    Level,
    Surrogate,
    SurrogateFailure,
    chosen,
    fold,
    match_case,
    normalise,
    scramble,
    too_close,
    weighted_choice,
)
from .data import Pool, SurrogateData, country_key, display, size_class

_POSTAL = re.compile(r"(?P<lead>E-?)?(?P<code>\d{5})")
#: "s/n" (sin número) is one token, kept: cut in three, its "s" became another letter ("d/n").
_TAIL_TOKEN = re.compile(r"\d+\s*-\s*\d+(?![^\W\d_])|\d+|(?i:s\s?/\s?n)\b|[^\W\d_]+|.", re.DOTALL)
_RANGE = re.compile(r"(\d+)(\s*-\s*)(\d+)")
#: Numbers up to this many digits are drawn as numbers; longer ones (junk) digit by digit.
_SHORT = 18
_ORDINAL_MARKS = "ºª"
#: How far (characters, same line or the next) a postal code looks for the town it belongs to.
TOWN_WINDOW = 40
#: How far (characters, same line or the next) a hospital or health centre looks for its town.
FACILITY_WINDOW = 80
#: What separates a town from its province written after it: "Alcorcón (Madrid)", "Getafe,
#: Madrid", "Aranda de Duero / Burgos", "Utrera - Sevilla", "Aranjuez. Madrid".
_PAIR_GAP = re.compile(r"\s*[(,/.-]\s*|\s+")
#: Spelt ordinal endings glued to a floor number ("1er piso", "2do", "3ra"): they fit only it.
_ORDINAL_SUFFIXES = frozenset(
    ("er", "ero", "era", "ro", "ra", "do", "da", "to", "ta", "vo", "va", "no", "na", "mo", "ma")
)


def _digits(number: str, rng: random.Random) -> str:
    """A number of the same length, digit by digit, with a leading zero only where it had one."""
    first = "0123456789" if number[:1] == "0" else "123456789"
    return rng.choice(first) + "".join(rng.choice("0123456789") for _ in number[1:])


def _weights(cum: list[float]) -> list[float]:
    """The weights behind cumulative weights."""
    return [b - a for a, b in zip([0.0, *cum[:-1]], cum, strict=True)]


def _cased(model: str, word: str) -> str:
    """UPPER stays UPPER; anything else takes the surrogate's own capitalisation."""
    letters = [c for c in model if c.isalpha()]
    return word.upper() if len(letters) > 1 and all(c.isupper() for c in letters) else word


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
        self._filtered: dict[tuple[int, bool, str], Pool | None] = {}

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Pair provinces written after their town, then replace the towns (paired ones first,
        provinces last), so that postal codes, hospitals, phones and provinces written elsewhere
        can follow them. A town that fails here fails again in ``generate``, where the
        pseudonymiser catches and records it."""
        text = state.text
        places = sorted((s, e) for s, e, label in spans if label == "TERRITORIO")
        for (a_start, a_end), (b_start, b_end) in itertools.pairwise(places):
            if not _PAIR_GAP.fullmatch(text[a_end:b_start]):
                continue
            town = self.data.find_town(text[a_start:a_end])
            province = self.data.province_lookup.get(fold(text[b_start:b_end].strip()))
            if province is not None and (town[1] == province if town else self.unknown(text[a_start:a_end])):
                state.town_pairs[b_start] = a_start
                state.paired_towns[a_start] = province
        paired = set(state.paired_towns)

        def rank(span: tuple[int, int, str]) -> tuple[int, int]:
            start, end, _ = span
            stripped = text[start:end].strip()
            province = self.data.find_town(stripped) is None and fold(stripped) in self.data.province_lookup
            # towns before unknown places (which go where the note's towns went), provinces last
            return (0 if start in paired else 3 if province else 2 if self.unknown(stripped) else 1, start)

        for start, end, label in sorted(spans, key=rank):
            if label != "TERRITORIO" or start in state.town_pairs:
                continue  # a paired province follows its town in generate
            if _POSTAL.fullmatch(text[start:end].strip()):
                continue  # a paired province follows its town in generate
            try:
                self.generate(text[start:end], label, start, state)
            except Exception:  # surfaces again, per span, in generate
                continue

    def unknown(self, text: str) -> bool:
        """A place name the pack does not know (a hamlet, "Puerto de Santa María" without its
        article), neither a town, a province, a community nor a postal code."""
        stripped = text.strip()
        key = fold(stripped)
        return not (_POSTAL.fullmatch(stripped) or self.data.find_town(stripped) is not None
                    or key in self.data.province_lookup or key in self.data.community_lookup)

    def neutral_category(self, text: str, label: str) -> str:
        stripped = text.strip()
        if _POSTAL.fullmatch(stripped):
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
            capital_of, town_province = self.data.capital_of, self.data.town_province
            pairs = [(item, weight) for item, weight in zip(pool.items, _weights(pool.cum), strict=True)
                     if (capitals or item not in capital_of) and weight > 0
                     and not (away and town_province.get(item) == away)]
            self._filtered[key] = Pool.of(pairs) if pairs else None
        filtered = self._filtered[key]
        return filtered.choose if filtered is not None else None

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

    def town(self, text: str, province: str, state: DocumentState,
             town: str | None = None, other_province: bool = False) -> tuple[str, Level]:
        return state.draw_chain(text, self.town_levels(province, town, other_province), "town")

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        postal = _POSTAL.fullmatch(stripped)
        if postal:
            new, level = self.postal_code(stripped, postal, start, state)
            return chosen(text.replace(stripped, new), level, "postal code")
        if (self.countries is not None and country_key(stripped) in self.data.country_code
                and self.data.find_town(stripped) is None):
            return self.countries.generate(text, "PAIS", start, state)  # España kept, as under PAIS
        if start in state.town_pairs:
            paired = self.paired_province(text, stripped, start, state)
            if paired is not None:
                return paired
        key = fold(stripped)
        memo_key = ("territory", key)
        if memo_key in state.memo:
            known = state.memo[memo_key]
            plain = state.memo[("territory-plain", key)].text
            if key in state.town_provinces:
                province, target = state.town_provinces[key]
                state.towns.add(start, start + len(text), province, plain, target)
            # the same surrogate, in this mention's case ("Sevilla" ... "SEVILLA")
            return replace(known, text=text.replace(stripped, _cased(stripped, plain)))
        found = self.data.find_town(stripped)
        if found is not None:
            shown, province = found
            paired = start in state.paired_towns
            new, level = self.town(stripped, province, state, shown, other_province=paired)
            target = self.surrogate_province(new, level, province)
            state.town_provinces[key] = (province, target)
            state.province_map.setdefault(province, target)
            state.towns.add(start, start + len(text), province, new, target)
            note = "town of another province" if target != province else "town of the same province"
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, note)
        elif key in self.data.province_lookup:
            province = self.data.province_lookup[key]
            mapped = state.province_map.get(province)
            if mapped is not None and mapped != province and not too_close(mapped, stripped) \
                    and not state.contains_original(normalise(mapped)):
                # the note's towns of this province went to another: the province goes with them
                new = mapped
                written = text.replace(stripped, _cased(stripped, new))
                result = Surrogate(written, note="province of its towns")
            else:
                community = self.data.province_community[province]
                siblings = [p for p in self.data.provinces_of[community] if p != province]
                everywhere = sorted(self.data.province_code)
                levels = [
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
                new, level = state.draw_chain(stripped, levels, "province")
                result = chosen(text.replace(stripped, _cased(stripped, new)), level, "province")
            # a province where a town would be ("15006 La Coruña"): what is beside it follows
            state.town_provinces[key] = (province, new)
            state.province_map.setdefault(province, new)
            state.towns.add(start, start + len(text), province, new, new)
        elif key in self.data.community_lookup:
            communities = self.data.communities
            levels = [Level(lambda rng: rng.choice(communities), "community")]
            new, level = state.draw_chain(stripped, levels, "community")
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, "community")
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
                state.town_provinces[key] = (province, target)
                state.towns.add(start, start + len(text), province, new, target)
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, note)
        state.memo[memo_key] = result
        state.memo[("territory-plain", key)] = Surrogate(new)
        return result

    def paired_province(self, text: str, stripped: str, start: int, state: DocumentState) -> Surrogate | None:
        """The province written after its town: the surrogate town's province (None: the town
        could not leave its province, and the province is replaced on its own)."""
        mention = state.towns.at(state.town_pairs[start])
        if mention is None:
            return None
        new = mention.target
        if new == mention.province or too_close(new, stripped) or state.contains_original(normalise(new)):
            return None
        return Surrogate(text.replace(stripped, _cased(stripped, new)), note="province of the surrogate town")

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


class StreetGenerator:
    """CALLE: type kept as written, a surrogate name, the numbers' shape kept."""

    name = "streets"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def split(self, text: str) -> tuple[str, str | None, str, str]:
        """(type as written, type, name, tail with numbers/floor/door)."""
        folded = fold(text)
        type_text, kind = "", None
        for form, name in self.data.street_types:
            if folded.startswith(form) and (
                len(folded) == len(form) or not folded[len(form)].isalnum() or form.endswith(("/", "."))
            ):
                type_text, kind = text[: len(form)], name
                break
        rest = text[len(type_text) :]
        cut = re.search(r"\d|,|\bs\s?/\s?n\b|\bn(?:o\.|[º°.])|\bnúm", rest, re.IGNORECASE)
        name_end = cut.start() if cut else len(rest)
        return type_text, kind, rest[:name_end], rest[name_end:]

    def new_name(self, old: str, names: list[str], rng: random.Random) -> str:
        new = rng.choice(names)
        # what separates the type from the name stays ("Av/ Colombia", "C.: Mayor")
        first = next((i for i, c in enumerate(old) if c.isalnum()), len(old))
        lead = old[:first]
        stripped = old[first:].strip()
        trail = old[len(old.rstrip()) :]
        connector = re.match(r"(de|del|d')\s*(la|las|los|el)?\s+", stripped, re.IGNORECASE)
        if connector:
            first, _, rest = new.partition(" ")
            if fold(first) in ("la", "las", "los") and rest:
                new = f"de {first.lower()} {rest}"
            elif fold(first) == "el" and rest:
                new = f"del {rest}"
            else:
                new = f"de {new}"
            if stripped[:1].isupper():
                new = new[:1].upper() + new[1:]
        return lead + _cased(stripped, new) + trail

    def new_tail(self, tail: str, rng: random.Random) -> str:
        out = []
        tokens = _TAIL_TOKEN.findall(tail)
        for index, token in enumerate(tokens):
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            if token.isdigit() and fold(following) in _ORDINAL_SUFFIXES:
                out.append(token)  # a floor written "1er", "2do": the suffix fits only its number
                continue
            numbers = _RANGE.fullmatch(token)
            short = numbers is not None and max(len(numbers[1]), len(numbers[3])) <= _SHORT
            if short and int(numbers[3]) >= int(numbers[1]):
                # a number range keeps its width and its span ("5-7" -> "6-8")
                a, b = int(numbers[1]), int(numbers[3])
                width = max(len(str(a)), 1)
                new_a = rng.randint(10 ** (width - 1) if width > 1 else 1, 10**width - 1)
                out.append(f"{new_a}{numbers[2]}{new_a + max(b - a, 0)}")
            elif numbers:  # two numbers, not a range ("# 49-00" in a Colombian address)
                out.append(_digits(numbers[1], rng) + numbers[2] + _digits(numbers[3], rng))
            elif token.isdigit() and len(token) <= _SHORT:
                low = 10 ** (len(token) - 1) if len(token) > 1 else 1
                out.append(str(rng.randint(low, 10 ** len(token) - 1)))
            elif token.isdigit():
                out.append(_digits(token, rng))
            elif token.isalpha() and token not in _ORDINAL_MARKS:
                if fold(token) in self.data.address_words:
                    out.append(token)
                elif len(token) == 1:
                    out.append(match_case(token, rng.choice("abcdefgh")))
                elif re.fullmatch(r"[IVXLC]+", token):  # "Bloque II": another numeral
                    out.append(rng.choice(("I", "II", "III", "IV", "V", "VI")))
                elif token[0].isupper():
                    # a neighbourhood or building ("476, Juárez"): a surname reads like one,
                    # where scrambled letters ("Dxbwfz") showed the reader what was replaced
                    new = token
                    for _ in range(5):
                        new = self.data.surname_pool.choose(rng)
                        if fold(new) != fold(token):
                            break
                    out.append(new.upper() if token.isupper() else new)
                else:
                    out.append(token)
            else:
                out.append(token)
        return "".join(out)

    def neutral_category(self, text: str, label: str) -> str:
        return "street"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: a street name of the original's type -> of any type."""
        type_text, kind, name, tail = self.split(text)

        def make(names: list[str]) -> Callable[[random.Random], str]:
            def one(rng: random.Random) -> str:
                new_name = self.new_name(name, names, rng) if name.strip() else name
                return type_text + new_name + self.new_tail(tail, rng)

            return one

        typed = self.data.streets.get(kind or "", [])
        anywhere = self.data.streets["*"]
        if typed:
            levels = [
                Level(make(typed), "street"),
                Level(
                    make(anywhere),
                    "street",
                    "any-type",
                    "no safe street name of the original's type: a street name of any type",
                ),
            ]
        elif kind is not None:
            levels = [
                Level(
                    make(anywhere),
                    "street",
                    "any-type",
                    "no street of the original's type in the pack: a street name of any type",
                )
            ]
        else:
            levels = [Level(make(anywhere), "street")]
        new, level = state.draw_chain(text, levels, "street")
        return chosen(new, level, f"type {kind}" if kind else "")


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


#: Continents, for a region whose own countries run out (world regions are named *_africa…).
_CONTINENTS = {
    "africa": ("africa",), "america": ("america", "caribbean"), "asia": ("asia",),
    "europe": ("europe",), "oceania": ("australia", "melanesia", "micronesia", "polynesia"),
}


def continent_of(region: str) -> str:
    return next((c for c, keys in _CONTINENTS.items() if any(k in region for k in keys)), region)


class CountryGenerator:
    """PAIS: another country of the same world region (Senegal -> Malí, never Japón), frequent
    ones in Spanish notes more likely; a nationality adjective becomes the surrogate country's,
    in the same gender and number. The pack's home country ("España", "española") is kept by
    default: it identifies no one, and a foreign country in every address gives the text away."""

    name = "countries"
    phase = 2

    def __init__(self, data: SurrogateData, keep_home_country: bool = True) -> None:
        self.data = data
        self.keep_home_country = keep_home_country
        by_region: dict[str, list[str]] = {}
        for code, region in data.region_of.items():
            if code in data.country_name and code != data.home_code:
                by_region.setdefault(region, []).append(code)
        self.by_region = {r: sorted(codes) for r, codes in by_region.items()}

    def neutral_category(self, text: str, label: str) -> str:
        return "country"

    def home(self, text: str) -> bool:
        """Is this the home country, by name, alias or nationality adjective?"""
        data = self.data
        return data.home_code is not None and (
            data.country_code.get(country_key(text)) == data.home_code or fold(text) in data.home_words
        )

    def misspelt(self, text: str) -> str | None:
        """The country a name of five letters or more is one typing slip away from ("Chie" is
        too short to tell; "Argentia" is Argentina): its region still applies."""
        key = country_key(text)
        if len(key) < 5:
            return None
        near = {code for name, code in self.data.country_code.items()
                if abs(len(name) - len(key)) <= 1 and Levenshtein.distance(name, key, score_cutoff=1) <= 1}
        return near.pop() if len(near) == 1 else None

    def _pool(self, codes: list[str], adjective: bool) -> Callable[[random.Random], str] | None:
        """A weighted draw among ``codes`` (only those with adjectives when one is needed)."""
        if adjective:
            codes = [c for c in codes if c in self.data.nationality]
        if not codes:
            return None
        weights = [self.data.country_weight[c] for c in codes]
        return lambda rng: rng.choices(codes, weights=weights, k=1)[0]

    def levels(self, code: str | None, adjective: bool) -> list[Level]:
        """Same region -> same continent -> any country. Countries with a nationality adjective
        come first at each step (the common ones, and a later "senegalesa" can follow its
        country); a name may then fall back on the others, an adjective may not."""
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
            levels.append(Level(self._pool(codes, True), category, fallback, reason))
            if not adjective:
                levels.append(Level(self._pool(codes, False), category + ":all", fallback, reason))
        return levels

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
        names = {c: data.country_name[c] for c in data.country_name}
        levels = [
            Level(None if level.make is None else (lambda rng, make=level.make: names[make(rng)]),
                  level.category, level.fallback, level.reason)
            for level in self.levels(code, adjective)
        ]
        new, level = state.draw_chain(canonical, levels, "country")
        if adjective:
            new_code = data.country_code[country_key(new)]
            forms = data.nationality.get(new_code)
            if forms is None:
                raise SurrogateFailure("the surrogate country has no nationality adjective")
            return chosen(text.replace(stripped, match_case(stripped, forms[index])), level, "nationality")
        # "EE. UU." and "USA" are abbreviations, not upper case: "Canadá", not "CANADÁ"
        abbreviated = "." in stripped or sum(c.isalpha() for c in stripped) <= 4
        return chosen(text.replace(stripped, new if abbreviated else _cased(stripped, new)), level)


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
