"""The fuzzer's own parts: the checker must catch what it claims to, recipes must rebuild
their text, the shrinker must keep the failure."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from crfdeid.deidentify import Deidentifier
from crfdeid.pseudonymise import Pseudonymised
from crfdeid.types import Document, Span
from tests import fuzz_kit as fk

TEXT = "Paciente: Juan Pérez. NHC: 1234567. Ingreso: 12/03/2020 en Zaragoza."


def _run(text: str = TEXT, spans: tuple[Span, ...] = ()) -> tuple[Document, Pseudonymised]:
    if not spans:
        spans = (Span(10, 20, "NOMBRE_SUJETO_ASISTENCIA"), Span(27, 34, "ID_SUJETO_ASISTENCIA"),
                 Span(45, 55, "FECHAS"), Span(59, 67, "TERRITORIO"))
    document = Document("d", text, spans)
    return document, Deidentifier.from_annotations(seed=1).deidentify(document)


def test_a_correct_result_passes():
    document, result = _run()
    fk.check_result(document, document.spans, result)


def test_a_changed_character_outside_the_spans_is_caught():
    document, result = _run()
    bad = replace(result, document=replace(result.document, text=result.text.replace("Ingreso", "Ingresó")))
    with pytest.raises(fk.FuzzFailure, match="text outside spans changed"):
        fk.check_result(document, document.spans, bad)


def test_a_dropped_tail_is_caught():
    document, result = _run()
    bad = replace(result, document=replace(result.document, text=result.text[:-1], spans=()))
    with pytest.raises(fk.FuzzFailure, match="text outside spans changed"):
        fk.check_result(document, document.spans, bad)


def test_a_surrogate_away_from_its_audit_offsets_is_caught():
    document, result = _run()
    first = result.audit[0]
    moved = replace(first, new_start=first.new_start + 1, new_end=first.new_end + 1)
    bad = replace(result, audit=(moved, *result.audit[1:]))
    with pytest.raises(fk.FuzzFailure):
        fk.check_result(document, document.spans, bad)


def test_a_missing_audit_record_is_caught():
    document, result = _run()
    bad = replace(result, audit=result.audit[1:])
    with pytest.raises(fk.FuzzFailure, match="audit does not match"):
        fk.check_result(document, document.spans, bad)


def test_signature_names_the_exception_and_the_crfdeid_functions():
    with pytest.raises(ValueError) as info:
        Span(5, 1, "FECHAS")
    assert fk.signature(info.value) == "ValueError at crfdeid/types.py in __post_init__"
    assert fk.location(info.value).startswith("crfdeid/types.py:")
    assert fk.signature(fk.FuzzFailure("same seed, different output", "…")) == (
        "violation: same seed, different output"
    )


@pytest.mark.parametrize("seed", range(40))
def test_a_recipe_rebuilds_the_mutated_text(seed):
    notes = fk.source_notes()
    case = fk.make_case(fk.RandomChooser(random.Random(seed)), "rules", notes, family="clinical")
    note = next(n for n in notes if n.origin == case.recipe["origin"])
    assert fk.apply_recipe(note, case.recipe) == case.text


@pytest.mark.parametrize("seed", range(20))
def test_a_saved_case_reads_back_the_same(seed):
    case = fk.make_case(fk.RandomChooser(random.Random(seed)), "annotations", fk.source_notes())
    data = fk.case_to_json(case, id="x", expected="ok", found_by="t", date="d", what="w")
    back = fk.case_from_json(data)
    assert (back.text, back.spans, back.policy, back.keyed, back.seed) == (
        case.text, case.spans, case.policy, case.keyed, case.seed)


def test_shrinking_keeps_the_failure_and_moves_the_spans():
    """A failure planted on a long text (a TERRITORIO span on "Melilla") shrinks to that span."""

    def planted(case: fk.Case) -> str | None:
        hit = any(s.label == "TERRITORIO" and "Melilla" in case.text[s.start : s.end] for s in case.spans)
        return "planted" if hit else None

    text = "x" * 300 + "Melilla" + "y" * 300
    spans = (Span(0, 5, "FECHAS"), Span(298, 309, "TERRITORIO", fragments=((298, 299), (300, 309))))
    small = fk.shrink(fk.Case(text, "annotations", spans=spans), "planted", classify=planted)
    assert small.text == "Melilla" and small.spans == (Span(0, 7, "TERRITORIO"),)


def test_corpus_text_is_recognised_and_invented_text_is_not():
    corpus = "Datos del paciente. Nombre: Pedro. Apellidos: De Miguel Rivera. Domicilio: Calle Carmen"
    assert fk.holds_corpus_text("xx Apellidos: De Miguel Rivera. yy", corpus)
    assert not fk.holds_corpus_text("Apellidos: Ferrer Galindo.", corpus)
