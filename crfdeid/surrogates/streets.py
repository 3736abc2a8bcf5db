"""Streets: the type kept as written ("c/", "Avda."), a surrogate name, the shape of the numbers,
floor and door kept ("c/ del Abedul 5-7, 2º dcha" -> "c/ de Palma Romero 6-8, 5º dcha")."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .base import DocumentState, Level, Surrogate, chosen, fold, match_case
from .data import SurrogateData
from .places import cased

#: "s/n" (sin número) is one token, kept: cut in three, its "s" became another letter ("d/n").
_TAIL_TOKEN = re.compile(r"\d+\s*-\s*\d+(?![^\W\d_])|\d+|(?i:s\s?/\s?n)\b|[^\W\d_]+|.", re.DOTALL)
_RANGE = re.compile(r"(\d+)(\s*-\s*)(\d+)")
#: Numbers up to this many digits are drawn as numbers; longer ones (junk) digit by digit.
_SHORT = 18
_ORDINAL_MARKS = "ºª"

#: Spelt ordinal endings glued to a floor number ("1er piso", "2do", "3ra"): they fit only it.
_ORDINAL_SUFFIXES = frozenset(
    ("er", "ero", "era", "ro", "ra", "do", "da", "to", "ta", "vo", "va", "no", "na", "mo", "ma")
)


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
        return lead + cased(stripped, new) + trail

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
