"""Reading text files exactly, and writing files so that a crash never leaves half a file.

Text is read with ``newline=''`` semantics: ``\\r\\n`` stays two characters, so character offsets
agree with BRAT annotations and with the official MEDDOCAN scorer. A byte-order mark is kept
as a character for the same reason (MEDDOCAN offsets count it).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import CrfdeidError, InputError, OutputError
from ..types import Document

DEFAULT_ENCODING = "utf-8"
#: Clinical notes are kilobytes. 10 MB is the largest note measured to be de-identified within
#: 60 s and 1 GB on a 2-core machine (benchmarks/long_notes.py: 9 MB in 54.8 s, 638 MB); a larger
#: "note" is most likely the wrong file, and --max-bytes says otherwise.
DEFAULT_MAX_BYTES = 10_000_000

_ENCODING_HINT = ("the file is not {enc}; if you know its encoding, pass it with --encoding "
                  "(e.g. --encoding latin-1)")


def decode_bytes(data: bytes, path: str | Path, encoding: str = DEFAULT_ENCODING) -> str:
    """Decode ``data`` or raise an :class:`InputError` naming the file, line and column."""
    if b"\x00" in data[:1 << 20] and not encoding.lower().replace("-", "").startswith("utf16"):
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError("looks like a binary file (contains NUL bytes), not text", path, line)
    try:
        return data.decode(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}", path,
                         hint="use a Python codec name such as utf-8, latin-1, cp1252") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.end].hex(" ")
        raise InputError(
            f"cannot decode byte(s) {bad} at column {column} as {encoding}",
            path, line, hint=_ENCODING_HINT.format(enc=encoding),
        ) from None


def read_text(path: str | Path, encoding: str = DEFAULT_ENCODING,
              max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read a whole text file exactly (no newline translation) with clear errors."""
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder, expected a file", path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(
                f"file is {size:,} bytes, over the {max_bytes:,}-byte limit for one document",
                path, hint="split it into documents, or raise the limit with --max-bytes",
            )
        data = path.read_bytes()
    except InputError:
        raise
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path) from None
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    return decode_bytes(data, path, encoding)


def read_text_document(path: str | Path, encoding: str = DEFAULT_ENCODING,
                       max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """A plain ``.txt`` file as a Document without spans; the id is the file stem."""
    path = Path(path)
    return Document(id=path.stem, text=read_text(path, encoding, max_bytes),
                    metadata={"path": str(path)})


def atomic_write_text(path: str | Path, content: str, encoding: str = DEFAULT_ENCODING,
                      mode: int | None = None, tmp_dir: str | Path | None = None) -> None:
    """Write ``content`` to ``path`` via a temporary file and a rename.

    Readers (and a later run after a crash) see either the old file or the whole new one,
    never half of it. ``mode`` sets permissions before any content is written (e.g. 0o600).
    ``tmp_dir`` holds the temporary file (default: beside ``path``); it must be on the same
    file system — a batch keeps its temporary files out of the folder it releases.
    """
    try:
        data = content.encode(encoding)
    except UnicodeEncodeError as exc:
        raise OutputError(f"the text cannot be encoded as {encoding} ({exc.reason} at "
                          f"character {exc.start})", path) from None
    except LookupError:
        raise OutputError(f"unknown encoding {encoding!r}", path) from None
    atomic_write_bytes(path, data, mode, tmp_dir)


def atomic_write_bytes(path: str | Path, data: bytes, mode: int | None = None,
                       tmp_dir: str | Path | None = None) -> None:
    """``atomic_write_text`` for bytes (a .docx, a report)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                   dir=path.parent if tmp_dir is None else tmp_dir)
    except OSError as exc:
        raise OutputError(f"cannot create output: {exc.strerror or exc}", path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            # mkstemp creates the file 0600; widen it to the usual umask-based mode unless the
            # caller asked for a mode (e.g. 0600 for files holding originals) — before writing.
            os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write: {exc.strerror or exc}", path) from None
        raise


def _umask() -> int:
    """The process umask. Linux exposes it read-only; elsewhere reading it means setting it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def read_yaml(path: str | Path, error: type[CrfdeidError] = InputError, what: str = "YAML file") -> Any:
    """Parse a YAML data file with ``safe_load``; every failure is ``error`` naming the file (and
    the line, for a syntax error). Shared by feature sets, merge policies and language packs."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise error(f"{what} not found", path)
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise error(f"invalid YAML: {getattr(exc, 'problem', exc)}", path,
                    mark.line + 1 if mark else None) from None
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 ({exc.reason})", path) from None


def read_yaml_lines(path: str | Path, error: type[CrfdeidError], what: str) -> Any:
    """A YAML file as plain Python whose mappings are ``{key: (value, line)}`` (1-based lines),
    for files whose every error must name its line (policies, label schemes). A key given twice,
    which ``safe_load`` would silently collapse, or a key that is not a plain word, is ``error``."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} not found", path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read the {what}: {exc}", path) from None
    try:  # libyaml's parser where PyYAML has it (5x faster); PyYAML's own says what is wrong
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        try:
            node = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark else None
            raise error(f"invalid YAML: {getattr(exc, 'problem', exc)}", path, line) from None
    scalars = yaml.constructor.SafeConstructor()  # a scalar's value from the tag resolved for it

    def plain(node: Any) -> Any:
        if isinstance(node, yaml.MappingNode):
            out: dict[str, tuple[Any, int]] = {}
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    raise error("keys must be plain words", path, line)
                key = key_node.value
                if key in out:
                    raise error(f"key {key!r} is given twice (first on line {out[key][1]})", path, line)
                out[key] = (plain(value_node), line)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [plain(n) for n in node.value]
        return scalars.construct_object(node, deep=True)

    return plain(node) if node is not None else None
