"""The CRF tagger: decoding, model folders (crfsuite file + JSON, no pickle), loading errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crfdeid.io.text import read_text
from crfdeid.operating import OperatingPoint
from crfdeid.tagger import META_FILE, MODEL_FILE, CrfTagger, ModelError, tags_to_spans, write_model
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

from .conftest import EXAMPLES, UNSEEN_NOTE


def test_tags_to_spans_bioes() -> None:
    tokens = tokenize("Dr. Pablo Garrido Abad en Lugo")
    tags = ["O", "O", "B-NP", "I-NP", "E-NP", "O", "S-T"]
    spans = tags_to_spans(tokens, tags, [1, 1, 0.9, 0.8, 0.7, 1, 0.5])
    assert [(s.start, s.end, s.label) for s in spans] == [(4, 22, "NP"), (26, 30, "T")]
    assert spans[0].score == pytest.approx(0.8) and spans[0].source == "crf"


def test_tags_to_spans_is_tolerant_of_broken_sequences() -> None:
    tokens = tokenize("a b c d e f")
    # I- without B-, a label change inside a span, BIO's trailing I-
    spans = tags_to_spans(tokens, ["I-X", "E-X", "B-X", "I-Y", "O", "I-Z"])
    assert [(s.start, s.end, s.label) for s in spans] == [
        (0, 3, "X"),
        (4, 5, "X"),
        (6, 7, "Y"),
        (10, 11, "Z"),
    ]


def test_model_folder_holds_no_pickle(tiny_model: Path) -> None:
    assert sorted(p.name for p in tiny_model.iterdir()) == [MODEL_FILE, META_FILE]
    meta = json.loads((tiny_model / META_FILE).read_text(encoding="utf-8"))
    for key in (
        "labels",
        "feature_set",
        "annotator",
        "gazetteer",
        "rules",
        "training",
        "merge_policy",
        "skeleton_vocabulary",
        "model_sha256",
    ):
        assert key in meta
    assert meta["training"]["documents"] == 3 and meta["training"]["corpus_fingerprint"]
    assert not (tiny_model / MODEL_FILE).read_bytes().startswith(b"\x80")  # not a pickle stream


def test_tagger_finds_spans_with_scores(tiny_model: Path) -> None:
    tagger = CrfTagger.load(tiny_model)
    text = read_text(EXAMPLES / "nota-001.txt")
    spans = tagger.detect(Document("nota-001", text))
    assert spans, "trained on this very note, the tiny model must find something in it"
    assert all(s.source == "crf" and 0.0 <= s.score <= 1.0 for s in spans)
    assert any(text[s.start : s.end] == "Lucía" for s in spans)


def test_threshold_raises_recall(tiny_model: Path) -> None:
    text = "Acude con su hermano Joaquín Beltrán Ortiz desde Teruel el 12/05/2023."
    strict = CrfTagger.load(tiny_model).detect(Document("d", text))
    loose = CrfTagger.load(tiny_model, threshold=1.0).detect(Document("d", text))
    covered = lambda spans: sum(s.end - s.start for s in spans)  # noqa: E731
    # at threshold 1.0 every token the model is less than certain about becomes PHI
    assert covered(loose) > covered(strict)


def test_loading_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such model folder"):
        CrfTagger.load(tmp_path / "nope")


def test_loading_a_folder_that_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ModelError, match="not a model folder"):
        CrfTagger.load(tmp_path)


def _copy(tiny_model: Path, tmp_path: Path) -> Path:
    target = tmp_path / "model"
    shutil.copytree(tiny_model, target)
    return target


def test_truncated_model_file_is_caught(tiny_model: Path, tmp_path: Path) -> None:
    model = _copy(tiny_model, tmp_path)
    data = (model / MODEL_FILE).read_bytes()
    (model / MODEL_FILE).write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError, match="does not match the checksum"):
        CrfTagger.load(model)


def test_garbage_model_file_without_checksum_is_a_clear_error(tiny_model: Path, tmp_path: Path) -> None:
    model = _copy(tiny_model, tmp_path)
    meta = json.loads((model / META_FILE).read_text(encoding="utf-8"))
    del meta["model_sha256"]
    (model / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    (model / MODEL_FILE).write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ModelError, match="cannot open the crfsuite model"):
        CrfTagger.load(model)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "something-else"}', "not a crfdeid model"),
        ('{"format": "crfdeid-crf-model", "format_version": 99}', "newer than this crfdeid"),
    ],
)
def test_bad_metadata(tiny_model: Path, tmp_path: Path, content: str, message: str) -> None:
    model = _copy(tiny_model, tmp_path)
    (model / META_FILE).write_text(content, encoding="utf-8")
    with pytest.raises(ModelError, match=message) as info:
        CrfTagger.load(model)
    assert META_FILE in str(info.value)


def test_stale_packs_are_refused(tiny_model: Path, tmp_path: Path) -> None:
    model = _copy(tiny_model, tmp_path)
    meta = json.loads((model / META_FILE).read_text(encoding="utf-8"))
    meta["gazetteer"]["fingerprint"] = "0" * 16
    (model / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    tagger = CrfTagger.load(model)
    with pytest.raises(ModelError, match="gazetteers changed since this model was trained"):
        tagger.detect(Document("d", "Nombre: Ana."))


def test_write_model_refuses_to_replace_a_foreign_folder(tiny_model: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "important"
    foreign.mkdir()
    (foreign / "thesis.docx").write_bytes(b"...")
    with pytest.raises(ModelError, match="not a crfdeid model"):
        write_model(foreign, tiny_model / MODEL_FILE, {})
    assert (foreign / "thesis.docx").exists()


def test_write_model_replaces_an_old_model_atomically(tiny_model: Path, tmp_path: Path) -> None:
    model = _copy(tiny_model, tmp_path)
    meta = json.loads((model / META_FILE).read_text(encoding="utf-8"))
    meta["training"]["note"] = "second"
    write_model(model, tiny_model / MODEL_FILE, meta)
    assert json.loads((model / META_FILE).read_text(encoding="utf-8"))["training"]["note"] == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["model"]  # no temporary folders left behind


# -- operating points ---------------------------------------------------------------------------


def test_separate_tokens_never_share_a_span_with_the_best_paths() -> None:
    tokens = tokenize("Hospital San Jorge de Huesca")
    tags = ["B-H", "I-H", "I-H", "I-H", "I-H"]
    joined = tags_to_spans(tokens, tags)
    split = tags_to_spans(tokens, tags, separate=[False, False, False, True, True])
    assert [(s.start, s.end) for s in joined] == [(0, 28)]
    assert [(s.start, s.end) for s in split] == [(0, 18), (19, 28)]


POINTS = [
    None,
    OperatingPoint(threshold=0.9),
    OperatingPoint(threshold=0.99, spans="separate"),
    OperatingPoint(labels={"TERRITORIO": 0.99, "HOSPITAL": 0.9}, spans="separate"),
]


@pytest.mark.parametrize("point", POINTS, ids=lambda p: p.describe() if p else "viterbi")
def test_a_note_decoded_once_gives_what_detect_gives_at_any_point(tiny_model: Path, point) -> None:
    tagger = CrfTagger.load(tiny_model)
    document = Document("n", UNSEEN_NOTE + read_text(EXAMPLES / "nota-002.txt"))
    decoded = tagger.decode(document)
    tagger.point = point
    assert decoded.spans(point) == tagger.detect(document)
    tagger.block_chars = 90  # streamed in blocks of a line or two: spans run across blocks
    assert tagger.decode(document).spans(point) == tagger.detect(document)
    assert len(decoded.tokens) < len(tokenize(document.text))  # only what a point could need


def test_per_label_thresholds_add_only_their_labels(tiny_model: Path) -> None:
    document = Document("n", UNSEEN_NOTE)
    tagger = CrfTagger.load(tiny_model)
    best_path = set(tagger.detect(document))
    tagger.point = OperatingPoint(threshold=0.99, spans="separate")
    everything = set(tagger.detect(document)) - best_path
    assert {s.label for s in everything} >= {"TERRITORIO", "HOSPITAL"}  # the test can fail
    tagger.point = OperatingPoint(labels={"TERRITORIO": 0.99}, spans="separate")
    added = set(tagger.detect(document)) - best_path
    assert added and {s.label for s in added} == {"TERRITORIO"}
    assert added <= everything


def test_a_column_gap_ends_a_span() -> None:
    # "Juan García <40 spaces> Sevilla" had been one name (and one across 8,000 spaces had made
    # the steps after the tagger quadratic); a form's narrower gaps are the form steps' to read
    for gap, expected in ((" ", [(0, 19, "NP")]), ("  ", [(0, 20, "NP")]),
                          (" " * 32, [(0, 50, "NP")]),  # a form's column gap: the form's steps'
                          (" " * 33, [(0, 11, "NP"), (44, 51, "NP")]),
                          (" " * 40, [(0, 11, "NP"), (51, 58, "NP")]),
                          ("\t" * 40, [(0, 11, "NP"), (51, 58, "NP")])):
        text = f"Juan García{gap}Sevilla"
        spans = tags_to_spans(tokenize(text), ["B-NP", "I-NP", "I-NP"])
        assert [(s.start, s.end, s.label) for s in spans] == expected, repr(gap)
