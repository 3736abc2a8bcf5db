"""The review file: what the officer decided, so that a review can be closed and resumed.

It holds, per note touched, the spans under review (as detected, then as decided: accepted,
rejected, relabelled, added), the reroll count and any surrogate typed by hand, the second
mentions rejected, and whether the note was marked reviewed. A note's spans are stored as
they were proposed when it was first touched, so reopening restores exactly what was decided
even if the model changed since. It holds PHI offsets and labels (and a typed surrogate), so it is
written atomically (temporary file + rename) with mode 0600, never half-written. It never holds
the key: only a keyed check that the same key (or seed) is given again, since surrogates and
hashes depend on it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import CrfdeidError
from ..io.text import atomic_write_text

FORMAT = "crfdeid-review"
FORMAT_VERSION = 1
#: A span's decision.
PENDING, ACCEPTED, REJECTED = "pending", "accepted", "rejected"
STATUSES = (PENDING, ACCEPTED, REJECTED)


class StateError(CrfdeidError):
    """The review file cannot be read, or does not belong to this review."""


@dataclass
class SpanState:
    """One span under review. ``detected_label`` is the label it was proposed with (None for a
    span the officer added); ``surrogate`` a replacement typed by hand (None: drawn)."""

    id: int
    start: int
    end: int
    label: str
    source: str
    score: float | None = None
    detected_label: str | None = None
    status: str = PENDING
    reroll: int = 0
    surrogate: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "start": self.start,
            "end": self.end,
            "label": self.label,
            "source": self.source,
            "score": self.score,
            "detected_label": self.detected_label,
            "status": self.status,
            "reroll": self.reroll,
            "surrogate": self.surrogate,
        }

    @classmethod
    def from_json(cls, obj: Any, where: str) -> SpanState:
        try:
            span = cls(
                int(obj["id"]),
                int(obj["start"]),
                int(obj["end"]),
                str(obj["label"]),
                str(obj["source"]),
                obj.get("score"),
                obj.get("detected_label"),
                str(obj.get("status", PENDING)),
                int(obj.get("reroll", 0)),
                obj.get("surrogate"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"{where}: a span cannot be read ({type(exc).__name__}: {exc})") from None
        if span.status not in STATUSES or not 0 <= span.start < span.end or span.reroll < 0:
            raise StateError(
                f"{where}: span {span.id} is not valid (status {span.status!r}, "
                f"[{span.start}, {span.end}), reroll {span.reroll})"
            )
        return span


@dataclass
class NoteState:
    """The decisions of one note. ``text_hash`` (keyed) tells whether the note changed since."""

    text_hash: str
    spans: list[SpanState] = field(default_factory=list)
    #: second mentions (``propagated`` by the pseudonymiser) the officer rejected: [start, end]
    suppressed: list[tuple[int, int]] = field(default_factory=list)
    done: bool = False
    #: how many times the note's date shift was drawn again (every date moves together)
    date_reroll: int = 0

    def next_id(self) -> int:
        return max((s.id for s in self.spans), default=0) + 1

    def span(self, span_id: int) -> SpanState | None:
        return next((s for s in self.spans if s.id == span_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "text_hash": self.text_hash,
            "done": self.done,
            "date_reroll": self.date_reroll,
            "suppressed": [list(r) for r in self.suppressed],
            "spans": [s.to_json() for s in self.spans],
        }

    @classmethod
    def from_json(cls, obj: Any, where: str) -> NoteState:
        if not isinstance(obj, dict) or not isinstance(obj.get("spans"), list):
            raise StateError(f"{where}: expected an object with a list of spans")
        spans = [SpanState.from_json(s, where) for s in obj["spans"]]
        suppressed = [(int(a), int(b)) for a, b in obj.get("suppressed", [])]
        return cls(
            str(obj.get("text_hash", "")),
            spans,
            suppressed,
            bool(obj.get("done", False)),
            int(obj.get("date_reroll", 0)),
        )


@dataclass
class ReviewState:
    """The whole review file."""

    path: Path
    #: the per-review random salt of the note fingerprints and, without a key, of the log's hashes
    salt: str
    #: "key", "seed" (given) or "random seed" (drawn for this review and kept here)
    secret: str
    #: a keyed check of the key or seed (never the secret itself); the random seed itself
    secret_check: str = ""
    seed: int | None = None
    created: str = ""
    notes: dict[str, NoteState] = field(default_factory=dict)

    @classmethod
    def open(cls, path: str | Path, *, key: bytes | None, seed: int | None) -> ReviewState:
        """The review file at ``path``, or a new one; a file of another review (another key or
        seed) is refused rather than mixed, since its surrogates and hashes would change."""
        path = Path(path)
        if not path.exists():
            salt = secrets.token_hex(16)
            secret = "key" if key is not None else ("seed" if seed is not None else "random seed")
            state = cls(path, salt, secret, created=_now())
            if secret == "random seed":
                state.seed = secrets.randbits(63)
            state.secret_check = state._check(key, seed)
            return state
        state = cls.load(path)
        given = "key" if key is not None else ("seed" if seed is not None else "random seed")
        if state.secret == "random seed" and given == "random seed":
            return state
        if given != state.secret:
            raise StateError(
                f"{path}: this review was started with a {state.secret}; give the same one again "
                + (
                    "(--key-file or $CRFDEID_KEY)"
                    if state.secret == "key"
                    else "(--seed)"
                    if state.secret == "seed"
                    else "(no --seed and no key)"
                ),
                hint="or start a new review with another --state file",
            )
        if not hmac.compare_digest(state.secret_check, state._check(key, seed)):
            raise StateError(
                f"{path}: this review was started with another {state.secret}",
                hint="give the key or seed it was started with, or another --state file",
            )
        return state

    @classmethod
    def load(cls, path: Path) -> ReviewState:
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise StateError(f"cannot read the review file: {exc.strerror or exc}", path) from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise StateError(f"the review file is not valid JSON ({exc})", path) from None
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise StateError(f"not a crfdeid review file (format is not {FORMAT!r})", path)
        if obj.get("format_version", 0) > FORMAT_VERSION:
            raise StateError(
                f"review file format {obj.get('format_version')} is newer than this crfdeid",
                path,
                hint="upgrade crfdeid",
            )
        notes = obj.get("notes", {})
        if not isinstance(notes, dict):
            raise StateError("'notes' must be an object", path)
        return cls(
            path,
            str(obj.get("salt", "")),
            str(obj.get("secret", "")),
            str(obj.get("secret_check", "")),
            obj.get("seed"),
            str(obj.get("created", "")),
            {str(k): NoteState.from_json(v, f"{path}: note {k!r}") for k, v in notes.items()},
        )

    def _check(self, key: bytes | None, seed: int | None) -> str:
        if key is not None:
            return hmac.new(
                key, b"crfdeid-review-key-check|" + self.salt.encode(), hashlib.sha256
            ).hexdigest()[:32]
        if seed is not None:
            return hmac.new(
                self.salt.encode(), f"crfdeid-review-seed|{seed}".encode(), hashlib.sha256
            ).hexdigest()[:32]
        return ""

    def fingerprint(self, text: str) -> str:
        """A keyed fingerprint of a note's text: did the note change since it was reviewed?"""
        return hmac.new(
            bytes.fromhex(self.salt), text.encode("utf-8", "surrogatepass"), hashlib.sha256
        ).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "created": self.created,
            "salt": self.salt,
            "secret": self.secret,
            "secret_check": self.secret_check,
            "seed": self.seed,
            "notes": {k: v.to_json() for k, v in sorted(self.notes.items())},
        }

    def save(self) -> None:
        """Atomically, mode 0600: the file holds PHI offsets and labels."""
        atomic_write_text(
            self.path, json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n", mode=0o600
        )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
