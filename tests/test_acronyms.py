"""An acronym defined in parentheses after a detected organisation takes its label."""

from __future__ import annotations

import pytest

from crfdeid.acronyms import SOURCE, acronym_spans, with_acronyms
from crfdeid.pipeline import Pipeline, load_pipeline
from crfdeid.schemes import load_scheme
from crfdeid.types import Document, Span

CATEGORY = load_scheme("meddocan").category
LETTER = ("Remitido por: Dra. Carmen Blanco. Servicio de Oftalmología. Complejo Hospitalario "
          "Universitario de Vigo (CHUVI). C/ Pizarro, s/n 36204 Vigo (Pontevedra).\n"
          "Ingresó en la UCI del CHUVI el 3 de mayo; control en consultas del CHUVI-Meixoeiro.\n")


def _span(text: str, phrase: str, label: str) -> Span:
    start = text.index(phrase)
    return Span(start, start + len(phrase), label, "crf")


def _texts(text: str, spans: list[Span]) -> list[tuple[str, str]]:
    return [(s.label, text[s.start:s.end]) for s in spans]


def test_the_acronym_and_its_later_mentions_take_the_hospitals_label() -> None:
    hospital = _span(LETTER, "Complejo Hospitalario Universitario de Vigo", "HOSPITAL")
    found = acronym_spans(LETTER, [hospital], CATEGORY)
    # "CHUVI-Meixoeiro": the hyphen ends a word, so its CHUVI is a whole-word mention too
    assert _texts(LETTER, found) == [("HOSPITAL", "CHUVI")] * 3
    assert {s.source for s in found} == {SOURCE}


def test_only_after_an_organisation_and_only_capitals() -> None:
    town = _span(LETTER, "Vigo", "TERRITORIO")
    assert acronym_spans(LETTER, [town], CATEGORY) == []  # "(Pontevedra)" follows a town
    text = "Hospital Ramón y Cajal (España) y Hospital La Paz (Madrid)."
    spans = [_span(text, "Hospital Ramón y Cajal", "HOSPITAL"), _span(text, "Hospital La Paz", "HOSPITAL")]
    assert acronym_spans(text, spans, CATEGORY) == []
    text = "Instituto Colombiano del Dolor (INCODOL) y Facultad de Medicina (UCI)."
    spans = [_span(text, "Instituto Colombiano del Dolor", "INSTITUCION"),
             _span(text, "Facultad de Medicina", "INSTITUCION")]
    clinical = {"UCI"}.__contains__
    assert _texts(text, acronym_spans(text, spans, CATEGORY, clinical)) == [("INSTITUCION", "INCODOL")]


def test_the_parenthesis_must_follow_the_name() -> None:
    text = "Hospital General del Oeste, servicio de urgencias (CBMF-HGO)."
    spans = [_span(text, "Hospital General del Oeste", "HOSPITAL")]
    assert acronym_spans(text, spans, CATEGORY) == []
    text = "Hospital General del Oeste (CBMF-HGO)."
    hospital = _span(text, "Hospital General del Oeste", "HOSPITAL")
    assert _texts(text, acronym_spans(text, [hospital], CATEGORY)) == [("HOSPITAL", "CBMF-HGO")]


def test_a_mention_already_detected_is_not_doubled() -> None:
    hospital = _span(LETTER, "Complejo Hospitalario Universitario de Vigo", "HOSPITAL")
    first = LETTER.index("(CHUVI)") + 1
    known = Span(first, first + 5, "HOSPITAL", "crf")
    spans = with_acronyms(LETTER, [hospital, known], CATEGORY)
    assert _texts(LETTER, spans).count(("HOSPITAL", "CHUVI")) == 3
    assert spans == sorted(spans, key=lambda s: (s.start, s.end, s.label))


@pytest.fixture(scope="module")
def embedded() -> Pipeline:
    return load_pipeline()


def test_the_embedded_pipeline_finds_the_acronyms_of_a_hospital_it_finds(embedded: Pipeline) -> None:
    spans = embedded.run(Document("n", LETTER)).spans
    hospitals = [LETTER[s.start:s.end] for s in spans if s.label == "HOSPITAL"]
    assert hospitals.count("CHUVI") == 3, _texts(LETTER, list(spans))
    assert "UCI" not in [LETTER[s.start:s.end] for s in spans]


def test_a_search_over_operating_points_sees_the_acronyms_too(embedded: Pipeline) -> None:
    """``candidates`` (what ``cv --search-point`` and ``annotate --operating-point`` score) gives
    the spans ``run`` gives: the acronyms included."""
    candidates = embedded.candidates(Document("n", LETTER))
    spans = candidates.spans(embedded.tagger.point)
    assert _texts(LETTER, spans) == _texts(LETTER, list(embedded.run(Document("n", LETTER)).spans))
    assert [LETTER[s.start:s.end] for s in spans].count("CHUVI") == 3


def test_a_detected_acronym_under_another_organisations_label_takes_the_names() -> None:
    # the sixth set written blind: "(CHUA)" as an institution, later "CHUA" as a hospital, had
    # two surrogates ("CSIC" and "CHUT")
    text = ("trasladado al Complejo Hospitalario Universitario de Albacete (CHUA). "
            "Revisión en consulta de Neurología del CHUA el 12-1-2017.")
    hospital = _span(text, "Complejo Hospitalario Universitario de Albacete", "HOSPITAL")
    first = _span(text, "CHUA", "INSTITUCION")
    spans = with_acronyms(text, [hospital, first], CATEGORY)
    assert _texts(text, spans) == [("HOSPITAL", "Complejo Hospitalario Universitario de Albacete"),
                                   ("HOSPITAL", "CHUA"), ("HOSPITAL", "CHUA")]


def test_a_units_acronym_after_its_hospital_keeps_its_label() -> None:
    # MEDDOCAN train: "… Maxilofacial del Hospital General del Oeste "Dr. José Gregorio Hernández"
    # (CBMF-HGO)" is the unit's acronym, an institution in the gold
    text = ('Unidad de Cirugía Bucal y Maxilofacial del Hospital General del Oeste "Dr. José Gregorio '
            'Hernández" (CBMF-HGO); 24 h')
    hospital = _span(text, 'Hospital General del Oeste "Dr. José Gregorio Hernández"', "HOSPITAL")
    unit = _span(text, "CBMF-HGO", "INSTITUCION")
    assert _texts(text, with_acronyms(text, [hospital, unit], CATEGORY))[1] == ("INSTITUCION", "CBMF-HGO")


def test_a_names_initials_are_its_acronym_defined_or_not() -> None:
    # the ninth set written blind: "Hospital General de Fuerteventura" and later "la UCI del HGF",
    # "Hospital Universitario Lucus Augusti" and "en el HULA": both left in clear
    text = ("Remitido al Hospital General de Fuerteventura. Ingresó en la UCI del HGF. Control en el "
            "Hospital Universitario Lucus Augusti y en el HULA.")
    spans = [_span(text, "Hospital General de Fuerteventura", "HOSPITAL"),
             _span(text, "Hospital Universitario Lucus Augusti", "HOSPITAL")]
    found = [(text[s.start:s.end], s.label) for s in acronym_spans(text, spans, CATEGORY)]
    assert found == [("HGF", "HOSPITAL"), ("HULA", "HOSPITAL")]
    # not a clinical acronym that happens to spell a name ("Unidad de Cuidados Intensivos" is no
    # span here; "Hospital Universitario de Canarias" and "HUC" is), nor inside a longer code
    text = "Hospital General del Oeste; ingresa en CBMF-HGO."
    assert acronym_spans(text, [_span(text, "Hospital General del Oeste", "HOSPITAL")], CATEGORY) == []
