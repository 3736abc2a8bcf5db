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
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import frequency
from .errors import CrfdeidError
from .gazetteer import GazetteerMatch, GazetteerMatcher
from .io.text import read_yaml
from .langpack import LanguagePack, fold
from .linguistic import LinguisticAnnotator
from .resources import data_dir
from .rules import RuleEngine, token_rule_features
from .rules.model import RuleMatch
from .tokenize import count_breaks, next_line_start, tokenize
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
    "frequency",
)
#: Families whose features may be copied from neighbouring tokens.
WINDOW_FAMILIES = ("word", "shape", "lemma_pos", "gazetteer", "rules", "properties", "header", "skeleton",
                   "frequency")
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

    #: Families that need a language pack or a lemmatiser, switched off by ``neutral``.
    PACK_FAMILIES = ("gazetteer", "lemma_pos")

    def neutral(self) -> FeatureSet:
        """The set for ``--lang none``: without the families that need a language pack
        (``gazetteer``) or a lemmatiser (``lemma_pos``, and the conjunctions over POS), and —
        where wordfreq is installed — with how common each word is in the corpus's language
        instead (``frequency: {lang: auto}``, resolved at training; ``crfdeid.frequency``)."""
        if not any(self.on(f) for f in self.PACK_FAMILIES) and not any(
                a == "pos" for conj in self.conjunctions for a, _ in conj):
            return self
        data = self.to_dict()
        for family in self.PACK_FAMILIES:
            data["families"].pop(family, None)
        data["window"]["families"] = [f for f in data["window"]["families"] if f not in self.PACK_FAMILIES]
        data["conjunctions"] = [c for c in data["conjunctions"] if not any(a.startswith("pos") for a in c)]
        if "frequency" not in data["families"] and frequency.available():
            data["families"]["frequency"] = {"lang": frequency.AUTO}
            data["window"]["families"].append("frequency")
        data["name"] = f"{self.name}-neutral"
        return FeatureSet.from_dict(data)

    @property
    def frequency_language(self) -> str | None:
        """The language of the ``frequency`` family (``auto`` until training resolves it)."""
        spec = self.families.get("frequency")
        return spec["lang"] if spec else None

    def with_frequency_language(self, lang: str) -> FeatureSet:
        """The same set with ``frequency: {lang: auto}`` resolved to ``lang``."""
        data = self.to_dict()
        data["families"]["frequency"] = {"lang": lang}
        return FeatureSet.from_dict(data)

    def without(self, family: str) -> FeatureSet:
        """The same set with one family switched off (for ablations)."""
        data = self.to_dict()
        data["families"].pop(family, None)
        data["name"] = f"{self.name}-no-{family}"
        return FeatureSet.from_dict(data)


def _check_family(fam: str, value: Any, fail: Any) -> None:
    if isinstance(value, bool):
        if fam == "frequency" and value:
            raise fail("'frequency' needs the language of the word list: {lang: de} or {lang: auto}")
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
    elif fam == "frequency":
        if not isinstance(value, dict) or set(value) != {"lang"} or not isinstance(value["lang"], str):
            raise fail("'frequency' takes the language of the word list: {lang: de} (or {lang: auto}: "
                       "the training corpus's language)")
    else:
        raise fail(f"family {fam!r} is switched on with true or off with false")


# ---------------------------------------------------------------------------------------------
# Word-level families: depend on the token text only, so they are cached per distinct word.


#: ASCII letters and digits to their shape class; any other ASCII character stays itself.
_ASCII_SHAPE = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "X" * 26 + "x" * 26 + "d" * 10
)
_REPEATS = re.compile(r"(.)\1+", re.DOTALL)


def word_shape(text: str, collapse: bool) -> str:
    """``Navarro`` -> ``Xxxxxxx`` (long, capped at 10) or ``Xx`` (collapsed)."""
    if text.isascii():  # most words: one translate in C instead of a loop per character
        shape = text.translate(_ASCII_SHAPE)
        return (_REPEATS.sub(r"\1", shape) if collapse else shape)[:10]
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
        if not text.isalpha() and any(ch.isdigit() for ch in text):  # letters are never digits
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
    return line_structure_of([t.text for t in tokens])


def line_structure_of(texts: Sequence[str]) -> LineInfo:
    """``line_structure`` from the token texts of the line."""
    n = len(texts)
    keys = [""] * n
    in_key = [False] * n
    value_pos = [-1] * n
    if ":" not in texts:
        return LineInfo(keys, in_key, value_pos)
    current, pos = "", -1
    colon_positions = [i for i, t in enumerate(texts) if t == ":"]
    key_at: dict[int, tuple[int, str]] = {}
    for c in colon_positions:
        j = c - 1
        words: list[str] = []
        while j >= 0 and len(words) < _MAX_KEY_TOKENS and (_KEY_WORD.match(texts[j]) or texts[j] in "/.ºª"):
            if _KEY_WORD.match(texts[j]):
                words.append(texts[j])
            j -= 1
        first = j + 1
        # the key starts at its first capitalised word, or at the line start or a punctuation mark
        # ("Edad: 70 años Sexo: H." -> the second key is "Sexo", not "años Sexo")
        while first < c and not (first == 0 or texts[first - 1] in ".;,)" or texts[first][:1].isupper()):
            first += 1
        words = [t for t in texts[first:c] if _KEY_WORD.match(t)]
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
    return section_heading_of([t.text for t in tokens])


def section_heading_of(texts: Sequence[str]) -> str | None:
    """``section_heading`` from the token texts of the line."""
    words = [t for t in texts if t not in ".:"]
    if not 1 <= len(words) <= 6 or (texts[-1] not in (".", ":") and len(words) > 3):
        return None
    if any(not _KEY_WORD.match(w) for w in words) or not words[0][:1].isupper():
        return None
    if ":" in texts[:-1]:
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


@dataclass(frozen=True, slots=True)
class Part:
    """One family's context features, per token, as a tuple of feature strings. ``shared``
    parts are also copied to the neighbours (with the offset prefix)."""

    name: str
    shared: bool
    values: list[tuple[str, ...]]


@dataclass
class Columns:
    """The features of a run of whole lines, per token, before they are rendered as strings.

    ``words`` carry what depends on the word alone; ``parts`` the context features, family by
    family in a fixed order (a token's context features are its parts' tuples, in this order);
    ``attrs`` the single attributes the conjunction templates combine. Rendering
    (``FeatureExtractor.rows``) and the compiled scorer both read this one structure, so the
    strings crfsuite sees and the arrays the scorer sums cannot drift apart.
    """

    tokens: Sequence[Token]
    words: list[_Word]
    parts: list[Part]
    attrs: dict[str, list[str]]
    lines: list[tuple[int, int]]
    #: The section heading in force after the last line: the next block of lines starts in it.
    section: str = ""
    #: The tokens whose tags are wanted, ``[first, last)``; None: all (the others are context
    #: around a stretch of a long line).
    keep: tuple[int, int] | None = None

    def context(self, shared: bool, first: int, last: int) -> list[list[str]]:
        """Per token of ``[first, last)``: its own (``shared=False``) or shared features."""
        parts = [p.values for p in self.parts if p.shared == shared]
        return [[f for values in parts for f in values[i]] for i in range(first, last)]


#: Characters of text per block when a long note is streamed (whole lines; about 50k tokens).
BLOCK_CHARS = 256_000
#: A line longer than a block is tagged in stretches of this many tokens…
LONG_LINE_STRETCH = 16_384
#: …each with this many tokens of context on both sides.
LONG_LINE_CONTEXT = 128


def document_keys(text: str, long_line: int = BLOCK_CHARS) -> dict[str, set[str]]:
    """Folded capitalised words that are the value of a "Key:" field somewhere in the note,
    with the keys they appear under: the "document" family, computed in a light first pass
    (only lines with a colon can hold a field) so that the rest of the note can be streamed."""
    key_values: dict[str, set[str]] = {}
    at = text.find(":")
    while at != -1:
        newline = text.rfind("\n", 0, at)
        start = max(newline, text.rfind("\r", newline + 1, at)) + 1
        end = next_line_start(text, at)
        if end - start > long_line:
            line = _long_line(text, start, end)
            _collect_key_values(line.texts, line.info, key_values)
        else:
            texts = [t.text for t in tokenize(text, start, end)]
            _collect_key_values(texts, line_structure_of(texts), key_values)
        at = text.find(":", end)
    return key_values


def _collect_key_values(texts: Sequence[str], info: LineInfo, key_values: dict[str, set[str]]) -> None:
    for k, text in enumerate(texts):
        key = info.keys[k]
        if key and not info.in_key[k] and len(text) > 1 and text[:1].isupper():
            key_values.setdefault(fold(text), set()).add(key)


@dataclass(frozen=True)
class LineFragment:
    """A stretch of one long line, with what its features need from the whole line."""

    info: LineInfo  # keys, in_key and value positions of the stretch's tokens
    kv_line: bool  # the line holds a "Key:" field somewhere
    at_line_start: bool
    at_line_end: bool
    previous_text: str | None  # the token before the stretch in the line


@dataclass
class _LongLine:
    """A line too long to hold as tokens: its token texts and offsets, and its structure."""

    texts: list[str]
    starts: array[int]
    ends: array[int]
    info: LineInfo

    def token(self, i: int, line_index: int) -> Token:
        return Token(self.starts[i], self.ends[i], self.texts[i], line_index, i == 0)


def _long_line(text: str, start: int, end: int) -> _LongLine:
    """Tokenize one line a stretch at a time (cut at whitespace, where tokens never reach
    across), keeping only texts and offsets."""
    texts: list[str] = []
    starts, ends = array("q"), array("q")
    pos = start
    while pos < end:
        cut = end
        if pos + _STRETCH < end:
            space = _SPACE.search(text, pos + _STRETCH, end)
            cut = space.start() if space else end
        for t in tokenize(text, pos, cut):
            texts.append(t.text)
            starts.append(t.start)
            ends.append(t.end)
        pos = cut
    return _LongLine(texts, starts, ends, line_structure_of(texts))


_STRETCH = 1 << 16
_SPACE = re.compile(r"\s")


def _line_tuple(
    in_key: bool, section: str, bol: bool, eol: bool, after_colon: bool, vpos: int, kv_line: bool
) -> tuple[str, ...]:
    """The header and position features of a token, in the order crfsuite has always seen them."""
    out = []
    if in_key:
        out.append("in_key")
    if section:
        out.append(f"sec={section}")
    if bol:
        out.append("bol")
    if eol:
        out.append("eol")
    if after_colon:
        out.append("after_colon")
    if vpos >= 0:
        out.append(f"vpos={vpos if vpos < 4 else '4+'}")
    if kv_line:
        out.append("kv_line")
    return tuple(out)


class FeatureExtractor:
    """Turns a tokenized document into crfsuite sequences according to a ``FeatureSet``."""

    def __init__(
        self,
        feature_set: FeatureSet,
        pack: LanguagePack | None,
        annotator: LinguisticAnnotator,
        gazetteer: GazetteerMatcher | None = None,
        rules: RuleEngine | None = None,
        skeleton_vocabulary: Iterable[str] = (),
    ) -> None:
        self.feature_set = feature_set
        self.pack = pack
        self.annotator = annotator
        fs = feature_set
        if pack is None and gazetteer is None and fs.on("gazetteer"):
            raise FeatureSetError(f"feature set {fs.name!r} uses the gazetteers, and there is no pack",
                                  hint="switch the gazetteer family off (FeatureSet.neutral) for --lang none")
        self.gazetteer = (
            gazetteer if gazetteer is not None or not fs.on("gazetteer") else GazetteerMatcher(pack)
        )
        self.rules = rules if rules is not None or not fs.on("rules") else RuleEngine.from_pack(
            pack.language if pack is not None else "none")
        self.skeleton_vocabulary = frozenset(skeleton_vocabulary)
        self._families = dict(fs.families)
        self._wfams = {f: fs.families[f] for f in fs.window_families}
        #: Neighbour offsets whose features are copied (-3 … 3 without 0).
        self.offsets = [o for o in range(-fs.window_size, fs.window_size + 1) if o != 0]
        self._word_cache: dict[str, _Word] = {}
        lang = fs.frequency_language
        self.frequencies = frequency.Frequencies(lang) if lang is not None else None
        self._window_frequency = "frequency" in self._wfams
        skeleton = fs.families.get("skeleton") or {}
        templates = [
            (f"sk[{a},{b}]=", tuple(("sk", o) for o in range(a, b + 1)))
            for a, b in (skeleton.get("ngrams", []) if skeleton else [])
        ]
        templates += [("|".join(f"{a}{o}" for a, o in conj) + "=", conj) for conj in fs.conjunctions]
        #: Conjunction templates: (feature name prefix, ((attribute, offset), …)).
        self.templates: list[tuple[str, tuple[tuple[str, int], ...]]] = templates
        self.attrs_needed = {a for _, conj in templates for a, _ in conj}
        self._prefix_cache: dict[int, dict[str, str]] = {}
        self._tuples: dict[str, dict[Any, tuple[str, ...]]] = {}
        self._line_features: dict[tuple[Any, ...], tuple[str, ...]] = {}
        #: At inference, the attributes the model knows (set by the tagger): every other feature
        #: has no weight, and handing it to crfsuite costs a string copy and a lookup for nothing.
        self.known: frozenset[str] | None = None
        self._bases: frozenset[str] = frozenset()
        self._bases_of: frozenset[str] | None = None
        self._canonical_map: dict[str, str] = {}
        self._canonical_of: frozenset[str] | None = None

    # -- per word -------------------------------------------------------------------------
    def word(self, text: str) -> _Word:
        """The features of a word that depend on its text alone (cached)."""
        cached = self._word_cache.get(text)
        if cached is None:
            own = _word_features(text, self._families, window=False)
            base = _word_features(text, self._wfams, window=True)
            if self.frequencies is not None:
                common = self.frequencies.feature(text.lower())
                if common is not None:
                    own.append(common)
                    if self._window_frequency:
                        base.append(common)
            known = self.known
            if known is None:
                windowed = {o: [f"{o}:{f}" for f in base] for o in self.offsets}
            else:  # only features the model knows at some offset get an offset prefix built
                # and each is the model's own string object: a cached word holds no copies
                # (-20 MB over MEDDOCAN dev, the same speed)
                canonical = self._canonical(known)
                own = [c for f in own if (c := canonical.get(f)) is not None]
                bases = self._window_bases(known)
                base = [f for f in base if f in bases]
                windowed = {o: [c for f in base if (c := canonical.get(f"{o}:{f}")) is not None]
                            for o in self.offsets}
            cached = _Word(own, windowed, text.lower(), word_shape(text, True), self.skeleton_token(text))
            if len(self._word_cache) < 300_000:
                self._word_cache[text] = cached
        return cached

    def _canonical(self, known: frozenset[str]) -> dict[str, str]:
        """Each feature the model knows, mapped to itself (built once per ``known``)."""
        if self._canonical_of is not known:
            self._canonical_map = {f: f for f in known}
            self._canonical_of = known
        return self._canonical_map

    def _window_bases(self, known: frozenset[str]) -> frozenset[str]:
        """The features the model knows as a neighbour's (``-1:lw=de`` -> ``lw=de``)."""
        if self._bases_of is not known:
            prefixes = tuple(f"{o}:" for o in self.offsets)
            self._bases = frozenset(f.split(":", 1)[1] for f in known if f.startswith(prefixes))
            self._bases_of = known
        return self._bases

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
        self,
        document: Document,
        tokens: Sequence[Token],
        rule_matches: Iterable[RuleMatch] | None = None,
        templates: Sequence[tuple[str, tuple[tuple[str, int], ...]]] | None = None,
    ) -> list[Segment]:
        """Feature sequences of a document: one per line (or one for the whole document).
        ``templates``: the conjunction templates rendered (default: all; see ``rows``)."""
        if not tokens:
            return []
        cols = self.columns(document, tokens, rule_matches)
        ranges = cols.lines if self.feature_set.sequence == "line" else [(0, len(tokens))]
        return [Segment(first, last, self.rows(cols, first, last, templates)) for first, last in ranges]

    def columns(
        self,
        document: Document,
        tokens: Sequence[Token],
        rule_matches: Iterable[RuleMatch] | None = None,
        *,
        doc_keys: Mapping[str, set[str]] | None = None,
        section: str = "",
        gazetteer_matches: Sequence[GazetteerMatch] | None = None,
        previous: Token | None = None,
        fragment: LineFragment | None = None,
        keep: tuple[int, int] | None = None,
    ) -> Columns:
        """The per-token features of ``tokens``: the whole document, or a block of whole lines
        of it. For a block, the caller passes what depends on the rest of the note: the
        document's header values (``doc_keys``), the section heading in force, the gazetteer
        matches (computed with look-ahead past the block), and the token before the block (a
        rule match reaching into the block from there continues with ``I-``). ``fragment``
        says the tokens are a stretch of one long line, and brings what depends on all of it;
        ``keep`` the tokens whose tags are wanted (the others are context)."""
        fams = self._families
        n = len(tokens)
        texts = [t.text for t in tokens]
        wf = self.feature_set.window_families
        attrs: dict[str, list[str]] = {}
        parts: list[Part] = []

        if "lemma_pos" in fams or any(a == "pos" for c in self.feature_set.conjunctions for a, _ in c):
            analysis = self.annotator.analyse(tokens)
            attrs["pos"] = list(analysis.pos)
            if "lemma_pos" in fams:
                parts.append(Part("lem", False, self._singles("lem=", analysis.lemmas)))
                parts.append(Part("pos", "lemma_pos" in wf, self._singles("pos=", analysis.pos)))
        if "gazetteer" in fams and self.gazetteer is not None:
            members = self.gazetteer.membership(tokens, gazetteer_matches)
            parts.append(Part("gz", "gazetteer" in wf, self._tag_tuples("gz=", members)))
        if "rules" in fams and self.rules is not None:
            matches = self.rules.run(document).feature_matches if rule_matches is None else rule_matches
            if previous is None:
                per_token = token_rule_features(tokens, matches)
            else:  # the token before the block takes the B- of a match that started there
                per_token = token_rule_features([previous, *tokens], matches)[1:]
            parts.append(Part("rule", "rules" in wf, self._tag_tuples("rule=", map(tuple, per_token))))

        lines = split_lines(tokens) if fragment is None else ([(0, n)] if n else [])
        keys = [""] * n
        need_keys = (
            "header" in fams
            or "document" in fams
            or any(a == "key" for c in self.feature_set.conjunctions for a, _ in c)
        )
        header, position = "header" in fams, "position" in fams
        if need_keys or position:
            key_values: dict[str, set[str]] = {}
            key_part: list[tuple[str, ...]] = [()] * n
            line_part: list[tuple[str, ...]] = [()] * n
            line_features = self._line_features
            key_feature = self._single("key=")
            for first, last in lines:
                line_texts = texts[first:last]
                if fragment is None:
                    info = line_structure_of(line_texts)
                    heading = section_heading_of(line_texts) if header else None
                    kv_line = position and bool(info.keys[0] or any(info.in_key))
                    bol, eol, before = 0, last - first - 1, None
                else:  # a piece of a long line: what depends on the whole line comes with it
                    info, heading = fragment.info, None
                    kv_line = position and fragment.kv_line
                    bol = 0 if fragment.at_line_start else -1
                    eol = last - first - 1 if fragment.at_line_end else -1
                    before = fragment.previous_text
                sec = section if header else ""
                if fragment is None and ":" not in line_texts:
                    # no field in the line: its tokens differ only in being first or last
                    size = last - first
                    first_t, middle_t, last_t = (
                        self._line_tuple_of((False, sec, position and k == 0, position and k == size - 1,
                                             False, -1, False))
                        for k in (0, min(1, size - 1), size - 1)
                    )
                    line_part[first:last] = [middle_t] * size
                    line_part[last - 1] = last_t
                    line_part[first] = first_t
                    if heading is not None:
                        section = heading
                    continue
                for k in range(last - first):
                    i = first + k
                    key = info.keys[k]
                    keys[i] = key
                    if header and key:
                        key_part[i] = key_feature(key)
                    vp = info.value_pos[k] if position else -1
                    signature = (
                        header and info.in_key[k],
                        sec,
                        position and k == bol,
                        position and k == eol,
                        position and (texts[i - 1] == ":" if k > 0 else before == ":"),
                        vp if vp < 4 else 4,
                        kv_line,
                    )
                    found = line_features.get(signature)
                    if found is None:
                        found = line_features[signature] = _line_tuple(*signature)
                    line_part[i] = found
                if "document" in fams and doc_keys is None:
                    _collect_key_values(line_texts, info, key_values)
                if heading is not None:
                    section = heading
            if header:
                parts.append(Part("key", "header" in wf, key_part))
            parts.append(Part("line", False, line_part))
            if doc_keys is None:
                doc_keys = key_values
            if "document" in fams and doc_keys:
                parts.append(Part("dockey", False, self._dockeys(texts, doc_keys)))
        attrs["key"] = keys

        distinct = {t: self.word(t) for t in dict.fromkeys(texts)}
        words = list(map(distinct.__getitem__, texts))
        if "sk" in self.attrs_needed:
            attrs["sk"] = [w.skeleton for w in words]
        if "lw" in self.attrs_needed:
            attrs["lw"] = [w.lower for w in words]
        if "sh" in self.attrs_needed:
            attrs["sh"] = [w.shape for w in words]
        return Columns(tokens, words, parts, attrs, lines, section, keep)

    def _single(self, prefix: str) -> Callable[[str], tuple[str, ...]]:
        """value -> ``(prefix + value,)``, one shared tuple per distinct feature."""
        cache = self._tuples.setdefault(prefix, {})
        if len(cache) > 200_000:
            cache.clear()

        def feature(value: str) -> tuple[str, ...]:
            found = cache.get(value)
            if found is None:
                found = cache[value] = (prefix + value,)
            return found

        return feature

    def _singles(self, prefix: str, values: Sequence[str]) -> list[tuple[str, ...]]:
        """``(prefix + value,)`` per value (the per-token loop stays in C)."""
        cache = self._tuples.setdefault(prefix, {})
        if len(cache) > 200_000:
            cache.clear()
        for value in set(values).difference(cache):
            cache[value] = (prefix + value,)
        return list(map(cache.__getitem__, values))

    def _tag_tuples(self, prefix: str, tags: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """``(prefix + tag, …)`` per tuple of tags (gazetteer lists, rule families)."""
        cache = self._tuples.setdefault(prefix, {(): ()})
        if len(cache) > 200_000:
            cache.clear()
            cache[()] = ()
        tags = list(tags)
        for key in set(tags).difference(cache):
            cache[key] = tuple(prefix + t for t in key)
        return list(map(cache.__getitem__, tags))

    def _line_tuple_of(self, signature: tuple[Any, ...]) -> tuple[str, ...]:
        found = self._line_features.get(signature)
        if found is None:
            found = self._line_features[signature] = _line_tuple(*signature)
        return found

    @staticmethod
    def _dockeys(texts: Sequence[str], doc_keys: Mapping[str, set[str]]) -> list[tuple[str, ...]]:
        """Per token, ``dockey=<key>`` for each header field whose value holds the same word."""
        out: list[tuple[str, ...]] = []
        seen: dict[str, tuple[str, ...]] = {}
        for t in texts:
            if len(t) > 1 and t[:1].isupper():
                found = seen.get(t)
                if found is None:
                    found = seen[t] = tuple(f"dockey={key}" for key in sorted(doc_keys.get(fold(t), ())))
                out.append(found)
            else:
                out.append(())
        return out

    def rows(
        self,
        cols: Columns,
        first: int,
        last: int,
        templates: Sequence[tuple[str, tuple[tuple[str, int], ...]]] | None = None,
    ) -> list[list[str]]:
        """The crfsuite feature strings of tokens ``[first, last)`` taken as one sequence.
        ``templates`` (default: all of ``self.templates``) lets training's feature cache leave out
        the skeleton n-grams, whose vocabulary changes with the training part, and render them
        per fold with ``render_templates``."""
        words = cols.words
        known = self.known
        ctx = cols.context(False, first, last)
        shared = cols.context(True, first, last)
        if known is None:
            rows = [words[i].own + ctx[i - first] + shared[i - first] for i in range(first, last)]
        else:  # word features are filtered once per word in the cache; the rest here
            rows = [
                words[i].own + [f for f in ctx[i - first] + shared[i - first] if f in known]
                for i in range(first, last)
            ]
        for o in self.offsets:
            lo, hi = max(first, first - o), min(last, last - o)  # tokens whose neighbour exists
            for i in range(lo, hi):
                row = rows[i - first]
                j = i + o
                row.extend(words[j].windowed[o])
                if shared[j - first]:
                    row.extend(self._prefixed(o, shared[j - first]))
            if o in (-1, 1) and (known is None or ("BOS" if o < 0 else "EOS") in known):
                edge = rows[0] if o < 0 else rows[-1]
                edge.append("BOS" if o < 0 else "EOS")
        templates = self.templates if templates is None else templates
        self.render_templates(rows, cols.attrs, first, last, templates)
        return rows

    def render_templates(
        self,
        rows: list[list[str]],
        attrs: Mapping[str, Sequence[str]],
        first: int,
        last: int,
        templates: Sequence[tuple[str, tuple[tuple[str, int], ...]]],
    ) -> None:
        """Append each conjunction template's feature, in template order, to the rows of tokens
        ``[first, last)`` of the attribute columns ``attrs`` (padded with <S>/</S> at the edges)."""
        known = self.known
        size = last - first
        needed = {a for _, conj in templates for a, _ in conj}
        pad = 5
        padded = {
            a: [BOS] * pad + list(v[first:last]) + [EOS] * pad
            for a, v in attrs.items()
            if a in needed
        }
        for name, conj in templates:
            columns = [padded[a][pad + o : pad + o + size] for a, o in conj]
            for row, values in zip(rows, zip(*columns, strict=False), strict=False):
                feature = name + "|".join(values)
                if known is None or feature in known:
                    row.append(feature)

    def blocks(
        self,
        document: Document,
        rule_matches: Iterable[RuleMatch] | None = None,
        block_chars: int = BLOCK_CHARS,
        stretch: int = LONG_LINE_STRETCH,
    ) -> Iterator[Columns]:
        """The note as consecutive blocks of whole lines, each with its features: what lets a
        note of any size be tagged in memory bounded by the block, not the note.

        Every block's features are exactly those the whole note would give its tokens. What
        reaches across lines is carried over: the document's header values (a first pass), the
        section heading, rule matches spanning a cut, and gazetteer matches (a multi-word entry
        may run over a line break): a block is cut only at a line start that no gazetteer match
        crosses, found with a look-ahead of twice the longest entry.

        A line longer than ``block_chars`` comes as overlapping stretches of ``stretch``
        tokens (``Columns.keep``) with ``LONG_LINE_CONTEXT`` tokens of context on each side;
        its structure ("Key:" fields) is read from the whole line first. Within the context
        the features may differ from the whole line's (a gazetteer match cut off); the tagger
        does not keep those tokens' tags.
        """
        text = document.text
        fams = self._families
        found: Iterable[RuleMatch] = ()
        if "rules" in fams and self.rules is not None:
            found = self.rules.run(document).feature_matches if rule_matches is None else rule_matches
        feed = _MatchFeed(found)
        doc_keys = None
        if "document" in fams and len(text) > block_chars:
            doc_keys = document_keys(text, block_chars)
        gazetteer = self.gazetteer if "gazetteer" in fams else None
        lookahead = 2 * gazetteer.max_tokens + 2 if gazetteer is not None else 0
        pos, line, section = 0, 0, ""
        carry: list[Token] = []
        previous: Token | None = None
        while pos < len(text) or carry:
            end = len(text)
            if pos + block_chars < len(text):
                end = _last_line_start(text, pos, pos + block_chars)
            long_line = end == pos  # the line at pos is longer than a block
            tokens = carry + (tokenize(text, pos, end, line) if not long_line else [])
            line += count_breaks(text, pos, end)
            pos = end
            at_end = pos >= len(text) or long_line
            gz = gazetteer.match(tokens) if gazetteer is not None else None
            cut = len(tokens) if at_end else _safe_cut(tokens, gz, lookahead)
            if cut:
                block = tokens[:cut]
                carry = tokens[cut:]
                cols = self.columns(
                    document,
                    block,
                    feed.take(block[0].start, block[-1].end),
                    doc_keys=doc_keys,
                    section=section,
                    gazetteer_matches=None if gz is None else [m for m in gz if m.start < cut],
                    previous=previous,
                )
                section, previous = cols.section, block[-1]
                yield cols
            elif not long_line:
                carry = tokens  # no clean line start yet: read more
                continue
            if long_line:
                end = next_line_start(text, pos)
                whole = _long_line(text, pos, end)
                stretches = self._stretches(document, whole, line, feed, doc_keys, section, previous, stretch)
                for cols in stretches:
                    previous = cols.tokens[-1]
                    yield cols
                heading = section_heading_of(whole.texts) if "header" in fams and whole.texts else None
                section = heading or section
                del whole
                line += count_breaks(text, pos, end)
                pos = end

    def _stretches(
        self,
        document: Document,
        line: _LongLine,
        line_index: int,
        feed: _MatchFeed,
        doc_keys: Mapping[str, set[str]] | None,
        section: str,
        previous: Token | None,
        stretch: int,
    ) -> Iterator[Columns]:
        """A long line as stretches of ``stretch`` tokens, each with context on both sides."""
        n = len(line.texts)
        if not n:
            return
        info = line.info
        kv_line = bool(info.keys[0] or any(info.in_key))
        context = LONG_LINE_CONTEXT
        for keep_first in range(0, n, stretch):
            keep_last = min(n, keep_first + stretch)
            first, last = max(0, keep_first - context), min(n, keep_last + context)
            tokens = [line.token(i, line_index) for i in range(first, last)]
            before = previous if first == 0 else line.token(first - 1, line_index)
            fragment = LineFragment(
                LineInfo(info.keys[first:last], info.in_key[first:last], info.value_pos[first:last]),
                kv_line,
                first == 0,
                last == n,
                line.texts[first - 1] if first else None,
            )
            yield self.columns(
                document,
                tokens,
                feed.take(tokens[0].start, tokens[-1].end),
                doc_keys=doc_keys if doc_keys is not None else {},
                section=section,
                previous=before,
                fragment=fragment,
                keep=(keep_first - first, keep_last - first),
            )


class _MatchFeed:
    """Rule matches handed out by stretch of text, in order (a match may reach over several)."""

    def __init__(self, matches: Iterable[RuleMatch]) -> None:
        self._matches = sorted(matches, key=lambda m: m.start)
        self._next = 0
        self._active: list[RuleMatch] = []

    def take(self, start: int, end: int) -> list[RuleMatch]:
        """The matches overlapping ``[start, end)``; ``start`` never goes back."""
        while self._next < len(self._matches) and self._matches[self._next].start < end:
            self._active.append(self._matches[self._next])
            self._next += 1
        self._active = [m for m in self._active if m.end > start]
        return [m for m in self._active if m.start < end]


def _last_line_start(text: str, lo: int, hi: int) -> int:
    """The last line start in ``(lo, hi]`` (``lo`` if there is none)."""
    newline = text.rfind("\n", lo, hi)
    cr = text.rfind("\r", max(lo, newline), hi)
    j = max(newline, cr)
    if j < lo:
        return lo
    return j + 2 if text.startswith("\r\n", j) else j + 1


def _safe_cut(tokens: Sequence[Token], matches: Sequence[GazetteerMatch] | None, lookahead: int) -> int:
    """The last line start at least ``lookahead`` tokens before the end that no gazetteer match
    crosses (0 if there is none): the gazetteer result up to there is final."""
    limit = len(tokens) - lookahead
    if limit <= 0:
        return 0
    crossed = bytearray(limit + 1)
    for m in matches or ():
        if m.start < limit:
            crossed[m.start + 1 : min(m.end, limit + 1)] = b"\x01" * (min(m.end, limit + 1) - m.start - 1)
    for c in range(limit, 0, -1):
        if tokens[c].line_start and not crossed[c]:
            return c
    return 0


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
