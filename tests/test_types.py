"""Span and Document validation and helpers."""

from __future__ import annotations

import math

import pytest

from crfdeid.types import Document, Span, Token

TEXT = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\nNHC: 368503.\n"


# --- Span ------------------------------------------------------------------------------------


def test_span_defaults() -> None:
    span = Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA")
    assert span.source == "gold"
    assert span.score is None
    assert span.fragments is None
    assert span.parts == ((8, 15),)
    assert span.key() == (8, 15, "NOMBRE_SUJETO_ASISTENCIA")


@pytest.mark.parametrize(("start", "end"), [(5, 5), (6, 5), (-1, 3), (-3, -1)])
def test_span_rejects_empty_or_negative(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="empty or negative"):
        Span(start, end, "FECHAS")


@pytest.mark.parametrize(("start", "end"), [(True, 3), (0, True), (False, True)])
def test_span_rejects_bool_offsets(start: object, end: object) -> None:
    with pytest.raises(TypeError, match="bool"):
        Span(start, end, "FECHAS")  # type: ignore[arg-type]


@pytest.mark.parametrize(("start", "end"), [(0.0, 3), (0, 3.0), ("0", 3), (None, 3)])
def test_span_rejects_non_int_offsets(start: object, end: object) -> None:
    with pytest.raises(TypeError, match="must be int"):
        Span(start, end, "FECHAS")  # type: ignore[arg-type]


@pytest.mark.parametrize("label", ["", "NOMBRE SUJETO", "FECHAS\t", "\nEDAD", None, 5])
def test_span_rejects_bad_labels(label: object) -> None:
    with pytest.raises(ValueError, match="label"):
        Span(0, 3, label)  # type: ignore[arg-type]


@pytest.mark.parametrize("score", [0, 0.0, 0.5, 1, 1.0])
def test_span_accepts_scores_in_unit_interval(score: float) -> None:
    assert Span(0, 3, "EDAD_SUJETO_ASISTENCIA", source="crf", score=score).score == score


@pytest.mark.parametrize("score", [-0.01, 1.0001, 2, -1, math.nan, math.inf])
def test_span_rejects_scores_outside_unit_interval(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        Span(0, 3, "EDAD_SUJETO_ASISTENCIA", source="crf", score=score)


def test_span_fragments_are_normalised_to_tuples() -> None:
    span = Span(28, 40, "NOMBRE_SUJETO_ASISTENCIA", fragments=[[28, 34], [35, 40]])  # type: ignore[arg-type]
    assert span.fragments == ((28, 34), (35, 40))
    assert isinstance(span.fragments, tuple)
    assert all(isinstance(f, tuple) for f in span.fragments)
    assert span.parts == ((28, 34), (35, 40))
    assert span == Span(28, 40, "NOMBRE_SUJETO_ASISTENCIA", fragments=((28, 34), (35, 40)))


def test_span_adjacent_fragments_are_allowed() -> None:
    assert Span(0, 6, "CALLE", fragments=((0, 3), (3, 6))).parts == ((0, 3), (3, 6))


@pytest.mark.parametrize(
    ("start", "end", "fragments", "message"),
    [
        (0, 4, ((0, 4),), "two or more"),  # a single fragment is not discontinuous
        (0, 9, ((5, 9), (0, 3)), "ordered"),  # out of order
        (0, 9, ((0, 5), (3, 9)), "ordered"),  # overlapping
        (0, 9, ((0, 0), (3, 9)), "ordered"),  # empty fragment
        (0, 9, ((0, 3), (6, 4), (7, 9)), "ordered"),  # reversed fragment
        (0, 9, ((1, 3), (5, 9)), "do not match"),  # first fragment does not start the span
        (0, 9, ((0, 3), (5, 8)), "do not match"),  # last fragment does not end the span
    ],
)
def test_span_rejects_bad_fragments(start: int, end: int, fragments: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Span(start, end, "CALLE", fragments=fragments)


def test_span_is_frozen() -> None:
    span = Span(0, 3, "EDAD_SUJETO_ASISTENCIA")
    with pytest.raises(AttributeError):
        span.start = 1  # type: ignore[misc]


def test_span_overlaps() -> None:
    a = Span(5, 10, "FECHAS")
    assert a.overlaps(Span(9, 12, "FECHAS"))
    assert a.overlaps(Span(0, 6, "FECHAS"))
    assert a.overlaps(Span(6, 8, "FECHAS"))
    assert not a.overlaps(Span(10, 12, "FECHAS"))  # half-open: touching is not overlapping
    assert not a.overlaps(Span(0, 5, "FECHAS"))


def test_span_equality_includes_source_and_score() -> None:
    assert Span(0, 3, "EDAD_SUJETO_ASISTENCIA") != Span(0, 3, "EDAD_SUJETO_ASISTENCIA", source="crf")
    assert Span(0, 3, "X", source="crf", score=0.5) != Span(0, 3, "X", source="crf", score=0.6)


# --- Document --------------------------------------------------------------------------------


def test_document_accepts_span_ending_at_end_of_text() -> None:
    doc = Document("d", "Ana", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"),))
    assert doc.span_text(doc.spans[0]) == "Ana"


def test_document_rejects_span_past_end_of_text() -> None:
    with pytest.raises(ValueError, match="past the end"):
        Document("d", "Ana", (Span(0, 4, "NOMBRE_SUJETO_ASISTENCIA"),))


def test_document_rejects_non_span() -> None:
    with pytest.raises(TypeError, match="expected Span"):
        Document("d", "Ana", ((0, 3, "NOMBRE_SUJETO_ASISTENCIA"),))  # type: ignore[arg-type]


def test_document_rejects_non_str_text() -> None:
    with pytest.raises(TypeError, match="text must be str"):
        Document("d", b"Ana")  # type: ignore[arg-type]


def test_document_spans_become_a_tuple() -> None:
    doc = Document("d", TEXT, [Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA")])  # type: ignore[arg-type]
    assert isinstance(doc.spans, tuple)
    assert doc.spans == (Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),)


def test_span_text_contiguous() -> None:
    doc = Document("d", TEXT, (Span(47, 53, "ID_SUJETO_ASISTENCIA"),))
    assert doc.span_text(doc.spans[0]) == "368503"


def test_span_text_joins_fragments_with_one_space() -> None:
    text = "Calle del\nAbedul,  5"
    span = Span(0, 20, "CALLE", fragments=((0, 5), (10, 16), (19, 20)))
    doc = Document("d", text, (span,))
    assert doc.span_text(span) == "Calle Abedul 5"


def test_with_spans_returns_new_document_and_keeps_the_rest() -> None:
    original = Document("d", TEXT, (Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),), {"path": "d.txt"})
    new_spans = [Span(28, 34, "NOMBRE_SUJETO_ASISTENCIA"), Span(47, 53, "ID_SUJETO_ASISTENCIA")]
    updated = original.with_spans(iter(new_spans))
    assert updated.spans == tuple(new_spans)
    assert (updated.id, updated.text, updated.metadata) == ("d", TEXT, {"path": "d.txt"})
    assert original.spans == (Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),)  # unchanged
    assert updated != original


def test_with_spans_still_validates() -> None:
    doc = Document("d", "Ana")
    with pytest.raises(ValueError, match="past the end"):
        doc.with_spans([Span(0, 9, "NOMBRE_SUJETO_ASISTENCIA")])


def test_metadata_is_not_compared() -> None:
    spans = (Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),)
    a = Document("d", TEXT, spans, {"path": "a/d.txt", "brat_ignored": 2})
    b = Document("d", TEXT, spans, {"path": "b/d.txt"})
    assert a == b
    assert hash(a) == hash(b)


def test_documents_differing_in_id_text_or_spans_are_not_equal() -> None:
    base = Document("d", TEXT, (Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),))
    assert base != Document("e", TEXT, base.spans)
    assert base != Document("d", TEXT + " ", base.spans)
    assert base != Document("d", TEXT, (Span(8, 15, "FAMILIARES_SUJETO_ASISTENCIA"),))


def test_sorted_spans_orders_by_start_end_label_source() -> None:
    spans = (
        Span(28, 34, "NOMBRE_SUJETO_ASISTENCIA", source="crf"),
        Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(28, 34, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(8, 12, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(8, 15, "FAMILIARES_SUJETO_ASISTENCIA"),
    )
    doc = Document("d", TEXT, spans)
    assert doc.sorted_spans() == [spans[3], spans[4], spans[1], spans[0], spans[2]]
    assert doc.spans == spans  # the stored order is left alone


def test_token_fields() -> None:
    token = Token(0, 6, "Nombre", 0, True)
    assert (token.start, token.end, token.text, token.line, token.line_start) == (
        0, 6, "Nombre", 0, True)
    assert token == (0, 6, "Nombre", 0, True)
