"""JSON Lines reading and writing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from crfdeid.errors import AnnotationError
from crfdeid.io.jsonl import document_to_json, read_jsonl, write_jsonl
from crfdeid.types import Document, Span

NOTE = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\nNHC: 368503.\n"
NAME = "NOMBRE_SUJETO_ASISTENCIA"


def write_lines(path: Path, *lines: object) -> Path:
    """Write one line per item: dicts are JSON-encoded, strings written as they are."""
    out = [json.dumps(x, ensure_ascii=False) if isinstance(x, dict) else str(x) for x in lines]
    path.write_bytes(("\n".join(out) + "\n").encode("utf-8"))
    return path


def doc_line(spans: list, doc_id: str = "caso-1", text: str = NOTE) -> dict:
    return {"id": doc_id, "text": text, "spans": spans}


def test_reads_minimal_spans_with_defaults(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl",
                       doc_line([{"start": 8, "end": 15, "label": NAME}]))
    (doc,) = list(read_jsonl(path))
    assert doc.id == "caso-1"
    assert doc.text == NOTE
    assert doc.spans == (Span(8, 15, NAME),)
    assert doc.spans[0].source == "gold"
    assert doc.spans[0].score is None
    assert doc.metadata["path"] == str(path)
    assert doc.metadata["line"] == 1


def test_reads_optional_span_keys(tmp_path: Path) -> None:
    spans = [
        {"start": 8, "end": 15, "label": NAME, "source": "crf", "score": 0.75,
         "text": "Ernesto"},
        {"start": 28, "end": 40, "label": NAME, "fragments": [[28, 34], [35, 40]]},
    ]
    path = write_lines(tmp_path / "notas.jsonl", doc_line(spans))
    (doc,) = list(read_jsonl(path))
    assert doc.spans == (
        Span(8, 15, NAME, source="crf", score=0.75),
        Span(28, 40, NAME, fragments=((28, 34), (35, 40))),
    )


def test_document_metadata_is_kept(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl",
                       {"id": "a", "text": "x", "metadata": {"servicio": "urgencias"}})
    (doc,) = list(read_jsonl(path))
    assert doc.metadata["servicio"] == "urgencias"
    assert doc.spans == ()


def test_missing_id_uses_file_stem_and_line(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl", {"text": "a"}, "", {"text": "b"})
    assert [d.id for d in read_jsonl(path)] == ["notas-1", "notas-3"]


def test_integer_id_becomes_string(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl", {"id": 7, "text": "a"})
    assert next(read_jsonl(path)).id == "7"


def test_blank_lines_are_skipped_and_lines_still_counted(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl", doc_line([], "a"), "", "   ", doc_line([], "b"))
    docs = list(read_jsonl(path))
    assert [(d.id, d.metadata["line"]) for d in docs] == [("a", 1), ("b", 4)]


def test_crlf_jsonl_file(tmp_path: Path) -> None:
    path = tmp_path / "notas.jsonl"
    lines = [json.dumps(doc_line([], "a")), json.dumps(doc_line([], "b"))]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    assert [d.id for d in read_jsonl(path)] == ["a", "b"]


@pytest.mark.parametrize(
    ("bad_line", "fragment"),
    [
        (doc_line([{"start": 8, "end": 15, "lable": NAME}]), "lable"),  # typo in a span key
        ({"id": "x", "txt": NOTE}, "unknown key"),  # typo in a document key
        ("{\"id\": \"x\", \"text\": ", "invalid JSON"),
        ("[1, 2]", "JSON object"),
        ({"id": "x"}, '"text" must be a string'),
        ({"id": ["x"], "text": "a"}, '"id" must be a string'),
        ({"id": "x", "text": "a", "spans": {}}, '"spans" must be a list'),
        ({"id": "x", "text": "a", "metadata": []}, '"metadata" must be an object'),
        (doc_line([[8, 15, NAME]]), "must be an object"),
        (doc_line([{"start": 8, "label": NAME}]), "lacks"),
        (doc_line([{"start": 8.0, "end": 15, "label": NAME}]), "integers"),
        (doc_line([{"start": 50, "end": 99, "label": NAME}]), "past the end"),
        (doc_line([{"start": 15, "end": 8, "label": NAME}]), "empty or negative"),
        (doc_line([{"start": 8, "end": 15, "label": "NOMBRE SUJETO"}]), "label"),
        (doc_line([{"start": 8, "end": 15, "label": NAME, "score": 1.5}]), "score"),
        (doc_line([{"start": 8, "end": 15, "label": NAME, "text": "Ernest"}]), "says 'Ernest'"),
        (doc_line([{"start": 28, "end": 40, "label": NAME, "fragments": [[28, 34]]}]),
         "two or more"),
        (doc_line([{"start": 28, "end": 40, "label": NAME, "fragments": [28, 40]}]), "span #0"),
    ],
)
def test_errors_name_file_and_line(tmp_path: Path, bad_line: object, fragment: str) -> None:
    path = write_lines(tmp_path / "notas.jsonl", doc_line([], "ok"), "", bad_line)
    with pytest.raises(AnnotationError, match=fragment) as info:
        list(read_jsonl(path))
    assert str(info.value).startswith(f"{path}:3: ")
    assert info.value.line == 3


def test_duplicate_document_ids(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "notas.jsonl", doc_line([], "a"), doc_line([], "b"),
                       doc_line([], "a"))
    docs = read_jsonl(path)
    assert next(docs).id == "a"
    assert next(docs).id == "b"
    with pytest.raises(AnnotationError, match="'a' appears twice") as info:
        next(docs)
    assert f"{path}:3" in str(info.value)


def test_round_trip(tmp_path: Path) -> None:
    docs = [
        Document("caso-1", NOTE, (
            Span(8, 15, NAME),
            Span(28, 40, NAME, source="crf", score=0.125, fragments=((28, 34), (35, 40))),
            Span(47, 53, "ID_SUJETO_ASISTENCIA", source="rule:nhc"),
        )),
        Document("caso-2", "\ufeffSexo: M\r\nEdad: 45 años\u2028fin\n", (
            Span(16, 23, "EDAD_SUJETO_ASISTENCIA", source="crf", score=1.0),)),
        Document("vacio", ""),
    ]
    path = write_jsonl(docs, tmp_path / "salida" / "notas.jsonl")
    assert path == tmp_path / "salida" / "notas.jsonl"
    assert os.listdir(path.parent) == ["notas.jsonl"]  # no leftover temp files
    raw = path.read_bytes()
    assert raw.count(b"\n") == 3  # one document per line; text newlines are escaped
    assert "años".encode() in raw  # written as UTF-8, not \u escapes
    assert list(read_jsonl(path)) == docs


def test_document_to_json_omits_defaults_and_can_add_text() -> None:
    doc = Document("caso-1", NOTE, (Span(8, 15, NAME),))
    assert document_to_json(doc) == {
        "id": "caso-1", "text": NOTE, "spans": [{"start": 8, "end": 15, "label": NAME}]}
    with_text = document_to_json(doc, with_text=True)
    assert with_text["spans"][0]["text"] == "Ernesto"


def test_bom_at_start_of_jsonl_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(doc_line([])).encode("utf-8") + b"\n")
    assert [d.id for d in read_jsonl(path)] == ["caso-1"]


@pytest.mark.parametrize("extra", [
    {"fragments": [[8, 9.5], [10, 15]]},
    {"fragments": [["8", "9"], ["10", "15"]]},
    {"fragments": "8 9;10 15"},
    {"score": True},
    {"score": "0.5"},
])
def test_span_types_are_strict(tmp_path: Path, extra: dict) -> None:
    span = {"start": 8, "end": 15, "label": NAME, **extra}
    path = write_lines(tmp_path / "c.jsonl", doc_line([span]))
    with pytest.raises(AnnotationError, match=r"c\.jsonl:1"):
        list(read_jsonl(path))


def test_text_of_a_discontinuous_span_is_its_fragments_joined_by_a_space(tmp_path: Path) -> None:
    # "Ernesto" = [8, 15); fragments "Ern" + "sto" are written "Ern sto", as BRAT does
    span = {"start": 8, "end": 15, "label": NAME, "fragments": [[8, 11], [12, 15]], "text": "Ern sto"}
    path = write_lines(tmp_path / "c.jsonl", doc_line([span]))
    (doc,) = read_jsonl(path)
    assert doc.span_text(doc.spans[0]) == "Ern sto"
    assert document_to_json(doc, with_text=True)["spans"][0]["text"] == "Ern sto"
