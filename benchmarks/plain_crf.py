"""The plain sklearn-crfsuite tagger: the baseline crfdeid has to beat on every corpus.

    from plain_crf import PlainTagger           # benchmarks/ on sys.path
    tagger = PlainTagger().fit(train_documents)
    predicted = tagger.predict(test_documents)  # {id: Document with the predicted spans}

What a researcher writes in an afternoon from the sklearn-crfsuite tutorial: per token the word,
its lowercase form, suffixes of 2 and 3 characters, prefixes of 2 and 3, the word shape and the
tutorial's title/upper/digit flags, the same for the tokens in a ±2 window, BOS/EOS; L-BFGS with
c1 = c2 = 0.1 and 100 iterations, all transitions. It has no language pack, no rules, no header
or document features. It sees the text through crfdeid's tokenizer, one sequence per line, and is
scored by crfdeid's scorer, so the comparison with crfdeid differs in the model and nothing else.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from crfdeid.features import token_labels
from crfdeid.tagger import tags_to_spans
from crfdeid.tokenize import tokenize
from crfdeid.types import Document, Token

WINDOW = 2
_UPPER = re.compile(r"[A-ZÀ-ÖØ-Þ]")
_LOWER = re.compile(r"[a-zß-öø-ÿ]")
_DIGIT = re.compile(r"\d")


def shape(word: str) -> str:
    """Xxxx → Xx, 12.3 → d.d: the collapsed shape of the tutorial's feature lists."""
    out = _DIGIT.sub("d", _LOWER.sub("x", _UPPER.sub("X", word)))
    return re.sub(r"(.)\1+", r"\1", out)


def _own(word: str) -> dict[str, object]:
    low = word.lower()
    return {
        "w": word,
        "lw": low,
        "s2": low[-2:],
        "s3": low[-3:],
        "p2": low[:2],
        "p3": low[:3],
        "sh": shape(word),
        "title": word.istitle(),
        "upper": word.isupper(),
        "digit": word.isdigit(),
    }


def sequence_features(words: Sequence[str]) -> list[dict[str, object]]:
    """The features of every token of one sequence (own features and the ±2 window's)."""
    own = [_own(w) for w in words]
    out = []
    for i in range(len(words)):
        features: dict[str, object] = {"bias": 1.0, **own[i]}
        for offset in range(-WINDOW, WINDOW + 1):
            j = i + offset
            if offset and 0 <= j < len(words):
                for key in ("lw", "sh", "title", "upper", "s3"):
                    features[f"{offset}:{key}"] = own[j][key]
        if i == 0:
            features["BOS"] = True
        if i == len(words) - 1:
            features["EOS"] = True
        out.append(features)
    return out


def lines_of(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """[first, last) token index of each line."""
    bounds, first = [], 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or tokens[i].line != tokens[first].line:
            bounds.append((first, i))
            first = i
    return bounds


class PlainTagger:
    """A plain CRF tagger over BIO tags (see the module docstring)."""

    def __init__(self, c1: float = 0.1, c2: float = 0.1, iterations: int = 100) -> None:
        self.c1, self.c2, self.iterations = c1, c2, iterations
        self.crf = None
        self._tmp = tempfile.TemporaryDirectory(prefix="plain-crf-")

    def fit(self, documents: Iterable[Document]) -> PlainTagger:
        from sklearn_crfsuite import CRF

        xs, ys = [], []
        for doc in documents:
            tokens = tokenize(doc.text)
            tags = token_labels(tokens, doc.spans, "BIO")
            for first, last in lines_of(tokens):
                xs.append(sequence_features([t.text for t in tokens[first:last]]))
                ys.append(tags[first:last])
        self.crf = CRF(algorithm="lbfgs", c1=self.c1, c2=self.c2, max_iterations=self.iterations,
                       all_possible_transitions=True,
                       model_filename=str(Path(self._tmp.name) / "plain.crfsuite"))
        self.crf.fit(xs, ys)
        return self

    def save(self, path: Path) -> Path:
        """Copy the trained crfsuite model file to ``path`` (the features are fixed in code)."""
        assert self.crf is not None, "fit first"
        Path(path).write_bytes(Path(self.crf.modelfile.name).read_bytes())
        return Path(path)

    @classmethod
    def load(cls, path: Path) -> PlainTagger:
        """A tagger from a model file written by ``save`` (no pickle: crfsuite's own format)."""
        from sklearn_crfsuite import CRF

        tagger = cls()
        tagger.crf = CRF(model_filename=str(path))
        tagger.crf.training_log_ = None
        return tagger

    def tag(self, document: Document) -> Document:
        """The document with the spans the plain tagger finds."""
        assert self.crf is not None, "fit first"
        tokens = tokenize(document.text)
        bounds = lines_of(tokens)
        xs = [sequence_features([t.text for t in tokens[a:b]]) for a, b in bounds]
        tags = [tag for seq in (self.crf.predict(xs) if xs else []) for tag in seq]
        return document.with_spans(tags_to_spans(tokens, tags, source="plain-crf"))

    def predict(self, documents: Iterable[Document]) -> dict[str, Document]:
        return {doc.id: self.tag(doc) for doc in documents}
