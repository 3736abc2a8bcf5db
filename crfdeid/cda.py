"""The identifiers of an HL7 CDA document (the XML of a discharge report) by its elements.

Regional health services exchange discharge reports, referrals and summaries as HL7 CDA R2:
the header of the XML says who the patient is (``<recordTarget><patientRole><id root="NHC"
extension="10-0087215"/>``, ``<addr>``, ``<telecom value="tel:…"/>``, ``<patient><name>``),
who wrote it, for whom, and when (``<effectiveTime value="20250522131500"/>``); exports paste
it into a note whole. The tagger, trained on prose, reads the header as code: the fourteenth
set written blind left a record number, a licence number, every timestamp, a postal code and
two name parts of one document in clear. The element says what a value is, so the step reads
the header as a CDA viewer does: by element and by the participant it belongs to.

Found by the document's root element or its namespace (``<ClinicalDocument``,
``urn:hl7-org:v3``); anything else is left alone. An ``id``'s ``extension`` is an identifier
of the participant around it (the patient's record or health card, a clinician's licence, the
encounter's number); a timestamp ``value`` of a time element a date; a ``telecom`` a phone,
fax, e-mail or web address by its scheme; an address's parts a street, town, postal code,
province or country; a ``name`` the patient's, a clinician's, a relative's or an
organisation's by the element it is in (a title such as "Dr." left out). A detected span
overlapping one gives way to it, as in ``crfdeid.hl7``; none may cover the markup itself (a
tag or an attribute's name: a surrogate there would break the XML). The narrative (``<text>``)
is prose, left to the tagger and the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from .hl7 import is_timestamp
from .merge import LabelledStep
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "cda"
#: A start, end or empty tag; its attributes in ``attrs``.
_TAG = regex.compile(
    r"<(?P<close>[/?]?)(?:[\w.-]+:)?(?P<name>[A-Za-z][\w.-]*)(?P<attrs>(?:\s[^<>]*?)?)(?P<empty>[/?]?)>")
#: One attribute and its quoted value.
_ATTR = regex.compile(
    r"""(?:[\w.-]+:)?(?P<name>[A-Za-z][\w.-]*)\s*=\s*(?P<q>["'])(?P<value>[^"'<>]*)(?P=q)""")
#: A title before a name written whole in ``<name>`` ("Dr. Adolfo Caballero Pulido").
TITLE = regex.compile(r"(?i)(?:(?:dr|dra|d|dña|dª|sr|sra|srta|prof|profa)\.?\s+)+")
#: A telecom's scheme, and the category of what follows it.
_TELECOM = {"tel": "phone", "fax": "fax", "mailto": "email", "http": "url", "https": "url"}
#: Elements whose ``value`` is a point in time.
_TIMES = frozenset({"effectiveTime", "time", "birthTime", "low", "high", "center", "deceasedTime"})
#: Address parts: element -> category.
_ADDRESS = {
    "streetAddressLine": "street", "streetName": "street", "houseNumber": "street",
    "city": "town", "postalCode": "postal_code", "state": "region", "county": "region",
    "country": "country", "precinct": "town",
}
#: The participants a name or an identifier belongs to, nearest first wins.
_PERSON = {
    "patient": "person_patient", "patientRole": "person_patient",
    "guardianPerson": "person_relative", "associatedPerson": "person_relative",
    "relatedPerson": "person_relative", "associatedEntity": "person_relative",
    "assignedPerson": "person_clinician", "informationRecipient": "person_clinician",
    "assignedAuthor": "person_clinician", "assignedEntity": "person_clinician",
    "intendedRecipient": "person_clinician", "legalAuthenticator": "person_clinician",
    "authenticator": "person_clinician", "performer": "person_clinician",
}
_ORGANISATIONS = frozenset({
    "representedOrganization", "receivedOrganization", "representedCustodianOrganization",
    "serviceProviderOrganization", "providerOrganization", "scopingOrganization",
    "wholeOrganization", "manufacturerOrganization", "healthCareFacility", "location",
})
#: Attributes whose values are codes of the standard, never PHI: a namespace's URL, an OID, a
#: LOINC code, a use or class code (a URL surrogate in ``xmlns:xsi`` had broken the XML).
_NEVER_PHI = frozenset({
    "xmlns", "xsi", "schemaLocation", "root", "codeSystem", "codeSystemName", "codeSystemVersion",
    "classCode", "moodCode", "typeCode", "determinerCode", "contextControlCode", "use", "mediaType",
    "representation", "unit", "nullFlavor", "code", "version", "encoding", "standalone",
})
#: Elements whose ids are codes of the standard, not of a person (a template, the type).
_NOT_IDS = frozenset({"typeId", "templateId", "setId", "code", "value"})
HOSPITAL = regex.compile(
    r"(?i)\b(?:hospital|hosp\.|complejo\s+hospitalario|cl[íi]nica|policl[íi]nica|sanatorio)")
HEALTH_CENTRE = regex.compile(
    r"(?i)\b(?:centro\s+de\s+salud|c\.\s?s\.|consultorio|ambulatorio|centre\s+d'atenci[óo]|cap\b)")
INSURANCE = regex.compile(
    r"(?i)cip|tsi|tis|nuss|nass|nuhsa|sip|seg(?:uridad)?[\s_-]?social|aseg|tarjeta|card|insur")
LICENCE = regex.compile(r"(?i)coleg|licen|ncol|n[º°]?\s*col")
#: Where an organisation's name parts ("Servicio Extremeño de Salud - Área de Salud de Coria").
_SPLIT = regex.compile(r"\s+-\s+|\s*[;|]\s*")

#: Every category the step can give a span.
CATEGORIES = (
    "date", "id_patient", "id_insurance", "id_licence", "id_employee", "id_case", "id_other",
    "phone", "fax", "email", "url", "street", "town", "postal_code", "region", "country",
    "person_patient", "person_clinician", "person_relative", "hospital", "health_centre",
    "organisation", "sex",
)


@dataclass(frozen=True)
class CdaDocument(LabelledStep):
    """The completion step: the scheme's label of each category a CDA header holds."""

    def spans(self, text: str) -> list[Span]:
        """The spans of the header's values in ``text``."""
        return self.read(text)[0]

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        """The spans of the header's values, and where no span may be (the markup)."""
        if "<ClinicalDocument" not in text and "urn:hl7-org:v3" not in text:
            return [], []
        found: list[tuple[int, int, str]] = []
        blocked: list[tuple[int, int]] = []
        stack: list[str] = []
        narrative = 0  # inside <text>: prose
        previous_end = 0
        for tag in _TAG.finditer(text):
            name = tag["name"]
            if not narrative and stack and tag.start() > previous_end:
                self._content(text, previous_end, tag.start(), stack, found)
            previous_end = tag.end()
            # the markup: the tag's name and its attributes' names, never their values
            at = tag.start()
            values = list(_ATTR.finditer(tag["attrs"]))
            codes = name in _NOT_IDS or tag["close"] == "?"  # "<?xml version=…?>"
            for attr in values:
                if codes or attr["name"] in _NEVER_PHI or attr.group().startswith("xmlns"):
                    continue  # its value is markup too
                blocked.append((at, tag.start("attrs") + attr.start("value")))
                at = tag.start("attrs") + attr.end("value")
            blocked.append((at, tag.end()))
            if tag["close"] == "?":
                continue
            if tag["close"]:
                if name in stack:
                    while stack and stack.pop() != name:
                        pass
                if name == "text" and narrative:
                    narrative -= 1
                continue
            if not narrative:
                self._attributes(tag, values, stack, found)
            if tag["empty"]:
                continue
            stack.append(name)
            if name == "text":
                narrative += 1
        out = []
        for start, end, category in sorted(found):
            label = self.labels.get(category)
            if label is not None and (not out or start >= out[-1].end):
                out.append(Span(start, end, label, source=SOURCE))
        return out, blocked

    def _attributes(self, tag: regex.Match, values: list[regex.Match], stack: list[str],
                    found: list[tuple[int, int, str]]) -> None:
        name, base = tag["name"], tag.start("attrs")
        attrs = {a["name"]: a for a in values}
        if name == "id" and "extension" in attrs and not any(s in _NOT_IDS for s in stack[-1:]):
            extension = attrs["extension"]
            if any(c.isalnum() for c in extension["value"]):
                root = attrs["root"]["value"] if "root" in attrs else ""
                found.append((base + extension.start("value"), base + extension.end("value"),
                              _id_category(root, stack)))
        elif name in _TIMES and "value" in attrs:
            value = attrs["value"]
            if is_timestamp(value["value"]):
                found.append((base + value.start("value"), base + value.end("value"), "date"))
        elif name == "telecom" and "value" in attrs:
            value = attrs["value"]
            scheme, colon, rest = value["value"].partition(":")
            category = _TELECOM.get(scheme.lower())
            if colon and category is not None and any(c.isalnum() for c in rest):
                start = base + value.start("value") + (0 if category == "url" else len(scheme) + 1)
                found.append((start, base + value.end("value"), category))
        elif name == "administrativeGenderCode" and _in_patient(stack):
            for key in ("code", "displayName"):
                if key in attrs and attrs[key]["value"].strip():
                    found.append((base + attrs[key].start("value"), base + attrs[key].end("value"), "sex"))

    def _content(self, text: str, start: int, end: int, stack: list[str],
                 found: list[tuple[int, int, str]]) -> None:
        """The text between two tags, by the element it is in."""
        element = stack[-1]
        category = _ADDRESS.get(element)
        if category is None and element in ("name", "given", "family"):
            category = _name_category(text[start:end], stack)
            if category in ("person_patient", "person_clinician", "person_relative"):
                raw = text[start:end]
                title = TITLE.match(text, start + len(raw) - len(raw.lstrip()), end)
                if title is not None:
                    start = title.end()
        if category is None:
            return
        pieces = [(start, end)]
        if category in ("hospital", "health_centre", "organisation"):
            pieces, at = [], start
            for cut in _SPLIT.finditer(text, start, end):
                pieces.append((at, cut.start()))
                at = cut.end()
            pieces.append((at, end))
        for a, b in pieces:
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b and any(c.isalnum() for c in text[a:b]):
                found.append((a, b, category if category not in _ORG_KINDS else organisation_kind(text[a:b])))


_ORG_KINDS = frozenset({"hospital", "health_centre", "organisation"})


def _name_category(value: str, stack: list[str]) -> str | None:
    """Whose name: the nearest participant or organisation element around it."""
    for element in reversed(stack[:-1]):
        if element in _ORGANISATIONS:
            return organisation_kind(value)
        category = _PERSON.get(element)
        if category is not None:
            return category
    return None


def organisation_kind(value: str) -> str:
    """A hospital, a health centre or another organisation, by the words of its name."""
    if HOSPITAL.search(value):
        return "hospital"
    if HEALTH_CENTRE.search(value):
        return "health_centre"
    return "organisation"


def _in_patient(stack: list[str]) -> bool:
    return "patient" in stack or "patientRole" in stack


def _id_category(root: str, stack: list[str]) -> str:
    """An identifier's category by the participant it belongs to and what its root says."""
    for element in reversed(stack):
        if element in ("patientRole", "patient"):
            return "id_insurance" if INSURANCE.search(root) else "id_patient"
        if element in ("encompassingEncounter", "encounter"):
            return "id_case"
        if element in _ORGANISATIONS:
            return "id_other"
        if _PERSON.get(element) == "person_clinician":
            return "id_licence" if LICENCE.search(root) else "id_employee"
        if _PERSON.get(element) == "person_relative":
            return "id_other"
    return "id_case"  # the document's own id, a set's: the episode it reports
