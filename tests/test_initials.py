"""A member of staff's initials that a legend of the note spells out."""

from __future__ import annotations

from crfdeid.initials import Initials, with_initials
from crfdeid.types import Span

STEP = Initials(frozenset({"NOMBRE_PERSONAL_SANITARIO", "NOMBRE_SUJETO_ASISTENCIA",
                           "FAMILIARES_SUJETO_ASISTENCIA"}))

LOG = """SES  FECHA       RESP.    INCIDENCIAS
01   02/11/2026  M.R.     Otalgia leve izquierda; Valsalva eficaz.
02   03/11/2026  J.B.     Sin incidencias.
03   04/11/2026  M.R.     Sin incidencias. T.A.C. de control normal.

Leyenda: M.R. = Mireia Rius Camps, enfermera; J.B. = Dr. Jordi Barberà Solé, médico.
Firma la enfermera de enlace Ana Pons Vidal (A.P.V.).
"""


def _person(text: str, name: str) -> Span:
    at = text.index(name)
    return Span(at, at + len(name), "NOMBRE_PERSONAL_SANITARIO", source="crf")


def test_initials_a_legend_ties_to_a_name_are_that_person_everywhere() -> None:
    spans = [_person(LOG, name) for name in ("Mireia Rius Camps", "Jordi Barberà Solé", "Ana Pons Vidal")]
    out = with_initials(LOG, spans, STEP)
    found = [(LOG[s.start : s.end], s.label) for s in out if s.source == "initials"]
    assert found.count(("M.R.", "NOMBRE_PERSONAL_SANITARIO")) == 3
    assert found.count(("J.B.", "NOMBRE_PERSONAL_SANITARIO")) == 2
    assert ("A.P.V.", "NOMBRE_PERSONAL_SANITARIO") in found  # the name, then its initials in brackets
    assert not any(text == "T.A.C." for text, _ in found)  # a scan, no one's initials


def test_initials_that_do_not_spell_the_name_stay() -> None:
    text = "Leyenda: M.R. = Jordi Barberà Solé. Turno de M.R. sin incidencias."
    person = _person(text, "Jordi Barberà Solé")
    assert with_initials(text, [person], STEP) == [person]


def test_the_taggers_pieces_of_the_initials_give_way() -> None:
    text = "| 05/11 | M.J.S. |\nLeyenda de enfermería: M.J.S. = María José Sanchis."
    legend = text.index("M.J.S. =")
    pieces = [Span(legend, legend + 1, "SEXO_SUJETO_ASISTENCIA"),
              Span(legend + 2, legend + 3, "NOMBRE_PERSONAL_SANITARIO")]
    out = with_initials(text, [*pieces, _person(text, "María José Sanchis")], STEP)
    assert not any(p in out for p in pieces)
    assert [text[s.start : s.end] for s in out if s.source == "initials"] == ["M.J.S.", "M.J.S."]


def test_a_clinical_abbreviation_spelled_like_someones_initials_stays() -> None:
    # "E.F." is "exploración física" in a note whose legend names Elena Fuster (the round's review)
    text = "Firma: Dra. Elena Fuster (E.F.).\nE.F.: abdomen blando. Revisado por E.F. hoy."
    step = Initials(frozenset({"NOMBRE_PERSONAL_SANITARIO"}), frozenset({"EF"}))
    out = [text[s.start : s.end] for s in with_initials(text, [_person(text, "Elena Fuster")], step)
           if s.source == "initials"]
    assert out == ["E.F."]  # the legend's own, in brackets after the name


def test_the_step_travels_to_a_worker_process() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(STEP)) == STEP  # CV's folds carry the completion steps
