"""simplemma's lexicons as marisa tries kept in crfdeid's cache: the default annotator's lemmas.

Why: simplemma's default backend decodes a language's lexicon into a Python dict on first use
— for Spanish ~1 s and +80 MB in every process that lemmatises. Its trie backend
(``TrieDictionaryFactory``, marisa-trie) answers the same lookups from a 4 MB trie that opens in
milliseconds once built. simplemma's own disk cache of those tries is written in place (a worker
process could read half a file), so the tries are kept in ``crfdeid.cache`` instead: atomic,
checksummed, rebuilt when simplemma, marisa-trie or the shipped lexicon change. Where the
cache folder cannot be written, the lexicon is simplemma's own dict, as before: building a trie
for one process costs more. Lemmas and known words are the default backend's either way
(``tests/test_lexicon.py`` compares them word for word).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from functools import cache, partial

from marisa_trie import BytesTrie
from simplemma import Lemmatizer
from simplemma.strategies import DefaultStrategy, DictionaryLookupStrategy
from simplemma.strategies.dictionaries.dictionary_factory import (
    DATA_FOLDER,
    SUPPORTED_LANGUAGES,
    MappingStrToByteString,
    _load_dictionary_from_disk,
)
from simplemma.strategies.dictionaries.trie_dictionary_factory import TrieDictionaryFactory, TrieWrapDict
from simplemma.utils import normalize_token

from . import cache as disk_cache


class CachedTrieFactory(TrieDictionaryFactory):
    """simplemma's trie dictionaries, stored in and read from ``crfdeid.cache``."""

    def __init__(self) -> None:
        super().__init__(use_disk_cache=False)  # simplemma's own (non-atomic) disk cache: off

    def _get_dictionary_uncached(self, lang: str) -> Mapping[str, str]:
        if lang not in SUPPORTED_LANGUAGES:
            raise ValueError(f"Unsupported language: {lang}")
        key = disk_cache.entry_key(
            lang,
            importlib.metadata.version("simplemma"),
            importlib.metadata.version("marisa-trie"),
            (DATA_FOLDER / f"{lang}.plzma").read_bytes(),
        )
        lexicon = disk_cache.fetch(
            f"simplemma-{lang}", key, partial(self._build_trie, lang), BytesTrie.tobytes, _trie_from_bytes,
            # nowhere to keep the trie: simplemma's own dict costs less to build for one process
            unstored=partial(_load_dictionary_from_disk, lang),
        )
        if isinstance(lexicon, BytesTrie):
            return TrieWrapDict(lexicon)
        return MappingStrToByteString(lexicon)


def _trie_from_bytes(data: bytes) -> BytesTrie:
    return BytesTrie().frombytes(data)


class Lexicon:
    """``lemmatize`` and ``is_known`` as simplemma's module-level functions answer them."""

    def __init__(self) -> None:
        factory = CachedTrieFactory()
        # simplemma's own lemma memo (65,536 words) as its module-level function has it: shared
        # by every annotator of the process (cross-validation builds one per fold)
        self._lemmatizer = Lemmatizer(lemmatization_strategy=DefaultStrategy(dictionary_factory=factory))
        self._lookup = DictionaryLookupStrategy(factory)

    def lemmatize(self, token: str, lang: str) -> str:
        return self._lemmatizer.lemmatize(token, lang)

    def is_known(self, token: str, lang: str) -> bool:
        return self._lookup.get_lemma(normalize_token(token), lang) is not None

    def is_common(self, token: str, lang: str) -> bool:
        """Known as a word of the language, not only as a proper noun: the dictionary's lemma
        of "járkov" is "Járkov" (a city), of "urgencias" "urgencia"."""
        lemma = self._lookup.get_lemma(normalize_token(token), lang)
        return lemma is not None and not lemma[:1].isupper()


@cache
def lexicon() -> Lexicon:
    """The process's lexicon (its tries are opened once per language, on first use)."""
    return Lexicon()
