"""Operating points: which tokens the CRF's best path tags ``O`` are still reported as PHI.

The best (Viterbi) path is the F1-optimal point, what ``annotate`` reports. De-identification
wants recall first: an operating point also reports a token the path tags ``O`` when its P(O)
falls below a threshold — one for every label (``threshold``) or one per label (``labels``,
keyed by the label of the token's most probable non-O tag; a label not listed takes
``threshold``) — and says how those tokens become spans (``spans``):

- ``tags``: the token takes its most probable non-O tag, B- or I-, so it may extend the span
  beside it (what ``--threshold`` does);
- ``separate``: a run of such tokens is a span of its own, never glued onto a span of the best
  path: a wrong guess adds one false positive instead of breaking a right span's boundaries. A
  token without a letter or digit (a comma, a dash) is never a span of its own.

A model records the point ``deidentify`` uses (``model.json``: ``operating_points``), chosen by
``search`` on out-of-fold predictions: the highest spans_merged recall whose precision stays at
or above a floor. Every point is scored from one tagging pass of each note (``Candidates``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .errors import CrfdeidError
from .evaluate import Counts, span_counts
from .tokenize import count_lines
from .types import Document, Span

VITERBI = "viterbi"
DEIDENTIFY = "deidentify"
#: The points ``--operating-point`` names: the best path, or the one recorded for deidentify.
POINT_NAMES = (VITERBI, DEIDENTIFY)
SPAN_MODES = ("tags", "separate")
#: The P(O) thresholds a search tries; the largest bounds what a tagging pass keeps.
LEVELS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99, 0.995)
#: The spans_merged precision a deidentify point must keep (the issue's floor).
MIN_PRECISION = 0.97
_KEYS = {"threshold", "labels", "spans", "chosen_by"}


class OperatingPointError(CrfdeidError):
    """An operating point is invalid, or a model cannot give the one asked for."""


def _probability(value: Any, what: str, where: str | Path) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value <= 1.0:
        raise OperatingPointError(f"{what} must be a probability in (0, 1], got {value!r}", where)
    return float(value)


@dataclass(frozen=True)
class OperatingPoint:
    """P(O) thresholds (all labels, or per label) and how the tokens they add become spans."""

    threshold: float | None = None
    labels: Mapping[str, float] = field(default_factory=dict)
    spans: str = "tags"
    #: How the point was chosen (search settings and cross-validated figures), for the record.
    chosen_by: Mapping[str, Any] = field(default_factory=dict, compare=False)
    _limits: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.spans not in SPAN_MODES:
            raise OperatingPointError(f"unknown span mode {self.spans!r}; use one of {', '.join(SPAN_MODES)}")

    @classmethod
    def global_threshold(cls, threshold: float) -> OperatingPoint:
        """``--threshold P``: every label at P, tokens take their best tag (as before points)."""
        return cls(threshold=_probability(threshold, "--threshold", "<command line>"))

    @classmethod
    def from_dict(cls, data: Any, where: str | Path = "<operating point>") -> OperatingPoint:
        if not isinstance(data, Mapping) or set(data) - _KEYS:
            unknown = sorted(set(data) - _KEYS) if isinstance(data, Mapping) else []
            raise OperatingPointError(
                "an operating point is a mapping with 'threshold', 'labels', 'spans' and 'chosen_by'"
                + (f" (unknown: {', '.join(unknown)})" if unknown else ""), where)
        threshold = data.get("threshold")
        if threshold is not None:
            threshold = _probability(threshold, "'threshold'", where)
        labels = data.get("labels") or {}
        if not isinstance(labels, Mapping) or not all(isinstance(k, str) and k for k in labels):
            raise OperatingPointError("'labels' maps a label to a probability", where)
        labels = {k: _probability(v, f"the threshold of {k}", where) for k, v in sorted(labels.items())}
        chosen_by = data.get("chosen_by") or {}
        if not isinstance(chosen_by, Mapping):
            raise OperatingPointError("'chosen_by' is a mapping", where)
        return cls(threshold, labels, data.get("spans", "tags"), dict(chosen_by))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"threshold": self.threshold, "labels": dict(sorted(self.labels.items())),
                               "spans": self.spans}
        if self.chosen_by:
            out["chosen_by"] = dict(self.chosen_by)
        return out

    def describe(self) -> str:
        """One line for people: ``P(O) < 0.96, separate spans``."""
        parts = []
        if self.labels:
            low, high = min(self.labels.values()), max(self.labels.values())
            span = f"{low:g}" if low == high else f"{low:g}-{high:g}"
            parts.append(f"P(O) < {span} for {len(self.labels)} label(s)")
            parts.append("the others " + (f"< {self.threshold:g}" if self.threshold else "on the best path"))
        elif self.threshold is not None:
            parts.append(f"P(O) < {self.threshold:g}")
        else:
            parts.append("the best path")
        return ", ".join(parts) + f", {self.spans} spans"

    @property
    def highest(self) -> float:
        """The highest of its thresholds (0 when it has none)."""
        return max([self.threshold or 0.0, *self.labels.values()])

    def limit(self, label: str) -> float | None:
        """The P(O) below which a token whose best non-O tag has ``label`` is PHI (None: never)."""
        return self.labels.get(label, self.threshold)

    def limits(self, tags: Sequence[str]) -> np.ndarray:
        """Per tag id: the P(O) below which a token whose best non-O tag is that tag is PHI
        (-1 for ``O`` and for labels the point never adds)."""
        key = tuple(tags)
        cached = self._limits.get(key)
        if cached is None:
            values = []
            for tag in key:
                limit = self.limit(tag[2:]) if tag != "O" and len(tag) > 2 else None
                values.append(-1.0 if limit is None else limit)
            cached = self._limits[key] = np.array(values)
        return cached

    def check_labels(self, known: Iterable[str], where: str | Path) -> None:
        unknown = sorted(set(self.labels) - set(known))
        if unknown:
            raise OperatingPointError(
                f"the operating point names label(s) the model does not have: {', '.join(unknown)}", where)

    def adds(self, label: str, p_o: float, text: str) -> bool:
        """Whether a token the best path tags O, whose best non-O tag has ``label``, is PHI here."""
        limit = self.limit(label)
        return limit is not None and p_o < limit and (self.spans != "separate" or _has_word(text))

    def apply(
        self, tags: Sequence[str], tag: np.ndarray, p_tag: np.ndarray, p_o: np.ndarray,
        best: np.ndarray, p_best: np.ndarray, tokens: Sequence[Any],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The decoder's arrays for ``tokens`` at this point: (tag ids, their marginals, the
        tokens that are spans of their own — None unless ``spans`` is ``separate``)."""
        if "O" not in tags:
            return tag, p_tag, None
        low = (tag == tags.index("O")) & (p_o < self.limits(tags)[best])
        if self.spans == "separate":
            for i in np.flatnonzero(low).tolist():
                if not _has_word(tokens[i].text):
                    low[i] = False
        if not low.any():
            return tag, p_tag, None
        return (np.where(low, best, tag), np.where(low, p_best, p_tag),
                low if self.spans == "separate" else None)


def _has_word(text: str) -> bool:
    return any(c.isalnum() for c in text)


def recorded_points(
    metadata: Mapping[str, Any], where: str | Path = "model.json"
) -> dict[str, OperatingPoint]:
    """The operating points a model records by name (``operating_points`` in model.json)."""
    recorded = metadata.get("operating_points") or {}
    if not isinstance(recorded, Mapping):
        raise OperatingPointError("'operating_points' maps a name to an operating point", where)
    out = {}
    for name, data in recorded.items():
        if name != DEIDENTIFY:
            raise OperatingPointError(f"unknown operating point {name!r}; a model records {DEIDENTIFY!r}",
                                      where)
        point = OperatingPoint.from_dict(data, where)
        point.check_labels(metadata.get("labels", ()), where)
        out[name] = point
    return out


@dataclass(frozen=True)
class Chosen:
    """The operating point a run uses, and what to call it in its records."""

    name: str
    point: OperatingPoint | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **(self.point.to_dict() if self.point is not None else {})}

    def describe(self) -> str:
        return f"{self.name} ({self.point.describe() if self.point is not None else 'the best path'})"


def choose_point(
    metadata: Mapping[str, Any], name: str | None = None, threshold: float | None = None,
    default: str = VITERBI, warn: Callable[[str], None] | None = None, where: str | Path = "model.json",
) -> Chosen:
    """The point a run uses: ``--threshold`` if given, else ``--operating-point`` (else the
    command's ``default``). A model that records no ``deidentify`` point runs its best path
    (``warn`` is told when that point was asked for by name)."""
    if threshold is not None:
        if name is not None:
            raise OperatingPointError("give --threshold or --operating-point, not both")
        return Chosen(f"threshold {threshold:g}", OperatingPoint.global_threshold(threshold))
    name = name or default
    if name not in POINT_NAMES:
        raise OperatingPointError(f"unknown operating point {name!r}; use one of {', '.join(POINT_NAMES)}")
    if name == VITERBI:
        return Chosen(VITERBI, None)
    point = recorded_points(metadata, where).get(name)
    if point is None:
        if warn is not None and default != name:
            warn(f"the model records no {name!r} operating point (train it with --search-point or "
                 f"--deidentify-point); using its best path")
        return Chosen(VITERBI, None)
    return Chosen(name, point)


# ---------------------------------------------------------------------------------------------
# Choosing a point by cross-validation


class Candidates(Protocol):
    """One note tagged once (``crfdeid.pipeline.NoteCandidates``): what a search needs of it."""

    document_id: str

    def promotable(self) -> list[tuple[str, float]]:
        """(label of the best non-O tag, P(O)) of every token the best path tags O that a
        point of the search could report."""

    def spans(self, point: OperatingPoint | None) -> list[Span]:
        """The pipeline's spans of the note at ``point`` (at the original's offsets)."""


@dataclass
class _Score:
    """spans_merged and ner counts of a set of notes, and their gold lines."""

    merged: Counts = field(default_factory=Counts)
    ner: Counts = field(default_factory=Counts)
    lines: int = 0

    def add(self, other: _Score, sign: int = 1) -> None:
        for mine, theirs in ((self.merged, other.merged), (self.ner, other.ner)):
            mine.add(sign * theirs.tp, sign * theirs.fp, sign * theirs.fn)
        self.lines += sign * other.lines

    def copy(self) -> _Score:
        out = _Score()
        out.add(self)
        return out

    def row(self) -> dict[str, float]:
        return {
            "precision": self.merged.precision,
            "recall": self.merged.recall,
            "ner_f1": self.ner.f1,
            "leak": self.ner.fn / self.lines if self.lines else 0.0,
        }


class _Scorer:
    """Scores points note by note, so that a change of one label's threshold rescores only the
    notes holding a token of that label whose P(O) the change crosses."""

    def __init__(self, notes: Sequence[Candidates], gold: Mapping[str, Document]) -> None:
        self.notes = list(notes)
        self.gold = [gold[n.document_id] for n in self.notes]
        self.lines = [count_lines(g.text) for g in self.gold]
        #: per label: P(O) values of its promotable tokens, sorted, and the note of each
        self.by_label: dict[str, tuple[list[float], list[int]]] = {}
        pairs: dict[str, list[tuple[float, int]]] = {}
        for k, note in enumerate(self.notes):
            for label, p_o in note.promotable():
                pairs.setdefault(label, []).append((p_o, k))
        for label, values in pairs.items():
            values.sort()
            self.by_label[label] = ([p for p, _ in values], [k for _, k in values])

    def note(self, k: int, point: OperatingPoint | None) -> _Score:
        gold = self.gold[k]
        ner, _, merged = span_counts(gold, gold.with_spans(self.notes[k].spans(point)))
        return _Score(merged, ner, self.lines[k])

    def all(self, point: OperatingPoint | None) -> tuple[_Score, list[_Score]]:
        scores = [self.note(k, point) for k in range(len(self.notes))]
        total = _Score()
        for s in scores:
            total.add(s)
        return total, scores

    def touched(self, label: str, low: float, high: float) -> tuple[int, set[int]]:
        """How many tokens of ``label`` have a P(O) in [low, high), and their notes."""
        values, notes = self.by_label.get(label, ([], []))
        first, last = bisect_left(values, low), bisect_left(values, high)
        return last - first, set(notes[first:last])


@dataclass
class PointSearch:
    """The points tried, their cross-validated figures, and the one chosen."""

    floor: float
    rows: list[dict[str, Any]]
    chosen: OperatingPoint | None
    chosen_row: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "min_precision": self.floor,
            "rows": self.rows,
            "chosen": self.chosen.to_dict() if self.chosen is not None else None,
        }


def _row(family: str, point: OperatingPoint | None, score: _Score) -> dict[str, Any]:
    return {"family": family, "point": point.to_dict() if point is not None else None,
            "describe": point.describe() if point is not None else VITERBI, **score.row()}


def search(
    notes: Sequence[Candidates], gold: Mapping[str, Document], floor: float = MIN_PRECISION,
    levels: Sequence[float] = LEVELS, per_label: bool = False, progress: Callable[[str], None] | None = None,
) -> PointSearch:
    """Choose the point of highest spans_merged recall with precision >= ``floor``.

    Tried: the best path, and one threshold for every label, the tokens it adds taking their
    tags or as separate spans. With ``per_label``, also per-label thresholds (separate spans)
    grown greedily from the best path — each step raises the one label's threshold that buys the
    most recall per point of precision lost, while precision stays at or above the floor. On
    MEDDOCAN they did not carry over to unseen notes (chosen by CV on train, they scored below
    the one threshold on dev: README), hence not by default. Returns every row tried."""
    scorer = _Scorer(notes, gold)
    say = progress or (lambda line: None)
    viterbi, _ = scorer.all(None)
    rows = [_row(VITERBI, None, viterbi)]
    candidates: list[tuple[dict[str, Any], OperatingPoint | None]] = [(rows[0], None)]
    for spans in SPAN_MODES:
        for level in levels:
            point = OperatingPoint(threshold=level, spans=spans)
            total, _ = scorer.all(point)
            rows.append(_row(f"global-{spans}", point, total))
            candidates.append((rows[-1], point))
        say(f"global thresholds, {spans} spans: done")
    if per_label:
        grown, total, path = _greedy(scorer, floor, levels, say)
        rows.extend(path)
        if grown is not None:
            rows.append(_row("per-label", grown, total))
            candidates.append((rows[-1], grown))
    allowed = [(row, point) for row, point in candidates if row["precision"] >= floor]
    if not allowed:
        return PointSearch(floor, rows, None, None)
    # the highest recall; at equal recall the simpler point (max keeps the first, listed first)
    row, point = max(allowed, key=lambda rp: round(rp[0]["recall"], 6))
    if point is not None:
        point = OperatingPoint(point.threshold, point.labels, point.spans, {
            "min_precision": floor, "family": row["family"],
            "spans_merged": {"precision": round(row["precision"], 4), "recall": round(row["recall"], 4)},
            "ner_f1": round(row["ner_f1"], 4), "leak": round(row["leak"], 4), "documents": len(scorer.notes),
        })
    row["chosen"] = True
    return PointSearch(floor, rows, point, row)


def _greedy(
    scorer: _Scorer, floor: float, levels: Sequence[float], say: Callable[[str], None]
) -> tuple[OperatingPoint | None, _Score, list[dict[str, Any]]]:
    thresholds: dict[str, float] = {}
    total, notes = scorer.all(OperatingPoint(labels={}, spans="separate"))
    path: list[dict[str, Any]] = []
    while True:
        best: tuple[tuple[bool, float], str, float, _Score, dict[int, _Score]] | None = None
        for label in sorted(scorer.by_label):
            low = thresholds.get(label, 0.0)
            seen = 0
            for level in levels:
                if level <= low:
                    continue
                count, touched = scorer.touched(label, low, level)
                if count == seen:  # no token more than at the level below: the same point
                    continue
                seen = count
                point = OperatingPoint(labels={**thresholds, label: level}, spans="separate")
                trial, changed = total.copy(), {}
                for k in touched:
                    changed[k] = scorer.note(k, point)
                    trial.add(notes[k], -1)
                    trial.add(changed[k])
                gain = trial.merged.recall - total.merged.recall
                cost = total.merged.precision - trial.merged.precision
                if gain <= 0 or trial.merged.precision < floor:
                    continue
                key = (cost <= 0, gain if cost <= 0 else gain / cost)
                if best is None or key > best[0]:
                    best = (key, label, level, trial, changed)
        if best is None:
            break
        _, label, level, total, changed = best
        thresholds[label] = level
        for k, score in changed.items():
            notes[k] = score
        point = OperatingPoint(labels=dict(thresholds), spans="separate")
        path.append({**_row("per-label step", point, total), "step": f"{label} < {level:g}"})
        say(f"per-label: {label} < {level:g}: precision {total.merged.precision:.4f}, "
            f"recall {total.merged.recall:.4f}")
    if not thresholds:
        return None, total, path
    return OperatingPoint(labels=dict(thresholds), spans="separate"), total, path


def format_search(result: PointSearch) -> str:
    """The table of points tried (the per-label path abridged) and the chosen one, for people."""
    rows = [row for row in result.rows if row["family"] != "per-label step"]
    width = max(len(row["describe"]) for row in rows)
    lines = [f"operating point search (spans_merged precision >= {result.floor:g}):",
             f"  {'point':<{width}} {'merged P':>8} {'merged R':>8} {'ner F1':>7} {'leak':>7}"]
    for row in rows:
        mark = "  <- chosen" if row.get("chosen") else ""
        lines.append(f"  {row['describe']:<{width}} {row['precision']:8.4f} {row['recall']:8.4f} "
                     f"{row['ner_f1']:7.4f} {row['leak']:7.4f}{mark}")
    if result.chosen is None:
        lines.append(f"no point keeps precision >= {result.floor:g}: none chosen")
    elif result.chosen.labels:
        lines.append("  per-label thresholds: " + ", ".join(
            f"{label} {value:g}" for label, value in sorted(result.chosen.labels.items())))
    return "\n".join(lines)


def read_point_source(source: str, where: str = "--deidentify-point") -> OperatingPoint:
    """A point to record in a model: a probability (every label, separate spans), or a JSON
    file — the report of ``crfdeid cv --search-point -o FILE`` (its chosen point) or a point."""
    import json

    try:
        value = float(source)
    except ValueError:
        value = math.nan
    if not math.isnan(value):
        return OperatingPoint(threshold=_probability(value, where, "<command line>"), spans="separate")
    path = Path(source)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OperatingPointError(f"cannot read {where}: {exc.strerror or exc}", path) from None
    except ValueError as exc:
        raise OperatingPointError(f"not JSON: {exc}", path) from None
    if isinstance(data, Mapping) and "point_search" in data:
        chosen = (data["point_search"] or {}).get("chosen")
        if chosen is None:
            raise OperatingPointError("the cross-validation chose no point (none kept the precision floor)",
                                      path)
        return with_cv_record(OperatingPoint.from_dict(chosen, path), data.get("config") or {})
    return OperatingPoint.from_dict(data, path)


def with_cv_record(point: OperatingPoint, config: Mapping[str, Any]) -> OperatingPoint:
    """The point with the cross-validation that chose it (folds, seed, corpus fingerprint, the
    models' min_freq and case variants: a cross-validation report's ``config``) added to its
    record."""
    extra = {k: config[k] for k in ("folds", "seed", "corpus_fingerprint", "min_freq", "case_variants")
             if k in config}
    return OperatingPoint(point.threshold, point.labels, point.spans, {**point.chosen_by, **extra})
