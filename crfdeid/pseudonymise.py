"""Pseudonymisation: spans in, a new document out, with spans at their new offsets and an audit.

One stage, one method: ``Pseudonymiser.pseudonymise(document) -> Pseudonymised``. For each span
the policy picks a strategy; ``pseudonymise`` asks the label's generator (the registry in
``crfdeid.surrogates``), and a label without one is redacted, never kept. Replacement goes
right to left so that offsets stay valid while the text changes; every character outside the
spans is kept exactly, and the new offsets of every span are computed, not searched for. After
replacement the output is scanned for every original string, and what is found is reported.

Randomness: every surrogate derives from a secret. With a key it is HMAC(key, seed), so the
same original gets the same surrogate in every document and every run with that key. Without
a key and without a seed the seed is drawn at random for the run and never recorded: a seed in
the audit would let anyone with the audit recompute surrogates for guessed names and so test
who is behind them (the audit records only that the seed was random).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .langpack import fold
from .policy import Policy
from .surrogates import (
    DocumentState,
    Secret,
    SurrogateData,
    SurrogateFailure,
    build_registry,
    normalise,
    surrogate_data,
)
from .surrogates.people import PERSON_LABELS, PeopleGenerator
from .types import Document, Span

#: Originals shorter than this are not looked for in the output ("M", "3"): they occur
#: everywhere and the report would drown in noise.
MIN_LEFTOVER_LENGTH = 3
_COMBINING = re.compile("[\u0300-\u036f]")


@dataclass(frozen=True)
class AuditRecord:
    """What was done to one span. The original appears only as a keyed hash."""

    document: str
    start: int
    end: int
    new_start: int
    new_end: int
    label: str
    source: str
    score: float | None
    strategy: str
    surrogate: str | None
    original_hash: str
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "start": self.start,
            "end": self.end,
            "new_start": self.new_start,
            "new_end": self.new_end,
            "label": self.label,
            "source": self.source,
            "score": self.score,
            "strategy": self.strategy,
            "surrogate": self.surrogate,
            "original_hash": self.original_hash,
            "note": self.note,
        }


@dataclass(frozen=True)
class Leftover:
    """An original PHI string found in the output after replacement."""

    document: str
    label: str
    original_hash: str
    new_start: int
    new_end: int

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "leftover": True,
            "label": self.label,
            "original_hash": self.original_hash,
            "new_start": self.new_start,
            "new_end": self.new_end,
        }


@dataclass(frozen=True)
class Pseudonymised:
    """The result for one document: the new document (text + spans at new offsets), one audit
    record per input span, the leftovers, and the original -> surrogate pairs (kept in memory
    only; written only when asked for, with ``--mapping-out``)."""

    document: Document
    audit: tuple[AuditRecord, ...]
    leftovers: tuple[Leftover, ...] = ()
    mapping: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def spans(self) -> tuple[Span, ...]:
        return self.document.spans


def apply_replacements(
    text: str, replacements: Sequence[tuple[int, int, str]]
) -> tuple[str, list[tuple[int, int]]]:
    """Replace non-overlapping ``(start, end, new)`` right to left; return the new text and the
    new ``(start, end)`` of each replacement, in the order given."""
    order = sorted(range(len(replacements)), key=lambda i: replacements[i][0])
    previous_end = -1
    for i in order:
        start, end, _ = replacements[i]
        if start < previous_end or end < start or end > len(text):
            raise ValueError(f"replacements overlap or fall outside the text at [{start}, {end})")
        previous_end = end
    out = text
    for i in reversed(order):
        start, end, new = replacements[i]
        out = out[:start] + new + out[end:]
    positions: list[tuple[int, int]] = [(0, 0)] * len(replacements)
    shift = 0
    for i in order:
        start, end, new = replacements[i]
        positions[i] = (start + shift, start + shift + len(new))
        shift += len(new) - (end - start)
    return out, positions


def resolve_overlaps(spans: Iterable[Span]) -> tuple[list[Span], list[Span]]:
    """Keep the earliest, then longest, of overlapping spans; return (kept, dropped)."""
    kept: list[Span] = []
    dropped: list[Span] = []
    last_end = -1
    for span in sorted(spans, key=lambda s: (s.start, -s.end, s.label)):
        if span.start < last_end:
            dropped.append(span)
            continue
        kept.append(span)
        last_end = span.end
    return kept, dropped


class Pseudonymiser:
    """Replaces the spans of a document according to a policy.

    ``seed`` and ``key`` make the output reproducible (same seed + same key -> same output);
    with neither, a random seed is drawn for this instance (``seed_was_random`` is True).
    """

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        language: str = "es",
        seed: int | None = None,
        key: bytes | None = None,
        data: SurrogateData | None = None,
    ) -> None:
        self.policy = policy or Policy.default()
        self.data = data or surrogate_data(language)
        self.registry = build_registry(self.data, self.policy.options)
        self.seed_was_random = seed is None and key is None
        if seed is None:
            seed = secrets.randbits(63) if key is None else 0
        if key is not None and not key:
            raise ValueError("an empty key protects nothing")
        self.keyed = key is not None
        self._secret = Secret.from_seed(seed, key)
        # The audit's hash key: from the key, else from the seed (a random seed gives a random
        # key), so a resumed batch or a worker process writes the same hashes as the first run.
        self._hash_key = (
            hmac.new(key, b"crfdeid-audit", hashlib.sha256).digest()
            if key is not None
            else self._secret.digest("crfdeid-audit")
        )
        self._people = next((g for g in self.registry.values() if isinstance(g, PeopleGenerator)), None)

    def original_hash(self, text: str) -> str:
        """A keyed hash of the normalised original (salted from the seed without a key)."""
        return hmac.new(
            self._hash_key, normalise(text).encode("utf-8", "surrogatepass"), hashlib.sha256
        ).hexdigest()[:32]

    def describe(self) -> dict[str, Any]:
        """What the audit records about the run: never the key, never a random seed."""
        return {
            "policy": self.policy.source,
            "keyed": self.keyed,
            "seed": "random (not recorded)" if self.seed_was_random else "given (not recorded)",
            "hash": "HMAC-SHA256 with the key" if self.keyed else (
                "HMAC-SHA256 with a random per-run salt" if self.seed_was_random
                else "HMAC-SHA256 with a salt derived from the seed"),
        }

    def pseudonymise(self, document: Document) -> Pseudonymised:
        text = document.text
        spans, dropped = resolve_overlaps(document.spans)
        state = DocumentState(document.id, text, self._secret, self.data)
        for span in spans:
            state.forbidden.add(normalise(document.span_text(span)))
            if span.label in PERSON_LABELS:
                words = (fold(w) for w in re.findall(r"[^\W\d_]{3,}", document.span_text(span)))
                state.forbidden_words.update(w for w in words if w not in self.data.name_particles)
        triples = [
            (s.start, s.end, s.label) for s in spans if self.policy.strategy(s.label) == "pseudonymise"
        ]
        prepared = set()
        for generator in self.registry.values():
            if id(generator) not in prepared and hasattr(generator, "prepare"):
                generator.prepare(state, triples)
                prepared.add(id(generator))
        tags: dict[str, list[tuple[frozenset[str], int]]] = {}
        planned: dict[int, tuple[list[str], str, str, bool]] = {}
        order = sorted(range(len(spans)), key=lambda i: (self._phase(spans[i]), spans[i].start))
        for i in order:
            planned[i] = self._plan(spans[i], document, state, tags)
        replacements: list[tuple[int, int, str]] = []
        owners: list[int] = []
        for i, span in enumerate(spans):
            for (start, end), new in zip(span.parts, planned[i][0], strict=True):
                replacements.append((start, end, new))
                owners.append(i)
        new_text, positions = apply_replacements(text, replacements)
        parts_of: dict[int, list[tuple[int, int]]] = {}
        for owner, position in zip(owners, positions, strict=True):
            parts_of.setdefault(owner, []).append(position)
        new_spans, audit, mapping = [], [], []
        for i, span in enumerate(spans):
            parts = [p for p in parts_of[i] if p[1] > p[0]]
            new_parts, strategy, note, kept = planned[i]
            original = document.span_text(span)
            surrogate = " ".join(new_parts)
            if parts:
                new_spans.append(
                    Span(
                        parts[0][0],
                        parts[-1][1],
                        span.label,
                        span.source,
                        span.score,
                        tuple(parts) if len(parts) > 1 else None,
                    )
                )
            first, last = (parts[0][0], parts[-1][1]) if parts else (positions[0][0], positions[0][0])
            audit.append(
                AuditRecord(
                    document.id,
                    span.start,
                    span.end,
                    first,
                    last,
                    span.label,
                    _source(span),
                    span.score,
                    strategy,
                    None if kept else surrogate,
                    self.original_hash(original),
                    note,
                )
            )
            if not kept:
                mapping.append((span.label, original, surrogate))
        for span in dropped:
            audit.append(
                AuditRecord(
                    document.id,
                    span.start,
                    span.end,
                    -1,
                    -1,
                    span.label,
                    _source(span),
                    span.score,
                    "overlap",
                    None,
                    self.original_hash(document.span_text(span)),
                    "inside another span, replaced with it",
                )
            )
        result = Document(document.id, new_text, tuple(new_spans), dict(document.metadata))
        leftovers = self._leftovers(document, spans, planned, new_text, new_spans)
        return Pseudonymised(result, tuple(audit), tuple(leftovers), tuple(mapping))

    def _phase(self, span: Span) -> int:
        generator = self.registry.get(span.label)
        return generator.phase if generator is not None else 9

    def _plan(
        self,
        span: Span,
        document: Document,
        state: DocumentState,
        tags: dict[str, list[tuple[frozenset[str], int]]],
    ) -> tuple[list[str], str, str, bool]:
        """(replacement of each part, strategy applied, note, kept on purpose)."""
        strategy = self.policy.strategy(span.label)
        texts = [document.text[s:e] for s, e in span.parts]
        if strategy == "keep":
            return texts, strategy, "", True
        if strategy == "mask":
            return self._one(texts, f"[{span.label}]"), strategy, "", False
        if strategy == "redact":
            return self._one(texts, self.policy.redact_text), strategy, "", False
        if strategy == "tag":
            return self._one(texts, self._tag(span, document, state, tags)), strategy, "", False
        generator = self.registry.get(span.label)
        if generator is None:
            return (
                self._one(texts, self.policy.redact_text),
                "redact",
                "no surrogate generator: redacted",
                False,
            )
        out, notes, kept = [], [], True
        try:
            for (start, _), part in zip(span.parts, texts, strict=True):
                surrogate = generator.generate(part, span.label, start, state)
                out.append(surrogate.text)
                kept = kept and surrogate.kept
                if surrogate.note:
                    notes.append(surrogate.note)
        except SurrogateFailure as exc:
            return self._one(texts, self.policy.redact_text), "redact", f"{exc}: redacted", False
        if not kept and any(normalise(o) == normalise(t) for o, t in zip(out, texts, strict=True)):
            return (
                self._one(texts, self.policy.redact_text),
                "redact",
                "surrogate equalled the original",
                False,
            )
        return out, strategy, "; ".join(dict.fromkeys(notes)), kept

    @staticmethod
    def _one(texts: list[str], value: str) -> list[str]:
        """The whole replacement goes in the first part; the others are emptied."""
        return [value] + [""] * (len(texts) - 1)

    def _tag(
        self,
        span: Span,
        document: Document,
        state: DocumentState,
        tags: dict[str, list[tuple[frozenset[str], int]]],
    ) -> str:
        name = self.policy.tag(span.label)
        entities = tags.setdefault(name, [])
        text = document.span_text(span)
        if span.label in PERSON_LABELS and self._people is not None and len(span.parts) == 1:
            key = self._people.entity(text, span.start, state) or frozenset([normalise(text)])
        else:
            key = frozenset([normalise(text)])
        for index, (known, number) in enumerate(entities):
            if key <= known or known <= key:
                entities[index] = (known | key, number)
                return f"[{name}-{number}]"
        number = len(entities) + 1
        entities.append((key, number))
        return f"[{name}-{number}]"

    def _leftovers(
        self,
        document: Document,
        spans: list[Span],
        planned: dict[int, tuple[list[str], str, str, bool]],
        new_text: str,
        new_spans: list[Span],
    ) -> list[Leftover]:
        """Every original (and every name token of a replaced name) still present in the output.

        A match inside a surrogate date is not reported: a shifted date may spell another
        original of the note ("2011" inside "22-X-2011") without revealing anything, and the
        shift is fixed per note. Drawn surrogates never contain an original in the first place.
        """
        dates = [(s.start, s.end) for s in new_spans if s.label == "FECHAS"]
        wanted: dict[str, tuple[str, str, bool]] = {}
        for i, span in enumerate(spans):
            if planned[i][3]:
                continue  # kept on purpose
            original = document.span_text(span)
            key = normalise(original)
            if len(key) >= MIN_LEFTOVER_LENGTH:
                wanted.setdefault(key, (span.label, self.original_hash(original), False))
            if span.label in PERSON_LABELS:
                for word in re.findall(r"[^\W\d_]{3,}", original):
                    if fold(word) not in self.data.name_particles and word[0].isupper():
                        wanted.setdefault(fold(word), (span.label, self.original_hash(word), True))
        if not wanted:
            return []
        folded = _COMBINING.sub("", unicodedata.normalize("NFD", new_text)).casefold()
        if len(folded) != len(new_text):  # rare characters fold to two: fold one by one instead
            folded = "".join((fold(c)[:1] or c) for c in new_text)
        pattern = re.compile(
            r"(?<!\w)(?:"
            + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(wanted, key=len, reverse=True))
            + r")(?!\w)"
        )
        found = []
        for match in pattern.finditer(folded):
            label, digest, capitalised = wanted[" ".join(match.group().split())]
            if capitalised and not new_text[match.start()].isupper():
                continue  # a name token as a common word ("Blanco" / "blanco")
            if any(start <= match.start() and match.end() <= end for start, end in dates):
                continue
            found.append(Leftover(document.id, label, digest, match.start(), match.end()))
        return found


def _source(span: Span) -> str:
    return "annotation" if span.source in ("gold", "annotation") else span.source
