"""Merging CRF and rule spans under a per-label policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.merge import MergePolicy, MergePolicyError, _drop_overlaps
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


def _merge_by_scanning(policy: MergePolicy, crf_spans: list[Span], rule_spans: list[Span]) -> list[Span]:
    """The merge written the obvious quadratic way, as a reference."""
    crfs = sorted(crf_spans, key=lambda s: (s.start, s.end, s.label))
    alive, kept = [True] * len(crfs), []
    for r in sorted(rule_spans, key=lambda s: (s.start, s.end, s.label)):
        hits = [i for i, c in enumerate(crfs) if alive[i] and c.start < r.end and r.start < c.end]
        strategy = policy.strategy(r.label)
        if hits and strategy == "longest":
            strategy = "crf" if max(crfs[i].end - crfs[i].start for i in hits) > r.end - r.start else "rule"
        if not hits or strategy == "rule":
            for i in hits:
                alive[i] = False
            kept.append(r)
        elif strategy == "union":
            for i in hits:
                alive[i] = False
            start = min(r.start, *(crfs[i].start for i in hits))
            end = max(r.end, *(crfs[i].end for i in hits))
            kept.append(Span(start, end, r.label, f"{r.source}+crf", r.score))
    kept.extend(c for c, ok in zip(crfs, alive, strict=True) if ok)
    return _drop_overlaps(sorted(kept, key=lambda s: (s.start, s.end, s.label)))


_spans = st.lists(
    st.tuples(st.integers(0, 60), st.integers(1, 15), st.sampled_from(["CALLE", "FECHAS"])), max_size=12
)


@settings(max_examples=300, deadline=None, database=None)
@given(_spans, _spans, st.sampled_from(["rule", "crf", "longest", "union"]))
def test_bisected_merge_equals_scanning_every_crf_span(crfs, rules, strategy) -> None:
    """Overlapping CRF spans too (a long one reaching past shorter ones), so the bisection on
    the running maximum of the ends is exercised, not only disjoint BIO output."""
    crf_spans = [crf(s, s + n, label) for s, n, label in crfs]
    rule_spans = [rule(s, s + n, label) for s, n, label in rules]
    policy = MergePolicy(strategy, {"FECHAS": "union"} if strategy != "union" else {})
    assert policy.merge(crf_spans, rule_spans) == _merge_by_scanning(policy, crf_spans, rule_spans)


def test_a_policy_by_category_serves_every_scheme() -> None:
    from crfdeid.schemes import load_scheme

    policy = MergePolicy.from_dict({"default": "rule", "labels": {"DATE": "union"},
                                    "categories": {"date": "crf"}})
    assert policy.strategy("DATE") == "union" and policy.strategy("FECHAS") == "crf"
    assert policy.strategy("CALLE") == "rule"
    own = load_scheme("generic")
    assert policy.for_scheme(own).strategy("DATE") == "union"
    assert policy.to_dict()["categories"] == {"date": "crf"}
    assert "categories" not in MergePolicy.shipped().to_dict()  # what older models recorded


def test_an_unknown_category_is_an_error(tmp_path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text("default: rule\ncategories:\n  city: crf\n", encoding="utf-8")
    with pytest.raises(MergePolicyError, match="unknown category 'city'") as info:
        MergePolicy.load(path)
    assert info.value.line == 3
