"""Detection as one stage: the CRF tagger and the YAML rules, merged by a per-label policy.

``load_pipeline()`` is what the CLI and the Python API call: with no arguments it loads the
embedded default Spanish model; ``rules_only=True`` skips the CRF. A ``Pipeline`` is a
``Detector`` (``detect(doc) -> spans``) and also offers ``run(doc)``, which returns the spans
together with the warnings of that document (rule timeouts), so nothing is silently lost.

Detection runs on the document's normalised view (``crfdeid.textview``): the same note with
NBSPs, tabs, CRLF, decomposed accents, direction marks or emoji finds the same PHI. Spans and
timeout ranges are mapped back, so callers only ever see offsets into the original text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .errors import CrfdeidError
from .rules import DEFAULT_TIMEOUT, RuleEngine, RuleTimeout
from .textview import TextView
from .types import Document, Span

if TYPE_CHECKING:
    from .merge import MergePolicy
    from .tagger import CrfTagger


@dataclass(frozen=True)
class Detection:
    """The spans found in one document, and the warnings raised while finding them."""

    document_id: str
    spans: tuple[Span, ...]
    timeouts: tuple[RuleTimeout, ...] = field(default=())


class Pipeline:
    """Rules, then the CRF (fed the rule matches as features), then the merge policy."""

    name = "pipeline"

    def __init__(
        self, rules: RuleEngine | None, tagger: CrfTagger | None = None, policy: MergePolicy | None = None
    ) -> None:
        if rules is None and tagger is None:
            raise ValueError("a pipeline needs the rules, the tagger or both")
        self.rules = rules
        self.tagger = tagger
        if tagger is not None and policy is None:
            from .merge import MergePolicy

            policy = MergePolicy.shipped()
        self.policy = policy

    def run(self, document: Document) -> Detection:
        """Detect PHI in one document: spans sorted by offset, plus the rule timeouts.

        Detection sees the document's normalised view; offsets are the original's."""
        view = TextView(document.text)
        if view.exact:
            return self._run(document)
        found = self._run(view_document(view, document))
        return Detection(
            document.id,
            tuple(view.spans_to_original(found.spans)),
            tuple(map_range_to_original(t, view) for t in found.timeouts),
        )

    def _run(self, document: Document) -> Detection:
        rule_result = self.rules.run(document) if self.rules is not None else None
        rule_spans = rule_result.spans if rule_result is not None else []
        timeouts = tuple(rule_result.timeouts) if rule_result is not None else ()
        if self.tagger is None:
            spans = rule_spans
        else:
            crf_spans = self.tagger.detect(document, rule_matches=rule_result)
            spans = self.policy.merge(crf_spans, rule_spans)
        spans = sorted(spans, key=lambda s: (s.start, s.end, s.label))
        return Detection(document.id, tuple(spans), timeouts)

    def detect(self, document: Document) -> list[Span]:
        return list(self.run(document).spans)


R = TypeVar("R")


def view_document(view: TextView, document: Document) -> Document:
    """The document detection sees: the view's text, no spans, the same id and metadata."""
    if view.identity and not document.spans:
        return document
    return Document(document.id, view.text, (), document.metadata)


def detect_on_view(document: Document, detect: Callable[[Document], Iterable[Span]]) -> list[Span]:
    """Any detector run on the document's view, its spans at the original's offsets (sorted)."""
    view = TextView(document.text)
    if view.exact:
        return sorted(detect(document), key=lambda s: (s.start, s.end, s.label))
    return view.spans_to_original(detect(view_document(view, document)))


def map_range_to_original(item: R, view: TextView) -> R:
    """A record found on the view (a rule timeout, say) with its ``start``/``end`` range, if it
    carries one, moved to the original's offsets; records without a range pass unchanged."""
    start, end = getattr(item, "start", None), getattr(item, "end", None)
    if not dataclasses.is_dataclass(item) or not isinstance(start, int) or not isinstance(end, int):
        return item
    if 0 <= start < end <= len(view.text):
        start, end = view.to_original(start, end)
    else:
        start = end = view.original_offset(min(max(start, 0), len(view.text)))
    return dataclasses.replace(item, start=start, end=end)


def load_pipeline(
    model: str | Path | None = None,
    *,
    rules: str | Path = "es",
    rules_only: bool = False,
    timeout: float | None = None,
    policy: str | Path | None = None,
    threshold: float | None = None,
) -> Pipeline:
    """Build the detection pipeline the CLI and the API use.

    ``model`` is a model folder (``crfdeid train -o``); None means the embedded default.
    ``rules`` is a rule pack (language code, folder or .yaml file). ``policy`` is a merge-policy
    YAML (None: the one recorded with the model, else the shipped default). ``threshold`` is the
    operating point: a token is PHI when P(O) falls below it (None: the model's own Viterbi path).
    """
    if timeout is not None and not timeout > 0:
        raise CrfdeidError(f"--timeout must be a positive number of seconds, got {timeout}")
    engine = RuleEngine.from_pack(rules, timeout=timeout or DEFAULT_TIMEOUT)
    if rules_only:
        return Pipeline(engine)
    from .merge import MergePolicy
    from .tagger import CrfTagger

    tagger = CrfTagger.load(model) if model is not None else CrfTagger.load_default()
    if threshold is not None:
        tagger.threshold = threshold
    merge = MergePolicy.load(policy) if policy is not None else tagger.merge_policy()
    pipeline = Pipeline(engine, tagger, merge)
    # Build the feature extractor now (packs, lexicon, pack fingerprint checks): a stale or
    # broken model fails here, before any output is written, and timings exclude loading.
    pipeline.run(Document("warm-up", "Nombre: Ana.\n"))
    return pipeline
