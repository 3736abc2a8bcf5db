"""PDF notes: the text layer is read; a scan, an encrypted file and junk fail with clear errors.

The text-layer fixture is a minimal PDF written by hand (``text_pdf``): one Helvetica text object
per line, WinAnsi-encoded so accented letters survive. pypdf can encrypt and add blank pages but
not draw text, and a hand-written file keeps a PDF library (reportlab) out of the dependencies.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pypdf = pytest.importorskip("pypdf")

from crfdeid.errors import InputError  # noqa: E402
from crfdeid.io.pdf import pdf_text  # noqa: E402


def _literal(line: str) -> bytes:
    raw = line.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def text_pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose pages show these lines of text (a real text layer, as a word processor writes)."""
    objects: list[bytes] = []
    font_id = 3 + 2 * len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    for i, lines in enumerate(pages):
        shown = b" ".join(_literal(line) + b" '" for line in lines)
        content = b"BT /F1 12 Tf 72 760 Td 14 TL " + shown + b" ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def encrypted_pdf(password: str = "secreto") -> bytes:
    reader = pypdf.PdfReader(io.BytesIO(text_pdf([["Paciente: Lucía Ferrer"]])))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt(password, algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def scanned_pdf() -> bytes:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(612, 792)
    writer.add_blank_page(612, 792)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_the_text_layer_is_read_page_by_page():
    data = text_pdf([["Paciente: Lucía Ferrer (52 años)", "NHC: 2347865"], ["Dr. Tomás Arregui"]])
    text = pdf_text(data, "informe.pdf")
    assert "Lucía Ferrer (52 años)" in text and "NHC: 2347865" in text and "Tomás Arregui" in text
    assert text.index("Ferrer") < text.index("Arregui")  # pages in order


def test_a_scan_without_a_text_layer_is_refused_naming_the_file():
    with pytest.raises(InputError, match="no text layer: scanned PDF\\? run OCR first") as caught:
        pdf_text(scanned_pdf(), "escaneo.pdf")
    assert str(caught.value).startswith("escaneo.pdf: ")


def test_an_encrypted_pdf_is_refused_but_an_owner_password_alone_is_read():
    with pytest.raises(InputError, match="encrypted") as caught:
        pdf_text(encrypted_pdf(), "cifrado.pdf")
    assert "cifrado.pdf" in str(caught.value) and "secreto" not in str(caught.value)
    reader = pypdf.PdfReader(io.BytesIO(text_pdf([["Paciente: Lucía Ferrer"]])))
    writer = pypdf.PdfWriter()
    writer.add_page(reader.pages[0])
    writer.encrypt(user_password="", owner_password="propietario", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    assert "Lucía Ferrer" in pdf_text(buffer.getvalue(), "restringido.pdf")


def test_junk_and_truncated_files_are_refused():
    with pytest.raises(InputError, match="not a PDF file"):
        pdf_text(b"hello", "x.pdf")
    with pytest.raises(InputError, match=r"not a readable PDF|no text layer|cannot extract"):
        pdf_text(b"%PDF-1.4\n1 0 obj\n<<", "cut.pdf")


@settings(max_examples=60, deadline=None)
@given(junk=st.binary(max_size=400), prefix=st.sampled_from([b"", b"%PDF-1.4\n", b"%PDF-1.7\n1 0 obj\n"]))
def test_junk_never_crashes_the_reader(junk, prefix):
    try:
        assert isinstance(pdf_text(prefix + junk, "junk.pdf"), str)
    except InputError as exc:
        assert "junk.pdf" in str(exc)
