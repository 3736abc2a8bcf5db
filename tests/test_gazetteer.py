"""Gazetteer matching over tokens: case/accent-insensitive, multi-token, leftmost-longest per
list, BIO membership, ambiguity flags, and facility names only behind their type."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.tokenize import tokenize


@pytest.fixture(scope="module")
def matcher() -> GazetteerMatcher:
    return GazetteerMatcher("es")


def spans(matcher: GazetteerMatcher, text: str, lst: str) -> list[str]:
    tokens = tokenize(text)
    return [
        text[tokens[m.start].start : tokens[m.end - 1].end] for m in matcher.match(tokens) if m.list == lst
    ]


def test_names_match_whatever_the_case_and_accents(matcher) -> None:
    text = "Paciente: IGNACIO NAVARRO CUELLAR, hijo de Ignacio Navarro Cuéllar."
    assert spans(matcher, text, "given_name") == ["IGNACIO", "Ignacio"]
    assert spans(matcher, text, "surname") == [
        "IGNACIO",
        "NAVARRO",
        "CUELLAR",
        "Ignacio",
        "Navarro",
        "Cuéllar",
    ]
    assert spans(matcher, text, "kinship") == ["hijo"]


def test_multi_token_entries_match_longest(matcher) -> None:
    text = "Ingresa en el Hospital Universitario Virgen del Rocío de Sevilla."
    assert spans(matcher, text, "hospital") == ["Hospital Universitario Virgen del Rocío"]
    assert spans(matcher, text, "facility_type") == ["Hospital Universitario"]
    text = "Natural de Castilla y León, vive en Santa Cruz de Tenerife."
    assert spans(matcher, text, "community") == ["Castilla y León"]
    assert spans(matcher, text, "province") == ["León", "Santa Cruz de Tenerife"]


def test_entries_only_match_whole_tokens(matcher) -> None:
    assert spans(matcher, "Sevillana y sevillanas", "municipality") == []
    assert spans(matcher, "Madrid.", "municipality") == ["Madrid"]


def test_membership_is_bio_per_list(matcher) -> None:
    tokens = tokenize("la Dra. Ana Belén Ruiz")
    members = matcher.membership(tokens)
    assert len(members) == len(tokens)
    assert "honorific:B" in members[1] and "honorific:I" in members[2]
    assert "given_name:B" in members[3] and "given_name:I" in members[4]
    assert "surname:B" in members[5]
    assert members[0] == () or all(not tag.startswith("given_name") for tag in members[0])


def test_stop_listed_names_are_flagged_ambiguous_not_dropped(matcher) -> None:
    tokens = tokenize("Enfermedad de Parkinson. Sr. Navarro.")
    found = {(tokens[m.start].text, m.list): m.ambiguous for m in matcher.match(tokens)}
    assert found[("Parkinson", "surname")] is True
    assert found[("Parkinson", "stop")] is False
    assert found[("Navarro", "surname")] is False
    assert "surname:ambiguous" in matcher.membership(tokens)[2]


def test_closed_class_words_that_are_surnames_are_ambiguous(matcher) -> None:
    tokens = tokenize("Su hija Ana")
    found = {(tokens[m.start].text, m.list): m.ambiguous for m in matcher.match(tokens)}
    assert found[("Su", "surname")] is True
    assert found[("Ana", "given_name")] is False  # a frequent name is never stop-listed


def test_health_centres_only_behind_their_facility_type(matcher) -> None:
    assert spans(matcher, "Acude al Centro de Salud Almería Centro.", "health_centre") == [
        "Centro de Salud Almería Centro"
    ]
    assert spans(matcher, "Seguimiento en el C.S. de Cuéllar.", "health_centre") == ["C.S. de Cuéllar"]
    assert spans(matcher, "Vive en Cuéllar.", "health_centre") == []


def test_organisations_match_where_a_note_names_them(matcher) -> None:
    text = (
        "Colirio de dexametasona (Maxidex®, Alcon Cusí) y metilprednisolona (Urbason®, Merck, "
        "Madrid). Trasladado por el SAMUR; necropsia en el Instituto Vasco de Medicina Legal "
        "(IVML). Facultad de Medicina, Universidad Complutense de Madrid. Implante de Boston "
        "Scientific Corporation."
    )
    assert spans(matcher, text, "organisation") == [
        "Alcon Cusí", "Merck", "SAMUR", "Instituto Vasco de Medicina Legal", "IVML",
        "Universidad Complutense de Madrid", "Boston Scientific Corporation",
    ]


def test_ambiguous_acronyms_are_not_organisations(matcher) -> None:
    text = (
        "EPOC en tratamiento con ICS y LABA, SES bajo; avisó por SMS. A los once años, EMA y CDC "
        "positivos, escala NIH 4. Dista 3 cm del borde. Adecuación nutricia. Educación para la "
        "Salud. Dr. Esteve Ferrer Almirall."
    )
    assert spans(matcher, text, "organisation") == []


def test_kinship_months_weekdays_street_types(matcher) -> None:
    text = "Su madre y sus hermanos vienen el lunes 3 de marzo a la Avda. de la Paz."
    assert spans(matcher, text, "kinship") == ["madre", "hermanos"]
    assert spans(matcher, text, "weekday") == ["lunes"]
    assert spans(matcher, text, "month") == ["marzo"]
    assert spans(matcher, text, "street_type") == ["Avda."]


def test_lists_can_be_restricted(matcher) -> None:
    only = GazetteerMatcher(matcher.pack, lists=["kinship"])
    assert only.lists == ("kinship",)
    assert {m.list for m in only.match(tokenize("Su madre vive en Madrid"))} == {"kinship"}
    with pytest.raises(ValueError, match="unknown gazetteer"):
        GazetteerMatcher(matcher.pack, lists=["nicknames"])


def test_empty_document(matcher) -> None:
    assert matcher.match([]) == [] and matcher.membership([]) == []


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aeioun ADMSVáéñ.,/-\n0123")), max_size=80))
def test_matches_stay_inside_the_token_list(matcher, text: str) -> None:
    tokens = tokenize(text)
    for m in matcher.match(tokens):
        assert 0 <= m.start < m.end <= len(tokens)
    assert len(matcher.membership(tokens)) == len(tokens)
