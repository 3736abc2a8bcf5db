"""De-identification end to end: detect PHI, pseudonymise it, write text, spans and an audit.

``Deidentifier`` is the Python API (``Deidentifier().deidentify("texto…")``); the CLI's
``crfdeid deidentify`` is ``deidentify_folder`` plus argument parsing. A batch is all or
nothing: every output goes first to a staging folder inside OUT_DIR and is moved into place
only when every document has succeeded, so a failure on document 7 of 10 leaves OUT_DIR as it
was, and the error names the file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import CrfdeidError, InputError, OutputError
from .io.brat import format_ann, read_brat
from .io.corpus import find_inputs
from .io.jsonl import document_to_json, read_jsonl
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text, read_text_document
from .policy import Policy
from .pseudonymise import Pseudonymised, Pseudonymiser
from .types import Detector, Document, Span

FORMATS = ("text", "brat", "jsonl")
AUDIT_NAME = "audit.jsonl"
JSONL_NAME = "deidentified.jsonl"
MARKER = ".crfdeid-output"  # the same marker `crfdeid annotate` writes
KEY_ENV = "CRFDEID_KEY"
#: A shorter key can be guessed; HMAC-SHA256 keys should carry at least 128 bits.
MIN_KEY_BYTES = 16
_SAFE_ID = re.compile(r"[^/\\\x00]+")


class AnnotationDetector:
    """A detector that trusts the spans a document already carries (``--from-annotations``)."""

    name = "annotations"

    def detect(self, document: Document) -> list[Span]:
        return [replace(s, source="annotation") for s in document.spans]


class Deidentifier:
    """Detection + pseudonymisation with one policy, seed and key.

    ``Deidentifier()`` uses the embedded default model (``crfdeid.pipeline.load_pipeline()``);
    pass ``detector=`` for anything else (``load_pipeline(rules_only=True)``, a detector of your
    own), or use ``Deidentifier.from_annotations()`` to pseudonymise spans you already have.
    """

    def __init__(
        self,
        detector: Detector | None = None,
        policy: Policy | None = None,
        *,
        seed: int | None = None,
        key: bytes | None = None,
        language: str = "es",
        model: str | Path | None = None,
        rules_only: bool = False,
    ) -> None:
        if detector is None:
            from .pipeline import load_pipeline

            detector = load_pipeline(model, rules_only=rules_only)
        self.detector = detector
        self.pseudonymiser = Pseudonymiser(policy, language=language, seed=seed, key=key)

    @classmethod
    def from_annotations(cls, policy: Policy | None = None, **kwargs) -> Deidentifier:
        return cls(AnnotationDetector(), policy, **kwargs)

    def deidentify(self, text: str | Document, document_id: str = "text") -> Pseudonymised:
        """De-identify a text or a Document: new text, spans at new offsets, audit records."""
        document = text if isinstance(text, Document) else Document(document_id, text)
        spans = self.detector.detect(document)
        return self.pseudonymiser.pseudonymise(document.with_spans(spans))


def read_key(key_file: str | Path | None, environ: dict[str, str] | None = None) -> bytes | None:
    """The key from ``--key-file`` (first) or ``$CRFDEID_KEY``; never from the command line."""
    environ = os.environ if environ is None else environ
    if key_file is not None:
        path = Path(key_file)
        try:
            key = path.read_bytes().strip()
        except OSError as exc:
            raise InputError(f"cannot read the key file: {exc.strerror or exc}", path) from None
        where: str | Path = path
    elif environ.get(KEY_ENV):
        key, where = environ[KEY_ENV].strip().encode("utf-8"), f"${KEY_ENV}"
    else:
        return None
    if len(key) < MIN_KEY_BYTES:
        raise InputError(
            f"the key is {len(key)} bytes; use at least {MIN_KEY_BYTES}",
            where,
            hint="make one with: python -c 'import secrets; print(secrets.token_hex(32))'",
        )
    return key


@dataclass
class DeidentifySummary:
    documents: int = 0
    spans: int = 0
    leftovers: int = 0
    strategies: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def check_output(inputs: Sequence[Path], out_dir: Path, overwrite: bool, mapping_out: Path | None) -> None:
    """Refuse outputs that could destroy inputs, someone else's files, or leak the mapping."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError("the output exists and is not a folder", out_dir)
    for path in inputs:
        in_dir = path if path.is_dir() else path.parent
        if out_dir.resolve() == in_dir.resolve():
            raise OutputError(
                "refusing to write into an input folder (its notes would be overwritten)",
                out_dir,
                hint="choose another folder with -o",
            )
    if out_dir.is_dir() and not (out_dir / MARKER).exists() and not overwrite:
        existing = next(
            (p for p in sorted(out_dir.iterdir()) if p.suffix in (".txt", ".ann", ".jsonl")), None
        )
        if existing is not None:
            raise OutputError(
                f"the output folder already holds files crfdeid did not write ({existing.name})",
                out_dir,
                hint="choose an empty folder, or pass --overwrite if they may be replaced",
            )
    if mapping_out is not None:
        resolved = mapping_out.resolve()
        if resolved.parent == out_dir.resolve() or out_dir.resolve() in resolved.parents:
            raise OutputError(
                "refusing to put the mapping (it holds the originals) inside the output "
                "folder, which is meant to be released",
                mapping_out,
                hint="write it somewhere only authorised people can read",
            )
        if mapping_out.exists() and not overwrite:
            raise OutputError(
                "the mapping file already exists", mapping_out, hint="pass --overwrite to replace it"
            )


def read_documents(
    inputs: Sequence[Path],
    from_annotations: bool,
    encoding: str = DEFAULT_ENCODING,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> tuple[int | None, Iterator[Document]]:
    """(count or None for .jsonl, the documents lazily). Without ``from_annotations`` any spans
    in the input are dropped; with it, a .txt without its .ann is an error, never a note
    released untouched."""
    files = find_inputs(inputs)
    if not files:
        raise InputError("no .txt or .jsonl files to de-identify", inputs[0] if inputs else None)
    count = None if any(p.suffix == ".jsonl" for p in files) else len(files)

    def documents() -> Iterator[Document]:
        for path in files:
            if path.suffix == ".jsonl":
                for doc in read_jsonl(path, encoding, max_bytes):
                    yield doc if from_annotations else doc.with_spans(())
            elif from_annotations:
                if not path.with_suffix(".ann").exists():
                    raise InputError(
                        "--from-annotations: no .ann beside this .txt",
                        path,
                        hint="every note needs its NAME.ann (an empty one if it has no PHI)",
                    )
                yield read_brat(path, encoding=encoding, max_bytes=max_bytes, source="annotation")
            else:
                yield read_text_document(path, encoding, max_bytes)

    return count, documents()


def deidentify_folder(
    inputs: Sequence[str | Path],
    out_dir: str | Path,
    deidentifier: Deidentifier,
    fmt: str = "text",
    *,
    from_annotations: bool = False,
    overwrite: bool = False,
    encoding: str = DEFAULT_ENCODING,
    max_bytes: int = DEFAULT_MAX_BYTES,
    mapping_out: str | Path | None = None,
    progress: Callable[..., Iterable[Document]] | None = None,
) -> DeidentifySummary:
    """``crfdeid deidentify``: every document of ``inputs`` into ``out_dir``, all or nothing."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    inputs = [Path(p) for p in inputs]
    out_dir = Path(out_dir)
    mapping_path = Path(mapping_out) if mapping_out is not None else None
    check_output(inputs, out_dir, overwrite, mapping_path)
    count, documents = read_documents(inputs, from_annotations, encoding, max_bytes)
    if progress is not None:
        documents = iter(progress(documents, total=count))
    created = not out_dir.exists()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".crfdeid-staging-", dir=out_dir))
    except OSError as exc:
        raise OutputError(f"cannot create the output folder: {exc.strerror or exc}", out_dir) from None
    summary = DeidentifySummary()
    started = time.perf_counter()
    try:
        audit = [json.dumps({"record": "run", **deidentifier.pseudonymiser.describe()}, ensure_ascii=False)]
        mapping: list[str] = []
        jsonl: list[str] = []
        seen: set[str] = set()
        for doc in documents:
            _check_id(doc, seen)
            result = _one(deidentifier, doc)
            summary.documents += 1
            summary.spans += len(result.audit)
            summary.leftovers += len(result.leftovers)
            summary.strategies.update(r.strategy for r in result.audit)
            audit.extend(
                json.dumps({"record": "span", **r.to_json()}, ensure_ascii=False) for r in result.audit
            )
            audit.extend(
                json.dumps({"record": "leftover", **x.to_json()}, ensure_ascii=False)
                for x in result.leftovers
            )
            if mapping_path is not None:
                mapping.extend(
                    json.dumps(
                        {"document": doc.id, "label": label, "original": original, "surrogate": surrogate},
                        ensure_ascii=False,
                    )
                    for label, original, surrogate in result.mapping
                )
            if fmt == "jsonl":
                jsonl.append(json.dumps(document_to_json(result.document), ensure_ascii=False))
                continue
            atomic_write_text(staging / f"{doc.id}.txt", result.text, encoding)
            if fmt == "brat":
                atomic_write_text(staging / f"{doc.id}.ann", format_ann(result.document), encoding)
        if fmt == "jsonl":
            atomic_write_text(staging / JSONL_NAME, "".join(line + "\n" for line in jsonl), encoding)
        atomic_write_text(staging / AUDIT_NAME, "".join(line + "\n" for line in audit), "utf-8")
        atomic_write_text(out_dir / MARKER, "De-identified output written by crfdeid deidentify.\n")
        for path in sorted(staging.iterdir()):
            os.replace(path, out_dir / path.name)
        if mapping_path is not None:
            atomic_write_text(mapping_path, "".join(line + "\n" for line in mapping), "utf-8", mode=0o600)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):
                (out_dir / MARKER).unlink(missing_ok=True)
                out_dir.rmdir()
        raise
    shutil.rmtree(staging, ignore_errors=True)
    summary.seconds = time.perf_counter() - started
    return summary


def _one(deidentifier: Deidentifier, doc: Document) -> Pseudonymised:
    """De-identify one document; an unexpected failure names the document it happened on."""
    try:
        return deidentifier.deidentify(doc)
    except CrfdeidError:
        raise
    except Exception as exc:
        raise CrfdeidError(
            f"de-identifying document {doc.id!r} failed: {type(exc).__name__}: {exc}",
            doc.metadata.get("path"),
            doc.metadata.get("line"),
            hint="nothing was written; this is likely a bug: rerun with --debug and report it",
        ) from exc


def _check_id(doc: Document, seen: set[str]) -> None:
    """A document id becomes a file name: it must be one and must not repeat."""
    where = doc.metadata.get("path")
    if not _SAFE_ID.fullmatch(doc.id) or doc.id in (".", ".."):
        raise InputError(
            f"document id {doc.id!r} cannot be used as a file name", where, doc.metadata.get("line")
        )
    if doc.id in seen:
        raise InputError(
            f"document id {doc.id!r} appears twice; its outputs would overwrite each other",
            where,
            doc.metadata.get("line"),
        )
    seen.add(doc.id)
