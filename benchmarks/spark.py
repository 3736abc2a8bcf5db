"""The Spark engine against the local one: notes/s on the same notes, and whether the outputs agree.

    python benchmarks/spark.py [CORPUS] [--split dev] [--limit N] [--detector model|rules]
                               [--model DIR] [--warmup 50] [--out benchmarks/results/spark.json]

For each engine — ``crfdeid deidentify -j 1`` and ``-j 2`` (worker processes), ``crfdeid spark
--format text`` on ``local[1]`` and ``local[2]`` — two figures:

- **command**: the whole command in a fresh process, as a user runs it (the JVM start, the model
  load of every worker, listing, writing, the audit join);
- **warm**: the engine already up — a Spark session whose Python workers already hold the model
  (``run_text``), or ``run_batch`` with a Deidentifier already built — after a warm-up run on
  other notes (``--warmup`` notes of the train split, so no cache has seen the timed notes); this
  is what a long job approaches, where start-up is paid once per executor.

Every Spark output folder is compared byte for byte with ``deidentify``'s (notes, audit.jsonl,
failures.jsonl). The machine is shared: quote the ratios, not the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crfdeid.deidentify import DeidentifierSpec
from crfdeid.resources import meddocan_dir

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
SKIP = (".crfdeid-output", "manifest.jsonl")


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in SKIP}


def env() -> dict[str, str]:
    """Subprocesses (and Spark's Python workers) import this checkout's crfdeid."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(command, env=env(), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return seconds


def detector_args(args: argparse.Namespace) -> list[str]:
    if args.detector == "rules":
        return ["--rules-only"]
    return ["--model", str(args.model)] if args.model else []


def spec_of(args: argparse.Namespace) -> DeidentifierSpec:
    return DeidentifierSpec(rules_only=args.detector == "rules", model=args.model, seed=7)


def warm(master: str, work: Path, args: argparse.Namespace, expected: dict[str, bytes]) -> dict:
    """In this process: a warm-up run on other notes (the model loads in every Python worker),
    then the timed run on the notes."""
    from pyspark.sql import SparkSession

    from crfdeid.spark import BATCH_ROWS, SparkRun, run_text

    os.environ["PYTHONPATH"] = env()["PYTHONPATH"]  # the JVM (and its workers) inherit it
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(master).appName("crfdeid spark benchmark")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(BATCH_ROWS)).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    name = "".join(c for c in master if c.isalnum())
    try:
        started = time.perf_counter()
        run_text(spark, [str(work / "warmup")], spec_of(args), None,
                 SparkRun(str(work / f"wu-{name}"), "text"))
        first = time.perf_counter() - started
        out = work / f"warm-{name}"
        started = time.perf_counter()
        summary = run_text(spark, [str(work / "notes")], spec_of(args), None, SparkRun(str(out), "text"))
        seconds = time.perf_counter() - started
        if tree(out) != expected:
            raise SystemExit(f"warm run on {master}: output differs from deidentify's")
    finally:
        spark.stop()
    return {"warmup_run_s": first, "seconds": seconds, "notes": summary.notes}


def warm_local(work: Path, args: argparse.Namespace, expected: dict[str, bytes]) -> dict:
    """The local engine the same way: one Deidentifier, a warm-up batch, then the timed batch."""
    from crfdeid.batch import BatchOptions, run_batch
    from crfdeid.heap import freeze_loaded

    spec = spec_of(args)
    deidentifier = spec.build()
    freeze_loaded()
    run_batch([work / "warmup"], spec, BatchOptions(work / "wu-local"), deidentifier=deidentifier)
    started = time.perf_counter()
    summary = run_batch([work / "notes"], spec, BatchOptions(work / "warm-local"), deidentifier=deidentifier)
    seconds = time.perf_counter() - started
    if tree(work / "warm-local") != expected:
        raise SystemExit("warm local run: output differs from deidentify's")
    return {"seconds": seconds, "notes": summary.notes}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--split", default="dev")
    parser.add_argument("--limit", type=int, default=None, help="only the first N notes")
    parser.add_argument("--detector", choices=("model", "rules"), default="model")
    parser.add_argument("--model", default=None, help="a model folder (default: the embedded model)")
    parser.add_argument("--warmup", type=int, default=50, help="notes of the train split to warm up on")
    parser.add_argument("--warm-child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=SCRIPT.parent / "results" / "spark.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    if args.warm_child:  # one Spark session (or engine) per process, each from a fresh start
        master, work = args.warm_child
        expected = tree(Path(work) / "j1")
        row = warm_local(Path(work), args, expected) if master == "local" else \
            warm(master, Path(work), args, expected)
        print(json.dumps(row))
        return 0
    import pyspark

    report: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                "load_average_at_start": os.getloadavg(), "pyspark": pyspark.__version__,
                                "java": _java()},
                    "date": time.strftime("%Y-%m-%d"), "detector": args.detector, "split": args.split}
    work = Path(tempfile.mkdtemp(prefix="crfdeid-spark-bench-"))
    try:
        src = work / "notes"
        src.mkdir()
        for path in sorted((args.corpus / args.split).glob("*.txt"))[:args.limit]:
            shutil.copy(path, src / path.name)
        n = len(list(src.glob("*.txt")))
        warmup = work / "warmup"
        warmup.mkdir()
        for path in sorted((args.corpus / "train").glob("*.txt"))[:args.warmup]:
            shutil.copy(path, warmup / path.name)
        report["notes"] = n
        extra = [*detector_args(args), "--seed", "7"]
        base = [sys.executable, "-m", "crfdeid", "-q"]
        command: dict[str, dict] = {}
        for jobs in (1, 2):
            seconds = timed([*base, "deidentify", str(src), "-o", str(work / f"j{jobs}"), "-j", str(jobs),
                             *extra])
            command[f"deidentify -j {jobs}"] = {"seconds": seconds, "notes_per_s": n / seconds}
        expected = tree(work / "j1")
        same = {"deidentify -j 2": tree(work / "j2") == expected}
        for cores in (1, 2):
            out = work / f"spark{cores}"
            seconds = timed([*base, "spark", str(src), str(out), "--format", "text", "--master",
                             f"local[{cores}]", *extra])
            command[f"spark local[{cores}]"] = {"seconds": seconds, "notes_per_s": n / seconds}
            same[f"spark local[{cores}]"] = tree(out) == expected
        report["command"] = command
        report["identical_to_deidentify_j1"] = same
        warm_runs = {}
        for engine, master in (("deidentify -j 1", "local"), ("spark local[1]", "local[1]"),
                               ("spark local[2]", "local[2]")):
            model = ["--model", args.model] if args.model else []
            child = subprocess.run([sys.executable, str(SCRIPT), str(args.corpus), "--split", args.split,
                                    "--detector", args.detector, *model, "--warm-child", master, str(work)],
                                   env=env(), capture_output=True, text=True)
            if child.returncode != 0:
                raise SystemExit(child.stderr[-3000:])
            row = json.loads(child.stdout.strip().splitlines()[-1])
            row["notes_per_s"] = n / row["seconds"]
            warm_runs[engine] = row
        report["warm"] = warm_runs
        report["load_average_at_end"] = os.getloadavg()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name, row in report["command"].items():
        print(f"command  {name:<18} {row['seconds']:7.1f} s  {row['notes_per_s']:6.1f} notes/s")
    for name, row in report["warm"].items():
        print(f"warm     {name:<18} {row['seconds']:7.1f} s  {row['notes_per_s']:6.1f} notes/s")
    w = report["warm"]
    c = report["command"]
    report["warm_scaling_local2_over_local1"] = (w["spark local[2]"]["notes_per_s"]
                                                 / w["spark local[1]"]["notes_per_s"])
    report["warm_spark1_over_local"] = (w["spark local[1]"]["notes_per_s"]
                                        / w["deidentify -j 1"]["notes_per_s"])
    report["command_scaling_j2_over_j1"] = (c["deidentify -j 2"]["notes_per_s"]
                                            / c["deidentify -j 1"]["notes_per_s"])
    print(f"warm, one core: spark local[1] / deidentify x{report['warm_spark1_over_local']:.2f}")
    print(f"scaling: spark local[2]/local[1] (warm) x{report['warm_scaling_local2_over_local1']:.2f}; "
          f"deidentify -j 2/-j 1 x{report['command_scaling_j2_over_j1']:.2f}")
    print(f"byte-identical to deidentify -j 1: {report['identical_to_deidentify_j1']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def _java() -> str:
    try:
        proc = subprocess.run(["java", "-version"], capture_output=True, text=True)
        return (proc.stderr or proc.stdout).splitlines()[0]
    except (OSError, IndexError):
        return "none"


if __name__ == "__main__":
    sys.exit(main())
