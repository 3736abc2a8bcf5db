"""The README's Python examples run, so the documentation cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "the README should show the Python API"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "'NºCol'" in out and "'nnavcu@hotmail.com'" in out


def test_readme_quotes_the_two_start_commands():
    text = README.read_text(encoding="utf-8")
    assert ("pip install . && crfdeid annotate examples/notes -o out --rules-only && "
            "crfdeid evaluate examples/notes out") in text
    assert "pip install '.[test]' && pytest" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install '.[test]' && pytest" in ci
