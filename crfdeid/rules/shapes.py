"""The prefilter shapes of a shipped rule pack, kept in the load-time cache (``crfdeid.cache``).

Why: reading every pattern of a pack for its prefilters (``prefilter.read_shape``) was half of
loading the Spanish rules (0.07 of 0.16 s of CPU), in every process. A shape depends only on
the pattern, its flags, the code that reads it and the ``regex`` version, so the shapes of a
shipped pack are read once per machine and kept as JSON, keyed by those and by the rule files'
bytes: an edited rule file makes a new entry. A loaded shape is only ever used for the very
pattern and flags it was read from (``prefilter.remember``), never for a rule by its id. A pack
of one's own is read in memory at every load, like everything the cache does not hold.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import regex

from .. import cache as disk_cache
from . import prefilter, reader, regexinfo
from .prefilter import Shape
from .regexinfo import CharSet, Trigger

NAME = "rule-shapes"


def entry_key(paths: Sequence[Path]) -> str | None:
    """The cache key of the shapes of these rule files; None when one is not shipped."""
    if not paths or not all(disk_cache.shipped(p) for p in paths):
        return None
    code = disk_cache.source_digest(prefilter, reader, regexinfo, sys.modules[__name__])
    files = [part for p in paths for part in (p.name, p.read_bytes())]
    return disk_cache.entry_key(code, regex.__version__, str(regex.DEFAULT_VERSION), *files)


def preload(paths: Sequence[Path]) -> str | None:
    """Make the stored shapes of these rule files known to ``prefilter.shape``; the key to
    ``store`` them under when there were none (None: stored, or not to be stored)."""
    key = entry_key(paths)
    if key is None:
        return None
    stored = disk_cache.lookup(NAME, key, load)
    if stored is None:
        return key
    prefilter.remember(stored)
    return None


def store(key: str, patterns: Iterable[tuple[str, int, Shape]]) -> None:
    disk_cache.store(NAME, key, dump(patterns))


def dump(patterns: Iterable[tuple[str, int, Shape]]) -> bytes:
    return json.dumps([[pattern, flags, _shape_json(found)] for pattern, flags, found in patterns],
                      ensure_ascii=False).encode()


def load(data: bytes) -> dict[tuple[str, int], Shape]:
    return {(str(pattern), int(flags)): _shape(raw) for pattern, flags, raw in json.loads(data)}


def _number(value: float) -> float | str:
    return "inf" if value == math.inf else value


def _distance(raw: float | str) -> float:
    return math.inf if raw == "inf" else raw  # type: ignore[return-value]  # an int stays an int


def _chars(chars: CharSet) -> dict[str, Any]:
    return {"sensitive": sorted(chars.sensitive), "insensitive": sorted(chars.insensitive), "any": chars.any}


def _shape_json(found: Shape) -> dict[str, Any]:
    trigger = found.trigger
    return {
        "first": found.first,
        "behind": found.behind,
        "between": found.between,
        "trigger": None if trigger is None else {
            "strings": sorted(trigger.strings), "reach": _number(trigger.reach),
            "before": _chars(trigger.before), "tail": _number(trigger.tail), "after": _chars(trigger.after),
        },
    }


def _charset(raw: dict[str, Any]) -> CharSet:
    return CharSet(frozenset(raw["sensitive"]), frozenset(raw["insensitive"]), bool(raw["any"]))


def _shape(raw: dict[str, Any]) -> Shape:
    trigger = raw["trigger"]
    return Shape(
        first=raw["first"],
        trigger=None if trigger is None else Trigger(
            frozenset(trigger["strings"]), _distance(trigger["reach"]), _charset(trigger["before"]),
            _distance(trigger["tail"]), _charset(trigger["after"])),
        behind=bool(raw["behind"]),
        between=raw["between"],
    )
