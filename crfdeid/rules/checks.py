"""Self-tests and lint for rule packs: what ``crfdeid rules test`` and ``rules lint`` run.

Examples are run against their own rule alone (context and validator included): a match example
passes when the rule returns exactly its ``phi`` and nothing else, a no-match example when the
rule returns nothing. Lint looks for what examples cannot show: duplicate ids, too few examples,
patterns that are slow on adversarial strings, and rules that never win against the rest of the
pack on their own examples (shadowed by a higher-priority or longer match).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Document
from .engine import RuleEngine
from .model import DEFAULT_TIMEOUT, Example, Rule

#: A rule needs at least this many examples of each kind (the issue's bar for shipped packs).
MIN_MATCH_EXAMPLES = 2
MIN_NO_MATCH_EXAMPLES = 1
#: Lint calls a pattern slow when one stress string of ~5,000 characters takes longer than this.
DEFAULT_SLOW_SECONDS = 0.02

STRESS_LENGTH = 5000
_STRESS_UNITS = ("a", "1", " ", "\n", "1 ", "1/", "1-", "1.", "a.", "a@", "a.a@", "Aa ", "aA1.-/:@ ",
                 "de ", "12 de ", "Tel: ", "ñ", "🙂")


@dataclass(frozen=True)
class ExampleOutcome:
    """One example run against its rule."""

    rule: Rule
    example: Example
    should_match: bool
    found: tuple[str, ...]
    error: str | None = None

    @property
    def passed(self) -> bool:
        if self.error is not None:
            return False
        return self.found == (self.example.phi,) if self.should_match else not self.found


def run_examples(rules: Sequence[Rule], timeout: float = DEFAULT_TIMEOUT) -> list[ExampleOutcome]:
    """Every example of every rule, in pack order."""
    outcomes = []
    for rule in rules:
        for example in rule.examples:
            outcomes.append(_run_example(rule, example, True, timeout))
        for example in rule.counter_examples:
            outcomes.append(_run_example(rule, example, False, timeout))
    return outcomes


def _run_example(rule: Rule, example: Example, should_match: bool, timeout: float) -> ExampleOutcome:
    try:
        found = tuple(m.text for m in rule.find(example.text, timeout))
    except TimeoutError:
        return ExampleOutcome(rule, example, should_match, (), f"timed out after {timeout} s")
    return ExampleOutcome(rule, example, should_match, found)


@dataclass(frozen=True)
class Finding:
    """One lint finding about one rule."""

    code: str
    rule: Rule
    message: str


def lint(rules: Sequence[Rule], slow_seconds: float = DEFAULT_SLOW_SECONDS) -> list[Finding]:
    """All lint findings of a pack, grouped by kind, each kind in pack order."""
    findings = _duplicate_ids(rules) + _few_examples(rules)
    findings += [f for rule in rules if (f := _slow(rule, slow_seconds)) is not None]
    return findings + _shadowed(rules)


def _duplicate_ids(rules: Sequence[Rule]) -> list[Finding]:
    first: dict[str, Rule] = {}
    findings = []
    for rule in rules:
        if rule.id in first:
            findings.append(Finding("duplicate-id", rule, f"id also used at {first[rule.id].where}"))
        else:
            first[rule.id] = rule
    return findings


def _few_examples(rules: Sequence[Rule]) -> list[Finding]:
    findings = []
    for rule in rules:
        n_match, n_no = len(rule.examples), len(rule.counter_examples)
        if n_match < MIN_MATCH_EXAMPLES or n_no < MIN_NO_MATCH_EXAMPLES:
            what = "no examples" if n_match + n_no == 0 else f"{n_match} match / {n_no} no_match examples"
            findings.append(Finding("few-examples", rule, f"{what}; needs at least {MIN_MATCH_EXAMPLES} "
                                    f"match and {MIN_NO_MATCH_EXAMPLES} no_match"))
    return findings


def stress_strings(rule: Rule) -> list[str]:
    """Long strings that make backtracking patterns blow up, including the rule's own examples.

    Each ends in a character the repeated unit does not contain, because backtracking explodes
    when a long almost-match fails at its very end.
    """
    units = list(_STRESS_UNITS)
    units += [e.text for e in rule.examples + rule.counter_examples]
    units += [e.text.replace(" ", "") for e in rule.examples]
    strings = []
    for unit in dict.fromkeys(u for u in units if u):
        body = (unit * (STRESS_LENGTH // len(unit) + 1))[:STRESS_LENGTH - 1]
        strings.append(body + ("!" if "!" not in unit else "\x00"))
    return strings


def time_rule(rule: Rule, text: str, limit: float) -> float:
    """CPU seconds ``rule`` takes on ``text`` (best of three), or ``inf`` when it hits ``limit``.

    CPU time of this thread, like the engine's budget: a busy machine does not make a rule slow.
    """
    best = float("inf")
    for _ in range(3):
        started = time.thread_time()
        try:
            rule.find(text, timeout=limit)
        except TimeoutError:
            return float("inf")
        best = min(best, time.thread_time() - started)
    return best


def _slow(rule: Rule, slow_seconds: float) -> Finding | None:
    limit = max(10 * slow_seconds, 0.2)
    worst, worst_text = 0.0, ""
    for text in stress_strings(rule):
        seconds = time_rule(rule, text, limit)
        if seconds > worst:
            worst, worst_text = seconds, text
        if seconds == float("inf"):
            break
    if worst <= slow_seconds:
        return None
    took = f"timed out (> {limit:g} s)" if worst == float("inf") else f"took {worst * 1000:.0f} ms"
    return Finding("slow-pattern", rule, f"{took} on the stress string {worst_text[:24]!r}… "
                   f"({len(worst_text)} characters); limit {slow_seconds * 1000:.0f} ms")


def _shadowed(rules: Sequence[Rule]) -> list[Finding]:
    unique = list({r.id: r for r in reversed(rules)}.values())[::-1]  # first of each id
    engine = RuleEngine(unique, timeout=DEFAULT_TIMEOUT)
    findings = []
    for rule in unique:
        if not rule.examples:
            continue
        winners: set[str] = set()
        for example in rule.examples:
            result = engine.run(Document("example", example.text))
            if any(m.rule is rule for m in result.matches):
                break
            winners.update(w.rule.id for loser, w in result.dropped if loser.rule is rule)
        else:
            if winners:
                beaten = ", ".join(sorted(winners))
                findings.append(Finding("shadowed", rule, f"never wins on its own match examples: beaten "
                                        f"by {beaten} (higher priority, or longer at equal priority)"))
    return findings
