"""The fields of an HL7 v2 message pasted into a note (an invented ADT and lab message; the shape
of tests/fixtures/es_blind13's cr01, whose record number, health card, timestamps, postal code
and licence number had leaked)."""

from __future__ import annotations

import re

from crfdeid.hl7 import CATEGORIES, SOURCE, Hl7Fields, with_hl7_fields
from crfdeid.merge import with_found
from crfdeid.pipeline import load_pipeline
from crfdeid.schemes import load_scheme
from crfdeid.types import Document, Span

SCHEME = load_scheme("meddocan")
STEP = Hl7Fields.for_scheme({c: SCHEME.label_for(c) for c in CATEGORIES})

MESSAGE = (
    "Resultado recibido del laboratorio:\n"
    "MSH|^~\\&|LAB|HOSP|HIS|DEP|20260114093012||ORU^R01|MSG0001|P|2.5.1\n"
    "PID|1||7744120^^^HVA^PI~52118806Q^^^MI^NNESP~ANDA123456789^^^SAS^JHN||PEDRAZA ORTIZ^LUCÍA^INÉS||"
    "19610723|F|||C/ REAL 7 2º A^^ÉCIJA^SEVILLA^41400^ESP||"
    "955 90 12 34^PRN^PH~^NET^Internet^lpedraza@correo.es\n"
    "NK1|1|ORTIZ CANO^MANUEL|FTH^Padre|||\n"
    "PV1|1|I|MI^201^B||||411187766^SORIA^ELENA^^^^Dra|||MED|||||||||EP26-0004411\n"
    "OBX|1|NM|718-7^Hemoglobina^LN||11.2|g/dL|12.0-15.5|L|||F|||20260113081500||MOLINA^PAZ\n"
    "OBX|2|TX|COM^Comentario^L||Avisado el Dr. Soria a las 10:05.||||||F\n"
    "\n"
    "Sin más incidencias.\n"
)


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_each_field_gets_the_label_the_standard_gives_it() -> None:
    found = _found(MESSAGE)
    assert ("20260114093012", "FECHAS") in found  # MSH-7
    assert ("7744120", "ID_SUJETO_ASISTENCIA") in found  # PID-3, a record number
    assert ("52118806Q", "ID_SUJETO_ASISTENCIA") in found  # PID-3, the national number
    assert ("ANDA123456789", "ID_ASEGURAMIENTO") in found  # PID-3, a health card ("JHN")
    patient, staff = "NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"
    assert ("PEDRAZA ORTIZ", patient) in found and ("INÉS", patient) in found
    assert ("19610723", "FECHAS") in found and ("F", "SEXO_SUJETO_ASISTENCIA") in found
    assert [v for v, label in found if label in ("CALLE", "TERRITORIO", "PAIS")] == [
        "C/ REAL 7 2º A", "ÉCIJA", "SEVILLA", "41400", "ESP"]
    assert ("955 90 12 34", "NUMERO_TELEFONO") in found
    assert ("lpedraza@correo.es", "CORREO_ELECTRONICO") in found
    assert ("ORTIZ CANO", "FAMILIARES_SUJETO_ASISTENCIA") in found  # NK1-2
    assert ("411187766", "ID_TITULACION_PERSONAL_SANITARIO") in found and ("SORIA", staff) in found
    assert ("EP26-0004411", "ID_CONTACTO_ASISTENCIAL") in found  # PV1-19
    # OBX-16 written without the number: the name from the first component
    assert ("MOLINA", "NOMBRE_PERSONAL_SANITARIO") in found and ("PAZ", "NOMBRE_PERSONAL_SANITARIO") in found
    # codes, units, results and the free text are left to the rest of the pipeline
    assert not {"718-7", "11.2", "ORU", "MSG0001", "Hemoglobina", "Padre"} & {v for v, _ in found}
    assert all(s.source == SOURCE for s in STEP.spans(MESSAGE))


def test_no_message_no_span() -> None:
    assert _found("El paciente refiere dolor. PID elevado en la analítica.\nMSH sin separadores\n") == []
    # segments without an MSH first are no message
    assert _found("PID|1||7744120^^^HVA^PI||PEDRAZA^LUCÍA\n") == []


def test_a_message_ends_at_the_first_line_that_is_no_segment() -> None:
    text = MESSAGE + "PID|1||9999999^^^X^PI||OTRA^PERSONA\n"
    assert ("9999999", "ID_SUJETO_ASISTENCIA") not in _found(text)


def test_other_separators_are_read_from_the_msh_segment() -> None:
    text = "MSH#*~\\&#LAB#HOSP#HIS#DEP#20250101120000\nPID#1##123456*** HVA*PI##GIL*ANA\n"
    assert _found(text) == [("20250101120000", "FECHAS"), ("123456", "ID_SUJETO_ASISTENCIA"),
                            ("GIL", "NOMBRE_SUJETO_ASISTENCIA"), ("ANA", "NOMBRE_SUJETO_ASISTENCIA")]


def test_a_detected_span_overlapping_a_field_gives_way() -> None:
    start = MESSAGE.index("PEDRAZA")
    wrong = Span(start, MESSAGE.index("INÉS") + 4, "NOMBRE_PERSONAL_SANITARIO", source="crf")
    elsewhere = Span(0, 10, "INSTITUCION", source="crf")
    out = with_hl7_fields(MESSAGE, [wrong, elsewhere], STEP)
    assert wrong not in out and elsewhere in out
    assert with_hl7_fields(MESSAGE, [wrong], None) == [wrong]
    # and a blocked range drops what overlaps it, nothing else
    assert with_found([wrong, elsewhere], [], [(0, 3)]) == [wrong]


def test_the_pipeline_replaces_every_field_and_keeps_the_structure() -> None:
    from crfdeid.deidentify import Deidentifier

    out = Deidentifier(rules_only=True, seed=3).deidentify(MESSAGE).text
    for original in ("7744120", "52118806Q", "ANDA123456789", "PEDRAZA ORTIZ", "LUCÍA", "19610723",
                     "C/ REAL 7", "41400", "lpedraza@correo.es", "ORTIZ CANO", "411187766", "EP26-0004411",
                     "20260114093012", "20260113081500"):
        assert original not in out, original
    # the separators and the segments' shape are byte-exact
    for separator in "|^":
        assert [line.count(separator) for line in out.splitlines()] == [
            line.count(separator) for line in MESSAGE.splitlines()]
    # a timestamp is shifted as a date, its time of day kept
    stamp = re.search(r"\|(\d{14})\|\|ORU", out)
    assert stamp is not None and stamp[1].endswith("093012") and stamp[1][:8] != "20260114"
    pipeline = load_pipeline(rules_only=True)
    assert any(s.source == SOURCE for s in pipeline.detect(Document("m", MESSAGE)))
