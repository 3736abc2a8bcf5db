"""Finding and loading documents from files and folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crfdeid.errors import AnnotationError, InputError
from crfdeid.io.corpus import find_inputs, iter_documents, load_annotations, load_corpus
from crfdeid.types import Span

NOTE_A = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\n"  # Ernesto 8-15, Rivera 28-34
NOTE_B = "NHC: 368503.\nSexo: H.\n"  # 368503 5-11
NAME = "NOMBRE_SUJETO_ASISTENCIA"


def write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8"))
    return path


def jsonl(*docs: dict) -> str:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with .txt/.ann pairs, a .jsonl, unrelated files and a subfolder."""
    root = tmp_path / "notas"
    write(root / "b.txt", NOTE_B)
    write(root / "a.txt", NOTE_A)
    write(root / "a.ann", f"T1\t{NAME} 8 15\tErnesto\n")
    write(root / "c.jsonl", jsonl({"id": "c1", "text": "Ana", "spans": [
        {"start": 0, "end": 3, "label": NAME}]}))
    write(root / "README.md", "# notas\n")
    write(root / "a.txt.bak", "viejo")
    write(root / "sub" / "d.txt", "no recursivo")
    (root / "vacia.txt").mkdir()  # a folder named like a text file is not an input
    return root


def test_find_inputs_in_folder(folder: Path) -> None:
    found = find_inputs([folder])
    assert [p.name for p in found] == ["a.txt", "b.txt", "c.jsonl"]
    assert all(p.is_absolute() for p in found)


def test_find_inputs_with_custom_suffixes(folder: Path) -> None:
    assert [p.name for p in find_inputs([folder], suffixes=(".ann",))] == ["a.ann"]


def test_find_inputs_deduplicates_and_keeps_order(folder: Path) -> None:
    found = find_inputs([folder / "b.txt", folder, folder / "a.txt"])
    assert [p.name for p in found] == ["b.txt", "a.txt", "c.jsonl"]


@pytest.mark.parametrize("name", ["a.ann", "README.md", "a.txt.bak"])
def test_find_inputs_unsupported_file_type(folder: Path, name: str) -> None:
    with pytest.raises(InputError, match="unsupported file type") as info:
        find_inputs([folder / name])
    assert Path(name).suffix in str(info.value)
    assert str(folder / name) in str(info.value)


def test_find_inputs_file_without_suffix(tmp_path: Path) -> None:
    write(tmp_path / "nota", "x")
    with pytest.raises(InputError, match=r"'\(none\)'"):
        find_inputs([tmp_path / "nota"])


def test_find_inputs_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or folder") as info:
        find_inputs([tmp_path / "no-existe"])
    assert str(tmp_path / "no-existe") in str(info.value)


def test_iter_documents_reads_brat_and_jsonl(folder: Path) -> None:
    docs = list(iter_documents([folder], source="crf"))
    assert [d.id for d in docs] == ["a", "b", "c1"]
    a, b, c1 = docs
    assert a.spans == (Span(8, 15, NAME, source="crf"),)
    assert b.spans == ()
    assert b.text == NOTE_B
    assert c1.spans == (Span(0, 3, NAME),)  # .jsonl spans carry their own source


def test_load_corpus(folder: Path) -> None:
    corpus = load_corpus([folder])
    assert sorted(corpus) == ["a", "b", "c1"]
    assert corpus["a"].text == NOTE_A


def test_load_corpus_duplicate_id(tmp_path: Path) -> None:
    first = write(tmp_path / "uno" / "caso.txt", NOTE_A)
    second = write(tmp_path / "dos" / "caso.txt", NOTE_B)
    with pytest.raises(InputError, match="'caso' appears twice") as info:
        load_corpus([first.parent, second.parent])
    message = str(info.value)
    assert str(first) in message and str(second) in message


def test_load_corpus_duplicate_id_between_txt_and_jsonl(tmp_path: Path) -> None:
    write(tmp_path / "caso.txt", NOTE_A)
    write(tmp_path / "otros.jsonl", jsonl({"id": "caso", "text": NOTE_B}))
    with pytest.raises(InputError, match="'caso' appears twice"):
        load_corpus([tmp_path])


def test_load_corpus_propagates_annotation_errors(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", NOTE_A)
    write(tmp_path / "a.ann", f"T1\t{NAME} 8 15\tErnestx\n")
    with pytest.raises(AnnotationError, match=r"a\.ann:1"):
        load_corpus([tmp_path])


# --- load_annotations ---------------------------------------------------------------------------


def test_load_annotations_gold_folder(folder: Path) -> None:
    docs = load_annotations(folder)
    assert sorted(docs) == ["a"]  # only .ann files count; b.txt has none
    assert docs["a"].spans == (Span(8, 15, NAME),)


def test_load_annotations_gold_ann_without_txt(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", NOTE_A)
    write(tmp_path / "a.ann", f"T1\t{NAME} 8 15\tErnesto\n")
    orphan = write(tmp_path / "b.ann", "T1\tID_SUJETO_ASISTENCIA 5 11\t368503\n")
    with pytest.raises(InputError, match=r"no \.txt beside it") as info:
        load_annotations(tmp_path)
    assert str(orphan) in str(info.value)


def test_load_annotations_system_folder_uses_provided_texts(tmp_path: Path) -> None:
    write(tmp_path / "a.ann", f"T1\t{NAME} 28 34\tRivera\n#1\tAnnotatorNotes T1\tx\n")
    write(tmp_path / "b.ann", "T1\tID_SUJETO_ASISTENCIA 5 11\t368503\n")
    write(tmp_path / "zzz.ann", f"T1\t{NAME} 0 3\tAna\n")  # neither .txt nor a known id
    texts = {"a": NOTE_A, "b": NOTE_B}
    docs = load_annotations(tmp_path, texts, source="crf")
    assert sorted(docs) == ["a", "b"]
    assert docs["a"].text == NOTE_A
    assert docs["a"].spans == (Span(28, 34, NAME, source="crf"),)
    assert docs["a"].metadata["brat_ignored"] == 1
    assert docs["b"].spans == (Span(5, 11, "ID_SUJETO_ASISTENCIA", source="crf"),)


def test_load_annotations_system_ann_checked_against_provided_text(tmp_path: Path) -> None:
    write(tmp_path / "a.ann", f"T1\t{NAME} 28 34\tRivero\n")
    with pytest.raises(AnnotationError, match=r"a\.ann:1"):
        load_annotations(tmp_path, {"a": NOTE_A})


def test_load_annotations_system_folder_prefers_its_own_txt(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", NOTE_A)
    write(tmp_path / "a.ann", f"T1\t{NAME} 8 15\tErnesto\n")
    docs = load_annotations(tmp_path, {"a": "otro texto distinto"})
    assert docs["a"].text == NOTE_A


def test_load_annotations_jsonl_file(tmp_path: Path) -> None:
    path = write(tmp_path / "gold.jsonl", jsonl(
        {"id": "a", "text": NOTE_A, "spans": [{"start": 8, "end": 15, "label": NAME}]},
        {"id": "b", "text": NOTE_B}))
    docs = load_annotations(path)
    assert sorted(docs) == ["a", "b"]
    assert docs["a"].spans == (Span(8, 15, NAME),)


def test_load_annotations_folder_of_jsonl(tmp_path: Path) -> None:
    write(tmp_path / "uno.jsonl", jsonl({"id": "a", "text": NOTE_A}))
    write(tmp_path / "dos.jsonl", jsonl({"id": "b", "text": NOTE_B}))
    assert sorted(load_annotations(tmp_path)) == ["a", "b"]


def test_load_annotations_folder_of_jsonl_duplicate_id(tmp_path: Path) -> None:
    write(tmp_path / "uno.jsonl", jsonl({"id": "a", "text": NOTE_A}))
    write(tmp_path / "dos.jsonl", jsonl({"id": "a", "text": NOTE_B}))
    with pytest.raises(AnnotationError, match="'a' appears twice"):
        load_annotations(tmp_path)


@pytest.mark.parametrize("name", ["gold.txt", "no-existe"])
def test_load_annotations_needs_folder_or_jsonl(tmp_path: Path, name: str) -> None:
    if name.endswith(".txt"):
        write(tmp_path / name, NOTE_A)
    with pytest.raises(InputError, match=r"expected a folder of BRAT files or a \.jsonl file"):
        load_annotations(tmp_path / name)


def test_load_annotations_progress_sees_every_ann(tmp_path: Path) -> None:
    write(tmp_path / "b.txt", NOTE_B)
    write(tmp_path / "b.ann", "")
    write(tmp_path / "a.txt", NOTE_A)
    write(tmp_path / "a.ann", "")
    seen: list[list[str]] = []

    def progress(paths: list[Path]) -> list[Path]:
        seen.append([p.name for p in paths])
        return paths

    assert sorted(load_annotations(tmp_path, progress=progress)) == ["a", "b"]
    assert seen == [["a.ann", "b.ann"]]
