"""`crfdeid spark`: the same files as `crfdeid deidentify`, tables in and out, no secret in any log.

Runs in this process on the shared Spark session (tests/conftest.py), except the log test, which
starts `crfdeid spark --master local[2]` as a user would and reads everything it prints.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"
KEY = "0123456789abcdef-crfdeid-cli-spark-key"


def notes_folder(tmp_path: Path) -> Path:
    """The example notes, a subfolder of copies, and a note that cannot be read (binary)."""
    src = tmp_path / "notes"
    (src / "sub").mkdir(parents=True)
    for path in sorted(EXAMPLES.glob("*.txt")):
        shutil.copy(path, src / path.name)
        shutil.copy(path, src / "sub" / path.name)
    (src / "sub" / "scan.txt").write_bytes(b"%PDF-1.4\x00\x01binary")
    return src


def tree(root: Path, skip: tuple[str, ...] = (".crfdeid-output", "manifest.jsonl")) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in skip}


def test_help_names_the_secret_sources_and_no_key_option(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["spark", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for word in ("CRFDEID_KEY", "spark.executorEnv", "--key-file", "--master", "--format", "examples:"):
        assert word in out
    assert "--key " not in out  # no way to pass the key itself on the command line
    assert "--mapping-out" not in out and "[--from-annotations]" not in out  # files beside local notes


@pytest.mark.parametrize("secret", ["seed", "key"])
def test_text_format_writes_the_folder_deidentify_writes(spark, tmp_path, monkeypatch, capsys, secret,
                                                         executor_key):
    src = notes_folder(tmp_path)
    if secret == "key":
        monkeypatch.setenv("CRFDEID_KEY", executor_key)
        options = []
    else:
        monkeypatch.delenv("CRFDEID_KEY", raising=False)
        options = ["--seed", "7"]
    local, distributed = tmp_path / "local", tmp_path / "spark"
    assert main(["-q", "deidentify", str(src), "-o", str(local), "--rules-only", *options]) == 3
    status = main(["-q", "spark", str(src), str(distributed), "--format", "text", "--rules-only",
                   "--master", "local[2]", *options])
    err = capsys.readouterr().err
    assert status == 3, err  # the binary note failed, as in the local batch
    assert "7 note(s): 6 released, 1 failed" in err
    assert tree(distributed) == tree(local)  # notes, audit.jsonl, failures.jsonl: every byte
    assert json.loads((distributed / "failures.jsonl").read_text())["note"] == "sub/scan"
    marker = json.loads((distributed / ".crfdeid-output").read_text())
    assert marker["kind"] == "crfdeid spark" and marker["state"] == "complete"
    from crfdeid.spark import key_check  # which key ran, to compare runs, never the key itself

    assert marker["key_check"] == (key_check(executor_key.encode()) if secret == "key" else None)
    assert not list(tmp_path.glob(".*crfdeid-work"))  # the work folder is gone
    # the same run with other partitions: the same folder
    again = tmp_path / "again[1]"  # Spark reads [] as a glob unless escaped
    assert main(["-q", "spark", str(src), str(again), "--format", "text", "--rules-only", "--partitions", "1",
                 *options]) == 3
    assert tree(again) == tree(local)


def test_an_output_folder_is_never_mixed_or_wiped_by_mistake(spark, tmp_path, capsys):
    src = notes_folder(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("not crfdeid's\n")
    args = ["-q", "spark", str(src), str(out), "--format", "text", "--rules-only", "--seed", "1"]
    assert main(args) == 2
    assert "not empty" in capsys.readouterr().err
    assert main([*args, "--overwrite"]) == 2  # files crfdeid spark did not write are never removed
    assert (out / "mine.txt").exists()


def write_table(spark, src: Path, target: Path, fmt: str) -> None:
    rows = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(src.glob("*.txt"))]
    if fmt == "csv":  # as another tool writes it: RFC 4180, quoted fields spanning lines
        with open(target, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, quoting=csv.QUOTE_MINIMAL)
            writer.writerow(["note_id", "body"])
            writer.writerows(rows)
    elif fmt == "jsonl":
        target.write_text("".join(json.dumps({"note_id": i, "body": t}, ensure_ascii=False) + "\n"
                                  for i, t in rows), encoding="utf-8")
    else:
        spark.createDataFrame(rows, "note_id string, body string").repartition(2).write.parquet(str(target))


def read_table(spark, folder: Path, fmt: str):
    from crfdeid.spark import read_table as read

    return read(spark, str(folder), fmt).collect()


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_tables_in_tables_out_with_the_texts_deidentify_writes(spark, tmp_path, monkeypatch, capsys, fmt,
                                                               executor_key):
    src = tmp_path / "notes"
    shutil.copytree(EXAMPLES, src, ignore=shutil.ignore_patterns("*.ann"))
    monkeypatch.setenv("CRFDEID_KEY", executor_key)
    local = tmp_path / "local"
    assert main(["-q", "deidentify", str(src), "-o", str(local), "--rules-only"]) == 0
    table = tmp_path / f"notes.{fmt}"
    write_table(spark, src, table, fmt)
    out = tmp_path / "out"
    status = main(["-q", "spark", str(table), str(out), "--rules-only", "--id-col", "note_id",
                   "--text-col", "body"])  # the format from the suffix
    assert status == 0, capsys.readouterr().err
    released = read_table(spark, out / "notes", fmt)
    assert {r["note_id"]: r["body"].encode("utf-8") for r in released} == \
        {p.stem: p.read_bytes() for p in local.glob("*.txt")}
    spans = [r["spans"] for r in released]
    if fmt == "csv":
        spans = [json.loads(s) for s in spans]
    assert all(s and {"start", "end", "label"} <= set(s[0].asDict() if hasattr(s[0], "asDict") else s[0])
               for s in spans)
    audit = read_table(spark, out / "audit", fmt)
    local_audit = (local / "audit.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    assert len(audit) == len(local_audit)
    assert sorted(r["original_hash"] for r in audit) == sorted(json.loads(x)["original_hash"]
                                                               for x in local_audit)
    run = json.loads(next((out / "run").glob("part-*")).read_text(encoding="utf-8"))
    assert run["summary"]["released"] == 3 and run["summary"]["failed"] == 0
    assert run["summary"]["spans"] == sum(json.loads(x)["record"] == "span" for x in local_audit)
    assert run["run"]["keyed"] is True
    # an output that holds a run is refused, unless --overwrite
    assert main(["-q", "spark", str(table), str(out), "--rules-only", "--id-col", "note_id",
                 "--text-col", "body"]) == 2
    assert main(["-q", "spark", str(table), str(out), "--rules-only", "--id-col", "note_id",
                 "--text-col", "body", "--overwrite"]) == 0


def test_a_table_without_the_columns_is_a_usage_error(spark, tmp_path, capsys):
    table = tmp_path / "t.jsonl"
    table.write_text('{"note": "a", "body": "x"}\n', encoding="utf-8")
    assert main(["-q", "spark", str(table), str(tmp_path / "out"), "--rules-only", "--seed", "1"]) == 2
    assert "no column 'id'" in capsys.readouterr().err


def test_a_real_run_logs_no_key_and_no_original(tmp_path):
    """`crfdeid spark --master local[2]` in its own process, keyed from the environment, as a
    hospital runs it: neither the key nor any original string appears in what it prints."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install '.[spark]')")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime for Spark; .ci/run installs default-jre-headless")
    from crfdeid.io.brat import parse_ann

    src = tmp_path / "notes"
    shutil.copytree(EXAMPLES, src, ignore=shutil.ignore_patterns("*.ann"))
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "CRFDEID_KEY": KEY,
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "crfdeid", "spark", str(src), str(out), "--format", "text",
                           "--rules-only", "--master", "local[2]"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    printed = proc.stdout + proc.stderr
    assert "3 note(s): 3 released" in printed
    assert KEY not in printed
    written = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()
                      and p.suffix != ".txt")  # the audit, failures and marker; notes are released text
    for ann in EXAMPLES.glob("*.ann"):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        for span in parse_ann(ann.read_text(encoding="utf-8"), text)[0]:
            original = text[span.start:span.end]
            if len(original) >= 5:
                assert original not in printed, original
                assert f'"{original}"' not in written, original
    assert KEY not in written
