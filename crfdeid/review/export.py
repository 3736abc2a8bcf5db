"""What a review hands on: the corrected annotations, the de-identified notes, the review log.

``OUT/corpus/`` holds, for every note marked reviewed, its original text and its corrected spans
as BRAT (``NAME.txt`` + ``NAME.ann``: spans accepted or added, rejected ones left out, labels as
changed, second mentions the officer kept): ``crfdeid train OUT/corpus`` reads it, which is how a
hospital grows its own training corpus. It is PHI: the folder is 0700 and never to be released.
``OUT/released/`` holds the de-identified text of every reviewed note the tool does not hold back
(a leftover or a rule timeout keeps a note out, as in a batch). ``OUT/review-log.jsonl`` is a copy
of the log. ``OUT/manifest.json`` lists every note with what was done to it — reroll counts and
hand-typed surrogates by offsets (never their originals), so the same review file, key or seed
and model export the same bytes again (``crfdeid review … --export-only``).

The export is built in a folder beside OUT (mode 0700, as it holds the corpus) and swapped in
whole: a crash never leaves half an export, and a second export replaces the first. A folder
crfdeid did not write is never replaced.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import OutputError
from ..io.brat import write_brat
from ..io.text import atomic_write_text
from ..types import Document
from .session import Review

MARK = ".crfdeid-review-export"
CORPUS, RELEASED, LOG, MANIFEST = "corpus", "released", "review-log.jsonl", "manifest.json"


def file_name(note_id: str) -> str:
    """A note's flat file name: ``sub/nota-1`` -> ``sub__nota-1`` (``crfdeid train`` reads one folder)."""
    return note_id.replace("/", "__")


def export_summary(review: Review, out_dir: str | Path) -> dict[str, Any]:
    """Export (``export_review``) and say what the page shows of it: the folder and the counts."""
    manifest = export_review(review, out_dir)
    return {"folder": str(out_dir), "reviewed": manifest["notes_reviewed"], "released": manifest["released"],
            "held": manifest["held"], "failed": manifest["failed"]}


def export_review(review: Review, out_dir: str | Path) -> dict[str, Any]:
    """Write the export of every note marked reviewed; return the manifest."""
    out_dir = Path(out_dir)
    _check_target(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    try:
        manifest = _write(review, work)
        _swap(work, out_dir)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return manifest


def _check_target(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError("the export target exists and is not a folder", out_dir)
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARK).is_file():
        raise OutputError(
            "the export folder holds files crfdeid review did not write; choose another",
            out_dir,
            hint="crfdeid replaces only a folder holding one of its own exports",
        )


def _swap(work: Path, out_dir: Path) -> None:
    old = None
    try:
        if out_dir.exists():
            old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
            os.replace(out_dir, old)
        os.replace(work, out_dir)
    except OSError as exc:
        raise OutputError(f"cannot put the export in place: {exc.strerror or exc}", out_dir) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _write(review: Review, work: Path) -> dict[str, Any]:
    corpus, released = work / CORPUS, work / RELEASED
    corpus.mkdir(mode=0o700)
    released.mkdir()
    names: dict[str, str] = {}
    entries = []
    with review.lock:
        done = [n for n in review.order if (saved := review.state.notes.get(n)) is not None and saved.done]
        for note_id in done:
            name = file_name(note_id)
            if name in names:
                raise OutputError(
                    f"notes {names[name]!r} and {note_id!r} would share the file name {name!r}", work
                )
            names[name] = note_id
            view = review.view(note_id)
            if view["status"] == "failed":
                entries.append({"note": note_id, "file": None, "status": "failed", "error": view["error"]})
                continue
            document, view = review.final(note_id)
            write_brat(Document(name, document.text, document.spans), corpus)
            entry: dict[str, Any] = {
                "note": note_id,
                "file": name,
                "spans": len(document.spans),
                "labels": _counts(document.spans),
            }
            saved = review.state.notes[note_id]
            entry["rerolls"] = [
                {"start": s.start, "end": s.end, "label": s.label, "reroll": s.reroll}
                for s in saved.spans
                if s.reroll
            ]
            entry["date_reroll"] = saved.date_reroll
            entry["edited"] = [
                {"start": s.start, "end": s.end, "label": s.label}
                for s in saved.spans
                if s.surrogate is not None and s.status != "rejected"
            ]
            entry["rejected"] = sum(1 for s in saved.spans if s.status == "rejected") + len(saved.suppressed)
            entry["added"] = sum(1 for s in saved.spans if s.source == "review")
            if view["held"]:
                entry["status"] = "held"
                entry["held"] = view["held"]
            else:
                entry["status"] = "released"
                atomic_write_text(released / f"{name}.txt", view["deid"]["text"])
            entries.append(entry)
        log = review.log.read()
    atomic_write_text(work / LOG, log, mode=0o600)
    manifest = {
        "format": "crfdeid-review-export",
        "crfdeid": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "review_file": review.state.path.name,
        "secret": review.state.secret
        + (" (kept in the review file)" if review.state.secret == "random seed" else ""),
        "run": review.deid.describe(),
        "notes_reviewed": len(done),
        "released": sum(1 for e in entries if e["status"] == "released"),
        "held": sum(1 for e in entries if e["status"] == "held"),
        "failed": sum(1 for e in entries if e["status"] == "failed"),
        "notes": entries,
    }
    atomic_write_text(work / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    atomic_write_text(
        work / MARK, "crfdeid review export: corpus/ is PHI (original notes), never release it\n"
    )
    return manifest


def _counts(spans: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for span in spans:
        counts[span.label] = counts.get(span.label, 0) + 1
    return dict(sorted(counts.items()))
