"""Reading text files exactly, with errors a user can act on; atomic writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from crfdeid.errors import InputError, OutputError
from crfdeid.io.text import atomic_write_text, decode_bytes, read_text, read_text_document, read_yaml_lines

NOTE = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\nNHC: 368503.\n"


def test_reads_utf8_exactly(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes(NOTE.replace("Ernesto", "José").encode("utf-8"))
    assert read_text(path) == NOTE.replace("Ernesto", "José")


def test_crlf_and_lone_cr_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes(b"Nombre: Ana\r\nNHC: 1\rSexo: M\n")
    assert read_text(path) == "Nombre: Ana\r\nNHC: 1\rSexo: M\n"


def test_bom_is_kept_as_a_character(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes(b"\xef\xbb\xbfNombre: Ana\n")
    text = read_text(path)
    assert text == "\ufeffNombre: Ana\n"
    assert text.index("Ana") == 9


def test_latin1_bytes_as_utf8_name_the_line_and_encoding_option(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes("Nombre: Ana\nApellidos: Muñoz\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_text(path)
    message = str(info.value)
    assert f"{path}:2:" in message
    assert "--encoding" in message
    assert "f1" in message  # the offending byte, in hex
    assert "column 14" in message
    assert info.value.line == 2


def test_explicit_latin1_encoding_reads(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes("Apellidos: Muñoz\n".encode("latin-1"))
    assert read_text(path, encoding="latin-1") == "Apellidos: Muñoz\n"


def test_unknown_encoding(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="unknown encoding 'no-such-codec'"):
        read_text(path, encoding="no-such-codec")


def test_binary_file_with_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "imagen.txt"
    path.write_bytes(b"PK\x03\x04\nabc\x00\x00\xff\xfe")
    with pytest.raises(InputError, match="binary") as info:
        read_text(path)
    assert str(info.value).startswith(f"{path}:2:")


def test_utf16_is_not_taken_for_binary(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes("Ana\n".encode("utf-16"))
    assert read_text(path, encoding="utf-16") == "Ana\n"


def test_empty_file_gives_empty_document(tmp_path: Path) -> None:
    path = tmp_path / "vacia.txt"
    path.write_bytes(b"")
    doc = read_text_document(path)
    assert doc.id == "vacia"
    assert doc.text == ""
    assert doc.spans == ()
    assert doc.metadata["path"] == str(path)


def test_file_over_max_bytes(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_bytes(NOTE.encode("utf-8"))
    size = len(NOTE.encode("utf-8"))
    with pytest.raises(InputError, match="over the 10-byte limit") as info:
        read_text(path, max_bytes=10)
    assert f"{size:,} bytes" in str(info.value)
    assert "--max-bytes" in str(info.value)
    assert read_text(path, max_bytes=size) == NOTE  # exactly at the limit is fine


def test_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "no-existe.txt"
    with pytest.raises(InputError, match="no such file") as info:
        read_text(path)
    assert info.value.path == str(path)


def test_decode_bytes_reports_column() -> None:
    with pytest.raises(InputError) as info:
        decode_bytes(b"ab\ncd\xe9f", "x.txt")
    assert str(info.value).startswith("x.txt:2: cannot decode byte(s) e9 at column 3")


def test_read_text_document_keeps_text_exact(tmp_path: Path) -> None:
    path = tmp_path / "caso-1.txt"
    path.write_bytes(b"\xef\xbb\xbfNombre: Ana\r\n")
    doc = read_text_document(path)
    assert (doc.id, doc.text) == ("caso-1", "\ufeffNombre: Ana\r\n")


# --- atomic_write_text ---------------------------------------------------------------------


def test_atomic_write_creates_parents_and_keeps_newlines(tmp_path: Path) -> None:
    target = tmp_path / "salida" / "sub" / "nota.txt"
    atomic_write_text(target, "Nombre: Ana\r\nSexo: M\n")
    assert target.read_bytes() == b"Nombre: Ana\r\nSexo: M\n"
    assert os.listdir(target.parent) == ["nota.txt"]


def test_atomic_write_replaces_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "nota.txt"
    target.write_text("viejo", encoding="utf-8")
    atomic_write_text(target, "nuevo")
    assert target.read_text(encoding="utf-8") == "nuevo"
    assert os.listdir(tmp_path) == ["nota.txt"]


def test_atomic_write_mode(tmp_path: Path) -> None:
    target = tmp_path / "secreto.txt"
    atomic_write_text(target, "x", mode=0o600)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_atomic_write_default_mode_follows_umask(tmp_path: Path) -> None:
    target = tmp_path / "nota.txt"
    old = os.umask(0o027)
    try:
        atomic_write_text(target, "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_atomic_write_failure_leaves_old_file_and_no_temp(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "nota.txt"
    target.write_text("viejo", encoding="utf-8")

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OutputError, match="No space left on device"):
        atomic_write_text(target, "nuevo")
    assert target.read_text(encoding="utf-8") == "viejo"
    assert os.listdir(tmp_path) == ["nota.txt"]


def test_atomic_write_unencodable_text(tmp_path: Path) -> None:
    target = tmp_path / "nota.txt"
    with pytest.raises(OutputError, match="cannot be encoded as ascii"):
        atomic_write_text(target, "Nombre: José", encoding="ascii")
    assert os.listdir(tmp_path) == []


def test_atomic_write_into_a_file_path_is_an_output_error(tmp_path: Path) -> None:
    blocker = tmp_path / "archivo"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="cannot create output"):
        atomic_write_text(blocker / "nota.txt", "x")


def test_folder_is_reported_as_folder_even_with_tiny_limit(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="folder"):
        read_text(tmp_path, max_bytes=1)


SCALARS = """\
plain: word
quoted: '3'
int: 42
octal_like: 0o17
hex: 0x1F
float: 2.5
inf: .inf
bools: [yes, no, true, False, on]
nulls: [null, ~, ]
date: 2001-12-14
stamp: 2001-12-14t21:59:43.10-05:00
binary: !!binary aGVsbG8=
tagged: !!str 4
alias: &a {x: 1}
again: *a
"""


def _values(node):
    """``read_yaml_lines``'s result without its line numbers."""
    if isinstance(node, dict):
        return {key: _values(value) for key, (value, _line) in node.items()}
    if isinstance(node, list):
        return [_values(item) for item in node]
    return node


def test_read_yaml_lines_gives_safe_loads_values_and_their_lines(tmp_path: Path) -> None:
    import yaml

    path = tmp_path / "f.yaml"
    path.write_text(SCALARS, encoding="utf-8")
    read = read_yaml_lines(path, InputError, "test file")
    assert _values(read) == yaml.safe_load(SCALARS)
    assert [line for _value, line in read.values()] == list(range(1, 16))


def test_read_yaml_lines_reports_pyyamls_own_syntax_error(tmp_path: Path) -> None:
    import yaml

    path = tmp_path / "bad.yaml"
    path.write_text("a: 1\nb: [unclosed\n", encoding="utf-8")
    with pytest.raises(yaml.YAMLError) as python_error:
        yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    with pytest.raises(InputError) as raised:
        read_yaml_lines(path, InputError, "test file")
    assert f"invalid YAML: {python_error.value.problem}" in str(raised.value)
    assert str(raised.value).startswith(f"{path}:3:")
