"""The only place that finds data: packaged data folders and the optional ../shared corpora.

Packaged data (rules/, gazetteers/, features/, policies/, schemes/) lives at the top of the
repository and is copied into the wheel as ``crfdeid/_data/<kind>``; both layouts are found
here. Corpora are never packaged: they are found through an environment variable or a
``shared/`` folder beside the project, and callers treat "not found" as "skip" or as a clear
error.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_DIR = _PACKAGE_DIR.parent
DATA_KINDS = ("rules", "gazetteers", "features", "policies", "schemes")

#: Environment variables a user can set instead of passing paths on every command.
ENV_SHARED = "CRFDEID_SHARED"
ENV_MEDDOCAN = "CRFDEID_MEDDOCAN"


def data_dir(kind: str) -> Path:
    """The folder of packaged data of one kind (``rules``, ``gazetteers``, ``features``, ``policies``,
    ``schemes``)."""
    if kind not in DATA_KINDS:
        raise ValueError(f"unknown data kind {kind!r}; expected one of {DATA_KINDS}")
    installed = _PACKAGE_DIR / "_data" / kind
    if installed.is_dir():
        return installed
    return _REPO_DIR / kind


def shared_dir() -> Path | None:
    """The shared data folder: ``$CRFDEID_SHARED``, else ``../shared`` beside the project or cwd."""
    env = os.environ.get(ENV_SHARED)
    if env:
        return Path(env)
    for base in (Path.cwd(), _REPO_DIR):
        candidate = base.parent / "shared"
        if candidate.is_dir():
            return candidate
    return None


def meddocan_dir() -> Path | None:
    """The MEDDOCAN corpus folder (with ``train/`` and ``dev/``), or None when absent."""
    env = os.environ.get(ENV_MEDDOCAN)
    if env:
        return Path(env)
    shared = shared_dir()
    if shared is None:
        return None
    candidate = shared / "corpora" / "meddocan"
    return candidate if candidate.is_dir() else None
