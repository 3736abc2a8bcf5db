"""Training notes in other letter cases: what the tagger sees of notes not written like its corpus.

MEDDOCAN's notes are written in sentence case; real notes are not always. A nursing handover
typed in lower case ("vicent llopis ferrando, 81a … la hija (amparo)") lost the tagger the
capital that says "name": on such notes, written blind (tests/fixtures/es_blind), it found 40 %
of the spans of a lower-case note against 80 % elsewhere. A copy of some training notes in lower
case, and of fewer in capitals, teaches it what is left — the words, the lists, the context.

A note's copies depend on its id alone (a hash), so a model is the same whatever order its
notes come in, and cross-validation copies only the notes of each fold's training part. Each
character is mapped on its own and kept when its case form is longer ("ß" -> "SS"), so the
gold spans keep their offsets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from .types import Document

#: What a copy's id adds to its note's (the copies of "S0004-1" are "S0004-1#lower", "…#upper").
SEPARATOR = "#"
#: The share of copies in capitals against those in lower case (notes in capitals are rarer).
UPPER_SHARE = 0.5


def case_variants(documents: Iterable[Document], fraction: float) -> list[Document]:
    """Copies of about ``fraction`` of ``documents`` in lower case and of half as many others in
    capitals, the same spans on the same offsets; none with ``fraction`` 0."""
    if fraction <= 0:
        return []
    out = []
    for doc in documents:
        draw = int.from_bytes(hashlib.sha256(doc.id.encode("utf-8")).digest()[:8], "big") / 2**64
        if draw < fraction:
            out.append(_cased(doc, "lower"))
        elif draw < fraction * (1 + UPPER_SHARE):
            out.append(_cased(doc, "upper"))
    return out


def is_variant(doc_id: str) -> bool:
    return doc_id.endswith((SEPARATOR + "lower", SEPARATOR + "upper"))


def _cased(doc: Document, case: str) -> Document:
    text = "".join(_one(c, case) for c in doc.text)
    return Document(doc.id + SEPARATOR + case, text, doc.spans)


def _one(char: str, case: str) -> str:
    changed = char.lower() if case == "lower" else char.upper()
    return changed if len(changed) == 1 else char
