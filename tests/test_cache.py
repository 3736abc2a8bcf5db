"""The on-disk cache of derived data: where it lives, atomic checksummed entries, corrupt entries
rebuilt, and a folder that cannot be written costing time only."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from crfdeid import cache


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(where))
    monkeypatch.setattr(cache, "_UNWRITABLE", set())
    return where


class Builder:
    """A build function that counts its calls."""

    def __init__(self, value: bytes = b"derived data") -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> bytes:
        self.calls += 1
        return self.value


def fetch(build: Builder, key: str = "k1") -> bytes:
    return cache.fetch("entry", key, build, bytes, bytes)


def entry(folder: Path) -> Path:
    (path,) = folder.glob("entry-*.bin")
    return path


def test_the_folder_is_the_environment_variable_else_the_user_cache_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache.cache_dir() == folder
    monkeypatch.delenv(cache.ENV_CACHE_DIR)
    from platformdirs import user_cache_dir

    assert cache.cache_dir() == Path(user_cache_dir("crfdeid", appauthor=False))


def test_built_once_then_read_back(folder: Path) -> None:
    build = Builder()
    assert fetch(build) == b"derived data" and build.calls == 1
    assert fetch(build) == b"derived data" and build.calls == 1  # read from disk
    assert fetch(build, key="k2") == b"derived data" and build.calls == 2  # another key, another entry


def test_an_entry_is_written_whole_world_readable_with_no_temporary_file_left(folder: Path) -> None:
    fetch(Builder())
    assert [p.name for p in folder.iterdir()] == [entry(folder).name]
    assert stat.S_IMODE(entry(folder).stat().st_mode) == 0o644
    data = entry(folder).read_bytes()
    assert data.endswith(b"derived data") and data.startswith(cache._MAGIC)


def test_a_write_that_fails_half_way_leaves_no_entry_and_no_temporary_file(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(cache.os, "replace", broken_replace)
    assert fetch(Builder()) == b"derived data"
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_corrupt_or_truncated_entry_is_rebuilt_and_rewritten(folder: Path, damage: str) -> None:
    build = Builder(b"x" * 1000)
    fetch(build)
    path = entry(folder)
    data = path.read_bytes()
    damaged = {
        "truncate": data[:-10],
        "flip": data[:-1] + bytes([data[-1] ^ 1]),
        "empty": b"",
        "garbage": b"not a cache entry at all",
    }[damage]
    path.write_bytes(damaged)
    assert fetch(build) == b"x" * 1000 and build.calls == 2
    assert path.read_bytes() == data  # rewritten whole
    assert fetch(build) == b"x" * 1000 and build.calls == 2


def test_an_entry_its_loader_refuses_is_rebuilt(folder: Path) -> None:
    build = Builder(b"[1, 2]")
    fetch(build)

    def refuse(data: bytes) -> bytes:
        raise ValueError("not what this version reads")

    assert cache.fetch("entry", "k1", build, bytes, refuse) == b"[1, 2]" and build.calls == 2


def test_an_unwritable_folder_builds_in_memory_with_one_debug_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(blocker / "cache"))  # cannot be created, even as root
    monkeypatch.setattr(cache, "_UNWRITABLE", set())
    build = Builder()
    with caplog.at_level(logging.DEBUG, logger="crfdeid.cache"):
        assert fetch(build) == b"derived data"
        assert fetch(build, key="k2") == b"derived data"
    assert build.calls == 2
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]
    assert "not writable" in caplog.records[0].getMessage()


def test_where_nothing_can_be_stored_the_cheaper_unstored_form_is_built(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = Builder()

    def fetch_or_not() -> object:
        return cache.fetch("entry", "k1", build, bytes, bytes, unstored=lambda: "for this process")

    assert fetch_or_not() == b"derived data" and build.calls == 1  # writable: the stored form
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(blocker / "cache"))
    assert fetch_or_not() == "for this process" and build.calls == 1


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes a read-only folder")
def test_a_read_only_folder_builds_in_memory(folder: Path) -> None:
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert fetch(Builder()) == b"derived data"
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_keys_hash_every_part_with_its_length() -> None:
    assert cache.entry_key("ab", "c") != cache.entry_key("a", "bc")
    assert cache.entry_key("ab", "c") == cache.entry_key(b"ab", b"c")
    assert len(cache.entry_key("x")) == 32


def test_source_digest_changes_with_the_code(tmp_path: Path) -> None:
    import types

    module = types.ModuleType("fake")
    module.__file__ = str(tmp_path / "fake.py")
    Path(module.__file__).write_text("A = 1\n")
    before = cache.source_digest(module)
    Path(module.__file__).write_text("A = 2\n")
    assert cache.source_digest(module) != before


def test_only_what_ships_with_the_package_is_shipped(tmp_path: Path) -> None:
    from crfdeid.resources import data_dir
    from crfdeid.tagger import DEFAULT_MODEL_DIR

    assert cache.shipped(DEFAULT_MODEL_DIR / "model.crfsuite")
    assert cache.shipped(data_dir("gazetteers") / "es")
    assert not cache.shipped(tmp_path / "my-model" / "model.crfsuite")
    assert not cache.shipped(data_dir("gazetteers") / ".." / ".." / "elsewhere")
