"""Word notes: the text a reader sees, replacements made inside runs, metadata cleared, refusals.

Fixtures are written here with python-docx (the ``formats`` extra), so no binary file is kept in
the repository; a property test splits texts into random runs and checks that every character a
replacement does not cover comes out exactly as it went in.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

docx = pytest.importorskip("docx")

from crfdeid.errors import InputError  # noqa: E402
from crfdeid.io.docx import docx_text, package_strings, read_docx, rewrite_docx  # noqa: E402


def save(document) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def letter() -> bytes:
    """A clinical letter: formatted runs, a table, a header and a footer, an author."""
    document = docx.Document()
    document.core_properties.author = "Dr. Tomás Arregui"
    document.core_properties.title = "Informe de Lucía Ferrer"
    paragraph = document.add_paragraph("Paciente: ")
    name = paragraph.add_run("Lucía")
    name.bold = True
    paragraph.add_run(" Ferrer\tGalindo, nacida el 14/07/1958.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "NHC"
    table.cell(0, 1).text = "2347865"
    document.add_paragraph("Seguimiento en consulta.")
    section = document.sections[0]
    section.header.paragraphs[0].text = "Hospital Miguel Servet - Dr. Arregui"
    section.footer.paragraphs[0].text = "Página 1"
    return save(document)


def test_the_text_is_the_paragraphs_tables_headers_and_footers_in_order():
    text = docx_text(letter(), "x.docx")
    assert text == ("Paciente: Lucía Ferrer\tGalindo, nacida el 14/07/1958.\nNHC\n2347865\n"
                    "Seguimiento en consulta.\nHospital Miguel Servet - Dr. Arregui\nPágina 1")


def test_replacements_are_made_inside_runs_and_keep_their_formatting():
    data = letter()
    text = docx_text(data, "x.docx")
    start, end = text.index("Lucía"), text.index("Galindo") + len("Galindo")
    nhc = text.index("2347865")
    head = text.index("Arregui")
    out = rewrite_docx(data, "x.docx", [(start, end, "Raquel Herrera Hernández"), (nhc, nhc + 7, "1739046"),
                                        (head, head + 7, "Izquierdo")])
    assert docx_text(out, "y.docx") == (
        "Paciente: Raquel Herrera Hernández\t, nacida el 14/07/1958.\nNHC\n1739046\n"
        "Seguimiento en consulta.\nHospital Miguel Servet - Dr. Izquierdo\nPágina 1")
    reread = docx.Document(io.BytesIO(out))
    runs = reread.paragraphs[0].runs
    assert [r.text for r in runs] == ["Paciente: ", "Raquel Herrera Hernández", "\t, nacida el 14/07/1958."]
    assert runs[1].bold and not runs[0].bold  # the surrogate took the first run's formatting
    assert reread.tables[0].cell(0, 1).text == "1739046"


def test_the_output_is_the_same_bytes_for_the_same_edits():
    data = letter()
    edits = [(10, 15, "Raquel")]
    assert rewrite_docx(data, "x.docx", edits) == rewrite_docx(data, "x.docx", edits)


def test_metadata_that_names_people_is_cleared_and_the_thumbnail_removed():
    data = letter()
    assert "Arregui" in package_strings(data)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "docProps/thumbnail.jpeg" in names  # python-docx's template carries one
    out = rewrite_docx(data, "x.docx", [])
    reread = docx.Document(io.BytesIO(out))
    assert reread.core_properties.author == "" and reread.core_properties.title == ""
    assert "docProps/thumbnail.jpeg" not in zipfile.ZipFile(io.BytesIO(out)).namelist()
    rels = zipfile.ZipFile(io.BytesIO(out)).read("_rels/.rels").decode("utf-8")
    assert "thumbnail" not in rels
    assert "Ferrer" not in package_strings(out)  # the title said it


def test_a_span_across_runs_puts_the_surrogate_in_the_first_and_empties_the_others():
    document = docx.Document()
    paragraph = document.add_paragraph()
    for piece in ("Dr. ", "Ig", "na", "cio", " Navarro", " firma."):
        paragraph.add_run(piece)
    data = save(document)
    text = docx_text(data, "x.docx")
    start, end = text.index("Ignacio"), text.index("Navarro") + len("Navarro")
    out = rewrite_docx(data, "x.docx", [(start, end, "Raúl Izquierdo")])
    assert [r.text for r in docx.Document(io.BytesIO(out)).paragraphs[0].runs] == [
        "Dr. ", "Raúl Izquierdo", "", "", "", " firma."]


def test_comments_and_their_authors_are_de_identified_too():
    document = docx.Document()
    paragraph = document.add_paragraph("Revisar con Lucía.")
    document.add_comment(paragraph.runs, text="Llamar a Lucía", author="Tomás Arregui", initials="TA")
    data = save(document)
    text = docx_text(data, "x.docx")
    assert text == "Revisar con Lucía.\nLlamar a Lucía"
    edits = [(i, i + 5, "Marta") for i in (text.index("Lucía"), text.rindex("Lucía"))]
    out = rewrite_docx(data, "x.docx", edits)
    assert docx_text(out, "y.docx") == "Revisar con Marta.\nLlamar a Marta"
    assert "Arregui" not in package_strings(out) and "TA" not in package_strings(out).split("\n")


def test_tracked_deletions_old_doc_and_junk_are_refused_naming_the_file():
    document = docx.Document()
    paragraph = document.add_paragraph("Texto")
    deleted = paragraph._p.makeelement(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}del", {})
    run = deleted.makeelement("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}r", {})
    text = run.makeelement("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}delText", {})
    text.text = "Lucía Ferrer"
    run.append(text)
    deleted.append(run)
    paragraph._p.append(deleted)
    with pytest.raises(InputError, match="tracked deletions") as caught:
        read_docx(save(document), "carta.docx")
    assert "carta.docx" in str(caught.value) and "Accept all" in str(caught.value)
    with pytest.raises(InputError, match=r"old Word \.doc or a password-protected \.docx"):
        read_docx(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "old.docx")
    with pytest.raises(InputError, match=r"not a \.docx file"):
        read_docx(b"hello", "junk.docx")
    with pytest.raises(InputError, match=r"not a readable \.docx|not a Word document"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            z.writestr("hello.txt", "x")
        read_docx(buffer.getvalue(), "zip.docx")


def test_tab_stops_of_a_paragraph_are_no_tab_characters():
    document = docx.Document()
    paragraph = document.add_paragraph("Nombre: Ana")
    paragraph.paragraph_format.tab_stops.add_tab_stop(docx.shared.Inches(1))
    assert docx_text(save(document), "x.docx") == "Nombre: Ana"


_WORD = st.text(st.sampled_from("abcdeñáé XYZ.,:0123"), min_size=1, max_size=8)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paragraphs=st.lists(st.lists(_WORD, min_size=1, max_size=5), min_size=1, max_size=3), data=st.data())
def test_every_character_outside_the_replacements_comes_out_unchanged(paragraphs, data):
    """Random runs, random non-overlapping replacements: the new text is the old text with
    exactly those replacements, and a run no replacement touches keeps its text byte for byte."""
    document = docx.Document()
    for runs in paragraphs:
        paragraph = document.add_paragraph()
        for run in runs:
            paragraph.add_run(run)
    source = save(document)
    text = docx_text(source, "x.docx")
    assert text == "\n".join("".join(runs) for runs in paragraphs)
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=6)))
    edits = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        if b > a and "\n" not in text[a:b]:
            edits.append((a, b, data.draw(st.text(st.sampled_from("QWRTZ ü"), max_size=6))))
    out = rewrite_docx(source, "x.docx", edits)
    expected = text
    for a, b, new in sorted(edits, reverse=True):
        expected = expected[:a] + new + expected[b:]
    assert docx_text(out, "y.docx") == expected
    at = 0
    untouched = []
    for runs in paragraphs:
        for run in runs:
            if not any(a < at + len(run) and at < b for a, b, _ in edits):
                untouched.append(run)
            at += len(run)
        at += 1
    written = [r.text for p in docx.Document(io.BytesIO(out)).paragraphs for r in p.runs]
    for run in untouched:
        assert run in written


@settings(max_examples=40, deadline=None)
@given(junk=st.binary(max_size=300), cut=st.integers(0, 4000))
def test_junk_and_truncated_packages_never_crash_the_reader(junk, cut):
    for data in (junk, b"PK\x03\x04" + junk, letter()[:cut] + junk):
        try:
            assert isinstance(docx_text(data, "junk.docx"), str)
        except InputError as exc:
            assert "junk.docx" in str(exc)
