"""Every input the fuzzer ever failed on, replayed (``tests/regression/fuzz/*.json``).

A case saved with ``"expected": "ok"`` must pass every invariant of ``tests/fuzz_kit.py``. A
case saved with ``"expected": "crash: …"`` or ``"violation: …"`` is a known, open bug: it must
still fail the same way (strict xfail: once the bug is fixed the test reports XPASS, and the case
is switched to ``"ok"``, where it stays as a regression test). Cases saved as a recipe over a
MEDDOCAN note (never its text) skip when the corpus is absent.
"""

from __future__ import annotations

import pytest

from crfdeid.resources import meddocan_dir
from tests import fuzz_kit as fk

CASES = fk.saved_cases()
FIELDS = {"id", "detector", "policy", "keyed", "seed", "expected", "found_by", "date", "what", "signature"}


class KnownFailure(Exception):
    """The saved case failed the way it was saved failing."""


def _param(path, data):
    marks = []
    if data["expected"] != "ok":
        marks.append(pytest.mark.xfail(strict=True, raises=KnownFailure, reason=data["expected"]))
    return pytest.param(data, marks=marks, id=path.stem)


@pytest.mark.parametrize("data", [_param(p, d) for p, d in CASES])
def test_saved_case(data):
    case = fk.case_from_json(data, meddocan_dir())
    if case is None:
        pytest.skip(f"needs the MEDDOCAN corpus ({data['recipe']['origin']})")
    exc = fk.failure_of(case, data.get("other", ""))
    if exc is None:
        return
    if data["expected"] != "ok" and _same_class(fk.signature(exc), data["signature"]):
        raise KnownFailure(data["expected"]) from exc
    raise AssertionError(f"{fk.signature(exc)} at {fk.location(exc)}: {exc}") from exc


def _same_class(found: str, saved: str) -> bool:
    """The same invariant, or the same exception type (code moves between functions)."""
    return found.split(" at ")[0] == saved.split(" at ")[0]


@pytest.mark.parametrize("path", [p for p, _ in CASES], ids=lambda p: p.stem)
def test_saved_case_is_well_formed(path):
    data = next(d for p, d in CASES if p == path)
    assert data.keys() >= FIELDS, f"missing {FIELDS - data.keys()}"
    assert data["id"] == path.stem
    assert ("text" in data) != ("recipe" in data), "a case has its text or its recipe, not both"
    if "recipe" in data:
        assert data["recipe"]["origin"].startswith(("meddocan:", "examples:"))
    else:
        assert not data.get("recipe"), "a case saved with its text keeps no corpus recipe"
    assert data["detector"] in fk.DETECTORS and data["policy"] in fk.POLICIES
    assert data["expected"] == "ok" or data["expected"].startswith(("crash: ", "violation: "))


def test_corpus_text_is_never_saved(meddocan_dir):
    """A case built from a MEDDOCAN note is saved as its recipe, and no saved text holds a
    stretch of a corpus note: the corpus stays out of the repository."""
    corpus = fk.corpus_text(meddocan_dir)
    for path, data in CASES:
        if "text" in data:
            assert not fk.holds_corpus_text(data["text"], corpus), path.name
