"""The batch runner: per-note isolation, held-back notes, crash safety, resume, names, inputs.

Most tests pseudonymise the example notes' own annotations (``from_annotations``): no model to
load, so they exercise the runner itself. Crash safety is tested the way it fails in production:
a forked child process dies with ``os._exit`` (no cleanup, like ``kill -9``) at a chosen point of
a commit, and the parent resumes and compares every byte with an uninterrupted run.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from pathlib import Path

import pytest

from crfdeid import batch, release
from crfdeid.batch import BatchOptions, run_batch
from crfdeid.deidentify import DeidentifierSpec
from crfdeid.errors import CrfdeidError, InputError, OutputError
from crfdeid.pipeline import Detection
from crfdeid.rules import RuleTimeout
from crfdeid.types import Document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"
SPEC = DeidentifierSpec(from_annotations=True, seed=11)


def corpus(tmp_path: Path, copies: int = 2) -> Path:
    """The three example notes with their .ann, plus copies in subfolders: 3 × (1 + copies)."""
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    for i in range(copies):
        sub = src / f"sub{i}"
        sub.mkdir()
        for path in EXAMPLES.iterdir():
            shutil.copy(path, sub / path.name)
    return src


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def run(src: Path, out: Path, spec: DeidentifierSpec = SPEC, **kwargs) -> batch.BatchSummary:
    lines: list[str] = []
    kwargs.setdefault("from_annotations", spec.from_annotations)
    summary = run_batch([src], spec, BatchOptions(out, **kwargs), report=lines.append)
    summary.report = lines  # type: ignore[attr-defined]
    return summary


def manifest(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / release.MANIFEST).read_text(encoding="utf-8").splitlines()]


# --- a batch of good notes ---------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "brat", "jsonl"])
def test_every_note_is_written_with_its_manifest_entry_and_audit(tmp_path, fmt):
    src, out = corpus(tmp_path, copies=1), tmp_path / "out"
    summary = run(src, out, fmt=fmt)
    assert summary.exit_status == 0 and summary.released == 6 and summary.spans == 102
    entries = manifest(out)
    assert [e["note"] for e in entries] == [
        "nota-001", "nota-002", "nota-003", "sub0/nota-001", "sub0/nota-002", "sub0/nota-003"]
    assert all(e["status"] == "released" for e in entries)
    files = tree(out)
    for entry in entries:  # every output the manifest lists is there, with that content
        for rel, digest in entry["outputs"].items():
            import hashlib

            assert hashlib.sha256(files[rel]).hexdigest() == digest
    if fmt == "jsonl":
        lines = (out / release.JSONL).read_text(encoding="utf-8").splitlines()
        assert [json.loads(x)["id"] for x in lines] == [e["note"] for e in entries]
    else:
        assert "sub0/nota-002.txt" in files and (fmt == "brat") == ("sub0/nota-002.ann" in files)
    audit = [json.loads(x) for x in (out / release.AUDIT).read_text(encoding="utf-8").splitlines()]
    assert audit[0]["record"] == "run" and sum(r["record"] == "span" for r in audit) == 102
    assert (out / release.FAILURES).read_text() == ""
    marker = json.loads((out / release.MARKER).read_text())
    assert marker["state"] == "complete" and marker["summary"]["released"] == 6
    assert not (tmp_path / ".out.crfdeid-work").exists()  # the work folder is gone


def test_brat_output_reads_back_at_the_new_offsets(tmp_path):
    from crfdeid.io.brat import read_brat

    out = tmp_path / "out"
    run(corpus(tmp_path, copies=0), out, fmt="brat")
    doc = read_brat(out / "nota-001.txt")
    assert len(doc.spans) == 25


# --- one bad note never costs the others --------------------------------------------------


def test_unreadable_notes_fail_alone_and_are_listed(tmp_path):
    src = corpus(tmp_path, copies=0)
    (src / "binary.txt").write_bytes(b"\x00\x01\x02 not text")
    (src / "binary.ann").write_text("")
    (src / "latin.txt").write_bytes("Nombre: José.\n".encode("latin-1"))
    (src / "latin.ann").write_text("")
    (src / "nota-003.ann").write_text("T1\tFECHAS 0 5\tNOPE!\n")  # disagrees with its text
    out = tmp_path / "out"
    summary = run(src, out)
    assert summary.exit_status == 3 and (summary.released, summary.failed) == (2, 3)
    failures = [json.loads(x) for x in (out / release.FAILURES).read_text().splitlines()]
    stages = {f["note"]: f["stage"] for f in failures}
    assert stages == {"binary": "read", "latin": "read", "nota-003": "read"}
    assert "--encoding" in next(f["hint"] for f in failures if f["note"] == "latin")
    assert all(str(src) not in json.dumps(f) for f in failures)  # no input paths inside OUT_DIR
    assert (out / "nota-001.txt").exists() and not (out / "latin.txt").exists()
    assert any("latin.txt:1: cannot decode" in line for line in summary.report)


def test_a_missing_ann_fails_that_note_only(tmp_path):
    src = corpus(tmp_path, copies=0)
    (src / "nota-002.ann").unlink()
    summary = run(src, tmp_path / "out")
    assert (summary.released, summary.failed) == (2, 1)
    assert "no .ann" in (tmp_path / "out" / release.FAILURES).read_text()


class Exploding:
    """A detector with a bug on one note."""

    name = "exploding"

    def detect(self, document: Document) -> list:
        if "Ferrer" in document.text:
            raise ValueError("Ferrer is in this note")  # a message that holds PHI
        return []


def test_an_internal_error_fails_one_note_exits_1_and_never_writes_its_message(tmp_path):
    from crfdeid.deidentify import Deidentifier

    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    lines: list[str] = []
    summary = run_batch([src], DeidentifierSpec(seed=1, rules_only=True), BatchOptions(out),
                        deidentifier=Deidentifier(Exploding(), seed=1), report=lines.append)
    assert summary.exit_status == 1 and (summary.released, summary.failed) == (2, 1)
    record = json.loads((out / release.FAILURES).read_text())
    assert record["internal"] is True and "ValueError" in record["error"]
    assert "Ferrer" not in (out / release.FAILURES).read_text()  # the message stays on stderr
    assert any("internal error" in line and "Ferrer" in line for line in lines)


def test_fail_fast_stops_at_the_first_failure_and_can_be_resumed(tmp_path):
    src = corpus(tmp_path, copies=0)
    (src / "nota-001.ann").write_text("T1\tFECHAS 0 5\tNOPE!\n")
    out = tmp_path / "out"
    summary = run(src, out, fail_fast=True)
    assert summary.exit_status == 3 and summary.notes == 1
    assert json.loads((out / release.MARKER).read_text())["state"] == "running"
    again = run(src, out, resume=True)
    assert (again.failed, again.released) == (1, 2)


# --- never release PHI the tool knows about -----------------------------------------------


class TimingOut:
    """A detector that, like the rule engine on a pathological note, reports a rule timeout."""

    name = "timing-out"

    def run(self, document: Document) -> Detection:
        timeout = RuleTimeout("nhc-labelled", document.id, 0.5, 0, len(document.text))
        return Detection(document.id, (), (timeout,) if "Ferrer" in document.text else ())

    def detect(self, document: Document) -> list:
        return []


def test_a_rule_timeout_holds_the_note_back_in_quarantine(tmp_path):
    from crfdeid.deidentify import Deidentifier

    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    summary = run_batch([src], DeidentifierSpec(seed=1, rules_only=True), BatchOptions(out),
                        deidentifier=Deidentifier(TimingOut(), seed=1))
    assert summary.exit_status == 3 and (summary.released, summary.held) == (2, 1)
    held = next(e for e in manifest(out) if e["status"] == "held")
    assert held["reasons"][0]["kind"] == "rule-timeout" and held["reasons"][0]["rules"] == ["nhc-labelled"]
    assert not (out / f"{held['note']}.txt").exists()
    quarantine = out / release.QUARANTINE
    assert (quarantine / f"{held['note']}.txt").exists()
    assert os.stat(quarantine).st_mode & 0o777 == 0o700
    assert os.stat(quarantine / f"{held['note']}.txt").st_mode & 0o777 == 0o600
    reason = json.loads((quarantine / f"{held['note']}.reason.json").read_text())
    assert reason["held"][0]["kind"] == "rule-timeout"


def test_a_known_leftover_holds_the_note_back_unless_released_loudly(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    # the second mention is in lower case: not propagated (one lower-case word may be an
    # ordinary one), but the leftover scan, which ignores case, finds it
    text = "Nombre: Lucía Ferrer. Vive en Alcañiz.\nNatural de alcañiz.\n"
    (src / "n.txt").write_text(text)
    (src / "n.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 8 20\tLucía Ferrer\n"
                               "T2\tTERRITORIO 30 37\tAlcañiz\n")
    out = tmp_path / "out"
    summary = run(src, out)
    assert summary.exit_status == 3 and summary.held == 1
    reasons = manifest(out)[0]["reasons"]
    assert reasons[0]["kind"] == "leftover" and "Alcañiz" not in json.dumps(reasons)
    loud = run(src, tmp_path / "loud", release_incomplete=True)
    assert loud.exit_status == 0 and loud.released == 1
    assert (tmp_path / "loud" / "n.txt").exists()
    assert manifest(tmp_path / "loud")[0]["reasons"][0]["kind"] == "leftover"  # still recorded
    assert any("released anyway" in line for line in loud.report)


def test_a_file_name_that_spells_phi_is_held_unless_names_are_hashed(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "Ferrer_NHC368503.txt").write_text("Apellidos: Ferrer.\nNHC: 368503.\n")
    (src / "Ferrer_NHC368503.ann").write_text(
        "T1\tNOMBRE_SUJETO_ASISTENCIA 11 17\tFerrer\nT2\tID_SUJETO_ASISTENCIA 24 30\t368503\n")
    (src / "nota-045.txt").write_text("Edad: 45 años.\n")  # an age is not a file-name leak
    (src / "nota-045.ann").write_text("T1\tEDAD_SUJETO_ASISTENCIA 6 13\t45 años\n")
    kept = run(src, tmp_path / "kept")
    assert (kept.held, kept.released) == (1, 1)
    reason = manifest(tmp_path / "kept")[0]["reasons"][0]
    assert reason["kind"] == "file-name"
    assert reason["labels"] == ["ID_SUJETO_ASISTENCIA", "NOMBRE_SUJETO_ASISTENCIA"]
    hashed = run(src, tmp_path / "hashed", names="hashed", spec=DeidentifierSpec(from_annotations=True,
                                                                               key=b"k" * 32))
    assert hashed.exit_status == 0
    names = sorted(p.name for p in (tmp_path / "hashed").glob("*.txt"))
    assert len(names) == 2 and not any("Ferrer" in n or "368503" in n or "045" in n for n in names)
    audit = (tmp_path / "hashed" / release.AUDIT).read_text()
    assert "Ferrer" not in audit and "368503" not in audit and "nota-045" not in audit
    again = run(src, tmp_path / "hashed2", names="hashed", spec=DeidentifierSpec(from_annotations=True,
                                                                               key=b"k" * 32))
    assert again.exit_status == 0 and tree(tmp_path / "hashed") == tree(tmp_path / "hashed2")
    numbered = run(src, tmp_path / "numbered", names="numbered")
    assert sorted(p.name for p in (tmp_path / "numbered").glob("*.txt")) == [
        "note-000001.txt", "note-000002.txt"]
    assert numbered.exit_status == 0


# --- inputs ------------------------------------------------------------------------------


def test_inputs_are_found_recursively_mirrored_and_skips_are_reported(tmp_path):
    src = tmp_path / "in"
    (src / "a" / "b").mkdir(parents=True)
    (src / "top.TXT").write_text("Nota uno.\n")
    (src / "a" / "mid.text").write_text("Nota dos.\n")
    (src / "a" / "b" / "deep.txt").write_text("Nota tres.\n")
    (src / "a" / "report.doc").write_bytes(b"\xd0\xcf\x11\xe0")
    (src / "a" / "scan.tiff").write_bytes(b"II*")
    (src / ".hidden.txt").write_text("x")
    (src / "README").write_text("x")
    out = tmp_path / "out"
    spec = DeidentifierSpec(rules_only=True, seed=1)
    summary = run(src, out, spec=spec)
    assert summary.exit_status == 0 and summary.released == 3
    assert {p.relative_to(out).as_posix() for p in out.rglob("*.txt")} == {
        "top.txt", "a/mid.txt", "a/b/deep.txt"}
    reported = "\n".join(summary.report)
    for name, why in (("report.doc", "old Word .doc: save it as .docx"),
                      ("scan.tiff", "unsupported type .tiff"), (".hidden.txt", "hidden"),
                      ("README", "no file suffix")):
        assert name in reported and why in reported
    flat = run(src, tmp_path / "flat", spec=spec, recursive=False)
    assert flat.released == 1 and any("--no-recursive" in line for line in flat.report)


def test_an_output_folder_inside_the_input_is_never_read_back(tmp_path):
    src = corpus(tmp_path, copies=0)
    out = src / "released"
    first = run(src, out)
    assert first.released == 3
    second = run(src, out, resume=True)
    assert second.notes == 3 and second.already_done == 3


def test_jsonl_input_a_bad_line_fails_alone(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    lines = [
        json.dumps({"id": "n1", "text": "NHC: 2347865.", "spans": [
            {"start": 5, "end": 12, "label": "ID_SUJETO_ASISTENCIA"}]}),
        "{not json",
        "",
        json.dumps({"id": "n2", "text": "Tfno: 948 255 400.", "spans": []}),
    ]
    (src / "notes.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    summary = run(src, out, fmt="jsonl")
    assert (summary.released, summary.failed) == (2, 1)
    released = [json.loads(x) for x in (out / release.JSONL).read_text().splitlines()]
    assert [r["id"] for r in released] == ["n1", "n2"] and "2347865" not in released[0]["text"]
    failure = json.loads((out / release.FAILURES).read_text())
    assert failure["note"] == "notes-2" and failure["input_line"] == 2


# --- crash safety and resume ---------------------------------------------------------------


def _die_at(point: str, after: int):
    """Patch the runner so that the process dies (no cleanup at all) at ``point`` of the
    ``after``-th note's commit."""
    counter = {"n": 0}
    original_write = release.atomic_write_text
    original_append = release.Release._append
    original_line = release.Release._append_line

    def write(path, content, *args, **kwargs):
        if point == "text" and str(path).endswith(".txt") and release.QUARANTINE not in str(path):
            counter["n"] += 1
            if counter["n"] == after:  # a temporary file half-written, never renamed
                tmp = Path(kwargs["tmp_dir"]) / f".{Path(path).name}.crashed.tmp"
                tmp.write_text(content[: len(content) // 2])
                os._exit(137)
        return original_write(path, content, *args, **kwargs)

    def append(self, name, text):
        if point == "audit" and name == release.AUDIT and '"record": "span"' in text:
            counter["n"] += 1
            if counter["n"] == after:
                handle = self._handle(name)
                handle.write(text.encode()[: len(text) // 2])
                handle.flush()
                os._exit(137)
        return original_append(self, name, text)

    def append_line(self, name, text):
        counter["n"] += 1 if point in ("manifest", "between") else 0
        if point == "manifest" and counter["n"] == after:
            handle = self._handle(name)
            handle.write(text.encode()[:10])
            handle.flush()
            os._exit(137)
        original_line(self, name, text)
        if point == "between" and counter["n"] == after:
            os._exit(137)

    release.atomic_write_text = write
    release.Release._append = append
    release.Release._append_line = append_line


def _child(src: str, out: str, point: str, after: int) -> None:
    _die_at(point, after)
    run_batch([src], SPEC, BatchOptions(Path(out), from_annotations=True, fmt="brat"))


@pytest.mark.parametrize("point", ["text", "audit", "manifest", "between"])
@pytest.mark.parametrize("after", [1, 4])
def test_killed_at_any_point_resume_gives_exactly_the_uninterrupted_output(tmp_path, point, after):
    src = corpus(tmp_path, copies=1)
    reference = tmp_path / "reference"
    run(src, reference, fmt="brat")
    out = tmp_path / "out"
    fork = multiprocessing.get_context("fork")
    child = fork.Process(target=_child, args=(str(src), str(out), point, after))
    child.start()
    child.join(60)
    assert child.exitcode == 137
    leftovers = [p.name for p in out.rglob("*") if "tmp" in p.name or "crfdeid-work" in p.name]
    assert leftovers == []  # nothing temporary inside the folder to be released
    assert json.loads((out / release.MARKER).read_text())["state"] == "running"
    with pytest.raises(OutputError, match="interrupted run"):
        run(src, out, fmt="brat")  # never mixes: resume or overwrite
    resumed = run(src, out, fmt="brat", resume=True)
    assert resumed.exit_status == 0 and resumed.released == 6
    assert resumed.already_done == after - (1 if point != "between" else 0)
    assert tree(out) == tree(reference)
    assert not (tmp_path / ".out.crfdeid-work").exists()


def test_resume_needs_the_same_secret_and_options(tmp_path):
    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    run(src, out, spec=DeidentifierSpec(from_annotations=True, key=b"a" * 32))
    with pytest.raises(OutputError, match="key or --seed differs"):
        run(src, out, resume=True, spec=DeidentifierSpec(from_annotations=True, key=b"b" * 32))
    with pytest.raises(OutputError, match=r"options differ.*format"):
        run(src, out, resume=True, fmt="brat", spec=DeidentifierSpec(from_annotations=True, key=b"a" * 32))
    random_seed = tmp_path / "random"
    run(src, random_seed, spec=DeidentifierSpec(from_annotations=True))
    with pytest.raises(OutputError, match="random seed"):
        run(src, random_seed, resume=True, spec=DeidentifierSpec(from_annotations=True))
    done = run(src, out, resume=True, spec=DeidentifierSpec(from_annotations=True, key=b"a" * 32))
    assert done.already_done == 3 and done.exit_status == 0


def test_resume_redoes_changed_and_failed_notes_and_ends_in_input_order(tmp_path):
    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    good_ann = (src / "nota-001.ann").read_text()
    (src / "nota-001.ann").write_text("T1\tFECHAS 0 5\tNOPE!\n")
    first = run(src, out)
    assert first.failed == 1
    (src / "nota-001.ann").write_text(good_ann)  # fixed
    (src / "nota-003.txt").write_text((src / "nota-003.txt").read_text().replace("a", "e", 1))
    second = run(src, out, resume=True)
    assert second.exit_status == 0 and second.already_done == 1  # nota-002 only
    assert [e["note"] for e in manifest(out)] == ["nota-001", "nota-002", "nota-003"]
    assert (out / release.FAILURES).read_text() == ""
    fresh = tmp_path / "fresh"
    run(src, fresh)
    assert tree(out) == tree(fresh)  # as if the fixed inputs had been run in one go


def test_overwrite_replaces_an_earlier_run_and_keeps_foreign_files(tmp_path):
    src, out = corpus(tmp_path, copies=1), tmp_path / "out"
    run(src, out)
    (out / "notes-from-the-officer.md").write_text("mine")
    shutil.rmtree(src / "sub0")
    with pytest.raises(OutputError, match="earlier run"):
        run(src, out)
    summary = run(src, out, overwrite=True)
    assert summary.released == 3
    assert not (out / "sub0").exists()  # outputs of the earlier run are gone, not mixed in
    assert (out / "notes-from-the-officer.md").read_text() == "mine"
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "x.txt").write_text("x")
    with pytest.raises(OutputError, match="did not write"):
        run(src, theirs)


def test_mapping_is_0600_outside_out_dir_and_follows_resume(tmp_path):
    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    mapping = tmp_path / "private" / "map.jsonl"
    with pytest.raises(OutputError, match="mapping"):
        run(src, out, mapping_out=out / "map.jsonl")
    run(src, out, mapping_out=mapping)
    assert os.stat(mapping).st_mode & 0o777 == 0o600
    rows = [json.loads(x) for x in mapping.read_text().splitlines()]
    audit = [json.loads(x) for x in (out / release.AUDIT).read_text().splitlines()[1:]]
    replaced = [r for r in audit if r["surrogate"] is not None]
    assert {"document", "label", "original", "surrogate"} == set(rows[0]) and len(rows) == len(replaced)
    assert [r["surrogate"] for r in rows] == [r["surrogate"] for r in replaced]
    with pytest.raises(OutputError, match="already exists"):
        run(src, tmp_path / "o2", mapping_out=mapping)
    run(src, out, mapping_out=mapping, resume=True)
    assert len(mapping.read_text().splitlines()) == len(replaced)


def test_two_workers_give_the_same_output_as_one(tmp_path):
    src = corpus(tmp_path, copies=2)
    spec = DeidentifierSpec(rules_only=True, seed=3)
    one = run(src, tmp_path / "one", spec=spec, from_annotations=False)
    two = run(src, tmp_path / "two", spec=spec, from_annotations=False, jobs=2)
    assert one.released == two.released == 9
    assert tree(tmp_path / "one") == tree(tmp_path / "two")


def test_options_are_checked_before_any_work(tmp_path):
    with pytest.raises(CrfdeidError, match="contradict"):
        BatchOptions(tmp_path, resume=True, overwrite=True)
    with pytest.raises(InputError, match="no such file"):
        run(tmp_path / "missing", tmp_path / "out")
    src = corpus(tmp_path, copies=0)
    with pytest.raises(OutputError, match="input folder"):
        run(src, src)


def test_an_output_that_cannot_be_written_stops_the_batch_resumably(tmp_path, monkeypatch):
    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    original = release.atomic_write_text
    calls = {"n": 0}

    def full_disk(path, content, *args, **kwargs):
        if str(path).endswith("nota-002.txt"):
            raise OutputError("cannot write: No space left on device", path)
        calls["n"] += 1
        return original(path, content, *args, **kwargs)

    monkeypatch.setattr(release, "atomic_write_text", full_disk)
    summary = run(src, out)
    assert summary.exit_status == 3 and summary.stopped and summary.released == 1
    assert any("No space left" in line and "--resume" in line for line in summary.report)
    monkeypatch.setattr(release, "atomic_write_text", original)
    assert run(src, out, resume=True).released == 3


def test_a_note_whose_output_vanished_is_done_again_on_resume(tmp_path):
    src, out = corpus(tmp_path, copies=0), tmp_path / "out"
    run(src, out)
    reference = tree(out)
    (out / "nota-002.txt").unlink()
    again = run(src, out, resume=True)
    assert again.already_done == 2 and tree(out) == reference
