"""Identifiers read aloud in an unrevised dictation (invented values; the layout of
tests/fixtures/es_blind14's cr13, whose licence, record, health-card and DNI numbers, postal
code, phones, plate, e-mail and lot had all been left in clear)."""

from __future__ import annotations

import pytest

from crfdeid import spoken
from crfdeid.schemes import load_scheme

SCHEME = load_scheme("meddocan")
STEP = spoken.SpokenNumbers.for_language("es", {c: SCHEME.label_for(c) for c in spoken.CATEGORIES})

DICTATION = (
    "dicta el doctor ramón gil número de colegiado dos ocho uno cero cuatro cinco siete siete tres "
    "hoy es lunes paciente de setenta años historia clínica número seis uno cero dos tres nueve "
    "dni tres cuatro cinco uno dos ocho nueve cero letra zeta vive en el pueblo código postal "
    "cuatro cuatro cero cero uno teléfono seis seis cuatro doce treinta y uno cero nueve "
    "va en la ambulancia matrícula ge uno dos tres cuatro be ce "
    "y que le manden el informe al correo pgil arroba salud guion ejemplo punto es "
    "tensión ciento treinta y ocho ochenta y dos saturación noventa y seis por ciento "
    "vacuna lote uve te cuatro cuatro uno cero"
)


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_a_dictations_identifiers_by_the_word_before_them() -> None:
    assert _found(DICTATION) == [
        ("dos ocho uno cero cuatro cinco siete siete tres", "ID_TITULACION_PERSONAL_SANITARIO"),
        ("seis uno cero dos tres nueve", "ID_SUJETO_ASISTENCIA"),
        ("tres cuatro cinco uno dos ocho nueve cero letra zeta", "ID_SUJETO_ASISTENCIA"),
        ("cuatro cuatro cero cero uno", "TERRITORIO"),
        ("seis seis cuatro doce treinta y uno cero nueve", "NUMERO_TELEFONO"),
        ("ge uno dos tres cuatro be ce", "IDENTIF_VEHICULOS_NRSERIE_PLACAS"),
        ("pgil arroba salud guion ejemplo punto es", "CORREO_ELECTRONICO"),
        ("uve te cuatro cuatro uno cero", "IDENTIF_DISPOSITIVOS_NRSERIE"),
    ]


def test_measurements_and_ages_in_words_are_no_identifiers() -> None:
    found = [text for text, _ in _found(DICTATION)]
    assert not any("ciento" in t or "noventa" in t or "setenta" in t for t in found)
    assert _found("tiene tres hijos y dos nietos de cinco y siete años") == []


@pytest.mark.parametrize(("said", "characters"), [
    ("dos cinco nueve cuatro uno ocho siete tres letra ene", "25941873N"),
    ("nueve cinco tres cincuenta y cinco cero ocho doce", "953550812"),
    ("jota cero ocho nueve uno be ce", "J0891BC"),
    ("mjortega arroba correo guion ejemplo punto es", "mjortega@correo-ejemplo.es"),
    ("el paciente", None),
])
def test_read_says_what_characters_the_words_stand_for(said: str, characters: str | None) -> None:
    assert spoken.read(said) == characters


def test_speak_says_a_surrogate_as_the_dictation_does() -> None:
    assert spoken.speak("230904117") == "dos tres cero nueve cero cuatro uno uno siete"
    assert spoken.speak("25941873N", "dos … letra ene") == (
        "dos cinco nueve cuatro uno ocho siete tres letra ene")
    assert spoken.speak("UA12") == "letra u letra a uno dos"  # a vowel's name is a word too
    assert spoken.speak("ana.ruiz@correo.es") == "ana punto ruiz arroba correo punto es"


def test_other_languages_have_no_step() -> None:
    assert spoken.SpokenNumbers.for_language("de", {"phone": "PHONE"}) is None


def test_a_dictated_note_is_replaced_in_words() -> None:
    from crfdeid.deidentify import Deidentifier

    result = Deidentifier(rules_only=True, seed=3).deidentify(DICTATION)
    out = result.text
    for original in ("dos ocho uno cero cuatro cinco siete siete tres", "seis uno cero dos tres nueve",
                     "cuatro cuatro cero cero uno", "seis seis cuatro doce", "pgil arroba",
                     "ge uno dos tres cuatro be ce"):
        assert original not in out, original
    assert "tensión ciento treinta y ocho ochenta y dos" in out  # the prose stays as it was
    said = [out[s.start:s.end] for s in result.spans if s.source == spoken.SOURCE]
    assert len(said) == 8
    for words in said:  # every surrogate of a spoken identifier is spoken too
        assert not any(c.isdigit() for c in words), words
        assert spoken.read(words) is not None, words


def test_a_name_that_is_a_number_word_is_a_name() -> None:
    # the surnames "Tres", "Doce", "Arroba" and the given name "Una" are in the pack's tables: a
    # name is never read aloud (tests/property/test_surrogates_every_entry.py caught it)
    from crfdeid.pseudonymise import Pseudonymiser
    from crfdeid.types import Document, Span

    text = "Paciente: Una Tres Arroba, 40 años."
    name = Span(10, 25, "NOMBRE_SUJETO_ASISTENCIA")
    result = Pseudonymiser(seed=2).pseudonymise(Document("d", text, (name,)))
    new = result.text[result.spans[0].start:result.spans[0].end]
    assert not set(new.split()) & {"Una", "Tres", "Arroba"} and not any(c.isdigit() for c in new), new
