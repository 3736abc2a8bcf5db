"""A note of any size: streamed a block of lines at a time, long lines in stretches, with the
features and the spans of tagging the whole note at once."""

from __future__ import annotations

import bisect
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.features import FeatureExtractor, FeatureSet, _last_line_start, document_keys, line_structure
from crfdeid.io.corpus import load_corpus
from crfdeid.langpack import load_pack
from crfdeid.linguistic import DefaultAnnotator
from crfdeid.rules import RuleEngine
from crfdeid.tagger import CrfTagger
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

from .conftest import EXAMPLES

# Multi-word gazetteer entries cut by line breaks, header fields, sections, rule matches
# (dates, phone numbers) that may straddle a block cut: what streaming must carry over.
LINES = st.sampled_from(
    [
        "Datos del paciente.",
        "Nombre: Ana.",
        "Apellidos: García Pérez.",
        "NHC: 4471902.",
        "Edad: 66 años Sexo: M.",
        "Antecedentes:",
        "Ingresa en el Hospital Universitario",
        "Miguel Servet de Zaragoza el 03/03/2016.",
        "Vive en Santiago de",
        "Compostela con su hija Ana.",
        "Tel. 976 123",
        "456, correo ana@x.es",
        "Remitido por: Dr. Tomás Arregui Sanz, Paseo Isabel la Católica 1-3, 50009 Zaragoza.",
        "",
        "   ",
    ]
)
NOTE = st.lists(LINES, min_size=1, max_size=40).flatmap(
    lambda lines: st.sampled_from(["\n", "\r\n"]).map(lambda sep: sep.join(lines))
)


@lru_cache(maxsize=1)
def extractor() -> FeatureExtractor:
    pack = load_pack("es")
    return FeatureExtractor(
        FeatureSet.load("default"), pack, DefaultAnnotator(pack), rules=RuleEngine.from_pack("es"),
        skeleton_vocabulary=["de", "el", ":", "."],
    )


def _block_rows(ex: FeatureExtractor, document: Document, block_chars: int) -> list[list[list[str]]]:
    rows = []
    for cols in ex.blocks(document, block_chars=block_chars):
        assert cols.keep is None  # no line here is longer than a block
        rows += [ex.rows(cols, first, last) for first, last in cols.lines]
    return rows


@settings(max_examples=60, deadline=None, database=None)
@given(NOTE, st.sampled_from([60, 200, 1000]))
def test_blocks_give_every_token_the_features_of_the_whole_note(text: str, block_chars: int) -> None:
    ex = extractor()
    document = Document("d", text)
    tokens = tokenize(text)
    whole = [seg.features for seg in ex.sequences(document, tokens)]
    longest = max((len(line) for line in text.splitlines()), default=0)
    if longest > block_chars:  # such a line would be tagged in stretches: other test
        block_chars = longest + 1
    assert _block_rows(ex, document, block_chars) == whole


def test_a_gazetteer_entry_across_a_line_break_is_not_cut() -> None:
    """"Santiago de\\nCompostela" is one municipality for the matcher: no block may start at
    "Compostela", however small the blocks."""
    ex = extractor()
    text = "\n".join(["Vive en Santiago de", "Compostela con su hija."] * 30)
    document = Document("d", text)
    whole = [seg.features for seg in ex.sequences(document, tokenize(text))]
    assert "gz=municipality:I" in whole[1][0]  # "Compostela" continues the match
    assert _block_rows(ex, document, 25) == whole


def test_document_keys_first_pass_matches_the_inline_ones() -> None:
    text = "Nombre: Ana.\nApellidos: Gil.\nTexto con Ana y Gil.\r\nMédico: Luis Gil\rX: Ana"
    ex = extractor()
    inline: dict[str, set[str]] = {}
    tokens = tokenize(text)
    from crfdeid.features import _collect_key_values, split_lines

    for first, last in split_lines(tokens):
        line = tokens[first:last]
        _collect_key_values([t.text for t in line], line_structure(line), inline)
    assert document_keys(text) == inline == document_keys(text, long_line=5)
    assert ex  # the extractor's first pass is this function


@pytest.mark.parametrize(
    "text, lo, hi, expected",
    [
        ("ab\ncd\nef", 0, 7, 6),
        ("ab\r\ncd", 0, 3, 4),
        ("abcdef", 0, 5, 0),
        ("a\rb", 1, 3, 2),
        ("x\n", 2, 2, 2),
    ],
)
def test_last_line_start(text: str, lo: int, hi: int, expected: int) -> None:
    assert _last_line_start(text, lo, hi) == expected


@pytest.fixture(scope="module")
def tagger(tiny_model: Path) -> CrfTagger:
    return CrfTagger.load(tiny_model)


def _spans(tagger: CrfTagger, document: Document) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label) for s in tagger.detect(document)]


@settings(max_examples=40, deadline=None, database=None)
@given(NOTE, st.sampled_from([60, 300]))
def test_streamed_detection_finds_the_spans_of_the_whole_note(
    tagger: CrfTagger, text: str, size: int
) -> None:
    document = Document("d", text)
    whole = [(s.start, s.end, s.label) for s in tagger.detect(document, tokens=tokenize(text))]
    tagger.block_chars = max(size, max((len(line) + 1 for line in text.splitlines()), default=0))
    try:
        assert _spans(tagger, document) == whole
    finally:
        tagger.block_chars = 256_000


def test_a_long_line_in_stretches_keeps_the_features_of_the_whole_line(tagger: CrfTagger) -> None:
    """Stretches of 40 tokens with 128 of context: the kept tokens' context features are the
    whole line's, so only the CRF's own reach (the window margins) could change a tag."""
    notes = [(EXAMPLES / f"nota-00{k}.txt").read_text(encoding="utf-8") for k in (1, 2, 3)]
    line = " ".join(" ".join(n.split()) for n in notes) * 2
    document = Document("d", "Antecedentes:\n" + line + "\nFin.")
    ex = tagger.extractor
    whole = ex.columns(document, tokenize(document.text))
    by_start = {t.start: i for i, t in enumerate(whole.tokens)}
    stretched = list(ex.blocks(document, block_chars=200, stretch=40))
    kept = 0
    for cols in stretched:
        first, last = cols.keep or (0, len(cols.tokens))
        for k in range(first, last):
            i = by_start[cols.tokens[k].start]
            assert cols.tokens[k] == whole.tokens[i]
            for part, reference in zip(cols.parts, whole.parts, strict=True):
                assert part.values[k] == reference.values[i], (part.name, cols.tokens[k])
            kept += 1
    assert kept == len(whole.tokens)
    assert len(stretched) > len(line.split()) / 40  # it was cut
    # and the spans: the stretches' margins are wide enough not to move any
    reference = [(s.start, s.end, s.label) for s in tagger.detect(document, tokens=tokenize(document.text))]
    tagger.block_chars = 200
    try:
        assert _spans(tagger, document) == reference
    finally:
        tagger.block_chars = 256_000


def test_a_line_longer_than_a_window_gets_the_whole_line_spans(tiny_model: Path) -> None:
    """Windows of 2000 tokens and 100 of margin: the same spans as crfsuite on the whole line."""
    notes = [(EXAMPLES / f"nota-00{k}.txt").read_text(encoding="utf-8") for k in (1, 2, 3)]
    line = " ".join(" ".join(n.split()) for n in notes) * 15
    document = Document("d", line)
    assert len(tokenize(line)) > 2 * 2200
    reference = CrfTagger.load(tiny_model, scorer="crfsuite")
    assert _spans(CrfTagger.load(tiny_model), document) == _spans(reference, document)


def test_dev_notes_joined_into_one_long_note(meddocan_dir: Path) -> None:
    """The first 60 dev notes as one note, streamed in blocks: the spans each note gets alone,
    but near the joins (the "document" family reads header values from the whole note, so a
    name in one note's header now counts in the others). Measured: 0 of ~1,400 differ here,
    1 of 5,802 over the whole dev set (benchmarks/long_notes.py)."""
    tagger = CrfTagger.load_default()
    docs = sorted(load_corpus([meddocan_dir / "dev"]).values(), key=lambda d: d.id)[:60]
    alone, offset, joins = set(), 0, []
    for document in docs:
        alone |= {(s.start + offset, s.end + offset, s.label) for s in tagger.detect(document)}
        offset += len(document.text)
        joins.append(offset)
        offset += 1
    tagger.block_chars = 20_000  # several blocks
    try:
        together = set(_spans(tagger, Document("all", "\n".join(d.text for d in docs))))
    finally:
        tagger.block_chars = 256_000
    differ = alone ^ together
    assert len(differ) <= 2, sorted(differ)
    for start, _, _ in differ:  # and only near a join
        k = bisect.bisect_left(joins, start)
        assert min(abs(joins[j] - start) for j in (k - 1, k) if 0 <= j < len(joins)) < 400


def test_dev_notes_as_one_long_line(meddocan_dir: Path) -> None:
    """The first 30 dev notes flattened into one line of ~17k tokens, tagged in stretches of
    2,000 tokens: the spans crfsuite finds tagging the whole line as one sequence."""
    docs = sorted(load_corpus([meddocan_dir / "dev"]).values(), key=lambda d: d.id)[:30]
    document = Document("line", " ".join(" ".join(d.text.split()) for d in docs))
    reference = CrfTagger.load_default(scorer="crfsuite")
    expected = [(s.start, s.end, s.label) for s in reference.detect(document)]
    compiled = CrfTagger.load_default()
    compiled.block_chars, compiled.stretch = 20_000, 2_000
    compiled.window = 10_000  # the stretches alone cut the line
    stretches = list(compiled.extractor.blocks(document, block_chars=20_000, stretch=2_000))
    assert len(stretches) > 5 and all(cols.keep is not None for cols in stretches)
    assert _spans(compiled, document) == expected
