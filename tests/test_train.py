"""Training and cross-validation."""

from __future__ import annotations

import unicodedata
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
    training_view,
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


@pytest.mark.parametrize("field, value", [("c1", -1.0), ("c2", float("nan")), ("iterations", 0),
                                          ("min_freq", 0), ("min_freq", 1.5)])
def test_bad_hyperparameters(field: str, value: float) -> None:
    config = TrainConfig(FeatureSet.load("default"), **{field: value})
    with pytest.raises(CrfdeidError, match=f"--{field.replace('_', '-')}"):
        config.check()


def test_min_freq_drops_the_rarer_features(tmp_path: Path) -> None:
    """crfsuite keeps exactly the (attribute, label) features seen min_freq times or more in the
    training sequences (with c1 = 0 every feature it keeps has a weight), and the model says so."""
    import dataclasses
    import itertools
    from collections import Counter

    import pycrfsuite

    from crfdeid.train import Resources, resolve_frequency, skeleton_for, training_data

    docs = list(load_corpus([EXAMPLES]).values())
    config = resolve_frequency(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=5))
    extractor = Resources(config).extractor(skeleton_for(docs, config.feature_set))
    pairs = list(training_data(docs, extractor))
    seen = Counter((a, y) for xs, ys in pairs for row, y in zip(xs, ys, strict=True) for a in row)
    # Transitions are features too: the pairs of tags never seen (feature.possible_transitions)
    # have frequency 0, so any min_freq >= 1 drops them as well.
    moves = Counter(pair for _, ys in pairs for pair in itertools.pairwise(ys))

    def state_features(min_freq: int) -> set[tuple[str, str]]:
        meta = fit(docs, dataclasses.replace(config, min_freq=min_freq), tmp_path / str(min_freq))
        assert meta["training"]["min_freq"] == min_freq
        kept = sum(n >= min_freq for n in seen.values()) + sum(n >= min_freq for n in moves.values())
        assert meta["training"]["features"] == kept
        assert CrfTagger.load(tmp_path / str(min_freq)).metadata["training"]["min_freq"] == min_freq
        tagger = pycrfsuite.Tagger()
        tagger.open(str(tmp_path / str(min_freq) / "model.crfsuite"))
        try:
            return set(tagger.info().state_features)
        finally:
            tagger.close()

    assert state_features(1) == set(seen)
    assert state_features(3) == {f for f, n in seen.items() if n >= 3} != set(seen)


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


# -- training and prediction see the normalised view ------------------------------------------


def _retyped(doc: Document) -> Document:
    """The same note typed on another system: NBSP, CRLF, decomposed accents, a direction mark
    before capitals; gold spans moved with the text (a mark before a span's capital is inside)."""
    starts = [0]
    out = []
    for ch in doc.text:
        new = {" ": "\xa0", "\n": "\r\n"}.get(ch) or unicodedata.normalize("NFD", ch)
        if ch.isupper():
            new = "\u200f" + new
        out.append(new)
        starts.append(starts[-1] + len(new))
    spans = [Span(starts[s.start], starts[s.end], s.label,
                  fragments=tuple((starts[a], starts[b]) for a, b in s.fragments) if s.fragments else None)
             for s in doc.spans]
    return Document(doc.id, "".join(out), tuple(spans))


def test_training_view_maps_gold_spans() -> None:
    doc = Document("d", "\ufeffNombre:\xa0Ana\r\nNHC: 1", (Span(9, 12, "NOMBRE_SUJETO_ASISTENCIA"),))
    view = training_view(doc)
    assert view.text == "Nombre: Ana\nNHC: 1"
    assert [view.span_text(s) for s in view.spans] == ["Ana"]


def test_training_sees_the_view(tiny_model: Path, tmp_path: Path) -> None:
    docs = [_retyped(d) for d in load_corpus([EXAMPLES]).values()]
    assert all("\r\n" in d.text and "\xa0" in d.text and "\u200f" in d.text for d in docs)
    retyped = tmp_path / "retyped"
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=40), retyped)
    # The very same features, so the very same weights, byte for byte.
    assert (retyped / "model.crfsuite").read_bytes() == (tiny_model / "model.crfsuite").read_bytes()


@pytest.mark.parametrize("with_rules", [True, False])
def test_predictions_on_a_retyped_note_come_back_at_its_offsets(tiny_model: Path, with_rules: bool) -> None:
    tagger = CrfTagger.load(tiny_model)
    originals = load_corpus([EXAMPLES])
    plain = predict(tagger, originals.values(), with_rules=with_rules)
    for doc_id, doc in originals.items():
        marked = doc.with_spans(plain[doc_id].spans)
        expected = _retyped(marked)
        got = predict(tagger, [expected.with_spans(())], with_rules=with_rules)[doc_id]
        assert got.spans and [(s.start, s.end, s.label) for s in got.spans] == [
            (s.start + (1 if expected.text[s.start] == "\u200f" else 0), s.end, s.label)
            for s in expected.spans]


# --- label schemes and packs --------------------------------------------------------------------


def test_a_model_records_its_scheme_pack_and_rules(generic_model: Path) -> None:
    from crfdeid.gazetteer import GazetteerMatcher
    from crfdeid.langpack import load_pack
    from crfdeid.schemes import load_scheme

    meta = CrfTagger.load(generic_model).metadata
    assert meta["scheme"] == load_scheme("generic").to_dict()  # the whole mapping, not just a name
    assert meta["labels"] == ["AGE", "CITY", "DATE", "EMAIL", "ID_PATIENT", "NAME_CLINICIAN", "NAME_PATIENT"]
    pack = load_pack("es")
    assert meta["gazetteer"] == {"pack": "es", "version": pack.version, "path": None,
                                 "fingerprint": GazetteerMatcher(pack).fingerprint}
    assert meta["rules"]["pack"] == "es" and meta["rules"]["scheme"] == "meddocan"
    assert meta["rules"]["fingerprint"]
    assert CrfTagger.load(generic_model).scheme.name == "generic"


def test_a_language_neutral_model(neutral_model: Path) -> None:
    tagger = CrfTagger.load(neutral_model)
    meta = tagger.metadata
    assert meta["language"] == "none" and meta["annotator"] == {"backend": "none"}
    assert meta["gazetteer"] == {"pack": "none", "version": None, "fingerprint": None, "path": None}
    assert meta["rules"]["pack"] == "none" and meta["rules"]["scheme"] == "generic"
    families = meta["feature_set"]["families"]
    assert "gazetteer" not in families and "lemma_pos" not in families and "rules" in families
    # how common each word is, in the language wordfreq finds the corpus written in (English)
    assert families["frequency"] == {"lang": "en"}
    assert "frequency" in meta["feature_set"]["window"]["families"]
    assert meta["feature_set"]["name"] == "default-neutral"
    assert not any(a.startswith("pos") for c in meta["feature_set"]["conjunctions"] for a in c)
    assert tagger.choice.pack is None and tagger.extractor.gazetteer is None


def test_labels_no_scheme_knows_are_an_error_at_train_time(tmp_path: Path) -> None:
    from crfdeid.schemes import SchemeError

    doc = Document("a", "Seen by Dr. Weber in Lugo.", (Span(12, 17, "NAME_DOCTOR"), Span(21, 25, "CITY")))
    with pytest.raises(SchemeError, match="unmapped: NAME_DOCTOR") as info:
        fit([doc], TrainConfig(FeatureSet.load("default"), iterations=5), tmp_path / "m")
    assert "NAME_DOCTOR: person_clinician" in str(info.value)
    assert not (tmp_path / "m").exists()


def test_a_scheme_of_your_own_is_recorded_whole(tmp_path: Path) -> None:
    scheme = tmp_path / "letters.yaml"
    scheme.write_text("name: letters\nlabels:\n  NAME_DOCTOR: person_clinician\n  CITY: town\n",
                      encoding="utf-8")
    doc = Document("a", "Seen by Dr. Weber in Lugo.\n", (Span(12, 17, "NAME_DOCTOR"), Span(21, 25, "CITY")))
    fit([doc], TrainConfig(FeatureSet.load("default"), iterations=5, scheme=str(scheme), language="none"),
        tmp_path / "m")
    tagger = CrfTagger.load(tmp_path / "m")
    assert tagger.scheme.labels == {"NAME_DOCTOR": "person_clinician", "CITY": "town"}


def test_cross_validation_chooses_one_scheme_and_runs_as_annotate_would(tmp_path: Path) -> None:
    from crfdeid.merge import MergePolicy
    from crfdeid.train import Operating

    from .conftest import GENERIC_CORPUS

    docs = list(load_corpus([GENERIC_CORPUS]).values())
    crf_wins = MergePolicy.from_dict({"default": "crf"})
    report = cross_validate(docs, TrainConfig(FeatureSet.load("default"), iterations=10, language="none"),
                            folds=2, operating=Operating(crf_wins, 0.9))
    assert report.config["scheme"] == "generic" and report.config["language"] == "none"
    assert report.config["threshold"] == 0.9 and report.config["merge_policy"]["default"] == "crf"
    assert set(report.per_label()) <= {"AGE", "CITY", "DATE", "EMAIL", "ID_PATIENT", "NAME_CLINICIAN",
                                       "NAME_PATIENT"}


def test_cv_search_tries_every_point_of_the_grid_and_reports_the_best() -> None:
    from crfdeid.train import SEARCH_GRID

    from .conftest import GENERIC_CORPUS

    docs = list(load_corpus([GENERIC_CORPUS]).values())
    report = cross_validate(docs, TrainConfig(FeatureSet.load("default"), iterations=5, language="none"),
                            folds=2, jobs=2, search=True)
    assert [(r["c1"], r["c2"]) for r in report.search] == list(SEARCH_GRID)
    best = max(report.search, key=lambda r: r["ner_f1_mean"])
    assert (report.config["c1"], report.config["c2"]) == (best["c1"], best["c2"])
    assert {(f.c1, f.c2) for f in report.folds} == {(best["c1"], best["c2"])} and len(report.folds) == 2
    assert report.to_dict()["search"] == report.search


def test_the_training_settings_and_timings_are_recorded(tmp_path: Path) -> None:
    from crfdeid.train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS, DEFAULT_MIN_FREQ

    docs = list(load_corpus([EXAMPLES]).values())
    meta = fit(docs, TrainConfig(FeatureSet.load("default"), iterations=4), tmp_path / "m")
    training = CrfTagger.load(tmp_path / "m").metadata["training"]
    assert training == meta["training"]
    assert (training["c1"], training["c2"], training["iterations"]) == (DEFAULT_C1, DEFAULT_C2, 4)
    assert training["iterations_run"] == 4 and training["min_freq"] == DEFAULT_MIN_FREQ
    assert {"seconds", "feature_seconds", "load_seconds", "crfsuite_seconds", "features",
            "attributes"} <= set(training)
    assert TrainConfig(FeatureSet.load("default")).iterations == DEFAULT_ITERATIONS
    assert TrainConfig(FeatureSet.load("default")).min_freq == DEFAULT_MIN_FREQ


def test_cross_validation_chooses_an_operating_point_on_out_of_fold_predictions() -> None:
    from crfdeid.operating import LEVELS, OperatingPoint

    docs = list(load_corpus([EXAMPLES]).values())
    config = TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=10)
    plain = cross_validate(docs, config, folds=3, seed=3)
    report = cross_validate(docs, config, folds=3, seed=3, point_floor=0.5)
    assert plain.point_search is None and "point_search" not in plain.to_dict()
    assert [f.scores for f in report.folds] == [f.scores for f in plain.folds]  # the folds are untouched
    assert all(f.candidates is None for f in report.folds)  # not kept once searched
    search = report.point_search
    families = [row["family"] for row in search.rows]
    assert families[0] == "viterbi" and families.count("global-separate") == len(LEVELS)
    assert search.chosen is not None and search.chosen_row["precision"] >= 0.5
    assert search.chosen_row["recall"] == max(r["recall"] for r in search.rows if r["precision"] >= 0.5)
    assert isinstance(search.chosen, OperatingPoint) and search.chosen.chosen_by["documents"] == 3
    data = report.to_dict()
    assert data["point_search"]["chosen"] == search.chosen.to_dict()
    assert data["config"]["corpus_fingerprint"] == corpus_fingerprint(docs)
    assert "operating point search" in format_cv(report)


def test_a_recorded_point_round_trips_through_model_json(pointed_model: Path) -> None:
    from crfdeid.operating import DEIDENTIFY, OperatingPoint, recorded_points

    from .conftest import RECORDED_POINT

    tagger = CrfTagger.load(pointed_model)
    assert recorded_points(tagger.metadata)[DEIDENTIFY] == OperatingPoint.from_dict(RECORDED_POINT)
    assert tagger.point is None  # loading a model runs its best path; the caller chooses the point
