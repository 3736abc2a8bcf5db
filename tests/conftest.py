"""Shared fixtures.

``meddocan_dir`` points at the MEDDOCAN corpus (``train/`` and ``dev/`` folders of BRAT files),
found the same way the package finds it (``crfdeid.resources.meddocan_dir``: ``$CRFDEID_MEDDOCAN``,
``$CRFDEID_SHARED/corpora/meddocan`` or ``../shared/corpora/meddocan``). The corpus is licensed
separately and never copied into this repository; tests that use the fixture skip without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.resources import meddocan_dir as find_meddocan


@pytest.fixture(scope="session")
def meddocan_dir() -> Path:
    """The MEDDOCAN corpus folder, or skip the test when it is not available."""
    path = find_meddocan()
    if path is None or not all((path / part).is_dir() for part in ("train", "dev")):
        where = f"not at {path}" if path else "no ../shared/corpora/meddocan beside the project"
        pytest.skip(f"MEDDOCAN corpus not found ({where}); set CRFDEID_MEDDOCAN to a folder "
                    "with train/ and dev/ to run this test")
    return path
