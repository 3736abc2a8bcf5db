"""MEDDOCAN metrics, computed exactly as the official IberLEF 2019 scorer computes them.

The official script (``evaluate.py``/``classes.py`` of the MEDDOCAN evaluation kit) scores only
documents present in both the gold and the system folder, and micro-averages over them:

- **ner** (subtrack 1): sets of ``(label, start, end)``; TP = gold ∩ system.
- **spans_strict** (subtrack 2): sets of ``(start, end)``; label ignored.
- **spans_merged** (subtrack 2): spans are first merged, per side and per document, when the text
  between consecutive (sorted) spans has no alphanumeric character. TP is the *union* of the
  strict and the merged intersections, so two adjacent spans that both match add three TPs (two
  strict, one merged): the scorer's quirk, reproduced on purpose. FP and FN are the strict ones
  minus any span contained in a TP span.
- **leak**: false negatives divided by the number of lines of the gold text.

On top of the official figures: token-level P/R/F1 (label-aware, per token of the gold text),
binary token-level P/R/F1 (PHI or not) and a per-label table for subtrack 1.

A discontinuous span (BRAT ``5 9;12 15``, which the official scorer cannot read) counts as its
outer bounds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .tokenize import count_lines, tokenize
from .types import Document

SpanKey = tuple[int, int]
NerKey = tuple[str, int, int]


@dataclass
class Counts:
    """Micro-averaged confusion counts; precision/recall/F1 follow the official definitions."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, tp: int, fp: int, fn: int) -> None:
        self.tp += tp
        self.fp += fp
        self.fn += fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self, lines: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                               "tp": self.tp, "fp": self.fp, "fn": self.fn}
        if lines is not None:
            out["leak"] = self.fn / lines if lines else 0.0
        return out


@dataclass
class Evaluation:
    """Everything ``crfdeid evaluate`` reports."""

    ner: Counts = field(default_factory=Counts)
    spans_strict: Counts = field(default_factory=Counts)
    spans_merged: Counts = field(default_factory=Counts)
    token: Counts = field(default_factory=Counts)
    binary_token: Counts = field(default_factory=Counts)
    per_label: dict[str, Counts] = field(default_factory=dict)
    support: Counter = field(default_factory=Counter)
    lines: int = 0
    scored_ids: list[str] = field(default_factory=list)
    gold_documents: int = 0
    system_documents: int = 0
    missing_from_system: list[str] = field(default_factory=list)
    not_in_gold: list[str] = field(default_factory=list)

    @property
    def leak(self) -> float:
        """Subtrack-1 false negatives per gold line (the headline leak figure)."""
        return self.ner.fn / self.lines if self.lines else 0.0

    def to_dict(self) -> dict[str, Any]:
        per_label = {}
        for label in sorted(set(self.per_label) | set(self.support)):
            counts = self.per_label.get(label, Counts())
            per_label[label] = {**counts.to_dict(), "support": self.support.get(label, 0)}
        return {
            "ner": self.ner.to_dict(self.lines),
            "spans_strict": self.spans_strict.to_dict(self.lines),
            "spans_merged": self.spans_merged.to_dict(self.lines),
            "token": self.token.to_dict(),
            "binary_token": self.binary_token.to_dict(),
            "leak": self.leak,
            "per_label": per_label,
            "documents": {
                "scored": len(self.scored_ids),
                "gold": self.gold_documents,
                "system": self.system_documents,
                "missing_from_system": len(self.missing_from_system),
                "missing_from_system_ids": self.missing_from_system,
                "not_in_gold": len(self.not_in_gold),
                "gold_lines": self.lines,
            },
        }


def _is_all_non_alphanumeric(string: str) -> bool:
    return not any(c.isalnum() for c in string)


def merge_spans(spans: Iterable[SpanKey], text: str) -> list[SpanKey]:
    """The official merge: walk spans in sorted order, join when only non-alphanumerics separate.

    Kept literal, including its edge cases (an overlapping or contained span is "merged" to
    ``(previous_start, this_end)``), because the figures must equal the official ones.
    """
    merged: list[SpanKey] = []
    for y in sorted(spans):
        if not merged:
            merged.append(y)
            continue
        x = merged.pop()
        if _is_all_non_alphanumeric(text[x[1]:y[0]]):
            merged.append((x[0], y[1]))
        else:
            merged.append(x)
            merged.append(y)
    return merged


def _is_contained(content: SpanKey, container: Iterable[SpanKey]) -> bool:
    return any(content[0] >= el[0] and content[1] <= el[1] for el in container)


def _span_keys(doc: Document) -> list[SpanKey]:
    return [(s.start, s.end) for s in doc.spans]


def _ner_keys(doc: Document) -> set[NerKey]:
    return {(s.label, s.start, s.end) for s in doc.spans}


def _token_labels(doc: Document, starts: list[int], ends: list[int]) -> list[str | None]:
    """Label of each token: the first span (in order) that overlaps it, else None."""
    labels: list[str | None] = [None] * len(starts)
    for span in sorted(doc.spans, key=lambda s: (s.start, -s.end)):
        for part_start, part_end in span.parts:
            i = bisect_left(ends, part_start + 1)  # first token ending after the part starts
            while i < len(starts) and starts[i] < part_end:
                if labels[i] is None:
                    labels[i] = span.label
                i += 1
    return labels


def span_counts(gold: Document, system: Document) -> tuple[Counts, Counts, Counts]:
    """One document pair's ner, spans_strict and spans_merged counts (the official subtracks)."""
    # Subtrack 1: NER, label-aware exact match.
    gold_ner, sys_ner = _ner_keys(gold), _ner_keys(system)
    tp_ner = gold_ner & sys_ner
    ner = Counts(len(tp_ner), len(sys_ner - gold_ner), len(gold_ner - sys_ner))

    # Subtrack 2: strict spans.
    gold_list, sys_list = _span_keys(gold), _span_keys(system)
    gold_strict, sys_strict = set(gold_list), set(sys_list)
    tp_strict = gold_strict & sys_strict
    strict = Counts(len(tp_strict), len(sys_strict - gold_strict), len(gold_strict - sys_strict))

    # Subtrack 2: merged spans (each side merged over its own text, as the official scorer does).
    gold_merged = set(merge_spans(gold_list, gold.text))
    sys_merged = set(merge_spans(sys_list, system.text))
    intersection = tp_strict | (gold_merged & sys_merged)
    fp = {t for t in sys_strict - gold_strict if not _is_contained(t, intersection)}
    fn = {t for t in gold_strict - sys_strict if not _is_contained(t, intersection)}
    return ner, strict, Counts(len(intersection), len(fp), len(fn))


def score_document(gold: Document, system: Document, result: Evaluation) -> None:
    """Add one document pair's counts to ``result``."""
    ner, strict, merged = span_counts(gold, system)
    for total, counts in ((result.ner, ner), (result.spans_strict, strict), (result.spans_merged, merged)):
        total.add(counts.tp, counts.fp, counts.fn)
    gold_ner, sys_ner = _ner_keys(gold), _ner_keys(system)
    tp_ner = gold_ner & sys_ner
    for label, *_ in gold_ner:
        result.support[label] += 1
    for key in gold_ner | sys_ner:
        counts = result.per_label.setdefault(key[0], Counts())
        if key in tp_ner:
            counts.tp += 1
        elif key in sys_ner:
            counts.fp += 1
        else:
            counts.fn += 1

    # Token level, on the gold tokenization.
    tokens = tokenize(gold.text)
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]
    gold_labels = _token_labels(gold, starts, ends)
    sys_labels = _token_labels(system, starts, ends)
    for g, s in zip(gold_labels, sys_labels, strict=True):
        if g is not None and s == g:
            result.token.tp += 1
        else:
            if s is not None:
                result.token.fp += 1
            if g is not None:
                result.token.fn += 1
        if g is not None and s is not None:
            result.binary_token.tp += 1
        elif s is not None:
            result.binary_token.fp += 1
        elif g is not None:
            result.binary_token.fn += 1

    result.lines += count_lines(gold.text)
    result.scored_ids.append(gold.id)


def evaluate(gold: Mapping[str, Document], system: Mapping[str, Document]) -> Evaluation:
    """Score every document present in both collections, in sorted id order."""
    result = Evaluation(gold_documents=len(gold), system_documents=len(system))
    result.missing_from_system = sorted(set(gold) - set(system))
    result.not_in_gold = sorted(set(system) - set(gold))
    for doc_id in sorted(set(gold) & set(system)):
        score_document(gold[doc_id], system[doc_id], result)
    return result


def format_table(result: Evaluation, per_label: bool = True) -> str:
    """A human-readable report (figures to 4 decimals, as the official scorer prints them)."""
    report = result.to_dict()
    docs = report["documents"]
    out = [
        f"Documents scored: {docs['scored']} (gold: {docs['gold']}, system: {docs['system']}, "
        f"gold missing from system: {docs['missing_from_system']}, "
        f"system not in gold: {docs['not_in_gold']})",
        "",
        f"{'metric':<15}{'precision':>10}{'recall':>10}{'f1':>10}{'tp':>8}{'fp':>8}{'fn':>8}{'leak':>9}",
    ]
    rows = [("ner", result.ner, True), ("spans_strict", result.spans_strict, True),
            ("spans_merged", result.spans_merged, True), ("token", result.token, False),
            ("binary_token", result.binary_token, False)]
    for name, counts, has_leak in rows:
        leak = f"{counts.fn / result.lines:>9.4f}" if has_leak and result.lines else f"{'':>9}"
        out.append(f"{name:<15}{counts.precision:>10.4f}{counts.recall:>10.4f}{counts.f1:>10.4f}"
                   f"{counts.tp:>8}{counts.fp:>8}{counts.fn:>8}{leak}")
    out.append(f"(leak = false negatives per line of gold text; {result.lines} lines)")
    if per_label:
        out += ["", f"{'label (ner)':<36}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>9}"]
        for label, row in report["per_label"].items():
            out.append(f"{label:<36}{row['precision']:>10.4f}{row['recall']:>10.4f}"
                       f"{row['f1']:>10.4f}{row['support']:>9}")
    if result.missing_from_system:
        missing = result.missing_from_system
        shown = ", ".join(missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        out += ["", f"warning: {len(missing)} gold document(s) have no system "
                    f"output and were not scored: {shown}{more}"]
    return "\n".join(out)
