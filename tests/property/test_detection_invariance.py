"""Same meaning, same result: a metamorphic test of detection.

Each transformation changes a real note the way another system would have typed it — a space
turned NBSP or tab, LF turned CRLF, accents decomposed (NFD), an emoji or a direction mark beside
a word, a zero-width space in whitespace — and records its own edits, so every span found on the
original has one exact place in the transformed note. The embedded pipeline must find exactly
those spans there: same labels, extents mapped through the edits.

The notes are the three example notes, and the MEDDOCAN dev notes when the corpus is present.
Hypothesis draws (note, transformation, places) with a bounded number of examples; the slow run
over every dev note × every transformation is enabled with ``CRFDEID_INVARIANCE_FULL=1``
(``CRFDEID_INVARIANCE_FULL=1 python -m pytest -s tests/property/test_detection_invariance.py``).
"""

from __future__ import annotations

import os
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid.io.corpus import load_corpus
from crfdeid.pipeline import Pipeline, load_pipeline
from crfdeid.resources import meddocan_dir
from crfdeid.types import Document
from tests.conftest import EXAMPLES

Edit = tuple[int, int, str]  # original [start, end) becomes the string
Transform = Callable[[str, random.Random], list[Edit]]

EMOJI = ["\U0001f600", "\U0001f44d\U0001f3fd", "\u2764\ufe0f", "\U0001f468\u200d\u2695\ufe0f",
         "\U0001f1ea\U0001f1f8", "\U0001f3e5", "\U0001f48a"]
BIDI = ["\u200e", "\u200f"]
_WORD = re.compile(r"\w+")


def _some(items: list[int], rng: random.Random, share: float = 0.3) -> list[int]:
    """A random subset (at least one when there is any) of positions."""
    if not items:
        return []
    chosen = [i for i in items if rng.random() < share]
    return chosen or [rng.choice(items)]


def _replace_spaces(by: str) -> Transform:
    def transform(text: str, rng: random.Random) -> list[Edit]:
        return [(i, i + 1, by) for i in _some([i for i, c in enumerate(text) if c == " "], rng)]
    return transform


def _crlf(text: str, rng: random.Random) -> list[Edit]:
    lines = [i for i, c in enumerate(text) if c == "\n"]
    chosen = lines if rng.random() < 0.5 else _some(lines, rng)
    return [(i, i + 1, "\r\n") for i in chosen]


def _nfd_edits(text: str, start: int, end: int) -> list[Edit]:
    nfd = unicodedata.normalize
    return [(i, i + 1, d) for i in range(start, end) if (d := nfd("NFD", text[i])) != text[i]]


def _nfd_all(text: str, rng: random.Random) -> list[Edit]:
    return _nfd_edits(text, 0, len(text))


def _nfd_words(text: str, rng: random.Random) -> list[Edit]:
    words = [m.span() for m in _WORD.finditer(text) if not unicodedata.is_normalized("NFD", m.group())]
    return [e for k in _some(list(range(len(words))), rng, 0.5) for e in _nfd_edits(text, *words[k])]


def _beside_words(pool: list[str]) -> Transform:
    """Insert one of ``pool`` right before or right after some words."""
    def transform(text: str, rng: random.Random) -> list[Edit]:
        words = [m.span() for m in _WORD.finditer(text)]
        edits = []
        for k in _some(list(range(len(words))), rng, 0.1):
            at = words[k][0] if rng.random() < 0.5 else words[k][1]
            edits.append((at, at, rng.choice(pool)))
        return sorted(set(edits))
    return transform


def _zwsp_in_whitespace(text: str, rng: random.Random) -> list[Edit]:
    places = sorted({i for i, c in enumerate(text) if c.isspace()} | {i + 1 for i, c in enumerate(text)
                                                                       if c.isspace()})
    return [(i, i, "\u200b") for i in _some(places, rng, 0.2)]


TRANSFORMS: dict[str, Transform] = {
    "nbsp": _replace_spaces("\xa0"),
    "tab": _replace_spaces("\t"),
    "crlf": _crlf,
    "nfd-note": _nfd_all,
    "nfd-words": _nfd_words,
    "emoji": _beside_words(EMOJI),
    "bidi-mark": _beside_words(BIDI),
    "zwsp": _zwsp_in_whitespace,
}


def apply(text: str, edits: list[Edit]) -> str:
    out, pos = [], 0
    for start, end, new in sorted(edits):
        out += [text[pos:start], new]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _shift(edits: list[Edit], offset: int, is_end: bool) -> int:
    """Where an original span boundary lands after the edits: an insertion at a span's start or
    end stays outside the span, a replaced character inside it stays inside."""
    delta = 0
    for start, end, new in edits:
        if (start < offset) if is_end else (end <= offset):
            delta += len(new) - (end - start)
    return offset + delta


@cache
def _pipeline() -> Pipeline:
    # The embedded pipeline, with room for a busy machine: a wall-clock rule timeout on one side
    # only would be a difference of timing, not of meaning.
    return load_pipeline(timeout=30)


@cache
def _notes() -> tuple[Document, ...]:
    docs = list(load_corpus([EXAMPLES]).values())
    corpus = meddocan_dir()
    if corpus is not None and (corpus / "dev").is_dir():
        docs += sorted(load_corpus([corpus / "dev"]).values(), key=lambda d: d.id)
    return tuple(docs)


@cache
def _found(index: int) -> tuple[tuple[int, int, str], ...]:
    detection = _pipeline().run(_notes()[index])
    assert not detection.timeouts
    return tuple(s.key() for s in detection.spans)


def mismatches(doc: Document, found: tuple[tuple[int, int, str], ...], name: str, seed: int) -> list[str]:
    """What differs between the spans expected in the transformed note and those found there."""
    edits = TRANSFORMS[name](doc.text, random.Random(seed))
    new_text = apply(doc.text, edits)
    detection = _pipeline().run(Document(doc.id, new_text))
    assert not detection.timeouts
    expected = {(_shift(edits, s, False), _shift(edits, e, True), label) for s, e, label in found}
    got = {s.key() for s in detection.spans}
    return [f"{'missing' if key in expected else 'extra'} {key[2]} {new_text[key[0]:key[1]]!r} at {key[:2]}"
            for key in sorted(expected ^ got)]


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_example_notes_give_the_same_spans(name: str) -> None:
    for index, doc in enumerate(_notes()[:3]):
        assert doc.id.startswith("nota-")
        found = _found(index)
        assert found, "the example notes hold PHI the pipeline finds"
        assert mismatches(doc, found, name, seed=index) == [], (doc.id, name)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(sorted(TRANSFORMS)), st.integers(0, 2**32 - 1))
def test_transformed_notes_give_the_same_spans(data: st.DataObject, name: str, seed: int) -> None:
    index = data.draw(st.integers(0, len(_notes()) - 1), label="note")
    doc = _notes()[index]
    assert mismatches(doc, _found(index), name, seed) == [], (doc.id, name, seed)


def test_the_transformations_change_the_notes() -> None:
    """Each transformation really edits a note, so the test above can fail."""
    doc = _notes()[0]
    for name, transform in TRANSFORMS.items():
        edits = transform(doc.text, random.Random(1))
        assert edits and apply(doc.text, edits) != doc.text, name


def test_edits_map_spans_like_the_view() -> None:
    text = "Sr. Ernesto Rivera\n"
    edits = [(4, 4, "\u200e"), (11, 12, "\xa0"), (18, 18, "\U0001f600"), (18, 19, "\r\n")]
    assert apply(text, edits) == "Sr. \u200eErnesto\xa0Rivera\U0001f600\r\n"
    assert (_shift(edits, 4, False), _shift(edits, 18, True)) == (5, 19)


FULL = bool(os.environ.get("CRFDEID_INVARIANCE_FULL"))


@pytest.mark.skipif(not FULL, reason="slow: set CRFDEID_INVARIANCE_FULL=1")
def test_every_dev_note_under_every_transformation() -> None:
    notes = _notes()
    if len(notes) <= 3:
        pytest.skip("MEDDOCAN dev notes not found")
    runs: Counter[str] = Counter()
    failures: dict[tuple[str, str], list[str]] = {}
    for index in range(3, len(notes)):
        found = _found(index)
        for name in sorted(TRANSFORMS):
            runs[name] += 1
            diff = mismatches(notes[index], found, name, seed=index)
            if diff:
                failures[(notes[index].id, name)] = diff
    print(f"\n{len(notes) - 3} dev notes x {len(TRANSFORMS)} transformations = {sum(runs.values())} runs; "
          f"{len(failures)} with a mismatch")
    for (doc_id, name), diff in sorted(failures.items()):
        print(f"  {doc_id} {name}: {'; '.join(diff[:4])}")
    assert not failures
