"""A FHIR R4 bundle's identifiers read by element and resource (invented values; resources the
fourteenth blind set's cr01 did not have: a RelatedPerson, an Organization, a Device, an
Observation, a MedicationRequest, a reference resolved by its ``fullUrl``)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.fhir import CATEGORIES, SOURCE, FhirResource
from crfdeid.schemes import load_scheme

SCHEME = load_scheme("meddocan")
STEP = FhirResource.for_scheme({c: SCHEME.label_for(c) for c in CATEGORIES})

BUNDLE = """Exportación de la historia compartida (FHIR R4):
{
  "resourceType": "Bundle",
  "type": "document",
  "identifier": { "system": "urn:ietf:rfc:3986", "value": "DOC-2024-55102" },
  "timestamp": "2024-10-02T13:05:00+02:00",
  "entry": [
    { "fullUrl": "urn:uuid:7a1c",
      "resource": {
        "resourceType": "Patient",
        "identifier": [
          { "system": "https://www.sergas.es/tis", "type": { "coding": [ { "code": "JHN" } ], "text": "TIS" },
            "value": "SGAS480912773011" },
          { "type": { "text": "Historia clínica" }, "value": "0088412" }
        ],
        "name": [ { "use": "official", "text": "Xoán Castro Villar", "family": "Castro Villar",
                    "given": [ "Xoán" ], "prefix": [ "Sr." ] } ],
        "gender": "male",
        "birthDate": "1948",
        "deceasedBoolean": false,
        "telecom": [ { "system": "phone", "value": "981 55 20 17" },
                     { "value": "xoan.castro@correo-ejemplo.gal" } ],
        "address": [ { "text": "Rúa do Vilar 8, 15705 Santiago", "line": [ "Rúa do Vilar 8" ],
                       "city": "Santiago de Compostela", "state": "A Coruña", "postalCode": "15705",
                       "country": "ES" } ],
        "maritalStatus": { "coding": [ { "system": "http://terminology.hl7.org/CodeSystem/v3-MaritalStatus",
                                          "code": "W", "display": "Widowed" } ] },
        "managingOrganization": { "reference": "urn:uuid:org-9" }
      } },
    { "fullUrl": "urn:uuid:rp-2",
      "resource": {
        "resourceType": "RelatedPerson",
        "patient": { "reference": "urn:uuid:7a1c" },
        "relationship": [ { "text": "sobrina" } ],
        "name": [ { "family": "Pazos Castro", "given": [ "Uxía" ] } ],
        "telecom": [ { "system": "sms", "value": "+34 622 10 48 91" } ]
      } },
    { "fullUrl": "urn:uuid:org-9",
      "resource": {
        "resourceType": "Organization",
        "identifier": [ { "system": "urn:oid:2.16.724.4.9.20.93", "value": "CIF-Q1500001A" } ],
        "name": "Complexo Hospitalario Universitario de Santiago",
        "alias": [ "CHUS" ],
        "telecom": [ { "system": "fax", "value": "981 95 00 00" } ]
      } },
    { "fullUrl": "urn:uuid:dev-3",
      "resource": { "resourceType": "Device", "serialNumber": "MDT-PM-88120457",
                    "patient": { "reference": "urn:uuid:7a1c", "display": "Xoán Castro" } } },
    { "fullUrl": "urn:uuid:obs-4",
      "resource": {
        "resourceType": "Observation", "status": "final",
        "code": { "coding": [ { "system": "http://loinc.org", "code": "8867-4", "display": "Heart rate" } ] },
        "subject": { "reference": "urn:uuid:7a1c" },
        "effectiveDateTime": "2024-09-30T08:15:00+02:00",
        "performer": [ { "display": "Dra. Iria Fernández Sixto" } ],
        "valueQuantity": { "value": 58, "unit": "/min" }
      } },
    { "fullUrl": "urn:uuid:mr-5",
      "resource": {
        "resourceType": "MedicationRequest", "status": "active", "intent": "order",
        "identifier": [ { "value": "RX-77120934" } ],
        "authoredOn": "2024-10-01",
        "requester": { "reference": "urn:uuid:pr-6", "display": "Manuel Outeiral Rey" },
        "text": { "status": "generated",
                  "div": "<div xmlns=\\"http://www.w3.org/1999/xhtml\\">Bisoprolol 2,5 mg cada 24 h</div>" }
      } }
  ]
}
Fin de la exportación."""


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_a_bundle_by_element_and_resource() -> None:
    assert _found(BUNDLE) == [
        ("DOC-2024-55102", "ID_CONTACTO_ASISTENCIAL"), ("2024-10-02T13:05:00+02:00", "FECHAS"),
        ("SGAS480912773011", "ID_ASEGURAMIENTO"), ("0088412", "ID_SUJETO_ASISTENCIA"),
        ("Xoán Castro Villar", "NOMBRE_SUJETO_ASISTENCIA"), ("Castro Villar", "NOMBRE_SUJETO_ASISTENCIA"),
        ("Xoán", "NOMBRE_SUJETO_ASISTENCIA"), ("male", "SEXO_SUJETO_ASISTENCIA"), ("1948", "FECHAS"),
        ("981 55 20 17", "NUMERO_TELEFONO"), ("xoan.castro@correo-ejemplo.gal", "CORREO_ELECTRONICO"),
        ("Rúa do Vilar 8", "CALLE"), ("Santiago de Compostela", "TERRITORIO"), ("A Coruña", "TERRITORIO"),
        ("15705", "TERRITORIO"), ("ES", "PAIS"),
        ("Pazos Castro", "FAMILIARES_SUJETO_ASISTENCIA"), ("Uxía", "FAMILIARES_SUJETO_ASISTENCIA"),
        ("+34 622 10 48 91", "NUMERO_TELEFONO"),
        ("CIF-Q1500001A", "OTRO_NUMERO_IDENTIF"),
        ("Complexo Hospitalario Universitario de Santiago", "HOSPITAL"), ("CHUS", "INSTITUCION"),
        ("981 95 00 00", "NUMERO_FAX"),
        ("MDT-PM-88120457", "IDENTIF_DISPOSITIVOS_NRSERIE"), ("Xoán Castro", "NOMBRE_SUJETO_ASISTENCIA"),
        ("2024-09-30T08:15:00+02:00", "FECHAS"), ("Iria Fernández Sixto", "NOMBRE_PERSONAL_SANITARIO"),
        ("RX-77120934", "ID_CONTACTO_ASISTENCIAL"), ("2024-10-01", "FECHAS"),
        ("Manuel Outeiral Rey", "NOMBRE_PERSONAL_SANITARIO"),
    ]
    assert all(s.source == SOURCE for s in STEP.spans(BUNDLE))


def test_the_json_and_the_standards_codes_take_no_span() -> None:
    assert STEP is not None
    _, blocked = STEP.read(BUNDLE)
    covered = "".join(BUNDLE[a:b] for a, b in blocked)
    for markup in ('"resourceType"', "https://www.sergas.es/tis", "urn:uuid:7a1c", "http://loinc.org",
                   "8867-4", "JHN", '"serialNumber"', "<div xmlns=", "</div>", "official"):
        assert markup in covered, markup
    for value in ("SGAS480912773011", "Castro Villar", "Bisoprolol", "Exportación", "Fin de"):
        assert value not in covered, value
    assert STEP.read('Un JSON cualquiera: {"nombre": "Ana", "edad": 40}') == ([], [])


def test_a_carer_among_the_contacts_is_no_relative() -> None:
    text = ('{"resourceType": "Patient", "contact": [{"relationship": [{"text": "cuidadora"}], '
            '"name": {"text": "Oksana Melnyk"}}, {"relationship": [{"text": "hijo"}], '
            '"name": {"text": "Luis Pardo"}}], "gender": "female"}')
    assert _found(text) == [("Oksana Melnyk", "OTROS_SUJETO_ASISTENCIA"),
                            ("Luis Pardo", "FAMILIARES_SUJETO_ASISTENCIA"),
                            ("female", "SEXO_SUJETO_ASISTENCIA")]


def test_a_cut_off_export_is_read_as_far_as_it_goes() -> None:
    cut = BUNDLE[:BUNDLE.index('"resourceType": "RelatedPerson"') + 60]
    found = _found(cut)
    assert ("Castro Villar", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("SGAS480912773011", "ID_ASEGURAMIENTO") in found


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet='{}[]:,"\\ ab1\n', max_size=80))
def test_any_json_like_text_reads_without_error(noise: str) -> None:
    assert STEP is not None
    text = '{"resourceType": "Patient", ' + noise
    spans, blocked = STEP.read(text)
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert all(0 <= a <= b <= len(text) for a, b in blocked)


def test_a_de_identified_bundle_is_still_the_same_json() -> None:
    from crfdeid.deidentify import Deidentifier

    start, end = BUNDLE.index("{"), BUNDLE.rindex("}") + 1
    out = Deidentifier(rules_only=True, seed=5).deidentify(BUNDLE).text
    for original in ("DOC-2024-55102", "SGAS480912773011", "0088412", "Castro Villar", "981 55 20 17",
                     "xoan.castro", "Rúa do Vilar", "Pazos Castro", "Uxía", "622 10 48 91", "MDT-PM-88120457",
                     "Iria Fernández", "RX-77120934", "Outeiral", "2024-09-30"):
        assert original not in out, original
    before = json.loads(BUNDLE[start:end])
    after = json.loads(out[out.index("{"):out.rindex("}") + 1])

    def keys(node: object) -> object:
        if isinstance(node, dict):
            return {k: keys(v) for k, v in node.items()}
        if isinstance(node, list):
            return [keys(v) for v in node]
        return type(node).__name__

    assert keys(after) == keys(before)  # the same resources, elements and value types
    patient = after["entry"][0]["resource"]
    assert patient["identifier"][0]["system"] == "https://www.sergas.es/tis"
    assert after["entry"][4]["resource"]["code"]["coding"][0]["code"] == "8867-4"
    assert patient["managingOrganization"]["reference"] == "urn:uuid:org-9"
    assert out.startswith("Exportación de la historia compartida") and out.endswith("Fin de la exportación.")


def test_the_surrogate_towns_province_follows_it_in_a_fhir_address() -> None:
    # the fourteenth set's cr01: "city": "Carmona", "district": "Sevilla" had become a town of
    # Sevilla and the province Huelva (the JSON's quotes and "district" stood between them)
    from crfdeid.deidentify import Deidentifier
    from crfdeid.langpack import fold
    from crfdeid.surrogates import surrogate_data

    data = surrogate_data("es")
    text = ('{"resourceType": "Patient", "address": [{"line": ["Calle Sacramento 14"], "city": "Carmona", '
            '"district": "Sevilla", "postalCode": "41410", "country": "España"}]}')
    for seed in range(1, 6):
        out = json.loads(Deidentifier(rules_only=True, seed=seed).deidentify(text).text)["address"][0]
        found = data.find_town(out["city"])
        assert found is not None and found[1] == data.province_lookup[fold(out["district"])], out
        assert out["city"] != "Carmona" and out["country"] == "España"
