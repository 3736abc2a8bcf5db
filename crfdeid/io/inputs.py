"""Finding the notes of a batch: files and folders in, inputs out in a fixed order, and every
file that is not read reported with the reason.

A batch must never skip a file silently: a hospital that puts 250 notes in a folder must learn
that 3 of them were ``.docx``, hidden or in a subfolder it excluded. So folders are walked
recursively (the structure is mirrored in the output), suffixes match case-insensitively, and
every file that is not a note is reported — except the ``.ann`` beside a note, its annotation
file, which is counted. The order is fixed (the inputs in the order given; inside a folder,
entries by name, depth first) so a batch's output never depends on the order a file system
lists a folder in. The walk is a generator: a million notes are never held in memory at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

#: Suffixes (lower case) of plain-text notes and of JSON Lines files (one note per line).
TEXT_SUFFIXES = (".txt", ".text")
JSONL_SUFFIXES = (".jsonl",)
ANNOTATION_SUFFIX = ".ann"
#: Documents read by ``crfdeid deidentify`` (crfdeid/io/docx.py, crfdeid/io/pdf.py) and tables
#: whose rows are notes (crfdeid/io/table.py).
DOCX_SUFFIXES = (".docx",)
PDF_SUFFIXES = (".pdf",)
TABLE_SUFFIXES = (".csv", ".tsv", ".parquet")
#: What ``annotate`` and ``evaluate`` read; ``deidentify`` reads every kind.
TEXT_KINDS = frozenset({"text", "jsonl"})
ALL_KINDS = frozenset({"text", "jsonl", "docx", "pdf", "table"})


@dataclass(frozen=True)
class InputFile:
    """One input file. ``note_id`` is its path relative to the folder it was found in, without
    the suffix and with ``/`` separators (``sub/nota-001``); for a file given directly, its stem."""

    path: Path
    note_id: str
    kind: str  # "text", "jsonl", "docx", "pdf" or "table"

    @property
    def folder(self) -> str:
        """The relative folder of the note (``sub`` for ``sub/nota-001``; ``""`` at the top)."""
        return self.note_id.rpartition("/")[0]


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str


def kind_of(path: Path, kinds: frozenset[str] = ALL_KINDS) -> str | None:
    suffix = path.suffix.lower()
    kind = None
    if suffix in TEXT_SUFFIXES:
        kind = "text"
    elif suffix in JSONL_SUFFIXES:
        kind = "jsonl"
    elif suffix in DOCX_SUFFIXES:
        kind = "docx"
    elif suffix in PDF_SUFFIXES:
        kind = "pdf"
    elif suffix in TABLE_SUFFIXES:
        kind = "table"
    return kind if kind in kinds else None


def _expected(kinds: frozenset[str]) -> str:
    suffixes = [s for kind, group in (("text", TEXT_SUFFIXES), ("jsonl", JSONL_SUFFIXES),
                                      ("docx", DOCX_SUFFIXES), ("pdf", PDF_SUFFIXES),
                                      ("table", TABLE_SUFFIXES)) if kind in kinds for s in group]
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1]


def check_inputs(paths: Sequence[str | Path], kinds: frozenset[str] = TEXT_KINDS) -> None:
    """Before any work: every input exists and is a note file or a folder. A typo in a batch
    command must stop it, not yield an empty release."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            continue
        if path.is_file():
            if kind_of(path, kinds) is None:
                raise InputError(
                    f"unsupported file type {path.suffix or '(none)'!r}; expected {_expected(kinds)}",
                    path,
                )
        elif path.exists():
            raise InputError("not a regular file or folder", path)
        else:
            raise InputError("no such file or folder", path)


def iter_inputs(
    paths: Sequence[str | Path],
    *,
    recursive: bool = True,
    exclude: Iterable[Path] = (),
    skipped: Callable[[Skipped], None] = lambda s: None,
    annotations: Callable[[Path], None] = lambda p: None,
    kinds: frozenset[str] = TEXT_KINDS,
    tables: bool = True,
) -> Iterator[InputFile]:
    """The inputs of a batch, in order. ``exclude`` are folders never to enter (the output
    folder when it lies inside an input folder: a rerun must not read its own output);
    ``skipped`` hears of every file not read and ``annotations`` of each ``.ann`` beside a note.
    ``kinds`` are the kinds the caller reads; with ``tables`` false a table found in a folder is
    skipped (no ``--text-column`` says which column holds the notes)."""
    check_inputs(paths, kinds)
    excluded = {p.resolve() for p in exclude}
    seen: set[Path] = set()  # files given twice (a folder and a file inside it): only inputs given
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                yield InputFile(path, path.stem, kind_of(path, kinds) or "text")
            continue
        for item in _walk(path, path, recursive, excluded, skipped, annotations, kinds, tables):
            if item.path.resolve() not in seen:
                yield item


def _walk(root: Path, folder: Path, recursive: bool, excluded: set[Path],
          skipped: Callable[[Skipped], None], annotations: Callable[[Path], None],
          kinds: frozenset[str], tables: bool) -> Iterator[InputFile]:
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        skipped(Skipped(folder, f"cannot read the folder: {exc.strerror or exc}"))
        return
    stems = {Path(e.name).stem.lower() for e in entries if kind_of(Path(e.name)) == "text"}
    for entry in entries:
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=True):
            if path.resolve() in excluded:
                continue  # our own output (or work) folder inside the input tree
            if entry.name.startswith("."):
                skipped(Skipped(path, "hidden folder"))
            elif entry.is_symlink():
                skipped(Skipped(path, "symbolic link to a folder (not followed)"))
            elif not recursive:
                skipped(Skipped(path, "subfolder (--no-recursive)"))
            else:
                yield from _walk(root, path, recursive, excluded, skipped, annotations, kinds, tables)
            continue
        if entry.name.startswith("."):
            skipped(Skipped(path, "hidden file"))
            continue
        kind = kind_of(path, kinds)
        if kind is None:
            if path.suffix.lower() == ANNOTATION_SUFFIX and path.stem.lower() in stems:
                annotations(path)
            else:
                skipped(Skipped(path, _why_not(path, kinds)))
            continue
        if kind == "table" and not tables:
            skipped(Skipped(path, "a table: pass --text-column NAME to de-identify the notes in its column"))
            continue
        if not entry.is_file(follow_symlinks=True):
            skipped(Skipped(path, "not a regular file"))
            continue
        yield InputFile(path, path.relative_to(root).with_suffix("").as_posix(), kind)


def count_inputs(paths: Sequence[str | Path], *, recursive: bool = True, exclude: Iterable[Path] = (),
                 skipped: Callable[[Skipped], None] = lambda s: None, kinds: frozenset[str] = TEXT_KINDS,
                 tables: bool = True) -> tuple[int, bool]:
    """(number of input files, whether each is one note): a progress bar's total and whether it
    is the number of notes (a .jsonl file or a table holds an unknown number)."""
    n, only_text = 0, True
    for item in iter_inputs(paths, recursive=recursive, exclude=exclude, skipped=skipped, kinds=kinds,
                            tables=tables):
        n += 1
        only_text = only_text and item.kind in ("text", "docx", "pdf")
    return n, only_text


def _why_not(path: Path, kinds: frozenset[str] = TEXT_KINDS) -> str:
    suffix = path.suffix.lower()
    if suffix == ANNOTATION_SUFFIX:
        return "annotation file without a note of the same name"
    if not suffix:
        return f"no file suffix; notes are {_expected(kinds)}"
    if suffix == ".doc":
        return "an old Word .doc: save it as .docx (Word 2007 or later) to de-identify it"
    return f"unsupported type {path.suffix}; notes are {_expected(kinds)}"
