"""The Deidentifier API, the per-note function and its hold-back decisions (the batch runner
has its own tests: tests/test_batch.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.deidentify import (
    AnnotationDetector,
    Deidentifier,
    DeidentifierSpec,
    name_phi,
    read_key,
    settings_fingerprint,
)
from crfdeid.errors import InputError
from crfdeid.pipeline import load_pipeline
from crfdeid.types import Document, Span

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"


def test_deidentify_a_text_with_the_rules():
    deid = Deidentifier(load_pipeline(rules_only=True), seed=3)
    result = deid.deidentify("NHC: 2347865. Tfno: 948 255 400. Ingresa el 5 de marzo de 2014.")
    assert "2347865" not in result.text and "948 255 400" not in result.text
    assert {s.label for s in result.spans} >= {"ID_SUJETO_ASISTENCIA", "NUMERO_TELEFONO", "FECHAS"}
    for span, record in zip(result.spans, result.audit, strict=True):
        assert result.text[span.start : span.end] == record.surrogate
        assert record.source.startswith("rule:")


def test_from_annotations_uses_the_spans_of_the_document():
    doc = Document(
        "n", "Ana vive en Soria.", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"), Span(12, 17, "TERRITORIO"))
    )
    result = Deidentifier.from_annotations(seed=1).deidentify(doc)
    assert "Ana" not in result.text and "Soria" not in result.text
    assert all(r.source == "annotation" for r in result.audit)
    assert isinstance(Deidentifier.from_annotations().detector, AnnotationDetector)


def test_key_comes_from_the_file_or_the_environment_and_must_be_long(tmp_path):
    key_file = tmp_path / "k"
    key_file.write_text("0123456789abcdef0123\n")
    assert read_key(key_file, {}) == b"0123456789abcdef0123"
    assert read_key(None, {"CRFDEID_KEY": "x" * 20}) == b"x" * 20
    assert read_key(None, {}) is None
    with pytest.raises(InputError, match="at least 16"):
        read_key(None, {"CRFDEID_KEY": "short"})
    (tmp_path / "short").write_text("short")
    with pytest.raises(InputError, match="at least 16"):
        read_key(tmp_path / "short", {})


def test_a_key_file_error_never_echoes_what_was_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    secret = "the-key-itself-typed-by-mistake-0123"
    with pytest.raises(InputError) as info:
        read_key(secret, {})
    assert secret not in str(info.value) and "--key-file" in str(info.value)


def test_deidentify_note_holds_back_a_note_with_a_known_leftover():
    # "ana" in lower case is not propagated (one lower-case word may be an ordinary one), but
    # the leftover scan, which ignores case, finds it
    doc = Document("n", "Ana vino. ana se fue.", (Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"),))
    outcome = Deidentifier.from_annotations(seed=1).deidentify_note(doc)
    assert not outcome.releasable and outcome.held[0].kind == "leftover"
    assert "Ana" not in outcome.held[0].detail and outcome.held[0].data["at"]
    name = "NOMBRE_SUJETO_ASISTENCIA"
    complete = doc.with_spans((Span(0, 3, name), Span(10, 13, name)))
    assert Deidentifier.from_annotations(seed=1).deidentify_note(complete).releasable


@pytest.mark.parametrize(
    ("name", "mapping", "labels"),
    [
        ("Ernesto_Rivera_NHC368503", [("NOMBRE_SUJETO_ASISTENCIA", "Ernesto Rivera", "x"),
                                      ("ID_SUJETO_ASISTENCIA", "368503", "y")],
         ["ID_SUJETO_ASISTENCIA", "NOMBRE_SUJETO_ASISTENCIA"]),
        ("informe/ÁVILA-2019-03-05", [("TERRITORIO", "Ávila", "x"), ("FECHAS", "05/03/2019", "y")],
         ["FECHAS", "TERRITORIO"]),
        ("nota-045", [("EDAD_SUJETO_ASISTENCIA", "45", "x"), ("NOMBRE_SUJETO_ASISTENCIA", "Li", "y")], []),
        ("nota-001", [("FECHAS", "2019", "x")], []),
    ],
)
def test_file_names_are_checked_for_the_phi_of_their_note(name, mapping, labels):
    assert name_phi(name, tuple(mapping)) == labels


def test_a_spec_draws_one_run_seed_for_every_worker_and_fingerprints_what_matters(tmp_path):
    spec = DeidentifierSpec(from_annotations=True)
    run = spec.with_run_seed()
    assert run.seed is not None and run.seed_is_random and run.with_run_seed() == run
    assert DeidentifierSpec(key=b"k" * 20).with_run_seed().seed is None
    assert run.digest("input", b"x") == run.digest("input", b"x") != run.digest("name", b"x")
    assert run.build().describe()["seed"] == "random (not recorded)"
    base = settings_fingerprint(DeidentifierSpec(rules_only=True, seed=1))
    assert settings_fingerprint(DeidentifierSpec(rules_only=True, seed=2)) == base  # the seed is secret
    assert settings_fingerprint(DeidentifierSpec(rules_only=True, seed=1, strategy="mask")) != base
    assert base["secret"] == "seed" and base["detector"] == "rules" and "model" not in base


# --- labels of any scheme: generators by category ----------------------------------------------


def test_a_generic_model_gets_surrogates_by_category_never_xxxxx(generic_model):
    import re

    from .conftest import GENERIC_CORPUS

    deid = Deidentifier(load_pipeline(generic_model), seed=3)
    text = (GENERIC_CORPUS / "letter-01.txt").read_text(encoding="utf-8")
    result = deid.deidentify(Document("letter-01", text))
    assert "XXXXX" not in result.text and "[" not in result.text
    assert {r.label for r in result.audit} == {"NAME_PATIENT", "DATE", "AGE", "CITY", "ID_PATIENT",
                                               "NAME_CLINICIAN", "EMAIL"}
    assert {r.strategy for r in result.audit} == {"pseudonymise"}
    for original in ("John Miller", "Springfield", "4471982", "Sarah Connor", "sconnor@example.org"):
        assert original not in result.text
    born = next(r for r in result.audit if r.label == "DATE")
    assert re.fullmatch(r"\d\d/\d\d/\d{4}", born.surrogate) and born.surrogate != "12/03/1950"


def test_every_category_of_a_scheme_has_a_strategy_and_the_audit_says_why():
    from crfdeid.pseudonymise import Pseudonymiser
    from crfdeid.schemes import load_scheme

    text = "Lives in Teruel (Aragón), 44001. Ana at the park. Sex: F. Tattoo: WEIRD"
    found = {"Teruel": "CITY", "Aragón": "STATE", "44001": "ZIP", "Ana": "NAME_OTHER",
             "the park": "LOCATION_OTHER", "F": "SEX", "WEIRD": "SOMETHING"}
    spans = tuple(Span(text.index(t), text.index(t) + len(t), label) for t, label in found.items())
    result = Pseudonymiser(seed=1, scheme=load_scheme("generic")).pseudonymise(Document("d", text, spans))
    by_label = {r.label: r for r in result.audit}
    assert all(by_label[label].strategy == "pseudonymise" for label in ("CITY", "STATE", "ZIP", "NAME_OTHER"))
    assert by_label["ZIP"].surrogate.isdigit() and len(by_label["ZIP"].surrogate) == 5
    assert by_label["SEX"].strategy == "keep" and by_label["LOCATION_OTHER"].surrogate == "[LOCATION_OTHER]"
    # a label of no scheme is redacted, never kept, and the audit says why
    assert by_label["SOMETHING"].strategy == "redact" and "in no label scheme" in by_label["SOMETHING"].note
    assert "Teruel" not in result.text and "44001" not in result.text and "WEIRD" not in result.text


def test_without_a_language_pack_categories_are_masked_with_a_note():
    from crfdeid.pseudonymise import Pseudonymiser
    from crfdeid.schemes import load_scheme

    text = "Patient: Anna Berg, born 12.03.1950 in Ulm."
    spans = (Span(9, 18, "NAME_PATIENT"), Span(25, 35, "DATE"), Span(39, 42, "CITY"))
    result = Pseudonymiser(language="none", seed=1, scheme=load_scheme("generic")).pseudonymise(
        Document("d", text, spans))
    assert result.text == "Patient: [NAME_PATIENT], born [DATE] in [CITY]."
    assert all(r.strategy == "mask" for r in result.audit)
    assert all(r.note.startswith("no language pack for category") for r in result.audit)
