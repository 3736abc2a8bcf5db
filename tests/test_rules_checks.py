"""Self-tests and lint of rule packs find what they promise to find."""

from __future__ import annotations

from crfdeid.rules import Example, Rule, lint, run_examples
from crfdeid.rules.checks import stress_strings


def make(rule_id: str, pattern: str, match=(), no_match=(), **kwargs) -> Rule:
    return Rule(id=rule_id, label="ID_SUJETO_ASISTENCIA", description="Test rule.", pattern=pattern,
                examples=tuple(Example(t, p) for t, p in match),
                counter_examples=tuple(Example(t) for t in no_match), **kwargs)


def test_run_examples_passes_exact_phi_and_fails_extra_or_missing_matches():
    good = make("good", r"NHC: (?P<phi>\d+)", match=[("NHC: 12", "12")], no_match=["NASS: 12"])
    extra = make("extra", r"\d+", match=[("NHC: 12 y 13", "12")])
    wrong = make("wrong", r"\d", match=[("NHC: 12", "12")], no_match=["7"])
    outcomes = {(o.rule.id, o.example.text): o for o in run_examples([good, extra, wrong])}
    assert outcomes[("good", "NHC: 12")].passed and outcomes[("good", "NASS: 12")].passed
    assert not outcomes[("extra", "NHC: 12 y 13")].passed  # a second match is a failure too
    assert outcomes[("extra", "NHC: 12 y 13")].found == ("12", "13")
    assert not outcomes[("wrong", "NHC: 12")].passed and not outcomes[("wrong", "7")].passed


def test_run_examples_reports_a_timeout_as_a_failure():
    slow = make("slow", r"(a|aa)+$", match=[("a" * 40 + "!", "a")])
    [outcome] = run_examples([slow], timeout=0.05)
    assert not outcome.passed and "timed out" in outcome.error


def test_lint_flags_duplicates_and_missing_examples():
    a = make("a", r"\d+", match=[("1", "1"), ("2", "2")], no_match=["x"])
    a2 = make("a", r"[a-z]+", match=[("x", "x"), ("y", "y")], no_match=["1"])
    bare = make("bare", r"NHC")
    codes = {(f.code, f.rule.id) for f in lint([a, a2, bare])}
    assert ("duplicate-id", "a") in codes
    assert ("few-examples", "bare") in codes
    assert ("few-examples", "a") not in codes


def test_lint_flags_a_slow_pattern():
    slow = make("slow", r"(\d|\d\d)+$", match=[("12", "12"), ("1", "1")], no_match=["x"])
    findings = [f for f in lint([slow], slow_seconds=0.005) if f.code == "slow-pattern"]
    assert findings and "stress string" in findings[0].message


def test_lint_flags_a_rule_shadowed_by_a_higher_priority_one():
    broad = make("broad", r"\d+", match=[("NHC 12", "12"), ("x 34", "34")], no_match=["x"], priority=10)
    narrow = make("narrow", r"(?<=NHC )\d+", match=[("NHC 12", "12"), ("NHC 99", "99")], no_match=["x 1"])
    findings = [f for f in lint([broad, narrow]) if f.code == "shadowed"]
    assert [(f.rule.id, "broad" in f.message) for f in findings] == [("narrow", True)]
    # the same rules with the priorities swapped: nothing is unreachable
    narrow_first = make("narrow", narrow.pattern, match=[("NHC 12", "12"), ("NHC 99", "99")],
                        no_match=["x 1"], priority=20)
    assert not [f for f in lint([broad, narrow_first]) if f.code == "shadowed"]


def test_stress_strings_are_long_and_include_the_rules_examples():
    rule = make("r", r"\d+", match=[("NHC 12", "12")])
    strings = stress_strings(rule)
    assert all(len(s) == 5000 for s in strings)
    assert any(s.startswith("NHC 12NHC 12") for s in strings)
