"""The ``crfdeid`` command: results on stdout, clear errors with file and line, no tracebacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


@pytest.fixture
def gold_dir(tmp_path: Path) -> Path:
    text = "Nombre: Ana.\nApellidos: Pérez Gil.\nNHC: 368503.\n"
    write(tmp_path / "gold" / "n1.txt", text)
    write(tmp_path / "gold" / "n1.ann",
          "T1\tNOMBRE_SUJETO_ASISTENCIA 8 11\tAna\n"
          "T2\tNOMBRE_SUJETO_ASISTENCIA 24 33\tPérez Gil\n"
          "T3\tID_SUJETO_ASISTENCIA 40 46\t368503\n")
    return tmp_path / "gold"


def test_evaluate_examples_table(capsys):
    code, out, err = run(capsys, "evaluate", str(EXAMPLES / "notes"), str(EXAMPLES / "system"))
    assert code == 0, err
    assert "spans_merged" in out and "binary_token" in out
    assert "FAMILIARES_SUJETO_ASISTENCIA" in out  # per-label table


def test_evaluate_json_with_system_ann_only(capsys, gold_dir: Path, tmp_path: Path):
    write(tmp_path / "sys" / "n1.ann",
          "T1\tNOMBRE_SUJETO_ASISTENCIA 8 11\tAna\nT2\tID_SUJETO_ASISTENCIA 40 46\t368503\n")
    code, out, _ = run(capsys, "evaluate", str(gold_dir), str(tmp_path / "sys"), "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["ner"]["tp"] == 2 and report["ner"]["fn"] == 1 and report["ner"]["fp"] == 0
    assert report["ner"]["precision"] == 1.0
    assert report["ner"]["recall"] == pytest.approx(2 / 3)
    assert report["documents"]["scored"] == 1


def test_evaluate_writes_output_file(capsys, gold_dir: Path, tmp_path: Path):
    target = tmp_path / "reports" / "scores.json"
    code, out, _ = run(capsys, "evaluate", str(gold_dir), str(gold_dir), "--format", "json",
                       "-o", str(target))
    assert code == 0
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(out)


def test_missing_gold_folder_is_a_clear_error(capsys, tmp_path: Path):
    code, out, err = run(capsys, "evaluate", str(tmp_path / "nope"), str(tmp_path))
    assert code == 2
    assert "nope" in err and "Traceback" not in err and out == ""


def test_malformed_system_ann_names_file_and_line(capsys, gold_dir: Path, tmp_path: Path):
    write(tmp_path / "sys" / "n1.ann", "T1\tNOMBRE_SUJETO_ASISTENCIA 8 11\tAna\nT2\tLABEL 8\tAna\n")
    code, _, err = run(capsys, "evaluate", str(gold_dir), str(tmp_path / "sys"))
    assert code == 2
    assert "n1.ann:2" in err and "Traceback" not in err


def test_wrong_offsets_text_mismatch_is_an_error(capsys, gold_dir: Path, tmp_path: Path):
    write(tmp_path / "sys" / "n1.ann", "T1\tNOMBRE_SUJETO_ASISTENCIA 9 12\tAna\n")
    code, _, err = run(capsys, "evaluate", str(gold_dir), str(tmp_path / "sys"))
    assert code == 2
    assert "n1.ann:1" in err and "'Ana'" in err


def test_non_utf8_text_suggests_encoding_and_encoding_option_works(capsys, tmp_path: Path):
    text = "Nombre: José.\nNHC: 1.\n"
    write(tmp_path / "g" / "n.txt", text.encode("latin-1"))
    write(tmp_path / "g" / "n.ann", "T1\tNOMBRE_SUJETO_ASISTENCIA 8 12\tJosé\n".encode("latin-1"))
    code, _, err = run(capsys, "evaluate", str(tmp_path / "g"), str(tmp_path / "g"))
    assert code == 2
    assert "--encoding" in err and "n.txt:1" in err
    code, out, _ = run(capsys, "evaluate", str(tmp_path / "g"), str(tmp_path / "g"),
                       "--encoding", "latin-1", "--format", "json")
    assert code == 0 and json.loads(out)["ner"]["f1"] == 1.0


def test_binary_junk_is_refused(capsys, tmp_path: Path):
    write(tmp_path / "g" / "n.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(tmp_path / "g" / "n.ann", "")
    code, _, err = run(capsys, "evaluate", str(tmp_path / "g"), str(tmp_path / "g"))
    assert code == 2 and "binary" in err


def test_no_matching_system_documents(capsys, gold_dir: Path, tmp_path: Path):
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "evaluate", str(gold_dir), str(tmp_path / "empty"))
    assert code == 2 and "no document" in err


def test_internal_errors_are_reported_as_bugs_without_traceback(capsys, monkeypatch, gold_dir):
    import crfdeid.evaluate

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(crfdeid.evaluate, "evaluate", boom)
    code, _, err = run(capsys, "evaluate", str(gold_dir), str(gold_dir))
    assert code == 1
    assert "internal error" in err and "kaboom" in err and "--debug" in err
    assert "Traceback" not in err


def test_no_command_prints_help(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "evaluate" in out


def test_help_teaches_with_examples(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert "examples:" in out and "spans_merged" in out and "--encoding" in out


def test_installed_console_script_runs(tmp_path: Path):
    """The entry point that `pip install .` creates (skipped when running from a bare checkout)."""
    exe = shutil.which("crfdeid")
    if exe is None:
        pytest.skip("crfdeid console script not installed")
    proc = subprocess.run([exe, "evaluate", str(EXAMPLES / "notes"), str(EXAMPLES / "system"),
                           "--format", "json"], capture_output=True, text=True, cwd=tmp_path,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert 0 < json.loads(proc.stdout)["ner"]["f1"] < 1


def test_python_dash_m(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "crfdeid", "--version"], capture_output=True,
                          text=True, check=False, cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0 and proc.stdout.startswith("crfdeid ")
