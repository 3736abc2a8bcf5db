"""Rules alone on MEDDOCAN dev: precision floors for the labels rules are meant to own.

Floors sit below the measured figures (README, benchmarks/rules.py) by a margin, so the test
catches a rule that starts over-matching, not noise. Fax has six dev spans, so phone and fax are
also pooled. Skips without the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_annotations
from crfdeid.rules import RuleEngine

FLOORS = {
    "CORREO_ELECTRONICO": 0.97,
    "ID_SUJETO_ASISTENCIA": 0.95,
    "ID_ASEGURAMIENTO": 0.95,
    "ID_TITULACION_PERSONAL_SANITARIO": 0.95,
    "ID_CONTACTO_ASISTENCIAL": 0.90,
    "NUMERO_TELEFONO": 0.85,
    "FECHAS": 0.95,
    "EDAD_SUJETO_ASISTENCIA": 0.95,
}


@pytest.fixture(scope="module")
def dev_scores(meddocan_dir: Path):
    gold = load_annotations(meddocan_dir / "dev")
    engine = RuleEngine.from_pack("es")
    system = {doc_id: doc.with_spans(engine.detect(doc)) for doc_id, doc in gold.items()}
    return evaluate(gold, system)


@pytest.mark.parametrize("label", sorted(FLOORS))
def test_rules_only_precision_on_dev_is_above_the_floor(dev_scores, label: str):
    counts = dev_scores.per_label[label]
    assert counts.tp > 0, f"rules found no {label} at all"
    assert counts.precision >= FLOORS[label], f"{label}: {counts.to_dict()}"


def test_phone_and_fax_pooled_precision(dev_scores):
    tel, fax = dev_scores.per_label["NUMERO_TELEFONO"], dev_scores.per_label["NUMERO_FAX"]
    tp, fp = tel.tp + fax.tp, tel.fp + fax.fp
    assert tp / (tp + fp) >= 0.80, (tel.to_dict(), fax.to_dict())


def test_rules_only_recall_on_the_identifier_labels(dev_scores):
    for label in ("CORREO_ELECTRONICO", "ID_ASEGURAMIENTO", "ID_TITULACION_PERSONAL_SANITARIO"):
        assert dev_scores.per_label[label].recall >= 0.95, label
