"""The fuzzer in the suite: hypothesis over the whole ``Deidentifier``.

Rules only, the embedded model, and ``from_annotations`` with spans an annotator might draw,
under every policy (the default and each ``--strategy``), with and without a key. Inputs: lines
of the example notes and (when present) the MEDDOCAN dev notes, mutated the ways real notes are
(Unicode digits, NBSP, bidi and combining marks, glued words, cut words, Ceuta, 31/02/2020…);
random Unicode from every plane with lone surrogates; empty, blank and punctuation-only texts;
giant tokens and lines. ``tests/fuzz_kit.py`` holds the families and the invariants: no
exception; text outside the replaced spans byte-exact; spans inside the output; same seed, same
output, whatever note came before.

Derandomized and bounded so the module runs in about a minute; ``benchmarks/fuzz.py --cases N``
is the long run. A failure whose class is saved in ``tests/regression/fuzz/`` as still failing
is let through here (its strict xfail tracks it); any other fails the test. Save every new
failing input there (``fk.case_to_json`` + ``fk.write_case``) with the fix or the bug report.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from crfdeid.resources import meddocan_dir
from tests import fuzz_kit as fk

_corpus = meddocan_dir()
NOTES = fk.source_notes(_corpus / "dev" if _corpus is not None and (_corpus / "dev").is_dir() else None)
OTHER = (fk.EXAMPLES / "nota-002.txt").read_text(encoding="utf-8")
KNOWN = fk.known_failures()


def fuzz(examples: int) -> settings:
    """Reproducible (derandomized, no example database written into the repository)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class DrawChooser:
    """The fuzzer's choices drawn by hypothesis, so a failure shrinks to small draws."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))


def run(case: fk.Case, repeat: bool = True) -> None:
    """Check a case; a failure of a known, still-open class passes (and is counted)."""
    exc = fk.failure_of(case, OTHER, repeat)
    if exc is None:
        return
    sig = fk.signature(exc)
    if sig in KNOWN:
        event(f"known: {sig}")
        return
    raise AssertionError(f"{sig}\n{fk.location(exc)}: {exc}\ninput: {fk.excerpt(case.text, 400)}") from exc


@fuzz(120)
@given(st.data())
def test_rules_on_mutated_notes(data):
    run(fk.make_case(DrawChooser(data), "rules", NOTES, family="clinical"))


@fuzz(150)
@given(st.data())
def test_annotations_on_mutated_notes(data):
    run(fk.make_case(DrawChooser(data), "annotations", NOTES, family="clinical"))


@fuzz(40)
@given(st.data())
def test_model_on_mutated_notes(data):
    run(fk.make_case(DrawChooser(data), "model", NOTES, family="clinical"))


#: Every plane, with a share of lone surrogates and of the characters clinical text meets.
UNICODE = st.lists(
    st.one_of(
        st.characters(),
        st.characters(categories=["Cs"]),
        st.sampled_from(fk.SPECIALS),
        st.sampled_from("".join(fk.DIGIT_SCRIPTS)),
    ),
    max_size=80,
).map("".join)


@fuzz(100)
@given(UNICODE, st.sampled_from(fk.DETECTORS), st.sampled_from(fk.POLICIES), st.booleans(), st.data())
def test_random_unicode(text, detector, policy, keyed, data):
    case = fk.Case(text, detector, policy, keyed, seed=7)
    if detector == "annotations":
        case.spans = tuple(fk.random_spans(text, DrawChooser(data)))
    run(case)


@fuzz(60)
@given(st.data())
def test_trivial_texts(data):
    c = DrawChooser(data)
    run(fk.make_case(c, fk.pick(c, fk.DETECTORS), NOTES, family="trivial"))


@pytest.mark.parametrize("kind", fk.GIANTS)
@pytest.mark.parametrize("detector", fk.DETECTORS)
def test_giant_tokens_and_lines(detector, kind):
    text = fk.giant(kind)  # the model: 2-6 s CPU on a 200k-char line (was 18 s on a tenth of one)
    case = fk.Case(text, detector, "default", seed=3)
    if detector == "annotations":
        case.spans = tuple(fk.random_spans(text, fk.RandomChooser(random.Random(kind))))
    run(case, repeat=False)  # once: the benchmark repeats giants, here they would take minutes
