"""Word sets derived from a pack: built once per process, a shipped pack's kept in the cache folder
and read back, a pack of one's own never written there, an edited pack a new entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from crfdeid import cache, derived
from crfdeid.langpack import _load_pack_cached, fold, load_pack
from crfdeid.lone_names import common_given_names
from crfdeid.span_form import bilingual_parts, folded_entries


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(where))
    monkeypatch.setattr(cache, "_UNWRITABLE", set())
    monkeypatch.setattr(derived, "_SETS", {})
    return where


class Builder:
    def __init__(self, words: set[str]) -> None:
        self.words, self.calls = words, 0

    def __call__(self) -> set[str]:
        self.calls += 1
        return self.words


def test_a_shipped_packs_set_is_built_once_then_read_back_by_the_next_process(folder: Path) -> None:
    pack = load_pack("es")
    build = Builder({"ana", "jose maria", ""})
    first = derived.pack_set(pack, "test|a", build, (derived,))
    assert first == frozenset({"ana", "jose maria", ""}) and build.calls == 1
    assert derived.pack_set(pack, "test|a", build, (derived,)) is first and build.calls == 1
    assert len(list(folder.glob("pack-set-*.bin"))) == 1
    derived._SETS.clear()  # a new process: the folder has it

    def never() -> set[str]:
        raise AssertionError("built again")

    assert derived.pack_set(pack, "test|a", never, (derived,)) == first
    # another name is another set
    assert derived.pack_set(pack, "test|b", Builder(set()), (derived,)) == frozenset()


def test_a_pack_of_ones_own_is_never_written_to_the_cache_and_an_edit_changes_the_key(
    folder: Path, tmp_path: Path
) -> None:
    own = tmp_path / "mypack"
    shutil.copytree(load_pack("es").path, own)
    pack = load_pack(own)
    build = Builder({"x"})
    assert derived.pack_set(pack, "test|own", build, (derived,)) == {"x"} and build.calls == 1
    assert not list(folder.glob("pack-set-*.bin"))  # it may hold names of one's patients
    before = derived.pack_digest(pack)
    with (own / "surnames.tsv").open("a", encoding="utf-8") as out:
        out.write("Zzyzx\t1\n")
    _load_pack_cached.cache_clear()
    assert derived.pack_digest(load_pack(own)) != before


def test_the_steps_sets_are_those_the_tables_give(folder: Path) -> None:
    pack = load_pack("es")
    towns = folded_entries(pack, ("municipality",), parts=True)
    expected = {fold(e) for e in pack.table("municipality").entries}
    expected |= {fold(p) for e in pack.table("municipality").entries for p in bilingual_parts(e)}
    assert towns == expected and "vitoria" in towns and "gasteiz" in towns
    given = common_given_names(pack, 1000)
    assert "maria" in given and "enero" not in given  # a month is an ordinary word
    derived._SETS.clear()
    assert common_given_names(pack, 1000) == given  # read back from the folder
    assert common_given_names(pack, 10**9) == frozenset()  # another threshold, another set


def test_a_damaged_entry_is_rebuilt(folder: Path) -> None:
    pack = load_pack("es")
    derived.pack_set(pack, "test|d", Builder({"a", "b"}), (derived,))
    (path,) = folder.glob("pack-set-*.bin")
    data = path.read_bytes()
    path.write_bytes(data[:-1])  # truncated
    derived._SETS.clear()
    build = Builder({"a", "b"})
    assert derived.pack_set(pack, "test|d", build, (derived,)) == {"a", "b"} and build.calls == 1


def test_a_set_no_step_holds_is_not_kept_in_memory(folder: Path, tmp_path: Path) -> None:
    import gc

    own = tmp_path / "mine"
    shutil.copytree(load_pack("es").path, own)
    pack = load_pack(own)
    build = Builder({"x", "y"})
    held = derived.pack_set(pack, "test|w", build, (derived,))
    assert derived.pack_set(pack, "test|w", build, (derived,)) is held and build.calls == 1
    del held
    gc.collect()
    derived.pack_set(pack, "test|w", build, (derived,))
    assert build.calls == 2  # built again: nothing held the first one (4.5 MB of a load's sets)
