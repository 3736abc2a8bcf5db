"""The detection pipeline: rules, CRF, merge."""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid.errors import CrfdeidError
from crfdeid.pipeline import Pipeline, detect_on_view, load_pipeline, map_range_to_original
from crfdeid.textview import TextView
from crfdeid.types import Detector, Document, Span


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


# -- detection on the normalised view ---------------------------------------------------------

NOTE = ("Datos del paciente.\nNombre: Ernesto.\nApellidos: Rivera Gómez.\nNHC: 2347865.\n"
        "Fecha de ingreso: 02/09/2024.\nVarón de 66 años, maestro jubilado, vive en Lugo.\n")


def _keys_as_text(text: str, spans) -> list[tuple[str, str]]:
    return [(s.label, text[s.start:s.end]) for s in spans]


@pytest.fixture(scope="module")
def embedded() -> Pipeline:
    return _embedded()


@pytest.mark.parametrize("variant", [
    NOTE.replace(" ", "\xa0"),
    NOTE.replace(" ", "\t"),
    NOTE.replace("\n", "\r\n"),
    unicodedata.normalize("NFD", NOTE),
    NOTE.replace("Ernesto", "\u200fErnesto\u200e").replace("Gómez", "Gómez\U0001f600"),
    NOTE.replace(" ", " \u200b"),
    "\ufeff" + NOTE,
])
def test_the_same_note_typed_differently_gives_the_same_spans(embedded: Pipeline, variant: str) -> None:
    plain = embedded.run(Document("n", NOTE))
    other = embedded.run(Document("n", variant))
    assert {s.label for s in plain.spans} >= {"NOMBRE_SUJETO_ASISTENCIA", "ID_SUJETO_ASISTENCIA", "FECHAS"}
    norm = [(label, TextView(text).text) for label, text in _keys_as_text(variant, other.spans)]
    assert norm == _keys_as_text(NOTE, plain.spans)
    for span in other.spans:  # no span starts or ends on a removed or a combining character
        first, last = variant[span.start], variant[span.end - 1]
        assert not unicodedata.category(first).startswith(("M", "C"))
        assert not unicodedata.category(last).startswith("C") and not ord(last) >= 0x1F000
        assert span.end == len(variant) or not unicodedata.category(variant[span.end]).startswith("M")


def test_ernesto_after_a_non_breaking_space_is_found_as_after_a_space() -> None:
    rules = load_pipeline(rules_only=True)
    for sep in (" ", "\xa0", "\u202f", " \u200f", " \U0001f600"):
        text = f"Nombre:{sep}Ernesto\nApellidos:{sep}Rivera Gómez\nNHC:{sep}2347865\n"
        found = _keys_as_text(text, rules.run(Document("d", text)).spans)
        assert ("ID_SUJETO_ASISTENCIA", "2347865") in found, sep


@dataclass
class _Found:
    spans: list[Span]
    timeouts: tuple = ()


class _Recorder:
    """A rule engine stand-in that records what it was given and finds one fixed word."""

    name = "rules"

    def __init__(self, word: str) -> None:
        self.word = word
        self.seen: list[Document] = []

    def run(self, document: Document) -> _Found:
        self.seen.append(document)
        start = document.text.index(self.word)
        return _Found([Span(start, start + len(self.word), "NOMBRE_SUJETO_ASISTENCIA", "rule:test")])


def test_a_plain_note_goes_to_the_detectors_untouched() -> None:
    recorder = _Recorder("Ana")
    doc = Document("d", "Nombre: Ana.\n")
    Pipeline(recorder).run(doc)  # type: ignore[arg-type]
    assert recorder.seen[0] is doc


def test_detectors_see_the_view_and_spans_come_back_at_original_offsets() -> None:
    recorder = _Recorder("Ana")
    text = "\ufeffNombre:\u00a0\u200fAna.\r\n"
    detection = Pipeline(recorder).run(Document("d", text))  # type: ignore[arg-type]
    assert recorder.seen[0].text == "Nombre: Ana.\n"
    assert [(s.start, s.end) for s in detection.spans] == [(10, 13)]
    assert text[10:13] == "Ana"


@dataclass(frozen=True)
class _RangedTimeout:
    rule_id: str
    document_id: str
    seconds: float
    start: int
    end: int


@dataclass(frozen=True)
class _Unranged:
    rule_id: str


def test_timeout_ranges_are_mapped_back_and_others_pass_unchanged() -> None:
    view = TextView("\ufeffa\r\nb\r\nc")
    assert view.text == "a\nb\nc"
    moved = map_range_to_original(_RangedTimeout("r", "d", 1.0, 2, 5), view)
    assert (moved.start, moved.end) == (4, 8)
    empty = map_range_to_original(_RangedTimeout("r", "d", 1.0, 0, 0), view)
    assert (empty.start, empty.end) == (1, 1)
    plain = _Unranged("r")
    assert map_range_to_original(plain, view) is plain


def test_detect_on_view_maps_any_detector() -> None:
    text = "Dra.\tMari\u0301a Lo\u0301pez"
    spans = detect_on_view(Document("d", text), lambda d: [Span(5, 16, "NOMBRE_PERSONAL_SANITARIO")])
    assert [text[s.start:s.end] for s in spans] == ["Mari\u0301a Lo\u0301pez"]


_ODD = ["\xa0", "\t", "\r\n", "\r", "\u2028", "\u200b", "\u200f", "\ufeff", "\u00ad", "\u0301", "e\u0301",
        "\U0001f600", "\u2764\ufe0f", "\U0001f468\u200d\u2695\ufe0f", "\x0c", "\u3000"]
_NOTE_LIKE = st.lists(st.one_of(st.sampled_from(_ODD), st.sampled_from(NOTE.split(" ")), st.text(max_size=4)),
                      max_size=40).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_NOTE_LIKE)
def test_spans_on_any_text_are_sorted_disjoint_and_never_cut_a_character_sequence(text: str) -> None:
    rules = _rules_only()
    for spans in (rules.run(Document("d", text)).spans, _embedded().run(Document("d", text)).spans):
        for a, b in itertools.pairwise(spans):
            assert a.end <= b.start
        for s in spans:
            assert 0 <= s.start < s.end <= len(text)
            assert not unicodedata.category(text[s.start]).startswith("M") or s.start == 0 \
                or text[s.start - 1].isspace() or unicodedata.category(text[s.start - 1]) == "Cf"
            assert s.end == len(text) or not unicodedata.category(text[s.end]).startswith("M")
            # characters the view removed stay outside a span's edges
            assert "Cf" not in (unicodedata.category(text[s.start]), unicodedata.category(text[s.end - 1]))


@cache
def _rules_only() -> Pipeline:
    return load_pipeline(rules_only=True, timeout=30)


@cache
def _embedded() -> Pipeline:
    return load_pipeline(timeout=30)


# --- label schemes: rules speak the model's labels ---------------------------------------------


def test_spanish_rules_speak_the_labels_of_a_generic_model(generic_model: Path) -> None:
    # the failure: FECHAS, TERRITORIO, NUMERO_TELEFONO in a corpus that had none of them
    pipeline = load_pipeline(generic_model)
    text = "Patient: Ana Ruiz\nIngresa el 5 de marzo de 2014. CP 28004. Tfno: 948 255 400\n"
    spans = pipeline.detect(Document("n", text))
    labels = {s.label for s in spans}
    assert labels and labels <= set(pipeline.scheme.labels)
    assert not labels & {"FECHAS", "TERRITORIO", "NUMERO_TELEFONO"}
    by_text = {text[s.start:s.end]: s for s in spans}
    date = by_text["5 de marzo de 2014"]
    assert date.label == "DATE" and date.source.startswith("rule:")
    assert by_text["948 255 400"].label == "PHONE"


def test_rules_alone_in_the_scheme_asked_for() -> None:
    text = "E-mail: ana@x.es. NHC: 2347865.\n"
    own = load_pipeline(rules_only=True).detect(Document("n", text))
    assert [s.label for s in own] == ["CORREO_ELECTRONICO", "ID_SUJETO_ASISTENCIA"]
    generic = load_pipeline(rules_only=True, scheme="generic").detect(Document("n", text))
    assert [s.label for s in generic] == ["EMAIL", "ID_PATIENT"]
    neutral = load_pipeline(rules_only=True, lang="none")
    # no "NHC" in the neutral rules: the number is only a hint, and hints emit without a model
    assert [(s.label, s.source) for s in neutral.detect(Document("n", text))] == [
        ("EMAIL", "rule:email"), ("ID_OTHER", "rule:id-digits")]
    assert neutral.language == "none" and neutral.scheme.name == "generic"


def test_a_category_the_scheme_lacks_drops_the_rules_spans_and_says_which(tmp_path: Path) -> None:
    scheme = tmp_path / "small.yaml"
    scheme.write_text("name: small\nlabels:\n  WHEN: date\n", encoding="utf-8")
    pipeline = load_pipeline(rules_only=True, scheme=str(scheme))
    text = "Ingresa el 5 de marzo de 2014. Tfno: 948 255 400\n"
    assert [(s.label, text[s.start:s.end]) for s in pipeline.detect(Document("n", text))] == [
        ("WHEN", "5 de marzo de 2014")]
    message = pipeline.dropped_rules()
    assert message is not None and "phone-labelled" in message and "(phone)" in message
    assert "email, email-after-label (email)" in message and "scheme 'small'" in message


def test_another_pack_than_the_models_is_said_once(generic_model: Path, neutral_model: Path) -> None:
    from crfdeid.tagger import ModelError

    said: list[str] = []
    load_pipeline(neutral_model, lang="none", warn=said.append)
    assert said == []  # what the model recorded: nothing to say
    with pytest.raises(ModelError, match="gazetteers and rules changed"):
        load_pipeline(generic_model, lang="none", warn=said.append)
    assert len(said) == 1 and "trained with pack 'es'" in said[0] and "using pack 'none'" in said[0]
    with pytest.raises(ModelError, match="rules changed"):
        load_pipeline(neutral_model, rules="es", warn=said.append)


def test_hint_rules_feed_the_model_but_emit_spans_only_in_a_rules_only_run(neutral_model: Path) -> None:
    """rules/none's digit groups are hints (emit: false): beside a model they are features, and
    a number the model does not tag stays untagged; with the rules alone they are spans."""
    from crfdeid.rules import RuleEngine

    text = "Reagent lot 55501234 was used.\n"
    start = text.index("55501234")
    engine = RuleEngine.from_pack("none")
    assert {s.source for s in engine.run(Document("d", text)).spans} == {"rule:id-digits"}
    assert engine.emitted(engine.run(Document("d", text)).spans) == []
    alone = Pipeline(engine).detect(Document("d", text))
    assert [(s.start, s.label) for s in alone] == [(start, "ID_OTHER")]
    with_model = load_pipeline(neutral_model).detect(Document("d", text))
    assert not any(s.source == "rule:id-digits" for s in with_model)


def test_emit_must_be_a_boolean(tmp_path: Path) -> None:
    from crfdeid.rules import RuleError, load_rules

    (tmp_path / "ids.yaml").write_text(
        "description: d\nrules:\n  - id: x\n    label: FECHAS\n    description: d\n"
        "    pattern: '\\d+'\n    emit: 'no'\n", encoding="utf-8")
    with pytest.raises(RuleError, match="emit must be true or false") as info:
        load_rules(tmp_path)
    assert "ids.yaml:7" in str(info.value)


def test_a_note_tagged_once_gives_the_pipelines_spans_at_any_point(tiny_model: Path) -> None:
    from crfdeid.operating import OperatingPoint

    from .conftest import UNSEEN_NOTE

    pipeline = load_pipeline(tiny_model)
    retyped = UNSEEN_NOTE.replace(" ", "\xa0").replace("\n", "\r\n")  # a view that is not the note
    points = [None, OperatingPoint(threshold=0.9),
              OperatingPoint(labels={"HOSPITAL": 0.99}, spans="separate")]
    for text in (UNSEEN_NOTE, retyped):
        document = Document("n", text)
        candidates = pipeline.candidates(document)
        found = []
        for point in points:
            pipeline.tagger.point = point
            assert candidates.spans(point) == list(pipeline.run(document).spans)
            found.append(candidates.spans(point))
        assert found[0] != found[1] != found[2]  # the points differ here: the test can fail


def test_the_pipeline_says_which_point_it_runs_at(tiny_model: Path, pointed_model: Path) -> None:
    from .conftest import RECORDED_POINT

    assert load_pipeline(tiny_model).point.name == "viterbi"
    assert load_pipeline(tiny_model, default_point="deidentify").point.name == "viterbi"  # none recorded
    recorded = load_pipeline(pointed_model, default_point="deidentify")
    assert recorded.point.name == "deidentify" and recorded.tagger.point.to_dict() == RECORDED_POINT
    assert load_pipeline(pointed_model).tagger.point is None  # annotate's default: the best path
    assert load_pipeline(pointed_model, operating_point="deidentify").point.name == "deidentify"
    overridden = load_pipeline(pointed_model, threshold=0.8, default_point="deidentify")
    assert overridden.point.name == "threshold 0.8" and overridden.tagger.threshold == 0.8
    with pytest.raises(CrfdeidError, match="no operating point"):
        load_pipeline(rules_only=True, threshold=0.8)


def test_a_load_runs_with_the_collector_paused_and_leaves_it_as_it_was(monkeypatch) -> None:
    """A load builds ~200,000 objects in no cycle: no collection walks them while it runs."""
    import gc

    import crfdeid.pipeline as pipeline_module

    seen: list[bool] = []
    real = pipeline_module.RuleEngine.from_pack

    def from_pack(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline_module.RuleEngine, "from_pack", from_pack)
    assert gc.isenabled()
    load_pipeline(rules_only=True)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        load_pipeline(rules_only=True)
        assert not gc.isenabled()  # a caller's own pause is left alone
    finally:
        gc.enable()
