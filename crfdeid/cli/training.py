"""crfdeid train, cv and explain-model: the CRF tagger on a corpus of your own."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from functools import partial
from pathlib import Path

from ..errors import CrfdeidError
from ..progress import progress
from .options import PROG, Once, add_input_options, add_pack_options

_TRAIN_DESCRIPTION = """\
Train a CRF model on annotated corpora and write it to MODEL_DIR.

CORPUS_DIR is a folder of BRAT files (NAME.txt + NAME.ann) or a .jsonl file; give several to
train on all of them. The model folder holds crfsuite's own model file (model.crfsuite) and
model.json: labels, the feature set, the linguistic annotator, the gazetteer and rule pack
fingerprints, the training corpus fingerprint, c1/c2 and timings. No pickle is ever written.

The corpus's labels pick the label scheme recorded in the model (--scheme, else meddocan,
else generic; labels no scheme maps are an error that shows the scheme file to write). The
language pack (--lang CODE, --pack DIR, or --lang none: no gazetteers, no lemmatiser,
language-neutral rules) and its rules are recorded too, and the rules' spans take the corpus's
labels through their PHI category.

The features come from a feature-set file (--features: a shipped name such as 'default', or a
.yaml of your own; see features/README.md). c1 (L1) makes the model sparse, c2 (L2) smooth;
'crfdeid cv --search' picks them by cross-validation. Training is deterministic: the same
corpora, features and options give the same model.

The deidentify operating point: 'crfdeid deidentify' runs a model at the recall-first point it
records (model.json: operating_points), and its best (Viterbi) path when it records none.
--search-point chooses it here, by K-fold cross-validation (--folds K) on the same corpora
before the final training (K more trainings; -j runs folds in parallel): the point of highest spans_merged
recall whose precision stays >= --min-precision (0.97). --deidentify-point records one already
chosen: the JSON report of 'crfdeid cv --search-point -o FILE' (no second cross-validation), or
a probability P (every label at P(O) < P, separate spans).
"""

_TRAIN_EPILOG = """\
examples:
  crfdeid train ../shared/corpora/meddocan/train -o models/meddocan-train
  crfdeid train ../shared/corpora/meddocan/train ../shared/corpora/meddocan/dev -o models/es
  crfdeid train my_notes/ -o my_model --features my_features.yaml --c1 0.1 --c2 0.01
  crfdeid annotate new_notes/ -o predictions/ --model my_model
  crfdeid train german_letters/ -o de_model --lang none --scheme my_scheme.yaml
  crfdeid train corpus/ -o my_model --search-point -j 2     choose and record the deidentify point
  crfdeid cv corpus/ -j 2 --search-point -o cv.json         ...or choose it first (and look at it),
  crfdeid train corpus/ -o my_model --deidentify-point cv.json     then record it
"""

_CV_DESCRIPTION = """\
k-fold cross-validation by document: each fold trains on the other folds and is scored with the
MEDDOCAN metrics (ner, spans_strict, spans_merged, leak) after merging with the rules. Prints
every fold, the mean ± std, and a per-label table; -o writes it all as JSON.

Each document's features are extracted once per run and shared by every fold and search point
(each fold renders only its own skeleton vocabulary); folds run in parallel processes (-j), and
-j 2 gives the same scores as -j 1. --search tries a small grid of c1/c2 values and reports the
best (6 settings x K trainings: each fold hands its features to crfsuite once for all six, but
allow for the training time). Folds are shuffled with --seed, so a run is reproducible.

--search-point chooses the operating point 'crfdeid deidentify' runs at: every fold tags its
held-out documents once, and every point is scored on those out-of-fold predictions — the
best path; one P(O) threshold for all labels, the tokens it adds taking their best tag or as
separate spans (with --per-label, per-label thresholds grown greedily too) — and the one of
highest spans_merged recall at precision >= --min-precision is chosen. The table and the
chosen point are printed; -o writes them too, for 'crfdeid train --deidentify-point FILE'.
"""

_CV_EPILOG = """\
examples:
  crfdeid cv ../shared/corpora/meddocan/train ../shared/corpora/meddocan/dev --folds 5 -j 2
  crfdeid cv my_notes/ --folds 10 -j 2 --search -o cv.json
  crfdeid cv my_notes/ --lang none --scheme generic --merge-policy crf_wins.yaml
  crfdeid cv corpus/ --folds 5 -j 2 --search-point -o cv.json   choose the deidentify point
"""

_EXPLAIN_MODEL_DESCRIPTION = """\
What a model learned, for an auditor: the most strongly weighted features for each label (a
feature such as 'key=nombre' with a large weight for B-NOMBRE_SUJETO_ASISTENCIA says "the value
of a 'Nombre:' field starts a patient name") and the strongest label-to-label transitions.

Feature names: w/lw word and lowercase, sh/ssh shape, p/s prefix/suffix, lem/pos lemma and POS,
key/sec header key and section, gz gazetteer list, rule rule family, sk skeleton, "-1:" a
feature of the previous token, "a|b" a conjunction.
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    tr = commands.add_parser("train", help="train a CRF model on BRAT or JSONL corpora",
                             description=_TRAIN_DESCRIPTION, epilog=_TRAIN_EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("corpora", nargs="+", metavar="CORPUS_DIR", help="BRAT folders or .jsonl files")
    tr.add_argument("-o", "--output", required=True, metavar="MODEL_DIR", help="folder for the model")
    point = tr.add_argument_group("the deidentify operating point (see above)")
    chosen = point.add_mutually_exclusive_group()
    chosen.add_argument("--search-point", action="store_true",
                        help="choose it by cross-validation on the training corpora first, and record it")
    chosen.add_argument("--deidentify-point", default=None, metavar="CV_JSON_OR_P",
                        help="record this one: a 'crfdeid cv --search-point -o' report, or a probability")
    _add_point_search_options(point)
    point.add_argument("--folds", type=int, default=5, metavar="K",
                       help="folds of --search-point (default: 5)")
    point.add_argument("--seed", type=int, default=13, help="fold shuffle of --search-point (default: 13)")
    point.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                       help="run the folds of --search-point in N processes (default: 1)")
    _add_training_options(tr)
    tr.set_defaults(handler=cmd_train)

    cv = commands.add_parser("cv", help="k-fold cross-validation with MEDDOCAN metrics",
                             description=_CV_DESCRIPTION, epilog=_CV_EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    cv.add_argument("corpora", nargs="+", metavar="CORPUS_DIR", help="BRAT folders or .jsonl files")
    cv.add_argument("--folds", type=int, default=5, metavar="K", help="number of folds (default: 5)")
    cv.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="run folds in N processes (default: 1)")
    cv.add_argument("--search", action="store_true", help="also search c1/c2 over a small grid")
    cv.add_argument("--seed", type=int, default=13, help="seed of the fold shuffle (default: 13)")
    cv.add_argument("-o", "--output", default=None, metavar="FILE", help="write the full report as JSON")
    cv.add_argument("--threshold", type=float, default=None, metavar="P",
                    help="operating point of each fold's model, as for annotate: a token is PHI when its "
                         "probability of being O is below P (default: the model's best path)")
    cv.add_argument("--merge-policy", default=None, metavar="FILE",
                    help="YAML policy for merging CRF and rule spans, as for annotate "
                         "(default: the shipped one)")
    cv.add_argument("--search-point", action="store_true",
                    help="also choose the deidentify operating point on the out-of-fold predictions")
    _add_point_search_options(cv)
    _add_training_options(cv)
    cv.set_defaults(handler=cmd_cv)

    ex = commands.add_parser("explain-model", help="top features per label and strongest transitions",
                             description=_EXPLAIN_MODEL_DESCRIPTION,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("--model", default=None, metavar="MODEL_DIR", help="default: the embedded model")
    ex.add_argument("--top", type=int, default=10, metavar="N", help="features per label (default: 10)")
    ex.add_argument("--label", action="append", default=None, metavar="LABEL",
                    help="only this label (repeatable), e.g. NOMBRE_SUJETO_ASISTENCIA")
    ex.add_argument("--format", choices=("table", "json"), default="table")
    ex.set_defaults(handler=cmd_explain_model)


def _add_point_search_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    from ..operating import MIN_PRECISION

    parser.add_argument("--min-precision", type=float, default=MIN_PRECISION, metavar="P",
                        help="spans_merged precision the point of --search-point must keep "
                             "(default: %(default)s)")
    parser.add_argument("--per-label", action="store_true",
                        help="--search-point also tries one threshold per label (on MEDDOCAN they did "
                             "not carry over to unseen notes better than one for all)")


def _check_point_search(args: argparse.Namespace) -> float | None:
    """The precision floor of --search-point (None without it)."""
    if not 0.0 < args.min_precision <= 1.0:
        raise CrfdeidError(f"--min-precision must be a probability in (0, 1], got {args.min_precision}")
    if args.jobs < 1:
        raise CrfdeidError(f"-j must be at least 1, got {args.jobs}")
    return args.min_precision if args.search_point else None


def _add_training_options(parser: argparse.ArgumentParser) -> None:
    from ..train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS, DEFAULT_MIN_FREQ

    parser.add_argument("--features", default="default", metavar="NAME_OR_YAML",
                        help="feature set: a shipped name or a .yaml file (default: %(default)s)")
    parser.add_argument("--c1", type=float, default=DEFAULT_C1, help="L1 penalty (default: %(default)s)")
    parser.add_argument("--c2", type=float, default=DEFAULT_C2, help="L2 penalty (default: %(default)s)")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, metavar="N",
                        help="L-BFGS iterations (default: %(default)s)")
    parser.add_argument("--min-freq", type=int, default=DEFAULT_MIN_FREQ, metavar="N",
                        help="drop (feature, label) pairs seen fewer than N times in the training data "
                             "(crfsuite's feature.minfreq; default: %(default)s)")
    parser.add_argument("--case-variants", type=float, default=0.0, metavar="SHARE",
                        help="also train on a lower-case copy of this share of the notes, and on a copy in "
                             "capitals of half as many others, for notes typed in one case (e.g. 0.25; "
                             "training takes about 1 + 1.5 x SHARE as long; default: %(default)s)")
    parser.add_argument("--annotator", choices=("default", "stanza"), default="default",
                        help="lemma/POS backend recorded in the model (default: %(default)s)")
    parser.add_argument("--stanza-dir", default=None, metavar="DIR",
                        help="stanza_resources folder for --annotator stanza")
    add_pack_options(parser, scheme="the corpus's label scheme: a shipped scheme (meddocan, generic) or a "
                     "scheme .yaml (default: meddocan if every label is one of its, else generic if every "
                     "label is one of its, else an error showing the file to write)")
    add_input_options(parser)


def _training_setup(args: argparse.Namespace):  # -> (documents, TrainConfig)
    from ..features import FeatureSet
    from ..io.corpus import load_corpus
    from ..packs import DEFAULT_LANG, NO_PACK, choose_pack
    from ..schemes import load_scheme
    from ..train import TrainConfig, corpus_scheme, rules_report

    choice = choose_pack(args.lang, args.pack, args.rules)
    annotator: dict | str = args.annotator
    if args.annotator == "stanza":
        if choice.lang == NO_PACK:
            raise CrfdeidError("--annotator stanza needs a language; --lang none has no lemmatiser")
        annotator = {"backend": "stanza", "language": choice.lang}
        if args.stanza_dir:
            annotator["model_dir"] = str(Path(args.stanza_dir).resolve())
    config = TrainConfig(FeatureSet.load(args.features), args.c1, args.c2, args.iterations,
                         language=choice.lang, annotator=annotator, rules=args.rules, min_freq=args.min_freq,
                         case_variants=args.case_variants,
                         pack=str(choice.folder) if choice.custom else None,
                         scheme=load_scheme(args.scheme) if args.scheme else None)
    config.check()
    corpus = load_corpus(args.corpora, encoding=args.encoding, max_bytes=args.max_bytes)
    if not corpus:
        raise CrfdeidError("no documents found in " + ", ".join(args.corpora))
    documents = list(corpus.values())
    scheme = corpus_scheme(documents, config)  # unknown labels: an error before any work
    config = dataclasses.replace(config, scheme=scheme)
    warn = Once(args.quiet)
    if args.lang is None and args.pack is None and scheme.name != "meddocan":
        warn(f"no --lang given: the features and rules are those of the {DEFAULT_LANG!r} pack; for a "
             f"corpus in another language pass --lang (shipped: see 'crfdeid pack show') or --lang {NO_PACK}")
    dropped = rules_report(config, scheme)
    if dropped:
        warn(dropped)
    if not args.quiet:
        print(f"{PROG}: labels: scheme {scheme.name!r}; pack {choice.name!r}, rules {choice.rules!r}",
              file=sys.stderr)
    return documents, config


def cmd_train(args: argparse.Namespace) -> int:
    from ..tagger import check_model_target
    from ..train import corpus_fingerprint, corpus_labels, fit

    floor = _check_point_search(args)
    given = None
    if args.deidentify_point is not None:
        from ..operating import read_point_source

        given = read_point_source(args.deidentify_point)
    documents, config = _training_setup(args)
    check_model_target(Path(args.output))  # before a cross-validation, not after it
    if given is not None:
        given.check_labels(corpus_labels(documents), args.deidentify_point)
        recorded = given.chosen_by.get("corpus_fingerprint")
        if recorded is not None and recorded != corpus_fingerprint(documents):
            Once(args.quiet)("the --deidentify-point was chosen by cross-validation on other documents than "
                             "these (another corpus fingerprint); it is recorded as given")
        # A report without min_freq predates --min-freq: its models all kept every feature (1).
        chosen_with = given.chosen_by.get("min_freq", 1 if "folds" in given.chosen_by else None)
        if chosen_with is not None and chosen_with != config.min_freq:
            Once(args.quiet)(f"the --deidentify-point was chosen by cross-validation of models trained "
                             f"with --min-freq {chosen_with}, this one trains with {config.min_freq}: its "
                             "probabilities differ, so the point may not keep its precision (rerun "
                             "'crfdeid cv --search-point' with the same --min-freq); it is recorded as given")
        chosen_cases = given.chosen_by.get("case_variants", 0.0 if "folds" in given.chosen_by else None)
        if chosen_cases is not None and chosen_cases != config.case_variants:
            Once(args.quiet)(f"the --deidentify-point was chosen by cross-validation of models trained with "
                             f"--case-variants {chosen_cases}, this one with {config.case_variants}: it is "
                             "recorded as given")
    if floor is not None:
        given = _search_point(args, documents, config, floor)
    if not args.quiet:
        print(f"{PROG}: training on {len(documents)} document(s), "
              f"{sum(len(d.spans) for d in documents)} span(s); features {config.feature_set.name}, "
              f"c1={config.c1} c2={config.c2}, {config.iterations} iterations, min_freq {config.min_freq}"
              + (f", case variants {config.case_variants}" if config.case_variants else ""),
              file=sys.stderr)
    extra = {"operating_points": {"deidentify": given.to_dict()}} if given is not None else None
    meta = fit(documents, config, Path(args.output), verbose=not args.quiet and sys.stderr.isatty(),
               extra_metadata=extra)
    if not args.quiet:
        t = meta["training"]
        point = f"; deidentify point: {given.describe()}" if given is not None else ""
        print(f"{PROG}: model written to {args.output} ({len(meta['labels'])} labels, "
              f"{t['attributes']} attributes, {t['seconds']:.0f} s){point}", file=sys.stderr)
    return 0


def _search_point(args: argparse.Namespace, documents: list, config, floor: float):  # -> OperatingPoint|None
    """``train --search-point``: cross-validate on the training documents, print the search,
    return the chosen point (with the folds and corpus it was chosen on)."""
    from ..operating import format_search, with_cv_record
    from ..train import cross_validate

    if not args.quiet:
        print(f"{PROG}: choosing the deidentify operating point by {args.folds}-fold cross-validation "
              f"({args.folds} trainings)", file=sys.stderr)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="folds")
    report = cross_validate(documents, config, args.folds, args.jobs, args.seed,
                            progress=lambda it, n: bar(it, total=n), point_floor=floor,
                            point_per_label=args.per_label)
    assert report.point_search is not None
    print(format_search(report.point_search), file=sys.stderr)
    chosen = report.point_search.chosen
    if chosen is None:
        Once(args.quiet)(f"no operating point keeps spans_merged precision >= {floor}; the model records "
                         "none (deidentify will run its best path)")
        return None
    return with_cv_record(chosen, report.config)


def cmd_cv(args: argparse.Namespace) -> int:
    from ..merge import MergePolicy
    from ..train import Operating, cross_validate, format_cv, write_json

    floor = _check_point_search(args)
    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise CrfdeidError(f"--threshold must be a probability in (0, 1], got {args.threshold}")
    documents, config = _training_setup(args)
    merge = MergePolicy.load(args.merge_policy, scheme=config.scheme) if args.merge_policy else None
    operating = Operating(merge, args.threshold)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="folds")
    report = cross_validate(documents, config, args.folds, args.jobs, args.seed, args.search,
                            progress=lambda it, n: bar(it, total=n), operating=operating, point_floor=floor,
                            point_per_label=args.per_label)
    print(format_cv(report))
    if args.output:
        write_json(Path(args.output), report.to_dict())
    return 0


def cmd_explain_model(args: argparse.Namespace) -> int:
    from ..explain import explain_model, format_explanation
    from ..tagger import CrfTagger

    tagger = CrfTagger.load(args.model) if args.model else CrfTagger.load_default()
    explanation = explain_model(tagger, top=args.top, labels=args.label)
    if args.format == "json":
        print(json.dumps(explanation, indent=1, ensure_ascii=False))
    else:
        print(format_explanation(explanation))
    return 0
