"""Training's feature cache and cross-validation reusing it: each document extracted once per run,
every fold trained on exactly the features a fresh extraction gives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from crfdeid import train, trainset
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.train import (
    Resources,
    TrainConfig,
    cross_validate,
    fit,
    resolve_frequency,
    skeleton_for,
    training_data,
)
from crfdeid.trainset import FeatureCache

from .conftest import EXAMPLES, GENERIC_CORPUS


def _with_skeleton(min_count: int, extra_conjunctions: list[list[str]] | None = None) -> FeatureSet:
    """The default set with a skeleton vocabulary small corpora have words for; optionally with
    conjunctions over the skeleton token among the others (the cache's general path)."""
    data = FeatureSet.load("default").to_dict()
    data["families"]["skeleton"] = {"min_count": min_count, "ngrams": [[-1, 0], [0, 1]]}
    if extra_conjunctions:
        data["conjunctions"] = [data["conjunctions"][0], *extra_conjunctions, *data["conjunctions"][1:]]
    return FeatureSet.from_dict(data)


@pytest.mark.parametrize(
    "feature_set",
    [
        FeatureSet.load("default"),
        _with_skeleton(2),
        _with_skeleton(2, [["sk0", "lw1"], ["pos0", "sk-1"]]),
        FeatureSet.load("default").without("skeleton"),
    ],
    ids=["default", "small-vocabulary", "skeleton-conjunctions", "no-skeleton"],
)
def test_the_cache_gives_each_training_part_exactly_the_fresh_features(feature_set: FeatureSet) -> None:
    docs = list(load_corpus([EXAMPLES]).values()) + list(load_corpus([GENERIC_CORPUS]).values())
    config = resolve_frequency(docs, TrainConfig(feature_set))
    resources = Resources(config)
    cache = FeatureCache(docs, resources)
    for part in (docs, docs[::2], docs[1::2]):
        ids = [d.id for d in part]
        vocabulary = skeleton_for(part, config.feature_set)
        assert cache.vocabulary(ids) == vocabulary
        fresh = list(training_data(part, resources.extractor(vocabulary)))
        assert list(cache.sequences(ids, vocabulary)) == fresh  # the same strings in the same order
    assert set(cache.extractions.values()) == {1}


def test_a_model_from_the_cache_is_byte_identical_to_a_fresh_one(tmp_path: Path) -> None:
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    config = resolve_frequency(docs, TrainConfig(_with_skeleton(2), iterations=15, language="none"))
    cache = FeatureCache(docs, Resources(config))
    part = docs[1:]
    fit(part, config, tmp_path / "fresh")
    fit(part, config, tmp_path / "cached", cache=cache)
    fresh, cached = (tmp_path / name / "model.crfsuite" for name in ("fresh", "cached"))
    assert fresh.read_bytes() == cached.read_bytes()


def test_cross_validation_extracts_each_document_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five folds x six search points: every training view is built (and extracted) once, and
    each fold hands its features to crfsuite once for all its search points."""
    views: dict[str, int] = {}
    loads: list[int] = []
    original_view, original_load = trainset.training_view, train.load_training

    def counting_view(document):
        views[document.id] = views.get(document.id, 0) + 1
        return original_view(document)

    def counting_load(documents, *args, **kwargs):
        loads.append(len(documents))
        return original_load(documents, *args, **kwargs)

    monkeypatch.setattr(trainset, "training_view", counting_view)
    monkeypatch.setattr(train, "training_view", counting_view)
    monkeypatch.setattr(train, "load_training", counting_load)
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    report = cross_validate(docs, TrainConfig(FeatureSet.load("default"), iterations=3, language="none"),
                            folds=5, jobs=1, search=True)
    assert views == {d.id: 1 for d in docs}
    assert len(loads) == 5 and sum(loads) == 4 * len(docs)
    assert len(report.search) == len(train.SEARCH_GRID) and len(report.folds) == 5


def _scores(report: train.CvReport) -> dict:
    data = report.to_dict()
    for fold in data["folds"]:
        del fold["seconds"]
    return data


def test_folds_score_the_same_in_one_process_and_in_two() -> None:
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    config = TrainConfig(FeatureSet.load("default"), iterations=5, language="none")
    one = cross_validate(docs, config, folds=3, jobs=1, seed=5)
    two = cross_validate(docs, config, folds=3, jobs=2, seed=5)
    assert _scores(one) == _scores(two)
    assert [f.fold for f in two.folds] == [0, 1, 2]


def test_one_loaded_training_set_trains_each_setting_as_fit_would(tmp_path: Path) -> None:
    """What lets a fold load its features into crfsuite once for every search point."""
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    config = resolve_frequency(docs, TrainConfig(FeatureSet.load("default"), iterations=8, language="none"))
    loaded = train.load_training(docs, config)
    for c1, c2 in train.SEARCH_GRID[:3]:
        point = dataclasses.replace(config, c1=c1, c2=c2)
        train.train_loaded(loaded, point, tmp_path / f"loaded-{c1}-{c2}")
        fit(docs, point, tmp_path / f"fit-{c1}-{c2}")
        assert ((tmp_path / f"loaded-{c1}-{c2}" / "model.crfsuite").read_bytes()
                == (tmp_path / f"fit-{c1}-{c2}" / "model.crfsuite").read_bytes())
