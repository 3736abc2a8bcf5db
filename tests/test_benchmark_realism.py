"""The realism report's own helpers (benchmarks/realism.py), on small made-up inputs: each check
must catch what it claims to, or the report's figures mean nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import realism  # benchmarks/ is not a package

GIVEN = {"jose": (900, 5), "maria": (20, 900), "jose maria": (500, 0), "carlos": (800, 0),
         "joaquina": (0, 300), "andrea": (40, 600), "garcia": (3, 0)}
SURNAMES = {"garcia": 1000, "lopez": 900, "andrea": 10}


def test_letter_words_split_glued_names_and_skip_digits():
    assert realism.letter_words("ÁngelGarcía Escudero, 3º B") == ["Ángel", "García", "Escudero", "º", "B"]
    assert realism.letter_words("Calle Mayor 12, 2B", 2) == ["Calle", "Mayor"]


@pytest.mark.parametrize(("population", "size"), [(3_000_000, "big"), (100_000, "big"), (99_999, "medium"),
                                                  (20_000, "medium"), (19_999, "small"), (0, "small")])
def test_size_class(population, size):
    assert realism.size_class(population) == size


def test_accent_key_keeps_enye_and_cedilla():
    assert realism.accent_key("Rabadán") == "rabadan"
    assert realism.accent_key("Mariño") == "mariño"
    assert realism.accent_key("Ponç") == "ponç"


def test_accent_check_against_the_most_frequent_spelling():
    groups = realism.spellings({"ávila": 7.0, "avila": 5.0, "benjamin": 6.0, "benjamín": 4.8,
                                "valencia": 50.0, "valència": 0.8, "garcía": 60.0, "marino": 9.0,
                                "mariño": 1.0, "pérez": 30.0})
    assert realism.accent_check("Ávila", groups) is True
    assert realism.accent_check("Avila", groups) is False  # unaccented and not the top form
    assert realism.accent_check("Benjamín", groups) is True  # accented and frequent enough
    assert realism.accent_check("Benjamin", groups) is None  # the top form, no accent: not counted
    assert realism.accent_check("València", groups) is False  # a rare accented form
    assert realism.accent_check("Óscar", realism.spellings({"oscar": 10.0, "óscar": 2.8})) is True
    assert realism.accent_check("Garcia", groups) is False
    assert realism.accent_check("Mariño", groups) is None  # ñ is a letter: no accent either way
    assert realism.accent_check("Zapatero", groups) is None  # unknown to the list
    assert realism.standard_form("Perez", groups) == "pérez"


def test_note_sex_from_the_sex_spans():
    words = {"h": "m", "varon": "m", "m": "f", "mujer": "f"}
    assert realism.note_sex(["H", "varón"], words) == "m"
    assert realism.note_sex(["mujer "], words) == "f"
    assert realism.note_sex(["H", "mujer"], words) is None  # contradictory
    assert realism.note_sex([], words) is None


def test_given_run_stops_at_the_first_surname():
    assert realism.given_run(["José", "María", "García", "López"], GIVEN, SURNAMES) == ["José", "María"]
    assert realism.given_run(["García", "José"], GIVEN, SURNAMES) == []
    assert realism.given_run(["Andrea", "López"], GIVEN, SURNAMES) == ["Andrea"]


def test_mixed_sex_compounds_unless_the_pack_lists_them():
    assert realism.mixed_sex(["Joaquina", "Carlos"], GIVEN)
    assert not realism.mixed_sex(["José", "María"], GIVEN)  # a listed compound
    assert not realism.mixed_sex(["Carlos", "José"], GIVEN)
    assert not realism.mixed_sex(["Carlos"], GIVEN)
    assert realism.dominant_sex((0, 0)) is None


def test_name_clashes_in_one_note():
    pairs = [("ÁngelGarcía Escudero", "Luis Pérez Soto"), ("García Escudero", "Gómez Soto")]
    clashes = realism.name_clashes(pairs, {"de"})
    assert clashes == {"garcia": {"perez", "gomez"}}
    assert realism.name_clashes([("Juan de la Fuente", "Pedro de la Vega"), ("Juan", "Pedro")],
                                {"de", "la"}) == {}
    # the patient "Alvaro" (a "Nombre:" field) and the Dra. Noelia Rubio Álvaro: two names
    roles = [("Alvaro", "Joaquín", "given"), ("Noelia Rubio Álvaro", "Virtudes Ortega Morcillo"),
             ("Álvaro", "Morcillo")]
    assert realism.name_clashes(roles, set()) == {}
    assert realism.name_clashes([*roles, ("Álvaro", "Gil")], set()) == {
        "alvaro": {"gil", "joaquin", "morcillo"}}
    assert realism.name_clashes([*roles, ("Alvaro", "Luis", "given")], set()) == {
        "alvaro (given)": {"joaquin", "luis"}}


def test_linkage_counts_originals_with_one_surrogate_everywhere():
    seen = {
        "martinez": {"n1": {"lopez"}, "n2": {"lopez"}, "n3": {"lopez"}},
        "madrid": {"n1": {"leon"}, "n2": {"soria"}},
        "once": {"n1": {"x"}},
    }
    repeated, same, examples = realism.linked(seen)
    assert (repeated, same, examples) == (2, 1, ["martinez"])


def test_present_as_word_ignores_case_and_accents_but_not_word_parts():
    output = realism.fold("Paciente: Jesús Pérez. Jesusa vino.")
    assert realism.present_as_word("JESUS", output)
    assert realism.present_as_word("Jesús Pérez", output)
    assert not realism.present_as_word("Pere", output)
    assert not realism.present_as_word("  ", output)


def test_age_under_the_limit():
    numbers = {"noventa": 90, "y": 0, "tres": 3, "cuarenta": 40}
    assert realism.age_under("53 años", 90, numbers)
    assert not realism.age_under("93 años", 90, numbers)
    assert realism.age_under("cuarenta años", 90, numbers)
    assert not realism.age_under("noventa y tres", 90, numbers)


def test_verdict_and_percentages():
    assert realism.pct(1, 3) == 33.33 and realism.pct(0, 0) is None
    assert realism.verdict(99.6, (">=", 99.5)) == "PASS"
    assert realism.verdict(1, ("<=", 0)) == "FAIL"
    assert realism.verdict(None, ("<=", 0)) == "n/a"


def test_kinship_or_home_strings_are_excepted_but_not_names():
    words = {"madre", "tia", "hermano", "espana", "espanol"}
    assert realism.kinship_or_home("tía materna", words, {})
    assert realism.kinship_or_home("madre de 34 años", words, {})
    assert realism.kinship_or_home("origen español", words, {})
    assert realism.kinship_or_home("España", words, {})
    assert not realism.kinship_or_home("su hermano Juan", words, {})
    assert not realism.kinship_or_home("madre de 93 años", words, {})
    assert not realism.kinship_or_home("Juan", words, {})


class _Record:
    def __init__(self, start, end):
        self.start, self.end = start, end


def test_handled_needs_a_record_covering_the_whole_gold_span():
    audit = [_Record(10, 15), _Record(20, 40)]
    assert realism.handled((20, 30), audit) is audit[1]
    assert realism.handled((8, 15), audit) is None  # "mes de abril" found as "abril" only
    assert realism.handled((50, 55), audit) is None


class _Data:
    def __init__(self) -> None:
        self.age_numbers = {"noventa": 90, "tres": 3, "cuarto": 4}
        self.age_units = {"anos": "year", "meses": "month"}


@pytest.mark.parametrize(("text", "label", "why"), [
    ("cuarto mes", "EDAD_SUJETO_ASISTENCIA", "age under 90"),
    ("recién nacida", "EDAD_SUJETO_ASISTENCIA", "age under 90"),
    ("93 años", "EDAD_SUJETO_ASISTENCIA", None),
    ("noventa y tres años", "EDAD_SUJETO_ASISTENCIA", None),
    ("30 años", "FAMILIARES_SUJETO_ASISTENCIA", "age under 90"),
    ("familia de nueve miembros", "FAMILIARES_SUJETO_ASISTENCIA", "kinship"),
    ("su hermano Juan", "FAMILIARES_SUJETO_ASISTENCIA", None),
    ("Juan", "NOMBRE_SUJETO_ASISTENCIA", None),
])
def test_excepted_strings_are_ages_under_90_and_nameless_relatives(text, label, why):
    assert realism.excepted(text, label, _Data(), {"hermano", "espana"}) == why


def test_named_accent_check_judges_names_by_lists_of_names():
    words = realism.spellings(
        {"diez": 100.0, "díez": 1.0, "verá": 5.0, "vera": 1.0, "avila": 1.0, "ávila": 3.0})
    named = realism.spellings({"díez": 1.0, "diez": 1.0, "vera": 1.0, "ávila": 1.0})
    assert realism.accent_check("Díez", words) is False  # the number wins in a list of words
    assert realism.named_accent_check("Díez", named, words) is True  # a surname the name lists spell so
    assert realism.named_accent_check("Vera", named, words) is None  # names write it bare: not a miss
    assert realism.named_accent_check("Avila", named, words) is False  # the lists only know "Ávila"
    assert realism.named_accent_check("Verá", named, words) is False
    # a word no name list knows falls back to the word list, or does not count without one
    benjamin = realism.spellings({"benjamin": 1.0, "benjamín": 0.5})
    assert realism.named_accent_check("Benjamín", named, benjamin) is True
    assert realism.named_accent_check("Zapatero", named, None) is None


def test_name_spellings_reads_the_register_and_the_gazetteers(tmp_path):
    (tmp_path / "meddocan-gazetteer").mkdir()
    (tmp_path / "meddocan-gazetteer" / "apellidos.txt").write_text("Díez\nVera\n", encoding="utf-8")
    (tmp_path / "dismed").mkdir()
    (tmp_path / "dismed" / "PoblacionMunicipios.csv").write_text(
        "NOMBRE,POB19\nGandia,74562\nPalau-solità i Plegamans,14771\n", encoding="utf-8")
    named = realism.name_spellings(tmp_path)
    assert "díez" in named["person"]["diez"]
    assert realism.named_accent_check("Gandia", named["place"], None) is None  # no accent either way
    assert realism.named_accent_check("solitá", named["place"], None) is False  # the register writes "solità"
    assert realism.name_sources(tmp_path)[-2:] == ["meddocan-gazetteer/apellidos.txt", realism.REGISTER]
