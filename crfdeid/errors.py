"""Typed errors that carry the file and line a user has to look at.

The CLI prints ``str(error)`` and exits with status 2; it never shows a traceback for these.
"""

from __future__ import annotations

from pathlib import Path


class CrfdeidError(Exception):
    """Base class for every error meant for the user rather than the developer."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        text = where + self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class InputError(CrfdeidError):
    """An input file cannot be read as text: missing, binary, too large, wrong encoding."""


class AnnotationError(CrfdeidError):
    """An annotation file (.ann, .jsonl) is malformed or disagrees with its text."""


class OutputError(CrfdeidError):
    """An output cannot be written (e.g. the target exists and is not a folder)."""
