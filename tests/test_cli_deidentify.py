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
    assert "de-identified 3 document(s)" in capsys.readouterr().err
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


def test_errors_are_clear_and_exit_2(tmp_path, capsys):
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    (src / "nota-002.ann").unlink()
    assert main(["deidentify", str(src), "-o", str(tmp_path / "out"), "--from-annotations"]) == 2
    err = capsys.readouterr().err
    assert "nota-002.txt" in err and "Traceback" not in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("strategies:\n  FECHAS: hide\n")
    assert (
        main(["deidentify", str(src), "-o", str(tmp_path / "o2"), "--from-annotations", "--policy", str(bad)])
        == 2
    )
    assert "bad.yaml:2" in capsys.readouterr().err
