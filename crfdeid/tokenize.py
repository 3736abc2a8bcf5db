"""Offset-exact tokenizer for clinical text.

Design goals, in order:

1. Annotated PHI boundaries fall on token boundaries (measured by ``benchmarks/tokenizer.py``
   on MEDDOCAN: an identifier that starts mid-token can never be tagged exactly).
2. ``text`` is fully recoverable: tokens never overlap, every non-whitespace character belongs
   to exactly one token and the gaps between tokens are whitespace only.
3. Speed: one compiled ``re`` pass; the rare special cases (e-mails, URLs, glued words such as
   ``MartínezNºCol``) are handled without slowing the common path.

Splitting policy:

- a run of letters (with combining accents) is one token, e.g. ``NºCol``, ``Cuéllar``;
- a run of digits is one token (``03/03/1946`` → ``03 / 03 / 1946``; ``5-7`` → ``5 - 7``);
- every other non-space character is a token of its own (``Dr.Navarro`` → ``Dr . Navarro``);
- e-mail addresses and URLs are single tokens;
- a letter run is split where two lowercase letters meet an uppercase one (``MartínezNºCol``) and
  where an uppercase run meets a capitalised word (``DRAlberto``) — glued words from form
  fields — but not in ``mmHg``, ``IgG``, ``UCIs`` or ``McDonald``.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import regex

from .types import Token

# Letters (\w minus digits and underscore), optionally with combining diacritics (NFD text).
_WORD = r"[^\W\d_]+(?:[\u0300-\u036f\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+[^\W\d_]*)*"
_TOKEN_RE = re.compile(rf"{_WORD}|\d+|\S")

# Only consulted when a document contains '@' / '://' / 'www.'.
# A label glued to the address ("E-mail.ana@x.es", "E-mail-ana@x.es") is not part of it.
_EMAIL_RE = re.compile(
    r"(?:(?i:e-?mail|correo)[.:-])?(?P<addr>[\w+-]+(?:\.[\w+-]+)*@[\w-]+(?:\.[\w-]+)+)"
)
_URL_RE = re.compile(r"(?:(?:https?|ftp)://|www\.)[^\s<>\"'«»]+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}'\"»"
#: Cheap gate before the URL regex: every URL it can match contains one of these.
_URL_HINT_RE = re.compile(r"://|www\.", re.IGNORECASE)
_MAX_CHUNK = 256

# Splits inside a mixed-case letter run (needs Unicode case classes, hence the `regex` module).
# A final capitalised two-letter piece is not split off: it is a unit (``mmHg``), not a word.
_GLUE_SPLIT_RE = regex.compile(
    r"(?<=\p{Ll}\p{Ll})(?=\p{Lu})(?!\p{Lu}\p{Ll}\Z)|(?<=\p{Lu})(?=\p{Lu}\p{Ll}{2})"
)

_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


def _protected_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """E-mail and URL spans in ``text[start:end]`` that must stay single tokens, sorted and
    non-overlapping. Neither can contain whitespace, so a range cut at line breaks finds the
    same spans as the whole text."""
    found: list[tuple[int, int]] = []
    at = text.find("@", start, end)
    while at != -1:
        # Scan only the whitespace-delimited chunk around each '@': a whole-text regex scan
        # would cost more than the rest of tokenization together.
        lo = at
        while lo > start and not text[lo - 1].isspace() and at - lo < _MAX_CHUNK:
            lo -= 1
        hi = at + 1
        while hi < end and not text[hi].isspace() and hi - at < _MAX_CHUNK:
            hi += 1
        found.extend(m.span("addr") for m in _EMAIL_RE.finditer(text, lo, hi))
        at = text.find("@", hi, end)
    if _URL_HINT_RE.search(text, start, end):
        for m in _URL_RE.finditer(text, start, end):
            m_start, m_end = m.span()
            while m_end > m_start and text[m_end - 1] in _URL_TRAILING:
                m_end -= 1
            if m_end - m_start > 4:
                found.append((m_start, m_end))
    if len(found) < 2:
        return found
    found.sort()
    merged = [found[0]]
    for m_start, m_end in found[1:]:
        last_start, last_end = merged[-1]
        if m_start < last_end:  # an e-mail inside a URL, e.g. mailto-like query strings
            merged[-1] = (last_start, max(last_end, m_end))
        else:
            merged.append((m_start, m_end))
    return merged


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins; lines end at ``\\r\\n``, ``\\r`` or ``\\n``."""
    return [0, *(m.end() for m in _LINE_BREAK_RE.finditer(text))]


def count_lines(text: str) -> int:
    """Number of lines as Python's universal-newline reader counts them (empty text: 0)."""
    if not text:
        return 0
    starts = line_starts(text)
    return len(starts) - (1 if starts[-1] == len(text) else 0)


def next_line_start(text: str, pos: int) -> int:
    """The start of the first line beginning after ``pos`` (``len(text)`` if there is none)."""
    m = _LINE_BREAK_RE.search(text, pos)
    return m.end() if m else len(text)


def count_breaks(text: str, start: int, end: int) -> int:
    """Line breaks in ``text[start:end]`` (both at line starts): the line index moves by this."""
    return sum(1 for _ in _LINE_BREAK_RE.finditer(text, start, end))


def tokenize(text: str, start: int = 0, end: int | None = None, line: int = 0) -> list[Token]:
    """Split ``text`` into :class:`Token` objects with exact offsets, line index and line-start flag.

    With ``start``/``end``, only ``text[start:end]`` is tokenized (offsets still index ``text``,
    nothing is copied): ``start`` must be 0 or the start of a line, ``end`` the start of a line
    or the end of the text, and ``line`` the index of the line at ``start``. The tokens are then
    exactly those the whole text would give in that range, which is how a long note is
    tokenized a block of lines at a time.

    One regex pass over the text; the loop is written flat because it runs once per token.
    """
    if end is None:
        end = len(text)
    tokens: list[Token] = []
    append = tokens.append
    make = tuple.__new__  # Token(...) without the NamedTuple __new__ wrapper: ~30 % faster
    finditer = _TOKEN_RE.finditer
    glue_split = _GLUE_SPLIT_RE.split
    breaks = [start, *(m.end() for m in _LINE_BREAK_RE.finditer(text, start, end))]
    breaks.append(end + 1)  # sentinel: no token starts there
    next_break = breaks[1]
    index = 0  # line index relative to ``line``
    first = True
    pos = start
    protected = _protected_spans(text, start, end)
    protected.append((end, end))
    for p_start, p_end in protected:
        for m in finditer(text, pos, p_start):
            t_start, t_end = m.span()
            if t_start >= next_break:  # first token of a new line: find which (once per line)
                index = bisect_right(breaks, t_start) - 1
                next_break, first = breaks[index + 1], True
            word = m.group()
            if (t_end - t_start > 3 and not (word.islower() or word.istitle() or word.isupper())
                    and word[0].isalpha()):
                for piece in glue_split(word):
                    append(make(Token, (t_start, t_start + len(piece), piece, line + index, first)))
                    t_start += len(piece)
                    first = False
            else:
                append(make(Token, (t_start, t_end, word, line + index, first)))
                first = False
        if p_end > p_start:  # an e-mail or URL
            if p_start >= next_break:
                index = bisect_right(breaks, p_start) - 1
                next_break, first = breaks[index + 1], True
            append(make(Token, (p_start, p_end, text[p_start:p_end], line + index, first)))
            first = False
        pos = p_end
    return tokens
