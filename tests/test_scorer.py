"""The compiled scorer gives crfsuite's answer: the same weights, emissions, Viterbi tags and
marginals, on the example notes with the tiny model (runs everywhere) and on every MEDDOCAN dev
note with the shipped model (skipped without the corpus)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import cache, scorer
from crfdeid.io.corpus import load_corpus
from crfdeid.scorer import CompiledCrf, Encoder, ScorerError, read_crfsuite_names, read_crfsuite_weights
from crfdeid.tagger import MODEL_FILE, CrfTagger
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

from .conftest import EXAMPLES

HOSTILE = [
    "",
    "\n\n\n",
    ":",
    "Nombre: : : Apellidos:\n:",
    "a" * 3000,  # one token longer than anything in the model
    "Ana " * 1500,  # one line longer than a tagging window
    "||| a|b ||c| <S> </S> -1:lw=x",  # feature-syntax characters as text
    "Pe\u0301rez Garci\u0301a\u00a0NHC: 12345678\r\nFecha:\t03/03/2016\u200f\U0001f600",
]


@pytest.fixture(scope="module")
def pair(tiny_model: Path) -> tuple[CrfTagger, CrfTagger]:
    """The tiny model twice: crfsuite (the reference) and compiled."""
    return CrfTagger.load(tiny_model, scorer="crfsuite"), CrfTagger.load(tiny_model)


def _same_answer(reference: CrfTagger, compiled: CrfTagger, document: Document) -> None:
    tokens = tokenize(document.text)
    expected = reference.candidates(document, tokens)
    got = compiled.candidates(document, tokens)
    assert [(c[0], c[2]) for c in got] == [(c[0], c[2]) for c in expected]  # Viterbi and best non-O
    for (_, p_o, _, p_best), (_, q_o, _, q_best) in zip(expected, got, strict=True):
        assert abs(p_o - q_o) < 1e-6 and abs(p_best - q_best) < 1e-6
    spans = [(s.start, s.end, s.label) for s in reference.detect(document)]
    assert [(s.start, s.end, s.label) for s in compiled.detect(document)] == spans


def test_weights_are_read_at_full_precision(tiny_model: Path, pair: tuple[CrfTagger, CrfTagger]) -> None:
    records = read_crfsuite_weights(tiny_model / MODEL_FILE)
    dump = pair[0].info()
    assert len(records) == len(dump.state_features) + len(dump.transitions)
    crf = pair[1].compiled
    labels = {name: k for k, name in enumerate(crf.labels)}
    for (attribute, label), printed in dump.state_features.items():  # the dump prints 6 decimals
        assert abs(crf.state[crf.attributes[attribute], labels[label]] - printed) <= 5.01e-7
    for (a, b), printed in dump.transitions.items():
        assert abs(crf.transitions[labels[a], labels[b]] - printed) <= 5.01e-7
    assert not crf.state[crf.zero].any()
    # and not rounded: some weight has more than six decimals
    assert np.any(np.abs(records["weight"] * 1e6 - np.round(records["weight"] * 1e6)) > 1e-3)


def test_names_are_read_from_the_file_as_crfsuite_reads_them(tiny_model: Path) -> None:
    """Labels and attributes from the model file's own string tables, in crfsuite's id order;
    compiling with crfsuite's dump as a check passes (names, ids, every weight)."""
    reference = CrfTagger.load(tiny_model, scorer="crfsuite")
    dump = reference.info()
    labels, attributes = read_crfsuite_names(tiny_model / MODEL_FILE)
    assert labels == [name for name, _ in sorted(dump.labels.items(), key=lambda kv: int(kv[1]))]
    assert attributes == [name for name, _ in sorted(dump.attributes.items(), key=lambda kv: int(kv[1]))]
    checked = CompiledCrf.from_model(tiny_model / MODEL_FILE, dump)
    plain = CompiledCrf.from_model(tiny_model / MODEL_FILE)
    assert np.array_equal(checked.state, plain.state) and checked.attributes == plain.attributes


def test_a_damaged_string_table_is_refused(tmp_path: Path, tiny_model: Path) -> None:
    data = bytearray((tiny_model / MODEL_FILE).read_bytes())
    at = data.find(b"CQDB")
    data[at : at + 4] = b"XXXX"
    (tmp_path / "m").write_bytes(bytes(data))
    with pytest.raises(ScorerError, match="string table"):
        read_crfsuite_names(tmp_path / "m")


def test_a_file_that_is_not_a_crfsuite_model_is_refused(tmp_path: Path, tiny_model: Path) -> None:
    (tmp_path / "m").write_bytes(b"\x00" * 100)
    with pytest.raises(ScorerError, match="not a crfsuite CRF1d model"):
        read_crfsuite_weights(tmp_path / "m")
    data = (tiny_model / MODEL_FILE).read_bytes()
    (tmp_path / "cut").write_bytes(data[: len(data) // 3])
    with pytest.raises(ScorerError):
        read_crfsuite_weights(tmp_path / "cut")


def test_example_notes_get_crfsuite_tags_and_marginals(pair: tuple[CrfTagger, CrfTagger]) -> None:
    for document in load_corpus([EXAMPLES]).values():
        _same_answer(*pair, document)


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_gets_crfsuite_tags_and_marginals(pair: tuple[CrfTagger, CrfTagger], text: str) -> None:
    _same_answer(*pair, Document("hostile", text))


def test_a_per_label_point_with_separate_spans_is_applied_as_crfsuite_does(tiny_model: Path) -> None:
    from crfdeid.operating import OperatingPoint

    from .conftest import UNSEEN_NOTE

    point = OperatingPoint(0.6, {"TERRITORIO": 0.99, "HOSPITAL": 0.95}, "separate")
    reference = CrfTagger.load(tiny_model, scorer="crfsuite")
    compiled = CrfTagger.load(tiny_model)
    reference.point = compiled.point = point
    document = Document("d", UNSEEN_NOTE)
    tokens = tokenize(UNSEEN_NOTE)
    expected = reference.tag_tokens(document, tokens)
    assert [(t.tag, t.separate) for t in compiled.tag_tokens(document, tokens)] == [
        (t.tag, t.separate) for t in expected]
    assert any(t.separate for t in expected)
    assert [(s.start, s.end, s.label) for s in compiled.detect(document)] == [
        (s.start, s.end, s.label) for s in reference.detect(document)]


def test_threshold_is_applied_as_crfsuite_does(tiny_model: Path) -> None:
    text = (EXAMPLES / "nota-002.txt").read_text(encoding="utf-8")
    for threshold in (0.6, 0.99, 1.0):
        reference = CrfTagger.load(tiny_model, threshold=threshold, scorer="crfsuite")
        compiled = CrfTagger.load(tiny_model, threshold=threshold)
        document = Document("d", text)
        tokens = tokenize(text)
        assert [t.tag for t in compiled.tag_tokens(document, tokens)] == [
            t.tag for t in reference.tag_tokens(document, tokens)
        ]
        expected = [(s.start, s.end, s.label, s.score) for s in reference.detect(document)]
        got = [(s.start, s.end, s.label, s.score) for s in compiled.detect(document)]
        assert [g[:3] for g in got] == [e[:3] for e in expected]
        assert all(abs(g[3] - e[3]) < 1e-6 for g, e in zip(got, expected, strict=True))


WORDS = st.sampled_from(
    ["Nombre", ":", "Ana", "García", "NHC", "12345", "de", "la", "Madrid", "Hospital", "Dr", ".", ",",
     "03/03/2016", "|", "a|b", "años", "Sexo", "H", "\n", "\n", "\t", "\u00a0", "ana@x.es", "ÑANDÚ"]
)


@pytest.mark.parametrize("use_kernels", [pytest.param(True, id="kernels"), pytest.param(False, id="numpy")])
@settings(max_examples=60, deadline=None, database=None)
@given(text=st.lists(WORDS, max_size=80).map(" ".join))
def test_emissions_are_the_sum_of_the_feature_weights(
    pair: tuple[CrfTagger, CrfTagger], text: str, use_kernels: bool
) -> None:
    """What crfsuite would sum from the feature strings, the encoder sums from the columns
    (with the compiled loop of ``crfdeid.kernels`` and with numpy)."""
    compiled = pair[1]
    extractor, crf = compiled.extractor, compiled.compiled
    crf.kernels = use_kernels
    tokens = tokenize(text)
    columns = extractor.columns(Document("d", text), tokens)
    prepared = compiled.encoder.prepare(columns)
    for first, last in columns.lines:
        rows = extractor.rows(columns, first, last)
        expected = np.array(
            [crf.state[[crf.attributes.get(f, crf.zero) for f in row]].sum(axis=0) for row in rows]
        ).reshape(last - first, len(crf.labels))
        got = compiled.encoder.emissions(prepared, [(first, last)])
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    crf.kernels = True


def _enumerate(crf: CompiledCrf, emissions: np.ndarray) -> tuple[float, np.ndarray]:
    """The best path score and the marginals of one sequence, by enumerating every label path."""
    n, labels = emissions.shape
    scores = np.zeros((labels,) * n)
    for path in itertools.product(range(labels), repeat=n):
        scores[path] = sum(emissions[t, y] for t, y in enumerate(path)) + sum(
            crf.transitions[a, b] for a, b in itertools.pairwise(path)
        )
    weights = np.exp(scores - scores.max())
    marginals = np.array(
        [[weights.take(y, axis=t).sum() / weights.sum() for y in range(labels)] for t in range(n)]
    )
    return float(scores.max()), marginals


def _crfsuite_viterbi(crf: CompiledCrf, emissions: np.ndarray) -> list[int]:
    """crfsuite's loop (crf1d_context.c), ties and all: for each label the first best
    predecessor, and the first best final label."""
    n, labels = emissions.shape
    score = list(emissions[0])
    back = []
    for t in range(1, n):
        current, pointers = [], []
        for j in range(labels):
            best, argbest = -np.inf, -1
            for i in range(labels):
                value = score[i] + crf.transitions[i, j]
                if best < value:
                    best, argbest = value, i
            current.append(best + emissions[t, j])
            pointers.append(argbest)
        score, back = current, [*back, pointers]
    path = [max(range(labels), key=lambda j: (score[j], -j))]
    for pointers in reversed(back):
        path.append(pointers[path[-1]])
    return path[::-1]


DECODERS = [pytest.param(True, id="kernels"), pytest.param(False, id="numpy")]


@pytest.mark.parametrize("use_kernels", DECODERS)
@settings(max_examples=80, deadline=None, database=None)
@given(data=st.data())
def test_decoding_matches_crfsuite_and_every_path(data: st.DataObject, use_kernels: bool) -> None:
    labels = data.draw(st.integers(1, 3))
    lengths = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    values = st.floats(-8, 8, allow_nan=False, allow_subnormal=False) | st.sampled_from([0.0, 1.0])
    square = labels * labels
    transitions = np.array(data.draw(st.lists(values, min_size=square, max_size=square)))
    names = ["O", "B-X", "I-X"][:labels]
    crf = CompiledCrf(names, {}, np.zeros((1, labels)), transitions.reshape(labels, labels))
    crf.kernels = use_kernels
    cells = sum(lengths) * labels
    emissions = np.array(data.draw(st.lists(values, min_size=cells, max_size=cells))).reshape(-1, labels)
    tags, marginals = crf.decode(emissions, lengths)
    at = 0
    for size in lengths:
        part = emissions[at : at + size]
        path = tags[at : at + size].tolist()
        assert path == _crfsuite_viterbi(crf, part)  # ties broken as crfsuite breaks them
        best, expected = _enumerate(crf, part)
        score = sum(part[t, y] for t, y in enumerate(path)) + sum(
            crf.transitions[a, b] for a, b in itertools.pairwise(path)
        )
        assert score == pytest.approx(best, abs=1e-9)  # and the path is a best one
        np.testing.assert_allclose(marginals[at : at + size], expected, atol=1e-9)
        at += size


@pytest.mark.parametrize("use_kernels", DECODERS)
def test_many_sequences_at_once_decode_as_one_by_one(use_kernels: bool) -> None:
    """More sequences than one Viterbi grid holds (64): the chunked steps give the same paths."""
    rng = np.random.default_rng(7)
    labels = 5
    transitions = np.where(rng.random((labels, labels)) < 0.5, 0.0, rng.normal(0, 2, (labels, labels)))
    crf = CompiledCrf([f"L{k}" for k in range(labels)], {}, np.zeros((1, labels)), transitions)
    crf.kernels = use_kernels
    lengths = rng.integers(1, 30, size=300).tolist()
    emissions = np.round(rng.normal(0, 3, (sum(lengths), labels)), 1)  # rounded: ties happen
    tags, marginals = crf.decode(emissions, lengths)
    at = 0
    for size in lengths:
        assert tags[at : at + size].tolist() == _crfsuite_viterbi(crf, emissions[at : at + size])
        alone = crf.decode(emissions[at : at + size], [size])[1]
        np.testing.assert_allclose(marginals[at : at + size], alone, atol=1e-12)
        at += size


@pytest.mark.parametrize("use_kernels", DECODERS)
def test_extreme_emissions_do_not_overflow(use_kernels: bool) -> None:
    crf = CompiledCrf(["O", "B-X"], {}, np.zeros((1, 2)), np.array([[40.0, -40.0], [-40.0, 40.0]]))
    crf.kernels = use_kernels
    emissions = np.array([[1e4, -1e4]] * 3000 + [[-1e4, 1e4]] * 3000)
    tags, marginals = crf.decode(emissions, [6000])
    assert np.isfinite(marginals).all() and np.allclose(marginals.sum(axis=1), 1.0)
    assert tags[:3000].tolist() == [0] * 3000 and tags[3000:].tolist() == [1] * 3000


def test_every_dev_note_gets_crfsuite_tags_and_marginals(meddocan_dir: Path) -> None:
    """The shipped model, compiled, on every MEDDOCAN dev note: the same Viterbi tags and best
    non-O tags as crfsuite, marginals within 1e-6, the same spans."""
    reference = CrfTagger.load_default(scorer="crfsuite")
    compiled = CrfTagger.load_default()
    engine = reference.extractor.rules
    for document in load_corpus([meddocan_dir / "dev"]).values():
        matches = engine.run(document).matches
        tokens = tokenize(document.text)
        expected = reference.candidates(document, tokens, matches)
        got = compiled.candidates(document, tokens, matches)
        assert [(c[0], c[2]) for c in got] == [(c[0], c[2]) for c in expected], document.id
        difference = max(
            (max(abs(e[1] - g[1]), abs(e[3] - g[3])) for e, g in zip(expected, got, strict=True)), default=0
        )
        assert difference < 1e-6, document.id
        spans = compiled.detect(document, matches)  # streamed, as the pipeline runs it
        reference_spans = reference.detect(document, matches)
        assert [(s.start, s.end, s.label) for s in spans] == [
            (s.start, s.end, s.label) for s in reference_spans
        ], document.id


def test_a_model_folder_copy_compiles_the_same(tiny_model: Path, tmp_path: Path) -> None:
    copy = tmp_path / "m"
    shutil.copytree(tiny_model, copy)
    a, b = CrfTagger.load(tiny_model).compiled, CrfTagger.load(copy).compiled
    assert np.array_equal(a.state, b.state) and np.array_equal(a.transitions, b.transitions)


def _conjunctions_of(vocab: dict, templates: list) -> tuple:
    return (
        {attr: list(values.items()) for attr, values in vocab.items()},
        [(t.attrs, t.offsets, t.keys.tolist(), t.rows.tolist(), t.multipliers.tolist(), t.keys.dtype,
          t.rows.dtype) for t in templates],
    )


def test_the_embedded_models_conjunctions_read_from_the_cache_are_the_ones_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tagger = CrfTagger.load_default()
    extractor, crf = tagger.extractor, tagger.compiled
    compiled = _conjunctions_of(*scorer._compile_conjunctions(extractor.templates, crf.attributes))
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path))
    built = Encoder(extractor, crf)
    assert len(list(tmp_path.glob("conjunctions-*.bin"))) == 1
    monkeypatch.setattr(scorer, "_compile_conjunctions", lambda *args: pytest.fail("not cached"))
    read = Encoder(extractor, crf)
    assert _conjunctions_of(built._vocab, built._templates) == compiled
    assert _conjunctions_of(read._vocab, read._templates) == compiled
    assert (read._bos_value, read._eos_value) == (built._bos_value, built._eos_value)
    assert any(keys for _, _, keys, *_ in compiled[1])  # templates with weights: a real comparison


def test_a_model_of_ones_own_is_never_cached(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its attributes hold words of the notes it was trained on."""
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path))
    tagger = CrfTagger.load(tiny_model)
    extractor, crf = tagger.extractor, tagger.compiled
    encoder = Encoder(extractor, crf)
    assert crf.path == tiny_model / MODEL_FILE
    assert list(tmp_path.glob("conjunctions-*")) == []
    compiled = _conjunctions_of(*scorer._compile_conjunctions(extractor.templates, crf.attributes))
    assert _conjunctions_of(encoder._vocab, encoder._templates) == compiled
