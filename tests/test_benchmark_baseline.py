"""The plain sklearn-crfsuite tagger of benchmarks/plain_crf.py and the side-by-side benchmark
(benchmarks/baseline.py): the baseline must be a working tagger, scored on crfdeid's folds, or
"crfdeid beats the plain CRF" means nothing."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import baseline  # benchmarks/ is not a package
import plain_crf

from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_corpus
from crfdeid.train import folds_of

LETTERS = Path(__file__).resolve().parent / "fixtures" / "de" / "letters"


def test_shape_and_window_features():
    assert plain_crf.shape("Müller-Lüdenscheidt") == "Xx-Xx"
    assert plain_crf.shape("12.03.2019") == "d.d.d"
    first, middle = plain_crf.sequence_features(["Frau", "Weber", "aus", "Köln"])[:2]
    assert first["BOS"] and "-1:lw" not in first and first["2:lw"] == "aus"
    assert middle["lw"] == "weber" and middle["-1:lw"] == "frau" and middle["s3"] == "ber"


def test_the_plain_tagger_learns_the_german_letters():
    docs = sorted(load_corpus([LETTERS]).values(), key=lambda d: d.id)
    train, test = docs[:20], docs[20:]
    predicted = plain_crf.PlainTagger(iterations=60).fit(train).predict(test)
    assert set(predicted) == {d.id for d in test}
    assert all(s.source == "plain-crf" for d in predicted.values() for s in d.spans)
    ner = evaluate({d.id: d for d in test}, predicted).to_dict()["ner"]
    assert ner["f1"] > 0.5, ner  # a real tagger, not a stub: it finds names, dates, towns


def test_the_plain_tagger_runs_on_the_folds_crfdeid_cv_uses(monkeypatch):
    docs = list(load_corpus([LETTERS]).values())
    seen = []

    def fold(args):
        train, test, _c1, _c2 = args
        assert not {d.id for d in train} & {d.id for d in test}
        seen.append(sorted(d.id for d in test))
        return {"ner.f1": 1.0, "spans_merged.recall": 1.0}

    class Inline:  # the pool, in this process
        def __init__(self, max_workers):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, fn, tasks):
            return [fn(t) for t in tasks]

    monkeypatch.setattr(baseline, "_plain_fold", fold)
    monkeypatch.setattr(baseline, "ProcessPoolExecutor", Inline)
    result = baseline.plain_cv(docs, 5, 13, 1)
    assert seen == [sorted(f) for f in folds_of([d.id for d in docs], 5, 13)]
    assert result["mean"] == {"ner.f1": 1.0, "spans_merged.recall": 1.0} and len(result["folds"]) == 5
