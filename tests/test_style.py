"""The style gate runs with the tests, so `pytest` alone tells whether the tree is ruff-clean."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean():
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff not installed (it comes with the [test] extra)")
    proc = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
