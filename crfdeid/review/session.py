"""One review: the notes, the engine, the officer's decisions, and what they make of each note.

Everything goes through the engine: a note's spans come from ``Deidentifier.detect_note`` (the
pipeline ``crfdeid deidentify`` runs, at the same operating point), its de-identified text from
``Deidentifier.pseudonymise_note`` over the spans as decided (so second mentions, whole-word
widening, leftovers and the hold reasons are those of a batch), rerolls from the pseudonymiser's
``RerolledSecret``, the "why" of a span from its rule (id, description, file and line) or from
``crfdeid.explain.NoteReasons`` (the CRF's marginal and the features that weigh most).

Work is lazy: a note is read and detected when it is opened or when the background detection
reaches it, and the result is kept (per note), so a 1,000-note folder shows its list at once.
One lock guards the engine and the state: the engine's caches are not thread-safe, and the web
server answers on threads.
"""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..acronyms import SOURCE as ACRONYM
from ..batch import Note
from ..deidentify import Deidentifier, NoteResult
from ..errors import CrfdeidError
from ..lone_names import LOWER_SOURCE as LOWER_CASE_NAME
from ..lone_names import SOURCE as LONE_NAME
from ..lone_places import CHAIN_SOURCE as ADDRESS_PLACE
from ..lone_places import HOSPITAL_SOURCE as HOSPITAL_NAME
from ..lone_places import ORGANISATION_SOURCE as ORGANISATION_NAME
from ..lone_places import SOURCE as LONE_PLACE
from ..lone_places import STREET_SOURCE as LONE_STREET
from ..lone_professions import SOURCE as LONE_PROFESSION
from ..pseudonymise import AuditRecord, apply_replacements
from ..surrogates import normalise, too_close
from ..surrogates.base import LETTERS
from ..types import Document, Span
from .log import ReviewLog
from .notes import NoteSource
from .state import ACCEPTED, PENDING, REJECTED, NoteState, ReviewState, SpanState

#: A CRF span whose mean marginal is below this is shown as low-confidence (``--low-confidence``).
LOW_CONFIDENCE = 0.9
#: How many rerolls are tried before saying that a span has no other surrogate.
MAX_REROLL_TRIES = 8
#: Rendered notes kept in memory (a note is re-rendered after each action on it).
VIEW_CACHE = 48
#: Notes whose CRF explanation (tokens, tags, features) is kept.
REASON_CACHE = 4
#: The source of a span the officer added.
ADDED = "review"
#: The source the pseudonymiser gives a second mention it found.
PROPAGATED = "propagated"


class ReviewError(CrfdeidError):
    """An action the review refuses (bad span, bad label, a surrogate equal to the original…)."""


@dataclass
class Detected:
    """A note read and detected once: its document and spans, or why it failed."""

    note: Note
    document: Document | None = None
    spans: tuple[Span, ...] = ()
    timeouts: tuple[Any, ...] = ()
    error: str | None = None


class Review:
    """The review of a set of notes with one engine, one review file and one log."""

    def __init__(
        self,
        source: NoteSource,
        deidentifier: Deidentifier,
        state: ReviewState,
        log: ReviewLog,
        *,
        key: bytes | None = None,
        low_confidence: float = LOW_CONFIDENCE,
    ) -> None:
        self.source = source
        self.deid = deidentifier
        self.state = state
        self.log = log
        self.low_confidence = low_confidence
        self.lock = threading.RLock()
        self.notes = {note.note_id: note for note in source.notes}
        self.order = [note.note_id for note in source.notes]
        self._detected: dict[str, Detected] = {}
        self._fresh: dict[str, list[SpanState]] = {}
        self._views: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._summaries: dict[str, dict[str, Any]] = {}
        self._list_lock = threading.Lock()
        self._reasons: OrderedDict[str, Any] = OrderedDict()
        #: bumped whenever a note's summary changes: the list page asks only for what is new
        self.version = 0
        detector = deidentifier.detector
        self.pipeline = detector if hasattr(detector, "tagger") else None
        scheme = getattr(detector, "scheme", None) or deidentifier.pseudonymiser.scheme
        if scheme is None:
            from ..schemes import load_scheme

            scheme = load_scheme("meddocan")
        self.labels = sorted(scheme.labels)
        rules = getattr(self.pipeline, "rules", None)
        self._rules = {rule.id: rule for rule in rules.rules} if rules is not None else {}
        pseudonymiser = deidentifier.pseudonymiser
        if key is not None:
            self.hasher: Callable[[str], str] = pseudonymiser.original_hash  # the audit's own hash
        else:
            salt = bytes.fromhex(state.salt)
            self.hasher = lambda text: hmac.digest(
                salt, normalise(text).encode("utf-8", "surrogatepass"), "sha256"
            ).hex()[:32]

    # -- reading and detecting ----------------------------------------------------------------
    def note(self, note_id: str) -> Note:
        note = self.notes.get(note_id)
        if note is None:
            raise ReviewError(f"no note {note_id!r} in this review")
        return note

    def detected(self, note_id: str) -> Detected:
        """The note read and detected (once; then from memory). A note that cannot be read or
        detected is a failed note with its error, never an exception for the others."""
        with self.lock:
            found = self._detected.get(note_id)
            if found is not None:
                return found
            note = self.note(note_id)
            try:
                document = self.source.read(note)
                spans, timeouts = self.deid.detect_note(document)
                found = Detected(note, document, tuple(spans), tuple(timeouts))
                saved = self.state.notes.get(note_id)
                if saved is not None and saved.text_hash != self.state.fingerprint(document.text):
                    found = Detected(
                        note,
                        error="the note changed since its review was saved; its decisions "
                        f"no longer match its text (review file {self.state.path})",
                    )
            except CrfdeidError as exc:
                found = Detected(note, error=str(exc))
            except Exception as exc:  # a bug must cost this note only
                found = Detected(
                    note,
                    error=f"internal error ({type(exc).__name__}: {exc}); rerun with --debug and report it",
                )
            self._detected[note_id] = found
            return found

    def spans(self, note_id: str) -> list[SpanState]:
        """The spans under review: as decided (review file), else as detected."""
        saved = self.state.notes.get(note_id)
        if saved is not None:
            return saved.spans
        fresh = self._fresh.get(note_id)
        if fresh is None:
            found = self.detected(note_id)
            fresh = [
                SpanState(i, s.start, s.end, s.label, s.source, s.score, s.label)
                for i, s in enumerate(sorted(found.spans, key=lambda s: (s.start, s.end)), start=1)
            ]
            self._fresh[note_id] = fresh
        return fresh

    def _materialise(self, note_id: str) -> NoteState:
        """The note's entry in the review file, created from its detection on the first action."""
        saved = self.state.notes.get(note_id)
        if saved is None:
            found = self.detected(note_id)
            if found.document is None:
                raise ReviewError(f"note {note_id!r} failed: {found.error}")
            saved = NoteState(
                self.state.fingerprint(found.document.text), [replace(s) for s in self.spans(note_id)]
            )
            self.state.notes[note_id] = saved
        return saved

    # -- what the decisions make of a note ---------------------------------------------------
    def _is_date(self, label: str) -> bool:
        return self.deid.pseudonymiser.generator_label(label) == "FECHAS"

    def _pseudonymise(
        self,
        found: Detected,
        active: list[SpanState],
        saved: NoteState | None,
        extra: list[Span],
        propagate: bool,
    ) -> NoteResult:
        document = found.document
        assert document is not None
        text = document.text
        rerolls: dict[str, int] = {}
        dates = saved.date_reroll if saved is not None else 0
        for s in active:
            if s.reroll and not self._is_date(s.label):
                key = normalise(text[s.start : s.end])
                rerolls[key] = rerolls.get(key, 0) + s.reroll
        spans = [Span(s.start, s.end, s.label, s.source or ADDED, _score(s.score)) for s in active] + extra
        pseudonymiser = self.deid.pseudonymiser
        before = pseudonymiser.propagate_mentions
        pseudonymiser.propagate_mentions = before and propagate
        try:
            return self.deid.pseudonymise_note(
                document.with_spans(spans), found.timeouts, rerolls=rerolls, date_rerolls=dates
            )
        finally:
            pseudonymiser.propagate_mentions = before

    def view(self, note_id: str) -> dict[str, Any]:
        """The note as the decisions make it: its spans (with where each went and why it was
        found), the de-identified text with its replacements and leftovers, and why the note
        would be held back. Rendered once per change."""
        with self.lock:
            cached = self._views.get(note_id)
            if cached is not None:
                self._views.move_to_end(note_id)
                return cached
            view = self._render(note_id)
            self._views[note_id] = view
            if len(self._views) > VIEW_CACHE:
                self._views.popitem(last=False)
            summary = view["summary"]
            if self._summaries.get(note_id) != summary:
                with self._list_lock:
                    self._summaries[note_id] = summary
                    self.version += 1
            return view

    def _render(self, note_id: str) -> dict[str, Any]:
        found = self.detected(note_id)
        base = {"id": note_id, "path": str(found.note.path)}
        if found.document is None:
            summary = {"id": note_id, "status": "failed", "error": found.error}
            return {**base, "status": "failed", "error": found.error, "summary": summary}
        text = found.document.text
        saved = self.state.notes.get(note_id)
        stored = self.spans(note_id)
        active = [s for s in stored if s.status != REJECTED]
        suppressed = set(saved.suppressed) if saved is not None else set()
        outcome = self._pseudonymise(found, active, saved, [], True)
        propagated = [
            (r.start, r.end, r.label)
            for r in outcome.result.audit
            if r.source == PROPAGATED and r.strategy != "overlap"
        ]
        if any((a, b) in suppressed for a, b, _ in propagated):
            kept = [Span(a, b, label, PROPAGATED) for a, b, label in propagated if (a, b) not in suppressed]
            outcome = self._pseudonymise(found, active, saved, kept, False)
        new_text, records, leftovers = self._with_edits(text, outcome, active)
        rows = []
        for s in stored:
            rows.append(self._row(text, s, records, "added" if s.source == ADDED else "detected"))
        for a, b, label in propagated:
            row = self._row(text, SpanState(0, a, b, label, PROPAGATED), records, "propagated")
            row["id"] = f"p{a}-{b}"
            row["status"] = REJECTED if (a, b) in suppressed else PENDING
            if (a, b) in suppressed:
                row["out"] = None
            rows.append(row)
        rows.sort(key=lambda r: (r["start"], -r["end"]))
        marks = [
            {
                "start": r.new_start,
                "end": r.new_end,
                "label": r.label,
                "source": r.source,
                "kept": r.surrogate is None,
                "orig_start": r.start,
                "orig_end": r.end,
            }
            for r in records
            if r.strategy != "overlap" and r.new_end > r.new_start
        ]
        back = _back_mapper(records)
        lefts = [
            {
                "start": x.new_start,
                "end": x.new_end,
                "label": x.label,
                "orig_start": back(x.new_start),
                "orig_end": back(x.new_end),
            }
            for x in leftovers
        ]
        held = [{"kind": h.kind, "detail": h.detail} for h in outcome.held]
        summary = self._summary(note_id, saved, rows, lefts, held)
        return {
            **base,
            "status": summary["status"],
            "text": text,
            "spans": rows,
            "deid": {"text": new_text, "marks": marks, "leftovers": lefts},
            "held": held,
            "done": bool(saved and saved.done),
            "summary": summary,
        }

    def _row(self, text: str, s: SpanState, records: list[AuditRecord], kind: str) -> dict[str, Any]:
        record = next(
            (r for r in records if r.strategy != "overlap" and r.start <= s.start and s.end <= r.end), None
        )
        active = s.status != REJECTED
        low = s.source == "crf" and s.score is not None and s.score < self.low_confidence
        return {
            "id": str(s.id),
            "start": s.start,
            "end": s.end,
            "text": text[s.start : s.end],
            "label": s.label,
            "detected_label": s.detected_label,
            "source": s.source,
            "score": s.score,
            "status": s.status,
            "kind": kind,
            "reroll": s.reroll,
            "edited": s.surrogate is not None,
            "low": low,
            "why": _why_short(s),
            "out": (
                {"start": record.new_start, "end": record.new_end}
                if record is not None and active and record.new_start >= 0
                else None
            ),
            "strategy": record.strategy if record is not None and active else None,
            "kept": record is not None and active and record.surrogate is None,
            "note": record.note if record is not None and active else "",
        }

    def _with_edits(
        self, text: str, outcome: NoteResult, active: list[SpanState]
    ) -> tuple[str, list[AuditRecord], list[Any]]:
        """The de-identified text with the surrogates typed by hand: each replaces every mention
        of its original in the note (same text, case and accents aside); offsets follow."""
        result = outcome.result
        edits: dict[str, str] = {}
        for s in active:
            if s.surrogate is not None:
                edits.setdefault(normalise(text[s.start : s.end]), s.surrogate)
        records = list(result.audit)
        if not edits:
            return result.text, records, list(result.leftovers)
        replacements, owners = [], []
        for i, r in enumerate(records):
            if r.strategy == "overlap" or r.new_start < 0:
                continue
            value = edits.get(normalise(text[r.start : r.end]))
            if value is not None:
                replacements.append((r.new_start, r.new_end, value))
                owners.append(i)
        new_text, positions = apply_replacements(result.text, replacements)
        shift = _shifter(replacements)
        moved = {i: p for i, p in zip(owners, positions, strict=True)}
        out = []
        for i, r in enumerate(records):
            if i in moved:
                out.append(
                    replace(
                        r,
                        new_start=moved[i][0],
                        new_end=moved[i][1],
                        surrogate=new_text[moved[i][0] : moved[i][1]],
                    )
                )
            elif r.new_start >= 0:
                out.append(replace(r, new_start=shift(r.new_start), new_end=shift(r.new_end)))
            else:
                out.append(r)
        leftovers = [
            replace(x, new_start=shift(x.new_start), new_end=shift(x.new_end)) for x in result.leftovers
        ]
        return new_text, out, leftovers

    def _summary(
        self,
        note_id: str,
        saved: NoteState | None,
        rows: list[dict[str, Any]],
        leftovers: list[dict[str, Any]],
        held: list[dict[str, Any]],
    ) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for row in rows:
            if row["status"] != REJECTED and row["kind"] != "propagated":
                counts[row["label"]] = counts.get(row["label"], 0) + 1
        status = "detected" if saved is None else ("done" if saved.done else "in progress")
        return {
            "id": note_id,
            "status": status,
            "counts": dict(sorted(counts.items())),
            "spans": sum(counts.values()),
            "low": sum(1 for r in rows if r["low"] and r["status"] == PENDING),
            "pending": sum(1 for r in rows if r["status"] == PENDING and r["kind"] != "propagated"),
            "leftovers": len(leftovers),
            "held": sorted({h["kind"] for h in held}),
        }

    def summary(self, note_id: str) -> dict[str, Any]:
        """What the list shows of a note: its counts, low-confidence spans and leftovers."""
        with self.lock:
            found = self._summaries.get(note_id)
            if found is None:
                found = self.view(note_id)["summary"]
            return found

    def listing(self) -> dict[str, Any]:
        """Every note: the summary of those detected so far, the bare id of the others. Only the
        list's own lock is taken: the list answers at once while a note is being detected."""
        with self._list_lock:
            rows = []
            for i, note_id in enumerate(self.order):
                found = self._summaries.get(note_id)
                if found is None:
                    saved = self.state.notes.get(note_id)
                    status = "new" if saved is None else ("done" if saved.done else "in progress")
                    found = {"id": note_id, "status": status}
                rows.append({**found, "index": i})
            return {
                "notes": rows,
                "version": self.version,
                "detected": len(self._summaries),
                "total": len(self.order),
                "labels": self.labels,
            }

    def _changed(self, note_id: str) -> dict[str, Any]:
        self._views.pop(note_id, None)
        self.state.save()
        return self.view(note_id)

    # -- actions --------------------------------------------------------------------------
    def act(
        self, note_id: str, span_id: str, action: str, *, label: str | None = None, value: str | None = None
    ) -> dict[str, Any]:
        """accept, reject, pending (undecide), label, reroll or surrogate (``value``; None or ""
        clears it) on one span; a second mention (``p<start>-<end>``) becomes a span of its own
        on any action but reject, which only stops it being replaced."""
        with self.lock:
            view = self.view(note_id)
            if view["status"] == "failed":
                raise ReviewError(f"note {note_id!r} failed: {view['error']}")
            text = view["text"]
            saved = self._materialise(note_id)
            if span_id.startswith("p"):
                return self._act_propagated(note_id, saved, view, span_id, action, label, value)
            try:
                span = saved.span(int(span_id))
            except ValueError:
                span = None
            if span is None:
                raise ReviewError(f"no span {span_id!r} in note {note_id!r}")
            original = text[span.start : span.end]
            extra: dict[str, Any] = {}
            if action in (ACCEPTED, "accept"):
                span.status, action = ACCEPTED, "accept"
            elif action in (REJECTED, "reject"):
                span.status, action = REJECTED, "reject"
            elif action == PENDING:
                span.status = PENDING
            elif action == "label":
                self._check_label(label)
                extra["old_label"] = span.label
                span.label, span.status = str(label), ACCEPTED
            elif action == "reroll":
                return self._reroll(note_id, saved, span, view)
            elif action == "surrogate":
                self._check_surrogate(text, span, value, saved)
                span.surrogate = value or None
                if span.surrogate is not None:
                    span.status = ACCEPTED
                action = "edit-surrogate" if value else "clear-surrogate"
            else:
                raise ReviewError(f"unknown action {action!r}")
            self.log.write(
                action, note_id, start=span.start, end=span.end, label=span.label, original=original, **extra
            )
            return self._changed(note_id)

    def _act_propagated(
        self,
        note_id: str,
        saved: NoteState,
        view: dict[str, Any],
        span_id: str,
        action: str,
        label: str | None,
        value: str | None,
    ) -> dict[str, Any]:
        row = next((r for r in view["spans"] if r["id"] == span_id), None)
        if row is None:
            raise ReviewError(f"no second mention {span_id!r} in note {note_id!r}")
        at = (row["start"], row["end"])

        def logged(what: str) -> None:
            self.log.write(what, note_id, start=at[0], end=at[1], label=row["label"],
                           original=view["text"][at[0] : at[1]], kind="second-mention")

        if action in ("reject", REJECTED):
            if at not in saved.suppressed:
                saved.suppressed.append(at)
            logged("reject")
            return self._changed(note_id)
        if action == PENDING:
            if at in saved.suppressed:
                saved.suppressed.remove(at)
            logged("pending")
            return self._changed(note_id)
        if at in saved.suppressed:
            saved.suppressed.remove(at)
        span = SpanState(
            saved.next_id(), at[0], at[1], row["label"], PROPAGATED, None, row["label"], ACCEPTED
        )
        saved.spans.append(span)
        saved.spans.sort(key=lambda s: (s.start, s.end))
        logged("accept")
        if action in ("accept", ACCEPTED):
            return self._changed(note_id)
        self._views.pop(note_id, None)
        return self.act(note_id, str(span.id), action, label=label, value=value)

    def _check_label(self, label: str | None) -> None:
        if label not in self.labels:
            raise ReviewError(
                f"unknown label {label!r}", hint=f"the labels of this review: {', '.join(self.labels)}"
            )

    def _check_surrogate(self, text: str, span: SpanState, value: str | None, saved: NoteState) -> None:
        """A surrogate typed by hand must not be the original, nor spell it or another original
        of the note: the safety check a drawn surrogate passes."""
        if not value:
            return
        if any(c in value for c in "\r\n\t") or not value.strip():
            raise ReviewError("a surrogate is one line of text (no tabs or line breaks, not blank)")
        original = text[span.start : span.end]
        if too_close(value, original):
            raise ReviewError("the surrogate equals the original (or is one letter from it): refused")
        words = _words(value)
        for other in saved.spans:
            if other.status == REJECTED:
                continue
            phrase = _words(text[other.start : other.end])
            if len("".join(phrase)) >= 3 and _contains(words, phrase):
                which = "the original" if other is span else "another original of the note"
                raise ReviewError(f"the surrogate spells {which}: refused")

    def _reroll(
        self, note_id: str, saved: NoteState, span: SpanState, view: dict[str, Any]
    ) -> dict[str, Any]:
        row = next((r for r in view["spans"] if r["id"] == str(span.id)), None)
        if span.status == REJECTED or row is None or row["out"] is None:
            raise ReviewError("a rejected span is not replaced: nothing to reroll")
        if row["strategy"] != "pseudonymise":
            raise ReviewError(f"the policy says {row['strategy']} for {span.label}: nothing to draw again")
        if row["kept"]:
            raise ReviewError(
                f"kept on purpose ({row['note'] or 'policy'}): nothing to draw; edit it to replace it by hand"
            )
        before = _replacement(view, row)
        span.surrogate = None
        is_date = self._is_date(span.label)
        for _ in range(MAX_REROLL_TRIES):
            if is_date:
                saved.date_reroll += 1
            else:
                span.reroll += 1
            self._views.pop(note_id, None)
            after = self.view(note_id)
            now = next(r for r in after["spans"] if r["id"] == str(span.id))
            if now["out"] is not None and _replacement(after, now) != before:
                break
        span.status = ACCEPTED
        self.log.write(
            "reroll",
            note_id,
            start=span.start,
            end=span.end,
            label=span.label,
            original=view["text"][span.start : span.end],
            reroll=saved.date_reroll if is_date else span.reroll,
            scope="dates" if is_date else None,
        )
        return self._changed(note_id)

    def add(self, note_id: str, start: int, end: int, label: str) -> dict[str, Any]:
        """A span the detector missed, selected by the officer: trimmed of surrounding spaces;
        it may not overlap a span that is not rejected."""
        with self.lock:
            self._check_label(label)
            view = self.view(note_id)
            if view["status"] == "failed":
                raise ReviewError(f"note {note_id!r} failed: {view['error']}")
            text = view["text"]
            if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= len(text):
                raise ReviewError(f"[{start}, {end}) is not a stretch of the note ({len(text)} characters)")
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if start == end:
                raise ReviewError("the selection holds only spaces")
            saved = self._materialise(note_id)
            clash = next(
                (s for s in saved.spans if s.status != REJECTED and s.start < end and start < s.end), None
            )
            if clash is not None:
                raise ReviewError(
                    f"overlaps the {clash.label} span {text[clash.start : clash.end]!r}: reject it or "
                    "change it first"
                )
            span = SpanState(saved.next_id(), start, end, label, ADDED, None, None, ACCEPTED)
            saved.spans.append(span)
            saved.spans.sort(key=lambda s: (s.start, s.end))
            self.log.write("add", note_id, start=start, end=end, label=label, original=text[start:end])
            return self._changed(note_id)

    def mark_done(self, note_id: str, done: bool = True) -> dict[str, Any]:
        """Reviewed: every span still pending is accepted (the officer saw the note whole)."""
        with self.lock:
            saved = self._materialise(note_id)
            saved.done = done
            accepted = 0
            if done:
                for span in saved.spans:
                    if span.status == PENDING:
                        span.status, accepted = ACCEPTED, accepted + 1
            self.log.write("done" if done else "reopen", note_id, accepted=accepted if done else None)
            return self._changed(note_id)

    # -- why --------------------------------------------------------------------------------
    def why(self, note_id: str, span_id: str) -> dict[str, Any]:
        """Why a span is there: its rule (id, description, file and line), the CRF's marginal
        and the features that weigh most for its tokens, or who added it."""
        with self.lock:
            view = self.view(note_id)
            row = next((r for r in view.get("spans", []) if r["id"] == span_id), None)
            if row is None:
                raise ReviewError(f"no span {span_id!r} in note {note_id!r}")
            source = row["source"]
            out: dict[str, Any] = {
                "id": span_id,
                "source": source,
                "label": row["label"],
                "detected_label": row["detected_label"],
                "score": row["score"],
            }
            if source.startswith("rule:"):
                rule_id = source[5:].split("+")[0]
                rule = self._rules.get(rule_id)
                out["rule"] = {
                    "id": rule_id,
                    "description": getattr(rule, "description", None),
                    "label": getattr(rule, "label", None),
                    "family": getattr(rule, "family", None),
                    "file": _short_path(getattr(rule, "path", None)),
                    "line": getattr(rule, "line", None),
                }
            if "crf" in source.split("+") and self.pipeline is not None and self.pipeline.tagger is not None:
                out["crf"] = self._reasons_of(note_id).span(row["start"], row["end"])
            if source == ADDED:
                out["text"] = "added by the reviewer"
            elif source == PROPAGATED:
                out["text"] = (
                    "a second mention of a string replaced elsewhere in the note (or a name widened "
                    "over its initials): the pseudonymiser replaces it too"
                )
            elif source in ("annotation", "gold"):
                out["text"] = "from the annotation file beside the note"
            return out

    def _reasons_of(self, note_id: str) -> Any:
        from ..explain import NoteReasons

        found = self._reasons.get(note_id)
        if found is None:
            document = self.detected(note_id).document
            assert self.pipeline is not None and document is not None
            found = NoteReasons(self.pipeline.tagger, document, self.pipeline.rules)
            self._reasons[note_id] = found
            if len(self._reasons) > REASON_CACHE:
                self._reasons.popitem(last=False)
        return found

    # -- the background detection ------------------------------------------------------------
    def detect_all(self, stop: threading.Event) -> None:
        """Detect and render every note not yet seen, in list order, one at a time under the
        lock (an officer's request waits for one note at most)."""
        for note_id in self.order:
            if stop.is_set():
                return
            if note_id in self._summaries:
                continue
            with self.lock:
                self.summary(note_id)
            stop.wait(0.001)  # let a waiting request take the lock

    # -- for the export -----------------------------------------------------------------------
    def final(self, note_id: str) -> tuple[Document, dict[str, Any]]:
        """The note's corrected annotations (original text; spans not rejected, labels as
        changed, second mentions not rejected and not overlapping another) and its view."""
        with self.lock:
            view = self.view(note_id)
            if view["status"] == "failed":
                raise ReviewError(f"note {note_id!r} failed: {view['error']}")
            document = self.detected(note_id).document
            assert document is not None
            kept: list[Span] = []
            for row in view["spans"]:
                if row["status"] == REJECTED:
                    continue
                source = "annotation" if row["kind"] != "propagated" else PROPAGATED
                kept.append(Span(row["start"], row["end"], row["label"], source))
            spans = [s for s in kept if s.source != PROPAGATED]
            for s in kept:
                if s.source == PROPAGATED and not any(s.overlaps(o) for o in spans):
                    spans.append(s)
            spans.sort(key=lambda s: (s.start, s.end))
            return Document(note_id, document.text, tuple(spans)), view


def _score(score: float | None) -> float | None:
    return score if score is None or 0.0 <= score <= 1.0 else None


#: What each source of a span that is no rule's nor the tagger's says to the officer.
_SOURCE_WHY = {
    ADDED: "added by the reviewer",
    PROPAGATED: "second mention",
    ACRONYM: "acronym of an organisation named before it",
    LONE_NAME: "a given name standing alone in the text",
    LONE_PLACE: "a place named after a preposition",
    LONE_STREET: "an address named after its street type",
    ADDRESS_PLACE: "a place an address goes on with",
    HOSPITAL_NAME: "a hospital called by its proper name",
    ORGANISATION_NAME: "an organisation of the pack's list",
    LONE_PROFESSION: "an occupation where the note says what someone does",
    LOWER_CASE_NAME: "a name in a note typed in lower case",
}


def _why_short(span: SpanState) -> str:
    source = span.source
    if source.startswith("rule:"):
        parts = source[5:].split("+")
        short = f"rule {parts[0]}" + (" + CRF" if "crf" in parts[1:] else "")
    elif source == "crf":
        short = f"CRF {span.score:.2f}" if span.score is not None else "CRF"
    else:
        short = _SOURCE_WHY.get(source, source)
    if span.detected_label and span.detected_label != span.label:
        short += f" (was {span.detected_label})"
    return short


def _replacement(view: dict[str, Any], row: dict[str, Any]) -> str:
    out = row["out"]
    return view["deid"]["text"][out["start"] : out["end"]] if out else ""


def _words(text: str) -> list[str]:
    return [w.casefold() for w in LETTERS.findall(normalise(text))] + [
        d for d in "".join(c if c.isdigit() else " " for c in text).split()
    ]


def _contains(words: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return n > 0 and any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def _shifter(replacements: list[tuple[int, int, str]]) -> Callable[[int], int]:
    """Where a position of the text before the replacements lands after them (positions
    inside a replaced range are not asked for)."""
    import bisect

    ordered = sorted(replacements)
    ends = [end for _, end, _ in ordered]
    deltas, total = [], 0
    for start, end, new in ordered:
        total += len(new) - (end - start)
        deltas.append(total)

    def shift(position: int) -> int:
        at = bisect.bisect_right(ends, position) - 1
        return position + (deltas[at] if at >= 0 else 0)

    return shift


def _back_mapper(records: list[AuditRecord]) -> Callable[[int], int]:
    """Where a position of the de-identified text was in the original (outside replacements,
    the text is the original's, shifted by what the replacements before it added)."""
    import bisect

    ordered = sorted(
        (r.new_start, r.new_end, r.start, r.end)
        for r in records
        if r.strategy != "overlap" and r.new_start >= 0
    )
    ends = [new_end for _, new_end, _, _ in ordered]

    def back(position: int) -> int:
        at = bisect.bisect_right(ends, position) - 1
        if at < 0:
            return position
        _, new_end, _, end = ordered[at]
        return end + (position - new_end)

    return back


def _short_path(path: str | None) -> str | None:
    """A rule file as the pack names it (``rules/es/phones.yaml``), wherever it is installed."""
    if path is None:
        return None
    normal = Path(path).as_posix()
    for marker in ("/_data/", "/"):
        at = normal.rfind(marker + "rules/")
        if at >= 0:
            return normal[at + len(marker) :]
    return normal
