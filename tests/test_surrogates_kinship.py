"""Kinship words are kept by default; replaced, they keep sex, generation and number."""

from __future__ import annotations

from crfdeid.policy import Policy
from crfdeid.surrogates import GeneratorOptions, build_registry, surrogate_data

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
F = "FAMILIARES_SUJETO_ASISTENCIA"


def test_kinship_words_are_kept_by_default():
    gen = build_registry(DATA)[F]
    assert gen.generate("su madre", F, 0, state("su madre")).kept
    assert gen.generate("tía materna", F, 0, state("tía materna")).kept


def test_replaced_kinship_words_keep_sex_generation_and_number():
    gen = build_registry(DATA, GeneratorOptions(replace_kinship_terms=True))[F]
    # no other relation shares the grandparents' sex and generation: the word is kept
    assert gen.generate("abuelos", F, 0, state("abuelos")).text == "abuelos"
    for word in ("hija", "Hermano", "padres", "madre"):
        term = DATA.pack.kinship_term(word)
        for seed in range(8):
            new = gen.generate(word, F, 0, state(word, seed)).text
            other = DATA.pack.kinship_term(new)
            assert new != word and other is not None, new
            assert (other.sex, other.generation, other.plural) == (term.sex, term.generation, term.plural)
            assert new[0].isupper() == word[0].isupper()
    assert "nieta" not in gen.alternatives("hija") and "sobrina" in gen.alternatives("hija")


def test_names_inside_kinship_spans_are_replaced():
    policy = Policy.default()
    result = run("Su hermano Juan García.", (F, "hermano Juan García"), policy=policy)
    (new,) = new_texts(result)
    assert new.startswith("hermano ") and "Juan" not in new and "García" not in new


def test_a_lower_case_given_name_after_a_kinship_word_is_replaced():
    # nursing notes write fast: "su hija marta" left the name in clear (the span was read as
    # kinship words only)
    policy = Policy.default()
    for text, span, name in (("Su hija marta llamó.", "hija marta", "marta"),
                             ("visita de su marido (julián)", "marido (julián)", "julián")):
        (new,) = new_texts(run(text, (F, span), policy=policy))
        assert name not in new and new.split()[0] in ("hija", "marido"), new
        assert new == new.lower()  # written as the note wrote it


def test_lower_case_prose_inside_a_kinship_span_is_kept():
    # "mayor" is also a surname: it was replaced by another ("hermano larrosa Martí")
    policy = Policy.default()
    (new,) = new_texts(run("Su hermano mayor Pablo vino.", (F, "hermano mayor Pablo"), policy=policy))
    assert new.startswith("hermano mayor ") and "Pablo" not in new
    for text, span in (("su madre viuda vino", "madre viuda"), ("el hijo de 4 años", "hijo de 4 años")):
        assert new_texts(run(text, (F, span), policy=policy)) == [span]


def test_a_word_of_the_language_in_capitals_is_no_relatives_name() -> None:
    # a care-home report's heading "… PARA EL MÉDICO DE ATENCIÓN PRIMARIA Y LA FAMILIA" became
    # "… Y LA JIMÉNEZ"
    text = "INFORME PARA EL MÉDICO Y LA FAMILIA.\nACUDE SU HIJA MARTA."
    result = run(text, ("FAMILIARES_SUJETO_ASISTENCIA", "FAMILIA"),
                 ("FAMILIARES_SUJETO_ASISTENCIA", "HIJA MARTA"))
    assert result.text.startswith("INFORME PARA EL MÉDICO Y LA FAMILIA.\nACUDE SU HIJA ")
    assert "MARTA" not in result.text  # a given name in capitals is a name


def test_a_surname_that_is_a_word_is_replaced_beside_a_name() -> None:
    text = "Le acompaña su esposo Juan Moreno."
    (new,) = new_texts(run(text, ("FAMILIARES_SUJETO_ASISTENCIA", "esposo Juan Moreno")))
    assert new.startswith("esposo ") and "Juan" not in new and "Moreno" not in new


def test_the_spans_own_kinship_word_gives_the_names_sex() -> None:
    # "su esposo Juan; hija marta": the husband before the span made "marta" a man's name
    # ("hija félix")
    from crfdeid.surrogates import surrogate_data

    data = surrogate_data("es")
    text = "Acude su esposo Juan Moreno; hija marta."
    for seed in range(6):
        news = new_texts(run(text, ("FAMILIARES_SUJETO_ASISTENCIA", "esposo Juan Moreno"),
                             ("FAMILIARES_SUJETO_ASISTENCIA", "hija marta"), seed=seed))
        name = news[1].split()[-1]
        male, female = data.name_sex(name)  # bearers by sex
        assert female >= male, (seed, news)
