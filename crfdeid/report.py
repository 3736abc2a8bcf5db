"""The per-run HTML report of ``crfdeid deidentify --report FILE``: what a privacy officer reads.

One self-contained file (inline CSS and a few lines of JS, no external asset: hospital machines
have no internet) with the run's totals per label and strategy, the spans the model was least
sure of (linking to their note), the rule timeouts, leftovers, held-back and failed notes, and
every note with its spans highlighted — the de-identified text, the original, or both side by
side, behind a toggle. Notes are collapsed until opened, so a run of 1,000 notes stays usable.

It is built from what the batch commits — the audit records (``audit.jsonl``'s span and leftover
lines, parsed back, not recomputed), the hold reasons, the failure records — and the texts, which
``Processed.view`` carries only when a report is asked for. It never changes another output.

**It holds PHI**: the original notes (and, in tooltips, each span's original). It is written 0600,
atomically (a temporary file beside it, then a rename), and never inside OUT_DIR. With
``originals=False`` (``--report-no-originals``) it shows only the de-identified view and labels,
and not even the de-identified text of a held-back note (held because it may still hold PHI): a
report that can circulate like the released notes.

Memory stays flat: each note is rendered as it is committed and set aside in a temporary file;
only the totals, the lowest-scored spans (a bounded heap) and the problems are kept.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from .errors import OutputError
from .render import NOTE_CSS, environment, highlights_from_audit, label_css, render_note

#: How many of the lowest-scored spans the report lists.
LOWEST = 100
#: A span scored below this is marked in the notes (a dashed outline) and counted per note.
LOW_SCORE = 0.9
#: Problems listed in full up to this many per kind (the rest are counted; each note says its own).
LISTED = 500


@dataclass(order=True)
class _Low:
    """One of the lowest-scored spans (ordered by score, then input order, for the heap)."""

    key: tuple[float, int, int]
    note: int = field(compare=False)
    name: str = field(compare=False)
    anchor: str = field(compare=False)
    label: str = field(compare=False)
    source: str = field(compare=False)
    strategy: str = field(compare=False)
    original: str | None = field(compare=False)
    replaced: str | None = field(compare=False)


class RunReport:
    """Collects a batch's committed notes and writes the report at the end (see the module)."""

    def __init__(self, path: str | Path, *, originals: bool = True, lowest: int = LOWEST) -> None:
        self.path = Path(path)
        self.originals = originals
        self.lowest = lowest
        self.started = time.strftime("%Y-%m-%d %H:%M:%S")
        self.labels: Counter = Counter()  # (label, strategy) -> spans
        self.sources: Counter = Counter()
        self.statuses: Counter = Counter()
        self.low: list[_Low] = []  # a max-heap by negated key: the `lowest` smallest scores
        self.held: list[dict[str, Any]] = []
        self.timeouts: list[dict[str, Any]] = []
        self.leftovers: list[dict[str, Any]] = []
        self.failures: list[dict[str, Any]] = []
        self.counts: Counter = Counter()  # per kind of problem, listed or not
        self.notes = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".notes.tmp",
                                        dir=self.path.parent)
        except OSError as exc:
            raise OutputError(f"cannot write the report: {exc.strerror or exc}", self.path) from None
        self._fragments_path = Path(name)
        self._fragments = os.fdopen(fd, "w", encoding="utf-8")  # mkstemp: 0600

    # -- collecting ------------------------------------------------------------------------
    def add(self, note: Any, processed: Any) -> None:
        """One committed note (``batch.Note``, ``batch.Processed``)."""
        index = self.notes
        self.notes += 1
        self.statuses[processed.status] += 1
        records = [json.loads(line) for line in processed.audit]
        view = processed.view or {}
        original, deidentified = view.get("original"), view.get("deidentified")
        prefix = f"n{index}"
        low_in_note = 0
        for i, record in enumerate(records):
            if record.get("record") == "leftover":
                self._listed("leftovers", {"note": index, "name": note.name, "label": record["label"],
                                           "at": [record["new_start"], record["new_end"]],
                                           "anchor": f"{prefix}-l{i}"})
                continue
            self.labels[(record["label"], record["strategy"])] += 1
            self.sources[_source_kind(record["source"])] += 1
            score = record.get("score")
            if isinstance(score, (int, float)) and record["strategy"] != "overlap":
                low_in_note += score < LOW_SCORE
                self._keep_low(index, note.name, i, record, score, original, deidentified)
        for reason in processed.reasons:
            if reason.get("kind") == "rule-timeout":
                self._listed("timeouts", {"note": index, "name": note.name, "rules": reason.get("rules", []),
                                          "ranges": reason.get("ranges", [])})
        if processed.reasons:
            self._listed("held", {"note": index, "name": note.name, "status": processed.status,
                                  "reasons": processed.reasons})
        if processed.failure is not None:
            self._listed("failures", {"note": index, "name": note.name, **processed.failure})
        views = {}
        if original is not None:
            views["original"] = render_note(original, highlights_from_audit(
                records, "original", prefix=prefix, low=LOW_SCORE), css_class="orig")
        if deidentified is not None:
            views["deidentified"] = render_note(deidentified, highlights_from_audit(
                records, "deidentified", prefix=prefix, low=LOW_SCORE, original=original), css_class="deid")
        fragment = environment().get_template("report_note.html.j2").render(
            index=index, name=note.name, status=processed.status, spans=processed.spans, low=low_in_note,
            reasons=processed.reasons, failure=processed.failure, views=views, originals=self.originals)
        self._fragments.write(json.dumps(fragment, ensure_ascii=False) + "\n")

    def _listed(self, kind: str, item: dict[str, Any]) -> None:
        self.counts[kind] += 1
        listed = getattr(self, kind)
        if len(listed) < LISTED:
            listed.append(item)

    def _keep_low(self, index: int, name: str, i: int, record: dict[str, Any], score: float,
                  original: str | None, deidentified: str | None) -> None:
        key = (score, index, i)
        if len(self.low) >= self.lowest and key >= _neg(self.low[0].key):
            return
        text = original[record["start"]:record["end"]] if original is not None else None
        replaced = (deidentified[record["new_start"]:record["new_end"]]
                    if deidentified is not None and record["new_start"] >= 0 else record.get("surrogate"))
        view = "d" if deidentified is not None else "o"
        item = _Low(_neg(key), index, name, f"n{index}-{view}{i}", record["label"], record["source"],
                    record["strategy"], text, replaced)
        if len(self.low) >= self.lowest:
            heapq.heapreplace(self.low, item)
        else:
            heapq.heappush(self.low, item)

    # -- writing ---------------------------------------------------------------------------
    def finish(self, summary: Any, run: dict[str, Any]) -> None:
        """Write the report (0600, atomically) from what was collected; ``summary`` is the
        batch's ``BatchSummary``, ``run`` the audit's run record (never a key or a seed)."""
        self._fragments.close()
        lowest = sorted(self.low, key=lambda item: _neg(item.key))
        labels = sorted({label for label, _ in self.labels})
        strategies = sorted({strategy for _, strategy in self.labels})
        per_label = [(label, [self.labels[(label, s)] for s in strategies],
                      sum(self.labels[(label, s)] for s in strategies)) for label in labels]
        context = {
            "css": Markup(NOTE_CSS), "label_css": label_css(labels), "originals": self.originals,
            "summary": summary, "run": run, "started": self.started,
            "finished": time.strftime("%Y-%m-%d %H:%M:%S"), "notes_in_report": self.notes,
            "statuses": self.statuses, "strategies": strategies, "per_label": per_label,
            "strategy_totals": [sum(self.labels[(label, s)] for label in labels) for s in strategies],
            "sources": sorted(self.sources.items(), key=lambda kv: -kv[1]), "lowest": lowest,
            "low_score": LOW_SCORE, "held": self.held, "timeouts": self.timeouts, "leftovers": self.leftovers,
            "failures": self.failures, "counts": self.counts, "listed": LISTED,
            "notes": self._read_fragments(),
        }
        template = environment().get_template("report.html.j2")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write the report: {exc.strerror or exc}", self.path) from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:  # mkstemp: 0600, before any content
                for chunk in template.generate(**context):
                    handle.write(chunk)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise OutputError(f"cannot write the report: {exc.strerror or exc}", self.path) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        finally:
            self.discard()

    def _read_fragments(self) -> Iterator[Markup]:
        with open(self._fragments_path, encoding="utf-8") as handle:
            for line in handle:
                yield Markup(json.loads(line))  # rendered by our own autoescaped template

    def discard(self) -> None:
        """Remove the temporary file of the notes (it holds PHI)."""
        with contextlib.suppress(OSError):
            self._fragments.close()
        with contextlib.suppress(OSError):
            self._fragments_path.unlink()


def _neg(key: tuple[float, int, int]) -> tuple[float, int, int]:
    return (-key[0], -key[1], -key[2])


def _source_kind(source: str) -> str:
    return source.split(":", 1)[0]
