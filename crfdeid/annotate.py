"""Annotating a batch: read every note of a folder, run the detectors, write predictions.

Detectors follow the Detector protocol (``crfdeid.types``): usually one detection pipeline
(CRF tagger + YAML rules, ``crfdeid.pipeline``), or the rule engine alone. Output is BRAT
(``OUT/NAME.ann`` plus a copy of ``NAME.txt``) or one ``OUT/annotations.jsonl``. Every file is
written atomically, and the input folder, or a folder of annotations crfdeid did not write, is
never written into.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError, OutputError
from .io.brat import write_brat
from .io.corpus import find_inputs
from .io.jsonl import read_jsonl, write_jsonl
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text, read_text_document
from .rules import RuleTimeout
from .types import Detector, Document, Span

FORMATS = ("brat", "jsonl")
JSONL_NAME = "annotations.jsonl"
#: Written into every output folder; its absence beside existing .ann files means "not ours".
MARKER = ".crfdeid-output"
_SAFE_ID = re.compile(r"[^/\\\x00]+")


@dataclass
class AnnotateSummary:
    """What a batch produced, for the closing message and for scripts."""

    documents: int = 0
    spans: int = 0
    labels: Counter = field(default_factory=Counter)
    timeouts: list[RuleTimeout] = field(default_factory=list)
    seconds: float = 0.0


def check_output_dir(in_path: Path, out_dir: Path, overwrite: bool = False) -> None:
    """Refuse outputs that could destroy inputs or someone else's annotations."""
    in_dir = in_path if in_path.is_dir() else in_path.parent
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError("the output exists and is not a folder", out_dir)
    if out_dir.resolve() == in_dir.resolve():
        raise OutputError("refusing to write into the input folder (its .ann files may be gold "
                          "annotations)", out_dir, hint="choose another folder with -o")
    if out_dir.is_dir() and not (out_dir / MARKER).exists() and not overwrite:
        existing = next(iter(sorted(out_dir.glob("*.ann"))), None) or (
            out_dir / JSONL_NAME if (out_dir / JSONL_NAME).exists() else None)
        if existing is not None:
            raise OutputError(f"the output folder already holds annotations crfdeid did not write "
                              f"({existing.name})", out_dir,
                              hint="choose an empty folder, or pass --overwrite if they may be replaced")


def read_inputs(in_path: Path, encoding: str = DEFAULT_ENCODING,
                max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[int | None, Iterator[Document]]:
    """The number of documents (None when .jsonl files make it unknown) and the documents to
    annotate, read lazily, with any spans they already carry dropped."""
    files = find_inputs([in_path])
    if not files:
        raise InputError("no .txt or .jsonl files to annotate", in_path)
    count = None if any(p.suffix == ".jsonl" for p in files) else len(files)

    def documents() -> Iterator[Document]:
        for path in files:
            if path.suffix == ".jsonl":
                for doc in read_jsonl(path, encoding, max_bytes):
                    yield doc.with_spans(())
            else:
                yield read_text_document(path, encoding, max_bytes)
    return count, documents()


def detect_all(document: Document, detectors: Sequence[Detector]) -> tuple[list[Span], list[RuleTimeout]]:
    """Spans of every detector, sorted, identical spans once. A detector with a ``run`` method
    (the rule engine, the pipeline) returns a result that also carries its rule timeouts."""
    spans: dict[tuple[int, int, str], Span] = {}
    timeouts: list[RuleTimeout] = []
    for detector in detectors:
        run = getattr(detector, "run", None)
        if run is not None:
            result = run(document)
            found = list(result.spans)
            timeouts.extend(result.timeouts)
        else:
            found = detector.detect(document)
        for span in found:
            spans.setdefault(span.key(), span)
    return sorted(spans.values(), key=lambda s: (s.start, s.end, s.label)), timeouts


def annotate(documents: Iterable[Document], detectors: Sequence[Detector], out_dir: Path,
             fmt: str = "brat", encoding: str = DEFAULT_ENCODING,
             progress: Callable[[Iterable[Document]], Iterable[Document]] = iter) -> AnnotateSummary:
    """Run the detectors over the documents and write the predictions into ``out_dir``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    summary = AnnotateSummary()
    started = time.perf_counter()
    seen: set[str] = set()
    annotated: list[Document] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out_dir / MARKER, "Predictions written by crfdeid annotate.\n")
    for doc in progress(documents):
        _check_id(doc, seen)
        spans, timeouts = detect_all(doc, detectors)
        result = doc.with_spans(spans)
        summary.documents += 1
        summary.spans += len(spans)
        summary.labels.update(s.label for s in spans)
        summary.timeouts.extend(timeouts)
        if fmt == "brat":
            write_brat(result, out_dir, write_text=True, encoding=encoding)
        else:
            annotated.append(result)
    if fmt == "jsonl":
        write_jsonl(annotated, out_dir / JSONL_NAME, encoding)
    summary.seconds = time.perf_counter() - started
    return summary


def _check_id(doc: Document, seen: set[str]) -> None:
    """A document id becomes a file name: it must be one and must not repeat."""
    where = doc.metadata.get("path")
    if not _SAFE_ID.fullmatch(doc.id) or doc.id in (".", ".."):
        raise InputError(f"document id {doc.id!r} cannot be used as a file name", where,
                         doc.metadata.get("line"))
    if doc.id in seen:
        raise InputError(f"document id {doc.id!r} appears twice; its outputs would overwrite each other",
                         where, doc.metadata.get("line"))
    seen.add(doc.id)


def annotate_folder(in_path: Path, out_dir: Path, detectors: Sequence[Detector], fmt: str = "brat", *,
                    overwrite: bool = False, encoding: str = DEFAULT_ENCODING,
                    max_bytes: int = DEFAULT_MAX_BYTES,
                    progress: Callable[..., Iterable[Document]] | None = None) -> AnnotateSummary:
    """Check the output folder, read the inputs, annotate and write: ``crfdeid annotate``.

    ``progress(documents, total=N)`` may wrap the documents in a progress bar.
    """
    check_output_dir(in_path, out_dir, overwrite)
    count, documents = read_inputs(in_path, encoding, max_bytes)
    wrap = (lambda docs: progress(docs, total=count)) if progress is not None else iter
    return annotate(documents, detectors, out_dir, fmt, encoding, progress=wrap)
