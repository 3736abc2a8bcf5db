"""Running a rule pack over documents: matches, overlap resolution, timeouts, CRF features.

Overlapping matches are resolved in one documented order, so the output never depends on
file order or dictionary order:

1. higher ``priority`` wins;
2. then the longer match (more characters of PHI);
3. then the earlier match (smaller start offset);
4. then the rule that comes first in the pack (file name, then position in the file).

Rules run chunk by chunk (``chunks.py``: a few KB of whole lines), and the time limit is CPU
time per rule *per chunk*, so a long note is processed, not skipped: its cost grows with its
length and so does the time the rules may take. The matches are exactly those of one search over
the whole text (a match is owned by the chunk that holds its start, and the next chunk resumes
after it). A rule that exceeds its budget on a chunk gives up on that chunk only: the result
records a ``RuleTimeout`` with the chunk's character range, one warning per rule and document
names them, and the other chunks and rules still run. A caller that must not release PHI the
rules did not look for (the batch runner) holds back any document with a timeout.
"""

from __future__ import annotations

import logging
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..schemes import DEFAULT_SCHEME, Scheme, load_scheme
from ..types import Document, Span, Token
from .chunks import CHUNK_SIZE, plan_chunks
from .loader import check_unique_ids, load_rules, pack_scheme
from .model import DEFAULT_TIMEOUT, Rule, RuleMatch, RuleTimedOut, TextScope
from .triggers import TriggerIndex

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RuleTimeout:
    """A rule that gave up on characters ``[start, end)`` of a document: it used up its CPU budget there."""

    rule_id: str
    document_id: str
    seconds: float
    start: int
    end: int


@dataclass(frozen=True)
class RuleResult:
    """What the rules found in one document: kept matches, matches that lost an overlap, timeouts."""

    document_id: str
    matches: tuple[RuleMatch, ...]
    dropped: tuple[tuple[RuleMatch, RuleMatch], ...] = ()  # (loser, the match that beat it)
    timeouts: tuple[RuleTimeout, ...] = field(default=())
    #: The matches the CRF's features are made of: the feature rules' (``feature: true``), their
    #: overlaps resolved among themselves; None when every rule is one (then ``matches``).
    features_from: tuple[RuleMatch, ...] | None = None

    @property
    def spans(self) -> list[Span]:
        return [m.to_span() for m in self.matches]

    @property
    def feature_matches(self) -> tuple[RuleMatch, ...]:
        """The matches the CRF's rule features are made of."""
        return self.matches if self.features_from is None else self.features_from


def resolve_overlaps(candidates: Iterable[RuleMatch], order: dict[str, int] | None = None
                     ) -> tuple[list[RuleMatch], list[tuple[RuleMatch, RuleMatch]]]:
    """Keep non-overlapping matches: priority, then longest, then earliest, then pack order.

    Returns the kept matches sorted by offset, and each dropped match with the one that beat it
    (in the order the losers rank). Candidates that do not overlap, even through others, never
    interact, so each group of chained overlaps is resolved on its own: the cost stays
    O(k log k) for k candidates however long the document.
    """
    order = order or {}

    def rank(m: RuleMatch) -> tuple[int, int, int, int, int]:
        return (-m.rule.priority, m.start - m.end, m.start, order.get(m.rule.id, 0), m.end)

    kept: list[RuleMatch] = []
    dropped: list[tuple[RuleMatch, RuleMatch]] = []
    group: list[RuleMatch] = []
    group_end = -1
    for match in sorted(candidates, key=lambda m: (m.start, m.end)):
        if group and match.start >= group_end:
            _resolve_group(group, rank, kept, dropped)
            group = []
        group.append(match)
        group_end = max(group_end, match.end) if len(group) > 1 else match.end
    if group:
        _resolve_group(group, rank, kept, dropped)
    dropped.sort(key=lambda pair: rank(pair[0]))
    return kept, dropped


def _resolve_group(group: list[RuleMatch], rank: Callable[[RuleMatch], tuple[int, ...]],
                   kept: list[RuleMatch], dropped: list[tuple[RuleMatch, RuleMatch]]) -> None:
    """Resolve one group of chained overlaps; append its winners (by offset) and its losers."""
    winners: list[RuleMatch] = []  # sorted by start; winners never overlap, so only the
    starts: list[int] = []         # neighbours at the insertion point can overlap a new match
    for match in sorted(group, key=rank):
        i = bisect_left(starts, match.start)
        blocker = next((k for k in winners[max(0, i - 1):i + 1] if k.overlaps(match)), None)
        if blocker is None:
            winners.insert(i, match)
            starts.insert(i, match.start)
        else:
            dropped.append((match, blocker))
    kept.extend(winners)


#: Times a rule may try a chunk before it is recorded as timed out. A collection of a large heap
#: by Python's garbage collector runs in this thread and is billed to whichever rule is scanning;
#: a second try tells such a pause (seen on CI: 0.51 s on an 8 KB chunk that takes 2 ms) from a
#: regex that really backtracks, which times out again.
ATTEMPTS = 2


class RuleEngine:
    """A compiled rule pack; implements the Detector protocol (``name``, ``detect``)."""

    name = "rules"

    def __init__(self, rules: Sequence[Rule], timeout: float = DEFAULT_TIMEOUT,
                 chunk_size: int = CHUNK_SIZE, scheme: Scheme | None = None, prefilter: bool = True) -> None:
        """``timeout``: CPU seconds a rule may spend on one try at a chunk of ``chunk_size`` characters.
        ``scheme``: the label scheme the rules are written in (default: meddocan).
        ``prefilter=False`` searches every rule at every position of every chunk, as its pattern
        alone says: the same matches, several times slower; the reference for tests and benchmarks."""
        check_unique_ids(rules)
        if not timeout > 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout!r}")
        if type(chunk_size) is not int or chunk_size < 2:
            raise ValueError(f"chunk size must be an integer of at least 2 characters, got {chunk_size!r}")
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.timeout = timeout
        self.chunk_size = chunk_size
        self._order = {rule.id: i for i, rule in enumerate(self.rules)}
        self._by_id = {rule.id: rule for rule in self.rules}
        self.scheme: Scheme = scheme or load_scheme(DEFAULT_SCHEME)
        #: ``Span.source`` of the hint rules (``emit: false``): features, never spans beside a model.
        self.hint_sources = frozenset(rule.source for rule in self.rules if not rule.emit)
        #: Whether a rule is spans only (``feature: false``): then the features' matches are resolved apart.
        self._spans_only = any(not rule.feature for rule in self.rules)
        self.prefilter = prefilter
        self._triggers = TriggerIndex([r.shape for r in self.rules]) if prefilter else None

    @classmethod
    def from_pack(cls, pack: str | Path = "es", timeout: float = DEFAULT_TIMEOUT) -> RuleEngine:
        """Load and compile a pack (a shipped language code, a folder or one YAML file)."""
        return cls(load_rules(pack), timeout=timeout, scheme=pack_scheme(pack))

    def rule(self, rule_id: str) -> Rule:
        return self._by_id[rule_id]

    def emitted(self, spans: Iterable[Span]) -> list[Span]:
        """The spans of the rules that emit (``emit: true``): what a pipeline with a model merges."""
        if not self.hint_sources:
            return list(spans)
        return [s for s in spans if s.source not in self.hint_sources]

    def run(self, document: Document) -> RuleResult:
        """Every rule over every chunk of the document; overlaps resolved; timeouts recorded, never fatal.

        Chunk by chunk, every rule in pack order: the chunk is still in the processor's cache
        when the next rule reads it. The rules' triggers are found first, in one pass over the
        text (``triggers.py``): a rule with a trigger is tried only near one.
        """
        text = document.text
        chunks = plan_chunks(text, self.chunk_size)
        scope = TextScope(text, chunks)
        hits = self._triggers.find(text) if self._triggers is not None else None
        resume = [0] * len(self.rules)
        candidates: list[RuleMatch] = []
        timeouts: list[RuleTimeout] = []
        for chunk in chunks:
            for i, rule in enumerate(self.rules):
                mine = hits[i] if hits is not None and rule.shape.trigger is not None else None
                if mine is not None and not mine:
                    continue  # no trigger anywhere in the text: nothing to find, no time to spend
                for attempt in range(ATTEMPTS):
                    started = time.thread_time()
                    try:
                        found, resume[i] = rule.scan(text, chunk.start, chunk.end, resume=resume[i],
                                                     deadline=started + self.timeout, scope=scope,
                                                     hits=mine, prefilter=self.prefilter)
                        break
                    except RuleTimedOut as exc:
                        found = exc.found  # what it found before giving up is still PHI
                        if attempt == ATTEMPTS - 1:
                            timeouts.append(RuleTimeout(rule.id, document.id, time.thread_time() - started,
                                                        chunk.start, chunk.end))
                candidates.extend(found)
        _warn(timeouts, document.id)
        kept, dropped = resolve_overlaps(candidates, self._order)
        features_from = None
        if self._spans_only and any(not c.rule.feature for c in candidates):
            features_from = tuple(resolve_overlaps([c for c in candidates if c.rule.feature], self._order)[0])
        return RuleResult(document.id, tuple(kept), tuple(dropped), tuple(timeouts), features_from)

    def detect(self, document: Document) -> list[Span]:
        return self.run(document).spans

    def features(self, document: Document, tokens: Sequence[Token]) -> list[list[str]]:
        """Per-token rule-family features of the document, for the CRF."""
        return token_rule_features(tokens, self.run(document).feature_matches)


def _warn(timeouts: Sequence[RuleTimeout], document_id: str) -> None:
    """One warning per rule that timed out on the document, naming its chunks."""
    by_rule: dict[str, list[RuleTimeout]] = {}
    for timeout in timeouts:
        by_rule.setdefault(timeout.rule_id, []).append(timeout)
    for rule_id, mine in by_rule.items():
        ranges = ", ".join(f"{t.start}-{t.end}" for t in mine[:5]) + (", …" if len(mine) > 5 else "")
        logger.warning("rule %s timed out on %d chunk(s) of document %s (characters %s); its matches "
                       "there are skipped", rule_id, len(mine), document_id, ranges)


def token_rule_features(tokens: Sequence[Token], matches: Iterable[RuleMatch]) -> list[list[str]]:
    """For each token, ``B-<family>`` / ``I-<family>`` for every rule match that covers it.

    A token is covered when it overlaps the match; the first covered token of a match is ``B``.
    Cost is O(tokens + matches · covered tokens): a bisect per match, no per-token search.
    """
    features: list[list[str]] = [[] for _ in tokens]
    ends = [t.end for t in tokens]
    for match in sorted(matches, key=lambda m: (m.start, m.end, m.rule.family)):
        if not match.rule.feature:
            continue  # a spans-only rule: no feature of the model
        i = bisect_left(ends, match.start + 1)  # first token ending after the match starts
        prefix = "B-"
        while i < len(tokens) and tokens[i].start < match.end:
            name = prefix + match.rule.family
            if name not in features[i]:
                features[i].append(name)
            prefix = "I-"
            i += 1
    return features
