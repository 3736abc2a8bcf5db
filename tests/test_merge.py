"""Merging CRF and rule spans under a per-label policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.merge import MergePolicy, MergePolicyError
from crfdeid.types import Span


def crf(start: int, end: int, label: str = "CALLE") -> Span:
    return Span(start, end, label, "crf", 0.9)


def rule(start: int, end: int, label: str = "CALLE") -> Span:
    return Span(start, end, label, "rule:test", None)


def test_non_overlapping_spans_are_all_kept() -> None:
    merged = MergePolicy("rule").merge([crf(0, 5), crf(20, 25)], [rule(10, 15)])
    assert [(s.start, s.source) for s in merged] == [(0, "crf"), (10, "rule:test"), (20, "crf")]


@pytest.mark.parametrize(
    "strategy, expected",
    [
        ("rule", [(2, 8, "rule:test")]),
        ("crf", [(0, 10, "crf")]),
        ("longest", [(0, 10, "crf")]),
        ("union", [(0, 10, "rule:test+crf")]),
    ],
)
def test_strategies_on_a_rule_inside_a_crf_span(strategy: str, expected: list) -> None:
    merged = MergePolicy(strategy).merge([crf(0, 10)], [rule(2, 8)])
    assert [(s.start, s.end, s.source) for s in merged] == expected


def test_longest_tie_goes_to_the_rule() -> None:
    merged = MergePolicy("longest").merge([crf(0, 6)], [rule(2, 8)])
    assert [(s.start, s.end, s.source) for s in merged] == [(2, 8, "rule:test")]


def test_union_keeps_the_rule_label_and_covers_every_character() -> None:
    merged = MergePolicy("union").merge(
        [crf(0, 6, "TERRITORIO"), crf(9, 14, "TERRITORIO")], [rule(4, 11, "ID_SUJETO_ASISTENCIA")]
    )
    assert [(s.start, s.end, s.label) for s in merged] == [(0, 14, "ID_SUJETO_ASISTENCIA")]


def test_per_label_strategy_overrides_the_default() -> None:
    policy = MergePolicy("rule", {"FECHAS": "crf"})
    merged = policy.merge([crf(0, 10, "FECHAS"), crf(20, 30)], [rule(2, 8, "FECHAS"), rule(22, 28)])
    assert [(s.start, s.end) for s in merged] == [(0, 10), (22, 28)]


def test_merge_is_deterministic_whatever_the_input_order() -> None:
    policy = MergePolicy("union")
    crfs = [crf(0, 5), crf(4, 9, "TERRITORIO"), crf(30, 40)]
    rules = [rule(3, 6), rule(31, 33, "FECHAS")]
    assert policy.merge(crfs, rules) == policy.merge(crfs[::-1], rules[::-1])


def test_shipped_policy_loads() -> None:
    policy = MergePolicy.shipped()
    assert policy.default in ("rule", "crf", "longest", "union")
    assert MergePolicy.from_dict(policy.to_dict()) == policy


@pytest.mark.parametrize(
    "content, message, line",
    [
        ("default: rules\n", "unknown strategy 'rules'", 1),
        ("default: rule\nlabels:\n  CALLES: crf\n", "unknown label 'CALLES'", 3),
        ("default: rule\nlabels:\n  CALLE: longer\n", "unknown strategy 'longer' for CALLE", 3),
        ("defaults: rule\n", "a merge policy is a mapping", None),
        ("default: [rule\n", "invalid YAML", 2),
    ],
)
def test_invalid_policies_name_the_file_and_line(
    tmp_path: Path, content: str, message: str, line: int | None
) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(MergePolicyError, match=message) as info:
        MergePolicy.load(path)
    assert info.value.path is not None and "merge.yaml" in str(info.value)
    if line is not None:
        assert info.value.line == line
