"""Word frequencies (wordfreq): the language of a corpus, the Zipf buckets, and the feature family."""

from __future__ import annotations

import builtins

import pytest

from crfdeid import frequency
from crfdeid.errors import CrfdeidError
from crfdeid.features import FeatureSet, FeatureSetError

pytest.importorskip("wordfreq")

GERMAN = ["Wir berichten über Ihre Patientin, die sich vom 3. bis 9. März in unserer stationären "
          "Behandlung befand. Die Beschwerden bestehen seit einigen Wochen und haben zugenommen."]
DUTCH = ["Wij berichten over uw patiënte, die van 3 tot 9 maart in ons ziekenhuis was opgenomen. "
         "De klachten bestaan sinds enkele weken en zijn toegenomen."]


@pytest.mark.parametrize(("texts", "lang"), [(GERMAN, "de"), (DUTCH, "nl")])
def test_the_language_of_a_corpus_is_the_one_whose_word_list_knows_most_of_it(texts, lang):
    assert frequency.corpus_language(texts) == lang


def test_a_corpus_without_words_has_no_language():
    with pytest.raises(CrfdeidError, match="no words"):
        frequency.corpus_language(["12.03.2019 - 4711 / 08:15"])


def test_common_words_rank_above_names_and_numbers_have_none():
    de = frequency.Frequencies("de")
    bucket = {w: int(de.feature(w).split("=")[1]) for w in ("und", "patientin", "kowalczyk", "xqzt")}
    assert bucket["und"] >= 6 > bucket["patientin"] > bucket["kowalczyk"] >= bucket["xqzt"] == 0
    assert de.feature("4711") is None and de.feature(".") is None


def test_unknown_and_unresolved_languages_are_errors():
    with pytest.raises(CrfdeidError, match="no frequency list for 'xx'"):
        frequency.Frequencies("xx")
    with pytest.raises(CrfdeidError, match="resolved"):
        frequency.Frequencies(frequency.AUTO)


def test_a_model_using_word_frequencies_needs_wordfreq(monkeypatch):
    real_import = builtins.__import__

    def no_wordfreq(name, *args, **kwargs):
        if name == "wordfreq":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wordfreq)
    assert not frequency.available()
    with pytest.raises(CrfdeidError, match=r"crfdeid\[neutral\]"):
        frequency.Frequencies("de")
    # without wordfreq the neutral feature set simply has no frequency family
    assert "frequency" not in FeatureSet.load("default").neutral().families


def test_the_neutral_feature_set_asks_for_the_corpus_language_and_the_family_is_validated():
    neutral = FeatureSet.load("default").neutral()
    assert neutral.frequency_language == frequency.AUTO and "frequency" in neutral.window_families
    assert neutral.with_frequency_language("nl").frequency_language == "nl"
    data = FeatureSet.load("default").to_dict()
    for bad in (True, {"lang": 3}, {"language": "de"}):
        data["families"]["frequency"] = bad
        with pytest.raises(FeatureSetError, match="frequency"):
            FeatureSet.from_dict(data)


def test_the_extractor_emits_the_bucket_for_the_word_and_its_neighbours():
    from crfdeid.features import FeatureExtractor
    from crfdeid.linguistic import make_annotator
    from crfdeid.tokenize import tokenize
    from crfdeid.types import Document

    fs = FeatureSet.load("default").neutral().with_frequency_language("de")
    extractor = FeatureExtractor(fs, None, make_annotator("none", None))
    doc = Document("d", "Frau Kowalczyk und ihr Sohn\n")
    (seq,) = list(extractor.sequences(doc, tokenize(doc.text)))
    kowalczyk, und = seq.features[1], seq.features[2]
    assert any(f.startswith("zipf=") and int(f[5:]) <= 2 for f in kowalczyk)  # a rare word: a name
    assert any(f.startswith("zipf=") and int(f[5:]) >= 6 for f in und)
    assert any(f.startswith("1:zipf=") for f in kowalczyk)  # "und" seen from "Kowalczyk"
