"""Running a rule pack over documents: matches, overlap resolution, timeouts, CRF features.

Overlapping matches are resolved in one documented order, so the output never depends on
file order or dictionary order:

1. higher ``priority`` wins;
2. then the longer match (more characters of PHI);
3. then the earlier match (smaller start offset);
4. then the rule that comes first in the pack (file name, then position in the file).

A rule that exceeds the timeout on a document is abandoned *for that document only*: a warning
names the rule and the document, the result records it, and the other rules still run.
"""

from __future__ import annotations

import logging
import time
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..types import Document, Span, Token
from .loader import check_unique_ids, load_rules
from .model import DEFAULT_TIMEOUT, Rule, RuleMatch, TextScope

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RuleTimeout:
    """A rule abandoned on a document because matching took longer than the timeout."""

    rule_id: str
    document_id: str
    seconds: float


@dataclass(frozen=True)
class RuleResult:
    """What the rules found in one document: kept matches, matches that lost an overlap, timeouts."""

    document_id: str
    matches: tuple[RuleMatch, ...]
    dropped: tuple[tuple[RuleMatch, RuleMatch], ...] = ()  # (loser, the match that beat it)
    timeouts: tuple[RuleTimeout, ...] = field(default=())

    @property
    def spans(self) -> list[Span]:
        return [m.to_span() for m in self.matches]


def resolve_overlaps(candidates: Iterable[RuleMatch], order: dict[str, int] | None = None
                     ) -> tuple[list[RuleMatch], list[tuple[RuleMatch, RuleMatch]]]:
    """Keep non-overlapping matches: priority, then longest, then earliest, then pack order.

    Returns the kept matches sorted by offset, and each dropped match with the one that beat it.
    """
    order = order or {}
    ranked = sorted(candidates, key=lambda m: (-m.rule.priority, m.start - m.end, m.start,
                                               order.get(m.rule.id, 0), m.end))
    kept: list[RuleMatch] = []  # sorted by start; kept matches never overlap, so only the
    starts: list[int] = []      # neighbours at the insertion point can overlap a new match
    dropped: list[tuple[RuleMatch, RuleMatch]] = []
    for match in ranked:
        i = bisect_left(starts, match.start)
        blocker = next((k for k in kept[max(0, i - 1):i + 1] if k.overlaps(match)), None)
        if blocker is None:
            kept.insert(i, match)
            starts.insert(i, match.start)
        else:
            dropped.append((match, blocker))
    return kept, dropped


class RuleEngine:
    """A compiled rule pack; implements the Detector protocol (``name``, ``detect``)."""

    name = "rules"

    def __init__(self, rules: Sequence[Rule], timeout: float = DEFAULT_TIMEOUT) -> None:
        check_unique_ids(rules)
        if not timeout > 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout!r}")
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.timeout = timeout
        self._order = {rule.id: i for i, rule in enumerate(self.rules)}
        self._by_id = {rule.id: rule for rule in self.rules}

    @classmethod
    def from_pack(cls, pack: str | Path = "es", timeout: float = DEFAULT_TIMEOUT) -> RuleEngine:
        """Load and compile a pack (a shipped language code, a folder or one YAML file)."""
        return cls(load_rules(pack), timeout=timeout)

    def rule(self, rule_id: str) -> Rule:
        return self._by_id[rule_id]

    def run(self, document: Document) -> RuleResult:
        """Every rule over the document; overlaps resolved; timeouts recorded, never fatal."""
        text = document.text
        scope = TextScope(text)
        candidates: list[RuleMatch] = []
        timeouts: list[RuleTimeout] = []
        for rule in self.rules:
            started = time.perf_counter()
            try:
                candidates.extend(rule.find(text, self.timeout, scope))
            except TimeoutError:
                seconds = time.perf_counter() - started
                logger.warning("rule %s timed out after %.2f s on document %s; its matches in this "
                               "document are skipped", rule.id, seconds, document.id)
                timeouts.append(RuleTimeout(rule.id, document.id, seconds))
        kept, dropped = resolve_overlaps(candidates, self._order)
        return RuleResult(document.id, tuple(kept), tuple(dropped), tuple(timeouts))

    def detect(self, document: Document) -> list[Span]:
        return self.run(document).spans

    def features(self, document: Document, tokens: Sequence[Token]) -> list[list[str]]:
        """Per-token rule-family features of the document, for the CRF."""
        return token_rule_features(tokens, self.run(document).matches)


def token_rule_features(tokens: Sequence[Token], matches: Iterable[RuleMatch]) -> list[list[str]]:
    """For each token, ``B-<family>`` / ``I-<family>`` for every rule match that covers it.

    A token is covered when it overlaps the match; the first covered token of a match is ``B``.
    Cost is O(tokens + matches · covered tokens): a bisect per match, no per-token search.
    """
    features: list[list[str]] = [[] for _ in tokens]
    ends = [t.end for t in tokens]
    for match in sorted(matches, key=lambda m: (m.start, m.end, m.rule.family)):
        i = bisect_left(ends, match.start + 1)  # first token ending after the match starts
        prefix = "B-"
        while i < len(tokens) and tokens[i].start < match.end:
            name = prefix + match.rule.family
            if name not in features[i]:
                features[i].append(name)
            prefix = "I-"
            i += 1
    return features
