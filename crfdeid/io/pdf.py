"""PDF notes: the text layer, read with pypdf; the de-identified note is written as text.

A PDF is not rewritten in place: its text is drawn glyph by glyph at positions, often in pieces
and with fonts that hold only the glyphs used, so a surrogate cannot be put where a name was
reliably — and an unreliable rewrite that leaves the original glyphs behind would leak what it
claims to remove. The note comes out as ``NAME.txt`` (or in ``deidentified.jsonl``), its pages
joined by ``"\\n"`` in the order pypdf extracts them.

A PDF without a text layer (a scan: pictures of pages) has no text to de-identify, and an
encrypted one cannot be read: both fail with a clear error naming the file, never an empty note.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

from ..errors import InputError


def pdf_text(data: bytes, path: str | Path) -> str:
    """The text layer of a PDF, pages joined by ``"\\n"``."""
    try:
        from pypdf import PdfReader
    except ImportError:
        raise InputError("reading .pdf needs pypdf", path, hint="pip install 'crfdeid[formats]'") from None
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError("not a PDF file (no %PDF- header)", path)
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about odd files are no errors
    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
    except Exception as exc:  # pypdf raises many kinds on a damaged file
        raise InputError(f"not a readable PDF ({type(exc).__name__}: {exc})", path) from None
    if encrypted:
        try:  # an owner password alone (printing, copying restricted) leaves the text readable
            readable = bool(reader.decrypt(""))
        except Exception:
            readable = False
        if not readable:
            raise InputError("the PDF is encrypted (password-protected), so its text cannot be read", path,
                             hint="remove the password (e.g. qpdf --decrypt --password=… in.pdf out.pdf) "
                                  "and retry")
    try:
        pages = [page.extract_text() or "" for page in reader.pages]
    except Exception as exc:
        raise InputError(f"cannot extract the text ({type(exc).__name__}: {exc})", path) from None
    if not any(page.strip() for page in pages):
        raise InputError("no text layer: scanned PDF? run OCR first", path,
                         hint="a PDF of page images has no text to de-identify; OCR it (e.g. ocrmypdf) "
                              "and check the result before de-identifying")
    return "\n".join(pages)
