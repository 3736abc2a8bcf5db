"""Training and cross-validating the CRF tagger on annotated corpora (BRAT folders or JSONL).

Feature sequences are generated lazily and streamed into crfsuite's trainer (python-crfsuite's
``Trainer``, the engine under sklearn-crfsuite's ``CRF``, driven directly so that one loaded
training set serves several c1/c2 points), so Python memory holds one document's features at a
time.

Cross-validation folds are whole documents, shuffled by a seed; each fold learns its own
skeleton vocabulary from its own training part (no peeking at the held-out documents). Every
document is extracted once per run (``crfdeid.trainset.FeatureCache``): the folds and the
search points reuse it, and folds run in parallel worker processes that inherit it.

Training sees what inference sees: each document's normalised view (``crfdeid.textview``), with
its gold spans mapped into the view; predictions come back at the original's offsets, so scores
compare with the gold as annotated.

Each fold tags its held-out documents once (``Pipeline.candidates``): its scores at the
operating point asked for follow, and so do, with ``point_floor``, the out-of-fold spans at every
point an operating-point search tries (``crfdeid.operating.search``).
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import logging
import math
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import frequency
from .augment import case_variants
from .errors import CrfdeidError
from .evaluate import evaluate
from .features import FeatureExtractor, FeatureSet, build_skeleton_vocabulary, token_labels
from .gazetteer import GazetteerMatcher
from .linguistic import make_annotator
from .merge import MergePolicy
from .operating import LEVELS, OperatingPoint, PointSearch
from .operating import search as search_points
from .packs import NO_PACK, PackChoice, choose_pack, describe_choice
from .rules import RuleEngine, pack_scheme
from .schemes import LabelMap, Scheme, choose_scheme, dropped_rules_message
from .tagger import CrfTagger, check_model_target, rules_fingerprint, write_model
from .textview import TextView
from .tokenize import tokenize
from .trainset import FeatureCache, Pair, training_view
from .types import Document, Span

logger = logging.getLogger(__name__)

#: Chosen on MEDDOCAN dev (trained on train, BIO, ±3 window): ner F1 0.9685 at c1=0.05/c2=0.01,
#: 0.9697 at 0.02/0.05, 0.9698 at 0.01/0.1, 0.9699 at 0.005/0.2, 0.9700 at 0.02/0.2; 150 instead
#: of 100 iterations did not help (0.9678). Less L1 and more L2 keeps more, smaller weights.
DEFAULT_C1 = 0.02
DEFAULT_C2 = 0.2
#: L-BFGS iterations: crfsuite's time is about linear in them (one pass over the corpus each).
#: MEDDOCAN dev ner F1 by iterations (trained on train, c1 0.02, c2 0.2): 40 → 0.9693,
#: 50 → 0.9708, 60 → 0.9701, 70 → 0.9697, 100 → 0.9699 — the same within noise (the loss is 5 %
#: above its value at 100 after 50 iterations, 2 % after 60); 50 halves training, and the model
#: keeps 37k attributes (31k at 100, 53k at 40). 5-fold CV on train+dev (seed 13): ner F1
#: 0.9700 ± 0.0035 at 50, 0.9701 ± 0.0036 at 100.
DEFAULT_ITERATIONS = 50
#: crfsuite's ``feature.minfreq``: (attribute, label) features seen fewer times in the training
#: data are dropped before L-BFGS (1 keeps them all; so do transitions, the unseen ones at
#: frequency 0 included). Trained on MEDDOCAN train (c1 0.02, c2 0.2, 50 iterations), scored on
#: dev: 1 → 1,084k features, ner F1 0.9710 (P 0.9795, R 0.9626); 2 → 363k, 0.9709; 3 → 215k,
#: 0.9705 (P 0.9758, R 0.9654; spans_merged R on the best path 0.9734 → 0.9769, leak 0.0412 →
#: 0.0382). crfsuite's CPU seconds on the same loaded data, interleaved, twice: 96.6/89.7 at 1,
#: 85.1/86.0 at 2, 78.2/77.7 at 3 (-16 %): most of its work does not shrink with the features
#: (forward-backward over every pair of the 43 tags at every token). The pruned model is less
#: sure of O, so the deidentify point needs a lower threshold for the same precision and recall
#: (dev: P(O) < 0.85 at 3 gives spans_merged P 0.9734 / R 0.9855, < 0.95 at 1 P 0.9726 / R 0.9850):
#: choose it by CV with the same min_freq. Train+dev (750 notes): 149 s to train instead of
#: 169-175 s, 302k features instead of 1,574k; 5-fold CV there: ner F1 0.9697 ± 0.0038 against
#: 0.9706 ± 0.0039, spans_merged R 0.9776 against 0.9757; the deidentify point CV chooses falls
#: from R 0.9857 (P 0.9716) to 0.9846 (P 0.9735) — recall first, so 1 stays the default and 3 is
#: a flag (``--min-freq 3``) for a user who wants the 13 % faster training. 25 German letters
#: (5-fold CV, --lang de): ner F1 0.8973 at 1, 0.9021 at 2, 0.8994 at 3.
DEFAULT_MIN_FREQ = 1
#: At most this share of notes copied in lower case (and half as many in capitals): beyond it
#: the copies outweigh the notes as they are written.
MAX_CASE_VARIANTS = 0.5
#: The c1/c2 grid of ``crfdeid cv --search``: L1 (sparsity) x L2 (smoothness). The first five
#: points surround the MEDDOCAN optimum; (0.1, 0.1), the sklearn-crfsuite tutorial's setting,
#: suits small corpora (the issue's German corpus of 61 letters scored best there).
SEARCH_GRID = ((0.05, 0.01), (0.02, 0.05), (0.01, 0.1), (0.02, 0.2), (0.005, 0.2), (0.1, 0.1))


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides what a training run learns; recorded in the model.

    ``language`` is a pack code (``es``, ``none``…); ``pack`` a pack folder given instead
    (``--pack DIR``); ``rules`` the rule pack (None: the one the language pack names).
    ``scheme`` is the label scheme of the corpus (a name, a file or a Scheme; None: detected
    from the corpus's labels). With ``language="none"`` the feature set loses the families that
    need a pack or a lemmatiser (``FeatureSet.neutral``) and the annotator is ``none``."""

    feature_set: FeatureSet
    c1: float = DEFAULT_C1
    c2: float = DEFAULT_C2
    iterations: int = DEFAULT_ITERATIONS
    language: str = "es"
    annotator: Mapping[str, Any] | str = "default"
    rules: str | None = None
    min_freq: int = DEFAULT_MIN_FREQ
    pack: str | None = None
    scheme: str | Scheme | None = None
    #: the share of training notes that also train as a lower-case copy (half as many others in
    #: capitals; ``crfdeid.augment``); 0: none
    case_variants: float = 0.0

    def __post_init__(self) -> None:
        if self.language == NO_PACK and self.pack is None:
            object.__setattr__(self, "feature_set", self.feature_set.neutral())
            object.__setattr__(self, "annotator", "none")

    def check(self) -> None:
        for name in ("c1", "c2"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise CrfdeidError(f"--{name} must be a non-negative number, got {value!r}")
        if not isinstance(self.iterations, int) or self.iterations < 1:
            raise CrfdeidError(f"--iterations must be a positive integer, got {self.iterations!r}")
        if not isinstance(self.min_freq, int) or isinstance(self.min_freq, bool) or self.min_freq < 1:
            raise CrfdeidError(f"--min-freq must be a positive integer, got {self.min_freq!r}")
        if (not isinstance(self.case_variants, (int, float)) or isinstance(self.case_variants, bool)
                or not 0 <= self.case_variants <= MAX_CASE_VARIANTS):
            raise CrfdeidError(f"--case-variants must be a share between 0 and {MAX_CASE_VARIANTS}, "
                               f"got {self.case_variants!r}")

    @property
    def choice(self) -> PackChoice:
        """The language pack and rule pack of this run."""
        if self.pack is not None:
            return choose_pack(pack=self.pack, rules=self.rules)
        return choose_pack(self.language, rules=self.rules)


@dataclass
class Resources:
    """The pack, annotator, gazetteer and rules shared by every document of a run (built once)."""

    config: TrainConfig
    pack: Any = None
    annotator: Any = None
    gazetteer: GazetteerMatcher | None = None
    rules: RuleEngine | None = None
    choice: PackChoice | None = None

    def __post_init__(self) -> None:
        fs = self.config.feature_set
        self.choice = self.config.choice
        self.pack = self.choice.pack
        self.annotator = make_annotator(self.config.annotator, self.pack)
        self.gazetteer = GazetteerMatcher(self.pack) if fs.on("gazetteer") and self.pack is not None else None
        self.rules = RuleEngine.from_pack(self.choice.rules) if fs.on("rules") else None

    def extractor(self, skeleton_vocabulary: Iterable[str]) -> FeatureExtractor:
        return FeatureExtractor(
            self.config.feature_set,
            self.pack,
            self.annotator,
            self.gazetteer,
            self.rules,
            skeleton_vocabulary,
        )


def resolve_frequency(documents: Sequence[Document], config: TrainConfig) -> TrainConfig:
    """``frequency: {lang: auto}`` resolved to the language of the documents' texts (once per
    corpus: every fold of a CV looks words up in the same language)."""
    if config.feature_set.frequency_language != frequency.AUTO:
        return config
    lang = frequency.corpus_language(d.text for d in documents)
    return dataclasses.replace(config, feature_set=config.feature_set.with_frequency_language(lang))


def corpus_labels(documents: Iterable[Document]) -> set[str]:
    return {span.label for doc in documents for span in doc.spans}


def corpus_scheme(documents: Sequence[Document], config: TrainConfig) -> Scheme:
    """The label scheme of the training corpus: ``config.scheme``, else detected (meddocan,
    then generic); labels no scheme maps are an error naming them."""
    return choose_scheme(corpus_labels(documents), config.scheme)


def rules_report(config: TrainConfig, scheme: Scheme) -> str | None:
    """What becomes of the rule pack's spans in a model of ``scheme``: None when every rule's
    category has a label there, else one sentence naming the rules dropped and why."""
    choice = config.choice
    engine = RuleEngine.from_pack(choice.rules)
    label_map = LabelMap.between(engine.scheme, scheme, {r.label for r in engine.rules})
    return dropped_rules_message(engine.rules, label_map)


def corpus_fingerprint(documents: Sequence[Document]) -> str:
    """A hash of the training documents' ids, texts and spans: which data a model learned from."""
    digest = hashlib.sha256()
    for doc in sorted(documents, key=lambda d: d.id):
        digest.update(doc.id.encode() + b"\x00" + doc.text.encode("utf-8", "surrogatepass") + b"\x00")
        for s in doc.sorted_spans():
            digest.update(f"{s.start} {s.end} {s.label};".encode())
    return digest.hexdigest()[:16]


def skeleton_for(documents: Sequence[Document], feature_set: FeatureSet) -> list[str]:
    """The skeleton vocabulary of the documents' views."""
    spec = feature_set.families.get("skeleton")
    if not spec:
        return []
    return build_skeleton_vocabulary(
        (t.text for d in documents for t in tokenize(TextView(d.text).text)), spec["min_count"]
    )


def training_data(documents: Iterable[Document], extractor: FeatureExtractor) -> Iterator[Pair]:
    """(features, gold tags) per tagger sequence of each document's view, generated lazily."""
    scheme = extractor.feature_set.scheme
    for original in documents:
        doc = training_view(original)
        tokens = tokenize(doc.text)
        tags = token_labels(tokens, doc.spans, scheme)
        for seg in extractor.sequences(doc, tokens):
            yield seg.features, tags[seg.first : seg.last]


def crfsuite_params(config: TrainConfig) -> dict[str, Any]:
    """crfsuite's L-BFGS settings for ``config``: those sklearn-crfsuite's ``CRF`` passed
    (transitions between every pair of labels), the others at crfsuite's defaults."""
    return {
        "c1": config.c1,
        "c2": config.c2,
        "max_iterations": config.iterations,
        "feature.minfreq": config.min_freq,
        "feature.possible_transitions": True,
    }


def _new_trainer(verbose: bool) -> Any:
    """python-crfsuite's trainer; ``verbose`` prints one line per L-BFGS iteration to stderr."""
    import pycrfsuite

    class Trainer(pycrfsuite.Trainer):
        def on_iteration(self, log: Any, info: dict[str, Any]) -> None:
            if verbose:
                print(f"iteration {info['num']}: loss {info['loss']:.1f}, "
                      f"{info['active_features']} active features, {info['time']:.1f} s",
                      file=sys.stderr, flush=True)

    return Trainer(verbose=False)


@dataclass
class Loaded:
    """A training set loaded into crfsuite once: it can be trained with several c1/c2."""

    documents: Sequence[Document]
    scheme: Scheme
    resources: Resources
    vocabulary: list[str]
    extractor: FeatureExtractor
    trainer: Any
    feature_seconds: float
    load_seconds: float


def load_training(
    documents: Sequence[Document],
    config: TrainConfig,
    resources: Resources | None = None,
    cache: FeatureCache | None = None,
    verbose: bool = False,
) -> Loaded:
    """Check the documents, extract their features (from ``cache`` when it holds them all)
    and hand them to crfsuite; ``config`` must have its frequency language resolved."""
    if not documents:
        raise CrfdeidError("no training documents")
    if not any(doc.spans for doc in documents):
        raise CrfdeidError(
            "the training documents carry no annotations",
            hint="train on BRAT folders with .ann files beside the .txt, or annotated .jsonl",
        )
    scheme = corpus_scheme(documents, config)
    resources = resources or Resources(config)
    started = time.perf_counter()
    training = [*documents, *case_variants(documents, config.case_variants)]
    ids = [d.id for d in training]
    if cache is not None and all(i in cache for i in ids):
        vocabulary = cache.vocabulary(ids)
        pairs = cache.sequences(ids, vocabulary)
    else:
        vocabulary = skeleton_for(training, config.feature_set)
        pairs = training_data(training, resources.extractor(vocabulary))
    extractor = resources.extractor(vocabulary)
    trainer = _new_trainer(verbose)
    load_seconds = 0.0
    for xseq, yseq in pairs:
        at = time.perf_counter()
        trainer.append(xseq, yseq)
        load_seconds += time.perf_counter() - at
    feature_seconds = time.perf_counter() - started - load_seconds
    return Loaded(documents, scheme, resources, vocabulary, extractor, trainer, feature_seconds, load_seconds)


def train_loaded(
    loaded: Loaded, config: TrainConfig, out_dir: Path, extra_metadata: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Run crfsuite's L-BFGS on a loaded training set with ``config``'s settings and write the
    model folder; returns the metadata written."""
    import pycrfsuite

    check_model_target(out_dir)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="crfdeid-train-") as tmp:
        crf_file = Path(tmp) / "model.crfsuite"
        loaded.trainer.set_params(crfsuite_params(config))
        loaded.trainer.train(str(crf_file))
        crfsuite_seconds = time.perf_counter() - started
        iterations_run = len(loaded.trainer.logparser.iterations)
        features = loaded.trainer.logparser.featgen_num_features  # after min_freq
        tagger = pycrfsuite.Tagger()
        tagger.open(str(crf_file))
        try:
            info = tagger.info()
            labels = sorted({t[2:] for t in tagger.labels() if t != "O"})
            attributes = len(info.attributes)
        finally:
            tagger.close()
        documents, resources, choice = loaded.documents, loaded.resources, loaded.resources.choice
        metadata = {
            "language": choice.lang,
            "labels": labels,
            "scheme": loaded.scheme.to_dict(),
            "feature_set": config.feature_set.to_dict(),
            "skeleton_vocabulary": loaded.vocabulary,
            "annotator": loaded.extractor.annotator.describe(),
            "gazetteer": describe_choice(
                choice, resources.pack, resources.gazetteer.fingerprint if resources.gazetteer else None
            ),
            "rules": {
                "pack": choice.rules,
                "fingerprint": rules_fingerprint(resources.rules) if resources.rules else None,
                "scheme": pack_scheme(choice.rules).name,
            },
            "training": {
                "corpus_fingerprint": corpus_fingerprint(documents),
                "documents": len(documents),
                "spans": sum(len(d.spans) for d in documents),
                "c1": config.c1,
                "c2": config.c2,
                "iterations": config.iterations,
                "iterations_run": iterations_run,
                "min_freq": config.min_freq,
                "case_variants": config.case_variants,
                "variant_documents": len(case_variants(documents, config.case_variants)),
                "seconds": round(loaded.feature_seconds + loaded.load_seconds + crfsuite_seconds, 1),
                "feature_seconds": round(loaded.feature_seconds, 1),
                "load_seconds": round(loaded.load_seconds, 1),
                "crfsuite_seconds": round(crfsuite_seconds, 1),
                "features": features,
                "attributes": attributes,
            },
            "merge_policy": MergePolicy.shipped().to_dict(),
        }
        if extra_metadata:
            metadata.update(extra_metadata)
        return write_model(out_dir, crf_file, metadata)


def fit(
    documents: Sequence[Document],
    config: TrainConfig,
    out_dir: Path,
    resources: Resources | None = None,
    extra_metadata: Mapping[str, Any] | None = None,
    verbose: bool = False,
    cache: FeatureCache | None = None,
) -> dict[str, Any]:
    """Train on ``documents`` and write a model folder; returns the metadata written.
    ``cache``: features already extracted (cross-validation), used when it holds every document."""
    config.check()
    config = resolve_frequency(documents, config)
    check_model_target(out_dir)
    loaded = load_training(documents, config, resources, cache, verbose)
    return train_loaded(loaded, config, out_dir, extra_metadata)


def predict(tagger: CrfTagger, documents: Iterable[Document], with_rules: bool = True,
            policy: MergePolicy | None = None) -> dict[str, Document]:
    """The tagger's spans per document: through the detection pipeline (rules mapped to the
    model's labels, CRF, ``policy`` or the model's merge policy) or, without ``with_rules``, the
    CRF alone (what the CRF contributes)."""
    from .pipeline import Pipeline, detect_on_view

    engine = tagger.extractor.rules
    if engine is None and with_rules:
        engine = RuleEngine.from_pack(tagger.choice.rules)
    if with_rules:
        pipeline = Pipeline(engine, tagger, policy or tagger.merge_policy())
        return {doc.id: doc.with_spans(pipeline.run(doc).spans) for doc in documents}

    def crf_alone(view: Document) -> list[Span]:
        return tagger.detect(view, engine.run(view) if engine else None)

    return {doc.id: doc.with_spans(detect_on_view(doc, crf_alone)) for doc in documents}


# ---------------------------------------------------------------------------------------------
# Cross-validation


def folds_of(ids: Sequence[str], k: int, seed: int) -> list[list[str]]:
    """Document ids split into ``k`` folds of near-equal size after a seeded shuffle."""
    if not 2 <= k <= len(ids):
        raise CrfdeidError(f"--folds must be between 2 and the number of documents ({len(ids)}), got {k}")
    shuffled = sorted(ids)
    random.Random(seed).shuffle(shuffled)
    return [shuffled[i::k] for i in range(k)]


@dataclass
class FoldResult:
    fold: int
    c1: float
    c2: float
    scores: dict[str, Any]
    crf_only: dict[str, Any]
    seconds: float
    #: The held-out notes tagged once (``NoteCandidates``), kept for an operating-point search.
    candidates: list[Any] | None = None


@dataclass
class CvReport:
    """Per-fold and mean ± std MEDDOCAN figures of a cross-validation."""

    folds: list[FoldResult] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    search: list[dict[str, Any]] = field(default_factory=list)
    #: The operating-point search on the out-of-fold predictions (``point_floor``), if asked.
    point_search: PointSearch | None = None

    def summary(self) -> dict[str, Any]:
        metrics = ("ner", "spans_strict", "spans_merged")
        out: dict[str, Any] = {}
        for metric in metrics:
            for key in ("precision", "recall", "f1", "leak"):
                values = [f.scores[metric][key] for f in self.folds]
                out[f"{metric}.{key}"] = {
                    "mean": statistics.fmean(values),
                    "std": statistics.pstdev(values) if len(values) > 1 else 0.0,
                }
        return out

    def per_label(self) -> dict[str, dict[str, float]]:
        labels = sorted({lab for f in self.folds for lab in f.scores["per_label"]})
        table = {}
        for label in labels:
            rows = [f.scores["per_label"].get(label) for f in self.folds]
            rows = [r for r in rows if r is not None]
            table[label] = {k: statistics.fmean(r[k] for r in rows) for k in ("precision", "recall", "f1")}
            table[label]["support"] = sum(r["support"] for r in rows)
        return table

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config,
            "summary": self.summary(),
            "per_label": self.per_label(),
            "folds": [
                {
                    "fold": f.fold,
                    "c1": f.c1,
                    "c2": f.c2,
                    "seconds": round(f.seconds, 1),
                    "scores": {m: f.scores[m] for m in ("ner", "spans_strict", "spans_merged")},
                    "crf_only": {m: f.crf_only[m] for m in ("ner", "spans_merged")},
                }
                for f in self.folds
            ],
            "search": self.search,
            **({"point_search": self.point_search.to_dict()} if self.point_search is not None else {}),
        }


@dataclass(frozen=True)
class Operating:
    """How a fold's model is run, as ``annotate`` runs one: merge policy and threshold."""

    merge_policy: MergePolicy | None = None
    threshold: float | None = None

    @property
    def point(self) -> OperatingPoint | None:
        return OperatingPoint.global_threshold(self.threshold) if self.threshold is not None else None


@dataclass(frozen=True)
class _FoldTask:
    """One fold: its training and held-out document ids, and the settings to train it with
    (one per search point: they share the fold's features, loaded into crfsuite once)."""

    fold: int
    train_ids: list[str]
    test_ids: list[str]
    configs: list[TrainConfig]
    operating: Operating
    keep_candidates: bool = False


#: The running cross-validation's documents by id and feature cache, set before the worker
#: processes start: forked workers inherit them instead of receiving them through a pipe.
_CV_STATE: tuple[dict[str, Document], FeatureCache] | None = None


def _set_cv_state(state: tuple[dict[str, Document], FeatureCache] | None) -> None:
    global _CV_STATE
    _CV_STATE = state


def _run_fold(task: _FoldTask) -> list[FoldResult]:
    """One fold, in a worker process: train on the rest with each setting, tag the held-out
    documents once and score them at the operating point, through the pipeline and with the CRF
    alone. A result's seconds are its share of the fold: loading the features into crfsuite,
    plus its own training and scoring."""
    from .pipeline import Pipeline

    assert _CV_STATE is not None, "cross_validate sets the documents and the feature cache"
    by_id, cache = _CV_STATE
    train_docs = [by_id[i] for i in task.train_ids]
    test_docs = [by_id[i] for i in task.test_ids]
    gold = {d.id: d for d in test_docs}
    started = time.perf_counter()
    loaded = load_training(train_docs, task.configs[0], cache.resources, cache)
    load_seconds = time.perf_counter() - started
    results = []
    for config in task.configs:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix=f"crfdeid-cv{task.fold}-") as tmp:
            model_dir = Path(tmp) / "model"
            train_loaded(loaded, config, model_dir)
            tagger = CrfTagger.load(model_dir)
            pipeline = Pipeline(tagger.extractor.rules or RuleEngine.from_pack(tagger.choice.rules), tagger,
                                task.operating.merge_policy or tagger.merge_policy())
            point = task.operating.point
            cap = max(*LEVELS, point.highest if point is not None else 0.0)
            candidates = [pipeline.candidates(doc, cap) for doc in test_docs]
        merged = {c.document_id: gold[c.document_id].with_spans(c.spans(point)) for c in candidates}
        crf_only = {c.document_id: gold[c.document_id].with_spans(c.crf_spans(point)) for c in candidates}
        results.append(FoldResult(
            task.fold,
            config.c1,
            config.c2,
            evaluate(gold, merged).to_dict(),
            evaluate(gold, crf_only).to_dict(),
            load_seconds + time.perf_counter() - started,
            candidates if task.keep_candidates else None,
        ))
    return results


def _pool_context() -> Any:
    """``fork`` where it is safe (Linux): workers share the parent's feature cache copy-on-write.
    Elsewhere the platform's default, which hands each worker a copy."""
    return multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None


def cross_validate(
    documents: Sequence[Document],
    config: TrainConfig,
    folds: int = 5,
    jobs: int = 1,
    seed: int = 13,
    search: bool = False,
    progress: Callable[[Iterable[Any], int], Iterable[Any]] | None = None,
    operating: Operating | None = None,
    point_floor: float | None = None,
    point_per_label: bool = False,
) -> CvReport:
    """k-fold CV by document; with ``search`` every c1/c2 of ``SEARCH_GRID`` is tried and the best
    mean ner F1 is reported (its folds are the report's folds). The label scheme is chosen once,
    from the whole corpus, so every fold's model has the same one; ``operating`` runs each fold's
    model with a merge policy and threshold, as ``annotate`` would. Each document's features
    are extracted once (``FeatureCache``); ``progress`` counts folds. With ``point_floor`` the
    out-of-fold predictions of the reported folds choose the operating point of highest
    spans_merged recall at precision >= ``point_floor`` (``report.point_search``; per-label
    thresholds too with ``point_per_label``)."""
    config.check()
    config = resolve_frequency(documents, config)
    config = dataclasses.replace(config, scheme=corpus_scheme(documents, config))
    operating = operating or Operating()
    by_id = {d.id: d for d in documents}
    split = folds_of(list(by_id), folds, seed)
    grid = SEARCH_GRID if search else ((config.c1, config.c2),)
    configs = [dataclasses.replace(config, c1=c1, c2=c2) for c1, c2 in grid]
    tasks = []
    for k, held_out in enumerate(split):
        held = set(held_out)
        train_ids = [i for i in sorted(by_id) if i not in held]
        tasks.append(_FoldTask(k, train_ids, list(held_out), configs, operating, point_floor is not None))
    # the copies in other cases of every note are extracted once too; a fold trains on those
    # of its training notes alone (``load_training`` asks for them by id)
    copies = case_variants(documents, config.case_variants)
    state = (by_id, FeatureCache([*documents, *copies], Resources(config)))
    results: list[FoldResult] = []
    if jobs > 1:
        gc.collect()
        gc.freeze()  # the cache is read-only from here: keep the collector off its pages in workers
        try:
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=_pool_context(),
                                     initializer=_set_cv_state, initargs=(state,)) as pool:
                iterator = pool.map(_run_fold, tasks)
                for rows in progress(iterator, len(tasks)) if progress else iterator:
                    results.extend(rows)
        finally:
            gc.unfreeze()
    else:
        _set_cv_state(state)
        try:
            iterator = map(_run_fold, tasks)
            for rows in progress(iterator, len(tasks)) if progress else iterator:
                results.extend(rows)
        finally:
            _set_cv_state(None)
    by_setting: dict[tuple[float, float], list[FoldResult]] = {}
    for r in results:
        by_setting.setdefault((r.c1, r.c2), []).append(r)
    search_rows = []
    for (c1, c2), rows in by_setting.items():
        f1s = [r.scores["ner"]["f1"] for r in rows]
        search_rows.append(
            {
                "c1": c1,
                "c2": c2,
                "ner_f1_mean": statistics.fmean(f1s),
                "ner_f1_std": statistics.pstdev(f1s) if len(f1s) > 1 else 0.0,
            }
        )
    best = max(search_rows, key=lambda r: r["ner_f1_mean"])
    chosen = sorted(by_setting[(best["c1"], best["c2"])], key=lambda r: r.fold)
    points = None
    if point_floor is not None:
        notes = [c for r in chosen for c in r.candidates or ()]
        points = search_points(notes, by_id, point_floor, per_label=point_per_label)
    for r in results:
        r.candidates = None
    report = CvReport(
        chosen,
        {
            "folds": folds,
            "seed": seed,
            "documents": len(documents),
            "corpus_fingerprint": corpus_fingerprint(documents),
            "c1": best["c1"],
            "c2": best["c2"],
            "iterations": config.iterations,
            "min_freq": config.min_freq,
            "case_variants": config.case_variants,
            "feature_set": config.feature_set.name,
            "language": config.choice.name,
            "rules": config.choice.rules,
            "scheme": config.scheme.name if isinstance(config.scheme, Scheme) else config.scheme,
            "threshold": operating.threshold,
            "merge_policy": operating.merge_policy.to_dict() if operating.merge_policy else None,
        },
        search_rows if search else [],
        points,
    )
    return report


def format_cv(report: CvReport) -> str:
    """Per-fold lines, mean ± std, the per-label table and the operating-point search, for people."""
    lines = []
    if report.search:
        lines.append("c1/c2 search (mean ner F1 over folds):")
        for row in sorted(report.search, key=lambda r: -r["ner_f1_mean"]):
            lines.append(
                f"  c1={row['c1']:<5} c2={row['c2']:<6} {row['ner_f1_mean']:.4f} ± {row['ner_f1_std']:.4f}"
            )
        lines.append(f"best: c1={report.config['c1']} c2={report.config['c2']}")
        lines.append("")
    lines.append(
        f"{'fold':>4}  {'ner P':>6} {'ner R':>6} {'ner F1':>6}  {'merged R':>8}  {'leak':>6}  {'seconds':>7}"
    )
    for f in report.folds:
        ner, merged = f.scores["ner"], f.scores["spans_merged"]
        lines.append(
            f"{f.fold:>4}  {ner['precision']:6.4f} {ner['recall']:6.4f} {ner['f1']:6.4f}  "
            f"{merged['recall']:8.4f}  {ner['leak']:6.4f}  {f.seconds:7.1f}"
        )
    lines.append("")
    summary = report.summary()
    for metric in ("ner", "spans_strict", "spans_merged"):
        cells = "  ".join(
            f"{key} {summary[f'{metric}.{key}']['mean']:.4f} ± {summary[f'{metric}.{key}']['std']:.4f}"
            for key in ("precision", "recall", "f1", "leak")
        )
        lines.append(f"{metric:<13} {cells}")
    lines.append("")
    lines.append(f"{'label':<34} {'P':>6} {'R':>6} {'F1':>6} {'support':>8}")
    for label, row in report.per_label().items():
        lines.append(
            f"{label:<34} {row['precision']:6.3f} {row['recall']:6.3f} {row['f1']:6.3f} {row['support']:8d}"
        )
    if report.point_search is not None:
        from .operating import format_search

        lines += ["", format_search(report.point_search)]
    return "\n".join(lines)


def write_json(path: Path, data: Any) -> None:
    from .io.text import atomic_write_text

    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
