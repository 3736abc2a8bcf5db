"""What a rule is: a labelled regex with optional context words, a validator and its own examples.

A Rule checks itself on creation (label one word, pattern compiles, validator registered; the
loader checks the label against the pack's label scheme), so a
rule built in Python is held to the same standard as one read from YAML. Matching always runs
under the ``regex`` package with a CPU-time budget: a pathological pattern costs at most the
budget, per chunk of text when the engine runs it (see ``chunks.py``). A rule also reads its
pattern's prefilters on creation (``prefilter.py``), so that a scan skips the places where the
pattern cannot match.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import regex

from ..errors import CrfdeidError
from ..tokenize import tokenize
from ..types import Span
from ..validators import VALIDATORS, Validator
from .chunks import GUARD, MARGIN, Chunk, plan_chunks
from .prefilter import Shape, shape

#: CPU seconds one rule may spend on one chunk of a document (a few KB of whole lines) before
#: it gives up on that chunk; time other processes or threads take never counts.
DEFAULT_TIMEOUT = 0.5

#: A range of starts a trigger allows that is longer than this is searched in one call, not
#: tried start by start: each call reads the CPU clock for its timeout, which costs as much
#: as searching a few hundred characters.
TRY_EACH = 8

#: Flag names a rule may use; bare numbers are not accepted, so a file says what it means.
FLAGS: dict[str, int] = {
    "ignorecase": regex.IGNORECASE,
    "multiline": regex.MULTILINE,
    "dotall": regex.DOTALL,
    "verbose": regex.VERBOSE,
}

PHI_GROUP = "phi"
_ID_RE = regex.compile(r"[a-z0-9][a-z0-9_.-]*")


class RuleError(CrfdeidError):
    """A rule file or a rule is invalid: the message names the file, the line and the rule id."""


class InvalidRule(ValueError):
    """Raised by Rule on creation; ``field`` says which field is wrong, so a loader can point at it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Example:
    """A text the rule must match (``phi`` = the exact PHI it must return) or must not match."""

    text: str
    phi: str | None = None
    line: int | None = None


def _phrase_regex(phrases: tuple[str, ...]) -> regex.Pattern:
    """One case-insensitive regex for the phrases, as whole words; inner whitespace matches any run.

    A phrase edge that is a letter or digit must not touch another one ("Tel" does not match
    "Telma"); an edge that is punctuation needs no boundary ("C/" matches "C/Salamanca"). So a
    match looks one character past each of its ends, never further.
    """
    parts = []
    for phrase in sorted(phrases, key=len, reverse=True):
        body = r"\s+".join(regex.escape(w) for w in phrase.split())
        head = r"(?<![\p{L}\p{N}])" if phrase.strip()[0].isalnum() else ""
        tail = r"(?![\p{L}\p{N}])" if phrase.strip()[-1].isalnum() else ""
        parts.append(head + body + tail)
    return regex.compile("|".join(parts), regex.IGNORECASE)


class Phrases:
    """Context phrases compiled to one regex, with the shape that bounds a match of it.

    Every phrase match is the phrase's words, in order, with whitespace between them: so a
    phrase that crosses a position starts at most ``words`` whitespace-separated runs before it,
    in the last ``word_length`` characters of the first run. ``resume_point`` uses that to go on
    searching a growing window without searching its start again.
    """

    __slots__ = ("regex", "word_length", "words")

    def __init__(self, phrases: tuple[str, ...]) -> None:
        self.regex = _phrase_regex(phrases)
        split = [phrase.split() for phrase in phrases]
        self.words = max(len(words) for words in split)
        self.word_length = max(len(word) for words in split for word in words)

    def resume_point(self, text: str, position: int, floor: int) -> int:
        """The earliest start (not before ``floor``) of a phrase match that could cross ``position``."""
        point = position
        for i in range(self.words):
            limit = max(floor, point - self.word_length)
            run = point
            while run > limit and not text[run - 1].isspace():
                run -= 1
            if run == limit and run > floor and not text[run - 1].isspace():
                return run  # a run longer than any word: no phrase starts before its last letters
            point = run
            if i + 1 < self.words:
                while point > floor and text[point - 1].isspace():
                    point -= 1
        return point


class _Progress:
    """How far a growing window ``[start, upto)`` has been searched for one set of phrases."""

    __slots__ = ("found", "resume", "start", "upto")

    def __init__(self, start: int) -> None:
        self.start = self.upto = self.resume = start
        self.found = False


class TextScope:
    """Per-document helper for context checks, shared by every rule run on one document.

    Each check costs what its window costs, never the whole text: a token window tokenizes only
    a stretch before the match (starting at whitespace, so the tokens are the ones the whole text
    gives); a line window finds its line start within the match's chunk, and the phrases of a
    long line are searched once as its candidates move along it, not again for each candidate.
    """

    __slots__ = ("_line_starts", "_progress", "_starts", "_token_width", "text")

    #: How far back a token window looks for whitespace before cutting a long "word" anyway.
    MAX_WORD = 64
    #: The farthest back (in characters, plus MAX_WORD) a token window reaches.
    MAX_REACH = 4096

    def __init__(self, text: str, chunks: Sequence[Chunk] | None = None) -> None:
        self.text = text
        chunks = plan_chunks(text) if chunks is None else chunks
        self._starts = [c.start for c in chunks] or [0]
        self._line_starts = [c.line_start for c in chunks] or [0]
        self._progress: dict[Phrases, _Progress] = {}
        self._token_width = 8.0  # characters per token, with the space after it

    def line_start(self, position: int) -> int:
        """Start of the line that holds ``position`` (after the last ``\\n`` or ``\\r`` before it)."""
        i = max(0, bisect_right(self._starts, position) - 1)
        lo, text = self._starts[i], self.text
        last_break = max(text.rfind("\n", lo, position), text.rfind("\r", lo, position))
        return last_break + 1 if last_break >= 0 else self._line_starts[i]

    def window_start(self, position: int, tokens: int | None) -> int:
        """Start of the ``tokens`` tokens before ``position`` (None: start of its line).

        A token window reaches at most ``MAX_REACH`` characters back: where tokens are that
        long (a megabyte of letters), the window is the tokens within reach, so one check never
        costs more than tokenizing a few KB.
        """
        text = self.text
        if tokens is None:
            return self.line_start(position)
        # how much text N tokens take is learnt from the previous checks: the tokens found do
        # not depend on it (the stretch starts at whitespace), only the cost does
        span = min(int(self._token_width * tokens * 1.25) + 8, self.MAX_REACH)
        while True:
            start = max(0, position - span)
            limit = max(0, start - self.MAX_WORD)
            while start > limit and not text[start - 1].isspace():
                start -= 1  # do not cut a token (or an e-mail, a URL) in two
            found = tokenize(text[start:position])
            if found:
                self._token_width = max(1.0, (position - start) / len(found))
            if len(found) >= tokens or start == 0 or span >= self.MAX_REACH:
                return start + found[max(0, len(found) - tokens)].start if found else position
            grow = 4.0 if not found else min(4.0, 1.25 * tokens / len(found))
            span = min(int(span * grow) + 1, self.MAX_REACH)

    def has_phrase(self, phrases: Phrases, start: int, end: int, timeout: float) -> bool:
        """Whether one of ``phrases`` lies wholly inside ``text[start:end]``.

        The phrase regex sees the text around the window (its word-boundary checks look one
        character past each edge). Checks of the same window start with a growing end (the
        candidates of one rule along one line) search only what is new.
        """
        progress = self._progress.get(phrases)
        if progress is None or progress.start != start or end < progress.upto:
            progress = self._progress[phrases] = _Progress(start)
        if not progress.found and end > progress.upto:
            endpos = min(len(self.text), end + 1)
            hits = phrases.regex.finditer(self.text, pos=progress.resume, endpos=endpos, timeout=timeout)
            progress.found = any(hit.end() <= end for hit in hits)
            progress.upto = end
            if not progress.found:
                progress.resume = max(progress.resume, phrases.resume_point(self.text, end, start))
        return progress.found


@dataclass(frozen=True, eq=False)
class Context:
    """Words that must (``require``) or must not (``forbid``) occur before a match.

    Looked for in the ``window`` tokens before the match, or from the start of its line when
    ``window`` is None. Phrases match whole words, ignoring case.
    """

    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    window: int | None = None
    _require: Phrases | None = field(init=False, repr=False)
    _forbid: Phrases | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.require and not self.forbid:
            raise ValueError("context needs at least one 'require' or 'forbid' phrase")
        if self.window is not None and (type(self.window) is not int or self.window < 1):
            raise ValueError(f"context window must be a positive number of tokens or 'line', "
                             f"got {self.window!r}")
        for phrase in self.require + self.forbid:
            if not isinstance(phrase, str) or not phrase.strip():
                raise ValueError(f"context phrases must be non-empty strings, got {phrase!r}")
        object.__setattr__(self, "_require", Phrases(self.require) if self.require else None)
        object.__setattr__(self, "_forbid", Phrases(self.forbid) if self.forbid else None)

    def allows(self, scope: TextScope, position: int, timeout: float) -> bool:
        """True when the text before ``position`` satisfies require and forbid."""
        start = scope.window_start(position, self.window)
        if self._require is not None and not scope.has_phrase(self._require, start, position, timeout):
            return False
        return self._forbid is None or not scope.has_phrase(self._forbid, start, position, timeout)


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule. ``family`` groups rules for the CRF features (the rule file's name)."""

    id: str
    label: str
    description: str
    pattern: str
    family: str = "rules"
    priority: int = 0
    flags: tuple[str, ...] = ()
    context: Context | None = None
    validator: str | None = None
    examples: tuple[Example, ...] = ()
    counter_examples: tuple[Example, ...] = ()
    path: str | None = None
    line: int | None = None
    #: The name of the label scheme of the rule's pack (its manifest's ``scheme``; the loader
    #: checks the label against it, ``crfdeid.schemes``).
    scheme: str = "meddocan"
    #: False for a *hint*: its matches feed the CRF as features and lose overlaps like any
    #: match, but never become a span beside a model (a phone-like digit group is evidence,
    #: not a decision). In a rules-only run, where nothing else would find them, hints emit.
    emit: bool = True
    #: False for a rule the model does not learn from: its matches are spans (merged like any
    #: rule's) but never the CRF's features, so a rule added after a model was trained needs no
    #: new model, and the model's weights stay what CV measured (``rules_fingerprint`` leaves it
    #: out; its matches take no overlap from a feature rule's).
    feature: bool = True
    compiled: regex.Pattern = field(init=False, repr=False)
    #: What the pattern says about where its matches start and what they contain (``prefilter.py``).
    shape: Shape = field(init=False, repr=False)
    _check: Validator | None = field(init=False, repr=False)
    _scanner: regex.Pattern | None = field(init=False, repr=False)  # the pattern behind (?=[first])
    _runner: regex.Pattern | None = field(init=False, repr=False)  # a run of ``shape.between``

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID_RE.fullmatch(self.id):
            raise InvalidRule("id", f"rule id {self.id!r} must be lower-case letters, digits, '_', '.', '-'")
        if not isinstance(self.label, str) or not self.label or any(c.isspace() for c in self.label):
            raise InvalidRule("label", f"a rule's label is one word, got {self.label!r}")
        if not isinstance(self.description, str) or not self.description.strip():
            raise InvalidRule("description", "description must be a sentence a privacy officer understands")
        if type(self.emit) is not bool:
            raise InvalidRule("emit", f"emit must be true or false, got {self.emit!r}")
        if type(self.feature) is not bool:
            raise InvalidRule("feature", f"feature must be true or false, got {self.feature!r}")
        if not self.feature and not self.emit:
            raise InvalidRule("feature", "a rule that is neither a feature nor emits finds nothing")
        if type(self.priority) is not int:
            raise InvalidRule("priority", f"priority must be an integer, got {self.priority!r}")
        unknown = [f for f in self.flags if f not in FLAGS]
        if unknown:
            raise InvalidRule("flags", f"unknown flag(s) {unknown}; known: {', '.join(FLAGS)}")
        if self.validator is not None and self.validator not in VALIDATORS:
            raise InvalidRule("validator", f"unknown validator {self.validator!r}; known: "
                              f"{', '.join(sorted(VALIDATORS))}")
        object.__setattr__(self, "compiled", _compile(self.pattern, self.flags))
        object.__setattr__(self, "_check", VALIDATORS[self.validator] if self.validator else None)
        flags = flag_value(self.flags)
        found = shape(self.pattern, flags)
        object.__setattr__(self, "shape", found)
        # the pattern behind a look-ahead for its first character: compiled on first use
        # (``scanner``), a rule whose trigger a run never meets never pays for it
        object.__setattr__(self, "_scanner", self.compiled if found.first is None else None)
        runner = None
        if found.between is not None:  # a run of ``between`` back to the trigger, or on from it
            runner = regex.compile(("" if found.behind else "(?r)") + f"{found.between}*", flags)
        object.__setattr__(self, "_runner", runner)

    @property
    def scanner(self) -> regex.Pattern:
        """The pattern behind a look-ahead for the characters a match can start with (a search
        skips in C to where one can), compiled once, when first needed: half of what compiling
        the rules costs at a model load."""
        scanner = self._scanner
        if scanner is None:
            flags = flag_value(self.flags)
            end = "\n)" if flags & regex.VERBOSE else ")"  # verbose: a comment on the last line ends at "\n"
            scanner = regex.compile(f"(?={self.shape.first})(?:{self.pattern}{end}", flags)
            object.__setattr__(self, "_scanner", scanner)
        return scanner

    @property
    def source(self) -> str:
        """What spans found by this rule carry as ``Span.source``."""
        return f"rule:{self.id}"

    @property
    def where(self) -> str:
        """``path:line`` of the rule, for messages."""
        return f"{self.path or '<rule>'}" + (f":{self.line}" if self.line is not None else "")

    def find(self, text: str, timeout: float = DEFAULT_TIMEOUT,
             scope: TextScope | None = None) -> list[RuleMatch]:
        """All matches of this rule in ``text`` that pass context and validator.

        Raises TimeoutError when matching takes more than ``timeout`` CPU seconds in total
        (``RuleEngine.run`` gives the budget per chunk instead).
        """
        scope = scope if scope is not None and scope.text is text else TextScope(text)
        found, _ = self.scan(text, 0, len(text), deadline=time.thread_time() + timeout, scope=scope)
        return found

    def scan(self, text: str, start: int, end: int, *, deadline: float, scope: TextScope,
             resume: int = 0, hits: Sequence[int] | None = None,
             prefilter: bool = True) -> tuple[list[RuleMatch], int]:
        """The matches whose regex match starts in ``[start, end)``, searching from ``max(start, resume)``.

        Returns them with the position the next chunk's search resumes from (the end of the last
        match), so that consecutive chunks find exactly the non-overlapping matches of one search
        over the whole text. The search sees the whole text before ``start`` and ``MARGIN``
        characters after ``end``, wider when a match runs to the edge of what it could see.

        ``hits``: the sorted offsets of this rule's trigger in ``text`` (``triggers.py``), when
        it has one: the pattern is then tried only where a trigger allows a match to start.
        ``prefilter=False`` searches with the pattern alone, every position: the reference
        the prefilters are checked against.

        ``deadline`` is in ``time.thread_time()`` seconds: the regex, context and validator
        share it. Raises RuleTimedOut (a TimeoutError carrying the matches found so far) after it.
        """
        if hits is not None and (self.shape.trigger is None or not prefilter):
            raise ValueError(f"rule {self.id} has no trigger to use hits with")
        pattern = self.scanner if prefilter else self.compiled
        n = len(text)
        pos = max(start, resume)
        margin = MARGIN
        found: list[RuleMatch] = []
        has_phi = PHI_GROUP in self.compiled.groupindex
        while True:
            endpos = min(n, end + margin)
            left = deadline - time.thread_time()
            if left <= 0:
                raise RuleTimedOut(self.id, found)
            try:
                if hits is None:
                    matches = pattern.finditer(text, pos=pos, endpos=endpos, timeout=left)
                else:
                    matches = self._triggered(text, pos, endpos, deadline, hits)
                for m in matches:
                    if m.start() >= end:
                        return found, pos  # the next chunk's
                    if endpos < n and m.end() > endpos - GUARD:
                        break  # may be cut short by the end of what the search sees: widen
                    match = self._accept(m, has_phi, scope, deadline)
                    if match is not None:
                        found.append(match)
                    if m.end() > m.start():
                        pos = m.end()
                else:
                    return found, pos
            except TimeoutError:
                if time.thread_time() >= deadline:
                    raise RuleTimedOut(self.id, found) from None
                # regex counts the whole process's CPU time; other threads used some of it:
                # go on from the last match with what is left of this thread's budget
                continue
            margin *= 4

    def _triggered(self, text: str, pos: int, endpos: int, deadline: float,
                   hits: Sequence[int]) -> Iterator[regex.Match]:
        """The matches ``finditer(text, pos, endpos)`` gives, looking only where a trigger lets a
        match start (``prefilter.Shape``): ``hits`` are where triggers start, or end when they
        are in a look-behind.

        Each hit allows a range of starts, and the ranges' lower ends rise with the hits, so no
        match starts between ``start`` and the next range: the first match at or after that
        range's low end is the next match ``finditer`` gives. A short range is tried start by
        start, a long one searched in one call. The next search goes on from the match's end,
        as ``finditer`` does (a trigger's match consumes a character and has no ``\\K``).
        """
        shape, runner, match = self.shape, self._runner, self.compiled.match
        trigger = shape.trigger
        assert trigger is not None
        distance = trigger.tail if shape.behind else trigger.reach
        start = pos  # no match starts before it
        i = max(0, bisect_right(hits, pos) - 1) if shape.behind else bisect_left(hits, pos)
        while i < len(hits):
            hit = hits[i]
            if shape.behind:  # starts from the end of the hit on, over ``between`` characters
                low = max(start, hit)
                if low >= endpos:
                    return
                high = endpos - 1 if distance == math.inf else min(endpos - 1, hit + int(distance))
                if runner is not None:
                    high = min(high, runner.match(text, low, endpos, timeout=_left(deadline, self.id)).end())
            else:  # starts up to ``reach`` before the hit, over ``between`` characters
                if hit < start:
                    i += 1
                    continue
                if hit >= endpos:
                    return
                low, high = start if distance == math.inf else max(start, hit - int(distance)), hit
                if runner is not None and low < high:
                    low = runner.match(text, low, high, timeout=_left(deadline, self.id)).start()
            if high < low:
                i += 1
                continue
            if high - low >= TRY_EACH:
                m = self.scanner.search(text, low, endpos, timeout=_left(deadline, self.id))
                if m is None:
                    return
                yield m
                start = m.end()
                continue
            for at in range(low, high + 1):
                m = match(text, at, endpos, timeout=_left(deadline, self.id))
                if m is not None:
                    yield m
                    start = m.end()
                    break
            else:
                start = high + 1
                i += 1

    def _accept(self, m: regex.Match, has_phi: bool, scope: TextScope, deadline: float) -> RuleMatch | None:
        """The RuleMatch of one regex match, or None when its PHI group, context or validator says no."""
        start, end = m.span(PHI_GROUP) if has_phi else m.span()
        if start < 0 or end <= start:
            return None  # the PHI group did not take part, or the match is empty
        if self.context is not None:
            left = deadline - time.thread_time()
            if left <= 0:
                raise TimeoutError(f"rule {self.id} ran out of time")
            if not self.context.allows(scope, m.start(), left):
                return None
        phi = m.string[start:end]
        if self._check is not None and not self._check(phi):
            return None
        return RuleMatch(self, start, end, phi)


def _left(deadline: float, rule_id: str) -> float:
    """CPU seconds left before ``deadline``; TimeoutError when there are none."""
    left = deadline - time.thread_time()
    if left <= 0:
        raise TimeoutError(f"rule {rule_id} ran out of time")
    return left


class RuleTimedOut(TimeoutError):
    """A rule went past its CPU-time budget; ``found`` holds the matches it had found until then."""

    def __init__(self, rule_id: str, found: list[RuleMatch]) -> None:
        super().__init__(f"rule {rule_id} ran out of time")
        self.found = found


def flag_value(names: tuple[str, ...]) -> int:
    """The ``regex`` flags a rule names, as the number its pattern is compiled and read with."""
    value = 0
    for name in names:
        value |= FLAGS[name]
    return value


def _compile(pattern: str, flags: tuple[str, ...]) -> regex.Pattern:
    if not isinstance(pattern, str) or not pattern:
        raise InvalidRule("pattern", "pattern must be a non-empty string")
    try:
        compiled = regex.compile(pattern, flag_value(flags))
    except regex.error as exc:
        raise InvalidRule("pattern", f"pattern does not compile: {exc}") from None
    if compiled.fullmatch("") is not None:
        raise InvalidRule("pattern", "pattern matches the empty string; every match must cover some text")
    return compiled


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """A match of one rule: the PHI part ``[start, end)`` and its text."""

    rule: Rule
    start: int
    end: int
    text: str

    def to_span(self) -> Span:
        return Span(self.start, self.end, self.rule.label, source=self.rule.source)

    def overlaps(self, other: RuleMatch) -> bool:
        return self.start < other.end and other.start < self.end
