"""Finding the notes of a batch: files and folders in, a sorted list of inputs and a list of
everything skipped (with the reason) out.

A batch must never skip a file silently: a hospital that puts 250 notes in a folder must learn
that 3 of them were ``.TXT``, ``.docx`` or inside a subfolder. So folders are walked
recursively (the structure is mirrored in the output), suffixes match case-insensitively, and
every file that is not a note is reported — except the ``.ann`` beside a ``.txt``, which is
its annotation file and is counted, not listed. The order is deterministic (sorted by relative
path within each input, inputs in the order given): a batch's output must not depend on the
order a file system lists a folder in.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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


@dataclass
class Discovery:
    """What a batch will read, and what it will not (and why)."""

    files: list[InputFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    #: ``.ann`` files beside a note: read with ``--from-annotations``, otherwise ignored
    annotations: int = 0


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return "text"
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    return None


def discover(
    paths: Sequence[str | Path],
    *,
    recursive: bool = True,
    exclude: Iterable[Path] = (),
) -> Discovery:
    """Expand files and folders into the inputs of a batch.

    ``exclude`` are folders never to enter (the output folder when it lies inside an input
    folder: a rerun must not read its own output). A path that does not exist is an error: a
    typo in a batch command should stop it before any work, not yield an empty release.
    """
    excluded = {p.resolve() for p in exclude}
    found = Discovery()
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            _walk(path, recursive, excluded, found, seen)
        elif path.is_file():
            kind = kind_of(path)
            if kind is None:
                raise InputError(
                    f"unsupported file type {path.suffix or '(none)'!r}; expected .txt, .text or .jsonl",
                    path,
                )
            _add(found, seen, InputFile(path, path.stem, kind))
        elif path.exists():
            raise InputError("not a regular file or folder", path)
        else:
            raise InputError("no such file or folder", path)
    return found


def _add(found: Discovery, seen: set[Path], item: InputFile) -> None:
    key = item.path.resolve()
    if key not in seen:  # the same file given twice (a folder and a file inside it)
        seen.add(key)
        found.files.append(item)


def _walk(root: Path, recursive: bool, excluded: set[Path], found: Discovery, seen: set[Path]) -> None:
    notes: list[InputFile] = []
    skipped: list[Skipped] = []

    def onerror(exc: OSError) -> None:
        skipped.append(Skipped(Path(exc.filename or root), f"cannot read the folder: {exc.strerror}"))

    for folder, dirs, files in os.walk(root, onerror=onerror, followlinks=False):
        here = Path(folder)
        kept_dirs = []
        for name in sorted(dirs):
            sub = here / name
            if sub.resolve() in excluded:
                continue  # our own output (or work) folder inside the input tree
            if name.startswith("."):
                skipped.append(Skipped(sub, "hidden folder"))
            elif sub.is_symlink():
                skipped.append(Skipped(sub, "symbolic link to a folder (not followed)"))
            elif not recursive:
                skipped.append(Skipped(sub, "subfolder (--no-recursive)"))
            else:
                kept_dirs.append(name)
        dirs[:] = kept_dirs
        stems = {Path(f).stem.lower() for f in files if kind_of(Path(f)) == "text"}
        for name in files:
            path = here / name
            if name.startswith("."):
                skipped.append(Skipped(path, "hidden file"))
                continue
            kind = kind_of(path)
            if kind is None:
                if path.suffix.lower() == ANNOTATION_SUFFIX and path.stem.lower() in stems:
                    found.annotations += 1
                else:
                    skipped.append(Skipped(path, _why_not(path)))
                continue
            if not path.is_file():
                skipped.append(Skipped(path, "not a regular file"))
                continue
            notes.append(InputFile(path, path.relative_to(root).with_suffix("").as_posix(), kind))
    for item in sorted(notes, key=lambda f: (f.note_id, f.path.name)):
        _add(found, seen, item)
    found.skipped.extend(sorted(skipped, key=lambda s: str(s.path)))


def _why_not(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ANNOTATION_SUFFIX:
        return "annotation file without a note of the same name"
    if not suffix:
        return "no file suffix; notes are .txt, .text or .jsonl"
    return f"unsupported type {path.suffix}; notes are .txt, .text or .jsonl"
