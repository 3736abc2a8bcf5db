"""The Deidentifier API and the all-or-nothing batch."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from crfdeid.deidentify import (
    AUDIT_NAME,
    AnnotationDetector,
    Deidentifier,
    deidentify_folder,
    read_key,
)
from crfdeid.errors import CrfdeidError, InputError, OutputError
from crfdeid.pipeline import load_pipeline
from crfdeid.types import Document, Span

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"


def test_deidentify_a_text_with_the_rules():
    deid = Deidentifier(load_pipeline(rules_only=True), seed=3)
    result = deid.deidentify("NHC: 2347865. Tfno: 948 255 400. Ingresa el 5 de marzo de 2014.")
    assert "2347865" not in result.text and "948 255 400" not in result.text
    assert {s.label for s in result.spans} >= {"ID_SUJETO_ASISTENCIA", "NUMERO_TELEFONO", "FECHAS"}
    for span, record in zip(result.spans, result.audit, strict=True):
        assert result.text[span.start : span.end] == record.surrogate
        assert record.source.startswith("rule:")


def test_from_annotations_uses_the_spans_of_the_document():
    doc = Document(
        "n", "Ana vive en Soria.", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"), Span(12, 17, "TERRITORIO"))
    )
    result = Deidentifier.from_annotations(seed=1).deidentify(doc)
    assert "Ana" not in result.text and "Soria" not in result.text
    assert all(r.source == "annotation" for r in result.audit)
    assert isinstance(Deidentifier.from_annotations().detector, AnnotationDetector)


def copy_examples(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    return src


@pytest.mark.parametrize("fmt", ["text", "brat", "jsonl"])
def test_batch_writes_text_spans_and_audit(tmp_path, fmt):
    src = copy_examples(tmp_path)
    out = tmp_path / "out"
    summary = deidentify_folder([src], out, Deidentifier.from_annotations(seed=2), fmt, from_annotations=True)
    assert summary.documents == 3 and summary.spans == 51
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    if fmt == "jsonl":
        assert names == [AUDIT_NAME, "deidentified.jsonl"]
    else:
        assert sum(n.endswith(".txt") for n in names) == 3 and (fmt == "brat") == any(
            n.endswith(".ann") for n in names
        )
    records = [json.loads(line) for line in (out / AUDIT_NAME).read_text(encoding="utf-8").splitlines()]
    assert records[0]["record"] == "run" and sum(r["record"] == "span" for r in records) == 51
    if fmt == "brat":  # the .ann reads back against the new text: offsets are exact
        from crfdeid.io.brat import read_brat

        doc = read_brat(out / "nota-001.txt")
        assert len(doc.spans) == 25
    assert not any(p.name.startswith(".crfdeid-staging") for p in out.iterdir())


def test_a_failing_document_leaves_no_output(tmp_path):
    src = copy_examples(tmp_path)
    (src / "nota-002.ann").write_text("T1\tFECHAS 0 5\tNOPE!\n", encoding="utf-8")  # disagrees with the text
    out = tmp_path / "out"
    with pytest.raises(CrfdeidError) as info:
        deidentify_folder([src], out, Deidentifier.from_annotations(seed=2), from_annotations=True)
    assert "nota-002.ann" in str(info.value)
    assert not out.exists()
    out.mkdir()
    (out / "keep.md").write_text("x")
    with pytest.raises(CrfdeidError):
        deidentify_folder([src], out, Deidentifier.from_annotations(seed=2), from_annotations=True)
    assert sorted(p.name for p in out.iterdir()) == ["keep.md"]


def test_missing_annotations_are_an_error_not_a_release(tmp_path):
    src = copy_examples(tmp_path)
    (src / "nota-003.ann").unlink()
    with pytest.raises(InputError, match=r"no \.ann"):
        deidentify_folder([src], tmp_path / "out", Deidentifier.from_annotations(), from_annotations=True)


def test_output_checks(tmp_path):
    src = copy_examples(tmp_path)
    deid = Deidentifier.from_annotations(seed=1)
    with pytest.raises(OutputError, match="input folder"):
        deidentify_folder([src], src, deid, from_annotations=True)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "x.txt").write_text("x")
    with pytest.raises(OutputError, match="did not write"):
        deidentify_folder([src], theirs, deid, from_annotations=True)
    with pytest.raises(OutputError, match="mapping"):
        deidentify_folder(
            [src], tmp_path / "o", deid, from_annotations=True, mapping_out=tmp_path / "o" / "m.jsonl"
        )


def test_mapping_is_written_only_when_asked_with_mode_0600(tmp_path):
    src = copy_examples(tmp_path)
    mapping = tmp_path / "private" / "map.jsonl"
    deidentify_folder(
        [src],
        tmp_path / "out",
        Deidentifier.from_annotations(seed=1),
        from_annotations=True,
        mapping_out=mapping,
    )
    assert os.stat(mapping).st_mode & 0o777 == 0o600
    rows = [json.loads(line) for line in mapping.read_text(encoding="utf-8").splitlines()]
    assert {"document", "label", "original", "surrogate"} == set(rows[0])
    assert not any(
        "original" in line
        for line in (tmp_path / "out" / AUDIT_NAME).read_text().splitlines()[1:]
        if '"original":' in line
    )


def test_key_comes_from_the_file_or_the_environment_and_must_be_long(tmp_path):
    key_file = tmp_path / "k"
    key_file.write_text("0123456789abcdef0123\n")
    assert read_key(key_file, {}) == b"0123456789abcdef0123"
    assert read_key(None, {"CRFDEID_KEY": "x" * 20}) == b"x" * 20
    assert read_key(None, {}) is None
    with pytest.raises(InputError, match="at least 16"):
        read_key(None, {"CRFDEID_KEY": "short"})
