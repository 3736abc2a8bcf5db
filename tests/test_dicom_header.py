"""The values of a DICOM header pasted into a radiology report, in the three ways tools print one
(invented values; the layout of tests/fixtures/es_blind13's cr05, whose study date and UID had
leaked and whose tags and keywords the tagger had made a postal code, a town and a company)."""

from __future__ import annotations

from crfdeid.dicom_header import CATEGORIES, SOURCE, DicomHeader
from crfdeid.schemes import load_scheme

SCHEME = load_scheme("meddocan")
STEP = DicomHeader.for_scheme({c: SCHEME.label_for(c) for c in CATEGORIES})

LISTED = """CABECERA DEL ESTUDIO
(0008,0020) StudyDate ................ 20260212
(0008,0030) StudyTime ................ 101500
(0008,0060) Modality ................. MR
(0008,0080) InstitutionName .......... HOSPITAL COMARCAL DEL NOROESTE
(0008,0090) ReferringPhysicianName ... LUQUE^PRIEGO^ROSARIO
(0010,0010) PatientName .............. CABELLO^MORENO^JUAN CARLOS
(0010,0020) PatientID ................ HCN00912244
(0010,0030) PatientBirthDate ......... 19580301
(0010,0040) PatientSex ............... M
(0018,1000) DeviceSerialNumber ....... 88121-MR
(0020,000D) StudyInstanceUID ......... 1.2.840.113619.2.55.3.20260212101500.771
"""
DCMDUMP = """(0010,0010) PN [SANZ^OLGA]                             #  10, 1 PatientName
(0010,0030) DA [19700105]                               #   8, 1 PatientBirthDate
(0008,0070) LO [PHILIPS]                                #   8, 1 Manufacturer
"""
PYDICOM = """(0010, 0010) Patient's Name                      PN: 'SANZ^OLGA'
(0010, 0020) Patient ID                          LO: 'HX-5521'
"""


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_a_listed_header_by_tag() -> None:
    assert _found(LISTED) == [
        ("20260212", "FECHAS"), ("HOSPITAL COMARCAL DEL NOROESTE", "HOSPITAL"),
        ("LUQUE", "NOMBRE_PERSONAL_SANITARIO"), ("PRIEGO", "NOMBRE_PERSONAL_SANITARIO"),
        ("ROSARIO", "NOMBRE_PERSONAL_SANITARIO"),
        ("CABELLO", "NOMBRE_SUJETO_ASISTENCIA"), ("MORENO", "NOMBRE_SUJETO_ASISTENCIA"),
        ("JUAN CARLOS", "NOMBRE_SUJETO_ASISTENCIA"), ("HCN00912244", "ID_SUJETO_ASISTENCIA"),
        ("19580301", "FECHAS"), ("M", "SEXO_SUJETO_ASISTENCIA"), ("88121-MR", "IDENTIF_DISPOSITIVOS_NRSERIE"),
        ("1.2.840.113619.2.55.3.20260212101500.771", "ID_CONTACTO_ASISTENCIAL"),
    ]
    assert all(s.source == SOURCE for s in STEP.spans(LISTED))


def test_dcmdump_and_pydicom_print_it_otherwise() -> None:
    assert _found(DCMDUMP) == [("SANZ", "NOMBRE_SUJETO_ASISTENCIA"), ("OLGA", "NOMBRE_SUJETO_ASISTENCIA"),
                               ("19700105", "FECHAS")]
    assert _found(PYDICOM) == [("SANZ", "NOMBRE_SUJETO_ASISTENCIA"), ("OLGA", "NOMBRE_SUJETO_ASISTENCIA"),
                               ("HX-5521", "ID_SUJETO_ASISTENCIA")]


def test_tags_keywords_and_values_that_are_never_phi_take_no_span() -> None:
    assert STEP is not None
    _, blocked = STEP.read(LISTED)
    covered = "".join(LISTED[a:b] for a, b in blocked)
    assert "(0008,0020) StudyDate" in covered and "PatientName" in covered
    assert "MR" in covered and "101500" in covered  # the modality and the time of day
    assert "CABELLO" not in covered and "20260212" not in covered
    assert STEP.read("Sin cabecera.\n") == ([], [])


def test_the_report_is_replaced_and_the_header_keeps_its_tags() -> None:
    from crfdeid.deidentify import Deidentifier

    out = Deidentifier(rules_only=True, seed=3).deidentify(LISTED).text
    for original in ("20260212", "CABELLO", "JUAN CARLOS", "HCN00912244", "19580301", "LUQUE", "88121-MR"):
        assert original not in out, original
    tags = [line[:11] for line in LISTED.splitlines()[1:]]
    assert [line[:11] for line in out.splitlines()[1:]] == tags
    assert "StudyTime ................ 101500" in out and "Modality ................. MR" in out
