"""A note that carries its text in a transfer encoding: an RTF source, a MIME e-mail's
quoted-printable part and encoded words, a LaTeX source's accent commands, a URL-encoded form.

Exports from older hospital systems keep a report as RTF source (``Dra. Merc\\'e8 Ballester
Foix\\par``), and a mailbox export keeps an e-mail raw (``From: =?UTF-8?Q?I=C3=B1aki_Zubizarreta?=``,
``Jos=C3=A9 Mari Etxeberria``). A reader sees "Mercè", "Iñaki" and "José"; the tagger and the
rules saw "Merc", "I", "C3", "B1aki": the fifteenth set written blind left a name, a licence
number, a street and an institution of each in clear. So the detection view decodes them
(``crfdeid.textview``), every span found on it maps back to the encoded characters, and a
surrogate is written back encoded as what it replaces (``encode_like``): the RTF stays RTF, the
part stays quoted-printable.

``decode`` finds the encoding by the text's own marks, never by guess: RTF by the ``{\\rtf`` it
opens with; quoted-printable by a ``Content-Transfer-Encoding: quoted-printable`` header (the
part's body after it is decoded, up to a boundary the message declares); encoded words in a text
with ``MIME-Version`` or ``Content-Type``; the ``\\u`` escapes of a JSON text's strings; a LaTeX
source's accents (``Mercad\\'e``, ``Pla\\c{c}a``) by its ``\\documentclass`` or
``\\begin{document}``; a URL-encoded form (``nombre=Jos%C3%A9+Antonio``) by its
``application/x-www-form-urlencoded`` header, a URL's query string, or a line of form fields
joined by "&". Anything else is left as it is. A surrogate goes back through ``write_like``.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

#: (original start, original end, decoded text) of each change, in order, disjoint.
Change = tuple[int, int, str]

# -- RTF ---------------------------------------------------------------------------------------
_RTF_START = re.compile(r"\A[\s\ufeff]*\{\\rtf")
#: A control word (its one delimiting space), a control symbol, a hex escape, a brace.
_RTF_TOKEN = re.compile(
    r"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?|\\([a-zA-Z]+)(-?\d+)? ?|\\([^a-zA-Z'])|([{}])|(\r\n|\n|\r)")
#: Groups whose content is no text of the document (fonts, colours, styles, pictures); a page's
#: header and footer and the document's metadata (its author) are text, and read.
_RTF_DESTINATIONS = frozenset({"fonttbl", "colortbl", "stylesheet", "pict", "listtable",
                               "listoverridetable", "rsidtbl", "generator", "themedata", "datastore",
                               "latentstyles", "xmlnstbl", "filetbl", "object"})
_RTF_WORDS = {"par": "\n", "line": "\n", "sect": "\n", "page": "\n", "row": "\n", "tab": "\t",
              "cell": "\t", "endash": "\u2013", "emdash": "\u2014", "bullet": "\u2022", "lquote": "\u2018",
              "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d", "enspace": " ",
              "emspace": " "}
_RTF_SYMBOLS = {"\\": "\\", "{": "{", "}": "}", "~": "\u00a0", "-": "", "_": "\u2011"}


def _rtf(text: str) -> list[Change]:
    changes: list[Change] = []
    skip_depth: int | None = None  # the depth of a destination group being skipped
    depth = 0
    uc, fallback = 1, 0  # \ucN: how many fallback characters follow a \uN; how many are left
    high: int | None = None  # the change of a pair's first half, waiting for its second
    previous = 0  # where the last token ended: the text between tokens is the document's
    for m in _RTF_TOKEN.finditer(text):
        hexa, uni, word, arg, symbol, brace, newline = m.groups()
        start, end = m.span()
        if start > previous:  # plain text between two tokens
            if skip_depth is not None:
                _extend(changes, previous, start, "")
            elif fallback:
                cut = min(start, previous + fallback)
                _extend(changes, previous, cut, "")
                fallback = 0
        elif fallback and hexa is not None and skip_depth is None:  # the fallback is an escape
            _extend(changes, start, end, "")
            fallback -= 1
            previous = end
            continue
        previous = end
        if skip_depth is not None:
            if brace == "{":
                depth += 1
            elif brace == "}":
                depth -= 1
                if depth < skip_depth:
                    skip_depth = None
            _extend(changes, start, end, "")
            continue
        if brace == "{":
            depth += 1
            name = re.match(r"\\\*|\\([a-zA-Z]+)", text[end:end + 24])
            if name and (name.group(1) is None or name.group(1) in _RTF_DESTINATIONS):
                skip_depth = depth
            _extend(changes, start, end, "")
        elif brace == "}":
            depth -= 1
            _extend(changes, start, end, "")
        elif newline is not None:
            _extend(changes, start, end, "")  # a line break of the source is no break of the text
        elif hexa is not None:
            changes.append((start, end, bytes([int(hexa, 16)]).decode("cp1252", errors="replace")))
        elif uni is not None:
            value = int(uni) if len(uni) <= 7 else 1 << 20
            value = value + 65536 if -32768 <= value < 0 else value
            if not 0 <= value <= 0xFFFF:
                continue  # no signed 16-bit number: no \u of RTF's, left as written
            if 0xDC00 <= value < 0xE000 and high is not None and all(not c[2] for c in changes[high + 1:]):
                # the second half of a surrogate pair (its first half's fallback between): one character
                first = changes[high]
                pair = 0x10000 + ((ord(first[2]) - 0xD800) << 10) + (value - 0xDC00)
                changes[high:] = [(first[0], end, chr(pair))]
                high = None
            else:
                changes.append((start, end, chr(value)))
                high = len(changes) - 1 if 0xD800 <= value < 0xDC00 else None
            fallback = uc
            continue
        elif word is not None:
            if word == "uc" and arg is not None:
                uc = int(arg)
            _extend(changes, start, end, _RTF_WORDS.get(word, ""))
        elif symbol is not None:
            _extend(changes, start, end, _RTF_SYMBOLS.get(symbol, ""))
    return changes


def _extend(changes: list[Change], start: int, end: int, new: str) -> None:
    """A change, joined to the one before when both remove what they cover and touch."""
    if not new and changes and changes[-1][1] == start and not changes[-1][2]:
        changes[-1] = (changes[-1][0], end, "")
    else:
        changes.append((start, end, new))


# -- MIME --------------------------------------------------------------------------------------
_QP_HEADER = re.compile(r"(?im)^content-transfer-encoding:[ \t]*quoted-printable[ \t]*\r?$")
_MIME = re.compile(r"(?im)^(?:mime-version|content-type):")
_BLANK = re.compile(r"\r?\n[ \t]*\r?\n")
_BOUNDARY = re.compile(r"(?m)^--\S")
#: A boundary a message declares in its Content-Type header.
_DECLARED = re.compile(r'(?i)\bboundary="?([^";\s]+)')


def declared_boundaries(text: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in _DECLARED.finditer(text))


def is_boundary(text: str, at: int, boundaries: frozenset[str]) -> bool:
    """Is the line at ``at`` ("--" then a declared boundary, maybe "--" after) a part's edge?"""
    end = text.find("\n", at)
    line = text[at + 2:len(text) if end < 0 else end].rstrip()
    return line in boundaries or (line.endswith("--") and line[:-2] in boundaries)
#: A run of escaped bytes, or a soft line break.
_QP_RUN = re.compile(r"(?:=[0-9A-F]{2})+|=\r?\n")
_ENCODED_WORD = re.compile(r"=\?([\w.-]+)\?([QqBb])\?([^?\s]*)\?=")


def _bytes_decoded(run: str, charset: str = "utf-8") -> Iterator[tuple[int, int, str]]:
    """(start, end, character) in ``run`` (escaped bytes "=C3=B1…") for each character they
    encode; bytes that decode to nothing are left out (kept as written)."""
    data = bytes(int(run[i + 1:i + 3], 16) for i in range(0, len(run), 3))
    i = 0
    while i < len(data):
        for size in (1, 2, 3, 4):
            try:
                ch = data[i:i + size].decode(charset)
            except (UnicodeDecodeError, LookupError):
                continue
            if len(ch) == 1:
                yield i * 3, (i + size) * 3, ch
                i += size
                break
        else:
            i += 1


def _qp(text: str) -> tuple[list[Change], list[Region]]:
    """Each quoted-printable part's body: from the blank line after its header to the next line
    of a boundary the message declares, or the next part's header, or the text's end (an
    Outlook "-----Original Message-----" line is no boundary). Bodies never overlap."""
    changes: list[Change] = []
    regions: list[Region] = []
    boundaries = declared_boundaries(text)
    headers = list(_QP_HEADER.finditer(text))
    for k, header in enumerate(headers):
        blank = _BLANK.search(text, header.end() - 1)
        if blank is None:
            continue
        start = blank.end()
        limit = headers[k + 1].start() if k + 1 < len(headers) else len(text)
        if start >= limit:
            continue
        end = limit
        for line in _BOUNDARY.finditer(text, start, limit):
            if is_boundary(text, line.start(), boundaries):
                end = line.start()
                break
        regions.append((start, end, "qp"))
        for run in _QP_RUN.finditer(text, start, end):  # (one pass: bodies do not overlap)
            if run.group().startswith("=\n") or run.group().startswith("=\r"):
                changes.append((run.start(), run.end(), ""))
                continue
            for a, b, ch in _bytes_decoded(run.group()):
                changes.append((run.start() + a, run.start() + b, ch))
    return changes, regions


def _encoded_words(text: str) -> tuple[list[Change], list[Region]]:
    """RFC 2047 words ("=?UTF-8?Q?I=C3=B1aki_Zubizarreta?=")."""
    changes: list[Change] = []
    regions: list[Region] = []
    for word in _ENCODED_WORD.finditer(text):
        charset, kind, payload = word.group(1), word.group(2).upper(), word.group(3)
        p0 = word.start(3)
        if kind == "B":
            try:
                decoded = base64.b64decode(payload, validate=True).decode(charset)
            except (binascii.Error, UnicodeDecodeError, LookupError, ValueError):
                continue
            changes.append((word.start(), word.end(), decoded))
            regions.append((word.start(), word.end(), "b"))
            continue
        regions.append((p0, word.end(3), "q"))
        changes.append((word.start(), p0, ""))  # "=?UTF-8?Q?"
        for m in re.finditer(r"_|(?:=[0-9A-Fa-f]{2})+", payload):
            if m.group() == "_":
                changes.append((p0 + m.start(), p0 + m.end(), " "))
            else:
                for a, b, ch in _bytes_decoded(m.group().upper(), charset):
                    changes.append((p0 + m.start() + a, p0 + m.start() + b, ch))
        changes.append((word.end(3), word.end(), ""))  # "?="
    return changes, regions


class _Stretches:
    """Disjoint ranges, sorted, asked by bisection whether one holds an offset or overlaps a
    range: decoding a text of thousands of strings and regions stays linear."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        self.ranges = sorted(ranges)
        self.starts = [a for a, _ in self.ranges]

    def holds(self, at: int) -> bool:
        i = bisect_right(self.starts, at) - 1
        return i >= 0 and at < self.ranges[i][1]

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, end - 1) - 1  # the last range starting before ``end``
        return i >= 0 and self.ranges[i][1] > start


#: (start, end, kind) of a stretch of the original in one encoding: "rtf", "qp" (a
#: quoted-printable body), "q" (a Q-encoded word: a space is "_"), "b" (a B-encoded word, whole).
Region = tuple[int, int, str]


@dataclass
class Decoded:
    """A text as a reader sees it, the changes that make it, and where each encoding is."""

    text: str
    changes: list[Change]
    regions: list[Region]

    def kind_at(self, start: int, end: int) -> str | None:
        """The encoding of the original range ``[start, end)``, or None (plain text): the region
        that starts last at or before ``start`` (regions do not overlap), found by bisection."""
        starts = self._starts
        i = bisect_right(starts, start) - 1
        if i < 0:
            return None
        a, b, kind = self._ordered[i]
        return kind if a <= start and end <= b else None

    @cached_property
    def _ordered(self) -> list[Region]:
        return sorted(self.regions)

    @cached_property
    def _starts(self) -> list[int]:
        return [r[0] for r in self._ordered]


# -- LaTeX -------------------------------------------------------------------------------------
#: A LaTeX source: its document class or its document's start.
_LATEX_START = re.compile(r"(?m)^[ \t]*(?:\\documentclass\b|\\begin\{document\})")
#: An accent command on a letter ("\'e", "\`{a}", "\c{c}", "\c c", "\'\i"), braces around it or not.
_LATEX_ACCENT = re.compile(
    r"\\(?:(?P<symbol>['`^\"~=.])|(?P<word>[cuvHrkd])(?![a-zA-Z]))[ \t]*"
    r"(?:\{(?P<braced>\\[ij]|[a-zA-Z])\}|(?P<bare>\\[ij](?![a-zA-Z])|[a-zA-Z]))")
#: A control word right before a brace: the brace opens its argument ("\textbf{").
_LATEX_COMMAND_BEFORE = re.compile(r"\\[a-zA-Z]+\*?$")
#: LaTeX's own characters escaped ("\_", "\&", "\%", "\#", "\$").
_LATEX_ESCAPED = re.compile(r"(?<!\\)\\([&%_#$])")
#: The combining mark of each accent command.
_LATEX_MARKS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
                ".": "\u0307", "c": "\u0327", "u": "\u0306", "v": "\u030c", "H": "\u030b", "r": "\u030a",
                "k": "\u0328", "d": "\u0323"}
_LATEX_COMMANDS = {mark: command for command, mark in _LATEX_MARKS.items()}
#: Characters LaTeX reads as its own: escaped in a surrogate ("Garcia & Hijos" in a table).
_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "$": r"\$"}


def _latex(text: str) -> list[Change]:
    r"""A LaTeX source's accented letters as a reader sees them: "Mercad\'e" is "Mercadé",
    "Pla\c{c}a" "Plaça" (the seventeenth set written blind: the tagger saw "Mercad" and "e").
    Braces around the command and its letter go with it ("{\'o}"); others stay."""
    import unicodedata

    changes: list[Change] = []
    for m in _LATEX_ACCENT.finditer(text):
        mark = _LATEX_MARKS[m["symbol"] or m["word"]]
        letter = m["braced"] or m["bare"]
        letter = {"\\i": "i", "\\j": "j"}.get(letter, letter)
        composed = unicodedata.normalize("NFC", letter + mark)
        if len(composed) != 1:
            continue
        start, end = m.span()
        if (text[start - 1 : start] == "{" and text[end : end + 1] == "}"
                and not _LATEX_COMMAND_BEFORE.search(text, max(0, start - 41), start - 1)):
            start, end = start - 1, end + 1  # "{\'O}dena"; never "\textbf{\'A}lvaro"'s argument
        changes.append((start, end, composed))
    for m in _LATEX_ESCAPED.finditer(text):  # "juan\_garcia", "Garcia \& Fills": the character
        changes.append((m.start(), m.end(), m.group(1)))
    return sorted(changes)


def _latex_like(new: str) -> str:
    r"""``new`` in a LaTeX source that writes its accents as commands: "é" as "\'e", "ç" as
    "\c{c}", LaTeX's own characters escaped."""
    import unicodedata

    out = []
    for ch in new:
        if ch in _LATEX_SPECIALS:
            out.append(_LATEX_SPECIALS[ch])
            continue
        parts = unicodedata.normalize("NFD", ch)
        command = _LATEX_COMMANDS.get(parts[1:]) if len(parts) == 2 else None
        if command is None or not parts[0].isascii():
            out.append(ch)
        elif command.isalpha():
            out.append(f"\\{command}{{{parts[0]}}}")
        else:
            out.append(f"\\{command}" + ("{\\i}" if parts[0] == "i" else parts[0]))
    return "".join(out)


# -- URL-encoded forms and query strings ---------------------------------------------------------
#: A form's body declared URL-encoded ("Content-Type: application/x-www-form-urlencoded").
_FORM_HEADER = re.compile(r"(?im)^content-type:[ \t]*application/x-www-form-urlencoded\b[^\n]*$")
#: A URL's or a request line's query string ("…/centro/CS-ALMONTE?nuhsa=AN0438226150&cita=…").
_QUERY = re.compile(r"(?<=[\w/.\-]\?)[\w.\-\[\]~]+=[^\s#\"'<>]*")
#: A line that is a form's fields alone ("&nombre=Jos%C3%A9+Antonio&apellidos=Cabrera+Ma%C3%B1as"):
#: two fields or more joined by "&", or one after a "&", no space.
_FORM_LINE = re.compile(
    r"(?m)^(?:&[\w.\-\[\]~]+=[^\s&]*|[\w.\-\[\]~]+=[^\s&]*&[\w.\-\[\]~]+=[^\s&]*)"
    r"(?:&[\w.\-\[\]~]+=[^\s&]*)*&?[ \t]*\r?$")
#: An escaped byte run or a "+" (a space) of a URL-encoded value.
_URL_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+|\+")


def _urlencoded(text: str) -> tuple[list[Change], list[Region]]:
    """The values of a URL-encoded form's body (from the blank line after its header to the next
    blank line), of lines of form fields and of query strings: "%C3%AD" is "í", and in a form
    "+" a space. An HTTP capture's form had left "Jos%C3%A9+Antonio", "C%2F+Sacrist%C3%ADa%2C+8"
    and "rocio.cabrera.m%40correo-ejemplo.es" in clear (the eighteenth set written blind): the
    tagger saw "Jos", "C3", "A9". In a URL's query string only escapes of what is no space are
    read ("Garc%C3%ADa"): a space there would end the URL the url rule takes whole, and leave
    the rest of its query in clear. A control character (``%0A``) is never read. Only where a
    run decodes (UTF-8)."""
    stretches: list[tuple[int, int, bool]] = []  # (start, end, a form's: "+" is a space)
    body_end = -1  # where the last body read ends
    for header in _FORM_HEADER.finditer(text):
        if header.end() <= body_end:
            continue  # inside the body of the header before it
        blank = _BLANK.search(text, header.end())
        if blank is None:
            break  # (nor after any later header)
        following = _BLANK.search(text, blank.end())
        body_end = following.start() if following is not None else len(text)
        stretches.append((blank.end(), body_end, True))
    stretches += [(*m.span(), False) for m in _QUERY.finditer(text)]
    stretches += [(*m.span(), True) for m in _FORM_LINE.finditer(text)
                   if "%" in m.group() or "+" in m.group()]
    changes: list[Change] = []
    regions: list[Region] = []
    at = 0
    for start, end, form in sorted(stretches):
        start = max(start, at)
        if start >= end:
            continue
        at = end
        found: list[Change] = []
        for run in _URL_RUN.finditer(text, start, end):
            if run.group() == "+":
                if form:
                    found.append((run.start(), run.end(), " "))
                continue
            for a, b, ch in _bytes_decoded(run.group().upper()):
                if ch.isprintable() and (form or not ch.isspace()):
                    found.append((run.start() + a, run.start() + b, ch))
        if found:
            changes += found
            regions.append((start, end, "url"))
    return changes, regions


# -- JSON --------------------------------------------------------------------------------------
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_JSON_ESCAPE = re.compile(
    r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\[nrt]")


def _json(text: str) -> list[Change]:
    """The escapes of a JSON text's strings a reader sees as letters: ``\\u00f1`` is "ñ" (a
    pair of them one character), ``\\n`` a space. ``\\"`` and ``\\\\`` stay: the view must stay
    JSON for the structure steps that read it."""
    changes: list[Change] = []
    for string in _JSON_STRING.finditer(text):
        if "\\" not in string.group():
            continue
        for m in _JSON_ESCAPE.finditer(text, string.start() + 1, string.end() - 1):
            if m.group(1):
                pair = 0x10000 + ((int(m.group(1), 16) - 0xD800) << 10) + (int(m.group(2), 16) - 0xDC00)
                changes.append((m.start(), m.end(), chr(pair)))
            elif m.group(3):
                value = int(m.group(3), 16)
                if value >= 0x20 and chr(value) not in '"\\' and not 0xD800 <= value < 0xE000:
                    changes.append((m.start(), m.end(), chr(value)))
            else:
                changes.append((m.start(), m.end(), " "))
    return changes


# -- HTML --------------------------------------------------------------------------------------
#: A text that is an HTML page or fragment: its doctype, its root, or three tags of a page's body.
_HTML_ROOT = re.compile(r"(?i)<!doctype\s+html|<html[\s>]|<body[\s>]")
_HTML_BODY_TAG = re.compile(r"(?i)<(?:p|br|td|th|tr|div|table|li|h[1-6])(?:\s[^<>]*)?/?>")
#: An opener the scanner handles: a comment's, a script's or style's, a tag, a character reference.
_HTML_TOKEN = re.compile(
    r"(?i)(<!--)|<(script|style)\b[^<>]*>|(<[!/?]?[a-zA-Z][^<>]*>)"
    r"|&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
_HTML_ATTRIBUTE = re.compile(r"""([a-zA-Z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""")
#: Attributes whose values are text a reader may follow or see: a link, an image's source and
#: description, a tooltip, a form's value.
_HTML_TEXT_ATTRIBUTES = frozenset({"href", "src", "title", "alt", "value", "placeholder", "action"})
#: Tags that end a line for a reader (a cell ends with a tab).
_HTML_BLOCKS = frozenset({"p", "br", "tr", "div", "table", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5",
                          "h6", "title", "head", "body", "html", "hr", "thead", "tbody", "tfoot", "dl", "dt",
                          "dd", "pre", "blockquote", "section", "article", "header", "footer", "caption",
                          "form", "fieldset", "legend", "option", "select", "textarea", "meta", "link"})
_HTML_CELLS = frozenset({"td", "th"})
#: The entities XML itself defines (any other is a DTD's: left as written).
_XML_ENTITIES = frozenset({"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
#: A ``<meta http-equiv=…>``: its content is the page's type, not its text.
_HTTP_EQUIV = re.compile(r"(?i)\bhttp-equiv\s*=")


def is_html(text: str) -> bool:
    """An HTML page by its doctype or root, or a fragment with three body tags or more; never an
    XML document (an HL7 CDA's narrative has tables too: ``crfdeid.cda`` reads it)."""
    head = text.lstrip()[:64]
    if head.startswith("<?xml") or "ClinicalDocument" in text[:8192]:
        return False
    if _HTML_ROOT.search(text, 0, 4096):
        return True
    return next(itertools.islice(_HTML_BODY_TAG.finditer(text), 2, None), None) is not None


def _html_reference(name: str) -> str | None:
    """The character a reference names ("aacute", "#241", "#xF1"), or None (no such name)."""
    import html.entities

    if name.startswith(("#x", "#X")):
        code = int(name[2:], 16)
    elif name.startswith("#"):
        code = int(name[1:])
    else:
        found = html.entities.html5.get(name + ";")
        return None if found is None else (" " if found == "\u00a0" else found)
    if code == 0xA0:
        return " "
    if not 0x20 <= code <= 0x10FFFF or 0xD800 <= code < 0xE000:
        return None
    return chr(code)


def _html(text: str) -> list[Change]:
    """An HTML text as a reader sees it: a character reference is its character ("&aacute;" is
    "á", "&nbsp;" a space), a tag is a line break (a paragraph, a row), " | " (a cell's end) or
    nothing (bold, a link), a comment's markers go and its words stay (an export's comment named
    the workstation and the user), a script or style is nothing; and the values of a link's
    ``href``, an image's ``alt``, a ``title``, a ``<meta>``'s ``content`` stay on lines of their
    own — what they hold (an e-mail, a URL, an author) is read and replaced like the text, and no
    span runs from a value into the element's text. Linear: a comment, script or style without
    its end runs to the text's end."""
    changes: list[Change] = []
    at = 0
    closers: dict[str, re.Pattern[str]] = {}
    while True:
        m = _HTML_TOKEN.search(text, at)
        if m is None:
            break
        at = m.end()
        if m.group(1):  # a comment: "<!--" and "-->" go, its text stays
            close = text.find("-->", m.end())
            inner_end = len(text) if close < 0 else close
            changes.append((m.start(1), m.end(1), " "))
            changes += _html_references(text, m.end(1), inner_end)
            if close < 0:
                break
            changes.append((close, close + 3, " "))
            at = close + 3
        elif m.group(2):  # script, style: nothing a reader sees, up to its end tag
            kind = m.group(2).lower()
            closer = closers.setdefault(kind, re.compile(rf"(?i)</{kind}\s*>"))
            found = closer.search(text, m.end())
            end = len(text) if found is None else found.end()
            changes.append((m.start(), end, "\n"))
            if found is None:
                break
            at = end
        elif m.group(3):
            changes += _html_tag(m.group(3), m.start(), text)
        else:
            new = _html_reference(m.group(4))
            if new is not None:
                changes.append((m.start(), m.end(), new))
    return changes


def _html_tag(tag: str, start: int, text: str) -> list[Change]:
    """A tag's changes: the tag as its mark, the values of its readable attributes kept, each on
    a line of its own."""
    name = re.match(r"<[!/?]?([a-zA-Z][a-zA-Z0-9]*)", tag)
    lower = name.group(1).lower() if name else ""
    closing = tag.startswith("</")
    mark = "\n" if lower in _HTML_BLOCKS else (" | " if lower in _HTML_CELLS and closing else "")
    readable = _HTML_TEXT_ATTRIBUTES
    if lower == "meta" and not _HTTP_EQUIV.search(tag):
        readable = readable | {"content"}  # an author's, a description's
    kept = [] if closing else [a for a in _HTML_ATTRIBUTE.finditer(tag) if a.group(1).lower() in readable]
    changes: list[Change] = []
    at = start
    for a in kept:
        group = next(g for g in (2, 3, 4) if a.group(g) is not None)
        v0, v1 = start + a.start(group), start + a.end(group)
        if v0 == v1:
            continue
        changes.append((at, v0, "\n"))
        changes += _html_references(text, v0, v1)
        at = v1
    changes.append((at, start + len(tag), mark if at == start else "\n" + mark))
    return changes


def _html_references(text: str, start: int, end: int) -> list[Change]:
    """The character references in ``text[start:end]`` (a comment, an attribute's value)."""
    out: list[Change] = []
    for m in _REFERENCE.finditer(text, start, end):
        new = _html_reference(m.group(1))
        if new is not None:
            out.append((m.start(), m.end(), new))
    return out


#: A character reference: a number, decimal or hexadecimal, or a name.
_REFERENCE = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")


#: A numeric character reference ("&#243;", "&#xF3;").
_NUMERIC_REFERENCE = re.compile(r"&#(?:\d{1,7}|[xX][0-9a-fA-F]{1,6});")


def _letter_references(text: str) -> int:
    """How many numeric references of letters outside ASCII ``text`` has (in its first 200,000
    characters): a text that writes its letters so, not one with a few quotes ("&#8220;")."""
    count = 0
    for m in _NUMERIC_REFERENCE.finditer(text, 0, 200_000):
        body = m.group()[2:-1]
        try:
            code = int(body[1:], 16) if body[:1] in "xX" else int(body)
            count += 127 < code < 0x110000 and chr(code).isalpha()
        except ValueError:
            continue
    return count


def decode(text: str) -> Decoded | None:
    """The text as a reader sees it and its changes, or None: no transfer encoding."""
    if _RTF_START.match(text):
        changes, regions = _rtf(text), [(0, len(text), "rtf")]
    elif (text.lstrip()[:1] in ("{", "[") or '"resourceType"' in text) and "\\" in text:
        changes = _json(text)
        ascii_style = any(len(c[2]) == 1 and c[2] != " " for c in changes)
        regions = [(0, len(text), "json-ascii" if ascii_style else "json")]
    elif _MIME.search(text):
        bodies, words = _qp(text), _encoded_words(text)
        changes, regions = sorted([*bodies[0], *words[0]]), [*bodies[1], *words[1]]
        if "%" in text or "+" in text:  # an HTTP capture's form and query strings
            taken = _Stretches((a, b) for a, b, _ in regions)
            form = _urlencoded(text)
            free = [r for r in form[1] if not taken.overlaps(r[0], r[1])]
            inside = _Stretches((a, b) for a, b, _ in free)
            changes = sorted([*changes, *(c for c in form[0] if inside.holds(c[0]))])
            regions = [*regions, *free]
        if "\\u" in text and "application/json" in text.lower():
            # an HTTP reply's JSON body: "Cabrera Ma\u00f1as" is "Cabrera Mañas" (the eighteenth
            # set's capture left the surname in clear), written back as escapes
            taken = _Stretches((a, b) for a, b, _ in regions)
            strings = [m.span() for m in _JSON_STRING.finditer(text) if "\\u" in m.group()
                       and not taken.overlaps(*m.span())]
            inside = _Stretches(strings)
            escapes = [c for c in _json(text) if inside.holds(c[0])]
            changes = sorted([*changes, *escapes])
            regions = [*regions, *((a, b, "json-ascii") for a, b in strings)]
    elif text.lstrip()[:5] == "<?xml" and "&" in text:
        # an XML message's character references ("P&#233;rez", "&amp;"): letters to a reader,
        # written back as references (the sixteenth set's review: a surname had stayed in clear)
        changes = [c for c in _html_references(text, 0, len(text)) if text[c[0] + 1] == "#"
                   or text[c[0]:c[1]] in _XML_ENTITIES]
        regions = [(0, len(text), "xml")]
    elif "<" in text and is_html(text):
        changes = _html(text)
        # a page that writes its letters as references ("Mar&iacute;a") gets its surrogates so
        references = any(len(c[2]) == 1 and ord(c[2]) > 127 and text[c[0]] == "&" for c in changes)
        regions = [(0, len(text), "html-references" if references else "html")]
    elif "&#" in text and _letter_references(text) >= 2:
        # a plain text that writes its letters as numeric references (a PDF form's field dump:
        # "FieldValue: S&#243;ller", "Hemodi&#225;lisis"; the nineteenth set written blind, whose
        # spans had been cut inside the references: "Capilla497;n"), written back as references
        changes = [c for c in _html_references(text, 0, len(text)) if text[c[0] + 1] == "#"]
        regions = [(0, len(text), "numeric-references")]
    elif "\\" in text and _LATEX_START.search(text):
        # (after the JSON and MIME texts: a message or a JSON string may quote a LaTeX source)
        changes, regions = _latex(text), [(0, len(text), "latex")]
    elif ("%" in text or "+" in text) and "=" in text:
        changes, regions = _urlencoded(text)
    else:
        return None
    if not changes:
        return None
    out, kept, at = [], [], 0
    for start, end, new in changes:
        if start < at:  # overlapping changes (an encoded word inside a decoded body): the first
            continue
        out += [text[at:start], new]
        kept.append((start, end, new))
        at = end
    out.append(text[at:])
    return Decoded("".join(out), kept, regions)


def encode_like(new: str, kind: str | None) -> str:
    """``new`` in the encoding ``kind`` of what it replaces (``Decoded.kind_at``): a surrogate
    written into an RTF source keeps it RTF, into a quoted-printable part or an encoded word
    keeps it quoted-printable (its letters outside ASCII escaped; a space in a word "_"); a
    B-encoded word, which a span takes whole, becomes one again."""
    if kind == "rtf":
        out = []
        for ch in new:
            if ch in "\\{}":
                out.append("\\" + ch)
            elif ord(ch) < 128:
                out.append(ch)
            else:
                try:
                    out.append(f"\\'{ch.encode('cp1252')[0]:02x}")
                except UnicodeEncodeError:
                    code = ord(ch)
                    out.append(f"\\u{code - 65536 if code > 32767 else code}?")
        return "".join(out)
    if kind in ("json", "json-ascii"):  # a JSON string's content: its quotes and backslashes escaped
        out = []
        for ch in new:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ord(ch) < 0x20 or (kind == "json-ascii" and ord(ch) > 126):
                out.append("".join(f"\\u{unit:04x}" for unit in _utf16(ch)))
            else:
                out.append(ch)
        return "".join(out)
    if kind == "latex":
        return _latex_like(new)
    if kind == "url":  # a URL-encoded value: a space "+", what is not a letter of ASCII escaped
        return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._~") else "+" if ch == " "
                       else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in new)
    if kind == "b":  # the whole word is replaced: a new one
        return f"=?UTF-8?B?{base64.b64encode(new.encode('utf-8')).decode('ascii')}?="
    if kind in ("qp", "q"):
        out = []
        for ch in new:
            if ch == "=" or (kind == "q" and ch in "?_"):
                out.append(f"={ord(ch):02X}")
            elif ch == " " and kind == "q":
                out.append("_")
            elif ord(ch) < 128:
                out.append(ch)
            else:
                out.append("".join(f"={b:02X}" for b in ch.encode("utf-8")))
        return "".join(out)
    return new


#: RTF's structure inside a span's original characters: control words and symbols, braces (not
#: the escapes of letters, ``\'e9`` and ``\uN``, which are the text).
_RTF_STRUCTURE = re.compile(r"\\(?!['u])(?:[a-zA-Z]+-?\d* ?|[^a-zA-Z])|[{}]")
#: A control word right before a span, with no delimiting space: a letter after it would join it.
_RTF_WORD_BEFORE = re.compile(r"\\[a-zA-Z]+-?\d*$")
_Q_OPEN = re.compile(r"=\?[\w.-]+\?[Qq]\?")


_HTML_TAG = re.compile(r"<[!/?]?[a-zA-Z][^<>]*>|<!--|-->")


def _html_like(new: str, original: str, references: bool = False) -> str:
    """``new`` written into an HTML text where ``original`` stood: "&", "<", ">" and quotes as
    references; its letters outside ASCII as references when the original wrote its own so
    ("&Aacute;lvaro N&uacute;&ntilde;ez" gets "&Eacute;..."), its spaces as "&nbsp;" when the
    original's were; the tags the span covered after it (a span over "Valme<br>Avda." keeps
    the line break)."""
    import html.entities

    letters_as_references = references and original.isascii()
    spaces = "&nbsp;" if "&nbsp;" in original and " " not in _HTML_TAG.sub("", original) else " "
    out = []
    for ch in new:
        if ch in "&<>\"":
            out.append({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[ch])
        elif ch == " ":
            out.append(spaces)
        elif ord(ch) > 127 and letters_as_references:
            name = html.entities.codepoint2name.get(ord(ch))
            out.append(f"&{name};" if name else f"&#{ord(ch)};")
        else:
            out.append(ch)
    tags = (m.group() for m in _HTML_TAG.finditer(original) if m.group().startswith("<"))
    return "".join(out) + "".join(tags)


def _utf16(ch: str) -> list[int]:
    code = ord(ch)
    if code < 0x10000:
        return [code]
    code -= 0x10000
    return [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]


def write_like(new: str, original: str, decoded: Decoded, start: int, end: int, before: str) -> str:
    """``new`` written where ``original`` (``[start, end)`` of the note) stood, in the note's
    encoding there, keeping what of its structure the span covered: an RTF span's control words
    and braces go after the surrogate (a span over "{\\b García}" had deleted a brace: the
    document closed early), and a space parts the surrogate from a control word right before it
    ("\\par" then "Fernando" had made "\\parFernando"); a span that starts inside an encoded
    word closes it ("?=" had been eaten), one that ends inside one opens it again."""
    first = decoded.kind_at(start, start + 1)
    last = decoded.kind_at(end - 1, end)
    whole = decoded.kind_at(start, end)
    if first in ("html", "html-references"):
        return _html_like(new, original, first == "html-references")
    if first == "numeric-references":  # its letters outside ASCII as the original wrote its own
        if "&#" not in original:
            return new
        return "".join(ch if ord(ch) < 128 else f"&#{ord(ch)};" for ch in new)
    if first == "xml":  # its letters as themselves (XML has no "&iacute;"), its markup escaped
        return "".join({"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(ch, ch) for ch in new)
    if first == "rtf":
        body = encode_like(new, "rtf") + "".join(m.group() for m in _RTF_STRUCTURE.finditer(original))
        if _RTF_WORD_BEFORE.search(before) and body[:1] and (body[:1].isalnum() or body[:1] in " -"):
            body = " " + body
        return body
    if whole is not None:
        return encode_like(new, whole)
    body = encode_like(new, first if first in ("q", "qp") else None)
    if first == "q" and "?=" in original:
        body += "?="
    if last == "q":
        opening = list(_Q_OPEN.finditer(original))
        if opening:
            body += opening[-1].group()
    return body
