"""Loading a pack fast gives the pack it gave: ``fold`` with its cache is the plain definition,
libyaml's parser reads every packaged YAML file as the pure-Python one does (and a broken file
still gets the usual error), and the TSV reader keeps its checks."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import langpack
from crfdeid.langpack import PackError, fold, read_tsv
from crfdeid.resources import data_dir


def plain_fold(text: str) -> str:
    """``fold`` as it was first written: the definition the fast one must keep."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(max_size=40) | st.text(alphabet="aeiouÁÉñÑçßİΣ\u0301\u0327 -", min_size=200, max_size=600))
def test_fold_is_the_plain_definition_cold_and_cached(text):
    langpack._FOLDED.clear()
    cold = fold(text)
    assert cold == plain_fold(text)
    assert fold(text) == cold  # from the cache for a short text


def test_the_fold_cache_is_bounded_and_keeps_short_strings_only():
    langpack._FOLDED.clear()
    long = "Ñ" * (langpack.FOLD_CACHE_LENGTH + 1)
    assert fold(long) == "n" * len(long)
    assert long not in langpack._FOLDED
    for i in range(langpack.FOLD_CACHE_SIZE + 10):
        fold(f"Nombre{i}")
    assert len(langpack._FOLDED) <= langpack.FOLD_CACHE_SIZE
    assert fold("Cuéllar") == "cuellar"


def yaml_files() -> list[Path]:
    return sorted(p for kind in ("gazetteers", "rules") for p in data_dir(kind).rglob("*.yaml"))


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
def test_libyaml_reads_every_packaged_yaml_file_as_the_python_parser_does():
    files = yaml_files()
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.safe_load(text), path


def test_a_broken_yaml_file_gets_the_usual_error_naming_its_line(tmp_path):
    path = tmp_path / "calendar.yaml"
    path.write_text("months:\n  - number: 1\n   name: [enero\n", encoding="utf-8")
    with pytest.raises(PackError, match="invalid YAML") as raised:
        langpack._yaml_file(path)
    assert raised.value.line is not None
    missing = tmp_path / "none.yaml"
    with pytest.raises(PackError, match="not found"):
        langpack._yaml_file(missing)


def test_the_tsv_reader_pads_short_rows_and_rejects_bad_ones(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("# comment\nname\tcount\tnote\nAna\t3\nLuis\t4\tx\n\n", encoding="utf-8")
    header, rows = read_tsv(path)
    assert header == ("name", "count", "note")
    assert rows == [{"name": "Ana", "count": "3", "note": ""}, {"name": "Luis", "count": "4", "note": "x"}]
    path.write_text("name\tcount\nAna\t3\t9\n", encoding="utf-8")
    with pytest.raises(PackError, match="3 cells"):
        read_tsv(path)
    path.write_text("name\tcount\n \t3\n", encoding="utf-8")
    with pytest.raises(PackError, match="empty first cell"):
        read_tsv(path)


def test_a_calendar_elision_needs_both_forms(tmp_path):
    path = tmp_path / "calendar.yaml"
    path.write_text("elision:\n  CA: {full: 'de '}\n", encoding="utf-8")
    with pytest.raises(PackError, match="elided"):
        langpack._load_elision(path)
    path.write_text("elision:\n  CA: {full: 'de ', elided: \"d'\"}\n", encoding="utf-8")
    assert langpack._load_elision(path) == {"CA": ("de ", "d'")}


def test_a_row_reads_as_a_dict_and_costs_a_tuple(tmp_path):
    import sys
    from collections.abc import Mapping

    path = tmp_path / "t.tsv"
    path.write_text("name\tprovince\taliases\nPamplona/Iruña\tNavarra\tPamplona|Iruña\nElche\tAlicante\n",
                    encoding="utf-8")
    _, (row, other) = read_tsv(path)
    plain = {"name": "Pamplona/Iruña", "province": "Navarra", "aliases": "Pamplona|Iruña"}
    assert isinstance(row, Mapping) and row == plain and dict(row) == plain and {**row} == plain
    assert row != other and other == {"name": "Elche", "province": "Alicante", "aliases": ""}
    assert row["province"] == "Navarra" and row.get("island") is None and row.get("island", "") == ""
    assert list(row) == list(row.keys()) == ["name", "province", "aliases"] and "aliases" in row
    assert "Navarra" not in row  # membership is by column, as in a dict
    assert row.values() == tuple(plain.values()) and list(row.items()) == list(plain.items())
    assert row[1] == "Navarra" and row[:2] == ("Pamplona/Iruña", "Navarra")
    with pytest.raises(KeyError):
        row["island"]
    assert type(row) is type(other) and len({row, other}) == 2  # one class per header; hashable
    assert sys.getsizeof(row) < sys.getsizeof(plain) / 2


def test_a_table_column_is_every_rows_cell_in_order():
    table = langpack.load_pack("es").table("municipality")
    assert table.column("province") == [row["province"] for row in table.rows]
    assert table.column("name")[: 3] == [row["name"] for row in table.rows[:3]]
    with pytest.raises(KeyError):
        table.column("nope")
