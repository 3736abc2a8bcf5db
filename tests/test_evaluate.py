"""The evaluator against hand-worked answers and against a transcription of the official scorer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.evaluate import evaluate, merge_spans
from crfdeid.io.brat import format_ann
from crfdeid.types import Document, Span

from .meddocan_reference import official_figures


def span(text: str, piece: str, label: str, nth: int = 0) -> Span:
    """The span of the ``nth`` occurrence of ``piece`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(piece, start + 1)
    return Span(start, start + len(piece), label)


def doc(text: str, *spans: Span, doc_id: str = "d1") -> Document:
    return Document(doc_id, text, spans)


def figures(result, metric):
    counts = getattr(result, metric)
    return (counts.tp, counts.fp, counts.fn)


# ---------------------------------------------------------------- hand-worked cases

TEXT = "Ana Pérez vive en Madrid.\n"


def test_ner_counts_label_errors_as_one_fp_and_one_fn():
    gold = doc(TEXT, span(TEXT, "Ana", "NOMBRE"), span(TEXT, "Pérez", "NOMBRE"),
               span(TEXT, "Madrid", "TERRITORIO"))
    system = doc(TEXT, span(TEXT, "Ana", "NOMBRE"), span(TEXT, "Pérez", "NOMBRE"),
                 span(TEXT, "Madrid", "PAIS"))
    result = evaluate({"d1": gold}, {"d1": system})
    assert figures(result, "ner") == (2, 1, 1)
    assert result.ner.precision == pytest.approx(2 / 3)
    assert result.ner.recall == pytest.approx(2 / 3)
    assert result.ner.f1 == pytest.approx(2 / 3)
    # label ignored: all three spans match
    assert figures(result, "spans_strict") == (3, 0, 0)


def test_merged_quirk_adjacent_matches_add_a_merged_true_positive():
    # "Ana" and "Pérez" are separated only by a space, so both sides merge them into (0, 9);
    # the official scorer counts the union of strict and merged matches: 3 strict + (0, 9) = 4.
    gold = doc(TEXT, span(TEXT, "Ana", "N"), span(TEXT, "Pérez", "N"), span(TEXT, "Madrid", "T"))
    result = evaluate({"d1": gold}, {"d1": gold})
    assert figures(result, "spans_merged") == (4, 0, 0)
    assert figures(result, "spans_strict") == (3, 0, 0)


def test_merged_credits_a_system_span_covering_two_adjacent_gold_spans():
    gold = doc(TEXT, span(TEXT, "Ana", "N"), span(TEXT, "Pérez", "N"))
    system = doc(TEXT, span(TEXT, "Ana Pérez", "N"))
    result = evaluate({"d1": gold}, {"d1": system})
    assert figures(result, "spans_strict") == (0, 1, 2)
    # merged: both sides become {(0, 9)}; the strict FP and FNs are contained in it
    assert figures(result, "spans_merged") == (1, 0, 0)
    assert result.spans_merged.f1 == 1.0


def test_merged_does_not_join_across_alphanumeric_text():
    text = "Calle Mayor 5 y Calle Real 2.\n"
    gold = doc(text, span(text, "Calle Mayor 5", "CALLE"), span(text, "Calle Real 2", "CALLE"))
    system = doc(text, span(text, "Calle Mayor", "CALLE"), span(text, "Calle Real 2", "CALLE"))
    result = evaluate({"d1": gold}, {"d1": system})
    assert figures(result, "spans_strict") == (1, 1, 1)
    assert figures(result, "spans_merged") == (1, 1, 1)
    assert merge_spans([(0, 13), (16, 28)], text) == [(0, 13), (16, 28)]


def test_merge_spans_literal_edge_cases():
    text = "abc, def 9 ghi"
    # separated by ", " -> merged; contained span "shrinks" the merge exactly as the official code
    assert merge_spans([(0, 3), (5, 8)], text) == [(0, 8)]
    assert merge_spans([(0, 8), (1, 2)], text) == [(0, 2)]
    assert merge_spans([(5, 8), (0, 3), (11, 14)], text) == [(0, 8), (11, 14)]
    assert merge_spans([], text) == []


def test_leak_is_false_negatives_per_gold_line():
    text = "Nombre: Ana.\nApellidos: Pérez.\nNHC: 123.\nFin\n"  # four lines
    gold = doc(text, span(text, "Ana", "N"), span(text, "Pérez", "N"))
    system = doc(text, span(text, "Ana", "N"))
    out = evaluate({"d1": gold}, {"d1": system}).to_dict()
    assert out["documents"]["gold_lines"] == 4
    assert out["leak"] == pytest.approx(1 / 4)
    assert out["spans_strict"]["leak"] == pytest.approx(1 / 4)


def test_only_documents_in_both_are_scored_and_missing_ones_are_reported():
    text_a, text_b = "Ana.\n", "Luis.\n"
    gold = {"a": doc(text_a, span(text_a, "Ana", "N"), doc_id="a"),
            "b": doc(text_b, span(text_b, "Luis", "N"), doc_id="b")}
    system = {"a": gold["a"], "c": doc("x\n", doc_id="c")}
    result = evaluate(gold, system)
    out = result.to_dict()
    assert out["documents"]["scored"] == 1
    assert out["documents"]["missing_from_system"] == 1
    assert out["documents"]["missing_from_system_ids"] == ["b"]
    assert out["documents"]["not_in_gold"] == 1
    assert figures(result, "ner") == (1, 0, 0)  # b's span is not a false negative


def test_token_level_and_binary_token_level():
    text = "Dr. Juan García Pérez\n"
    gold = doc(text, span(text, "Juan García Pérez", "NOMBRE_PERSONAL_SANITARIO"))
    system = doc(text, span(text, "Juan García", "NOMBRE_SUJETO_ASISTENCIA"))
    result = evaluate({"d1": gold}, {"d1": system})
    # Juan, García: wrong label (an FP and an FN each); Pérez: missed (FN)
    assert figures(result, "token") == (0, 2, 3)
    # binary: Juan, García are PHI on both sides; Pérez missed
    assert figures(result, "binary_token") == (2, 0, 1)
    assert result.binary_token.precision == 1.0
    assert result.binary_token.recall == pytest.approx(2 / 3)


def test_per_label_table():
    gold = doc(TEXT, span(TEXT, "Ana", "NOMBRE"), span(TEXT, "Madrid", "TERRITORIO"))
    system = doc(TEXT, span(TEXT, "Ana", "NOMBRE"), span(TEXT, "Madrid", "PAIS"))
    table = evaluate({"d1": gold}, {"d1": system}).to_dict()["per_label"]
    assert table["NOMBRE"]["f1"] == 1.0 and table["NOMBRE"]["support"] == 1
    assert table["TERRITORIO"]["recall"] == 0.0 and table["TERRITORIO"]["support"] == 1
    assert table["PAIS"]["precision"] == 0.0 and table["PAIS"]["support"] == 0


def test_empty_system_output_scores_zero_not_crash():
    gold = doc(TEXT, span(TEXT, "Ana", "N"))
    result = evaluate({"d1": gold}, {"d1": doc(TEXT)})
    assert (result.ner.precision, result.ner.recall, result.ner.f1) == (0.0, 0.0, 0.0)
    assert result.leak == 1.0


def test_json_keys_are_the_documented_ones():
    out = evaluate({"d1": doc(TEXT)}, {"d1": doc(TEXT)}).to_dict()
    for key in ("ner", "spans_strict", "spans_merged", "token", "binary_token"):
        assert set(out[key]) >= {"precision", "recall", "f1"}
    assert {"leak", "per_label", "documents"} <= set(out)


# ---------------------------------------------------------------- against the official logic

def _compare_with_official(gold: dict[str, Document], system: dict[str, Document]) -> None:
    ours = evaluate(gold, system).to_dict()
    ref = official_figures({k: (d.text, format_ann(d)) for k, d in gold.items()},
                           {k: (d.text, format_ann(d)) for k, d in system.items()})
    for metric in ("ner", "spans_strict", "spans_merged"):
        for key in ("tp", "fp", "fn"):
            assert ours[metric][key] == ref[metric][key], (metric, key)
        for key in ("precision", "recall", "f1", "leak"):
            assert round(ours[metric][key], 4) == round(ref[metric][key], 4), (metric, key)
            assert ours[metric][key] == pytest.approx(ref[metric][key], abs=1e-12)


_PIECES = ["Ana", "Pérez", " ", " ", "-", ", ", "\n", "12", "/", "y", "de", "Madrid", ".", "\r\n"]


@st.composite
def gold_and_system(draw):
    text = "".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=25)))

    def spans():
        out = []
        for _ in range(draw(st.integers(0, 6))):
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, len(text)))
            out.append(Span(start, end, draw(st.sampled_from(["A", "B"]))))
        return out

    gold_spans = spans()
    # the system often repeats gold spans, so that matches and merges actually happen
    sys_spans = [s for s in gold_spans if draw(st.booleans())] + spans()
    return Document("d", text, tuple(gold_spans)), Document("d", text, tuple(sys_spans))


@settings(max_examples=300, deadline=None)
@given(gold_and_system())
def test_random_cases_match_the_official_scorer(pair):
    gold, system = pair
    _compare_with_official({"d": gold}, {"d": system})


def _perturb(document: Document, rng: random.Random) -> Document:
    """A plausible, imperfect system: drops, boundary errors, relabels, spurious spans."""
    text = document.text
    labels = sorted({s.label for s in document.spans}) or ["X"]
    out = []
    for s in document.spans:
        roll = rng.random()
        if roll < 0.10:
            continue
        if roll < 0.20 and s.end - s.start > 2:
            out.append(Span(s.start, s.end - 1, s.label))
        elif roll < 0.25:
            out.append(Span(s.start, min(len(text), s.end + 2), s.label))
        elif roll < 0.32:
            out.append(Span(s.start, s.end, rng.choice(labels)))
        else:
            out.append(s)
    for _ in range(rng.randint(0, 3)):
        start = rng.randrange(max(1, len(text) - 10))
        out.append(Span(start, start + rng.randint(1, 9), rng.choice(labels)))
    return document.with_spans(out)


def test_meddocan_dev_figures_match_the_official_scorer(meddocan_dir):
    from crfdeid.io.corpus import load_annotations

    gold = load_annotations(meddocan_dir / "dev")
    rng = random.Random(20191)
    system = {k: _perturb(d, rng) for k, d in list(gold.items())[:-3]}  # three left unscored
    _compare_with_official(gold, system)
    assert evaluate(gold, system).to_dict()["documents"]["missing_from_system"] == 3
