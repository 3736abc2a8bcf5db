"""Training and cross-validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.errors import CrfdeidError
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.tagger import CrfTagger
from crfdeid.train import (
    TrainConfig,
    corpus_fingerprint,
    cross_validate,
    fit,
    folds_of,
    format_cv,
    predict,
)
from crfdeid.types import Document, Span

from .conftest import EXAMPLES


def test_folds_are_disjoint_complete_and_seeded() -> None:
    ids = [f"doc{i}" for i in range(11)]
    folds = folds_of(ids, 3, seed=1)
    assert sorted(i for f in folds for i in f) == sorted(ids)
    assert max(map(len, folds)) - min(map(len, folds)) <= 1
    assert folds == folds_of(list(reversed(ids)), 3, seed=1)
    assert folds != folds_of(ids, 3, seed=2)


def test_bad_fold_counts() -> None:
    with pytest.raises(CrfdeidError, match="--folds must be between 2"):
        folds_of(["a", "b"], 3, seed=1)


def test_corpus_fingerprint_follows_texts_and_spans() -> None:
    a = Document("a", "Ana vive en Lugo.", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"),))
    same = Document("a", "Ana vive en Lugo.", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"),))
    more = a.with_spans((*a.spans, Span(12, 16, "TERRITORIO")))
    assert corpus_fingerprint([a]) == corpus_fingerprint([same]) != corpus_fingerprint([more])


def test_training_needs_annotations(tmp_path: Path) -> None:
    with pytest.raises(CrfdeidError, match="carry no annotations"):
        fit([Document("a", "Sin anotar.")], TrainConfig(FeatureSet.load("default")), tmp_path / "m")


@pytest.mark.parametrize("field, value", [("c1", -1.0), ("c2", float("nan")), ("iterations", 0)])
def test_bad_hyperparameters(field: str, value: float) -> None:
    config = TrainConfig(FeatureSet.load("default"), **{field: value})
    with pytest.raises(CrfdeidError, match=f"--{field}"):
        config.check()


def test_training_is_deterministic(tiny_model: Path, tmp_path: Path) -> None:
    docs = list(load_corpus([EXAMPLES]).values())
    again = tmp_path / "again"
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=40), again)
    assert (again / "model.crfsuite").read_bytes() == (tiny_model / "model.crfsuite").read_bytes()


def test_predict_merges_rules(tiny_model: Path) -> None:
    docs = load_corpus([EXAMPLES])
    tagger = CrfTagger.load(tiny_model)
    merged = predict(tagger, docs.values(), with_rules=True)
    crf_only = predict(tagger, docs.values(), with_rules=False)
    assert set(merged) == set(docs)
    sources = {s.source.split(":")[0] for d in merged.values() for s in d.spans}
    assert "rule" in sources
    assert all(s.source == "crf" for d in crf_only.values() for s in d.spans)


def test_cross_validation_reports_every_fold(tmp_path: Path) -> None:
    docs = list(load_corpus([EXAMPLES]).values())
    config = TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=10)
    report = cross_validate(docs, config, folds=3, jobs=1, seed=3)
    assert [f.fold for f in report.folds] == [0, 1, 2]
    summary = report.summary()
    assert 0.0 <= summary["ner.f1"]["mean"] <= 1.0 and summary["ner.f1"]["std"] >= 0.0
    text = format_cv(report)
    assert "±" in text and "spans_merged" in text and "label" in text
    data = report.to_dict()
    assert data["config"]["folds"] == 3 and len(data["folds"]) == 3
