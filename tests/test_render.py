"""A note with highlighted spans as HTML: everything escaped, the text kept exactly, overlaps dropped."""

from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from crfdeid.render import Highlight, highlights_from_audit, label_class, label_css, render_note, segments


def visible_text(markup: str) -> str:
    """What a browser shows of a rendered note: tags removed, entities decoded."""
    inner = re.sub(r"<span class=\"cut\">.*?</span>", "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", inner))


def test_hostile_text_labels_and_tooltips_are_escaped():
    text = 'Nombre: <script>alert("x")</script> & "Ana" <b>'
    start = text.index("<script>")
    markup = str(render_note(text, [Highlight(start, start + 8, 'LBL"><img src=x>', title='"><script>',
                                             anchor="n0-d1")]))
    assert "<script>" not in markup and "<img" not in markup and "<b>" not in markup
    assert "&lt;script&gt;" in markup and "&amp;" in markup
    assert f'class="phi {label_class(chr(34))}' not in markup  # the class is derived, never the label
    assert visible_text(markup) == text


def test_overlapping_highlights_keep_the_first_and_a_long_note_is_cut():
    pieces, cut = segments("abcdefghij", [Highlight(2, 6, "A"), Highlight(4, 8, "B"), Highlight(8, 9, "C")])
    assert [(t, h.label if h else None) for t, h in pieces] == [
        ("ab", None), ("cdef", "A"), ("gh", None), ("i", "C"), ("j", None)]
    assert not cut
    markup = str(render_note("x" * 50 + "Ana", [Highlight(50, 53, "N")], limit=20))
    assert "cut here: 20 of 53 characters" in markup and "<mark" not in markup


def test_label_css_gives_each_label_a_stable_colour_class():
    css = str(label_css(["NOMBRE", "FECHAS", "NOMBRE"]))
    assert css.count("--h:") == 2 and label_class("NOMBRE") in css
    assert label_class("NOMBRE") == label_class("NOMBRE") != label_class("FECHAS")


def test_audit_records_give_highlights_of_either_view():
    records = [
        {"record": "span", "start": 8, "end": 11, "new_start": 8, "new_end": 14, "label": "NOMBRE",
         "source": "crf", "score": 0.42, "strategy": "pseudonymise", "surrogate": "Marta.", "note": ""},
        {"record": "span", "start": 9, "end": 10, "new_start": -1, "new_end": -1, "label": "X",
         "source": "rule:x", "score": None, "strategy": "overlap", "surrogate": None, "note": ""},
        {"record": "leftover", "leftover": True, "label": "NOMBRE", "new_start": 20, "new_end": 23},
    ]
    original = highlights_from_audit(records, "original", prefix="n0", low=0.9)
    assert [(h.start, h.end, h.classes, h.anchor) for h in original] == [(8, 11, "low", "n0-o0")]
    assert "→ Marta." in original[0].title and "score 0.420" in original[0].title
    new = highlights_from_audit(records, "deidentified", prefix="n0", original="Nombre: Ana.")
    assert [(h.start, h.end, h.classes) for h in new] == [(8, 14, ""), (20, 23, "leftover")]
    assert "was: Ana" in new[0].title
    assert all("Ana" not in h.title for h in highlights_from_audit(records, "deidentified"))


@given(text=st.text(max_size=200), cuts=st.lists(st.integers(0, 200), max_size=8))
def test_rendering_never_changes_the_text(text, cuts):
    points = sorted({c for c in cuts if c <= len(text)})
    highlights = [Highlight(a, b, "L") for a, b in zip(points[::2], points[1::2], strict=False) if b > a]
    markup = str(render_note(text, highlights, limit=None))
    assert visible_text(markup) == text
