"""Tokenizer invariants over arbitrary text: offsets exact, text recoverable, lines right."""

from __future__ import annotations

import io
import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.tokenize import count_breaks, count_lines, next_line_start, tokenize

# database=None: no .hypothesis/ folder is written into the repository.
FAST = settings(max_examples=200, database=None, deadline=None)

_BREAK_RE = re.compile(r"\r\n|\r|\n")

PIECES = [
    # Spanish-ish words, including glued form fields and NFD accents
    "José", "Martínez", "NºCol", "MartínezNºCol", "DRAlberto", "mmHg", "UCIs", "Pe\u0301rez",
    "c/", "del", "Abedul", "dcha", "Sexo", "H", "E-mail", "correo", "hospital", "es", "x",
    # digits
    "0", "28", "03", "1946", "28016", "70973",
    # punctuation and address / URL material
    ".", ",", ":", ";", "-", "/", "(", ")", "º", "ª", "+", "?", "=", "_", "'", "\"", "«", "»",
    "@", "://", "www.", "http", "https", "ana@x.es", "https://x.es/?u=", "mailto:",
    # whitespace, including every line break and unusual separators
    " ", "  ", "\t", "\n", "\r", "\r\n", "\n\r", "\xa0", "\u2028", "\x0b", "\x0c", "\x85",
]
clinical_text = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=60
).map("".join)


def check_invariants(text: str) -> None:
    tokens = tokenize(text)
    pos = 0
    rebuilt = []
    covered = [False] * len(text)
    previous_line = -1
    seen_lines = set()
    for token in tokens:
        # ordered, non-overlapping, non-empty, exact
        assert pos <= token.start < token.end <= len(text), (text, token)
        assert token.text == text[token.start:token.end], (text, token)
        assert not any(c.isspace() for c in token.text), (text, token)
        # the gap before the token is whitespace only
        gap = text[pos:token.start]
        assert gap == "" or gap.isspace(), (text, token, gap)
        rebuilt.append(gap)
        rebuilt.append(token.text)
        for i in range(token.start, token.end):
            covered[i] = True
        # line = number of line breaks before the token start; first token of a line is flagged
        assert token.line == len(_BREAK_RE.findall(text, 0, token.start)), (text, token)
        assert token.line >= previous_line, (text, token)
        assert token.line_start == (token.line not in seen_lines), (text, token)
        seen_lines.add(token.line)
        previous_line = token.line
        pos = token.end
    tail = text[pos:]
    assert tail == "" or tail.isspace(), (text, tail)
    rebuilt.append(tail)
    assert "".join(rebuilt) == text
    for i, char in enumerate(text):
        assert char.isspace() or covered[i], (text, i, char)


@FAST
@given(st.text())
def test_invariants_on_arbitrary_unicode(text: str) -> None:
    check_invariants(text)


@FAST
@given(clinical_text)
def test_invariants_on_clinical_like_text(text: str) -> None:
    check_invariants(text)


@FAST
@given(clinical_text, st.sampled_from([" ", "\n", "\r\n", "\t", "\xa0", "\u2028"]), clinical_text)
def test_whitespace_separated_parts_tokenize_independently(first: str, sep: str,
                                                            second: str) -> None:
    """No token reaches across whitespace: e-mail/URL detection and glue splitting are local."""
    shift = len(first) + len(sep)
    together = [(t.start, t.end, t.text) for t in tokenize(first + sep + second)]
    apart = [(t.start, t.end, t.text) for t in tokenize(first)]
    apart += [(t.start + shift, t.end + shift, t.text) for t in tokenize(second)]
    assert together == apart


@FAST
@given(st.text())
def test_count_lines_matches_universal_newline_reader(text: str) -> None:
    expected = len(io.StringIO(text, newline=None).readlines())
    assert count_lines(text) == expected


@FAST
@given(clinical_text)
def test_count_lines_on_clinical_like_text(text: str) -> None:
    assert count_lines(text) == len(io.StringIO(text, newline=None).readlines())


@FAST
@given(clinical_text, st.data())
def test_a_range_of_lines_tokenizes_as_in_the_whole_text(text: str, data: st.DataObject) -> None:
    """Long notes are tokenized a block of lines at a time: each block must give exactly the
    tokens (offsets, line index, line-start flag) the whole text gives in that range."""
    starts = sorted({0, len(text), *(m.end() for m in _BREAK_RE.finditer(text))})
    cuts = sorted(set(data.draw(st.lists(st.sampled_from(starts), max_size=4))) | {0, len(text)})
    pieces = []
    for a, b in itertools.pairwise(cuts):
        pieces += tokenize(text, a, b, line=count_breaks(text, 0, a))
    assert pieces == tokenize(text)
    for a in starts:
        assert next_line_start(text, a) in starts
