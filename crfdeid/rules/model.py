"""What a rule is: a labelled regex with optional context words, a validator and its own examples.

A Rule checks itself on creation (label known, pattern compiles, validator registered), so a
rule built in Python is held to the same standard as one read from YAML. Matching always runs
under the ``regex`` package with a timeout: a pathological pattern costs at most the timeout.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from dataclasses import dataclass, field

import regex

from ..errors import CrfdeidError
from ..labels import GUIDELINE_LABELS
from ..tokenize import tokenize
from ..types import Span
from ..validators import VALIDATORS, Validator

#: Seconds one rule may spend on one document before it is abandoned for that document.
DEFAULT_TIMEOUT = 0.5

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


class TextScope:
    """Per-document helper for context checks, shared by every rule run on one document.

    Context phrases are searched once per document (then each check is a bisect), so a rule
    with many candidates on a long line costs linear, not quadratic, time. Token windows
    tokenize only a stretch of text before the match, starting at whitespace so the tokens are
    the ones the whole text gives.
    """

    __slots__ = ("_hits", "text")

    #: How far back a token window looks for whitespace before cutting a long "word" anyway.
    MAX_WORD = 64

    def __init__(self, text: str) -> None:
        self.text = text
        self._hits: dict[regex.Pattern, tuple[list[int], list[int]]] = {}

    def window_start(self, position: int, tokens: int | None) -> int:
        """Start of the ``tokens`` tokens before ``position`` (None: start of its line)."""
        text = self.text
        if tokens is None:
            return max(text.rfind("\n", 0, position), text.rfind("\r", 0, position)) + 1
        span = 16 * tokens
        while True:
            start = max(0, position - span)
            limit = max(0, start - self.MAX_WORD)
            while start > limit and not text[start - 1].isspace():
                start -= 1  # do not cut a token (or an e-mail, a URL) in two
            found = tokenize(text[start:position])
            if len(found) >= tokens or start == 0:
                return start + found[max(0, len(found) - tokens)].start if found else position
            span *= 4

    def has_phrase(self, pattern: regex.Pattern, start: int, end: int, timeout: float) -> bool:
        """Whether ``pattern`` matches somewhere inside ``text[start:end]``."""
        if pattern not in self._hits:
            found = [m.span() for m in pattern.finditer(self.text, timeout=timeout)]
            self._hits[pattern] = ([a for a, _ in found], [b for _, b in found])
        starts, ends = self._hits[pattern]
        i = bisect_left(starts, start)
        while i < len(starts) and starts[i] < end:
            if ends[i] <= end:
                return True
            i += 1
        return False


def _phrase_regex(phrases: tuple[str, ...]) -> regex.Pattern | None:
    """One case-insensitive regex for the phrases, as whole words; inner whitespace matches any run.

    A phrase edge that is a letter or digit must not touch another one ("Tel" does not match
    "Telma"); an edge that is punctuation needs no boundary ("C/" matches "C/Salamanca").
    """
    if not phrases:
        return None
    parts = []
    for phrase in sorted(phrases, key=len, reverse=True):
        body = r"\s+".join(regex.escape(w) for w in phrase.split())
        head = r"(?<![\p{L}\p{N}])" if phrase.strip()[0].isalnum() else ""
        tail = r"(?![\p{L}\p{N}])" if phrase.strip()[-1].isalnum() else ""
        parts.append(head + body + tail)
    return regex.compile("|".join(parts), regex.IGNORECASE)


@dataclass(frozen=True, eq=False)
class Context:
    """Words that must (``require``) or must not (``forbid``) occur before a match.

    Looked for in the ``window`` tokens before the match, or from the start of its line when
    ``window`` is None. Phrases match whole words, ignoring case.
    """

    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    window: int | None = None
    _require_re: regex.Pattern | None = field(init=False, repr=False)
    _forbid_re: regex.Pattern | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.require and not self.forbid:
            raise ValueError("context needs at least one 'require' or 'forbid' phrase")
        if self.window is not None and (type(self.window) is not int or self.window < 1):
            raise ValueError(f"context window must be a positive number of tokens or 'line', "
                             f"got {self.window!r}")
        for phrase in self.require + self.forbid:
            if not isinstance(phrase, str) or not phrase.strip():
                raise ValueError(f"context phrases must be non-empty strings, got {phrase!r}")
        object.__setattr__(self, "_require_re", _phrase_regex(self.require))
        object.__setattr__(self, "_forbid_re", _phrase_regex(self.forbid))

    def allows(self, scope: TextScope, position: int, timeout: float) -> bool:
        """True when the text before ``position`` satisfies require and forbid."""
        start = scope.window_start(position, self.window)
        if self._require_re is not None and not scope.has_phrase(self._require_re, start, position, timeout):
            return False
        return self._forbid_re is None or not scope.has_phrase(self._forbid_re, start, position, timeout)


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
    compiled: regex.Pattern = field(init=False, repr=False)
    _check: Validator | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID_RE.fullmatch(self.id):
            raise InvalidRule("id", f"rule id {self.id!r} must be lower-case letters, digits, '_', '.', '-'")
        if self.label not in GUIDELINE_LABELS:
            raise InvalidRule("label", f"unknown label {self.label!r}; expected a MEDDOCAN label such as "
                              "ID_SUJETO_ASISTENCIA (see crfdeid/labels.py)")
        if not isinstance(self.description, str) or not self.description.strip():
            raise InvalidRule("description", "description must be a sentence a privacy officer understands")
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

        Raises TimeoutError when matching takes longer than ``timeout`` seconds in total.
        """
        scope = scope if scope is not None and scope.text is text else TextScope(text)
        deadline = time.perf_counter() + timeout  # context searches share the rule's budget
        found: list[RuleMatch] = []
        has_phi = PHI_GROUP in self.compiled.groupindex
        for m in self.compiled.finditer(text, timeout=timeout):
            start, end = m.span(PHI_GROUP) if has_phi else m.span()
            if start < 0 or end <= start:
                continue  # the PHI group did not take part, or the match is empty
            if self.context is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"rule {self.id} ran out of time")
                if not self.context.allows(scope, m.start(), left):
                    continue
            phi = text[start:end]
            if self._check is not None and not self._check(phi):
                continue
            found.append(RuleMatch(self, start, end, phi))
        return found


def _compile(pattern: str, flags: tuple[str, ...]) -> regex.Pattern:
    if not isinstance(pattern, str) or not pattern:
        raise InvalidRule("pattern", "pattern must be a non-empty string")
    value = 0
    for name in flags:
        value |= FLAGS[name]
    try:
        compiled = regex.compile(pattern, value)
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
