"""Operating points: thresholds per label, span modes, the model record, and the search."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from crfdeid.operating import (
    DEIDENTIFY,
    VITERBI,
    OperatingPoint,
    OperatingPointError,
    choose_point,
    format_search,
    read_point_source,
    recorded_points,
    search,
)
from crfdeid.types import Document, Span


def test_a_point_round_trips_through_its_record() -> None:
    point = OperatingPoint(0.9, {"FECHAS": 0.97, "CALLE": 0.8}, "separate", {"min_precision": 0.97})
    again = OperatingPoint.from_dict(json.loads(json.dumps(point.to_dict())))
    assert again == point and again.chosen_by == {"min_precision": 0.97}
    assert again.limit("FECHAS") == 0.97 and again.limit("PAIS") == 0.9
    assert OperatingPoint(labels={"FECHAS": 0.97}).limit("PAIS") is None


@pytest.mark.parametrize("data, message", [
    ({"threshold": 1.5}, "probability"),
    ({"threshold": True}, "probability"),
    ({"labels": {"FECHAS": 0}}, "threshold of FECHAS"),
    ({"labels": ["FECHAS"]}, "maps a label"),
    ({"spans": "glued"}, "unknown span mode"),
    ({"treshold": 0.9}, "unknown: treshold"),
    ([0.9], "is a mapping"),
])
def test_a_bad_point_is_refused(data, message) -> None:
    with pytest.raises(OperatingPointError, match=message):
        OperatingPoint.from_dict(data)


def _tokens(text: str) -> list:
    from crfdeid.tokenize import tokenize

    return tokenize(text)


def test_per_label_thresholds_look_at_the_best_non_o_label() -> None:
    tags = ("O", "B-A", "I-A", "B-B")
    tokens = _tokens("x y z , w")
    tag = np.array([0, 0, 0, 0, 1])
    p_tag = np.array([0.6, 0.6, 0.9, 0.6, 0.9])
    p_o = np.array([0.6, 0.6, 0.9, 0.6, 0.05])
    best = np.array([1, 3, 2, 1, 2])
    p_best = np.array([0.4, 0.4, 0.1, 0.4, 0.9])
    point = OperatingPoint(labels={"A": 0.7}, spans="separate")
    new, p, separate = point.apply(tags, tag, p_tag, p_o, best, p_best, tokens)
    # token 0 (A, 0.6 < 0.7) is added; token 1 (B, no threshold) and token 2 (A, 0.9) are not;
    # token 3 (A, 0.6) is a comma: never a span of its own; token 4 was PHI on the best path
    assert new.tolist() == [1, 0, 0, 0, 1] and p.tolist()[0] == 0.4
    assert separate is not None and separate.tolist() == [True, False, False, False, False]
    tags_mode = OperatingPoint(threshold=0.7)
    new, _, separate = tags_mode.apply(tags, tag, p_tag, p_o, best, p_best, tokens)
    assert new.tolist() == [1, 3, 0, 1, 1] and separate is None  # --threshold: commas too, as before


def test_the_record_of_a_model_and_the_point_a_run_uses() -> None:
    meta = {"labels": ["FECHAS", "CALLE"],
            "operating_points": {"deidentify": {"threshold": 0.9, "labels": {"FECHAS": 0.97},
                                                "spans": "separate"}}}
    assert recorded_points(meta)[DEIDENTIFY].labels == {"FECHAS": 0.97}
    assert choose_point(meta).point is None and choose_point(meta).name == VITERBI  # annotate
    chosen = choose_point(meta, default=DEIDENTIFY)  # deidentify
    assert chosen.name == DEIDENTIFY and chosen.point == recorded_points(meta)[DEIDENTIFY]
    assert choose_point(meta, "viterbi", default=DEIDENTIFY).point is None
    override = choose_point(meta, None, 0.8, default=DEIDENTIFY)
    assert override.point == OperatingPoint(threshold=0.8) and override.name == "threshold 0.8"
    with pytest.raises(OperatingPointError, match="not both"):
        choose_point(meta, "deidentify", 0.8)
    with pytest.raises(OperatingPointError, match="does not have: PAIS"):
        recorded_points({**meta, "operating_points": {"deidentify": {"labels": {"PAIS": 0.9}}}})
    with pytest.raises(OperatingPointError, match="unknown operating point 'fast'"):
        recorded_points({**meta, "operating_points": {"fast": {}}})


def test_a_model_without_a_point_runs_its_best_path_and_says_so_when_asked() -> None:
    said: list[str] = []
    assert choose_point({"labels": ["FECHAS"]}, default=DEIDENTIFY, warn=said.append).point is None
    assert said == []  # the default: old models keep working, quietly
    chosen = choose_point({"labels": ["FECHAS"]}, DEIDENTIFY, warn=said.append)
    assert chosen.name == VITERBI and chosen.point is None and "records no 'deidentify'" in said[0]


# -- the search: a case whose answer is known ---------------------------------------------------


@dataclass
class _Note:
    """A note whose best path finds ``found`` and whose O tokens are ``extra``: (start, end,
    label, P(O)). Its spans at a point are those plus every extra token the point adds."""

    document_id: str
    found: list[Span]
    extra: list[tuple[int, int, str, float]]

    def promotable(self) -> list[tuple[str, float]]:
        return [(label, p_o) for _, _, label, p_o in self.extra]

    def spans(self, point: OperatingPoint | None) -> list[Span]:
        added = [Span(a, b, label, "crf") for a, b, label, p_o in self.extra
                 if point is not None and point.adds(label, p_o, "word")]
        return sorted(self.found + added, key=lambda s: s.start)


def _known_case() -> tuple[list[_Note], dict[str, Document]]:
    """Gold: A, B, C (label X), all at the start of their own line. The best path finds A; X
    tokens at P(O) 0.6 (B) and 0.9 (C) are right, a Y token at P(O) 0.8 is wrong."""
    text = "aaaa\nbbbb\ncccc\ndddd\n"
    gold = Document("n", text, (Span(0, 4, "X"), Span(5, 9, "X"), Span(10, 14, "X")))
    note = _Note("n", [Span(0, 4, "X", "crf")], [(5, 9, "X", 0.6), (15, 19, "Y", 0.8), (10, 14, "X", 0.9)])
    return [note], {"n": gold}


def test_the_search_takes_the_highest_recall_that_keeps_the_precision_floor() -> None:
    notes, gold = _known_case()
    # one threshold for all: 0.7 finds B (R 2/3, P 1); 0.93 finds B, C and the wrong Y
    # (R 1, P 3/4). Per label, X below 0.93 and Y never: R 1, P 1 — the only point above 0.8
    one = search(notes, gold, floor=0.8)
    assert one.chosen == OperatingPoint(threshold=0.7) and one.chosen_row["recall"] == 2 / 3
    assert all(row["family"] != "per-label" for row in one.rows)
    result = search(notes, gold, floor=0.8, per_label=True)
    assert result.chosen is not None and result.chosen.labels == {"X": 0.93}
    assert result.chosen.spans == "separate" and result.chosen.threshold is None
    assert result.chosen_row["recall"] == 1.0 and result.chosen_row["precision"] == 1.0
    assert result.chosen.chosen_by["min_precision"] == 0.8
    assert result.chosen.chosen_by["spans_merged"] == {"precision": 1.0, "recall": 1.0}
    assert "<- chosen" in format_search(result) and "X 0.93" in format_search(result)


def test_at_equal_recall_the_simpler_point_wins_and_no_point_may_be_chosen() -> None:
    notes, gold = _known_case()
    low_floor = search(notes, gold, floor=0.7)  # 0.93 for every label reaches R 1 at P 3/4
    assert low_floor.chosen == OperatingPoint(threshold=0.93)
    impossible = search([_Note("n", [Span(15, 19, "Y", "crf")], [])], gold, floor=0.5)
    assert impossible.chosen is None and "none chosen" in format_search(impossible)


def test_a_point_to_record_comes_from_a_cv_report_a_point_file_or_a_probability(tmp_path: Path) -> None:
    assert read_point_source("0.9") == OperatingPoint(threshold=0.9, spans="separate")
    report = tmp_path / "cv.json"
    chosen = {"threshold": None, "labels": {"FECHAS": 0.97}, "spans": "separate",
              "chosen_by": {"min_precision": 0.97}}
    report.write_text(json.dumps({"config": {"folds": 5, "seed": 13, "corpus_fingerprint": "abc"},
                                  "point_search": {"chosen": chosen}}), encoding="utf-8")
    point = read_point_source(str(report))
    assert point.labels == {"FECHAS": 0.97}
    assert point.chosen_by == {"min_precision": 0.97, "folds": 5, "seed": 13, "corpus_fingerprint": "abc"}
    plain = tmp_path / "point.json"
    plain.write_text(json.dumps({"threshold": 0.95, "spans": "separate"}), encoding="utf-8")
    assert read_point_source(str(plain)) == OperatingPoint(threshold=0.95, spans="separate")
    with pytest.raises(OperatingPointError, match="probability"):
        read_point_source("1.5")
    with pytest.raises(OperatingPointError, match="cannot read"):
        read_point_source(str(tmp_path / "missing.json"))
    report.write_text(json.dumps({"point_search": {"chosen": None}}), encoding="utf-8")
    with pytest.raises(OperatingPointError, match="chose no point"):
        read_point_source(str(report))
