"""MEDDOCAN in the generic label scheme: the Spanish figures in labels every corpus can share.

    python benchmarks/generic_scheme.py [CORPUS] [--out benchmarks/results/generic_scheme.json]

MEDDOCAN train and dev are relabelled into the generic scheme through their PHI categories
(``crfdeid.schemes.to_scheme``: FECHAS -> DATE, TERRITORIO -> CITY…), exactly what a research
group with a corpus in generic labels has. A model is trained on that train split as ``crfdeid
train`` would (the scheme is detected as generic; the Spanish pack's rules, written in MEDDOCAN
labels, are mapped to generic labels), dev is tagged through the detection pipeline and scored in
generic labels. On MEDDOCAN the mapping is one to one, so the figures must match those of the
same training in MEDDOCAN labels (``benchmarks/results/tagger.json``): what differs is the
label names, the path through the schemes, and nothing else. Training takes about 4 minutes on
one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from crfdeid.evaluate import evaluate
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.resources import meddocan_dir
from crfdeid.schemes import load_scheme, to_scheme
from crfdeid.tagger import CrfTagger
from crfdeid.train import TrainConfig, fit, predict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "generic_scheme.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / "train").is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    generic = load_scheme("generic")
    train, dropped_train = to_scheme(load_corpus([args.corpus / "train"]), generic)
    dev, dropped_dev = to_scheme(load_corpus([args.corpus / "dev"]), generic)
    assert not dropped_train and not dropped_dev, "every MEDDOCAN category has a generic label"
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="crfdeid-generic-") as tmp:
        meta = fit(list(train.values()), TrainConfig(FeatureSet.load("default")), Path(tmp) / "model")
        seconds = time.perf_counter() - started
        tagger = CrfTagger.load(Path(tmp) / "model")
        merged = predict(tagger, dev.values(), with_rules=True)
        crf_only = predict(tagger, dev.values(), with_rules=False)
    scores = evaluate(dev, merged).to_dict()
    crf = evaluate(dev, crf_only).to_dict()
    result = {
        "scheme": meta["scheme"]["name"],
        "labels": meta["labels"],
        "ner": scores["ner"],
        "spans_merged": scores["spans_merged"],
        "crf_alone_ner": crf["ner"],
        "per_label": {k: {m: v[m] for m in ("precision", "recall", "f1", "support")}
                      for k, v in scores["per_label"].items()},
        "training_seconds": round(seconds, 1),
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    ner, merged_r = scores["ner"], scores["spans_merged"]["recall"]
    print(f"MEDDOCAN dev in the generic scheme (trained on train): ner P {ner['precision']:.4f} "
          f"R {ner['recall']:.4f} F1 {ner['f1']:.4f} ({ner['tp']} true, {ner['fp']} false positives, "
          f"{ner['fn']} missed); spans_merged R {merged_r:.4f}; CRF alone ner F1 {crf['ner']['f1']:.4f}; "
          f"trained in {seconds:.0f} s")
    for label, row in sorted(scores["per_label"].items()):
        print(f"  {label:<16} {row['f1']:.3f}  ({row['support']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
