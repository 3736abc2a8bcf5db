"""Round trips over arbitrary Unicode: what the writers write, the readers read back unchanged."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.io.brat import read_brat, write_brat
from crfdeid.io.jsonl import read_jsonl, write_jsonl
from crfdeid.types import Document, Span

# Any character UTF-8 can carry except NUL, which the readers refuse as a sign of a binary file.
_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                min_size=1, max_size=200)
_LABELS = st.sampled_from(["FECHAS", "CALLE", "NOMBRE_SUJETO_ASISTENCIA", "X"])


@st.composite
def documents(draw) -> Document:
    text = draw(_TEXT)
    spans = []
    for _ in range(draw(st.integers(0, 5))):
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
        if end - start >= 3 and draw(st.booleans()):
            cut = draw(st.integers(start + 1, end - 2))
            spans.append(Span(start, end, draw(_LABELS), fragments=((start, cut), (cut + 1, end))))
        else:
            spans.append(Span(start, end, draw(_LABELS)))
    return Document("doc-1", text, tuple(spans))


@settings(max_examples=150, deadline=None)
@given(documents())
def test_brat_round_trip_keeps_text_and_spans(document: Document):
    with tempfile.TemporaryDirectory() as tmp:
        write_brat(document, tmp)
        again = read_brat(Path(tmp) / "doc-1.txt")
        assert again == document
        assert (Path(tmp) / "doc-1.txt").read_bytes() == document.text.encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=3))
def test_jsonl_round_trip(docs: list[Document]):
    docs = [Document(f"d{i}", d.text, d.spans) for i, d in enumerate(docs)]
    with tempfile.TemporaryDirectory() as tmp:
        path = write_jsonl(docs, Path(tmp) / "c.jsonl")
        assert list(read_jsonl(path)) == docs
