"""Merging CRF spans with rule spans under a per-label policy read from YAML.

Spans that overlap nothing are always kept (a detector's find is never thrown away unless
another detector claims the same characters). When a rule span overlaps CRF spans, the strategy
of the rule span's label decides; the order of processing is fixed (by offset), so the result
never depends on dictionary or file order. Every output span keeps its source: ``crf``,
``rule:<id>``, or ``rule:<id>+crf`` for a union.

A policy names labels (``labels:``, of any shipped scheme or of the model's) or PHI categories
(``categories:``, see ``crfdeid.schemes``); a label's own entry wins over its category's.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import accumulate
from pathlib import Path
from typing import Any, Protocol, Self

from .errors import CrfdeidError
from .io.text import read_yaml
from .resources import data_dir
from .schemes import CATEGORIES, Scheme, known_category, shipped_schemes
from .types import Span

STRATEGIES = ("rule", "crf", "longest", "union")


class MergePolicyError(CrfdeidError):
    """A merge-policy file is invalid (names the file, the line and the key)."""


@dataclass(frozen=True)
class MergePolicy:
    """Which detector wins, per label, when a rule span and CRF spans overlap."""

    default: str = "rule"
    labels: Mapping[str, str] = field(default_factory=dict)
    categories: Mapping[str, str] = field(default_factory=dict)
    #: The scheme of the labels merged (the model's): how a label finds its category.
    scheme: Scheme | None = field(default=None, compare=False, repr=False)

    @classmethod
    def default_path(cls) -> Path:
        return data_dir("policies") / "merge.yaml"

    @classmethod
    def shipped(cls) -> MergePolicy:
        """The shipped policy (``policies/merge.yaml``)."""
        return cls.load(cls.default_path())

    @classmethod
    def load(cls, path: str | Path, scheme: Scheme | None = None) -> MergePolicy:
        path = Path(path)
        data = read_yaml(path, MergePolicyError, "merge-policy file")
        text = path.read_text(encoding="utf-8")
        lines = {}
        for number, line in enumerate(text.splitlines(), 1):
            key = line.strip().split(":", 1)[0]
            lines.setdefault(key, number)
        return cls.from_dict(data, where=path, lines=lines, scheme=scheme)

    @classmethod
    def from_dict(
        cls, data: Any, where: str | Path = "<merge policy>", lines: Mapping[str, int] | None = None,
        scheme: Scheme | None = None,
    ) -> MergePolicy:
        lines = lines or {}
        if not isinstance(data, dict) or set(data) - {"default", "labels", "categories"}:
            raise MergePolicyError("a merge policy is a mapping with 'default', 'labels' and 'categories'",
                                   where)
        default = data.get("default", "rule")
        if default not in STRATEGIES:
            raise MergePolicyError(
                f"unknown strategy {default!r}; use one of {', '.join(STRATEGIES)}",
                where,
                lines.get("default"),
            )
        labels = data.get("labels") or {}
        if not isinstance(labels, dict):
            raise MergePolicyError("'labels' maps a label to a strategy", where, lines.get("labels"))
        known = {label for shipped in shipped_schemes() for label in shipped.labels}
        known |= set(scheme.labels) if scheme is not None else set()
        for label, strategy in labels.items():
            if label not in known:
                raise MergePolicyError(
                    f"unknown label {label!r}",
                    where,
                    lines.get(label),
                    hint="labels are those of a shipped scheme (schemes/) or of the model's; "
                         "a PHI category goes under 'categories:'",
                )
            _check_strategy(strategy, label, where, lines)
        categories = data.get("categories") or {}
        if not isinstance(categories, dict):
            raise MergePolicyError("'categories' maps a category to a strategy", where,
                                   lines.get("categories"))
        for category, strategy in categories.items():
            if category not in CATEGORIES:
                raise MergePolicyError(f"unknown category {category!r}", where, lines.get(category),
                                       hint=f"categories: {', '.join(CATEGORIES)}")
            _check_strategy(strategy, category, where, lines)
        return cls(default, dict(labels), dict(categories), scheme)

    def for_scheme(self, scheme: Scheme) -> MergePolicy:
        """The same policy, reading labels through ``scheme`` (the model's)."""
        return replace(self, scheme=scheme)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"default": self.default, "labels": dict(sorted(self.labels.items()))}
        if self.categories:
            out["categories"] = dict(sorted(self.categories.items()))
        return out

    def strategy(self, label: str) -> str:
        """The label's own strategy, else its category's, else the default."""
        if label in self.labels:
            return self.labels[label]
        if self.categories:
            category = known_category(label, self.scheme)
            if category in self.categories:
                return self.categories[category]
        return self.default

    def merge(self, crf_spans: Iterable[Span], rule_spans: Iterable[Span]) -> list[Span]:
        """The merged spans, sorted by offset."""
        crf = sorted(crf_spans, key=lambda s: (s.start, s.end, s.label))
        alive = [True] * len(crf)
        starts = [c.start for c in crf]
        reach = list(accumulate((c.end for c in crf), max, initial=-1))[1:]  # max end of crf[:i+1]
        kept: list[Span] = []
        for rule in sorted(rule_spans, key=lambda s: (s.start, s.end, s.label)):
            # Only crf[lo:hi] can overlap: before lo every span ends by rule.start, from hi on
            # every span starts at or after rule.end. Bisecting keeps a long note linear, not
            # rules x CRF spans (a 200k-character line of dates took minutes).
            lo, hi = bisect_right(reach, rule.start), bisect_left(starts, rule.end)
            hits = [i for i in range(lo, hi) if alive[i] and rule.start < crf[i].end]
            if not hits:
                kept.append(rule)
                continue
            strategy = self.strategy(rule.label)
            if strategy == "longest":
                longest = max(crf[i].end - crf[i].start for i in hits)
                strategy = "crf" if longest > rule.end - rule.start else "rule"
            if strategy == "crf":
                continue
            for i in hits:
                alive[i] = False
            if strategy == "rule":
                kept.append(rule)
            else:  # union
                start = min(rule.start, *(crf[i].start for i in hits))
                end = max(rule.end, *(crf[i].end for i in hits))
                kept.append(Span(start, end, rule.label, f"{rule.source}+crf", rule.score))
        kept.extend(c for c, ok in zip(crf, alive, strict=False) if ok)
        return _drop_overlaps(sorted(kept, key=lambda s: (s.start, s.end, s.label)))


def _check_strategy(strategy: Any, key: str, where: str | Path, lines: Mapping[str, int]) -> None:
    if strategy not in STRATEGIES:
        raise MergePolicyError(
            f"unknown strategy {strategy!r} for {key}; use one of {', '.join(STRATEGIES)}",
            where,
            lines.get(key),
        )


def _drop_overlaps(spans: list[Span]) -> list[Span]:
    """Overlaps left after a union: the first span (longest at equal start) absorbs the next, so
    no character that either detector flagged is left uncovered."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end, s.label)):
        if out and span.start < out[-1].end:
            last = out[-1]
            if span.end > last.end:
                out[-1] = Span(last.start, span.end, last.label, last.source, last.score)
            continue
        out.append(span)
    return out


@dataclass(frozen=True)
class LabelledStep:
    """A completion step that reads a structure (an HL7 message, a DICOM header, a CDA
    document, a dictation's spoken numbers) and gives each category it finds the scheme's label
    for it: built from the scheme, absent when the scheme has none of its categories."""

    labels: Mapping[str, str]

    @classmethod
    def for_scheme(cls, labels: Mapping[str, str | None]) -> Self | None:
        """The step with the labels the scheme has (None if it has none of them)."""
        kept = {category: label for category, label in labels.items() if label}
        return cls(kept) if kept else None


class Ranges:
    """Ranges (start, end, anything after) sorted by start, and those overlapping a range found
    by bisection — the longest one bounds how far back an overlapping range can start: a step
    that asks for every cell of a listing or every initial of a log stays linear."""

    def __init__(self, ranges: Iterable[tuple[Any, ...]]) -> None:
        self.ranges = sorted(ranges)
        self.starts = [r[0] for r in self.ranges]
        self.longest = max((r[1] - r[0] for r in self.ranges), default=0)

    def near(self, start: int, end: int) -> list[tuple[Any, ...]]:
        """The ranges overlapping ``[start, end)`` (a range that only abuts it does not)."""
        lo = bisect_left(self.starts, start - self.longest)
        hi = bisect_left(self.starts, end)
        return [r for r in self.ranges[lo:hi] if r[1] > start]


def with_found(spans: list[Span], found: list[Span], blocked: Iterable[tuple[int, int]] = ()) -> list[Span]:
    """``spans`` and ``found`` (spans a structure labels: no two of them overlap), each span of
    ``spans`` overlapping one of ``found`` or a ``blocked`` range (where the structure says no
    span is) dropped; sorted by offset."""
    ranges = sorted([(s.start, s.end) for s in found] + [r for r in blocked if r[0] < r[1]])
    if not ranges:
        return spans
    # ranges that do not overlap, sorted by start: their ends rise too, so the last one starting
    # before a span's end is the one that can reach into it
    merged: list[list[int]] = []
    for a, b in ranges:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [r[0] for r in merged]
    ends = [r[1] for r in merged]

    def overlapped(span: Span) -> bool:
        i = bisect_left(starts, span.end)
        return i > 0 and ends[i - 1] > span.start

    kept = [s for s in spans if not overlapped(s)]
    return sorted([*kept, *found], key=lambda s: (s.start, s.end, s.label))


def with_read(text: str, spans: Iterable[Span], step: Reader | None) -> list[Span]:
    """``spans`` with the values a structure step reads in ``text`` (a CDA document, a FHIR
    resource, a machine export); a detected span overlapping one, or the markup the step says
    no span may touch, gives way."""
    spans = list(spans)
    if step is None:
        return spans
    found, blocked = step.read(text)
    return with_found(spans, found, blocked)


class Reader(Protocol):
    """A structure step that reads its spans and the ranges where no span may be."""

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]: ...
