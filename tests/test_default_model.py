"""The embedded default model: present, small, and not stale.

A model is stale when anything its features depend on changed after it was trained: the feature
set, the label set, the gazetteers, the rules, the merge policy, the training corpus or the
hyper-parameters. Rebuild it with ``python benchmarks/build_model.py`` and commit the result.
"""

from __future__ import annotations

import json

import pytest

from crfdeid.features import FeatureSet
from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.io.corpus import load_corpus
from crfdeid.io.text import read_text
from crfdeid.labels import MEDDOCAN_LABELS
from crfdeid.langpack import load_pack
from crfdeid.merge import MergePolicy
from crfdeid.pipeline import load_pipeline
from crfdeid.rules import RuleEngine
from crfdeid.tagger import DEFAULT_MODEL_DIR, META_FILE, MODEL_FILE, CrfTagger, file_sha256, rules_fingerprint
from crfdeid.train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS, DEFAULT_MIN_FREQ, corpus_fingerprint
from crfdeid.types import Document

from .conftest import EXAMPLES

REBUILD = "stale embedded model: rebuild it with `python benchmarks/build_model.py` and commit it"


@pytest.fixture(scope="module")
def metadata() -> dict:
    return json.loads((DEFAULT_MODEL_DIR / META_FILE).read_text(encoding="utf-8"))


def test_the_model_ships_inside_the_package_and_is_small() -> None:
    size = (DEFAULT_MODEL_DIR / MODEL_FILE).stat().st_size
    assert 0 < size <= 20_000_000
    assert sorted(p.name for p in DEFAULT_MODEL_DIR.iterdir()) == [MODEL_FILE, META_FILE]


def test_checksum_matches(metadata: dict) -> None:
    assert metadata["model_sha256"] == file_sha256(DEFAULT_MODEL_DIR / MODEL_FILE)


def test_feature_set_is_the_shipped_default(metadata: dict) -> None:
    assert metadata["feature_set"] == FeatureSet.load("default").to_dict(), REBUILD


def test_labels_are_the_meddocan_labels(metadata: dict) -> None:
    assert set(metadata["labels"]) <= set(MEDDOCAN_LABELS)
    assert len(metadata["labels"]) >= 20, REBUILD


def test_packs_are_the_current_ones(metadata: dict) -> None:
    pack = load_pack("es")
    assert metadata["gazetteer"]["fingerprint"] == GazetteerMatcher(pack).fingerprint, REBUILD
    assert metadata["rules"]["fingerprint"] == rules_fingerprint(RuleEngine.from_pack("es")), REBUILD
    assert metadata["annotator"]["backend"] == "default"


def test_merge_policy_is_the_shipped_one(metadata: dict) -> None:
    assert metadata["merge_policy"] == MergePolicy.shipped().to_dict(), REBUILD


def test_hyperparameters_are_the_defaults(metadata: dict) -> None:
    training = metadata["training"]
    assert (training["c1"], training["c2"], training["iterations"]) == (DEFAULT_C1, DEFAULT_C2,
                                                                        DEFAULT_ITERATIONS), REBUILD
    assert training["min_freq"] == DEFAULT_MIN_FREQ, REBUILD


def test_trained_on_meddocan_train_and_dev(metadata: dict, meddocan_dir) -> None:
    docs = list(load_corpus([meddocan_dir / "train", meddocan_dir / "dev"]).values())
    assert metadata["training"]["corpus_fingerprint"] == corpus_fingerprint(docs), REBUILD


def test_the_default_pipeline_annotates_an_unseen_note_out_of_the_box() -> None:
    pipeline = load_pipeline()
    text = read_text(EXAMPLES / "nota-001.txt")
    spans = pipeline.detect(Document("nota-001", text))
    found = {text[s.start:s.end]: s.label for s in spans}
    assert found.get("Lucía") == "NOMBRE_SUJETO_ASISTENCIA"
    assert found.get("Ferrer Galindo") == "NOMBRE_SUJETO_ASISTENCIA"
    assert found.get("Tomás Arregui Sanz") == "NOMBRE_PERSONAL_SANITARIO"
    assert found.get("Zaragoza") == "TERRITORIO"
    assert any(s.source == "crf" for s in spans)


def test_loads_through_the_public_entry_point() -> None:
    tagger = CrfTagger.load_default()
    assert tagger.model_dir == DEFAULT_MODEL_DIR


def test_records_its_scheme_pack_and_rules_like_any_trained_model(metadata: dict) -> None:
    """What `annotate` and `deidentify` read back: nothing is assumed for the embedded model."""
    from crfdeid.schemes import load_scheme

    assert metadata["scheme"] == load_scheme("meddocan").to_dict()
    assert metadata["rules"]["pack"] == "es" and metadata["rules"]["scheme"] == "meddocan"
    assert metadata["gazetteer"]["pack"] == "es" and metadata["gazetteer"]["path"] is None


def test_its_deidentify_point_was_chosen_on_its_own_documents(metadata: dict) -> None:
    """``deidentify`` runs the embedded model at the point it records: chosen by cross-validation
    on train+dev (``python benchmarks/build_model.py --deidentify-point CV_JSON``)."""
    from crfdeid.operating import DEIDENTIFY, recorded_points

    point = recorded_points(metadata).get(DEIDENTIFY)
    if point is None:
        pytest.skip("the embedded model records no deidentify point yet: " + REBUILD)
    assert point.chosen_by["corpus_fingerprint"] == metadata["training"]["corpus_fingerprint"], REBUILD
    # chosen on models pruned as this one is (a report before --min-freq: every model at 1)
    assert point.chosen_by.get("min_freq", 1) == metadata["training"]["min_freq"], REBUILD
    assert point.chosen_by["spans_merged"]["precision"] >= point.chosen_by["min_precision"]
