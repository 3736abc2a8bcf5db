"""Rules-only benchmark: per-label P/R/F1 and speed of a rule pack on MEDDOCAN dev; long notes.

    python benchmarks/rules.py [CORPUS] [--split dev] [--pack es] [--repeat 5]
                               [--out benchmarks/results/rules.json]
    python benchmarks/rules.py --long [CORPUS] [--out-long benchmarks/results/rules_long.json]

Quality: the pack's spans alone, scored exactly as ``crfdeid evaluate`` scores them (subtrack 1,
exact label and offsets), per label the pack emits. The same figures come from

    crfdeid annotate CORPUS/dev -o /tmp/rules_dev --rules-only
    crfdeid evaluate CORPUS/dev /tmp/rules_dev

Speed: milliseconds per note (and documents per second) of ``RuleEngine.run`` on one core
(this script is single threaded), best of ``--repeat`` passes over the split, reading and writing
excluded. Because these machines are noisy, the same process times, round by round with it (a
burst of load slows all alike), a reference — the crfdeid tokenizer over the same texts — and
the figure to compare across machines is the ratio to that reference. The same rounds time the
engine without its prefilters (``RuleEngine(..., prefilter=False)``: every rule searched at every
position, as before issue 14), for the speed-up they bring with the same matches.

Long notes (``--long``): the pack over a 9 MiB note (the dev notes joined by newlines, repeated)
and over a 1 MiB single line (the dev notes with their line breaks turned into spaces, joined
by spaces), each in a fresh process: CPU and wall seconds, MiB/s, peak resident memory (VmHWM
from /proc/self/status) and rule timeouts (the default budget; there must be none). The same
process first runs a 300 KB document of the same kind: the ratio of the two speeds shows
whether the cost is linear (1.0) or grows with the length. A third process times the chunk
sizes on the dev set as one document (round-robin, best of --repeat, CPU time) — the figures
behind ``crfdeid.rules.chunks.CHUNK_SIZE``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from timing import best_seconds  # benchmarks/timing.py

from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_annotations
from crfdeid.resources import meddocan_dir
from crfdeid.rules import CHUNK_SIZE, DEFAULT_TIMEOUT, RuleEngine
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

MIB = 1 << 20
LONG_CASES = {"note-9mib": 9 * MIB, "line-1mib": 1 * MIB}
REFERENCE_BYTES = 300_000
CHUNK_SIZES = (1024, 2048, 4096, 8192, 16384, 65536)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, allow_abbrev=False,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir(),
                        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)")
    parser.add_argument("--split", default="dev",
                        help="split to score (default: dev; train is for development)")
    parser.add_argument("--pack", default="es", help="rule pack: language code, folder or .yaml file")
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds (default: 7)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "rules.json")
    parser.add_argument("--long", action="store_true",
                        help="time a 9 MiB note, a 1 MiB line (fresh processes) and the chunk sizes")
    parser.add_argument("--out-long", type=Path,
                        default=Path(__file__).parent / "results" / "rules_long.json")
    parser.add_argument("--child", choices=(*LONG_CASES, "chunk-sizes"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("skipped: MEDDOCAN corpus not found (pass its folder or set CRFDEID_MEDDOCAN)", file=sys.stderr)
        return 0
    if args.child:
        texts = dev_texts(args.corpus)
        if args.child == "chunk-sizes":
            figures = chunk_sizes(texts, args.repeat)
        else:
            figures = long_case(args.child, texts)
        print(json.dumps(figures))
        return 0
    if args.long:
        return run_long(args)

    gold = load_annotations(args.corpus / args.split)
    engine = RuleEngine.from_pack(args.pack)
    docs = list(gold.values())
    results = {doc.id: engine.run(doc) for doc in docs}
    system = {doc.id: doc.with_spans(results[doc.id].spans) for doc in docs}
    scores = evaluate(gold, system).to_dict()
    labels = sorted({rule.label for rule in engine.rules})
    per_label = {label: scores["per_label"][label] for label in labels if label in scores["per_label"]}
    timeouts = [t for r in results.values() for t in r.timeouts]

    plain = RuleEngine(engine.rules, prefilter=False, scheme=engine.scheme)
    assert all(plain.run(d).matches == results[d.id].matches for d in docs), "prefilters changed a match"
    best = interleaved({"rules": (engine.run, docs), "rules_without_prefilters": (plain.run, docs),
                        "tokenizer": (tokenize, [d.text for d in docs])}, args.repeat)
    seconds, ref_seconds = best["rules"], best["tokenizer"]
    rate, ref_rate = len(docs) / seconds, len(docs) / ref_seconds
    ms, plain_ms = 1000 * seconds / len(docs), 1000 * best["rules_without_prefilters"] / len(docs)

    print(f"{args.split}: {len(docs)} documents, {len(engine.rules)} rules "
          f"({sum(len(d.text) for d in docs):,} characters)")
    print(f"{'label':34} {'precision':>9} {'recall':>7} {'f1':>7} {'tp':>5} {'fp':>4} {'fn':>5}")
    for label, row in per_label.items():
        print(f"{label:34} {row['precision']:9.3f} {row['recall']:7.3f} {row['f1']:7.3f} "
              f"{row['tp']:5} {row['fp']:4} {row['fn']:5}")
    ner = scores["ner"]
    print(f"all labels (rules cover only some): P {ner['precision']:.3f} R {ner['recall']:.3f} "
          f"F1 {ner['f1']:.3f}")
    print(f"speed: {ms:.3f} ms per note, {rate:,.0f} documents/s on one core (best of {args.repeat} "
          f"interleaved rounds); reference tokenizer {ref_rate:,.0f} documents/s; "
          f"ratio {rate / ref_rate:.3f}; rule timeouts: {len(timeouts)}")
    print(f"without prefilters (same matches, same rounds): {plain_ms:.3f} ms per note; "
          f"prefilters {plain_ms / ms:.2f}x faster")

    report = {
        "benchmark": "rules", "split": args.split, "pack": args.pack, "documents": len(docs),
        "rules": len(engine.rules), "per_label": per_label, "ner": ner,
        "ms_per_document": ms, "documents_per_second": rate,
        "reference_tokenizer_documents_per_second": ref_rate, "ratio_to_reference": rate / ref_rate,
        "without_prefilters_ms_per_document": plain_ms, "prefilter_speedup": plain_ms / ms,
        "characters_per_document": sum(len(d.text) for d in docs) / len(docs),
        "timeouts": len(timeouts), "repeat": args.repeat, "timing": "best of interleaved rounds, one process",
        "python": platform.python_version(), "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written: {args.out}")
    return 0


def interleaved(systems: dict[str, tuple[Callable[[Any], Any], list]], repeat: int) -> dict[str, float]:
    """Best seconds of each system over its items, ``repeat`` rounds of every system in turn."""
    best = dict.fromkeys(systems, float("inf"))
    for fn, items in systems.values():
        for item in items[:20]:
            fn(item)  # warm caches
    gc.collect()
    gc.freeze()  # the corpus lives on: the collector need not walk it while timing allocates
    try:
        for _ in range(repeat):
            for name, (fn, items) in systems.items():
                best[name] = min(best[name], best_seconds(fn, items, 1))
    finally:
        gc.unfreeze()
    return best


def dev_texts(corpus: Path) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((corpus / "dev").glob("*.txt"))]


def long_text(kind: str, texts: list[str], size: int) -> str:
    """At least ``size`` UTF-8 bytes of dev notes: joined by newlines, or as one line of words."""
    if kind.startswith("note"):
        pieces, total = [], 0
        while total < size:  # whole notes, in order, starting again after the last one
            pieces.append(texts[len(pieces) % len(texts)])
            total += len(pieces[-1].encode("utf-8")) + 1
        return "\n".join(pieces)
    words = " ".join(" ".join(text.split()) for text in texts)
    line = " ".join([words] * (size // len(words.encode("utf-8")) + 1))
    cut = line.encode("utf-8")[:size].decode("utf-8", errors="ignore")
    return cut[:cut.rfind(" ")]


def vm_hwm_mib() -> float:
    """Peak resident memory of this process so far (Linux), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def timed_run(engine: RuleEngine, text: str) -> dict:
    started_cpu, started_wall = time.thread_time(), time.perf_counter()
    result = engine.run(Document("long", text))
    cpu, wall = time.thread_time() - started_cpu, time.perf_counter() - started_wall
    size = len(text.encode("utf-8"))
    return {"bytes": size, "characters": len(text), "cpu_seconds": round(cpu, 3),
            "wall_seconds": round(wall, 3), "mib_per_cpu_second": round(size / MIB / cpu, 3),
            "matches": len(result.matches), "timeouts": len(result.timeouts)}


def long_case(case: str, texts: list[str]) -> dict:
    """One long document and its 300 KB reference, timed in this (fresh) process."""
    engine = RuleEngine.from_pack("es")
    reference = timed_run(engine, long_text(case, texts, REFERENCE_BYTES))
    text = long_text(case, texts, LONG_CASES[case])
    before = vm_hwm_mib()
    figures = timed_run(engine, text)
    figures.update(vm_hwm_mib_before=round(before, 1), vm_hwm_mib=round(vm_hwm_mib(), 1),
                   lines=text.count("\n") + 1, reference_300kb=reference,
                   speed_ratio_to_reference=round(figures["mib_per_cpu_second"]
                                                  / reference["mib_per_cpu_second"], 3))
    return figures


def chunk_sizes(texts: list[str], repeat: int) -> dict:
    """CPU seconds of the pack on the dev set as one document, per chunk size (best of ``repeat``)."""
    rules = RuleEngine.from_pack("es").rules
    document = Document("dev", "\n".join(texts))
    best = dict.fromkeys(CHUNK_SIZES, float("inf"))
    for _ in range(repeat):  # round-robin, so that a noisy minute hurts every size alike
        for size in CHUNK_SIZES:
            engine = RuleEngine(rules, chunk_size=size)
            started = time.thread_time()
            engine.run(document)
            best[size] = min(best[size], time.thread_time() - started)
    fastest = min(best.values())
    return {str(size): {"cpu_seconds": round(s, 3), "ratio_to_fastest": round(s / fastest, 3)}
            for size, s in best.items()}


def _child(args: argparse.Namespace, which: str) -> dict:
    command = [sys.executable, __file__, str(args.corpus), "--child", which, "--repeat", str(args.repeat)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def run_long(args: argparse.Namespace) -> int:
    cases = {case: _child(args, case) for case in LONG_CASES}
    sizes = _child(args, "chunk-sizes")
    for case, f in cases.items():
        ref = f["reference_300kb"]
        print(f"{case}: {f['bytes'] / MIB:.1f} MiB, {f['lines']:,} line(s): {f['cpu_seconds']:.1f} s CPU "
              f"({f['wall_seconds']:.1f} s wall), {f['mib_per_cpu_second']:.2f} MiB/s, VmHWM "
              f"{f['vm_hwm_mib']:.0f} MiB ({f['vm_hwm_mib_before']:.0f} before the run), "
              f"{f['timeouts']} timeouts, {f['matches']:,} matches; 300 KB in the same process "
              f"{ref['mib_per_cpu_second']:.2f} MiB/s: ratio {f['speed_ratio_to_reference']:.2f}")
    print("chunk sizes (dev as one document, CPU s): " + ", ".join(
        f"{size} {v['cpu_seconds']:.2f} ({v['ratio_to_fastest']:.2f}x)" for size, v in sizes.items()))
    report = {
        "benchmark": "rules-long", "pack": "es", "chunk_size": CHUNK_SIZE, "timeout_seconds": DEFAULT_TIMEOUT,
        "cases": cases, "chunk_sizes": sizes, "repeat": args.repeat,
        "python": platform.python_version(), "machine": platform.machine(), "cpu": _cpu(),
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out_long.parent.mkdir(parents=True, exist_ok=True)
    args.out_long.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written: {args.out_long}")
    return 1 if any(f["timeouts"] for f in cases.values()) else 0


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    sys.exit(main())
