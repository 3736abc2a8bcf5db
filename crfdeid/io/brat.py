"""BRAT standoff: ``NAME.txt`` + ``NAME.ann``.

Only text-bound annotations (``T`` lines) carry PHI spans. Notes (``#``), relations (``R``),
events (``E``), attributes (``A``/``M``), normalisations (``N``) and equivalences (``*``) are
ignored and counted in ``document.metadata["brat_ignored"]``. Anything else is an error naming
the file and line, as is a span whose recorded text differs from the .txt at its offsets.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from ..errors import AnnotationError
from ..types import Document, Span
from .text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text, read_text

logger = logging.getLogger(__name__)

_IGNORED_KINDS = ("#", "R", "E", "A", "M", "N", "*")
_OFFSETS_RE = re.compile(r"^[0-9]+ [0-9]+(?:;[0-9]+ [0-9]+)*$")
_WS_RE = re.compile(r"\s")


def _same_text(recorded: str, actual: str) -> bool:
    """BRAT writes line breaks inside a span as spaces; compare with whitespace normalised."""
    return recorded == actual or _WS_RE.sub(" ", recorded) == _WS_RE.sub(" ", actual)


def parse_ann(content: str, text: str, path: str | Path = "<ann>",
              source: str = "gold") -> tuple[list[Span], int]:
    """Parse .ann content against its text. Returns the spans and the number of ignored lines."""
    spans: list[Span] = []
    seen_ids: set[str] = set()
    ignored = 0
    if content.startswith("\ufeff"):  # a BOM from a Windows editor is not an annotation
        content = content[1:]
    # split on "\n" only: str.splitlines() would also break at U+2028 or NEL inside a span text
    for lineno, raw in enumerate(content.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith(_IGNORED_KINDS):
            ignored += 1
            continue
        if not line.startswith("T"):
            raise AnnotationError(
                f"unrecognised BRAT line {line[:40]!r}: expected T, #, R, E, A, M, N or *", path, lineno
            )
        fields = line.split("\t", 2)
        if len(fields) < 2:
            raise AnnotationError("a T line needs tab-separated 'ID<TAB>LABEL START END<TAB>TEXT'",
                                  path, lineno)
        ann_id, middle = fields[0], fields[1]
        if ann_id in seen_ids:
            raise AnnotationError(f"annotation id {ann_id} is used twice", path, lineno)
        seen_ids.add(ann_id)
        label, _, offsets = middle.partition(" ")
        if not label or not _OFFSETS_RE.match(offsets):
            raise AnnotationError(
                f"cannot read label and offsets from {middle!r}: expected 'LABEL START END' "
                "(or 'LABEL S1 E1;S2 E2' for discontinuous spans)", path, lineno)
        frags = [tuple(int(x) for x in part.split(" ")) for part in offsets.split(";")]
        for f_start, f_end in frags:
            if f_end <= f_start:
                raise AnnotationError(f"span {f_start}-{f_end} is empty or reversed", path, lineno)
            if f_end > len(text):
                raise AnnotationError(
                    f"span {f_start}-{f_end} runs past the end of the text ({len(text)} characters)",
                    path, lineno, hint="is this .ann paired with the right .txt?")
        try:
            span = Span(frags[0][0], frags[-1][1], label, source=source,
                        fragments=tuple(frags) if len(frags) > 1 else None)  # type: ignore[arg-type]
        except ValueError as exc:
            raise AnnotationError(str(exc), path, lineno) from None
        if len(fields) == 3:
            actual = " ".join(text[s:e] for s, e in span.parts)
            if not _same_text(fields[2], actual):
                raise AnnotationError(
                    f"{ann_id} says {fields[2]!r} but the .txt has {actual!r} at {offsets}",
                    path, lineno, hint="offsets must be character offsets into the UTF-8 .txt")
        spans.append(span)
    return spans, ignored


def read_brat(txt_path: str | Path, ann_path: str | Path | None = None, *,
              encoding: str = DEFAULT_ENCODING, max_bytes: int = DEFAULT_MAX_BYTES,
              source: str = "gold", text: str | None = None) -> Document:
    """Read ``NAME.txt`` and its ``NAME.ann`` (a missing .ann means no spans).

    ``text`` lets a caller supply the text when the .ann has no .txt of its own (system output
    folders often hold only .ann files).
    """
    txt_path = Path(txt_path)
    ann_path = Path(ann_path) if ann_path is not None else txt_path.with_suffix(".ann")
    if text is None:
        text = read_text(txt_path, encoding, max_bytes)
    spans: list[Span] = []
    ignored = 0
    if ann_path.exists():
        content = read_text(ann_path, encoding, max_bytes)
        spans, ignored = parse_ann(content, text, ann_path, source=source)
        if ignored:
            logger.warning("%s: ignored %d non-entity line(s) (notes, relations, ...)", ann_path, ignored)
    return Document(id=txt_path.stem, text=text, spans=tuple(spans),
                    metadata={"path": str(txt_path), "ann_path": str(ann_path), "brat_ignored": ignored})


def format_ann(document: Document) -> str:
    """The .ann content for a document's spans, numbered T1..Tn in the document's order."""
    lines = []
    for number, span in enumerate(document.spans, start=1):
        offsets = ";".join(f"{s} {e}" for s, e in span.parts)
        covered = _WS_RE.sub(" ", document.span_text(span))
        lines.append(f"T{number}\t{span.label} {offsets}\t{covered}\n")
    return "".join(lines)


def write_brat(document: Document, out_dir: str | Path, *, write_text: bool = True,
               encoding: str = DEFAULT_ENCODING) -> Path:
    """Write ``OUT_DIR/ID.ann`` (and ``ID.txt``) atomically. Returns the .ann path."""
    out_dir = Path(out_dir)
    ann_path = out_dir / f"{document.id}.ann"
    if write_text:
        atomic_write_text(out_dir / f"{document.id}.txt", document.text, encoding)
    atomic_write_text(ann_path, format_ann(document), encoding)
    return ann_path
