"""Property tests: feature extraction covers every token once, decoded spans stay on token
boundaries inside the text, and merging never loses a character either detector flagged."""

from __future__ import annotations

import itertools
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.features import FeatureExtractor, FeatureSet
from crfdeid.langpack import load_pack
from crfdeid.linguistic import DefaultAnnotator
from crfdeid.merge import STRATEGIES, MergePolicy
from crfdeid.tagger import CrfTagger, tags_to_spans
from crfdeid.tokenize import tokenize
from crfdeid.types import Document, Span

TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ áÑ0123456789.:,/-\n\t@")), max_size=120)


@lru_cache(maxsize=1)
def extractor() -> FeatureExtractor:
    pack = load_pack("es")
    return FeatureExtractor(FeatureSet.load("default"), pack, DefaultAnnotator(pack),
                            skeleton_vocabulary=["de", ":"])


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_sequences_cover_every_token_once(text: str) -> None:
    tokens = tokenize(text)
    segments = extractor().sequences(Document("d", text), tokens)
    covered = [i for seg in segments for i in range(seg.first, seg.last)]
    assert covered == list(range(len(tokens)))
    assert all(len(seg.features) == seg.last - seg.first and all(seg.features) for seg in segments)


TAGS = st.sampled_from(["O", "B-A", "I-A", "E-A", "S-A", "B-B", "I-B", "E-B", "S-B"])


@given(TEXT, st.data())
def test_decoded_spans_are_on_token_boundaries(text: str, data: st.DataObject) -> None:
    tokens = tokenize(text)
    tags = data.draw(st.lists(TAGS, min_size=len(tokens), max_size=len(tokens)))
    spans = tags_to_spans(tokens, tags)
    starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
    for span in spans:
        assert span.start in starts and span.end in ends and span.end <= len(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    tagged = {i for i, tag in enumerate(tags) if tag != "O"}
    inside = {i for i, t in enumerate(tokens) if any(s.start <= t.start and t.end <= s.end for s in spans)}
    assert inside == tagged


SPAN = st.tuples(st.integers(0, 60), st.integers(1, 12), st.sampled_from(["CALLE", "FECHAS"]))


def _spans(raw: list, source: str) -> list[Span]:
    out: list[Span] = []
    for start, length, label in sorted(raw):
        if not out or start >= out[-1].end:
            out.append(Span(start, start + length, label, source))
    return out


@given(st.lists(SPAN, max_size=8), st.lists(SPAN, max_size=8), st.sampled_from(STRATEGIES))
def test_merge_output_is_disjoint_and_covers_the_winner(crf_raw: list, rule_raw: list, strategy: str) -> None:
    crf, rules = _spans(crf_raw, "crf"), _spans(rule_raw, "rule:x")
    merged = MergePolicy(strategy).merge(crf, rules)
    assert all(a.end <= b.start for a, b in itertools.pairwise(merged))
    covered = {c for s in merged for c in range(s.start, s.end)}
    # a span that overlaps nothing on the other side is always kept
    for span in crf + rules:
        others = rules if span.source == "crf" else crf
        if not any(span.overlaps(o) for o in others):
            assert set(range(span.start, span.end)) <= covered
    if strategy == "union":
        assert {c for s in crf + rules for c in range(s.start, s.end)} <= covered


# Streaming: any text, cut into blocks of a few lines and long lines into stretches, gets the
# spans of tagging it whole (the tiny model: what matters here is that the features and the
# decoding of each piece are those of the whole, not how good the model is).
ANY_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("abcXYZ áÑ0123456789.:,/-@ºª|\n\n\r\t\u00a0\u0301")),
        st.characters(codec="utf-8"),
    ),
    max_size=400,
)


@lru_cache(maxsize=1)
def _tagger(model: str) -> CrfTagger:
    """Loaded once, not per example."""
    return CrfTagger.load(model)


@settings(max_examples=40, deadline=None, database=None)
@given(ANY_TEXT, st.sampled_from([8, 40, 150]))
def test_streaming_any_text_gives_the_whole_text_spans(tiny_model, text: str, block_chars: int) -> None:
    tagger = _tagger(str(tiny_model))
    whole = tagger.detect(Document("d", text), tokens=tokenize(text))
    tagger.block_chars, tagger.stretch = block_chars, 1_000_000  # long lines: one stretch each
    try:
        streamed = tagger.detect(Document("d", text))
    finally:
        tagger.block_chars, tagger.stretch = 256_000, 16_384
    assert [(s.start, s.end, s.label) for s in streamed] == [(s.start, s.end, s.label) for s in whole]
    for a, b in zip(streamed, whole, strict=True):
        assert abs(a.score - b.score) < 1e-9
        assert text[a.start : a.end].strip() == text[a.start : a.end]
