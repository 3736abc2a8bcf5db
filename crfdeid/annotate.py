"""Annotating a batch: read every note of a folder, run the detectors, write predictions.

Detectors follow the Detector protocol (``crfdeid.types``): usually one detection pipeline
(CRF tagger + YAML rules, ``crfdeid.pipeline``), or the rule engine alone. Output is BRAT
(``OUT/NAME.ann`` plus a copy of ``NAME.txt``) or one ``OUT/annotations.jsonl``. Every file is
written atomically, and the input folder, or a folder of annotations crfdeid did not write, is
never written into.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import signal
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CrfdeidError, InputError, OutputError
from .heap import freeze_loaded, note_scope
from .io.brat import write_brat
from .io.inputs import Skipped, count_inputs, iter_inputs
from .io.jsonl import parse_jsonl_line, write_jsonl
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text, read_text, read_text_document
from .rules import RuleTimeout
from .types import Detector, Document, Span

FORMATS = ("brat", "jsonl")
JSONL_NAME = "annotations.jsonl"
FAILURES_NAME = "failures.jsonl"
#: Written into every output folder; its absence beside existing .ann files means "not ours".
MARKER = ".crfdeid-output"
_SAFE_ID = re.compile(r"[^/\\\x00]+")


@dataclass(frozen=True)
class Failure:
    """A note that could not be read or annotated, and why (the others are written)."""

    note: str
    error: str
    internal: bool = False

    @property
    def id(self) -> str:
        return self.note


@dataclass
class AnnotateSummary:
    """What a batch produced, for the closing message and for scripts."""

    documents: int = 0
    spans: int = 0
    labels: Counter = field(default_factory=Counter)
    timeouts: list[RuleTimeout] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
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


def read_inputs(in_path: Path, encoding: str = DEFAULT_ENCODING, max_bytes: int = DEFAULT_MAX_BYTES,
                recursive: bool = True, skipped: Callable[[Skipped], None] = lambda s: None,
                exclude: Sequence[Path] = ()) -> tuple[int | None, Iterator[Document | Failure]]:
    """The number of documents (None when .jsonl files make it unknown) and the documents to
    annotate, read lazily, with any spans they already carry dropped. Subfolders are walked
    (their ids keep the folder: ``sub/nota-001``); a note that cannot be read comes out as a
    ``Failure`` in its place, so that it costs no other note."""
    total, only_text = count_inputs([in_path], recursive=recursive, exclude=exclude, skipped=skipped)
    if total == 0:
        raise InputError("no .txt or .jsonl files to annotate", in_path)

    def documents() -> Iterator[Document | Failure]:
        for item in iter_inputs([in_path], recursive=recursive, exclude=exclude):
            if item.kind == "text":
                try:
                    doc = read_text_document(item.path, encoding, max_bytes)
                    yield Document(item.note_id, doc.text, metadata=doc.metadata)
                except CrfdeidError as exc:
                    yield Failure(item.note_id, str(exc))
                continue
            try:
                content = read_text(item.path, encoding, max_bytes)
            except CrfdeidError as exc:
                yield Failure(item.note_id, str(exc))
                continue
            prefix = f"{item.folder}/" if item.folder else ""
            for lineno, line in enumerate(content.lstrip("\ufeff").split("\n"), start=1):
                if not line.strip():
                    continue
                try:
                    doc = parse_jsonl_line(line, item.path, lineno)
                except CrfdeidError as exc:
                    yield Failure(f"{prefix}{item.path.stem}-{lineno}", str(exc))
                    continue
                yield Document(prefix + doc.id, doc.text, metadata=doc.metadata)
    return (total if only_text else None), documents()


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


#: Notes handed to the workers ahead of the one being written, per worker: enough to keep them
#: busy, few enough that a folder of a million notes is never read into memory.
WINDOW_PER_JOB = 4
_WORKER: dict[str, Sequence[Detector]] = {}


#: A note's detection: its spans and rule timeouts, or why it failed.
Outcome = tuple[list[Span], list[RuleTimeout]] | Failure


def _detect_one(document: Document, detectors: Sequence[Detector]) -> Outcome:
    """Detection of one note, its failure caught: one bad note never costs the others."""
    try:
        with note_scope():
            return detect_all(document, detectors)
    except CrfdeidError as exc:
        return Failure(document.id, str(exc))
    except Exception as exc:  # a bug: this note fails, the batch goes on
        return Failure(document.id, f"internal error: {type(exc).__name__}: {exc}", True)


def _init_worker(build: Callable[[], Sequence[Detector]]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles interruption
    _WORKER["detectors"] = build()
    freeze_loaded()


def _work(document: Document) -> Outcome:
    return _detect_one(document, _WORKER["detectors"])


def _detected(
    documents: Iterable[Document | Failure], detectors: Sequence[Detector], jobs: int,
    build: Callable[[], Sequence[Detector]] | None,
) -> Iterator[tuple[Document | Failure, Outcome]]:
    """Each note with its spans (or its failure), in input order; with ``jobs > 1`` detected by
    worker processes that each build the detectors once (``build``), over a bounded window."""
    seen: set[str] = set()

    def checked(doc: Document | Failure) -> Failure | None:
        if isinstance(doc, Failure):
            return doc
        try:
            _check_id(doc, seen)
        except CrfdeidError as exc:
            return Failure(doc.id, str(exc))
        return None

    if jobs == 1 or build is None:
        for doc in documents:
            failed = checked(doc)
            yield doc, failed if failed is not None else _detect_one(doc, detectors)  # type: ignore[arg-type]
        return
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_init_worker, initargs=(build,))
    try:
        window: deque = deque()
        for doc in documents:
            failed = checked(doc)
            window.append((doc, failed if failed is not None else pool.apply_async(_work, (doc,))))
            while len(window) > jobs * WINDOW_PER_JOB:
                yield _resolve(window.popleft())
        while window:
            yield _resolve(window.popleft())
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _resolve(item: tuple[Any, Any]) -> tuple[Any, Any]:
    doc, result = item
    if isinstance(result, Failure):
        return doc, result
    while True:
        try:
            return doc, result.get(timeout=0.5)  # a timeout keeps signals deliverable
        except multiprocessing.TimeoutError:
            continue


def annotate(documents: Iterable[Document | Failure], detectors: Sequence[Detector], out_dir: Path,
             fmt: str = "brat", encoding: str = DEFAULT_ENCODING,
             progress: Callable[[Iterable], Iterable] = iter,
             report: Callable[[str], None] = lambda line: None, *, jobs: int = 1,
             build: Callable[[], Sequence[Detector]] | None = None) -> AnnotateSummary:
    """Run the detectors over the documents and write the predictions into ``out_dir``. A note
    that cannot be read or annotated is listed (stderr via ``report``, ``OUT_DIR/failures.jsonl``);
    the others are written. ``jobs > 1`` detects in that many worker processes, each running
    ``build()`` once to get its detectors (a picklable callable: the model is loaded per worker,
    never sent); the files are the same as with one process."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    if jobs < 1:
        raise CrfdeidError(f"-j must be at least 1, got {jobs}")
    summary = AnnotateSummary()
    started = time.perf_counter()
    annotated: list[Document] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out_dir / MARKER, "Predictions written by crfdeid annotate.\n")
    for doc, outcome in _detected(progress(documents), detectors, jobs, build):
        try:
            if isinstance(outcome, Failure):
                if outcome.internal:
                    summary.failures.append(outcome)
                    report(f"note {doc.id} failed: {outcome.error} (a bug: rerun with --debug and report it)")
                    continue
                raise CrfdeidError(outcome.error)
            spans, timeouts = outcome
            result = doc.with_spans(spans)  # type: ignore[union-attr]
            if fmt == "brat":
                write_brat(result, out_dir, write_text=True, encoding=encoding)
            else:
                annotated.append(result)
        except CrfdeidError as exc:
            summary.failures.append(Failure(doc.id, str(exc)))
            report(f"note {doc.id} failed: {exc}")
            continue
        summary.documents += 1
        summary.spans += len(spans)
        summary.labels.update(s.label for s in spans)
        summary.timeouts.extend(timeouts)
    if fmt == "jsonl":
        write_jsonl(annotated, out_dir / JSONL_NAME, encoding)
    atomic_write_text(out_dir / FAILURES_NAME, "".join(
        json.dumps({"note": f.note, "error": f.error, "internal": f.internal}, ensure_ascii=False) + "\n"
        for f in summary.failures), "utf-8")
    summary.seconds = time.perf_counter() - started
    return summary


def _check_id(doc: Document, seen: set[str]) -> None:
    """A document id becomes a file name (folders allowed): it must be one and must not repeat."""
    where = doc.metadata.get("path")
    parts = doc.id.split("/")
    if not all(_SAFE_ID.fullmatch(p) and p not in (".", "..") for p in parts):
        raise InputError(f"document id {doc.id!r} cannot be used as a file name", where,
                         doc.metadata.get("line"))
    if doc.id in seen:
        raise InputError(f"document id {doc.id!r} appears twice; its outputs would overwrite each other",
                         where, doc.metadata.get("line"))
    seen.add(doc.id)


def annotate_folder(in_path: Path, out_dir: Path, detectors: Sequence[Detector], fmt: str = "brat", *,
                    overwrite: bool = False, encoding: str = DEFAULT_ENCODING,
                    max_bytes: int = DEFAULT_MAX_BYTES, recursive: bool = True,
                    progress: Callable[..., Iterable[Document]] | None = None,
                    report: Callable[[str], None] = lambda line: None, jobs: int = 1,
                    build: Callable[[], Sequence[Detector]] | None = None) -> AnnotateSummary:
    """Check the output folder, read the inputs, annotate and write: ``crfdeid annotate``.

    ``progress(documents, total=N)`` may wrap the documents in a progress bar; ``report`` hears
    of every file skipped and every note that failed.
    """
    check_output_dir(in_path, out_dir, overwrite)
    count, documents = read_inputs(in_path, encoding, max_bytes, recursive,
                                   lambda s: report(f"skipped {s.path}: {s.reason}"), exclude=[out_dir])
    wrap = (lambda docs: progress(docs, total=count)) if progress is not None else iter
    return annotate(documents, detectors, out_dir, fmt, encoding, progress=wrap, report=report, jobs=jobs,
                    build=build)
