"""Long notes: time and peak memory of detection and de-identification on one very long note.

    python benchmarks/long_notes.py [CORPUS] [--sizes 1,3,9] [--line-sizes 1]
                                    [--no-deidentify] [--no-joins]
                                    [--out benchmarks/results/long_notes.json]

Two shapes of note are built in memory from the MEDDOCAN dev notes (never written anywhere):

- ``lines``: the dev notes concatenated (and repeated) up to SIZE MB, line breaks kept;
- ``line``: the dev notes with every run of whitespace made one space and joined by spaces: a
  single line of SIZE MB.

Each (shape, size, stage) runs in a fresh Python process, so that its peak memory (``VmHWM``
from ``/proc/self/status``: resident set, high-water mark) is its own. Stages:
``tagger`` is the pipeline's rules and then its CRF tagger fed their matches (seconds of each
reported); ``detect`` is ``load_pipeline().run(document)`` (rules, CRF tagger, merge);
``deidentify`` is ``Deidentifier(seed=1).deidentify(text)`` (detection and pseudonymisation). Wall and CPU
seconds exclude loading (reported apart). The same process also times the tokenizer over the
same text: the ratio to it is the figure to compare across machines, as the machines these
run on are shared and noisy.

From the ``lines`` runs of each stage, seconds and megabytes per MB of text are fitted (least
squares) and the largest note within ``--budget-seconds`` and ``--budget-mb`` is reported: the
``--max-bytes`` default should not exceed it.

``--joins`` (default on) also measures, in this process, what tagging notes together rather than
one by one changes: the dev notes joined by line breaks into one note (streamed in blocks), and
flattened into one line (tagged in stretches), against each note alone. Spans that differ are
counted: the "document" features read "Key:" values from the whole note, and in one line the
"Key:" fields of one note run on into the next.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from crfdeid.io.corpus import load_corpus
from crfdeid.resources import meddocan_dir


def build(corpus: Path, shape: str, megabytes: float) -> str:
    """A note of about ``megabytes`` MB (UTF-8; one dev note more at most) from the dev notes,
    in a stable order, repeated as often as needed."""
    notes = [d.text for d in sorted(load_corpus([corpus / "dev"]).values(), key=lambda d: d.id)]
    separator = " " if shape == "line" else "\n"
    if shape == "line":
        notes = [" ".join(n.split()) for n in notes]
    target = int(megabytes * 1_000_000)
    parts, size = [], 0
    while size < target:
        note = notes[len(parts) % len(notes)]
        parts.append(note)
        size += len(note.encode("utf-8")) + 1
    return separator.join(parts)


def _peak_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(corpus: Path, shape: str, megabytes: float, stage: str) -> dict[str, Any]:
    """One measurement, in this (fresh) process."""
    text = build(corpus, shape, megabytes)
    from crfdeid.tokenize import tokenize
    from crfdeid.types import Document

    started = time.perf_counter()
    n_tokens = len(tokenize(text))
    tokenizer_seconds = time.perf_counter() - started
    before = _peak_mb()
    started = time.perf_counter()
    if stage in ("detect", "tagger"):
        from crfdeid.pipeline import load_pipeline

        pipeline = load_pipeline()
    else:
        from crfdeid.deidentify import Deidentifier

        deidentifier = Deidentifier(seed=1)
        deidentifier.deidentify("Nombre: Ana.\n")
    load_seconds = time.perf_counter() - started
    loaded = _peak_mb()
    out: dict[str, Any] = {
        "shape": shape,
        "megabytes": len(text.encode("utf-8")) / 1_000_000,
        "stage": stage,
        "tokens": n_tokens,
        "load_seconds": round(load_seconds, 2),
        "peak_mb_before_load": round(before, 1),
        "peak_mb_after_load": round(loaded, 1),
    }
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        if stage == "detect":
            detection = pipeline.run(Document("long", text))
            out["spans"] = len(detection.spans)
            out["rule_timeouts"] = len(detection.timeouts)
        elif stage == "tagger":  # the rules, then the CRF tagger fed their matches; no merge
            document = Document("long", text)
            rules = pipeline.rules.run(document)
            out["rules_seconds"] = round(time.perf_counter() - wall, 2)
            out["rule_timeouts"] = len(rules.timeouts)
            out["spans"] = len(pipeline.tagger.detect(document, rules))
            out["tagger_seconds"] = round(time.perf_counter() - wall - out["rules_seconds"], 2)
        else:
            result = deidentifier.deidentify(text, "long")
            out["spans"] = len(getattr(result, "spans", ()) or ())
        out["error"] = None
    except Exception as exc:  # reported, not hidden: another stage may not be linear yet
        out["error"] = f"{type(exc).__name__}: {exc}"[:300]
    out["seconds"] = round(time.perf_counter() - wall, 2)
    out["cpu_seconds"] = round(time.process_time() - cpu, 2)
    out["peak_mb"] = round(_peak_mb(), 1)
    out["tokenizer_seconds"] = round(tokenizer_seconds, 3)
    out["x_tokenizer"] = round(out["seconds"] / tokenizer_seconds, 1)
    return out


def run_child(corpus: Path, shape: str, megabytes: float, stage: str) -> dict[str, Any]:
    command = [sys.executable, __file__, str(corpus), "--child", shape, str(megabytes), stage]
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        return {"shape": shape, "megabytes": megabytes, "stage": stage, "error": done.stderr[-500:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def fit(rows: list[dict[str, Any]], key: str) -> tuple[float, float]:
    """Least-squares intercept and slope of ``key`` against megabytes."""
    xs = [r["megabytes"] for r in rows]
    ys = [r[key] for r in rows]
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    var = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0
    return mean_y - slope * mean_x, slope


def joins(corpus: Path) -> dict[str, Any]:
    """Spans of the dev notes tagged together vs one by one (the CRF tagger's spans)."""
    from crfdeid.tagger import CrfTagger
    from crfdeid.types import Document

    tagger = CrfTagger.load_default()
    docs = sorted(load_corpus([corpus / "dev"]).values(), key=lambda d: d.id)
    out: dict[str, Any] = {}
    for shape, separator in (("lines", "\n"), ("line", " ")):
        texts = [d.text if shape == "lines" else " ".join(d.text.split()) for d in docs]
        alone, offset = set(), 0
        for text in texts:
            spans = tagger.detect(Document("d", text))
            alone |= {(s.start + offset, s.end + offset, s.label) for s in spans}
            offset += len(text) + len(separator)
        together = {(s.start, s.end, s.label) for s in tagger.detect(Document("all", separator.join(texts)))}
        out[shape] = {
            "notes": len(texts),
            "spans_alone": len(alone),
            "spans_together": len(together),
            "only_alone": len(alone - together),
            "only_together": len(together - alone),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False
    )
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--sizes", default="1,3,9", help="MB of the many-line notes")
    parser.add_argument("--line-sizes", default="1", help="MB of the single-line notes")
    parser.add_argument(
        "--stages",
        default="tagger,detect,deidentify",
        help="tagger: rules + CRF tagger; detect: load_pipeline().run (adds the merge); "
        "deidentify: Deidentifier(seed=1).deidentify",
    )
    parser.add_argument(
        "--full-up-to",
        type=float,
        default=float("inf"),
        metavar="MB",
        help="run detect and deidentify only up to this size (tagger at every size)",
    )
    parser.add_argument("--no-joins", action="store_true")
    parser.add_argument("--budget-seconds", type=float, default=60.0)
    parser.add_argument("--budget-mb", type=float, default=1024.0)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "long_notes.json")
    parser.add_argument("--child", nargs=3, metavar=("SHAPE", "MB", "STAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / "dev").is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    if args.child:
        shape, megabytes, stage = args.child
        print(json.dumps(child(args.corpus, shape, float(megabytes), stage)))
        return 0

    stages = [s for s in args.stages.split(",") if s]
    cases = [("lines", float(s)) for s in args.sizes.split(",") if s] + [
        ("line", float(s)) for s in args.line_sizes.split(",") if s
    ]
    rows = []
    print(
        f"{'shape':<6} {'MB':>5} {'stage':<10} {'seconds':>8} {'cpu s':>7} {'x tok':>6} {'peak MB':>8} "
        f"{'+MB':>6} {'spans':>7} {'timeouts':>8}  error, or the parts"
    )
    for shape, megabytes in cases:
        for stage in stages:
            if stage != "tagger" and megabytes > args.full_up_to:
                continue
            row = run_child(args.corpus, shape, megabytes, stage)
            rows.append(row)
            if "seconds" not in row:
                print(f"{shape:<6} {megabytes:>5.1f} {stage:<10} failed: {row.get('error')}")
                continue
            grown = row["peak_mb"] - row["peak_mb_after_load"]
            note = row.get("error") or ""
            if "tagger_seconds" in row:
                note = note or f"rules {row['rules_seconds']} s, tagger {row['tagger_seconds']} s"
            print(
                f"{shape:<6} {row['megabytes']:>5.2f} {stage:<10} {row['seconds']:>8.1f} "
                f"{row['cpu_seconds']:>7.1f} {row['x_tokenizer']:>6.1f} {row['peak_mb']:>8.0f} {grown:>6.0f} "
                f"{row.get('spans', 0):>7} {row.get('rule_timeouts', ''):>8}  {note}",
                flush=True,
            )
    limits = {}
    for stage in stages:
        fitted = [r for r in rows if r.get("shape") == "lines" and r.get("stage") == stage and "seconds" in r]
        if len(fitted) < 2:
            continue
        t0, t1 = fit(fitted, "seconds")
        m0, m1 = fit(fitted, "peak_mb")
        by_time = (args.budget_seconds - t0) / t1 if t1 > 0 else float("inf")
        by_memory = (args.budget_mb - m0) / m1 if m1 > 0 else float("inf")
        limits[stage] = {
            "seconds_per_mb": round(t1, 2),
            "peak_mb_per_mb": round(m1, 1),
            "mb_within_seconds": round(by_time, 1),
            "mb_within_memory": round(by_memory, 1),
            "largest_safe_mb": round(min(by_time, by_memory), 1),
        }
        print(
            f"{stage}: {t1:.2f} s and {m1:.1f} MB of peak memory per MB of text; within "
            f"{args.budget_seconds:.0f} s: {by_time:.1f} MB, "
            f"within {args.budget_mb:.0f} MB: {by_memory:.1f} MB"
        )
    joined = None
    if not args.no_joins:
        joined = joins(args.corpus)
        for shape, row in joined.items():
            print(
                f"joins ({shape}): {row['notes']} dev notes, {row['spans_alone']} CRF spans one by one; "
                f"together {row['only_alone']} of them lost, {row['only_together']} new"
            )
    args.out.write_text(
        json.dumps(
            {
                "date": time.strftime("%Y-%m-%d"),
                "machine": {
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "processor": platform.processor(),
                    "note": "2 cores shared with other jobs; compare the x_tokenizer ratios",
                },
                "budget": {"seconds": args.budget_seconds, "peak_mb": args.budget_mb},
                "runs": rows,
                "limits": limits,
                "joins": joined,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
