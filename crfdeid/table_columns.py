"""The cells of a table's column whose header names an identifier or a person.

Notes paste tables laid out with spaces or tabs: a vaccination record with a lot per dose, a
ward list with record numbers, a contact sheet with phones. The tagger reads a cell ("X3B471V")
as one word among words and, without "Lote:" before it, rarely as a lot: the eleventh set
written blind left five vaccine lots of one table in its output. Exports paste delimited tables
(an appointment list parted by ";", a dispensing record by "|"): the thirteenth set's CSV left
ten record numbers and pieces of eight names in its output. The header row says what each column
holds, so the step reads the table as a reader does.

The pack's manifest names the header words by category (``table_columns``: ``device: [lote,
"nº de lote"]``; "_" reads as a space: "fecha_cita"). A header line has three cells or more,
none ending in a colon (a form's fields are no table), one of them a header word as a whole
cell; its cells are parted by ";", "|" or tabs (twice or more in the line: a delimited table,
double quotes keeping a delimiter as text), else by two spaces. The rows under it, up to a blank
line or a line of one cell, give each cell to a column: by its index where the header is
delimited or parted by tabs, else by where it starts (a header cell's column runs from its start
to the next header cell's). A cell of such a column that holds a digit becomes a span of the
category's label, unless a detected span touches it (pieces of the cell the tagger found inside
it give way to the whole cell; a span that runs out of it keeps the cell). Under a person's
header (``person_patient``, ``person_clinician``…) a cell of two capitalised words or more and no
digit, up to a bracket ("PÉREZ MOLINA, JOSÉ ANTONIO (PEPE)"), is the person's name: one span,
which replaces the spans detected inside it; under an occupation's header ("Ocupación"), the
occupation up to where it says where ("tractorista en Agrícola…"). A header field of a patient's
or a relative's name ("Persona usuaria: MAÍLLO HERNÁNDEZ, Petra", "Contacto de la familia:
Oksana Bondarenko, +34 …") names the person the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import regex

from .langpack import LanguagePack, fold
from .listing import is_ruler
from .merge import Ranges
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "table-column"
#: A cell: text up to two spaces, a tab or the line's end.
_CELL = regex.compile(r"[^ \t](?:[^\t ]| (?![ \t]|$))*")
#: What a header cell may end with besides its word ("Lote.", "Nº lote:").
_TRIM = ".:"
#: A cell an identifier can be: a digit in it, at most this long.
_MAX_CELL = 40
_DIGIT = regex.compile(r"\p{Nd}")
#: The most rows read under one header (a note's table; past that, something else).
_MAX_ROWS = 200


@dataclass(frozen=True)
class TableColumns:
    """The completion step: header words (folded) and the label their column's cells take."""

    headers: Mapping[str, str]
    #: the labels of people's names: their cells hold no digit
    people: frozenset[str] = frozenset()
    #: a header field of the patient's name (the pack's ``patient_name_fields``, folded: "persona
    #: usuaria") and the patient's label: its value, name-shaped, is the name as a column's cell
    fields: frozenset[str] = frozenset()
    patient: str | None = None
    #: header words of a relative's column, folded, and the relative's label: a field of that key
    #: ("Contacto de la familia: Oksana Bondarenko, +34 …") names the relative the same way
    relative_fields: frozenset[str] = frozenset()
    relative: str | None = None
    #: the occupation's label: a cell under its header ("Ocupación") is the occupation, up to
    #: where it says where ("tractorista en Agrícola…")
    profession: str | None = None
    #: a header field of one part of the patient's name (``patient_name_part_fields``, folded:
    #: "segundo apellido"), and the name tables (folded given names, surnames): a value of one
    #: capitalised word there is the part when the tables know it
    part_fields: frozenset[str] = frozenset()
    given: frozenset[str] = frozenset()
    surnames: frozenset[str] = frozenset()
    #: the labels of places: a cell of words and no digit under a town's header ("MUNICIPIO
    #: RESIDENCIA") is the town
    places: frozenset[str] = frozenset()
    #: the label of an IP address: a cell of its column is one only in an address's shape (a
    #: Doppler table's "IP" is a pulsatility index, "1,12")
    ip: str | None = None

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, labels: Mapping[str, str | None]) -> TableColumns | None:
        """The step for ``pack`` with the scheme's label of each category, or None: the pack
        names no header, or the scheme has none of their categories."""
        if pack is None or not pack.table_columns:
            return None
        headers = {fold(word): label for category, words in pack.table_columns.items()
                   if (label := labels.get(category)) for word in words}
        people = frozenset(label for category, label in labels.items()
                           if label and category.startswith("person_"))
        fields = frozenset(fold(f) for f in (pack.surrogate.get("patient_name_fields") or ()))
        patient, relative = labels.get("person_patient"), labels.get("person_relative")
        relatives = frozenset(fold(w) for w in pack.table_columns.get("person_relative", ()))
        if not headers:
            return None
        parts = frozenset(fold(f) for f in (pack.surrogate.get("patient_name_part_fields") or ()))
        places = frozenset(label for category, label in labels.items() if label and category == "town")
        return cls(headers, people, fields if patient else frozenset(), patient,
                   relatives if relative else frozenset(), relative, labels.get("profession"),
                   parts if patient else frozenset(), places=places, ip=labels.get("ip"))

    def with_names(self, given: frozenset[str], surnames: frozenset[str]) -> TableColumns:
        """The step with the name tables a field of one name part is checked against (the lone
        names step's own sets: no second copy)."""
        return replace(self, given=given, surnames=surnames)

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The cells under a header word that hold a digit (a name, under a person's header)
        and that no span of ``spans`` touches (a name's cell takes the spans inside it)."""
        return self.complete(text, spans)[1]

    def complete(self, text: str, spans: Sequence[Span]) -> tuple[list[Span], list[Span]]:
        """(the spans of ``spans`` kept, the cells found): a person's cell replaces the spans
        inside it (the tagger's pieces of "GARCÍA DE LA FUENTE, ENCARNACIÓN", one of them a town)."""
        labelled = [(s.start, s.end, s.label) for s in spans]
        detected = Ranges(labelled)

        def held(begin: int, end: int, label: str) -> bool:  # a span of that label holds it already
            return any(a <= begin and end <= b and lab == label for a, b, lab in detected.near(begin, end))

        found: list[Span] = []
        names: list[tuple[int, int]] = []
        crossing: list[tuple[int, int]] = []
        if self.fields or self.relative_fields or self.part_fields:
            keys = [*(_KEY_VALUE.finditer(text) if ":" in text or "..." in text else ()),
                    *(_KEY_SPACED.finditer(text) if "  " in text else ()), *_KEY_ABOVE.finditer(text)]
            for key in keys:
                field = fold(key["key"].strip())
                if field in self.part_fields and key.re is _KEY_VALUE:
                    part = self._name_part(key["value"]) or _name_cell(key["value"])
                    if part:
                        begin = key.start("value")
                        if not held(begin, begin + len(part), self.patient or ""):
                            names.append((begin, begin + len(part)))
                            found.append(Span(begin, begin + len(part), self.patient or "", source=SOURCE))
                            # a person's span over the part and the next field's name ("OLMEDO
                            # Segundo") gives way: the field says where the name ends
                            crossing += [(a, b) for a, b, lab in labelled
                                         if lab in self.people and a < begin + len(part) and b > begin]
                        continue
                label = (self.patient if field in self.fields
                         else self.relative if field in self.relative_fields else None)
                if label is None:
                    continue
                value = _HONORIFIC.sub("", key["value"], count=1)
                begin = key.start("value") + len(key["value"]) - len(value)
                # the whole value, else what comes before its first comma ("Oksana Bondarenko,
                # +34 634 …"; "SURNAMES, Given" is whole)
                name = _name_cell(value) or _name_cell(value.split(",", 1)[0])
                if key.re is _KEY_ABOVE and name != value.strip():
                    continue  # under a heading, the whole line must be the name
                if name and not held(begin, begin + len(name), label):
                    names.append((begin, begin + len(name)))
                    found.append(Span(begin, begin + len(name), label, source=SOURCE))
        if "  " not in text and "\t" not in text and ";" not in text and "|" not in text:
            kept = [s for s in spans if not any(a <= s.start and s.end <= b for a, b in names)
                    and (s.start, s.end) not in crossing]
            return kept + _outside(text, spans, crossing, names), found
        def take(label: str | None, begin: int, cell: str) -> None:
            """A cell of a column of ``label`` at ``begin``: its span, if it holds one."""
            if label is None or len(cell) > _MAX_CELL:
                return
            if label == self.profession:
                work = _occupation_cell(cell)
                if work and not held(begin, begin + len(work), label):
                    names.append((begin, begin + len(work)))
                    found.append(Span(begin, begin + len(work), label, source=SOURCE))
                return
            if label in self.people or label in self.places:
                name = _name_cell(cell) if label in self.people else _place_cell(cell)
                if name and not held(begin, begin + len(name), label):
                    names.append((begin, begin + len(name)))
                    found.append(Span(begin, begin + len(name), label, source=SOURCE))
                return
            if not _DIGIT.search(cell):
                return
            if label == self.ip and not _IP_CELL.fullmatch(cell.rstrip(".,;")):
                return
            cell = cell.rstrip(".,;")
            end = begin + len(cell)
            if not detected.near(begin, end):
                found.append(Span(begin, end, label, source=SOURCE))
            elif not held(begin, end, label) and all(
                    begin <= a and b <= end for a, b, _ in detected.near(begin, end)):
                # the tagger's pieces of one cell ("0040" + "722 315 604" of a phone, whose
                # "0040" became "4885"): the cell whole, as its column says
                names.append((begin, end))
                found.append(Span(begin, end, label, source=SOURCE))

        lines = _lines(text)
        i = 0
        while i < len(lines):
            _, line = lines[i]
            ruler = _ruler(lines[i + 1][1]) if i + 1 < len(lines) and "-" in lines[i + 1][1] else None
            if ruler is not None and (labels := self._ruled_header(line, ruler)) is not None:
                # a listing's columns, by the ruler under its header ("-------- ------ - ---")
                i += 2
                for row_start, row in lines[i : i + _MAX_ROWS]:
                    cells = _ruled_cells(row, ruler)
                    if _rule_line(row) or sum(1 for _, c in cells if c) < 2:
                        break
                    i += 1
                    before = len(names)
                    for (offset, cell), label in zip(cells, labels, strict=True):
                        if cell:
                            take(label, row_start + offset, cell)
                    # a span of the tagger's running out of a name's cell into the next columns
                    # ("ROSALIA   M  91" as a street) gives way: the columns say where it ends
                    crossing += [(a, b) for x, y in names[before:] for a, b, _ in detected.near(x, y)
                                 if not (x <= a and b <= y)]
                continue
            read = self._header(line)
            i += 1
            if read is None:
                self._row_keyed(line, lines[i - 1][0], take)
                continue
            header, delimiter = read
            for row_start, row in lines[i : i + _MAX_ROWS]:
                cells = _cells(row) if not delimiter else _delimited(row, delimiter)
                if len(cells) < 2:
                    break
                i += 1
                for index, (offset, cell) in enumerate(cells):
                    column = index if delimiter is not None else _column_at(header, offset, len(cell))
                    label = header[column][2] if column is not None and column < len(header) else None
                    take(label, row_start + offset, cell)
        inside, cut = Ranges(names), set(crossing)
        kept = [s for s in spans if (s.start, s.end) not in cut
                and not any(a <= s.start and s.end <= b for a, b in inside.near(s.start, s.end))]
        return kept + _outside(text, spans, crossing, names), found

    def tab_tables(self, text: str) -> list[tuple[int, int]]:
        """The stretches of ``text`` that are tables parted by tabs: a header row this step reads
        (two tabs or more, its cells a few words each, none ending with a full stop or a comma),
        then at least one row with as many tabs. A tab elsewhere (a space typed as one: "No fue
        descrita<TAB>ninguna<TAB>secuela<TAB>en<TAB>la<TAB>paciente.") makes no table."""
        out: list[tuple[int, int]] = []
        lines = _lines(text)
        i = 0
        while i < len(lines):
            start, line = lines[i]
            tabs = line.count("\t")
            i += 1
            cells = line.split("\t")
            if (tabs < 2 or self._header(line) is None
                    or any(len(c.split()) > 4 or c.rstrip().endswith((".", ",", ";")) for c in cells)):
                continue  # a header's cells are a few words, none ending a sentence
            end = start + len(line)
            while i < len(lines) and lines[i][1].count("\t") == tabs:
                end = lines[i][0] + len(lines[i][1])
                i += 1
            if end > start + len(line):
                out.append((start, end))
        return out

    def _name_part(self, value: str) -> str:
        """A field's value of one capitalised word that the name tables know ("REBOLLO",
        "AURELIO (en casa le llaman…)"), else ""."""
        word = value.split("(", 1)[0].strip().rstrip(".,;")
        if not word or not _NAME_PART.fullmatch(word) or not word[:1].isupper() or _DIGIT.search(word):
            return ""
        key = fold(word)
        return word if key in self.given or key in self.surnames else ""

    def _label_of(self, cell: str) -> str | None:
        """The label of a header cell: its words a header word, else — for an identifier's
        column, whose cells must hold a digit — a header word followed by what it is of ("Lote
        dializador", "Episodio urgencias") or after it ("Monitor n.º serie"): the fifteenth
        set's dialysis sheet left its lots in clear. A cell a span holds already keeps it (a
        date under "Fecha episodio" stays a date)."""
        key = _header_key(cell)
        label = self.headers.get(key)
        if label is not None:
            return label
        words = key.split()
        for i in range(len(words) - 1, 0, -1):
            label = self.headers.get(" ".join(words[:i]))
            if label is not None and label not in self.people and label != self.profession:
                return label
        for i in range(1, len(words)):
            label = self.headers.get(" ".join(words[i:]))
            if label is not None and label not in self.people and label != self.profession:
                return label
        return None

    def _row_keyed(self, line: str, line_start: int, take: Callable[[str | None, int, str], None]) -> None:
        """A delimited row whose first cell names an identifier and whose other cells are its
        values: a table laid out the other way round, a field per row ("|NHC|4402781|9917340|"
        comparing two records in a ticket: the nineteenth set written blind left both)."""
        if _delimiter(line) != "|":  # a wiki's or Markdown's table ("A; 2 ingresos; …" is prose)
            return
        cells = [(offset, cell) for offset, cell in _delimited(line, "|") if cell]
        label = self._label_of(cells[0][1].strip("*")) if len(cells) >= 2 else None
        if label is None or label in self.people or label in self.places or label == self.profession:
            return
        for offset, cell in cells[1:]:
            take(label, line_start + offset, cell)

    def _ruled_header(self, line: str, ruler: Sequence[tuple[int, int]]) -> list[str | None] | None:
        """The label of each column of a header line over a ruler, or None: no column's header
        is a header word."""
        labels = [self._label_of(c) if (c := cell.strip()) else None for _, cell in _ruled_cells(line, ruler)]
        return labels if any(labels) else None

    def _header(self, line: str) -> tuple[list[tuple[int, str, str | None]], str | None] | None:
        """A header line's cells (offset, text, the label of its column or None) and how its
        rows are read: None (cells parted by spaces, a column by where it starts), "" (parted
        by a tab, a column by its index) or the character a delimited table is parted by
        (";", "|", a tab); None when the line is no header."""
        delimiter = _delimiter(line)
        cells = _cells(line) if delimiter is None else _delimited(line, delimiter)
        if len(cells) < 3 or any(c.endswith(":") for _, c in cells):
            return None
        if any(len(_DIGIT.findall(c)) >= 5 for _, c in cells):
            return None  # a value in it: a form's line laid out in columns ("PACIENTE  PRIETO DEL RÍO,
            # JOSÉ MARÍA  NHC  24-1187340"), whose next lines' keys had been read as names
        header = [(offset, cell, self._label_of(cell)) for offset, cell in cells]
        if not any(label for _, _, label in header):
            return None
        return header, ("" if delimiter is None and "\t" in line else delimiter)


def _outside(text: str, spans: Sequence[Span], crossing: list[tuple[int, int]],
             names: list[tuple[int, int]]) -> list[Span]:
    """What a span that ran over a field's name part holds outside the names found, each piece
    after its field's colon ("Joaquim   Cognoms: Ferrer Mascarell" once "Joaquim" is the Nom
    field's: "Ferrer Mascarell"); a piece of no letter, or that a found name holds, goes."""
    out = []
    for span in spans:
        if (span.start, span.end) not in crossing:
            continue
        at = span.start
        for a, b in [*sorted(names), (span.end, span.end)]:
            if b <= at or a > span.end:
                continue
            piece_end = min(a, span.end)
            if piece_end > at:
                colon = text.rfind(":", at, piece_end)
                start = colon + 1 if colon >= 0 else at
                while start < piece_end and not text[start].isalnum():
                    start += 1
                end = piece_end
                while end > start and not text[end - 1].isalnum() and text[end - 1] != ".":
                    end -= 1
                # a field's value (after its colon), or the span's own start before any field
                # ("Segundo" alone, a field's name before its colon, goes)
                value = colon >= 0 and any(c.isalpha() for c in text[start:end])
                lead = start == span.start and end > start
                if (value or lead) and not any(x <= start and end <= y for x, y in names):
                    out.append(replace(span, start=start, end=end))
            at = max(at, b)
    return out


def _header_key(cell: str) -> str:
    """A header cell as the pack's words are looked up: folded, "_" a space ("fecha_cita")."""
    return fold(cell.rstrip(_TRIM).strip().replace("_", " "))


def _delimiter(line: str) -> str | None:
    """The character a delimited table's line is parted by (";", "|", a tab), or None."""
    for delimiter in (";", "|", "\t"):
        if line.count(delimiter) >= 2:
            return delimiter
    return None


def _delimited(line: str, delimiter: str) -> list[tuple[int, str]]:
    """A delimited line's cells with their offsets, each without its spaces and quotes; a
    delimiter between double quotes is text ("Precisa intérprete; suele…")."""
    out: list[tuple[int, str]] = []
    start, quoted = 0, False
    for at, char in enumerate([*line, delimiter]):
        if char == '"':
            quoted = not quoted
        elif char == delimiter and (not quoted or at == len(line)):
            raw = line[start:at]
            inner = raw.strip().strip('"')
            lead = raw.find(inner) if inner else 0
            out.append((start + lead, inner))
            start, quoted = at + 1, False
    return out if len(out) >= 2 else []


#: A header field and its value, up to a column gap or the line's end ("Persona usuaria: MAÍLLO
#: HERNÁNDEZ, Petra     DNI: …"): the key at a line's start or after a column gap, a colon or
#: dot leaders after it ("Nombre ............. AURELIO"). After a column gap, the key is looked for
#: only where a letter is (from each of its spaces, ``[ \t]*`` had read the rest of the gap:
#: quadratic).
_KEY_VALUE = regex.compile(
    r"(?m)(?:^[ \t]*|(?=\p{L})(?<=(?:[ ]{2}|\t)[ \t]*))"
    r"(?P<key>\p{L}[\p{L} ]{2,30}?)[ \t]*+(?::|\.{3,}:?)[ \t]*"
    r"(?P<value>[^\n\t]+?)(?=[ ]{2,}|\t|[ \t]*$)")
#: A form's field laid out in columns: its name in capitals at a line's start, two spaces or more,
#: its value ("PACIENTE      PRIETO DEL RÍO, JOSÉ MARÍA      NHC  24-1187340": a lab printout).
_KEY_SPACED = regex.compile(
    r"(?m)^[ \t]*(?P<key>\p{Lu}[\p{Lu} ]{2,30}?)[ ]{2,}(?P<value>[^\n\t]+?)(?=[ ]{2,}|\t|[ \t]*$)")
#: A form's heading on its own line, in capitals, and the next line its value ("PACIENTE" / "  DEL
#: CASTILLO Y NAVARRO, JOSÉ MIGUEL": an e-prescription sheet, the fourteenth set written blind).
#: Possessive spaces: a line of thousands of tabs stays linear.
_KEY_ABOVE = regex.compile(
    r"(?m)^[ \t]*(?P<key>\p{Lu}[\p{Lu} ]{2,30}?)[ \t]*+:?[ \t]*+\n[ \t]*(?P<value>[^\n]+?)(?<![ \t])[ \t]*+$")
#: A title before a field's name ("Contacto: Sra. Oksana Bondarenko"): not part of the name.
_HONORIFIC = regex.compile(r"^(?:(?:D|Dña|Dª|Sr|Sra|Srta|Dr|Dra)\.|Don|Doña)[ \t]+")
#: A word of a person's name in a table's cell: capitalised, an initial, or a particle.
_NAME_WORD = regex.compile(
    r"(?:\p{Lu}[\p{L}’'-]*\.?|de|del|la|las|los|y|i|da|do|dos|das|van|von|der|den|ben|el|al)")
_NAME_PART = regex.compile(r"[^\s,]+")
#: A name ending with an initial and its full stop ("B. Olmedilla J.").
_INITIAL_END = regex.compile(r"(?<![\p{L}])\p{Lu}\.$")


#: Where an occupation's cell goes on to say where or for whom ("tractorista en Agrícola…").
_OCCUPATION_END = regex.compile(r"[ \t]+(?:en|para|con|desde|de[ \t]+la[ \t]+empresa)[ \t]+|[,;(]")
_NOT_AN_OCCUPATION = frozenset({"-", "—", "no", "ninguna", "ninguno", "nada", "no consta", "desconocida"})


def _occupation_cell(cell: str) -> str:
    """The occupation an occupation's cell holds, up to where it says where ("estudiante en el
    IES…" -> "estudiante"); "" when it holds a digit, no letter, or says there is none."""
    end = _OCCUPATION_END.search(cell)
    work = (cell[: end.start()] if end else cell).strip()
    if not work or _DIGIT.search(work) or fold(work) in _NOT_AN_OCCUPATION or len(work.split()) > 6:
        return ""
    return work if any(c.isalpha() for c in work) else ""


def _name_cell(cell: str) -> str:
    """The name a person's cell holds ("PÉREZ MOLINA, JOSÉ ANTONIO (PEPE)" -> up to the
    bracket), or "" when it is no name: a digit, a word in lower case that is no particle
    ("el paciente"), or fewer than two capitalised words."""
    name = cell.split("(", 1)[0].strip().rstrip(",;")
    if name.endswith(".") and not _INITIAL_END.search(name):
        name = name[:-1].rstrip()  # the field's full stop ("Apellidos: Ubrique Paz."), not an initial's
    if not name or _DIGIT.search(name):
        return ""
    words = _NAME_PART.findall(name)
    if not all(_NAME_WORD.fullmatch(w) for w in words):
        return ""
    return name if sum(w[:1].isupper() for w in words) >= 2 else ""



#: A town's cell: words, maybe an article in brackets ("LARACHA (A)"), no digit.
_PLACE_CELL = regex.compile(r"\p{L}[\p{L}'’.-]*(?:[ ]\p{L}[\p{L}'’.-]*){0,5}(?:[ ]\(\p{L}{1,3}\))?")


def _ruler(line: str) -> list[tuple[int, int]] | None:
    """The columns a ruler line marks, (start, end) of each run of dashes, or None."""
    if not is_ruler(line):
        return None
    return [(m.start(), m.end()) for m in regex.finditer(r"-+", line)]


def _rule_line(line: str) -> bool:
    """A line that only rules (dashes, equals signs, underscores, asterisks) or is blank."""
    body = line.strip(" \t\r")
    return not body or (not body.strip("-=_* \t") and len(body.replace(" ", "")) >= 3)


def _ruled_cells(line: str, ruler: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    """A listing's line cut at its ruler's columns: each column's text and its offset, without
    spaces (a column runs to the next one's start; the last to the line's end)."""
    out = []
    for k, (start, _) in enumerate(ruler):
        end = ruler[k + 1][0] if k + 1 < len(ruler) else len(line)
        raw = line[start:end] if start < len(line) else ""
        inner = raw.strip()
        out.append((start + (raw.find(inner) if inner else 0), inner))
    return out


def _place_cell(cell: str) -> str:
    """The town a town's cell holds ("MALPICA DE BERGANTIÑOS", "LARACHA (A)"), or "" (a digit, a
    word in lower case first, or what says there is none: "NO CONSTA", "DOMICILIO")."""
    cell = cell.strip().rstrip(".,;")
    if fold(cell) in _NO_PLACE:
        return ""
    return cell if _PLACE_CELL.fullmatch(cell) and not _DIGIT.search(cell) and cell[:1].isupper() else ""


#: A cell that says there is no town, or none to say.
_NO_PLACE = frozenset({"no consta", "desconocido", "desconocida", "domicilio", "sin datos", "ns/nc", "n/a",
                       "no", "ninguno", "ninguna", "pendiente", "otro", "otra", "otros", "extranjero"})
#: An IP address as a cell holds it (IPv4, or IPv6's hex groups).
_IP_CELL = regex.compile(r"\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}")


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line of ``text`` with its offset."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _cells(line: str) -> list[tuple[int, str]]:
    """A line's cells and their offsets in it (a tab, or two spaces or more, part cells)."""
    return [(m.start(), m.group()) for m in _CELL.finditer(line)]


def _column_at(header: Sequence[tuple[int, str, str | None]], offset: int, length: int = 0) -> int | None:
    """The header column a cell starting at ``offset`` falls in (the last header cell starting
    at or before it; a cell before the first header cell belongs to none) — or, where the cell
    ends where a header cell ends, that one's: a right-aligned column (pandas prints a data
    frame so, numbers and text: the nineteenth set written blind, a notebook's record numbers
    under "nhc" had been read as the dates of the column before)."""
    end = offset + length
    for index, (start, cell, _) in enumerate(header):
        if length and start + len(cell) == end and offset < start:
            return index
    column = None
    for index, (start, _, _) in enumerate(header):
        if start <= offset:
            column = index
        else:
            break
    return column


def with_table_columns(text: str, spans: Iterable[Span], step: TableColumns | None) -> list[Span]:
    """``spans`` and the table cells ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    kept, found = step.complete(text, spans)
    return sorted([*kept, *found], key=lambda s: (s.start, s.end, s.label))
