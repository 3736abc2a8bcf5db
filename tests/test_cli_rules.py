"""``crfdeid rules test|lint|explain`` and ``crfdeid annotate``: output, exit status, clear errors."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from crfdeid.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def pack(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "pack"
    folder.mkdir(exist_ok=True)
    (folder / "records.yaml").write_text(textwrap.dedent(body), encoding="utf-8")
    return folder


FAILING_PACK = """\
    description: Record numbers.
    rules:
      - id: nhc
        label: ID_SUJETO_ASISTENCIA
        description: The number after NHC.
        pattern: 'NHC:\\s*(?P<phi>\\d+)'
        examples:
          match:
            - {text: "NHC: 123", phi: "123"}
            - {text: "NHC 456", phi: "456"}
          no_match: ["NASS: 1"]
    """


def test_rules_test_shipped_pack_passes(capsys):
    code, out, _ = run(capsys, "rules", "test")
    assert code == 0
    assert "PASS  phones" in out and out.rstrip().endswith("0 failed")


def test_rules_test_failure_exits_1_and_names_the_example(capsys, tmp_path: Path):
    code, out, _ = run(capsys, "rules", "test", str(pack(tmp_path, FAILING_PACK)))
    assert code == 1
    assert "FAIL  records  nhc" in out
    assert "BAD match example 'NHC 456'" in out and "records.yaml:10" in out
    assert "1 failed" in out


def test_rules_test_verbose_lists_passing_examples(capsys, tmp_path: Path):
    _, out, _ = run(capsys, "rules", "test", str(pack(tmp_path, FAILING_PACK)), "-v")
    assert "ok  match example 'NHC: 123'" in out and "ok  no_match example 'NASS: 1'" in out


def test_invalid_pack_exits_2_with_file_line_and_rule(capsys, tmp_path: Path):
    body = FAILING_PACK.replace("ID_SUJETO_ASISTENCIA", "PATIENT_ID")
    code, out, err = run(capsys, "rules", "test", str(pack(tmp_path, body)))
    assert code == 2 and out == ""
    assert "records.yaml:4: rule 'nhc': unknown label 'PATIENT_ID'" in err and "Traceback" not in err


def test_unknown_pack_name(capsys):
    code, _, err = run(capsys, "rules", "test", "zz")
    assert code == 2 and "no rule pack 'zz'" in err


def test_rules_lint_clean_and_with_findings(capsys, tmp_path: Path):
    clean = pack(tmp_path, FAILING_PACK.replace('"NHC 456"', '"NHC: 456"'))
    code, out, _ = run(capsys, "rules", "lint", str(clean), "--slow-ms", "200")  # tests time nothing finely
    assert code == 0 and out.strip() == "1 rules, 0 finding(s)"
    code, out, _ = run(capsys, "rules", "lint", str(pack(tmp_path, FAILING_PACK.replace(
        '          no_match: ["NASS: 1"]\n', ""))))
    assert code == 1 and "nhc: few-examples" in out


def test_rules_explain_text(capsys):
    code, out, _ = run(capsys, "rules", "explain", "Tel.: 967 597 100 Fax: 948 296 500")
    assert code == 0
    lines = out.splitlines()
    assert "NUMERO_TELEFONO" in lines[0] and "phone-labelled" in lines[0] and "'967 597 100'" in lines[0]
    assert lines[0].split()[0] == "6-17"
    assert "phones.yaml" in lines[1]
    assert "NUMERO_FAX" in lines[2] and "fax-labelled" in lines[2]


def test_rules_explain_file_json_and_dropped(capsys, tmp_path: Path):
    note = tmp_path / "n1.txt"
    note.write_text("Fecha de Ingreso: 5 de marzo de 2014.\n", encoding="utf-8")
    code, out, _ = run(capsys, "rules", "explain", str(note), "--format", "json", "--all")
    assert code == 0
    report = json.loads(out)
    assert report["document"] == "n1" and report["timeouts"] == []
    kept = [m for m in report["matches"] if "dropped_for" not in m]
    assert [(m["text"], m["rule"]) for m in kept] == [("5 de marzo de 2014", "date-month-name")]
    dropped = [(m["text"], m["rule"], m["dropped_for"]) for m in report["matches"] if "dropped_for" in m]
    assert dropped == [("2014", "date-year", "date-month-name")]


def test_rules_explain_missing_file_is_an_error_not_text(capsys, tmp_path: Path):
    code, _, err = run(capsys, "rules", "explain", str(tmp_path / "nope.txt"))
    assert code == 2 and "no such file" in err


def test_rules_explain_nothing_found(capsys):
    code, out, _ = run(capsys, "rules", "explain", "sin datos personales")
    assert code == 0 and out.strip() == "no rule matched"


def test_annotate_rules_only_then_evaluate(capsys, tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "n1.txt").write_text("NHC: 2347865.\nE-mail: ana@x.es\n", encoding="utf-8")
    (src / "n1.ann").write_text("T1\tID_SUJETO_ASISTENCIA 5 12\t2347865\n"
                                "T2\tCORREO_ELECTRONICO 22 30\tana@x.es\n", encoding="utf-8")
    code, _, err = run(capsys, "annotate", str(src), "-o", str(tmp_path / "out"), "--rules-only")
    assert code == 0, err
    assert "annotated 1 document(s), 2 span(s)" in err
    copy = (tmp_path / "out" / "n1.txt").read_text(encoding="utf-8")
    assert copy == (src / "n1.txt").read_text(encoding="utf-8")
    code, out, _ = run(capsys, "evaluate", str(src), str(tmp_path / "out"), "--format", "json")
    assert json.loads(out)["ner"]["f1"] == 1.0


def test_annotate_into_the_input_folder_is_refused(capsys, tmp_path: Path):
    (tmp_path / "n1.txt").write_text("NHC: 1234.", encoding="utf-8")
    code, _, err = run(capsys, "annotate", str(tmp_path), "-o", str(tmp_path), "--rules-only")
    assert code == 2 and "input folder" in err
    assert not (tmp_path / "n1.ann").exists()


@pytest.mark.parametrize("value", ["0", "-1"])
def test_annotate_rejects_a_non_positive_timeout(capsys, tmp_path: Path, value: str):
    (tmp_path / "in").mkdir()
    code, _, err = run(capsys, "annotate", str(tmp_path / "in"), "-o", str(tmp_path / "o"), "--rules-only",
                       "--timeout", value)
    assert code == 2 and "--timeout" in err
