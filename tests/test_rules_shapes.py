"""The prefilter shapes of a shipped rule pack kept in the load-time cache (``crfdeid.rules.shapes``):
what is read back is what reading the patterns gives, an edited rule file is read again, and a
pack of one's own is never stored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from crfdeid import cache
from crfdeid.resources import data_dir
from crfdeid.rules import loader, prefilter, shapes, shipped_packs
from crfdeid.rules.loader import load_rules
from crfdeid.rules.model import flag_value


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder and no shape known in the process."""
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path / "cache"))
    monkeypatch.setattr(prefilter, "_KNOWN", prefilter.Memo(4096))
    return tmp_path / "cache"


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns ``read_shape`` reads from now on."""
    seen: list[str] = []
    real = prefilter.read_shape

    def counted(pattern: str, flags: int) -> prefilter.Shape:
        seen.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(prefilter, "read_shape", counted)
    return seen


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_shipped_shape_reads_back_as_the_reader_gives_it(pack: str) -> None:
    rules = load_rules(pack)
    patterns = [(r.pattern, flag_value(r.flags), prefilter.read_shape(r.pattern, flag_value(r.flags)))
                for r in rules]
    loaded = shapes.load(shapes.dump(patterns))
    assert loaded == {(pattern, flags): found for pattern, flags, found in patterns}
    assert [r.shape for r in rules] == [found for _, _, found in patterns]


def test_a_shipped_pack_is_read_once_then_from_the_cache(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _reads(monkeypatch)
    first = load_rules("es")
    assert len(seen) == len({(r.pattern, r.flags) for r in first})
    assert len(list(folder.glob("rule-shapes-*.bin"))) == 1
    monkeypatch.setattr(prefilter, "_KNOWN", prefilter.Memo(4096))  # as a new process
    seen.clear()
    again = load_rules("es")
    assert seen == [] and [r.shape for r in again] == [r.shape for r in first]


def test_an_edited_rule_file_is_read_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = tmp_path / "es"
    shutil.copytree(data_dir("rules") / "es", pack)
    monkeypatch.setattr(cache, "shipped", lambda path: True)  # as if this copy were installed
    load_rules(pack)
    edited = pack / "phones.yaml"
    text = edited.read_text(encoding="utf-8")
    assert r"\ ?fax)?" in text  # in the first pattern
    edited.write_text(text.replace(r"\ ?fax)?", r"\ ?telefax)?", 1), encoding="utf-8")
    monkeypatch.setattr(prefilter, "_KNOWN", prefilter.Memo(4096))
    seen = _reads(monkeypatch)
    rules = load_rules(pack)
    assert len(list(folder.glob("rule-shapes-*.bin"))) == 2  # a new entry beside the old one
    assert any("telefax" in pattern for pattern in seen)  # the edited pattern was read, not looked up
    for rule in rules:
        assert rule.shape == prefilter.read_shape(rule.pattern, flag_value(rule.flags))


def test_a_pack_of_ones_own_is_never_stored(folder: Path, tmp_path: Path) -> None:
    pack = tmp_path / "mine"
    shutil.copytree(data_dir("rules") / "es", pack)
    assert shapes.entry_key(loader.rule_files(pack)) is None
    load_rules(pack)
    assert not list(folder.glob("rule-shapes-*.bin"))
