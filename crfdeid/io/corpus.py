"""Finding documents in files and folders: ``.txt`` (+ ``.ann``) and ``.jsonl``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import AnnotationError, InputError
from ..types import Document
from .brat import read_brat
from .jsonl import read_jsonl
from .text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES

INPUT_SUFFIXES = (".txt", ".jsonl")


def find_inputs(paths: Iterable[str | Path], suffixes: tuple[str, ...] = INPUT_SUFFIXES) -> list[Path]:
    """Expand files and folders (not recursive) into a sorted, de-duplicated list of files."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.iterdir() if p.is_file() and p.suffix in suffixes))
        elif path.is_file():
            if path.suffix not in suffixes:
                raise InputError(f"unsupported file type {path.suffix or '(none)'!r}; expected "
                                 f"{' or '.join(suffixes)}", path)
            found.append(path)
        else:
            raise InputError("no such file or folder", path)
    unique: dict[Path, None] = dict.fromkeys(p.resolve() for p in found)
    return [Path(p) for p in unique]


def iter_documents(paths: Iterable[str | Path], *, encoding: str = DEFAULT_ENCODING,
                   max_bytes: int = DEFAULT_MAX_BYTES, source: str = "gold") -> Iterator[Document]:
    """Documents from ``.txt`` files (with spans from a sibling ``.ann``) and ``.jsonl`` files."""
    for path in find_inputs(paths):
        if path.suffix == ".jsonl":
            yield from read_jsonl(path, encoding, max_bytes)
        else:
            yield read_brat(path, encoding=encoding, max_bytes=max_bytes, source=source)


def load_corpus(paths: Iterable[str | Path], **kwargs) -> dict[str, Document]:
    """All documents keyed by id; two documents with one id is an error (it would hide one)."""
    corpus: dict[str, Document] = {}
    for doc in iter_documents(paths, **kwargs):
        if doc.id in corpus:
            raise InputError(f"document id {doc.id!r} appears twice (also in "
                             f"{corpus[doc.id].metadata.get('path')})", doc.metadata.get("path"))
        corpus[doc.id] = doc
    return corpus


def load_annotations(path: str | Path, texts: Mapping[str, str] | None = None, *,
                     encoding: str = DEFAULT_ENCODING, max_bytes: int = DEFAULT_MAX_BYTES,
                     source: str = "gold",
                     progress: Callable[[list[Path]], Iterable[Path]] = iter) -> dict[str, Document]:
    """Annotated documents for evaluation: a BRAT folder (every ``.ann``) or a ``.jsonl`` file.

    With ``texts=None`` (gold) every ``.ann`` needs its ``.txt``. With ``texts`` (system output)
    a ``.ann`` may come without its ``.txt``: the gold text with the same id is used, as the
    system was run on it; a ``.ann`` with neither is skipped, since it cannot be scored.
    """
    path = Path(path)
    if path.is_file() and path.suffix == ".jsonl":
        return {d.id: d for d in read_jsonl(path, encoding, max_bytes)}
    if not path.is_dir():
        raise InputError("expected a folder of BRAT files or a .jsonl file", path)
    docs: dict[str, Document] = {}
    for ann in progress(sorted(path.glob("*.ann"))):
        txt = ann.with_suffix(".txt")
        if txt.exists():
            text = None
        elif texts is None:
            raise InputError("annotation file has no .txt beside it", ann)
        elif ann.stem in texts:
            text = texts[ann.stem]
        else:
            continue
        docs[ann.stem] = read_brat(txt, ann, encoding=encoding, max_bytes=max_bytes, source=source,
                                   text=text)
    if not docs and not any(path.glob("*.ann")):
        for jsonl in sorted(path.glob("*.jsonl")):
            for doc in read_jsonl(jsonl, encoding, max_bytes):
                if doc.id in docs:
                    raise AnnotationError(f"document id {doc.id!r} appears twice", jsonl)
                docs[doc.id] = doc
    return docs
