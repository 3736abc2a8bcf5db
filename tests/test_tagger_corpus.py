"""The whole training and tagging path on real MEDDOCAN notes (skipped without the corpus).

A small model (40 training notes, few iterations) must already find most PHI in unseen dev
notes; this catches a broken feature, a label mix-up or an offset slip that the hand-written
fixtures would not.
"""

from __future__ import annotations

from pathlib import Path

from crfdeid.evaluate import evaluate
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.tagger import CrfTagger
from crfdeid.train import TrainConfig, fit, predict


def test_small_model_on_unseen_dev_notes(meddocan_dir: Path, tmp_path: Path) -> None:
    train = sorted(load_corpus([meddocan_dir / "train"]).values(), key=lambda d: d.id)[:40]
    dev = dict(sorted(load_corpus([meddocan_dir / "dev"]).items())[:40])
    fit(train, TrainConfig(FeatureSet.load("default"), iterations=40), tmp_path / "m")
    tagger = CrfTagger.load(tmp_path / "m")
    merged = evaluate(dev, predict(tagger, dev.values(), with_rules=True)).to_dict()
    crf_only = evaluate(dev, predict(tagger, dev.values(), with_rules=False)).to_dict()
    assert merged["ner"]["f1"] > 0.85, merged["ner"]
    assert merged["spans_merged"]["recall"] > 0.85
    assert crf_only["per_label"]["NOMBRE_SUJETO_ASISTENCIA"]["f1"] > 0.8
    for doc in predict(tagger, dev.values()).values():  # every span on real text, offsets intact
        for span in doc.spans:
            assert doc.text[span.start:span.end].strip() == doc.text[span.start:span.end]
