"""Rules-only benchmark: per-label P/R/F1 and speed of a rule pack on MEDDOCAN dev.

    python benchmarks/rules.py [CORPUS] [--split dev] [--pack es] [--repeat 5]
                               [--out benchmarks/results/rules.json]

Quality: the pack's spans alone, scored exactly as ``crfdeid evaluate`` scores them (subtrack 1,
exact label and offsets), per label the pack emits. The same figures come from

    crfdeid annotate CORPUS/dev -o /tmp/rules_dev --rules-only
    crfdeid evaluate CORPUS/dev /tmp/rules_dev

Speed: documents per second of ``RuleEngine.run`` on one core (this script is single threaded),
best of ``--repeat`` passes over the split, reading and writing excluded. Because these machines
are noisy, the same passes time a reference in the same process — the crfdeid tokenizer over the
same texts — and the figure to compare across machines is the ratio to that reference.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from timing import best_seconds  # benchmarks/timing.py

from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_annotations
from crfdeid.resources import meddocan_dir
from crfdeid.rules import RuleEngine
from crfdeid.tokenize import tokenize


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir(),
                        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)")
    parser.add_argument("--split", default="dev",
                        help="split to score (default: dev; train is for development)")
    parser.add_argument("--pack", default="es", help="rule pack: language code, folder or .yaml file")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "rules.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2

    gold = load_annotations(args.corpus / args.split)
    engine = RuleEngine.from_pack(args.pack)
    docs = list(gold.values())
    results = {doc.id: engine.run(doc) for doc in docs}
    system = {doc.id: doc.with_spans(results[doc.id].spans) for doc in docs}
    scores = evaluate(gold, system).to_dict()
    labels = sorted({rule.label for rule in engine.rules})
    per_label = {label: scores["per_label"][label] for label in labels if label in scores["per_label"]}
    timeouts = [t for r in results.values() for t in r.timeouts]

    seconds = best_seconds(engine.run, docs, args.repeat)
    ref_seconds = best_seconds(tokenize, [d.text for d in docs], args.repeat)
    rate, ref_rate = len(docs) / seconds, len(docs) / ref_seconds

    print(f"{args.split}: {len(docs)} documents, {len(engine.rules)} rules "
          f"({sum(len(d.text) for d in docs):,} characters)")
    print(f"{'label':34} {'precision':>9} {'recall':>7} {'f1':>7} {'tp':>5} {'fp':>4} {'fn':>5}")
    for label, row in per_label.items():
        print(f"{label:34} {row['precision']:9.3f} {row['recall']:7.3f} {row['f1']:7.3f} "
              f"{row['tp']:5} {row['fp']:4} {row['fn']:5}")
    ner = scores["ner"]
    print(f"all labels (rules cover only some): P {ner['precision']:.3f} R {ner['recall']:.3f} "
          f"F1 {ner['f1']:.3f}")
    print(f"speed: {rate:,.0f} documents/s on one core (best of {args.repeat}); reference tokenizer "
          f"{ref_rate:,.0f} documents/s; ratio {rate / ref_rate:.3f}; rule timeouts: {len(timeouts)}")

    report = {
        "benchmark": "rules", "split": args.split, "pack": args.pack, "documents": len(docs),
        "rules": len(engine.rules), "per_label": per_label, "ner": ner,
        "documents_per_second": rate, "reference_tokenizer_documents_per_second": ref_rate,
        "ratio_to_reference": rate / ref_rate, "timeouts": len(timeouts), "repeat": args.repeat,
        "python": platform.python_version(), "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
