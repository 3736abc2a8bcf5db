"""De-identification on Apache Spark: the batch's own per-note function, run where the notes live.

``deidentify_dataframe`` runs ``crfdeid.batch.process`` — the function ``crfdeid deidentify``
runs on every note — inside ``mapInPandas``, so a note's output is the local batch's byte for
byte, whatever the partitioning, and a task Spark retries gives the same output again: it depends
only on the note, the seed/key, the policy and the model.

What travels to the executors is a :class:`Job`: plain settings, pickled into the task closure.
Never the key: each executor reads it from ``$CRFDEID_KEY`` or a key file of its own
(``read_key``) and checks it against a keyed check value the driver derived. Never the model:
each Python worker builds its ``Deidentifier`` once, from files — the embedded model inside the
installed package, a ``--model`` folder (and policy, pack… files) shipped with
``SparkContext.addFile`` — and checks that what it loaded is what the driver saw
(``settings_fingerprint``), so executors with another crfdeid version, model or key fail loudly
instead of writing different surrogates. Notes never go to the driver: it only counts them.

pyspark is imported inside the functions that need it (the ``spark`` extra).
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import json
import math
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .batch import (
    BatchOptions,
    BatchSummary,
    Loaded,
    Note,
    check_paths,
    duplicate_name,
    enumerate_notes,
    load,
    process,
)
from .deidentify import KEY_ENV, DeidentifierSpec, read_key, settings_fingerprint
from .errors import CrfdeidError, InputError, OutputError
from .heap import freeze_loaded
from .io.inputs import iter_inputs
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text
from .release import AUDIT, FAILED, FAILURES, HELD, MARKER, QUARANTINE, RELEASED, write_outputs
from .types import Document

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: ``key=ENV``: every executor reads the key from ``$CRFDEID_KEY`` (``spark.executorEnv``).
ENV = "env"
MARKER_KIND = "crfdeid spark"
#: DeidentifierSpec fields that may name a file or folder on the driver: shipped with addFile.
SHIPPED_FIELDS = ("model", "policy", "merge_policy", "rules", "pack", "scheme")
#: Rows per Arrow batch a Python worker receives (``spark.sql.execution.arrow.maxRecordsPerBatch``,
#: set by ``crfdeid spark``): a note may be 10 MB, so Spark's default of 10,000 rows is too many.
BATCH_ROWS = 100
#: ``--format text``: partitions of at most this many notes (and at least 4 per core).
NOTES_PER_PARTITION = 2000
#: Ids shared by several rows are collected to the driver (ids only) to fail those rows; past
#: this many the id column is not an id and the run stops.
MAX_DUPLICATE_IDS = 10_000
#: Spark hides conf values whose key matches this in its UI and logs; Spark's default plus
#: crfdeid's key variable, in case someone passes it as ``spark.executorEnv.CRFDEID_KEY``.
REDACTION_REGEX = r"(?i)secret|password|token|access[.]?key|crfdeid_key"

SPAN_TYPE = "struct<start:int,end:int,label:string>"
NOTE_COLUMNS = ("id", "status", "text", "spans", "reasons", "failure", "audit")
NOTES_SCHEMA = (f"id string, status string, text string, spans array<{SPAN_TYPE}>, reasons string, "
                "failure string, audit array<string>")
FILE_COLUMNS = ("index", "id", "status", "spans", "internal", "failure", "audit")
FILES_SCHEMA = "index long, id string, status string, spans int, internal boolean, failure string, " \
               "audit array<string>"
LISTING_SCHEMA = "index long, note_id string, name string, path string, kind string, line long, " \
                 "duplicate boolean"
AUDIT_SCHEMA = ("record string, document string, start int, end int, new_start int, new_end int, "
                "label string, source string, score double, strategy string, surrogate string, "
                "original_hash string, note string, fallback string")
FAILURE_SCHEMA = "note string, stage string, error string, line int, hint string, input_line int, " \
                 "internal boolean"
TABLE_FORMATS = ("parquet", "csv", "jsonl")
FORMATS = (*TABLE_FORMATS, "text")


# --- what the executors receive -----------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """Everything an executor needs, as small picklable settings: never the key, never a model."""

    spec: DeidentifierSpec  # key=None always; paths of shipped files are remapped on the executor
    options: BatchOptions
    keyed: bool = False
    key_file: str | None = None  # read on the executor; None with a key: $CRFDEID_KEY
    key_check: str | None = None
    fingerprint: dict[str, Any] = field(default_factory=dict)
    shipped: tuple[tuple[str, str], ...] = ()  # (spec field, SparkFiles name)
    token: str = ""  # the same settings, the same token: a worker keeps its Deidentifier
    out_dir: str | None = None  # --format text: notes are written here, temporary files in work
    work: str | None = None
    run: dict[str, Any] = field(default_factory=dict)  # the audit's run record (driver side)

    def __post_init__(self) -> None:
        if self.spec.key is not None:
            raise ValueError("a Job never carries the key itself")

    def executor_spec(self) -> DeidentifierSpec:
        """The spec this executor runs: its own key, the shipped files at their local paths."""
        key = read_key(self.key_file) if self.keyed else None
        if self.keyed and key is None:
            raise CrfdeidError(f"no key on this executor: ${KEY_ENV} is not set",
                               hint=f"set spark.executorEnv.{KEY_ENV} from a secret store, or give a key "
                                    "file every executor can read (README: crfdeid spark, secrets)")
        if key is not None and key_check(key) != self.key_check:
            raise CrfdeidError("the key on this executor is not the key the driver read",
                               hint="every executor must see the same key (one secret for the whole job)")
        paths = {}
        if self.shipped:
            from pyspark import SparkFiles

            paths = {name: SparkFiles.get(shipped) for name, shipped in self.shipped}
        return replace(self.spec, key=key, **paths)


def key_check(key: bytes) -> str:
    """A check value of the key (a keyed hash of a constant): tells executors they hold the
    driver's key without the key ever leaving a secret store."""
    return hmac.new(key, b"crfdeid spark key check", hashlib.sha256).hexdigest()[:16]


def fingerprint_of(spec: DeidentifierSpec) -> dict[str, Any]:
    return {"crfdeid": __version__, **settings_fingerprint(spec)}


def prepare(spark: SparkSession | None, spec: DeidentifierSpec, key: str | os.PathLike | None,
            options: BatchOptions, *, ship: bool = True, out_dir: Path | None = None,
            work: Path | None = None) -> Job:
    """On the driver: check the key (and derive its check value), draw the run's seed when there
    is neither key nor seed, ship the files the spec names, and fingerprint the settings."""
    if isinstance(key, (bytes, bytearray)):
        raise TypeError("key bytes would travel inside the job's closure: pass key='env' (the key is "
                        f"${KEY_ENV} on every executor) or the path of a key file every executor can read")
    if spec.key is not None:
        raise ValueError("the spec holds the key itself; give key='env' or a key file path instead")
    keyed = key is not None
    key_file = None if key is None or key == ENV else os.path.abspath(key)  # workers' cwd differs
    driver_key = read_key(key_file) if keyed else None
    if keyed and driver_key is None:
        raise CrfdeidError(f"key='env' but ${KEY_ENV} is not set on the driver",
                           hint="the driver checks the key before any work: it needs it too")
    spec = replace(spec, key=driver_key).with_run_seed()
    fingerprint = fingerprint_of(spec)
    run = spec.describe()
    check = key_check(driver_key) if driver_key is not None else None
    shipped = ship_files(spark, spec) if ship and spark is not None else ()
    spec = replace(spec, key=None)
    token = hashlib.sha256(json.dumps(
        [repr(spec), spec.seed, keyed, key_file, check, shipped, fingerprint], sort_keys=True, default=str
    ).encode("utf-8")).hexdigest()
    return Job(spec, options, keyed, key_file, check, fingerprint, shipped, token,
               str(out_dir) if out_dir is not None else None, str(work) if work is not None else None, run)


def ship_files(spark: SparkSession, spec: DeidentifierSpec) -> tuple[tuple[str, str], ...]:
    """Every file or folder the spec names (a --model folder, a policy…) goes to the executors
    with ``SparkContext.addFile``: they read copies of the driver's files, not a path that may
    not exist there. Shipped codes (``--lang es``) name no file and stay as they are."""
    shipped: list[tuple[str, str]] = []
    names: dict[str, Path] = {}
    for name in SHIPPED_FIELDS:
        value = getattr(spec, name)
        if value is None or not Path(value).exists():
            continue
        path = Path(value).resolve()
        if names.setdefault(path.name, path) != path:
            raise CrfdeidError(f"two files to ship to the executors share the name {path.name!r}",
                               path, hint="rename one of them")
        try:
            spark.sparkContext.addFile(str(path), recursive=path.is_dir())
        except Exception as exc:  # py4j: another file of that name was shipped before in this session
            raise CrfdeidError(f"cannot ship {path.name!r} to the executors: {str(exc).splitlines()[0]}",
                               path, hint="a Spark session ships one file per name: rename it") from None
        shipped.append((name, path.name))
    return tuple(shipped)


# --- on the executors ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _deidentifier(job: Job) -> tuple[Any, DeidentifierSpec]:
    """The Python worker's Deidentifier, built once from files (Spark reuses its Python workers
    between tasks) and checked against the driver's fingerprint."""
    if _WORKER.get("token") != job.token:
        if _WORKER:  # another job's model: let it go before loading this one
            _WORKER.clear()
            gc.unfreeze()
            gc.collect()
        spec = job.executor_spec()
        deidentifier = spec.build()
        found = fingerprint_of(spec)
        if found != job.fingerprint:
            differ = sorted(k for k in {*found, *job.fingerprint} if found.get(k) != job.fingerprint.get(k))
            raise CrfdeidError(f"this executor would not de-identify as the driver does ({', '.join(differ)} "
                               "differ)", hint="install the same crfdeid version (and model) on every node")
        freeze_loaded()
        _WORKER.update(token=job.token, deidentifier=deidentifier, spec=spec)
    return _WORKER["deidentifier"], _WORKER["spec"]


def _row_reader(name: str, text: Any, duplicate: bool, max_bytes: int) -> Callable[[], Document]:
    """A DataFrame row as the Document ``process`` de-identifies; what is wrong with it fails the
    note at the read stage, as an unreadable file fails in a local batch."""

    def read() -> Document:
        if not name:
            raise InputError("the note has no id", hint="every row needs a value in the id column")
        if duplicate:
            raise duplicate_name(name)
        if not isinstance(text, str):
            raise InputError("the note has no text (null)")
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise InputError(f"the text is {size:,} bytes, over the {max_bytes:,}-byte limit for one note",
                             hint="raise the limit with --max-bytes")
        return Document(name, text)

    return read


def _note_row(job: Job, deidentifier: Any, note_id: Any, text: Any, duplicate: bool) -> dict[str, Any]:
    name = note_id if isinstance(note_id, str) else ""
    note = Note(0, name, name, Path(name or "(no id)"), "text")
    processed = process(deidentifier, note, Loaded(), job.options,
                        read=_row_reader(name, text, duplicate, job.options.max_bytes))
    base = f"{QUARANTINE}/{name}" if processed.status == HELD else name
    failed = processed.status == FAILED
    return {
        "id": name or None,
        "status": processed.status,
        "text": None if failed else processed.texts[f"{base}.txt"],
        "spans": None if failed else [{"start": s.start, "end": s.end, "label": s.label}
                                      for s in processed.new_spans],
        "reasons": json.dumps(processed.reasons, ensure_ascii=False) if processed.reasons else None,
        "failure": json.dumps(processed.failure, ensure_ascii=False) if failed else None,
        "audit": [line.rstrip("\n") for line in processed.audit],
    }


def _rows_function(job: Job, duplicates: frozenset[str]) -> Callable[[Iterable[Any]], Iterator[Any]]:
    def deidentify_rows(frames: Iterable[Any]) -> Iterator[Any]:
        import pandas as pd

        deidentifier, _ = _deidentifier(job)
        for frame in frames:
            rows = [_note_row(job, deidentifier, i, t, i in duplicates)
                    for i, t in zip(frame["id"], frame["text"], strict=True)]
            yield pd.DataFrame(rows, columns=list(NOTE_COLUMNS))

    return deidentify_rows


def _files_function(job: Job) -> Callable[[Iterable[Any]], Iterator[Any]]:
    def deidentify_files(frames: Iterable[Any]) -> Iterator[Any]:
        import pandas as pd

        deidentifier, spec = _deidentifier(job)
        assert job.out_dir is not None and job.work is not None
        out, work = Path(job.out_dir), Path(job.work)
        options = job.options
        for frame in frames:
            rows = []
            for index, note_id, name, path, kind, line, duplicate in zip(
                    frame["index"], frame["note_id"], frame["name"], frame["path"], frame["kind"],
                    frame["line"], frame["duplicate"], strict=True):
                note = Note(int(index), note_id, name, Path(path), kind, None if pd.isna(line) else int(line))
                loaded = Loaded(error=duplicate_name(name)) if duplicate else \
                    load(note, False, options.max_bytes, spec)
                processed = process(deidentifier, note, loaded, options)
                write_outputs(out, processed.texts, options.encoding, work)  # retried: the same bytes
                rows.append({
                    "index": note.index, "id": name, "status": processed.status, "spans": processed.spans,
                    "internal": processed.internal,
                    "failure": json.dumps(processed.failure, ensure_ascii=False)
                    if processed.failure is not None else None,
                    "audit": [line.rstrip("\n") for line in processed.audit],
                })
            yield pd.DataFrame(rows, columns=list(FILE_COLUMNS))

    return deidentify_files


# --- the API ------------------------------------------------------------------------------


def deidentify_dataframe(
    df: DataFrame,
    text_col: str = "text",
    id_col: str = "id",
    model: str | None = None,
    policy: str | None = None,
    key: str | os.PathLike | None = None,
    *,
    seed: int | None = None,
    spec: DeidentifierSpec | None = None,
    release_incomplete: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    persist: bool = True,
) -> tuple[DataFrame, DataFrame]:
    """De-identify the notes of a DataFrame (one note a row) on the executors.

    ``key`` is where executors read the key: ``"env"`` (``$CRFDEID_KEY`` on every executor) or
    the path of a key file every executor can read — never the key itself. Without a key, surrogates
    come from ``seed`` (drawn at random when None). ``spec`` gives every other option of
    ``crfdeid deidentify`` (``model``/``policy``/``seed`` are shortcuts for a spec).

    Returns ``(notes, audit)``. ``notes``: ``id``, ``status`` (released, held, failed), ``text``
    and ``spans`` (label and offsets in the new text), ``reasons`` a held note was held for,
    ``failure`` (the record of ``failures.jsonl``) and ``audit`` (the note's audit.jsonl lines).
    ``audit``: one row per audit record (originals only as keyed hashes). Both come from one
    computation, persisted on the executors' disks when ``persist``: ``notes.unpersist()`` after.
    Other columns of ``df`` are not carried over (they may hold PHI): join them back on the id.
    Ids shared by several rows are read on the driver (ids only) and those rows fail.
    """
    _check_columns(df, id_col, text_col)
    if spec is None:
        spec = DeidentifierSpec(model=model, policy=policy, seed=seed)
    elif model is not None or policy is not None or seed is not None:
        raise ValueError("give either spec= or model=/policy=/seed=, not both")
    options = BatchOptions(Path("."), release_incomplete=release_incomplete, max_bytes=max_bytes)
    job = prepare(df.sparkSession, spec, key, options)
    return deidentify_job(df, job, text_col, id_col, persist=persist)


def _check_columns(df: DataFrame, id_col: str, text_col: str) -> None:
    from pyspark.sql.types import StringType

    for column in (id_col, text_col):
        if column not in df.columns:
            raise CrfdeidError(f"no column {column!r} in the input (columns: {', '.join(df.columns)})",
                               hint="name the columns with --id-col and --text-col")
    if not isinstance(df.schema[text_col].dataType, StringType):
        raise CrfdeidError(f"column {text_col!r} is {df.schema[text_col].dataType.simpleString()}, "
                           "not a string of text")


def deidentify_job(df: DataFrame, job: Job, text_col: str = "text", id_col: str = "id", *,
                   persist: bool = True) -> tuple[DataFrame, DataFrame]:
    """``deidentify_dataframe`` with a Job already prepared (``crfdeid spark``)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    _check_columns(df, id_col, text_col)
    rows = df.select(F.col(id_col).cast("string").alias("id"), F.col(text_col).alias("text"))
    shared = [r["id"] for r in rows.groupBy("id").count().filter("count > 1 AND id IS NOT NULL")
              .select("id").limit(MAX_DUPLICATE_IDS + 1).collect()]
    if len(shared) > MAX_DUPLICATE_IDS:
        raise CrfdeidError(f"more than {MAX_DUPLICATE_IDS:,} ids are shared by several rows: {id_col!r} "
                           "does not identify the notes", hint="give a column with one value per note")
    notes = rows.mapInPandas(_rows_function(job, frozenset(shared)), NOTES_SCHEMA)
    if persist:
        notes = notes.persist(StorageLevel.DISK_ONLY)
    audit = notes.select(F.explode("audit").alias("line")) \
        .select(F.from_json("line", AUDIT_SCHEMA).alias("record")).select("record.*")
    return notes, audit


# --- crfdeid spark: whole runs ------------------------------------------------------------


@dataclass
class SparkRun:
    """What a ``crfdeid spark`` run was asked to do, besides how to de-identify a note."""

    output: str
    fmt: str
    overwrite: bool = False
    release_incomplete: bool = False
    encoding: str = DEFAULT_ENCODING
    max_bytes: int = DEFAULT_MAX_BYTES
    id_col: str = "id"
    text_col: str = "text"
    partitions: int | None = None


def guess_format(path: str) -> str:
    """--format when it is not given: the input's suffix, or the suffixes of the files of a folder."""
    suffixes = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl", ".txt": "text",
                ".text": "text"}
    found = suffixes.get(Path(path).suffix.lower())
    if found is not None or not Path(path).is_dir():
        return found or "parquet"
    for _, _, files in os.walk(path):
        for name in sorted(files):
            found = suffixes.get(Path(name).suffix.lower())
            if found is not None:
                return found
    return "parquet"


def summarise(counts: Iterable[Any], started: float, out: str) -> BatchSummary:
    """Counts per status (rows of status, notes, spans, internal) as the batch's summary."""
    summary = BatchSummary(Path(out))
    for row in counts:
        status, notes, spans, internal = row[0], int(row[1]), int(row[2] or 0), int(row[3] or 0)
        summary.notes += notes
        summary.spans += spans
        if status == RELEASED:
            summary.released += notes
        elif status == HELD:
            summary.held += notes
        else:
            summary.failed += notes
            summary.internal_errors += internal
    summary.seconds = time.perf_counter() - started
    return summary


def summary_line(summary: BatchSummary, fmt: str) -> str:
    rate = summary.notes / summary.seconds if summary.seconds > 0 else 0.0
    failures = FAILURES if fmt == "text" else "failures/"
    quarantine = f"{QUARANTINE}/" if fmt == "text" else "quarantine/"
    parts = [f"{summary.released} released"]
    if summary.held:
        parts.append(f"{summary.held} held back ({summary.out_dir / quarantine})")
    if summary.failed:
        parts.append(f"{summary.failed} failed ({summary.out_dir / failures})")
    return (f"{summary.notes} note(s): {', '.join(parts)}; {summary.spans} span(s) replaced; "
            f"{summary.seconds:.1f} s ({rate:.1f} notes/s) -> {summary.out_dir}")


def run_table(spark: SparkSession, source: str, spec: DeidentifierSpec, key: str | None,
              run: SparkRun) -> BatchSummary:
    """Parquet, CSV or JSONL in, the same format out: OUTPUT/notes (released), quarantine (held),
    failures, audit, and run (the run record and the counts, written last: a folder without it
    is incomplete). Spark's writers commit each dataset whole."""
    from pyspark.sql import functions as F

    started = time.perf_counter()
    _check_table_output(spark, run.output, run.overwrite)
    df = read_table(spark, source, run.fmt)
    if run.partitions:
        df = df.repartition(run.partitions)
    _check_columns(df, run.id_col, run.text_col)
    options = BatchOptions(Path("."), release_incomplete=run.release_incomplete, max_bytes=run.max_bytes)
    job = prepare(spark, spec, key, options)
    notes, audit = deidentify_job(df, job, run.text_col, run.id_col)
    try:
        counts = notes.groupBy("status").agg(
            F.count("*"), F.sum(F.size(F.filter("audit", lambda line: line.startswith('{"record": "span"')))),
            F.sum(F.coalesce(F.get_json_object("failure", "$.internal").cast("boolean"), F.lit(False))
                  .cast("int"))).collect()
        spans = F.to_json("spans") if run.fmt == "csv" else F.col("spans")
        ident = F.col("id").alias(run.id_col)
        _write(notes.filter(F.col("status") == RELEASED).select(ident, F.col("text").alias(run.text_col),
                                                                spans.alias("spans")),
               run, "notes")
        _write(notes.filter(F.col("status") == HELD).select(ident, F.col("text").alias(run.text_col),
                                                            spans.alias("spans"), "reasons"),
               run, QUARANTINE)
        _write(notes.filter(F.col("status") == FAILED)
               .select(ident, F.from_json("failure", FAILURE_SCHEMA).alias("f"))
               .select(run.id_col, "f.stage", "f.error", "f.hint", "f.internal"), run, "failures")
        _write(audit, run, "audit")
        summary = summarise(counts, started, run.output)
        record = {"record": "run", **job.run}
        done = {"kind": MARKER_KIND, "format": run.fmt, "run": record, "summary": _counts(summary),
                "settings": job.fingerprint, "key_check": job.key_check}
        spark.createDataFrame([(json.dumps(done, ensure_ascii=False, sort_keys=True),)], "value string") \
            .coalesce(1).write.mode("overwrite" if run.overwrite else "errorifexists") \
            .text(_join(run.output, "run"))
    finally:
        notes.unpersist()
    summary.seconds = time.perf_counter() - started
    return summary


def read_table(spark: SparkSession, source: str, fmt: str) -> DataFrame:
    """Parquet, CSV (a header row; quoted fields may span lines; RFC 4180 quotes, whitespace
    kept) or JSON Lines, as Spark reads them."""
    if fmt == "parquet":
        return spark.read.parquet(source)
    if fmt == "csv":
        return spark.read.options(**_CSV).csv(source)
    if fmt == "jsonl":
        return spark.read.json(source)
    raise CrfdeidError(f"unknown table format {fmt!r}; expected one of {', '.join(TABLE_FORMATS)}")


_CSV = {"header": "true", "multiLine": "true", "escape": '"', "quote": '"', "inferSchema": "false",
        "ignoreLeadingWhiteSpace": "false", "ignoreTrailingWhiteSpace": "false"}


def _write(frame: DataFrame, run: SparkRun, name: str) -> None:
    writer = frame.write.mode("overwrite" if run.overwrite else "errorifexists")
    target = _join(run.output, name)
    if run.fmt == "parquet":
        writer.parquet(target)
    elif run.fmt == "csv":
        writer.options(**_CSV).csv(target)
    else:
        writer.json(target)


def _join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name


def _counts(summary: BatchSummary) -> dict[str, int]:
    return {"notes": summary.notes, RELEASED: summary.released, HELD: summary.held, FAILED: summary.failed,
            "spans": summary.spans}


def _check_table_output(spark: SparkSession, output: str, overwrite: bool) -> None:
    """An OUTPUT that holds anything is refused before any work, unless --overwrite (then each of
    the run's datasets replaces its namesake; other files stay)."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(output)
    fs = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    if fs.exists(path) and not overwrite and (not fs.getFileStatus(path).isDirectory()
                                              or len(fs.listStatus(path)) > 0):
        raise OutputError("the output exists and is not empty", output,
                          hint="choose another output, or pass --overwrite to replace a run written there")


def run_text(spark: SparkSession, inputs: list[str], spec: DeidentifierSpec, key: str | None,
             run: SparkRun, report: Callable[[str], None] | None = None) -> BatchSummary:
    """A folder of .txt notes (and .jsonl files) in, OUTPUT/NAME.txt out, exactly as
    ``crfdeid deidentify`` writes them: the driver lists the notes with the local batch's own walk
    (names and paths only), executors read, de-identify and write each note atomically; then the
    driver joins Spark's sorted audit and failures into audit.jsonl and failures.jsonl. INPUT and
    OUTPUT must be on a file system every executor mounts."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    report = report or (lambda line: None)
    started = time.perf_counter()
    out = Path(run.output)
    options = BatchOptions(out, release_incomplete=run.release_incomplete, encoding=run.encoding,
                           max_bytes=run.max_bytes, overwrite=run.overwrite)
    check_paths([Path(p) for p in inputs], options)
    _open_text_output(out, run.overwrite)
    work = out.resolve().parent / f".{out.resolve().name}.crfdeid-work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(mode=0o700)
    result = None
    try:
        job = prepare(spark, spec, key, options, out_dir=out.resolve(), work=work)
        _write_marker(out, "running", job, work)
        listing = work / "listing.jsonl"
        count = list_notes(inputs, options, job.spec, [out, work], listing, report)
        if count == 0:
            raise InputError("no notes to de-identify (.txt, .text or .jsonl files)", inputs[0])
        partitions = run.partitions or max(4 * spark.sparkContext.defaultParallelism,
                                           math.ceil(count / NOTES_PER_PARTITION))
        notes = spark.read.schema(LISTING_SCHEMA).json(literal_path(listing)) \
            .repartition(min(partitions, count))
        result = notes.mapInPandas(_files_function(job), FILES_SCHEMA).persist(StorageLevel.DISK_ONLY)
        counts = result.groupBy("status").agg(F.count("*"), F.sum("spans"),
                                              F.sum(F.col("internal").cast("int"))).collect()
        result.select("index", F.posexplode("audit")).orderBy("index", "pos").select("col") \
            .write.text(str(work / "audit"))
        result.filter(F.col("failure").isNotNull()).orderBy("index").select("failure") \
            .write.text(str(work / "failures"))
        run_line = json.dumps({"record": "run", **job.run}, ensure_ascii=False) + "\n"
        _join_parts(work / "audit", out / AUDIT, work, first=run_line)
        _join_parts(work / "failures", out / FAILURES, work)
        summary = summarise(counts, started, str(out))
        _write_marker(out, "complete", job, work, _counts(summary))
    finally:
        if result is not None:
            result.unpersist()
        shutil.rmtree(work, ignore_errors=True)
    summary.seconds = time.perf_counter() - started
    return summary


def literal_path(path: Path) -> str:
    """A local path as Spark reads it literally: Hadoop expands ``[]{}*?`` as a glob, so an
    OUTPUT named ``out[1]`` must have them escaped."""
    return re.sub(r"([\[\]{}*?\\])", r"\\\1", str(path))


def list_notes(inputs: list[str], options: BatchOptions, spec: DeidentifierSpec, exclude: list[Path],
               listing: Path, report: Callable[[str], None]) -> int:
    """The notes of the inputs, found as ``crfdeid deidentify`` finds them (same walk, order, names,
    skipped files and duplicate names), written one JSON line each: the executors' work list."""
    seen: set[str] = set()
    count = 0
    with open(listing, "w", encoding="utf-8") as handle:
        files = iter_inputs(inputs, recursive=options.recursive, exclude=exclude,
                            skipped=lambda item: report(f"skipped {item.path}: {item.reason}"))
        for note in enumerate_notes(files, "kept", spec, options.max_bytes):
            duplicate = note.name in seen
            seen.add(note.name)
            handle.write(json.dumps({"index": note.index, "note_id": note.note_id, "name": note.name,
                                     "path": str(note.path.resolve()), "kind": note.kind, "line": note.line,
                                     "duplicate": duplicate}, ensure_ascii=False) + "\n")
            count += 1
    return count


def _open_text_output(out: Path, overwrite: bool) -> None:
    """Refuse a folder holding anything, unless --overwrite and it holds an earlier crfdeid spark
    run (then it is replaced whole); files crfdeid did not write are never removed."""
    if out.exists() and not out.is_dir():
        raise OutputError("the output exists and is not a folder", out)
    if out.is_dir() and any(out.iterdir()):
        marker = out / MARKER
        kind = None
        if marker.is_file():
            try:
                kind = json.loads(marker.read_text(encoding="utf-8")).get("kind")
            except (OSError, ValueError, AttributeError):
                kind = None
        if not overwrite:
            raise OutputError("the output folder is not empty", out,
                              hint="choose an empty folder, or pass --overwrite to replace an earlier "
                                   "crfdeid spark run")
        if kind != MARKER_KIND:
            raise OutputError("--overwrite: the output folder holds files crfdeid spark did not write", out,
                              hint="choose an empty folder")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def _write_marker(out: Path, state: str, job: Job, work: Path, summary: dict[str, int] | None = None) -> None:
    settings = {**job.fingerprint, "format": "text", "names": "kept", "mapping": False,
                "release_incomplete": job.options.release_incomplete}
    data: dict[str, Any] = {"kind": MARKER_KIND, "state": state, "settings": settings,
                            "key_check": job.key_check}
    if summary is not None:
        data["summary"] = summary
    atomic_write_text(out / MARKER, json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8", tmp_dir=work)


def _join_parts(folder: Path, target: Path, work: Path, first: str = "") -> None:
    """Spark's part files (already sorted across parts) joined into one file, streamed, then
    renamed into place."""
    tmp = work / f"{target.name}.joined"
    with open(tmp, "wb") as dst:
        dst.write(first.encode("utf-8"))
        for part in sorted(folder.glob("part-*")):
            with open(part, "rb") as src:
                shutil.copyfileobj(src, dst)
        dst.flush()
        os.fsync(dst.fileno())
    os.replace(tmp, target)
