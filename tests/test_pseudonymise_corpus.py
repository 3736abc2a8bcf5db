"""The pseudonymiser over MEDDOCAN dev from the gold annotations: the issue's targets as floors.
Skips without the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.io.corpus import load_annotations
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.surrogates import normalise


@pytest.fixture(scope="module")
def dev_results(meddocan_dir: Path):
    gold = load_annotations(meddocan_dir / "dev")
    pseudonymiser = Pseudonymiser(seed=11)
    return [(doc, pseudonymiser.pseudonymise(doc)) for doc in gold.values()]


def test_every_span_replaced_per_policy_and_none_equal_to_its_original(dev_results):
    fallbacks, equal, spans = 0, 0, 0
    for doc, result in dev_results:
        for record in result.audit:
            spans += 1
            if record.strategy == "redact":
                fallbacks += 1
            if record.surrogate is not None and record.strategy != "overlap":
                new = result.text[record.new_start : record.new_end]
                equal += normalise(new) == normalise(doc.text[record.start : record.end])
    assert spans > 5000 and fallbacks == 0 and equal == 0


def test_leftovers_are_rare(dev_results):
    # what remains are mentions the annotators missed ("Médico: Mendieta Espinosa" after an
    # annotated "Mauricio Mendieta Espinosa") and coincidences such as a surname in "País:"
    leftovers = sum(len(result.leftovers) for _, result in dev_results)
    assert leftovers <= 15
