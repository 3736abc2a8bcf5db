"""Feature extraction for the CRF tagger, driven by a declarative feature set (``features/*.yaml``).

Each feature family is a small function over the tokenized, annotated document. Features are
plain strings (binary features), which is what crfsuite stores most compactly. Everything that
depends on the token text alone (word, shape, affixes, properties, and their copies in the
context window) is computed once per distinct word and cached, so extraction costs about one
list concatenation per token and neighbour: the extractor must not dominate tagging time.

A trained model stores its ``FeatureSet`` (and the skeleton vocabulary learned from its training
corpus) in its metadata; the same extractor is rebuilt from it at load time.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CrfdeidError
from .gazetteer import GazetteerMatcher
from .io.text import read_yaml
from .langpack import LanguagePack, fold
from .linguistic import LinguisticAnnotator
from .resources import data_dir
from .rules import RuleEngine, token_rule_features
from .rules.model import RuleMatch
from .types import Document, Token

FAMILIES = (
    "word",
    "lemma_pos",
    "shape",
    "affixes",
    "properties",
    "position",
    "header",
    "document",
    "gazetteer",
    "rules",
    "skeleton",
)
#: Families whose features may be copied from neighbouring tokens.
WINDOW_FAMILIES = ("word", "shape", "lemma_pos", "gazetteer", "rules", "properties", "header", "skeleton")
#: Attributes that conjunction templates may combine.
ATTRIBUTES = ("lw", "sh", "pos", "sk", "key")
SCHEMES = ("BIO", "BIOES")
SEQUENCES = ("line", "document")
_TOP_KEYS = {"name", "version", "scheme", "sequence", "families", "window", "conjunctions", "description"}
_CONJ = re.compile(r"^(lw|sh|pos|sk|key)(-?\d+)$")
BOS, EOS = "<S>", "</S>"


class FeatureSetError(CrfdeidError):
    """A feature-set file is invalid (the message names the file and the key)."""


@dataclass(frozen=True)
class FeatureSet:
    """Which feature families are on and how they are parameterised; recorded in every model."""

    name: str
    version: int = 1
    scheme: str = "BIOES"
    sequence: str = "line"
    families: Mapping[str, Any] = field(default_factory=dict)
    window_size: int = 2
    window_families: tuple[str, ...] = ()
    conjunctions: tuple[tuple[tuple[str, int], ...], ...] = ()

    @classmethod
    def load(cls, name_or_path: str | Path = "default") -> FeatureSet:
        """A shipped feature set by name (``default``) or a YAML file of your own."""
        path = Path(name_or_path)
        if not path.suffix:
            path = data_dir("features") / f"{name_or_path}.yaml"
            if not path.is_file():
                shipped = sorted(p.stem for p in data_dir("features").glob("*.yaml"))
                raise FeatureSetError(
                    f"no shipped feature set named {name_or_path!r}",
                    hint=f"shipped: {', '.join(shipped)}; or give a .yaml file",
                )
        data = read_yaml(path, FeatureSetError, "feature-set file")
        return cls.from_dict(data, where=path)

    @classmethod
    def from_dict(cls, data: Any, where: str | Path = "<feature set>") -> FeatureSet:
        """Validate a feature-set mapping; every unknown key or bad value is an error."""

        def fail(message: str) -> FeatureSetError:
            return FeatureSetError(message, where)

        if not isinstance(data, dict):
            raise fail("a feature set must be a mapping with 'name' and 'families'")
        unknown = set(data) - _TOP_KEYS
        if unknown:
            raise fail(f"unknown key(s) {sorted(unknown)}; known: {sorted(_TOP_KEYS)}")
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise fail("'name' must be a non-empty string")
        scheme = data.get("scheme", "BIOES")
        if scheme not in SCHEMES:
            raise fail(f"'scheme' must be one of {SCHEMES}, got {scheme!r}")
        sequence = data.get("sequence", "line")
        if sequence not in SEQUENCES:
            raise fail(f"'sequence' must be one of {SEQUENCES}, got {sequence!r}")
        version = data.get("version", 1)
        if not isinstance(version, int) or isinstance(version, bool):
            raise fail("'version' must be an integer")
        families = data.get("families")
        if not isinstance(families, dict):
            raise fail("'families' must be a mapping of family name to true/false or options")
        for fam, value in families.items():
            if fam not in FAMILIES:
                raise fail(f"unknown feature family {fam!r}; known: {', '.join(FAMILIES)}")
            _check_family(fam, value, fail)
        window = data.get("window", {"size": 0, "families": []})
        if not isinstance(window, dict) or set(window) - {"size", "families"}:
            raise fail("'window' must be a mapping with 'size' and 'families'")
        size = window.get("size", 0)
        if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= 5:
            raise fail("'window.size' must be an integer from 0 to 5")
        wfams = window.get("families", [])
        if not isinstance(wfams, list) or any(f not in WINDOW_FAMILIES for f in wfams):
            raise fail(f"'window.families' must list families among {', '.join(WINDOW_FAMILIES)}")
        conjunctions = []
        for item in data.get("conjunctions", []) or []:
            if not isinstance(item, list) or len(item) < 2:
                raise fail(f"a conjunction is a list of two or more attributes like lw-1, got {item!r}")
            parts = []
            for attr in item:
                m = _CONJ.match(str(attr))
                if not m or not -5 <= int(m.group(2)) <= 5:
                    raise fail(
                        f"bad conjunction attribute {attr!r}: use {'/'.join(ATTRIBUTES)} and an "
                        "offset from -5 to 5, e.g. lw-1, sh0, pos1"
                    )
                parts.append((m.group(1), int(m.group(2))))
            conjunctions.append(tuple(parts))
        return cls(
            name=name,
            version=version,
            scheme=scheme,
            sequence=sequence,
            families={k: v for k, v in families.items() if v},
            window_size=size,
            window_families=tuple(f for f in wfams if families.get(f)),
            conjunctions=tuple(conjunctions),
        )

    def to_dict(self) -> dict[str, Any]:
        """The YAML-able form recorded in a model's metadata; ``from_dict`` reads it back."""
        return {
            "name": self.name,
            "version": self.version,
            "scheme": self.scheme,
            "sequence": self.sequence,
            "families": dict(self.families),
            "window": {"size": self.window_size, "families": list(self.window_families)},
            "conjunctions": [[f"{a}{o}" for a, o in conj] for conj in self.conjunctions],
        }

    def on(self, family: str) -> bool:
        return bool(self.families.get(family))

    def without(self, family: str) -> FeatureSet:
        """The same set with one family switched off (for ablations)."""
        data = self.to_dict()
        data["families"].pop(family, None)
        data["name"] = f"{self.name}-no-{family}"
        return FeatureSet.from_dict(data)


def _check_family(fam: str, value: Any, fail: Any) -> None:
    if isinstance(value, bool):
        if fam == "affixes" and value:
            raise fail("'affixes' needs options: {prefix: [1, 2, 3], suffix: [1, 2, 3]}")
        if fam == "skeleton" and value:
            raise fail("'skeleton' needs options: {min_count: N, ngrams: [[-2, 0], …]}")
        return
    if fam == "affixes":
        if not isinstance(value, dict) or set(value) - {"prefix", "suffix"}:
            raise fail("'affixes' takes 'prefix' and 'suffix' lists of lengths")
        for key in ("prefix", "suffix"):
            lengths = value.get(key, [])
            if not isinstance(lengths, list) or any(
                not isinstance(n, int) or not 1 <= n <= 8 for n in lengths
            ):
                raise fail(f"'affixes.{key}' must be a list of lengths from 1 to 8")
    elif fam == "skeleton":
        if not isinstance(value, dict) or set(value) - {"min_count", "ngrams"}:
            raise fail("'skeleton' takes 'min_count' and 'ngrams'")
        if not isinstance(value.get("min_count"), int) or value["min_count"] < 1:
            raise fail("'skeleton.min_count' must be a positive integer")
        for ngram in value.get("ngrams", []):
            if (
                not isinstance(ngram, list)
                or len(ngram) != 2
                or not all(isinstance(n, int) for n in ngram)
                or not -5 <= ngram[0] <= ngram[1] <= 5
            ):
                raise fail(f"a skeleton n-gram is [first_offset, last_offset], got {ngram!r}")
    else:
        raise fail(f"family {fam!r} is switched on with true or off with false")


# ---------------------------------------------------------------------------------------------
# Word-level families: depend on the token text only, so they are cached per distinct word.


def word_shape(text: str, collapse: bool) -> str:
    """``Navarro`` -> ``Xxxxxxx`` (long, capped at 10) or ``Xx`` (collapsed)."""
    out: list[str] = []
    for ch in text:
        if ch.isdigit():
            c = "d"
        elif ch.isalpha():
            c = "X" if ch.isupper() else "x"
        else:
            c = ch
        if collapse and out and out[-1] == c:
            continue
        out.append(c)
    return "".join(out[:10])


def _length_bucket(n: int) -> str:
    return str(n) if n <= 4 else ("5-7" if n <= 7 else ("8-12" if n <= 12 else "13+"))


def _word_features(text: str, families: Mapping[str, Any], window: bool) -> list[str]:
    """Features of one word; ``window=True`` gives the smaller set copied to neighbours."""
    feats: list[str] = []
    lower = text.lower()
    if "word" in families:
        feats.append(f"lw={lower}")
        if not window:
            feats.append(f"w={text}")
    if "shape" in families:
        feats.append(f"ssh={word_shape(text, True)}")
        if not window:
            feats.append(f"sh={word_shape(text, False)}")
    if "affixes" in families and not window:
        spec = families["affixes"]
        feats.extend(f"p{n}={lower[:n]}" for n in spec.get("prefix", ()) if len(lower) >= n)
        feats.extend(f"s{n}={lower[-n:]}" for n in spec.get("suffix", ()) if len(lower) >= n)
    if "properties" in families:
        if text.istitle():
            feats.append("title")
        elif text.isupper():
            feats.append("upper")
        elif text.islower():
            feats.append("lower")
        if any(ch.isdigit() for ch in text):
            feats.append("digit" if text.isdigit() else "alnum")
        if not window:
            feats.append(f"len={_length_bucket(len(text))}")
            if len(text) == 1 and not text.isalnum():
                feats.append(f"punct={unicodedata.category(text)}")
            if not text.isascii():
                feats.append("nonascii")
    return feats


# ---------------------------------------------------------------------------------------------
# Line structure: header keys ("Nombre:"), section headings, value positions.

_KEY_WORD = re.compile(r"^[^\W\d_]+$")
_MAX_KEY_TOKENS = 4


@dataclass(frozen=True, slots=True)
class LineInfo:
    """Per token of one line: its header key (or ''), whether it is part of the key, and its
    index within the value after the key's colon (-1 before any colon)."""

    keys: list[str]
    in_key: list[bool]
    value_pos: list[int]


def line_structure(tokens: Sequence[Token]) -> LineInfo:
    """Keys of "Key: value" fields in one line; a line may hold several ("Edad: 70 Sexo: H")."""
    n = len(tokens)
    keys = [""] * n
    in_key = [False] * n
    value_pos = [-1] * n
    current, pos = "", -1
    colon_positions = [i for i, t in enumerate(tokens) if t.text == ":"]
    key_at: dict[int, tuple[int, str]] = {}
    for c in colon_positions:
        j = c - 1
        words: list[str] = []
        while (
            j >= 0
            and len(words) < _MAX_KEY_TOKENS
            and (_KEY_WORD.match(tokens[j].text) or tokens[j].text in "/.ºª")
        ):
            if _KEY_WORD.match(tokens[j].text):
                words.append(tokens[j].text)
            j -= 1
        first = j + 1
        # the key starts at its first capitalised word, or at the line start or a punctuation mark
        # ("Edad: 70 años Sexo: H." -> the second key is "Sexo", not "años Sexo")
        while first < c and not (
            first == 0 or tokens[first - 1].text in ".;,)" or tokens[first].text[:1].isupper()
        ):
            first += 1
        words = [t.text for t in tokens[first:c] if _KEY_WORD.match(t.text)]
        if words:
            key_at[first] = (c, "_".join(fold(w) for w in words))
    i = 0
    while i < n:
        if i in key_at:
            colon, key = key_at[i]
            for k in range(i, colon + 1):
                keys[k] = key
                in_key[k] = True
            current, pos = key, 0
            i = colon + 1
            continue
        keys[i] = current
        value_pos[i] = pos
        if pos >= 0:
            pos += 1
        i += 1
    return LineInfo(keys, in_key, value_pos)


def section_heading(tokens: Sequence[Token]) -> str | None:
    """The normalised heading if this line is one ("Datos del paciente.", "Antecedentes:"): a
    short line of words, no digits, ending in a colon, a full stop or nothing."""
    words = [t.text for t in tokens if t.text not in ".:"]
    if not 1 <= len(words) <= 6 or (tokens[-1].text not in (".", ":") and len(words) > 3):
        return None
    if any(not _KEY_WORD.match(w) for w in words) or not words[0][:1].isupper():
        return None
    if any(t.text == ":" for t in tokens[:-1]):
        return None
    return "_".join(fold(w) for w in words[:3])


def split_lines(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """``(first, last + 1)`` token index ranges, one per non-empty line."""
    ranges: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or tokens[i].line != tokens[start].line:
            ranges.append((start, i))
            start = i
    return ranges


# ---------------------------------------------------------------------------------------------


def build_skeleton_vocabulary(token_texts: Iterable[str], min_count: int) -> list[str]:
    """The lowercase words frequent enough in a training corpus to stay in the text skeleton."""
    counts = Counter(t.lower() for t in token_texts if not t.isdigit())
    return sorted(w for w, c in counts.items() if c >= min_count)


@dataclass(frozen=True, slots=True)
class _Word:
    """Everything that depends on a word's text alone, computed once per distinct word."""

    own: list[str]
    windowed: dict[int, list[str]]
    lower: str
    shape: str
    skeleton: str


@dataclass
class Segment:
    """One tagger input: the token index range in the document and one feature list per token."""

    first: int
    last: int
    features: list[list[str]]


class FeatureExtractor:
    """Turns a tokenized document into crfsuite sequences according to a ``FeatureSet``."""

    def __init__(
        self,
        feature_set: FeatureSet,
        pack: LanguagePack,
        annotator: LinguisticAnnotator,
        gazetteer: GazetteerMatcher | None = None,
        rules: RuleEngine | None = None,
        skeleton_vocabulary: Iterable[str] = (),
    ) -> None:
        self.feature_set = feature_set
        self.pack = pack
        self.annotator = annotator
        fs = feature_set
        self.gazetteer = (
            gazetteer if gazetteer is not None or not fs.on("gazetteer") else GazetteerMatcher(pack)
        )
        self.rules = rules if rules is not None or not fs.on("rules") else RuleEngine.from_pack(pack.language)
        self.skeleton_vocabulary = frozenset(skeleton_vocabulary)
        self._families = dict(fs.families)
        self._wfams = {f: fs.families[f] for f in fs.window_families}
        self._offsets = [o for o in range(-fs.window_size, fs.window_size + 1) if o != 0]
        self._word_cache: dict[str, tuple[list[str], dict[int, list[str]]]] = {}
        skeleton = fs.families.get("skeleton") or {}
        templates = [
            (f"sk[{a},{b}]=", tuple(("sk", o) for o in range(a, b + 1)))
            for a, b in (skeleton.get("ngrams", []) if skeleton else [])
        ]
        templates += [("|".join(f"{a}{o}" for a, o in conj) + "=", conj) for conj in fs.conjunctions]
        self._templates = templates
        self._attrs_needed = {a for _, conj in templates for a, _ in conj}
        self._prefix_cache: dict[int, dict[str, str]] = {}
        #: At inference, the attributes the model knows (set by the tagger): every other feature
        #: has no weight, and handing it to crfsuite costs a string copy and a lookup for nothing.
        self.known: frozenset[str] | None = None

    # -- per word -------------------------------------------------------------------------
    def _word(self, text: str) -> _Word:
        cached = self._word_cache.get(text)
        if cached is None:
            own = _word_features(text, self._families, window=False)
            base = _word_features(text, self._wfams, window=True)
            windowed = {o: [f"{o}:{f}" for f in base] for o in self._offsets}
            if self.known is not None:
                own = [f for f in own if f in self.known]
                windowed = {o: [f for f in fs if f in self.known] for o, fs in windowed.items()}
            cached = _Word(own, windowed, text.lower(), word_shape(text, True), self.skeleton_token(text))
            if len(self._word_cache) < 300_000:
                self._word_cache[text] = cached
        return cached

    def _prefixed(self, offset: int, features: list[str]) -> list[str]:
        """A neighbour's features with the offset prefix ("-1:pos=DET"), minus unknown ones."""
        cache = self._prefix_cache.setdefault(offset, {})
        out = []
        for f in features:
            p = cache.get(f)
            if p is None:
                p = f"{offset}:{f}"
                if self.known is not None and p not in self.known:
                    p = ""
                cache[f] = p
            if p:
                out.append(p)
        return out

    def skeleton_token(self, text: str) -> str:
        if text.isdigit():
            return "DIGIT"
        lower = text.lower()
        if lower in self.skeleton_vocabulary:
            return lower
        return "<UNK>" if text[:1].isalnum() else text

    # -- per document ---------------------------------------------------------------------
    def sequences(
        self, document: Document, tokens: Sequence[Token], rule_matches: Iterable[RuleMatch] | None = None
    ) -> list[Segment]:
        """Feature sequences of a document: one per line (or one for the whole document)."""
        if not tokens:
            return []
        fams = self._families
        n = len(tokens)
        texts = [t.text for t in tokens]
        ctx: list[list[str]] = [[] for _ in range(n)]  # context features of the token itself
        shared: list[list[str]] = [[] for _ in range(n)]  # context features copied to neighbours
        wf = self.feature_set.window_families
        attrs: dict[str, list[str]] = {}

        if "lemma_pos" in fams or any(a == "pos" for c in self.feature_set.conjunctions for a, _ in c):
            analysis = self.annotator.analyse(tokens)
            attrs["pos"] = list(analysis.pos)
            if "lemma_pos" in fams:
                target = shared if "lemma_pos" in wf else ctx
                for i in range(n):
                    ctx[i].append(f"lem={analysis.lemmas[i]}")
                    target[i].append(f"pos={analysis.pos[i]}")
        if "gazetteer" in fams and self.gazetteer is not None:
            target = shared if "gazetteer" in wf else ctx
            for i, tags in enumerate(self.gazetteer.membership(tokens)):
                target[i].extend(f"gz={tag}" for tag in tags)
        if "rules" in fams and self.rules is not None:
            matches = self.rules.run(document).matches if rule_matches is None else rule_matches
            target = shared if "rules" in wf else ctx
            for i, tags in enumerate(token_rule_features(tokens, matches)):
                target[i].extend(f"rule={tag}" for tag in tags)

        lines = split_lines(tokens)
        keys = [""] * n
        need_keys = (
            "header" in fams
            or "document" in fams
            or any(a == "key" for c in self.feature_set.conjunctions for a, _ in c)
        )
        if need_keys or "position" in fams:
            section = ""
            key_values: dict[str, set[str]] = {}
            for first, last in lines:
                line_tokens = tokens[first:last]
                info = line_structure(line_tokens)
                heading = section_heading(line_tokens) if "header" in fams else None
                for k in range(last - first):
                    i = first + k
                    key = info.keys[k]
                    keys[i] = key
                    if "header" in fams:
                        if key:
                            (shared if "header" in wf else ctx)[i].append(f"key={key}")
                        if info.in_key[k]:
                            ctx[i].append("in_key")
                        if section:
                            ctx[i].append(f"sec={section}")
                    if "position" in fams:
                        row = ctx[i]
                        if k == 0:
                            row.append("bol")
                        if k == last - first - 1:
                            row.append("eol")
                        if k > 0 and texts[i - 1] == ":":
                            row.append("after_colon")
                        vp = info.value_pos[k]
                        if vp >= 0:
                            row.append(f"vpos={vp if vp < 4 else '4+'}")
                        if info.keys[0] or any(info.in_key):
                            row.append("kv_line")
                    if (
                        "document" in fams
                        and key
                        and not info.in_key[k]
                        and len(texts[i]) > 1
                        and texts[i][:1].isupper()
                    ):
                        key_values.setdefault(fold(texts[i]), set()).add(key)
                if heading is not None:
                    section = heading
            if "document" in fams and key_values:
                for i in range(n):
                    t = texts[i]
                    if len(t) > 1 and t[:1].isupper():
                        for key in sorted(key_values.get(fold(t), ())):
                            ctx[i].append(f"dockey={key}")
        attrs["key"] = keys

        words = [self._word(t) for t in texts]
        if "sk" in self._attrs_needed:
            attrs["sk"] = [w.skeleton for w in words]
        if "lw" in self._attrs_needed:
            attrs["lw"] = [w.lower for w in words]
        if "sh" in self._attrs_needed:
            attrs["sh"] = [w.shape for w in words]

        ranges = lines if self.feature_set.sequence == "line" else [(0, n)]
        out: list[Segment] = []
        pad = 5
        for first, last in ranges:
            size = last - first
            known = self.known
            if known is None:
                rows = [words[i].own + ctx[i] + shared[i] for i in range(first, last)]
            else:  # word features are filtered once per word in the cache; the rest here
                rows = [words[i].own + [f for f in ctx[i] + shared[i] if f in known]
                        for i in range(first, last)]
            for o in self._offsets:
                lo, hi = max(first, first - o), min(last, last - o)  # tokens whose neighbour exists
                for i in range(lo, hi):
                    row = rows[i - first]
                    j = i + o
                    row.extend(words[j].windowed[o])
                    if shared[j]:
                        row.extend(self._prefixed(o, shared[j]))
                if o in (-1, 1) and (self.known is None or ("BOS" if o < 0 else "EOS") in self.known):
                    edge = rows[0] if o < 0 else rows[-1]
                    edge.append("BOS" if o < 0 else "EOS")
            padded = {
                a: [BOS] * pad + v[first:last] + [EOS] * pad
                for a, v in attrs.items()
                if a in self._attrs_needed
            }
            for name, conj in self._templates:
                columns = [padded[a][pad + o : pad + o + size] for a, o in conj]
                for row, values in zip(rows, zip(*columns, strict=False), strict=False):
                    feature = name + "|".join(values)
                    if known is None or feature in known:
                        row.append(feature)
            out.append(Segment(first, last, rows))
        return out


# ---------------------------------------------------------------------------------------------
# Tags


def token_labels(tokens: Sequence[Token], spans: Iterable[Any], scheme: str = "BIOES") -> list[str]:
    """Gold tags for each token: a token overlapping a span takes its label (outer bounds of
    discontinuous spans); BIOES marks single-token spans S- and last tokens E-."""
    tags = ["O"] * len(tokens)
    starts = [t.start for t in tokens]
    from bisect import bisect_left, bisect_right

    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        first = bisect_right(starts, span.start) - 1
        if first < 0 or tokens[first].end <= span.start:
            first += 1
        last = bisect_left(starts, span.end) - 1
        if first > last or any(tags[k] != "O" for k in range(first, last + 1)):
            continue  # nested or overlapping gold spans: keep the first
        for k in range(first, last + 1):
            tags[k] = f"I-{span.label}"
        tags[first] = f"B-{span.label}"
        if scheme == "BIOES":
            if first == last:
                tags[first] = f"S-{span.label}"
            else:
                tags[last] = f"E-{span.label}"
    return tags
