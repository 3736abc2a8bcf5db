"""Word notes (.docx): the text a reader sees, and the same file with the replacements made in place.

**The text of a note** is its paragraphs joined by ``"\\n"``: the body first (table cells and text
boxes where they stand), then every header, footer, footnote, endnote and comment part (each part
once, however many sections share it), so PHI in a letterhead is de-identified like the rest.
Inside a paragraph the text of ``<w:t>`` elements is what replacements edit; a tab is ``"\\t"``, a
line break ``"\\n"``, a non-breaking hyphen ``"-"`` — fixed characters a replacement never removes.

**Replacements are made inside runs**, so formatting survives: the surrogate goes into the first
run a span touches and the covered text is removed from the others (a tab or break inside a span
stays where it was). Nothing else of the file changes but what is listed here; the zip is written
back entry by entry in the input's order with the input's timestamps, so the same note, key and
model give the same bytes.

**Metadata that holds names is cleared**: the document properties a person types or Word fills in
(author, last modified by, title, subject, keywords, comments, category, status, identifier; the
company and manager; custom properties), every ``author``/``initials``/``userId`` attribute
(comments, tracked insertions, the people list), images' alt text, and the thumbnail of the first
page, which is removed. Images themselves are copied unchanged: crfdeid reads text, not pictures.

**Refused** (the note fails with the reason, the others go on): a file that is not a .docx (an old
.doc, or a password-protected .docx, which Word stores as an encrypted container), and tracked
deletions — deleted text is still inside the file; accept or reject the changes first.

After replacement, every other string of the file (attributes, field codes, hyperlink targets) is
searched for the originals the note's text had; ``package_leftovers`` counts what is found, and
the note is held back like a note with a leftover in its text.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_P, _R, _T = f"{{{W}}}p", f"{{{W}}}r", f"{{{W}}}t"
#: Run children that are fixed characters of the text (python-docx reads them the same way).
_FIXED = {f"{{{W}}}tab": "\t", f"{{{W}}}ptab": "\t", f"{{{W}}}br": "\n", f"{{{W}}}cr": "\n",
          f"{{{W}}}noBreakHyphen": "-"}
_DELETED = (f"{{{W}}}delText", f"{{{W}}}delInstrText")
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_MAIN_TYPES = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
_WML = "application/vnd.openxmlformats-officedocument.wordprocessingml."
#: Parts whose paragraphs are text of the note, after the body, in this order.
_TEXT_PARTS = tuple(_WML + kind + "+xml"
                    for kind in ("header", "footer", "footnotes", "endnotes", "comments"))
_CORE = "application/vnd.openxmlformats-package.core-properties+xml"
_APP = "application/vnd.openxmlformats-officedocument.extended-properties+xml"
_CUSTOM = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
_THUMBNAIL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
#: Document properties (local names) that hold what a person typed or Word filled in.
_CORE_CLEARED = {"creator", "lastModifiedBy", "title", "subject", "keywords", "description", "category",
                 "contentStatus", "identifier"}
_APP_CLEARED = {"Company", "Manager", "HyperlinkBase"}
#: Attributes (local names) that name people, in any part.
_PEOPLE_ATTRIBUTES = {"author", "initials", "userId", "providerId"}
_ALT_TEXT = {"descr", "title"}
_CUSTOM_TEXT = {"lpwstr", "lpstr", "bstr"}
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass
class _Piece:
    """One run child of a paragraph: an editable ``<w:t>`` or a fixed character."""

    element: Any
    start: int  # offset in the note's text
    end: int
    editable: bool


@dataclass
class DocxNote:
    """A parsed .docx: its text, where each character came from, and the parts to write back."""

    text: str
    pieces: list[_Piece]
    parts: dict[str, Any]  # zip entry name -> root element of every XML part that may change
    removed: set[str]  # zip entry names left out of the output (the thumbnail)
    text_parts: list[tuple[str, Any]]  # the parts the text comes from, in order


def _open(data: bytes, path: str | Path) -> Any:
    try:
        import docx
    except ImportError:
        raise InputError("reading .docx needs python-docx", path,
                         hint="pip install 'crfdeid[formats]'") from None
    if data.startswith(_OLE_MAGIC):
        raise InputError("not a .docx but an old Word .doc or a password-protected .docx (both are "
                         "OLE containers)", path,
                         hint="remove the password, or save it as .docx (Word 2007 or later), and retry")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise InputError("not a .docx file (a .docx is a zip archive)", path)
    try:
        return docx.Document(io.BytesIO(data)).part.package
    except KeyError as exc:
        missing = str(exc.args[0] if exc.args else exc)
        raise InputError(f"not a readable .docx ({missing})", path) from None
    except Exception as exc:  # python-docx and lxml raise many kinds on a damaged package
        raise InputError(f"not a readable .docx ({type(exc).__name__}: {exc})", path) from None


def _root(part: Any) -> Any:
    """The XML root of a part: python-docx parses the parts it knows, the others are bytes."""
    element = getattr(part, "element", None)
    if element is not None:
        return element
    from lxml import etree

    return etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False, huge_tree=True))


def read_docx(data: bytes, path: str | Path) -> DocxNote:
    """Parse a .docx into its note text and the pieces that text came from."""
    package = _open(data, path)
    main, others, parts, removed = None, [], {}, set()
    for part in package.iter_parts():
        name = str(part.partname).lstrip("/")
        kind = part.content_type
        if kind in _MAIN_TYPES:
            main = (name, _root(part))
        elif kind in _TEXT_PARTS:
            others.append((_TEXT_PARTS.index(kind), name, _root(part)))
        elif kind in (_CORE, _APP, _CUSTOM) or (name.endswith(".xml") and "xml" in kind):
            parts[name] = _root(part)
    if main is None:
        raise InputError("not a Word document (no main document part)", path)
    ordered = [main] + [(name, root) for _, name, root in sorted(others, key=lambda item: item[:2])]
    pieces: list[_Piece] = []
    chunks: list[str] = []
    offset = 0
    first = True
    for name, root in ordered:
        parts[name] = root
        if any(True for _ in root.iter(*_DELETED)):
            raise InputError(f"the document has tracked deletions ({name}): the deleted text is still "
                             "inside the file", path,
                             hint="accept or reject all changes in Word (Review > Accept all), then retry")
        for paragraph in _paragraphs(root):
            if not first:
                chunks.append("\n")
                offset += 1
            first = False
            for element in paragraph:
                text = _FIXED.get(element.tag)
                editable = text is None
                text = (element.text or "") if editable else text
                pieces.append(_Piece(element, offset, offset + len(text), editable))
                chunks.append(text)
                offset += len(text)
    removed.update(_thumbnails(package))
    return DocxNote("".join(chunks), pieces, parts, removed, ordered)


def _paragraphs(root: Any) -> Iterator[list[Any]]:
    """Each paragraph's run children in document order. A text box's paragraphs sit inside a
    run of an outer paragraph: each character belongs to its nearest paragraph."""
    order: list[Any] = []
    children: dict[Any, list[Any]] = {}
    wanted = {_P, _T, *_FIXED}
    for element in root.iter(*wanted):
        if element.tag == _P:
            order.append(element)
            children[element] = []
            continue
        parent = element.getparent()
        if parent is None or parent.tag != _R:
            continue  # a tab stop of the paragraph's properties, not a tab character
        owner = parent.getparent()
        while owner is not None and owner.tag != _P:
            owner = owner.getparent()
        if owner is not None:
            children[owner].append(element)
    for paragraph in order:
        yield children[paragraph]


def _thumbnails(package: Any) -> set[str]:
    out = set()
    for rel in package.rels.values():
        if rel.reltype == _THUMBNAIL and not rel.is_external:
            out.add(str(rel.target_part.partname).lstrip("/"))
    return out


def docx_text(data: bytes, path: str | Path) -> str:
    """The note text of a .docx (see the module docstring)."""
    return read_docx(data, path).text


def rewrite_docx(data: bytes, path: str | Path, edits: Iterable[tuple[int, int, str]]) -> bytes:
    """The .docx with ``edits`` (``[start, end)`` of the note text -> new text, not overlapping)
    made inside its runs, its metadata cleared and its thumbnail removed."""
    import bisect

    note = read_docx(data, path)
    editable = [p for p in note.pieces if p.editable and p.end > p.start]
    ends = [p.end for p in editable]
    changed = {name for name, _ in note.text_parts}
    for start, end, new in sorted(edits, reverse=True):  # right to left: offsets stay valid
        i = bisect.bisect_right(ends, start)  # the first piece that ends after the span starts
        placed = False
        while i < len(editable) and editable[i].start < end:
            piece = editable[i]
            i += 1
            text = piece.element.text or ""
            a, b = max(start, piece.start) - piece.start, min(end, piece.end) - piece.start
            piece.element.text = text[:a] + ("" if placed else new) + text[b:]
            piece.element.set(_XML_SPACE, "preserve")
            placed = True
        if not placed and new:
            raise ValueError(f"no text run at [{start}, {end}) to hold the replacement")
    for name, root in note.parts.items():
        if _scrub(root, name):
            changed.add(name)
    note.parts = {name: root for name, root in note.parts.items() if name in changed}
    return _write(data, note)


def _local(tag: Any) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _scrub(root: Any, name: str) -> bool:
    """Clear the metadata that names people (see the module docstring); True if anything was."""
    local = _local(root.tag)
    custom = local == "Properties" and name.startswith("docProps/custom")
    changed = False
    for element in root.iter():
        tag = _local(element.tag)
        if element.text and ((local == "coreProperties" and tag in _CORE_CLEARED)
                             or (local == "Properties" and tag in _APP_CLEARED)
                             or (custom and tag in _CUSTOM_TEXT)):
            element.text = ""
            changed = True
        for attribute in list(element.attrib):
            bare = _local(attribute)
            people = bare in _PEOPLE_ATTRIBUTES or (bare in _ALT_TEXT and tag == "docPr")
            if people and element.get(attribute):
                element.set(attribute, "")
                changed = True
    return changed


def _write(data: bytes, note: DocxNote) -> bytes:
    from docx.opc.oxml import serialize_part_xml
    from lxml import etree

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename in note.removed:
                continue
            if info.filename in note.parts:
                content = serialize_part_xml(note.parts[info.filename])
            elif note.removed and info.filename in ("_rels/.rels", "[Content_Types].xml"):
                content = _without(source.read(info), note.removed, etree)
            else:
                content = source.read(info)
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.compress_type = info.compress_type
            copy.external_attr = info.external_attr
            copy.create_system = info.create_system
            target.writestr(copy, content)
    return out.getvalue()


def _without(xml: bytes, removed: set[str], etree: Any) -> bytes:
    """The package relationships and content types without the parts left out."""
    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False))
    for element in list(root):
        where = element.get("Target") or element.get("PartName") or ""
        if where.lstrip("/") in removed:
            root.remove(element)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _random_id(attribute: str) -> bool:
    """Revision and paragraph ids: random hex that a number could match by chance."""
    bare = _local(attribute)
    return bare.startswith("rsid") or bare in ("paraId", "textId", "durableId")


def package_strings(data: bytes) -> str:
    """Every string of a .docx outside its note text — attributes, field codes, hyperlink
    targets, properties — one per line: where an original string must not be left either."""
    from lxml import etree

    out: list[str] = []
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        for info in package.infolist():
            if not info.filename.endswith((".xml", ".rels")):
                continue
            try:
                root = etree.fromstring(package.read(info), etree.XMLParser(resolve_entities=False,
                                                                           huge_tree=True))
            except etree.XMLSyntaxError:
                continue
            for element in root.iter():
                if not isinstance(element.tag, str):
                    continue
                if element.text and element.tag != _T:
                    out.append(element.text)
                out.extend(value for name, value in element.attrib.items() if not _random_id(name))
    return "\n".join(s for s in out if s.strip())
