"""What a piece of a regex can match, as facts that compose: lengths, characters, literal strings.

Each fact is an over-approximation (a match may be shorter than ``max``, use fewer characters
than ``chars``...), built bottom-up by ``sequence``, ``alternation`` and ``repeat`` as
``reader.py`` reads a pattern; ``prefilter.py`` turns the facts of a whole pattern into the
prefilters the engine uses. Because every fact only ever says "a match cannot do more than
this", a prefilter built from them can only skip places where the pattern cannot match.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product

#: Literal strings a node can match exactly are tracked up to this many (``ni[ñn][oa]`` is 4).
MAX_STRINGS = 64
#: A trigger farther than this from where a match starts is used only where the characters in
#: between are bounded (``Trigger.before`` / ``after``): trying every start up to it would cost
#: more than it saves.
MAX_REACH = 32
#: A first-character set of more items than this is searched without ``(?=[...])`` in front:
#: ``regex`` would test each of them at every position and gain nothing.
MAX_FIRST = 16


@dataclass(frozen=True)
class CharSet:
    """A set of characters as ``regex`` class items (``\\d``, ``a-z``, ``\\u00f3``), split by the
    case-sensitivity they are matched with; ``any`` when it may be any character at all."""

    sensitive: frozenset[str] = frozenset()
    insensitive: frozenset[str] = frozenset()
    any: bool = False

    def __or__(self, other: CharSet) -> CharSet:
        if self.any or other.any:
            return ANY
        if other.empty or other == self:
            return self
        if self.empty:
            return other
        return CharSet(self.sensitive | other.sensitive, self.insensitive | other.insensitive)

    @property
    def empty(self) -> bool:
        return not (self.any or self.sensitive or self.insensitive)

    @property
    def narrow(self) -> bool:
        """A few characters, or digits: what ``regex`` skips ahead to faster than it tries a
        pattern. A broad set (``\\w``, ``\\p{L}``, the whole alphabet) only adds a test."""
        items = {"\\d" if len(i) == 1 and i in "0123456789" else i for i in self.sensitive | self.insensitive}
        single = {i for i in items if len(i) == 1 or (len(i) == 2 and i[0] == "\\" and not i[1].isalnum())
                  or i.startswith("\\U")}
        return not self.any and 0 < len(items) <= MAX_FIRST and items <= single | {"\\d"}

    def render(self, ignorecase: bool) -> str:
        """One character of the set (or a few more), as a regex compiled with the pattern's flags.

        ASCII digits become ``\\d``, a superset: ``regex`` skips ahead to a ``\\d`` several
        times faster than to ``[0-9]`` or ``[0123]``.
        """
        if self.any or self.empty:
            raise ValueError("only a non-empty, bounded set renders as a class")
        parts = []
        for items, scope in ((self.sensitive, "-i" if ignorecase else ""),
                             (self.insensitive, "" if ignorecase else "i")):
            if not items:
                continue
            digits = {i for i in items if len(i) == 1 and i in "0123456789"}
            if digits:
                items = (items - digits) | {"\\d"}
            body = "\\d" if items == {"\\d"} else "[" + "".join(sorted(items)) + "]"
            parts.append(f"(?{scope}:{body})" if scope else body)
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


NONE = CharSet()
ANY = CharSet(any=True)


@dataclass(frozen=True)
class Trigger:
    """Every match holds one of ``strings``: starting at most ``reach`` characters after the
    match's start with only ``before`` characters in between, and ending at most ``tail``
    characters before the match's end with only ``after`` characters in between."""

    strings: frozenset[str]
    reach: float = 0
    before: CharSet = NONE
    tail: float = 0
    after: CharSet = NONE
    shortest: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shortest", min(len(s) for s in self.strings))

    def __or__(self, other: Trigger) -> Trigger:
        return Trigger(self.strings | other.strings, max(self.reach, other.reach), self.before | other.before,
                       max(self.tail, other.tail), self.after | other.after)

    def placed(self, ahead: float, ahead_chars: CharSet, behind: float, behind_chars: CharSet) -> Trigger:
        """The same trigger with ``ahead`` more characters before it and ``behind`` more after it."""
        return Trigger(self.strings, self.reach + ahead, ahead_chars | self.before,
                       self.tail + behind, self.after | behind_chars)

    def score(self, distance: float) -> tuple[bool, int, int, float]:
        """Near the edge that matters (``distance``) bounds the places to try; longer strings are
        rarer; fewer strings are cheaper."""
        return (distance <= MAX_REACH, self.shortest, -len(self.strings), -distance)


def _leading(t: Trigger) -> tuple[bool, int, int, float]:
    """A trigger's worth for finding where a match starts: by its ``reach``."""
    return t.score(t.reach)


def _trailing(t: Trigger) -> tuple[bool, int, int, float]:
    """A trigger's worth for finding where a node ends (inside a look-behind, where the match
    starts): by its ``tail``."""
    return t.score(t.tail)


def _best(key: Callable[[Trigger], tuple], *found: Trigger | None) -> Trigger | None:
    candidates = [t for t in found if t is not None]
    return max(candidates, key=key) if candidates else None


def _union(found: list[Trigger | None]) -> Trigger | None:
    """The trigger of one of several branches: any branch's, so all of them (or none)."""
    if any(t is None for t in found):
        return None
    result = found[0]
    for t in found[1:]:
        result = result | t  # type: ignore[operator]
    return result


@dataclass(frozen=True)
class Info:
    """What the reader knows about one node of a pattern (every field an over-approximation).

    ``lead`` and ``trail`` are the node's best triggers to find its start and its end by;
    ``behind`` is a trigger of a look-behind at the node's start: its ``tail`` and ``after``
    then measure from the trigger to the node's start.
    """

    min: int  # fewest characters it consumes
    max: float  # most characters it consumes (inf: unbounded)
    first: CharSet  # what its first character can be, when it consumes any
    chars: CharSet  # every character it can consume
    exact: frozenset[str] | None = None  # all it can match, when that is a few literal strings
    lead: Trigger | None = None
    trail: Trigger | None = None
    behind: Trigger | None = None
    keeps: bool = False  # holds \K: a match may be reported after where it was tried

    def __post_init__(self) -> None:
        if self.exact is not None and "" not in self.exact:
            own = Trigger(self.exact)
            object.__setattr__(self, "lead", _best(_leading, self.lead, own))
            object.__setattr__(self, "trail", _best(_trailing, self.trail, own))


ZERO = Info(0, 0, NONE, NONE, frozenset({""}))
UNKNOWN = Info(0, math.inf, ANY, ANY)


def _join(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None or b is None or len(a) * len(b) > MAX_STRINGS:
        return None
    return frozenset(x + y for x, y in product(a, b))


def _chars_of(items: list[Info]) -> CharSet:
    chars = NONE
    for item in items:
        chars = chars | item.chars
    return chars


def sequence(items: list[Info]) -> Info:
    """Nodes one after the other.

    Every trigger of an item, and every run of exact items joined into longer strings, is a
    trigger of the sequence; the best one to lead and to trail by are kept (scored first, built
    last: a pattern has hundreds of candidates).
    """
    if not items:
        return ZERO
    rest = [0.0] * len(items)  # most characters after each item
    for k in range(len(items) - 2, -1, -1):
        rest[k] = rest[k + 1] + items[k + 1].max
    first, nullable = NONE, True
    chars, length = NONE, 0.0
    lead: tuple | None = None  # (score, trigger, characters before it, index of its last item)
    trail: tuple | None = None
    behind: list[Trigger] = []
    run: frozenset[str] | None = None  # literal strings of the latest run of exact items,
    run_at, run_chars = 0.0, NONE  # and what comes before that run

    def consider(t: Trigger, ahead: float, ahead_chars: CharSet, k: int) -> None:
        nonlocal lead, trail
        score = t.score(t.reach + ahead)
        if lead is None or score > lead[0]:
            lead = (score, t, ahead, ahead_chars, k)
        score = t.score(t.tail + rest[k])
        if trail is None or score > trail[0]:
            trail = (score, t, ahead, ahead_chars, k)

    for k, item in enumerate(items):
        if nullable:
            first = first | item.first
            nullable = item.min == 0
        if length == 0 and item.behind is not None:
            behind.append(item.behind)
        for t in (item.lead, item.trail):
            if t is not None:
                consider(t, length, chars, k)
        if item.exact is None:
            run = None
        else:
            joined = _join(run, item.exact)
            if joined is None:
                joined, run_at, run_chars = item.exact, length, chars
            run = joined
            if "" not in run:
                consider(Trigger(run), run_at, run_chars, k)
        length += item.max
        chars = chars | item.chars

    def build(best: tuple | None) -> Trigger | None:
        if best is None:
            return None
        _, t, ahead, ahead_chars, k = best
        return t.placed(ahead, ahead_chars, rest[k], _chars_of(items[k + 1:]))

    exact: frozenset[str] | None = frozenset({""})
    for item in items:
        exact = _join(exact, item.exact)
    return Info(sum(i.min for i in items), length, first, chars, exact, build(lead), build(trail),
                _best(_trailing, *behind), any(i.keeps for i in items))


def alternation(items: list[Info]) -> Info:
    """Branches, one of which matches."""
    if len(items) == 1:
        return items[0]
    first, chars = NONE, NONE
    for item in items:
        first, chars = first | item.first, chars | item.chars
    exact: frozenset[str] | None = frozenset()
    for item in items:
        exact = None if exact is None or item.exact is None else exact | item.exact
    if exact is not None and len(exact) > MAX_STRINGS:
        exact = None
    return Info(min(i.min for i in items), max(i.max for i in items), first, chars, exact,
                _union([i.lead for i in items]), _union([i.trail for i in items]),
                _union([i.behind for i in items]), any(i.keeps for i in items))


def repeat(item: Info, lo: int, hi: float) -> Info:
    """``item`` from ``lo`` to ``hi`` times (hi may be inf)."""
    exact: frozenset[str] | None = None
    if item.exact is not None and hi <= 4:
        exact, power = frozenset(), frozenset({""})
        for count in range(int(hi) + 1):
            if count:
                power = _join(power, item.exact)
                if power is None:
                    exact = None
                    break
            if count >= lo:
                exact = exact | power
        if exact is not None and len(exact) > MAX_STRINGS:
            exact = None
    most = 0 if item.max == 0 else item.max * hi
    lead = trail = behind = None
    if lo >= 1:  # the first time round holds a trigger; the other times come after it
        more, more_chars = (0.0, NONE) if hi == 1 else (item.max * (hi - 1), item.chars)
        lead = item.lead.placed(0, NONE, more, more_chars) if item.lead else None
        trail = item.trail.placed(0, NONE, more, more_chars) if item.trail else None
        behind = item.behind
    return Info(item.min * lo, most, item.first, item.chars, exact, lead, trail, behind, item.keeps)
