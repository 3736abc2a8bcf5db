"""An HL7 CDA discharge document's header read by its elements (invented values; the layout of
tests/fixtures/es_blind14's cr03, whose timestamps, record number, licence numbers, postal code
and two name parts had leaked, and whose XML namespace URL a surrogate had replaced)."""

from __future__ import annotations

import re

from crfdeid.cda import CATEGORIES, SOURCE, CdaDocument
from crfdeid.schemes import load_scheme

SCHEME = load_scheme("meddocan")
STEP = CdaDocument.for_scheme({c: SCHEME.label_for(c) for c in CATEGORIES})

CDA = """<?xml version="1.0" encoding="UTF-8"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
  <id root="2.16.840.1.113883.19.4" extension="INF-2024-771203"/>
  <code code="18842-5" codeSystem="2.16.840.1.113883.6.1" displayName="Informe de alta"/>
  <effectiveTime value="20240917094500"/>
  <recordTarget>
    <patientRole>
      <id root="NHC" extension="77-0312940"/>
      <id root="TSI" extension="CAAN580412309019"/>
      <addr use="H">
        <streetAddressLine>Calle del Pozo 14, 1.º B</streetAddressLine>
        <city>Plasencia</city>
        <postalCode>10600</postalCode>
        <state>Cáceres</state>
        <country>España</country>
      </addr>
      <telecom use="MC" value="tel:+34 677 20 19 84"/>
      <patient>
        <name><given>Ana Belén</given><family>Nieto-Carrasco</family><family>Vidal</family></name>
        <administrativeGenderCode code="F" displayName="Mujer"/>
        <birthTime value="19580412"/>
      </patient>
    </patientRole>
  </recordTarget>
  <author>
    <time value="20240917"/>
    <assignedAuthor>
      <id root="COLEGIADO" extension="101077312"/>
      <assignedPerson><name>Dra. Elvira Montes Ribas</name></assignedPerson>
      <representedOrganization><name>Hospital Virgen del Puerto</name></representedOrganization>
    </assignedAuthor>
  </author>
  <participant typeCode="IND">
    <associatedEntity classCode="NOK">
      <telecom value="mailto:andres.nieto@correo-ejemplo.es"/>
      <associatedPerson><name>Andrés Nieto Vidal</name></associatedPerson>
    </associatedEntity>
  </participant>
  <componentOf>
    <encompassingEncounter>
      <id root="EPISODIO" extension="HOSP-2024-118830"/>
      <effectiveTime><low value="20240910"/><high value="20240917"/></effectiveTime>
    </encompassingEncounter>
  </componentOf>
  <component><structuredBody><component><section>
    <title>Evolución</title>
    <text>Paciente de 66 años que ingresa por neumonía.</text>
  </section></component></structuredBody></component>
</ClinicalDocument>
"""


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_the_header_by_element_and_participant() -> None:
    assert _found(CDA) == [
        ("INF-2024-771203", "ID_CONTACTO_ASISTENCIAL"), ("20240917094500", "FECHAS"),
        ("77-0312940", "ID_SUJETO_ASISTENCIA"), ("CAAN580412309019", "ID_ASEGURAMIENTO"),
        ("Calle del Pozo 14, 1.º B", "CALLE"), ("Plasencia", "TERRITORIO"), ("10600", "TERRITORIO"),
        ("Cáceres", "TERRITORIO"), ("España", "PAIS"), ("+34 677 20 19 84", "NUMERO_TELEFONO"),
        ("Ana Belén", "NOMBRE_SUJETO_ASISTENCIA"), ("Nieto-Carrasco", "NOMBRE_SUJETO_ASISTENCIA"),
        ("Vidal", "NOMBRE_SUJETO_ASISTENCIA"), ("F", "SEXO_SUJETO_ASISTENCIA"),
        ("Mujer", "SEXO_SUJETO_ASISTENCIA"),
        ("19580412", "FECHAS"), ("20240917", "FECHAS"), ("101077312", "ID_TITULACION_PERSONAL_SANITARIO"),
        ("Elvira Montes Ribas", "NOMBRE_PERSONAL_SANITARIO"), ("Hospital Virgen del Puerto", "HOSPITAL"),
        ("andres.nieto@correo-ejemplo.es", "CORREO_ELECTRONICO"),
        ("Andrés Nieto Vidal", "FAMILIARES_SUJETO_ASISTENCIA"),
        ("HOSP-2024-118830", "ID_CONTACTO_ASISTENCIAL"),
        ("20240910", "FECHAS"), ("20240917", "FECHAS"),
    ]
    assert all(s.source == SOURCE for s in STEP.spans(CDA))


def test_the_markup_and_the_standards_codes_take_no_span() -> None:
    assert STEP is not None
    _, blocked = STEP.read(CDA)
    covered = "".join(CDA[a:b] for a, b in blocked)
    for markup in ("<streetAddressLine>", "</city>", "http://www.w3.org/2001/XMLSchema-instance",
                   "POCD_HD000040", "2.16.840.1.113883.6.1", 'root="NHC"', "18842-5"):
        assert markup in covered, markup
    assert "Plasencia" not in covered and "77-0312940" not in covered
    assert STEP.read("<p>Una nota en HTML, no un CDA.</p>") == ([], [])


def test_the_narrative_is_left_to_the_tagger() -> None:
    assert "66 años" not in [text for text, _ in _found(CDA)]


def test_a_de_identified_cda_is_still_the_same_xml() -> None:
    from crfdeid.deidentify import Deidentifier

    out = Deidentifier(rules_only=True, seed=3).deidentify(CDA).text
    for original in ("20240917094500", "77-0312940", "CAAN580412309019", "Calle del Pozo", "Plasencia",
                     "10600", "677 20 19 84", "Nieto-Carrasco", "19580412", "101077312", "Elvira Montes",
                     "andres.nieto", "HOSP-2024-118830"):
        assert original not in out, original
    tags = re.compile(r"<[^<>]*?(?=\s\w+=|/?>)")  # each tag's name, before its attributes' values
    assert tags.findall(out) == tags.findall(CDA)
    assert 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' in out
    assert 'extension="POCD_HD000040"' in out and 'codeSystem="2.16.840.1.113883.6.1"' in out
    # the surrogate town's province follows it, past the postal code between them
    town = re.search(r"<city>([^<]+)</city>", out)[1]
    province = re.search(r"<state>([^<]+)</state>", out)[1]
    from crfdeid.langpack import fold
    from crfdeid.surrogates import surrogate_data

    data = surrogate_data("es")
    found = data.find_town(town)
    assert found is not None and found[1] == data.province_lookup[fold(province)], (town, province)
