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


@dataclass(frozen=True)
class InputFile:
    """One input file. ``note_id`` is its path relative to the folder it was found in, without
    the suffix and with ``/`` separators (``sub/nota-001``); for a file given directly, its stem."""

    path: Path
    note_id: str
    kind: str  # "text" or "jsonl"

    @property
    def folder(self) -> str:
        """The relative folder of the note (``sub`` for ``sub/nota-001``; ``""`` at the top)."""
        return self.note_id.rpartition("/")[0]


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return "text"
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    return None


def check_inputs(paths: Sequence[str | Path]) -> None:
    """Before any work: every input exists and is a note file or a folder. A typo in a batch
    command must stop it, not yield an empty release."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            continue
        if path.is_file():
            if kind_of(path) is None:
                raise InputError(
                    f"unsupported file type {path.suffix or '(none)'!r}; expected .txt, .text or .jsonl",
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
) -> Iterator[InputFile]:
    """The inputs of a batch, in order. ``exclude`` are folders never to enter (the output
    folder when it lies inside an input folder: a rerun must not read its own output);
    ``skipped`` hears of every file not read and ``annotations`` of each ``.ann`` beside a note."""
    check_inputs(paths)
    excluded = {p.resolve() for p in exclude}
    seen: set[Path] = set()  # files given twice (a folder and a file inside it): only inputs given
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                yield InputFile(path, path.stem, kind_of(path) or "text")
            continue
        for item in _walk(path, path, recursive, excluded, skipped, annotations):
            if item.path.resolve() not in seen:
                yield item


def _walk(root: Path, folder: Path, recursive: bool, excluded: set[Path],
          skipped: Callable[[Skipped], None], annotations: Callable[[Path], None]) -> Iterator[InputFile]:
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
                yield from _walk(root, path, recursive, excluded, skipped, annotations)
            continue
        if entry.name.startswith("."):
            skipped(Skipped(path, "hidden file"))
            continue
        kind = kind_of(path)
        if kind is None:
            if path.suffix.lower() == ANNOTATION_SUFFIX and path.stem.lower() in stems:
                annotations(path)
            else:
                skipped(Skipped(path, _why_not(path)))
            continue
        if not entry.is_file(follow_symlinks=True):
            skipped(Skipped(path, "not a regular file"))
            continue
        yield InputFile(path, path.relative_to(root).with_suffix("").as_posix(), kind)


def count_inputs(paths: Sequence[str | Path], *, recursive: bool = True, exclude: Iterable[Path] = (),
                 skipped: Callable[[Skipped], None] = lambda s: None) -> tuple[int, bool]:
    """(number of input files, whether they are all plain-text notes): a progress bar's total
    and whether it is the number of notes (a .jsonl file holds an unknown number)."""
    n, only_text = 0, True
    for item in iter_inputs(paths, recursive=recursive, exclude=exclude, skipped=skipped):
        n += 1
        only_text = only_text and item.kind == "text"
    return n, only_text


def _why_not(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ANNOTATION_SUFFIX:
        return "annotation file without a note of the same name"
    if not suffix:
        return "no file suffix; notes are .txt, .text or .jsonl"
    return f"unsupported type {path.suffix}; notes are .txt, .text or .jsonl"
