"""A normalised copy of a text for detection, with an exact offset map both ways.

The same note typed on another system differs in ways that change nothing for a reader: a
non-breaking space or a tab instead of a space, CRLF instead of LF, an accent stored as a separate
combining mark (NFD), an invisible direction mark, an emoji beside a word. Detection must not
depend on those, so rules and the CRF run on a *view* of the text in which

- accents are composed (NFC), within each base + combining-marks sequence;
- every other whitespace character Python's ``str.splitlines`` treats as a line boundary
  (CR, CRLF as one, VT, FF, FS/GS/RS, NEL, LS, PS) is ``"\\n"``; every other whitespace
  character (tab, NBSP, narrow NBSP, U+2000–U+200A, U+3000…) is ``" "``;
- format characters (category Cf: LRM/RLM/ALM, embeddings and isolates, ZWSP/ZWJ/ZWNJ, word
  joiner, soft hyphen, BOM, tag characters) and variation selectors are removed;
- an emoji (a pictograph ≥ U+1F000 or an Emoji_Presentation character, or any pictograph followed
  by VS16, with its variation selectors, skin-tone modifiers, tag characters and ZWJ sequence) is
  removed, or becomes one space when it stands between two word characters, so that it neither
  glues two words together nor adds spaces next to existing ones. © ® ™ ° º are left alone.

The view is not a new document: every span found on it is mapped back to the original's offsets
(``to_original``). Only changes of length need the map, and they are rare, so the map is a list of
*pieces* — original range → view range, atomic — kept in four integer arrays searched by bisect
(a 10 MB note of CRLF lines costs 32 bytes a line, not one integer per character). When nothing
changes the view is the text itself and the map is empty.

The pseudonymiser needs composed letters but must keep NBSPs and line breaks as they were:
``TextView(text, nfc_only=True)`` composes and changes nothing else. ``same_form`` gives a
surrogate the normalisation form of the original it replaces.
"""

from __future__ import annotations

import json
import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Literal

from .encodings import Decoded
from .encodings import decode as decode_transfer
from .types import Document, Fragment, Span

Form = Literal["NFC", "NFD"]

_VARIATION_SELECTORS = (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
#: Pictographs that are ordinary text in clinical notes (and in the rules): never emoji.
_KEPT_SYMBOLS = "\u00a9\u00ae\u2122"
#: What may follow an emoji inside one emoji sequence: variation selectors, skin tones, tags, keycap.
_EMOJI_MODIFIERS = "\ufe0e\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f\u20e3"


def _char_class(codepoints: Iterable[int]) -> str:
    """A ``re`` character class (without brackets) of the given code points, as ranges."""
    points = sorted(set(codepoints))
    out: list[str] = []
    i = 0
    while i < len(points):
        j = i
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        lo, hi = points[i], points[j]
        out.append(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
        i = j + 1
    return "".join(out)


_ASTRAL = "\U00010000-\U0010ffff"


def _one_of(codepoints: Iterable[int]) -> str:
    """A pattern matching one of the code points, fast on long texts.

    ``re`` keeps the BMP part of a class as a bitmap but tests the part above U+FFFF range by
    range, for every character it rejects: one big mixed class scans a 10 MB note in seconds.
    The astral part is therefore behind a one-range guard that BMP characters fail at once.
    """
    points = set(codepoints)
    bmp = _char_class(cp for cp in points if cp <= 0xFFFF)
    astral = _char_class(cp for cp in points if cp > 0xFFFF)
    options = [f"[{bmp}]"] if bmp else []
    if astral:
        options.append(f"(?=[{_ASTRAL}])[{astral}]")
    return f"(?:{'|'.join(options)})" if options else "(?!)"


@dataclass(frozen=True)
class _Tables:
    """The compiled patterns of the view, built once per process on first use (about 0.3 s)."""

    needs: re.Pattern[str]  # any character the full view may change (and every astral one)
    starts: re.Pattern[str]  # characters a unit may start with (and every astral one)
    nfc_starts: re.Pattern[str]  # the same for the NFC-only view
    units: re.Pattern[str]  # the changes of length (or multi-character atomic changes), full view
    nfc_units: re.Pattern[str]  # the same for the NFC-only view
    spaces: re.Pattern[str]  # one-for-one: whitespace that becomes " "
    breaks: re.Pattern[str]  # one-for-one: line boundaries (CR alone, VT, FF…) that become "\n"
    marks: frozenset[str]  # combining marks (not variation selectors): never split from their base
    not_a_base: re.Pattern[str]  # what the view removes: a mark after it has no base to keep


#: The Unicode lists of the view, precomputed for the Unicode version they were made from
#: (``python -m crfdeid.textview``): reading them costs milliseconds, computing them a quarter
#: second of every model load. Another Python (another Unicode version) computes its own.
_LISTS_FILE = Path(__file__).resolve().parent / "textview_unicode.json"


def compute_unicode_lists() -> dict[str, list[int]]:
    """Code points by role, from ``unicodedata`` (one pass over every code point)."""
    spaces: list[int] = []
    breaks: list[int] = []
    removed: list[int] = list(_VARIATION_SELECTORS)
    marks: list[int] = []
    singletons: list[int] = []  # characters NFC changes on their own (Ω sign → omega, U+2000…)
    vs = set(_VARIATION_SELECTORS)
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        ch = chr(cp)
        category = unicodedata.category(ch)
        if category == "Cf":
            removed.append(cp)
        elif category[0] == "M":
            if cp not in vs:
                marks.append(cp)
        elif ch.isspace() and ch not in " \n":
            (breaks if len(f"a{ch}b".splitlines()) == 2 else spaces).append(cp)
        decomposition = unicodedata.decomposition(ch)
        if decomposition and not decomposition.startswith("<") and unicodedata.normalize("NFC", ch) != ch:
            singletons.append(cp)
    return {"spaces": spaces, "breaks": breaks, "removed": removed, "marks": marks, "singletons": singletons}


def _ranges(points: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for cp in points:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def write_unicode_lists(path: Path = _LISTS_FILE) -> None:
    lists = {name: _ranges(points) for name, points in compute_unicode_lists().items()}
    data = {"unidata_version": unicodedata.unidata_version, "lists": lists}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def unicode_lists() -> dict[str, list[int]]:
    """The precomputed lists when they are of this Python's Unicode version, else computed."""
    try:
        data = json.loads(_LISTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if data.get("unidata_version") != unicodedata.unidata_version:
        return compute_unicode_lists()
    return {
        name: [cp for lo, hi in ranges for cp in range(lo, hi + 1)] for name, ranges in data["lists"].items()
    }


@cache
def _tables() -> _Tables:
    import regex  # the stdlib has no emoji properties; `regex` is already a dependency

    lists = unicode_lists()
    spaces, breaks, removed = lists["spaces"], lists["breaks"], lists["removed"]
    marks, singletons = lists["marks"], lists["singletons"]
    # Composition partners that are not marks (Hangul vowel and final jamo, NFC_QC=Maybe).
    maybe = [cp for cp in (*range(0x1161, 0x1176), *range(0x11A8, 0x11C3)) if cp not in marks]
    # Every emoji code point lies below U+3300 or in U+1F000–U+1FFFF.
    candidates = "".join(chr(cp) for cp in (*range(0xA9, 0x3300), *range(0x1F000, 0x20000)))
    pictographs = {ord(c) for c in regex.findall(r"\p{Extended_Pictographic}", candidates)}
    presentation = {ord(c) for c in regex.findall(r"\p{Emoji_Presentation}", candidates)}
    emoji = {cp for cp in pictographs if cp >= 0x1F000} | presentation
    emoji_with_vs16 = pictographs - emoji - {ord(c) for c in _KEPT_SYMBOLS}
    mark = _one_of([*marks, *maybe])
    single = f"{_one_of(singletons)}{mark}*"
    removed_one = _one_of(removed)
    first, then = _one_of(emoji), _one_of(emoji_with_vs16)
    mod = f"[{_EMOJI_MODIFIERS}]"
    emoji_re = rf"(?:{first}|{then}\ufe0f){mod}*(?:\u200d(?:{first}|{then}){mod}*)*"
    # A pictograph that is an emoji only before VS16 needs no check of its own: VS16 is removed.
    changing = [*removed, *marks, *maybe, *singletons, *emoji, ord("\r")]
    bmp_starts = _char_class(cp for cp in [*changing, *emoji_with_vs16] if cp <= 0xFFFF)
    bmp_needs = _char_class(cp for cp in [*changing, *spaces, *breaks] if cp <= 0xFFFF)
    return _Tables(
        needs=re.compile(f"[{bmp_needs}{_ASTRAL}]"),
        starts=re.compile(f"[{bmp_starts}{_ASTRAL}]"),
        nfc_starts=re.compile(f"[{_char_class(cp for cp in [*marks, *maybe, *singletons] if cp <= 0xFFFF)}"
                              f"{_ASTRAL}]"),
        units=re.compile(
            rf"(?P<crlf>\r\n)|(?P<emoji>{emoji_re})|(?P<removed>{removed_one}+)"
            rf"|(?P<marks>{mark}+)|(?P<single>{single})"
        ),
        nfc_units=re.compile(rf"(?P<marks>{mark}+)|(?P<single>{single})"),
        spaces=re.compile(f"[{_char_class(spaces)}]"),
        breaks=re.compile(f"[{_char_class(breaks)}]"),
        marks=frozenset(chr(cp) for cp in marks),
        not_a_base=re.compile(rf"\s|{removed_one}|{first}|{then}"),
    )


class _Joiner:
    """Collects the pieces of a view, joined every 65,536 pieces: a hostile note has millions
    of pieces, and a list of millions of small strings costs ten times the note."""

    __slots__ = ("_chunks", "_parts")

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._parts: list[str] = []

    def append(self, piece: str) -> None:
        parts = self._parts
        parts.append(piece)
        if len(parts) >= 65_536:
            self._chunks.append("".join(parts))
            parts.clear()

    def join(self) -> str:
        return "".join([*self._chunks, "".join(self._parts)])


#: One-for-one substitutions run a megabyte at a time: ``re.sub`` keeps every piece of its
#: output until it joins them, which for a 10 MB note of NBSPs is ten times the note.
_SUB_CHUNK = 1 << 20


def _sub(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    """``pattern.sub(replacement, text)`` for a pattern of single characters, in chunks from
    the first match on (a text without a match is returned as it is, not copied)."""
    first = pattern.search(text)
    if first is None:
        return text
    at = first.start()
    if len(text) - at <= _SUB_CHUNK:
        return pattern.sub(replacement, text)
    rest = (pattern.sub(replacement, text[i:i + _SUB_CHUNK]) for i in range(at, len(text), _SUB_CHUNK))
    return text[:at] + "".join(rest)


#: A run of digit groups that scanning misread: a letter read for a digit ("982 l28 455",
#: "O7/O1/1967", NHC "O458812") — digits, "l", "I" and "O", groups parted by one space, "/",
#: "." or "-", no letter glued to either end.
_OCR_RUN = re.compile(r"(?<![^\W\d_])[\dlIO]+(?:[ /.\-][\dlIO]+)*(?![^\W\d_])")
_OCR_HINT = re.compile(r"(?<=\d)[lIO]|[lIO](?=\d)")
_OCR_DIGITS = str.maketrans("lIO", "110")
#: Oxygen and ozone before a number ("O2 100%", "saturación de O2 100%" of MEDDOCAN): no misreading.
_GAS = re.compile(r"O[23](?!\d)")


def ocr_digits(text: str) -> str:
    """``text`` with the letters scanning reads for digits made digits again, where a run of
    digit groups holds four real digits or more and a letter touches a digit: "982 l28 455" is
    "982 128 455", "O7/O1/1967" is "07/01/1967" — the rules and the tagger then read a phone and
    a date (the thirteenth set written blind: an OCR'd discharge report left two phones and a
    birth date in clear). One character for one: offsets do not move. A word ("Ol", "IO 2") or
    a short number ("5 l de suero") is left alone. The text itself when nothing changes."""
    if _OCR_HINT.search(text) is None:
        return text
    out, at = [], 0
    for run in _OCR_RUN.finditer(text):
        value = run.group()
        if (sum(c.isdigit() for c in value) < 4 or value.isdigit() or _OCR_HINT.search(value) is None
                or not any(c.isdigit() for c in value[:2] + value[-2:]) or _GAS.match(value)):
            continue
        out += [text[at : run.start()], value.translate(_OCR_DIGITS)]
        at = run.end()
    return text if not out else "".join([*out, text[at:]])


#: A word in capitals with a zero scanning read for an O ("CENTR0 DE SALUD CAZ0RLA", "R0SA").
_OCR_WORD = re.compile(r"[^\W_]+")


def ocr_letters(text: str) -> str:
    """``text`` with the zeros scanning read for an O inside a word in capitals made O again:
    "CENTR0 DE SALUD CAZ0RLA" is "CENTRO DE SALUD CAZORLA", "R0SA MARÍA" is "ROSA MARÍA" (the
    nineteenth set written blind: an OCR'd phone screenshot left its health centre and a nurse
    in clear). Only one zero in a word of three capitals or more and no other digit, between two
    letters or ending or opening a word of five letters or more ("T0N0M0", "N0", "ECOG0",
    "SAT0" stay). One character for one: offsets do not move. The text itself when nothing
    changes."""
    if "0" not in text:
        return text
    out, at = [], 0
    for word in _OCR_WORD.finditer(text):  # each word once: linear (a zero anywhere in a long
        value = word.group()  # sequence of capitals had made a pattern around it quadratic)
        if "0" not in value or value.count("0") > 1:
            continue
        letters = value.replace("0", "")
        zero = value.index("0")
        inside = 0 < zero < len(value) - 1
        if (len(letters) < 3 or not letters.isalpha() or not letters.isupper()
                or (not inside and len(letters) < 5)
                or text[word.start() - 1 : word.start()] in (".", ",")):  # "<10.000UFC/ml": a number
            continue
        out += [text[at : word.start()], value.replace("0", "O")]
        at = word.end()
    return text if not out else "".join([*out, text[at:]])


#: A field's name in Markdown's bold: "**SIP:** 10874412", "**Sexe**: dona".
_BOLD_FIELD = re.compile(r"\*\*(?=[^*\n]{1,60}?(?::\*\*|\*\*:))|(?<=:)\*\*|\*\*(?=:)")


def emphasis_marks(text: str) -> str:
    """``text`` with the bold marks of a field's name in Markdown as spaces: "**SIP:** 10874412"
    reads as the field "SIP:" and its value (the nineteenth set written blind: a ward's Markdown
    export left its SIP number in clear). One character for one: offsets do not move. Other
    emphasis stays ("**Marian** y Jorge": its marks part two names the tagger reads apart). The
    text itself when nothing changes."""
    if "**" not in text:
        return text
    return _BOLD_FIELD.sub(lambda m: " " * len(m.group()), text)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch)[0] == "M"


class TextView:
    """A normalised copy of ``original`` (``text``) and the map between their offsets.

    ``TextView(text)`` is the detection view; ``TextView(text, nfc_only=True)`` only composes
    accents. Spans on ``text`` map back with ``to_original`` (never starting or ending inside a
    combining sequence or a CRLF; removed characters at a span's edges stay outside it); spans on
    the original map in with ``to_view``.
    """

    __slots__ = (
        "_exact", "_o_end", "_o_start", "_then", "_v_end", "_v_start", "decoded", "nfc_only", "original",
        "text",
    )

    def __init__(self, text: str, *, nfc_only: bool = False, transfer: bool = True) -> None:
        if not isinstance(text, str):
            raise TypeError(f"a text view needs str, got {type(text).__name__}")
        self.original = text
        self.nfc_only = nfc_only
        # Pieces: original [o_start, o_end) is view [v_start, v_end), as a whole. Sorted, disjoint.
        self._o_start = array("q")
        self._o_end = array("q")
        self._v_start = array("q")
        self._v_end = array("q")
        self._then: TextView | None = None  # a second, NFC-only pass (see below)
        self._exact = False  # True: nothing to change, and nothing a span could cut in two
        #: an RTF source's or a MIME part's transfer encoding, decoded first (``crfdeid.encodings``)
        self.decoded = decode_transfer(text) if transfer else None  # once: the decoded text is read as it is
        if self.decoded is not None:
            self._decode(self.decoded)
            return
        if nfc_only:
            if unicodedata.is_normalized("NFC", text):
                self.text = text
                # no mark, CRLF or astral character a span could cut in two: the common case,
                # where the pseudonymiser maps nothing
                self._exact = "\r" not in text and _tables().nfc_starts.search(text) is None
            else:
                self.text = self._build(text, True)
            return
        tables = _tables()
        if tables.needs.search(text) is None:
            self.text = emphasis_marks(ocr_letters(ocr_digits(text)))
            self._exact = self.text is text
            return
        view = self._build(text, False)
        view = _sub(tables.spaces, " ", view)
        view = _sub(tables.breaks, "\n", view)
        view = emphasis_marks(ocr_letters(ocr_digits(view)))
        if view != text and not unicodedata.is_normalized("NFC", view):
            # A mark separated from its base by a removed character ("e<ZWSP>\u0301") meets it
            # only in the view: compose once more, so the view is NFC and a view of the view
            # is the view itself.
            self._then = TextView(view, nfc_only=True, transfer=False)
            view = self._then.text
        self.text = text if view == text else view

    def _decode(self, decoded: Decoded) -> None:
        """The transfer encoding's changes as this view's pieces, then the view of the decoded
        text (NFC or full, as asked) as the pass after them."""
        vpos, previous = 0, 0
        for start, end, new in decoded.changes:
            vpos += start - previous
            self._o_start.append(start)
            self._o_end.append(end)
            self._v_start.append(vpos)
            self._v_end.append(vpos + len(new))
            vpos += len(new)
            previous = end
        self._then = TextView(decoded.text, nfc_only=self.nfc_only, transfer=False)
        self.text = self._then.text

    def _build(self, text: str, nfc_only: bool) -> str:
        """Apply every change of length, recording one piece per change; returns the new text."""
        tables = _tables()
        units = tables.nfc_units if nfc_only else tables.units
        starts = tables.nfc_starts if nfc_only else tables.starts
        out = _Joiner()
        write = out.append
        pos = 0  # original offset up to which ``parts`` holds the view
        vpos = 0  # view offset matching ``pos``
        matched_to = 0  # end of the last unit matched (changed or not)
        o_start, o_end, v_start, v_end = self._o_start, self._o_end, self._v_start, self._v_end
        search, match = starts.search, units.match
        at = 0
        while (candidate := search(text, at)) is not None:
            m = match(text, candidate.start())
            if m is None:  # a lone CR (mapped one for one later), an ordinary astral character…
                at = candidate.end()
                continue
            start, end = m.span()
            at = end
            kind = m.lastgroup
            if kind == "marks":
                # Compose with the base character before the marks, unless it belongs to
                # another unit or is a line break (a mark never joins a line break).
                if start > matched_to and text[start - 1] not in "\n\r":
                    start -= 1
                replacement = unicodedata.normalize("NFC", text[start:end])
            elif kind == "single":
                replacement = unicodedata.normalize("NFC", text[start:end])
            elif kind == "crlf":
                replacement = "\n"
            elif kind == "emoji":
                between_words = (start > 0 and end < len(text) and _is_word(text[start - 1])
                                 and _is_word(text[end]))
                replacement = " " if between_words else ""
            else:  # removed: format characters and variation selectors
                replacement = ""
            matched_to = end
            if replacement == text[start:end]:
                continue
            write(text[pos:start])
            vpos += start - pos
            write(replacement)
            size = len(replacement)
            if size != end - start or size > 1:
                if not size and o_end and o_end[-1] == start and v_end[-1] == vpos == v_start[-1]:
                    o_end[-1] = end  # a run of removed characters is one piece
                else:
                    o_start.append(start)
                    o_end.append(end)
                    v_start.append(vpos)
                    v_end.append(vpos + size)
            vpos += size
            pos = end
        if pos == 0:
            return text
        write(text[pos:])
        return out.join()

    # -- properties -------------------------------------------------------------------------
    @property
    def identity(self) -> bool:
        """True when the view is the original text itself (nothing to map)."""
        return self.text is self.original

    @property
    def exact(self) -> bool:
        """True when the view is the text and holds no combining mark or CRLF: spans found on it
        need no mapping at all (the fast path of ordinary notes)."""
        return self._exact

    @property
    def pieces(self) -> int:
        """How many changes of length the map holds (0: offsets are the same in both texts)."""
        return len(self._o_start) + (self._then.pieces if self._then is not None else 0)

    def __repr__(self) -> str:
        mode = "nfc_only" if self.nfc_only else "full"
        return f"TextView({len(self.original)} → {len(self.text)} characters, {mode}, {self.pieces} pieces)"

    # -- offsets ----------------------------------------------------------------------------
    def _original_start(self, v: int) -> int:
        """The original offset where a span starting at view offset ``v`` starts: after any
        removed characters at ``v``, at the start of a piece ``v`` falls inside."""
        j = bisect_right(self._v_start, v) - 1
        if j < 0:
            return v
        if v < self._v_end[j]:
            return self._o_start[j]
        return self._o_end[j] + (v - self._v_end[j])

    def _original_end(self, v: int) -> int:
        """The original offset where a span ending at view offset ``v`` ends: before any removed
        characters at ``v``, at the end of a piece ``v`` falls inside."""
        k = bisect_left(self._v_end, v)
        if k < len(self._v_end) and self._v_start[k] < v:
            return self._o_end[k]
        if k == 0:
            return v
        return self._o_end[k - 1] + (v - self._v_end[k - 1])

    def _view_start(self, o: int) -> int:
        j = bisect_right(self._o_start, o) - 1
        if j < 0:
            return o
        if o < self._o_end[j]:
            return self._v_start[j]
        return self._v_end[j] + (o - self._o_end[j])

    def _view_end(self, o: int) -> int:
        k = bisect_left(self._o_end, o)
        if k < len(self._o_end) and self._o_start[k] < o:
            return self._v_end[k]
        if k == 0:
            return o
        return self._v_end[k - 1] + (o - self._o_end[k - 1])

    def _snap(self, start: int, end: int) -> tuple[int, int]:
        """Widen an original span so it never cuts a combining sequence or a CRLF in two; the
        same span snapped again stays as it is (a CRLF taken in may bring marks after it)."""
        while True:
            snapped = self._snap_once(start, end)
            if snapped == (start, end):
                return snapped
            start, end = snapped

    def _snap_once(self, start: int, end: int) -> tuple[int, int]:
        text = self.original
        tables = _tables()
        marks = tables.marks
        base = start
        while base > 0 and text[base] in marks:
            base -= 1
        if base < start and text[base] not in marks and not tables.not_a_base.match(text, base):
            start = base
        while end < len(text) and text[end] in marks:
            end += 1
        if 0 < start < len(text) and text[start] == "\n" and text[start - 1] == "\r":
            start -= 1
        if 0 < end < len(text) and text[end] == "\n" and text[end - 1] == "\r":
            end += 1
        return start, end

    def original_offset(self, v: int) -> int:
        """The original offset of view offset ``v`` (after any characters removed there)."""
        if not 0 <= v <= len(self.text):
            raise ValueError(f"{v} is not an offset of the view ({len(self.text)})")
        if self._then is not None:
            v = self._then.original_offset(v)
        return self._original_start(v) if self._o_start else v

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The original range of the view range ``[start, end)`` (0 ≤ start < end ≤ len(text))."""
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"[{start}, {end}) is not a non-empty range of the view ({len(self.text)})")
        if self._then is not None:
            start, end = self._then.to_original(start, end)
        if self._o_start:
            start, end = self._original_start(start), self._original_end(end)
        return self._snap(start, end)

    def to_view(self, start: int, end: int) -> tuple[int, int] | None:
        """The view range of the original range ``[start, end)``; None when nothing of it is left
        in the view (it covered only removed characters)."""
        if not 0 <= start < end <= len(self.original):
            raise ValueError(f"[{start}, {end}) is not a non-empty range of the text ({len(self.original)})")
        if self._o_start:
            start, end = self._view_start(start), self._view_end(end)
            if start >= end:
                return None
        return self._then.to_view(start, end) if self._then is not None else (start, end)

    # -- spans and documents ------------------------------------------------------------------
    def _map_parts(self, parts: Sequence[Fragment], to_view: bool) -> list[Fragment]:
        mapped: list[Fragment] = []
        for s, e in parts:
            r = self.to_view(s, e) if to_view else self.to_original(s, e)
            if r is None:
                continue
            if mapped and r[0] <= mapped[-1][1]:  # fragments that now touch become one
                mapped[-1] = (mapped[-1][0], max(mapped[-1][1], r[1]))
            else:
                mapped.append(r)
        return mapped

    def _map_span(self, span: Span, to_view: bool) -> Span | None:
        if self._exact:
            return span
        parts = self._map_parts(span.parts, to_view)
        if not parts:
            return None
        fragments = tuple(parts) if len(parts) > 1 else None
        return replace(span, start=parts[0][0], end=parts[-1][1], fragments=fragments)

    def snap_span(self, span: Span) -> Span:
        """An original span widened so that no part of it cuts a CRLF or a letter from its
        combining marks: what will be replaced, decided before overlaps are resolved (two
        spans on the two halves of one CRLF become one range, and one of them gives way)."""
        if self._exact:
            return span
        parts = []
        for s, e in span.parts:
            s, e = self._snap(s, e)
            if parts and s <= parts[-1][1]:
                parts[-1] = (parts[-1][0], max(parts[-1][1], e))
            else:
                parts.append((s, e))
        fragments = tuple(parts) if len(parts) > 1 else None
        if parts[0][0] == span.start and parts[-1][1] == span.end and fragments == span.fragments:
            return span
        return replace(span, start=parts[0][0], end=parts[-1][1], fragments=fragments)

    def span_to_original(self, span: Span) -> Span:
        """A span found on the view, at the original's offsets."""
        mapped = self._map_span(span, to_view=False)
        assert mapped is not None  # a non-empty view range always maps to a non-empty range
        return mapped

    def span_to_view(self, span: Span) -> Span | None:
        """A span of the original at the view's offsets; None if it covers only removed text."""
        return self._map_span(span, to_view=True)

    def spans_to_original(self, spans: Iterable[Span]) -> list[Span]:
        """Non-overlapping view spans, sorted, at the original's offsets and still non-overlapping.

        Widening to whole combining sequences can make two neighbours touch the same sequence;
        the later one then starts where the earlier ends (coverage is kept, never lost).
        """
        ordered = sorted(spans, key=lambda s: (s.start, s.end, s.label))
        if self._exact:
            return ordered
        out: list[Span] = []
        for span in ordered:
            mapped = self.span_to_original(span)
            if out and mapped.start < out[-1].end:
                if mapped.end <= out[-1].end:
                    continue
                start = out[-1].end
                mapped = replace(mapped, start=start, fragments=_clip(mapped.fragments, start))
            out.append(mapped)
        return out

    def document(self, document: Document) -> Document:
        """The document with the view's text and its spans mapped into the view (a span that
        covered only removed characters is dropped); what training and detection see."""
        if self.identity:
            return document
        spans = [m for m in (self.span_to_view(s) for s in document.spans) if m is not None]
        return Document(document.id, self.text, tuple(spans), document.metadata)


def _clip(fragments: tuple[Fragment, ...] | None, start: int) -> tuple[Fragment, ...] | None:
    if fragments is None:
        return None
    kept = [(max(s, start), e) for s, e in fragments if e > start]
    return tuple(kept) if len(kept) > 1 else None


def view_of(text: str) -> TextView:
    """The detection view of a text (shorthand for ``TextView(text)``)."""
    return TextView(text)


# ---------------------------------------------------------------------------------------------
# Normalisation forms of surrogates


def form_of(text: str) -> Form | None:
    """``"NFD"`` for decomposed text, ``"NFC"`` for composed (or mixed) text, None when the text
    has nothing to compose or decompose (ASCII, for instance) and either form fits."""
    nfc = unicodedata.is_normalized("NFC", text)
    nfd = unicodedata.is_normalized("NFD", text)
    if nfc and nfd:
        return None
    return "NFD" if nfd else "NFC"


def same_form(surrogate: str, original: str, default: Form = "NFC") -> str:
    """``surrogate`` in the normalisation form of ``original`` (NFD if it was decomposed, NFC if
    composed or mixed); ``default`` decides when the original is neutral, e.g. the form of the
    whole note (``form_of(note) or "NFC"``), so "Ernesto" in an NFD note gets an NFD surrogate."""
    return unicodedata.normalize(form_of(original) or default, surrogate)


if __name__ == "__main__":  # python -m crfdeid.textview: refresh the precomputed Unicode lists
    write_unicode_lists()
    print(f"wrote {_LISTS_FILE} (Unicode {unicodedata.unidata_version})")
