"""Junk never crashes the language-pack stages: over arbitrary Unicode, gazetteer matches stay
inside the token list and the default annotator returns one lemma and one tag per token."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.langpack import fold
from crfdeid.linguistic import DefaultAnnotator
from crfdeid.tokenize import tokenize

MATCHER = GazetteerMatcher("es")
ANNOTATOR = DefaultAnnotator("es")

SPANISH_CHARS = list("aeiounrsldcmADMSVGJáéíóúñÑü .,:/-\n\t0123º")
spanishish = st.text(alphabet=st.sampled_from(SPANISH_CHARS), max_size=120)
anything = st.text(max_size=120)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(spanishish, anything))
def test_matches_and_membership_are_well_formed(text: str) -> None:
    tokens = tokenize(text)
    matches = MATCHER.match(tokens)
    for m in matches:
        assert 0 <= m.start < m.end <= len(tokens)
        assert m.list in MATCHER.lists
    members = MATCHER.membership(tokens, matches)
    assert len(members) == len(tokens)
    for tags in members:
        for tag in tags:
            name, _, position = tag.rpartition(":")
            assert name in MATCHER.lists and position in ("B", "I", "ambiguous")


@settings(max_examples=200, deadline=None)
@given(st.one_of(spanishish, anything))
def test_default_annotator_gives_one_lemma_and_tag_per_token(text: str) -> None:
    tokens = tokenize(text)
    analysis = ANNOTATOR.analyse(tokens)
    assert len(analysis.lemmas) == len(analysis.pos) == len(tokens)
    assert all(isinstance(lemma, str) for lemma in analysis.lemmas)
    assert all(tag for tag in analysis.pos)


@given(st.text(max_size=60))
def test_fold_is_idempotent_and_accent_free(text: str) -> None:
    folded = fold(text)
    assert fold(folded) == folded
