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

from ..langpack import fold
from .base import DocumentState, Surrogate, match_case, scramble, weighted_choice
from .data import SurrogateData, display

_POSTAL = re.compile(r"(?P<lead>E-?)?(?P<code>\d{5})")
_TAIL_TOKEN = re.compile(r"\d+\s*-\s*\d+|\d+|[^\W\d_]+|.", re.DOTALL)
_ORDINAL_MARKS = "ºª"
#: How far (characters, same line) a postal code looks for the town it belongs to.
TOWN_WINDOW = 40


def _cased(model: str, word: str) -> str:
    """UPPER stays UPPER; anything else takes the surrogate's own capitalisation."""
    letters = [c for c in model if c.isalpha()]
    return word.upper() if len(letters) > 1 and all(c.isupper() for c in letters) else word


class TerritoryGenerator:
    """TERRITORIO: municipalities, provinces, communities and postal codes."""

    name = "territories"
    phase = 1

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Replace the towns first, so that postal codes can agree with them."""
        for start, end, label in spans:
            if label == "TERRITORIO" and not _POSTAL.fullmatch(state.text[start:end].strip()):
                self.generate(state.text[start:end], label, start, state)

    def town(self, text: str, province: str, state: DocumentState) -> str:
        pool = self.data.town_pool.get(province) or self.data.town_pool_all
        return state.draw(f"town:{province}", text, lambda rng: weighted_choice(rng, pool.items, pool.cum))

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        postal = _POSTAL.fullmatch(stripped)
        if postal:
            return Surrogate(
                text.replace(stripped, self.postal_code(stripped, postal, start, state)), note="postal code"
            )
        memo_key = ("territory", fold(stripped))
        if memo_key in state.memo:
            known = state.memo[memo_key]
            province = state.extras.get("town_provinces", {}).get(memo_key[1], "")
            if province and not any(t[0] == start for t in state.towns):
                state.towns.append((start, start + len(text), province, known.text.strip()))
            return known
        found = self.data.find_town(stripped)
        if found is not None:
            _, province = found
            new = self.town(stripped, province, state)
            state.extras.setdefault("town_provinces", {})[memo_key[1]] = province  # type: ignore[union-attr]
            if not any(t[0] == start for t in state.towns):
                state.towns.append((start, start + len(text), province, new))
            result = Surrogate(
                text.replace(stripped, _cased(stripped, new)), note="town of the same province"
            )
        elif fold(stripped) in self.data.province_lookup:
            province = self.data.province_lookup[fold(stripped)]
            community = self.data.province_community[province]
            siblings = [p for p in self.data.provinces_of[community] if p != province]
            choices = siblings or sorted(self.data.province_code)
            new = state.draw("province", stripped, lambda rng: rng.choice(choices))
            result = Surrogate(text.replace(stripped, _cased(stripped, new)), note="province")
        elif fold(stripped) in self.data.community_lookup:
            new = state.draw("community", stripped, lambda rng: rng.choice(self.data.communities))
            result = Surrogate(text.replace(stripped, _cased(stripped, new)), note="community")
        else:
            pool = self.data.town_pool_all
            new = state.draw("town:*", stripped, lambda rng: weighted_choice(rng, pool.items, pool.cum))
            result = Surrogate(text.replace(stripped, _cased(stripped, new)), note="unknown place: a town")
        state.memo[memo_key] = result
        return result

    def postal_code(self, code_text: str, match: re.Match, start: int, state: DocumentState) -> str:
        code = match["code"]
        province = self.data.code_province.get(code[:2])
        town = self.nearest_town(start, state)

        def make(rng: random.Random) -> str:
            if province is None:
                return (match["lead"] or "") + scramble(code, rng)
            capital = town is not None and town[1] == self.data.capitals.get(province)
            digits = "0123456789" if town is None else "0" if capital else "123456789"
            third = rng.choice(digits)
            rest = "".join(rng.choice("0123456789") for _ in range(2))
            if rest == "00" and third == "0":
                rest = f"{rng.randint(1, 99):02d}"
            return (match["lead"] or "") + code[:2] + third + rest

        key = code_text if town is None else f"{code_text}|{town[1]}"
        return state.draw("postal", key, make)

    def nearest_town(self, start: int, state: DocumentState) -> tuple[str, str] | None:
        """(province, surrogate town) of the town written within a few characters of ``start``."""
        best = None
        for t_start, t_end, province, new in state.towns:
            gap = t_start - start if t_start >= start else start - t_end
            if gap > TOWN_WINDOW or "\n" in state.text[min(start, t_end) : max(start, t_start)]:
                continue
            if best is None or gap < best[0]:
                best = (gap, province, new)
        return (best[1], best[2]) if best else None


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
        cut = re.search(r"\d|,|\bs/n\b|\bn[º°.]|\bnúm", rest, re.IGNORECASE)
        name_end = cut.start() if cut else len(rest)
        return type_text, kind, rest[:name_end], rest[name_end:]

    def new_name(self, old: str, kind: str | None, rng: random.Random) -> str:
        names = self.data.streets.get(kind or "", []) or self.data.streets["*"]
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
            if token[0].isdigit() and "-" in token:  # a number range keeps its width
                a, b = (int(x) for x in re.findall(r"\d+", token))
                width = max(len(str(a)), 1)
                new_a = rng.randint(10 ** (width - 1) if width > 1 else 1, 10**width - 1)
                sep = token[len(str(a)) : len(token) - len(str(b))] if token.endswith(str(b)) else "-"
                out.append(f"{new_a}{sep}{new_a + max(b - a, 0)}")
            elif token.isdigit():
                low = 10 ** (len(token) - 1) if len(token) > 1 else 1
                out.append(str(rng.randint(low, 10 ** len(token) - 1)))
            elif token.isalpha() and token not in _ORDINAL_MARKS:
                if fold(token) in self.data.address_words:
                    out.append(token)
                elif len(token) == 1:
                    out.append(match_case(token, rng.choice("abcdefgh")))
                elif token[0].isupper():
                    out.append(scramble(token, rng))
                else:
                    out.append(token)
            else:
                out.append(token)
        return "".join(out)

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        type_text, kind, name, tail = self.split(text)

        def make(rng: random.Random) -> str:
            new_name = self.new_name(name, kind, rng) if name.strip() else name
            return type_text + new_name + self.new_tail(tail, rng)

        return Surrogate(state.draw("street", text, make), note=f"type {kind}" if kind else "")


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

    def facility_type(self, text: str) -> tuple[str, str | None]:
        folded = fold(text)
        for form, kind in self.data.facility_forms:
            end = len(form)
            if folded.startswith(form) and (
                end == len(folded) or not folded[end].isalnum() or form.endswith(".")
            ):
                return text[:end], kind
        return "", None

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        type_text, kind = self.facility_type(text)
        centre = label == "CENTRO_SALUD" or kind in ("centro de salud", "consultorio")
        table = self.data.centres if centre else self.typed
        province = self.data.hospital_lookup.get(fold(text))
        candidates = table.get(kind or "", []) or table.get("hospital", []) or table.get("*", [])
        local = [c for c in candidates if province and c[1] == province]
        if len(local) >= 3:
            candidates = local
        letters = [c for c in text if c.isalpha()]
        if not type_text and letters and all(c.isupper() for c in letters) and len(text.split()) == 1:
            return Surrogate(
                state.draw("facility", text, lambda rng: scramble(text, rng)), note="abbreviation scrambled"
            )

        def make(rng: random.Random) -> str:
            name = rng.choice(candidates)[0] if candidates else "General"
            own_type, _ = self.facility_type(name)
            rest = name[len(own_type) :].strip() if own_type else name
            if not type_text or not text[len(type_text) :].strip():
                return name  # no name to replace after the type ("Hospital General"): a whole one
            after = text[len(type_text) :]
            connector = " de " if re.match(r"\s+de\s", after) and not re.match(r"(de|del)\b", rest) else " "
            return type_text + connector + rest if rest else type_text

        return Surrogate(state.draw(f"facility:{label}", text, make), note=f"type {kind}" if kind else "")


class CountryGenerator:
    """PAIS: another country, the frequent ones in Spanish notes more likely."""

    name = "countries"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        pool = self.data.country_pool
        stripped = text.strip()
        new = state.draw("country", stripped, lambda rng: weighted_choice(rng, pool.items, pool.cum))
        return Surrogate(text.replace(stripped, _cased(stripped, new)))


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

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        stripped = text.strip()
        letters = [c for c in stripped if c.isalpha()]
        if letters and all(c.isupper() for c in letters) and " " not in stripped:
            return Surrogate(
                state.draw("institution", stripped, lambda rng: scramble(stripped, rng)), note="acronym"
            )
        folded = fold(stripped)
        templates = self.data.institution_default
        for head, options in self.data.institutions:
            if folded.startswith(head):
                templates = options
                break
        new = state.draw("institution", stripped, lambda rng: self.fill(rng.choice(templates), rng))
        return Surrogate(text.replace(stripped, new))
