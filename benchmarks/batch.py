"""The batch runner of ``crfdeid deidentify``: its cost, its memory, its workers and its crash safety.

    python benchmarks/batch.py [CORPUS] [--split dev] [--detector rules|model] [--repeat 3]
                               [--memory 1000,20000] [--kill-trials 10] [--jobs]
                               [--out benchmarks/results/batch.json]

Four figures, each measured the way a hospital runs the tool:

- **overhead**: notes/s of ``run_batch`` over the split (reading, de-identifying, writing each
  note atomically with fsync, audit and manifest appends) against a bare loop of
  ``Deidentifier.deidentify_note`` over the same texts, timed in the same process, interleaved,
  best of ``--repeat`` rounds; the ratio is what the runner costs;
- **memory**: peak RSS (VmHWM) of a fresh process de-identifying N short notes for each N of
  ``--memory`` with the rules; the growth per note is what the runner keeps per note;
- **workers** (``--jobs``): notes/s with ``-j 1`` and ``-j 2`` in fresh processes, and whether the
  two outputs are byte-identical;
- **kill -9** (``--kill-trials K``): K runs killed with SIGKILL at a random moment, each resumed
  with ``--resume`` and compared byte for byte with an uninterrupted run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crfdeid.batch import BatchOptions, run_batch
from crfdeid.deidentify import DeidentifierSpec
from crfdeid.resources import meddocan_dir
from crfdeid.types import Document

SCRIPT = Path(__file__).resolve()


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def notes_folder(corpus: Path, split: str, target: Path) -> list[str]:
    """The split's .txt notes copied into ``target`` (no .ann: detection runs for real)."""
    target.mkdir(parents=True, exist_ok=True)
    texts = []
    for path in sorted((corpus / split).glob("*.txt")):
        shutil.copy(path, target / path.name)
        texts.append(path.read_text(encoding="utf-8"))
    return texts


def spec_for(detector: str) -> DeidentifierSpec:
    return DeidentifierSpec(rules_only=detector == "rules", seed=7)


def overhead(corpus: Path, split: str, detector: str, repeat: int, work: Path) -> dict:
    src = work / "notes"
    texts = notes_folder(corpus, split, src)
    spec = spec_for(detector)
    deid = spec.build()
    docs = [Document(f"n{i}", t) for i, t in enumerate(texts)]
    bare, batch = float("inf"), float("inf")
    for r in range(repeat):
        started = time.perf_counter()
        for doc in docs:
            deid.deidentify_note(doc)
        bare = min(bare, time.perf_counter() - started)
        out = work / f"out{r}"
        started = time.perf_counter()
        run_batch([src], spec, BatchOptions(out), deidentifier=deid)
        batch = min(batch, time.perf_counter() - started)
        shutil.rmtree(out)
    n = len(docs)
    return {"notes": n, "bare_notes_per_s": n / bare, "batch_notes_per_s": n / batch,
            "batch_over_bare": bare / batch}


def memory_child(n: int, work: str) -> None:
    """In a fresh process: de-identify n short notes with the rules, print VmHWM in MB."""
    src = Path(work) / f"mem{n}"
    src.mkdir(parents=True)
    rng = random.Random(n)
    for i in range(n):
        sub = src / f"d{i // 1000:03d}"
        sub.mkdir(exist_ok=True)
        (sub / f"n{i:06d}.txt").write_text(
            f"Nombre: Paciente {i}.\nNHC: {rng.randint(10**6, 10**7)}.\nIngresa el {1 + i % 28}/03/2019.\n",
            encoding="utf-8")
    summary = run_batch([src], spec_for("rules"), BatchOptions(Path(work) / f"memout{n}"))
    assert summary.released + summary.held == n, summary
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            print(json.dumps({"notes": n, "vmhwm_mb": int(line.split()[1]) / 1024,
                              "seconds": summary.seconds}))


def memory(sizes: list[int], work: Path) -> list[dict]:
    out = []
    for n in sizes:
        proc = subprocess.run([sys.executable, str(SCRIPT), "--memory-child", str(n), str(work)],
                              capture_output=True, text=True, check=True)
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "crfdeid", "-q", "deidentify", *args]


def workers(src: Path, detector: str, work: Path) -> dict:
    extra = ["--rules-only"] if detector == "rules" else []
    result = {}
    for jobs in (1, 2):
        out = work / f"j{jobs}"
        started = time.perf_counter()
        subprocess.run(cli(str(src), "-o", str(out), "--seed", "7", "-j", str(jobs), *extra),
                       capture_output=True, check=False)
        result[f"j{jobs}_notes_per_s"] = len(list(src.glob("*.txt"))) / (time.perf_counter() - started)
    result["identical"] = tree(work / "j1") == tree(work / "j2")
    return result


def kill_trials(src: Path, detector: str, trials: int, work: Path) -> dict:
    extra = ["--rules-only"] if detector == "rules" else []
    reference = work / "reference"
    started = time.perf_counter()
    subprocess.run(cli(str(src), "-o", str(reference), "--seed", "7", *extra), capture_output=True)
    full = time.perf_counter() - started
    expected = tree(reference)
    rng = random.Random(2026)
    identical, done_at_kill, leftovers = 0, [], 0
    for trial in range(trials):
        out = work / f"killed{trial}"
        proc = subprocess.Popen(cli(str(src), "-o", str(out), "--seed", "7", *extra),
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, full))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        manifest = out / "manifest.jsonl"
        done_at_kill.append(len(manifest.read_bytes().splitlines()) if manifest.exists() else 0)
        leftovers += sum(1 for p in out.rglob("*") if "tmp" in p.name) if out.exists() else 0
        subprocess.run(cli(str(src), "-o", str(out), "--seed", "7", "--resume", *extra),
                       capture_output=True)
        identical += tree(out) == expected
    return {"trials": trials, "identical_after_resume": identical, "notes_done_when_killed": done_at_kill,
            "temporary_files_left_in_out_dir": leftovers}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--split", default="dev")
    parser.add_argument("--detector", choices=("rules", "model"), default="model")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory", default="1000,20000",
                        help="note counts for the memory figure ('' to skip)")
    parser.add_argument("--kill-trials", type=int, default=10)
    parser.add_argument("--jobs", action="store_true", help="also time -j 1 against -j 2")
    parser.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=SCRIPT.parent / "results" / "batch.json")
    args = parser.parse_args()
    if args.memory_child:
        memory_child(int(args.memory_child[0]), args.memory_child[1])
        return 0
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    report: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
                    "date": time.strftime("%Y-%m-%d"), "detector": args.detector, "split": args.split}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        report["overhead"] = overhead(args.corpus, args.split, args.detector, args.repeat, work / "o")
        print(f"overhead ({args.detector}, {report['overhead']['notes']} notes): bare loop "
              f"{report['overhead']['bare_notes_per_s']:.1f} notes/s, run_batch "
              f"{report['overhead']['batch_notes_per_s']:.1f} notes/s "
              f"(ratio {report['overhead']['batch_over_bare']:.3f})")
        src = work / "o" / "notes"
        if args.memory:
            sizes = [int(x) for x in args.memory.split(",") if x]
            report["memory"] = memory(sizes, work / "m")
            for row in report["memory"]:
                print(f"memory: {row['notes']:>6} notes -> VmHWM {row['vmhwm_mb']:.0f} MB "
                      f"({row['notes'] / row['seconds']:.0f} notes/s)")
            if len(report["memory"]) >= 2:
                a, b = report["memory"][0], report["memory"][-1]
                per_note = (b["vmhwm_mb"] - a["vmhwm_mb"]) * 1024 * 1024 / (b["notes"] - a["notes"])
                report["memory_growth_bytes_per_note"] = per_note
                print(f"memory growth: {per_note:.0f} bytes per note")
        if args.jobs:
            report["workers"] = workers(src, args.detector, work / "w")
            print(f"workers: -j 1 {report['workers']['j1_notes_per_s']:.1f} notes/s, -j 2 "
                  f"{report['workers']['j2_notes_per_s']:.1f} notes/s (whole command, model load included); "
                  f"identical output: {report['workers']['identical']}")
        if args.kill_trials:
            report["kill"] = kill_trials(src, args.detector, args.kill_trials, work / "k")
            k = report["kill"]
            print(f"kill -9: {k['identical_after_resume']}/{k['trials']} resumed runs byte-identical to an "
                  f"uninterrupted run (killed after {k['notes_done_when_killed']} notes); temporary files "
                  f"left in OUT_DIR: {k['temporary_files_left_in_out_dir']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
