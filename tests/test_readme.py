"""The README's Python examples run, so the documentation cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
FIRST_COMMAND = ("pip install . && crfdeid deidentify examples/notes -o out/deidentified --overwrite && "
                 "crfdeid annotate examples/notes -o out/found && crfdeid evaluate examples/notes out/found")


def test_readme_python_blocks_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "the README should show the Python API"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "'NºCol'" in out and "'nnavcu@hotmail.com'" in out


def test_readme_quotes_the_two_start_commands():
    text = README.read_text(encoding="utf-8")
    assert FIRST_COMMAND in text
    assert "pip install '.[test]' && pytest" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install '.[test]' && pytest" in ci


def test_the_first_command_runs_on_the_embedded_model(capsys, tmp_path, monkeypatch):
    """The crfdeid steps of the first command, run twice (a new user reruns it), in a scratch copy."""
    import shutil

    from crfdeid.cli import main

    shutil.copytree(README.parent / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    steps = [step.split()[1:] for step in FIRST_COMMAND.split(" && ")[1:]]
    for _ in range(2):
        for argv in steps:
            assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "ner" in out
    released = (tmp_path / "out" / "deidentified" / "nota-001.txt").read_text(encoding="utf-8")
    assert "Lucía" not in released and "Ferrer Galindo" not in released and "Datos del paciente." in released
