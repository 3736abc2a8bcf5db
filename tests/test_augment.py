"""Training notes copied in other letter cases (crfdeid/augment.py), and training and
cross-validation using them: the same spans on the same offsets, the same copies whatever the
order of the notes, a fold's copies from its own training notes only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import train, trainset
from crfdeid.augment import case_variants, is_variant
from crfdeid.errors import CrfdeidError
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.train import TrainConfig, cross_validate, fit
from crfdeid.types import Document, Span

from .conftest import GENERIC_CORPUS

NOTE = "Paciente: Ana Ruiz-Gallardo Peñalver. Vive en Getafe. Straße 5."


def _note(i: int) -> Document:
    start = NOTE.index("Ana")
    return Document(f"note-{i}", NOTE, (Span(start, start + 26, "NOMBRE_SUJETO_ASISTENCIA"),
                                         Span(NOTE.index("Getafe"), NOTE.index("Getafe") + 6, "TERRITORIO")))


def test_copies_keep_their_spans_on_the_same_offsets() -> None:
    copies = case_variants([_note(i) for i in range(200)], 0.25)
    lower = [c for c in copies if c.id.endswith("#lower")]
    upper = [c for c in copies if c.id.endswith("#upper")]
    assert 30 <= len(lower) <= 70 and 10 <= len(upper) <= 40  # about 25 % and 12.5 % of 200
    for copy in lower:
        assert copy.span_text(copy.spans[0]) == "ana ruiz-gallardo peñalver"
        assert copy.span_text(copy.spans[1]) == "getafe"
    for copy in upper:
        assert copy.span_text(copy.spans[0]) == "ANA RUIZ-GALLARDO PEÑALVER"
        assert "STRAßE" in copy.text  # "ß" has no one-letter capital: kept, the offsets too
    assert all(len(c.text) == len(NOTE) and is_variant(c.id) for c in copies)


def test_a_notes_copies_depend_on_its_id_alone() -> None:
    notes = [_note(i) for i in range(60)]
    forward = {c.id for c in case_variants(notes, 0.3)}
    assert forward == {c.id for c in case_variants(list(reversed(notes)), 0.3)}
    halves = case_variants(notes[:30], 0.3) + case_variants(notes[30:], 0.3)
    assert forward == {c.id for c in halves}
    assert case_variants(notes, 0) == []


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_any_text_keeps_its_length(text: str) -> None:
    doc = Document("x", text, (Span(0, len(text), "TERRITORIO"),))
    for copy in case_variants([doc], 0.5) + case_variants([Document("y", text)], 0.5):
        assert len(copy.text) == len(text)


@pytest.mark.parametrize("share", [-0.1, 0.6, True, "0.2"])
def test_a_share_out_of_range_is_refused(share: object) -> None:
    with pytest.raises(CrfdeidError, match="--case-variants"):
        TrainConfig(FeatureSet.load("default"), case_variants=share).check()  # type: ignore[arg-type]


def test_a_model_records_its_copies_and_the_corpus_as_given(tmp_path: Path) -> None:
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    config = TrainConfig(FeatureSet.load("default"), iterations=3, language="none", case_variants=0.5)
    meta = fit(docs, config, tmp_path / "m")
    assert meta["training"]["case_variants"] == 0.5
    assert meta["training"]["documents"] == len(docs) and meta["training"]["variant_documents"] > 0
    plain = fit(docs, TrainConfig(FeatureSet.load("default"), iterations=3, language="none"), tmp_path / "p")
    assert meta["training"]["corpus_fingerprint"] == plain["training"]["corpus_fingerprint"]
    assert json.loads((tmp_path / "m" / "model.json").read_text())["training"]["case_variants"] == 0.5


def test_a_fold_trains_on_the_copies_of_its_own_notes_and_extracts_each_once(monkeypatch) -> None:
    views: dict[str, int] = {}
    trained: list[list[str]] = []
    original_view, original_sequences = trainset.training_view, trainset.FeatureCache.sequences

    def counting_view(document):
        views[document.id] = views.get(document.id, 0) + 1
        return original_view(document)

    def recording_sequences(self, ids, vocabulary):
        trained.append(list(ids))
        return original_sequences(self, ids, vocabulary)

    monkeypatch.setattr(trainset, "training_view", counting_view)
    monkeypatch.setattr(train, "training_view", counting_view)
    monkeypatch.setattr(trainset.FeatureCache, "sequences", recording_sequences)
    docs = list(load_corpus([GENERIC_CORPUS]).values())
    config = TrainConfig(FeatureSet.load("default"), iterations=3, language="none", case_variants=0.5)
    report = cross_validate(docs, config, folds=3, jobs=1)
    copies = {c.id for c in case_variants(docs, 0.5)}
    assert copies and views == {i: 1 for i in [*(d.id for d in docs), *copies]}  # each extracted once
    assert report.config["case_variants"] == 0.5 and len(trained) == 3
    for ids in trained:  # a fold's training part: its notes and their copies, no other copy
        notes = {i for i in ids if not is_variant(i)}
        assert {i for i in ids if is_variant(i)} == {c for c in copies if c.split("#")[0] in notes}
        assert len(notes) < len(docs)
