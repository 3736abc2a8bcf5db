"""A copy of a shipped language pack with one manifest line changed, loaded afresh."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest

from crfdeid.langpack import PackError, load_pack, pack_dir


def fresh_pack(folder: Path):
    """``load_pack(folder)`` past the loader's cache (a test rewrites the same folder)."""
    from crfdeid.langpack import _load_pack_cached

    _load_pack_cached.cache_clear()
    try:
        return load_pack(folder)
    finally:
        _load_pack_cached.cache_clear()


def assert_refused(tmp_path: Path, line: str, bad: Iterable[tuple[str, str]], lang: str = "es") -> None:
    """Each ``(replacement, message)``: the pack with ``line`` of its manifest replaced fails to
    load with a PackError matching ``message``."""
    pack = tmp_path / lang
    shutil.copytree(pack_dir(lang), pack)
    manifest = pack / "pack.yaml"
    original = manifest.read_text(encoding="utf-8")
    assert line in original
    for replacement, message in bad:
        manifest.write_text(original.replace(line, replacement), encoding="utf-8")
        with pytest.raises(PackError, match=message):
            fresh_pack(pack)
