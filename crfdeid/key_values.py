"""The values of a machine export (YAML, INI, plain JSON or one record a line, XML) read by their keys.

Devices, apps and hospital systems export a patient's record as configuration files: an insulin
pump's platform writes ``patient:`` / ``given_name: "Oliver James"`` / ``preferred_name:
"Olly"``, ``generated_by: "vrocamora"``, ``guardians:`` / ``- name: "Claire Whitfield"`` /
``occupation: "veterinaria"``. The tagger, trained on prose, reads a value by the words around it:
the fifteenth set written blind left a nickname, two occupations and three user names of one
YAML export in clear, and made "male", "mother" and "iOS" e-mail addresses. The key says what a
value is, and the keys above it whose it is, so the step reads the export as its program does.

An export is found by its keys: five lines or more of ``key: value`` (YAML), ``key = value``
(INI) or ``"key": value`` (JSON), three of them keys a program writes (``snake_case``,
``camelCase``, or dotted), or records of JSON one a line (NDJSON: an emergency department's event
stream), or XML by its elements' names (``<colegiado>``, ``<codigoEmpleado>``, ``<id tipo="TSI">``,
an attribute ``usuario="SES-77120"``: the sixteenth set's lab order), or an SQL dump's rows by
their table's columns (``INSERT INTO `pacients` VALUES (101,'Barceló Adrover',…)``: the
seventeenth set's physiotherapy clinic); a FHIR resource is
``crfdeid.fhir``'s, a CDA document ``crfdeid.cda``'s. A key is split into its words
(``workplace_city`` -> workplace, city), and its last word (or the whole key) says the category:
a name, an occupation, an identifier by its kind, a phone, an address part, a date, the sex.
Whose a name is follows from the keys it is under: ``patient`` the patient's, ``guardians`` or
``emergency_contact`` a relative's, ``care_team`` a clinician's, ``clinic`` or ``school`` an
organisation's; a ``contact`` of an organisation is someone else (a teacher, a neighbour). A
value is taken only in the shape its category has (a name in capitals, a number with a digit, a
date a real day). Values of keys a program fills with its own words (``model``, ``platform``,
``firmware``, ``unit``…) take no span, nor do the keys themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from .cda import TITLE, organisation_kind
from .hl7 import is_whole_date
from .json_offsets import JsonArray, JsonObject, JsonParser, JsonString
from .merge import LabelledStep
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "key-value"
#: A YAML or INI line: indentation, an optional list dash, the key, ":" or "=", the value.
_LINE = regex.compile(
    r"(?m)^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<key>[A-Za-z_][\w.\-]{0,60}?)[ \t]*(?P<sep>:|=)(?:[ \t]+|$)"
    r"(?P<value>[^\n]*)$")
#: An INI section's header (``[patient]``).
_SECTION = regex.compile(r"[ \t]*\[(?P<name>[A-Za-z_][\w.\- ]{0,60})\][ \t]*$")
#: A YAML flow mapping on its own line (``- {ts: "…", user: "vrocamora"}``), its key optional.
_FLOW = regex.compile(
    r"(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?:(?P<key>[A-Za-z_][\w.\-]{0,60}?)[ \t]*:[ \t]*)?"
    r"\{(?P<body>[^{}\n]*)\}[ \t]*$")
#: One pair of a flow mapping: its key, and its value up to the next comma (a quoted one whole).
_FLOW_PAIR = regex.compile(
    r'(?P<key>[A-Za-z_][\w.\-]{0,60})[ \t]*:[ \t]*(?P<value>"[^"\n]*"|\'[^\'\n]*\'|[^,}\n]*)')
#: A key a program writes, at a line's start or quoted, before its separator: no export without one.
_ANY_MACHINE_KEY = regex.compile(
    r'(?m)(?:^[ \t]*(?:-[ \t]+)?|")'
    r'(?:[a-z][a-z0-9]*(?:[_.\-][a-zA-Z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)"?[ \t]*[:=]')
#: A JSON member ``"key": `` anywhere in a line.
_JSON_KEY = regex.compile(r'"[A-Za-z_][\w.\-]{0,60}"\s*:')
#: A key a program writes: words parted by "_", "." or "-", or joined in camelCase.
_MACHINE = regex.compile(r"[a-z][a-z0-9]*(?:[_.\-][a-zA-Z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+")
#: A key's words.
_KEY_WORDS = regex.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
#: Fewer key lines than this, or fewer machine keys than ``_MIN_MACHINE``: no export.
_MIN_KEYS = 5
_MIN_MACHINE = 3
#: A date of a calendar: ISO (``2011-06-04``, ``2025-11-13T09:41:07+01:00``) or day first.
_ISO_DATE = regex.compile(
    r"((?:1[89]|20)\d{2})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
_DAY_FIRST = regex.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-]((?:1[89]|20)\d{2})")
_COMPACT = regex.compile(r"(\d{4})(\d{2})(\d{2})")
#: A value in the shape of a person's name: capitalised words, particles between them.
_NAME = regex.compile(
    r"\p{Lu}[\p{L}'’\-]*\.?"
    r"(?:[ \t]+(?:\p{Lu}[\p{L}'’\-]*\.?|de|del|la|las|los|y|i|da|do|dos|van|von|der|ben|el|al))*")
#: A user's code rather than a login made of a name: capitals, then digits ("ENF2271", "SES-77120").
_STAFF_CODE = regex.compile(r"\p{Lu}{1,6}[-_]?\d{2,10}")
#: A JSON text's next record on a line of its own (NDJSON: one object per line).
_RECORD_LINE = regex.compile(r"(?m)^[ \t]*\{")
#: XML: an element's tag (opening, closing, empty), or a comment, a declaration, a CDATA section.
_XML_TAG = regex.compile(
    r"<!--|<\?|<!\[CDATA\[|<!DOCTYPE"
    r"|<(?P<close>/)?(?P<name>[A-Za-z_][\w.\-]*:)?(?P<local>[A-Za-z_][\w.\-]*)(?P<attrs>[^<>]*?)(?P<empty>/)?>")
#: Where each opener of no element ends.
_XML_CLOSERS = {"<!--": "-->", "<?": "?>", "<![CDATA[": "]]>", "<!DOCTYPE": ">"}
#: Deeper than this, an XML text is no export: reading stops.
_MAX_DEPTH = 100
_XML_ATTRIBUTE = regex.compile(r"""(?P<key>[A-Za-z_][\w.\-:]*)\s*=\s*(?:"(?P<d>[^"<]*)"|'(?P<s>[^'<]*)')""")
#: Elements that say what they hold by an attribute (``<id tipo="TSI">``).
_XML_GENERIC = frozenset({"id", "identificador", "identifier", "valor", "value", "dato", "campo", "field"})
_XML_KIND = ("tipo", "type", "nombre", "name", "clave", "key")
#: An HTML page, read as a page by ``crfdeid.encodings``.
_NOT_XML = regex.compile(r"(?i)<(?:!doctype|html)")
#: A leaf element: its text between its tags on one line.
_LEAF = regex.compile(r"<([A-Za-z_][\w.\-]*)[^<>]*>[^<>\n]+</\1>")
#: Fewer leaf elements than this: no XML export.
_MIN_ELEMENTS = 5
#: An SQL dump's table: its name and its columns' definitions.
#: (Its body is bounded: a CREATE without its end costs no scan of the rest of the note.)
_SQL_CREATE = regex.compile(
    r"(?is)CREATE[ \t]+TABLE[ \t]+(?:IF[ \t]+NOT[ \t]+EXISTS[ \t]+)?[`\"]?(?P<table>\w+)[`\"]?"
    r"[ \t]*\((?P<body>.{0,8000}?)\)[ \t]*(?:ENGINE\b[^;\n]*)?;")
#: A column's definition (not a key's or a constraint's).
_SQL_COLUMN = regex.compile(r"(?im)^[ \t]*[`\"]?(?P<name>\w+)[`\"]?[ \t]+(?!KEY\b)[a-z]")
_SQL_NOT_COLUMN = frozenset({"primary", "key", "unique", "constraint", "index", "foreign", "check",
                             "fulltext"})
#: Where a table's rows begin: its name, maybe its columns, then VALUES.
_SQL_INSERT = regex.compile(r"(?i)INSERT[ \t]+(?:IGNORE[ \t]+)?INTO[ \t]+[`\"]?(?P<table>\w+)[`\"]?[ \t]*"
                            r"(?:\((?P<columns>[^()]*)\))?[ \t\r\n]*VALUES[ \t\r\n]*")
#: A metadata listing's line (ExifTool, MediaInfo): a key of words, padded to the column of its
#: colon, and its value ("Serial Number                   : R52W70XKQ3M").
_ALIGNED_LINE = regex.compile(
    r"(?m)^(?P<key>\p{L}[\p{L}0-9/()\-]*(?:[ ][\p{L}0-9/()\-]+){0,5})(?P<pad>[ ]*)"
    r":[ ]++(?P<value>[^\n]*?)(?<![ \t])[ \t]*+$")
#: Words of a listing's key whose value is a program's or a device's word, wherever they stand
#: in the key ("Camera Model Name", "ExifTool Version Number", "Image Size").
_LISTING_CODES = frozenset({"make", "model", "version", "size", "software", "resolution", "orientation",
                            "compression", "encoding", "mime", "megapixels", "flash", "aperture", "exposure",
                            "iso", "format", "type", "firmware", "producer", "optimized", "tagged"})
#: A listing's key of a file or a folder: its value is no program's word.
_FILE_KEY = regex.compile(r"(?i)(?:file|directory|folder|source[ ]file)\b")
#: A vCard's or an iCalendar's content line: its property, its parameters, its value.
_CONTENT_LINE = regex.compile(
    r"(?m)^(?P<name>[A-Za-z][A-Za-z0-9-]*)(?P<params>(?:;[^:\r\n]*)?):(?P<value>[^\r\n]*)")
#: A parameter that names a person ("ORGANIZER;CN=Nerea Urrestarazu Mendia:mailto:…").
_CN_PARAM = regex.compile(r";CN=(?:\"(?P<q>[^\"\r\n]+)\"|(?P<v>[^;:\r\n]+))", regex.IGNORECASE)
#: A value's components, parted by unescaped semicolons.
_COMPONENT = regex.compile(r"(?:\\.|[^;\\])+")
#: vCard and iCalendar properties -> the key their value is read under (structured ones: a key
#: per component, "" for a component read as nothing).
_CONTENT_KEYS: dict[str, tuple[str, ...]] = {
    "fn": ("name",), "n": ("surname", "given_name", "middle_name", "", ""), "nickname": ("nickname",),
    "bday": ("birth_date",), "tel": ("phone",), "email": ("email",), "url": ("url",),
    "adr": ("", "", "street", "city", "region", "postal_code", "country"),
    "title": ("occupation",), "role": ("occupation",), "org": ("organization_name", ""),
    "uid": ("",), "location": ("",),
}
#: vCard and iCalendar properties whose values are the format's own words ("BEGIN:VCARD").
_FORMAT_PROPERTIES = frozenset({"BEGIN", "END", "VERSION", "PRODID", "KIND", "GENDER", "CATEGORIES", "METHOD",
                                "CALSCALE", "ACTION", "TRIGGER", "RRULE", "STATUS"})
#: A user name: one token of letters, digits, dots, hyphens and underscores, a letter first.
_USER = regex.compile(r"\p{L}[\p{L}\d._\-]{1,40}")

#: The last word of a key (or the whole key, its words joined by "_") -> category.
_CATEGORY = {
    **dict.fromkeys(("name", "names", "nombre", "nombres", "given_name", "family_name", "first_name",
                     "last_name", "surname", "surnames", "apellido", "apellidos", "preferred_name",
                     "nickname", "alias", "full_name", "display_name", "middle_name", "second_surname",
                     "primer_apellido", "segundo_apellido", "nom", "cognoms", "given", "family"), "name"),
    **dict.fromkeys(("by", "user", "username", "user_name", "login", "usuario", "operator", "signed_by",
                     "author", "usuari"), "user"),
    # Catalan and Mallorcan columns (the seventeenth set's SQL dump)
    **dict.fromkeys(("llinatges", "cognom", "nom_complet"), "name"),
    **dict.fromkeys(("num_col", "num_colegiat", "colegiat", "n_col"), "id_licence"),
    **dict.fromkeys(("occupation", "profession", "job", "ocupacion", "profesion", "ocupacio", "professio"),
                    "profession"),
    **dict.fromkeys(("license", "licence", "license_number", "licence_number", "collegiate", "colegiado",
                     "num_colegiado", "n_colegiado"), "id_licence"),
    **dict.fromkeys(("employee", "employee_id", "employee_number", "staff_id", "empleado", "num_empleado"),
                    "id_employee"),
    **dict.fromkeys(("nhc", "mrn", "medical_record", "record_number", "historia", "historia_clinica",
                     "patient_id", "dni", "nie", "nif", "passport", "pasaporte", "ssn"), "id_patient"),
    **dict.fromkeys(("sip", "cip", "tsi", "tis", "nuss", "nass", "naf", "insurance", "insurance_number",
                     "policy", "policy_number", "poliza", "health_card", "card_number", "nuhsa"),
                    "id_insurance"),
    **dict.fromkeys(("episode", "episodio", "encounter", "encounter_id", "case_number", "visit_id",
                     "admission_id", "peticion", "request", "request_id", "order_id", "muestra", "sample",
                     "sample_id", "incidente", "incident"), "id_case"),
    **dict.fromkeys(("serial", "serial_number", "serialnumber", "imei", "udi", "lot", "lot_number", "lote"),
                    "device"),
    **dict.fromkeys(("plate", "license_plate", "matricula"), "vehicle"),
    **dict.fromkeys(("phone", "telephone", "tel", "mobile", "movil", "telefono", "phone_number", "cell",
                     "telefon", "mobil"), "phone"),
    **dict.fromkeys(("fax",), "fax"),
    **dict.fromkeys(("email", "mail", "e_mail", "correo"), "email"),
    **dict.fromkeys(("url", "web", "website", "portal", "homepage"), "url"),
    **dict.fromkeys(("ip", "ip_address"), "ip"),
    **dict.fromkeys(("address", "street", "line", "line1", "line2", "calle", "direccion", "domicilio", "via",
                     "adreca", "adresa"), "street"),
    **dict.fromkeys(("city", "town", "locality", "municipality", "municipio", "localidad", "poblacion",
                     "place", "birth_place", "birthplace", "village", "poblacio", "localitat"), "town"),
    **dict.fromkeys(("province", "state", "region", "provincia", "county", "district"), "region"),
    **dict.fromkeys(("postal_code", "postalcode", "zip", "zipcode", "zip_code", "postcode", "cp",
                     "codigo_postal"), "postal_code"),
    **dict.fromkeys(("country", "pais", "nationality"), "country"),
    **dict.fromkeys(("sex", "gender", "sexo", "sexe"), "sex"),
    **dict.fromkeys(("age", "edad", "age_years", "edat"), "age"),
}
#: Words of a key whose value is a date when it reads as one.
_DATE_WORDS = frozenset({"date", "at", "on", "dob", "birth", "time", "timestamp", "fecha", "born", "day",
                         "since", "until", "from", "to", "created", "updated", "issued", "sync", "data",
                         "naix", "nacimiento", "hora"})
#: The keys above a name -> whose it is.
_WHOSE = {
    **dict.fromkeys(("patient", "paciente", "pacient", "subject", "person", "persona", "usuario_paciente",
                     "participant", "participante", "patients", "pacientes", "pacients"), "person_patient"),
    **dict.fromkeys(("guardian", "guardians", "parent", "parents", "contact_person", "emergency_contact",
                     "emergency", "relative", "relatives", "family", "familiar", "familiares", "next_of_kin",
                     "kin", "tutor", "tutors", "caregiver", "mother", "father", "spouse", "contacto",
                     "acompanante", "companion"), "person_relative"),
    **dict.fromkeys(("care_team", "team", "staff", "clinician", "clinicians", "doctor", "doctors",
                     "physician", "nurse", "nurses", "practitioner", "practitioners", "professional",
                     "professionals", "author", "medico", "enfermera", "prescriber", "requester",
                     "solicitante", "peticionario", "responsable", "tecnico", "professionals",
                     "profesionales", "professionales"),
                    "person_clinician"),
    **dict.fromkeys(("clinic", "hospital", "centre", "center", "organization", "organisation", "school",
                     "company", "employer", "insurer", "pharmacy", "lab", "laboratory", "facility",
                     "provider", "institution", "centro", "site", "sede"), "organisation"),
}
#: Keys a program fills with its own words: their values take no span.
_CODES = frozenset({"model", "platform", "firmware", "version", "unit", "units", "status", "type", "insulin",
                    "format", "encoding", "language", "locale", "timezone", "alerts", "role", "relation",
                    "relationship", "code", "codes", "mode", "kind", "category", "rate"})

#: First words of a key that name a thing, not a person or a place ("device_name", "file_name").
_NOT_A_PERSON = frozenset({"device", "model", "file", "product", "app", "drug", "brand", "program", "sensor",
                           "project", "study", "test", "form", "template", "report", "host", "server"})

#: Every category the step can give a span.
CATEGORIES = (
    "date", "id_patient", "id_insurance", "id_licence", "id_employee", "id_case", "device", "vehicle",
    "phone", "fax", "email", "url", "ip", "street", "town", "postal_code", "region", "country",
    "person_patient", "person_clinician", "person_relative", "other", "hospital", "health_centre",
    "organisation", "sex", "age", "profession",
)


@dataclass(frozen=True)
class _Pair:
    key: str
    path: tuple[str, ...]  # the keys above it, outermost first
    start: int  # the value's offsets (quotes and a comment left out)
    end: int


def _words(key: str) -> list[str]:
    return [w.lower() for w in _KEY_WORDS.findall(key)]


def _yaml_pairs(text: str) -> Iterator[_Pair]:
    """``key: value`` and ``key = value`` lines, each with the keys above it by indentation; a
    flow mapping's pairs (``- {ts: "…", user: "sgelabert"}``) under the key of its line."""
    stack: list[tuple[int, str]] = []  # (indentation, key) of the open parents
    at = 0
    for raw in text.splitlines(keepends=True):
        line_start, at = at, at + len(raw)
        section = _SECTION.match(text, line_start, line_start + len(raw.rstrip("\r\n")))
        if section is not None:  # an INI section: the keys below are its
            stack = [(-1, section["name"])]
            continue
        line = _LINE.match(text, line_start, line_start + len(raw.rstrip("\r\n")))
        flow = _FLOW.match(text, line_start, line_start + len(raw.rstrip("\r\n")))
        if line is None and flow is None:
            continue
        found = line or flow
        assert found is not None
        indent = len(found["indent"].expandtabs(2)) + (len(found["dash"]) if found["dash"] else 0)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if flow is not None:
            path = tuple(k for _, k in stack) + ((flow["key"],) if flow["key"] else ())
            for pair in _FLOW_PAIR.finditer(text, flow.start("body"), flow.end("body")):
                yield from _value(text, pair["key"], path, pair.start("value"), pair.end("value"))
            continue
        assert line is not None
        key = line["key"]
        if not text[line.start("value"):line.end("value")].strip():
            stack.append((indent, key))
            continue
        yield from _value(text, key, tuple(k for _, k in stack), line.start("value"), line.end("value"))


def _value(text: str, key: str, path: tuple[str, ...], start: int, end: int) -> Iterator[_Pair]:
    """The pair of ``key`` and the value written at ``[start, end)``: its quotes, or a
    comment after it, left out; none for a block or a flow collection."""
    value = text[start:end]
    stripped = value.strip()
    if not stripped:
        return
    if stripped[0] in "\"'":
        opening = value.index(stripped[0])
        close = value.find(stripped[0], opening + 1)
        if close < 0:
            return
        start, end = start + opening + 1, start + close
    else:
        comment = regex.search(r"[ \t]+#", value)
        end = start + (comment.start() if comment else len(value.rstrip()))
        start += len(value) - len(value.lstrip())
    if start < end and text[start] not in "{[&*|>":
        yield _Pair(key, path, start, end)


def _xml_pairs(text: str) -> tuple[list[_Pair], list[tuple[int, int]]]:
    """An XML export's leaf elements and attributes, each under its element's name (or, for a
    generic one, its ``tipo``/``type``), with the elements above it; and its markup's ranges,
    where no span may be (the attributes' values are read, not blocked; a comment's and a CDATA
    section's words are the note's: only their markers are markup). Linear: a comment, a
    declaration or a CDATA section without its end runs to the text's end, and reading stops
    deeper than ``_MAX_DEPTH`` elements."""
    pairs: list[_Pair] = []
    blocked: list[tuple[int, int]] = []
    # (name, key for its text, where its content starts, whether it has a child element)
    stack: list[list] = []
    at = 0
    while True:
        m = _XML_TAG.search(text, at)
        if m is None:
            break
        at = m.end()
        if m["local"] is None:
            opener = m.group()
            closer = _XML_CLOSERS[opener]
            close = text.find(closer, m.end())
            if opener in ("<!--", "<![CDATA["):  # its words may be the note's: the markers only
                blocked.append((m.start(), m.end()))
                if close >= 0:
                    blocked.append((close, close + len(closer)))
            else:  # a declaration, a processing instruction: markup whole
                blocked.append((m.start(), len(text) if close < 0 else close + len(closer)))
            if close < 0:
                break
            at = close + len(closer)
            continue
        name = m["local"]
        start = m.start()
        kind = None
        if "=" in m["attrs"]:
            path = tuple(e[0] for e in stack)
            for a in _XML_ATTRIBUTE.finditer(m.group()):
                group = "d" if a["d"] is not None else "s"
                v0, v1 = m.start() + a.start(group), m.start() + a.end(group)
                blocked.append((start, v0))
                start = v1
                if a["key"].lower() in _XML_KIND and name.lower() in _XML_GENERIC:
                    kind = a[group]
                elif v0 < v1 and not m["close"]:
                    pairs.append(_Pair(a["key"], (*path, name), v0, v1))
        blocked.append((start, m.end()))
        if m["close"]:
            while stack and stack[-1][0] != name:
                stack.pop()
            if stack:
                element = stack.pop()
                if not element[3]:
                    begin, end = element[2], m.start()
                    while begin < end and text[begin].isspace():
                        begin += 1
                    while end > begin and text[end - 1].isspace():
                        end -= 1
                    if begin < end and "<" not in text[begin:end]:
                        pairs.append(_Pair(element[1], tuple(e[0] for e in stack), begin, end))
            continue
        if stack:
            stack[-1][3] = True
        if not m["empty"]:
            if len(stack) >= _MAX_DEPTH:
                break  # no export is this deep
            stack.append([name, kind or name, m.end(), False])
    return pairs, blocked


def _is_xml(text: str) -> bool:
    """An XML export: its declaration, or a root element and leaf elements; no CDA (``crfdeid.cda``)
    and no HTML page (``crfdeid.encodings``)."""
    head = text.lstrip()[:200]
    if not head.startswith("<") or "ClinicalDocument" in text[:4096] or _NOT_XML.match(head):
        return False
    return head.startswith("<?xml") or len(_LEAF.findall(text)) >= _MIN_ELEMENTS


def _sql_pairs(text: str) -> tuple[list[_Pair], list[tuple[int, int]]]:
    """An SQL dump's quoted values, each under its column's name and its table's (the columns
    from the INSERT, else from the table's CREATE); none without a table whose columns are
    known. And the dump's own words, where no span may be: the tables' definitions, the
    statements' heads and a row's unquoted words ("NULL", which the tagger had read as an
    organisation and every "NOT NULL" of the definitions had become "NOT UNED"). Linear: each
    row is read once, quotes and backslash escapes as SQL writes them."""
    if "INSERT" not in text.upper():
        return [], []
    columns: dict[str, list[str]] = {}
    blocked: list[tuple[int, int]] = []
    for create in _SQL_CREATE.finditer(text):
        names = [m["name"] for m in _SQL_COLUMN.finditer(create["body"])
                 if m["name"].lower() not in _SQL_NOT_COLUMN]
        columns[create["table"].lower()] = names
        blocked.append(create.span())
    pairs: list[_Pair] = []
    for insert in _SQL_INSERT.finditer(text):
        blocked.append(insert.span())
        table = insert["table"]
        names = ([c.strip(" `\"\t\r\n") for c in insert["columns"].split(",")] if insert["columns"]
                 else columns.get(table.lower(), []))
        if not names:
            continue
        at, column, depth = insert.end(), 0, 0
        while at < len(text):
            c = text[at]
            if c == "(":
                depth, column = depth + 1, 0
            elif c == ")":
                depth -= 1
            elif c == "," and depth == 1:
                column += 1
            elif c == ";" and depth == 0:
                break
            elif c == "'" and depth == 1:  # a quoted value: to its closing quote
                end = at + 1
                while end < len(text) and text[end] != "'":
                    end += 2 if text[end] == "\\" or text[end:end + 2] == "''" else 1
                if column < len(names) and end > at + 1:
                    pairs.append(_Pair(names[column], (table,), at + 1, min(end, len(text))))
                at = end
            elif c.isalpha() and depth == 1:  # an unquoted word: NULL, TRUE, a function's name
                end = at
                while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                    end += 1
                blocked.append((at, end))
                at = end - 1
            at += 1
    return pairs, blocked


def _aligned_pairs(text: str) -> tuple[list[_Pair], list[tuple[int, int]]]:
    """A metadata listing's values by their keys: ExifTool's output of a wound photo ("Serial
    Number : R52W70XKQ3M", "XP Author : rimateos", "Owner Name", "Artist"), MediaInfo's (the
    eighteenth set written blind: a tablet's serial number and a nurse's login stayed in
    clear). Read when five lines or more share the column of their colon, one of them padded
    to it; a key's words say what its value is, as an export's do."""
    if "  : " not in text:
        return [], []
    columns: dict[int, list[regex.Match[str]]] = {}
    for line in _ALIGNED_LINE.finditer(text):
        columns.setdefault(line.end("pad") - line.start(), []).append(line)
    pairs: list[_Pair] = []
    blocked: list[tuple[int, int]] = []
    for lines in columns.values():
        if len(lines) < _MIN_KEYS or not any(len(m["pad"]) >= 2 for m in lines):
            continue
        for line in lines:
            blocked.append(line.span("key"))
            if line["value"] and not _FILE_KEY.match(line["key"]):
                # (a file's name is its author's words: "WhatsApp Image 2026-11-21 at 19.04.55",
                # "IMG_20261124_103512" hold dates, which the tagger reads)
                if set(_words(line["key"])) & _LISTING_CODES:
                    # a camera's make and model, an image's size, a program's version: the
                    # tagger had made "samsung" an e-mail address and "4000x3000" a date
                    pairs.append(_Pair("model", (), line.start("value"), line.end("value")))
                    continue
                pairs.append(_Pair(line["key"], (), line.start("value"), line.end("value")))
    return pairs, blocked


def _content_pairs(text: str) -> tuple[list[_Pair], list[tuple[int, int]]]:
    """A vCard's or an iCalendar's values by their properties (``FN``, ``N``, ``ADR`` by its
    components, ``TEL``, ``EMAIL``, ``TITLE``, ``ORG``…) and the names its ``CN`` parameters
    give; the first physical line of a folded value (the tagger reads the rest). And the
    format's own words, where no span may be: the properties, their parameters, the values of
    ``BEGIN``, ``END``, ``VERSION``… None unless the text opens a card or a calendar (the
    seventeenth set written blind: a telecare service's vCards, a family's iCalendar)."""
    if "BEGIN:VCARD" not in text and "BEGIN:VCALENDAR" not in text:
        return [], []
    pairs: list[_Pair] = []
    blocked: list[tuple[int, int]] = []
    for line in _CONTENT_LINE.finditer(text):
        # the property and its parameters are the format's words ("BEGIN:VCARD" had been read
        # as an e-mail address, "VCARD" become "MONTILLA"), a CN's name aside
        cursor = line.start()
        for cn in _CN_PARAM.finditer(line["params"] or ""):
            group = "q" if cn["q"] else "v"
            start, end = (line.start("params") + at for at in cn.span(group))
            blocked.append((cursor, start))
            pairs.append(_Pair("name", ("contact_person",), start, end))
            cursor = end
        blocked.append((cursor, line.start("value")))
        if line["name"].upper() in _FORMAT_PROPERTIES:
            blocked.append(line.span("value"))
        value_start = line.start("value")
        value = line["value"]
        if value.lower().startswith("mailto:"):
            pairs.append(_Pair("email", (), value_start + 7, line.end("value")))
            continue
        keys = _CONTENT_KEYS.get(line["name"].lower())
        if keys is None:
            continue
        if len(keys) == 1:
            key = keys[0]
            if key == "phone" and "FAX" in (line["params"] or "").upper():
                key = "fax"
            path: tuple[str, ...] = ()
            if key == "name" and organisation_kind(value) != "organisation":
                path = ("organization",)  # a facility's card ("FN:Centro de Salud Isla Cristina")
            if key:
                pairs.append(_Pair(key, path, value_start, line.end("value")))
            continue
        # structured: the i-th component under the i-th key, empty components counted
        index, at = 0, 0
        while at <= len(value) and index < len(keys):
            m = _COMPONENT.match(value, at)
            end = m.end() if m else at
            if keys[index] and end > at:
                path = ("organization",) if keys[index] == "organization_name" else ()
                key = "name" if keys[index] == "organization_name" else keys[index]
                pairs.append(_Pair(key, path, value_start + at, value_start + end))
            index, at = index + 1, end + 1
    return pairs, blocked


def _json_pairs(node: object, path: tuple[str, ...] = ()) -> Iterator[_Pair]:
    if isinstance(node, JsonArray):
        for item in node.items:
            yield from _json_pairs(item, path)
    elif isinstance(node, JsonObject):
        for key, value in node.items:
            if isinstance(value, JsonString):
                yield _Pair(key.text, path, value.start, value.end)
            else:
                yield from _json_pairs(value, (*path, key.text))


@dataclass(frozen=True)
class KeyValues(LabelledStep):
    """The completion step: the scheme's label of each category an export's keys name."""

    def spans(self, text: str) -> list[Span]:
        return self.read(text)[0]

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        """The spans of the export's values, and where no span may be (its keys, the values of
        keys a program fills)."""
        if '"resourceType"' in text or (
                _ANY_MACHINE_KEY.search(text) is None and not text.lstrip().startswith(("<", "{"))
                and "INSERT INTO" not in text.upper() and "BEGIN:V" not in text and "  : " not in text):
            return [], []  # no key a program writes: prose, a form (the common case, at once)
        pairs, blocked = self._pairs(text)
        found: list[tuple[int, int, str]] = []
        for pair in pairs:
            category = _category(pair, text[pair.start:pair.end])
            if category == "code":
                blocked.append((pair.start, pair.end))
            elif category is not None:
                start = pair.start
                if category.startswith("person_") and (title := TITLE.match(text, start, pair.end)):
                    start = title.end()  # "Dr. Xoán Lema Outeiro": the name
                found.append((start, pair.end, category))
        out: list[Span] = []
        for start, end, category in sorted(found):
            label = self.labels.get(category)
            if label is not None and (not out or start >= out[-1].end):
                out.append(Span(start, end, label, source=SOURCE))
        return out, blocked

    @staticmethod
    def _pairs(text: str) -> tuple[list[_Pair], list[tuple[int, int]]]:
        """The export's pairs and its keys' ranges; none when ``text`` is no export."""
        sql, sql_blocked = _sql_pairs(text)
        if len(sql) >= _MIN_KEYS:
            return sql, sql_blocked
        content, content_blocked = _content_pairs(text)
        if len(content) >= _MIN_KEYS:
            return content, content_blocked
        aligned, aligned_blocked = _aligned_pairs(text)
        if len(aligned) >= _MIN_KEYS:
            return aligned, aligned_blocked
        if text.lstrip().startswith("<") and _is_xml(text):
            pairs, blocked = _xml_pairs(text)
            if len(pairs) >= _MIN_ELEMENTS:
                return pairs, blocked
        if len(_JSON_KEY.findall(text)) >= _MIN_KEYS:
            start = text.find("{")
            keys: list[JsonString] = []
            json_pairs: list[_Pair] = []
            records = 0
            while start >= 0:  # a JSON value, then the next record on a line of its own (NDJSON)
                parser = JsonParser(text, start)
                try:
                    root = parser.value()
                except ValueError:
                    root = None
                keys += parser.keys
                json_pairs += _json_pairs(root)
                records += isinstance(root, JsonObject) and len(parser.keys) >= 3
                following = _RECORD_LINE.search(text, max(parser.at, start + 1))
                start = following.end() - 1 if following else -1
            machine = sum(bool(_MACHINE.fullmatch(k.text.strip('"'))) for k in keys)
            # records one a line (two or more) are an export whatever their keys look like
            if len(keys) >= _MIN_KEYS and (machine >= _MIN_MACHINE or records >= 2):
                return json_pairs, [(k.start, k.end) for k in keys]
        lines = list(_LINE.finditer(text))
        if len(lines) < _MIN_KEYS or sum(bool(_MACHINE.fullmatch(m["key"])) for m in lines) < _MIN_MACHINE:
            return [], []
        return list(_yaml_pairs(text)), [(m.start("key"), m.end("key")) for m in lines]


def _category(pair: _Pair, value: str) -> str | None:
    """What the value of ``pair`` is by its key and the keys above it ("code": the program's
    own words; None: nothing the step reads)."""
    words = _words(pair.key)
    if not words or not any(c.isalnum() for c in value):
        return None
    whole = "_".join(words)
    category = _CATEGORY.get(whole)
    if category is None and (whole in _CODES or words[-1] in _CODES):
        return "code"
    if category is None and words[0] in _NOT_A_PERSON and words[-1] in ("name", "names"):
        return "code"  # a device's, a file's or an app's name
    if category is None and words[0] not in _NOT_A_PERSON:
        # the last word that says ("workplace_city", "passport_gb", "last_sync_ip")
        category = next((_CATEGORY[w] for w in reversed(words) if w in _CATEGORY), None)
    if _date(value) and (category is None or set(words) & _DATE_WORDS):
        return "date"  # "birth_date", "generated_at", "paired_at", "last_sync"
    if words[-1] == "contact":
        return "other" if _NAME.fullmatch(value) else None  # a school's contact: a teacher
    if category is None and _WHOSE.get(whole, "").startswith("person_") and _NAME.fullmatch(value):
        return _WHOSE[whole]  # a role's key with a name ("enfermera": "Rocío Vera Pozo")
    if category is None:
        return None
    parents = [w for key in pair.path for w in [*_words(key), "_".join(_words(key))]]
    whose = next((_WHOSE[w] for w in reversed(parents) if w in _WHOSE), None)
    if category == "name":
        if not _NAME.fullmatch(TITLE.sub("", value, count=1) if TITLE.match(value) else value):
            return None
        if whose == "organisation":
            return _organisation(value, parents)
        return whose or "person_patient"
    if category == "user":
        if _STAFF_CODE.fullmatch(value):
            return "id_employee"  # "ENF2271", "SES-77120": a code, not a name made into a login
        return "person_clinician" if _USER.fullmatch(value) else None
    if category in ("sex", "age") and whose not in (None, "person_patient"):
        return None
    letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
    if category in ("town", "region", "country", "profession") and not letters:
        return None
    if category.startswith(("id_", "device", "vehicle", "phone", "fax", "age", "postal")) and not digits:
        return None
    if category == "email" and "@" not in value:
        return None
    return category


def _date(value: str) -> bool:
    value = value.strip()
    return is_whole_date(_ISO_DATE, value) or _day_first(value)


def _day_first(value: str) -> bool:
    found = _DAY_FIRST.fullmatch(value)
    return found is not None and is_whole_date(_COMPACT, f"{found[3]}{int(found[2]):02d}{int(found[1]):02d}")


def _organisation(value: str, parents: list[str]) -> str:
    kind = organisation_kind(value)
    if kind == "organisation" and any(w in ("clinic", "hospital") for w in parents):
        return "hospital"
    return kind
