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
#: What still leaks (note, text): organisations and professions the tagger misses, case numbers
#: after words no rule knows, a neighbour, a social worker named before a comma. A new leak
#: fails the test; a fixed one should be taken off this list.
KNOWN_LEAKS = {
    ("ambulancia", "vecina Rosa"),
    ("enfermeria", "Pilar"),
    ("mayusculas", "AGRICULTOR"),
    ("pediatria", "profesora"),
    ("pediatria", "Hospital Materno-Infantil"),  # the kind and qualifier a surrogate keeps
    ("psiquiatria", "ingeniera de telecomunicaciones"),
    ("psiquiatria", "Telefónica"),
    ("psiquiatria", "Indra"),
    ("psiquiatria", "Hospital de Día de"),
    ("psiquiatria", "Leganés"),
    ("social", "enfermera"),
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
KNOWN_WORD_LEAKS = {
    ("ambulancia", "Rosa"), ("enfermeria", "Pilar"), ("mayusculas", "AGRICULTOR"),
    ("psiquiatria", "Telefónica"), ("psiquiatria", "Leganés"), ("psiquiatria", "Indra"),
}


def test_no_word_of_phi_leaks_but_those_we_know_of(notes: dict[str, Document]) -> None:
    found = _word_leaks(notes)
    assert found <= KNOWN_WORD_LEAKS, sorted(found - KNOWN_WORD_LEAKS)


def test_the_times_of_day_survive_and_nothing_reads_like_a_time_shifted(notes: dict[str, Document]) -> None:
    out = Deidentifier(seed=1).deidentify(notes["urgencias"]).text
    assert "14:32" in out and "09:10" in out and "10:30h" in out


@pytest.mark.parametrize("point, floor", [("viterbi", 0.75), ("deidentify", 0.84)])
def test_what_the_embedded_model_finds(notes: dict[str, Document], point: str, floor: float) -> None:
    # measured when this test was written (spans_merged recall 0.756 on the best path, 0.841 at
    # the deidentify point; 0.634 / 0.748 before the work these notes prompted, 2026-11-28;
    # 0.762 / 0.857 after the address, code and compound-name steps and the model with copies in
    # other cases of the next round): a floor a little under it, so that a change losing what
    # these notes taught fails here
    recall = _recall(notes, point)
    assert recall >= floor, recall


# -- the notes written blind -------------------------------------------------------------------
#: What still leaks from the fourteen notes written blind (tests/fixtures/es_blind): professions
#: and employers the tagger misses, insurers, a name in Chinese script, a name quoted in an
#: e-mail reply, a date in words, places and names of a note typed in lower case.
BLIND_LEAKS = {
    ('ap_soap_vigo', 'profesora'), ('ap_soap_vigo', 'septiembre'), ('carta_asisa_tomelloso', 'ASISA'),
    ('carta_asisa_tomelloso', 'MUFACE'), ('carta_asisa_tomelloso', 'profesora'),
    ('correos_palma', 'Abdelkader Bouzidi'), ('correos_palma', 'C.S. Son Gotleu'),
    ('correos_palma', 'albañil'), ('forense_cartagena', 'Cabo de Palos'),
    ('forense_cartagena', 'Patrón de pesca'),
    ('forense_cartagena', 'veintitrés de agosto de dos mil veinticuatro'), ('maxilofacial_sevilla', '陈晓玲'),
    ('mayusculas_ubeda', 'AGRICULTOR'), ('mayusculas_ubeda', 'GUARDIA CIVIL'),
    ('obstetricia_gran_canaria', 'Hotel Dunas del Sur'), ('rehabilitacion_alicante', 'Bristol'),
    ('rehabilitacion_alicante', 'maestra'), ('rehabilitacion_alicante', 'marido, Geoffrey'),
    ('relevo_enfermeria_valencia', 'alboraia'), ('relevo_enfermeria_valencia', 'c/ de la mar 14, bajo'),
    ('relevo_enfermeria_valencia', 'mª desamparados puig'), ('residencia_molina', '2018'),
    ('salud_mental_sabadell', 'Escola La Nova'), ('salud_mental_sabadell', 'Parc Taulí'),
    ('salud_mental_sabadell', 'conductor de autobús'), ('trauma_laboral_bizkaia', 'Nafarroa kalea 5, 1º A'),
}
BLIND_WORD_LEAKS = {
    ('carta_asisa_tomelloso', 'ASISA'), ('carta_asisa_tomelloso', 'MUFACE'),
    ('correos_palma', 'Abdelkader'), ('correos_palma', 'Bouzidi'), ('correos_palma', 'Gotleu'),
    ('forense_cartagena', 'Cabo'), ('forense_cartagena', 'Palos'), ('forense_cartagena', 'Patrón'),
    ('mayusculas_ubeda', 'AGRICULTOR'), ('mayusculas_ubeda', 'CIVIL'), ('mayusculas_ubeda', 'GUARDIA'),
    ('obstetricia_gran_canaria', 'Dunas'), ('obstetricia_gran_canaria', 'Hotel'),
    ('obstetricia_gran_canaria', 'Lucía'), ('rehabilitacion_alicante', 'ANNE'),
    ('rehabilitacion_alicante', 'Bristol'), ('rehabilitacion_alicante', 'Geoffrey'),
    ('relevo_enfermeria_valencia', 'desamparados'), ('salud_mental_sabadell', 'ADULTS'),
    ('salud_mental_sabadell', 'CAS'), ('salud_mental_sabadell', 'Escola'),
    ('salud_mental_sabadell', 'MENTAL'), ('salud_mental_sabadell', 'Nova'),
    ('salud_mental_sabadell', 'Parc'), ('salud_mental_sabadell', 'SALUT'),
    ('salud_mental_sabadell', 'Taulí'), ('trauma_laboral_bizkaia', 'Nafarroa'),
}


def test_what_leaks_from_the_blind_notes_is_what_we_know_of(blind: dict[str, Document]) -> None:
    leaks, words = _whole_leaks(blind), _word_leaks(blind)
    assert leaks <= BLIND_LEAKS, sorted(leaks - BLIND_LEAKS)
    assert words <= BLIND_WORD_LEAKS, sorted(words - BLIND_WORD_LEAKS)


@pytest.mark.parametrize("point, floor", [("viterbi", 0.72), ("deidentify", 0.82)])
def test_what_the_embedded_model_finds_in_the_blind_notes(blind: dict[str, Document], point: str,
                                                           floor: float) -> None:
    # blind, once (before anything was changed for them): 0.644 on the best path, 0.747 at the
    # deidentify point; after the round they prompted (2026-11-28): 0.743 / 0.847
    recall = _recall(blind, point)
    assert recall >= floor, recall
