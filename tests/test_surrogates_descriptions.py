"""Descriptions under identifier labels get what they are: another nationality or profession,
kept when they identify no one, generalised otherwise — never a mask in running text."""

from __future__ import annotations

import pytest

from crfdeid.langpack import fold
from crfdeid.surrogates import build_registry, surrogate_data

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
REG = build_registry(DATA)
GEN = REG["OTROS_SUJETO_ASISTENCIA"]


@pytest.mark.parametrize("text", ["casada", "raza negra", "Lactante", "la mayor de dos hermanas",
                                  "hijo único", "piel rojiza", "homosexual", "sin hijos"])
def test_descriptions_that_identify_no_one_are_kept(text):
    for label in ("ID_SUJETO_ASISTENCIA", "OTROS_SUJETO_ASISTENCIA"):
        surrogate = REG[label].generate(text, label, 0, state(text))
        assert surrogate.kept and surrogate.text == text and "kept" in surrogate.note


def test_a_nationality_becomes_one_of_its_region_and_the_home_one_stays():
    surrogate = REG["ID_SUJETO_ASISTENCIA"].generate("boliviano", "ID_SUJETO_ASISTENCIA", 0, state())
    code = next(c for c, forms in DATA.nationality.items() if surrogate.text == forms[0])
    assert code != "BO" and DATA.region_of[code] == "south_america"
    assert GEN.generate("origen español", "OTROS_SUJETO_ASISTENCIA", 0, state()).kept
    mixed = GEN.generate("raza negra, origen senegalés", "OTROS_SUJETO_ASISTENCIA", 0, state())
    assert mixed.text.startswith("raza negra, origen ") and not mixed.text.endswith("senegalés")
    assert DATA.region_of[next(c for c, f in DATA.nationality.items() if mixed.text.endswith(f[0]))] == \
        "western_africa"


def test_a_profession_becomes_another_keeping_what_follows():
    surrogate = REG["ID_SUJETO_ASISTENCIA"].generate("maestra jubilada", "ID_SUJETO_ASISTENCIA", 0, state())
    assert surrogate.text.endswith(" jubilada") and not surrogate.text.startswith("maestra")
    assert surrogate.note.startswith("a profession")
    new = surrogate.text[: -len(" jubilada")]
    assert DATA.profession_lookup[fold(new)][1] == new  # the feminine form (the lookup is by folded form)


def test_free_form_descriptions_are_generalised_not_masked():
    for text in ("fusil de pesca submarina en su casa", "campeón de Euskadi de pelota a mano"):
        surrogate = GEN.generate(text, "OTROS_SUJETO_ASISTENCIA", 0, state(text))
        assert surrogate.text == DATA.neutral["description"] and "generalised" in surrogate.note


def test_a_described_tattoo_keeps_the_word_tattoo_alone():
    # the ninth set written blind: "la lesión asienta en el borde de un tatuaje tribal maorí que
    # cubre el hombro derecho" had become "… el borde de un dato personal": what the mark shows
    # and where identify; that it is a tattoo does not, and the sentence keeps its sense
    for text, head in (("tatuaje en la región pectoral izquierda", "tatuaje"),
                       ("tatuaje tribal maorí que cubre el hombro derecho", "tatuaje"),
                       ("Tatuajes con los nombres de sus hijos", "Tatuajes")):
        surrogate = GEN.generate(text, "OTROS_SUJETO_ASISTENCIA", 0, state(text))
        assert surrogate.text == head and "head word" in surrogate.note


def test_no_mask_in_running_text_under_the_default_policy():
    text = ("Varón de 41 años, raza negra, casado, boliviano, con un tatuaje en la región pectoral "
            "izquierda. NHC 2347865.")
    result = run(text, ("ID_SUJETO_ASISTENCIA", "raza negra"), ("ID_SUJETO_ASISTENCIA", "casado"),
                 ("ID_SUJETO_ASISTENCIA", "boliviano"),
                 ("OTROS_SUJETO_ASISTENCIA", "tatuaje en la región pectoral izquierda"),
                 ("ID_SUJETO_ASISTENCIA", "2347865"))
    assert "[" not in result.text and "boliviano" not in result.text
    assert result.text.startswith("Varón de 41 años, raza negra, casado, ")
    assert new_texts(result)[-1].isdigit() and new_texts(result)[-1] != "2347865"


def test_the_generalised_phrase_drops_its_article_after_one():
    text = "Guarda en su casa un fusil de pesca submarina de su padre."
    result = run(text, ("OTROS_SUJETO_ASISTENCIA", "fusil de pesca submarina de su padre"))
    assert result.text == "Guarda en su casa un dato personal."


@pytest.mark.parametrize("text", ["familiar", "carta", "lactante"])
def test_one_common_word_under_an_identifier_label_is_kept(text):
    # a genetic counselling note written blind: "Historia familiar" and "se entrega carta
    # familiar" had become "Historia un dato personal", "un dato personal familiar"
    surrogate = REG["ID_SUJETO_ASISTENCIA"].generate(text, "ID_SUJETO_ASISTENCIA", 0, state(text))
    assert surrogate.kept and surrogate.text == text
    # a word no lexicon holds, or several words, is still generalised
    assert not GEN.generate("Xq7zz", "OTROS_SUJETO_ASISTENCIA", 0, state()).kept


@pytest.mark.parametrize("text, kept", [
    ("Gestante", True),   # opening a case report (tests/fixtures/es_blind5): had become "un dato personal"
    ("Puérpera", True),
    ("Rosa", False),      # a word, but a given name: never kept
    ("Soria", False),     # a surname and a town
])
def test_one_capitalised_word_of_the_language_is_kept_unless_a_name(text, kept):
    surrogate = REG["ID_SUJETO_ASISTENCIA"].generate(text, "ID_SUJETO_ASISTENCIA", 0, state(text))
    assert surrogate.kept == kept
    if not kept:
        assert surrogate.text != text


def test_a_carers_name_filed_as_another_subject_gets_a_name_and_keeps_it_everywhere():
    # a FHIR contact whose relationship is "cuidadora" (crfdeid.fhir) and the narrative's bare
    # "Nicoleta" (a person's span): the name had become "un dato personal" in the contact
    text = ("Contacto (cuidadora): Nicoleta Dumitrescu, 632 90 41 18. Vive con una cuidadora "
            "rumana, Nicoleta, de lunes a viernes. Vecina: Paquita Cortés Ruiz.")
    result = run(text, ("OTROS_SUJETO_ASISTENCIA", "Nicoleta Dumitrescu"),
                 ("NOMBRE_PERSONAL_SANITARIO", "Nicoleta"),
                 ("OTROS_SUJETO_ASISTENCIA", "Paquita Cortés Ruiz"))
    carer, bare, neighbour = new_texts(result)
    assert DATA.neutral["description"] not in result.text
    assert carer.split()[0] == bare and bare != "Nicoleta" and "Dumitrescu" not in carer
    assert len(neighbour.split()) == 3 and "Paquita" not in neighbour and "Cortés" not in neighbour
    assert all(w[:1].isupper() for w in (carer + " " + neighbour).split())
    # a description is no name: still generalised or kept
    assert not REG["OTROS_SUJETO_ASISTENCIA"].people.is_name("síndrome de Down")
    assert not REG["OTROS_SUJETO_ASISTENCIA"].people.is_name("Hijo Predilecto de Guadix")


def test_a_lower_case_name_only_in_a_line_typed_in_lower_case():
    # the seventeenth set written blind: a neighbour "remedios" in a home-visit book became a
    # name; the round's review: "raza blanca" in a note with one lower-case line had become
    # "raza natividad" — a kept description stays, and only a line in lower case names so
    text = ("Mujer de 45 años, raza blanca, casada.\n"
            "nota de enfermeria: paciente tranquila, duerme toda la noche sin incidencias\n")
    assert new_texts(run(text, ("OTROS_SUJETO_ASISTENCIA", "blanca"))) == ["blanca"]
    text = "aviso 3 - 17:15 - llama la vecina remedios (988 45 33 71) para decir que no contesta\n"
    (new,) = new_texts(run(text, ("OTROS_SUJETO_ASISTENCIA", "remedios")))
    assert new != "remedios" and new.islower()
