"""The identifiers of an HL7 v2 message pasted into a note, by where the standard puts them.

Laboratory results, admissions and referrals travel between hospital systems as HL7 v2
messages, and exports paste them into notes whole: ``PID|1||20348817^^^HGR^PI||MARTÍNEZ
SOLER^ROSA MARÍA||19580412|F|||C/ DEL SOL 14^^REQUENA^VALENCIA^46340^ESP``. The tagger, trained
on prose, reads a segment as one long word run: the thirteenth set written blind left a record
number, a health card, eleven timestamps, a postal code and a clinician's licence number of one
message in its output. The standard says what each field holds, so the step reads the message
as an interface engine does.

A message is found by its ``MSH`` segment (its fourth character is the field separator, the
next ones the component, repetition, escape and subcomponent separators); the segment lines
after it are read up to the first line that is no segment. Each field the table below knows
gives its components the category's label (the scheme's); any other component that is a whole
HL7 timestamp (``YYYYMMDD[HHMM[SS]]``, a real date) is a date. A detected span overlapping a
component the step labels gives way to it: the message says what the component is. Free text
(``OBX-5`` of a ``TX`` result) is left to the tagger and the rules, as any prose.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .merge import LabelledStep, with_found
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "hl7"
#: A segment line: three capitals or digits, then the field separator.
_SEGMENT = regex.compile(r"[A-Z][A-Z0-9]{2}(?=[|^~\\&#!])")
#: An HL7 timestamp: a date, the time of day optional, a zone optional.
_TIMESTAMP = regex.compile(
    r"((?:19|20)\d{2})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?)?(?:[+-]\d{4})?")

# How a field's value is read:
#   ts    a timestamp (its first component)
#   id    an identifier list (CX): the first component of each repetition; the type code in the
#         fifth says a health card or a social-security number ("JHN", "SS", "NH")
#   name  a person's name (XPN): family name, given name, second given name
#   staff a clinician (XCN): licence number, family name, given name, second given name (a
#         first component without a digit is the family name: senders leave the number out)
#   addr  an address (XAD): street, other line, town, region, postal code, country
#   tel   telephone numbers (XTN): the number of each repetition, an e-mail address in the fourth
#   <category>  the whole field, one span of that category
_FIELDS: Mapping[str, Mapping[int, tuple[str, str]]] = {
    "MSH": {7: ("ts", "date")},
    "EVN": {2: ("ts", "date"), 5: ("staff", "person_clinician"), 6: ("ts", "date")},
    "PID": {2: ("id", "id_patient"), 3: ("id", "id_patient"), 4: ("id", "id_patient"),
            5: ("name", "person_patient"), 6: ("name", "person_relative"), 7: ("ts", "date"),
            8: ("sex", "sex"), 9: ("name", "person_patient"), 11: ("addr", "street"),
            13: ("tel", "phone"), 14: ("tel", "phone"), 18: ("id", "id_case"),
            19: ("id", "id_insurance"), 20: ("id", "id_other"), 21: ("id", "id_other"),
            23: ("town", "town"), 29: ("ts", "date")},
    "PD1": {4: ("staff", "person_clinician")},
    "NK1": {2: ("name", "person_relative"), 4: ("addr", "street"), 5: ("tel", "phone"),
            6: ("tel", "phone"), 30: ("name", "person_relative"), 31: ("tel", "phone"),
            32: ("addr", "street"), 33: ("id", "id_other")},
    "PV1": {7: ("staff", "person_clinician"), 8: ("staff", "person_clinician"),
            9: ("staff", "person_clinician"), 17: ("staff", "person_clinician"),
            19: ("id", "id_case"), 44: ("ts", "date"), 45: ("ts", "date"), 50: ("id", "id_case"),
            52: ("staff", "person_clinician")},
    "PV2": {8: ("ts", "date"), 9: ("ts", "date")},
    "ORC": {2: ("id", "id_case"), 3: ("id", "id_case"), 4: ("id", "id_case"), 9: ("ts", "date"),
            10: ("staff", "person_clinician"), 11: ("staff", "person_clinician"),
            12: ("staff", "person_clinician"), 15: ("ts", "date")},
    "OBR": {2: ("id", "id_case"), 3: ("id", "id_case"), 6: ("ts", "date"), 7: ("ts", "date"),
            8: ("ts", "date"), 14: ("ts", "date"), 16: ("staff", "person_clinician"),
            22: ("ts", "date"), 28: ("staff", "person_clinician")},
    "OBX": {14: ("ts", "date"), 16: ("staff", "person_clinician"), 19: ("ts", "date")},
    "SPM": {2: ("id", "id_case"), 17: ("ts", "date"), 18: ("ts", "date")},
    "IN1": {16: ("name", "person_relative"), 18: ("ts", "date"), 19: ("addr", "street"),
            36: ("id", "id_insurance"), 49: ("id", "id_insurance")},
    "GT1": {3: ("name", "person_relative"), 5: ("addr", "street"), 6: ("tel", "phone"),
            7: ("tel", "phone"), 8: ("ts", "date"), 12: ("id", "id_insurance")},
    "MRG": {1: ("id", "id_patient"), 3: ("id", "id_case")},
    "TXA": {9: ("staff", "person_clinician"), 12: ("id", "id_case"), 22: ("staff", "person_clinician")},
    "DG1": {5: ("ts", "date"), 16: ("staff", "person_clinician")},
}
#: Identifier type codes (CX.5) of health cards and social-security numbers (HL7 table 0203).
_INSURANCE_TYPES = frozenset({"JHN", "SS", "NH", "HC"})
#: The categories of an address's components, in order (XAD).
_ADDRESS = ("street", "street", "town", "region", "postal_code", "country")
#: Every category the step can give a span (``Hl7Fields.for_scheme`` asks the scheme for each).
CATEGORIES = tuple(sorted({c for fields in _FIELDS.values() for _, c in fields.values()}
                          | {"id_insurance", "id_licence", "phone", "email", "date", *_ADDRESS}))


@dataclass(frozen=True)
class Hl7Fields(LabelledStep):
    """The completion step: the scheme's label of each category the table names."""

    def spans(self, text: str) -> list[Span]:
        """The spans of every HL7 message in ``text``."""
        if "MSH" not in text:
            return []
        found: list[Span] = []
        at = 0
        separators: str | None = None
        for line in text.split("\n"):
            start = at
            at += len(line) + 1
            body = line.rstrip("\r")
            if body.startswith("MSH") and _separators(body[3:8]):
                separators = body[3:8]
            elif separators is None:
                continue
            elif not (_SEGMENT.match(body) and body[3] == separators[0]):
                separators = None  # the message ended
                continue
            found += self._segment(body, start, separators)
        return found

    def _segment(self, line: str, offset: int, separators: str) -> list[Span]:
        field_sep, component, repetition = separators[0], separators[1], separators[2]
        name = line[:3]
        known = _FIELDS.get(name, {})
        out: list[Span] = []
        fields = _split(line, 0, field_sep)
        for index, (f_start, value) in enumerate(fields):
            # MSH-1 is the separator itself: its fields are counted one further
            number = index + 1 if name == "MSH" else index
            if index == 0 or not value:
                continue
            kind, category = known.get(number, ("", ""))
            for r_start, rep in _split(value, f_start, repetition):
                components = _split(rep, r_start, component)
                out += self._field(kind, category, components, offset)
        return out

    def _field(self, kind: str, category: str, components: Sequence[tuple[int, str]],
               offset: int) -> list[Span]:
        labels = self.labels
        wanted: list[tuple[int, str, str]] = []  # (start, text, category)
        if kind == "id" and components and components[0][1]:
            kind_code = components[4][1] if len(components) > 4 else ""
            chosen = "id_insurance" if kind_code.upper() in _INSURANCE_TYPES else category
            wanted.append((*components[0], chosen))
        elif kind == "name":
            wanted += [(*c, category) for c in components[:3]]
        elif kind == "staff":
            if components and any(ch.isdigit() for ch in components[0][1]):
                wanted.append((*components[0], "id_licence"))
                wanted += [(*c, category) for c in components[1:4]]
            else:  # written without the number: the name from the first component on
                wanted += [(*c, category) for c in components[:3]]
        elif kind == "addr":
            wanted += [(*c, cat) for c, cat in zip(components, _ADDRESS, strict=False)]
        elif kind == "tel":
            if components and any(ch.isdigit() for ch in components[0][1]):
                wanted.append((*components[0], "phone"))
            if len(components) > 3 and "@" in components[3][1]:
                wanted.append((*components[3], "email"))
        elif kind == "ts":
            if components and is_timestamp(components[0][1]):
                wanted.append((*components[0], "date"))
        elif kind in ("sex", "town"):
            if components and components[0][1]:
                wanted.append((*components[0], category))
        else:  # a field the table does not know: only what is plainly a timestamp
            wanted += [(*c, "date") for c in components if is_timestamp(c[1])]
        out = []
        for start, value, cat in wanted:
            label = labels.get(cat)
            stripped = value.strip()
            if label is None or not stripped or not any(ch.isalnum() for ch in stripped):
                continue
            begin = offset + start + (len(value) - len(value.lstrip()))
            out.append(Span(begin, begin + len(stripped), label, source=SOURCE))
        return out


def _split(value: str, offset: int, separator: str) -> list[tuple[int, str]]:
    """``value`` cut at ``separator``: each piece with its offset (``offset`` is the value's)."""
    out, at = [], 0
    for piece in value.split(separator):
        out.append((offset + at, piece))
        at += len(piece) + 1
    return out


def _separators(chars: str) -> bool:
    """Are these the five separators an MSH segment opens with ("|^~\\&")?"""
    return len(chars) == 5 and len(set(chars)) == 5 and not any(c.isalnum() or c.isspace() for c in chars)


def is_timestamp(value: str) -> bool:
    """Is ``value`` a whole HL7 timestamp of a real date?"""
    return is_whole_date(_TIMESTAMP, value.strip())


def is_whole_date(pattern: regex.Pattern, value: str) -> bool:
    """Does ``pattern`` (year, month and day its first three groups) match all of ``value``,
    and is that day in the calendar?"""
    found = pattern.fullmatch(value)
    if found is None:
        return False
    try:
        dt.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return False
    return True


def with_hl7_fields(text: str, spans: Iterable[Span], step: Hl7Fields | None) -> list[Span]:
    """``spans`` with the HL7 fields ``step`` labels; a detected span overlapping one gives way."""
    spans = list(spans)
    if step is None:
        return spans
    return with_found(spans, step.spans(text))
