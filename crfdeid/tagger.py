"""The CRF tagger: a crfsuite model file plus JSON metadata, and the Detector that runs it.

A model folder holds exactly two files, neither of them a pickle:

- ``model.crfsuite``: crfsuite's own binary model (weights, labels, attributes);
- ``model.json``: everything needed to rebuild the feature extractor the model was trained with
  (feature set, skeleton vocabulary, linguistic annotator, gazetteer and rule pack fingerprints),
  plus the training record (corpus fingerprint, c1/c2, iterations, CV figures) and the merge
  policy chosen for it. A model refuses to load if its packs changed since training: the features
  it would see are no longer the ones it learned from.

Inference runs the model compiled into arrays (``crfdeid.scorer``: the same Viterbi tags and
marginals as crfsuite, several times faster); ``scorer="crfsuite"`` runs python-crfsuite's
``Tagger`` instead, the reference path. Each output span carries a score: the mean marginal
probability of its tags. At an operating ``point`` (``crfdeid.operating``) a token the Viterbi
path calls ``O`` is still reported as PHI when P(O) falls below the point's threshold for its
best non-O label: lower precision, higher recall. ``decode`` keeps a note's tagging so that its
spans at any point follow without tagging it again (``Decoded.spans``).

A note of any size is tagged in bounded memory: ``detect`` streams it in blocks of whole lines
(``FeatureExtractor.blocks``: the features are exactly those of the whole note), and a line
longer than ``window`` tokens is tagged in overlapping windows whose outer ``margin`` tokens on
each side are scored but not kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .errors import CrfdeidError
from .features import BLOCK_CHARS, LONG_LINE_STRETCH, Columns, FeatureExtractor, FeatureSet
from .gazetteer import GazetteerMatcher
from .heap import collector_paused
from .linguistic import make_annotator
from .operating import LEVELS, OperatingPoint
from .packs import PackChoice, model_choice
from .rules import RuleEngine
from .rules.engine import RuleResult
from .rules.model import RuleMatch
from .schemes import DEFAULT_SCHEME, Scheme, load_scheme
from .scorer import CompiledCrf, Encoder
from .tokenize import tokenize
from .types import Document, Span, Token

MODEL_FILE = "model.crfsuite"
META_FILE = "model.json"
FORMAT = "crfdeid-crf-model"
FORMAT_VERSION = 1
_PACKAGE_DIR = Path(__file__).resolve().parent
#: The embedded default model (trained on MEDDOCAN train+dev by benchmarks/build_model.py).
DEFAULT_MODEL_DIR = _PACKAGE_DIR / "models" / "es"
SCORERS = ("compiled", "crfsuite")
#: Longest run of tokens tagged as one sequence; a longer line is cut into windows this long…
WINDOW = 2000
#: …plus this many tokens of context on each side, scored but not kept. The CRF's reach is a
#: few tokens: on MEDDOCAN lines joined into one, 100 tokens of margin change no tag.
MARGIN = 100
#: Tokens and sequences decoded together: the decoder's arrays grow with them (its Viterbi
#: grid is sequences x labels x labels), its per-step cost shrinks.
BATCH = 16_384
BATCH_SEQUENCES = 512
#: Per token: Viterbi label id, its marginal, P(O), the best non-O label id and its marginal.
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class ModelError(CrfdeidError):
    """A model folder cannot be used (missing, unreadable, corrupt, stale or from elsewhere)."""


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def rules_fingerprint(engine: RuleEngine) -> str:
    """What the rule features depend on: every rule's id, label, family, pattern and checks."""
    digest = hashlib.sha256()
    for rule in engine.rules:
        if not rule.feature:
            continue  # spans only: no feature of the model depends on it
        parts = (
            rule.id,
            rule.label,
            rule.family,
            rule.pattern,
            str(rule.priority),
            ",".join(rule.flags),
            repr(rule.context),
            str(rule.validator),
        )
        digest.update("\x1f".join(parts).encode("utf-8") + b"\x1e")
    return digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class TokenTag:
    """One token's tag (Viterbi, or its best non-O tag at an operating point), the tag's marginal
    probability, P(O), and whether the point made it a span of its own (``separate`` spans)."""

    tag: str
    probability: float
    p_outside: float
    separate: bool = False


#: The most characters between two tokens of one span: a wider gap parts two things ("Juan García
#: <40 spaces> Sevilla" had been one name, and a name across 8,000 spaces made the steps after the
#: tagger quadratic). MEDDOCAN's gold spans have two spaces at most inside them, but a form's
#: narrower column gaps are left to the steps that read forms: split there, a span left its
#: field's name a span of its own ("Antonio Jesús      Alias:" gave "Alias", the fifth set).
COLUMN_GAP = 32


class SpanBuilder:
    """B/I/E/S tags to spans, fed a block of tokens at a time (a span may run across blocks).

    Tolerant: an I- or E- without a matching start opens a span, a change of label closes one,
    and so does a gap wider than ``COLUMN_GAP`` between two tokens. Span score = mean of its
    tokens' scores. Tokens flagged ``separate`` (an operating point's own finds) never share a
    span with tokens that are not: a change of flag closes one too.
    """

    def __init__(self, source: str = "crf") -> None:
        self.source = source
        self._open: list[tuple[Token, float | None]] = []
        self._label = ""
        self._separate = False

    def _close(self, out: list[Span]) -> None:
        if not self._open:
            return
        score = None
        if self._open[0][1] is not None:
            window = [s for _, s in self._open]
            score = min(1.0, max(0.0, sum(window) / len(window)))  # type: ignore[arg-type]
        out.append(Span(self._open[0][0].start, self._open[-1][0].end, self._label, self.source, score))
        self._open = []

    def feed(
        self, tokens: Sequence[Token], tags: Sequence[str], scores: Sequence[float] | None = None,
        separate: Sequence[bool] | None = None,
    ) -> list[Span]:
        """The spans completed by these tokens."""
        out: list[Span] = []
        for i, tag in enumerate(tags):
            score = None if scores is None else scores[i]
            if tag == "O" or len(tag) < 3:
                self._close(out)
                continue
            self._add(out, tokens[i], tag, score, bool(separate[i]) if separate is not None else False)
        return out

    def _add(self, out: list[Span], token: Token, tag: str, score: float | None, separate: bool) -> None:
        prefix, lab = tag[0], tag[2:]
        if (prefix in "BS" or not self._open or lab != self._label or separate != self._separate
                or token.start - self._open[-1][0].end > COLUMN_GAP):
            self._close(out)
            self._label, self._separate = lab, separate
        self._open.append((token, score))
        if prefix in "ES":
            self._close(out)

    def feed_ids(
        self,
        tokens: Sequence[Token],
        tags: np.ndarray,
        scores: np.ndarray,
        labels: Sequence[str],
        outside: int,
        separate: np.ndarray | None = None,
    ) -> list[Span]:
        """``feed`` for label ids, visiting only the tokens not tagged ``outside`` (most are)."""
        out: list[Span] = []
        previous = -1
        scores_list = scores.tolist()
        flags = separate.tolist() if separate is not None else None
        for i in np.flatnonzero(tags != outside).tolist():
            if i != previous + 1 and (i > 0 or previous >= 0):
                self._close(out)  # an O token came between
            previous = i
            tag = labels[tags[i]]
            if len(tag) < 3:
                self._close(out)
                continue
            self._add(out, tokens[i], tag, scores_list[i], flags[i] if flags is not None else False)
        if previous != len(tokens) - 1:
            self._close(out)  # the block ends on an O token
        return out

    def finish(self) -> list[Span]:
        """The span still open at the end of the document."""
        out: list[Span] = []
        self._close(out)
        return out


def tags_to_spans(
    tokens: Sequence[Token], tags: Sequence[str], scores: Sequence[float] | None = None, source: str = "crf",
    separate: Sequence[bool] | None = None,
) -> list[Span]:
    """Turn B/I/E/S tags into spans, tolerantly: an I- or E- without a matching start opens a
    span, a change of label (or of the ``separate`` flag) closes one. Span score = mean of its
    tokens' scores."""
    builder = SpanBuilder(source)
    return builder.feed(tokens, tags, scores, separate) + builder.finish()


@dataclass(frozen=True)
class Decoded:
    """A note's tagging, kept to build its spans at any operating point without tagging it
    again: the tokens a point up to ``cap`` could report (the best path's non-O tokens, the O
    tokens whose P(O) is below ``cap``) and their neighbours, with the decoder's arrays (Viterbi
    tag id, its marginal, P(O), best non-O tag id, its marginal) for them. A neighbour kept is
    O at every such point, so the gaps between kept tokens end spans as the O tokens of the
    whole note do."""

    tokens: tuple[Token, ...]
    arrays: Arrays
    tags: tuple[str, ...]
    cap: float

    def promotable(self) -> list[tuple[str, float]]:
        """(label of the best non-O tag, P(O)) of each O token a point up to ``cap`` could report."""
        tag, _, p_o, best, _ = self.arrays
        if "O" not in self.tags:
            return []
        low = np.flatnonzero((tag == self.tags.index("O")) & (p_o < self.cap))
        return [(self.tags[b][2:], p) for b, p in zip(best[low].tolist(), p_o[low].tolist(), strict=True)]

    def spans(self, point: OperatingPoint | None) -> list[Span]:
        """The spans ``CrfTagger.detect`` finds in the note at ``point``."""
        if point is not None and point.highest > self.cap:
            raise ValueError(f"the point's thresholds go above what the note was decoded for ({self.cap})")
        builder = SpanBuilder()
        return feed_at(builder, self.tokens, self.arrays, self.tags, point) + builder.finish()


def feed_at(
    builder: SpanBuilder, tokens: Sequence[Token],
    decoded: Arrays,
    tags: Sequence[str], point: OperatingPoint | None,
) -> list[Span]:
    """The spans these decoded tokens complete at ``point`` (``detect`` and ``Decoded.spans``)."""
    tag, p_tag, p_o, best, p_best = decoded
    separate = None
    if point is not None:
        tag, p_tag, separate = point.apply(tags, tag, p_tag, p_o, best, p_best, tokens)
    outside = tags.index("O") if "O" in tags else -1
    return builder.feed_ids(tokens, tag, p_tag, tags, outside, separate)


class CrfTagger:
    """A trained CRF model, ready to tag documents; implements the Detector protocol."""

    name = "crf"

    def __init__(
        self,
        model_dir: str | Path,
        metadata: Mapping[str, Any],
        threshold: float | None = None,
        check_packs: bool = True,
        scorer: str = "compiled",
        choice: PackChoice | None = None,
        point: OperatingPoint | None = None,
    ) -> None:
        """``point``: the operating point (None: the Viterbi path); ``threshold`` P is the
        point "every label below P, tokens take their best tag" (``--threshold``)."""
        if scorer not in SCORERS:
            raise ValueError(f"scorer must be one of {SCORERS}, got {scorer!r}")
        self.scorer = scorer
        #: Streaming: text per block, tokens per stretch of a longer line, tokens per tagging
        #: window (with a margin of context on each side) of a line longer than that.
        self.block_chars, self.stretch = BLOCK_CHARS, LONG_LINE_STRETCH
        self.window, self.margin = WINDOW, MARGIN
        self.model_dir = Path(model_dir)
        self.metadata = dict(metadata)
        self.point = point
        if threshold is not None:
            self.threshold = threshold
        self.feature_set = FeatureSet.from_dict(
            self.metadata["feature_set"], where=self.model_dir / META_FILE
        )
        self.language = self.metadata.get("language", "es")
        #: The language pack and rules the features use: what the model recorded, unless the
        #: caller chose otherwise (``--lang``/``--pack``/``--rules``; the packs are then checked
        #: against the model's fingerprints like any other).
        self.choice: PackChoice = choice or model_choice(self.metadata)
        self._check_packs = check_packs
        try:
            import pycrfsuite
        except ImportError as exc:  # a dependency: only a broken install lacks it
            raise ModelError("python-crfsuite is not installed", hint="pip install sklearn-crfsuite") from exc
        self._tagger = pycrfsuite.Tagger()
        model_path = self.model_dir / MODEL_FILE
        try:
            self._tagger.open(str(model_path))
        except (OSError, ValueError) as exc:
            raise ModelError(
                f"cannot open the crfsuite model: {exc}",
                model_path,
                hint="the file is corrupt or not a crfsuite model; retrain with crfdeid train",
            ) from exc
        self.tags: tuple[str, ...] = tuple(self._tagger.labels())

    @property
    def threshold(self) -> float | None:
        """The operating point's threshold for every label (None: the Viterbi path)."""
        return self.point.threshold if self.point is not None else None

    @threshold.setter
    def threshold(self, value: float | None) -> None:
        self.point = OperatingPoint.global_threshold(value) if value is not None else None

    # -- loading ----------------------------------------------------------------------------
    @classmethod
    def load(
        cls, model_dir: str | Path, threshold: float | None = None, scorer: str = "compiled",
        choice: PackChoice | None = None,
    ) -> CrfTagger:
        """Open a model folder written by ``crfdeid train``; every failure is a clear error."""
        folder = Path(model_dir)
        if not folder.is_dir():
            raise ModelError(
                "no such model folder",
                folder,
                hint="give a folder written by 'crfdeid train -o', or omit --model for the default",
            )
        meta_path = folder / META_FILE
        if not (folder / MODEL_FILE).is_file() or not meta_path.is_file():
            raise ModelError(f"not a model folder: it needs {MODEL_FILE} and {META_FILE}", folder)
        try:
            metadata = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ModelError(f"cannot read the metadata: {exc}", meta_path) from exc
        except json.JSONDecodeError as exc:
            raise ModelError(f"the metadata is not valid JSON: {exc.msg}", meta_path, exc.lineno) from exc
        if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
            raise ModelError(f"not a crfdeid model (format is not {FORMAT!r})", meta_path)
        if metadata.get("format_version", 0) > FORMAT_VERSION:
            raise ModelError(
                f"model format {metadata.get('format_version')} is newer than this crfdeid "
                f"({FORMAT_VERSION})",
                meta_path,
                hint="upgrade crfdeid",
            )
        for key in ("feature_set", "annotator", "labels"):
            if key not in metadata:
                raise ModelError(f"the metadata lacks {key!r}", meta_path)
        expected = metadata.get("model_sha256")
        if expected and file_sha256(folder / MODEL_FILE) != expected:
            raise ModelError(
                "the model file does not match the checksum in its metadata",
                folder / MODEL_FILE,
                hint="the file was changed or truncated; copy the model folder again",
            )
        return cls(folder, metadata, threshold, scorer=scorer, choice=choice)

    @classmethod
    def load_default(
        cls, threshold: float | None = None, scorer: str = "compiled", choice: PackChoice | None = None
    ) -> CrfTagger:
        """The embedded Spanish model shipped inside the package."""
        if not (DEFAULT_MODEL_DIR / MODEL_FILE).is_file():
            raise ModelError(
                "the embedded default model is missing from this installation",
                DEFAULT_MODEL_DIR,
                hint="reinstall crfdeid, or pass --model MODEL_DIR",
            )
        return cls.load(DEFAULT_MODEL_DIR, threshold, scorer, choice)

    @cached_property
    def extractor(self) -> FeatureExtractor:
        """The feature extractor rebuilt from the metadata (and checked against the packs)."""
        meta = self.metadata
        pack = self.choice.pack
        annotator = make_annotator(meta["annotator"], pack)
        gazetteer = GazetteerMatcher(pack) if self.feature_set.on("gazetteer") and pack is not None else None
        rules = RuleEngine.from_pack(self.choice.rules) if self.feature_set.on("rules") else None
        if self._check_packs:
            stale = []
            if self.feature_set.on("gazetteer") and meta.get("gazetteer", {}).get("fingerprint") != (
                gazetteer.fingerprint if gazetteer is not None else None
            ):
                stale.append("gazetteers")
            if rules is not None and meta.get("rules", {}).get("fingerprint") != rules_fingerprint(rules):
                stale.append("rules")
            if stale:
                raise ModelError(
                    f"the {' and '.join(stale)} changed since this model was trained, so its "
                    "features would not be the ones it learned from",
                    self.model_dir,
                    hint="retrain the model (crfdeid train) with the current packs",
                )
        extractor = FeatureExtractor(
            self.feature_set, pack, annotator, gazetteer, rules, meta.get("skeleton_vocabulary", ())
        )
        extractor.known = frozenset(self.compiled.attributes)
        return extractor

    @cached_property
    def _dump(self) -> Any:
        return self._tagger.info()

    @cached_property
    def compiled(self) -> CompiledCrf:
        """The model as arrays (built on first use, from the model file alone)."""
        return CompiledCrf.from_model(self.model_dir / MODEL_FILE)

    @cached_property
    def encoder(self) -> Encoder:
        return Encoder(self.extractor, self.compiled)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.metadata["labels"])

    @cached_property
    def scheme(self) -> Scheme:
        """The label scheme the model was trained on (a model from before schemes: meddocan)."""
        return recorded_scheme(self.metadata, self.model_dir / META_FILE)

    def merge_policy(self) -> Any:
        """The merge policy recorded with the model, else the shipped default."""
        from .merge import MergePolicy

        recorded = self.metadata.get("merge_policy")
        policy = (
            MergePolicy.from_dict(recorded, where=self.model_dir / META_FILE, scheme=self.scheme)
            if recorded
            else MergePolicy.shipped()
        )
        return policy.for_scheme(self.scheme)

    # -- tagging ----------------------------------------------------------------------------
    def tag_tokens(
        self, document: Document, tokens: Sequence[Token], rule_matches: Iterable[RuleMatch] | None = None
    ) -> list[TokenTag]:
        """Viterbi tag, its marginal and P(O) for every token of the document; at an operating
        point, an ``O`` token whose P(O) is below the point's threshold for its most probable
        non-O tag takes that tag instead."""
        with collector_paused():
            if self.scorer == "crfsuite":
                return self._crfsuite_tags(document, tokens, rule_matches)
            if not tokens:
                return []
            cols = self.extractor.columns(document, tokens, rule_matches)
            return self._token_tags(tokens, self._decode_columns(cols))

    def candidates(
        self, document: Document, tokens: Sequence[Token], rule_matches: Iterable[RuleMatch] | None = None
    ) -> list[tuple[str, float, str, float]]:
        """Per token: (Viterbi tag, P(O), best non-O tag, its marginal). What an operating-point
        curve needs: the spans at any threshold follow from these without re-tagging."""
        with collector_paused():
            if self.scorer == "crfsuite":
                return self._crfsuite_candidates(document, tokens, rule_matches)
            if not tokens:
                return []
            cols = self.extractor.columns(document, tokens, rule_matches)
            tag, _, p_o, best, p_best = self._decode_columns(cols)
        labels = self.compiled.labels
        return [
            (labels[t], po, labels[b], pb)
            for t, po, b, pb in zip(tag.tolist(), p_o.tolist(), best.tolist(), p_best.tolist(), strict=True)
        ]

    def detect(
        self,
        document: Document,
        rule_matches: RuleResult | Iterable[RuleMatch] | None = None,
        tokens: Sequence[Token] | None = None,
    ) -> list[Span]:
        """CRF spans of a document, each with ``source="crf"`` and its mean marginal as score.

        Without ``tokens``, the note is streamed a block of lines at a time (memory bounded by
        the block); the spans are those of tagging the whole note at once.
        """
        if isinstance(rule_matches, RuleResult):
            rule_matches = rule_matches.feature_matches
        if tokens is not None or self.scorer == "crfsuite":
            if tokens is None:
                tokens = tokenize(document.text)
            tagged = self.tag_tokens(document, tokens, rule_matches)
            return tags_to_spans(tokens, [t.tag for t in tagged], [t.probability for t in tagged],
                                 separate=[t.separate for t in tagged])
        builder = SpanBuilder()
        spans: list[Span] = []
        labels = self.compiled.labels
        with collector_paused():
            for cols in self.extractor.blocks(document, rule_matches, self.block_chars, self.stretch):
                a, b = cols.keep or (0, len(cols.tokens))
                decoded = tuple(x[a:b] for x in self._decode_columns(cols))
                spans += feed_at(builder, cols.tokens[a:b], decoded, labels, self.point)  # type: ignore[arg-type]
            cols = decoded = None  # freed now, not walked by the collection the pause ends with
        return spans + builder.finish()

    def decode(
        self, document: Document, rule_matches: RuleResult | Iterable[RuleMatch] | None = None,
        cap: float | None = None,
    ) -> Decoded:
        """The note tagged once (compiled scorer, streamed as ``detect``): its spans at any point
        whose thresholds stay at or below ``cap`` (default: those a search tries) follow
        (``Decoded.spans``)."""
        cap = max(LEVELS) if cap is None else cap
        if isinstance(rule_matches, RuleResult):
            rule_matches = rule_matches.feature_matches
        labels = self.compiled.labels
        outside = labels.index("O") if "O" in labels else -1
        tokens: list[Token] = []
        parts: list[list[np.ndarray]] = [[], [], [], [], []]
        with collector_paused():
            for cols in self.extractor.blocks(document, rule_matches, self.block_chars, self.stretch):
                a, b = cols.keep or (0, len(cols.tokens))
                decoded = [x[a:b] for x in self._decode_columns(cols)]
                tag, p_o = decoded[0], decoded[2]
                wanted = (tag != outside) | (p_o < cap)
                kept = wanted.copy()
                kept[1:] |= wanted[:-1]
                kept[:-1] |= wanted[1:]
                if len(kept):  # a block's ends too: no gap across blocks goes unmarked
                    kept[0] = kept[-1] = True
                at = np.flatnonzero(kept)
                block = cols.tokens[a:b]
                tokens += [block[i] for i in at.tolist()]
                for part, array in zip(parts, decoded, strict=True):
                    part.append(array[at])
        arrays = tuple(np.concatenate(p) if p else np.zeros(0) for p in parts)
        arrays = (arrays[0].astype(np.intp), arrays[1], arrays[2], arrays[3].astype(np.intp), arrays[4])
        return Decoded(tuple(tokens), arrays, tuple(labels), cap)  # type: ignore[arg-type]

    # compiled path
    def _windows(self, cols: Columns) -> list[tuple[int, int, int, int]]:
        """(first, last, keep_first, keep_last) per sequence to score: each line (or the
        block), long ones cut into overlapping windows whose margins are not kept."""
        n = len(cols.tokens)
        ranges = cols.lines if self.feature_set.sequence == "line" else ([(0, n)] if n else [])
        wanted_first, wanted_last = cols.keep or (0, n)
        out = []
        size, margin = self.window, self.margin
        for first, last in ranges:
            lo, hi = max(first, wanted_first), min(last, wanted_last)
            if lo >= hi:
                continue
            if last - first <= size + 2 * margin:
                out.append((first, last, lo, hi))
                continue
            for keep in range(lo, hi, size):
                keep_last = min(hi, keep + size)
                out.append((max(first, keep - margin), min(last, keep_last + margin), keep, keep_last))
        return out

    def _decode_columns(
        self, cols: Columns
    ) -> Arrays:
        """Per token of the block: Viterbi label id, its marginal, P(O), the best non-O label
        id and its marginal."""
        n = len(cols.tokens)
        crf = self.compiled
        outside = crf.labels.index("O") if "O" in crf.labels else -1
        tag = np.zeros(n, dtype=np.intp)
        best = np.zeros(n, dtype=np.intp)
        p_tag, p_o, p_best = np.zeros(n), np.zeros(n), np.zeros(n)
        windows = sorted(self._windows(cols), key=lambda w: w[0] - w[1])  # longest first
        prepared = self.encoder.prepare(cols)
        batch: list[tuple[int, int, int, int]] = []
        size = 0
        for k, window in enumerate(windows):
            batch.append(window)
            size += window[1] - window[0]
            if size >= BATCH or len(batch) >= BATCH_SEQUENCES or k == len(windows) - 1:
                emissions = self.encoder.emissions(prepared, [(a, b) for a, b, _, _ in batch])
                tags, marginals = crf.decode(emissions, [b - a for a, b, _, _ in batch])
                del emissions
                rows = np.arange(len(tags))
                chosen = marginals[rows, tags]
                outside_p = marginals[:, outside].copy() if outside >= 0 else np.zeros(len(tags))
                if outside >= 0:
                    marginals[:, outside] = -1.0
                entity = marginals.argmax(axis=1)  # the first best in label order, as crfsuite
                entity_p = marginals[rows, entity]
                at = 0
                for first, last, keep, keep_last in batch:
                    lo, hi = at + keep - first, at + keep_last - first
                    tag[keep:keep_last] = tags[lo:hi]
                    p_tag[keep:keep_last] = chosen[lo:hi]
                    p_o[keep:keep_last] = outside_p[lo:hi]
                    best[keep:keep_last] = entity[lo:hi]
                    p_best[keep:keep_last] = entity_p[lo:hi]
                    at += last - first
                batch, size = [], 0
        return tag, p_tag, p_o, best, p_best

    def _token_tags(
        self, tokens: Sequence[Token], decoded: Arrays
    ) -> list[TokenTag]:
        tag, p_tag, p_o, best, p_best = decoded
        labels = self.compiled.labels
        separate = None
        if self.point is not None:
            tag, p_tag, separate = self.point.apply(labels, tag, p_tag, p_o, best, p_best, tokens)
        flags = separate.tolist() if separate is not None else [False] * len(tag)
        return [TokenTag(labels[t], p, po, s)
                for t, p, po, s in zip(tag.tolist(), p_tag.tolist(), p_o.tolist(), flags, strict=True)]

    # reference path: python-crfsuite
    def _crfsuite_tags(
        self, document: Document, tokens: Sequence[Token], rule_matches: Iterable[RuleMatch] | None
    ) -> list[TokenTag]:
        import pycrfsuite

        out: list[TokenTag] = [TokenTag("O", 1.0, 1.0)] * len(tokens)
        tagger = self._tagger
        has_o = "O" in self.tags
        point = self.point
        highest = point.highest if point is not None else 0.0
        for seg in self.extractor.sequences(document, tokens, rule_matches):
            tagger.set(pycrfsuite.ItemSequence(seg.features))
            tags = tagger.tag()
            for k, tag in enumerate(tags):
                p = tagger.marginal(tag, k)
                p_o = p if tag == "O" else (tagger.marginal("O", k) if has_o else 0.0)
                separate = False
                if point is not None and tag == "O" and p_o < highest:
                    best, p_best = self._best_entity_tag(k)
                    if point.adds(best[2:], p_o, tokens[seg.first + k].text):
                        tag, p, separate = best, p_best, point.spans == "separate"
                out[seg.first + k] = TokenTag(tag, p, p_o, separate)
        return out

    def _best_entity_tag(self, position: int) -> tuple[str, float]:
        best, best_p = "O", -1.0
        for candidate in self.tags:
            if candidate != "O":
                q = self._tagger.marginal(candidate, position)
                if q > best_p:
                    best, best_p = candidate, q
        return best, best_p

    def _crfsuite_candidates(
        self, document: Document, tokens: Sequence[Token], rule_matches: Iterable[RuleMatch] | None
    ) -> list[tuple[str, float, str, float]]:
        import pycrfsuite

        out: list[tuple[str, float, str, float]] = [("O", 1.0, "O", 0.0)] * len(tokens)
        tagger = self._tagger
        for seg in self.extractor.sequences(document, tokens, rule_matches):
            tagger.set(pycrfsuite.ItemSequence(seg.features))
            for k, tag in enumerate(tagger.tag()):
                best, p_best = self._best_entity_tag(k)
                out[seg.first + k] = (tag, tagger.marginal("O", k), best, p_best)
        return out

    # -- introspection ----------------------------------------------------------------------
    def info(self) -> Any:
        """crfsuite's parsed model dump: attributes, state features and transitions with weights."""
        return self._dump


def recorded_scheme(metadata: Mapping[str, Any], where: str | Path = META_FILE) -> Scheme:
    """The label scheme recorded in a model's metadata (a model from before schemes: meddocan)."""
    recorded = metadata.get("scheme")
    return Scheme.from_dict(recorded, where) if recorded else load_scheme(DEFAULT_SCHEME)


def read_metadata(model_dir: str | Path | None) -> dict[str, Any]:
    """A model folder's metadata, read without loading the model (None: the embedded model);
    {} when it cannot be read (loading the model will say why)."""
    path = Path(model_dir or DEFAULT_MODEL_DIR) / META_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def check_model_target(model_dir: Path) -> None:
    """Refuse, before any work is done, to overwrite a folder that is not a crfdeid model."""
    model_dir = Path(model_dir)
    if model_dir.exists() and not model_dir.is_dir():
        raise ModelError("the model output exists and is not a folder", model_dir)
    if model_dir.is_dir() and not (model_dir / META_FILE).exists() and any(model_dir.iterdir()):
        raise ModelError(
            "refusing to replace a folder that is not a crfdeid model",
            model_dir,
            hint="choose an empty or new folder for -o",
        )


def write_model(model_dir: Path, crfsuite_file: Path, metadata: dict[str, Any]) -> dict[str, Any]:
    """Move a trained crfsuite file and its metadata into ``model_dir`` atomically (no pickle).

    The two files are written into a temporary sibling folder and renamed into place, so an
    interrupted run never leaves a model folder with a new model and old metadata. Returns the
    metadata as written (with the model file's checksum).
    """
    import shutil
    import tempfile

    model_dir = Path(model_dir)
    check_model_target(model_dir)
    model_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{model_dir.name}.", dir=model_dir.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; a model folder is an ordinary folder
    try:
        shutil.copyfile(crfsuite_file, tmp / MODEL_FILE)
        metadata = dict(
            metadata,
            format=FORMAT,
            format_version=FORMAT_VERSION,
            crfdeid_version=__version__,
            model_sha256=file_sha256(tmp / MODEL_FILE),
        )
        (tmp / META_FILE).write_text(
            json.dumps(metadata, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
        )
        if model_dir.exists():
            old = model_dir.with_name(f".{model_dir.name}.old.{os.getpid()}")
            model_dir.rename(old)
            tmp.rename(model_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(model_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return metadata
