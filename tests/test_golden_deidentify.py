"""Golden files: invented notes in (tests/golden/deidentify/NAME.txt + .ann), the exact
pseudonymised text out (NAME.expected.txt) with a fixed seed. A change in any generator shows
up here as a diff to review; regenerate with CRFDEID_UPDATE_GOLDEN=1 after checking it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crfdeid.io.brat import read_brat
from crfdeid.pseudonymise import Pseudonymiser

GOLDEN = Path(__file__).resolve().parent / "golden" / "deidentify"
NOTES = sorted(GOLDEN.glob("*.ann"))


@pytest.mark.parametrize("ann", NOTES, ids=[p.stem for p in NOTES])
def test_golden_output(ann: Path):
    doc = read_brat(ann.with_suffix(".txt"))
    result = Pseudonymiser(seed=2024).pseudonymise(doc)
    expected = ann.with_name(ann.stem + ".expected.txt")
    if os.environ.get("CRFDEID_UPDATE_GOLDEN"):
        expected.write_text(result.text, encoding="utf-8")
    assert result.text == expected.read_text(encoding="utf-8")
    assert not result.leftovers


def test_golden_notes_read_as_one_consistent_story():
    doc = read_brat(GOLDEN / "nota-familia.txt")
    result = Pseudonymiser(seed=2024).pseudonymise(doc)
    texts = [result.text[s.start : s.end] for s in result.spans]
    patient, short = texts[0], texts[14]  # "Ignacio Navarro Cuéllar", "Navarro Cuellar"
    assert short == " ".join(patient.split()[1:])
    daughter, wife = texts[7], texts[9]  # "Marta Navarro Gil", "Pilar Gil Ortega"
    assert daughter.split()[1] == patient.split()[1] and daughter.split()[2] == wife.split()[1]
    assert texts[16].split()[1] == patient.split()[2]  # "Cuelar", a typo of Cuéllar
