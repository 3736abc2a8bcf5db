"""Postal codes of a pack with postal-code ranges by state (the German pack's ``postal_code``
table): a postal code becomes another one of the same country and length, in the state of the
surrogate town written beside it.

A code is read with the letters that may name its country ("D-80331", "A-1160", "CH-5001": the
pack's ``postal_prefixes``); its country is the one those letters name, else that of the town
beside it, else the one whose codes have its length (five digits: Germany), else that of the
note's towns. The surrogate is, in order: the surrogate town's own code where the pack lists one
(Austrian towns in municipalities.tsv: "8036 Graz" -> "9020 Klagenfurt am Wörthersee"); a code of
the ranges of the surrogate town's state (the note's towns' state when no town is beside it); a
code of any range of the country; digits of the same length (the only choice for a country the
pack has no ranges of: Switzerland). Leading zeros are written ("01307"), the letters and their
separator kept.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable

from .base import DocumentState, Level, TownMention
from .data import SurrogateData

#: A postal code with the letters naming its country, if written: "D-80331", "CH 5001", "1160".
POSTAL = re.compile(r"(?:(?P<letters>[A-Z]{1,3})(?P<sep>\s?[-–]\s?|\s))?(?P<code>\d{4,5})")
#: How far (characters, same line or the next) a postal code looks for its town.
TOWN_WINDOW = 40


class PostalCodes:
    """The postal codes of a pack with ranges (``SurrogateData.postal_ranges``)."""

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def __bool__(self) -> bool:
        return bool(self.data.postal_ranges)

    def read(self, text: str) -> re.Match | None:
        """The postal code ``text`` is, in this pack (None: not one, or a pack without ranges)."""
        if not self.data.postal_ranges:
            return None
        match = POSTAL.fullmatch(text.strip())
        if match is None or (match["letters"] and match["letters"] not in self.data.postal_prefixes):
            return None
        return match

    def country(self, match: re.Match, near: TownMention | None, state: DocumentState) -> str | None:
        """The original's country (ISO code): its letters, its town, its length, the note's towns."""
        data = self.data
        if match["letters"]:
            return data.postal_prefixes[match["letters"]]
        if near is not None and near.province in data.province_country:
            return data.province_country[near.province]
        length = len(match["code"])
        countries = sorted({c for c, lengths in data.postal_lengths.items() if length in lengths})
        if len(countries) == 1:
            return countries[0]
        for province in state.province_map:
            if data.province_country.get(province) in countries:
                return data.province_country[province]
        return countries[0] if countries else None

    def levels(self, match: re.Match, start: int, state: DocumentState) -> tuple[list[Level], str]:
        """The fallback chain of a postal code, and the key its draw is made under (the code as
        written: the safety check compares each candidate with it)."""
        data = self.data
        code, lead = match["code"], match.group(0)[: match.start("code") - match.start(0)]
        near = state.towns.near(state.text, start, TOWN_WINDOW)
        country = self.country(match, near, state)
        if near is not None and near.province:
            original: str | None = near.province
        else:
            original = data.postal_state(country, code)
        if near is not None and near.target:
            target: str | None = near.target
        else:
            target = state.province_map.get(original or "", original)
        if target is not None and data.province_country.get(target) != country:
            target = None  # the town left the country (a last fallback): a code of the country
        width = len(code)

        def written(new: str) -> str:
            return lead + new

        town_code = data.town_postal.get((near.surrogate, target or "")) if near is not None else None
        own = [r for r in data.postal_ranges.get((country or "", target or ""), []) if r[2] == width]
        every = [r for (c, _), rows in data.postal_ranges.items() if c == country
                 for r in rows if r[2] == width]

        def ranges(rows: list[tuple[int, int, int]]) -> Callable[[random.Random], str] | None:
            if not rows:
                return None
            # added up once, as ``choices`` would add up ``weights`` on every draw
            cum = list(itertools.accumulate(last - first + 1 for first, last, _ in rows))

            def make(rng: random.Random) -> str:
                first, last, _ = rng.choices(rows, cum_weights=cum, k=1)[0]
                return written(f"{rng.randint(first, last):0{width}d}")

            return make

        def digits(rng: random.Random) -> str:
            return written(rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in code[1:]))

        if not every:  # no ranges of the country (Switzerland): digits of the same length
            return [Level(digits, "postal:digits")], match.group(0)
        levels = [
            Level((lambda rng: written(town_code)) if town_code and len(town_code) == width else None,
                  "postal:town"),
            Level(ranges(own), "postal:state"),
            Level(ranges(every), "postal:country", "anywhere",
                  "no safe postal code in the surrogate town's state: one of another state of the country"),
            Level(digits, "postal:digits", "digits",
                  "no safe postal code in the country's ranges: digits of the same length"),
        ]
        return levels, match.group(0)
