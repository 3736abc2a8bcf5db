"""The one document model every stage passes along: Document, Token, Span.

Character offsets always index the *original* text of the document; no stage ever shifts them.
Stages that change text (the pseudonymiser) produce a new Document and say where spans moved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol, runtime_checkable

Fragment = tuple[int, int]


class Token(NamedTuple):
    """One token: ``text == document.text[start:end]``.

    A NamedTuple rather than a dataclass because tokenization creates millions of these and
    tuple construction is several times cheaper; it is still immutable.
    ``line`` is the 0-based line index (lines end at ``\\n``, ``\\r\\n`` or ``\\r``) and
    ``line_start`` is True for the first token of its line.
    """

    start: int
    end: int
    text: str
    line: int
    line_start: bool


@dataclass(frozen=True, slots=True)
class Span:
    """A labelled stretch of text, ``[start, end)`` in the original document.

    ``source`` says who produced it: ``gold`` (an annotation file), ``crf``, ``rule:<id>``.
    ``fragments`` is only set for discontinuous BRAT annotations (``5 9;12 15``); ``start`` and
    ``end`` are then the outer bounds.
    """

    start: int
    end: int
    label: str
    source: str = "gold"
    score: float | None = None
    fragments: tuple[Fragment, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise TypeError(f"span offsets must be int, got {self.start!r}, {self.end!r}")
        if isinstance(self.start, bool) or isinstance(self.end, bool):
            raise TypeError("span offsets must be int, not bool")
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"span [{self.start}, {self.end}) is empty or negative")
        # label.split() is [label] exactly when no character of it is whitespace (isspace)
        if not isinstance(self.label, str) or not self.label or self.label.split() != [self.label]:
            raise ValueError(f"span label must be a non-empty word, got {self.label!r}")
        if self.score is not None and not 0.0 <= self.score <= 1.0:
            raise ValueError(f"span score must be in [0, 1], got {self.score!r}")
        if self.fragments is not None:
            frags = tuple(tuple(f) for f in self.fragments)
            object.__setattr__(self, "fragments", frags)
            if len(frags) < 2:
                raise ValueError("fragments are only for discontinuous spans (two or more)")
            prev_end = -1
            for f_start, f_end in frags:
                if f_start >= f_end or f_start < prev_end:
                    raise ValueError(f"fragments {frags} must be non-empty, ordered, disjoint")
                prev_end = f_end
            if frags[0][0] != self.start or frags[-1][1] != self.end:
                raise ValueError(f"fragments {frags} do not match span [{self.start}, {self.end})")

    @property
    def parts(self) -> tuple[Fragment, ...]:
        """The contiguous pieces of this span (one piece unless discontinuous)."""
        return self.fragments if self.fragments is not None else ((self.start, self.end),)

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def key(self) -> tuple[int, int, str]:
        """What the MEDDOCAN NER metric compares: (start, end, label)."""
        return (self.start, self.end, self.label)


@dataclass(frozen=True, slots=True)
class Document:
    """A text with its spans. ``metadata`` holds provenance (path, warnings) and is not compared."""

    id: str
    text: str
    spans: tuple[Span, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"document {self.id!r}: text must be str, got {type(self.text).__name__}")
        spans = tuple(self.spans)
        object.__setattr__(self, "spans", spans)
        n = len(self.text)
        for span in spans:
            if not isinstance(span, Span):
                raise TypeError(f"document {self.id!r}: expected Span, got {type(span).__name__}")
            if span.end > n:
                raise ValueError(
                    f"document {self.id!r}: span [{span.start}, {span.end}) {span.label} "
                    f"runs past the end of the text ({n} characters)"
                )

    def span_text(self, span: Span) -> str:
        """The covered text; discontinuous fragments are joined by one space, as BRAT does."""
        return " ".join(self.text[s:e] for s, e in span.parts)

    def with_spans(self, spans: Iterable[Span]) -> Document:
        return replace(self, spans=tuple(spans))

    def sorted_spans(self) -> list[Span]:
        return sorted(self.spans, key=lambda s: (s.start, s.end, s.label, s.source))


@runtime_checkable
class Detector(Protocol):
    """What every detector (YAML rules, CRF tagger, gazetteer lookups…) offers the pipeline.

    ``name`` is the registered name a pipeline configuration refers to; ``detect`` returns spans
    over ``document.text`` with ``source`` saying who found them (``rule:<id>``, ``crf``…). A
    detector never changes the text and never drops characters: offsets index the original.
    """

    name: str

    def detect(self, document: Document) -> list[Span]: ...
