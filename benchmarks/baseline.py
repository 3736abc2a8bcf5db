"""crfdeid beside a plain sklearn-crfsuite tagger, on the same folds of the same corpus.

    python benchmarks/baseline.py CORPUS [--lang de --lang none] [--scheme FILE] [--folds 5]
                                  [--search] [-j 2] [--out benchmarks/results/baseline_NAME.json]
    python benchmarks/baseline.py --meddocan [--lang es --lang none]

With a BRAT corpus folder: k-fold CV by document, the folds of ``crfdeid cv --seed 13`` for every
system — ``crfdeid cv CORPUS --lang L`` as a user runs it (rules merged by the model's policy;
with ``--search``, c1/c2 picked by CV too) for each ``--lang``, and the plain tagger of
``benchmarks/plain_crf.py`` (no rules, no pack, c1 = c2 = 0.1; with ``--search``, the best point of
the same grid, picked on the same folds — selection on the test folds flatters both alike).
With ``--meddocan``: trained on MEDDOCAN train, scored on dev (no CV: one split of 500/250 notes
is steadier than folds).

The figures are means over folds of crfdeid's scorer (``ner`` is MEDDOCAN's token-exact span
metric; ``spans_merged`` recall counts a gold span found when its characters are all covered):
the same numbers ``crfdeid cv`` and ``crfdeid evaluate`` print. ``--lang none`` is what a user
with a corpus in a language without a pack gets; the plain tagger is what they would write
themselves. On the German fixture letters the figures are a smoke test of 25 invented letters,
not an accuracy claim.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from plain_crf import PlainTagger  # benchmarks/plain_crf.py

from crfdeid.evaluate import evaluate
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.resources import meddocan_dir
from crfdeid.tagger import CrfTagger
from crfdeid.train import SEARCH_GRID, TrainConfig, cross_validate, fit, folds_of, predict
from crfdeid.types import Document

METRICS = ("ner", "spans_merged")
RESULTS = Path(__file__).parent / "results"


def _figures(scores: dict[str, Any]) -> dict[str, float]:
    return {f"{m}.{k}": scores[m][k] for m in METRICS for k in ("precision", "recall", "f1")}


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}


def _plain_fold(args: tuple[list[Document], list[Document], float, float]) -> dict[str, float]:
    train, test, c1, c2 = args
    predicted = PlainTagger(c1, c2).fit(train).predict(test)
    return _figures(evaluate({d.id: d for d in test}, predicted).to_dict())


def plain_cv(documents: list[Document], folds: int, seed: int, jobs: int,
             grid: tuple[tuple[float, float], ...] = ((0.1, 0.1),)) -> dict[str, Any]:
    """The plain tagger on the folds ``crfdeid cv`` uses (``folds_of`` with the same seed); with
    a ``grid`` of c1/c2 points, the best mean ner F1 of them (as ``cv --search`` picks its own)."""
    by_id = {d.id: d for d in documents}
    split = folds_of(list(by_id), folds, seed)
    best: dict[str, Any] | None = None
    for c1, c2 in grid:
        tasks = []
        for held_out in split:
            held = set(held_out)
            tasks.append(([by_id[i] for i in sorted(by_id) if i not in held], [by_id[i] for i in held_out],
                          c1, c2))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = list(pool.map(_plain_fold, tasks))
        result = {"mean": _mean(rows), "folds": rows, "c1": c1, "c2": c2}
        if best is None or result["mean"]["ner.f1"] > best["mean"]["ner.f1"]:
            best = result
    assert best is not None
    return best


def crfdeid_cv(documents: list[Document], lang: str, scheme: str | None, folds: int, seed: int, jobs: int,
               search: bool) -> dict[str, Any]:
    config = TrainConfig(FeatureSet.load("default"), language=lang, scheme=scheme)
    report = cross_validate(documents, config, folds, jobs, seed, search)
    rows = [_figures(f.scores) for f in report.folds]
    crf_alone = [{f"{m}.{k}": f.crf_only[m][k] for m in METRICS for k in ("precision", "recall", "f1")}
                 for f in report.folds]
    return {"mean": _mean(rows), "crf_alone": _mean(crf_alone), "folds": rows,
            "c1": report.config["c1"], "c2": report.config["c2"], "search": report.search}


def split_run(train: list[Document], test: list[Document], langs: list[str]) -> dict[str, Any]:
    gold = {d.id: d for d in test}
    out: dict[str, Any] = {}
    started = time.perf_counter()
    out["plain"] = {"mean": _figures(evaluate(gold, PlainTagger().fit(train).predict(test)).to_dict()),
                    "seconds": round(time.perf_counter() - started, 1)}
    for lang in langs:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="crfdeid-baseline-") as tmp:
            fit(train, TrainConfig(FeatureSet.load("default"), language=lang), Path(tmp) / "m")
            tagger = CrfTagger.load(Path(tmp) / "m")
            merged = evaluate(gold, predict(tagger, test, with_rules=True)).to_dict()
            alone = evaluate(gold, predict(tagger, test, with_rules=False)).to_dict()
        out[f"crfdeid --lang {lang}"] = {"mean": _figures(merged), "crf_alone": _figures(alone),
                                         "seconds": round(time.perf_counter() - started, 1)}
    return out


def print_table(title: str, systems: dict[str, Any]) -> None:
    print(title)
    print(f"  {'system':<26} {'ner P':>7} {'ner R':>7} {'ner F1':>7} {'merged R':>9}   CRF alone F1")
    for name, row in systems.items():
        m = row["mean"]
        alone = f"{row['crf_alone']['ner.f1']:.4f}" if "crf_alone" in row else "-"
        print(f"  {name:<26} {m['ner.precision']:7.4f} {m['ner.recall']:7.4f} {m['ner.f1']:7.4f} "
              f"{m['spans_merged.recall']:9.4f}   {alone}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--meddocan", action="store_true", help="MEDDOCAN: train on train, score on dev")
    parser.add_argument("--lang", action="append", help="crfdeid's pack (repeatable); default: es and none")
    parser.add_argument("--scheme", help="the corpus's label scheme (a file or a shipped name)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--search", action="store_true", help="crfdeid picks c1/c2 by CV (cv --search)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    langs = args.lang or ["es", "none"]
    result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "python": platform.python_version()}
    if args.meddocan:
        corpus = args.corpus or meddocan_dir()
        if corpus is None or not (corpus / "train").is_dir():
            print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
            return 2
        train = list(load_corpus([corpus / "train"]).values())
        test = list(load_corpus([corpus / "dev"]).values())
        systems = split_run(train, test, langs)
        title = f"MEDDOCAN dev, trained on train ({len(train)}/{len(test)} notes)"
        name = "meddocan"
        result["setup"] = "train/dev"
    else:
        if args.corpus is None or not args.corpus.is_dir():
            parser.error("give a BRAT corpus folder, or --meddocan")
        documents = list(load_corpus([args.corpus]).values())
        # with --search the plain tagger gets the same grid crfdeid searches: a fair comparison
        grid = SEARCH_GRID if args.search else ((0.1, 0.1),)
        systems = {"plain": plain_cv(documents, args.folds, args.seed, args.jobs, grid)}
        for lang in langs:
            label = f"crfdeid --lang {lang}" + (" --search" if args.search else "")
            systems[label] = crfdeid_cv(documents, lang, args.scheme, args.folds, args.seed, args.jobs,
                                        args.search)
        title = f"{args.corpus}: {args.folds}-fold CV, seed {args.seed} ({len(documents)} notes)"
        name = args.corpus.resolve().name
        result["setup"] = {"folds": args.folds, "seed": args.seed, "documents": len(documents)}
    result["title"] = title
    result["systems"] = systems
    plain_f1 = systems["plain"]["mean"]["ner.f1"]
    result["beats_plain"] = {k: v["mean"]["ner.f1"] >= plain_f1 for k, v in systems.items() if k != "plain"}
    print_table(title, systems)
    for system, ok in result["beats_plain"].items():
        print(f"  {'PASS' if ok else 'FAIL'}: {system} ner F1 {'>=' if ok else '<'} the plain tagger's")
    out = args.out or RESULTS / f"baseline_{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if all(result["beats_plain"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
