"""A town or country named after a preposition in the narrative is a place (invented notes).

Over MEDDOCAN train+dev text, with the embedded model's spans at the de-identification point,
the step adds one span: "su vuelta a España" (a country the annotators left out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.langpack import load_pack
from crfdeid.lone_places import SOURCE, STREET_SOURCE, LonePlaces, with_lone_places
from crfdeid.pipeline import load_pipeline
from crfdeid.types import Document, Span

from .pack_kit import assert_refused

TOWN, COUNTRY = "TERRITORIO", "PAIS"
STEP = LonePlaces.for_pack(load_pack("es"), {"town": TOWN, "country": COUNTRY})
STREETS = LonePlaces.for_pack(load_pack("es"), {"town": TOWN, "country": COUNTRY, "street": "CALLE"})


def _found(text: str, spans: list[Span] | None = None) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text, spans or [])]


@pytest.mark.parametrize("text, place, label", [
    ("Trabaja como auxiliar. Vive en Getafe con su marido y sus dos hijos.", "Getafe", TOWN),
    ("Avisar a trabajadora social por problema de vivienda en Alcorcón.", "Alcorcón", TOWN),
    ("Se trasladó hace un año desde Santiago de Compostela por trabajo.", "Santiago de Compostela", TOWN),
    ("Con posterioridad a su vuelta a Marruecos empeoró.", "Marruecos", COUNTRY),
    ("Residió en Asturias hasta los 20 años.", "Asturias", TOWN),
])
def test_a_place_after_a_preposition_is_found(text: str, place: str, label: str) -> None:
    assert _found(text) == [(place, label)]


@pytest.mark.parametrize("text", [
    "Se diagnosticó síndrome de Tolosa-Hunt.",           # "de": the name of something else
    "Cumple los criterios revisados de El Escorial.",
    "Ingresó en Urgencias por la tarde.",               # no place
    "Fue valorado en Getafe-Norte por su médico.",      # glued to more
    "Acude a Santiago Apóstol, su parroquia.",          # the name goes on
    "Vive en Villanueva del Pardillo Alto.",
    "Vive en Mora con su hija.",                        # a town of fewer than 20,000 people
])
def test_names_of_other_things_are_left_to_the_tagger(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize("text, street", [
    ("Sr. D. José Luis Pardo Ortega\nC/ Real, 45 - 1º\n10600 Plasencia (Cáceres)", "C/ Real, 45 - 1º"),
    ("Refiere agresión en la calle Corrida por un varón desconocido.", "calle Corrida"),
    ("Lugar: Avda. de Portugal 56, 3º A, Móstoles.", "Avda. de Portugal 56, 3º A"),
    ("Domicilio: C/ MAYOR 5", "C/ MAYOR 5"),
])
def test_an_address_after_a_street_type_is_a_street(text: str, street: str) -> None:
    assert STREETS is not None
    assert [(text[s.start:s.end], s.source) for s in STREETS.spans(text, [])] == [(street, STREET_SOURCE)]


@pytest.mark.parametrize("text", [
    "Se pauta por vía Oral.",                      # a street-type word that is a word
    "Médico: Josep Rubio Palau Paseo        NºCol: 08-08-25574.",  # no name after it
    "Vive en la calle con su perro.",
])
def test_no_street_without_a_name(text: str) -> None:
    assert STREETS is not None and STREETS.spans(text, []) == []


def test_streets_need_the_schemes_street_label() -> None:
    assert STEP is not None and STEP.street_types == ()


def test_a_place_next_to_a_detected_span_is_not_added_twice() -> None:
    text = "Vive en Getafe con su marido."
    start = text.index("Getafe")
    detected = [Span(start, start + 6, TOWN, source="crf")]
    assert _found(text, detected) == []
    assert with_lone_places(text, detected, STEP) == detected
    assert with_lone_places(text, detected, None) == detected


def test_the_step_is_the_packs_to_switch_on(tmp_path: Path) -> None:
    assert LonePlaces.for_pack(load_pack("de"), {"town": "LOCATION_CITY"}) is None
    assert LonePlaces.for_pack(load_pack("es"), {"town": None, "country": COUNTRY}) is None
    assert_refused(tmp_path, "lone_places: {min_population: 20000}", [
        ("lone_places: {min_population: -1}", "non-negative"),
        ("lone_places: {min_population: 20000, max: 3}", "unknown key"),
        ("lone_places: 20000", "expected a mapping"),
    ])


def test_the_pipeline_adds_them_after_the_merge() -> None:
    pipeline = load_pipeline(rules_only=True)
    text = "Antecedentes: HTA. Vive en Getafe con su marido Antonio."
    lone = [s for s in pipeline.detect(Document("n", text)) if s.source == SOURCE]
    assert [(text[s.start:s.end], s.label) for s in lone] == [("Getafe", TOWN)]
