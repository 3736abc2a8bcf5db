"""The German fixture letters (tests/fixtures/de/letters): valid BRAT, every label mapped by the
fixtures' scheme, and the German rule pack's recall and precision on them as a ratchet.

The letters are invented and the rules were checked against them (and fixed where a rule should
have caught a miss), so these figures guard against regressions; they are not accuracy claims.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from crfdeid.io.brat import read_brat
from crfdeid.rules import RuleEngine

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "de"
LETTERS = sorted((FIXTURES / "letters").glob("*.txt"))
CATEGORIES = {
    "person_patient", "person_clinician", "person_relative", "person_other", "kinship", "date", "age",
    "sex", "town", "region", "street", "postal_code", "country", "hospital", "health_centre",
    "organisation", "location_other", "id_patient", "id_case", "id_insurance", "id_licence",
    "id_employee", "id_other", "phone", "fax", "email", "url", "ip", "vehicle", "device", "biometric",
    "profession", "other",
}
#: The generic scheme's label -> category (the contract of issue 13).
GENERIC = {
    "NAME_PATIENT": "person_patient", "NAME_CLINICIAN": "person_clinician",
    "NAME_RELATIVE": "person_relative", "NAME_OTHER": "person_other", "KINSHIP": "kinship",
    "DATE": "date", "AGE": "age", "SEX": "sex", "CITY": "town", "STATE": "region", "STREET": "street",
    "ZIP": "postal_code", "COUNTRY": "country", "HOSPITAL": "hospital", "HEALTH_CENTRE": "health_centre",
    "ORGANIZATION": "organisation", "LOCATION_OTHER": "location_other", "ID_PATIENT": "id_patient",
    "ID_CASE": "id_case", "ID_INSURANCE": "id_insurance", "ID_LICENSE": "id_licence",
    "ID_EMPLOYEE": "id_employee", "ID_OTHER": "id_other", "PHONE": "phone", "FAX": "fax",
    "EMAIL": "email", "URL": "url", "IP": "ip", "VEHICLE": "vehicle", "DEVICE": "device",
    "BIOMETRIC": "biometric", "PROFESSION": "profession", "OTHER": "other",
}
#: Labels of the fixtures the rules are meant to find (names, places and professions are the CRF's).
RULE_LABELS = ("DATE", "AGE", "SEX", "ID", "LOCATION_ZIP", "CONTACT_PHONE", "CONTACT_FAX",
               "CONTACT_EMAIL", "CONTACT_URL")


def scheme() -> dict[str, str]:
    return yaml.safe_load((FIXTURES / "scheme.yaml").read_text(encoding="utf-8"))["labels"]


def family(category: str) -> str:
    """The user's single ID label stands for every identifier category."""
    return "id" if category.startswith("id_") else category


def test_twenty_five_letters_in_valid_brat() -> None:
    assert len(LETTERS) == 25
    labels = Counter()
    for path in LETTERS:
        document = read_brat(path)  # refuses offsets whose text differs from the .txt slice
        lines = document.text.splitlines()
        assert 10 <= len(lines) <= 25, path.name
        assert document.spans, path.name
        for span in document.spans:
            text = document.text[span.start:span.end]
            assert text == text.strip() and "\n" not in text, (path.name, text)
            labels[span.label] += 1
    assert set(labels) <= set(scheme())
    assert labels["DATE"] > 50 and labels["NAME_PATIENT"] >= 25


def test_scheme_maps_every_label_to_a_category() -> None:
    assert set(scheme().values()) <= CATEGORIES
    assert scheme()["NAME_TITLE"] == "other"
    assert set(GENERIC.values()) <= CATEGORIES


def test_austrian_and_swiss_letters_are_there() -> None:
    texts = "\n".join(p.read_text(encoding="utf-8") for p in LETTERS)
    assert "Wien" in texts and "Graz" in texts and "SV-Nr." in texts  # Austria
    assert "Zürich" in texts and "AHV" in texts and "Austrittsbericht" in texts  # Switzerland


@pytest.fixture(scope="module")
def scores() -> tuple[Counter, Counter, Counter]:
    engine = RuleEngine.from_pack("de")
    labels = scheme()
    found, missed, false = Counter(), Counter(), Counter()
    for path in LETTERS:
        document = read_brat(path)
        gold = {(s.start, s.end, family(labels[s.label])): s.label for s in document.spans}
        system = {(m.start, m.end, family(GENERIC[m.rule.label])) for m in engine.run(document).matches}
        for key, label in gold.items():
            (found if key in system else missed)[label] += 1
        for key in system - set(gold):
            false[key[2]] += 1
    return found, missed, false


@pytest.mark.parametrize("label", RULE_LABELS)
def test_rules_find_every_span_of_their_labels(scores, label: str) -> None:
    found, missed, _ = scores
    assert found[label] > 0 and missed[label] == 0, (label, found[label], missed[label])


def test_rules_make_no_false_positive_on_the_letters(scores) -> None:
    assert scores[2] == Counter()
