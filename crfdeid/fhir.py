"""The identifiers of an HL7 FHIR resource (JSON) by its elements and the resource they are in.

Health services exchange patients, referrals and encounters as FHIR R4 JSON, and exports
paste a bundle into a note whole: ``{"resourceType": "Patient", "identifier": [{"type":
{"text": "NUHSA"}, "value": "AN0418836627"}], "name": [{"family": "Benjumea de la Rosa",
"given": ["Manuel Jesús"]}], …}``. The tagger, trained on prose, reads the JSON as code: the
fourteenth set written blind left a clinician's licence number (its kind two keys away from
it), a family name, the patient's sex, four timestamps, two street numbers and a reference's
display name of one bundle in clear. The element says what a value is, so the step reads the
JSON as a FHIR server does: by element, and by the resource (or the part of it) it belongs to.

Found by a ``"resourceType"`` key; the JSON around it is read from its first ``{`` to the
brace that closes it (a cut-off export is read as far as it goes). What the step labels:

- an ``identifier``'s ``value``, by the resource (a Patient's record or health card by its
  type, a Practitioner's licence or employee number, an Encounter's episode, an
  Organization's code) — a Device's ``serialNumber`` too;
- a person's ``name`` (``family``, ``given``, ``text``; never ``prefix``), by whose it is: the
  Patient's, a Practitioner's, a relative's (a ``RelatedPerson``, a Patient's ``contact``) or
  a carer's (a contact whose relationship is no kinship);
- an Organization's or a Location's ``name``, a reference's ``display`` (by the resource it
  refers to, else by its element: ``subject`` the patient's, ``performer`` a clinician's,
  ``serviceProvider`` an organisation's…); an organisation is a hospital or a health centre
  by its words;
- a ``telecom``'s ``value`` by its ``system``; an ``address``'s parts; a Patient's
  ``gender``; every value that is a FHIR date or date-time of a real day; an occupation
  extension's value; ``meta.source``'s URL.

No span may cover the JSON's keys, its punctuation or the values of the standard's own
elements (``system``, ``code``, ``use``, ``reference``, ``url``…): a surrogate there would
break the resource. A resource's narrative (``text.div``) is prose, left to the tagger and the
rules, its XHTML tags blocked as markup.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import regex

from .cda import INSURANCE, LICENCE, TITLE, organisation_kind
from .hl7 import is_whole_date
from .json_offsets import JsonArray, JsonObject, JsonParser, JsonString, items, strings, texts
from .merge import LabelledStep
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "fhir"
#: A FHIR date, date-time or instant (``1957-06-29``, ``2025-03-14T09:20:00+01:00``).
_DATE = regex.compile(
    r"((?:1[89]|20)\d{2})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?")
#: A partial date, only under an element that is a date (``"birthDate": "1957"``).
_PARTIAL_DATE = regex.compile(r"(?:1[89]|20)\d{2}(?:-\d{2})?")
#: An element whose name says it holds a point in time.
_DATE_KEY = regex.compile(r"(?i)date|time|^(?:start|end|issued|recorded|created|lastUpdated|authoredOn)$")
#: Elements whose values are the standard's codes, never PHI.
_CODES = frozenset({
    "resourceType", "system", "use", "status", "code", "reference", "fullUrl", "url", "profile",
    "versionId", "type", "mode", "intent", "priority", "category", "language", "unit",
    "comparator", "rank",
})
#: The person whose name a resource holds.
_PERSON = {
    "Patient": "person_patient", "Person": "person_patient", "Practitioner": "person_clinician",
    "PractitionerRole": "person_clinician", "RelatedPerson": "person_relative",
}
#: Resources whose name is an organisation's.
_ORGANISATIONS = frozenset({"Organization", "Location", "HealthcareService", "InsurancePlan", "Endpoint"})
#: A reference's element -> whose display it is, when the reference does not say.
_REFERRED = {
    **dict.fromkeys(("subject", "patient", "beneficiary", "subscriber", "policyHolder"), "person_patient"),
    **dict.fromkeys((
        "individual", "performer", "requester", "author", "recorder", "asserter", "generalPractitioner",
        "practitioner", "attender", "careManager", "authenticator", "legalAuthenticator", "enterer",
        "verifier", "resultsInterpreter", "referrer", "actor", "agent", "collector", "prescriber",
    ), "person_clinician"),
    **dict.fromkeys((
        "serviceProvider", "managingOrganization", "organization", "custodian", "insurer", "payor",
        "provider", "destination", "origin", "location", "facility", "performingOrganization",
        "partOf", "assigner",
    ), "organisation"),
}
#: A contact's relationship that is no kinship: a carer, a neighbour, a friend.
_NOT_KIN = regex.compile(r"(?i)cuidador|vecin|amig|compa[ñn]er|voluntari|carer|caregiver|neighbo|friend")
#: An extension's URL that says its value is an occupation.
_OCCUPATION = regex.compile(r"(?i)ocupaci|profesi|occupation|employment")
#: What follows an occupation and is no part of it ("agricultor jubilado").
_RETIRED = regex.compile(r"(?i)\s+(?:jubilad[oa]|retirad[oa]|en\s+paro|retired)\s*$")
#: A telecom's system -> category.
_TELECOM = {"phone": "phone", "sms": "phone", "pager": "phone", "fax": "fax", "email": "email", "url": "url"}
#: An address's parts -> category.
_ADDRESS = {"line": "street", "text": "street", "city": "town", "district": "region", "state": "region",
            "postalCode": "postal_code", "country": "country"}
#: An XHTML tag inside a narrative.
_MARKUP = regex.compile(r"<[^<>]*>")

#: Every category the step can give a span.
CATEGORIES = (
    "date", "id_patient", "id_insurance", "id_licence", "id_employee", "id_case", "id_other", "device",
    "phone", "fax", "email", "url", "street", "town", "postal_code", "region", "country",
    "person_patient", "person_clinician", "person_relative", "other", "hospital", "health_centre",
    "organisation", "sex", "profession",
)


@dataclass
class _Reading:
    """What the walk over one JSON found."""

    found: list[tuple[int, int, str]] = field(default_factory=list)
    blocked: list[tuple[int, int]] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)  # "Patient/pat-1", fullUrl -> resourceType

    def add(self, value: JsonString, category: str | None, strip_title: bool = False) -> None:
        if category is None:
            return
        start, end = value.start, value.end
        raw = value.text
        start += len(raw) - len(raw.lstrip())
        end -= len(raw) - len(raw.rstrip())
        if strip_title:
            title = TITLE.match(raw, start - value.start, end - value.start)
            if title is not None:
                start = value.start + title.end()
        if start < end and any(c.isalnum() for c in raw[start - value.start:end - value.start]):
            self.found.append((start, end, category))


@dataclass(frozen=True)
class FhirResource(LabelledStep):
    """The completion step: the scheme's label of each category a FHIR resource holds."""

    def spans(self, text: str) -> list[Span]:
        """The spans of the resources' values in ``text``."""
        return self.read(text)[0]

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        """The spans of the resources' values, and where no span may be (keys, punctuation,
        the standard's codes, a narrative's tags)."""
        if '"resourceType"' not in text:
            return [], []
        reading = _Reading()
        for root in _roots(text, reading):
            _collect_types(root, reading.types)
            _walk(root, reading, _Context())
        out: list[Span] = []
        for start, end, category in sorted(reading.found):
            label = self.labels.get(category)
            if label is not None and (not out or start >= out[-1].end):
                out.append(Span(start, end, label, source=SOURCE))
        return out, reading.blocked


def _roots(text: str, reading: _Reading) -> Iterator[object]:
    """Each JSON value holding a ``"resourceType"`` key, from the ``{`` that opens it: the
    first ``{`` before the key whose value reaches past it (a resource may write its type after
    other keys: ``{"id": "p1", "meta": {…}, "resourceType": "Patient", …}``), else the nearest."""
    at = 0
    while True:
        key = text.find('"resourceType"', at)
        if key < 0:
            return
        found = None
        for start in dict.fromkeys((text.find("{", at, key), text.rfind("{", at, key))):
            if start < 0:
                continue
            parser = JsonParser(text, start)
            try:
                root = parser.value()
            except ValueError:
                continue
            if parser.at > key:
                found = root, parser
                break
        if found is None:
            at = key + 1
            continue
        root, parser = found
        reading.blocked += [(k.start, k.end) for k in parser.keys] + parser.punctuation
        yield root
        at = max(parser.at, key + 1)


def _collect_types(node: object, types: dict[str, str]) -> None:
    if isinstance(node, JsonArray):
        for item in node.items:
            _collect_types(item, types)
    elif isinstance(node, JsonObject):
        resource = node.get("resource")
        if isinstance(resource, JsonObject):
            kind, full = resource.string("resourceType"), node.string("fullUrl")
            if kind and full:
                types[full] = kind
        kind, ident = node.string("resourceType"), node.string("id")
        if kind and ident:
            types[f"{kind}/{ident}"] = kind
        for _, value in node.items:
            _collect_types(value, types)


@dataclass(frozen=True)
class _Context:
    resource: str = ""
    #: Whose name a ``name`` holds here (a category), or "organisation", or "".
    owner: str = ""
    #: Inside a Patient's contact or a RelatedPerson: no patient's gender.
    patient: bool = False


def _walk(node: object, reading: _Reading, context: _Context, key: str = "") -> None:
    if isinstance(node, JsonArray):
        for item in node.items:
            _walk(item, reading, context, key)
        return
    if isinstance(node, JsonString):
        value = node.text
        if key in _CODES:
            reading.blocked.append((node.start, node.end))
        elif is_whole_date(_DATE, value) or (_DATE_KEY.search(key) and _PARTIAL_DATE.fullmatch(value)):
            reading.add(node, "date")
        return
    if not isinstance(node, JsonObject):
        return
    kind = node.string("resourceType")
    if kind:
        owner = _PERSON.get(kind, "organisation" if kind in _ORGANISATIONS else "")
        if kind == "RelatedPerson" and _NOT_KIN.search(texts(node.get("relationship"))):
            owner = "other"
        context = _Context(kind, owner, kind == "Patient")
    if _reference(node, reading, key):
        return
    for name, value in node.items:
        k = name.text
        if k == "identifier":
            for item in items(value):
                if isinstance(item, JsonObject):
                    _identifier(item, reading, context)
                    _walk_codes(item, reading)
        elif k == "serialNumber" and isinstance(value, JsonString):
            reading.add(value, "device")
        elif k == "name" and context.owner:
            _name(value, reading, context.owner)
        elif k == "alias" and context.owner == "organisation":
            for alias in strings(value):
                reading.add(alias, organisation_kind(alias.text))
        elif k == "telecom":
            for item in items(value):
                if isinstance(item, JsonObject):
                    _telecom(item, reading)
        elif k in ("address", "valueAddress", "birthPlace"):
            for item in items(value):
                if isinstance(item, JsonObject):
                    _address(item, reading)
        elif k == "gender" and context.patient and isinstance(value, JsonString):
            reading.add(value, "sex")
        elif k == "contact" and context.resource == "Patient":
            for item in items(value):
                if isinstance(item, JsonObject):
                    kin = not _NOT_KIN.search(texts(item.get("relationship")))
                    owner = "person_relative" if kin else "other"
                    _walk(item, reading, _Context(context.resource, owner, False), k)
        elif k == "extension":
            for item in items(value):
                if isinstance(item, JsonObject):
                    _extension(item, reading, context)
        elif k == "meta" and isinstance(value, JsonObject):
            source = value.get("source")
            if isinstance(source, JsonString) and source.text.startswith(("http://", "https://")):
                reading.add(source, "url")
            _walk(value, reading, context, k)
        elif k == "text" and isinstance(value, JsonObject) and isinstance(value.get("div"), JsonString):
            div = value.get("div")
            assert isinstance(div, JsonString)
            reading.blocked += [(div.start + m.start(), div.start + m.end())
                                for m in _MARKUP.finditer(div.text)]
            _walk_codes(value, reading)
        else:
            _walk(value, reading, context, k)


def _walk_codes(node: JsonObject, reading: _Reading) -> None:
    """Block the standard's codes of an element the step read itself."""
    for name, value in node.items:
        for item in items(value):
            if isinstance(item, JsonObject):
                _walk_codes(item, reading)
            elif isinstance(item, JsonString) and name.text in _CODES:
                reading.blocked.append((item.start, item.end))


def _reference(node: JsonObject, reading: _Reading, key: str) -> bool:
    """A reference (``{"reference": "Practitioner/prac-1", "display": "Dra. …"}``): its
    display by the resource it points to, else by its element. True if ``node`` was one."""
    display = node.get("display")
    target = node.string("reference")
    if not isinstance(display, JsonString) or not (target or (key in _REFERRED and node.get("code") is None
                                                        and node.get("system") is None)):
        return False
    kind = (reading.types.get(target) or target.split("/", 1)[0]) if target else ""
    category = _PERSON.get(kind) or ("organisation" if kind in _ORGANISATIONS else _REFERRED.get(key))
    if category == "organisation":
        category = organisation_kind(display.text)
    reading.add(display, category, strip_title=True)
    _walk_codes(node, reading)
    return True


def _identifier(item: JsonObject, reading: _Reading, context: _Context) -> None:
    value = item.get("value")
    if not isinstance(value, JsonString):
        return
    kind = " ".join((texts(item.get("type")), item.string("system")))
    resource = context.resource
    if context.owner == "person_patient" and context.patient:
        category = "id_insurance" if INSURANCE.search(kind) else "id_patient"
    elif context.owner == "person_clinician":
        category = "id_licence" if LICENCE.search(kind) else "id_employee"
    elif resource == "Device":
        category = "device"
    elif context.owner in ("organisation", "person_relative", "other"):
        category = "id_other"
    else:
        category = "id_case"  # an encounter's, a request's, a report's, the bundle's own
    reading.add(value, category)


def _name(value: object, reading: _Reading, owner: str) -> None:
    for item in items(value):
        if isinstance(item, JsonString):
            category = organisation_kind(item.text) if owner == "organisation" else owner
            reading.add(item, category, strip_title=owner != "organisation")
        elif isinstance(item, JsonObject) and owner != "organisation":
            for part in ("family", "given", "text"):
                for piece in strings(item.get(part)):
                    reading.add(piece, owner, strip_title=part == "text")
            _walk_codes(item, reading)


def _telecom(item: JsonObject, reading: _Reading) -> None:
    value = item.get("value")
    if isinstance(value, JsonString):
        category = _TELECOM.get(item.string("system"))
        if category is None and "@" in value.text:
            category = "email"
        reading.add(value, category)
    _walk_codes(item, reading)


def _address(item: JsonObject, reading: _Reading) -> None:
    for name, value in item.items:
        category = _ADDRESS.get(name.text)
        if category == "street" and name.text == "text" and item.get("line") is not None:
            continue  # the whole address again beside its parts: its parts are read
        for piece in strings(value):
            reading.add(piece, category)
    _walk_codes(item, reading)


def _extension(item: JsonObject, reading: _Reading, context: _Context) -> None:
    url = item.string("url")
    if _OCCUPATION.search(url):
        for name, value in item.items:
            if name.text.startswith("value"):
                texts = [value] if isinstance(value, JsonString) else list(strings(value.get("text"))) \
                    if isinstance(value, JsonObject) else []
                for piece in texts:
                    trail = _RETIRED.search(piece.text)
                    cut = JsonString(piece.start, piece.start + trail.start(), piece.text[:trail.start()]) \
                        if trail is not None else piece
                    reading.add(cut, "profession")
        _walk_codes(item, reading)
        return
    _walk(item, reading, context, "extension")
