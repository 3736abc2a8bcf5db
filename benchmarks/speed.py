"""Speed: crfdeid against a plain sklearn-crfsuite tagger on the same notes, in one process.

    python benchmarks/speed.py [CORPUS] [--chunks 5] [--plain-model FILE] [--jobs]
                               [--train] [--cv] [--out benchmarks/results/speed.json]

On MEDDOCAN dev (250 notes, ~560 tokens each), in ONE process, one core, each system seeing
each note once (after a warm-up on ``--warm-up`` train notes), the notes in ``--chunks`` parts
that the systems take in turns (so a noisy spell slows them alike):

- **plain**: the plain tagger of ``benchmarks/plain_crf.py`` (tutorial features, ±2 window,
  python-crfsuite tagging feature strings), trained on MEDDOCAN train once and kept in
  ``--plain-model`` (trained there if the file is missing: ~4 min);
- **detection**: crfdeid's ``Pipeline.run`` with the embedded model (rules, features, compiled
  scorer, merge) — what ``crfdeid annotate`` does per note;
- **deidentify**: ``Deidentifier.deidentify_note`` — detection, pseudonymisation and the release
  checks, what ``crfdeid deidentify`` does per note;
- **pseudonymise**: the pseudonymiser alone on the gold spans;
- **detection, numpy decoder**: the same with the numba kernels off (the reference they replace).

Each in notes/s and tokens/s, and as a ratio to the plain tagger — the figure that counts on a
noisy machine (the issue's target: deidentify ≥ 3.4x the plain tagger). After timing, the
detection spans of every note are checked to be identical with the kernels on and off.

In fresh processes: the model load (``Deidentifier()`` and a first note) and peak RSS while
de-identifying the 250 notes; with ``--jobs``, ``crfdeid deidentify -j 1`` and ``-j 2`` over the
train+dev notes (wall time, load included) and whether their outputs are identical; with
``--train``, ``crfdeid train`` on train+dev; with ``--cv``, ``crfdeid cv --folds 5 -j 2`` on train+dev.
Results are merged into ``--out`` (a figure not measured this run keeps its last value, with
the commit it was measured at).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plain_crf import PlainTagger  # benchmarks/ on sys.path
from timing import commit

from crfdeid import kernels
from crfdeid.deidentify import Deidentifier
from crfdeid.heap import freeze_loaded
from crfdeid.io.corpus import load_corpus
from crfdeid.pipeline import load_pipeline
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.resources import meddocan_dir
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "crfdeid"]


def plain_tagger(corpus: Path, path: Path) -> PlainTagger:
    if path.exists():
        return PlainTagger.load(path)
    print(f"training the plain tagger on {corpus / 'train'} (once; kept in {path}) …", flush=True)
    tagger = PlainTagger().fit(load_corpus([corpus / "train"]).values())
    path.parent.mkdir(parents=True, exist_ok=True)
    return PlainTagger.load(tagger.save(path))


def interleaved(systems: dict[str, tuple], chunks: int) -> dict[str, float]:
    """Seconds per system (``name -> (function, items)``) to process its items once, in
    ``chunks`` interleaved parts: every system does part 1, then every system part 2… so that
    a noisy spell of the machine slows all of them alike. Each note is seen once: crfdeid's
    caches by word type carry over from the notes before, as in a batch, but never hold the
    note being timed (best-of-rounds over the same notes would time a warm cache)."""
    total = dict.fromkeys(systems, 0.0)
    for part in range(chunks):
        for name, (fn, items) in systems.items():
            started = time.perf_counter()
            for item in items[part::chunks]:
                fn(item)
            total[name] += time.perf_counter() - started
    return total


def fresh_process(corpus: Path) -> dict:
    """Load time (Deidentifier() and a first short note) and peak RSS over the dev notes, in a
    fresh process (VmHWM: nothing of this process counted)."""
    code = (
        "import time\n"
        "t = time.perf_counter()\n"
        "from crfdeid.deidentify import Deidentifier\n"
        "from crfdeid.types import Document\n"
        "d = Deidentifier()\n"
        "d.deidentify_note(Document('warm', 'Paciente: Ana López, 45 años.'))\n"
        "load = time.perf_counter() - t\n"
        "from crfdeid.io.corpus import load_corpus\n"
        f"for doc in load_corpus([{str(corpus / 'dev')!r}]).values():\n"
        "    d.deidentify_note(Document(doc.id, doc.text))\n"
        "status = {l.split(':')[0]: l.split()[1] for l in open('/proc/self/status')\n"
        "          if l.startswith(('VmHWM:', 'RssAnon:', 'RssFile:'))}\n"
        "print(load, status['VmHWM'], status['RssAnon'], status['RssFile'])\n"
    )
    loads, peaks, anon, files = [], [], [], []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        load, peak, private, mapped = out.stdout.split()
        loads.append(float(load))
        peaks.append(int(peak) / 1024)
        anon.append(int(private) / 1024)
        files.append(int(mapped) / 1024)
    # RssFile is mostly shared libraries (numba's LLVM: ~120 MB), shared by every worker process
    return {"model_load_seconds": min(loads), "model_load_seconds_all": loads, "peak_rss_mb": max(peaks),
            "rss_private_mb": max(anon), "rss_file_backed_mb": max(files)}


def batch_jobs(corpus: Path) -> dict:
    """``crfdeid deidentify -j N`` wall time (load included) for N = 1, 2 over train+dev (750
    notes: enough that loading the model once per worker does not dominate), outputs compared."""
    result: dict = {}
    folders = [str(corpus / "train"), str(corpus / "dev")]
    notes = sum(len(list(Path(f).glob("*.txt"))) for f in folders)
    with tempfile.TemporaryDirectory(prefix="speed-jobs-") as tmp:
        outputs = {}
        for jobs in (1, 2):
            out = Path(tmp) / f"j{jobs}"
            started = time.perf_counter()
            subprocess.run([*CLI, "deidentify", *folders, "-o", str(out), "--seed", "7",
                            "-j", str(jobs)], check=False, capture_output=True)
            seconds = time.perf_counter() - started
            result[f"deidentify_j{jobs}_notes_per_s"] = notes / seconds
            outputs[jobs] = {p.relative_to(out).as_posix(): p.read_bytes()
                             for p in sorted(out.rglob("*.txt"))}
        result["jobs_notes"] = notes
        result["j1_j2_identical"] = outputs[1] == outputs[2]
    return result


def train_seconds(corpus: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="speed-train-") as tmp:
        started = time.perf_counter()
        subprocess.run([*CLI, "train", str(corpus / "train"), str(corpus / "dev"), "-o", f"{tmp}/m"],
                       check=True, capture_output=True)
        return {"train_seconds": time.perf_counter() - started,
                "train_command": "crfdeid train CORPUS/train CORPUS/dev -o M"}


def cv_minutes(corpus: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="speed-cv-") as tmp:
        started = time.perf_counter()
        out = subprocess.run([*CLI, "cv", str(corpus / "train"), str(corpus / "dev"), "--folds", "5",
                              "-j", "2", "-o", f"{tmp}/cv.json"], check=True, capture_output=True, text=True)
        figures = json.loads(Path(f"{tmp}/cv.json").read_text())["summary"]
        return {"cv_minutes": (time.perf_counter() - started) / 60,
                "cv_ner_f1": figures["ner.f1"]["mean"],
                "cv_command": "crfdeid cv CORPUS/train CORPUS/dev --folds 5 -j 2",
                "cv_stdout_tail": out.stdout.strip().splitlines()[-1:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--chunks", type=int, default=5, help="interleaved parts of the dev notes")
    parser.add_argument("--warm-up", type=int, default=50, help="train notes run by each system first")
    cache = Path(tempfile.gettempdir()) / "crfdeid-bench"
    parser.add_argument("--plain-model", type=Path, default=cache / "plain-meddocan-train.crfsuite")
    parser.add_argument("--jobs", action="store_true", help="also time crfdeid deidentify -j 1 and -j 2")
    parser.add_argument("--train", action="store_true", help="also time crfdeid train on train+dev")
    parser.add_argument("--cv", action="store_true", help="also time a 5-fold CV with -j 2")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "speed.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / "dev").is_dir():
        print("speed.py: no MEDDOCAN corpus (pass its folder, holding train/ and dev/)", file=sys.stderr)
        return 2
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    gold = list(load_corpus([args.corpus / "dev"]).values())
    notes = [Document(d.id, d.text) for d in gold]
    tokens = sum(len(tokenize(d.text)) for d in notes)
    plain = plain_tagger(args.corpus, args.plain_model)
    pipeline = load_pipeline()
    crf = pipeline.tagger.compiled
    deidentifier = Deidentifier()
    pseudonymiser = Pseudonymiser(seed=1)

    reference = load_pipeline()  # its own caches: it must not time notes the other saw
    reference.tagger.compiled.kernels = False

    systems = {
        "plain": (plain.tag, notes),
        "detection": (pipeline.run, notes),
        "deidentify": (deidentifier.deidentify_note, notes),
        "pseudonymise": (pseudonymiser.pseudonymise, gold),
    }
    if kernels.AVAILABLE:
        systems["detection_numpy_decoder"] = (reference.run, notes)
    warm = list(load_corpus([args.corpus / "train"]).values())[: args.warm_up]
    for fn, items in systems.values():
        for doc in warm if items is gold else [Document(d.id, d.text) for d in warm]:
            fn(doc)
    freeze_loaded()  # as the CLI and its workers do once the model is loaded
    best = interleaved(systems, args.chunks)
    # exactness, after the timing (before it, the dev notes would be in the caches timed):
    # the kernels give the numpy decoder's spans on every note
    with_kernels = [pipeline.run(d).spans for d in notes]
    crf.kernels = False
    without = [pipeline.run(d).spans for d in notes]
    crf.kernels = True
    same = [tuple((s.start, s.end, s.label) for s in a) == tuple((s.start, s.end, s.label) for s in b)
            for a, b in zip(with_kernels, without, strict=True)]
    n = len(notes)
    figures: dict = {"documents": n, "tokens": tokens, "tokens_per_note": tokens / n,
                     "kernels": kernels.AVAILABLE, "spans_identical_numpy_vs_kernels": all(same)}
    for name, seconds in best.items():
        figures[f"{name}_notes_per_s"] = n / seconds
        figures[f"{name}_tokens_per_s"] = tokens / seconds
        figures[f"{name}_vs_plain"] = best["plain"] / seconds
    print(f"{n} MEDDOCAN dev notes, {tokens / n:.0f} tokens each, each seen once per system "
          f"(in {args.chunks} interleaved parts, after {len(warm)} train notes)")
    print(f"{'':28}{'notes/s':>10}{'tokens/s':>12}{'vs plain':>10}")
    for name in best:
        print(f"{name:28}{figures[name + '_notes_per_s']:10.1f}{figures[name + '_tokens_per_s']:12.0f}"
              f"{figures[name + '_vs_plain']:9.2f}x")
    print(f"detection spans identical with and without the kernels: {all(same)}")

    fresh = fresh_process(args.corpus)
    figures.update(fresh)
    print(f"model load (fresh process, Deidentifier() + a first note): {fresh['model_load_seconds']:.2f} s; "
          f"peak RSS de-identifying dev: {fresh['peak_rss_mb']:.0f} MB (at the end: "
          f"{fresh['rss_private_mb']:.0f} MB private, {fresh['rss_file_backed_mb']:.0f} MB mapped files)")
    if args.jobs:
        figures.update(batch_jobs(args.corpus))
        print(f"crfdeid deidentify (load included): -j 1 {figures['deidentify_j1_notes_per_s']:.1f} "
              f"notes/s, -j 2 {figures['deidentify_j2_notes_per_s']:.1f} notes/s; "
              f"identical: {figures['j1_j2_identical']}")
    if args.train:
        figures.update(train_seconds(args.corpus))
        print(f"crfdeid train on train+dev: {figures['train_seconds']:.0f} s")
    if args.cv:
        figures.update(cv_minutes(args.corpus))
        print(f"crfdeid cv --folds 5 -j 2 on train+dev: {figures['cv_minutes']:.1f} min, "
              f"ner F1 {figures['cv_ner_f1']:.4f}")

    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    at = commit()
    measured = {k: {"value": v, "commit": at} for k, v in figures.items()}
    merged = {**previous.get("figures", {}), **measured}
    machine = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
               "load": os.getloadavg()}
    args.out.write_text(json.dumps({"machine": machine, "figures": merged}, indent=1) + "\n")
    print(f"-> {args.out}")
    return 0 if all(same) else 1


if __name__ == "__main__":
    sys.exit(main())
