"""The review log: one JSON line per action — who, when (UTC), which note and span, what.

The original text of a span appears only as a keyed hash: HMAC-SHA256 with the run key when
there is one (the very hash ``crfdeid deidentify``'s audit writes for it, so the two can be
joined), else with the review's random salt kept in the review file. The log is appended and
flushed line by line (mode 0600) so that a crash loses at most the line being written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import OutputError


class ReviewLog:
    """Appends actions to a JSONL file. ``hasher`` turns an original into its keyed hash."""

    def __init__(self, path: str | Path, reviewer: str, hasher: Callable[[str], str]) -> None:
        self.path = Path(path)
        self.reviewer = reviewer
        self.hasher = hasher

    def write(
        self,
        action: str,
        note: str,
        *,
        start: int | None = None,
        end: int | None = None,
        label: str | None = None,
        original: str | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """Append one record; ``original`` (the span's text) is written only as its hash."""
        record: dict[str, Any] = {
            "who": self.reviewer,
            "when": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "note": note,
            "action": action,
        }
        if start is not None:
            record.update(start=start, end=end, label=label)
        if original is not None:
            record["original_hash"] = self.hasher(original)
        record.update({k: v for k, v in extra.items() if v is not None})
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise OutputError(f"cannot append to the review log: {exc.strerror or exc}", self.path) from None
        return record

    def read(self) -> str:
        """The whole log (empty when nothing was logged yet)."""
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
