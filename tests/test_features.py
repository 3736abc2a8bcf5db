"""Feature sets (features/*.yaml) and the feature extractor."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.features import (
    FeatureExtractor,
    FeatureSet,
    FeatureSetError,
    _word_features,
    build_skeleton_vocabulary,
    line_structure,
    section_heading,
    split_lines,
    token_labels,
    word_shape,
)
from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.langpack import load_pack
from crfdeid.linguistic import DefaultAnnotator
from crfdeid.resources import data_dir
from crfdeid.rules import RuleEngine
from crfdeid.tagger import CrfTagger
from crfdeid.tokenize import tokenize
from crfdeid.types import Document, Span

NOTE = (
    "Datos del paciente.\n"
    "Nombre:  Ernesto.\n"
    "Apellidos: Rivera Bueno.\n"
    "NHC: 368503.\n"
    "Edad: 70 años Sexo: H.\n"
    "Antecedentes:\n"
    "Ernesto Rivera refiere dolor desde el 03/03/2016; su hija le acompaña.\n"
)


@pytest.fixture(scope="module")
def extractor() -> FeatureExtractor:
    pack = load_pack("es")
    return FeatureExtractor(
        FeatureSet.load("default"),
        pack,
        DefaultAnnotator(pack),
        GazetteerMatcher(pack),
        RuleEngine.from_pack("es"),
        skeleton_vocabulary=["de", "el", "su", ":", "."],
    )


def _features(extractor: FeatureExtractor, text: str) -> tuple[list, list]:
    tokens = tokenize(text)
    segments = extractor.sequences(Document("d", text), tokens)
    rows = [row for seg in segments for row in seg.features]
    return tokens, rows


def test_every_shipped_feature_set_loads_and_round_trips() -> None:
    for path in sorted(data_dir("features").glob("*.yaml")):
        fs = FeatureSet.load(path)
        assert FeatureSet.from_dict(fs.to_dict()) == fs
    assert FeatureSet.load("default").scheme in ("BIO", "BIOES")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"colour": 1}, "unknown key"),
        ({"families": {"wrod": True}}, "unknown feature family 'wrod'"),
        ({"scheme": "IOB2"}, "'scheme' must be one of"),
        ({"families": {"affixes": True}}, "'affixes' needs options"),
        ({"families": {"affixes": {"prefix": [0]}}}, "lengths from 1 to 8"),
        ({"conjunctions": [["lw-1", "colour0"]]}, "bad conjunction attribute 'colour0'"),
        ({"window": {"size": 9, "families": []}}, "from 0 to 5"),
        ({"families": {"skeleton": {"min_count": 0}}}, "positive integer"),
    ],
)
def test_invalid_feature_sets_are_clear_errors(tmp_path: Path, change: dict, message: str) -> None:
    data = yaml.safe_load((data_dir("features") / "default.yaml").read_text(encoding="utf-8"))
    data.update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(FeatureSetError, match=message) as info:
        FeatureSet.load(path)
    assert "bad.yaml" in str(info.value)


def test_unknown_shipped_name_lists_the_shipped_sets() -> None:
    with pytest.raises(FeatureSetError, match=r"shipped: .*default"):
        FeatureSet.load("nonexistent")


def test_without_switches_one_family_off() -> None:
    fs = FeatureSet.load("default").without("gazetteer")
    assert not fs.on("gazetteer") and "gazetteer" not in fs.window_families and fs.on("word")


def test_word_shape() -> None:
    assert word_shape("Navarro", False) == "Xxxxxxx"
    assert word_shape("Navarro", True) == "Xx"
    assert word_shape("28-B", True) == "d-X"


def test_line_structure_finds_every_key_of_a_line() -> None:
    tokens = tokenize("Edad: 70 años Sexo: H.")
    info = line_structure(tokens)
    by_text = dict(zip([t.text for t in tokens], info.keys, strict=False))
    assert by_text["70"] == "edad" and by_text["años"] == "edad"
    assert by_text["H"] == "sexo"
    assert info.in_key[0] and not info.in_key[2]
    assert info.value_pos[2] == 0 and info.value_pos[3] == 1


def test_multi_word_keys_are_normalised() -> None:
    tokens = tokenize("Localidad/ Provincia: Madrid.")
    info = line_structure(tokens)
    assert info.keys[-2] == "localidad_provincia"


def test_section_headings() -> None:
    assert section_heading(tokenize("Datos del paciente.")) == "datos_del_paciente"
    assert section_heading(tokenize("Antecedentes:")) == "antecedentes"
    assert section_heading(tokenize("Nombre: Ernesto.")) is None
    assert section_heading(tokenize("Se realiza una TC abdominal con contraste el día 3.")) is None


def test_token_labels_bioes_and_bio() -> None:
    text = "Dr. Pablo Garrido Abad y Lugo"
    tokens = tokenize(text)
    spans = [Span(4, 22, "NOMBRE_PERSONAL_SANITARIO"), Span(25, 29, "TERRITORIO")]
    assert token_labels(tokens, spans, "BIOES") == [
        "O",
        "O",
        "B-NOMBRE_PERSONAL_SANITARIO",
        "I-NOMBRE_PERSONAL_SANITARIO",
        "E-NOMBRE_PERSONAL_SANITARIO",
        "O",
        "S-TERRITORIO",
    ]
    assert token_labels(tokens, spans, "BIO")[-3:] == ["I-NOMBRE_PERSONAL_SANITARIO", "O", "B-TERRITORIO"]


def test_token_labels_cover_a_token_a_span_only_touches() -> None:
    tokens = tokenize("ms.leyva@correo.es")  # the tokenizer keeps the e-mail whole
    assert token_labels(tokens, [Span(3, 18, "CORREO_ELECTRONICO")])[-1] != "O"


def test_one_sequence_per_line_and_one_row_per_token(extractor: FeatureExtractor) -> None:
    tokens = tokenize(NOTE)
    segments = extractor.sequences(Document("d", NOTE), tokens)
    assert len(segments) == len(split_lines(tokens)) == 7
    assert [i for seg in segments for i in range(seg.first, seg.last)] == list(range(len(tokens)))
    assert all(len(seg.features) == seg.last - seg.first for seg in segments)


def test_families_appear_in_the_features(extractor: FeatureExtractor) -> None:
    tokens, rows = _features(extractor, NOTE)
    index = {t.text: i for i, t in reversed(list(enumerate(tokens)))}
    ernesto = rows[index["Ernesto"]]
    assert "w=Ernesto" in ernesto and "lw=ernesto" in ernesto and "ssh=Xx" in ernesto
    assert "key=nombre" in ernesto and "after_colon" in ernesto and "sec=datos_del_paciente" in ernesto
    assert "gz=given_name:B" in ernesto
    assert "-1:lw=:" in ernesto and "-2:lw=nombre" in ernesto
    assert "p3=ern" in ernesto and "s2=to" in ernesto
    # the same name in the narrative: known from the header, in the "Antecedentes" section
    narrative = rows[max(i for i, t in enumerate(tokens) if t.text == "Ernesto")]
    assert "dockey=nombre" in narrative and "sec=antecedentes" in narrative and "bol" in narrative
    nhc = rows[index["368503"]]
    assert "rule=B-record_numbers" in nhc and "key=nhc" in nhc and "digit" in nhc
    hija = rows[index["hija"]]
    assert "gz=kinship:B" in hija and "-1:pos=DET" in hija and "lw-1|lw0=su|hija" in hija


def test_skeleton_and_conjunctions(extractor: FeatureExtractor) -> None:
    _tokens, rows = _features(extractor, "Ingresa el 03/03/2016 en Madrid")
    row = rows[2]  # "03"
    assert "sk[-2,0]=<UNK>|el|DIGIT" in row
    assert "lw-1|lw0=el|03" in row


def test_sequence_edges_are_marked(extractor: FeatureExtractor) -> None:
    _, rows = _features(extractor, "Madrid")
    assert "BOS" in rows[0] and "EOS" in rows[0]


def test_ablated_family_is_absent() -> None:
    pack = load_pack("es")
    fs = FeatureSet.load("default").without("gazetteer").without("rules")
    ex = FeatureExtractor(fs, pack, DefaultAnnotator(pack))
    assert ex.gazetteer is None and ex.rules is None
    rows = [r for s in ex.sequences(Document("d", NOTE), tokenize(NOTE)) for r in s.features]
    assert not any(f.startswith(("gz=", "rule=")) or ":gz=" in f for r in rows for f in r)


def test_skeleton_vocabulary_keeps_frequent_words_only() -> None:
    assert build_skeleton_vocabulary(["de", "De", "el", "12", "12", "Lugo"], 2) == ["de"]


def test_empty_document_has_no_sequences(extractor: FeatureExtractor) -> None:
    assert extractor.sequences(Document("d", ""), []) == []


def test_feature_strings_are_the_ones_models_were_trained_with() -> None:
    """The extractor was reorganised (per-family columns, streaming blocks); the strings it
    hands crfsuite must not have moved by one byte, or every trained model would silently see
    other features. Digest of every feature of the example notes (default feature set without
    the pack-dependent gazetteer and rules families, a fixed skeleton vocabulary, simplemma
    2.0.0 lemmas), computed with the extractor as it was before. A deliberate change of
    features updates this digest and retrains the shipped model."""
    import hashlib

    from crfdeid.io.corpus import load_corpus

    from .conftest import EXAMPLES

    pack = load_pack("es")
    fs = FeatureSet.load("default").without("gazetteer").without("rules")
    vocabulary = ["de", "el", "la", ":", ".", "paciente"]
    ex = FeatureExtractor(fs, pack, DefaultAnnotator(pack), None, None, vocabulary)
    digest = hashlib.sha256()
    for doc in sorted(load_corpus([EXAMPLES]).values(), key=lambda d: d.id):
        for seg in ex.sequences(doc, tokenize(doc.text)):
            for row in seg.features:
                digest.update(("\x1f".join(row) + "\x1e").encode())
    assert digest.hexdigest() == "637af46addce2c32774fc67137bd1f10a50ed1f7787fda608a80a6c345d2df16"


def _shape_by_character(text: str, collapse: bool) -> str:
    """The definition of a word shape, one character at a time."""
    out: list[str] = []
    for ch in text:
        c = "d" if ch.isdigit() else ("X" if ch.isupper() else "x") if ch.isalpha() else ch
        if not (collapse and out and out[-1] == c):
            out.append(c)
    return "".join(out[:10])


@settings(max_examples=500, deadline=None, database=None)
@given(st.text(st.sampled_from("aZ09-./:\n ñÑÉ²ßİ\u0301") | st.characters(), max_size=20), st.booleans())
def test_word_shape_fast_path_is_the_definition(text: str, collapse: bool) -> None:
    assert word_shape(text, collapse) == _shape_by_character(text, collapse)


def test_neighbour_features_are_only_those_the_model_knows(tiny_model: Path) -> None:
    """At inference a word's neighbour copies are filtered to the model's attributes; the
    shortcut through the known bases keeps exactly those."""
    tagger = CrfTagger.load(tiny_model)
    extractor = tagger.extractor
    known = extractor.known
    assert known is not None
    for text in ("Nombre", "García", "12/03/2016", "de", "xyzzy", ":", "Ñandú"):
        word = extractor.word(text)
        base = _word_features(text, extractor._wfams, window=True)
        for offset in extractor.offsets:
            assert word.windowed[offset] == [f"{offset}:{f}" for f in base if f"{offset}:{f}" in known]
