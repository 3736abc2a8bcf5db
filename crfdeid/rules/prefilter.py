"""What a rule's pattern says about its matches: where one can start and what it must contain.

Rules are data, so nobody tunes their patterns for speed; instead the engine reads two facts off
each pattern and uses them only to skip places where the pattern *cannot* match:

* ``Shape.first``: the characters a match can begin with. Searching with ``(?=[those])`` in
  front lets ``regex`` jump from one of them to the next instead of trying the pattern (often
  its look-behinds first) at every position: several times faster for most patterns that
  start with a digit.
* ``Shape.trigger``: literal strings one of which every match holds near its start ("fax",
  "@", "tel"), or which a look-behind at its start needs ("tel" before a list of numbers).
  The engine finds every rule's triggers in one pass over a text (``triggers.py``) and tries a
  pattern only where a trigger lets a match start; a note without "fax" is never searched for
  a fax number.

Both come from over-approximations built bottom-up over the pattern (``regexinfo.py``, as
``reader.py`` reads it): they can only let through a place where the pattern then fails, never
turn away one where it matches. The reader knows the regex syntax the packs use (``regex``
version 0); a construct it does not know (``\\G``, recursion, branch reset, global inline flags,
fuzzy matching, nested sets...) makes it give up, and the rule is searched as its pattern alone
says.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from ..memo import Memo
from .reader import Unsupported, read
from .regexinfo import MAX_REACH, Trigger

#: A trigger is worth looking for when its strings are this long, or one rare character each:
#: shorter or commoner ones ("-", "/", "de") occur in nearly every chunk and would skip nothing.
MIN_TRIGGER_LENGTH = 2
_COMMON = set(".,;:-/()[]'\"")


@dataclass(frozen=True)
class Shape:
    """The prefilters of one pattern; None where the reader could not make them safe.

    ``trigger`` is either inside the match (``behind`` False: a match starts at most
    ``trigger.reach`` characters before one, over ``trigger.before`` characters) or in a
    look-behind at its start (``behind`` True: a match starts at most ``trigger.tail``
    characters after one ends, over ``trigger.after`` characters). ``between`` renders those
    characters as a regex when the distance alone is too loose a bound (beyond ``MAX_REACH``).
    """

    first: str | None = None  # one character a match can start with, as a regex
    trigger: Trigger | None = None
    behind: bool = False
    between: str | None = None


def _rare(trigger: Trigger) -> bool:
    """Whether a text is likely to hold none of the strings, or only a few."""
    return not any(len(s) < MIN_TRIGGER_LENGTH and (s.isalnum() or s.isspace() or s in _COMMON)
                   for s in trigger.strings)


#: ``read_shape`` of the (pattern, flags) read so far in this process, and of those a shipped
#: pack's cache entry holds (``remember``; ``crfdeid.rules.shapes``): a pure function's results.
_KNOWN: Memo[tuple[str, int], Shape] = Memo(4096)


def remember(shapes: dict[tuple[str, int], Shape]) -> None:
    """Take ``read_shape``'s results for these patterns as known (read from the load-time cache)."""
    for key, found in shapes.items():
        _KNOWN.remember(key, found)


def shape(pattern: str, flags: int) -> Shape:
    """``read_shape``, once per pattern and flags in a process."""
    found = _KNOWN.get((pattern, flags))
    if found is None:
        found = _KNOWN.remember((pattern, flags), read_shape(pattern, flags))
    return found


def read_shape(pattern: str, flags: int) -> Shape:
    """The prefilters of a pattern compiled with ``flags``; none where the reader gives up.

    Both need a match to consume at least one character (an empty match can sit anywhere) and
    ``regex``'s default version-0 semantics (simple case folding, one character for one); a
    trigger also needs the match to be reported where it was tried (no ``\\K``).
    """
    if regex.DEFAULT_VERSION != regex.VERSION0 or flags & ~(regex.IGNORECASE | regex.VERBOSE
                                                              | regex.MULTILINE | regex.DOTALL):
        return Shape()
    ignorecase = bool(flags & regex.IGNORECASE)
    try:
        info = read(pattern, ignorecase, bool(flags & regex.VERBOSE))
    except Unsupported:
        return Shape()
    if info.min < 1:
        return Shape()
    first = info.first.render(ignorecase) if info.first.narrow else None
    if info.keeps:
        return Shape(first)
    for trigger, behind in ((info.lead, False), (info.behind, True)):
        if trigger is None or not _rare(trigger):
            continue
        distance, chars = (trigger.tail, trigger.after) if behind else (trigger.reach, trigger.before)
        if distance <= MAX_REACH:
            return Shape(first, trigger, behind)
        if not chars.any and not chars.empty:
            return Shape(first, trigger, behind, chars.render(ignorecase))
    return Shape(first)
