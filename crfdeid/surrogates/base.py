"""What every surrogate generator shares: the result type, keyed randomness, per-document state
and the safety check.

Randomness is never global. Every draw comes from a ``random.Random`` seeded with an HMAC of
the run's secret and *what is being replaced* (category + normalised original), so the same
original gets the same surrogate wherever it appears — in a document, and with a key across
documents — and the output depends on nothing else (not on document order, not on the process).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from rapidfuzz.distance import Levenshtein

from ..langpack import fold

if TYPE_CHECKING:
    from .data import SurrogateData

_WORDS_ONLY = re.compile(r"[\W_]+")
#: How many draws a generator makes before giving up on a surrogate that passes the safety check.
MAX_ATTEMPTS = 50


@dataclass(frozen=True)
class Surrogate:
    """A generator's answer for one span. ``kept`` marks an original left as it is on purpose
    (an age under the limit, a kinship word): it is not counted as a failed replacement."""

    text: str
    kept: bool = False
    note: str = ""


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
        return hmac.new(
            self._secret, "\x1f".join(parts).encode("utf-8", "surrogatepass"), hashlib.sha256
        ).digest()

    def rng(self, *parts: str) -> random.Random:
        return random.Random(int.from_bytes(self.digest(*parts)[:16], "big"))


def normalise(text: str) -> str:
    """The form an original is keyed by: folded (case and accents) with whitespace collapsed."""
    return " ".join(fold(text).split())


def too_close(candidate: str, original: str) -> bool:
    """True when a surrogate equals the original or is within one edit of it (case and accents
    ignored): such a surrogate would all but reveal the original."""
    a, b = normalise(candidate), normalise(original)
    return Levenshtein.distance(a, b, score_cutoff=1) <= 1


@dataclass
class DocumentState:
    """What generators remember while one document is pseudonymised.

    ``forbidden`` holds every original of the document (normalised): no surrogate may spell one,
    or the leftover scan could not tell a surrogate from a leak. ``used`` keeps surrogates
    one-to-one per category, so two people never merge into one.
    """

    document_id: str
    text: str
    secret: Secret
    data: SurrogateData
    forbidden: set[str] = field(default_factory=set)
    #: folded name tokens of the document's people: no surrogate may contain one as a word
    forbidden_words: set[str] = field(default_factory=set)
    used: dict[str, dict[str, str]] = field(default_factory=dict)
    memo: dict[tuple[str, str], Surrogate] = field(default_factory=dict)
    #: set by the people generator before other spans: folded name token -> surrogate token
    name_map: dict[str, str] = field(default_factory=dict)
    #: (start, end, original province, surrogate municipality) of towns already replaced
    towns: list[tuple[int, int, str, str]] = field(default_factory=list)
    extras: dict[str, object] = field(default_factory=dict)

    def contains_original(self, norm: str) -> bool:
        """Does a (normalised) surrogate contain an original of the document as whole words?
        ("Las Rozas de Madrid" in a note about Madrid would read as a leak, and be one.)"""
        padded = f" {_WORDS_ONLY.sub(' ', norm)} "
        if self.forbidden_words and any(f" {w} " in padded for w in self.forbidden_words):
            return True
        return any(len(f) > 2 and f" {f} " in padded for f in self.forbidden_phrases())

    def forbidden_phrases(self) -> set[str]:
        cached = self.extras.get("_phrases")
        if cached is None or cached[0] != len(self.forbidden):
            cached = (len(self.forbidden), {_WORDS_ONLY.sub(" ", f).strip() for f in self.forbidden})
            self.extras["_phrases"] = cached
        return cached[1]  # type: ignore[return-value]

    def rng(self, category: str, original: str, attempt: int = 0) -> random.Random:
        return self.secret.rng(category, normalise(original), str(attempt))

    def draw(
        self, category: str, original: str, make: Callable[[random.Random], str], check_close: bool = True
    ) -> str:
        """Draw a surrogate for ``original`` that passes the safety check and is not already the
        surrogate of another original of this category; the same original gets the same one."""
        key = normalise(original)
        taken = self.used.setdefault(category, {})
        if key in taken:
            return taken[key]
        values = set(taken.values())
        candidate = original
        for attempt in range(MAX_ATTEMPTS):
            candidate = make(self.rng(category, original, attempt))
            norm = normalise(candidate)
            if not norm or (check_close and too_close(candidate, original)) or norm == key:
                continue
            if norm in self.forbidden or candidate in values or self.contains_original(norm):
                continue
            break
        else:
            raise SurrogateFailure(f"no safe {category} surrogate after {MAX_ATTEMPTS} draws")
        taken[key] = candidate
        return candidate


class SurrogateFailure(Exception):
    """A generator could not produce a safe surrogate; the span is redacted instead."""


class Generator(Protocol):
    """One category of surrogate. ``phase`` orders generators within a document: people first
    (e-mails use their names), towns before postal codes."""

    name: str
    phase: int

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate: ...


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
    everything else kept. A leading non-zero digit stays non-zero (no invented leading zeros)."""
    out = []
    first_digit = True
    for char in text:
        if char.isdigit():
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


def weighted_choice(rng: random.Random, items: list[str], cum_weights: list[float]) -> str:
    return rng.choices(items, cum_weights=cum_weights, k=1)[0]


def cumulative(weights: Iterable[float]) -> list[float]:
    total = 0.0
    out = []
    for w in weights:
        total += max(float(w), 0.0)
        out.append(total)
    return out
