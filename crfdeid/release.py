"""The output folder of a batch: what a released run looks like on disk, and how it stays whole.

``OUT_DIR`` holds the de-identified notes (folders mirrored), ``audit.jsonl`` (a run record, then
each note's span records), ``failures.jsonl``, ``deidentified.jsonl`` (``--format jsonl``),
``quarantine/`` (held-back notes, 0700), the tables whose rows are notes (``NAME.csv``, appended
row by row like ``audit.jsonl``; a Parquet table from its hidden rows file, once every row is
done) and ``manifest.jsonl``: one line per note — its name, a
keyed digest of its input, its status, the SHA-256 of each output file and the byte range of its
records in every appended file. Appending the manifest line is the commit: after ``kill -9`` at any
moment, everything appended after the last complete line is cut away on ``--resume``. Temporary
files live in a work folder *beside* OUT_DIR (same file system, so renames are atomic), never in
the folder that is released. ``.crfdeid-output`` (JSON) records the settings a resume must match
and whether the run is complete.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import OutputError
from .io.text import atomic_write_bytes, atomic_write_text

if TYPE_CHECKING:
    from .batch import BatchOptions, Loaded, Note, Processed

MARKER = ".crfdeid-output"  # the marker `crfdeid annotate` writes too
MARKER_KIND = "crfdeid deidentify"
MANIFEST = "manifest.jsonl"
AUDIT = "audit.jsonl"
FAILURES = "failures.jsonl"
JSONL = "deidentified.jsonl"
QUARANTINE = "quarantine"
#: Files appended note by note; the manifest records each note's byte range in each.
APPENDED = (AUDIT, FAILURES, JSONL)
RELEASED, HELD, FAILED = "released", "held", "failed"


@dataclass
class Entry:
    """One line of manifest.jsonl: a committed note."""

    note: str
    input: str
    status: str
    outputs: dict[str, str]
    ranges: dict[str, list[int]]
    spans: int = 0
    reasons: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"note": self.note, "input": self.input, "status": self.status, "outputs": self.outputs,
                "ranges": self.ranges, "spans": self.spans, "reasons": self.reasons}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Entry:
        return cls(obj["note"], obj["input"], obj["status"], dict(obj["outputs"]),
                   {k: list(v) for k, v in obj["ranges"].items()}, obj.get("spans", 0),
                   list(obj.get("reasons", [])))


class Release:
    """The output folder of a batch: its marker, manifest, appended files and note outputs."""

    def __init__(self, options: BatchOptions, settings: dict[str, Any], run: dict[str, Any]) -> None:
        self.options = options
        self.out = options.out_dir
        self.settings = settings
        self.run = run  # the audit's first record
        #: A resumed run keeps the committed notes (last entry wins) and the manifest order; a
        #: fresh run commits in input order and keeps only counts: memory does not grow with notes.
        self.resuming = False
        self.entries: dict[str, Entry] = {}
        self.order: list[str] = []
        self.counts: Counter = Counter()
        self.sizes: dict[str, int] = dict.fromkeys(APPENDED, 0)
        self.mapping_size = 0
        self.work: Path | None = None
        self._lock: int | None = None
        self._handles: dict[str, Any] = {}

    # -- opening ----------------------------------------------------------------------------
    def open(self) -> None:
        """Check the folder, lock it, set up the work folder; load the previous run to resume."""
        out = self.out
        if out.exists() and not out.is_dir():
            raise OutputError("the output exists and is not a folder", out)
        previous = self._previous_run()
        if previous is None and out.is_dir() and not self.options.overwrite:
            foreign = next((p for p in sorted(out.iterdir()) if not p.name.startswith(".")), None)
            if foreign is not None:
                raise OutputError(
                    f"the output folder already holds files crfdeid did not write ({foreign.name})",
                    out, hint="choose an empty folder, or pass --overwrite if they may be replaced")
        if previous is not None and not (self.options.resume or self.options.overwrite):
            state = "an interrupted run" if previous.get("state") != "complete" else "an earlier run"
            raise OutputError(
                f"the output folder holds {state} of crfdeid deidentify", out,
                hint="pass --resume to finish it (same inputs, key or --seed, and options) or "
                     "--overwrite to replace it; a new run never mixes with an old one")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the output folder: {exc.strerror or exc}", out) from None
        self._lock_folder()
        self.work = self._work_folder()
        if previous is not None and self.options.overwrite:
            self._clear_previous()
            previous = None
        if previous is not None and previous["settings"].get("secret") == "random seed":
            raise OutputError(
                "--resume: the interrupted run drew a random seed (no key, no --seed), which is never "
                "recorded, so its notes cannot be reproduced", out,
                hint="start again with --overwrite; with a key (--key-file, $CRFDEID_KEY) or --seed a "
                     "run can be resumed")
        if previous is not None:  # resume
            changed = {k: (previous["settings"].get(k), v) for k, v in self.settings.items()
                       if previous["settings"].get(k) != v}
            if changed:
                listed = "; ".join(f"{k}: {a!r} then, {b!r} now" for k, (a, b) in sorted(changed.items()))
                raise OutputError(f"--resume: the options differ from the interrupted run ({listed})", out,
                                  hint="resume with the same options, or start again with --overwrite")
            self.resuming = True
            self._load_manifest()
        else:
            for name in (*APPENDED, MANIFEST):
                (out / name).unlink(missing_ok=True)
            self._write_marker("running")
            self._start_files()
        if self.options.mapping_out is not None and not self.options.resume:
            atomic_write_text(self.options.mapping_out, "", "utf-8", mode=0o600)

    def _previous_run(self) -> dict[str, Any] | None:
        marker = self.out / MARKER
        if not marker.is_file():
            return None
        try:
            data = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("kind") != MARKER_KIND:
            if self.options.overwrite:
                return None
            raise OutputError("the output folder was written by another crfdeid command or version",
                              self.out, hint="choose another folder, or pass --overwrite to replace it")
        return data

    def _lock_folder(self) -> None:
        fd = os.open(self.out, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OutputError("another crfdeid run is writing into this folder", self.out) from None
        self._lock = fd

    def _work_folder(self) -> Path:
        """Temporary files go beside OUT_DIR (never inside it), on the same file system so that
        renames are atomic; a leftover of a killed run is removed first."""
        beside = self.out.resolve().parent / f".{self.out.resolve().name}.crfdeid-work"
        try:
            shutil.rmtree(beside, ignore_errors=True)
            beside.mkdir(mode=0o700)
            if os.stat(beside).st_dev == os.stat(self.out).st_dev:
                return beside
            beside.rmdir()
        except OSError:
            pass
        raise OutputError("cannot create the work folder beside the output folder (it must be on the "
                          "same file system, so that every file appears whole)", beside,
                          hint="choose an output folder whose parent folder you can write to")

    def _clear_previous(self) -> None:
        """--overwrite: remove what the earlier run wrote (and only that)."""
        manifest = self.out / MANIFEST
        if manifest.is_file():
            for raw in manifest.read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    for rel in json.loads(raw)["outputs"]:
                        self._remove(rel)
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    for rel in json.loads(raw)["ranges"]:  # tables, appended row by row
                        if rel not in APPENDED and rel != "mapping":
                            self._remove(rel)
                            if rel.endswith(".rows.jsonl"):  # and the Parquet file made from them
                                name = Path(rel).name[1:-len(".rows.jsonl")]
                                self._remove((Path(rel).parent / name).as_posix())
        for name in (*APPENDED, MANIFEST, MARKER):
            (self.out / name).unlink(missing_ok=True)
        shutil.rmtree(self.out / QUARANTINE, ignore_errors=True)

    def _load_manifest(self) -> None:
        """Read the committed entries; cut every appended file back to the last commit."""
        path = self.out / MANIFEST
        data = path.read_bytes() if path.is_file() else b""
        cut = data.rfind(b"\n") + 1
        if cut < len(data):  # a line half-written when the run was killed
            with open(path, "r+b") as handle:
                handle.truncate(cut)
        for raw in data[:cut].splitlines():
            entry = Entry.from_json(json.loads(raw))
            self.entries[entry.note] = entry
            self.order.append(entry.note)
            for name, (_, end) in entry.ranges.items():
                if name == "mapping":
                    self.mapping_size = max(self.mapping_size, end)
                else:
                    self.sizes[name] = max(self.sizes.get(name, 0), end)
        if not self.order:  # killed before any note: the run record may be missing too
            for name in APPENDED:
                (self.out / name).unlink(missing_ok=True)
            self._start_files()
            return
        for name in self.sizes:  # the run's files and its tables
            self._truncate(self.out / name, self.sizes[name])
        if self.options.mapping_out is not None:
            self._truncate(self.options.mapping_out, self.mapping_size)

    def _start_files(self) -> None:
        """A new run: the audit starts with its run record; failures.jsonl (and
        deidentified.jsonl) exist from the start, so a consumer never has to guess."""
        self.sizes = dict.fromkeys(APPENDED, 0)
        self._append(AUDIT, json.dumps({"record": "run", **self.run}, ensure_ascii=False) + "\n")
        self._handle(FAILURES)
        if self.options.fmt == "jsonl":
            self._handle(JSONL)
        self._sync()

    @staticmethod
    def _truncate(path: Path, size: int) -> None:
        if path.exists() and path.stat().st_size > size:
            with open(path, "r+b") as handle:
                handle.truncate(size)
                os.fsync(handle.fileno())

    # -- committing -------------------------------------------------------------------------
    def done(self, note: Note, loaded: Loaded) -> bool:
        """Committed before, from the same input, and its files are still there."""
        entry = self.entries.get(note.name)
        return (entry is not None and entry.status in (RELEASED, HELD) and entry.input == loaded.digest
                and all((self.out / rel).is_file() for rel in entry.outputs))

    def status(self, name: str) -> str:
        return self.entries[name].status

    def spans(self, name: str) -> int:
        return self.entries[name].spans

    def commit(self, note: Note, loaded: Loaded, processed: Processed) -> None:
        """Write the note's files, append its records, then its manifest line (the commit)."""
        outputs = write_outputs(self.out, processed.texts, self.options.encoding, self.work,
                                processed.files)
        previous = self.entries.get(note.name)
        if previous is not None:  # a note done again (its input changed, or it had failed)
            for rel in previous.outputs:
                if rel not in outputs:
                    self._remove(rel)
        ranges: dict[str, list[int]] = {}
        ranges[AUDIT] = self._append(AUDIT, "".join(processed.audit))
        if processed.jsonl is not None:
            ranges[JSONL] = self._append(JSONL, processed.jsonl)
        if processed.failure is not None:
            record = json.dumps(processed.failure, ensure_ascii=False) + "\n"
            ranges[FAILURES] = self._append(FAILURES, record)
        for rel, row in processed.rows.items():  # a table's row, appended to the table
            ranges[rel] = self._append(rel, row)
        if self.options.mapping_out is not None and processed.mapping:
            ranges["mapping"] = self._append_mapping("".join(processed.mapping))
        self._sync()
        entry = Entry(note.name, loaded.digest, processed.status, outputs,
                      {k: v for k, v in ranges.items() if v[1] > v[0]}, processed.spans, processed.reasons)
        self._append_line(MANIFEST, json.dumps(entry.to_json(), ensure_ascii=False) + "\n")
        self.counts[processed.status] += 1
        if self.resuming:
            self.entries[note.name] = entry
            self.order.append(note.name)

    def _remove(self, rel: str) -> None:
        target = (self.out / rel).resolve()
        if self.out.resolve() in target.parents:
            target.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # an emptied mirrored subfolder goes too
                parent = target.parent
                while parent != self.out.resolve() and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent

    def _handle(self, name: str, path: Path | None = None) -> Any:
        handle = self._handles.get(name)
        if handle is None:
            # the mapping holds originals: created 0600, never widened
            if path is None and "/" in name:  # a table in a mirrored folder
                (self.out / name).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path or self.out / name, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                         0o600 if name == "mapping" else 0o666)
            handle = self._handles[name] = os.fdopen(fd, "ab")
        return handle

    def _append(self, name: str, text: str) -> list[int]:
        if name not in self.sizes and name not in self._handles:  # a table's first row: a new file
            (self.out / name).unlink(missing_ok=True)
        start = self.sizes.get(name, 0)
        data = text.encode("utf-8")
        if data:
            self._handle(name).write(data)
        self.sizes[name] = start + len(data)
        return [start, start + len(data)]

    def _append_mapping(self, text: str) -> list[int]:
        assert self.options.mapping_out is not None
        start = self.mapping_size
        data = text.encode("utf-8")
        self._handle("mapping", self.options.mapping_out).write(data)
        self.mapping_size = start + len(data)
        return [start, start + len(data)]

    def _append_line(self, name: str, text: str) -> None:
        handle = self._handle(name)
        handle.write(text.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())

    def _sync(self) -> None:
        for handle in self._handles.values():
            handle.flush()
            os.fsync(handle.fileno())

    def _write_marker(self, state: str, summary: dict[str, Any] | None = None) -> None:
        data = {"kind": MARKER_KIND, "state": state, "settings": self.settings}
        if summary is not None:
            data["summary"] = summary
        atomic_write_text(self.out / MARKER, json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8",
                          tmp_dir=self.work)

    # -- closing ----------------------------------------------------------------------------
    def finish(self, names_in_order: Iterable[str], then: Callable[[], None] | None = None) -> None:
        """A complete run: files in input order, one entry per note, ``then`` (the files made from
        the appended ones: Parquet tables), then the marker says so."""
        if self.resuming:
            final = [n for n in dict.fromkeys(names_in_order) if n in self.entries]
            placed = set(final)
            final += [n for n in dict.fromkeys(self.order) if n not in placed]
            if final != self.order:
                self._compact(final)
            counts = Counter(self.entries[n].status for n in final)
        else:
            counts = self.counts
        if then is not None:
            self._sync()
            then()
        summary = {"notes": sum(counts.values()), RELEASED: counts[RELEASED], HELD: counts[HELD],
                   FAILED: counts[FAILED]}
        self._write_marker("complete", summary)

    def _compact(self, final: list[str]) -> None:
        """Rewrite the appended files and the manifest with one entry per note, in input order
        (needed only after a resume that redid earlier notes)."""
        self.close_handles()
        assert self.work is not None
        for name in [*APPENDED, *(n for n in self.sizes if n not in APPENDED)]:  # and the tables
            source = self.out / name
            if not source.exists():
                continue
            tmp = self.work / name.replace("/", "%")
            with open(source, "rb") as src, open(tmp, "wb") as dst:
                if name == AUDIT:  # the run record comes first
                    dst.write(src.readline())
                for note in final:
                    entry = self.entries[note]
                    if name in entry.ranges:
                        start, end = entry.ranges[name]
                        src.seek(start)
                        new_start = dst.tell()
                        dst.write(src.read(end - start))
                        entry.ranges[name] = [new_start, dst.tell()]
                dst.flush()
                os.fsync(dst.fileno())
            os.replace(tmp, source)
        lines = "".join(json.dumps(self.entries[n].to_json(), ensure_ascii=False) + "\n" for n in final)
        atomic_write_text(self.out / MANIFEST, lines, "utf-8", tmp_dir=self.work)
        self.order = final

    def close_handles(self) -> None:
        for handle in self._handles.values():
            with contextlib.suppress(OSError):
                handle.close()
        self._handles.clear()

    def close(self) -> None:
        self.close_handles()
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def write_outputs(out: Path, texts: dict[str, str], encoding: str, work: Path | None,
                  files: dict[str, bytes] | None = None) -> dict[str, str]:
    """Write a note's files into ``out``, each atomically (temporary files in ``work``), the
    held-back ones 0600 in a 0700 ``quarantine/``; returns their SHA-256 by relative path. The
    local batch and ``crfdeid spark --format text`` both write a note's files with this.
    ``files`` are binary outputs (a .docx), written as they are."""
    outputs: dict[str, str] = {}
    folders: set[Path] = set()
    for rel, content in [*texts.items(), *(files or {}).items()]:
        target = out / rel
        mode = 0o600 if rel.startswith(QUARANTINE + "/") else None
        if mode is not None:
            (out / QUARANTINE).mkdir(mode=0o700, exist_ok=True)
        if isinstance(content, bytes):
            atomic_write_bytes(target, content, mode=mode, tmp_dir=work)
            outputs[rel] = hashlib.sha256(content).hexdigest()
        else:
            chosen = encoding if rel.endswith((".txt", ".ann")) else "utf-8"
            atomic_write_text(target, content, chosen, mode=mode, tmp_dir=work)
            outputs[rel] = hashlib.sha256(content.encode(chosen)).hexdigest()
        folders.add(target.parent)
    for folder in folders:  # the renames themselves reach the disk before the commit
        _fsync_folder(folder)
    return outputs


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
