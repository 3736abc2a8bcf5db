"""Linguistic annotators: the zero-download default, and stanza run for real on a tiny model
the test trains itself with stanza's own training code."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from crfdeid.linguistic import (
    AnnotatorError,
    DefaultAnnotator,
    StanzaAnnotator,
    download_stanza_models,
    make_annotator,
    sentences,
    stanza_resources_dir,
)
from crfdeid.tokenize import tokenize

HAS_STANZA = importlib.util.find_spec("stanza") is not None
needs_stanza = pytest.mark.skipif(
    not HAS_STANZA, reason="stanza is not installed (pip install 'crfdeid[stanza]')"
)


@pytest.fixture(scope="module")
def default() -> DefaultAnnotator:
    return DefaultAnnotator("es")


def analyse(annotator, text: str) -> list[tuple[str, str, str]]:
    tokens = tokenize(text)
    result = annotator.analyse(tokens)
    assert len(result.lemmas) == len(result.pos) == len(tokens)
    return [(t.text, lemma, pos) for t, lemma, pos in zip(tokens, result.lemmas, result.pos, strict=True)]


def test_default_lemmas_and_closed_classes(default) -> None:
    rows = {
        text: (lemma, pos)
        for text, lemma, pos in analyse(
            default, "La paciente de 45 años ingresó y no refiere alergias: SatO2 98 %."
        )
    }
    assert rows["La"] == ("el", "DET")
    assert rows["de"][1] == "ADP" and rows["y"][1] == "CCONJ" and rows["no"][1] == "ADV"
    assert rows["años"] == ("año", "OPEN")
    assert rows["ingresó"] == ("ingresar", "OPEN")
    assert rows["alergias"][0] == "alergia"
    assert rows["45"] == ("45", "NUM")
    assert rows[":"][1] == "PUNCT" and rows["%"][1] == "SYM"


def test_default_marks_out_of_lexicon_words(default) -> None:
    rows = {text: pos for text, _, pos in analyse(default, "Dr. Zurbarandiaga revisa el TAC")}
    assert rows["Zurbarandiaga"] == "OOV"
    assert rows["revisa"] == "OPEN"


def test_default_describe_is_recordable(default) -> None:
    described = default.describe()
    assert described["backend"] == "default" and described["language"] == "es" and described["simplemma"]
    again = make_annotator(described)
    assert isinstance(again, DefaultAnnotator)


def test_empty_input(default) -> None:
    assert default.analyse([]).lemmas == ()


def test_sentences_split_lines_and_long_runs() -> None:
    tokens = tokenize("Uno dos.\nTres cuatro cinco.\n" + " ".join(["palabra"] * 300))
    groups = sentences(tokens, max_len=120)
    assert [tokens[i].text for i in groups[0]] == ["Uno", "dos", "."]
    assert [tokens[i].text for i in groups[1]] == ["Tres", "cuatro", "cinco", "."]
    assert all(len(g) <= 120 for g in groups)
    assert [i for g in groups for i in g] == list(range(len(tokens)))


def test_make_annotator_rejects_unknown_backends_and_options() -> None:
    with pytest.raises(AnnotatorError, match="unknown linguistic backend 'spacy'"):
        make_annotator("spacy")
    with pytest.raises(AnnotatorError, match="unknown option"):
        make_annotator({"backend": "default", "colour": "blue"})
    if HAS_STANZA:
        with pytest.raises(AnnotatorError, match="unknown option"):
            make_annotator({"backend": "stanza", "colour": "blue"})


def test_stanza_resources_dir_precedence(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tmp_path / "env"))
    assert stanza_resources_dir(tmp_path / "arg") == tmp_path / "arg"
    assert stanza_resources_dir() == tmp_path / "env"
    monkeypatch.delenv("STANZA_RESOURCES_DIR")
    assert stanza_resources_dir().name == "stanza_resources"


# --- stanza, for real -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def tiny_stanza(tmp_path_factory) -> dict[str, Path]:
    if not HAS_STANZA:
        pytest.skip("stanza is not installed")
    from tests.stanza_tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("stanza_tiny"))


@needs_stanza
def test_stanza_finds_models_in_a_resources_folder_and_tags_our_tokens(tiny_stanza) -> None:
    """The user's path: a stanza_resources folder, no explicit model files."""
    annotator = make_annotator({"backend": "stanza", "model_dir": str(tiny_stanza["model_dir"])})
    rows = analyse(annotator, "La paciente ingresó en el hospital.\nSu madre vive en Sevilla.")
    assert [r[0] for r in rows][:6] == ["La", "paciente", "ingresó", "en", "el", "hospital"]
    tags = [r[2] for r in rows]
    assert tags[-1] == "PUNCT" and tags[6] == "PUNCT"
    assert tags[0] == "DET" and tags[3] == "ADP"
    lemmas = {r[0]: r[1] for r in rows}
    assert lemmas["ingresó"] == "ingresar" and lemmas["vive"] == "vivir"
    assert annotator.describe()["backend"] == "stanza"


@needs_stanza
def test_stanza_with_explicit_model_files(tiny_stanza, monkeypatch) -> None:
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tiny_stanza["model_dir"]))
    config = {"backend": "stanza", "pos_model_path": str(tiny_stanza["pos_model_path"]),
              "lemma_model_path": str(tiny_stanza["lemma_model_path"])}
    annotator = make_annotator(config)
    assert annotator.analyse(tokenize("El paciente tiene fiebre.")).pos[-1] == "PUNCT"
    described = annotator.describe()
    assert described["pos_model_path"] == "tiny.pt" and described["lemma_model_path"] == "tiny.pt"


@needs_stanza
def test_stanza_keeps_token_count_on_long_and_odd_input(tiny_stanza) -> None:
    annotator = StanzaAnnotator(**{k: str(v) for k, v in tiny_stanza.items()})
    text = "NHC: 2569870. Tel. 91 555 12 34 — e-mail: ana@example.org\n" + "dolor " * 250
    tokens = tokenize(text)
    result = annotator.analyse(tokens)
    assert len(result.pos) == len(tokens) and all(result.pos)


@needs_stanza
def test_stanza_without_models_says_how_to_get_them(tmp_path: Path) -> None:
    with pytest.raises(AnnotatorError) as err:
        StanzaAnnotator(model_dir=tmp_path / "nowhere")
    message = str(err.value)
    assert "no stanza models found" in message and "crfdeid models download es" in message


@needs_stanza
def test_stanza_with_a_corrupt_model_is_a_clear_error(tiny_stanza, tmp_path: Path) -> None:
    bad = tmp_path / "pos.pt"
    bad.write_bytes(b"not a model")
    with pytest.raises(AnnotatorError, match="could not load"):
        StanzaAnnotator(
            model_dir=tiny_stanza["model_dir"],
            pos_model_path=str(bad),
            lemma_model_path=str(tiny_stanza["lemma_model_path"]),
        )


@needs_stanza
def test_download_failure_is_a_clear_error(monkeypatch, tmp_path: Path) -> None:
    import stanza

    calls = {}

    def offline(language, **kwargs):
        calls.update(kwargs, language=language)
        raise ConnectionError("network is unreachable")

    monkeypatch.setattr(stanza, "download", offline)
    with pytest.raises(AnnotatorError, match="could not download stanza models for 'es'"):
        download_stanza_models("es", tmp_path)
    assert calls["language"] == "es" and calls["model_dir"] == str(tmp_path)
    assert calls["processors"] == "tokenize,pos,lemma"


@pytest.mark.skipif(HAS_STANZA, reason="checks the message shown when stanza is absent")
def test_stanza_backend_without_the_extra() -> None:
    with pytest.raises(AnnotatorError, match="crfdeid\\[stanza\\]"):
        make_annotator("stanza")
