"""CRF tagger benchmark: accuracy on MEDDOCAN dev, operating-point curve, merge evidence, speed,
memory, and (with --ablation) each feature family switched off in turn.

    python benchmarks/tagger.py [CORPUS] [--features default] [--model DIR] [--jobs 2]
                                [--ablation] [--out benchmarks/results/tagger.json]

Accuracy: a model trained on ``train`` (or ``--model``, which must not have seen dev), scored on
``dev`` exactly as ``crfdeid evaluate`` scores it. The same figures come from

    crfdeid train CORPUS/train -o /tmp/m && crfdeid annotate CORPUS/dev -o /tmp/pred --model /tmp/m
    crfdeid evaluate CORPUS/dev /tmp/pred

Also printed: the CRF alone (no rules), the precision/recall curve of the ``--threshold``
operating point, and per label the F1 of every merge strategy (the evidence behind
``policies/merge.yaml``).

Speed: documents/s of the whole detection pipeline (rules + features + CRF + merge) on one
core, model loading excluded and reported separately, with the compiled scorer and, in the same
process, with crfsuite (the reference path): the ratio is the speed-up; the same for the CRF
tagger alone and for the dev notes concatenated into one note; the feature extractor alone in
tokens/s; the tokenizer over the same texts as the same-process reference (compare ratios
across machines).
Memory: peak RSS of a fresh process that loads the model and annotates dev.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from timing import best_seconds  # benchmarks/timing.py

from crfdeid.evaluate import evaluate
from crfdeid.features import FAMILIES, FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.merge import STRATEGIES, MergePolicy
from crfdeid.pipeline import Pipeline
from crfdeid.resources import meddocan_dir
from crfdeid.rules import RuleEngine
from crfdeid.tagger import CrfTagger, tags_to_spans
from crfdeid.tokenize import tokenize
from crfdeid.train import TrainConfig, fit
from crfdeid.types import Document

THRESHOLDS = (None, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


def train(corpus: Path, fs: FeatureSet, out: Path, c1: float, c2: float, iterations: int) -> dict:
    docs = list(load_corpus([corpus / "train"]).values())
    return fit(docs, TrainConfig(fs, c1, c2, iterations), out)


def score(gold: dict, spans: dict) -> dict:
    return evaluate(gold, {k: gold[k].with_spans(v) for k, v in spans.items()}).to_dict()


def accuracy(tagger: CrfTagger, gold: dict) -> dict:
    """Merged and CRF-only scores, the threshold curve and the per-label merge evidence."""
    engine = tagger.extractor.rules or RuleEngine.from_pack("es")
    policy = tagger.merge_policy()
    crf_spans, rule_spans, candidates, tokens_of = {}, {}, {}, {}
    for doc in gold.values():
        tokens = tokenize(doc.text)
        result = engine.run(doc)
        cands = tagger.candidates(doc, tokens, result.matches)
        tokens_of[doc.id], candidates[doc.id] = tokens, cands
        crf_spans[doc.id] = tags_to_spans(tokens, [c[0] for c in cands])
        rule_spans[doc.id] = result.spans
    merged = {k: policy.merge(crf_spans[k], rule_spans[k]) for k in gold}
    out = {"merged": score(gold, merged), "crf_only": score(gold, crf_spans)}
    curve = []
    for t in THRESHOLDS:
        spans = {}
        for k, cands in candidates.items():
            tags = [c[0] if c[0] != "O" or t is None or c[1] >= t else c[2] for c in cands]
            spans[k] = policy.merge(tags_to_spans(tokens_of[k], tags), rule_spans[k])
        s = score(gold, spans)
        curve.append({"threshold": t, "ner": s["ner"], "spans_merged": s["spans_merged"]})
    out["threshold_curve"] = curve
    labels = sorted({s.label for v in rule_spans.values() for s in v})
    evidence = {}
    for label in labels:
        row = {}
        for strategy in STRATEGIES:
            trial = MergePolicy(policy.default, {**policy.labels, label: strategy})
            s = score(gold, {k: trial.merge(crf_spans[k], rule_spans[k]) for k in gold})
            row[strategy] = {
                "label_f1": s["per_label"].get(label, {}).get("f1", 0.0),
                "ner_f1": s["ner"]["f1"],
                "merged_recall": s["spans_merged"]["recall"],
            }
        evidence[label] = row
    out["merge_evidence"] = evidence
    return out


def speed(tagger: CrfTagger, docs: list, repeat: int) -> dict:
    """Documents/s of the pipeline with the compiled scorer and, in the same process on the same
    notes, with crfsuite (the path before the scorer was compiled): their ratio is the speed-up.
    Also both on the dev notes concatenated into one note (KB/s)."""
    rules = tagger.extractor.rules or RuleEngine.from_pack("es")
    pipeline = Pipeline(rules, tagger, tagger.merge_policy())
    reference = CrfTagger.load(tagger.model_dir, tagger.threshold, scorer="crfsuite")
    reference_pipeline = Pipeline(rules, reference, tagger.merge_policy())
    for doc in docs[:20]:
        pipeline.run(doc)  # warm the caches (lexicon, word features, compiled weights)
        reference_pipeline.run(doc)
    # This process holds the whole corpus, its candidates and scores: the garbage collector
    # would walk them all whenever timing allocates. A batch process holds little; freeze what
    # is alive now so that both paths are timed as they run there.
    gc.collect()
    gc.freeze()

    n_tokens = sum(len(tokenize(d.text)) for d in docs)
    pipe_s = best_seconds(pipeline.run, docs, repeat)
    reference_s = best_seconds(reference_pipeline.run, docs, repeat)
    tok_s = best_seconds(lambda d: tokenize(d.text), docs, repeat)
    pairs = [(d, tokenize(d.text), pipeline.rules.run(d).matches) for d in docs]
    feat_s = best_seconds(lambda p: tagger.extractor.sequences(*p), pairs, repeat)
    tagger_s = best_seconds(lambda p: tagger.detect(p[0], p[2]), pairs, repeat)
    reference_tagger_s = best_seconds(lambda p: reference.detect(p[0], p[2]), pairs, repeat)
    joined = Document("dev", "\n".join(d.text for d in docs))
    kilobytes = len(joined.text.encode("utf-8")) / 1000
    one_s = best_seconds(pipeline.run, [joined], 1)
    reference_one_s = best_seconds(reference_pipeline.run, [joined], 1)
    gc.unfreeze()
    return {
        "documents": len(docs),
        "tokens": n_tokens,
        "pipeline_docs_per_s": len(docs) / pipe_s,
        "crfsuite_pipeline_docs_per_s": len(docs) / reference_s,
        "pipeline_speedup": reference_s / pipe_s,
        "tagger_docs_per_s": len(docs) / tagger_s,
        "crfsuite_tagger_docs_per_s": len(docs) / reference_tagger_s,
        "tagger_speedup": reference_tagger_s / tagger_s,
        "one_note_kb": kilobytes,
        "one_note_kb_per_s": kilobytes / one_s,
        "crfsuite_one_note_kb_per_s": kilobytes / reference_one_s,
        "extractor_tokens_per_s": n_tokens / feat_s,
        "tokenizer_docs_per_s": len(docs) / tok_s,
        "pipeline_vs_tokenizer": tok_s / pipe_s,
    }


def memory_and_load(model: Path, corpus: Path) -> dict:
    """Peak RSS and model load time in a fresh process (nothing of this process's counted)."""
    code = (
        "import resource, time, sys\n"
        "def peak_kb():\n"  # VmHWM: ru_maxrss would include the parent's peak, kept across fork+exec
        "    try:\n"
        "        for line in open('/proc/self/status'):\n"
        "            if line.startswith('VmHWM:'): return int(line.split()[1])\n"
        "    except OSError: pass\n"
        "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "t = time.perf_counter()\n"
        "from crfdeid.pipeline import load_pipeline\n"
        f"p = load_pipeline({str(model)!r})\n"
        "from crfdeid.types import Document\n"
        "p.run(Document('warm', 'Nombre: Ana.'))\n"
        "load = time.perf_counter() - t\n"
        "from crfdeid.io.corpus import load_corpus\n"
        f"for d in load_corpus([{str(corpus)!r}]).values(): p.run(d)\n"
        "print(load, peak_kb())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    return {"load_seconds": float(out[0]), "peak_rss_mb": int(out[1]) / 1024}


def _ablate(args: tuple) -> dict:
    corpus, fs_dict, c1, c2, iterations, repeat = args
    fs = FeatureSet.from_dict(fs_dict)
    gold = load_corpus([corpus / "dev"])
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        meta = train(corpus, fs, Path(tmp) / "m", c1, c2, iterations)
        seconds = time.perf_counter() - started
        tagger = CrfTagger.load(Path(tmp) / "m")
        s = accuracy(tagger, gold)
        rate = speed(tagger, list(gold.values())[:100], repeat)
    return {
        "feature_set": fs.name,
        "ner_f1": s["merged"]["ner"]["f1"],
        "merged_recall": s["merged"]["spans_merged"]["recall"],
        "crf_only_f1": s["crf_only"]["ner"]["f1"],
        "train_seconds": seconds,
        "attributes": meta["training"]["attributes"],
        "docs_per_s": rate["pipeline_docs_per_s"],
        "vs_tokenizer": rate["pipeline_vs_tokenizer"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir())
    parser.add_argument("--features", default="default")
    parser.add_argument("--model", type=Path, default=None, help="a model trained on train only")
    parser.add_argument("--c1", type=float, default=None)
    parser.add_argument("--c2", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ablation", action="store_true", help="retrain with each family off in turn")
    parser.add_argument("--jobs", type=int, default=2, help="parallel trainings for --ablation")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / "dev").is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    from crfdeid.train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS

    c1 = DEFAULT_C1 if args.c1 is None else args.c1
    c2 = DEFAULT_C2 if args.c2 is None else args.c2
    iterations = args.iterations or DEFAULT_ITERATIONS
    fs = FeatureSet.load(args.features)
    results_dir = Path(__file__).parent / "results"
    machine = {"python": platform.python_version(), "machine": platform.machine(), "cpu_note": "one core"}

    if args.ablation:
        variants = [fs] + [fs.without(f) for f in FAMILIES if fs.on(f)]
        tasks = [(args.corpus, v.to_dict(), c1, c2, iterations, args.repeat) for v in variants]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            rows = list(pool.map(_ablate, tasks))
        base = rows[0]
        print(
            f"{'feature set':<28} {'ner F1':>7} {'Δ':>7} {'merged R':>8} {'CRF F1':>7} {'train s':>7} "
            f"{'docs/s':>7} {'×tok':>6}"
        )
        for r in rows:
            print(
                f"{r['feature_set']:<28} {r['ner_f1']:7.4f} {r['ner_f1'] - base['ner_f1']:+7.4f} "
                f"{r['merged_recall']:8.4f} {r['crf_only_f1']:7.4f} {r['train_seconds']:7.0f} "
                f"{r['docs_per_s']:7.1f} {r['vs_tokenizer']:6.3f}"
            )
        out = args.out or results_dir / "tagger_ablation.json"
        out.write_text(
            json.dumps(
                {"machine": machine, "c1": c1, "c2": c2, "iterations": iterations, "rows": rows}, indent=1
            )
            + "\n",
            encoding="utf-8",
        )
        print(f"written to {out}")
        return 0

    gold = load_corpus([args.corpus / "dev"])
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        train_seconds = None
        if model is None:
            model = Path(tmp) / "model"
            started = time.perf_counter()
            train(args.corpus, fs, model, c1, c2, iterations)
            train_seconds = time.perf_counter() - started
        tagger = CrfTagger.load(model)
        acc = accuracy(tagger, gold)
        rate = speed(tagger, list(gold.values()), args.repeat)
        mem = memory_and_load(model, args.corpus / "dev")
        meta = tagger.metadata["training"]

    merged, crf = acc["merged"], acc["crf_only"]
    print(
        f"model: trained on train ({meta['documents']} documents, c1={meta['c1']} c2={meta['c2']}, "
        f"{meta['iterations']} iterations, {meta['attributes']} attributes)"
        + (f", {train_seconds:.0f} s" if train_seconds else "")
    )
    print("dev, CRF + rules (the default pipeline):")
    for metric in ("ner", "spans_strict", "spans_merged"):
        m = merged[metric]
        print(
            f"  {metric:<13} P {m['precision']:.4f}  R {m['recall']:.4f}  F1 {m['f1']:.4f}  "
            f"leak {m['leak']:.4f}"
        )
    print(
        f"dev, CRF alone: ner F1 {crf['ner']['f1']:.4f}, spans_merged R {crf['spans_merged']['recall']:.4f}"
    )
    print(f"\n{'label':<34} {'P':>6} {'R':>6} {'F1':>6} {'support':>7}")
    for label, row in merged["per_label"].items():
        print(f"{label:<34} {row['precision']:6.3f} {row['recall']:6.3f} {row['f1']:6.3f} {row['support']:7}")
    print("\noperating point (--threshold): a token is PHI when P(O) < threshold")
    print(f"{'threshold':>9} {'ner P':>7} {'ner R':>7} {'ner F1':>7} {'merged P':>8} {'merged R':>8}")
    for row in acc["threshold_curve"]:
        t = "viterbi" if row["threshold"] is None else f"{row['threshold']:.2f}"
        n, m = row["ner"], row["spans_merged"]
        print(
            f"{t:>9} {n['precision']:7.4f} {n['recall']:7.4f} {n['f1']:7.4f} {m['precision']:8.4f} "
            f"{m['recall']:8.4f}"
        )
    print("\nmerge evidence: ner F1 (all labels) when this label's conflicts use each strategy")
    print(f"{'label':<34} " + " ".join(f"{s:>8}" for s in STRATEGIES))
    for label, row in acc["merge_evidence"].items():
        print(f"{label:<34} " + " ".join(f"{row[s]['ner_f1']:8.4f}" for s in STRATEGIES))
    print(f"\nspeed (one core, {rate['documents']} dev documents, {rate['tokens']:,} tokens):")
    print(
        f"  pipeline {rate['pipeline_docs_per_s']:.1f} documents/s "
        f"({rate['pipeline_vs_tokenizer']:.3f}x the tokenizer in the same run); with crfsuite "
        f"{rate['crfsuite_pipeline_docs_per_s']:.1f} documents/s: {rate['pipeline_speedup']:.2f}x faster"
    )
    print(
        f"  CRF tagger alone {rate['tagger_docs_per_s']:.1f} documents/s, with crfsuite "
        f"{rate['crfsuite_tagger_docs_per_s']:.1f}: {rate['tagger_speedup']:.2f}x faster"
    )
    print(
        f"  dev as one note of {rate['one_note_kb']:.0f} KB: pipeline {rate['one_note_kb_per_s']:.0f} KB/s, "
        f"with crfsuite {rate['crfsuite_one_note_kb_per_s']:.0f} KB/s"
    )
    print(f"  feature extractor alone {rate['extractor_tokens_per_s']:,.0f} tokens/s")
    print(f"  model load {mem['load_seconds']:.2f} s; peak memory annotating dev {mem['peak_rss_mb']:.0f} MB")
    out = args.out or results_dir / "tagger.json"
    out.write_text(
        json.dumps(
            {
                "machine": machine,
                "features": fs.name,
                "train_seconds": train_seconds,
                "model": meta,
                "accuracy": acc,
                "speed": rate,
                "memory": mem,
                "this_process_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
