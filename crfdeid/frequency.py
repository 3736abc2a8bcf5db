"""How common a word is in its language: the ``frequency`` feature family, from wordfreq.

Names, towns and street names are mostly rare words; the words around them are common ones.
A language pack says so with gazetteers and a lemmatiser; a language without a pack still has
word frequencies: wordfreq (Robyn Speer; CC BY-SA 4.0 data, MIT code) covers 40+ languages. The
feature is the word's Zipf frequency rounded down (``zipf=4``: once per 10,000 words; ``zipf=0``:
not in the list), so it works the same for any language wordfreq knows.

``lang: auto`` in a feature set is resolved at training from the training texts
(``corpus_language``): the language whose frequency list knows most of the corpus's words. The
model records the code it was resolved to, so a model always looks words up in one language.
wordfreq is optional (``pip install 'crfdeid[neutral]'``); a model that uses the family and
an environment without wordfreq is a clear error, not a silent change of features.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

import regex

from .errors import CrfdeidError

#: The value of ``frequency.lang`` that training replaces with the corpus's language.
AUTO = "auto"
#: Distinct words of a corpus looked up when its language is detected (the most frequent ones).
SAMPLE = 3000


def available() -> bool:
    """True when wordfreq is installed."""
    try:
        import wordfreq  # noqa: F401
    except ImportError:
        return False
    return True


def _wordfreq():
    try:
        import wordfreq
    except ImportError:
        raise CrfdeidError(
            "this feature set uses word frequencies (family 'frequency'), and wordfreq is not installed",
            hint="pip install 'crfdeid[neutral]'",
        ) from None
    return wordfreq


def languages() -> list[str]:
    """The codes wordfreq has a frequency list for."""
    return sorted(_wordfreq().available_languages("best"))


def _small_list(lang: str) -> frozenset[str]:
    """wordfreq's short list of a language (about 30,000 words): read once per detection, not
    kept — the 40+ lists together would hold a few hundred MB for nothing."""
    return frozenset(_wordfreq().get_frequency_dict(lang, wordlist="small"))


def corpus_language(texts: Iterable[str]) -> str:
    """The wordfreq language that knows the largest share of the texts' most frequent words.

    Only alphabetic words of three letters or more count (a shared "de" or "la" decides
    nothing); ties go to the code that sorts first, so the answer depends on the texts alone."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w.lower() for w in regex.findall(r"\p{L}{3,}", text))
    words = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:SAMPLE]]
    if not words:
        raise CrfdeidError("cannot tell the language of the training texts: they hold no words",
                           hint="set frequency: {lang: CODE} in the feature set")
    best, best_known = "", -1
    for lang in languages():
        known = sum(w in _small_list(lang) for w in words)
        if known > best_known:
            best, best_known = lang, known
    return best


class Frequencies:
    """Zipf buckets of words in one language (cached per word by the feature extractor)."""

    def __init__(self, lang: str) -> None:
        if lang == AUTO:
            raise CrfdeidError("frequency: {lang: auto} must be resolved from the training corpus first")
        wordfreq = _wordfreq()
        if lang not in wordfreq.available_languages("best"):
            raise CrfdeidError(f"wordfreq has no frequency list for {lang!r}",
                               hint=f"one of: {', '.join(languages())}")
        self.lang = lang
        self._zipf = wordfreq.zipf_frequency

    def feature(self, lower: str) -> str | None:
        """``zipf=N`` for a word with a letter, None for numbers and punctuation."""
        if not any(ch.isalpha() for ch in lower):
            return None
        return f"zipf={math.floor(self._zipf(lower, self.lang))}"
