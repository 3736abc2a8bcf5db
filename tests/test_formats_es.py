"""Spanish notes unlike MEDDOCAN's (tests/fixtures/es_formats, tests/fixtures/es_blind): what
leaks, what is found.

The embedded model learnt MEDDOCAN's case reports. These invented notes — an emergency report,
nursing and ICU notes, letters, a forensic report, a surgical sheet…; then fourteen written blind
by another hand (a nursing handover in lower case, a care-home report, an insurer's letter…) —
are where it failed end to end; each surprise became a rule, a completion step or a fix, and this
file keeps them fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.deidentify import Deidentifier
from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_corpus
from crfdeid.pipeline import load_pipeline
from crfdeid.types import Document

FIXTURES = Path(__file__).parent / "fixtures" / "es_formats"
BLIND = Path(__file__).parent / "fixtures" / "es_blind"
#: Kept on purpose by the shipped policy: an age under 90, the patient's sex, a kinship word.
KEPT = {"EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA"}
#: What still leaks (note, text): a hospital written over a line break, a neighbour, a nurse
#: named alone. A new leak
#: fails the test; a fixed one should be taken off this list.
KNOWN_LEAKS = {
    # the hospital's kind, kept by its surrogate ("Hospital Materno-Infantil de Teruel"), once
    # the span holds "de Zaragoza" too: no name of it is left
    ("pediatria", "Hospital Materno-Infantil"),
    ("ambulancia", "vecina Rosa"),
    ("enfermeria", "Pilar"),
    ("psiquiatria", "Hospital de Día de"),
    ("psiquiatria", "Leganés"),
}


@pytest.fixture(scope="module")
def notes() -> dict[str, Document]:
    return load_corpus([FIXTURES])


@pytest.fixture(scope="module")
def blind() -> dict[str, Document]:
    return load_corpus([BLIND])


def _kinship_words(text: str) -> bool:
    from crfdeid.langpack import load_pack

    pack = load_pack("es")
    words = text.replace("(", " ").replace(")", " ").replace(",", " ").split()
    return bool(words) and all(pack.kinship_term(w) is not None or w.lower() in ("de", "su") for w in words)


def _whole_leaks(notes: dict[str, Document]) -> set[tuple[str, str]]:
    """(note, text) of the gold spans whose whole text is still in the de-identified note."""
    # a fixed seed: a surrogate may equal another original of the note ("2022" shifted to "2018")
    deidentifier = Deidentifier(seed=1)
    leaks = set()
    for doc in notes.values():
        out = deidentifier.deidentify(Document(doc.id, doc.text)).text
        for span in doc.spans:
            if span.label in KEPT:
                continue
            pieces = span.fragments or ((span.start, span.end),)
            for start, end in pieces:
                value = doc.text[start:end]
                if len(value) >= 3 and value in out and not _kinship_words(value):
                    leaks.add((doc.id, value))
    return leaks


def _word_leaks(notes: dict[str, Document]) -> set[tuple[str, str]]:
    """(note, word) of the words of gold spans still in the de-identified note (crfdeid.leaks)."""
    from crfdeid.langpack import fold, load_pack
    from crfdeid.leaks import kept_by_design, leaked_words

    pack = load_pack("es")
    kept, names = kept_by_design(pack), {fold(e) for e in pack.table("given_name").entries}
    deidentifier = Deidentifier(seed=1)
    found = set()
    for doc in notes.values():
        out = deidentifier.deidentify(Document(doc.id, doc.text)).text
        words = leaked_words(doc, out, skip_labels=KEPT, kept=kept, names=names, dates={"FECHAS"})
        found.update((doc.id, w.word) for w in words)
    return found


def _recall(notes: dict[str, Document], point: str) -> float:
    pipeline = load_pipeline(operating_point=point)
    system = {i: Document(i, d.text, tuple(pipeline.detect(Document(i, d.text)))) for i, d in notes.items()}
    return evaluate(notes, system).spans_merged.recall


def test_what_leaks_is_what_we_know_of(notes: dict[str, Document]) -> None:
    leaks = _whole_leaks(notes)
    assert leaks <= KNOWN_LEAKS, sorted(leaks - KNOWN_LEAKS)


#: Words of gold spans still in the output (``crfdeid.leaks``), beyond the whole spans above: a
#: name the tagger cut short leaves the rest of it ("Ruiz-Gallardo Peñalver" once did), two
#: hospitals of one note traded names ("de León" and "El Bierzo" once did). (note, word)
KNOWN_WORD_LEAKS = {("ambulancia", "Rosa"), ("enfermeria", "Pilar"), ("psiquiatria", "Leganés")}


def test_no_word_of_phi_leaks_but_those_we_know_of(notes: dict[str, Document]) -> None:
    found = _word_leaks(notes)
    assert found <= KNOWN_WORD_LEAKS, sorted(found - KNOWN_WORD_LEAKS)


def test_the_times_of_day_survive_and_nothing_reads_like_a_time_shifted(notes: dict[str, Document]) -> None:
    out = Deidentifier(seed=1).deidentify(notes["urgencias"]).text
    assert "14:32" in out and "09:10" in out and "10:30h" in out


@pytest.mark.parametrize("point, floor", [("viterbi", 0.80), ("deidentify", 0.88)])
def test_what_the_embedded_model_finds(notes: dict[str, Document], point: str, floor: float) -> None:
    # measured when this test was written (spans_merged recall 0.756 on the best path, 0.841 at
    # the deidentify point; 0.634 / 0.748 before the work these notes prompted, 2026-11-28;
    # 0.762 / 0.857 after the address, code and compound-name steps and the model with copies in
    # other cases of the next round; 0.804 / 0.896 with the occupations, the organisations and
    # employers of the list, the third round; 0.829 / 0.900 after the fourth): a floor a little
    # under it, so that a change losing what these notes taught fails here
    recall = _recall(notes, point)
    assert recall >= floor, recall


# -- the notes written blind -------------------------------------------------------------------
#: What still leaks from the fourteen notes written blind (tests/fixtures/es_blind): an occupation
#: that opens a sentence, a name in Chinese script, a date in words, a month and a year alone,
#: places no table holds (Bristol, Cabo de Palos, Parc Taulí), a name of a note typed in lower
#: case whose second word is a word of the language ("mª desamparados puig").
BLIND_LEAKS = {
    ('ap_soap_vigo', 'septiembre'), ('forense_cartagena', 'Cabo de Palos'),
    ('forense_cartagena', 'Patrón de pesca'),
    ('forense_cartagena', 'veintitrés de agosto de dos mil veinticuatro'), ('maxilofacial_sevilla', '陈晓玲'),
    ('rehabilitacion_alicante', 'Bristol'), ('relevo_enfermeria_valencia', 'mª desamparados puig'),
    ('residencia_molina', '2018'),
    # "SU HIJO JUAN DE DIOS, GUARDIA CIVIL EN LINARES": the retrained tagger (2026-11-28, fifth
    # round) took "DIOS" for a clinician, after whose name no occupation is looked for
    ('mayusculas_ubeda', 'GUARDIA CIVIL'),
    # "Sabadell" of the header is inside the mental-health centre's span now, so no longer a
    # town whose second mention the pseudonymiser replaces
    ('salud_mental_sabadell', 'CAS de Sabadell'), ('salud_mental_sabadell', 'Parc Taulí'),
}
BLIND_WORD_LEAKS = {
    ('forense_cartagena', 'Cabo'), ('forense_cartagena', 'Palos'), ('forense_cartagena', 'Patrón'),
    # the surrogate of the mother "Luz Mery" drawn as "Lucía …", a word of the gold "Santa Lucía
    # de Tirajana" (replaced): a coincidence the measure cannot tell from a leak
    ('obstetricia_gran_canaria', 'Lucía'),
    ('rehabilitacion_alicante', 'Bristol'), ('relevo_enfermeria_valencia', 'desamparados'),
    ('salud_mental_sabadell', 'CAS'), ('salud_mental_sabadell', 'Parc'),
    ('salud_mental_sabadell', 'Sabadell'), ('salud_mental_sabadell', 'Taulí'),
}


def test_what_leaks_from_the_blind_notes_is_what_we_know_of(blind: dict[str, Document]) -> None:
    leaks, words = _whole_leaks(blind), _word_leaks(blind)
    assert leaks <= BLIND_LEAKS, sorted(leaks - BLIND_LEAKS)
    assert words <= BLIND_WORD_LEAKS, sorted(words - BLIND_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.81), ("deidentify", 0.89)])
def test_what_the_embedded_model_finds_in_the_blind_notes(blind: dict[str, Document], point: str,
                                                           floor: float) -> None:
    # blind, once (before anything was changed for them): 0.644 on the best path, 0.747 at the
    # deidentify point; after the round they prompted (2026-11-28): 0.743 / 0.847; after the
    # third round (occupations, organisations and employers of the list, businesses, schools
    # and health centres in Catalan and Galician, a name before its NIE, notes in lower case,
    # names in apposition): 0.814 / 0.915; after the fourth 0.837 / 0.916
    recall = _recall(blind, point)
    assert recall >= floor, recall


# -- the second set written blind -----------------------------------------------------------------
BLIND2 = BLIND.parent / "es_blind2"
#: What still leaks from the second set (blind once, then read: the fourth round): a road's
#: kilometre point, towns of a Galician ambulance report, day-and-month dates after a time or
#: "fur", a Basque date and hospital name, a relative's occupation after a clinician-tagged name,
#: the home country (kept by the policy), the lower-case body of a telephone note.
BLIND2_LEAKS = {
    ('ambulancia_lugo', '09/12'), ('ambulancia_lugo', 'A-6, p.k. 452,3'), ('ambulancia_lugo', 'Becerreá'),
    ('ambulancia_lugo', 'Ourense'), ('pediatria_pamplona', 'fisioterapeuta'), ('pericial_toledo', 'España'),
    ('teledermatologia_gipuzkoa', '2024ko urriaren 3a'),
    ('teledermatologia_gipuzkoa', 'Donostia Unibertsitate Ospitalea'), ('telefonica_tenerife', '10/11'),
    ('telefonica_tenerife', 'ayto de la laguna'), ('telefonica_tenerife', 'huc'),
    ('telefonica_tenerife', 'maracaibo'), ('telefonica_tenerife', 'venezuela'),  # lower case, foreign
    # 2026-12-06 (tenth round, a retrained model): a district with its number in brackets
    ('derivacion_santander', 'Barrio La Rabia 17'),
}
BLIND2_WORD_LEAKS = {
    ('derivacion_santander', 'Rabia'),  # 2026-12-06 (tenth round): "Barrio La Rabia 17", above
    ('ambulancia_lugo', 'Becerreá'), ('ambulancia_lugo', 'Ourense'), ('ambulancia_lugo', 'Pedrafita'),
    ('dental_logrono', 'Dental'), ('farmacia_merida', 'FARMACIA'), ('pediatria_pamplona', 'Osasunbidea'),
    ('pericial_toledo', 'España'), ('pericial_toledo', 'García'), ('social_melilla', 'AUTÓNOMA'),
    ('social_melilla', 'CIUDAD'),  # "CIUDAD AUTÓNOMA DE MELILLA" as the issuing body: its kind kept
    ('teledermatologia_gipuzkoa', 'Donostia'),
    ('teledermatologia_gipuzkoa', 'Ospitalea'), ('teledermatologia_gipuzkoa', 'Unibertsitate'),
    ('telefonica_tenerife', 'huc'),
}


@pytest.fixture(scope="module")
def blind2() -> dict[str, Document]:
    return load_corpus([BLIND2])


def _known_leaks_only(notes: dict[str, Document], size: tuple[int, int], leaks: set[tuple[str, str]],
                      words: set[tuple[str, str]]) -> None:
    """The set has its notes and spans, and leaks no gold span or word but those listed."""
    assert (len(notes), sum(len(d.spans) for d in notes.values())) == size
    found, found_words = _whole_leaks(notes), _word_leaks(notes)
    assert found <= leaks, sorted(found - leaks)
    assert found_words <= words, sorted(found_words - words)


def test_what_leaks_from_the_second_blind_set_is_what_we_know_of(blind2: dict[str, Document]) -> None:
    _known_leaks_only(blind2, (12, 349), BLIND2_LEAKS, BLIND2_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.75), ("deidentify", 0.86)])
def test_what_the_embedded_model_finds_in_the_second_blind_set(blind2: dict[str, Document], point: str,
                                                              floor: float) -> None:
    # blind, once, with the third round's code (2026-11-28): 0.674 on the best path, 0.785 at
    # the deidentify point; after the fourth round they prompted: 0.772 / 0.877
    assert _recall(blind2, point) >= floor


# -- the third set written blind -------------------------------------------------------------------
BLIND3 = BLIND.parent / "es_blind3"
#: What still leaks from the third set (blind once, then read: the fifth round): "España" (kept
#: by the policy), years and day-and-month dates alone, occupations of phrases the step does not
#: know ("Operario de prensa / estampación en frío", "Ingeniero de telecomunicaciones", the
#: Galician "mariñeiro"), a foreign insurer and a car-rental firm, an occupational-health company
#: written as one word, a trial's centre number, a neighbour, a
#: student number, a first name alone after "Hola,", a description of the patient.
BLIND3_LEAKS = {
    ('01_caso_nefrologia_lleida', 'España'), ('03_caso_chagas_leon', 'España'),
    ('04_caso_cirped_murcia', 'España'), ('06_parto_alicante', '2018'), ('07_genetica_sevilla', '2021'),
    ('07_genetica_sevilla', 'tornero'),
    ('08_laboral_valladolid', 'Operario de prensa / estampación en frío'),
    ('08_laboral_valladolid', 'QUIRÓNPREVENCIÓN'), ('09_urgencias_palma', 'Autos Llevant Rent a Car'),
    ('09_urgencias_palma', 'ERGO Reiseversicherung'),
    ('09_urgencias_palma', 'Ingeniero de telecomunicaciones'),
    ('10_ensayo_santiago', '1960'), ('10_ensayo_santiago', '724-012'), ('10_ensayo_santiago', 'mariñeiro'),
    ('11_domicilio_cartagena', '14/01'),
    ('11_domicilio_cartagena', 'vecina Encarna'), ('13_ap_gijon', 'costurera'),
    ('14_carta_pamplona', '27/02'),
    ('14_carta_pamplona', 'Iratxe'), ('14_carta_pamplona', 'a1138427'),
    ('14_carta_pamplona', 'capitana del equipo femenino de rugby de la universidad'),
    ('14_carta_pamplona', 'noviembre'),
}
BLIND3_WORD_LEAKS = {
    # a legal form the company's surrogate keeps (the twelfth round)
    ('10_ensayo_santiago', 'GmbH'),
    ('01_caso_nefrologia_lleida', 'España'), ('03_caso_chagas_leon', 'España'),
    # 2026-12-06 (tenth round, a retrained model): the first word of a company in Catalan capitals
    ('05_psiquiatria_girona', 'ASSISTÈNCIA'),
    # the clinician's surrogate given name, drawn by chance; "C/ Maestro Nicolás" is replaced
    ('03_caso_chagas_leon', 'Nicolás'),
    ('04_caso_cirped_murcia', 'España'), ('08_laboral_valladolid', 'Operario'),
    ('08_laboral_valladolid', 'QUIRÓNPREVENCIÓN'), ('09_urgencias_palma', 'Autos'),
    ('09_urgencias_palma', 'Car'), ('09_urgencias_palma', 'ERGO'), ('09_urgencias_palma', 'Ingeniero'),
    ('09_urgencias_palma', 'Llevant'), ('09_urgencias_palma', 'Reiseversicherung'),
    ('09_urgencias_palma', 'Rent'),
    ('11_domicilio_cartagena', 'Encarna'),
    ('14_carta_pamplona', 'Alimentarios'), ('14_carta_pamplona', 'Enfermería'),
    ('14_carta_pamplona', 'Iratxe'), ('14_carta_pamplona', 'Trastornos'),
    # 2026-12-06 (ninth round: the pack's aliases, a rebuilt model): an association's purpose
    ('14_carta_pamplona', 'Apoyo'),
}


@pytest.fixture(scope="module")
def blind3() -> dict[str, Document]:
    return load_corpus([BLIND3])


def test_what_leaks_from_the_third_blind_set_is_what_we_know_of(blind3: dict[str, Document]) -> None:
    _known_leaks_only(blind3, (14, 427), BLIND3_LEAKS, BLIND3_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.85), ("deidentify", 0.88)])
def test_what_the_embedded_model_finds_in_the_third_blind_set(blind3: dict[str, Document], point: str,
                                                             floor: float) -> None:
    # blind, once, with the code of 32329bb (2026-11-28): 0.771 on the best path, 0.840 at the
    # deidentify point (benchmarks/formats.py's measure); after the fifth round they prompted
    # this test's measure gives 0.875 / 0.904
    assert _recall(blind3, point) >= floor



# -- the fourth set written blind ------------------------------------------------------------------
BLIND4 = BLIND.parent / "es_blind4"
#: What still leaks from the fourth set (blind once, then read: the sixth and seventh rounds):
#: "España" (kept by the policy), an occupation in Catalan ("infermera"), a year and a day alone
#: ("2014", "día 24"; "5/11" is in a surrogate date, "05/11/2021", the measure being a plain
#: substring test), the Colombian town Apartadó (no table holds it).
BLIND4_LEAKS = {
    ('alta_castello', 'infermera'), ('cr01_urologia', 'España'), ('cr02_hematologia', 'España'),
    ('cr03_oftalmologia', '2014'), ('cr03_oftalmologia', 'España'), ('cr04_maxilofacial', 'España'),
    ('cr05_infecciosas', 'Apartadó'), ('cr05_infecciosas', 'España'), ('cr06_neurologia', 'España'),
    ('residencia_soria', '5/11'), ('residencia_soria', 'día 24'),
    ('cr05_infecciosas', 'Atrato'),  # 2026-12-06 (tenth round, a retrained model): a river
}
BLIND4_WORD_LEAKS = {
    ('alta_castello', 'Plana'), ('cr01_urologia', 'España'), ('cr02_hematologia', 'España'),
    ('cr03_oftalmologia', 'España'), ('cr04_maxilofacial', 'España'), ('cr04_maxilofacial', 'julio'),
    ('cr05_infecciosas', 'Apartadó'), ('cr05_infecciosas', 'Comunidad'), ('cr05_infecciosas', 'España'),
    ('cr05_infecciosas', 'Pública'), ('cr06_neurologia', 'España'), ('cr06_neurologia', 'mayo'),
    ('dental_melilla', 'Ensar'), ('dental_melilla', 'junio'), ('pediatria_salamanca', 'Castilla'),
    ('pediatria_salamanca', 'abril'), ('residencia_soria', '2023'), ('salud_mental_bizkaia', '2025'),
    ('traslado_summa', 'Comunidad'),
    ('cr05_infecciosas', 'Atrato'),  # 2026-12-06 (tenth round, a retrained model): a river
    # 2026-12-06 (ninth round: the pack's aliases, a rebuilt model): a numeral, a network's kind
    ('cr05_infecciosas', 'III'), ('salud_mental_bizkaia', 'Red'),
}


@pytest.fixture(scope="module")
def blind4() -> dict[str, Document]:
    return load_corpus([BLIND4])


def test_what_leaks_from_the_fourth_blind_set_is_what_we_know_of(blind4: dict[str, Document]) -> None:
    _known_leaks_only(blind4, (14, 513), BLIND4_LEAKS, BLIND4_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.88), ("deidentify", 0.92)])
def test_what_the_embedded_model_finds_in_the_fourth_blind_set(blind4: dict[str, Document], point: str,
                                                              floor: float) -> None:
    # blind, once, with the code of db4cd2c (2026-11-28): 0.825 on the best path, 0.885 at the
    # deidentify point (benchmarks/formats.py's measure); after the sixth round they prompted
    # this test's measure gives 0.873 / 0.927, after the seventh 0.899 / 0.937
    assert _recall(blind4, point) >= floor


# -- the fifth set written blind -------------------------------------------------------------------
BLIND5 = BLIND.parent / "es_blind5"
#: What still leaks from the fifth set (blind once, then read: the seventh round): "España" (kept
#: by the policy), the emergency service's acronym "SEM" (listed but not matched: an ordinary
#: acronym in notes), a ministry, an inmate's status ("interno en este establecimiento"), places
#: no table holds (Quevedo in Ecuador, Arguineguín in Mogán); "2017" and "2023" are surrogate
#: years of other dates (the measure is a plain substring test; both originals are replaced).
BLIND5_LEAKS = {
    # lost by the twelfth round's retrained model ("expediente de internamiento 842/2025")
    ('cc07_psiquiatria_girona', '842/2025'),
    ('cc01_dermatologia_lugo', '2017'), ('cc01_dermatologia_lugo', 'España'),
    ('cc02_nefrologia_pediatrica_murcia', 'España'), ('cc03_obstetricia_cordoba', 'España'),
    ('cc06_medicina_tropical_almeria', 'España'), ('cc08_anatomia_patologica_navarra', 'España'),
    ('doc10_alta_urgencies_lleida', 'SEM'), ('doc11_sanidad_penitenciaria_salamanca', '2023'),
    ('doc11_sanidad_penitenciaria_salamanca', 'MINISTERIO DEL INTERIOR'),
    ('doc11_sanidad_penitenciaria_salamanca', 'interno en este establecimiento'),
    ('doc14_salud_laboral_zaragoza', 'Quevedo'),
    ('doc15_clinica_privada_canarias_aseguradora', 'Arguineguín'),
}
BLIND5_WORD_LEAKS = {
    # the same (its word "2025" too)
    ('cc07_psiquiatria_girona', '842/2025'), ('cc07_psiquiatria_girona', '2025'),
    ('cc01_dermatologia_lugo', 'España'), ('cc02_nefrologia_pediatrica_murcia', 'España'),
    ('cc02_nefrologia_pediatrica_murcia', 'Madrid'), ('cc03_obstetricia_cordoba', 'España'),
    ('cc06_medicina_tropical_almeria', 'España'), ('cc06_medicina_tropical_almeria', 'junio'),
    ('cc08_anatomia_patologica_navarra', 'España'), ('doc10_alta_urgencies_lleida', 'SEM'),
    ('doc11_sanidad_penitenciaria_salamanca', '2023'), ('doc11_sanidad_penitenciaria_salamanca', 'INTERIOR'),
    ('doc11_sanidad_penitenciaria_salamanca', 'MINISTERIO'), ('doc14_salud_laboral_zaragoza', 'Quevedo'),
    ('doc15_clinica_privada_canarias_aseguradora', 'Arguineguín'),
}


@pytest.fixture(scope="module")
def blind5() -> dict[str, Document]:
    return load_corpus([BLIND5])


def test_what_leaks_from_the_fifth_blind_set_is_what_we_know_of(blind5: dict[str, Document]) -> None:
    _known_leaks_only(blind5, (15, 517), BLIND5_LEAKS, BLIND5_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.88), ("deidentify", 0.93)])
def test_what_the_embedded_model_finds_in_the_fifth_blind_set(blind5: dict[str, Document], point: str,
                                                             floor: float) -> None:
    # blind, once, with the code of d7c594a (2026-12-06): 0.841 on the best path, 0.894 at the
    # deidentify point (benchmarks/formats.py's measure); after the seventh round they prompted
    # this test's measure gives 0.898 / 0.944
    assert _recall(blind5, point) >= floor


# -- the sixth set written blind -------------------------------------------------------------------
BLIND6 = BLIND.parent / "es_blind6"
#: What still leaks from the sixth set (blind once, then read: the eighth round): "España" (kept
#: by the policy), "Guardia Civil" alone (a national force whose every surrogate would repeat it:
#: kept), a month alone ("En marzo varias cabras abortaron"); "2012", "2014" and "2015" are
#: surrogate years of other dates (the measure is a plain substring test; the originals are
#: replaced). Words: departments and associations whose place the surrogate changed ("Departamento
#: de Botánica de la Universidade de …", "Asociación de Implantados Cocleares de …", "Servicio de
#: Sanidad Animal de la …"), and names that are also other surrogates ("María", "Sánchez",
#: "Real", "Coruña", "Guadalajara").
BLIND6_LEAKS = {
    # lost by the twelfth round's retrained model (a hamlet no table holds)
    ('cr02_neurologia_hellin', 'Agramón'),
    ('cr01_cardiologia_plasencia', 'España'), ('cr02_neurologia_hellin', 'España'),
    ('cr03_hematologia_cuenca', 'España'), ('cr04_endocrinologia_siguenza', 'España'),
    ('cr05_oftalmologia_alcaniz', 'España'), ('cr06_orl_calahorra', 'España'),
    ('cr07_urologia_torrelavega', '2012'), ('cr07_urologia_torrelavega', 'España'),
    ('cr09_neumologia_ciutadella', 'España'), ('cr10_infecciosas_merida', 'España'),
    ('cr10_infecciosas_merida', 'marzo'), ('cr12_pediatria_laguna', 'España'),
    ('cr13_geriatria_soria', '2014'), ('cr14_vascular_ubeda', 'España'),
    ('cr15_quemados_lepe', 'Guardia Civil'), ('cr16_toxicologia_ourense', 'España'),
    ('cr17_alergologia_ibiza', '2015'),
}
BLIND6_WORD_LEAKS = {
    # the same
    ('cr02_neurologia_hellin', 'Agramón'),
    ('cr01_cardiologia_plasencia', 'España'), ('cr02_neurologia_hellin', 'España'),
    ('cr03_hematologia_cuenca', 'España'), ('cr03_hematologia_cuenca', 'Guadalajara'),
    ('cr04_endocrinologia_siguenza', 'España'), ('cr04_endocrinologia_siguenza', 'abril'),
    ('cr05_oftalmologia_alcaniz', 'España'), ('cr06_orl_calahorra', 'Cocleares'),
    ('cr06_orl_calahorra', 'España'), ('cr06_orl_calahorra', 'Implantados'),
    ('cr07_urologia_torrelavega', 'España'), ('cr07_urologia_torrelavega', 'María'),
    ('cr09_neumologia_ciutadella', 'España'), ('cr10_infecciosas_merida', 'Animal'),
    ('cr10_infecciosas_merida', 'España'), ('cr12_pediatria_laguna', 'España'),
    ('cr12_pediatria_laguna', 'Sánchez'), ('cr14_vascular_ubeda', 'España'),
    ('cr15_quemados_lepe', 'Real'), ('cr16_toxicologia_ourense', 'Botánica'),
    # the wife's surname is a street's of the toxicology unit's address, which the gold leaves
    # in clear ("Rúa Pazos, 42"): the retrained model of the tenth round no longer replaces it
    ('cr16_toxicologia_ourense', 'Pazos'),
    ('cr16_toxicologia_ourense', 'Coruña'), ('cr16_toxicologia_ourense', 'Departamento'),
    ('cr16_toxicologia_ourense', 'España'),
    # 2026-12-06 (ninth round: the pack's aliases, a rebuilt model): surrogates spelled like
    # another original ("C/ Jota Aragonesa", "de Bilbao")
    ('cr05_oftalmologia_alcaniz', 'Aragonesa'), ('cr07_urologia_torrelavega', 'Bilbao'),
}


@pytest.fixture(scope="module")
def blind6() -> dict[str, Document]:
    return load_corpus([BLIND6])


def test_what_leaks_from_the_sixth_blind_set_is_what_we_know_of(blind6: dict[str, Document]) -> None:
    _known_leaks_only(blind6, (18, 690), BLIND6_LEAKS, BLIND6_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.92), ("deidentify", 0.95)])
def test_what_the_embedded_model_finds_in_the_sixth_blind_set(blind6: dict[str, Document], point: str,
                                                             floor: float) -> None:
    # blind, once, with the code of 8ebf1d5 (2026-12-06): 0.903 on the best path, 0.928 at the
    # deidentify point (benchmarks/formats.py's measure); after the eighth round they prompted
    # this test's measure gives 0.934 / 0.958
    assert _recall(blind6, point) >= floor

BLIND7 = BLIND.parent / "es_blind7"
#: What still leaks from the seventh set (blind once, then read: the ninth and tenth rounds):
#: "España" (kept by the policy), "Guardia Civil" alone (kept), "Ertzaintza" (a police force, as
#: "Guardia Civil"), organisations ("Banc de Sang i Teixits", "GREIM de la Guardia Civil", the
#: hospital's nickname "Can Ruti", "Govern d'Andorra", a nursery "Infants"), descriptions (a
#: sporting title, a tattoo), "patrón" (a skipper: the word is also the labs' "patrón homogéneo"),
#: a hospital's site ("sede Santiago"), Quito (where a relative lives, found by the model of the
#: ninth round, not by the tenth's); "2005" and "2009" are surrogate years of other dates. Words:
#: the same, and surrogates spelled like another original ("Rodríguez", "junio").
BLIND7_LEAKS = {
    ('cr01_neumologia_cangasdelnarcea', 'España'), ('cr02_reumatologia_estellalizarra', 'España'),
    ('cr03_urologia_lorca', 'España'), ('cr04_dermatologia_puertodelrosario', '2005'),
    ('cr04_dermatologia_puertodelrosario', 'España'),
    ('cr06_traumatologia_jaca', 'GREIM de la Guardia Civil'),
    ('cr07_neurologia_benavente', 'España'), ('cr08_endocrinologia_palencia', 'España'),
    ('cr08_endocrinologia_palencia', 'subcampeón autonómico júnior de BTT'),
    ('cr09_urgencias_lalineadelaconcepcion',
     'tatuaje con el escudo del Lincoln Red Imps en el antebrazo izquierdo'),
    ('cr10_infecciosas_elejido', 'España'), ('cr11_oftalmologia_segovia', 'España'),
    ('cr13_otorrinolaringologia_burela', 'España'), ('cr13_otorrinolaringologia_burela', 'patrón'),
    ('cr14_cardiologia_vinaros', '2009'), ('cr15_nefrologia_vitoriagasteiz', 'Ertzaintza'),
    ('cr15_nefrologia_vitoriagasteiz', 'España'), ('cr15_nefrologia_vitoriagasteiz', 'Santiago'),
    ('cr16_obstetricia_melilla', 'España'), ('cr17_psiquiatria_talaveradelareina', 'España'),
    ('cr17_psiquiatria_talaveradelareina', 'Guardia Civil'),
    ('cr18_hematologia_badalona', 'Banc de Sang i Teixits'), ('cr18_hematologia_badalona', 'Can Ruti'),
    ('cr18_hematologia_badalona', 'España'), ('cr18_hematologia_badalona', 'Quito'),
}
BLIND7_WORD_LEAKS = {
    # Gibraltar's one postal code, which the model retrained in the eleventh round no longer tags
    ('cr09_urgencias_lalineadelaconcepcion', 'GX11'),
    # the kind of "Real Fábrica de Cristales de La Granja", which an institution's surrogate may
    # keep (the fifteenth round's model cut the name before "de La Granja")
    ('cr11_oftalmologia_segovia', 'Fábrica'),
    ('cr01_neumologia_cangasdelnarcea', 'España'), ('cr01_neumologia_cangasdelnarcea', 'Rodríguez'),
    ('cr02_reumatologia_estellalizarra', 'España'), ('cr03_urologia_lorca', 'España'),
    ('cr04_dermatologia_puertodelrosario', 'España'), ('cr05_pediatria_laseudurgell', 'Govern'),
    ('cr05_pediatria_laseudurgell', 'Infants'), ('cr06_traumatologia_jaca', 'GREIM'),
    ('cr07_neurologia_benavente', 'España'), ('cr07_neurologia_benavente', 'junio'),
    ('cr08_endocrinologia_palencia', 'BTT'), ('cr08_endocrinologia_palencia', 'España'),
    ('cr08_endocrinologia_palencia', 'júnior'), ('cr09_urgencias_lalineadelaconcepcion', 'Imps'),
    ('cr09_urgencias_lalineadelaconcepcion', 'Lincoln'), ('cr09_urgencias_lalineadelaconcepcion', 'Red'),
    ('cr10_infecciosas_elejido', 'Distrito'), ('cr10_infecciosas_elejido', 'España'),
    ('cr10_infecciosas_elejido', 'Poniente'), ('cr10_infecciosas_elejido', 'Sanitario'),
    ('cr11_oftalmologia_segovia', 'Cristales'), ('cr11_oftalmologia_segovia', 'España'),
    ('cr13_otorrinolaringologia_burela', 'España'), ('cr13_otorrinolaringologia_burela', 'Área'),
    ('cr15_nefrologia_vitoriagasteiz', 'España'), ('cr16_obstetricia_melilla', 'España'),
    ('cr17_psiquiatria_talaveradelareina', 'España'), ('cr18_hematologia_badalona', 'Banc'),
    ('cr18_hematologia_badalona', 'España'), ('cr18_hematologia_badalona', 'Quito'),
    ('cr18_hematologia_badalona', 'Ruti'), ('cr18_hematologia_badalona', 'Sang'),
    ('cr18_hematologia_badalona', 'Teixits'),
}


@pytest.fixture(scope="module")
def blind7() -> dict[str, Document]:
    return load_corpus([BLIND7])


def test_what_leaks_from_the_seventh_blind_set_is_what_we_know_of(blind7: dict[str, Document]) -> None:
    _known_leaks_only(blind7, (18, 777), BLIND7_LEAKS, BLIND7_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.89), ("deidentify", 0.91)])
def test_what_the_embedded_model_finds_in_the_seventh_blind_set(blind7: dict[str, Document], point: str,
                                                               floor: float) -> None:
    # blind, once, with the code of 13c7768 (2026-12-06): 0.866 on the best path, 0.893 at the
    # deidentify point (benchmarks/formats.py's measure); after the ninth round they prompted
    # this test's measure gives 0.881 / 0.907, after the tenth 0.904 / 0.927
    assert _recall(blind7, point) >= floor

# -- the eighth set written blind ------------------------------------------------------------------
BLIND8 = BLIND.parent / "es_blind8"
#: What still leaks from the eighth set (blind once, then read: the tenth and eleventh rounds):
#: "España" (kept by the policy); a district no table holds (the Alpujarra) and M'diq across the
#: border (no accent: GeoNames' alternate names give Spanish spellings with one); occupations no
#: step reads ("Varón de 62 años. Pastor;", a stop word; a wife's "ganadera" after a nickname); a
#: nickname ("l'amo en Pep"), a hospital called "el Santa Ana" (a town's name too, replaced as
#: one), a bone-marrow biopsy's "BMO 23/118"; "Alba", "2014", "2015", "2019" are surrogates of
#: other spans. Words: the same, the kinds of bodies whose names changed ("Sección Territorial de
#: Epidemiología", "Inspección de Trabajo", "Parroquia Ortodoxa Rumana") and "Cala" of a cove
#: whose name changed.
BLIND8_LEAKS = {
    ('cr01_neumologia_ponferrada', 'España'), ('cr02_dermatologia_ourense', '2014'),
    ('cr02_dermatologia_ourense', 'España'), ('cr03_traumatologia_alcaniz', 'Alba'),
    ('cr04_endocrinologia_merida', 'España'), ('cr05_cardiologia_manacor', 'España'),
    ('cr05_cardiologia_manacor', 'Pep'), ('cr06_maxilofacial_arrecife', 'España'),
    ('cr07_obstetricia_ceuta', 'España'), ('cr07_obstetricia_ceuta', "M'diq"),
    ('cr09_reumatologia_olot', 'España'), ('cr09_reumatologia_olot', 'ganadera'),
    ('cr10_digestivo_tolosa', 'Pastor'), ('cr11_medicinainterna_soria', '2015'),
    ('cr11_medicinainterna_soria', 'España'), ('cr12_oftalmologia_ubeda', 'España'),
    ('cr13_hematologia_motril', '2019'), ('cr13_hematologia_motril', 'Alpujarra'),
    ('cr13_hematologia_motril', 'BMO 23/118'), ('cr13_hematologia_motril', 'Santa Ana'),
    ('cr14_pediatria_torrelavega', 'España'), ('cr16_intensivos_sanlucar', 'España'),
    ('cr17_infecciosas_aranda', 'España'), ('cr18_nefrologia_mostoles', 'España'),
}
BLIND8_WORD_LEAKS = {
    # the kind of a Guardia Civil post the rule's name leaves out ("Puesto de la Guardia Civil de
    # Alcañiz": the thirteenth round's model no longer takes it whole)
    ('cr03_traumatologia_alcaniz', 'Puesto'),
    ('cr01_neumologia_ponferrada', 'España'), ('cr02_dermatologia_ourense', 'Adega'),
    ('cr02_dermatologia_ourense', 'España'), ('cr04_endocrinologia_merida', 'Ciudad'),
    ('cr04_endocrinologia_merida', 'Continuada'), ('cr04_endocrinologia_merida', 'España'),
    ('cr04_endocrinologia_merida', 'Punto'), ('cr05_cardiologia_manacor', 'Básica'),
    ('cr05_cardiologia_manacor', 'Cala'), ('cr05_cardiologia_manacor', 'España'),
    ('cr05_cardiologia_manacor', 'Pep'), ('cr06_maxilofacial_arrecife', 'España'),
    ('cr06_maxilofacial_arrecife', 'Montañas'), ('cr07_obstetricia_ceuta', 'España'),
    ('cr09_reumatologia_olot', 'España'), ('cr09_reumatologia_olot', 'Tallers'),
    ('cr10_digestivo_tolosa', 'Ambulatorio'), ('cr10_digestivo_tolosa', 'Pastor'),
    ('cr11_medicinainterna_soria', 'España'), ('cr12_oftalmologia_ubeda', 'Cofradía'),
    ('cr12_oftalmologia_ubeda', 'España'), ('cr13_hematologia_motril', 'Alpujarra'),
    ('cr13_hematologia_motril', 'Ana'), ('cr13_hematologia_motril', 'BMO'),
    ('cr14_pediatria_torrelavega', 'España'), ('cr16_intensivos_sanlucar', 'España'),
    ('cr16_intensivos_sanlucar', 'Inspección'), ('cr16_intensivos_sanlucar', 'Trabajo'),
    ('cr16_intensivos_sanlucar', 'ZY8'), ('cr17_infecciosas_aranda', 'Epidemiología'),
    ('cr17_infecciosas_aranda', 'España'), ('cr17_infecciosas_aranda', 'Ortodoxa'),
    ('cr17_infecciosas_aranda', 'Parroquia'), ('cr17_infecciosas_aranda', 'Rumana'),
    ('cr17_infecciosas_aranda', 'Sección'), ('cr17_infecciosas_aranda', 'Territorial'),
    ('cr18_nefrologia_mostoles', 'España'),
}


@pytest.fixture(scope="module")
def blind8() -> dict[str, Document]:
    return load_corpus([BLIND8])


def test_what_leaks_from_the_eighth_blind_set_is_what_we_know_of(blind8: dict[str, Document]) -> None:
    _known_leaks_only(blind8, (18, 831), BLIND8_LEAKS, BLIND8_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.86), ("deidentify", 0.91)])
def test_what_the_embedded_model_finds_in_the_eighth_blind_set(blind8: dict[str, Document], point: str,
                                                              floor: float) -> None:
    # blind, once, with the code of a6526a2 (2026-12-06): 0.812 on the best path, 0.864 at the
    # deidentify point (benchmarks/formats.py's measure); after the tenth round they prompted
    # this test's measure gives 0.862 / 0.911, after the eleventh 0.877 / 0.926
    assert _recall(blind8, point) >= floor

# -- the ninth set written blind -------------------------------------------------------------------
BLIND9 = BLIND.parent / "es_blind9"
#: What still leaks from the ninth set (blind once, then read: the eleventh round): "España" (kept
#: by the policy); "Guardia Civil" (a national body without its place, kept) and its mountain
#: rescue unit's acronym "GREIM"; a hospital's seat "Txagorritxu"; court proceedings after "autos"
#: ("412/2026"); "2017" and "2024" are surrogate years of other dates. Words: the same, a comarca
#: ("Baix Ebre"), a sexual-health centre's acronym ("ASSIR"), a Catalan month and a Roman one of
#: dates that are replaced ("gener", "XII"), "Consell Comarcal", the kinds in an event's and a
#: role's names ("Batalla del Vino", "imán"), "urbano" of a bus driver's "autobús urbano", and a
#: province's "Real" of the surrogate "Ciudad Real".
BLIND9_LEAKS = {
    ('cr01_medicina_interna_monforte', 'España'), ('cr02_traumatologia_jaca', 'España'),
    ('cr02_traumatologia_jaca', 'GREIM'), ('cr02_traumatologia_jaca', 'Guardia Civil'),
    ('cr03_urologia_lorca', 'España'), ('cr04_neumologia_cangas_del_narcea', 'España'),
    ('cr05_ginecologia_tortosa', 'España'), ('cr06_pediatria_vic', 'España'),
    ('cr07_cardiologia_gandia', 'España'), ('cr08_dermatologia_eivissa', 'España'),
    ('cr09_oftalmologia_la_palma', 'España'), ('cr10_infecciosas_puerto_del_rosario', 'España'),
    ('cr11_digestivo_melilla', '2017'), ('cr11_digestivo_melilla', 'España'),
    ('cr12_neurologia_vitoria', 'España'), ('cr12_neurologia_vitoria', 'Txagorritxu'),
    ('cr13_nefrologia_talavera', 'España'), ('cr14_psiquiatria_estella', '412/2026'),
    ('cr14_psiquiatria_estella', 'España'), ('cr15_endocrinologia_linares', 'España'),
    ('cr16_oncologia_plasencia', 'España'), ('cr17_otorrinolaringologia_haro', '2024'),
    ('cr17_otorrinolaringologia_haro', 'España'), ('cr18_hematologia_puertollano', 'España'),
}
BLIND9_WORD_LEAKS = {
    # a cooperative's legal form its surrogate keeps (the twelfth round)
    ('cr14_psiquiatria_estella', 'Coop'), ('cr03_urologia_lorca', 'Coop'),
    # "Barrio del Real" replaced, "Real" back in another street's surrogate ("Calle Real, 2": the
    # fifteenth round's model drew it); a brotherhood's name in a description the fifteenth
    # round's model cut ("presidenta de la Fraternidad Caporales San Simón de Linares")
    ('cr11_digestivo_melilla', 'Real'), ('cr15_endocrinologia_linares', 'Caporales'),
    ('cr01_medicina_interna_monforte', 'España'), ('cr02_traumatologia_jaca', 'España'),
    ('cr02_traumatologia_jaca', 'GREIM'), ('cr03_urologia_lorca', 'España'),
    ('cr04_neumologia_cangas_del_narcea', 'España'), ('cr05_ginecologia_tortosa', 'ASSIR'),
    ('cr05_ginecologia_tortosa', 'Baix'), ('cr05_ginecologia_tortosa', 'España'),
    ('cr06_pediatria_vic', 'Consell'), ('cr06_pediatria_vic', 'España'), ('cr06_pediatria_vic', 'XII'),
    ('cr06_pediatria_vic', 'gener'), ('cr07_cardiologia_gandia', 'España'),
    ('cr08_dermatologia_eivissa', 'España'), ('cr09_oftalmologia_la_palma', 'España'),
    ('cr10_infecciosas_puerto_del_rosario', 'España'), ('cr10_infecciosas_puerto_del_rosario', 'imán'),
    ('cr11_digestivo_melilla', 'España'), ('cr12_neurologia_vitoria', 'España'),
    ('cr12_neurologia_vitoria', 'Txagorritxu'), ('cr12_neurologia_vitoria', 'urbano'),
    ('cr13_nefrologia_talavera', 'España'), ('cr14_psiquiatria_estella', '2026'),
    ('cr14_psiquiatria_estella', 'España'), ('cr14_psiquiatria_estella', 'García'),
    ('cr15_endocrinologia_linares', 'España'), ('cr16_oncologia_plasencia', 'España'),
    ('cr17_otorrinolaringologia_haro', 'Batalla'), ('cr17_otorrinolaringologia_haro', 'España'),
    ('cr17_otorrinolaringologia_haro', 'Vino'), ('cr17_otorrinolaringologia_haro', 'abril'),
    ('cr18_hematologia_puertollano', 'España'), ('cr18_hematologia_puertollano', 'Real'),
}


@pytest.fixture(scope="module")
def blind9() -> dict[str, Document]:
    return load_corpus([BLIND9])


def test_what_leaks_from_the_ninth_blind_set_is_what_we_know_of(blind9: dict[str, Document]) -> None:
    _known_leaks_only(blind9, (18, 876), BLIND9_LEAKS, BLIND9_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.87), ("deidentify", 0.92)])
def test_what_the_embedded_model_finds_in_the_ninth_blind_set(blind9: dict[str, Document], point: str,
                                                             floor: float) -> None:
    # blind, once, with the code of 7760487 (2026-12-06): 0.865 on the best path, 0.909 at the
    # deidentify point (benchmarks/formats.py's measure); after the eleventh round they prompted
    # this test's measure gives 0.89 / 0.9318
    assert _recall(blind9, point) >= floor

# -- the tenth set written blind -------------------------------------------------------------------
BLIND10 = BLIND.parent / "es_blind10"
#: What still leaks from the tenth set (blind once, then read: the twelfth round): "España" and
#: "Espanya" (kept by the policy); an insurer with no legal form ("Agroseguros Sobrarbe"); regions
#: and places no table holds ("La Mancha", "Panciu", "A Malata", the fishing ground "Gran Sol"); a
#: street whose type is a word ("la Carrera Espinel"); occupations in contexts no step reads
#: ("Jornalero agrícola:", "que fue trabajador siderúrgico"; "y camarera de pisos", "y Uxía,
#: fisioterapeuta", "Uxía" and a newborn's "Davi" are found since the thirteenth round); a
#: nickname in brackets after a name the tagger took for a company ("Cova"); an event
#: ("pregonera de la Fira de l'Aixada"); "enero de 2024", "junio", "2021" and "Palma" are also
#: surrogates or words of other spans. Words: the same, the kinds of bodies' names ("Sección de
#: Epidemiología", "Servei", "Comunidad"), a legal form kept ("LLC", "Coop"), a surrogate's "Real"
#: and "Talleres".
BLIND10_LEAKS = {
    ('cr01_traumatologia_barbastro', 'Agroseguros Sobrarbe'), ('cr01_traumatologia_barbastro', 'España'),
    ('cr02_medicina_interna_toro', 'enero de 2024'), ('cr03_medicina_trabajo_valdepenas', 'España'),
    ('cr03_medicina_trabajo_valdepenas', 'La Mancha'), ('cr03_medicina_trabajo_valdepenas', 'Panciu'),
    ('cr04_neonatologia_ayamonte', 'España'), ('cr05_enfermeria_ronda', 'Carrera Espinel'),
    ('cr06_trabajo_social_baza', 'España'), ('cr06_trabajo_social_baza', 'Jornalero agrícola'),
    ('cr07_cardiologia_caravaca', 'España'), ('cr08_medicina_interna_almansa', 'junio'),
    ('cr09_nefrologia_xativa', 'España'), ('cr10_neurologia_manresa', 'Espanya'),
    ('cr10_neurologia_manresa', "pregonera de la Fira de l'Aixada"),
    ('cr11_medicina_forense_figueres', 'España'), ('cr12_neumologia_ferrol', 'A Malata'),
    ('cr12_neumologia_ferrol', 'Gran Sol'), ('cr14_cardiologia_aviles', 'Cova'),
    ('cr14_cardiologia_aviles', 'trabajador siderúrgico'), ('cr17_obstetricia_miranda_de_ebro', '2021'),
    ('cr18_medicina_interna_mao', 'Palma'),
}
BLIND10_WORD_LEAKS = {
    # a month alone shifted with the note's dates (since the eighteenth round) onto the month
    # another date of the note is written in: the word is that date's, not this one's
    ('cr09_nefrologia_xativa', 'julio'),
    ('cr01_traumatologia_barbastro', 'Agroseguros'), ('cr01_traumatologia_barbastro', 'España'),
    ('cr01_traumatologia_barbastro', 'Sobrarbe'), ('cr02_medicina_interna_toro', 'Isabel'),
    ('cr02_medicina_interna_toro', 'junio'), ('cr03_medicina_trabajo_valdepenas', 'España'),
    ('cr03_medicina_trabajo_valdepenas', 'Mancha'), ('cr03_medicina_trabajo_valdepenas', 'Panciu'),
    ('cr03_medicina_trabajo_valdepenas', 'Real'), ('cr04_neonatologia_ayamonte', 'España'),
    ('cr05_enfermeria_ronda', 'Carrera'), ('cr05_enfermeria_ronda', 'Espinel'),
    ('cr06_trabajo_social_baza', '2024'), ('cr06_trabajo_social_baza', 'España'),
    ('cr06_trabajo_social_baza', 'Jornalero'), ('cr06_trabajo_social_baza', 'Nordeste'),
    ('cr07_cardiologia_caravaca', 'España'), ('cr07_cardiologia_caravaca', 'Región'),
    ('cr08_medicina_interna_almansa', 'Delegación'), ('cr08_medicina_interna_almansa', 'Epidemiología'),
    ('cr08_medicina_interna_almansa', 'Sección'), ('cr08_medicina_interna_almansa', 'junio'),
    ('cr09_nefrologia_xativa', 'España'), ('cr09_nefrologia_xativa', 'junio'),
    ('cr10_neurologia_manresa', 'Aixada'), ('cr10_neurologia_manresa', 'Espanya'),
    ('cr10_neurologia_manresa', 'Fira'), ('cr11_medicina_forense_figueres', 'Empordà'),
    ('cr11_medicina_forense_figueres', 'España'), ('cr11_medicina_forense_figueres', 'LLC'),
    ('cr12_neumologia_ferrol', 'Amianto'), ('cr12_neumologia_ferrol', 'Comarca'),
    ('cr12_neumologia_ferrol', 'FREIRE'), ('cr12_neumologia_ferrol', 'Gran'),
    ('cr12_neumologia_ferrol', 'Malata'), ('cr12_neumologia_ferrol', 'Sol'),
    ('cr13_pediatria_lalin', 'Ponte'),
    ('cr13_pediatria_lalin', 'Travesa'), ('cr13_pediatria_lalin', 'Álvarez'),
    ('cr14_cardiologia_aviles', 'Cova'), ('cr15_digestivo_eibar', 'CNC'), ('cr15_digestivo_eibar', 'Coop'),
    ('cr16_urologia_tudela', 'Congelados'), ('cr16_urologia_tudela', 'Reina'),
    ('cr18_medicina_interna_mao', 'City'),
    ('cr18_medicina_interna_mao', 'Comunidad'), ('cr18_medicina_interna_mao', 'Direcció'),
    ('cr18_medicina_interna_mao', 'Epidemiologia'), ('cr18_medicina_interna_mao', 'Pública'),
    ('cr18_medicina_interna_mao', 'Servei'),
}


@pytest.fixture(scope="module")
def blind10() -> dict[str, Document]:
    return load_corpus([BLIND10])


def test_what_leaks_from_the_tenth_blind_set_is_what_we_know_of(blind10: dict[str, Document]) -> None:
    _known_leaks_only(blind10, (18, 1054), BLIND10_LEAKS, BLIND10_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.86), ("deidentify", 0.895)])
def test_what_the_embedded_model_finds_in_the_tenth_blind_set(blind10: dict[str, Document], point: str,
                                                              floor: float) -> None:
    # blind, once, with the code of b274f62 (2026-12-06): 0.839 on the best path, 0.880 at the
    # deidentify point (benchmarks/formats.py's measure); after the twelfth round they prompted
    # this test's measure gives 0.873 / 0.906
    assert _recall(blind10, point) >= floor

# -- the eleventh set written blind ----------------------------------------------------------------
BLIND11 = BLIND.parent / "es_blind11"
#: What still leaks from the eleventh set (blind once, then read: the thirteenth and fourteenth
#: rounds): "España" (kept by the policy) and "Guardia Civil" (kept); a role ("presidente de la
#: Sociedad de Ganaderos del Occidente"); occupations in contexts no step reads ("de jornalero en el
#: olivar", "Ganadero jubilado" under a heading); a village after a doctor's name ("en Saillagouse");
#: years, "03/2024" and "agosto" are also surrogates of other dates (a year shifted by whole weeks
#: may stay). Words: the same, the kinds of names ("Bufete … Abogados"), a legal form kept ("Coop").
BLIND11_LEAKS = {
    ('cr02_urgencias_algeciras', 'España'), ('cr03_farmacia_orihuela', 'España'),
    ('cr05_urologia_zafra', '2009'), ('cr06_rehabilitacion_ejea', 'España'),
    ('cr07_psiquiatria_ponteareas', 'Guardia Civil'), ('cr07_psiquiatria_ponteareas', 'camionero'),
    ('cr08_anestesia_andujar', 'España'), ('cr08_anestesia_andujar', 'jornalero'),
    ('cr09_emergencias_luarca', 'Ganadero'),
    ('cr09_emergencias_luarca', 'presidente de la Sociedad de Ganaderos del Occidente'),
    ('cr10_neurologia_verin', '2022'), ('cr12_geriatria_guadix', '2013'),
    ('cr12_geriatria_guadix', '2015'), ('cr14_oncologia_puigcerda', '03/2024'),
    ('cr14_oncologia_puigcerda', 'Saillagouse'), ('cr15_medicina-preventiva_inca', '2005'),
    ('cr15_medicina-preventiva_inca', 'España'), ('cr17_valoracion-dano_icod', 'Guardia Civil'),
    ('cr17_valoracion-dano_icod', 'agosto'), ('cr18_digestivo_tafalla', 'España'),
}
BLIND11_WORD_LEAKS = {
    # a month alone shifted with the note's dates (since the eighteenth round) onto the month
    # another date of the note is written in: the word is that date's, not this one's
    ('cr17_valoracion-dano_icod', 'julio'),
    ('cr02_urgencias_algeciras', 'España'), ('cr03_farmacia_orihuela', 'España'),
    ('cr04_radiologia_don-benito', 'ACC'), ('cr05_urologia_zafra', 'Santos'),
    ('cr06_rehabilitacion_ejea', '162231'), ('cr06_rehabilitacion_ejea', 'Coop'),
    ('cr06_rehabilitacion_ejea', 'España'), ('cr06_rehabilitacion_ejea', 'mayo'),
    ('cr07_psiquiatria_ponteareas', 'Condado'), ('cr07_psiquiatria_ponteareas', 'ING'),
    ('cr07_psiquiatria_ponteareas', 'Álvaro'), ('cr08_anestesia_andujar', 'España'),
    ('cr09_emergencias_luarca', 'Ganaderos'), ('cr09_emergencias_luarca', 'Occidente'),
    ('cr09_emergencias_luarca', 'Sociedad'), ('cr10_neurologia_verin', 'Esq'),
    ('cr12_geriatria_guadix', 'Predilecto'), ('cr13_hospitalizacion-domicilio_alcoy', 'Filatures'),
    ('cr14_oncologia_puigcerda', 'Saillagouse'), ('cr15_medicina-preventiva_inca', 'España'),
    ('cr16_maxilofacial_yecla', 'Levante'), ('cr17_valoracion-dano_icod', 'Abogados'),
    ('cr17_valoracion-dano_icod', 'Bufete'), ('cr17_valoracion-dano_icod', 'Dorta'),
    ('cr18_digestivo_tafalla', 'España'),
    # the fifteenth round's model: "Canarias" of the hospital's name replaced, and still in the
    # public health service's name the note gives elsewhere; a Portuguese citizen card's check
    # letters after the number the tagger took for a street ("Cartão de Cidadão 11847293 4 ZY8")
    ('cr17_valoracion-dano_icod', 'Canarias'), ('cr10_neurologia_verin', 'ZY8'),
}


@pytest.fixture(scope="module")
def blind11() -> dict[str, Document]:
    return load_corpus([BLIND11])


def test_what_leaks_from_the_eleventh_blind_set_is_what_we_know_of(blind11: dict[str, Document]) -> None:
    _known_leaks_only(blind11, (18, 998), BLIND11_LEAKS, BLIND11_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.83), ("deidentify", 0.885)])
def test_what_the_embedded_model_finds_in_the_eleventh_blind_set(blind11: dict[str, Document], point: str,
                                                                 floor: float) -> None:
    # blind, once, with the code of 5be5b32 (2026-12-07): 0.774 on the best path, 0.821 at the
    # deidentify point (benchmarks/formats.py's measure); after the thirteenth round they prompted
    # 0.828 / 0.869; after the fourteenth 0.844 / 0.897
    assert _recall(blind11, point) >= floor


# -- the twelfth set written blind -----------------------------------------------------------------
BLIND12 = BLIND.parent / "es_blind12"
#: What still leaks from the twelfth set (blind once, then read: the fourteenth round; the fifteenth
#: took the foundation, the orthopaedic shop, the ambulance firm, the household table's occupations
#: and the forensic doctor's last surname): "España" and "Guardia Civil" (kept by the policy); a
#: voice-dictation transcript typed in lower case (cr09: a health centre, towns, a street dictated
#: with its number in words, occupations, "dos mil diecinueve" alone); bodies no list or rule names
#: ("Servicios Sociales Comunitarios", a sports centre's name in capitals); a town abroad after
#: "repatriación de cenizas a"; initials with a hyphen ("A.F.-LL.S."); occupations in contexts no
#: step reads ("como responsable de la oficina de farmacia", "comercial de vinos"); months and
#: years that are also surrogates of other dates.
BLIND12_LEAKS = {
    ('cr01_medicinainterna_motilla', 'noviembre'),
    ('cr04_geriatria_arcos', 'Servicios Sociales Comunitarios'), ('cr05_medicinatrabajo_baeza', 'España'),
    ('cr08_nefrologia_sagunto', 'España'), ('cr09_urologia_vilagarcia', 'Montecelo'),
    ('cr09_urologia_vilagarcia', 'carril'), ('cr09_urologia_vilagarcia', 'centro de saúde de vilagarcía'),
    ('cr09_urologia_vilagarcia', 'dos mil diecinueve'), ('cr09_urologia_vilagarcia', 'mariscador'),
    ('cr09_urologia_vilagarcia', 'patrón de batea'),
    ('cr09_urologia_vilagarcia', 'rúa do castro número diecisiete segundo izquierda'),
    ('cr09_urologia_vilagarcia', 'vilagarcía de arousa'), ('cr11_psiquiatria_mieres', 'A.F.-LL.S.'),
    ('cr11_psiquiatria_mieres', 'diciembre'), ('cr12_oncologia_laredo', 'Bad Cannstatt'),
    ('cr13_medicinadeporte_medina', 'CENTRO MÉDICO DEPORTIVO VILLA DE LAS FERIAS'),
    ('cr13_medicinadeporte_medina', 'España'), ('cr13_medicinadeporte_medina', 'marzo'),
    ('cr14_medicinalegal_tarazona', 'España'), ('cr14_medicinalegal_tarazona', 'Guardia Civil'),
    ('cr14_medicinalegal_tarazona', 'marzo'),
    ('cr15_digestivo_alcazar', 'responsable de la oficina de farmacia'),
    ('cr16_endocrinologia_lucena', '2008'), ('cr17_urgencias_huercal', '2021'),
    ('cr17_urgencias_huercal', 'España'), ('cr17_urgencias_huercal', 'Guardia Civil'),
    ('cr18_neumologia_vilafranca', '2020'), ('cr18_neumologia_vilafranca', 'comercial de vinos'),
}
BLIND12_WORD_LEAKS = {
    # a month alone shifted with the note's dates (since the eighteenth round) onto the month
    # another date of the note is written in: the word is that date's, not this one's
    ('cr11_psiquiatria_mieres', 'mayo'),
    ('cr02_cardiologia_almendralejo', 'abril'), ('cr02_cardiologia_almendralejo', 'mayo'),
    ('cr04_geriatria_arcos', 'Comunitarios'), ('cr05_medicinatrabajo_baeza', 'CHUKWUEMEKA'),
    ('cr05_medicinatrabajo_baeza', 'España'), ('cr08_nefrologia_sagunto', 'España'),
    ('cr09_urologia_vilagarcia', '7312'), ('cr09_urologia_vilagarcia', 'Montecelo'),
    ('cr09_urologia_vilagarcia', 'castro'), ('cr09_urologia_vilagarcia', 'segundo'),
    ('cr12_oncologia_laredo', 'Bad'), ('cr12_oncologia_laredo', 'Cannstatt'),
    ('cr12_oncologia_laredo', 'Duelo'), ('cr13_medicinadeporte_medina', '2025'),
    ('cr13_medicinadeporte_medina', 'España'), ('cr13_medicinadeporte_medina', 'FERIAS'),
    ('cr13_medicinadeporte_medina', 'VILLA'), ('cr14_medicinalegal_tarazona', 'España'),
    ('cr14_medicinalegal_tarazona', 'mayo'), ('cr15_digestivo_alcazar', 'CASTILLA'),
    ('cr15_digestivo_alcazar', 'MANCHA'), ('cr16_endocrinologia_lucena', 'Jun'),
    ('cr16_endocrinologia_lucena', 'abril'), ('cr17_urgencias_huercal', 'España'),
    ('cr18_neumologia_vilafranca', 'Alt'), ('cr18_neumologia_vilafranca', 'Anoia'),
    ('cr18_neumologia_vilafranca', 'Distribucions'), ('cr18_neumologia_vilafranca', 'Penedès'),
    ('cr18_neumologia_vilafranca', 'Vinícoles'),
}


@pytest.fixture(scope="module")
def blind12() -> dict[str, Document]:
    return load_corpus([BLIND12])


def test_what_leaks_from_the_twelfth_blind_set_is_what_we_know_of(blind12: dict[str, Document]) -> None:
    _known_leaks_only(blind12, (18, 1031), BLIND12_LEAKS, BLIND12_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.83), ("deidentify", 0.885)])
def test_what_the_embedded_model_finds_in_the_twelfth_blind_set(blind12: dict[str, Document], point: str,
                                                                floor: float) -> None:
    # blind, once, with the code of a86a6d9 (2026-12-07): 0.787 on the best path, 0.841 at the
    # deidentify point (benchmarks/formats.py's measure); after the fourteenth round they prompted
    # 0.833 / 0.888; after the fifteenth 0.851 / 0.901
    assert _recall(blind12, point) >= floor



# -- the thirteenth set written blind --------------------------------------------------------------
BLIND13 = BLIND.parent / "es_blind13"
#: What still leaks from the thirteenth set (blind once, then read: the fifteenth round): "España",
#: "ESP" in an HL7 address and "Guardia Civil" (kept by the policy), nationalities the scheme files
#: as facts about the patient ("rumana", "española", "chino"), a national professional body, a
#: Catalan occupation after an elided "d'" ("treballa d'infermera"); a month alone (kept: no date
#: to shift); words of public bodies the surrogates keep ("Castilla-La Mancha"), or drew ("Real",
#: a street's name, beside "Ciudad Real"). The trial subject's dotted initials ("M.P.G. (Manuel
#: Pastor …)") are found since the sixteenth round (`initials-described`).
BLIND13_LEAKS = {
    ('cr01_hl7_requena', 'ESP'), ('cr03_sbar_villanueva', 'rumana'), ('cr06_061_loja', 'Guardia Civil'),
    ('cr10_defuncion_astorga', 'Consejo General de Colegios Oficiales de Médicos de España'),
    ('cr10_defuncion_astorga', 'española'), ('cr11_telemedicina_reinosa', 'noviembre'),
    ('cr13_farmacia_tarancon', 'chino'), ('cr17_bilingue_balaguer', 'infermera'),
}
BLIND13_WORD_LEAKS = {
    ('cr01_hl7_requena', 'ESP'), ('cr06_061_loja', '1719'), ('cr06_061_loja', 'Autovía'),
    ('cr07_accidente_manzanares', 'Real'), ('cr09_ensayo_ontinyent', 'GmbH'),
    ('cr10_defuncion_astorga', 'Colegios'),
    ('cr10_defuncion_astorga', 'España'), ('cr10_defuncion_astorga', 'Oficiales'),
    ('cr11_telemedicina_reinosa', 'Cantabria'), ('cr13_farmacia_tarancon', 'Castilla'),
    ('cr13_farmacia_tarancon', 'Mancha'), ('cr14_interconsulta_alfaro', 'julio'),
    ('cr15_psiquiatria_osuna', 'MERCED'), ('cr16_ocr_ribadeo', 'Pesqueras'), ('cr18_email_cangas', 'abril'),
}


@pytest.fixture(scope="module")
def blind13() -> dict[str, Document]:
    return load_corpus([BLIND13])


def test_what_leaks_from_the_thirteenth_blind_set_is_what_we_know_of(blind13: dict[str, Document]) -> None:
    _known_leaks_only(blind13, (18, 1019), BLIND13_LEAKS, BLIND13_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.82), ("deidentify", 0.875)])
def test_what_the_embedded_model_finds_in_the_thirteenth_blind_set(blind13: dict[str, Document], point: str,
                                                                  floor: float) -> None:
    # blind, once, with the code of b6f0e8a (2026-12-07): 0.726 on the best path, 0.805 at the
    # deidentify point (benchmarks/formats.py's measure); after the fifteenth round they prompted
    # 0.843 / 0.894 (an HL7 message, a DICOM header, delimited tables, an OCR'd report)
    assert _recall(blind13, point) >= floor


# -- the fourteenth set written blind --------------------------------------------------------------
BLIND14 = BLIND.parent / "es_blind14"
#: What still leaks from the fourteenth set (blind once, then read: the sixteenth round): "España"
#: and "Spain" (kept by the policy); the dictation's names and places said in lower case with no
#: cue ("la encarni", "loli", "alcalá la real", "calle la fuente de la villa número dieciocho"), a
#: year in words (a FHIR resource's licence number, "41/4112873", its kind two keys away, is the
#: seventeenth round's FHIR reader's since); towns in capitals and bodies of a lab printout and a
#: form ("C.S. SAHAGÚN", "ÁREA V ALTIPLANO", "ÓPTICA DE YECLA"), a hamlet no list holds
#: ("Calabardina"), a health sector ("Sector Barbastro"); an occupation opening a ward list's
#: line; words of public bodies and streets the surrogates keep, or drew ("Real", "Principal").
BLIND14_LEAKS = {
    ('cr01_fhir_carmona', 'España'),
    ('cr02_censo_llerena', 'Conductor de camión'), ('cr03_cda_coria', 'España'),
    ('cr04_vacunacion_ciudadrodrigo', 'ESPAÑA'), ('cr05_laboratorio_sahagun', 'SAHAGÚN'),
    ('cr05_laboratorio_sahagun', 'Sahagún'), ('cr08_baja_daimiel', 'España'),
    ('cr13_dictado_martos', 'alcalá la real'),
    ('cr13_dictado_martos', 'calle la fuente de la villa número dieciocho'),
    ('cr13_dictado_martos', 'dos mil diecinueve'), ('cr13_dictado_martos', 'encarni'),
    ('cr13_dictado_martos', 'instituto olivar de la villa'), ('cr13_dictado_martos', 'loli'),
    ('cr13_dictado_martos', 'mari carmen'), ('cr14_transfusion_huescar', 'Baza'),
    ('cr15_receta_aguilas', 'CONSEJERÍA DE SALUD'), ('cr15_receta_aguilas', 'Calabardina'),
    ('cr16_oftalmologia_jumilla', 'YECLA'), ('cr16_oftalmologia_jumilla', 'ÁREA V ALTIPLANO'),
    ('cr17_markdown_monzon', 'Barbastro'), ('cr18_turista_sort', 'España'), ('cr18_turista_sort', 'Spain'),
    ('cr18_turista_sort', 'profesor de secundaria'),
}
BLIND14_WORD_LEAKS = {
    ('cr01_fhir_carmona', 'España'), ('cr02_censo_llerena', 'Conductor'),
    ('cr02_censo_llerena', 'SERRANO'), ('cr02_censo_llerena', 'Torres'), ('cr03_cda_coria', 'España'),
    ('cr04_vacunacion_ciudadrodrigo', 'ASISTENCIA'), ('cr04_vacunacion_ciudadrodrigo', 'ESPAÑA'),
    ('cr04_vacunacion_ciudadrodrigo', 'Traducción'), ('cr05_laboratorio_sahagun', 'SAHAGÚN'),
    ('cr05_laboratorio_sahagun', 'Sahagún'), ('cr06_cuidados_cuellar', '0387'),
    # a surrogate hospital's word, not the street's: two hospitals no longer share one surrogate,
    # and the second became "Hospital La Mancha Centro" beside "Avenida de Castilla-La Mancha 14"
    ('cr07_anestesia_illescas', 'Mancha'),
    ('cr07_anestesia_illescas', 'Real'), ('cr08_baja_daimiel', '0034'), ('cr08_baja_daimiel', 'Coop'),
    ('cr08_baja_daimiel', 'España'), ('cr08_baja_daimiel', 'Integrada'), ('cr08_baja_daimiel', 'Llanura'),
    ('cr08_baja_daimiel', 'Real'), ('cr09_farmacovigilancia_almagro', 'Continuada'),
    ('cr09_farmacovigilancia_almagro', 'Punto'), ('cr09_farmacovigilancia_almagro', 'mayo'),
    ('cr10_lesiones_briviesca', 'María'), ('cr10_lesiones_briviesca', 'Principal'),
    ('cr11_escolar_barbate', 'Atunes'), ('cr12_whatsapp_priego', 'Burruecos'),
    ('cr12_whatsapp_priego', 'Margarita'), ('cr13_dictado_martos', 'carmen'),
    ('cr13_dictado_martos', 'encarni'), ('cr13_dictado_martos', 'loli'), ('cr13_dictado_martos', 'villa'),
    ('cr14_transfusion_huescar', '0087'), ('cr14_transfusion_huescar', 'BAZA'),
    ('cr14_transfusion_huescar', 'Baza'), ('cr14_transfusion_huescar', 'DOLORES'),
    ('cr14_transfusion_huescar', 'Tejidos'), ('cr15_receta_aguilas', 'Calabardina'),
    ('cr15_receta_aguilas', 'Región'), ('cr16_oftalmologia_jumilla', 'ALTIPLANO'),
    ('cr16_oftalmologia_jumilla', 'AMOR'), ('cr16_oftalmologia_jumilla', 'ESC'),
    ('cr16_oftalmologia_jumilla', 'YECLA'), ('cr17_markdown_monzon', 'Barbastro'),
    ('cr18_turista_sort', 'Bath'), ('cr18_turista_sort', 'Cold'), ('cr18_turista_sort', 'España'),
    ('cr18_turista_sort', 'JHN'), ('cr18_turista_sort', 'Ltd'), ('cr18_turista_sort', 'Spain'),
}


@pytest.fixture(scope="module")
def blind14() -> dict[str, Document]:
    return load_corpus([BLIND14])


def test_what_leaks_from_the_fourteenth_blind_set_is_what_we_know_of(blind14: dict[str, Document]) -> None:
    _known_leaks_only(blind14, (18, 998), BLIND14_LEAKS, BLIND14_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.755), ("deidentify", 0.845)])
def test_what_the_embedded_model_finds_in_the_fourteenth_blind_set(blind14: dict[str, Document], point: str,
                                                                  floor: float) -> None:
    # blind, once, with the code of 73ad1d7 (2026-12-07): 0.728 on the best path, 0.820 at the
    # deidentify point (benchmarks/formats.py's measure); after the sixteenth round they prompted
    # 0.777 / 0.864 (a CDA document, a dictation's spoken numbers, a ward list, a lab printout)
    assert _recall(blind14, point) >= floor


BLIND15 = BLIND.parent / "es_blind15"
#: What still leaks from the fifteenth set (blind once, then read: the seventeenth round; since the
#: eighteenth, a dialysis sheet's short dates, its nurses' initials and the "H. U. Poniente" of an SMS
#: log are found, and a month alone moves with the note's dates): the first of three scan dates whose
#: shifted twin is another of them ("09/10"), days of the month alone ("día 3"), a nickname in
#: quotation marks ("Paqui"), a hospital in Valencian capitals, "España", a friend named only in an
#: SMS ("Samira"), a national professional body in capitals, a second occupation after "después",
#: the second of two straws after "y"; words of bodies and streets the surrogates keep or drew, and
#: three dates' "13T09" where a shift lands on the same day.
BLIND15_LEAKS = {
    ('cr04_reclamacion_marbella', 'Paqui'),
    ('cr05_hemodialisis_alzira', 'HOSPITAL UNIVERSITARI DE LA RIBERA'),
    ('cr05_hemodialisis_alzira', 'conductor de carretilla'), ('cr06_talon_velezmalaga', 'ANDALUCÍA'),
    ('cr07_reproduccion_denia', '09/10'), ('cr07_reproduccion_denia', 'DEN-0212-V2'),
    ('cr10_videoconsulta_llanes', 'día 15'), ('cr10_videoconsulta_llanes', 'día 3'),
    ('cr12_dispensacion_granollers', 'Samira'),
    ('cr13_defuncion_aracena', 'CONSEJO GENERAL DE COLEGIOS OFICIALES DE MÉDICOS'),
    ('cr13_defuncion_aracena', 'España'), ('cr13_defuncion_aracena', 'peón de secadero de jamones'),
}
BLIND15_WORD_LEAKS = {
    ('cr01_donacion_utrera', 'Banco'), ('cr01_donacion_utrera', 'COORDINACIÓN'),
    ('cr01_donacion_utrera', 'SECTORIAL'), ('cr01_donacion_utrera', 'Sectorial'),
    ('cr01_donacion_utrera', 'TRASPLANTES'), ('cr01_donacion_utrera', 'Tejidos'),
    ('cr02_oxigeno_tordesillas', 'Asistencia'), ('cr02_oxigeno_tordesillas', 'julio'),
    ('cr03_oficio_teruel', 'Ruiz'), ('cr03_oficio_teruel', 'Subsector'),
    ('cr04_reclamacion_marbella', 'Autovía'), ('cr04_reclamacion_marbella', 'Lomas'),
    ('cr04_reclamacion_marbella', 'Paqui'), ('cr04_reclamacion_marbella', 'Rodeo'),
    ('cr04_reclamacion_marbella', 'SANITARIO'), ('cr04_reclamacion_marbella', 'SISTEMA'),
    ('cr05_hemodialisis_alzira', 'RIBERA'), ('cr06_talon_velezmalaga', 'ANDALUCÍA'),
    ('cr06_talon_velezmalaga', 'Pozo'), ('cr07_reproduccion_denia', '0212'),
    ('cr07_reproduccion_denia', 'DEN'), ('cr08_audiologia_najera', 'AUDITIVO'),
    ('cr08_audiologia_najera', 'ES42'), ('cr10_videoconsulta_llanes', 'ASTURIAS'),
    ('cr10_videoconsulta_llanes', 'PRINCIPADO'), ('cr12_dispensacion_granollers', 'Franqueses'),
    ('cr12_dispensacion_granollers', 'Samira'), ('cr13_defuncion_aracena', 'COLEGIOS'),
    ('cr13_defuncion_aracena', 'España'), ('cr13_defuncion_aracena', 'OFICIALES'),
    ('cr15_rtf_fraga', 'ARAG'), ('cr15_rtf_fraga', 'd3N'), ('cr16_mime_gernika', 'ADo'),
    ('cr16_mime_gernika', 'Arana'), ('cr16_mime_gernika', 'Caser'), ('cr16_mime_gernika', 'Goikoa'),
    ('cr16_mime_gernika', 'Nov'), ('cr17_yaml_torrevieja', '12T18'), ('cr17_yaml_torrevieja', '13T07'),
    ('cr17_yaml_torrevieja', '13T09'), ('cr18_galego_obarco', 'Lousas'),
}


@pytest.fixture(scope="module")
def blind15() -> dict[str, Document]:
    return load_corpus([BLIND15])


def test_what_leaks_from_the_fifteenth_blind_set_is_what_we_know_of(blind15: dict[str, Document]) -> None:
    _known_leaks_only(blind15, (18, 1018), BLIND15_LEAKS, BLIND15_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.80), ("deidentify", 0.85)])
def test_what_the_embedded_model_finds_in_the_fifteenth_blind_set(blind15: dict[str, Document], point: str,
                                                                 floor: float) -> None:
    # blind, once, with the code of ad6f5ae (2026-12-07): 0.735 on the best path, 0.789 at the
    # deidentify point (benchmarks/formats.py's measure); after the seventeenth round they prompted
    # 0.828 / 0.877 (a FHIR and a YAML reader, RTF and MIME decoded, a TSV read on the original)
    assert _recall(blind15, point) >= floor


# -- the sixteenth set written blind ---------------------------------------------------------------
BLIND16 = BLIND.parent / "es_blind16"
#: What still leaks from the sixteenth set (blind once, then read: the eighteenth round; its
#: staff in lower case found in the nineteenth): the telegraphic on-call note written in lower case
#: ("abadias", "cs sabi", "hosp. jaca", "c/ serrablo 31 3izq"); a listing's "H. VIRXE DA
#: XUNQUEIRA" and towns in its free text; a register entry, a boat's registration, a biobank's staff
#: code, a certificate; a village, an island's harbour and a Mauritanian port; an agency for
#: international adoption; occupations said in passing ("cortador", "pastor", "administrativa a
#: l'Ajuntament", "marinero pescador"); days of the month alone ("dia 2"); a nickname with its
#: article ("el Chiqui"); "España".
BLIND16_LEAKS = {
    ('cr03_auditoria_caspe', '2026/E/08841'), ('cr03_auditoria_caspe', 'Departamento de Sanidad'),
    ('cr04_listado_carballo', 'CEE'), ('cr04_listado_carballo', 'H. VIRXE DA XUNQUEIRA'),
    ('cr04_listado_carballo', 'LAUSANA'), ('cr07_maritimo_bermeo', '3ª-BI-2-17-09'),
    ('cr07_maritimo_bermeo', 'marinero pescador'), ('cr07_maritimo_bermeo', 'patrón costero polivalente'),
    ('cr08_asilo_estepona', 'La Restinga'), ('cr08_asilo_estepona', 'Nuadibú'),
    ('cr09_biobanco_alcalalareal', 'BBJ-T-014'), ('cr10_podologia_totana', '2024'),
    ('cr10_podologia_totana', 'Perico'), ('cr10_podologia_totana', 'octubre'),
    ('cr13_hiperbarica_amposta', 'Delta'), ('cr13_hiperbarica_amposta', 'REV-HBX-26-118'),
    ('cr14_guardia_sabinanigo', '15/11'), ('cr14_guardia_sabinanigo', 'abadias'),
    ('cr14_guardia_sabinanigo', 'cajera'), ('cr14_guardia_sabinanigo', 'nieves'),
    ('cr14_guardia_sabinanigo', 'operario'), ('cr14_guardia_sabinanigo', 'pili'),
    ('cr14_guardia_sabinanigo', 'quimica de sabi'), ('cr14_guardia_sabinanigo', 'zaragoza'),
    ('cr15_adopcion_moguer', 'Antioquia'), ('cr15_adopcion_moguer', 'ECAI Puentes de Infancia'),
    ('cr15_adopcion_moguer', 'España'), ('cr15_adopcion_moguer', 'enfermera'),
    ('cr16_dietetica_cangasdeonis', 'Barrio La Robellada, 4'),
    ('cr16_dietetica_cangasdeonis', 'Soto de Cangas'), ('cr16_dietetica_cangasdeonis', 'pastor'),
    ('cr17_carta_arnedo', 'cortador'), ('cr17_carta_arnedo', 'dia 2'), ('cr17_carta_arnedo', 'dia 9'),
    ('cr17_carta_arnedo', 'el Chiqui'), ('cr18_valencia_segorbe', 'Castelló'),
    ('cr18_valencia_segorbe', 'administrativa'),
}
BLIND16_WORD_LEAKS = {
    ('cr01_html_lebrija', 'Resoluci'), ('cr03_auditoria_caspe', '08841'), ('cr03_auditoria_caspe', '2026'),
    ('cr04_listado_carballo', 'CEE'), ('cr04_listado_carballo', 'LAUSANA'),
    ('cr04_listado_carballo', 'VIRXE'), ('cr04_listado_carballo', 'XUNQUEIRA'),
    ('cr05_ndjson_navalmoral', 'Emergencias'), ('cr05_ndjson_navalmoral', 'Urgencias'),
    ('cr07_maritimo_bermeo', 'Bizkaia'), ('cr08_asilo_estepona', 'Málaga'),
    ('cr08_asilo_estepona', 'Nuadibú'), ('cr08_asilo_estepona', 'Restinga'),
    ('cr09_biobanco_alcalalareal', 'BBJ'), ('cr09_biobanco_alcalalareal', 'Comité'),
    ('cr09_biobanco_alcalalareal', 'Ética'), ('cr10_podologia_totana', 'Perico'),
    ('cr11_polisomnografia_laroda', 'Horno'), ('cr12_terapiaocupacional_berga', 'Pere'),
    ('cr13_hiperbarica_amposta', 'Delta'), ('cr13_hiperbarica_amposta', 'Ebre'),
    ('cr13_hiperbarica_amposta', 'HBX'), ('cr13_hiperbarica_amposta', 'REV'),
    ('cr14_guardia_sabinanigo', 'nieves'), ('cr14_guardia_sabinanigo', 'pili'),
    ('cr15_adopcion_moguer', 'Andalucía'), ('cr15_adopcion_moguer', 'Antioquia'),
    ('cr15_adopcion_moguer', 'ECAI'), ('cr15_adopcion_moguer', 'España'),
    ('cr15_adopcion_moguer', 'Infancia'), ('cr15_adopcion_moguer', 'Puentes'),
    ('cr16_dietetica_cangasdeonis', 'Cangas'), ('cr16_dietetica_cangasdeonis', 'Robellada'),
    ('cr16_dietetica_cangasdeonis', 'Soto'), ('cr16_dietetica_cangasdeonis', 'pastor'),
    ('cr17_carta_arnedo', 'Chiqui'), ('cr17_carta_arnedo', 'FHC'), ('cr18_valencia_segorbe', 'Port'),
    ('cr18_valencia_segorbe', 'VALENCIANA'),
}


@pytest.fixture(scope="module")
def blind16() -> dict[str, Document]:
    return load_corpus([BLIND16])


def test_what_leaks_from_the_sixteenth_blind_set_is_what_we_know_of(blind16: dict[str, Document]) -> None:
    _known_leaks_only(blind16, (18, 1002), BLIND16_LEAKS, BLIND16_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.80), ("deidentify", 0.84)])
def test_what_the_embedded_model_finds_in_the_sixteenth_blind_set(blind16: dict[str, Document], point: str,
                                                                 floor: float) -> None:
    # blind, once, with the code of 671578f (2026-12-07): 0.718 on the best path, 0.763 at the
    # deidentify point (benchmarks/formats.py's measure); after the eighteenth round they prompted
    # 0.823 / 0.858 (an HTML page and an XML message read, NDJSON, a listing by its ruler, an access
    # log's users, staff initials from a legend)
    assert _recall(blind16, point) >= floor


# -- the seventeenth set written blind -------------------------------------------------------------
BLIND17 = BLIND.parent / "es_blind17"
#: What still leaks from the seventeenth set (blind once, then read: the nineteenth round): the
#: lower-case home-visit book ("pac xinzo", "cs xinzo", "chuo", "rua da limia 17 1o", "pili",
#: "sabela"); an SQL dump's logins and licences ("jprohens", "CFIB-1044"); a vCard's address and
#: note ("Ginebra", "La Antilla", "patrón de pesca"); a LaTeX source's bodies (its escaped letters
#: are read since the twentieth round); villages, hamlets and a Polish city in Spanish
#: ("Cordobilla", "El Pinar", "La Restinga", "Cracovia", "Llanes", "Villacañas"); occupations in
#: passing ("novillero", "conductor", "fuster"); a triage card's number, a breeder's code, a record
#: number in two groups; "Guardia Civil" (kept: it names no one) and "España".
BLIND17_LEAKS = {
    ('cr01_ical_altsasu', 'Koldo'), ('cr01_ical_altsasu', 'Seguridad Social'),
    ('cr01_ical_altsasu', 'marzo'), ('cr02_zoonosis_puentegenil', 'Cordobilla'),
    ('cr02_zoonosis_puentegenil', 'FOCDE ZX-40'),
    ('cr02_zoonosis_puentegenil', 'Servicio de Vigilancia y Salud Laboral'),
    ('cr03_sql_felanitx', 'Assegurances Llevant'), ('cr03_sql_felanitx', 'novembre'),
    ('cr04_incidencia_arevalo', 'Sacyl'), ('cr04_incidencia_arevalo', 'Sonia Encinar'),
    ('cr05_srt_galdar', '0073 4418'), ('cr05_srt_galdar', 'Acoidan'),
    ('cr05_srt_galdar', 'Sardina del Norte'), ('cr06_socorrismo_mazarron', 'Naamsestraat 112'),
    ('cr07_latex_valls', '8842 KXR'),
    ('cr07_latex_valls', 'Coordinadora de Colles Castelleres de Catalunya'),
    ('cr07_latex_valls', 'SEM'), ('cr08_plazatoros_quintanar', 'Valdemanzanos'),
    ('cr08_plazatoros_quintanar', 'Villacañas'), ('cr08_plazatoros_quintanar', 'novillero'),
    ('cr10_peregrino_navia', '3/10'), ('cr10_peregrino_navia', 'Cracovia'),
    ('cr10_peregrino_navia', 'Gosia'), ('cr10_peregrino_navia', 'Llanes'),
    ('cr11_pantalla_lliria', 'PEPA'), ('cr11_pantalla_lliria', 'Salvador'),
    ('cr11_pantalla_lliria', 'fuster'), ('cr12_triaje_binefar', '0401'),
    ('cr12_triaje_binefar', 'Encargado de sala de despiece'), ('cr12_triaje_binefar', 'Guardia Civil'),
    ('cr12_triaje_binefar', 'La Litera'), ('cr12_triaje_binefar', 'conductor'),
    ('cr13_vcard_islacristina', '2018'), ('cr13_vcard_islacristina', 'España'),
    ('cr13_vcard_islacristina', 'La Antilla'),
    ('cr13_vcard_islacristina', 'Servicio Andaluz de Teleasistencia'),
    ('cr13_vcard_islacristina', 'patrón de pesca'), ('cr13_vcard_islacristina', 'redera'),
    ('cr15_ini_jerezdeloscaballeros', 'mayo'), ('cr16_planparto_valverde', 'El Pinar'),
    ('cr16_planparto_valverde', 'La Restinga'), ('cr17_manuscrito_aranjuez', 'U-CONT-026'),
    ('cr18_avisos_xinzo', 'a ponte 3'), ('cr18_avisos_xinzo', 'beatriz'),
    ('cr18_avisos_xinzo', 'cosaga'), ('cr18_avisos_xinzo', 'manolo o ferreiro'),
    ('cr18_avisos_xinzo', 'pili'), ('cr18_avisos_xinzo', 'porqueira'),
    ('cr18_avisos_xinzo', 'remedios'), ('cr18_avisos_xinzo', 'sabela'), ('cr18_avisos_xinzo', 'xinzo'),
}
BLIND17_WORD_LEAKS = {
    ('cr01_ical_altsasu', 'Koldo'), ('cr02_zoonosis_puentegenil', 'Aguilar'),
    ('cr02_zoonosis_puentegenil', 'Animal'), ('cr02_zoonosis_puentegenil', 'Cordobilla'),
    ('cr02_zoonosis_puentegenil', 'EPIDEMIOLÓGICA'), ('cr02_zoonosis_puentegenil', 'FOCDE'),
    ('cr02_zoonosis_puentegenil', 'Frontera'), ('cr02_zoonosis_puentegenil', 'Laboral'),
    ('cr02_zoonosis_puentegenil', 'SISTEMA'), ('cr02_zoonosis_puentegenil', 'SVEA'),
    ('cr02_zoonosis_puentegenil', 'VIGILANCIA'), ('cr02_zoonosis_puentegenil', 'Vigilancia'),
    ('cr03_sql_felanitx', 'Assegurances'), ('cr03_sql_felanitx', 'Llevant'),
    ('cr03_sql_felanitx', 'Toni'), ('cr04_incidencia_arevalo', 'Encinar'),
    ('cr04_incidencia_arevalo', 'Sacyl'), ('cr04_incidencia_arevalo', 'Sonia'),
    ('cr05_srt_galdar', '0073'), ('cr05_srt_galdar', '4418'), ('cr05_srt_galdar', 'Acoidan'),
    ('cr05_srt_galdar', 'Canaria'), ('cr05_srt_galdar', 'Capitán'), ('cr05_srt_galdar', 'Gran'),
    ('cr05_srt_galdar', 'Quesada'), ('cr05_srt_galdar', 'SAT'), ('cr05_srt_galdar', 'Sardina'),
    ('cr06_socorrismo_mazarron', 'Naamsestraat'), ('cr07_latex_valls', '8842'),
    ('cr07_latex_valls', 'Castellera'), ('cr07_latex_valls', 'Castelleres'),
    ('cr07_latex_valls', 'Catalunya'), ('cr07_latex_valls', 'Colla'), ('cr07_latex_valls', 'Colles'),
    ('cr07_latex_valls', 'Coordinadora'), ('cr07_latex_valls', 'Jove'), ('cr07_latex_valls', 'KXR'),
    ('cr07_latex_valls', 'Pla'), ('cr07_latex_valls', 'SEM'), ('cr08_plazatoros_quintanar', 'Castilla'),
    ('cr08_plazatoros_quintanar', 'Mancha'), ('cr08_plazatoros_quintanar', 'Subdelegación'),
    ('cr08_plazatoros_quintanar', 'Valdemanzanos'), ('cr08_plazatoros_quintanar', 'Villacañas'),
    ('cr09_diff_mungia', 'Datos'), ('cr09_diff_mungia', 'Delegado'), ('cr09_diff_mungia', 'Protección'),
    ('cr10_peregrino_navia', 'ASTURIAS'), ('cr10_peregrino_navia', 'Cracovia'),
    ('cr10_peregrino_navia', 'Gosia'), ('cr10_peregrino_navia', 'Llanes'),
    ('cr10_peregrino_navia', 'PRINCIPADO'), ('cr11_pantalla_lliria', 'PEPA'),
    ('cr11_pantalla_lliria', 'Salvador'), ('cr12_triaje_binefar', '0401'),
    ('cr12_triaje_binefar', 'Encargado'), ('cr12_triaje_binefar', 'Litera'),
    ('cr12_triaje_binefar', 'Rosa'), ('cr13_vcard_islacristina', '00Z'),
    ('cr13_vcard_islacristina', 'Andaluz'), ('cr13_vcard_islacristina', 'Antilla'),
    ('cr13_vcard_islacristina', 'España'), ('cr13_vcard_islacristina', 'Teleasistencia'),
    ('cr14_donante_palamos', 'Baix'), ('cr14_donante_palamos', 'GXT'),
    ('cr16_planparto_valverde', 'Cordón'), ('cr16_planparto_valverde', 'Pinar'),
    ('cr16_planparto_valverde', 'Restinga'), ('cr16_planparto_valverde', 'Umbilical'),
    ('cr17_manuscrito_aranjuez', 'CONT'), ('cr18_avisos_xinzo', 'beatriz'),
    ('cr18_avisos_xinzo', 'manolo'), ('cr18_avisos_xinzo', 'pili'), ('cr18_avisos_xinzo', 'remedios'),
    ('cr18_avisos_xinzo', 'sabela'),
}


@pytest.fixture(scope="module")
def blind17() -> dict[str, Document]:
    return load_corpus([BLIND17])


def test_what_leaks_from_the_seventeenth_blind_set_is_what_we_know_of(blind17: dict[str, Document]) -> None:
    _known_leaks_only(blind17, (18, 1063), BLIND17_LEAKS, BLIND17_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.73), ("deidentify", 0.80)])
def test_what_the_embedded_model_finds_in_the_seventeenth_blind_set(blind17: dict[str, Document], point: str,
                                                                   floor: float) -> None:
    # blind, once, with the code of 1a4ede1 (2026-12-07): 0.645 on the best path, 0.731 at the
    # deidentify point (benchmarks/formats.py's measure); after the nineteenth round they prompted
    # 0.746 / 0.811 (nicknames of several words, small towns, staff in lower case, iCalendar dates,
    # an SQL dump and vCards read by their columns and properties); after the twentieth, 0.753 /
    # 0.817 (a LaTeX source's escaped letters read)
    assert _recall(blind17, point) >= floor

# -- the eighteenth set written blind --------------------------------------------------------------
BLIND18 = BLIND.parent / "es_blind18"
#: What still leaks from the eighteenth set (blind once, then read: the twentieth round): the home
#: country ("España", "Espanya": kept by design) and a country after "de" ("dos de Perú"); towns that
#: are words or come after "de" ("Jaca", "Setiles"), parishes and beaches ("Sama", "Alcanada", "la
#: Cala"); companies and bodies no list holds ("Sport Tena Alquiler", "Atlántica Air", "Salus Vida
#: Seguros", "Gazte Mendi Elkartea", "Laboratorio de Control del Dopaje"); staff and others after a
#: role in one word ("la monitora Ane", "los pisteros Chuse Lanaspa y Toño"); a Basque date and
#: street ("uztailaren 18a", "Mendarozabal auzoa"); numbers of kits, cards, agents and payments; a
#: two-column PDF's cut words; an occupation in a URL-encoded form ("guarda+de+la+marisma").
BLIND18_LEAKS = {
    ('cr01_fax_molinadearagon', '2024'), ('cr01_fax_molinadearagon', '949830047'),
    ('cr01_fax_molinadearagon', 'HUGU'), ('cr01_fax_molinadearagon', 'MA-04'),
    ('cr01_fax_molinadearagon', 'Setiles'), ('cr01_fax_molinadearagon', 'pastor'),
    ('cr02_esqui_sallent', 'Chuse Lanaspa'), ('cr02_esqui_sallent', 'Jaca'),
    ('cr02_esqui_sallent', 'Sport Tena Alquiler'), ('cr02_esqui_sallent', 'Toño'),
    ('cr03_dopaje_ezcaray', 'A 4012387'), ('cr03_dopaje_ezcaray', 'B 4012387'),
    ('cr03_dopaje_ezcaray', 'España'), ('cr03_dopaje_ezcaray', 'Laboratorio de Control del Dopaje'),
    ('cr03_dopaje_ezcaray', 'OCD-112'), ('cr03_dopaje_ezcaray', 'UCI'),
    ('cr04_columnas_ubrique', 'Centro'), ('cr04_columnas_ubrique', 'Dios'),
    ('cr04_columnas_ubrique', 'Marroquinero'), ('cr04_columnas_ubrique', 'cuidadora'),
    ('cr05_radiomedico_ribeira', 'Perú'), ('cr05_radiomedico_ribeira', 'Radio-Médico'),
    ('cr05_radiomedico_ribeira', 'Sabela Triñanes'), ('cr05_radiomedico_ribeira', 'mariñeiro'),
    ('cr06_pertenencias_colladovillalba', '001 2200 7614 093'),
    ('cr06_pertenencias_colladovillalba', '1187'), ('cr06_pertenencias_colladovillalba', '6204'),
    ('cr07_balneario_archena', 'HOTEL BALNEARIO LOS ALMENDROS'), ('cr08_campamento_otsagabia', 'Ane'),
    ('cr08_campamento_otsagabia', 'Gazte Mendi Elkartea'),
    ('cr08_campamento_otsagabia', 'Iker Bengoetxea'),
    ('cr08_campamento_otsagabia', 'Otsagabiko kontsultategia'),
    ('cr08_campamento_otsagabia', 'uztailaren 18a'),
    ('cr09_diapositivas_langreo', 'Estudiante de Ingeniería de Minas'),
    ('cr09_diapositivas_langreo', 'Sama'), ('cr09_diapositivas_langreo', 'mbaragano'),
    ('cr10_factura_alcudia', '448201'), ('cr10_factura_alcudia', 'Alcanada'),
    ('cr10_factura_alcudia', 'Espanya'), ('cr10_factura_alcudia', 'Salus Vida Seguros'),
    ('cr11_toxicologia_potes', 'SCS'), ('cr11_toxicologia_potes', 'SIT'),
    ('cr12_exif_hervas', 'Plasencia'), ('cr13_voluntats_falset', 'A. Ferré'),
    ('cr13_voluntats_falset', 'Ministerio de Sanidad'), ('cr14_medif_adeje', 'Atlántica Air'),
    ('cr14_medif_adeje', 'España'), ('cr14_medif_adeje', 'SCS'),
    ('cr14_medif_adeje', 'Viajes Teide Sur'), ('cr15_etiquetas_mendaro', 'Mendaro'),
    ('cr15_etiquetas_mendaro', 'Mendarozabal auzoa, z/g'), ('cr17_agresion_lavilajoiosa', 'la Cala'),
    ('cr18_http_almonte', 'guarda+de+la+marisma'),
}
BLIND18_WORD_LEAKS = {
    ('cr01_fax_molinadearagon', '949830047'), ('cr01_fax_molinadearagon', 'HUGU'),
    ('cr01_fax_molinadearagon', 'Setiles'), ('cr01_fax_molinadearagon', 'pastor'),
    ('cr02_esqui_sallent', '5503'), ('cr02_esqui_sallent', 'Alquiler'), ('cr02_esqui_sallent', 'Chuse'),
    ('cr02_esqui_sallent', 'Jaca'), ('cr02_esqui_sallent', 'Lanaspa'), ('cr02_esqui_sallent', 'Sport'),
    ('cr02_esqui_sallent', 'Tena'), ('cr02_esqui_sallent', 'Toño'), ('cr03_dopaje_ezcaray', '2025'),
    ('cr03_dopaje_ezcaray', '4012387'), ('cr03_dopaje_ezcaray', 'Control'),
    ('cr03_dopaje_ezcaray', 'Dopaje'), ('cr03_dopaje_ezcaray', 'España'),
    ('cr03_dopaje_ezcaray', 'Laboratorio'), ('cr03_dopaje_ezcaray', 'OCD'),
    ('cr03_dopaje_ezcaray', 'UCI'), ('cr04_columnas_ubrique', 'Dios'),
    ('cr04_columnas_ubrique', 'Marroquinero'), ('cr05_radiomedico_ribeira', 'CCS'),
    ('cr05_radiomedico_ribeira', 'Perú'), ('cr05_radiomedico_ribeira', 'Pesqueiras'),
    ('cr05_radiomedico_ribeira', 'Radio'), ('cr05_radiomedico_ribeira', 'Sabela'),
    ('cr05_radiomedico_ribeira', 'Triñanes'), ('cr06_pertenencias_colladovillalba', '1187'),
    ('cr06_pertenencias_colladovillalba', '2200'), ('cr06_pertenencias_colladovillalba', '6204'),
    ('cr06_pertenencias_colladovillalba', '7614'), ('cr07_balneario_archena', 'ALMENDROS'),
    ('cr07_balneario_archena', 'BALNEARIO'), ('cr08_campamento_otsagabia', 'Amaia'),
    ('cr08_campamento_otsagabia', 'Ane'), ('cr08_campamento_otsagabia', 'Bengoetxea'),
    ('cr08_campamento_otsagabia', 'Elkartea'), ('cr08_campamento_otsagabia', 'Gazte'),
    ('cr08_campamento_otsagabia', 'Iker'), ('cr08_campamento_otsagabia', 'Mendi'),
    ('cr08_campamento_otsagabia', 'Mikel'), ('cr08_campamento_otsagabia', 'Otsagabiko'),
    ('cr08_campamento_otsagabia', 'SOS'), ('cr09_diapositivas_langreo', 'Estudiante'),
    ('cr09_diapositivas_langreo', 'Ingeniería'), ('cr09_diapositivas_langreo', 'Minas'),
    ('cr09_diapositivas_langreo', 'Oviedo'), ('cr09_diapositivas_langreo', 'Sama'),
    ('cr10_factura_alcudia', '448201'), ('cr10_factura_alcudia', 'Alcanada'),
    ('cr10_factura_alcudia', 'Espanya'), ('cr10_factura_alcudia', 'Salus'),
    ('cr10_factura_alcudia', 'Vida'), ('cr11_toxicologia_potes', '3907'),
    ('cr11_toxicologia_potes', 'SCS'), ('cr11_toxicologia_potes', 'SIT'), ('cr12_exif_hervas', '4477'),
    ('cr12_exif_hervas', 'Plasencia'), ('cr13_voluntats_falset', 'Ferré'),
    ('cr13_voluntats_falset', 'Ministerio'), ('cr13_voluntats_falset', 'PADES'),
    ('cr14_medif_adeje', 'Air'), ('cr14_medif_adeje', 'Atlántica'), ('cr14_medif_adeje', 'España'),
    ('cr14_medif_adeje', 'SCS'), ('cr14_medif_adeje', 'Teide'), ('cr14_medif_adeje', 'Viajes'),
    ('cr15_etiquetas_mendaro', '3318'), ('cr15_etiquetas_mendaro', 'Mendarozabal'),
    ('cr17_agresion_lavilajoiosa', 'Baixa'), ('cr17_agresion_lavilajoiosa', 'Cala'),
    ('cr17_agresion_lavilajoiosa', 'Marina'), ('cr17_agresion_lavilajoiosa', 'VALENCIANA'),
    ('cr18_http_almonte', '2B34'),
}


@pytest.fixture(scope="module")
def blind18() -> dict[str, Document]:
    return load_corpus([BLIND18])


def test_what_leaks_from_the_eighteenth_blind_set_is_what_we_know_of(blind18: dict[str, Document]) -> None:
    _known_leaks_only(blind18, (18, 992), BLIND18_LEAKS, BLIND18_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.78), ("deidentify", 0.83)])
def test_what_the_embedded_model_finds_in_the_eighteenth_blind_set(blind18: dict[str, Document], point: str,
                                                                  floor: float) -> None:
    # blind, once, with the code of ff851f8 (2026-12-07): 0.766 on the best path, 0.818 at the
    # deidentify point (benchmarks/formats.py's measure); after the twentieth round they prompted
    # 0.794 / 0.845 (a URL-encoded form and LaTeX decoded, an HTTP capture's protocol blocked, a
    # photo's metadata read by its keys, a parish in an address, a pager, a call sign, a Host)
    assert _recall(blind18, point) >= floor


# -- the nineteenth set written blind --------------------------------------------------------------
BLIND19 = BLIND.parent / "es_blind19"
#: What still leaks from the nineteenth set (blind once, then read: the twenty-first round): hamlets
#: and parishes no table holds ("Páganos", "Arrakogoiti", "Tomellosa", "Cerdillo"), a voicemail's
#: lower-case villages and names ("poo", "xuaco", "arriondas"), towns abroad named in English or at
#: a line's start ("Rotterdam", "Lomé"), companies and bodies no list holds ("Distribuidora
#: Farmacéutica Alcarreña", "Taxis Valle Alto", "Sanidad Exterior", the Guardia Civil), kit, seal
#: and ticket numbers, a name an OCR cut in two ("Ador-ación"), occupations in English ("able
#: seaman"), a shifted day and month equal to another of the note's ("29/11").
BLIND19_LEAKS = {
    ('cr01_helicoptero_isaba', 'Arrakogoiti'), ('cr01_helicoptero_isaba', 'Noáin'),
    ('cr01_helicoptero_isaba', 'Oloron'), ('cr01_helicoptero_isaba', 'Rubio'),
    ('cr02_buzonvoz_cabrales', 'AS 0 4 1 8 7 6 2 2'), ('cr02_buzonvoz_cabrales', 'Oviedo'),
    ('cr02_buzonvoz_cabrales', 'arriondas'), ('cr02_buzonvoz_cabrales', 'bernardo díaz'),
    ('cr02_buzonvoz_cabrales', 'carreña'), ('cr02_buzonvoz_cabrales', 'covadonga'),
    ('cr02_buzonvoz_cabrales', 'farmacia [¿belén?] de arenas'), ('cr02_buzonvoz_cabrales', 'marta'),
    ('cr02_buzonvoz_cabrales', 'oviedo'), ('cr02_buzonvoz_cabrales', 'pastor'),
    ('cr02_buzonvoz_cabrales', 'pepe'), ('cr02_buzonvoz_cabrales', 'piñera'),
    ('cr02_buzonvoz_cabrales', 'poo'), ('cr02_buzonvoz_cabrales', 'sotres'),
    ('cr02_buzonvoz_cabrales', 'tielve'), ('cr02_buzonvoz_cabrales', 'veinte'),
    ('cr02_buzonvoz_cabrales', 'veintitrés'), ('cr02_buzonvoz_cabrales', 'xuaco'),
    ('cr03_caza_herreradelduque', 'Guardia Civil'),
    ('cr04_cuaderno_moratalla', 'Cortijo Las Tosquillas, s/n'), ('cr04_cuaderno_moratalla', 'Mazuza'),
    ('cr04_cuaderno_moratalla', 'Otos'), ('cr05_reintegro_hermigua', '7/11'),
    ('cr05_reintegro_hermigua', 'Los Cristianos'), ('cr05_reintegro_hermigua', 'S/C Gomera'),
    ('cr05_reintegro_hermigua', 'S/C Tenerife'), ('cr05_reintegro_hermigua', 'Taxis Valle Alto'),
    ('cr05_reintegro_hermigua', 'agricultor'), ('cr06_alcoholemia_sanvicentedelabarquera', '0049217'),
    ('cr06_alcoholemia_sanvicentedelabarquera', '0049218'),
    ('cr06_alcoholemia_sanvicentedelabarquera', 'GC-KIT 22-017355'),
    ('cr06_alcoholemia_sanvicentedelabarquera', 'Guardia Civil'),
    ('cr06_alcoholemia_sanvicentedelabarquera', 'SUAP-SV-26/3107'), ('cr07_cremacion_torrecilla', '2011'),
    ('cr07_cremacion_torrecilla', '2015'), ('cr08_pdftk_soller', 'GERENCIA REGIONAL DE SALUD'),
    ('cr09_estupefacientes_brihuega', 'Cívica'),
    ('cr09_estupefacientes_brihuega', 'Distribuidora Farmacéutica Alcarreña'),
    ('cr09_estupefacientes_brihuega', 'Tomellosa'), ('cr09_estupefacientes_brihuega', 'hostelera'),
    ('cr09_estupefacientes_brihuega', 'peón agrícola'), ('cr09_estupefacientes_brihuega', 'Ó. Grande'),
    ('cr10_desaparecido_puebladesanabria', '359882104467310'),
    ('cr10_desaparecido_puebladesanabria', 'Cerdillo'),
    ('cr10_desaparecido_puebladesanabria', 'Guardia Civil'), ('cr11_declaracionmaritima_marin', '09 NOV'),
    ('cr11_declaracionmaritima_marin', 'Lomé'), ('cr11_declaracionmaritima_marin', 'Mariñeiro'),
    ('cr11_declaracionmaritima_marin', 'Philippines'), ('cr11_declaracionmaritima_marin', 'Rotterdam'),
    ('cr11_declaracionmaritima_marin', 'SE-PO-117'), ('cr11_declaracionmaritima_marin', 'Sanidad Exterior'),
    ('cr11_declaracionmaritima_marin', 'Spain'), ('cr11_declaracionmaritima_marin', 'able seaman'),
    ('cr12_jira_laguardia', 'Chema'), ('cr12_jira_laguardia', 'HUA Txagorritxu'),
    ('cr12_jira_laguardia', 'OSK-DOK-48213'), ('cr12_jira_laguardia', 'Páganos'),
    ('cr13_tdo_camprodon', '22/11'), ('cr13_tdo_camprodon', '29/11'), ('cr13_tdo_camprodon', '6/12'),
    ('cr13_tdo_camprodon', '8/11'), ('cr13_tdo_camprodon', 'Al Hoceïma'),
    ('cr14_celadores_sanlorenzodeelescorial', 'SL-044'), ('cr14_celadores_sanlorenzodeelescorial', 'Tere'),
    ('cr15_capturas_cazorla', '28/11'), ('cr15_capturas_cazorla', '7Q4-22K'),
    ('cr15_capturas_cazorla', '8F1-09P'), ('cr15_capturas_cazorla', 'ación'),
    ('cr16_cambios_morella', '24/11'), ('cr16_cambios_morella', 'Ambulàncies Maestrat'),
    ('cr16_cambios_morella', 'ramader'), ('cr17_brote_valderrobres', '14 de noviembre'),
    ('cr17_brote_valderrobres', '14/11'), ('cr17_brote_valderrobres', 'Cretas'),
    ('cr17_brote_valderrobres', 'Joaquín Ayguals'), ('cr17_brote_valderrobres', 'Vall-de-roures'),
    ('cr18_discapacidad_taramundi', 'ASTU 610430 LAST 7'), ('cr18_discapacidad_taramundi', 'HUCA'),
}
BLIND19_WORD_LEAKS = {
    ('cr01_helicoptero_isaba', 'Arrakogoiti'), ('cr01_helicoptero_isaba', 'NAFARROAKO'),
    ('cr01_helicoptero_isaba', 'Noáin'), ('cr01_helicoptero_isaba', 'Oloron'),
    ('cr01_helicoptero_isaba', 'Rubio'), ('cr01_helicoptero_isaba', 'SOS'),
    ('cr02_buzonvoz_cabrales', 'Oviedo'), ('cr02_buzonvoz_cabrales', 'belén'),
    ('cr02_buzonvoz_cabrales', 'bernardo'), ('cr02_buzonvoz_cabrales', 'covadonga'),
    ('cr02_buzonvoz_cabrales', 'marta'), ('cr02_buzonvoz_cabrales', 'pastor'),
    ('cr02_buzonvoz_cabrales', 'pepe'), ('cr03_caza_herreradelduque', 'Puesto'),
    ('cr03_caza_herreradelduque', 'Sociedad'), ('cr04_cuaderno_moratalla', 'Cortijo'),
    ('cr04_cuaderno_moratalla', 'MURC'), ('cr04_cuaderno_moratalla', 'Mazuza'),
    ('cr04_cuaderno_moratalla', 'Otos'), ('cr04_cuaderno_moratalla', 'Tosquillas'),
    ('cr05_reintegro_hermigua', 'Alto'), ('cr05_reintegro_hermigua', 'Cristianos'),
    ('cr05_reintegro_hermigua', 'Gomera'), ('cr05_reintegro_hermigua', 'Pensión'),
    ('cr05_reintegro_hermigua', 'Taxis'), ('cr05_reintegro_hermigua', 'Tenerife'),
    ('cr06_alcoholemia_sanvicentedelabarquera', '0049217'),
    ('cr06_alcoholemia_sanvicentedelabarquera', '0049218'),
    ('cr06_alcoholemia_sanvicentedelabarquera', '017355'),
    ('cr06_alcoholemia_sanvicentedelabarquera', '3107'),
    ('cr06_alcoholemia_sanvicentedelabarquera', 'Agrupación'),
    ('cr06_alcoholemia_sanvicentedelabarquera', 'KIT'), ('cr06_alcoholemia_sanvicentedelabarquera', 'SUAP'),
    ('cr07_cremacion_torrecilla', '0009'), ('cr07_cremacion_torrecilla', 'Crematorio'),
    ('cr08_pdftk_soller', 'CYL'), ('cr08_pdftk_soller', 'nico'),
    ('cr09_estupefacientes_brihuega', 'Alcarreña'), ('cr09_estupefacientes_brihuega', 'Cívica'),
    ('cr09_estupefacientes_brihuega', 'Distribuidora'), ('cr09_estupefacientes_brihuega', 'Farmacéutica'),
    ('cr09_estupefacientes_brihuega', 'Grande'), ('cr09_estupefacientes_brihuega', 'Tomellosa'),
    ('cr10_desaparecido_puebladesanabria', '359882104467310'),
    ('cr10_desaparecido_puebladesanabria', 'Cerdillo'), ('cr10_desaparecido_puebladesanabria', 'Hidalgo'),
    ('cr10_desaparecido_puebladesanabria', 'Puesto'), ('cr10_desaparecido_puebladesanabria', 'baltasar'),
    ('cr11_declaracionmaritima_marin', 'Exterior'), ('cr11_declaracionmaritima_marin', 'Lomé'),
    ('cr11_declaracionmaritima_marin', 'Mariñeiro'), ('cr11_declaracionmaritima_marin', 'NOV'),
    ('cr11_declaracionmaritima_marin', 'OCT'), ('cr11_declaracionmaritima_marin', 'Philippines'),
    ('cr11_declaracionmaritima_marin', 'Pontevedra'), ('cr11_declaracionmaritima_marin', 'Rotterdam'),
    ('cr11_declaracionmaritima_marin', 'Spain'), ('cr12_jira_laguardia', '48213'),
    ('cr12_jira_laguardia', 'ARRILUCEA'), ('cr12_jira_laguardia', 'Chema'), ('cr12_jira_laguardia', 'DOK'),
    ('cr12_jira_laguardia', 'HUA'), ('cr12_jira_laguardia', 'Mayor'), ('cr12_jira_laguardia', 'OSK'),
    ('cr12_jira_laguardia', 'Páganos'), ('cr12_jira_laguardia', 'Txagorritxu'),
    ('cr13_tdo_camprodon', 'Hoceïma'), ('cr14_celadores_sanlorenzodeelescorial', 'Tere'),
    ('cr15_capturas_cazorla', '09P'), ('cr15_capturas_cazorla', '22K'), ('cr15_capturas_cazorla', '7Q4'),
    ('cr15_capturas_cazorla', '8F1'), ('cr15_capturas_cazorla', 'ADORACIÓN'),
    ('cr15_capturas_cazorla', 'GONZA1O'), ('cr16_cambios_morella', 'Ambulàncies'),
    ('cr16_cambios_morella', 'Maestrat'), ('cr16_cambios_morella', 'Mancomunitat'),
    ('cr17_brote_valderrobres', 'Alcañiz'), ('cr17_brote_valderrobres', 'Ayguals'),
    ('cr17_brote_valderrobres', 'Cofradía'), ('cr17_brote_valderrobres', 'Cretas'),
    ('cr17_brote_valderrobres', 'Joaquín'), ('cr18_discapacidad_taramundi', '610430'),
    ('cr18_discapacidad_taramundi', 'ASTU'), ('cr18_discapacidad_taramundi', 'Discapacidad'),
    ('cr18_discapacidad_taramundi', 'HUCA'), ('cr18_discapacidad_taramundi', 'LAST'),
    ('cr18_discapacidad_taramundi', 'Oxigen'), ('cr18_discapacidad_taramundi', 'PRINCIPADO'),
    ('cr18_discapacidad_taramundi', 'Personas'), ('cr18_discapacidad_taramundi', 'Valoración'),
}


@pytest.fixture(scope="module")
def blind19() -> dict[str, Document]:
    return load_corpus([BLIND19])


def test_what_leaks_from_the_nineteenth_blind_set_is_what_we_know_of(blind19: dict[str, Document]) -> None:
    _known_leaks_only(blind19, (18, 1119), BLIND19_LEAKS, BLIND19_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.72), ("deidentify", 0.79)])
def test_what_the_embedded_model_finds_in_the_nineteenth_blind_set(blind19: dict[str, Document], point: str,
                                                                  floor: float) -> None:
    # blind, once, with the code of ba0fc96 (2026-12-08): 0.661 on the best path, 0.739 at the
    # deidentify point (benchmarks/formats.py's measure); after the twenty-first round they
    # prompted 0.730 / 0.804 (prescriptions, licences, logins, a ship's and a French patient's
    # numbers, the first day of a range; a data frame's right-aligned columns, a wiki table a field
    # per row; Markdown's bold field names, a scan's zeros, numeric references read in the view)
    assert _recall(blind19, point) >= floor

