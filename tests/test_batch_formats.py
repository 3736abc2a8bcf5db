"""Word, PDF and table notes in a batch, used as a person would: a folder of letters, an export.

Detection is the YAML rules alone (no model to load): they find the record numbers, e-mails,
phones and dates these notes carry.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from crfdeid import release
from crfdeid.batch import BatchOptions, run_batch
from crfdeid.cli import main
from crfdeid.deidentify import DeidentifierSpec
from crfdeid.errors import InputError

docx = pytest.importorskip("docx")
pytest.importorskip("pypdf")

from .test_io_pdf import encrypted_pdf, scanned_pdf, text_pdf  # noqa: E402

SPEC = DeidentifierSpec(rules_only=True, seed=5)
NOTE = "NHC: 2347865. Correo: lferrer@gmail.com. Tel: 976 123 456. Fecha de ingreso: 14/07/2018."


def run(inputs, out: Path, **kwargs):
    lines: list[str] = []
    paths = [*inputs] if isinstance(inputs, list) else [inputs]
    summary = run_batch(paths, SPEC, BatchOptions(out, **kwargs), report=lines.append)
    summary.report = lines  # type: ignore[attr-defined]
    return summary


def manifest(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / release.MANIFEST).read_text(encoding="utf-8").splitlines()]


def letter(path: Path, hyperlink: str | None = None) -> None:
    document = docx.Document()
    document.core_properties.author = "Tomás Arregui"
    paragraph = document.add_paragraph("Informe. ")
    bold = paragraph.add_run("NHC: 2347865.")
    bold.bold = True
    paragraph.add_run(" Correo: lferrer@gmail.com. Tel: 976 123 456.")
    document.add_paragraph("Fecha de ingreso: 14/07/2018.")
    document.sections[0].footer.paragraphs[0].text = "Expediente 2347865"
    if hyperlink is not None:
        from docx.opc.constants import RELATIONSHIP_TYPE
        from docx.oxml.ns import qn

        rel = document.part.relate_to(hyperlink, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
        link = document.paragraphs[0]._p.makeelement(qn("w:hyperlink"), {qn("r:id"): rel})
        run = link.makeelement(qn("w:r"), {})
        text = run.makeelement(qn("w:t"), {})
        text.text = " escribir"
        run.append(text)
        link.append(run)
        document.paragraphs[0]._p.append(link)
    document.save(path)


def test_a_folder_of_word_letters_comes_out_as_word_letters(tmp_path):
    src = tmp_path / "cartas"
    src.mkdir()
    letter(src / "carta-1.docx")
    out = tmp_path / "out"
    summary = run(src, out)
    assert summary.exit_status == 0 and summary.released == 1
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "audit.jsonl", "carta-1.docx", "failures.jsonl", "manifest.jsonl"]
    result = docx.Document(out / "carta-1.docx")
    text = "\n".join(p.text for p in result.paragraphs)
    for original in ("2347865", "lferrer@gmail.com", "976 123 456", "14/07/2018"):
        assert original not in text
    assert text.startswith("Informe. NHC: ") and "Correo: " in text
    assert result.paragraphs[0].runs[1].bold and result.paragraphs[0].runs[1].text.startswith("NHC: ")
    footer = result.sections[0].footer.paragraphs[0].text
    assert footer.startswith("Expediente ") and "2347865" not in footer
    assert result.core_properties.author == ""
    again = run(src, tmp_path / "again")  # the same key/seed, the same bytes
    assert again.released == 1 and (tmp_path / "again" / "carta-1.docx").read_bytes() == (
        out / "carta-1.docx").read_bytes()


def test_an_original_left_in_a_hyperlink_holds_the_letter_back(tmp_path):
    src = tmp_path / "cartas"
    src.mkdir()
    letter(src / "carta-2.docx", hyperlink="mailto:lferrer@gmail.com")
    out = tmp_path / "out"
    summary = run(src, out)
    assert summary.held == 1 and not (out / "carta-2.docx").exists()
    assert (out / release.QUARANTINE / "carta-2.docx").is_file()
    reason = manifest(out)[0]["reasons"][0]
    assert reason["kind"] == "leftover" and "outside its text" in reason["detail"]
    assert reason["labels"] == ["CORREO_ELECTRONICO"]


def test_pdf_notes_come_out_as_text_and_scans_and_encrypted_files_fail_alone(tmp_path):
    src = tmp_path / "pdf"
    src.mkdir()
    (src / "informe.pdf").write_bytes(text_pdf([[NOTE[:40], NOTE[40:]]]))
    (src / "escaneo.pdf").write_bytes(scanned_pdf())
    (src / "cifrado.pdf").write_bytes(encrypted_pdf())
    out = tmp_path / "out"
    summary = run(src, out)
    assert (summary.released, summary.failed) == (1, 2)
    text = (out / "informe.txt").read_text(encoding="utf-8")
    assert "NHC:" in text and "2347865" not in text
    failures = {r["note"]: r for r in map(json.loads, (out / release.FAILURES).read_text().splitlines())}
    assert failures["escaneo"]["error"] == "no text layer: scanned PDF? run OCR first"
    assert "encrypted" in failures["cifrado"]["error"]
    said = "\n".join(summary.report)
    assert "escaneo.pdf: no text layer" in said and "cifrado.pdf: the PDF is encrypted" in said


def write_csv(path: Path, rows: list[list[str]], delimiter: str = ",", terminator: str = "\n") -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, delimiter=delimiter, lineterminator=terminator).writerows(rows)


def read_csv(path: Path, delimiter: str = ",") -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter=delimiter))


EXPORT = [
    ["episodio", "servicio", "nota", "fecha_alta"],
    ["E-1", "Cardiología", NOTE, "2018-07-20"],
    ["E-2", "Urgencias", "Paciente estable.\nTel: 976 555 444; revisar.", "2018-07-21"],
    ["E-3", "Urgencias", "fila rota", "x", "una celda de más: Lucía Ferrer"],
    ["2347865", "Medicina", "NHC: 2347865. Alta.", "2018-07-22"],
]


def test_a_csv_export_comes_out_as_the_same_table_with_its_notes_de_identified(tmp_path):
    src = tmp_path / "export.csv"
    write_csv(src, EXPORT, delimiter=";", terminator="\r\n")
    out = tmp_path / "out"
    summary = run(src, out, text_column="nota", id_column="episodio")
    assert (summary.released, summary.failed, summary.held) == (2, 1, 1)
    data = (out / "export.csv").read_bytes()
    assert data.count(b"\r\n") >= 5 and b";" in data.split(b"\r\n")[0]
    rows = read_csv(out / "export.csv", ";")
    assert rows[0] == EXPORT[0] and len(rows) == len(EXPORT)
    assert [r[0] for r in rows[1:]] == ["E-1", "E-2", "", "2347865"]
    assert rows[1][1] == "Cardiología" and rows[1][3] == "2018-07-20"
    assert rows[1][2].startswith("NHC: ") and "2347865" not in rows[1][2] and "lferrer" not in rows[1][2]
    assert rows[2][2].startswith("Paciente estable.\nTel: ") and "976 555 444" not in rows[2][2]
    assert rows[3] == ["", "", "", ""]  # the broken row: nothing of it, never its text
    assert rows[4][2] == "" and rows[4][1] == "Medicina"  # held (its id spells its NHC)
    assert "Lucía" not in data.decode("utf-8")
    entries = {e["note"]: e for e in manifest(out)}
    assert entries["E-1"]["status"] == "released" and entries["2347865"]["status"] == "held"
    assert (out / release.QUARANTINE / "2347865.txt").is_file()
    failure = json.loads((out / release.FAILURES).read_text())
    assert failure["note"] == "export-3" and failure["error"] == "5 cell(s) where the header has 4"
    assert failure["input_line"] == 3
    assert any("export.csv: row 3" in line for line in summary.report)


def test_a_table_run_resumed_after_a_stop_gives_the_same_table(tmp_path):
    src = tmp_path / "export.tsv"
    write_csv(src, EXPORT, delimiter="\t")
    whole = tmp_path / "whole"
    run(src, whole, text_column="nota", id_column="episodio")
    part = tmp_path / "part"
    stopped = run(src, part, text_column="nota", id_column="episodio", fail_fast=True)
    assert stopped.notes == 3  # stopped at the broken row
    run(src, part, text_column="nota", id_column="episodio", resume=True)
    assert (part / "export.tsv").read_bytes() == (whole / "export.tsv").read_bytes()
    assert (part / "export.tsv").read_bytes().split(b"\n")[0] == b"episodio\tservicio\tnota\tfecha_alta"


def test_the_text_column_is_required_checked_and_the_columns_listed(tmp_path):
    src = tmp_path / "export.csv"
    write_csv(src, EXPORT[:2])
    with pytest.raises(InputError, match="needs --text-column") as caught:
        run(src, tmp_path / "a")
    assert "episodio, servicio, nota, fecha_alta" in str(caught.value)
    with pytest.raises(InputError, match="no column 'texto'") as caught:
        run(src, tmp_path / "b", text_column="texto")
    assert "'nota'" in str(caught.value) and str(src) in str(caught.value)
    with pytest.raises(InputError, match="no column 'id'"):
        run(src, tmp_path / "c", text_column="nota", id_column="id")
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "nota.txt").write_text("NHC: 2347865.\n", encoding="utf-8")
    write_csv(folder / "index.csv", EXPORT[:2])
    summary = run(folder, tmp_path / "d")
    assert summary.released == 1
    assert any("index.csv: a table: pass --text-column" in x for x in summary.report)


def test_without_an_id_column_rows_are_named_by_number_and_the_cli_says_so(tmp_path, capsys):
    src = tmp_path / "notas.csv"
    write_csv(src, [["texto"], ["Tel: 976 123 456."], ["Sin datos."]])
    out = tmp_path / "out"
    assert main(["deidentify", str(src), "-o", str(out), "--rules-only", "--seed", "1",
                 "--text-column", "texto"]) == 0
    assert [e["note"] for e in manifest(out)] == ["notas-1", "notas-2"]
    assert read_csv(out / "notas.csv")[2] == ["Sin datos."]
    assert main(["deidentify", str(src), "-o", str(tmp_path / "o2"), "--rules-only", "--seed", "1"]) == 2
    assert "needs --text-column" in capsys.readouterr().err


def test_parquet_tables_round_trip(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "export.parquet"
    table = pa.table({"episodio": [1, 2, 3], "nota": [NOTE, None, "Sin datos."],
                      "peso": [70.5, 80.0, None]})
    pq.write_table(table, src)
    out = tmp_path / "out"
    summary = run(src, out, text_column="nota", id_column="episodio")
    assert summary.exit_status == 0 and summary.released == 3
    result = pq.read_table(out / "export.parquet")
    assert result.column_names == ["episodio", "nota", "peso"]
    assert result.column("episodio").to_pylist() == [1, 2, 3]
    assert result.column("peso").to_pylist() == [70.5, 80.0, None]
    notes = result.column("nota").to_pylist()
    assert notes[0].startswith("NHC: ") and "2347865" not in notes[0] and notes[1:] == [None, "Sin datos."]


def test_workers_give_the_same_files_for_every_format(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    letter(src / "carta.docx")
    (src / "informe.pdf").write_bytes(text_pdf([[NOTE]]))
    write_csv(src / "export.csv", EXPORT)
    one, two = tmp_path / "one", tmp_path / "two"
    run(src, one, text_column="nota", id_column="episodio")
    run(src, two, text_column="nota", id_column="episodio", jobs=2)
    files = sorted(p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file())
    for rel in files:
        if rel != ".crfdeid-output":
            assert (one / rel).read_bytes() == (two / rel).read_bytes(), rel
    assert io.BytesIO((one / "carta.docx").read_bytes()).getvalue()[:2] == b"PK"
