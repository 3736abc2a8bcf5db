"""Plain-text and JSON views of rule results, for ``crfdeid rules test|lint|explain``."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

from .checks import ExampleOutcome, Finding
from .engine import RuleResult
from .model import Rule, RuleMatch


def shown_path(path: str | None, line: int | None = None) -> str:
    """``path:line`` for messages, relative to the working folder when the file is inside it."""
    if path is None:
        return "<rule>"
    try:
        shown = str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        shown = path
    return shown + (f":{line}" if line is not None else "")


def _clip(text: str, width: int = 60) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= width else text[: width - 1] + "…"


def format_test_report(rules: Sequence[Rule], outcomes: Sequence[ExampleOutcome],
                       verbose: bool = False) -> str:
    """One PASS/FAIL line per rule, the failing examples under it, and a summary line."""
    by_rule = {rule_id: list(group) for rule_id, group in groupby(outcomes, key=lambda o: o.rule.id)}
    width = max((len(r.id) for r in rules), default=10)
    fam_width = max((len(r.family) for r in rules), default=6)
    lines, failed_rules = [], 0
    for rule in rules:
        mine = by_rule.get(rule.id, [])
        passed = sum(o.passed for o in mine)
        status = "PASS" if passed == len(mine) and mine else ("FAIL" if mine else "NONE")
        failed_rules += status == "FAIL"
        lines.append(f"{status}  {rule.family:<{fam_width}}  {rule.id:<{width}}  "
                     f"{passed}/{len(mine)} examples")
        for outcome in mine:
            if verbose or not outcome.passed:
                lines.append("      " + _describe(outcome))
    n_failed = sum(not o.passed for o in outcomes)
    lines.append(f"{len(rules)} rules, {len(outcomes)} examples: {len(outcomes) - n_failed} passed, "
                 f"{n_failed} failed" + (f" (in {failed_rules} rule(s))" if n_failed else ""))
    return "\n".join(lines)


def _describe(outcome: ExampleOutcome) -> str:
    ex = outcome.example
    kind = "match" if outcome.should_match else "no_match"
    where = shown_path(outcome.rule.path, ex.line or outcome.rule.line)
    mark = "ok " if outcome.passed else "BAD"
    if outcome.error:
        got = outcome.error
    elif outcome.should_match:
        got = f"expected [{ex.phi!r}], found {list(outcome.found)!r}"
    else:
        got = f"expected nothing, found {list(outcome.found)!r}"
    return f"{mark} {kind} example {_clip(ex.text)!r} ({where}): {got}"


def format_lint(findings: Sequence[Finding], n_rules: int) -> str:
    lines = [f"{shown_path(f.rule.path, f.rule.line)}: {f.rule.id}: {f.code}: {f.message}" for f in findings]
    lines.append(f"{n_rules} rules, {len(findings)} finding(s)")
    return "\n".join(lines)


def explain_rows(result: RuleResult, show_dropped: bool = False) -> list[dict[str, Any]]:
    """One row per match (and, with ``show_dropped``, per match that lost an overlap)."""
    rows = [_row(m) for m in result.matches]
    if show_dropped:
        for loser, winner in result.dropped:
            rows.append({**_row(loser), "dropped_for": winner.rule.id})
    rows.sort(key=lambda r: (r["start"], r["end"], "dropped_for" in r))
    return rows


def _row(match: RuleMatch) -> dict[str, Any]:
    rule = match.rule
    return {"start": match.start, "end": match.end, "text": match.text, "label": rule.label,
            "rule": rule.id, "priority": rule.priority, "description": rule.description,
            "file": shown_path(rule.path), "line": rule.line, "emit": rule.emit}


def format_explain(rows: Sequence[dict[str, Any]], timeouts: Sequence[Any] = ()) -> str:
    """The auditor's view: offsets, label, rule, matched text, then the rule's description."""
    if not rows:
        lines = ["no rule matched"]
    else:
        lines = []
        for row in rows:
            dropped = f"   [dropped: overlaps {row['dropped_for']}]" if "dropped_for" in row else ""
            hint = "" if row.get("emit", True) else "   [hint: a model feature; a span only without a model]"
            lines.append(f"{row['start']:>6}-{row['end']:<6} {row['label']:<32} {row['rule']:<24} "
                         f"{_clip(row['text'])!r}{dropped}{hint}")
            lines.append(f"{'':14}{row['description']}  ({row['file']}:{row['line']})")
    lines.extend(f"timeout: rule {t.rule_id} gave up on characters {t.start}-{t.end} after "
                 f"{t.seconds:.2f} s of CPU time" for t in timeouts)
    return "\n".join(lines)
