"""`crfdeid inspect`, `crfdeid pack show` and `crfdeid models download`."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from crfdeid.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_inspect_text_table(capsys) -> None:
    code, out, _ = run(capsys, "inspect", "La Dra. Navarro revisó a su hija.")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["start", "end", "token", "lemma", "pos", "gazetteers"]
    navarro = next(line for line in lines if " Navarro " in line)
    assert navarro.split()[:5] == ["8", "15", "Navarro", "navarro", "OPEN"] and "surname:B" in navarro
    assert "kinship:B" in next(line for line in lines if " hija " in line)


def test_inspect_file_jsonl_keeps_offsets(capsys, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    text = "Nombre: Ana Belén Ruiz.\nSu hija vive en Sevilla (c/ Mayor 5).\n"
    note.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "inspect", str(note), "--format", "jsonl", "--lists", "given_name,kinship")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in rows)
    by_text = {r["text"]: r for r in rows}
    assert by_text["Ana"]["gazetteers"] == ["given_name:B"] and by_text["Belén"]["gazetteers"] == [
        "given_name:I"
    ]
    assert by_text["hija"]["gazetteers"] == ["kinship:B"] and by_text["Sevilla"]["gazetteers"] == []
    assert by_text["Su"]["line"] == 2 and by_text["Su"]["pos"] == "DET"


def test_inspect_unknown_list_is_a_user_error(capsys) -> None:
    code, _, err = run(capsys, "inspect", "texto", "--lists", "nicknames")
    assert code == 2 and "unknown gazetteer" in err and "crfdeid pack show" in err


def test_inspect_missing_file_is_not_taken_as_text(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "inspect", str(tmp_path / "missing.txt"))
    assert code == 2 and "file not found" in err and "missing.txt" in err


def test_inspect_with_stanza_but_no_models_says_how_to_get_them(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "inspect", "texto", "--backend", "stanza", "--stanza-dir", str(tmp_path))
    assert code == 2
    if importlib.util.find_spec("stanza") is None:
        assert "crfdeid[stanza]" in err
    else:
        assert "crfdeid models download es" in err
    assert "Traceback" not in err


@pytest.mark.skipif(importlib.util.find_spec("stanza") is None, reason="stanza is not installed")
def test_inspect_with_stanza_models(capsys, tmp_path_factory) -> None:
    from tests.stanza_tiny import build_tiny_model

    model_dir = build_tiny_model(tmp_path_factory.mktemp("stanza_cli"))["model_dir"]
    code, out, err = run(capsys, "inspect", "La paciente ingresó en el hospital.", "--backend", "stanza",
                         "--stanza-dir", str(model_dir), "--format", "jsonl")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in rows][:3] == ["La", "paciente", "ingresó"]
    assert rows[-1]["pos"] == "PUNCT" and rows[2]["lemma"] == "ingresar"


def test_pack_show(capsys) -> None:
    code, out, _ = run(capsys, "pack", "show", "es")
    assert code == 0
    assert "pack version" in out and "given_name" in out and "kinship" in out
    assert "Fuente: INE" in out and "CC BY 4.0" in out


def test_pack_show_unknown_language(capsys) -> None:
    code, _, err = run(capsys, "pack", "show", "xx")
    assert code == 2 and "no language pack 'xx'" in err


@pytest.mark.skipif(importlib.util.find_spec("stanza") is None, reason="stanza is not installed")
def test_models_download_offline_is_a_clear_error(capsys, monkeypatch, tmp_path: Path) -> None:
    import stanza

    def offline(*args, **kwargs):
        raise OSError("Name or service not known")

    monkeypatch.setattr(stanza, "download", offline)
    code, _, err = run(capsys, "models", "download", "es", "--stanza-dir", str(tmp_path))
    assert code == 2 and "could not download stanza models for 'es'" in err and "internet" in err


def test_help_teaches(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["inspect", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "OOV" in out and "stanza" in out
