"""crfdeid.spark: the local batch's per-note function on real Spark (local[2]), byte for byte.

Every reference output comes from ``run_batch`` — what ``crfdeid deidentify`` runs — over the same
notes as .txt files, so "identical" means identical to the local tool. Detection is the rules
(fast) or the tiny model trained on the example notes (shipped to the executors as a --model
folder is); the Spark tests share one session (tests/conftest.py) and skip without Java.
"""

from __future__ import annotations

import json
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from crfdeid.batch import BatchOptions, run_batch
from crfdeid.deidentify import DeidentifierSpec, read_key
from crfdeid.errors import CrfdeidError
from crfdeid.io.brat import parse_ann
from crfdeid.spark import ENV, Job, deidentify_dataframe, key_check, prepare

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"


def notes_folder(tmp_path: Path, copies: int = 2) -> Path:
    """The example notes, and copies under other names (other ids: other dates, other surrogates)."""
    src = tmp_path / "notes"
    src.mkdir()
    for path in sorted(EXAMPLES.glob("*.txt")):
        shutil.copy(path, src / path.name)
        for i in range(copies):
            shutil.copy(path, src / f"copy{i}-{path.name}")
    return src


def reference(src: Path, out: Path, spec: DeidentifierSpec) -> dict[str, dict]:
    """What crfdeid deidentify writes for each note: status, text, audit lines, failure."""
    run_batch([src], spec, BatchOptions(out))
    notes: dict[str, dict] = {}
    for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        name = entry["note"]
        base = f"quarantine/{name}" if entry["status"] == "held" else name
        text = out / f"{base}.txt"
        notes[name] = {"status": entry["status"], "text": text.read_bytes() if text.exists() else None,
                       "audit": []}
    for line in (out / "audit.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["record"] != "run":
            notes[record["document"]]["audit"].append(line)
    return notes


def frame(spark, src: Path, partitions: int):
    rows = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(src.glob("*.txt"))]
    return spark.createDataFrame(rows[::-1], "id string, text string").repartition(partitions)


def check_same(notes, expected: dict[str, dict]) -> None:
    got = {r["id"]: r for r in notes.collect()}
    assert set(got) == set(expected)
    for name, want in expected.items():
        row = got[name]
        assert row["status"] == want["status"], name
        assert row["text"].encode("utf-8") == want["text"], name  # every byte of every note
        assert list(row["audit"]) == want["audit"], name


# --- identical to crfdeid deidentify --------------------------------------------------------


@pytest.mark.parametrize("partitions", [1, 4])
def test_seeded_rows_equal_the_local_batch_whatever_the_partitioning(spark, tmp_path, partitions):
    src = notes_folder(tmp_path)
    spec = DeidentifierSpec(rules_only=True, seed=7)
    expected = reference(src, tmp_path / "ref", spec)
    notes, audit = deidentify_dataframe(frame(spark, src, partitions), spec=spec)
    try:
        check_same(notes, expected)
        records = audit.collect()
        assert len(records) == sum(len(n["audit"]) for n in expected.values())
        assert {r["record"] for r in records} <= {"span", "leftover"}
        assert all(r["original_hash"] for r in records)
    finally:
        notes.unpersist()


def test_keyed_rows_with_a_shipped_model_equal_the_local_batch(spark, tmp_path, tiny_model, monkeypatch):
    """The key from a file the executors read, the model a --model folder shipped with addFile."""
    src = notes_folder(tmp_path)
    key_file = tmp_path / "key"
    key_file.write_text("a-key-file-of-at-least-16-bytes\n", encoding="utf-8")
    monkeypatch.delenv("CRFDEID_KEY", raising=False)
    spec = DeidentifierSpec(model=str(tiny_model))
    expected = reference(src, tmp_path / "ref", replace(spec, key=read_key(key_file)))
    notes, _ = deidentify_dataframe(frame(spark, src, 3), spec=spec, key=key_file)
    try:
        check_same(notes, expected)
        assert any(r["spans"] for r in notes.collect())
    finally:
        notes.unpersist()
    # another key, other surrogates: the executors really used the key
    key_file.write_text("another-key-of-at-least-16-bytes\n", encoding="utf-8")
    other, _ = deidentify_dataframe(frame(spark, src, 2), spec=spec, key=key_file, persist=False)
    texts = {r["id"]: r["text"].encode("utf-8") for r in other.collect()}
    assert texts["nota-001"] != expected["nota-001"]["text"]


def test_spans_are_the_new_texts_spans(spark, tmp_path):
    src = notes_folder(tmp_path, copies=0)
    spec = DeidentifierSpec(rules_only=True, seed=3)
    deid = spec.build()
    notes, _ = deidentify_dataframe(frame(spark, src, 2), spec=spec, persist=False)
    from crfdeid.types import Document

    for row in notes.collect():
        text = (src / f"{row['id']}.txt").read_text(encoding="utf-8")
        want = deid.deidentify_note(Document(row["id"], text), row["id"]).result.document.spans
        assert [(s["start"], s["end"], s["label"]) for s in row["spans"]] == \
            [(s.start, s.end, s.label) for s in want]


def test_meddocan_dev_notes_equal_the_local_batch(spark, tmp_path, meddocan_dir, monkeypatch, executor_key):
    """The key from $CRFDEID_KEY, as the executors of a cluster get it."""
    src = tmp_path / "dev"
    src.mkdir()
    for path in sorted((meddocan_dir / "dev").glob("*.txt"))[:30]:
        shutil.copy(path, src / path.name)
    monkeypatch.setenv("CRFDEID_KEY", executor_key)
    spec = DeidentifierSpec(rules_only=True)
    expected = reference(src, tmp_path / "ref", replace(spec, key=executor_key.encode()))
    notes, _ = deidentify_dataframe(frame(spark, src, 5), spec=spec, key=ENV)
    try:
        check_same(notes, expected)
    finally:
        notes.unpersist()


# --- retries, bad notes ----------------------------------------------------------------------


def test_a_task_spark_retries_gives_the_same_output(spark, tmp_path):
    """The first attempt of one task dies after de-identifying its notes; Spark runs it again."""
    src = notes_folder(tmp_path)
    spec = DeidentifierSpec(rules_only=True, seed=5)
    expected = reference(src, tmp_path / "ref", spec)
    notes, _ = deidentify_dataframe(frame(spark, src, 3), spec=spec, persist=False)
    died = tmp_path / "died"

    def flaky(frames):
        from pyspark import TaskContext

        context = TaskContext.get()
        for part in frames:
            if context.partitionId() == 0 and context.attemptNumber() == 0:
                died.write_text(str(context.taskAttemptId()))
                raise RuntimeError("simulated executor failure")
            yield part

    check_same(notes.mapInPandas(flaky, notes.schema), expected)
    assert died.exists()  # the failure did happen, and the retry's output is the expected one


def test_bad_notes_fail_alone(spark, tmp_path):
    src = notes_folder(tmp_path, copies=0)
    spec = DeidentifierSpec(rules_only=True, seed=9)
    expected = reference(src, tmp_path / "ref", spec)
    rows = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(src.glob("*.txt"))]
    rows += [("empty", None), (None, "Paciente sin identificador."), ("twice", "Nota uno."),
             ("twice", "Nota dos."), ("big", "x" * 5000)]
    df = spark.createDataFrame(rows, "id string, text string").repartition(2)
    notes, _ = deidentify_dataframe(df, spec=spec, max_bytes=4000, persist=False)
    got = notes.collect()
    good = [r for r in got if r["id"] in expected]
    assert {r["id"] for r in good} == set(expected)
    for row in good:
        assert row["status"] == "released" and row["text"].encode() == expected[row["id"]]["text"]
    failed = [r for r in got if r["id"] not in expected]
    assert len(failed) == 5 and all(r["status"] == "failed" and r["text"] is None for r in failed)
    errors = {(r["id"], json.loads(r["failure"])["stage"], json.loads(r["failure"])["error"]) for r in failed}
    assert ("empty", "read", "the note has no text (null)") in errors
    assert (None, "read", "the note has no id") in errors
    assert ("big", "read", "the text is 5,000 bytes, over the 4,000-byte limit for one note") in errors
    assert sum(1 for e in errors if e[0] == "twice" and "same name" in e[2]) == 1  # both rows, one message
    assert all(json.loads(r["failure"])["internal"] is False for r in failed)


# --- secrets ---------------------------------------------------------------------------------


def originals() -> set[str]:
    """Every PHI string of the example notes' gold annotations (4 characters or more)."""
    found = set()
    for ann in EXAMPLES.glob("*.ann"):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        for span in parse_ann(ann.read_text(encoding="utf-8"), text)[0]:
            if span.end - span.start >= 4:
                found.add(text[span.start:span.end])
    return found


def test_no_key_and_no_original_in_the_audit_the_closure_or_the_conf(spark, tmp_path, monkeypatch,
                                                                     executor_key):
    KEY = executor_key
    src = notes_folder(tmp_path, copies=0)
    monkeypatch.setenv("CRFDEID_KEY", KEY)
    spec = DeidentifierSpec(from_annotations=False, rules_only=True)
    notes, audit = deidentify_dataframe(frame(spark, src, 2), spec=spec, key=ENV)
    try:
        dumped = "\n".join(json.dumps(r.asDict(), ensure_ascii=False) for r in audit.collect())
        dumped += "\n".join(a for r in notes.collect() for a in r["audit"])
    finally:
        notes.unpersist()
    assert KEY not in dumped
    leaked = [o for o in originals() if f'"{o}"' in dumped]
    assert not leaked
    assert KEY not in json.dumps(spark.sparkContext.getConf().getAll())
    job = prepare(None, spec, ENV, BatchOptions(tmp_path))
    import cloudpickle  # what PySpark ships a closure with

    from crfdeid.spark import _rows_function

    for blob in (pickle.dumps(job), cloudpickle.dumps(_rows_function(job, frozenset()))):
        assert KEY.encode() not in blob
    assert job.key_check == key_check(KEY.encode()) and KEY not in job.key_check


KEY = "0123456789abcdef-a-key-for-unit-tests"


def test_key_bytes_are_refused(tmp_path):
    with pytest.raises(TypeError, match="closure"):
        prepare(None, DeidentifierSpec(rules_only=True), KEY.encode(), BatchOptions(tmp_path))
    with pytest.raises(ValueError, match="key"):
        prepare(None, DeidentifierSpec(rules_only=True, key=KEY.encode()), None, BatchOptions(tmp_path))


def test_an_executor_without_the_drivers_key_fails_loudly(tmp_path, monkeypatch):
    monkeypatch.setenv("CRFDEID_KEY", KEY)
    job = prepare(None, DeidentifierSpec(rules_only=True), ENV, BatchOptions(tmp_path))
    assert job.executor_spec().key == KEY.encode()
    monkeypatch.delenv("CRFDEID_KEY")
    with pytest.raises(CrfdeidError, match="no key on this executor"):
        job.executor_spec()
    monkeypatch.setenv("CRFDEID_KEY", "some-other-key-of-16-bytes-or-more")
    with pytest.raises(CrfdeidError, match="not the key the driver read"):
        job.executor_spec()
    with pytest.raises(CrfdeidError, match="key='env'"):
        monkeypatch.delenv("CRFDEID_KEY")
        prepare(None, DeidentifierSpec(rules_only=True), ENV, BatchOptions(tmp_path))


def test_an_executor_with_other_settings_refuses_to_run(tmp_path):
    import gc

    from crfdeid import heap
    from crfdeid import spark as engine

    job = prepare(None, DeidentifierSpec(rules_only=True, seed=1), None, BatchOptions(tmp_path))
    wrong = Job(job.spec, job.options, fingerprint={**job.fingerprint, "rules": "0" * 16}, token="wrong")
    try:
        with pytest.raises(CrfdeidError, match="rules differ"):
            engine._deidentifier(wrong)
        deidentifier, spec = engine._deidentifier(job)
        assert engine._deidentifier(job)[0] is deidentifier  # built once per worker
        assert spec.seed == 1
    finally:  # this is the test process, not a Spark worker: undo the worker's heap freeze
        engine._WORKER.clear()
        gc.unfreeze()
        heap._FREEZING[0] = False
