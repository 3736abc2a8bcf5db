"""Helpers for the surrogate tests: a document state and a one-call pseudonymiser."""

from __future__ import annotations

from crfdeid.policy import Policy
from crfdeid.pseudonymise import Pseudonymised, Pseudonymiser
from crfdeid.surrogates import DocumentState, Secret, normalise, surrogate_data
from crfdeid.types import Document, Span


def state(text: str = "", seed: int = 1, doc_id: str = "d1") -> DocumentState:
    return DocumentState(doc_id, text, Secret.from_seed(seed), surrogate_data("es"))


def spans_of(text: str, *items: tuple[str, str]) -> list[Span]:
    """Spans for (label, substring) pairs, each found after the previous one."""
    out, pos = [], 0
    for label, piece in items:
        start = text.index(piece, pos)
        out.append(Span(start, start + len(piece), label))
        pos = start + len(piece)
    return out


def run(
    text: str,
    *items: tuple[str, str],
    seed: int = 1,
    policy: Policy | None = None,
    key: bytes | None = None,
    doc_id: str = "d1",
) -> Pseudonymised:
    doc = Document(doc_id, text, tuple(spans_of(text, *items)))
    return Pseudonymiser(policy, seed=seed, key=key).pseudonymise(doc)


def new_texts(result: Pseudonymised) -> list[str]:
    return [result.text[s.start : s.end] for s in result.spans]


def same(a: str, b: str) -> bool:
    return normalise(a) == normalise(b)
