"""The notes under review: listed at once (a folder walk, no reading), read one at a time.

A review of a 1,000-note folder must show its list in well under a second, so listing only walks
the folders (``crfdeid.io.inputs``, the walk ``deidentify`` uses, and its note ids); a note is
read when it is opened or when the background detection reaches it. A ``.jsonl`` file is one
note per line, as in a batch. A note that cannot be read is a failed note with its error; the
others are unaffected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..batch import Note, enumerate_notes
from ..errors import CrfdeidError, InputError
from ..io.brat import parse_ann
from ..io.inputs import Skipped, iter_inputs
from ..io.jsonl import parse_jsonl_line
from ..io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, decode_bytes, read_text
from ..types import Document


@dataclass(frozen=True)
class NoteSource:
    """Where the notes come from, and how to read them."""

    notes: tuple[Note, ...]
    skipped: tuple[Skipped, ...] = ()
    encoding: str = DEFAULT_ENCODING
    max_bytes: int = DEFAULT_MAX_BYTES
    #: read the spans of the ``.ann`` beside each note (or of the ``.jsonl`` line): ``--from-annotations``
    annotations: bool = False

    @classmethod
    def walk(
        cls,
        inputs: Sequence[str | Path],
        *,
        exclude: Iterable[Path] = (),
        recursive: bool = True,
        encoding: str = DEFAULT_ENCODING,
        max_bytes: int = DEFAULT_MAX_BYTES,
        annotations: bool = False,
    ) -> NoteSource:
        """Every note of the inputs, in the order ``crfdeid deidentify`` takes them; two notes
        with one id (``a.txt`` and ``a.text``) keep the first, the second is reported skipped."""
        skipped: list[Skipped] = []
        files = iter_inputs(inputs, recursive=recursive, exclude=exclude, skipped=skipped.append)
        notes: list[Note] = []
        seen: set[str] = set()
        for note in enumerate_notes(files, "kept", None, max_bytes):
            if note.note_id in seen:
                skipped.append(Skipped(note.path, f"a second note with the id {note.note_id!r}"))
                continue
            seen.add(note.note_id)
            notes.append(note)
        return cls(tuple(notes), tuple(skipped), encoding, max_bytes, annotations)

    def read(self, note: Note) -> Document:
        """The note as a Document (with the spans of its annotations when asked); a
        ``CrfdeidError`` naming the file when it cannot be read."""
        if note.kind == "jsonl":
            line = _jsonl_line(note.path, note.line or 1, self.max_bytes)
            parsed = parse_jsonl_line(decode_bytes(line, note.path, self.encoding), note.path, note.line or 1)
            return Document(
                note.note_id,
                parsed.text,
                parsed.spans if self.annotations else (),
                {"path": str(note.path), "line": note.line},
            )
        text = read_text(note.path, self.encoding, self.max_bytes)
        spans: tuple = ()
        ann = note.path.with_suffix(".ann")
        if self.annotations:
            if not ann.is_file():
                raise InputError("no .ann beside the note (--from-annotations reviews its spans)", note.path)
            spans = tuple(
                parse_ann(read_text(ann, self.encoding, self.max_bytes), text, ann, source="annotation")[0]
            )
        return Document(note.note_id, text, spans, {"path": str(note.path)})


def _jsonl_line(path: Path, lineno: int, max_bytes: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if number == lineno:
                    if len(raw) > max_bytes:
                        raise InputError(
                            f"line {lineno} is {len(raw):,} bytes, over the {max_bytes:,}-byte "
                            "limit for one note",
                            path,
                            lineno,
                        )
                    return raw.rstrip(b"\r\n").lstrip(b"\xef\xbb\xbf")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    raise CrfdeidError(f"line {lineno} is gone: the file changed since the review started", path)
