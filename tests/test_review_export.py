"""crfdeid.review.export: BRAT that crfdeid train reads, de-identified notes, the log; reproducible."""

from __future__ import annotations

import json
import os
import stat

import pytest

from crfdeid.errors import OutputError
from crfdeid.io.corpus import load_corpus
from crfdeid.review.export import export_review

from .review_kit import make_review, row, rules_deidentifier

NOTE = "nota-001"
#: What the rules leave in it, which the reviewer adds ("Nombre:  Lucía." is a name field's since
#: the seventeenth round).
HOSPITAL = "Hospital Universitario Miguel Servet"


@pytest.fixture(scope="module")
def deid():
    return rules_deidentifier()


def _reviewed(tmp_path, deid):
    review = make_review(tmp_path, deid)
    view = review.view(NOTE)
    review.act(NOTE, row(view, "4471902")["id"], "reject")
    review.act(NOTE, row(view, "50012")["id"], "label", label="ID_SUJETO_ASISTENCIA")
    start = view["text"].index(HOSPITAL)  # what the rules leave
    review.add(NOTE, start, start + len(HOSPITAL), "HOSPITAL")
    review.act(NOTE, row(view, "50 50 31877")["id"], "surrogate", value="28 28 11111")
    review.act(NOTE, row(view, "28 40019873")["id"], "reroll")
    review.mark_done(NOTE)
    review.view("nota-002")  # seen, not reviewed: not exported
    return review


def test_export_contents(tmp_path, deid):
    review = _reviewed(tmp_path, deid)
    out = tmp_path / "export"
    manifest = export_review(review, out)
    assert manifest["notes_reviewed"] == 1 and manifest["released"] == 1
    assert sorted(p.name for p in (out / "corpus").iterdir()) == ["nota-001.ann", "nota-001.txt"]
    assert stat.S_IMODE(os.stat(out / "corpus").st_mode) == 0o700
    # the BRAT: the original text, the corrected spans, read by crfdeid's corpus loader
    corpus = load_corpus([out / "corpus"])
    doc = corpus[NOTE]
    original = (tmp_path / "notes" / "nota-001.txt").read_text(encoding="utf-8")
    assert (out / "corpus" / "nota-001.txt").read_bytes() == original.encode("utf-8")
    found = {(doc.span_text(s), s.label) for s in doc.spans}
    assert (HOSPITAL, "HOSPITAL") in found
    assert ("50012", "ID_SUJETO_ASISTENCIA") in found
    assert not any(text == "4471902" for text, _ in found)
    # the de-identified note: the rejected number stays, the typed surrogate is there, the rest
    # of the text byte for byte
    view = review.view(NOTE)
    released = (out / "released" / "nota-001.txt").read_bytes()
    assert released == view["deid"]["text"].encode("utf-8")
    text = released.decode("utf-8")
    assert "NHC: 4471902." in text and "NºCol: 28 28 11111." in text
    assert "Miguel Servet" not in text and "Ferrer" not in text and "Datos del paciente.\nNombre:  " in text
    entry = manifest["notes"][0]
    assert entry["rerolls"] and entry["rerolls"][0]["label"] == "ID_ASEGURAMIENTO"
    assert entry["edited"] == [
        {
            "start": original.index("50 50 31877"),
            "end": original.index("50 50 31877") + 11,
            "label": "ID_TITULACION_PERSONAL_SANITARIO",
        }
    ]
    # the log, copied: actions, no original in clear
    log = (out / "review-log.jsonl").read_text(encoding="utf-8")
    assert [json.loads(x)["action"] for x in log.splitlines()] == [
        "reject",
        "label",
        "add",
        "edit-surrogate",
        "reroll",
        "done",
    ]
    assert "4471902" not in log and "Miguel Servet" not in log
    assert "4471902" not in json.dumps(manifest)


def test_export_is_reproducible_and_replaces_its_own(tmp_path, deid):
    review = _reviewed(tmp_path, deid)
    first = tmp_path / "export"
    export_review(review, first)
    again = make_review(tmp_path, deid)  # a new session on the same review file
    export_review(again, tmp_path / "export2")
    for part in ("corpus/nota-001.txt", "corpus/nota-001.ann", "released/nota-001.txt"):
        assert (first / part).read_bytes() == (tmp_path / "export2" / part).read_bytes(), part
    export_review(again, first)  # its own folder: replaced whole
    assert (first / "released" / "nota-001.txt").is_file()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="did not write"):
        export_review(again, foreign)


def test_a_note_with_a_leftover_is_held_back(tmp_path, deid):
    review = make_review(tmp_path, deid)
    view = review.view(NOTE)
    if not any(r["kind"] == "propagated" and "Arregui" in r["text"] for r in view["spans"]):
        start = view["text"].index("Tomás Arregui Sanz")  # the rules did not find the doctor
        view = review.add(NOTE, start, start + len("Tomás Arregui Sanz"), "NOMBRE_PERSONAL_SANITARIO")
    second = next(r for r in view["spans"] if r["kind"] == "propagated" and "Arregui" in r["text"])
    review.act(NOTE, second["id"], "reject")
    review.mark_done(NOTE)
    manifest = export_review(review, tmp_path / "export")
    assert manifest["held"] == 1 and not (tmp_path / "export" / "released" / "nota-001.txt").exists()
    assert (tmp_path / "export" / "corpus" / "nota-001.ann").is_file()


def test_crfdeid_train_reads_the_export(tmp_path, deid):
    """The review is how a hospital grows its corpus: a model trains on the exported BRAT."""
    from crfdeid.features import FeatureSet
    from crfdeid.tagger import CrfTagger
    from crfdeid.train import TrainConfig, fit

    review = _reviewed(tmp_path, deid)
    for note in ("nota-002", "nota-003"):
        review.mark_done(note)
    export_review(review, tmp_path / "export")
    docs = list(load_corpus([tmp_path / "export" / "corpus"]).values())
    assert len(docs) == 3
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=10), tmp_path / "model")
    assert "NOMBRE_SUJETO_ASISTENCIA" in CrfTagger.load(tmp_path / "model").labels
