"""Second mentions: other occurrences of a replaced string, or of a name word of a replaced name,
are replaced the same way and audited as ``propagated``; ordinary words are left alone."""

from __future__ import annotations

from crfdeid.langpack import load_pack
from crfdeid.propagate import initials_of, propagate
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.surrogates import surrogate_data
from crfdeid.types import Document, Span

from .surrogate_kit import spans_of

PACK = load_pack("es")
NOTE = ("Nombre: Jesús Martínez Blanco. NHC: 2347865.\n"
        "Jesús se encontraba bien. La analítica fue normal. Acude con su esposa.\n"
        "El Dr. Martínez revisa el caso: placa blanca en el blanco del ojo. JESÚS refiere dolor.\n"
        "NHC 2347865. Contacto: jmb@gmail.com; 2347865-B no es un NHC.")


def doc(*items: tuple[str, str], text: str = NOTE) -> Document:
    return Document("d", text, tuple(spans_of(text, *items)))


def found(document: Document) -> list[tuple[str, str]]:
    return [(s.label, document.text[s.start:s.end]) for s in propagate(document, lambda _: True, PACK)]


def test_name_words_and_identifiers_are_found_again_outside_their_spans():
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Jesús Martínez Blanco"), ("ID_SUJETO_ASISTENCIA", "2347865"))
    assert found(document) == [
        ("NOMBRE_SUJETO_ASISTENCIA", "Jesús"),
        ("NOMBRE_SUJETO_ASISTENCIA", "Martínez"),
        ("NOMBRE_SUJETO_ASISTENCIA", "JESÚS"),
        ("ID_SUJETO_ASISTENCIA", "2347865"),
        ("ID_SUJETO_ASISTENCIA", "2347865"),  # "2347865-B": the number is a whole word there
    ]
    # "Blanco" is a stop word of the pack (a colour, a sign): only written "blanco" here


def test_lower_case_words_kept_labels_and_short_strings_are_not_propagated():
    text = "Paciente Rosa Lozano, 45 años. Sexo: M. Fiebre; la piel rosa. Lozano acude. M. 45 años."
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Rosa Lozano"), ("EDAD_SUJETO_ASISTENCIA", "45 años"),
                   ("SEXO_SUJETO_ASISTENCIA", "M"), text=text)
    assert found(document) == [("NOMBRE_SUJETO_ASISTENCIA", "Lozano")]
    only_names = propagate(document, lambda label: label != "NOMBRE_SUJETO_ASISTENCIA", PACK)
    assert only_names == ()  # a label the policy keeps is not propagated


def test_a_kind_of_body_alone_under_an_organisations_label_is_not_propagated():
    # the twelfth set written blind: "Juzgado" alone as an organisation had carried "COMUNICACIÓN
    # AL JUZGADO DE INTERNAMIENTO" to "AL IMSERSO"; a name of one word still is ("Mercadona")
    text = ("COMUNICACIÓN AL JUZGADO DE INTERNAMIENTO NO VOLUNTARIO\nDestinatario: Juzgado de guardia.\n"
            "Trabaja en Mercadona. Turnos en Mercadona de noche.")
    document = doc(("INSTITUCION", "Juzgado"), ("INSTITUCION", "Mercadona"), text=text)
    assert found(document) == [("INSTITUCION", "Mercadona")]


def test_a_propagated_mention_gets_the_surrogate_of_its_source_and_is_audited():
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Jesús Martínez Blanco"), ("ID_SUJETO_ASISTENCIA", "2347865"),
                   ("CORREO_ELECTRONICO", "jmb@gmail.com"))
    result = Pseudonymiser(seed=3).pseudonymise(document)
    by_source = {}
    for record in result.audit:
        by_source.setdefault(record.source, []).append(record)
    assert len(by_source["propagated"]) == 5
    name = next(r.surrogate for r in by_source["annotation"] if r.label == "NOMBRE_SUJETO_ASISTENCIA")
    given, surname, _ = name.split()
    new = [result.text[r.new_start:r.new_end] for r in by_source["propagated"]]
    assert new[:3] == [given, surname, given.upper()]
    assert "Jesús" not in result.text and "JESÚS" not in result.text and "2347865" not in result.text
    assert result.leftovers == ()
    assert "placa blanca en el blanco del ojo" in result.text  # ordinary words untouched
    unpropagated = Pseudonymiser(seed=3, propagate_mentions=False).pseudonymise(document)
    assert "Jesús se encontraba" in unpropagated.text and unpropagated.leftovers


def test_propagation_is_deterministic_and_keeps_the_text_outside_spans():
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Jesús Martínez Blanco"))
    a = Pseudonymiser(seed=5).pseudonymise(document)
    b = Pseudonymiser(seed=5).pseudonymise(document)
    assert a.text == b.text
    assert a.text.endswith("no es un NHC.") and "\nNHC 2347865. Contacto: jmb@gmail.com;" in a.text


def test_a_decomposed_note_propagates_at_the_original_offsets():
    import unicodedata
    text = unicodedata.normalize("NFD", "Nombre: Julián Pérez.\nJulián mejora.")
    document = Document("d", text, (Span(8, 8 + len(unicodedata.normalize("NFD", "Julián Pérez")),
                                         "NOMBRE_SUJETO_ASISTENCIA"),))
    result = Pseudonymiser(seed=2).pseudonymise(document)
    assert result.text.endswith(" mejora.") and "Julia" not in result.text.replace("\n", " ")[-20:]
    assert [r.source for r in result.audit] == ["annotation", "propagated"]


def test_a_name_of_several_words_is_propagated_whatever_its_case():
    text = "Nombre: Lucía Ferrer.\nVista por lucía ferrer; ferrer de nuevo."
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Lucía Ferrer"), text=text)
    assert found(document) == [("NOMBRE_SUJETO_ASISTENCIA", "lucía ferrer")]  # not one lower-case word


def test_a_name_that_is_an_ordinary_word_is_propagated_after_an_honorific_or_inside_a_sentence():
    text = ("Apellidos: Mora Ruiz.\nSra. Mora acude con su hija. La mora en el diagnóstico fue larga.\n"
            "Mora en el diagnóstico. Se llamó a la familia Mora por teléfono.")
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Mora Ruiz"), text=text)
    got = [(s.start, text[s.start:s.end]) for s in propagate(document, lambda _: True, PACK)]
    assert got == [(text.index("Sra. Mora") + 5, "Mora"), (text.rindex("Mora"), "Mora")]


def test_an_acronym_spelled_like_the_name_is_not_the_name():
    text = "Nombre: Ana Pons.\nANA positivos a título 1/640 y EVA 7/10. Ana refiere artralgias."
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "Ana Pons"), ("NOMBRE_SUJETO_ASISTENCIA", "Eva"),
                   text=text.replace("EVA 7/10.", "EVA 7/10, Eva."))
    acronyms = frozenset({"ana", "eva"})
    spans = propagate(document, lambda _: True, PACK, acronyms=acronyms)
    assert [document.text[s.start:s.end] for s in spans] == ["Ana"]
    result = Pseudonymiser(seed=4).pseudonymise(doc(("NOMBRE_SUJETO_ASISTENCIA", "Ana Pons"), text=text))
    assert "ANA positivos" in result.text and "EVA 7/10" in result.text
    assert "Ana " not in result.text.replace("ANA ", "")
    assert not result.leftovers  # "ANA" is the pack's acronym, not a leftover of "Ana"
    upper = "Nombre: ANA PONS.\nANA positivos."
    held = Pseudonymiser(seed=4).pseudonymise(doc(("NOMBRE_SUJETO_ASISTENCIA", "ANA PONS"), text=upper))
    assert "ANA" not in held.text  # the name written in capitals: "ANA" may be her


def test_a_generalised_description_is_generalised_at_every_mention():
    text = "Antecedentes: hijo con síndrome de Down. El síndrome de Down se diagnosticó al nacer."
    document = doc(("OTROS_SUJETO_ASISTENCIA", "síndrome de Down"), text=text)
    assert found(document) == [("OTROS_SUJETO_ASISTENCIA", "síndrome de Down")]
    result = Pseudonymiser(seed=2).pseudonymise(document)
    assert "Down" not in result.text and not result.leftovers


def test_the_parts_of_a_glued_name_are_found_written_apart():
    text = "Paciente: ÁngelGarcía Escudero.\nEvolución: el Sr. García Escudero refiere disnea. Ángel mejora."
    document = doc(("NOMBRE_SUJETO_ASISTENCIA", "ÁngelGarcía Escudero"), text=text)
    assert [word for _, word in found(document)] == ["García", "Escudero", "Ángel"]
    result = Pseudonymiser(seed=5).pseudonymise(document)
    header, body = result.text.split("\n")
    glued = header.removeprefix("Paciente: ").rstrip(".")
    assert "García" not in result.text and "Ángel" not in result.text and not result.leftovers
    surname = body.split()[3]  # "Evolución: el Sr. SURNAME Escudero's-surrogate …"
    assert glued.split(" ")[0].endswith(surname) and glued.split(" ")[1] == body.split()[4]


# --- initials beside a name, a cut word, acronyms of a person ----------------------------------

S = "NOMBRE_PERSONAL_SANITARIO"
DATA = surrogate_data("es")


def widened(text: str, *items: tuple[str, str]) -> list[str]:
    document = doc(*items, text=text)
    return [text[s.start:s.end] for s in propagate(document, lambda _: True, PACK)]


def test_initials_beside_a_name_are_taken_into_its_span():
    # MEDDOCAN dev S0376-78922011000100010-1: "Dr. Nikolaos Antoniadis P." with the "P." outside
    assert widened("Responsable clínico: Dr. Nikolaos Antoniadis P. Departamento de Cirugía.",
                   (S, "Nikolaos Antoniadis")) == ["Nikolaos Antoniadis P."]
    assert widened("Remitido por: Dr. F. A. Ferrer. Servicio de Urología.", (S, "Ferrer")) == ["F. A. Ferrer"]
    assert widened("Revisado por J.M. García, Servicio de Digestivo.", (S, "García")) == ["J.M. García"]
    assert widened("Firmado: P. Ruiz A.B.\n", (S, "Ruiz")) == ["P. Ruiz A.B."]


def test_near_misses_are_not_initials_of_the_name():
    patient = "NOMBRE_SUJETO_ASISTENCIA"
    assert widened("Se pauta vitamina D. García refiere mejoría.", (patient, "García")) == []
    assert widened("Visto por el Dr. García. A las diez horas, fiebre.", (S, "García")) == []
    assert widened("Dres. García A. y Pérez B. firman.", (S, "García")) == []  # "A. y": not sure, left
    assert widened("Médico: Carolina Morato MedinaNºCol: 45 74 22861.", (S, "Carolina Morato Medina")) == []


def test_a_span_that_cuts_a_word_is_widened_to_the_word():
    # dev S0212-71992005001000009-1: the gold span starts after the "F" of "DR.Francisco"
    text = "Remitido por: DR.Francisco Javier Candel. Servicio de Microbiología Clínica."
    assert widened(text, (S, "rancisco Javier Candel")) == ["Francisco Javier Candel"]
    assert widened("Médico: Ana Cande.", (S, "Ana Cand")) == ["Ana Cande"]


def test_capitals_equal_to_a_person_s_initials_are_that_person():
    text = ("Remitido por: Dr. Francisco Alberto Ferrer, Servicio de Urología.\n"
            "Paciente: Héctor Tomás Alonso. Antecedentes: HTA, DM, III par craneal.\nFirmado: FAF.")
    document = doc((S, "Francisco Alberto Ferrer"), ("NOMBRE_SUJETO_ASISTENCIA", "Héctor Tomás Alonso"),
                   text=text)
    spans = propagate(document, lambda _: True, PACK, known_acronym=DATA.is_known_acronym)
    assert [(s.label, text[s.start:s.end]) for s in spans] == [(S, "FAF")]  # "HTA" is hypertension
    assert propagate(document, lambda _: True, PACK) == ()  # without the pack's acronyms: not looked for


def test_initials_of_a_name():
    particles = DATA.name_particles
    assert initials_of("Dr. Francisco Alberto Ferrer Gómez", PACK, particles) == ["fafg", "ffg", "faf"]
    assert initials_of("M.a José de la Torre", PACK, DATA.name_particles) == ["mjt"]
    assert initials_of("ÁngelGarcía Escudero", PACK, DATA.name_particles) == ["age"]
    assert initials_of("Ana Pons", PACK, DATA.name_particles) == []  # two letters: not an acronym


def test_a_relatives_name_is_propagated_and_an_occupation_not_into_a_name():
    # a nursing handover written blind: "Hijo Pedro José" replaced, "Llamar a Pedro José" left
    # (the leftover scan held the note); "estudiante" replaced inside "Unidad de Salud del
    # Estudiante" (the leftover scan held that one too)
    text = "- Hijo Pedro José: vive en Madrid.\n2. Llamar a Pedro José para informar. Su hijo vino."
    assert found(doc(("FAMILIARES_SUJETO_ASISTENCIA", "Hijo Pedro José"), text=text)) == [
        ("FAMILIARES_SUJETO_ASISTENCIA", "Pedro José")]
    text = ("Unidad de Salud del Estudiante\nAne, 20 años, estudiante de Enfermería. Estudiante "
            "aplicada.")
    assert found(doc(("PROFESION", "estudiante"), text=text)) == [("PROFESION", "Estudiante")]  # a sentence's
    result = Pseudonymiser(seed=1).pseudonymise(doc(("PROFESION", "estudiante"), text=text))
    assert result.text.startswith("Unidad de Salud del Estudiante\n") and not result.leftovers


def test_a_name_found_whole_takes_the_place_of_the_pieces_found_of_it_elsewhere():
    # the tenth set written blind: a handover's header held "Hospital General Básico" +
    # "Serranía" + "Ronda" (three spans, three surrogates), its signature the whole name
    text = ("Hospital General Básico de la Serranía de Ronda · Unidad de Traumatología\n"
            "Traslado al Hospital General Básico de la Serranía de Ronda mañana.")
    first, second = text.index("Hospital"), text.rindex("Hospital")
    whole = "Hospital General Básico de la Serranía de Ronda"
    serrania, ronda = text.index("Serranía"), text.index("Ronda")
    spans = (Span(first, first + 23, "HOSPITAL"), Span(serrania, serrania + 8, "HOSPITAL"),
             Span(ronda, ronda + 5, "INSTITUCION"), Span(second, second + len(whole), "HOSPITAL"))
    assert found(Document("d", text, spans)) == [("HOSPITAL", whole)]
    # a name that crosses a span is left alone
    crossing = (Span(first, text.index("Unidad") + 6, "HOSPITAL"), spans[3])
    assert found(Document("d", text, crossing)) == []


def test_a_name_that_only_adds_punctuation_to_a_span_takes_nothing_over():
    # the catalogue's "Hospital del MAR." beside a span "Hospital del Mar" and its sentence's full
    # stop: taken whole, the full stop would have gone with the name
    text = "Ingresa en Hospital del MAR.\nIngresa en Hospital del Mar."
    first, second = text.index("Hospital"), text.rindex("Hospital")
    spans = (Span(first, first + len("Hospital del MAR."), "HOSPITAL"),
             Span(second, second + len("Hospital del Mar"), "HOSPITAL"))
    assert found(Document("d", text, spans)) == []


def test_a_lower_case_names_runs_of_words_are_propagated_never_a_word_alone():
    # the fourteenth set's dictation: "paciente juan de dios ortega quesada repito ortega quesada";
    # "ortega" alone is a bird, "quesada" a pastry
    text = ("paciente juan de dios ortega quesada repito ortega quesada con q; vio una ortega en el "
            "campo y comió quesada; tampoco localizamos a juan de dios el hijo")
    name = "juan de dios ortega quesada"
    doc = Document("d", text, (Span(9, 9 + len(name), "NOMBRE_SUJETO_ASISTENCIA"),))
    spans = propagate(doc, lambda _: True, load_pack("es"), frozenset({"de", "del"}))
    found = {text[s.start:s.end] for s in spans}
    assert {"ortega quesada", "juan de dios"} <= found
    assert "ortega" not in found and "quesada" not in found


def test_a_hospitals_proper_part_alone_is_a_second_mention_but_not_a_town() -> None:
    # the fifteenth set written blind: "Hospital Universitario de Valme", then "trasladado a
    # Valme" in clear; "Hospital de León" must not make the town León a hospital
    from .surrogate_kit import run

    text = ("Hospital generador: Hospital Universitario de Valme (Sevilla). Trasladado a Valme.\n"
            "Ingresó en el Hospital de León; vive en León. Hospital del Mar, el mar en calma.")
    result = run(text, ("HOSPITAL", "Hospital Universitario de Valme"), ("TERRITORIO", "Sevilla"),
                 ("HOSPITAL", "Hospital de León"), ("HOSPITAL", "Hospital del Mar"))
    assert "Valme" not in result.text
    assert "vive en León." in result.text and "el mar en calma" in result.text
    assert any(a.source == "propagated" and a.label == "HOSPITAL" for a in result.audit)
    # a hospital named by a kind of care names no one: its words elsewhere stay (MEDDOCAN dev)
    text = "Trasladado al Hospital de Cuidados Paliativos. Ingresa en la Unidad de Cuidados Paliativos."
    result = run(text, ("HOSPITAL", "Hospital de Cuidados Paliativos"))
    assert result.text.endswith("Ingresa en la Unidad de Cuidados Paliativos.")


def test_a_hospitals_proper_part_inside_a_longer_name_is_no_mention_of_it() -> None:
    # the seventeenth set written blind: "Complexo Hospitalario Universitario de Santiago", then
    # "hasta Santiago de Compostela", whose "Santiago" had become "Carmen y Severo Ochoa"
    text = ("Se le da informe para el Complexo Hospitalario Universitario de Santiago. Quiere seguir "
            "hasta Santiago de Compostela el viernes; en Santiago la espera su hija.")
    name = "Complexo Hospitalario Universitario de Santiago"
    start = text.index(name)
    doc = Document("d", text, (Span(start, start + len(name), "HOSPITAL"),))
    from crfdeid.surrogates import build_registry, surrogate_data

    facilities = build_registry(surrogate_data("es"))["HOSPITAL"]
    spans = propagate(doc, lambda _: True, load_pack("es"), frozenset({"de", "del"}),
                      proper=facilities.proper)
    found = [(s.start, text[s.start:s.end]) for s in spans]
    assert (text.index("Santiago de"), "Santiago") not in found
    assert (text.rindex("Santiago"), "Santiago") in found  # alone, it is the hospital's mention


def test_a_lower_case_page_read_as_one_name_is_not_cubic(monkeypatch):
    # a span over a whole lower-case page (4,000 "enf nieves") had made every run of its words a
    # string to look for: cubic, minutes; a name's run has eight words at most
    import crfdeid.propagate as module

    calls = []
    real = module.normalise
    monkeypatch.setattr(module, "normalise", lambda s: calls.append(len(s)) or real(s))
    text = "enf nieves " * 1000
    doc = Document("d", text, (Span(0, len(text) - 1, "NOMBRE_PERSONAL_SANITARIO"),))
    propagate(doc, lambda _: True, PACK, frozenset({"de", "del"}))
    assert len(calls) <= 2000 * module.MAX_RUN + 10
    assert sum(calls) <= 2000 * module.MAX_RUN * 80
