"""Where a note's structure says no PHI is, for the pseudonymiser.

Detection reads a machine export's keys, a DICOM header's tags, a CDA document's or a FHIR
resource's markup and a raw message's protocol as ranges no span may touch
(``crfdeid.merge.with_read``). The pseudonymiser looks for every other mention of what it
replaces; without those ranges it replaced a word inside the markup too: "Image" of a file
named "WhatsApp Image …", read as a town, had become "Navalmoral de la Mata" in every
"Image Description" key of a photo's metadata listing (the eighteenth set written blind). The
same readers tell it where the markup is; the labels they would give values play no part.
"""

from __future__ import annotations

from functools import cache

import regex

from .cda import CATEGORIES as CDA_CATEGORIES
from .cda import CdaDocument
from .dicom_header import CATEGORIES as DICOM_CATEGORIES
from .dicom_header import DicomHeader
from .fhir import CATEGORIES as FHIR_CATEGORIES
from .fhir import FhirResource
from .key_values import CATEGORIES as KEY_VALUE_CATEGORIES
from .key_values import KeyValues
from .merge import Reader
from .mime import MimeMessage
from .types import Span

#: An IANA time zone's name ("Europe/Madrid", "America/Argentina/Buenos_Aires", "Atlantic/Canary"):
#: a calendar's or a log's setting, never where someone is.
_TIME_ZONE = regex.compile(
    r"(?<![\p{L}\p{N}/])(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)"
    r"(?:/[A-Z][A-Za-z_+-]*){1,2}(?![\p{L}\p{N}/])")


class TimeZones:
    """The completion step (and a reader for the pseudonymiser) that blocks time zones' names:
    an iCalendar's "X-WR-TIMEZONE:Europe/Madrid" had become "Fuente de Cantos/Badajoz"."""

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        if "/" not in text:
            return [], []
        return [], [m.span() for m in _TIME_ZONE.finditer(text)]


#: A line of a PDF form's field dump (``pdftk … dump_data_fields``): its key, and the value
#: the program writes (a field's name, type, flags), not the one a person filled in nor a choice
#: field's options ("FieldStateOption: Dra. Rocío Valbuena Arranz": a list of the form's people).
_FORM_FIELD_LINE = regex.compile(
    r"(?m)^(?P<key>Field(?:Name|NameAlt|Type|Flags|Justification|StateOption|MaxLength|Value|ValueDefault)):"
    r"(?:[ \t]*(?P<program>(?<=(?:Name|Type|Flags|Justification|MaxLength):[ \t]*)[^\n]+))?")


class PdfFormFields:
    """The completion step (and a reader for the pseudonymiser) for a PDF form's field dump
    (``pdftk … dump_data_fields``): the keys and the field names are the program's, only the
    values are the form's ("FieldName: form.titulo" had its "form" read as an e-mail address
    and replaced, "paciente.nombre" kept: the nineteenth set written blind)."""

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        if "FieldName:" not in text:
            return [], []
        blocked = []
        for m in _FORM_FIELD_LINE.finditer(text):
            blocked.append(m.span("key"))
            if m["program"] is not None:
                blocked.append(m.span("program"))
        return [], blocked if len(blocked) >= 4 else []


@cache
def _readers() -> tuple[Reader, ...]:
    """The structure readers, each with a label per category (the category itself: unused)."""
    steps = (DicomHeader.for_scheme({c: c for c in DICOM_CATEGORIES}),
             CdaDocument.for_scheme({c: c for c in CDA_CATEGORIES}),
             FhirResource.for_scheme({c: c for c in FHIR_CATEGORIES}),
             KeyValues.for_scheme({c: c for c in KEY_VALUE_CATEGORIES}),
             MimeMessage(), TimeZones(), PdfFormFields())
    return tuple(step for step in steps if step is not None)


def markup(text: str) -> list[tuple[int, int]]:
    """The ranges of ``text`` that its structure says hold no PHI (keys, tags, protocol), sorted;
    none in a plain note (each reader returns at once without its marks)."""
    return sorted(r for reader in _readers() for r in reader.read(text)[1] if r[0] < r[1])
