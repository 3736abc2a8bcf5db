"""The pseudonymiser's exact output, pinned: a guard for work that must change no output (issue 14).

Four invented Spanish notes (no corpus text: MEDDOCAN's licence forbids copying it) with their gold
spans live in ``tests/regression/pseudonymise.json``, beside the output each setting gave: seeds 1
and 7, a key read as ``crfdeid deidentify`` reads it (``$CRFDEID_KEY``, and a key file), and a
reviewer's reroll. Any change to a surrogate, an offset, a note or a hash fails here. A change of
output made on purpose rewrites the file: ``CRFDEID_UPDATE_REGRESSION=1 pytest
tests/test_pseudonymise_regression.py``, and the diff is reviewed like code.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from crfdeid.deidentify import KEY_ENV, read_key
from crfdeid.pseudonymise import Pseudonymised, Pseudonymiser
from crfdeid.surrogates import normalise
from crfdeid.types import Document, Span

FIXTURE = Path(__file__).parent / "regression" / "pseudonymise.json"
UPDATE = os.environ.get("CRFDEID_UPDATE_REGRESSION") == "1"
#: Audit fields the same for every record (the document id is the note's own).
_DROPPED = ("document", "source", "score")


def _load() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def document(note: dict[str, Any]) -> Document:
    """A note of the fixture, its spans checked against the text they name."""
    spans = []
    for s in note["spans"]:
        assert note["text"][s["start"]:s["end"]] == s["text"], f"{note['id']}: span {s} off its text"
        spans.append(Span(s["start"], s["end"], s["label"]))
    return Document(note["id"], note["text"], tuple(spans))


def pseudonymiser(setting: dict[str, Any], tmp: Path) -> Pseudonymiser:
    """The setting's pseudonymiser; a key is read as the command line reads it."""
    if "key" not in setting:
        return Pseudonymiser(seed=setting["seed"])
    key = read_key(None, {KEY_ENV: setting["key"]})
    key_file = tmp / "key"
    key_file.write_text(setting["key"] + "\n", encoding="utf-8")
    assert read_key(key_file, {}) == key  # the file gives the same key as the variable
    return Pseudonymiser(key=key)


def essentials(result: Pseudonymised) -> dict[str, Any]:
    """What is pinned of a result: the text, the audit and the leftovers."""
    audit = [{k: v for k, v in r.to_json().items() if k not in _DROPPED} for r in result.audit]
    leftovers = [{k: v for k, v in x.to_json().items() if k != "document"} for x in result.leftovers]
    return {"text": result.text, "audit": audit, "leftovers": leftovers}


def run(name: str, note: dict[str, Any], setting: dict[str, Any], tmp: Path) -> dict[str, Any]:
    doc = document(note)
    rerolls = None
    if setting.get("reroll"):
        rerolls = {normalise(text): n for text, n in note["rerolls"].items()}
    result = pseudonymiser(setting, tmp).pseudonymise(
        doc, rerolls=rerolls, date_rerolls=setting.get("date_rerolls", 0))
    return essentials(result)


@cache
def fixture() -> dict[str, Any]:
    """The fixture; rewritten first from the current code under ``CRFDEID_UPDATE_REGRESSION=1``."""
    data = _load()
    if UPDATE:
        with tempfile.TemporaryDirectory() as tmp:
            data["expected"] = {
                name: {note["id"]: run(name, note, setting, Path(tmp)) for note in data["notes"]}
                for name, setting in data["settings"].items()
            }
        FIXTURE.write_text(dump(data), encoding="utf-8")
    return data


def dump(data: dict[str, Any]) -> str:
    """The fixture as JSON with one span, audit record or leftover per line: a change of output
    reads as a diff of the records it touched."""
    records: list[str] = []

    def mark(value: Any) -> Any:
        if isinstance(value, dict) and "label" in value:
            records.append(json.dumps(value, ensure_ascii=False))
            return f"\x00{len(records) - 1}\x00"
        if isinstance(value, dict):
            return {k: mark(v) for k, v in value.items()}
        if isinstance(value, list):
            return [mark(v) for v in value]
        return value

    text = json.dumps(mark(data), ensure_ascii=False, indent=1)
    return re.sub(r'"\\u0000(\d+)\\u0000"', lambda m: records[int(m[1])], text) + "\n"


_CASES = [(name, note["id"]) for name in _load()["settings"] for note in _load()["notes"]]


@pytest.mark.parametrize(("setting", "note_id"), _CASES, ids=[f"{s}-{n}" for s, n in _CASES])
def test_output_is_unchanged(setting: str, note_id: str, tmp_path: Path) -> None:
    data = fixture()
    note = next(n for n in data["notes"] if n["id"] == note_id)
    expected = data["expected"][setting][note_id]
    got = run(setting, note, data["settings"][setting], tmp_path)
    assert got["text"] == expected["text"]
    for i, (new, old) in enumerate(zip(got["audit"], expected["audit"], strict=True)):
        assert new == old, f"audit record {i}"
    assert got == expected


def test_the_fixture_covers_what_it_should() -> None:
    """Names in several forms, several date formats, addresses, phones, identifiers, kin."""
    data = _load()
    labels = {s["label"] for n in data["notes"] for s in n["spans"]}
    assert {"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO", "FAMILIARES_SUJETO_ASISTENCIA",
            "FECHAS", "CALLE", "TERRITORIO", "NUMERO_TELEFONO", "ID_SUJETO_ASISTENCIA",
            "ID_ASEGURAMIENTO", "HOSPITAL", "CORREO_ELECTRONICO"} <= labels
    assert {"seed1", "seed7", "keyed", "reroll"} <= set(data["settings"])
    assert set(data["expected"]) == set(data["settings"])
    for setting in data["expected"].values():
        assert set(setting) == {n["id"] for n in data["notes"]}
    rerolled = data["expected"]["reroll"]
    assert any(rerolled[n] != data["expected"]["seed7"][n] for n in rerolled)  # a reroll changes something
