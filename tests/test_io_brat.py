"""BRAT standoff reading and writing."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from crfdeid.errors import AnnotationError, OutputError
from crfdeid.io.brat import format_ann, parse_ann, read_brat, write_brat
from crfdeid.types import Document, Span

NOTE = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\nNHC: 368503.\n"
# offsets in NOTE: Ernesto 8-15, Rivera 28-34, Bueno 35-40, 368503 47-53
NAME = "NOMBRE_SUJETO_ASISTENCIA"
_WS = re.compile(r"\s")


def write_pair(folder: Path, name: str, text: str, ann: str | None) -> Path:
    txt = folder / f"{name}.txt"
    txt.write_bytes(text.encode("utf-8"))
    if ann is not None:
        (folder / f"{name}.ann").write_bytes(ann.encode("utf-8"))
    return txt


def test_reads_t_lines(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE,
                     f"T1\t{NAME} 8 15\tErnesto\nT2\tID_SUJETO_ASISTENCIA 47 53\t368503\n")
    doc = read_brat(txt)
    assert doc.id == "caso"
    assert doc.text == NOTE
    assert doc.spans == (Span(8, 15, NAME), Span(47, 53, "ID_SUJETO_ASISTENCIA"))
    assert [doc.span_text(s) for s in doc.spans] == ["Ernesto", "368503"]
    assert doc.metadata["brat_ignored"] == 0
    assert doc.metadata["ann_path"] == str(tmp_path / "caso.ann")


def test_source_is_passed_to_spans(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE, f"T1\t{NAME} 8 15\tErnesto\n")
    assert read_brat(txt, source="crf").spans == (Span(8, 15, NAME, source="crf"),)


def test_multi_fragment_offsets(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE, f"T1\t{NAME} 28 34;35 40\tRivera Bueno\n")
    doc = read_brat(txt)
    assert doc.spans == (Span(28, 40, NAME, fragments=((28, 34), (35, 40))),)
    assert doc.span_text(doc.spans[0]) == "Rivera Bueno"


def test_multi_fragment_text_column_is_fragments_joined_by_a_space(tmp_path: Path) -> None:
    text = "Calle del Abedul, 5"
    # fragments 'Calle' (0-5) and 'Abedul' (10-16): the text column must be 'Calle Abedul'
    txt = write_pair(tmp_path, "caso", text, "T1\tCALLE 0 5;10 16\tCalle Abedul\n")
    assert read_brat(txt).spans[0].parts == ((0, 5), (10, 16))
    txt = write_pair(tmp_path, "caso", text, "T1\tCALLE 0 5;10 16\tCalle del Abedul\n")
    with pytest.raises(AnnotationError, match="Calle Abedul"):
        read_brat(txt)


def test_line_break_inside_span_is_written_as_space_in_ann(tmp_path: Path) -> None:
    text = "Vive en Calle\nMayor 3."
    txt = write_pair(tmp_path, "caso", text, "T1\tCALLE 8 19\tCalle Mayor\n")
    assert read_brat(txt).spans == (Span(8, 19, "CALLE"),)


def test_text_column_is_optional(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE, f"T1\t{NAME} 8 15\n")
    assert read_brat(txt).spans == (Span(8, 15, NAME),)


def test_notes_relations_attributes_are_ignored_and_counted(tmp_path: Path) -> None:
    ann = (
        f"T1\t{NAME} 8 15\tErnesto\n"
        "#1\tAnnotatorNotes T1\tx\n"
        "R1\tRelacion Arg1:T1 Arg2:T2\n"
        "A1\tNegado T1\n"
        "\n"
        f"T2\t{NAME} 28 34\tRivera\n"
        "M1\tConfianza T2 Alta\n"
        "N1\tReference T1 Wikipedia:1\tErnesto\n"
        "*\tAlias T1 T2\n"
        "E1\tEvento:T1\n"
    )
    txt = write_pair(tmp_path, "caso", NOTE, ann)
    doc = read_brat(txt)
    assert doc.spans == (Span(8, 15, NAME), Span(28, 34, NAME))
    assert doc.metadata["brat_ignored"] == 7


def test_text_mismatch_names_file_and_line(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE,
                     f"T1\t{NAME} 8 15\tErnesto\n\nT2\t{NAME} 28 34\tRivero\n")
    with pytest.raises(AnnotationError) as info:
        read_brat(txt)
    message = str(info.value)
    assert "caso.ann:3" in message
    assert "Rivero" in message and "Rivera" in message
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (f"T1 {NAME} 8 15 Ernesto", "tab-separated"),  # no tabs at all
        (f"T1\t{NAME} 8 x\tErnesto", "cannot read label and offsets"),  # non-integer offset
        (f"T1\t{NAME} 8\tErnesto", "cannot read label and offsets"),  # one offset only
        (f"T1\t{NAME}\tErnesto", "cannot read label and offsets"),  # no offsets
        (f"T1\t{NAME} 8 15;\tErnesto", "cannot read label and offsets"),  # dangling ';'
        ("T1\t 8 15\tErnesto", "cannot read label and offsets"),  # no label
        (f"T1\t{NAME} 15 8\tErnesto", "empty or reversed"),
        (f"T1\t{NAME} 8 8\t", "empty or reversed"),
        (f"T1\t{NAME} 50 99\t368503.", "past the end"),
        (f"T1\t{NAME} 28 34;30 40\tRivera vera Bueno", "ordered"),  # overlapping fragments
        ("X1\tfoo", "unrecognised BRAT line"),  # unknown line type
        (" T1\tNOMBRE 8 15\tErnesto", "unrecognised BRAT line"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path: Path, line: str, fragment: str) -> None:
    txt = write_pair(tmp_path, "caso", NOTE, f"T9\t{NAME} 47 53\t368503\n{line}\n")
    with pytest.raises(AnnotationError, match=fragment) as info:
        read_brat(txt)
    assert f"{tmp_path / 'caso.ann'}:2: " in str(info.value)


def test_duplicate_t_id(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE,
                     f"T1\t{NAME} 8 15\tErnesto\nT1\t{NAME} 28 34\tRivera\n")
    with pytest.raises(AnnotationError, match="T1 is used twice") as info:
        read_brat(txt)
    assert "caso.ann:2" in str(info.value)


def test_missing_ann_means_no_spans(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE, None)
    doc = read_brat(txt)
    assert doc.spans == ()
    assert doc.text == NOTE
    assert doc.metadata["brat_ignored"] == 0


def test_explicit_ann_path_and_supplied_text(tmp_path: Path) -> None:
    ann = tmp_path / "otro.ann"
    ann.write_text(f"T1\t{NAME} 8 15\tErnesto\n", encoding="utf-8")
    doc = read_brat(tmp_path / "caso.txt", ann, text=NOTE)  # caso.txt does not exist
    assert (doc.id, doc.text, doc.spans) == ("caso", NOTE, (Span(8, 15, NAME),))


def test_crlf_text_keeps_crlf_and_offsets_stay_exact(tmp_path: Path) -> None:
    text = NOTE.replace("\n", "\r\n")
    # each earlier line adds one '\r': Rivera moves from 28 to 29, 368503 from 47 to 49
    ann = f"T1\t{NAME} 29 35\tRivera\r\nT2\tID_SUJETO_ASISTENCIA 49 55\t368503\r\n"
    txt = write_pair(tmp_path, "caso", text, ann)
    doc = read_brat(txt)
    assert doc.text == text
    assert "\r\n" in doc.text
    assert [doc.span_text(s) for s in doc.spans] == ["Rivera", "368503"]
    assert doc.spans[1] == Span(49, 55, "ID_SUJETO_ASISTENCIA")


def test_crlf_text_with_lf_offsets_is_rejected(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "caso", NOTE.replace("\n", "\r\n"), f"T1\t{NAME} 28 34\tRivera\n")
    with pytest.raises(AnnotationError, match=r"caso\.ann:1"):
        read_brat(txt)


def test_bom_counts_in_offsets(tmp_path: Path) -> None:
    text = "\ufeff" + NOTE
    txt = write_pair(tmp_path, "caso", text, f"T1\t{NAME} 9 16\tErnesto\n")
    doc = read_brat(txt)
    assert doc.text.startswith("\ufeff")
    assert doc.span_text(doc.spans[0]) == "Ernesto"
    write_pair(tmp_path, "caso", text, f"T1\t{NAME} 8 15\tErnesto\n")
    with pytest.raises(AnnotationError):
        read_brat(txt)


def test_unicode_line_separators_inside_text_do_not_split_ann_lines(tmp_path: Path) -> None:
    text = "Nombre: Ana\u2028María.\n"
    txt = write_pair(tmp_path, "caso", text, f"T1\t{NAME} 8 17\tAna\u2028María\n")
    assert read_brat(txt).spans == (Span(8, 17, NAME),)


def test_parse_ann_returns_ignored_count() -> None:
    spans, ignored = parse_ann(f"#1\tAnnotatorNotes T1\tx\nT1\t{NAME} 8 15\tErnesto\n", NOTE)
    assert spans == [Span(8, 15, NAME)]
    assert ignored == 1


def test_format_ann() -> None:
    doc = Document("caso", "Calle\nMayor 3, Ana", (
        Span(0, 11, "CALLE"),
        Span(0, 18, "X", fragments=((0, 5), (15, 18))),
    ))
    assert format_ann(doc) == "T1\tCALLE 0 11\tCalle Mayor\nT2\tX 0 5;15 18\tCalle Ana\n"
    assert format_ann(Document("vacio", "")) == ""


# --- round trip and atomic writes -------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_round_trip(tmp_path: Path, newline: str, bom: str) -> None:
    text = bom + NOTE.replace("\n", newline)
    shift = len(bom)
    crlf = 1 if newline == "\r\n" else 0
    r, b = 28 + shift + crlf, 35 + shift + crlf
    ann = (f"T1\t{NAME} {8 + shift} {15 + shift}\tErnesto\n"
           f"#1\tAnnotatorNotes T1\tprueba\n"
           f"T2\t{NAME} {r} {r + 6};{b} {b + 5}\tRivera Bueno\n")
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.mkdir()
    original = read_brat(write_pair(src, "caso", text, ann))
    assert len(original.spans) == 2

    ann_path = write_brat(original, dst)
    assert ann_path == dst / "caso.ann"
    assert (dst / "caso.txt").read_bytes() == (src / "caso.txt").read_bytes()
    again = read_brat(dst / "caso.txt")
    assert again == original
    assert again.spans == original.spans
    assert sorted(os.listdir(dst)) == ["caso.ann", "caso.txt"]  # no leftover temp files


def test_write_without_text(tmp_path: Path) -> None:
    doc = Document("caso", NOTE, (Span(8, 15, NAME, source="crf"),))
    write_brat(doc, tmp_path, write_text=False)
    assert os.listdir(tmp_path) == ["caso.ann"]
    assert (tmp_path / "caso.ann").read_text(encoding="utf-8") == f"T1\t{NAME} 8 15\tErnesto\n"


def test_write_overwrites_previous_output(tmp_path: Path) -> None:
    write_brat(Document("caso", NOTE, (Span(8, 15, NAME),)), tmp_path)
    write_brat(Document("caso", NOTE, (Span(28, 34, NAME),)), tmp_path)
    assert read_brat(tmp_path / "caso.txt").spans == (Span(28, 34, NAME),)
    assert sorted(os.listdir(tmp_path)) == ["caso.ann", "caso.txt"]


def test_write_failure_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = Document("caso", NOTE, (Span(8, 15, NAME),))
    calls = []

    def failing_replace(src: str, dst: str) -> None:
        calls.append(src)
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OutputError, match="cannot write") as info:
        write_brat(doc, tmp_path)
    assert calls, "os.replace was not used"
    assert os.listdir(tmp_path) == []  # target not created, temp file removed
    assert str(tmp_path) in str(info.value)


def test_write_failure_keeps_existing_ann(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = Document("caso", NOTE, (Span(8, 15, NAME),))
    write_brat(old, tmp_path)
    before = (tmp_path / "caso.ann").read_bytes()

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OutputError):
        write_brat(old.with_spans([Span(28, 34, NAME)]), tmp_path, write_text=False)
    assert (tmp_path / "caso.ann").read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["caso.ann", "caso.txt"]


# --- real data --------------------------------------------------------------------------------


def test_read_all_meddocan(meddocan_dir: Path) -> None:
    """Every train+dev document reads without error and every span matches its .txt slice."""
    errors: list[str] = []
    n_docs = n_spans = 0
    for part in ("train", "dev"):
        folder = meddocan_dir / part
        if not folder.is_dir():
            continue
        for txt in sorted(folder.glob("*.txt")):
            try:
                doc = read_brat(txt)
            except Exception as exc:  # collect them all, then fail once with the list
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            n_docs += 1
            raw = txt.read_bytes().decode("utf-8")  # independent of read_text
            assert doc.text == raw, txt
            ann = txt.with_suffix(".ann").read_bytes().decode("utf-8")
            recorded = [line.rstrip("\r").split("\t", 2)[2]
                        for line in ann.split("\n") if line.startswith("T")]
            assert len(recorded) == len(doc.spans), txt
            for span, expected in zip(doc.spans, recorded, strict=True):
                n_spans += 1
                covered = " ".join(raw[s:e] for s, e in span.parts)
                # BRAT writes line breaks inside a span as spaces
                if _WS.sub(" ", covered) != _WS.sub(" ", expected):
                    errors.append(f"{txt.name}: {span} covers {covered!r}, .ann says {expected!r}")
    assert errors == []
    assert n_docs > 0, f"no .txt files under {meddocan_dir}/train or /dev"
    assert n_spans > 0


def test_bom_at_start_of_ann_is_ignored(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "n", "Nombre: Ana.\n", "\ufeffT1\tNOMBRE_SUJETO_ASISTENCIA 8 11\tAna\n")
    assert [s.key() for s in read_brat(txt).spans] == [(8, 11, "NOMBRE_SUJETO_ASISTENCIA")]


def test_non_ascii_digits_are_not_offsets(tmp_path: Path) -> None:
    txt = write_pair(tmp_path, "n", "Nombre: Ana.\n", "T1\tNOMBRE_SUJETO_ASISTENCIA ٨ 11\tAna\n")
    with pytest.raises(AnnotationError, match=r"n\.ann:1"):
        read_brat(txt)
