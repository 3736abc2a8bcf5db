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

import random
import re
from collections.abc import Callable

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
    weighted_choice,
)
from .data import Pool, SurrogateData, country_key, display, size_class

_POSTAL = re.compile(r"(?P<lead>E-?)?(?P<code>\d{5})")
#: "s/n" (sin número) is one token, kept: cut in three, its "s" became another letter ("d/n").
_TAIL_TOKEN = re.compile(r"\d+\s*-\s*\d+|\d+|(?i:s\s?/\s?n)\b|[^\W\d_]+|.", re.DOTALL)
_RANGE = re.compile(r"(\d+)(\s*-\s*)(\d+)")
#: Numbers up to this many digits are drawn as numbers; longer ones (junk) digit by digit.
_SHORT = 18
_ORDINAL_MARKS = "ºª"
#: How far (characters, same line or the next) a postal code looks for the town it belongs to.
TOWN_WINDOW = 40


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

    Fallback chains: a town -> another town of its province -> of its community -> of anywhere;
    a province -> another province of its community -> any province; a postal code -> its
    province's prefix agreeing with the town beside it -> another province's prefix. Ceuta and
    Melilla (provinces with one municipality) and single-province communities take the second
    rung on every note; the audit records it.
    """

    name = "territories"
    phase = 1

    def __init__(self, data: SurrogateData) -> None:
        self.data = data
        self._filtered: dict[int, Pool | None] = {}

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Replace the towns first, so that postal codes can agree with them. A town that fails
        here fails again in ``generate``, where the pseudonymiser catches and records it."""
        for start, end, label in spans:
            if label == "TERRITORIO" and not _POSTAL.fullmatch(state.text[start:end].strip()):
                try:
                    self.generate(state.text[start:end], label, start, state)
                except Exception:  # surfaces again, per span, in generate
                    continue

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

    def town_levels(self, province: str, town: str | None = None) -> list[Level]:
        """Where a town of ``province`` may be replaced from, most faithful first.

        A province capital becomes another capital (of the same community first); any other
        town a town of its size class (city, town, village) in its province, then its community,
        then anywhere, before the size is given up. Capitals are not drawn for other towns."""
        data = self.data
        community = data.province_community.get(province, "")
        capital = town is not None and data.capital_of.get(town) == province
        levels = self.capital_levels(province, community) if capital else []
        if town is not None and not capital:
            size = size_class(data.town_population.get((town, province), 0.0))
            own_size = data.town_pool_class.get((province, size))
            community_size = data.community_town_pool_class.get((community, size))
            levels += [
                Level(self._non_capital(own_size), f"town:{province}:{size}"),
                Level(self._non_capital(community_size), f"town-community:{community}:{size}", "community",
                      "no safe town of the same size in the original's province: one of its community"),
                Level(self._non_capital(data.town_pool_all_class.get(size)), f"town:*:{size}", "anywhere",
                      "no safe town of the same size in the original's community: one from anywhere"),
                Level(self._non_capital(data.town_pool.get(province)), f"town:{province}:any-size",
                      "any-size", "no safe town of the same size anywhere: another town of its province"),
            ]
        own = data.town_pool.get(province) or data.town_pool_all
        wider = data.community_town_pool.get(community)
        if wider is not None and len(data.provinces_of.get(community, ())) < 2:
            wider = None  # a single-province community has no other towns
        sized = town is not None
        levels += [
            Level(own.choose if len(own.items) > 1 else None, f"town:{province}",
                  "any-size" if sized else None,
                  "no safe town other than a capital in the province: any town of it" if sized else ""),
            Level(
                wider.choose if wider else None,
                f"town-community:{community}",
                "community",
                "no safe town in the original's province: a town of the same community",
            ),
            Level(
                data.town_pool_all.choose,
                "town:*",
                "anywhere",
                "no safe town in the original's province or community: a town from anywhere",
            ),
        ]
        return levels

    def capital_levels(self, province: str, community: str) -> list[Level]:
        """Another province's capital: of the same community, else of any province."""
        data = self.data
        near = sorted(data.capitals[p] for p in data.provinces_of.get(community, ()) if p != province)
        every = sorted(c for p, c in data.capitals.items() if p != province)
        return [
            Level((lambda rng: rng.choice(near)) if near else None, f"capital:{community}"),
            Level(lambda rng: rng.choice(every), "capital:*", "anywhere",
                  "no other safe capital in the original's community: a capital from anywhere"),
        ]

    def _non_capital(self, pool: Pool | None) -> Callable[[random.Random], str] | None:
        """A draw from ``pool`` without the province capitals (``None`` if nothing is left)."""
        if pool is None:
            return None
        key = id(pool)
        if key not in self._filtered:
            capitals = self.data.capital_of
            pairs = [(item, weight) for item, weight in zip(pool.items, _weights(pool.cum), strict=True)
                     if item not in capitals and weight > 0]
            self._filtered[key] = Pool.of(pairs) if pairs else None
        filtered = self._filtered[key]
        return filtered.choose if filtered is not None else None

    def town(self, text: str, province: str, state: DocumentState,
             town: str | None = None) -> tuple[str, Level]:
        return state.draw_chain(text, self.town_levels(province, town), "town")

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        postal = _POSTAL.fullmatch(stripped)
        if postal:
            new, level = self.postal_code(stripped, postal, start, state)
            return chosen(text.replace(stripped, new), level, "postal code")
        memo_key = ("territory", fold(stripped))
        if memo_key in state.memo:
            known = state.memo[memo_key]
            province = state.town_provinces.get(memo_key[1], "")
            if province:
                state.towns.add(start, start + len(text), province, known.text.strip())
            return known
        found = self.data.find_town(stripped)
        if found is not None:
            shown, province = found
            new, level = self.town(stripped, province, state, shown)
            state.town_provinces[memo_key[1]] = province
            state.towns.add(start, start + len(text), province, new)
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, "town of the same province")
        elif fold(stripped) in self.data.province_lookup:
            province = self.data.province_lookup[fold(stripped)]
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
        elif fold(stripped) in self.data.community_lookup:
            communities = self.data.communities
            levels = [Level(lambda rng: rng.choice(communities), "community")]
            new, level = state.draw_chain(stripped, levels, "community")
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, "community")
        else:
            levels = [Level(self.data.town_pool_all.choose, "town:*")]
            new, level = state.draw_chain(stripped, levels, "town")
            result = chosen(text.replace(stripped, _cased(stripped, new)), level, "unknown place: a town")
        state.memo[memo_key] = result
        return result

    def postal_code(
        self, code_text: str, match: re.Match, start: int, state: DocumentState
    ) -> tuple[str, Level]:
        code = match["code"]
        lead = match["lead"] or ""
        province = self.data.code_province.get(code[:2])
        near = state.towns.near(state.text, start, TOWN_WINDOW)
        town = (near.province, near.surrogate) if near is not None else None
        prefix = code[:2]
        if near is not None and near.province == province:
            # the code follows its town: a capital may have become another province's capital
            province = self.data.town_province.get(near.surrogate, province)
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
        stripped = old.strip()
        lead = old[: len(old) - len(old.lstrip())]
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
        for token in _TAIL_TOKEN.findall(tail):
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

    def _local(self, centre: bool, kind: str, province: str) -> list[tuple[str, str]]:
        """Facilities of a type in a province (memoised: the catalogue has thousands)."""
        key = (centre, kind, province)
        if key not in self._local_cache:
            table = self.data.centres if centre else self.typed
            candidates = table.get(kind, []) or table.get("hospital", []) or table.get("*", [])
            self._local_cache[key] = [c for c in candidates if province and c[1] == province]
        return self._local_cache[key]

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: same type in the original's province -> same type anywhere -> any
        type; an abbreviation ("HUMS") becomes another."""
        type_text, kind = self.facility_type(text)
        centre = label == "CENTRO_SALUD" or kind in ("centro de salud", "consultorio")
        table = self.data.centres if centre else self.typed
        province = self.data.hospital_lookup.get(fold(text))
        typed = table.get(kind or "", []) or table.get("hospital", []) or table.get("*", [])
        local = self._local(centre, kind or "", province or "")
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
                if not type_text or not text[len(type_text) :].strip():
                    return name  # no name to replace after the type ("Hospital General"): a whole one
                after = text[len(type_text) :]
                de = re.match(r"\s+de\s", after) and not re.match(r"(de|del)\b", rest)
                connector = " de " if de else " "
                return type_text + connector + rest if rest else type_text

            return one

        category = f"facility:{label}"
        levels = [Level(make(local if len(local) >= 3 else typed), category)]
        if len(local) >= 3:
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
