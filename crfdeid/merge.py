"""Merging CRF spans with rule spans under a per-label policy read from YAML.

Spans that overlap nothing are always kept (a detector's find is never thrown away unless
another detector claims the same characters). When a rule span overlaps CRF spans, the strategy
of the rule span's label decides; the order of processing is fixed (by offset), so the result
never depends on dictionary or file order. Every output span keeps its source: ``crf``,
``rule:<id>``, or ``rule:<id>+crf`` for a union.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any

from .errors import CrfdeidError
from .io.text import read_yaml
from .labels import GUIDELINE_LABELS
from .resources import data_dir
from .types import Span

STRATEGIES = ("rule", "crf", "longest", "union")


class MergePolicyError(CrfdeidError):
    """A merge-policy file is invalid (names the file, the line and the key)."""


@dataclass(frozen=True)
class MergePolicy:
    """Which detector wins, per label, when a rule span and CRF spans overlap."""

    default: str = "rule"
    labels: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def default_path(cls) -> Path:
        return data_dir("policies") / "merge.yaml"

    @classmethod
    def shipped(cls) -> MergePolicy:
        """The shipped policy (``policies/merge.yaml``)."""
        return cls.load(cls.default_path())

    @classmethod
    def load(cls, path: str | Path) -> MergePolicy:
        path = Path(path)
        data = read_yaml(path, MergePolicyError, "merge-policy file")
        text = path.read_text(encoding="utf-8")
        lines = {}
        for number, line in enumerate(text.splitlines(), 1):
            key = line.strip().split(":", 1)[0]
            lines.setdefault(key, number)
        return cls.from_dict(data, where=path, lines=lines)

    @classmethod
    def from_dict(
        cls, data: Any, where: str | Path = "<merge policy>", lines: Mapping[str, int] | None = None
    ) -> MergePolicy:
        lines = lines or {}
        if not isinstance(data, dict) or set(data) - {"default", "labels"}:
            raise MergePolicyError("a merge policy is a mapping with 'default' and 'labels'", where)
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
        for label, strategy in labels.items():
            if label not in GUIDELINE_LABELS:
                raise MergePolicyError(
                    f"unknown label {label!r}",
                    where,
                    lines.get(label),
                    hint="labels are the MEDDOCAN labels listed in crfdeid/labels.py",
                )
            if strategy not in STRATEGIES:
                raise MergePolicyError(
                    f"unknown strategy {strategy!r} for {label}; use one of {', '.join(STRATEGIES)}",
                    where,
                    lines.get(label),
                )
        return cls(default, dict(labels))

    def to_dict(self) -> dict[str, Any]:
        return {"default": self.default, "labels": dict(sorted(self.labels.items()))}

    def strategy(self, label: str) -> str:
        return self.labels.get(label, self.default)

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
