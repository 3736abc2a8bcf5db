"""The identifiers of a DICOM header pasted into a note, by their tags.

Radiology reports paste the header of the study they read — as ``dcmdump`` prints it
(``(0010,0010) PN [RUIZ^CASTRO^MARIA JOSEFA]  #  24, 1 PatientName``), as pydicom does
(``(0010, 0010) Patient's Name  PN: 'RUIZ^CASTRO'``) or as a viewer lists it
(``(0010,0010) PatientName ...... RUIZ^CASTRO``). The tagger reads the lines as code: the
thirteenth set written blind left a study's date and the timestamp inside its UID in clear. The
tag says what a value is, whatever its keyword's language, so the step reads the header by tag.

A known tag's value gets the category's label (the scheme's): dates (written ``YYYYMMDD``),
identifiers, the patient's name (each of its family, given and middle names: the carets stay),
clinicians' names, sex, age, the institution, the device's serial number, UIDs. A detected span
overlapping one gives way to it, as in ``crfdeid.hl7``; so does one over a line's tag and
keyword, or over the value of a tag that never holds PHI (the tagger had made "(0008,0020)" a
postal code, "PatientName" a company and the manufacturer an institution).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import regex

from .merge import LabelledStep, with_found
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "dicom"
#: A header line: the tag, maybe its value representation, the rest.
_LINE = regex.compile(
    r"(?m)^[ \t>]*\((?P<group>[0-9A-Fa-f]{4}),[ ]?(?P<element>[0-9A-Fa-f]{4})\)[ \t]*"
    r"(?:(?P<vr>[A-Z]{2})[ \t]+(?=\[))?(?P<rest>[^\n]*)$")
#: The value in the rest of the line: in brackets (dcmdump), quoted after the VR (pydicom), or
#: after the keyword and its dot leaders, colon or equals sign (a viewer's list).
_BRACKETED = regex.compile(r"\[(?P<value>[^\]\n]*)\]")
_QUOTED = regex.compile(r"\b[A-Z]{2}:[ \t]*['\"](?P<value>[^'\"\n]*)['\"]")
_LISTED = regex.compile(r"[\p{L}' ()-]*?[A-Za-z)'][ \t]*(?:\.{2,}|:|=)[ \t]*(?P<value>\S(?:[^\n]*\S)?)")

# tag -> (how the value is read, category): "name" splits a person's name at its carets
_TAGS: Mapping[str, tuple[str, str]] = {
    "0008,0012": ("whole", "date"), "0008,0020": ("whole", "date"), "0008,0021": ("whole", "date"),
    "0008,0022": ("whole", "date"), "0008,0023": ("whole", "date"), "0008,002A": ("whole", "date"),
    "0008,0018": ("whole", "id_case"), "0008,0050": ("whole", "id_case"),
    "0008,0080": ("whole", "hospital"),
    "0008,0090": ("name", "person_clinician"), "0008,1048": ("name", "person_clinician"),
    "0008,1050": ("name", "person_clinician"), "0008,1060": ("name", "person_clinician"),
    "0008,1070": ("name", "person_clinician"), "0032,1032": ("name", "person_clinician"),
    "0010,0010": ("name", "person_patient"), "0010,1001": ("name", "person_patient"),
    "0010,1005": ("name", "person_patient"), "0010,1060": ("name", "person_relative"),
    "0010,0020": ("whole", "id_patient"), "0010,1000": ("whole", "id_patient"),
    "0010,0030": ("whole", "date"), "0010,0040": ("whole", "sex"), "0010,1010": ("whole", "age"),
    "0010,1040": ("whole", "street"), "0010,2154": ("whole", "phone"), "0010,2180": ("whole", "profession"),
    "0018,1000": ("whole", "device"),
    "0020,000D": ("whole", "id_case"), "0020,000E": ("whole", "id_case"), "0020,0010": ("whole", "id_case"),
    "0040,0244": ("whole", "date"), "0040,0009": ("whole", "id_case"), "0040,1001": ("whole", "id_case"),
}
#: Tags whose values are never PHI: times of day, the modality, the manufacturer and model,
#: the body part, image geometry.
_NEVER_PHI = frozenset({
    "0008,0030", "0008,0031", "0008,0032", "0008,0033", "0008,0060", "0008,0070", "0008,1090",
    "0018,0015", "0018,0050", "0018,0060", "0028,0010", "0028,0011", "0028,0030", "0008,0008",
    "0008,0016", "0008,1030", "0008,103E",
})
#: Every category the step can give a span.
CATEGORIES = tuple(sorted({category for _, category in _TAGS.values()}))


@dataclass(frozen=True)
class DicomHeader(LabelledStep):
    """The completion step: the scheme's label of each category the tag table names."""

    def spans(self, text: str) -> list[Span]:
        """The spans of the values of known tags in ``text``."""
        return self.read(text)[0]

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        """The spans of the values of known tags in ``text``, and where no span may be: each
        line's tag and keyword (a tag is no town, a keyword no name: "PatientName" had become
        a company) and the values of tags that never hold PHI (a modality, a manufacturer, a
        time of day)."""
        if "(00" not in text:
            return [], []
        out: list[Span] = []
        blocked: list[tuple[int, int]] = []
        for line in _LINE.finditer(text):
            tag = f"{line['group']},{line['element']}".upper()
            kind, category = _TAGS.get(tag, ("", ""))
            rest, at = line["rest"], line.start("rest")
            found = _BRACKETED.match(rest) or _QUOTED.search(rest) or _LISTED.match(rest)
            if found is None:
                continue
            blocked.append((line.start(), at + found.start("value")))
            if tag in _NEVER_PHI:
                blocked.append((at + found.start("value"), at + found.end("value")))
            label = self.labels.get(category)
            if label is None or not found["value"].strip():
                continue
            start, value = at + found.start("value"), found["value"]
            pieces = [(start, value)]
            if kind == "name":  # family^given^middle: each a name, the carets kept
                pieces, offset = [], start
                for part in value.split("^")[:3]:
                    pieces.append((offset, part))
                    offset += len(part) + 1
            for begin, piece in pieces:
                stripped = piece.strip()
                if stripped and any(c.isalnum() for c in stripped):
                    begin += len(piece) - len(piece.lstrip())
                    out.append(Span(begin, begin + len(stripped), label, source=SOURCE))
        return out, blocked


def with_dicom_header(text: str, spans: Iterable[Span], step: DicomHeader | None) -> list[Span]:
    """``spans`` with the header values ``step`` labels; a detected span overlapping one gives way."""
    spans = list(spans)
    if step is None:
        return spans
    found, blocked = step.read(text)
    return with_found(spans, found, blocked)
