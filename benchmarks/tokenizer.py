"""Tokenizer benchmark: gold-span alignment and speed on MEDDOCAN train+dev.

    python benchmarks/tokenizer.py [--corpus DIR] [--repeat 5] [--out benchmarks/results/tokenizer.json]

Alignment: the share of gold spans whose start and end fall on token boundaries (target
>= 99.8 %); every misaligned span is listed with its context so it can be fixed or explained.

Speed: tokens per second of ``crfdeid.tokenize.tokenize`` on one core (this script is single
threaded), best of ``--repeat`` runs. Because these machines are noisy, the same runs time a
reference in the same process — a bare ``re.findall(r"\\w+|[^\\w\\s]")`` that builds no token
objects — and the figure to compare across machines is the ratio to that reference.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from pathlib import Path

from crfdeid.io.corpus import load_annotations
from crfdeid.resources import meddocan_dir
from crfdeid.tokenize import tokenize

_REFERENCE_RE = re.compile(r"\w+|[^\w\s]")


def alignment(docs) -> tuple[int, list[dict]]:
    total, misaligned = 0, []
    for doc in docs:
        tokens = tokenize(doc.text)
        starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
        for span in doc.spans:
            total += 1
            if span.start not in starts or span.end not in ends:
                misaligned.append({
                    "document": doc.id, "label": span.label, "start": span.start, "end": span.end,
                    "context": doc.text[max(0, span.start - 20):span.start] + "[" +
                               doc.text[span.start:span.end] + "]" + doc.text[span.end:span.end + 20],
                })
    return total, misaligned


def best_rate(fn, texts, repeat: int) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        count = sum(len(fn(t)) for t in texts)
        best = min(best, time.perf_counter() - t0)
    return count / best, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=meddocan_dir(),
                        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "tokenizer.json")
    args = parser.parse_args()
    if args.corpus is None or not args.corpus.is_dir():
        print("MEDDOCAN corpus not found: pass --corpus or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2

    docs = []
    for split in ("train", "dev"):
        docs.extend(load_annotations(args.corpus / split).values())
    texts = [d.text for d in docs]

    total, misaligned = alignment(docs)
    aligned_share = 1 - len(misaligned) / total
    rate, n_tokens = best_rate(tokenize, texts, args.repeat)
    ref_rate, _ = best_rate(_REFERENCE_RE.findall, texts, args.repeat)

    print(f"documents: {len(docs)}  gold spans: {total}  tokens: {n_tokens}")
    print(f"alignment: {aligned_share:.4%} of gold spans start and end on token boundaries "
          f"({len(misaligned)} misaligned; target >= 99.8%)")
    for case in misaligned:
        print(f"  {case['document']} {case['label']}: {case['context']!r}")
    print(f"speed: {rate:,.0f} tokens/s on one core (best of {args.repeat}); "
          f"reference re.findall: {ref_rate:,.0f} tokens/s; ratio {rate / ref_rate:.2f}")

    result = {
        "benchmark": "tokenizer", "documents": len(docs), "gold_spans": total, "tokens": n_tokens,
        "aligned_share": aligned_share, "misaligned": misaligned,
        "tokens_per_second": rate, "reference_tokens_per_second": ref_rate,
        "ratio_to_reference": rate / ref_rate, "repeat": args.repeat,
        "python": platform.python_version(), "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written: {args.out}")
    return 0 if aligned_share >= 0.998 else 1


if __name__ == "__main__":
    sys.exit(main())
