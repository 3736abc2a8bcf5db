"""The cells of a table's column whose header names an identifier (invented tables; the first is
the vaccination table of tests/fixtures/es_blind11, whose five lots had leaked)."""

from __future__ import annotations

from pathlib import Path

from crfdeid.langpack import load_pack
from crfdeid.pipeline import load_pipeline
from crfdeid.table_columns import SOURCE, TableColumns, with_table_columns
from crfdeid.types import Document, Span

from .pack_kit import assert_refused

LABELS = {"device": "IDENTIF_DISPOSITIVOS_NRSERIE", "id_patient": "ID_SUJETO_ASISTENCIA",
          "phone": "NUMERO_TELEFONO", "vehicle": "IDENTIF_VEHICULOS_NRSERIE", "id_case": None,
          "id_insurance": "ID_ASEGURAMIENTO", "id_other": "OTRO_NUMERO_IDENTIF"}
STEP = TableColumns.for_pack(load_pack("es"), LABELS)

VACCINES = """Vacunas administradas hoy:

Paciente            Vacuna                           Lote         Vía/lugar
Mamadou L.          Fiebre amarilla                  X3B471V      SC deltoides izq.
Mamadou L.          Fiebre tifoidea polisacárida     W1C882A      IM deltoides der.
Aïssatou            Meningocócica ACWY conjugada     MN4410K      IM deltoides der.
Awa                 Fiebre amarilla                  X3B471V      SC muslo izq.

Hepatitis A: adultos inmunes (serología IgG positiva).
"""


def _found(text: str, spans: list[Span] | None = None) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text, spans or [])]


def test_a_lot_column_laid_out_with_spaces() -> None:
    device = LABELS["device"]
    assert _found(VACCINES) == [("X3B471V", device), ("W1C882A", device), ("MN4410K", device),
                                ("X3B471V", device)]


def test_a_tab_separated_table_by_cell_index() -> None:
    text = ("Ingresos de la semana\n"
            "Cama\tNHC\tPaciente\tTeléfono de contacto\n"
            "12A\t0048817\tRuiz Gil, Ana\t611 20 43 98\n"
            "14B\t0051230\tPeña Sáez, Luis\t+34 922 41 07 66 ext. 12\n"
            "\n"
            "Sin incidencias: 12 camas.\n")
    assert _found(text) == [("0048817", LABELS["id_patient"]), ("611 20 43 98", LABELS["phone"]),
                            ("0051230", LABELS["id_patient"]),
                            ("+34 922 41 07 66 ext. 12", LABELS["phone"])]


def test_a_cell_without_a_digit_a_detected_span_and_the_rows_after_the_table_are_left() -> None:
    text = ("Dispositivo      Nº de serie       Implantado\n"
            "Marcapasos       PJN417732S        2019\n"
            "Holter           pendiente         -\n"
            "\n"
            "Lote 4471 del catéter en la hoja de enfermería.\n")
    serial = text.index("PJN417732S")
    assert _found(text) == [("PJN417732S", LABELS["device"])]
    detected = [Span(serial, serial + 10, LABELS["device"], source="rule")]
    assert _found(text, detected) == []
    assert with_table_columns(text, detected, STEP) == detected
    assert with_table_columns(text, detected, None) == detected


def test_a_form_of_fields_and_a_sentence_are_no_table() -> None:
    assert _found("NHC: 0048817      Cama: 12A      Lote: X3B471V\n") == []
    assert _found("Se anota el lote y el NHC   en la hoja   X3B471V\n") == []
    # a header word in a line of two cells is no header
    assert _found("Lote      Caducidad\nX3B471V   12/2026\n") == []


def test_a_category_the_scheme_lacks_takes_no_cell() -> None:
    step = TableColumns.for_pack(load_pack("es"), {"device": None})
    assert step is None
    assert TableColumns.for_pack(None, LABELS) is None


def test_the_german_pack_names_its_headers() -> None:
    step = TableColumns.for_pack(load_pack("de"), {"device": "DEVICE", "phone": "PHONE"})
    assert step is not None
    text = "Impfstoff        Ch.-B.        Datum\nComirnaty        FK5127        03.11.2025\n"
    assert [(text[s.start:s.end], s.label) for s in step.spans(text, [])] == [("FK5127", "DEVICE")]


def test_the_pack_is_checked(tmp_path: Path) -> None:
    assert_refused(tmp_path, "  vehicle: [matrícula]", [
        ("  vehicles: [matrícula]", "unknown category 'vehicles'"),
        ("  vehicle: matrícula", "must be a list of header words"),
    ])


def test_the_pipeline_reads_the_table_after_the_merge() -> None:
    pipeline = load_pipeline(rules_only=True)
    cells = [(VACCINES[s.start:s.end], s.label) for s in pipeline.detect(Document("n", VACCINES))
             if s.source == SOURCE]
    assert ("W1C882A", LABELS["device"]) in cells and ("MN4410K", LABELS["device"]) in cells
