"""Pseudonymisation: spans in, a new document out, with spans at their new offsets and an audit.

One stage, one method: ``Pseudonymiser.pseudonymise(document) -> Pseudonymised``. For each span
the policy picks a strategy (by label, else by the label's PHI category in the model's scheme);
``pseudonymise`` asks the generator of the label's category (``crfdeid.surrogates``); a category
no generator serves gets the policy's strategy for it (a mask by default) and a label of no
known scheme is redacted, both with a note in the audit — never kept. Every character
outside the spans is kept exactly, and the new offsets of every span are computed, not searched
for. After replacement the output is scanned for every original string, and what is found is
reported.

No span fails. A generator walks its fallback chain (same province -> same community ->
anywhere…) and the audit records the level used (``fallback``) and why (``note``). When no
level gives a safe surrogate — or a generator raises anything at all, in ``prepare`` or in
``generate`` — the span gets its class's neutral word from the pack ("localidad", "Fulano de
Tal"), recorded as ``fallback: "neutral"`` with the reason (and the error type); if even that
word would equal or contain an original of the note, the span is masked (``[LABEL]``,
``fallback: "mask"``). Never the original, never an exception.

Every step is linear in the note (a 9 MB note has 70,000+ spans): replacement joins pieces,
one-to-one checks and the "contains an original" check use indexes, towns near a postal code
are found by bisection, tags by an index of name groups, and leftovers by one Aho-Corasick pass.

Randomness: every surrogate derives from a secret. With a key it is HMAC(key, seed), so the
same original gets the same surrogate in every document and every run with that key. Without
a key and without a seed the seed is drawn at random for the run and never recorded: a seed in
the audit would let anyone with the audit recompute surrogates for guessed names and so test
who is behind them (the audit records only that the seed was random).
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from . import spoken
from .encodings import decode as decode_transfer
from .encodings import write_like
from .listing import Lines, in_aligned_column
from .memo import Memo
from .occurrences import Scannable, find_whole_words, name_words, word_bounds
from .packs import NO_PACK
from .policy import Policy
from .propagate import inside_sentence, nationalities, propagate
from .schemes import Scheme, known_category
from .span_form import bilingual_parts
from .structure import markup
from .surrogates import (
    DocumentState,
    Generator,
    Secret,
    SurrogateData,
    SurrogateFailure,
    build_registry,
    fold,
    generator_label,
    normalise,
    surrogate_data,
    too_close,
)
from .surrogates.ages import AgeGenerator
from .surrogates.base import RerolledSecret
from .surrogates.data import country_key
from .surrogates.people import PERSON_LABELS, PeopleGenerator
from .surrogates.places import CountryGenerator
from .taken import Taken
from .textview import TextView, form_of, ocr_digits, same_form
from .types import Document, Span

#: Originals shorter than this are not looked for in the output ("M", "3"): they occur
#: everywhere and the report would drown in noise.
MIN_LEFTOVER_LENGTH = 3
#: Audit hashes of normalised originals up to this long are remembered, at most this many.
HASH_CACHE_LENGTH = 64
HASH_CACHE_SIZE = 1 << 15
#: The note's prefix of a generator error: tests and the batch tell a bug from a planned fallback.
GENERATOR_ERROR = "generator error"
#: Every fallback level a record may name (``None``: the first choice worked).
FALLBACKS = ("community", "same region", "same continent", "same-major-group", "any-field", "anywhere",
             "any-size", "any-type", "any-sex", "any-gender", "no-check", "scrambled", "digits", "neutral",
             "mask")
#: The relatives' label: their name words are originals no surrogate may spell.
RELATIVE_LABEL = "FAMILIARES_SUJETO_ASISTENCIA"

#: The generators of facilities and organisations: the words that tell one from another are
#: forbidden in every facility's and organisation's surrogate of the note.
FACILITY_LABELS = frozenset({"HOSPITAL", "CENTRO_SALUD", "INSTITUCION"})


@dataclass(frozen=True)
class Plan:
    """What will replace one span: a text per part, the strategy applied, a note, whether the
    original is kept on purpose, and the fallback level used (None: the first choice)."""

    parts: list[str]
    strategy: str
    note: str = ""
    kept: bool = False
    fallback: str | None = None


@dataclass(frozen=True)
class AuditRecord:
    """What was done to one span. The original appears only as a keyed hash. ``fallback``
    names the fallback level used (None when the first choice worked); ``note`` says why."""

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
    fallback: str | None = None

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
            "fallback": self.fallback,
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

    @property
    def generator_errors(self) -> tuple[AuditRecord, ...]:
        """Spans whose generator raised (a bug, replaced by the neutral word): not planned."""
        return tuple(r for r in self.audit if r.note.startswith(GENERATOR_ERROR))


def apply_replacements(
    text: str, replacements: Sequence[tuple[int, int, str]]
) -> tuple[str, list[tuple[int, int]]]:
    """Replace non-overlapping ``(start, end, new)``; return the new text and the new
    ``(start, end)`` of each replacement, in the order given. Linear: the pieces are joined once."""
    order = sorted(range(len(replacements)), key=lambda i: replacements[i][0])
    previous_end = -1
    for i in order:
        start, end, _ = replacements[i]
        if start < previous_end or end < start or end > len(text):
            raise ValueError(f"replacements overlap or fall outside the text at [{start}, {end})")
        previous_end = end
    pieces: list[str] = []
    positions: list[tuple[int, int]] = [(0, 0)] * len(replacements)
    cursor = 0
    length = 0
    for i in order:
        start, end, new = replacements[i]
        pieces.append(text[cursor:start])
        length += start - cursor
        positions[i] = (length, length + len(new))
        pieces.append(new)
        length += len(new)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), positions


def whole_words(text: str, spans: Iterable[Span]) -> list[Span]:
    """Spans that start or end inside a word, widened to the whole word.

    An annotator's slip ("F|rancisco Javier" marked from the "r") or a rule's boundary would
    otherwise leave a letter of the original beside its surrogate ("FMariano"), and the note
    would be held back for a leftover (:func:`occurrences.word_bounds` says where a word goes
    on). Discontinuous spans are left as they are."""
    out = []
    for span in spans:
        start, end = span.start, span.end
        if span.fragments is None and start < end:
            start, end = word_bounds(text, start, end)
        out.append(span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end))
    return out


def resolve_overlaps(spans: Iterable[Span]) -> tuple[list[Span], list[Span]]:
    """One span per group of overlapping spans; return (kept, dropped).

    The earliest, then longest, span of a group leads it and keeps its label; when another
    span of the group reaches past it ("Juan Garc|ía López" over "Juan García"), the leader is
    widened to cover every character of the group, so the part that stuck out is replaced
    too, never left in clear. The others are dropped (audited as ``overlap``): replaced with
    the leader, as their note says. Discontinuous spans join by their parts."""
    kept: list[Span] = []
    dropped: list[Span] = []
    group: list[Span] = []
    group_end = -1

    def close() -> None:
        if group:
            kept.append(_covering(group))
            dropped.extend(group[1:])

    for span in sorted(spans, key=lambda s: (s.start, -s.end, s.label)):
        if span.start < group_end:
            group.append(span)
            group_end = max(group_end, span.end)
            continue
        close()
        group, group_end = [span], span.end
    close()
    return kept, dropped


def _covering(group: list[Span]) -> Span:
    """The group's leader, widened to every part of its members (merged where they meet)."""
    leader = group[0]
    merged: list[list[int]] = []
    for start, end in sorted(part for span in group for part in span.parts):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts = tuple((start, end) for start, end in merged)
    if parts == leader.parts:
        return leader
    return replace(leader, start=parts[0][0], end=parts[-1][1],
                   fragments=parts if len(parts) > 1 else None)


def _to_original(view: TextView, document: Document, spans: list[Span], dropped: list[Span],
                 planned: dict[int, Plan]) -> tuple[list[Span], list[Span]]:
    """Spans planned on the NFC view, back at the original's offsets, each replacement in the
    form of the text it replaces (a kept span keeps its original characters exactly)."""
    form = form_of(document.text) or "NFC"
    mapped: list[Span] = []
    for i, span in enumerate(spans):
        # disjoint view spans map to disjoint original ranges: each view character stands for
        # its own run of original characters (a letter and its combining marks)
        original = view.span_to_original(span)
        plan = planned[i]
        texts = [document.text[s:e] for s, e in original.parts]
        if plan.kept:
            parts = texts
        else:
            parts = plan.parts if len(plan.parts) == len(texts) else (
                [" ".join(plan.parts)] + [""] * (len(texts) - 1))
            parts = [same_form(new, old, form) for new, old in zip(parts, texts, strict=True)]
            if view.decoded is not None:  # an RTF source, a quoted-printable part: kept so
                text = document.text
                parts = [write_like(new, old, view.decoded, s, e, text[max(0, s - 40):s])
                         for new, old, (s, e) in zip(parts, texts, original.parts, strict=True)]
        planned[i] = replace(plan, parts=parts)
        mapped.append(original)
    return mapped, [view.span_to_original(span) for span in dropped]


def in_form_of(new: str, original: str) -> str:
    """``new`` in the Unicode normalisation form of ``original``: a decomposed (NFD) name gets
    a decomposed surrogate, so the note stays in one form."""
    if original.isascii() or unicodedata.is_normalized("NFC", original):
        return new
    if unicodedata.is_normalized("NFD", original):
        return unicodedata.normalize("NFD", new)
    return new


class _PerLabel(dict):
    """A function of a label, asked once per label of a note and then read as a dict (in C):
    propagation and the leftover scan ask it for every span."""

    def __init__(self, function: Callable[[str], Any]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, label: str) -> Any:
        value = self[label] = self.function(label)
        return value


class _Entities:
    """The entities of one tag name (``PERSONA``): sets of name groups, numbered in order of
    appearance. A span joins the first entity whose set contains or is contained in its own,
    found through an index of the entities' members instead of a scan of every entity."""

    def __init__(self) -> None:
        self.members: list[frozenset[str]] = []
        self.by_member: dict[str, list[int]] = {}

    def number(self, key: frozenset[str]) -> int:
        candidates = sorted({i for m in key for i in self.by_member.get(m, ())})
        for i in candidates:
            known = self.members[i]
            if key <= known or known <= key:
                for member in key - known:
                    self.by_member.setdefault(member, []).append(i)
                self.members[i] = known | key
                return i + 1
        self.members.append(key)
        for member in key:
            self.by_member.setdefault(member, []).append(len(self.members) - 1)
        return len(self.members)


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
        propagate_mentions: bool = True,
        scheme: Scheme | None = None,
    ) -> None:
        """``scheme``: the labels of the spans (a model's); labels it lacks are looked up in the
        shipped schemes. ``language="none"``: no language pack, so no surrogate generator — every
        category the policy pseudonymises gets its no-generator strategy (a mask)."""
        self.policy = policy or Policy.default()
        #: replace second mentions the detector did not mark (crfdeid.propagate)
        self.propagate_mentions = propagate_mentions
        self.scheme = scheme
        self.language = language
        self.data: SurrogateData | None = data or (surrogate_data(language) if language != NO_PACK else None)
        self.registry = build_registry(self.data, self.policy.options) if self.data is not None else {}
        self._kinds: dict[str, tuple[str | None, str | None, str]] = {}
        self._kinds_policy = self.policy
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
        self._hashes: Memo[str, str] = Memo(HASH_CACHE_SIZE)
        self._people = next((g for g in self.registry.values() if isinstance(g, PeopleGenerator)), None)
        self._ages = next((g for g in self.registry.values() if isinstance(g, AgeGenerator)), None)
        self._countries = next((g for g in self.registry.values() if isinstance(g, CountryGenerator)), None)

    def _nationalities(self, planning: Document, replaced: Callable[[str], bool],
                       generator_of: Callable[[str], str | None], scannable: Scannable) -> tuple[Span, ...]:
        """The nationality adjectives of the note's replaced countries (``propagate.nationalities``)."""
        countries, data = self._countries, self.data
        if countries is None or data is None or not data.nationality_forms:
            return ()

        def code_of(text: str) -> str | None:
            form = data.nationality_forms.get(fold(text))
            return data.country_code.get(country_key(text)) or (form[0] if form else None)

        def kept(code: str) -> bool:
            return countries.keep_home_country and countries.home(data.country_name.get(code, ""))

        return nationalities(planning, lambda label: replaced(label) and generator_of(label) == "PAIS",
                             code_of, data.nationality_forms, kept, scannable)

    def category(self, label: str) -> str | None:
        """A label's PHI category (the model's scheme first, then the shipped ones)."""
        return self._kind(label)[0]

    def generator_label(self, label: str) -> str | None:
        """The MEDDOCAN label a label's generator is asked with (itself for a MEDDOCAN label)."""
        return self._kind(label)[1]

    def _kind(self, label: str) -> tuple[str | None, str | None, str]:
        """(category, generator label, strategy) of a label, worked out once per label (a note
        asks a dozen times per span) and again if the policy is replaced."""
        found = self._kinds.get(label)
        if found is None or self._kinds_policy is not self.policy:
            if self._kinds_policy is not self.policy:
                self._kinds.clear()
                self._kinds_policy = self.policy
            category = known_category(label, self.scheme)
            found = (category, generator_label(label, category), self.policy.strategy(label, category))
            self._kinds[label] = found
        return found

    def strategy(self, label: str) -> str:
        return self._kind(label)[2]

    def _is_stopword(self, word: str) -> bool:
        return self.data is not None and self.data.pack.is_stopword(word)

    def note_secret(self, document_id: str, rerolls: Mapping[str, int] | None = None,
                    date_rerolls: int = 0) -> Secret:
        """The secret surrogates of one note are drawn from.

        With a key, the run's secret: one original gets one surrogate in every note, the
        consistency a linked research release needs. Without one, the seed mixed with the note
        id: surrogates are drawn per note, so a repeated original ("Martínez", "Madrid") gets
        independent surrogates in different notes and the release cannot be linked across notes
        or attacked by counting surrogates. The same seed and note still give the same output.
        ``rerolls`` (normalised original -> count) and ``date_rerolls`` draw those originals, and
        the note's date shift, again (a reviewer's reroll: ``RerolledSecret``)."""
        secret = self._secret if self.keyed else Secret(self._secret.digest("crfdeid-note", document_id))
        if (rerolls and any(rerolls.values())) or date_rerolls:
            return RerolledSecret(secret, dict(rerolls or {}), date_rerolls)
        return secret

    def original_hash(self, text: str) -> str:
        """A keyed hash of the normalised original (salted from the seed without a key)."""
        return self._hash_of(normalise(text))

    def _hash_of(self, key: str) -> str:
        """The audit hash of a normalised original; short ones are remembered (a pure function
        of the run's hash key and the string: a name is hashed in note after note)."""
        digest = self._hashes.get(key)
        if digest is None:
            digest = hmac.digest(self._hash_key, key.encode("utf-8", "surrogatepass"), "sha256").hex()[:32]
            if len(key) <= HASH_CACHE_LENGTH:
                self._hashes.remember(key, digest)
        return digest

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

    def pseudonymise(self, document: Document, *, rerolls: Mapping[str, int] | None = None,
                     date_rerolls: int = 0) -> Pseudonymised:
        """The new document, its audit and leftovers. Never raises for a valid ``Document``.
        ``rerolls`` and ``date_rerolls``: originals to draw again (``note_secret``).

        Generators read and plan on the note's NFC view (a decomposed "Julián" is one word with
        an accented letter, as a reader sees it); the replacements are then written into the
        original text at its own offsets, each surrogate in the normalisation form of what it
        replaces, so every character outside the spans stays exactly as it was."""
        text = document.text
        widened = whole_words(text, document.spans)
        if widened != list(document.spans):
            document = document.with_spans(widened)
        view = TextView(text, nfc_only=True)
        if not view.exact:
            document = document.with_spans(view.snap_span(s) for s in document.spans)
        planning = document if view.exact else view.document(document)
        folded = None  # the note folded once: propagation scans it, the people generator reads it
        generator_of = _PerLabel(self.generator_label)  # asked per span, many times over
        if self.propagate_mentions and self.data is not None:
            scannable = Scannable(planning.text)
            replaced = _PerLabel(lambda label: self.strategy(label) != "keep")
            facilities = self.registry.get("HOSPITAL")
            extra = propagate(planning, replaced.__getitem__,
                              self.data.pack, self.data.name_particles, self.data.name_acronyms,
                              generator_of.__getitem__, self.data.is_known_acronym, scannable,
                              getattr(facilities, "proper", None), self._is_place)
            blocked = Taken(markup(planning.text))  # a structure's keys, tags and protocol

            def outside(found: list[Span]) -> list[Span]:  # no second mention in the markup
                return [s for s in found if not any(blocked.overlapping(a, b) for a, b in s.parts)]

            extra = outside(extra) if blocked else extra  # ("Image Description" keys)
            if extra:
                planning = planning.with_spans((*planning.spans, *extra))
            adjectives = self._nationalities(planning, replaced.__getitem__, generator_of.__getitem__,
                                             scannable)
            adjectives = outside(adjectives) if blocked else adjectives
            if adjectives:
                planning = planning.with_spans((*planning.spans, *adjectives))
            folded, scannable = scannable.fold(), None
        spans, dropped = resolve_overlaps(planning.spans)
        secret = self.note_secret(document.id, rerolls, date_rerolls)
        state = DocumentState(document.id, planning.text, secret, self.data)
        state.folded = folded
        originals = [planning.span_text(span) for span in spans]
        keys = [normalise(original) for original in originals]  # once: folding is not free
        hashes = [self._hash_of(key) for key in keys]
        state.forbidden.update(keys)
        particles = self.data.name_particles if self.data is not None else frozenset()
        for span, original in zip(spans, originals, strict=True):
            generated = self._kind(span.label)[1]
            if generated in PERSON_LABELS:
                words = (fold(w) for w in name_words(original))
                state.forbidden_words.update(w for w in words if w not in particles)
            elif generated == RELATIVE_LABEL:
                # a relative's name words too, not the kinship words ("Carmen" of "su esposa,
                # Carmen Seoane Díaz" had been drawn for her nickname: the tenth set written blind)
                words = (fold(w) for w in name_words(original) if w[:1].isupper())
                state.forbidden_words.update(w for w in words if w not in particles)
            elif generated in FACILITY_LABELS and self.data is not None:
                # "Hospital de León" must not become the note's other hospital, "El Bierzo"
                state.facility_words.update(self.data.distinctive_words(original))
            elif generated == "TERRITORIO":
                # each name of a bilingual town is the town: "Pamplona-Iruña" had become "Pamplona"
                state.forbidden.update(normalise(part) for part in bilingual_parts(original))
        kinds = {label: self._kind(label) for label in {s.label for s in spans}}  # asked once per label
        triples = [
            (s.start, s.end, kind[1]) for s in spans
            if (kind := kinds[s.label])[2] == "pseudonymise" and kind[1] is not None
        ]
        broken = self._prepare(state, triples)
        state.folded = folded = None  # read by prepare alone: a long note's copy is let go
        tags: dict[str, _Entities] = {}
        planned: dict[int, Plan] = {}
        phases = {label: self._phase(label) for label in kinds}
        order = sorted(range(len(spans)), key=lambda i: (phases[spans[i].label], spans[i].start))
        for i in order:
            planned[i] = self._plan(spans[i], planning, state, tags, broken)
        read = originals  # as a reader reads them: what the leftover scan looks for
        if not view.exact:
            spans, dropped = _to_original(view, document, spans, dropped, planned)
            originals = [document.span_text(span) for span in spans]
            if view.decoded is None:
                read = originals
        replacements: list[tuple[int, int, str]] = []
        owners: list[int] = []
        lines = Lines(text)
        for i, span in enumerate(spans):
            parts = planned[i].parts
            for k, (start, end) in enumerate(span.parts):
                if (not parts[k].endswith(".") and _INITIAL_END.search(text, max(start, end - 3), end)
                        and _SENTENCE_AFTER.match(text, end)):
                    # the full stop of "… Betancor, S.L. Es imán…" ended the sentence too: it stays
                    # ("en Laboratorios García Es imán" had run two sentences into one); in the
                    # plan, so that the audit says what the text holds
                    parts[k] += "."
                if (not planned[i].kept and len(parts[k]) != end - start
                        and (fills := in_aligned_column(text, start, end, lines)) is not None):
                    # a listing's column: a shorter surrogate padded to the original's width, so
                    # the next column stays where every row has it (the sixteenth set's admissions
                    # listing had every row's columns shifted); a longer one cut only where the
                    # original fills its cell (one space after it: a name the listing cut at its
                    # width) or the listing has a ruler under its header — a header's "Médico:
                    # Sonia Hernández …   NºCol:" is never cut
                    if len(parts[k]) < end - start:
                        parts[k] = parts[k].ljust(end - start)
                    elif fills and not any(c.isdigit() for c in parts[k]):  # never a date or a code
                        parts[k] = parts[k][: end - start].rstrip().ljust(end - start)
            for (start, end), new in zip(span.parts, parts, strict=True):
                replacements.append((start, end, new))
                owners.append(i)
        new_text, positions = apply_replacements(text, replacements)
        parts_of: dict[int, list[tuple[int, int]]] = {}
        for owner, position in zip(owners, positions, strict=True):
            parts_of.setdefault(owner, []).append(position)
        new_spans, audit, mapping = [], [], []
        for i, span in enumerate(spans):
            parts = [p for p in parts_of[i] if p[1] > p[0]]
            plan = planned[i]
            original = originals[i]
            surrogate = " ".join(p for p in plan.parts if p)
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
            # the audit range runs from the first part to the last, emptied or not: the text
            # kept between the parts of a discontinuous span lies inside it, as in the original
            first, last = parts_of[i][0][0], parts_of[i][-1][1]
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
                    plan.strategy,
                    None if plan.kept else surrogate,
                    hashes[i],
                    plan.note,
                    plan.fallback,
                )
            )
            if not plan.kept:
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
        # an encoded note's originals as decoded: "Mar&iacute;a" is "María", not "Mar" and "iacute"
        # (a page's "Puerta del Mar" had held the note back as a leftover)
        leftovers = self._leftovers(document.id, spans, read, keys, hashes, planned, new_text, new_spans,
                                    generator_of)
        if view.decoded is not None and (decoded := decode_transfer(new_text)) is not None:
            # and on the output as a reader reads it: a name a page writes with references
            # ("Mar&iacute;a L&oacute;pez") is found only so (the sixteenth set's review: a page's
            # <meta> author had stayed, and the note was releasable); its offsets are the decoded
            # output's, and no shifted date is set aside there: an encoded note is held on doubt
            seen = {(x.label, x.original_hash) for x in leftovers}
            leftovers += [x for x in self._leftovers(document.id, spans, read, keys, hashes, planned,
                                                     decoded.text, [], generator_of)
                          if (x.label, x.original_hash) not in seen]
        return Pseudonymised(result, tuple(audit), tuple(leftovers), tuple(mapping))

    def _is_place(self, name: str) -> bool:
        """A town or a province of the pack's tables ("León" of "Hospital de León")."""
        data = self.data
        return data is not None and (data.find_town(name) is not None or fold(name) in data.province_lookup)

    def _prepare(self, state: DocumentState, triples: list[tuple[int, int, str]]) -> dict[str, str]:
        """Let each generator read the whole note first (people group name variants, towns are
        drawn before postal codes). A generator whose ``prepare`` raises is recorded as broken:
        its spans get the neutral word, since its state may be half-built."""
        broken: dict[str, str] = {}
        prepared = set()
        for generator in self.registry.values():
            if id(generator) in prepared or not hasattr(generator, "prepare"):
                continue
            prepared.add(id(generator))
            try:
                generator.prepare(state, triples)
            except Exception as exc:  # recorded per span, never a failed note
                broken[generator.name] = type(exc).__name__
        return broken

    def _phase(self, label: str) -> int:
        generator = self.registry.get(self.generator_label(label) or "")
        return generator.phase if generator is not None else 9

    def _plan(
        self,
        span: Span,
        document: Document,
        state: DocumentState,
        tags: dict[str, _Entities],
        broken: dict[str, str],
    ) -> Plan:
        strategy = self.strategy(span.label)
        texts = [document.text[s:e] for s, e in span.parts]
        if strategy == "keep":
            return Plan(texts, strategy, kept=True)
        if strategy == "mask":
            return Plan(self._one(texts, f"[{span.label}]"), strategy)
        if strategy == "redact":
            return Plan(self._one(texts, self.policy.redact_text), strategy, self._redact_note(span.label))
        if strategy == "tag":
            return Plan(self._one(texts, self._tag(span, document, state, tags)), strategy)
        label = self.generator_label(span.label)
        generator = self.registry.get(label or "")
        misfiled = ""
        ages = self._ages
        if ages is not None and generator is not ages and len(texts) == 1 and self._is_age(texts[0]):
            # "32 años" filed as PAIS or FECHAS (MEDDOCAN train has both): an age is an age,
            # kept as ages are, and its second mention "Varón de 32 años" is no leftover
            generator, misfiled = ages, f"an age filed as {span.label}: treated as an age"
        if generator is None:
            return self._without_generator(span, document, state, tags, texts)
        if not any(_ALNUM.search(t) for t in texts):
            return Plan(texts, strategy, "no letters or digits: nothing to replace", kept=True)
        if generator.name in broken:
            error = f"{GENERATOR_ERROR} ({broken[generator.name]} in {generator.name}.prepare)"
            return self._neutral(generator, span, texts, state, error)
        out, notes, fallbacks, kept = [], [], [], True
        try:
            for (start, _), part in zip(span.parts, texts, strict=True):
                # read as detection read it: "982 l28 455" is a phone whose "l" scanning misread
                # (a surrogate "980 v48 950" kept the misreading's shape, "O7/O1/1967" a date
                # "O30/O10/1965"); a kept part stays as written
                # a dictated identifier ("dos cinco nueve … letra ene") is drawn as the characters
                # it stands for and said back in words
                # (the spoken step's own spans, or four spoken words or more: a surname "Tres" or
                # "Arroba", a given name "Una", is a name)
                said = (spoken.read(part) if self.language == "es" and (
                    span.source == spoken.SOURCE or len(part.split()) >= 4) else None)
                read = ocr_digits(part) if said is None else said
                surrogate = generator.generate(read, label, start, state)
                if surrogate.kept:
                    out.append(surrogate.text if read is part else part)
                elif said is not None:
                    out.append(spoken.speak(surrogate.text, part))
                elif part.islower() and not surrogate.text.islower():
                    # a note typed in lower case keeps it ("martos" had become "Sansomendi")
                    out.append(in_form_of(surrogate.text.lower(), part))
                else:
                    out.append(in_form_of(surrogate.text, part))
                kept = kept and surrogate.kept
                if surrogate.note:
                    notes.append(surrogate.note)
                if surrogate.fallback:
                    fallbacks.append(surrogate.fallback)
        except SurrogateFailure as exc:
            return self._neutral(generator, span, texts, state, str(exc))
        except Exception as exc:  # a bug in a generator must not fail the note
            return self._neutral(generator, span, texts, state, f"{GENERATOR_ERROR} ({type(exc).__name__})")
        if not kept and any(normalise(o) == normalise(t) for o, t in zip(out, texts, strict=True)):
            return self._neutral(generator, span, texts, state, "the surrogate equalled the original")
        if misfiled:
            notes.insert(0, misfiled)
        return Plan(out, strategy, "; ".join(dict.fromkeys(notes)), kept, fallbacks[0] if fallbacks else None)

    def _redact_note(self, label: str) -> str:
        """Why a span is redacted when no policy entry asked for it (never silently)."""
        category = self.category(label)
        if label in self.policy.strategies or category in self.policy.categories:
            return ""
        if category is None:
            return f"label {label} is in no label scheme: redacted"
        return f"neither {label} nor its category {category} is in the policy: redacted"

    def _without_generator(
        self,
        span: Span,
        document: Document,
        state: DocumentState,
        tags: dict[str, _Entities],
        texts: list[str],
    ) -> Plan:
        """A span to pseudonymise that no generator serves: its category's strategy (a mask by
        default), or, for a label of no known scheme, the redaction — said in the note."""
        category = self.category(span.label)
        if category is None:
            note = self._redact_note(span.label) or f"label {span.label} is in no label scheme: redacted"
            return Plan(self._one(texts, self.policy.redact_text), "redact", note)
        strategy = self.policy.without_generator(category)
        why = "no language pack" if self.data is None else "no surrogate generator"
        note = f"{why} for category {category}: {strategy}"
        if strategy == "keep":
            return Plan(texts, strategy, note, kept=True)
        if strategy == "tag":
            return Plan(self._one(texts, self._tag(span, document, state, tags)), strategy, note)
        value = self.policy.redact_text if strategy == "redact" else f"[{span.label}]"
        return Plan(self._one(texts, value), strategy, note)

    def _is_age(self, text: str) -> bool:
        """A number of at most three digits and one of the pack's age units, nothing else."""
        stripped = text.strip()
        first = stripped[:1]
        if not first or (first.isascii() and not first.isdigit()):  # ``_AGE`` starts with \d
            return False  # (ASCII only: ``regex``'s Unicode is newer than ``str``'s)
        match = _AGE.fullmatch(stripped)
        return match is not None and self.data is not None and fold(match.group(2)) in self.data.age_units

    def _neutral(
        self, generator: Generator, span: Span, texts: list[str], state: DocumentState, reason: str
    ) -> Plan:
        """The class's neutral word from the pack; ``[LABEL]`` if even it would equal the
        original, come within one edit of it, or contain an original of the note."""
        original = " ".join(texts)
        try:
            category = generator.neutral_category(original, self.generator_label(span.label) or span.label)
        except Exception:  # the mask below is the answer
            category = ""
        word = self.data.neutral.get(category, "") if self.data is not None else ""
        norm = normalise(word)
        if (
            not norm
            or too_close(word, original)
            or norm in state.forbidden
            or state.contains_original(norm)
        ):
            masked = self._one(texts, f"[{span.label}]")
            return Plan(masked, "pseudonymise", f"{reason}: masked", False, "mask")
        word = in_form_of(word, original)
        return Plan(self._one(texts, word), "pseudonymise", f"{reason}: neutral {category}", False, "neutral")

    @staticmethod
    def _one(texts: list[str], value: str) -> list[str]:
        """The whole replacement goes in the first part; the others are emptied."""
        return [value] + [""] * (len(texts) - 1)

    def _tag(
        self,
        span: Span,
        document: Document,
        state: DocumentState,
        tags: dict[str, _Entities],
    ) -> str:
        name = self.policy.tag(span.label, self.category(span.label))
        entities = tags.setdefault(name, _Entities())
        text = document.span_text(span)
        key = frozenset([normalise(text)])
        person = self.generator_label(span.label) in PERSON_LABELS
        if person and self._people is not None and len(span.parts) == 1:
            with contextlib.suppress(Exception):  # numbered by its text instead
                key = self._people.entity(text, span.start, state) or key
        return f"[{name}-{entities.number(key)}]"

    def _leftovers(
        self,
        document_id: str,
        spans: list[Span],
        originals: list[str],
        keys: list[str],
        hashes: list[str],
        planned: dict[int, Plan],
        new_text: str,
        new_spans: list[Span],
        generator_of: Mapping[str, str | None],
    ) -> list[Leftover]:
        """Every original (and every name token of a replaced name) still present in the output.

        A match inside a surrogate date is not reported: a shifted date may spell another
        original of the note ("2011" inside "22-X-2011") without revealing anything, and the
        shift is fixed per note. Drawn surrogates never contain an original in the first place.
        Matching is on folded text (case and accents ignored), whole words, any whitespace
        between words; the leftmost, then longest, match wins and matches do not overlap. A
        match inside a structure's markup is reported too (second mentions are not replaced
        there: a name a program wrote into a key would otherwise be released unnoticed).
        """
        wanted: dict[str, tuple[str, str, bool]] = {}
        acronyms = self.data.name_acronyms if self.data is not None else frozenset()
        particles = self.data.name_particles if self.data is not None else frozenset()
        written_upper: set[str] = set()  # name words written in capitals: an acronym of them counts
        lower: set[str] = set()  # one word in lower case: a common noun ("estudiante")
        for i, span in enumerate(spans):
            if planned[i].kept:
                continue  # kept on purpose
            original, key = originals[i], keys[i]
            if len(key) >= MIN_LEFTOVER_LENGTH:
                wanted.setdefault(key, (span.label, hashes[i], False))
                if original.isupper():
                    written_upper.add(key)
                person = generator_of[span.label] in (*PERSON_LABELS, "FAMILIARES_SUJETO_ASISTENCIA")
                if original.islower() and " " not in original and not person:
                    lower.add(key)  # a common noun; a name typed in lower case is a name anywhere
            if generator_of[span.label] in PERSON_LABELS:
                for word in name_words(original):
                    if fold(word) not in particles and word[0].isupper():
                        wanted.setdefault(fold(word), (span.label, self.original_hash(word), True))
                        if word.isupper():
                            written_upper.add(fold(word))
        if not wanted:
            return []
        longest = find_whole_words(new_text, wanted)
        dates = sorted((s.start, s.end) for s in new_spans if generator_of[s.label] == "FECHAS")
        date_starts = [d[0] for d in dates]
        found = []
        for start, end, key in longest:
            label, digest, capitalised = wanted[key]
            if capitalised and not new_text[start].isupper():
                continue  # a name token as a common word ("Blanco" / "blanco")
            if (key in lower and new_text[start].isupper() and self.data is not None
                    and inside_sentence(new_text, start, self.data.pack)):
                continue  # "estudiante" replaced, "Unidad de Salud del Estudiante" a name (propagate)
            if key in acronyms and key not in written_upper and new_text[start:end].isupper():
                continue  # "ANA positivos": the pack's acronym spelled like the name, not the name
            if capitalised and _FIELD_NAME.match(new_text, end) and (
                    start == 0 or new_text[start - 1] in "\n\r") and self._is_stopword(key):
                continue  # "País: España" heads a line: a field's name, not the surname Pais
            at = bisect.bisect_right(date_starts, start) - 1
            if at >= 0 and dates[at][0] <= start and end <= dates[at][1]:
                continue
            found.append(Leftover(document_id, label, digest, start, end))
        return found


#: What follows a sentence's end: spaces and a capital, a line break, or the text's end.
_SENTENCE_AFTER = re.compile(r"[ \t]+[A-ZÁÉÍÓÚÑÜ]|[ \t]*(?:\r?\n|$)")
#: A span's end on a capital and a full stop, as a company's "S.L." or "S.A." ends.
_INITIAL_END = re.compile(r"(?<![^\W\d_])[A-Z]\.$")
#: A letter or digit (``str.isalnum``: ``re``'s \w is the same test, with "_" added).
_ALNUM = re.compile(r"[^\W_]")
#: An age as a header writes it: "32 años", "7 meses", "3 días".
_AGE = regex.compile(r"(\d{1,3})[ \t]*([^\W\d_]+)\.?")
#: What follows the first word of a header field's name: "País:", "País de nacimiento:".
_FIELD_NAME = regex.compile(r"(?:[ \t]+\p{Ll}+){0,3}[ \t]*:")


def _source(span: Span) -> str:
    return "annotation" if span.source in ("gold", "annotation") else span.source
