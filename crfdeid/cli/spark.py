"""crfdeid spark: the same de-identification as ``crfdeid deidentify``, run by Apache Spark."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from ..errors import CrfdeidError
from ..progress import say
from .deidentify import add_note_options, spec_from_args
from .options import PROG, RAW, add_input_options

_SPARK_DESCRIPTION = """\
De-identify notes where they live, on Apache Spark (local[N] or a cluster): every note goes
through the function 'crfdeid deidentify' runs, so with the same key (and --seed) each note comes
out byte for byte as 'crfdeid deidentify' writes it, whatever the partitioning, and a task Spark
retries writes the same output again.

INPUT and OUTPUT, by --format (default: guessed from INPUT's suffix or the files of a folder):
  parquet, csv, jsonl  a table with a note per row (--id-col, --text-col; CSV with a header row,
                       quoted fields may span lines). OUTPUT/ gets, in the same format: notes/
                       (released: id, text, spans), quarantine/ (held back: also the reasons),
                       failures/ (id, stage, error, hint), audit/ (one row per span, originals only
                       as keyed hashes) and run/ (the run record and counts, written last: a
                       folder without it is incomplete).
  text                 a folder of .txt notes (and .jsonl files), found as 'crfdeid deidentify'
                       finds them; OUTPUT holds NAME.txt per note, quarantine/, audit.jsonl and
                       failures.jsonl exactly as 'crfdeid deidentify' writes them (no manifest:
                       rerun with --overwrite). INPUT and OUTPUT must be on a file system every
                       executor mounts (local disk with local[N]; NFS, /dbfs or /Volumes).

Secrets: the key is read by every executor from $CRFDEID_KEY (spark.executorEnv.CRFDEID_KEY, or
the cluster's secret-backed environment variables) or from --key-file F, a path every executor
can read; never from the command line, never shipped in the job. The driver reads it too, to
check it, and each executor checks that it holds the same key. Without a key or --seed, a random
seed is drawn for the run. A --model folder, --policy and other files are shipped to the
executors with the job; the embedded model is inside the package every node installs.

Progress is Spark's own (the console progress bar, the Spark UI, the logs). Exit status as for
deidentify: 0 every note released; 3 some notes failed or were held back; 2 a usage error
before any work; 1 an internal error on some note.
"""

_SPARK_EPILOG = """\
examples:
  crfdeid spark notes/ out/ --master 'local[2]' --format text --seed 7
                                      a folder of .txt notes on 2 cores, as deidentify writes it
  CRFDEID_KEY=... crfdeid spark notes.parquet out/ --master 'local[2]'
                                      a Parquet table of (id, text) rows, keyed surrogates
  crfdeid spark notes.csv out/ --format csv --id-col note_id --text-col body --key-file /secrets/k
  spark-submit --master yarn $(which crfdeid) spark hdfs:///notes hdfs:///released --format parquet
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    sp = commands.add_parser(
        "spark", help="de-identify a table or folder of notes on Apache Spark (same output as deidentify)",
        description=_SPARK_DESCRIPTION, epilog=_SPARK_EPILOG, formatter_class=RAW)
    sp.add_argument("input", metavar="INPUT", help="a Parquet, CSV or JSONL table, or a folder of .txt notes")
    sp.add_argument("output", metavar="OUTPUT", help="the output folder (see above)")
    add_note_options(sp, local=False)
    run = sp.add_argument_group("the run")
    run.add_argument("--format", choices=("parquet", "csv", "jsonl", "text"), default=None,
                     help="format of INPUT and OUTPUT (default: guessed from INPUT)")
    run.add_argument("--master", default=None, metavar="URL",
                     help="Spark master, e.g. 'local[2]' (default: spark-submit's, else local[*])")
    run.add_argument("--id-col", default="id", metavar="NAME", help="column of the note ids (default: id)")
    run.add_argument("--text-col", default="text", metavar="NAME",
                     help="column of the note texts (default: text)")
    run.add_argument("--partitions", type=int, default=None, metavar="N",
                     help="repartition the notes into N tasks (default: a table's own partitions; "
                          "text: 4 per core, at most 2,000 notes each)")
    run.add_argument("--overwrite", action="store_true",
                     help="replace an earlier crfdeid spark run in OUTPUT")
    run.add_argument("--release-incomplete", action="store_true",
                     help="release notes that would be held back (rule timeouts, leftovers, PHI in the name)")
    add_input_options(sp)
    sp.set_defaults(handler=cmd_spark)


def session(master: str | None, quiet: bool):  # -> SparkSession, and whether this call started it
    """A Spark session for the run: crfdeid's key variable redacted from Spark's UI and logs,
    Arrow batches small enough for 10 MB notes."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise CrfdeidError("crfdeid spark needs pyspark", hint="pip install 'crfdeid[spark]' (and a Java "
                           "runtime: apt-get install default-jre-headless)") from None
    from ..spark import BATCH_ROWS, REDACTION_REGEX

    existing = SparkSession.getActiveSession()
    if master and master.startswith("local") and existing is None:
        # local workers run this Python (a venv's crfdeid, pandas, pyarrow), not the first python3
        # on PATH; on a cluster the executors' Python is the cluster's (PYSPARK_PYTHON)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("crfdeid spark")
    if master:
        builder = builder.master(master)
    builder = (builder.config("spark.sql.execution.arrow.maxRecordsPerBatch", str(BATCH_ROWS))
               .config("spark.redaction.regex", REDACTION_REGEX)
               .config("spark.ui.showConsoleProgress", "false" if quiet else "true"))
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # no Java, or a master that cannot be reached
        raise CrfdeidError(f"cannot start Spark: {str(exc).splitlines()[0]}",
                           hint="Spark needs a Java runtime (java on PATH or JAVA_HOME): "
                                "apt-get install default-jre-headless") from None
    spark.sparkContext.setLogLevel("ERROR" if quiet else "WARN")
    return spark, existing is None


def cmd_spark(args: argparse.Namespace) -> int:
    from ..deidentify import KEY_ENV
    from ..spark import SparkRun, guess_format, run_table, run_text, summary_line

    if args.partitions is not None and args.partitions < 1:
        raise CrfdeidError(f"--partitions must be at least 1, got {args.partitions}")
    fmt = args.format or guess_format(args.input)
    spec = replace(spec_from_args(args), key=None)  # checks the key; executors read their own
    key = args.key_file if args.key_file else ("env" if os.environ.get(KEY_ENV) else None)
    run = SparkRun(args.output, fmt, overwrite=args.overwrite, release_incomplete=args.release_incomplete,
                   encoding=args.encoding, max_bytes=args.max_bytes, id_col=args.id_col,
                   text_col=args.text_col, partitions=args.partitions)
    if fmt == "text" and "://" in args.output:
        raise CrfdeidError("--format text writes files through the local file system: OUTPUT must be a "
                           "path every executor mounts, not a URI", hint="use parquet, csv or jsonl")
    spark, started = session(args.master, args.quiet)

    def report(line: str) -> None:
        if not args.quiet:
            say(f"{PROG}: {line}")

    try:
        if fmt == "text":
            summary = run_text(spark, [args.input], spec, key, run, report)
        else:
            summary = run_table(spark, args.input, spec, key, run)
    finally:
        if started:
            spark.stop()
    print(f"{PROG}: {summary_line(summary, fmt)}", file=sys.stderr)
    return summary.exit_status
