"""Streets: the type kept as written ("c/", "Avda."), a surrogate name, the shape of the numbers,
floor and door kept ("c/ del Abedul 5-7, 2º dcha" -> "c/ de Palma Romero 6-8, 5º dcha").

The name is a street of the province of the note's surrogate town (the council addresses the pack
lists for it), else one common to many provinces ("Mayor", "Cervantes"). A road keeps its
structure: its code becomes another of the same kind ("N-332" -> "N-340", "CV-500" -> "CV-318"),
the towns it is named after become towns of that province ("Ctra. de Colmenar, km 9,100" ->
"Ctra. de Tres Cantos, km 4,218"), the kilometre point is drawn like a house number.

Where the pack's street types end the name (``street_type_endings``: German "Bahnhofstraße",
"Berliner Straße", "Lindenweg"), a street becomes one of the pack's streets of the same type, its
type spelled as the original spelled it ("Tellstrasse 25" -> "Goethestrasse 61", "Rohrbacher
Str. 12" -> "Bahnhofstr. 3").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .base import DocumentState, Level, Surrogate, chosen, fold, match_case
from .data import SurrogateData, display
from .places import cased, nearby_province

#: "s/n" (sin número) is one token, kept: cut in three, its "s" became another letter ("d/n").
#: "n.o" and "n.º" (número) are one token, kept: cut, their "o" became another letter ("n.e").
_TAIL_TOKEN = re.compile(
    r"\d+\s*-\s*\d+(?![^\W\d_])|\d+|(?i:s\s?/\s?n)\b|(?i:n\.\s?[oº°])(?![^\W\d_])|[^\W\d_]+|.", re.DOTALL
)
_RANGE = re.compile(r"(\d+)(\s*-\s*)(\d+)")
#: Numbers up to this many digits are drawn as numbers; longer ones (junk) digit by digit.
_SHORT = 18
_ORDINAL_MARKS = "ºª"

#: Spelt ordinal endings glued to a floor number ("1er piso", "2do", "3ra"): they fit only it.
_ORDINAL_SUFFIXES = frozenset(
    ("er", "ero", "era", "ro", "ra", "do", "da", "to", "ta", "vo", "va", "no", "na", "mo", "ma")
)

#: Catalan ordinal endings of a floor ("1r", "2n", "4t"); with them, "1a" is the first door, not
#: a door letter ("C/ Major, 27, 2n 1a" had become "6n 4d").
_CATALAN_FLOORS = frozenset(("r", "n", "t"))


#: A road code: capitals, an optional hyphen, an Arabic or Roman number ("N-332", "A7", "AP-7",
#: "CV-500", "N-IV", "AS-II").
_ROAD_CODE = re.compile(r"(?<![\w-])(?P<prefix>[A-Z]{1,3})(?P<sep>-?)(?P<number>\d{1,4}|[IVX]{1,4})(?![\w-])")
#: A national road by its number alone: "Nacional IV", "Nnal. 332", "Nal. 340".
_NATIONAL = re.compile(
    r"(?P<prefix>\b(?:Nacional|Nnal\.?|Nal\.))(?P<sep>\s*)(?P<number>\d{1,3}|[IVX]{1,4})\b", re.IGNORECASE
)
#: The national network's prefixes: another road of the pack's list; other prefixes are regional.
_NATIONAL_PREFIXES = ("N", "A", "AP")
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
#: The last word of a street's name, in lower case after a capitalised one: a type written
#: after the name, as Basque writes it ("Lamuza kalea", "Gasteiz etorbidea"), if the pack has it.
_TYPE_AFTER = re.compile(r"(?<=[A-ZÁÉÍÓÚÑÜa-záéíóúñü])\s+(?P<type>[a-záéíóúñü]{4,})\s*$")
#: Where a street's name ends and its numbers, floor and door begin; a kilometre point ("km 5")
#: is never part of the name.
_NAME_END = re.compile(r"\d|,|\bs\s?/?\s?n\b|\bn(?:o\.|[º°.])|\bnúm|\bkm\b", re.IGNORECASE)
#: What joins the towns a road is named after: "Madrid-Cartagena", "de Alpedrete a Moralzarzal".
_ROAD_JOINT = re.compile(r"(\s*-\s*|\s+a\s+)")
_CONNECTOR = re.compile(r"(?:de|del|d')(?:\s+(?:la|las|los|el))?\s+|(?:a|hacia)\s+", re.IGNORECASE)
#: A word borne as a given name by this many people is a person's name before a surname ("Blas
#: Infante"); rarer ones are words first ("Virgen" del Carmen, "Camino" Real).
GIVEN_NAME = 1000
#: A province's own street names are drawn only when it has at least this many of the kind:
#: fewer would give every note of the province the same street.
MIN_STREETS = 3


def _digits(number: str, rng: random.Random) -> str:
    """A number of the same length, digit by digit, with a leading zero only where it had one."""
    first = "0123456789" if number[:1] == "0" else "123456789"
    return rng.choice(first) + "".join(rng.choice("0123456789") for _ in number[1:])


class StreetGenerator:
    """CALLE: type kept as written, a surrogate name, the numbers' shape kept."""

    name = "streets"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data
        #: "Apartado de Correos 20134": each post-box form and the pattern of it before a number
        #: (made on first use: the street tables are built when a note first needs them)
        self._po_boxes: list[tuple[str, re.Pattern[str]]] | None = None
        self._type_forms: frozenset[str] | None = None

    def split(self, text: str) -> tuple[str, str | None, str, str]:
        """(type as written, type, name, tail with numbers/floor/door). A road's name keeps its
        codes ("Ctra. N-332 Valencia-Alicante, s/n": name " N-332 Valencia-Alicante")."""
        folded = fold(text)
        if self._po_boxes is None:
            self._po_boxes = [(form, re.compile(re.escape(form) + r"\s*\d")) for form in self.data.po_boxes]
        for form, before_number in self._po_boxes:  # "Apartado de Correos 20134": the number changes
            if before_number.match(folded):
                return text[: len(form)], "po box", "", text[len(form) :]
        type_text, kind = "", None
        for form, name in self.data.street_types:
            if folded.startswith(form) and (
                len(folded) == len(form) or not folded[len(form)].isalnum() or form.endswith(("/", "."))
            ):
                type_text, kind = text[: len(form)], name
                break
        rest = text[len(type_text) :]
        searched = rest
        if self.is_road(kind, rest):  # the digits of a road's code do not end its name
            masked = _ROAD_CODE.sub(lambda m: "x" * len(m[0]), rest)
            searched = _NATIONAL.sub(lambda m: "x" * len(m[0]), masked)
        cut = _NAME_END.search(searched)
        name_end = cut.start() if cut else len(rest)
        name, tail = rest[:name_end], rest[name_end:]
        if kind is None and (after := _TYPE_AFTER.search(name)) is not None:
            # a type written after the name, lower case ("Lamuza kalea, 7", "Zadorra kalea"):
            # it stays in the tail, where it had been lost with the name ("Sabino Arana, 2")
            kind = dict(self.data.street_types).get(fold(after["type"]))
            if kind is not None:
                name, tail = name[: after.start()], name[after.start() :] + tail
        return type_text, kind, name, tail

    @staticmethod
    def is_road(kind: str | None, rest: str) -> bool:
        """A road: of the type "carretera", or a road code where the type would be ("A7, km 187")."""
        return kind == "carretera" or (kind is None and _ROAD_CODE.match(rest.lstrip()) is not None)

    def new_code(self, match: re.Match, rng: random.Random) -> str:
        """Another road code of the same kind: a national road of the pack's list with the same
        prefix and numeral (N-332 -> N-340, N-IV -> N-II, A-7 -> A-4, "Nacional 330" -> "Nacional
        340"); a regional code keeps its letters and gets another number of as many digits
        (CV-500 -> CV-318, M-30 -> M-45, AS-II -> AS-IV)."""
        prefix, sep, number = match["prefix"], match["sep"], match["number"]
        roman = not number.isdigit()
        # "Nacional 330", "Nnal. 332": a national road by its number alone, an N- road's
        national = "N" if match.re is _NATIONAL else prefix if prefix in _NATIONAL_PREFIXES else ""
        if national:
            options = [
                m["number"]
                for m in map(_ROAD_CODE.fullmatch, self.data.national_roads)
                if m and m["prefix"] == national and m["number"].isdigit() != roman and m["number"] != number
            ]
            if options:
                return f"{prefix}{sep}{rng.choice(options)}"
        if roman:
            return f"{prefix}{sep}{rng.choice([r for r in _ROMAN if r != number])}"
        new = number
        while new == number:
            new = _digits(number, rng) if len(number) > 1 else rng.choice("123456789")
        return f"{prefix}{sep}{new}"

    def destinations(self, piece: str, rng: random.Random, province: str | None, state: DocumentState) -> str:
        """The towns a road is named after ("de Colmenar", "Valencia-Alicante", "de Alpedrete a
        Moralzarzal"), each another town: the note's own surrogate for a town of the note, else a
        town of ``province`` (the surrogate town's), else of the original town's province where
        the note's towns of it went, else anywhere. Connectors and separators stay."""
        first = next((i for i, c in enumerate(piece) if c.isalnum()), len(piece))
        lead, inner = piece[:first], piece[first:].rstrip()
        if not inner:
            return piece
        trail = piece[len(lead) + len(inner) :]
        connector = _CONNECTOR.match(inner)
        head = connector[0] if connector else ""
        parts = _ROAD_JOINT.split(inner[len(head) :])
        taken: set[str] = set()
        new = [
            part if index % 2 or not part else cased(part, self.town_for(part, rng, province, state, taken))
            for index, part in enumerate(parts)
        ]
        if re.match(r"d", head, re.IGNORECASE) and new:
            # "del Rosario" -> "de Sueca", "de Toledo" -> "del Ejido": the article is the town's
            de = head[0] + "e"
            if new[0][:3] in ("El ", "EL "):
                head, new[0] = f"{de}l ", new[0][3:]
            else:
                head = f"{de} "
        return lead + head + "".join(new) + trail

    def town_for(
        self, original: str, rng: random.Random, province: str | None, state: DocumentState, taken: set[str]
    ) -> str:
        """One town a road is named after: the note's surrogate of it, else one drawn (see
        ``destinations``), not one the road already names ("Madrid - Cartagena" must not become
        "Sevilla - Sevilla")."""
        known = state.memo.get(("territory-plain", fold(original.strip())))
        if known is not None and fold(known.text) not in taken:
            taken.add(fold(known.text))
            return known.text
        data = self.data
        found = data.find_town(original)
        home = province or (state.province_map.get(found[1], found[1]) if found else None)
        pool = data.town_pool.get(home or "") or data.town_pool_all
        new = original
        for _ in range(10):
            new = display(pool.choose(rng))
            if fold(new) != fold(original) and fold(new) not in taken:
                break
        taken.add(fold(new))
        return new

    def new_name(self, old: str, names: list[str], rng: random.Random) -> str:
        new = rng.choice(names)
        # what separates the type from the name stays ("Av/ Colombia", "C.: Mayor")
        first = next((i for i, c in enumerate(old) if c.isalnum()), len(old))
        lead = old[:first]
        stripped = old[first:].strip()
        trail = old[len(old.rstrip()) :]
        connector = re.match(r"(de|del|d')\s*(la|las|los|el)?\s+", stripped, re.IGNORECASE)
        if connector and not re.match(r"(de|del|d')\b", new, re.IGNORECASE) and self.named_after(new):
            first, _, rest = new.partition(" ")
            if fold(first) in ("la", "las", "los") and rest:
                new = f"de {first.lower()} {rest}"
            elif fold(first) == "el" and rest:
                new = f"del {rest}"
            else:
                new = f"de {new}"
            if stripped[:1].isupper():
                new = new[:1].upper() + new[1:]
        return lead + cased(stripped, new) + trail

    def named_after(self, name: str) -> bool:
        """Does a "de" go before this street name? Before a person or a saint ("de San Antonio",
        "de Blas Infante": a name of two words or more whose first is a given name or "San"),
        not before a single word, which may be an adjective ("Mayor", "Real": "Calle Mayor", never
        "Calle de Real"; "Calle Cervantes" reads as well as "Calle de Cervantes")."""
        words = name.split()
        first = fold(words[0]) if words else ""
        return len(words) > 1 and (
            sum(self.data.given.get(first, (0, 0))) >= GIVEN_NAME or first in self.data.name_particles
        )

    def _street_type_at(self, token: str, following: str) -> bool:
        """Is ``token`` (with the token after it: "C" + "/") a street type of the pack? Its
        letter had been redrawn ("Las Atalayas, C/ Azahar, 14" -> "…, D/ …")."""
        forms = self._type_forms
        if forms is None:
            forms = self._type_forms = frozenset(form for form, _ in self.data.street_types)
        return fold(token) in forms or fold(token + following) in forms

    def new_tail(self, tail: str, rng: random.Random) -> str:
        out = []
        tokens = _TAIL_TOKEN.findall(tail)
        suffixes = _ORDINAL_SUFFIXES
        if any(t in _CATALAN_FLOORS for t in tokens):  # "2n 1a": Catalan floor and door ordinals
            suffixes = suffixes | _CATALAN_FLOORS | {"a"}
        for index, token in enumerate(tokens):
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            if index and tokens[index - 1].isdigit() and fold(token) in suffixes - _ORDINAL_SUFFIXES:
                out.append(token)  # the "n" of "2n", the "a" of "1a" after it
                continue
            if token.isdigit() and fold(following) in suffixes:
                out.append(token)  # a floor written "1er", "2do": the suffix fits only its number
                continue
            if token in ("o", "a") and index > 1 and tokens[index - 1] == "." and tokens[index - 2].isdigit():
                out.append(token)  # "3.o B": the ordinal mark typed as a letter ("3.º"), not a door
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
                if fold(token) in self.data.address_words or self._street_type_at(token, following):
                    out.append(token)  # "bajo", or a second street's type ("Las Atalayas, C/ Azahar")
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

    def type_at_end(self, name: str) -> tuple[str | None, str]:
        """(type, spelling) of a street whose type ends its name, glued or as a word, as the
        pack's ``street_type_endings`` spell it ("Tellstrasse": ("straße", "strasse"), "Lange
        Str.": ("straße", "str.")); (None, "") when no ending is a type ("Im Neuenheimer Feld")."""
        lower = name.rstrip().lower()
        for kind, spelling in self.data.street_endings:
            if lower.endswith(spelling) and len(lower) > len(spelling):
                return kind, spelling
        return None, ""

    def respelled(self, street: str, kind: str | None, spelling: str) -> str:
        """A street name of the pack with its type, if ``kind``, written in ``spelling``
        ("Goethestraße" + "strasse" -> "Goethestrasse", "Berliner Straße" + "str." -> "Berliner
        Str."); a street of another type as it is."""
        own_kind, own = self.type_at_end(street)
        if not own or not spelling or own_kind != kind:
            return street
        head = street[: len(street) - len(own)]
        written = spelling.capitalize() if head.endswith((" ", "-")) else spelling
        return head + written

    def ending_typed(self, text: str, province: str | None, state: DocumentState) -> Surrogate:
        """A street of a pack whose types end the name (German): a street of the pack's list of
        the original's type, its type in the original's spelling ("-str.", "-strasse", " Straße"),
        never one with the original's own name before the type; the house number drawn (its
        shape kept: "41-43", "88/3/12"). Fallback: a street of any type."""
        cut = _NAME_END.search(text)
        name, tail = (text[: cut.start()], text[cut.start() :]) if cut else (text, "")
        kind, spelling = self.type_at_end(name)
        stem = fold(name.rstrip()[: len(name.rstrip()) - len(spelling)]).strip(" -")

        def pick(names: list[str]) -> Callable[[random.Random], str] | None:
            names = [n for n in names if fold(n[: len(n) - len(self.type_at_end(n)[1])]).strip(" -") != stem]
            if not names:
                return None

            def one(rng: random.Random) -> str:
                new = self.respelled(rng.choice(names), kind, spelling)
                gap = name[len(name.rstrip()) :]
                return cased(name.strip(), new) + gap + self.new_tail(tail, rng)

            return one

        levels = [
            Level(pick(self.data.streets.get(kind or "", [])) if kind else None, "street"),
            Level(pick(self.data.streets.get("*", [])), "street", "any-type" if kind else None,
                  "no safe street name of the original's type: a street name of any type" if kind else ""),
        ]
        new, level = state.draw_chain(text, levels, "street")
        return chosen(new, level, f"type {kind}" if kind else "")

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: a street name of the original's type in the province of the note's
        surrogate town -> of any type there -> of the original's type common to many provinces ->
        of any type so -> of the original's type anywhere -> of any type anywhere. A road: the
        towns it is named after from that province -> from anywhere."""
        province = nearby_province(state, start, start + len(text))
        if self.data.street_endings:  # the pack's types end a street's name ("Bahnhofstraße")
            return self.ending_typed(text, province, state)
        type_text, kind, name, tail = self.split(text)
        if self.is_road(kind, text[len(type_text) :]):
            return self.road(text, type_text, name, tail, province, state)

        def make(names: list[str]) -> Callable[[random.Random], str] | None:
            if not names:
                return None

            def one(rng: random.Random) -> str:
                new_name = self.new_name(name, names, rng) if name.strip() else name
                return type_text + new_name + self.new_tail(tail, rng)

            return one

        data = self.data
        kind_key = kind or ""
        local = data.streets_in.get((province or "", kind_key), [])
        local_any = data.streets_in.get((province or "", "*"), [])
        common, common_any = data.common_streets.get(kind_key, []), data.common_streets.get("*", [])
        local, local_any, common = (
            names if len(names) >= MIN_STREETS else [] for names in (local, local_any, common)
        )
        # first choice: a street of the province (of the original's type where it has enough),
        # else, with no province to follow, a street common to many provinces
        first, second = (local, local_any) if province else (common, common_any)
        if not first:
            first, second = second, []
        typed, anywhere = data.streets.get(kind_key, []), data.streets["*"]
        where = "in the surrogate town's province" if province else "common to many provinces"
        levels = [
            Level(make(first), "street"),
            Level(
                make(second),
                "street",
                "any-type",
                f"no safe street name of the original's type {where}: one of any type",
            ),
        ]
        if province:
            levels.append(
                Level(
                    make(common or common_any),
                    "street",
                    "anywhere",
                    "no safe street name in the surrogate town's province: a common one",
                )
            )
        levels += [
            Level(make(typed), "street", "anywhere", f"no safe street name {where}: one from anywhere"),
            Level(
                make(anywhere),
                "street",
                "any-type",
                "no safe street name of the original's type: a street name of any type",
            ),
        ]
        new, level = state.draw_chain(text, levels, "street")
        return chosen(new, level, f"type {kind}" if kind else "")

    def road(
        self, text: str, type_text: str, name: str, tail: str, province: str | None, state: DocumentState
    ) -> Surrogate:
        """A road: its codes replaced (``new_code``), the towns it is named after replaced
        (``destinations``), the kilometre point and the rest of the tail drawn like a house's."""

        def make(home: str | None) -> Callable[[random.Random], str]:
            def one(rng: random.Random) -> str:
                out, position = [], 0
                codes = sorted(
                    [*_ROAD_CODE.finditer(name), *_NATIONAL.finditer(name)], key=lambda m: m.start()
                )
                for match in codes:
                    if match.start() < position:
                        continue
                    out.append(self.destinations(name[position : match.start()], rng, home, state))
                    out.append(self.new_code(match, rng))
                    position = match.end()
                out.append(self.destinations(name[position:], rng, home, state))
                return type_text + "".join(out) + self.new_tail(tail, rng)

            return one

        levels = [Level(make(province), "street:road")]
        if province:
            levels.append(
                Level(
                    make(None),
                    "street:road",
                    "anywhere",
                    "no safe town of the surrogate town's province to name the road after: "
                    "towns from anywhere",
                )
            )
        new, level = state.draw_chain(text, levels, "street")
        return chosen(new, level, "road")
