"""Tables whose rows are notes: CSV, TSV and Parquet, with the notes in one column.

``--text-column`` names the column that holds the notes (``--id-column`` the one that names them;
else a row is ``STEM-ROW``, its 1-based data row). Every row is a note of the batch, and the
output is the same table — the same columns in the same order, the same delimiter and line
ending — with that column de-identified. Only that column: the others are copied as they are.

A row that cannot be read (another number of cells than the header, bytes that are not the
encoding) or de-identified fails alone. In a CSV its output row keeps only the id (when the row
has the header's shape) and every other cell is empty — never the original text, which a broken
row may have spilled into any cell; in Parquet (typed columns, nothing spills) the text is null.
A held-back row keeps its other columns and an empty (Parquet: null) text cell; its de-identified
text is in ``quarantine/``. A Parquet null note stays null.

CSV is written as it is read, row by row. Parquet (with pyarrow) is written once every row is
done: the rows' texts are kept in a hidden file beside it until then.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError

_SNIFF_BYTES = 1 << 16
_ENCODING_HINT = "pass the file's encoding with --encoding (e.g. --encoding latin-1)"


@dataclass(frozen=True)
class Table:
    """How a table is read and written back (picklable: it travels with each row to workers)."""

    path: Path
    fmt: str  # "csv" or "parquet"
    columns: tuple[str, ...]
    text_index: int
    id_index: int | None
    delimiter: str = ","
    lineterminator: str = "\n"
    encoding: str = "utf-8"
    output: str = ""  # its path in OUT_DIR (``output_name``), set by the batch

    def where(self, row: int) -> str:
        return f"{self.path}: row {row}"


def _need_pyarrow(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading .parquet needs pyarrow", path,
                         hint="pip install 'crfdeid[formats]' (or pip install pyarrow)") from None
    return pq


def open_table(path: Path, text_column: str | None, id_column: str | None, encoding: str) -> Table:
    """Read a table's header and check the columns asked for, naming the ones it has."""
    if text_column is None:
        raise InputError("a table needs --text-column NAME: the column that holds the notes", path,
                         hint=f"its columns: {', '.join(_columns(path, encoding)) or '(none)'}")
    if path.suffix.lower() == ".parquet":
        pq = _need_pyarrow(path)
        try:
            columns = tuple(pq.ParquetFile(path).schema_arrow.names)
        except Exception as exc:
            raise InputError(f"not a readable Parquet file ({type(exc).__name__}: {exc})", path) from None
        text_index, id_index = _indices(path, columns, text_column, id_column)
        return Table(path, "parquet", columns, text_index, id_index)
    delimiter, terminator = _dialect(path, encoding)
    columns = tuple(_header(path, encoding, delimiter))
    text_index, id_index = _indices(path, columns, text_column, id_column)
    return Table(path, "csv", columns, text_index, id_index, delimiter, terminator, encoding)


def _indices(path: Path, columns: tuple[str, ...], text_column: str,
             id_column: str | None) -> tuple[int, int | None]:
    listed = ", ".join(repr(c) for c in columns) or "(none)"
    if text_column not in columns:
        raise InputError(f"no column {text_column!r} (--text-column)", path, hint=f"its columns: {listed}")
    if id_column is not None and id_column not in columns:
        raise InputError(f"no column {id_column!r} (--id-column)", path, hint=f"its columns: {listed}")
    if id_column == text_column:
        raise InputError("--id-column and --text-column name the same column", path)
    return columns.index(text_column), None if id_column is None else columns.index(id_column)


def _columns(path: Path, encoding: str) -> list[str]:
    with contextlib.suppress(InputError, OSError, ValueError):
        if path.suffix.lower() == ".parquet":
            return list(_need_pyarrow(path).ParquetFile(path).schema_arrow.names)
        return _header(path, encoding, _dialect(path, encoding)[0])
    return []


def _dialect(path: Path, encoding: str) -> tuple[str, str]:
    """The delimiter (a .tsv: tab; a .csv: sniffed among , ; tab |) and the line ending."""
    try:
        with open(path, "rb") as handle:
            sample = handle.read(_SNIFF_BYTES)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    first = sample.split(b"\n", 1)[0]
    terminator = "\r\n" if first.endswith(b"\r") else "\n"
    if path.suffix.lower() == ".tsv":
        return "\t", terminator
    text = sample.decode(encoding, errors="replace")
    try:
        delimiter = csv.Sniffer().sniff(text.split("\n", 1)[0] or text, delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    return delimiter, terminator


def _header(path: Path, encoding: str, delimiter: str) -> list[str]:
    try:
        with open(path, encoding=encoding, errors="surrogateescape", newline="") as handle:
            header = next(csv.reader(handle, delimiter=delimiter), None)
    except (OSError, LookupError, csv.Error) as exc:
        raise InputError(f"cannot read the header: {exc}", path) from None
    if not header:
        raise InputError("the table is empty (no header row)", path)
    header[0] = header[0].lstrip("\ufeff")
    if any("\udc80" <= c <= "\udcff" for name in header for c in name):
        raise InputError(f"the header is not {encoding}", path, line=1,
                         hint="pass the file's encoding with --encoding (e.g. --encoding latin-1)")
    return header


def iter_rows(table: Table, max_bytes: int) -> Iterator[tuple[int, list[Any] | InputError]]:
    """(data row number from 1, its cells or why it cannot be read), streamed."""
    if table.fmt == "parquet":
        yield from _parquet_rows(table)
        return
    csv.field_size_limit(max(csv.field_size_limit(), max_bytes + 1))
    try:
        handle = open(table.path, encoding=table.encoding, errors="surrogateescape", newline="")  # noqa: SIM115
    except OSError as exc:  # gone since the batch checked its columns
        yield 1, InputError(f"cannot read: {exc.strerror or exc}", table.path)
        return
    with handle:
        reader = csv.reader(handle, delimiter=table.delimiter)
        row = 0
        try:
            next(reader)  # the header
        except (StopIteration, csv.Error):
            return
        while True:
            row += 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield row, InputError(f"cannot be read as {table.delimiter!r}-separated values: {exc}",
                                      table.path, reader.line_num)
                continue
            if len(cells) != len(table.columns):
                yield row, InputError(f"{len(cells)} cell(s) where the header has {len(table.columns)}",
                                      table.path, reader.line_num,
                                      hint="a note with the delimiter or a line break in it must be quoted")
                continue
            text = cells[table.text_index]
            if any("\udc80" <= c <= "\udcff" for cell in cells for c in cell):
                yield row, InputError(f"not {table.encoding}", table.path, reader.line_num,
                                      hint=_ENCODING_HINT)
                continue
            if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
                yield row, InputError(f"the note is over the {max_bytes:,}-byte limit", table.path,
                                      reader.line_num, hint="raise the limit with --max-bytes")
                continue
            yield row, cells


def _parquet_rows(table: Table) -> Iterator[tuple[int, list[Any] | InputError]]:
    pq = _need_pyarrow(table.path)
    row = 0
    batches = _batches(pq, table.path)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except Exception as exc:  # a damaged file: the rows read stand, the rest is one failure
            yield row + 1, InputError(f"cannot read the rows ({type(exc).__name__}: {exc})", table.path)
            return
        for record in batch:
            row += 1
            cells = [record[name] for name in table.columns]
            text = cells[table.text_index]
            if text is not None and not isinstance(text, str):
                yield row, InputError(f"the text column holds {type(text).__name__}, not text",
                                      table.path)
                continue
            yield row, cells


def _batches(pq: Any, path: Path) -> Iterator[list[dict[str, Any]]]:
    for batch in pq.ParquetFile(path).iter_batches(batch_size=256):
        yield batch.to_pylist()


class RowReader:
    """Rows of one table at a time, read forward: a batch asks for them in order, so a table of
    a million rows is parsed once, not once per row."""

    def __init__(self) -> None:
        self._key: tuple[Path, int] | None = None
        self._rows: Iterator[tuple[int, list[Any] | InputError]] | None = None
        self._last = 0

    def row(self, table: Table, number: int, max_bytes: int) -> list[Any]:
        key = (table.path, id(table))
        if self._key != key or self._rows is None or number <= self._last:
            self.close()
            self._key, self._rows, self._last = key, iter_rows(table, max_bytes), 0
        for found, cells in self._rows:
            self._last = found
            if found == number:
                if isinstance(cells, InputError):
                    raise cells
                return cells
        raise InputError(f"row {number} disappeared before it could be read", table.path)

    def close(self) -> None:
        if self._rows is not None:
            with contextlib.suppress(Exception):
                self._rows.close()  # type: ignore[attr-defined]
        self._rows = None


def row_id(table: Table, cells: list[Any] | InputError, number: int) -> str:
    """The note id of a row: its --id-column value, else ``STEM-ROW``."""
    if table.id_index is not None and isinstance(cells, list):
        value = cells[table.id_index]
        if value not in (None, "") and not isinstance(value, bool):
            return str(value).strip() or f"{table.path.stem}-{number}"
    return f"{table.path.stem}-{number}"


def encode_row(cells: list[Any]) -> bytes:
    """A row as the bytes a batch digests and passes to a worker (JSON: no pickle)."""
    return json.dumps(cells, ensure_ascii=False, default=str).encode("utf-8")


def decode_row(data: bytes) -> list[Any]:
    return json.loads(data.decode("utf-8"))


def output_name(table: Table, note_id_folder: str) -> str:
    """The table's path in OUT_DIR (its folder mirrored); for Parquet, the hidden rows file."""
    base = f"{note_id_folder}/" if note_id_folder else ""
    if table.fmt == "parquet":
        return f"{base}.{table.path.name}.rows.jsonl"
    return f"{base}{table.path.name}"


def format_row(table: Table, cells: list[Any], text: str | None, header: bool) -> str:
    """One output row: the cells with the text cell replaced (``None``: emptied). For CSV, with
    the table's delimiter and line ending (and the header before the first row); for Parquet, a
    JSON line the final file is built from."""
    if table.fmt == "parquet":
        return json.dumps({"text": text}, ensure_ascii=False) + "\n"
    out = list(cells)
    out[table.text_index] = "" if text is None else text
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=table.delimiter, lineterminator=table.lineterminator)
    if header:
        writer.writerow(table.columns)
    writer.writerow(out)
    return buffer.getvalue()


def failed_row(table: Table, cells: list[Any] | None) -> list[Any]:
    """What a failed row keeps: its id (when the row had the header's shape), nothing else."""
    out: list[Any] = [""] * len(table.columns) if table.fmt == "csv" else [None] * len(table.columns)
    if cells is not None and table.id_index is not None and len(cells) == len(table.columns):
        out[table.id_index] = cells[table.id_index]
    return out


def finish_parquet(table: Table, rows_file: Path, target: Path, tmp_dir: Path) -> None:
    """Write the de-identified Parquet file: the input's columns, the text column replaced by
    the rows' texts (null for a failed or held row), atomically."""
    import os
    import tempfile

    pq = _need_pyarrow(table.path)
    import pyarrow as pa

    texts = [json.loads(line)["text"] for line in rows_file.read_text(encoding="utf-8").splitlines()]
    source = pq.read_table(table.path)
    if len(texts) != source.num_rows:
        raise InputError(f"the table changed during the run ({source.num_rows} rows now, {len(texts)} done)",
                         table.path, hint="rerun with --overwrite")
    name = table.columns[table.text_index]
    column = pa.array(texts, type=pa.string())
    result = source.set_column(table.text_index, pa.field(name, pa.string(), nullable=True), column)
    from .text import _umask

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=tmp_dir)
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # as every released file (mkstemp made it 0600)
        pq.write_table(result, tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
