"""Tables whose rows are notes: the dialect is kept, columns are checked, a bad row is one row."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.errors import InputError
from crfdeid.io.table import failed_row, format_row, iter_rows, open_table, row_id


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_the_dialect_is_read_and_written_back(tmp_path):
    path = write(tmp_path / "a.csv", "id;nota\r\n1;\"Línea uno\r\nlínea dos; con punto y coma\"\r\n".encode())
    table = open_table(path, "nota", "id", "utf-8")
    assert (table.delimiter, table.lineterminator, table.columns) == (";", "\r\n", ("id", "nota"))
    rows = list(iter_rows(table, 1000))
    assert rows == [(1, ["1", "Línea uno\r\nlínea dos; con punto y coma"])]
    assert format_row(table, rows[0][1], "X", header=True) == "id;nota\r\n1;X\r\n"
    assert format_row(table, rows[0][1], None, header=False) == "1;\r\n"
    tsv = open_table(write(tmp_path / "b.tsv", b"nota,con coma\tid\nhola, que tal\t7\n"), "nota,con coma",
                     None, "utf-8")
    assert tsv.delimiter == "\t" and row_id(tsv, ["hola, que tal", "7"], 1) == "b-1"


def test_columns_are_checked_and_listed(tmp_path):
    path = write(tmp_path / "a.csv", b"\xef\xbb\xbfid,texto\n1,hola\n")
    assert open_table(path, "id", None, "utf-8").columns == ("id", "texto")  # the BOM is not a name
    with pytest.raises(InputError, match="no column 'nota'") as caught:
        open_table(path, "nota", None, "utf-8")
    assert "'id', 'texto'" in str(caught.value)
    with pytest.raises(InputError, match="name the same column"):
        open_table(path, "texto", "texto", "utf-8")
    with pytest.raises(InputError, match="empty"):
        open_table(write(tmp_path / "e.csv", b""), "x", None, "utf-8")


def test_a_bad_row_is_one_error_and_the_next_rows_are_read(tmp_path):
    data = b"id,nota\n1,ok\n2,too,many\n3,\xff\xfe bytes\n4,\"" + b"x" * 50 + b"\"\n5,fin\n"
    table = open_table(write(tmp_path / "a.csv", data), "nota", "id", "utf-8")
    rows = list(iter_rows(table, 40))
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5]
    assert rows[0][1] == ["1", "ok"] and rows[4][1] == ["5", "fin"]
    errors = [cells for _, cells in rows[1:4]]
    assert all(isinstance(e, InputError) for e in errors)
    assert "3 cell(s) where the header has 2" in str(errors[0]) and "not utf-8" in str(errors[1])
    assert "over the 40-byte limit" in str(errors[2])
    assert failed_row(table, ["2", "x"]) == ["2", ""] and failed_row(table, ["1", "2", "3"]) == ["", ""]
    assert row_id(table, errors[0], 2) == "a-2"
