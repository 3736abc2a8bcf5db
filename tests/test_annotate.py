"""Batch annotation: predictions written whole, inputs never overwritten, ids checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crfdeid.annotate import MARKER, annotate_folder, check_output_dir, detect_all
from crfdeid.errors import InputError, OutputError
from crfdeid.io.brat import read_brat
from crfdeid.rules import Rule, RuleEngine
from crfdeid.types import Document, Span

NHC = Rule(id="nhc", label="ID_SUJETO_ASISTENCIA", description="NHC.", pattern=r"NHC: (?P<phi>\d+)")


def notes(folder: Path, **texts: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8", newline="")
    return folder


def test_brat_output_has_ann_and_text_copy(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 123.\r\n", n2="nada\n")
    summary = annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])])
    assert (summary.documents, summary.spans, dict(summary.labels)) == (2, 1, {"ID_SUJETO_ASISTENCIA": 1})
    doc = read_brat(tmp_path / "out" / "n1.txt")
    assert doc.text == "NHC: 123.\r\n"  # copied exactly, CRLF included
    assert [(s.start, s.end, s.label) for s in doc.spans] == [(5, 8, "ID_SUJETO_ASISTENCIA")]
    assert (tmp_path / "out" / "n2.ann").read_text(encoding="utf-8") == ""
    assert (tmp_path / "out" / MARKER).exists()


def test_jsonl_output_is_one_file(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 123.")
    annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])], "jsonl")
    [line] = (tmp_path / "out" / "annotations.jsonl").read_text(encoding="utf-8").splitlines()
    obj = json.loads(line)
    assert obj["id"] == "n1" and obj["spans"] == [
        {"start": 5, "end": 8, "label": "ID_SUJETO_ASISTENCIA", "source": "rule:nhc"}]


def test_existing_gold_ann_in_the_input_is_ignored_and_untouched(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 123.")
    gold = "T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tNHC\n"
    (src / "n1.ann").write_text(gold, encoding="utf-8")
    annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])])
    assert (src / "n1.ann").read_text(encoding="utf-8") == gold
    assert "NOMBRE" not in (tmp_path / "out" / "n1.ann").read_text(encoding="utf-8")


def test_refuses_to_write_into_the_input_folder(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 123.")
    with pytest.raises(OutputError, match="input folder"):
        annotate_folder(src, src, [RuleEngine([NHC])])
    with pytest.raises(OutputError, match="input folder"):
        annotate_folder(src / "n1.txt", tmp_path / "in" / ".", [RuleEngine([NHC])])
    assert sorted(p.name for p in src.iterdir()) == ["n1.txt"]


def test_refuses_a_folder_of_foreign_annotations_unless_overwrite(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 123.")
    gold = notes(tmp_path / "gold", n1="NHC: 123.")
    (gold / "n1.ann").write_text("T1\tID_SUJETO_ASISTENCIA 5 8\t123\n", encoding="utf-8")
    with pytest.raises(OutputError, match="did not write") as info:
        check_output_dir(src, gold)
    assert "--overwrite" in info.value.hint
    check_output_dir(src, gold, overwrite=True)
    # a folder crfdeid wrote before may be written again
    annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])])
    annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])])


def test_output_that_is_a_file_is_refused(tmp_path: Path):
    src = notes(tmp_path / "in", n1="x")
    (tmp_path / "out").write_text("", encoding="utf-8")
    with pytest.raises(OutputError, match="not a folder"):
        check_output_dir(src, tmp_path / "out")


def test_unsafe_or_duplicate_ids_fail_alone(tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    lines = [json.dumps({"id": "../evil", "text": "x"}), json.dumps({"id": "n1", "text": "NHC: 1."})]
    (src / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (src / "n1.txt").write_text("NHC: 2.", encoding="utf-8")
    reported: list[str] = []
    summary = annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])], report=reported.append)
    assert summary.documents == 1 and len(summary.failures) == 2
    errors = {f.note: f.error for f in summary.failures}
    assert "cannot be used as a file name" in errors["../evil"] and "appears twice" in errors["n1"]
    assert not (tmp_path / "evil.ann").exists()
    failures = (tmp_path / "out" / "failures.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(failures) == 2 and len(reported) == 2


def test_a_bad_note_costs_no_other_and_subfolders_are_mirrored(tmp_path: Path):
    src = notes(tmp_path / "in", n1="NHC: 1.", n2="NHC: 2.")
    (src / "sub").mkdir()
    (src / "sub" / "n3.TXT").write_text("NHC: 3.", encoding="utf-8")
    (src / "bad.txt").write_bytes(b"\x00\x01")
    (src / "image.png").write_bytes(b"\x89PNG")
    reported: list[str] = []
    summary = annotate_folder(src, tmp_path / "out", [RuleEngine([NHC])], report=reported.append)
    assert summary.documents == 3 and [f.note for f in summary.failures] == ["bad"]
    assert (tmp_path / "out" / "sub" / "n3.ann").read_text(encoding="utf-8").startswith("T1\t")
    assert any("image.png" in line and "unsupported" in line for line in reported)
    flat = annotate_folder(src, tmp_path / "flat", [RuleEngine([NHC])], recursive=False)
    assert flat.documents == 2


def test_empty_input_folder_is_an_error(tmp_path: Path):
    (tmp_path / "in").mkdir()
    with pytest.raises(InputError, match=r"no \.txt or \.jsonl"):
        annotate_folder(tmp_path / "in", tmp_path / "out", [RuleEngine([NHC])])


def test_timeouts_are_collected_and_the_batch_finishes(tmp_path: Path):
    slow = Rule(id="slow", label="OTROS_SUJETO_ASISTENCIA", description="Slow.", pattern=r"(a|aa)+$")
    src = notes(tmp_path / "in", n1="a" * 40 + "b NHC: 1.", n2="NHC: 2.")
    summary = annotate_folder(src, tmp_path / "out", [RuleEngine([slow, NHC], timeout=0.05)])
    assert summary.documents == 2 and summary.spans == 2
    assert [(t.rule_id, t.document_id) for t in summary.timeouts] == [("slow", "n1")]


def test_detect_all_merges_identical_spans_of_several_detectors():
    class Fixed:
        name = "fixed"

        def detect(self, document: Document) -> list[Span]:
            return [Span(5, 8, "ID_SUJETO_ASISTENCIA", source="other"), Span(0, 3, "FECHAS")]

    spans, timeouts = detect_all(Document("d", "NHC: 123"), [RuleEngine([NHC]), Fixed()])
    assert [(s.start, s.source) for s in spans] == [(0, "gold"), (5, "rule:nhc")]
    assert timeouts == []
