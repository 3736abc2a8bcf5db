"""Spanish notes unlike MEDDOCAN's (tests/fixtures/es_formats): what leaks, what is found.

The embedded model learnt MEDDOCAN's case reports. These invented notes — an emergency report,
nursing and ICU notes, letters, a forensic report, a surgical sheet… — are where it failed end to
end; each surprise became a rule, a completion step or a fix, and this file keeps them fixed.
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
#: Kept on purpose by the shipped policy: an age under 90, the patient's sex, a kinship word.
KEPT = {"EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA"}
#: What still leaks (note, text): organisations and professions the tagger misses, case numbers
#: after words no rule knows, a neighbour, a social worker named before a comma. A new leak
#: fails the test; a fixed one should be taken off this list.
KNOWN_LEAKS = {
    ("ambulancia", "vecina Rosa"),
    ("carta", "2025/SO/00178"),
    ("enfermeria", "Pilar"),
    ("forense", "345/2025"),
    ("mayusculas", "AGRICULTOR"),
    ("onco", "ganadero"),
    ("pediatria", "profesora"),
    ("psiquiatria", "Telefónica"),
    ("psiquiatria", "Indra"),
    ("psiquiatria", "Hospital de Día de"),
    ("psiquiatria", "Leganés"),
    ("social", "enfermera"),
}


@pytest.fixture(scope="module")
def notes() -> dict[str, Document]:
    return load_corpus([FIXTURES])


def _kinship_words(text: str) -> bool:
    from crfdeid.langpack import load_pack

    pack = load_pack("es")
    words = text.replace("(", " ").replace(")", " ").replace(",", " ").split()
    return bool(words) and all(pack.kinship_term(w) is not None or w.lower() in ("de", "su") for w in words)


def test_what_leaks_is_what_we_know_of(notes: dict[str, Document]) -> None:
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
    assert leaks <= KNOWN_LEAKS, sorted(leaks - KNOWN_LEAKS)


def test_the_times_of_day_survive_and_nothing_reads_like_a_time_shifted(notes: dict[str, Document]) -> None:
    out = Deidentifier(seed=1).deidentify(notes["urgencias"]).text
    assert "14:32" in out and "09:10" in out and "10:30h" in out


@pytest.mark.parametrize("point, floor", [("viterbi", 0.74), ("deidentify", 0.83)])
def test_what_the_embedded_model_finds(notes: dict[str, Document], point: str, floor: float) -> None:
    # measured when this test was written (spans_merged recall 0.756 on the best path, 0.841 at
    # the deidentify point; 0.634 / 0.748 before the work these notes prompted, 2026-11-28): a
    # floor a little under it, so that a change losing what these notes taught fails here
    pipeline = load_pipeline(operating_point=point)
    system = {i: Document(i, d.text, tuple(pipeline.detect(Document(i, d.text)))) for i, d in notes.items()}
    result = evaluate(notes, system)
    assert result.spans_merged.recall >= floor, result.spans_merged
