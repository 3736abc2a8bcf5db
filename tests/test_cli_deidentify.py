"""`crfdeid deidentify`: a thin layer, clear errors, no secrets on the command line or in logs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from crfdeid.cli import main
from crfdeid.types import Document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"


def test_help_teaches_with_examples(capsys):
    try:
        main(["deidentify", "--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    for word in (
        "--from-annotations",
        "--key-file",
        "CRFDEID_KEY",
        "examples:",
        "[PERSONA-1]",
        "--mapping-out",
    ):
        assert word in out
    assert "--key " not in out  # no way to pass the key itself on the command line


def test_deidentify_from_annotations_in_brat(tmp_path, capsys):
    out = tmp_path / "out"
    assert (
        main(
            [
                "deidentify",
                str(EXAMPLES),
                "-o",
                str(out),
                "--from-annotations",
                "--format",
                "brat",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    assert (out / "nota-001.ann").exists() and (out / "audit.jsonl").exists()
    assert "3 note(s): 3 released" in capsys.readouterr().err
    first = (out / "nota-001.txt").read_text(encoding="utf-8")
    again = tmp_path / "again"
    main(["deidentify", str(EXAMPLES), "-o", str(again), "--from-annotations", "--seed", "1"])
    assert (again / "nota-001.txt").read_text(encoding="utf-8") == first
    other = tmp_path / "other"
    main(["deidentify", str(EXAMPLES), "-o", str(other), "--from-annotations", "--seed", "2"])
    assert (other / "nota-001.txt").read_text(encoding="utf-8") != first


def test_rules_only_with_a_strategy(tmp_path):
    out = tmp_path / "out"
    assert (
        main(
            [
                "-q",
                "deidentify",
                str(EXAMPLES / "nota-001.txt"),
                "-o",
                str(out),
                "--rules-only",
                "--strategy",
                "mask",
            ]
        )
        == 0
    )
    assert "[FECHAS]" in (out / "nota-001.txt").read_text(encoding="utf-8")


def test_key_from_environment_is_never_logged(tmp_path, monkeypatch, capsys):
    secret = "s3cr3t-key-value-0123456789"
    monkeypatch.setenv("CRFDEID_KEY", secret)
    out = tmp_path / "out"
    assert main(["deidentify", str(EXAMPLES), "-o", str(out), "--from-annotations"]) == 0
    captured = capsys.readouterr()
    assert secret not in captured.out + captured.err
    audit = (out / "audit.jsonl").read_text(encoding="utf-8")
    assert secret not in audit and json.loads(audit.splitlines()[0])["keyed"] is True


def test_errors_are_clear_and_exit_2_before_any_work_3_when_a_note_fails(tmp_path, capsys):
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    (src / "nota-002.ann").unlink()
    assert main(["deidentify", str(src), "-o", str(tmp_path / "out"), "--from-annotations"]) == 3
    err = capsys.readouterr().err
    assert "nota-002.txt" in err and "no .ann" in err and "Traceback" not in err
    assert "2 released, 1 failed" in err
    assert (tmp_path / "out" / "nota-001.txt").exists()
    bad = tmp_path / "bad.yaml"
    bad.write_text("strategies:\n  FECHAS: hide\n")
    assert (
        main(["deidentify", str(src), "-o", str(tmp_path / "o2"), "--from-annotations", "--policy", str(bad)])
        == 2
    )
    assert "bad.yaml:2" in capsys.readouterr().err
    assert not (tmp_path / "o2").exists()  # a usage error: nothing was started


def test_a_key_on_the_command_line_is_refused_and_never_echoed(tmp_path, capsys):
    secret = "0123456789abcdef-THE-KEY"
    for argv in (["--key", secret], ["--key-file", secret], [f"--key-file={secret}"], ["--ke", secret]):
        code = None
        try:
            code = main(["deidentify", str(EXAMPLES), "-o", str(tmp_path / "o"), *argv])
        except SystemExit as exc:
            code = exc.code
        assert code == 2
        err = capsys.readouterr().err
        assert secret not in err, argv


def test_quiet_still_prints_the_one_summary_line(tmp_path, capsys):
    assert main(["-q", "deidentify", str(EXAMPLES), "-o", str(tmp_path / "o"), "--from-annotations",
                 "--seed", "1"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "3 note(s): 3 released" in err[0]


def test_standard_input_to_standard_output(tmp_path):
    import subprocess
    import sys

    note = "NHC: 2347865. Tfno: 948 255 400.\n"
    proc = subprocess.run([sys.executable, "-m", "crfdeid", "deidentify", "-", "--rules-only", "--seed", "3"],
                          input=note.encode(), capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "2347865" not in out and out.startswith("NHC: ") and out.endswith(".\n")
    cmd = [sys.executable, "-m", "crfdeid", "deidentify", "-", "--rules-only", "--seed", "3"]
    again = subprocess.run(cmd, input=note.encode(), capture_output=True, timeout=120)
    assert again.stdout == proc.stdout
    # the second mention, which the rules do not find, is propagated
    leaky = b"NHC: 2347865.\nRevisado el expediente 2347865 hoy.\n"
    propagated = subprocess.run(cmd, input=leaky, capture_output=True, timeout=120)
    assert propagated.returncode == 0 and b"2347865" not in propagated.stdout
    # a note whose rules did not complete is held: nothing on standard output
    slow = [*cmd, "--timeout", "1e-9"]
    held = subprocess.run(slow, input=leaky, capture_output=True, timeout=120)
    assert (held.returncode, held.stdout) == (3, b"") and b"held back" in held.stderr
    loud = subprocess.run([*slow, "--release-incomplete"], input=leaky, capture_output=True, timeout=120)
    assert loud.returncode == 0 and loud.stdout and b"released anyway" in loud.stderr


def test_sigterm_stops_cleanly_and_resume_finishes(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    src = tmp_path / "in"
    src.mkdir()
    for i in range(400):
        (src / f"n{i:03d}.txt").write_text(f"NHC: {2347865 + i}. Tfno: 948 255 {i:03d}.\n")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "crfdeid", "-q", "deidentify", str(src), "-o", str(out), "--rules-only",
           "--seed", "4"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    manifest = out / "manifest.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and not (manifest.exists() and manifest.stat().st_size > 0):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal arrived: nothing to check
        return
    assert proc.returncode == 143, err
    assert b"interrupted" in err and b"--resume" in err and b"Traceback" not in err
    assert not (tmp_path / ".out.crfdeid-work").exists()
    assert subprocess.run([*cmd, "--resume"], capture_output=True, timeout=300).returncode == 0
    assert len(manifest.read_text().splitlines()) == 400


# --- the operating point ------------------------------------------------------------------------


def _notes(tmp_path):
    from .conftest import UNSEEN_NOTE

    notes = tmp_path / "notes"
    shutil.copytree(EXAMPLES, notes, ignore=shutil.ignore_patterns("*.ann"))
    (notes / "nota-unseen.txt").write_text(UNSEEN_NOTE, encoding="utf-8")
    return notes


def _deidentify(tmp_path, name, model, *extra):
    """(the audit's run record, its span records, the run's settings)."""
    notes = tmp_path / "notes" if (tmp_path / "notes").exists() else _notes(tmp_path)
    out = tmp_path / name
    assert main(["-q", "deidentify", str(notes), "-o", str(out), "--model", str(model), "--seed", "1",
                 *extra]) == 0
    lines = [json.loads(line) for line in (out / "audit.jsonl").read_text(encoding="utf-8").splitlines()]
    settings = json.loads((out / ".crfdeid-output").read_text(encoding="utf-8"))["settings"]
    return lines[0], [r for r in lines[1:] if r.get("record") != "run"], settings


def test_deidentify_runs_the_recorded_point_by_default_and_threshold_overrides_it(tmp_path, pointed_model):
    from .conftest import RECORDED_POINT

    run, records, settings = _deidentify(tmp_path, "default", pointed_model)
    assert run["operating_point"] == {"name": "deidentify", **RECORDED_POINT}
    assert settings["operating_point"]["name"] == "deidentify"  # a resumed run must use it too
    best, best_records, best_settings = _deidentify(tmp_path, "viterbi", pointed_model,
                                                    "--operating-point", "viterbi")
    assert best["operating_point"] == {"name": "viterbi"} and "operating_point" not in best_settings
    assert len(records) > len(best_records)  # the recorded point replaces more: the test can fail
    loose, loose_records, loose_settings = _deidentify(tmp_path, "loose", pointed_model, "--threshold", "0.5")
    assert loose["operating_point"] == {"name": "threshold 0.5", "threshold": 0.5, "labels": {},
                                        "spans": "tags"}
    assert loose_settings["threshold"] == 0.5 and len(loose_records) != len(records)


def test_a_model_without_a_point_deidentifies_on_its_best_path(tmp_path, tiny_model, pointed_model):
    run, records, settings = _deidentify(tmp_path, "old", tiny_model)
    assert run["operating_point"] == {"name": "viterbi"} and "operating_point" not in settings
    _, same, _ = _deidentify(tmp_path, "new", pointed_model, "--operating-point", "viterbi")
    assert [(r["start"], r["end"], r["label"]) for r in records] == [
        (r["start"], r["end"], r["label"]) for r in same]  # the same weights, the same path


def test_annotate_at_the_deidentify_point_writes_the_spans_deidentify_replaces(tmp_path, pointed_model):
    """``annotate --operating-point deidentify`` writes what deidentify detects; deidentify then
    widens those spans to whole words and adds the other mentions of what it replaces."""
    from crfdeid.deidentify import DeidentifierSpec
    from crfdeid.io.corpus import load_corpus

    notes = _notes(tmp_path)
    annotated = {}
    for point in ("viterbi", "deidentify"):
        out = tmp_path / f"annotate-{point}"
        assert main(["-q", "annotate", str(notes), "-o", str(out), "--model", str(pointed_model),
                     "--operating-point", point]) == 0
        annotated[point] = {doc_id: [(s.start, s.end, s.label) for s in doc.sorted_spans()]
                            for doc_id, doc in load_corpus([out]).items()}
    assert annotated["deidentify"] != annotated["viterbi"]  # the point matters: the test can fail
    deidentifier = DeidentifierSpec(model=str(pointed_model), seed=1).build()
    _, records, _ = _deidentify(tmp_path, "deid", pointed_model)
    for doc_id, spans in annotated["deidentify"].items():
        text = (notes / f"{doc_id}.txt").read_text(encoding="utf-8")
        detected = deidentifier.detector.run(Document(doc_id, text)).spans
        assert [(s.start, s.end, s.label) for s in detected] == spans
        audited = [r for r in records if r["document"] == doc_id and r["source"] != "propagated"]
        assert all(any(r["start"] <= a and b <= r["end"] and r["label"] == label for r in audited)
                   for a, b, label in spans)
        assert all(any(r["start"] <= a and b <= r["end"] for a, b, _ in spans) for r in audited)
