"""Gazetteer matching: which tokens of a document fall inside an entry of which list.

Every list of a language pack (names, surnames, towns, hospitals, kinship words, honorifics,
months…) is compiled into one table of *folded token sequences*: entries are tokenized with
the document tokenizer, accents and case are folded, and tokens are joined by one space. A
document is folded the same way; from each token, the sequence is looked up and extended one
token at a time while it is still the beginning of some entry (a set of those beginnings), so a
match always starts and ends on token boundaries and "HOSPITAL VIRGEN DEL ROCÍO" matches
"Hospital Virgen del Rocio". Within each list the leftmost-longest matches win; different lists
may overlap ("Sevilla" is a municipality and a province).

Why a table and not an automaton: the entries' folded keys are kept in ``crfdeid.cache`` and
the table is two hash lookups away from them (~50 ms per load), where an Aho-Corasick automaton
of the same entries took 0.3 s and ~30 MB to build in every process (and as long to load from
disk); matching a MEDDOCAN note costs the same ~0.3 ms either way, and the matches are the same
(``tests/test_gazetteer.py`` checks them against an automaton).

The result feeds the feature extractor as BIO membership per token (``surname:B``,
``surname:I``) and flags ambiguous matches: a name-list match whose tokens are all on the
pack's stop list ("Cabeza", "Parkinson") or are closed-class words ("Su", "De" are surnames
too) is reported with ``ambiguous=True`` instead of being dropped, so the CRF learns how much
to trust it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial

import regex

from . import cache as disk_cache
from . import langpack
from . import tokenize as tokenize_module
from .langpack import CalendarName, LanguagePack, fold, load_pack
from .tokenize import tokenize
from .types import Token

#: Lists whose matches on a stop-listed word are flagged as ambiguous.
NAME_LIKE = frozenset(
    {
        "given_name",
        "surname",
        "municipality",
        "province",
        "community",
        "territory",
        "country",
        "street",
        "profession",
    }
)


# Anything but letters and spaces, or a lower-to-upper case change ("McDonald"), needs the real
# tokenizer to split an entry exactly as a document would be split.
_NEEDS_TOKENIZER = re.compile(r"[^\w\s]|[\d_]|[a-zß-ÿ](?=[A-ZÀ-Þ])|[A-ZÀ-Þ](?=[A-ZÀ-Þ][a-zß-ÿ]{2})")


@dataclass(frozen=True, slots=True)
class GazetteerMatch:
    """Tokens ``[start, end)`` (token indices) match an entry of ``list``."""

    list: str
    start: int
    end: int
    ambiguous: bool = False


def _closed_list_entries(pack: LanguagePack) -> dict[str, list[str]]:
    """The hand-written lists, as matchable phrases. One- and two-letter calendar abbreviations
    ("do", "x") are left out: as free text they are ordinary words, not dates."""

    def calendar(items: Iterable[CalendarName]) -> list[str]:
        return [n for item in items for n in (item.name, *item.abbreviations) if len(n) >= 3]

    return {
        "kinship": [t.word for t in pack.kinship.values()],
        "honorific": [h.form for h in pack.honorifics.values()],
        "month": calendar(pack.months),
        "weekday": calendar(pack.weekdays),
        "street_type": [f for forms in pack.street_types.values() for f in forms],
        "facility_type": [f for forms in pack.facility_types.values() for f in forms],
        "stop": list(pack.stopwords),
        # the islands the pseudonymiser's list holds (surrogates.yaml ``islands``, by
        # archipelago): no table of places has them, and notes name them as places ("reside en
        # Lanzarote", "Puerto del Rosario, Fuerteventura")
        "island": pack.island_names(),
    }


@dataclass(frozen=True)
class _Keys:
    """A pack's lists compiled for matching, and what a cache entry of them holds (JSON)."""

    phrases: dict[str, tuple[str, ...]]
    prefixes: frozenset[str]
    max_tokens: int
    fingerprint: str

    def dump(self) -> bytes:
        combos = list(dict.fromkeys(self.phrases.values()))
        number = {names: i for i, names in enumerate(combos)}
        return json.dumps({
            "fingerprint": self.fingerprint,
            "max_tokens": self.max_tokens,
            "combos": combos,
            "keys": list(self.phrases),
            "combo": [number[names] for names in self.phrases.values()],
            "prefixes": sorted(self.prefixes),
        }, ensure_ascii=False).encode()

    @classmethod
    def load(cls, data: bytes) -> _Keys:
        loaded = json.loads(data)
        combos = [tuple(names) for names in loaded["combos"]]
        phrases = dict(zip(loaded["keys"], map(combos.__getitem__, loaded["combo"]), strict=True))
        prefixes = frozenset(loaded["prefixes"])
        return cls(phrases, prefixes, int(loaded["max_tokens"]), str(loaded["fingerprint"]))


def _leftmost_longest(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    found = sorted(found, key=lambda se: (se[0], -se[1]))
    out: list[tuple[int, int]] = []
    taken_until = -1
    for start, end in found:
        if start >= taken_until:
            out.append((start, end))
            taken_until = end
    return out


class GazetteerMatcher:
    """Matches all lists of a pack at once; build once, reuse for every document."""

    def __init__(self, pack: LanguagePack | str = "es", lists: Iterable[str] | None = None) -> None:
        self.pack = load_pack(pack) if isinstance(pack, str) else pack
        entries = {name: list(t.entries) for name, t in self.pack.tables.items() if t.match}
        entries.update(_closed_list_entries(self.pack))
        if lists is not None:
            wanted = set(lists)
            unknown = wanted - set(entries)
            if unknown:
                raise ValueError(f"unknown gazetteer list(s): {sorted(unknown)}; known: {sorted(entries)}")
            entries = {k: v for k, v in entries.items() if k in wanted}
        self.lists: tuple[str, ...] = tuple(sorted(entries))
        self._after = {name: t.after for name, t in self.pack.tables.items() if t.after and name in entries}
        for name, prefix in self._after.items():
            if prefix not in entries:
                raise ValueError(f"gazetteer {name!r} must follow {prefix!r}, which is not a matched list")
        self._fold_cache: dict[str, str] = {}
        self._member_names: dict[str, tuple[str, str, str]] = {}
        keys = self._compile(entries)
        #: folded token sequence -> the lists it is an entry of (sorted)
        self._phrases = keys.phrases
        #: every sequence of one or more whole tokens that a longer entry begins with
        self._prefixes = keys.prefixes
        self.size = len(keys.phrases)
        #: Tokens in the longest entry: how far a match can reach past a point in the text.
        self.max_tokens = keys.max_tokens
        #: Changes whenever what the matcher can find changes; a trained CRF model records it.
        self.fingerprint = keys.fingerprint

    def _compile(self, entries: dict[str, list[str]]) -> _Keys:
        """The entries' keys (folding and tokenizing ~100k entries costs ~0.5 s): a shipped
        pack's are kept in ``crfdeid.cache``, keyed by the entries and the source of the code
        that folds them (a pack of one's own may list names of real people: never cached)."""
        if not disk_cache.shipped(self.pack.path):
            return self._fold_entries(entries)
        key = disk_cache.entry_key(
            disk_cache.source_digest(langpack, tokenize_module, sys.modules[__name__]),
            regex.__version__,
            unicodedata.unidata_version,
            "\x1d".join(f"{name}\x1e" + "\x1f".join(items) for name, items in entries.items()),
        )
        build = partial(self._fold_entries, entries)
        return disk_cache.fetch("gazetteer-keys", key, build, _Keys.dump, _Keys.load)

    def _fold_entries(self, entries: dict[str, list[str]]) -> _Keys:
        found: dict[str, set[str]] = {}
        for name, items in entries.items():
            for item in items:
                key = self._key(item)
                if key:
                    found.setdefault(key, set()).add(name)
        shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per combination of lists
        phrases = {key: shared.setdefault(names, names) for key, names in
                   ((key, tuple(sorted(names))) for key, names in found.items())}
        digest = hashlib.sha256()
        for key in sorted(phrases):
            digest.update(f"{key}\t{','.join(phrases[key])}\n".encode())
        prefixes = set()
        for key in phrases:
            parts = key.split(" ")
            prefixes.update(" ".join(parts[:n]) for n in range(1, len(parts)))
        longest = max((key.count(" ") + 1 for key in phrases), default=1)
        return _Keys(phrases, frozenset(prefixes), longest, digest.hexdigest()[:16])

    def _fold(self, text: str) -> str:
        folded = self._fold_cache.get(text)
        if folded is None:
            folded = fold(text).replace(" ", "")
            if len(self._fold_cache) < 500_000:
                self._fold_cache[text] = folded
        return folded

    def _key(self, phrase: str) -> str:
        """The folded token sequence of an entry. Plain words (letters only, in one casing
        pattern) are split on spaces, which is what the tokenizer would do, but 10x faster."""
        if not _NEEDS_TOKENIZER.search(phrase):
            return " ".join(fold(phrase).split())
        return " ".join(self._fold(t.text) for t in tokenize(phrase.strip()))

    def match(self, tokens: Sequence[Token]) -> list[GazetteerMatch]:
        """All leftmost-longest matches of every list, ordered by (start, list)."""
        if not tokens:
            return []
        texts = [t.text for t in tokens]
        cache = self._fold_cache
        if len(cache) > 500_000:
            cache.clear()
        for text in set(texts).difference(cache):
            cache[text] = fold(text).replace(" ", "")
        folded = list(map(cache.__getitem__, texts))
        candidates = self._candidates(folded)
        out: list[GazetteerMatch] = []
        stop, closed = self.pack.stopwords, self.pack.word_classes
        selected = {
            name: _leftmost_longest(found) for name, found in candidates.items() if name not in self._after
        }
        for name, prefix in self._after.items():
            if name in candidates and prefix in selected:
                selected[name] = self._behind(candidates[name], selected[prefix], folded)
        for name, found in selected.items():
            for start, end in found:
                ambiguous = name in NAME_LIKE and all(
                    folded[k] in stop or folded[k] in closed for k in range(start, end)
                )
                out.append(GazetteerMatch(name, start, end, ambiguous))
        out.sort(key=lambda m: (m.start, m.list))
        return out

    def _candidates(self, folded: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
        """Per list, the token ranges ``[first, end)`` whose folded tokens, joined by spaces,
        are one of its entries (every one, overlaps included)."""
        candidates: dict[str, list[tuple[int, int]]] = {}
        phrases, prefixes, n = self._phrases, self._prefixes, len(folded)
        for first in range(n):
            phrase, end = folded[first], first + 1
            while True:  # every entry starting at this token: the sequence grows while it can
                names = phrases.get(phrase)
                if names is not None:
                    for name in names:
                        candidates.setdefault(name, []).append((first, end))
                if end == n or phrase not in prefixes:
                    break
                phrase = f"{phrase} {folded[end]}"
                end += 1
        return candidates

    def _behind(
        self, found: list[tuple[int, int]], prefixes: list[tuple[int, int]], folded: list[str]
    ) -> list[tuple[int, int]]:
        """Keep the matches that follow a prefix match, directly or after a preposition
        ("Centro de Salud de García"), and extend them over the prefix."""
        prefix_end = {end: start for start, end in prefixes}
        linked = []
        for start, end in found:
            begin = prefix_end.get(start)
            if begin is None and start > 0 and self.pack.word_classes.get(folded[start - 1]) == "ADP":
                begin = prefix_end.get(start - 1)
            if begin is not None:
                linked.append((begin, end))
        return _leftmost_longest(linked)

    def membership(
        self,
        tokens: Sequence[Token],
        matches: Sequence[GazetteerMatch] | None = None,
    ) -> list[tuple[str, ...]]:
        """Per token, the lists it is in with its BIO position: ``("given_name:B", "stop:B")``.

        An ambiguous match adds ``<list>:ambiguous`` to each of its tokens.
        """
        if matches is None:
            matches = self.match(tokens)
        per_token: list[list[str]] = [[] for _ in tokens]
        names = self._member_names
        for m in matches:
            begin, inside, ambiguous = names.get(m.list) or names.setdefault(
                m.list, (f"{m.list}:B", f"{m.list}:I", f"{m.list}:ambiguous")
            )
            per_token[m.start].append(begin)
            if m.ambiguous:
                per_token[m.start].append(ambiguous)
            for k in range(m.start + 1, m.end):
                per_token[k].append(inside)
                if m.ambiguous:
                    per_token[k].append(ambiguous)
        return [tuple(tags) for tags in per_token]
