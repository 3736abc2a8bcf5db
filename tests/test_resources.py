from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid import resources


def test_data_dirs_exist_for_every_kind():
    for kind in resources.DATA_KINDS:
        assert resources.data_dir(kind).is_dir(), kind


def test_unknown_data_kind_is_refused():
    with pytest.raises(ValueError, match="unknown data kind"):
        resources.data_dir("models/../../etc")


def test_environment_overrides_corpus_location(monkeypatch, tmp_path: Path):
    monkeypatch.setenv(resources.ENV_MEDDOCAN, str(tmp_path))
    assert resources.meddocan_dir() == tmp_path


def test_shared_dir_from_environment(monkeypatch, tmp_path: Path):
    monkeypatch.delenv(resources.ENV_MEDDOCAN, raising=False)
    monkeypatch.setenv(resources.ENV_SHARED, str(tmp_path))
    assert resources.shared_dir() == tmp_path
    assert resources.meddocan_dir() is None  # no corpora/meddocan inside
    (tmp_path / "corpora" / "meddocan").mkdir(parents=True)
    assert resources.meddocan_dir() == tmp_path / "corpora" / "meddocan"
