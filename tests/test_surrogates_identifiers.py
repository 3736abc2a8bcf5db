"""Identifiers: same format, new value, valid check characters; phones keep type and grouping."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import iban, imei
from stdnum.es import cif, dni, nie

from crfdeid.surrogates import SurrogateFailure, build_registry, surrogate_data, too_close
from crfdeid.surrogates.base import LETTERS
from crfdeid.surrogates.vocabulary import invented_words, pack_vocabulary
from crfdeid.validators import es_nss

from .surrogate_kit import new_texts, run, state

REG = build_registry(surrogate_data("es"))


def gen(label: str, text: str, seed: int = 1) -> str:
    return REG[label].generate(text, label, 0, state(text, seed)).text


def shape(text: str) -> str:
    return re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize("text", ["2347865", "28 72350345 06", "NHC-00431/B", "50 50 31877", "ab12"])
def test_format_is_kept_and_value_changes(text):
    for seed in range(5):
        new = gen("ID_SUJETO_ASISTENCIA", text, seed)
        assert shape(new) == shape(text) and not too_close(new, text)


@pytest.mark.parametrize(
    "text, check",
    [
        ("12345678Z", dni.is_valid),
        ("12.345.678-Z", lambda v: dni.is_valid(v.replace(".", ""))),
        ("X1234567L", nie.is_valid),
        ("ES91 2100 0418 4502 0005 1332", iban.is_valid),
        ("28 12345678 40", es_nss),
        ("A58818501", cif.is_valid),  # a company's CIF: check digit
        ("Q2818002D", cif.is_valid),  # a public body's: check letter
        ("B-58818501", lambda v: cif.is_valid(v.replace("-", ""))),
        ("356938035643809", imei.is_valid),  # a phone's IMEI: Luhn
    ],
)
def test_check_characters_stay_valid(text, check):
    assert check(text)
    for seed in range(10):
        new = gen("ID_SUJETO_ASISTENCIA", text, seed)
        assert check(new) and shape(new) == shape(text) and new != text
    assert gen("ID_SUJETO_ASISTENCIA", "X1234567L", 3)[0] == "X"
    # the CIF's letter is the kind of organisation (A: a company; Q: a public body): kept
    assert {gen("OTRO_NUMERO_IDENTIF", "Q2818002D", s)[0] for s in range(5)} == {"Q"}


@pytest.mark.parametrize(
    "text, kept",
    [("654 321 987", "6"), ("976 123 456", "97"), ("+34 91 727 70 00", "3491"), ("948537965", "94")],
)
def test_phones_keep_type_grouping_and_area(text, kept):
    for seed in range(5):
        new = gen("NUMERO_TELEFONO", text, seed)
        assert shape(new) == shape(text) and not too_close(new, text)
        assert "".join(c for c in new if c.isdigit()).startswith(kept)


@pytest.mark.parametrize("text, kept", [("casada", True), ("raza negra", True), ("maestra jubilada", False)])
def test_words_filed_as_an_identifier_are_descriptions_not_scrambled_or_masked(text, kept):
    new = gen("ID_SUJETO_ASISTENCIA", text)
    assert "[" not in new and (new == text) == kept  # the descriptions' own tests say the rest


def test_a_valid_identifier_with_no_safe_checked_value_keeps_its_format_without_the_check():
    st_ = state("12345678Z")
    # every value of the checked rung is refused: only plain scrambles remain
    gen = REG["ID_SUJETO_ASISTENCIA"]
    original = st_.draw
    st_.draw = lambda category, *a, **k: (
        (_ for _ in ()).throw(SurrogateFailure("refused")) if category == "id:ID_SUJETO_ASISTENCIA"
        else original(category, *a, **k)
    )
    surrogate = gen.generate("12345678Z", "ID_SUJETO_ASISTENCIA", 0, st_)
    assert surrogate.fallback == "no-check" and re.fullmatch(r"\d{8}[A-Z]", surrogate.text)


def test_a_very_long_identifier_is_not_checked_against_every_format():
    new = REG["ID_SUJETO_ASISTENCIA"].generate("1" * 5000, "ID_SUJETO_ASISTENCIA", 0, state()).text
    assert len(new) == 5000 and new.isdigit() and new != "1" * 5000


@pytest.mark.parametrize(
    "text, words",
    [
        # dev, before: a job title around a number came out as "Qjhykdjkv lx 9° uey"
        ("Residente de 3° año", ["Residente", "de", "año"]),
        ("MIR 3º año", ["MIR", "año"]),
        ("Colegiado nº 31/4452", ["Colegiado", "nº"]),
    ],
)
def test_words_of_an_identifier_are_kept_and_only_its_number_changes(text, words):
    for seed in range(5):
        new = gen("ID_EMPLEO_PERSONAL_SANITARIO", text, seed)
        assert LETTERS.findall(new) == LETTERS.findall(text) and new != text
        assert shape(new) == shape(text) and [w for w in words if w not in new] == []


def test_a_name_written_in_an_identifier_takes_the_notes_surrogate():
    st_ = state("Colegiado Pérez 2828")
    st_.name_map["perez"] = "Gómez"
    new = REG["ID_EMPLEO_PERSONAL_SANITARIO"].generate(
        "Colegiado Pérez 2828", "ID_EMPLEO_PERSONAL_SANITARIO", 0, st_
    ).text
    assert new.startswith("Colegiado Gómez ") and new[-4:].isdigit() and new[-4:] != "2828"


_JOB_WORDS = ["Residente", "de", "año", "Médico", "Adjunto", "Enfermera", "Colegiado", "nº", "Servicio"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(_JOB_WORDS), min_size=1, max_size=4),
    st.text("0123456789", min_size=1, max_size=6),
    st.sampled_from(["", "º", "°", "/B"]),
)
def test_identifier_surrogates_invent_no_word(words, number, mark):
    text = " ".join(words) + " " + number + mark
    new = gen("ID_EMPLEO_PERSONAL_SANITARIO", text)
    if new == surrogate_data("es").neutral["identifier"]:
        return
    assert invented_words(text, new, "ID_EMPLEO_PERSONAL_SANITARIO", pack_vocabulary("es")) == []
    assert LETTERS.findall(new)[: len(words)] == words


def test_a_town_written_in_an_identifier_becomes_another_town():
    data = surrogate_data("es")
    for seed in range(3):
        new = gen("ID_TITULACION_PERSONAL_SANITARIO", "Colegiado 282828 de Zaragoza", seed)
        town = new.split(" de ", 1)[1]
        assert new.startswith("Colegiado ") and "Zaragoza" not in new and data.find_town(town)


# --- collegiate numbers and social security numbers: a real province ---------------------------

LICENCE = "ID_TITULACION_PERSONAL_SANITARIO"
CODES = set(surrogate_data("es").code_province)


def run_note(text: str, *items: tuple[str, str], seed: int = 1) -> dict[str, str]:
    from .surrogate_kit import run

    result = run(text, *items, seed=seed)
    return {original: surrogate for label, original, surrogate in result.mapping}


@pytest.mark.parametrize(
    "number", ["28 28 57810", "282857810", "08-08-25574", "28 28", "4608123", "13 87 71356"]
)
def test_a_collegiate_number_starts_with_a_real_province_code(number):
    digits = re.sub(r"\D", "", number)
    for seed in range(8):
        new = gen(LICENCE, number, seed)
        new_digits = re.sub(r"\D", "", new)
        assert shape(new) == shape(number) and new != number
        assert new_digits[:2] in CODES
        if digits[2:4] == digits[:2]:
            assert new_digits[2:4] == new_digits[:2]  # "28 28": the code written twice stays so


def test_a_collegiate_number_follows_the_note_s_surrogate_province():
    # dev S0004-06142006000900009-1: a Sevilla college in a note about Sevilla
    text = "Localidad/ Provincia: Sevilla.\nMédico: Rosa María Jiménez NºCol: 41 41 98745."
    for seed in range(8):
        mapping = run_note(text, ("TERRITORIO", "Sevilla"), (LICENCE, "41 41 98745"), seed=seed)
        province = surrogate_data("es").province_code[mapping["Sevilla"]]  # capital -> capital
        assert mapping["41 41 98745"].startswith(f"{province} {province} ")


def test_a_social_security_number_in_its_groups_gets_valid_check_digits():
    for text in ("47 39047534 02", "14-63504522-08", "28 12345678 40"):  # none of them checks
        for seed in range(8):
            new = gen("ID_ASEGURAMIENTO", text, seed)
            assert shape(new) == shape(text) and new[:2] in CODES and es_nss(new), new


def test_every_identifier_of_dev_keeps_its_format_and_its_check_digits(meddocan_dir):
    from crfdeid.io.corpus import load_annotations
    from crfdeid.pseudonymise import Pseudonymiser
    from crfdeid.surrogates import IDENTIFIER_LABELS
    from crfdeid.surrogates.identifiers import kind_of

    pseudonymiser = Pseudonymiser(seed=3)
    seen = 0
    for doc in load_annotations(meddocan_dir / "dev").values():
        for label, original, new in pseudonymiser.pseudonymise(doc).mapping:
            if label not in IDENTIFIER_LABELS or not any(c.isdigit() for c in original):
                continue
            seen += 1
            assert shape(new) == shape(original) and new != original, (original, new)
            # one edit away only for a one-digit code ("Residente de 5° año")
            assert sum(c.isdigit() for c in original) == 1 or not too_close(new, original), (original, new)
            compact = "".join(c for c in original if c.isalnum()).upper()
            kind = kind_of(compact)
            if kind is not None:
                assert kind_of("".join(c for c in new if c.isalnum()).upper()) == kind, (original, new)
            if label != LICENCE and re.fullmatch(r"\d\d[ -]\d{8}[ -]\d\d", original.strip()):
                assert es_nss(new) and new[:2] in CODES, (original, new)
            digits = re.sub(r"\D", "", original)
            if label == LICENCE and len(digits) >= 4 and digits[:2] in CODES:
                assert re.sub(r"\D", "", new)[:2] in CODES, (original, new)
    assert seen > 600


def test_a_spanish_record_number_is_never_read_as_an_austrian_insurance_number():
    """"1234 150372" passes the Austrian VNR check; in a Spanish note it is a record number, and
    its last six digits are not the patient's birth date to shift."""
    from crfdeid.surrogates import build_registry, surrogate_data
    from crfdeid.surrogates.identifiers import vnr_birth_date

    assert vnr_birth_date("1234150372") is not None
    assert build_registry(surrogate_data("es"))["ID_SUJETO_ASISTENCIA"].dates is None
    assert build_registry(surrogate_data("de"))["ID_SUJETO_ASISTENCIA"].dates is not None


def test_a_spanish_plate_keeps_its_format_and_takes_consonants_only():
    # the fifteenth set's dialysis sheet: "0377 LGD" had become "3860 IWC" (no plate has a vowel)
    text = "Ambulancia 4821 KZP; unidad de apoyo 0377-LGD."
    for seed in range(12):
        first, second = new_texts(run(text, ("IDENTIF_VEHICULOS_NRSERIE_PLACAS", "4821 KZP"),
                                      ("IDENTIF_VEHICULOS_NRSERIE_PLACAS", "0377-LGD"), seed=seed))
        assert re.fullmatch(r"\d{4} [BCDFGHJKLMNPRSTVWXYZ]{3}", first) and first != "4821 KZP", first
        assert re.fullmatch(r"\d{4}-[BCDFGHJKLMNPRSTVWXYZ]{3}", second) and second != "0377-LGD", second


def test_an_aircrafts_registration_keeps_its_countrys_letters():
    # the seventeenth set written blind: a medical helicopter's "EC-NRB" had become "un dato
    # personal" (letters only, it was read as words)
    text = "evacuado a Barbastro en helicóptero sanitario matrícula EC-NRB."
    for seed in range(8):
        (new,) = new_texts(run(text, ("IDENTIF_VEHICULOS_NRSERIE_PLACAS", "EC-NRB"), seed=seed))
        assert re.fullmatch(r"EC-[A-Z]{3}", new) and new != "EC-NRB", new
