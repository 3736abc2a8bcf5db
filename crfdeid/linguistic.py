"""Linguistic annotators: a lemma and a part-of-speech tag for every token, for the features.

One interface, two backends (and ``none``, the language-neutral stand-in of ``--lang none``:
the lowercase word as lemma, NUM/PUNCT/SYM/X as POS), chosen by a small configuration that a
trained model records (``describe()``), so a model is always run with the annotator it was
trained with:

``default`` — zero download, works on a fresh install. Lemmas come from simplemma's Spanish
    lexicon (read as a trie kept in crfdeid's cache: ``crfdeid.lexicon``). POS is only what can
    be had honestly without a trained tagger:
      * the closed word classes listed in the language pack (``word_classes.yaml``: DET, ADP,
        CCONJ, SCONJ, PRON, AUX, ADV, NUM), one class per word form, no disambiguation;
      * ``NUM`` for digit tokens, ``PUNCT`` for punctuation, ``SYM`` for symbols;
      * ``OPEN`` for any other word that simplemma's lexicon knows (a noun, verb, adjective…,
        not told apart) and ``OOV`` for a word it does not know — names, typos, abbreviations
        and foreign words, which is exactly what a de-identifier wants to notice.
    It does not tell nouns from verbs or adjectives, does not disambiguate ("la" is always DET),
    and does not tag proper nouns as such.

``stanza`` — Stanford's neural tagger and lemmatizer (``pip install 'crfdeid[stanza]'``), run
    on *our* tokens (pretokenized; offsets never move), UPOS tags and lemmas. Models are found
    through the configuration (``model_dir``) or ``$STANZA_RESOURCES_DIR``; tagging never
    downloads anything. ``crfdeid models download es`` fetches the Spanish models on a machine
    with internet access.
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .errors import CrfdeidError
from .langpack import LanguagePack, fold, load_pack
from .types import Token

log = logging.getLogger(__name__)

BACKENDS = ("default", "stanza", "none")
#: Longest sequence handed to stanza at once; longer lines are cut at sentence punctuation or,
#: failing that, every MAX_SENTENCE tokens (its tagger is a BiLSTM: cost grows with length).
MAX_SENTENCE = 120


class AnnotatorError(CrfdeidError):
    """A linguistic annotator cannot be set up (missing extra, missing model, bad config)."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """Lemma and POS per token, parallel to the token list."""

    lemmas: tuple[str, ...]
    pos: tuple[str, ...]


class LinguisticAnnotator(Protocol):
    """What the feature extractor needs: lemma and POS for each of a document's tokens."""

    name: str

    def analyse(self, tokens: Sequence[Token]) -> Analysis: ...

    def describe(self) -> dict[str, Any]: ...


#: Characters Unicode files under punctuation that Universal Dependencies tags as symbols.
_SYMBOL_PUNCT = frozenset("%‰#&@*†‡§")


def _char_class(text: str) -> str | None:
    """NUM / PUNCT / SYM from the characters alone, or None for words."""
    if text.isdigit():
        return "NUM"
    if len(text) == 1 and not text.isalnum():
        category = unicodedata.category(text)
        return "PUNCT" if category.startswith("P") and text not in _SYMBOL_PUNCT else "SYM"
    return None


class DefaultAnnotator:
    """simplemma lemmas + closed-class POS from the language pack; no download, no model."""

    name = "default"

    def __init__(self, pack: LanguagePack | str = "es") -> None:
        try:
            from .lexicon import lexicon
        except ImportError as exc:  # dependencies of the package: only a broken install lacks them
            raise AnnotatorError(
                f"the default annotator needs simplemma and marisa-trie ({exc})",
                hint="pip install simplemma marisa-trie platformdirs",
            ) from exc
        self._lexicon = lexicon()
        self.pack = load_pack(pack) if isinstance(pack, str) else pack
        self.language = self.pack.language
        self._classes = self.pack.word_classes
        self._cache: dict[str, tuple[str, str]] = {}

    def _analyse_word(self, text: str) -> tuple[str, str]:
        char_class = _char_class(text)
        if char_class is not None:
            return text, char_class
        lower = text.lower()
        word_class = self._classes.get(fold(text))  # the pack's word lists are folded
        lemma = self._lexicon.lemmatize(text, self.language).lower()
        if word_class is None:
            known = self._lexicon.is_known(lower, self.language) or lemma != lower
            word_class = "OPEN" if known and text.isalpha() else "OOV"
        return lemma, word_class

    def analyse(self, tokens: Sequence[Token]) -> Analysis:
        lemmas, tags = [], []
        cache = self._cache
        for token in tokens:
            result = cache.get(token.text)
            if result is None:
                result = self._analyse_word(token.text)
                if len(cache) < 200_000:
                    cache[token.text] = result
            lemmas.append(result[0])
            tags.append(result[1])
        return Analysis(tuple(lemmas), tuple(tags))

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "language": self.language,
            "simplemma": importlib.metadata.version("simplemma"),
            "pack_version": self.pack.version,
        }


class NoAnnotator:
    """No lemmatiser, for ``--lang none``: the lemma is the lowercase word and the POS only what
    the characters say (NUM, PUNCT, SYM), ``X`` for any word. Language-neutral, no pack needed."""

    name = "none"

    def analyse(self, tokens: Sequence[Token]) -> Analysis:
        lemmas = tuple(t.text.lower() for t in tokens)
        return Analysis(lemmas, tuple(_char_class(t.text) or "X" for t in tokens))

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name}


def sentences(tokens: Sequence[Token], max_len: int = MAX_SENTENCE) -> list[list[int]]:
    """Token indices grouped into tagger input: one group per line, long lines cut after
    sentence punctuation, and anything still longer than ``max_len`` cut into pieces."""
    groups: list[list[int]] = []
    current: list[int] = []
    for i, token in enumerate(tokens):
        if current and token.line_start:
            groups.append(current)
            current = []
        current.append(i)
        if (token.text in {".", "?", "!", ";"} and len(current) >= 20) or len(current) >= max_len:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def stanza_resources_dir(model_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where stanza's models live: the argument, else ``$STANZA_RESOURCES_DIR``, else stanza's
    own default (``~/stanza_resources``)."""
    if model_dir:
        return Path(model_dir)
    env = os.environ.get("STANZA_RESOURCES_DIR")
    if env:
        return Path(env)
    return Path.home() / "stanza_resources"


def _import_stanza() -> Any:
    try:
        import stanza
    except ImportError as exc:
        raise AnnotatorError(
            "the stanza backend needs the 'stanza' extra",
            hint="pip install 'crfdeid[stanza]' (install a CPU build of torch first "
            "to avoid a multi-GB GPU download)",
        ) from exc
    return stanza


class StanzaAnnotator:
    """Stanza's POS tagger and lemmatizer over our own tokens (pretokenized input)."""

    name = "stanza"

    def __init__(
        self,
        language: str = "es",
        model_dir: str | os.PathLike[str] | None = None,
        package: str | None = None,
        pos_model_path: str | None = None,
        lemma_model_path: str | None = None,
        batch_size: int = 500,
    ) -> None:
        stanza = _import_stanza()
        self.language = language
        self.model_dir = stanza_resources_dir(model_dir)
        self.package = package
        hint = (
            f"run `crfdeid models download {language}` on a machine with internet access "
            f"(or copy its stanza_resources folder here) and point --stanza-dir or "
            f"STANZA_RESOURCES_DIR at it"
        )
        if not (self.model_dir / "resources.json").is_file():
            raise AnnotatorError(
                f"no stanza models found in {self.model_dir} (resources.json is missing)", hint=hint
            )
        options: dict[str, Any] = {
            "lang": language,
            "dir": str(self.model_dir),
            "processors": "tokenize,pos,lemma",
            "tokenize_pretokenized": True,
            "download_method": None,
            "use_gpu": False,
            "pos_batch_size": batch_size,
            "lemma_batch_size": batch_size,
            "logging_level": "WARN",
        }
        if package:
            options["package"] = package
        if pos_model_path:
            options["pos_model_path"] = str(pos_model_path)
            options["pos_pretrain_path"] = None
        if lemma_model_path:
            options["lemma_model_path"] = str(lemma_model_path)
        self._paths = {"pos_model_path": pos_model_path, "lemma_model_path": lemma_model_path}
        try:
            self._pipeline = stanza.Pipeline(**options)
        except Exception as exc:  # stanza raises several types for a missing/corrupt model
            raise AnnotatorError(
                f"stanza could not load its {language!r} models from {self.model_dir}: "
                f"{type(exc).__name__}: {exc}",
                hint=hint,
            ) from exc
        self._version = importlib.metadata.version("stanza")

    def analyse(self, tokens: Sequence[Token]) -> Analysis:
        if not tokens:
            return Analysis((), ())
        groups = sentences(tokens)
        doc = self._pipeline([[tokens[i].text for i in group] for group in groups])
        lemmas: list[str] = [""] * len(tokens)
        tags: list[str] = [""] * len(tokens)
        for group, sentence in zip(groups, doc.sentences, strict=True):
            words = sentence.words
            if len(words) != len(group):  # a multi-word-token expansion would shift tokens
                raise AnnotatorError(
                    "stanza returned a different number of words than tokens given",
                    hint="use a pipeline without the mwt processor",
                )
            for i, word in zip(group, words, strict=True):
                lemmas[i] = (word.lemma or word.text).lower()
                tags[i] = word.upos or "X"
        return Analysis(tuple(lemmas), tuple(tags))

    def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = {"backend": self.name, "language": self.language, "stanza": self._version}
        if self.package:
            described["package"] = self.package
        described.update({k: Path(v).name for k, v in self._paths.items() if v})
        return described


def make_annotator(
    config: str | Mapping[str, Any] | None = None,
    pack: LanguagePack | str | None = "es",
) -> LinguisticAnnotator:
    """Build an annotator from a configuration: ``"default"``, ``"stanza"``, ``"none"`` or a
    mapping such as ``{"backend": "stanza", "model_dir": "...", "package": "ancora"}`` (what a
    model records). Without a pack (``--lang none``) only ``none`` works."""
    if config is None:
        config = "default"
    if isinstance(config, str):
        config = {"backend": config}
    options = dict(config)
    backend = options.pop("backend", "default")
    if backend == "none" or (backend == "default" and pack is None):
        return NoAnnotator()
    if backend == "default":
        unknown = set(options) - {"language", "simplemma", "pack_version"}
        if unknown:
            raise AnnotatorError(f"unknown option(s) for the default annotator: {sorted(unknown)}")
        return DefaultAnnotator(pack)
    if backend == "stanza":
        allowed = {"language", "model_dir", "package", "pos_model_path", "lemma_model_path", "batch_size"}
        options.pop("stanza", None)  # recorded version, informative only
        unknown = set(options) - allowed
        if unknown:
            raise AnnotatorError(
                f"unknown option(s) for the stanza annotator: {sorted(unknown)}",
                hint=f"allowed: {', '.join(sorted(allowed))}",
            )
        return StanzaAnnotator(**options)
    raise AnnotatorError(
        f"unknown linguistic backend {backend!r}", hint=f"choose one of: {', '.join(BACKENDS)}"
    )


def download_stanza_models(language: str, model_dir: str | os.PathLike[str] | None = None) -> Path:
    """Fetch stanza's tokenize/pos/lemma models for ``language`` (needs internet access)."""
    stanza = _import_stanza()
    target = stanza_resources_dir(model_dir)
    try:
        stanza.download(
            language, model_dir=str(target), processors="tokenize,pos,lemma", logging_level="WARN"
        )
    except Exception as exc:  # network errors come in many types (requests, urllib3, OSError)
        raise AnnotatorError(
            f"could not download stanza models for {language!r} into {target}: {type(exc).__name__}: {exc}",
            hint="this needs internet access; on an offline machine, copy a "
            "stanza_resources folder from a connected one",
        ) from exc
    return target
