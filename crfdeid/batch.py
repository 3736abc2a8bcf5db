"""The batch runner of ``crfdeid deidentify``: every note on its own, crash-safe and resumable.

The contract (the README's "batch contract" section says the same for users):

- **Per-note isolation.** Each note is read and de-identified on its own. A note that cannot be
  read or processed is listed on stderr and in ``OUT_DIR/failures.jsonl``; the others are written.
- **Nothing known is released.** A note with a rule that did not complete, an original string
  still present after replacement, or PHI in its file name is held back in
  ``OUT_DIR/quarantine/`` with its reasons, unless ``release_incomplete`` says otherwise.
- **Crash-safe.** Each note is written atomically as soon as it is done (temporary files live in
  a work folder *beside* OUT_DIR, never inside it), its audit records are appended, and then a
  line is appended to ``manifest.jsonl`` — the commit point. After ``kill -9`` at any moment the
  manifest's last complete line says what is done; ``resume`` truncates whatever was appended
  after it, skips the notes already done (same input digest) and completes the rest.
- **Deterministic.** Notes are committed in input order and a note's output depends only on the
  note, the seed/key, the policy and the model (``Deidentifier.deidentify_note``), so a resumed
  run, an uninterrupted run and ``jobs=N`` worker processes produce identical files.
- **Memory** does not grow with the notes' contents: nothing but a few bytes of bookkeeping per
  note is kept after it is committed.

Exit status: ``0`` every note released, ``3`` some notes failed or were held back, ``1`` an
internal error (a bug) on some note, ``2`` a usage error before any work (raised as
``CrfdeidError``), ``130``/``143`` interrupted by SIGINT/SIGTERM (resumable).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import re
import signal
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import __version__
from .errors import CrfdeidError, InputError, OutputError
from .heap import freeze_loaded, note_scope
from .io import table as tables
from .io.brat import format_ann, parse_ann
from .io.inputs import ALL_KINDS, InputFile, Skipped, count_inputs, iter_inputs, kind_of
from .io.jsonl import document_to_json, parse_jsonl_line
from .io.table import Table
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, decode_bytes
from .release import FAILED, FAILURES, HELD, QUARANTINE, RELEASED, Release
from .types import Document

FORMATS = ("text", "brat", "jsonl")
NAMES = ("kept", "hashed", "numbered")
EXIT_OK, EXIT_BUG, EXIT_INCOMPLETE = 0, 1, 3
#: Notes in flight per worker process: enough to keep workers busy, bounded so memory is too.
WINDOW_PER_JOB = 4


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM: the batch stops cleanly after cleaning its temporary files."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGTERM is handled like SIGINT (a KeyboardInterrupt), so both leave the same clean,
    resumable state."""

    def handler(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in previous:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


@dataclass
class BatchOptions:
    """What ``crfdeid deidentify`` was asked to do, apart from how to de-identify a note."""

    out_dir: Path
    fmt: str = "text"
    names: str = "kept"
    recursive: bool = True
    resume: bool = False
    overwrite: bool = False
    fail_fast: bool = False
    release_incomplete: bool = False
    from_annotations: bool = False
    encoding: str = DEFAULT_ENCODING
    max_bytes: int = DEFAULT_MAX_BYTES
    mapping_out: Path | None = None
    jobs: int = 1
    debug: bool = False
    #: tables (.csv, .tsv, .parquet): the column of the notes, and the one naming them
    text_column: str | None = None
    id_column: str | None = None
    #: the per-run HTML report (crfdeid/report.py), and whether it shows the original notes
    report: Path | None = None
    report_originals: bool = True

    def __post_init__(self) -> None:
        self.out_dir = Path(self.out_dir)
        if self.report is not None:
            self.report = Path(self.report)
        if self.fmt not in FORMATS:
            raise CrfdeidError(f"unknown format {self.fmt!r}; expected one of {', '.join(FORMATS)}")
        if self.names not in NAMES:
            raise CrfdeidError(f"unknown --names {self.names!r}; expected one of {', '.join(NAMES)}")
        if self.resume and self.overwrite:
            raise CrfdeidError("--resume and --overwrite contradict each other: choose one")
        if self.jobs < 1:
            raise CrfdeidError(f"-j must be at least 1, got {self.jobs}")
        if self.mapping_out is not None:
            self.mapping_out = Path(self.mapping_out)


@dataclass
class BatchSummary:
    """What a batch did; ``exit_status`` and ``line`` are what the CLI reports."""

    out_dir: Path
    notes: int = 0
    released: int = 0
    held: int = 0
    failed: int = 0
    internal_errors: int = 0
    already_done: int = 0
    spans: int = 0
    strategies: Counter = field(default_factory=Counter)
    fallbacks: int = 0
    skipped_files: int = 0
    seconds: float = 0.0
    interrupted: Interrupted | None = None
    stopped: str | None = None  # the batch could not go on (the output cannot be written)

    @property
    def exit_status(self) -> int:
        if self.interrupted is not None:
            return self.interrupted.exit_status
        if self.internal_errors:
            return EXIT_BUG
        if self.held or self.failed or self.stopped:
            return EXIT_INCOMPLETE
        return EXIT_OK

    def line(self) -> str:
        """The one summary line every run prints."""
        done = self.notes - self.already_done
        rate = done / self.seconds if self.seconds > 0 else 0.0
        parts = [f"{self.released} released"]
        if self.held:
            parts.append(f"{self.held} held back ({self.out_dir / QUARANTINE})")
        if self.failed:
            parts.append(f"{self.failed} failed ({self.out_dir / FAILURES})")
        if self.already_done:
            parts.append(f"{self.already_done} of them already done before this run")
        unfinished = self.interrupted is not None or self.stopped is not None
        head = "interrupted: " if self.interrupted is not None else ("stopped: " if self.stopped else "")
        tail = "; rerun with --resume to finish" if unfinished else ""
        return (f"{head}{self.notes} note(s): {', '.join(parts)}; {self.spans} span(s) replaced; "
                f"{self.seconds:.1f} s ({rate:.1f} notes/s) -> {self.out_dir}{tail}")


# --- notes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    """One unit of work. ``note_id`` identifies the note within its input (and seeds its date
    shift); ``name`` is its public name in the output (``--names``), without a suffix."""

    index: int
    note_id: str
    name: str
    path: Path
    kind: str  # "text", "jsonl", "docx", "pdf" or "table" (a row)
    line: int | None = None  # the line of a .jsonl, the data row of a table
    table: Table | None = None

    @property
    def where(self) -> str:
        if self.table is not None:
            return self.table.where(self.line or 0)
        return f"{self.path}:{self.line}" if self.line is not None else str(self.path)


@dataclass
class Loaded:
    """A note's input bytes, read in the main process (cheap), and their keyed digest."""

    data: bytes = b""
    annotations: bytes | None = None
    digest: str = ""
    error: CrfdeidError | None = None


@dataclass
class Processed:
    """What processing one note produced, ready to commit (picklable: it crosses processes)."""

    status: str
    texts: dict[str, str] = field(default_factory=dict)  # relative path -> content
    files: dict[str, bytes] = field(default_factory=dict)  # relative path -> content (a .docx)
    rows: dict[str, str] = field(default_factory=dict)  # a table's relative path -> its row, appended
    audit: list[str] = field(default_factory=list)
    jsonl: str | None = None
    mapping: list[str] = field(default_factory=list)
    reasons: list[dict[str, Any]] = field(default_factory=list)
    failure: dict[str, Any] | None = None
    message: str = ""  # for stderr (may name the input file; never written into OUT_DIR)
    spans: int = 0
    strategies: Counter = field(default_factory=Counter)
    fallbacks: int = 0
    internal: bool = False
    #: for the report only (``options.report``): the note's texts, before and after
    view: dict[str, str | None] | None = None
    new_spans: tuple = ()  # the spans at their offsets in the new text (a DataFrame's spans column)


def enumerate_notes(files: Iterable[InputFile], names: str, spec: Any, max_bytes: int,
                    tables_of: dict[Path, Table] | None = None) -> Iterator[Note]:
    """The notes of the inputs, in order: a text, .docx or .pdf file is one note, a .jsonl line
    or a table row is one note (streamed, so a large file is never held in memory). ``tables_of``
    holds the tables ``open_tables`` checked."""
    index = 0
    width = 6
    for item in files:
        if item.kind in ("text", "docx", "pdf"):
            yield Note(index, item.note_id, public_name(item.note_id, index, names, spec, width), item.path,
                       item.kind)
            index += 1
            continue
        if item.kind == "table":
            table = (tables_of or {})[item.path]
            prefix = f"{item.folder}/" if item.folder else ""
            for row, cells in tables.iter_rows(table, max_bytes):
                note_id = prefix + tables.row_id(table, cells, row)
                yield Note(index, note_id, public_name(note_id, index, names, spec, width), item.path,
                           "table", row, table)
                index += 1
            continue
        for lineno, note_id in _jsonl_ids(item, max_bytes):
            yield Note(index, note_id, public_name(note_id, index, names, spec, width), item.path, "jsonl",
                       lineno)
            index += 1


def _jsonl_ids(item: InputFile, max_bytes: int) -> Iterator[tuple[int, str]]:
    """(line number, note id) of every non-blank line; an id that cannot be read falls back to
    ``STEM-LINE``, the same default ``parse_jsonl_line`` uses (its error comes later, per note)."""
    prefix = f"{item.folder}/" if item.folder else ""
    try:
        handle = open(item.path, "rb")  # noqa: SIM115 - closed below, also on early exit
    except OSError:
        yield 1, f"{prefix}{item.path.stem}-1"  # the read error is reported for this note
        return
    with handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            note_id = f"{item.path.stem}-{lineno}"
            if len(raw) <= max_bytes:
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    obj = json.loads(raw.lstrip(b"\xef\xbb\xbf"))
                    if isinstance(obj, dict) and isinstance(obj.get("id"), (str, int)) \
                            and not isinstance(obj.get("id"), bool):
                        note_id = str(obj["id"])
            yield lineno, prefix + note_id


def public_name(note_id: str, index: int, names: str, spec: Any, width: int = 6) -> str:
    """The note's name in the output: kept (mirrored folders), a keyed hash, or a number."""
    if names == "kept":
        return note_id
    if names == "numbered":
        return f"note-{index + 1:0{width}d}"
    return spec.digest("name", note_id.encode("utf-8"))[:20]


_ROWS = tables.RowReader()


def duplicate_name(name: str) -> InputError:
    """Why the second note of a batch with a name already used fails (its output would overwrite
    the first's)."""
    return InputError(f"another note of this batch has the same name ({name})",
                      hint="rename one of them; names are compared without their suffix")


def load(note: Note, from_annotations: bool, max_bytes: int, spec: Any) -> Loaded:
    """Read a note's bytes (and its .ann) and compute the digest that ``resume`` compares."""
    try:
        if from_annotations and note.kind not in ("text", "jsonl"):
            raise InputError("--from-annotations reads .txt notes with their .ann, and .jsonl files",
                             hint="de-identify .docx, .pdf and tables with a model or --rules-only")
        if note.kind == "table":
            assert note.table is not None
            data = tables.encode_row(_ROWS.row(note.table, note.line or 1, max_bytes))
            annotations = None
        elif note.kind == "jsonl":
            data = _jsonl_line(note.path, note.line or 1)
            if len(data) > max_bytes:
                raise InputError(f"the line is {len(data):,} bytes, over the {max_bytes:,}-byte limit "
                                 "for one note", hint="raise the limit with --max-bytes")
            annotations = None
        else:
            data = _read_bytes(note.path, max_bytes)
            annotations = None
            if from_annotations:
                ann = note.path.with_suffix(".ann")
                if not ann.exists():
                    raise InputError("--from-annotations: no .ann beside this note",
                                     hint="every note needs its NAME.ann (an empty one if it has no PHI)")
                annotations = _read_bytes(ann, max_bytes)
    except CrfdeidError as exc:
        return Loaded(error=exc)
    digest = spec.digest("input", data + b"\x00" + (annotations or b""))
    return Loaded(data, annotations, digest)


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(f"the file is {size:,} bytes, over the {max_bytes:,}-byte limit for one note",
                             hint="split it, or raise the limit with --max-bytes")
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError("the file disappeared before it could be read") from None
    except PermissionError:
        raise InputError("permission denied") from None
    except IsADirectoryError:
        raise InputError("is a folder, expected a file") from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None


def _jsonl_line(path: Path, lineno: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            for i, raw in enumerate(handle, start=1):
                if i == lineno:
                    return raw.lstrip(b"\xef\xbb\xbf") if i == 1 else raw
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    raise InputError("the line disappeared before it could be read")


# --- processing one note (in this process or a worker) ------------------------------------


def process(deidentifier: Any, note: Note, loaded: Loaded, options: BatchOptions,
            read: Callable[[], Document] | None = None) -> Processed:
    """Decode, de-identify and format one note. Never raises (but on interruption): every
    problem becomes a failed note, an internal error is marked as such. ``read`` gives the note
    already decoded (a DataFrame row, ``crfdeid.spark``) instead of ``loaded``'s bytes; its
    ``CrfdeidError`` fails the note at the read stage, as a file that cannot be read does."""
    stage = "read"
    try:
        document = read() if read is not None else _document(note, loaded, options)
        stage = "de-identify"
        with note_scope():
            outcome = deidentifier.deidentify_note(document, note.name if options.names == "kept" else None)
        stage = "write"
        return _format(note, loaded, document, outcome, options)
    except KeyboardInterrupt:
        raise
    except CrfdeidError as exc:
        return _failed(note, stage, exc.message, exc.line, exc.hint, internal=False,
                       message=_where(note, exc), loaded=loaded)
    except Exception as exc:  # a bug: this note fails, the batch goes on
        detail = "".join(traceback.format_exception(exc)) if options.debug else f"{type(exc).__name__}: {exc}"
        return _failed(note, stage, f"internal error ({type(exc).__name__}); rerun with --debug and "
                       "report it", None, None, internal=True,
                       message=f"{note.where}: internal error: {detail}", loaded=loaded)


def _document(note: Note, loaded: Loaded, options: BatchOptions) -> Document:
    if loaded.error is not None:  # could not be read (or a duplicate name): fails at "read"
        raise loaded.error
    if note.kind == "docx":
        from .io.docx import docx_text

        return Document(note.note_id, docx_text(loaded.data, note.path))
    if note.kind == "pdf":
        from .io.pdf import pdf_text

        return Document(note.note_id, pdf_text(loaded.data, note.path))
    if note.kind == "table":
        assert note.table is not None
        text = tables.decode_row(loaded.data)[note.table.text_index]
        return Document(note.note_id, "" if text is None else str(text))
    if note.kind == "jsonl":
        text = decode_bytes(loaded.data, note.path, options.encoding)
        parsed = parse_jsonl_line(text, note.path, note.line or 1)
        spans = parsed.spans if options.from_annotations else ()
        return Document(note.note_id, parsed.text, spans)
    text = decode_bytes(loaded.data, note.path, options.encoding)
    spans: tuple = ()
    if loaded.annotations is not None:
        ann = decode_bytes(loaded.annotations, note.path.with_suffix(".ann"), options.encoding)
        spans = tuple(parse_ann(ann, text, note.path.with_suffix(".ann"), source="annotation")[0])
    return Document(note.note_id, text, spans)


def _where(note: Note, exc: CrfdeidError) -> str:
    """A failure for stderr: the input file (and line), the message and its hint."""
    line = f":{exc.line}" if exc.line is not None and note.line is None else ""
    hint = f" (hint: {exc.hint})" if exc.hint else ""
    return f"{note.where}{line}: {exc.message}{hint}"


def _failed(note: Note, stage: str, error: str, line: int | None, hint: str | None, *, internal: bool,
            message: str, loaded: Loaded | None = None) -> Processed:
    record: dict[str, Any] = {"note": note.name, "stage": stage, "error": error}
    if line is not None:
        record["line"] = line
    if hint:
        record["hint"] = hint
    if note.line is not None:
        record["input_line"] = note.line
    record["internal"] = internal
    rows = {}
    if note.table is not None:  # the table keeps the row, emptied: never the original text
        cells = tables.decode_row(loaded.data) if loaded is not None and loaded.data else None
        rows[_table_output(note)] = tables.format_row(note.table, tables.failed_row(note.table, cells), None,
                                                      note.line == 1)
    return Processed(FAILED, rows=rows, failure=record, message=message, internal=internal)


def _table_output(note: Note) -> str:
    assert note.table is not None
    return note.table.output


def _format(note: Note, loaded: Loaded, original: Document, outcome: Any, options: BatchOptions) -> Processed:
    result = outcome.result
    reasons = list(outcome.held)
    files: dict[str, bytes] = {}
    if note.kind == "docx":  # the .docx itself, replacements made in its runs
        from .io.docx import rewrite_docx

        docx = rewrite_docx(loaded.data, note.path, edits(original.text, result))
        reason = _package_leftover(docx, result.mapping)
        if reason is not None:
            reasons.append(reason)
    held = bool(reasons) and not options.release_incomplete
    status = HELD if held else RELEASED
    base = f"{QUARANTINE}/{note.name}" if held else note.name
    texts: dict[str, str] = {}
    rows: dict[str, str] = {}
    jsonl = None
    document = Document(note.name, result.document.text, result.document.spans)
    if note.kind == "docx":
        files[f"{base}.docx"] = docx
    elif note.table is not None:
        cells = tables.decode_row(loaded.data)
        null = cells[note.table.text_index] is None and not result.text  # a Parquet null stays null
        rows[_table_output(note)] = tables.format_row(note.table, cells,
                                                      None if held or null else result.text, note.line == 1)
        if held:
            texts[f"{base}.txt"] = result.text
    elif options.fmt == "jsonl" and not held:
        jsonl = json.dumps(document_to_json(document), ensure_ascii=False) + "\n"
    else:
        texts[f"{base}.txt"] = result.text
        if options.fmt == "brat":
            texts[f"{base}.ann"] = format_ann(result.document)
    if held:
        texts[f"{base}.reason.json"] = json.dumps(
            {"note": note.name, "held": [r.to_json() for r in reasons]}, ensure_ascii=False, indent=1
        ) + "\n"
    audit = [json.dumps({"record": "span", **r.to_json(), "document": note.name}, ensure_ascii=False) + "\n"
             for r in result.audit]
    audit += [json.dumps({"record": "leftover", **x.to_json(), "document": note.name}, ensure_ascii=False)
              + "\n" for x in result.leftovers]
    mapping = []
    if options.mapping_out is not None:
        mapping = [json.dumps({"document": note.name, "label": label, "original": original,
                               "surrogate": surrogate}, ensure_ascii=False) + "\n"
                   for label, original, surrogate in result.mapping]
    message = ""
    if reasons:
        verb = "released anyway (--release-incomplete)" if not held else "held back"
        message = f"{note.where}: {verb}: " + "; ".join(r.detail for r in reasons)
    view = None
    if options.report is not None:  # what the report shows; never written into OUT_DIR
        shown = options.report_originals or not held
        view = {"original": original.text if options.report_originals else None,
                "deidentified": result.text if shown else None}
    return Processed(
        status, texts, files, rows, audit, jsonl, mapping, [r.to_json() for r in reasons], None, message,
        len(result.audit), Counter(r.strategy for r in result.audit),
        sum(1 for r in result.audit if getattr(r, "fallback", None)), view=view,
        new_spans=document.spans,
    )


def edits(original: str, result: Any) -> list[tuple[int, int, str]]:
    """The replacements that turn ``original`` into ``result.text``, from the audit records:
    ``[start, end)`` of the original -> its new text. Checked: the text between them is equal on
    both sides, so a document rewritten with them (a .docx) says exactly what the text says."""
    out: list[tuple[int, int, str]] = []
    new = result.text
    at = new_at = 0
    for record in sorted((r for r in result.audit if r.new_start >= 0), key=lambda r: (r.start, r.end)):
        if record.start < at:
            raise ValueError(f"audit records overlap at {record.start}")
        if original[at:record.start] != new[new_at:record.new_start]:
            raise ValueError(f"the text before offset {record.start} changed outside any span")
        out.append((record.start, record.end, new[record.new_start:record.new_end]))
        at, new_at = record.end, record.new_end
    if original[at:] != new[new_at:]:
        raise ValueError("the text after the last span changed outside any span")
    return out


def _package_leftover(docx: bytes, mapping: tuple[tuple[str, str, str], ...]) -> Any:
    """A hold reason when an original string of the note is still somewhere in the .docx outside
    its text (a field code, a hyperlink, a property): the text scan cannot see those."""
    from .deidentify import HoldReason
    from .io.docx import package_strings
    from .langpack import fold

    originals = {(label, fold(original)) for label, original, _ in mapping
                 if sum(c.isalnum() for c in original) >= 4}
    if not originals:
        return None
    strings = fold(package_strings(docx))
    labels = sorted({label for label, original in originals
                     if re.search(rf"(?<![^\W_]){re.escape(original)}(?![^\W_])", strings)})
    if not labels:
        return None
    return HoldReason("leftover", f"original string(s) still in the .docx outside its text: field codes, "
                      f"hyperlinks or properties ({', '.join(labels)})", {"labels": labels, "where": "docx"})


# --- worker processes ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(spec: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles interruption
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER["deidentifier"] = spec.build()
    freeze_loaded()


def _work(note: Note, loaded: Loaded, options: BatchOptions) -> Processed:
    return process(_WORKER["deidentifier"], note, loaded, options)


def _ordered(items: Iterable[tuple[Note, Loaded]], run: Callable[[Note, Loaded], Processed], jobs: int,
             spec: Any, options: BatchOptions) -> Iterator[tuple[Note, Loaded, Processed | None]]:
    """Process notes, yielding results in input order. Notes already done (``Loaded`` with no
    data to process is never sent) pass straight through with ``None``. With ``jobs > 1`` a pool
    of worker processes works on a bounded window of notes ahead of the one being committed."""
    if jobs == 1:
        for note, loaded in items:
            yield note, loaded, None if loaded is _DONE else run(note, loaded)
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(jobs, initializer=_init_worker, initargs=(spec,))
    try:
        window: deque = deque()
        for note, loaded in items:
            busy = loaded is not _DONE and loaded.error is None
            future = pool.apply_async(_work, (note, loaded, options)) if busy else None
            window.append((note, loaded, future))
            while len(window) > jobs * WINDOW_PER_JOB:
                yield _resolve(window.popleft(), run)
        while window:
            yield _resolve(window.popleft(), run)
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _resolve(item: tuple[Note, Loaded, Any], run: Callable[[Note, Loaded], Processed]
             ) -> tuple[Note, Loaded, Processed | None]:
    note, loaded, future = item
    if loaded is _DONE:
        return note, loaded, None
    if future is None:  # a read error: formatted here, no worker needed
        return note, loaded, run(note, loaded)
    while True:
        try:
            return note, loaded, future.get(timeout=0.5)  # a timeout keeps signals deliverable
        except multiprocessing.TimeoutError:
            continue


_DONE = Loaded(digest="done")


# --- the run ------------------------------------------------------------------------------


def settings_of(spec: Any, options: BatchOptions) -> dict[str, Any]:
    """What must not change between a run and its resumption (never a key or a seed)."""
    from .deidentify import settings_fingerprint

    return {
        "crfdeid": __version__,
        "format": options.fmt,
        "names": options.names,
        "release_incomplete": options.release_incomplete,
        "mapping": options.mapping_out is not None,
        **settings_fingerprint(spec),
    }


#: On --resume, how many already-done notes are looked at to check that the key/seed is the same.
RESUME_PROBE = 50


def run_batch(
    inputs: list[str | Path],
    spec: Any,
    options: BatchOptions,
    *,
    progress: Callable[..., Iterable[Any]] | None = None,
    report: Callable[[str], None] | None = None,
    deidentifier: Any | None = None,
) -> BatchSummary:
    """``crfdeid deidentify`` over files and folders: see the module docstring for the contract.

    ``spec`` is a ``DeidentifierSpec`` (workers build their own from it); ``deidentifier`` may
    be given for ``jobs=1`` to reuse one already built. ``report`` receives a line for each
    failed or held note and each skipped file (stderr in the CLI).
    """
    report = report or (lambda line: None)
    spec = spec.with_run_seed()
    options.out_dir = Path(options.out_dir)
    started = time.perf_counter()
    summary = BatchSummary(options.out_dir)
    check_paths([Path(p) for p in inputs], options)
    resolved = options.out_dir.resolve()
    exclude = [options.out_dir, resolved.parent / f".{resolved.name}.crfdeid-work"]
    not_read: list[Skipped] = []
    walk = {"recursive": options.recursive, "exclude": exclude, "kinds": ALL_KINDS,
            "tables": options.text_column is not None}
    total, only_text = count_inputs(inputs, skipped=not_read.append, **walk)
    if total == 0:
        for item in not_read:
            report(f"skipped {item.path}: {item.reason}")
        raise InputError("no notes to de-identify (.txt, .text, .jsonl, .docx, .pdf, .csv, .tsv or "
                         ".parquet files)", inputs[0] if inputs else None)
    tables_of = open_tables(iter_inputs(inputs, **walk), options)
    if deidentifier is None and options.jobs == 1:
        deidentifier = spec.build()
        freeze_loaded()
    describe = deidentifier.describe() if deidentifier is not None else spec.describe()
    release = Release(options, settings_of(spec, options), describe)
    reporter = None
    if options.report is not None:
        from .report import RunReport

        reporter = RunReport(options.report, originals=options.report_originals)
    try:
        release.open()
        if release.resuming:
            _check_same_secret(inputs, walk, spec, options, release, deidentifier, tables_of)
    except BaseException:
        release.close()
        if reporter is not None:
            reporter.discard()
        raise
    annotations = [0]

    def skipped(item: Skipped) -> None:
        summary.skipped_files += 1
        report(f"skipped {item.path}: {item.reason}")

    def files() -> Iterator[InputFile]:
        yield from iter_inputs(inputs, skipped=skipped, **walk,
                               annotations=lambda path: annotations.__setitem__(0, annotations[0] + 1))
        if annotations[0] and not options.from_annotations:
            report(f"{annotations[0]} .ann file(s) beside the notes were not read "
                   "(pass --from-annotations to pseudonymise their spans)")

    seen: set[str] = set()  # names only (about 100 bytes a note): two notes must not share one

    def loads() -> Iterator[tuple[Note, Loaded]]:
        for note in enumerate_notes(files(), options.names, spec, options.max_bytes, tables_of):
            if note.name in seen:
                yield note, Loaded(error=duplicate_name(note.name))
                continue
            seen.add(note.name)
            loaded = load(note, options.from_annotations, options.max_bytes, spec)
            if loaded.error is None and release.done(note, loaded):
                status = release.status(note.name)
                summary.already_done += 1
                summary.released += status == RELEASED
                summary.held += status == HELD
                summary.spans += release.spans(note.name)
                yield note, _DONE
            else:
                yield note, loaded

    def run_one(note: Note, loaded: Loaded) -> Processed:
        return process(deidentifier, note, loaded, options)  # a read error fails before any model

    raw = _ordered(loads(), run_one, options.jobs, spec, options)
    stream = iter(progress(raw, total=total if only_text else None)) if progress is not None else raw
    try:
        with interruptible():
            for note, loaded, processed in stream:
                summary.notes += 1
                if processed is None:
                    continue
                try:
                    release.commit(note, loaded, processed)
                except OutputError as exc:  # disk full, permissions: every later note would fail too
                    summary.stopped = str(exc)
                    report(f"stopped: {exc}; the notes before {note.name} are done: fix this and rerun "
                           "with --resume")
                    break
                _count(summary, processed)
                if reporter is not None:
                    reporter.add(note, processed)
                if processed.message:
                    report(processed.message)
                if processed.status == FAILED and options.fail_fast:
                    report("stopped at the first failure (--fail-fast); rerun with --resume to go on")
                    break
            else:
                order = (n.name for n in enumerate_notes(iter_inputs(inputs, **walk), options.names, spec,
                                                         options.max_bytes, tables_of))
                release.finish(order, then=lambda: _finish_parquet(tables_of, options, release))
    except Interrupted as exc:
        summary.interrupted = exc
    except KeyboardInterrupt:
        summary.interrupted = Interrupted(signal.SIGINT)
    except BaseException:
        if reporter is not None:
            reporter.discard()
        raise
    finally:
        with contextlib.suppress(Exception):
            raw.close()  # stops worker processes
        release.close()
        _ROWS.close()
    summary.seconds = time.perf_counter() - started
    if reporter is not None:
        reporter.finish(summary, describe)
    return summary


def open_tables(files: Iterable[InputFile], options: BatchOptions) -> dict[Path, Table]:
    """Before any work: every table's columns (a missing or misspelt --text-column is a usage
    error listing the columns), and the libraries the inputs need."""
    out: dict[Path, Table] = {}
    for item in files:
        if item.kind == "table":
            table = tables.open_table(item.path, options.text_column, options.id_column, options.encoding)
            folder = item.note_id.rpartition("/")[0]
            out[item.path] = replace(table, output=tables.output_name(table, folder))
        elif item.kind in ("docx", "pdf") and item.kind not in _checked_libraries:
            _check_library(item.kind, item.path)
    return out


_checked_libraries: set[str] = set()


def _check_library(kind: str, path: Path) -> None:
    module, package = {"docx": ("docx", "python-docx"), "pdf": ("pypdf", "pypdf")}[kind]
    try:
        __import__(module)
    except ImportError:
        raise InputError(f"reading .{kind} needs {package}", path,
                         hint="pip install 'crfdeid[formats]'") from None
    _checked_libraries.add(kind)


def _finish_parquet(tables_of: dict[Path, Table], options: BatchOptions, release: Release) -> None:
    """Every row done: write each Parquet table from its rows file (see crfdeid/io/table.py)."""
    for table in tables_of.values():
        if table.fmt != "parquet":
            continue
        rows = options.out_dir / table.output
        if not rows.is_file():
            continue  # a table without rows
        release.close_handles()
        assert release.work is not None
        tables.finish_parquet(table, rows, rows.with_name(table.path.name), release.work)


def _check_same_secret(inputs: list[str | Path], walk: dict[str, Any], spec: Any, options: BatchOptions,
                       release: Release, deidentifier: Any | None, tables_of: dict[Path, Table]) -> None:
    """--resume must continue with the same key or seed (and model, policy…): redo the first
    note already done and compare its output with what the manifest recorded. Nothing about the
    secret is stored in OUT_DIR, so this is the only way to tell."""
    looked = 0
    files = iter_inputs(inputs, **walk)
    for note in enumerate_notes(files, options.names, spec, options.max_bytes, tables_of):
        entry = release.entries.get(note.name)
        if entry is None or entry.status not in (RELEASED, HELD):
            continue
        looked += 1
        loaded = load(note, options.from_annotations, options.max_bytes, spec)
        if loaded.error is None and loaded.digest == entry.input:
            deid = deidentifier if deidentifier is not None else spec.build()
            processed = process(deid, note, loaded, options)
            outputs = {rel: hashlib.sha256(text.encode(
                options.encoding if rel.endswith((".txt", ".ann")) else "utf-8")).hexdigest()
                for rel, text in processed.texts.items()}
            outputs.update((rel, hashlib.sha256(data).hexdigest())
                           for rel, data in processed.files.items())
            if outputs != entry.outputs or not all(
                    _committed(options.out_dir / rel, entry.ranges.get(rel)) == row.encode("utf-8")
                    for rel, row in processed.rows.items()):
                raise OutputError(
                    f"--resume: note {note.name} comes out differently than in the interrupted run, so "
                    "the key, seed, model or policy is not the same", options.out_dir,
                    hint="resume with the same key (or --seed) and options, or start again with --overwrite")
            return
        if looked >= RESUME_PROBE:
            break
    if looked:
        raise OutputError(
            f"--resume: none of the {looked} notes already done matches its input: the key or --seed "
            "differs from the interrupted run (or the inputs changed)", options.out_dir,
            hint="resume with the same key or --seed, or start again with --overwrite")


def _committed(path: Path, where: list[int] | None) -> bytes | None:
    """The bytes a committed note appended to ``path`` (a table's row)."""
    if where is None:
        return None
    try:
        with open(path, "rb") as handle:
            handle.seek(where[0])
            return handle.read(where[1] - where[0])
    except OSError:
        return None


def _count(summary: BatchSummary, processed: Processed) -> None:
    if processed.status == RELEASED:
        summary.released += 1
    elif processed.status == HELD:
        summary.held += 1
    else:
        summary.failed += 1
        summary.internal_errors += processed.internal
    summary.spans += processed.spans
    summary.strategies.update(processed.strategies)
    summary.fallbacks += processed.fallbacks


def check_paths(inputs: list[Path], options: BatchOptions) -> None:
    """Refuse outputs that could destroy inputs or leak the mapping."""
    out = options.out_dir.resolve()
    for path in inputs:
        resolved = path.resolve()
        folder = resolved if path.is_dir() else resolved.parent
        if folder == out:
            raise OutputError("refusing to write into an input folder (its notes would be overwritten)",
                              options.out_dir, hint="choose another folder with -o")
        if out in resolved.parents:
            raise OutputError("an input lies inside the output folder", path,
                              hint="choose an output folder outside the inputs")
    report = options.report
    if report is not None:
        resolved = report.resolve()
        if resolved.is_dir():
            raise OutputError("the report is a file, and this is a folder", report)
        readable = kind_of(resolved) is not None
        if any(resolved == p.resolve() or (readable and p.resolve() in resolved.parents) for p in inputs):
            raise OutputError("refusing to write the report over an input", report,
                              hint="name it .html, outside the input folders")
        if options.report_originals and (out == resolved.parent or out in resolved.parents):
            raise OutputError(
                "refusing to put the report (it holds the original notes) inside the output folder, which "
                "is meant to be released", report,
                hint="write it somewhere only authorised people can read, or pass --report-no-originals")
    mapping = options.mapping_out
    if mapping is not None:
        resolved = mapping.resolve()
        if out == resolved.parent or out in resolved.parents:
            raise OutputError(
                "refusing to put the mapping (it holds the originals) inside the output folder, which "
                "is meant to be released", mapping, hint="write it somewhere only authorised people can read")
        if mapping.exists() and not (options.overwrite or options.resume):
            raise OutputError("the mapping file already exists", mapping,
                              hint="pass --overwrite to replace it (or --resume to continue it)")
