"""The detection pipeline: rules, CRF, merge."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from crfdeid.errors import CrfdeidError
from crfdeid.pipeline import Pipeline, load_pipeline
from crfdeid.types import Detector, Document


def test_rules_only_pipeline_finds_regular_identifiers() -> None:
    pipeline = load_pipeline(rules_only=True)
    assert isinstance(pipeline, Detector)
    detection = pipeline.run(Document("d", "NHC: 2347865. Tfno: 948 255 400."))
    assert {s.label for s in detection.spans} == {"ID_SUJETO_ASISTENCIA", "NUMERO_TELEFONO"}
    assert detection.timeouts == ()


def test_pipeline_with_a_model_merges_crf_and_rules(tiny_model: Path) -> None:
    pipeline = load_pipeline(tiny_model)
    text = "Nombre: Lucía.\nApellidos: Ferrer Galindo.\nNHC: 4471902.\n"
    spans = pipeline.detect(Document("d", text))
    sources = {s.source.split(":")[0] for s in spans}
    assert "rule" in sources
    assert [s.start for s in spans] == sorted(s.start for s in spans)
    assert all(not a.overlaps(b) for a, b in itertools.pairwise(spans))


def test_threshold_is_passed_to_the_tagger(tiny_model: Path) -> None:
    assert load_pipeline(tiny_model, threshold=0.7).tagger.threshold == 0.7


def test_bad_timeout() -> None:
    with pytest.raises(CrfdeidError, match="--timeout"):
        load_pipeline(rules_only=True, timeout=0)


def test_a_pipeline_needs_a_detector() -> None:
    with pytest.raises(ValueError):
        Pipeline(None, None)
