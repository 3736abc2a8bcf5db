"""JSON Lines: one document per line, ``{"id", "text", "spans": [{"start", "end", "label"}]}``.

Optional span keys: ``source``, ``score``, ``fragments`` (``[[s, e], ...]`` for a discontinuous
span) and ``text`` (checked against the document text).
Optional document key: ``metadata`` (an object). Unknown keys are errors: a typo such as
``"lable"`` must not silently drop a span.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import AnnotationError
from ..types import Document, Span
from .text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text, read_text

_DOC_KEYS = {"id", "text", "spans", "metadata"}
_SPAN_KEYS = {"start", "end", "label", "source", "score", "text", "fragments"}


def _span_from_json(obj: Any, text: str, path: Path, lineno: int, index: int) -> Span:
    where = f"span #{index}"
    if not isinstance(obj, dict):
        raise AnnotationError(f"{where} must be an object, got {type(obj).__name__}", path, lineno)
    unknown = set(obj) - _SPAN_KEYS
    if unknown:
        raise AnnotationError(f"{where} has unknown key(s) {sorted(unknown)}; allowed: "
                              f"{sorted(_SPAN_KEYS)}", path, lineno)
    missing = {"start", "end", "label"} - set(obj)
    if missing:
        raise AnnotationError(f"{where} lacks {sorted(missing)}", path, lineno)
    start, end = obj["start"], obj["end"]
    if type(start) is not int or type(end) is not int:
        raise AnnotationError(f"{where}: start and end must be integers", path, lineno)
    if end > len(text):
        raise AnnotationError(f"{where} [{start}, {end}) runs past the end of the text "
                              f"({len(text)} characters)", path, lineno)
    fragments = obj.get("fragments")
    if fragments is not None and not (
        isinstance(fragments, list)
        and all(isinstance(f, list) and len(f) == 2 and all(type(x) is int for x in f) for f in fragments)
    ):
        raise AnnotationError(f"{where}: fragments must be a list of [start, end] integer pairs",
                              path, lineno)
    score = obj.get("score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float))):
        raise AnnotationError(f"{where}: score must be a number in [0, 1]", path, lineno)
    try:
        if fragments is not None:
            fragments = tuple((a, b) for a, b in fragments)
        span = Span(start, end, obj["label"], source=obj.get("source", "gold"),
                    score=obj.get("score"), fragments=fragments)
    except (TypeError, ValueError) as exc:
        raise AnnotationError(f"{where}: {exc}", path, lineno) from None
    covered = " ".join(text[s:e] for s, e in span.parts)  # as BRAT and Document.span_text
    if "text" in obj and obj["text"] != covered:
        raise AnnotationError(f"{where} says {obj['text']!r} but the text has "
                              f"{covered!r} at [{start}, {end})", path, lineno)
    return span


def parse_jsonl_line(line: str, path: Path, lineno: int) -> Document:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise AnnotationError(f"invalid JSON at column {exc.colno}: {exc.msg}", path, lineno) from None
    if not isinstance(obj, dict):
        raise AnnotationError("each line must be a JSON object", path, lineno)
    unknown = set(obj) - _DOC_KEYS
    if unknown:
        raise AnnotationError(f"unknown key(s) {sorted(unknown)}; allowed: {sorted(_DOC_KEYS)}",
                              path, lineno)
    text = obj.get("text")
    if not isinstance(text, str):
        raise AnnotationError('"text" must be a string', path, lineno)
    doc_id = obj.get("id", f"{path.stem}-{lineno}")
    if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool):
        raise AnnotationError('"id" must be a string', path, lineno)
    raw_spans = obj.get("spans", [])
    if not isinstance(raw_spans, list):
        raise AnnotationError('"spans" must be a list', path, lineno)
    spans = [_span_from_json(s, text, path, lineno, i) for i, s in enumerate(raw_spans)]
    metadata = obj.get("metadata", {})
    if not isinstance(metadata, dict):
        raise AnnotationError('"metadata" must be an object', path, lineno)
    return Document(str(doc_id), text, tuple(spans),
                    metadata={**metadata, "path": str(path), "line": lineno})


def read_jsonl(path: str | Path, encoding: str = DEFAULT_ENCODING,
               max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Document]:
    """Documents of a .jsonl file, in order; blank lines are skipped."""
    path = Path(path)
    content = read_text(path, encoding, max_bytes)
    if content.startswith("\ufeff"):  # a BOM is not part of the first JSON object
        content = content[1:]
    seen: set[str] = set()
    for lineno, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        doc = parse_jsonl_line(line, path, lineno)
        if doc.id in seen:
            raise AnnotationError(f"document id {doc.id!r} appears twice", path, lineno)
        seen.add(doc.id)
        yield doc


def document_to_json(document: Document, *, with_text: bool = False) -> dict[str, Any]:
    spans = []
    for span in document.spans:
        item: dict[str, Any] = {"start": span.start, "end": span.end, "label": span.label}
        if span.source != "gold":
            item["source"] = span.source
        if span.score is not None:
            item["score"] = span.score
        if span.fragments is not None:
            item["fragments"] = [list(f) for f in span.fragments]
        if with_text:
            item["text"] = document.span_text(span)
        spans.append(item)
    return {"id": document.id, "text": document.text, "spans": spans}


def write_jsonl(documents: Iterable[Document], path: str | Path,
                encoding: str = DEFAULT_ENCODING) -> Path:
    """Write all documents to one .jsonl file atomically."""
    path = Path(path)
    lines = [json.dumps(document_to_json(d), ensure_ascii=False) + "\n" for d in documents]
    atomic_write_text(path, "".join(lines), encoding)
    return path
