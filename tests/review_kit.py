"""Shared helpers of the review tests: a review of a copy of the example notes, rules only."""

from __future__ import annotations

import shutil
from pathlib import Path

from crfdeid.deidentify import Deidentifier, DeidentifierSpec
from crfdeid.review.log import ReviewLog
from crfdeid.review.notes import NoteSource
from crfdeid.review.session import Review
from crfdeid.review.state import ReviewState

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"
SEED = 5


def copy_notes(tmp_path: Path) -> Path:
    """The example notes without their gold .ann, in a folder of the test's own."""
    notes = tmp_path / "notes"
    notes.mkdir()
    for path in sorted(EXAMPLES.glob("*.txt")):
        shutil.copyfile(path, notes / path.name)
    return notes


def rules_deidentifier(seed: int = SEED) -> Deidentifier:
    return DeidentifierSpec(rules_only=True, seed=seed).build()


def make_review(
    tmp_path: Path,
    deid: Deidentifier,
    notes: Path | None = None,
    *,
    seed: int = SEED,
    key: bytes | None = None,
    reviewer: str = "tester",
) -> Review:
    notes = notes or (tmp_path / "notes" if (tmp_path / "notes").is_dir() else copy_notes(tmp_path))
    state = ReviewState.open(tmp_path / "review.json", key=key, seed=None if key is not None else seed)
    log = ReviewLog(tmp_path / "review.log.jsonl", reviewer, lambda text: "")
    review = Review(NoteSource.walk([notes]), deid, state, log, key=key)
    log.hasher = review.hasher
    return review


def row(view: dict, text: str) -> dict:
    """The first span of a view whose text is ``text``."""
    return next(r for r in view["spans"] if r["text"] == text)
