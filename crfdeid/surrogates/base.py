"""What every surrogate generator shares: the result type, keyed randomness, per-document state,
the safety check and fallback chains.

Randomness is never global. Every draw comes from a ``random.Random`` seeded with an HMAC of
the run's secret and *what is being replaced* (category + normalised original), so the same
original gets the same surrogate wherever it appears — in a document, and with a key across
documents — and the output depends on nothing else (not on document order, not on the process).

A generator offers its candidates as a fallback chain (``Level``s, most faithful first: same
province, same community, anywhere in the pack). ``DocumentState.draw_chain`` takes the first
level that yields a safe surrogate and says which one it was, so that no note fails because a
province has a single town or because the note's own originals forbid every candidate; when no
level yields one the generator raises ``SurrogateFailure`` and the pseudonymiser writes the
class's neutral word instead (``neutral:`` in the pack's surrogates.yaml).
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import hmac
import itertools
import random
import re
import string
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import regex
from rapidfuzz.distance import Levenshtein

from ..langpack import FOLD_CACHE_LENGTH, FOLD_CACHE_SIZE, fold
from ..memo import Memo

if TYPE_CHECKING:
    from .data import SurrogateData

_WORDS_ONLY = re.compile(r"[\W_]+")
#: The draw namespaces of hospitals and health centres ("facility", "facility:HOSPITAL"): their
#: surrogates are catalogue names, which may be another facility of the note. An organisation's
#: is a template filled with the note's surrogate places ("Servicio de Salud del Principado de
#: Asturias" beside a "Hospital Príncipe de Asturias" must stay one).
FACILITY_SPACES = ("facility",)
#: A word of letters, combining marks included: a decomposed (NFD) "Julián" is one word, not
#: "Julia" + "n" (``re``'s \w leaves combining marks out, ``regex``'s keeps them in).
LETTERS = regex.compile(r"[^\W\d_]+")
#: How many draws a generator makes before giving up on a surrogate that passes the safety check.
MAX_ATTEMPTS = 50
#: Fewer for an original this long (junk, in practice): each draw costs its length, and a
#: rejection there is a property of the text (it repeats a forbidden word), not of the luck.
LONG_ORIGINAL = 1000
LONG_ATTEMPTS = 5


@dataclass(frozen=True)
class Surrogate:
    """A generator's answer for one span. ``kept`` marks an original left as it is on purpose
    (an age under the limit, a kinship word): it is not counted as a failed replacement."""

    text: str
    kept: bool = False
    note: str = ""
    #: the fallback level used (``None``: the first choice worked); ``note`` then says why
    fallback: str | None = None


@dataclass(frozen=True)
class Level:
    """One rung of a fallback chain: how to make a candidate, under which RNG category.

    ``make`` is ``None`` when the level has nothing to offer for this original (a province
    with one town): it is skipped without drawing. ``fallback`` names the level in the audit
    (``None`` for the first choice) and ``reason`` says, in words, why it was needed — never
    naming the original or anything derived from it (its province would narrow it down).
    """

    make: Callable[[random.Random], str] | None
    category: str
    fallback: str | None = None
    reason: str = ""
    check_close: bool = True
    #: every string ``make`` can return, where they are few (at most ``MAX_ATTEMPTS``): when
    #: none of them is safe for an original, the level fails at once rather than after
    #: ``MAX_ATTEMPTS`` draws that could only fail (a country whose one big city is the original)
    options: tuple[str, ...] | None = None


class Secret:
    """The run's secret: a keyed HMAC turns (category, original) into a reproducible RNG."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    @classmethod
    def from_seed(cls, seed: int, key: bytes | None = None) -> Secret:
        """With a key the secret is HMAC(key, seed); without one, a hash of the seed."""
        material = f"crfdeid-surrogates|seed={seed}".encode()
        if key is not None:
            return cls(hmac.new(key, material, hashlib.sha256).digest())
        return cls(hashlib.sha256(material).digest())

    def digest(self, *parts: str) -> bytes:
        # hmac.digest: the one-shot HMAC in C, the bytes of hmac.new(...).digest() at a
        # fraction of the cost (a note draws some thirty of them)
        return hmac.digest(self._secret, "\x1f".join(parts).encode("utf-8", "surrogatepass"), "sha256")

    def rng(self, *parts: str) -> random.Random:
        return random.Random(int.from_bytes(self.digest(*parts)[:16], "big"))


#: What a draw's key is split into to compare it with a rerolled original: runs of letters/digits.
_KEY_WORDS = regex.compile(r"[\p{L}\p{M}\p{N}]+")


class RerolledSecret(Secret):
    """A note's secret with some originals drawn again: a reviewer's "reroll" (``crfdeid review``).

    ``counts`` maps a normalised original (``normalise(text)``) to how many times it was rerolled.
    Every draw is keyed by (category, key of the original, …); a draw whose key is the original
    or a run of its words ("Martínez" of "Juan Martínez", the town of an address) mixes the count
    in, so it lands elsewhere — deterministically, the same count always giving the same
    surrogate — and every mention of the original follows, as consistency asks. ``dates``
    redraws the note's one date shift (every date of a note moves together).
    """

    def __init__(self, base: Secret, counts: dict[str, int], dates: int = 0) -> None:
        super().__init__(base._secret)
        self._rerolled = [(_KEY_WORDS.findall(normalise(k)), n) for k, n in counts.items() if n]
        self._dates = dates
        self._seen: dict[str, int] = {}

    def _count(self, key: str) -> int:
        """The reroll count of a draw key: the sum over the rerolled originals holding its words."""
        found = self._seen.get(key)
        if found is None:
            words = _KEY_WORDS.findall(normalise(key))
            found = 0
            if words:
                size = len(words)
                for original, n in self._rerolled:
                    if any(original[i:i + size] == words for i in range(len(original) - size + 1)):
                        found += n
            self._seen[key] = found
        return found

    def digest(self, *parts: str) -> bytes:
        if parts and parts[0] == "date-shift":
            n = self._dates
        else:
            n = self._count(parts[1]) if len(parts) > 1 and self._rerolled else 0
        return super().digest(*parts, f"reroll={n}") if n else super().digest(*parts)


def ascii_fold(text: str) -> str:
    """Folded, ASCII letters and digits only: how a name is spelled in an e-mail address.
    Short strings are remembered, as by ``fold`` (every address rebuilds the note's names)."""
    spelled = _ASCII_FOLDED.get(text)
    if spelled is None:
        spelled = "".join(c for c in fold(text) if c.isascii() and c.isalnum())
        if len(text) <= FOLD_CACHE_LENGTH:
            _ASCII_FOLDED.remember(text, spelled)
    return spelled


_ASCII_FOLDED: Memo[str, str] = Memo(FOLD_CACHE_SIZE)


def normalise(text: str) -> str:
    """The form an original is keyed by: folded (case and accents) with whitespace collapsed.
    Short strings are remembered, as by ``fold`` (every draw keys its original by it)."""
    normal = _NORMALISED.get(text)
    if normal is None:
        normal = " ".join(fold(text).split())
        if len(text) <= FOLD_CACHE_LENGTH:
            _NORMALISED.remember(text, normal)
    return normal


_NORMALISED: Memo[str, str] = Memo(FOLD_CACHE_SIZE)


def too_close(candidate: str, original: str) -> bool:
    """True when a surrogate equals the original or is within one edit of it (case and accents
    ignored): such a surrogate would all but reveal the original."""
    return _within_one_edit(normalise(candidate), normalise(original))


def _within_one_edit(a: str, b: str) -> bool:
    return Levenshtein.distance(a, b, score_cutoff=1) <= 1


#: A one-word surrogate of at least this many letters is checked for resemblance, not just one edit.
RESEMBLANCE_LENGTH = 5


def resembles(a: str, b: str) -> bool:
    """Do two normalised single words look alike: the same first five letters, or at most
    three edits in ten? "Francisco" had become "Francesc", "Aguilera" "Aguera": one edit apart
    is not all a reader links ("Francesc Aguera" reads as the original, misspelt). Words with
    a digit, a space or a hyphen are left to the one-edit check (a phone keeps its area code,
    a hospital its kind)."""
    if len(a) < RESEMBLANCE_LENGTH or len(b) < RESEMBLANCE_LENGTH or not (a.isalpha() and b.isalpha()):
        return False
    return a[:5] == b[:5] or Levenshtein.normalized_similarity(a, b) >= 0.7


@dataclass(frozen=True)
class ForeignPlace:
    """A place of the note in another country ("Casablanca (Marruecos)", "Localidad/ Provincia:
    Caracas"): its country (ISO code), whether it is a city or a region, and whether the note
    names that country (then the place follows the country's surrogate)."""

    country: str
    kind: str
    named: bool
    #: how many places of this country and kind the note names (their country's surrogate should
    #: have as many)
    siblings: int = 1


@dataclass
class TownMention:
    """A town of the note already replaced: postal codes, hospitals and phone prefixes written
    next to it agree with it. ``province`` is the original's, ``target`` the surrogate's."""

    start: int
    end: int
    province: str
    surrogate: str
    order: int
    target: str = ""


class TownIndex:
    """The towns of a note by position, so that a postal code finds its neighbour in
    logarithmic time (a long note has thousands)."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._by_start: dict[int, TownMention] = {}
        self._longest = 0

    def __len__(self) -> int:
        return len(self._by_start)

    def __contains__(self, start: int) -> bool:
        return start in self._by_start

    def add(self, start: int, end: int, province: str, surrogate: str, target: str = "") -> None:
        """Record a town once per position (a repeated mention is recorded where it is);
        ``target``: the surrogate's province (the original's when not given)."""
        if start in self._by_start:
            return
        self._by_start[start] = TownMention(
            start, end, province, surrogate, len(self._by_start), target or province
        )
        bisect.insort(self._starts, start)
        self._longest = max(self._longest, end - start)

    def at(self, start: int) -> TownMention | None:
        """The town recorded at ``start``, if any."""
        return self._by_start.get(start)

    def near(self, text: str, start: int, window: int) -> TownMention | None:
        """The closest town within ``window`` characters of ``start``, on the same line or the
        line before or after ("Localidad/ Provincia: Zaragoza.\nCP: 50009."; the first recorded
        wins a tie)."""
        low = bisect.bisect_left(self._starts, start - window - self._longest)
        high = bisect.bisect_right(self._starts, start + window)
        best: tuple[int, int, TownMention] | None = None
        for t_start in self._starts[low:high]:
            town = self._by_start[t_start]
            gap = t_start - start if t_start >= start else start - town.end
            if gap > window or text.count("\n", min(start, town.end), max(start, t_start)) > 1:
                continue
            if best is None or (gap, town.order) < best[:2]:
                best = (gap, town.order, town)
        return best[2] if best else None


class PhraseIndex:
    """The note's originals as word sequences, to tell in time proportional to a candidate
    whether it contains one as whole words (a scan of every original per draw is quadratic
    in a long note)."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self._phrases: set[tuple[str, ...]] = set()
        for phrase in phrases:
            words = tuple(phrase.split())
            if len(" ".join(words)) > 2:
                self._phrases.add(words)
        #: the one-word phrases as words: a set intersection in C rather than a tuple per word
        self._words = {p[0] for p in self._phrases if len(p) == 1}
        self._lengths = sorted({len(p) for p in self._phrases if len(p) > 1})

    def found_in(self, words: Sequence[str]) -> bool:
        if self._words and not self._words.isdisjoint(words):
            return True
        for length in self._lengths:
            if length > len(words):
                break
            for i in range(len(words) - length + 1):
                if tuple(words[i : i + length]) in self._phrases:
                    return True
        return False


@dataclass
class DocumentState:
    """What generators remember while one document is pseudonymised.

    ``forbidden`` holds every original of the document (normalised): no surrogate may spell one,
    or the leftover scan could not tell a surrogate from a leak. ``used`` keeps surrogates
    one-to-one per namespace (a category, or a family of categories such as every town), so two
    people never merge into one. The facts one generator works out for others are named fields.
    """

    document_id: str
    text: str
    secret: Secret
    data: SurrogateData
    forbidden: set[str] = field(default_factory=set)
    #: folded name tokens of the document's people: no surrogate may contain one as a word
    forbidden_words: set[str] = field(default_factory=set)
    #: folded words that tell the note's facilities and organisations apart ("leon", "bierzo"):
    #: no hospital's or health centre's surrogate may hold one (two hospitals of a note had traded
    #: names); other surrogates may ("Asturias" of "Hospital Príncipe de Asturias" stays a province)
    facility_words: set[str] = field(default_factory=set)
    #: namespace -> normalised original -> surrogate
    used: dict[str, dict[str, str]] = field(default_factory=dict)
    #: a facility surrogate's proper part (folded, particles dropped) -> the proper part of the
    #: original that drew it: two hospitals of a note never share one ("Hospital Universitario de
    #: Valme" and "Hospital Virgen del Rocío" had become "… Puerta del Mar" both)
    facility_propers: dict[str, str] = field(default_factory=dict)
    memo: dict[tuple[str, str], Surrogate] = field(default_factory=dict)
    #: set by the people generator before other spans: folded name token -> surrogate token
    name_map: dict[str, str] = field(default_factory=dict)
    #: folded name token -> the fallback level its surrogate came from (first choices absent)
    name_fallbacks: dict[str, Level] = field(default_factory=dict)
    #: folded name token -> the canonical token of its spelling-variant group
    name_groups: dict[str, str] = field(default_factory=dict)
    #: (folded given-name token, sex) -> surrogate, for a given name borne by people of both
    #: sexes in one note ("María" alone and in "José María"): a compound takes the person's sex
    name_map_sex: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (folded name token, "given" or "surname") -> surrogate, for a word that is a given name of
    #: one person and a surname of another in the note (the patient "Alvaro", the Dra. Rubio
    #: Álvaro): each role has its own surrogate, of its own kind
    name_roles: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (folded name token, role) -> its group, for those words (tags number the two apart)
    name_role_groups: dict[tuple[str, str], str] = field(default_factory=dict)
    #: the given names of a person in the note (folded) -> the person's sex, read once from
    #: every mention (title, patient's sex, the name lists)
    people_sex: dict[tuple[str, ...], str | None] = field(default_factory=dict)
    #: offset of an initial or an acronym of initials ("J.", "JGE") -> the name tokens it
    #: abbreviates (folded token, kind, the person's sex), found by the people generator: it
    #: becomes the surrogate's initials
    person_initials: dict[int, tuple[tuple[str, str, str | None], ...]] = field(default_factory=dict)
    #: canonical name token -> the sex its surrogate was drawn for (None: a surname)
    name_sex: dict[str, str | None] = field(default_factory=dict)
    #: the patient's sex read from the note ("m", "f" or None), set by the people generator
    patient_sex: str | None = None
    #: the note's date shift, drawn once by the date generator
    date_shift: dt.timedelta | None = None
    #: the region whose month spellings the note uses ("AT" for "Jänner"; "" none), read once
    date_region: str | None = None
    #: the year most of the note's dates are in (0: none), for a date written without one
    date_year: int | None = None
    #: towns already replaced, by position
    towns: TownIndex = field(default_factory=TownIndex)
    #: folded town original -> (its province, its surrogate's province), for repeated mentions
    town_provinces: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: original province -> the province its note's first replaced town went to: a hospital,
    #: postal code or phone prefix of that province with no town beside it, and the province
    #: written elsewhere in the note, follow
    province_map: dict[str, str] = field(default_factory=dict)
    #: folded original island -> the island its note's first town drawn on another island is on
    #: (``TerritoryGenerator``: "La Laguna (Tenerife)" -> "Los Llanos de Aridane (La Palma)")
    island_map: dict[str, str] = field(default_factory=dict)
    #: start of a town with an island written right after it -> that island, folded
    paired_islands: dict[int, str] = field(default_factory=dict)
    #: start of a province written right after its town ("Alcorcón (Madrid)") -> the town's start
    town_pairs: dict[int, int] = field(default_factory=dict)
    #: start of a town with its province written right after it -> that province
    paired_towns: dict[int, str] = field(default_factory=dict)
    #: start of a place in another country -> what the territory generator read about it
    foreign_places: dict[int, ForeignPlace] = field(default_factory=dict)
    #: ``fold(text)``, where the pseudonymiser had it at hand (None: fold the text when needed)
    folded: str | None = field(default=None, repr=False)
    #: what a generator read of the note, kept for its next reading of the same thing (a name
    #: span's tokens are read by ``prepare``, ``generate`` and tags): keyed by the reader's name
    readings: dict[tuple, Any] = field(default_factory=dict, repr=False)
    #: namespace -> set of surrogates handed out (the values of ``used``, kept in step)
    _values: dict[str, set[str]] = field(default_factory=dict, repr=False)
    #: (namespace, normalised original) -> the chain's result, so repeated mentions agree
    _chains: dict[tuple[str, str], tuple[str, Level]] = field(default_factory=dict, repr=False)
    _phrases: tuple[int, PhraseIndex] | None = field(default=None, repr=False)
    _address_names: tuple[int, list[tuple[str, str]], dict[str, str]] | None = field(default=None, repr=False)

    def names_for_addresses(self) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """The name map's (token, surrogate) pairs as spelled in addresses (ASCII, folded),
        longest token first, and one surrogate initial per first letter: what an e-mail's local
        part is rebuilt from. Cached until the map grows (a long note has thousands of names
        and many addresses)."""
        if self._address_names is None or self._address_names[0] != len(self.name_map):
            names = [
                (ascii_fold(o), ascii_fold(s))
                for o, s in sorted(
                    ((o, s) for o, s in self.name_map.items() if len(o) >= 3), key=lambda p: -len(p[0])
                )
            ]
            initials: dict[str, str] = {}
            for original, surrogate in self.name_map.items():
                initials.setdefault(original[0], ascii_fold(surrogate)[:1])
            self._address_names = (len(self.name_map), names, initials)
        return self._address_names[1], self._address_names[2]

    def contains_original(self, norm: str) -> bool:
        """Does a (normalised) surrogate contain an original of the document as whole words?
        ("Las Rozas de Madrid" in a note about Madrid would read as a leak, and be one.)"""
        words = _WORDS_ONLY.sub(" ", norm).split()
        if self.forbidden_words and not self.forbidden_words.isdisjoint(words):
            return True
        return self.phrase_index().found_in(words)

    def phrase_index(self) -> PhraseIndex:
        """The index of ``forbidden``, rebuilt when an original was added since."""
        if self._phrases is None or self._phrases[0] != len(self.forbidden):
            index = PhraseIndex(_WORDS_ONLY.sub(" ", f) for f in self.forbidden)
            self._phrases = (len(self.forbidden), index)
        return self._phrases[1]

    def rng(self, category: str, original: str, attempt: int = 0) -> random.Random:
        return self.secret.rng(category, normalise(original), str(attempt))

    def draw(
        self,
        category: str,
        original: str,
        make: Callable[[random.Random], str],
        check_close: bool = True,
        namespace: str | None = None,
        options: Sequence[str] | None = None,
    ) -> str:
        """Draw a surrogate for ``original`` that passes the safety check and is not already the
        surrogate of another original of its namespace (the category by default); the same
        original gets the same one. Raises ``SurrogateFailure`` after ``MAX_ATTEMPTS`` draws, or
        at once when ``options`` (everything ``make`` can return) holds no safe surrogate."""
        space = namespace or category
        key = normalise(original)  # once: a long original is costly to fold
        taken = self.used.get(space)
        if taken is None:
            taken = self.used[space] = {}
        elif key in taken:
            return taken[key]
        values = self._values.get(space)
        if values is None:
            values = self._values[space] = set()
        attempts = MAX_ATTEMPTS if len(original) <= LONG_ORIGINAL else LONG_ATTEMPTS
        telling = self.facility_words if space.startswith(FACILITY_SPACES) else None
        if options is not None and not any(self._safe(o, key, check_close, values, telling) for o in options):
            raise SurrogateFailure(f"no safe {space} surrogate among the level's {len(options)}")
        for attempt in range(attempts):
            candidate = make(self.secret.rng(category, key, str(attempt)))  # = self.rng(…)
            if self._safe(candidate, key, check_close, values, telling):
                break
        else:
            raise SurrogateFailure(f"no safe {space} surrogate after {attempts} draws")
        taken[key] = candidate
        values.add(candidate)
        return candidate

    def _safe(self, candidate: str, key: str, check_close: bool, values: set[str],
              telling: set[str] | None = None) -> bool:
        """The safety check of a draw: not empty, not the original ``key`` nor one edit from it
        nor, for one word, like it (``check_close``: ``resembles``), no original of the note,
        none in it, not handed out already; for a hospital or health centre (``telling``), no
        word that tells one of the note's apart."""
        norm = normalise(candidate)
        if not norm or norm == key or (check_close and (_within_one_edit(norm, key) or resembles(norm, key))):
            return False
        if telling and not telling.isdisjoint(_WORDS_ONLY.sub(" ", norm).split()):
            return False
        return not (norm in self.forbidden or candidate in values or self.contains_original(norm))

    def draw_chain(self, original: str, levels: Sequence[Level], namespace: str) -> tuple[str, Level]:
        """The first level of the chain that yields a safe surrogate, and that level; every
        level shares ``namespace``, so surrogates stay one-to-one whichever level made them."""
        memo_key = (namespace, normalise(original))
        known = self._chains.get(memo_key)
        if known is not None:
            return known
        for level in levels:
            if level.make is None:
                continue
            try:
                text = self.draw(level.category, original, level.make, level.check_close, namespace,
                                 level.options)
            except SurrogateFailure:
                continue
            self._chains[memo_key] = (text, level)
            return text, level
        raise SurrogateFailure(f"no safe {namespace} surrogate at any level of its fallback chain")


class SurrogateFailure(Exception):
    """No level of a generator's fallback chain gave a safe surrogate: the pseudonymiser writes
    the class's neutral word instead (and records it)."""


class Generator(Protocol):
    """One category of surrogate. ``phase`` orders generators within a document: people first
    (e-mails use their names), towns before postal codes. ``neutral_category`` names the
    pack's neutral word for a span this generator could not replace (a key of ``neutral:``)."""

    name: str
    phase: int

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate: ...

    def neutral_category(self, text: str, label: str) -> str: ...


def chosen(text: str, level: Level, note: str = "") -> Surrogate:
    """A surrogate from a chain: the first choice keeps its own note, a fallback says why."""
    if level.fallback is None:
        return Surrogate(text, note=note)
    return Surrogate(text, note=level.reason, fallback=level.fallback)


# --- small helpers shared by generators -------------------------------------------------------


def match_case(model: str, word: str) -> str:
    """Write ``word`` in the case pattern of ``model``: UPPER, lower or Title."""
    letters = [c for c in model if c.isalpha()]
    if not letters:
        return word
    if all(c.isupper() for c in letters) and len(letters) > 1:
        return word.upper()
    if all(c.islower() for c in letters):
        return word.lower()
    if letters[0].isupper():
        return word[:1].upper() + word[1:]
    return word


def scramble(text: str, rng: random.Random, keep_first_nonzero: bool = True) -> str:
    """Format-preserving replacement: digits to digits, letters to letters of the same case,
    everything else kept. A leading non-zero digit stays non-zero (no invented leading zeros).
    Digits of every script count ('٣', '①', '²', '½' become ASCII digits: kept, they would
    carry the original's value)."""
    out = []
    first_digit = True
    for char in text:
        if char.isnumeric():
            if first_digit and keep_first_nonzero and char != "0":
                out.append(rng.choice("123456789"))
            else:
                out.append(rng.choice(string.digits))
            first_digit = False
        elif char.isalpha() and char.isascii():
            pool = string.ascii_uppercase if char.isupper() else string.ascii_lowercase
            out.append(rng.choice(pool))
        elif char.isalpha():
            out.append(rng.choice("ABCDEFGHJKLMNPRSTUVXYZ" if char.isupper() else "abcdefghjklmnprstuvxyz"))
        else:
            out.append(char)
    return "".join(out)


def weighted_choice(rng: random.Random, items: list[str], cum_weights: Sequence[float]) -> str:
    return rng.choices(items, cum_weights=cum_weights, k=1)[0]


def cumulative(weights: Iterable[float]) -> array[float]:
    """Running totals of the weights, negatives as 0: ``accumulate`` adds in C, in the order and
    from the 0.0 of the loop it replaced, so the floats are the same bit for bit. Kept as an
    ``array`` of doubles (8 bytes a weight, not a float object's 32): the place generator keeps
    dozens of filtered copies of its 8,000 towns."""
    totals = array("d", itertools.accumulate((max(float(w), 0.0) for w in weights), initial=0.0))
    del totals[0]
    return totals
