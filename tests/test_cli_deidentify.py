"""`crfdeid deidentify`: a thin layer, clear errors, no secrets on the command line or in logs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from crfdeid.cli import main

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
