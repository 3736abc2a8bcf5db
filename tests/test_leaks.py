"""Words of gold PHI left in a de-identified text (crfdeid/leaks.py)."""

from __future__ import annotations

from crfdeid.langpack import fold, load_pack
from crfdeid.leaks import kept_by_design, leaked_words
from crfdeid.types import Document, Span

KEPT = kept_by_design(load_pack("es"))


def _gold(text: str, *marked: tuple[str, str]) -> Document:
    spans, at = [], 0
    for label, value in marked:
        start = text.index(value, at)
        spans.append(Span(start, start + len(value), label))
        at = start + len(value)
    return Document("n", text, tuple(spans))


def test_the_rest_of_a_name_cut_short_is_a_leak() -> None:
    # "Francisco Javier Ruiz" found, "-Gallardo Peñalver" left: the whole name is not in the
    # output, so a whole-span check passed it
    gold = _gold("Le remitimos a D. Francisco Javier Ruiz-Gallardo Peñalver, de 78 años.",
                 ("NOMBRE_SUJETO_ASISTENCIA", "Francisco Javier Ruiz-Gallardo Peñalver"))
    out = "Le remitimos a D. Manuel Marcos Fernández-Gallardo Peñalver, de 78 años."
    assert [w.word for w in leaked_words(gold, out, kept=KEPT)] == ["Gallardo", "Peñalver"]


def test_what_a_surrogate_keeps_by_design_is_not_a_leak() -> None:
    gold = _gold("Ingresa en el Hospital Universitario de León. Vive en la C/ Mayor 3, 2º izda.",
                 ("HOSPITAL", "Hospital Universitario de León"), ("CALLE", "C/ Mayor 3, 2º izda."))
    out = "Ingresa en el Hospital Universitario El Bierzo. Vive en la C/ Real 41, 2º izda."
    assert leaked_words(gold, out, kept=KEPT) == []


def test_two_hospitals_trading_names_leak_both() -> None:
    gold = _gold("Complejo Asistencial Universitario de León; se remite al Hospital El Bierzo.",
                 ("HOSPITAL", "Complejo Asistencial Universitario de León"),
                 ("HOSPITAL", "Hospital El Bierzo"))
    out = "Complejo Asistencial Universitario El Bierzo; se remite al Hospital de León."
    assert {w.word for w in leaked_words(gold, out, kept=KEPT)} == {"León", "Bierzo"}


def test_a_word_the_note_also_has_outside_phi_is_not_counted_twice() -> None:
    # "Rosa" is a colour in the note too: once outside the span, once in the output is no leak
    gold = _gold("Lesión rosa. Rosa tiene prurito. Su vecina Rosa la acompaña.",
                 ("FAMILIARES_SUJETO_ASISTENCIA", "vecina Rosa"))
    assert leaked_words(gold, "Lesión rosa. Rosa tiene prurito. Su vecina Marta la acompaña.",
                        kept=KEPT) == []
    assert [w.word for w in leaked_words(gold, "Lesión rosa. Rosa tiene prurito. Su vecina Rosa la acompaña.",
                                         kept=KEPT)] == ["Rosa"]


def test_lower_case_words_count_only_when_they_are_names() -> None:
    gold = _gold("visita de su hija marta, profesora.", ("FAMILIARES_SUJETO_ASISTENCIA", "hija marta"),
                 ("PROFESION", "profesora"))
    out = "visita de su hija marta, profesora."
    assert [w.word for w in leaked_words(gold, out, kept=KEPT, names={fold("marta")})] == ["marta"]
    assert leaked_words(gold, out, kept=KEPT) == []  # no name table: the whole-span check's


def test_numbers_and_addresses() -> None:
    gold = _gold("NHC 4876242, correo pepe.lopez@gmail.com, ingreso el 3/4/2025, ext. 452.",
                 ("ID_SUJETO_ASISTENCIA", "4876242"), ("CORREO_ELECTRONICO", "pepe.lopez@gmail.com"),
                 ("FECHAS", "3/4/2025"), ("NUMERO_TELEFONO", "452"))
    out = "NHC 4876242, correo ana.ruiz@gmail.com, ingreso el 5/6/2025, ext. 452."
    # the NHC leaks; the provider of the address, the year of a date shifted by weeks and a
    # number of three digits do not count
    assert [w.word for w in leaked_words(gold, out, kept=KEPT, dates={"FECHAS"})] == ["4876242"]
    assert [w.word for w in leaked_words(gold, out, kept=KEPT, skip_labels={"ID_SUJETO_ASISTENCIA"},
                                         dates={"FECHAS"})] == []
