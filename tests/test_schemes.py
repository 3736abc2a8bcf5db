"""Label schemes as data: the categories, the shipped schemes, strict files, choosing and mapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.labels import GUIDELINE_LABELS, MEDDOCAN_LABELS
from crfdeid.schemes import (
    CATEGORIES,
    LabelMap,
    Scheme,
    SchemeError,
    choose_scheme,
    guess_category,
    known_category,
    load_scheme,
    load_scheme_file,
    to_scheme,
)
from crfdeid.surrogates import CATEGORY_LABELS, NO_GENERATOR, generator_label
from crfdeid.types import Document, Span

CONTRACT = [
    "person_patient", "person_clinician", "person_relative", "person_other", "kinship", "date", "age", "sex",
    "town", "region", "street", "postal_code", "country", "hospital", "health_centre", "organisation",
    "location_other", "id_patient", "id_case", "id_insurance", "id_licence", "id_employee", "id_other",
    "phone", "fax", "email", "url", "ip", "vehicle", "device", "biometric", "profession", "other",
]


def write(tmp_path: Path, text: str, name: str = "scheme.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_categories_are_the_contract_each_with_a_meaning():
    assert list(CATEGORIES) == CONTRACT
    assert all(meaning.strip() for meaning in CATEGORIES.values())


def test_meddocan_maps_every_guideline_label():
    meddocan = load_scheme("meddocan")
    assert set(meddocan.labels) == GUIDELINE_LABELS
    expected = {
        "TERRITORIO": "town", "FAMILIARES_SUJETO_ASISTENCIA": "person_relative",
        "ID_SUJETO_ASISTENCIA": "id_patient",
        "ID_CONTACTO_ASISTENCIAL": "id_case", "ID_ASEGURAMIENTO": "id_insurance",
        "ID_TITULACION_PERSONAL_SANITARIO": "id_licence", "ID_EMPLEO_PERSONAL_SANITARIO": "id_employee",
        "OTROS_SUJETO_ASISTENCIA": "other", "INSTITUCION": "organisation", "CENTRO_SALUD": "health_centre",
        "PAIS": "country", "FECHAS": "date", "NOMBRE_SUJETO_ASISTENCIA": "person_patient",
    }
    assert {label: meddocan.labels[label] for label in expected} == expected
    # two labels share id_insurance: the scheme says which one spans of other schemes become
    assert meddocan.label_for("id_insurance") == "ID_ASEGURAMIENTO"
    assert meddocan.label_for("region") == "TERRITORIO" and meddocan.label_for("location_other") is None


def test_generic_has_one_label_per_category():
    generic = load_scheme("generic")
    assert sorted(generic.labels.values()) == sorted(CATEGORIES)
    assert generic.labels["DATE"] == "date" and generic.labels["ZIP"] == "postal_code"
    assert generic.labels["ID_LICENSE"] == "id_licence" and generic.labels["ORGANIZATION"] == "organisation"


def test_every_category_names_the_label_its_generator_is_asked_with():
    assert set(CATEGORY_LABELS) == set(CATEGORIES)
    assert set(NO_GENERATOR) == {"sex", "biometric", "location_other"}
    assert generator_label("FECHAS", "date") == "FECHAS"
    assert generator_label("DATE", "date") == "FECHAS"
    assert generator_label("NUMERO_BENEF_PLAN_SALUD", "id_insurance") == "NUMERO_BENEF_PLAN_SALUD"
    assert generator_label("ZIP", "postal_code") == "TERRITORIO"
    assert generator_label("WHATEVER", None) is None


def test_a_scheme_file_with_descriptions_and_a_choice_for_rules(tmp_path):
    path = write(tmp_path, (
        "name: letters\n"
        "description: German letters.\n"
        "labels:\n"
        "  LOCATION_CITY: town\n"
        "  LOCATION_ZIP: {category: postal_code, description: German and Austrian codes}\n"
        "  NAME_DOCTOR: person_clinician\n"
        "  NAME_TITLE: person_clinician\n"
        "rules_map_to:\n"
        "  person_clinician: NAME_DOCTOR\n"
        "  region: LOCATION_CITY\n"
    ))
    scheme = load_scheme(path)
    assert scheme.name == "letters" and scheme.category("LOCATION_ZIP") == "postal_code"
    assert scheme.label_descriptions["LOCATION_ZIP"] == "German and Austrian codes"
    assert scheme.label_for("person_clinician") == "NAME_DOCTOR"
    assert scheme.label_for("region") == "LOCATION_CITY"
    assert Scheme.from_dict(scheme.to_dict()).same_mapping(scheme)


@pytest.mark.parametrize(("body", "needle", "line"), [
    ("name: x\nlabels:\n  DATE: day\n", "DATE: unknown category 'day'", 3),
    ("name: x\nlabels:\n  DATE: date\nlabel_map: {}\n", "unknown key 'label_map'", 4),
    ("name: x\nlabels:\n  DATE: date\n  DATE: date\n", "key 'DATE' is given twice", 4),
    ("name: x\nlabels:\n  DATE: {category: date, note: x}\n", "DATE: unknown key 'note'", 3),
    ("name: x\nlabels:\n  DATE: {description: days}\n", "DATE: missing key 'category'", 3),
    ("name: x\nlabels:\n  DATE: date\nrules_map_to:\n  date: FECHA\n", "not a label of this scheme", 5),
    ("name: x\nlabels:\n  DATE: date\n  CITY: town\nrules_map_to:\n  date: CITY\n", "of date are DATE", 6),
    ("name: x\nlabels:\n  DATE: date\nrules_map_to:\n  day: DATE\n", "unknown category 'day'", 5),
    ("labels:\n  DATE: date\n", "missing key 'name'", 1),
    ("name: x\nlabels: [DATE]\n", "maps each LABEL to a category", 2),
    ("name: x\nlabels:\n  DATE: [date\n", "invalid YAML", 4),
])
def test_scheme_errors_name_the_file_and_the_line(tmp_path, body, needle, line):
    path = write(tmp_path, body)
    with pytest.raises(SchemeError) as info:
        load_scheme_file(path)
    assert needle in str(info.value), str(info.value)
    assert info.value.line == line and str(path) in str(info.value)


def test_an_unknown_category_suggests_the_closest(tmp_path):
    with pytest.raises(SchemeError) as info:
        load_scheme_file(write(tmp_path, "name: x\nlabels:\n  CITY: city\n"))
    assert "did you mean 'town'" in str(info.value)


def test_unknown_scheme_name_lists_the_shipped_ones():
    with pytest.raises(SchemeError, match="no label scheme 'hipaa'") as info:
        load_scheme("hipaa")
    assert "meddocan" in str(info.value) and "generic" in str(info.value)


# --- choosing the scheme of a corpus -------------------------------------------------------------


def test_meddocan_first_then_generic():
    assert choose_scheme(["FECHAS", "TERRITORIO"]).name == "meddocan"
    assert choose_scheme(["HOSPITAL"]).name == "meddocan"  # a label of both: the default first
    assert choose_scheme(["DATE", "NAME_PATIENT", "CITY", "ID_PATIENT"]).name == "generic"
    assert choose_scheme(MEDDOCAN_LABELS).name == "meddocan"


def test_unmapped_labels_are_an_error_that_shows_the_file_to_write():
    with pytest.raises(SchemeError) as info:
        choose_scheme(["DATE", "NAME_DOCTOR", "LOCATION_CITY"])
    message = str(info.value)
    assert "unmapped: LOCATION_CITY, NAME_DOCTOR" in message and "--scheme" in message
    template = message[message.index("name: my_corpus"):].splitlines()
    assert [line.strip() for line in template] == [
        "name: my_corpus", "description: The labels of my corpus.", "labels:",
        "LOCATION_CITY: town", "NAME_DOCTOR: person_clinician"]


def test_a_requested_scheme_must_hold_every_label(tmp_path):
    assert choose_scheme(["DATE"], "generic").name == "generic"
    with pytest.raises(SchemeError, match="not in scheme 'meddocan': DATE"):
        choose_scheme(["DATE", "FECHAS"], "meddocan")


@pytest.mark.parametrize(("label", "category"), [
    ("NAME_DOCTOR", "person_clinician"), ("LOCATION_ZIP", "postal_code"), ("CONTACT_PHONE", "phone"),
    ("LOCATION_HOSPITAL", "hospital"), ("ID", "id_other"), ("NAME_TITLE", "person_other"), ("DATE", "date"),
    ("LOCATION_STREET", "street"), ("PROFESSION", "profession"), ("TATTOO", "other"),
])
def test_guessed_categories(label, category):
    assert guess_category(label) == category


# --- mapping labels between schemes --------------------------------------------------------------


def test_rule_labels_map_through_their_category():
    meddocan, generic = load_scheme("meddocan"), load_scheme("generic")
    to_generic = LabelMap.between(meddocan, generic)
    assert to_generic("FECHAS") == "DATE" and to_generic("TERRITORIO") == "CITY"
    assert to_generic("NUMERO_BENEF_PLAN_SALUD") == "ID_INSURANCE"
    to_meddocan = LabelMap.between(generic, meddocan)
    assert to_meddocan("ZIP") == "TERRITORIO" and to_meddocan("LOCATION_OTHER") is None
    assert to_meddocan.dropped() == {"location_other": ["LOCATION_OTHER"]}
    spans = [Span(0, 4, "DATE"), Span(5, 9, "LOCATION_OTHER")]
    assert to_meddocan.spans(spans) == [Span(0, 4, "FECHAS")]
    assert LabelMap.between(meddocan, meddocan).identity


def test_two_target_labels_without_a_choice_are_a_clear_error(tmp_path):
    target = load_scheme(write(tmp_path, "name: two\nlabels:\n  NAME_DOCTOR: person_clinician\n"
                                         "  NAME_NURSE: person_clinician\n"))
    with pytest.raises(SchemeError) as info:
        LabelMap.between(load_scheme("meddocan"), target, ["NOMBRE_PERSONAL_SANITARIO"])
    assert "2 labels of category 'person_clinician'" in str(info.value)
    assert "rules_map_to: {person_clinician: NAME_DOCTOR}" in str(info.value)


def test_known_category_looks_in_the_given_scheme_then_the_shipped_ones(tmp_path):
    own = load_scheme(write(tmp_path, "name: own\nlabels:\n  WHEN: date\n"))
    assert known_category("WHEN", own) == "date" and known_category("WHEN") is None
    assert known_category("FECHAS") == "date" and known_category("ZIP") == "postal_code"


def test_documents_in_another_scheme():
    doc = Document("d", "5 de marzo en Soria", (Span(0, 10, "FECHAS"), Span(14, 19, "TERRITORIO")))
    mapped, dropped = to_scheme({"d": doc}, load_scheme("generic"))
    assert [s.label for s in mapped["d"].spans] == ["DATE", "CITY"] and dropped == {}
    with pytest.raises(SchemeError, match="no known scheme: WHEN"):
        to_scheme({"d": doc.with_spans([Span(0, 10, "WHEN")])}, load_scheme("generic"))
