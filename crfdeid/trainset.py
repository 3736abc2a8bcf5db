"""Training sequences extracted once per document and reused by every fold and search point.

Why: cross-validation used to extract the whole training part again for each fold and each
c1/c2 point. A document's features depend on its training part only through the skeleton
vocabulary (the words frequent in the training documents, ``train.skeleton_for``), which only
the templates over the skeleton token (``sk`` n-grams, conjunctions with ``sk``) read. So the
cache holds every token's other features once, with the token texts, and renders the skeleton
templates per training part with that part's own vocabulary: a fold trains on exactly the
sequences a fresh extraction of its documents gives, string for string and in the same order
(``tests/test_train_cache.py``), so its model is byte-identical to ``fit`` on those documents.

Held in memory only, never written to disk (no pickle, and nothing to go stale); worker
processes of a cross-validation inherit it by ``fork`` on Linux (elsewhere each gets a copy).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .features import FeatureExtractor, build_skeleton_vocabulary, token_labels
from .textview import TextView
from .tokenize import tokenize
from .types import Document

if TYPE_CHECKING:
    from .train import Resources

Template = tuple[str, tuple[tuple[str, int], ...]]
#: (features per token, gold tags): one crfsuite training sequence.
Pair = tuple[list[list[str]], list[str]]


def training_view(document: Document) -> Document:
    """The document as detection sees it: its normalised view, gold spans mapped into it."""
    return TextView(document.text).document(document)


@dataclass(frozen=True, slots=True)
class _Cached:
    """One sequence: each token's features except the vocabulary templates', the gold tags, the
    token texts (their skeleton tokens follow the vocabulary) and the other attribute columns
    the vocabulary templates combine (empty for the shipped feature sets)."""

    rows: list[list[str]]
    tags: list[str]
    texts: list[str]
    attrs: dict[str, list[str]]


def vocabulary_templates(extractor: FeatureExtractor) -> list[Template]:
    """The conjunction templates whose features change with the skeleton vocabulary."""
    return [t for t in extractor.templates if any(a == "sk" for a, _ in t[1])]


class FeatureCache:
    """The training sequences of a corpus, extracted once (see the module's docstring)."""

    def __init__(self, documents: Iterable[Document], resources: Resources) -> None:
        self.resources = resources
        self.feature_set = resources.config.feature_set
        extractor = resources.extractor(())  # the vocabulary reaches only the templates left out
        templates = extractor.templates
        self._varying = vocabulary_templates(extractor)
        fixed = [t for t in templates if t not in self._varying]
        self._n_fixed = len(fixed)
        # At training every template gives each token exactly one feature, in template order:
        # where the vocabulary templates' features go among the others.
        self._pattern = [(t in self._varying, (self._varying if t in self._varying else fixed).index(t))
                         for t in templates]
        self._varying_first = all(v for v, _ in self._pattern[: len(self._varying)])
        self._other_attrs = sorted({a for _, conj in self._varying for a, _ in conj} - {"sk"})
        self._texts: dict[str, list[str]] = {}
        self._sequences: dict[str, list[_Cached]] = {}
        #: How many times each document was extracted (once: what the tests check).
        self.extractions: dict[str, int] = {}
        for doc in documents:
            self._add(doc, extractor, fixed)

    def _add(self, original: Document, extractor: FeatureExtractor, fixed: list[Template]) -> None:
        """Extract one document as ``train.training_data`` does, minus the vocabulary templates."""
        doc = training_view(original)
        tokens = tokenize(doc.text)
        texts = [t.text for t in tokens]
        tags = token_labels(tokens, doc.spans, self.feature_set.scheme)
        cached = []
        if tokens:
            cols = extractor.columns(doc, tokens)
            ranges = cols.lines if self.feature_set.sequence == "line" else [(0, len(tokens))]
            for first, last in ranges:
                rows = extractor.rows(cols, first, last, fixed)
                attrs = {a: cols.attrs[a][first:last] for a in self._other_attrs}
                cached.append(_Cached(rows, tags[first:last], texts[first:last], attrs))
        self._texts[original.id] = texts
        self._sequences[original.id] = cached
        self.extractions[original.id] = self.extractions.get(original.id, 0) + 1

    def __contains__(self, doc_id: str) -> bool:
        return doc_id in self._sequences

    def vocabulary(self, ids: Iterable[str]) -> list[str]:
        """The skeleton vocabulary of these documents (``train.skeleton_for``, from the cache)."""
        spec = self.feature_set.families.get("skeleton")
        if not spec:
            return []
        return build_skeleton_vocabulary((t for i in ids for t in self._texts[i]), spec["min_count"])

    def sequences(self, ids: Iterable[str], vocabulary: Iterable[str]) -> Iterator[Pair]:
        """The training sequences of these documents with this skeleton vocabulary, in order."""
        ids = list(ids)
        if not self._varying:
            for i in ids:
                for seq in self._sequences[i]:
                    yield seq.rows, seq.tags
            return
        extractor = self.resources.extractor(vocabulary)
        skeleton = {t: extractor.skeleton_token(t) for t in {t for i in ids for t in self._texts[i]}}
        cut = -self._n_fixed if self._n_fixed else None
        for i in ids:
            for seq in self._sequences[i]:
                extra: list[list[str]] = [[] for _ in seq.rows]
                columns = {**seq.attrs, "sk": list(map(skeleton.__getitem__, seq.texts))}
                extractor.render_templates(extra, columns, 0, len(seq.texts), self._varying)
                if self._varying_first:
                    rows = [row[:cut] + more + row[cut:] if cut else row + more
                            for row, more in zip(seq.rows, extra, strict=True)]
                else:
                    rows = [self._merge(row, more) for row, more in zip(seq.rows, extra, strict=True)]
                yield rows, seq.tags

    def _merge(self, row: list[str], more: list[str]) -> list[str]:
        """A token's features with the vocabulary templates' put back in template order."""
        split = len(row) - self._n_fixed
        fixed = row[split:]
        return row[:split] + [more[k] if varying else fixed[k] for varying, k in self._pattern]
