"""crfdeid.review.session: the decisions on a note and what they make of its de-identified text."""

from __future__ import annotations

import json
import os
import stat

import pytest

from crfdeid.review.session import ReviewError
from crfdeid.review.state import ReviewState, StateError

from .review_kit import make_review, row, rules_deidentifier

NOTE = "nota-001"


@pytest.fixture(scope="module")
def deid():
    return rules_deidentifier()


@pytest.fixture
def review(tmp_path, deid):
    return make_review(tmp_path, deid)


def outside_spans_unchanged(view: dict) -> None:
    """Every character outside the replacements is the original's, byte for byte and in order."""
    text, new = view["text"], view["deid"]["text"]
    at_new = at_old = 0
    marks = sorted(view["deid"]["marks"], key=lambda m: m["start"])
    assert marks
    for mark in marks:
        assert new[at_new : mark["start"]] == text[at_old : mark["orig_start"]]
        at_new, at_old = mark["end"], mark["orig_end"]
    assert new[at_new:] == text[at_old:]


def test_listing_is_lazy(review):
    listing = review.listing()
    assert [n["id"] for n in listing["notes"]] == ["nota-001", "nota-002", "nota-003"]
    assert listing["detected"] == 0 and all(n["status"] == "new" for n in listing["notes"])
    review.view(NOTE)
    listing = review.listing()
    assert listing["detected"] == 1 and listing["notes"][0]["status"] == "detected"
    assert listing["notes"][0]["counts"]["FECHAS"] == 3


def test_reject_keeps_the_original_and_add_replaces(review, tmp_path):
    view = review.view(NOTE)
    nhc = row(view, "4471902")
    assert "4471902" not in view["deid"]["text"]
    view = review.act(NOTE, nhc["id"], "reject")
    assert row(view, "4471902")["status"] == "rejected" and row(view, "4471902")["out"] is None
    assert "NHC: 4471902." in view["deid"]["text"]
    # the hospital the rules leave ("Nombre:  Lucía." and the surnames' field are found since the
    # seventeenth and fifteenth rounds)
    hospital = "Hospital Universitario Miguel Servet"
    start = view["text"].index(hospital)
    view = review.add(NOTE, start - 1, start + len(hospital), "HOSPITAL")
    added = row(view, hospital)  # trimmed of the spaces selected around it
    assert added["kind"] == "added" and added["status"] == "accepted"
    assert "Miguel Servet" not in view["deid"]["text"]
    outside_spans_unchanged(view)
    # the state file is written, 0600, and holds the decisions
    saved = json.loads((tmp_path / "review.json").read_text(encoding="utf-8"))
    spans = saved["notes"][NOTE]["spans"]
    assert {s["status"] for s in spans if s["start"] == nhc["start"]} == {"rejected"}
    assert stat.S_IMODE(os.stat(tmp_path / "review.json").st_mode) == 0o600
    # the log: who, when, what; the original only as a hash
    lines = [json.loads(x) for x in (tmp_path / "review.log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["action"] for x in lines] == ["reject", "add"]
    assert all(
        x["who"] == "tester" and x["when"].endswith("Z") and len(x["original_hash"]) == 32 for x in lines
    )
    log_text = (tmp_path / "review.log.jsonl").read_text(encoding="utf-8")
    assert "4471902" not in log_text and "Miguel Servet" not in log_text


def test_add_refuses_overlaps_and_blanks(review):
    view = review.view(NOTE)
    nhc = row(view, "4471902")
    with pytest.raises(ReviewError, match="overlaps"):
        review.add(NOTE, nhc["start"] - 2, nhc["end"], "ID_SUJETO_ASISTENCIA")
    with pytest.raises(ReviewError, match="only spaces"):
        review.add(NOTE, view["text"].index("  "), view["text"].index("  ") + 2, "FECHAS")
    with pytest.raises(ReviewError, match="unknown label"):
        review.add(NOTE, 0, 5, "NOT_A_LABEL")
    with pytest.raises(ReviewError, match="not a stretch"):
        review.add(NOTE, 5, 10**6, "FECHAS")


def test_change_label(review):
    view = review.view(NOTE)
    cp = row(view, "50012")
    view = review.act(NOTE, cp["id"], "label", label="ID_SUJETO_ASISTENCIA")
    changed = row(view, "50012")
    assert changed["label"] == "ID_SUJETO_ASISTENCIA" and changed["detected_label"] == "TERRITORIO"
    assert "was TERRITORIO" in changed["why"]
    with pytest.raises(ReviewError, match="unknown label"):
        review.act(NOTE, cp["id"], "label", label="nope")


def test_edit_surrogate_and_refusals(review):
    view = review.view(NOTE)
    nhc = row(view, "4471902")
    for bad in ("4471902", "4471903", "NHC 4471902 x", "50 50 31877"):
        with pytest.raises(ReviewError, match="refused"):
            review.act(NOTE, nhc["id"], "surrogate", value=bad)
    with pytest.raises(ReviewError, match="one line"):
        review.act(NOTE, nhc["id"], "surrogate", value="12\n34")
    view = review.act(NOTE, nhc["id"], "surrogate", value="1000001")
    assert "NHC: 1000001." in view["deid"]["text"] and row(view, "4471902")["edited"]
    outside_spans_unchanged(view)
    view = review.act(NOTE, nhc["id"], "surrogate", value="")
    assert "1000001" not in view["deid"]["text"] and not row(view, "4471902")["edited"]


def test_reroll_is_deterministic_and_recorded(tmp_path, deid):
    (tmp_path / "a").mkdir()
    first = make_review(tmp_path / "a", deid)
    view = first.view(NOTE)
    nhc = row(view, "4471902")
    before = view["deid"]["text"]
    view = first.act(NOTE, nhc["id"], "reroll")
    after = view["deid"]["text"]
    assert after != before and row(view, "4471902")["reroll"] >= 1
    # the same review file gives the same text again, in a new session
    state = json.loads((tmp_path / "a" / "review.json").read_text(encoding="utf-8"))
    again = make_review(tmp_path / "a", deid)
    assert again.view(NOTE)["deid"]["text"] == after
    assert next(s for s in state["notes"][NOTE]["spans"] if s["start"] == nhc["start"])["reroll"] >= 1
    # a date reroll moves every date of the note together
    dates = [r for r in view["spans"] if r["label"] == "FECHAS"]
    moved = first.act(NOTE, dates[0]["id"], "reroll")
    assert all(_out(moved, d) != _out(view, d) for d in dates)
    # a kept span (an age, the sex) has nothing to draw
    age = row(view, "66 años")
    with pytest.raises(ReviewError, match=r"kept|nothing"):
        first.act(NOTE, age["id"], "reroll")


def _out(view: dict, span: dict) -> str:
    out = next(r for r in view["spans"] if r["id"] == span["id"])["out"]
    return view["deid"]["text"][out["start"] : out["end"]]


def _doctor_twice(review):
    """The view once the doctor is known in one mention and propagated to the other: the rules
    find "Dr. Tomás Arregui Sanz" (a name after a title); where they did not, the reviewer
    adds the first mention."""
    view = review.view(NOTE)
    if not any(r["kind"] == "propagated" and "Arregui" in r["text"] for r in view["spans"]):
        start = view["text"].index("Tomás Arregui Sanz")
        view = review.add(NOTE, start, start + len("Tomás Arregui Sanz"), "NOMBRE_PERSONAL_SANITARIO")
    return view


def test_second_mentions_can_be_rejected(review):
    view = _doctor_twice(review)
    second = [r for r in view["spans"] if r["kind"] == "propagated" and "Arregui" in r["text"]]
    assert second, "the second mention of the doctor is found"
    assert "Arregui" not in view["deid"]["text"] and not view["held"]
    view = review.act(NOTE, second[0]["id"], "reject")
    assert "Arregui" in view["deid"]["text"]
    assert any(h["kind"] == "leftover" for h in view["held"])  # nothing known is released
    left = view["deid"]["leftovers"][0]
    assert (
        view["text"][left["orig_start"] : left["orig_end"]]
        == view["deid"]["text"][left["start"] : left["end"]]
    )
    view = review.act(NOTE, second[0]["id"], "pending")
    assert "Arregui" not in view["deid"]["text"]


def test_done_accepts_pending_and_resume_restores(tmp_path, deid):
    review = make_review(tmp_path, deid)
    view = review.view(NOTE)
    review.act(NOTE, row(view, "4471902")["id"], "reject")
    view = review.mark_done(NOTE)
    assert view["done"] and {r["status"] for r in view["spans"] if r["kind"] != "propagated"} == {
        "accepted",
        "rejected",
    }
    resumed = make_review(tmp_path, deid)
    assert resumed.listing()["notes"][0]["status"] == "done"
    assert resumed.view(NOTE)["deid"]["text"] == view["deid"]["text"]


def test_a_changed_note_fails_alone(tmp_path, deid):
    review = make_review(tmp_path, deid)
    review.mark_done(NOTE)
    (tmp_path / "notes" / "nota-001.txt").write_text("Otro texto.\n", encoding="utf-8")
    (tmp_path / "notes" / "nota-002.txt").write_bytes(b"\x00\x01binary")
    resumed = make_review(tmp_path, deid)
    assert resumed.view(NOTE)["status"] == "failed" and "changed since" in resumed.view(NOTE)["error"]
    assert (
        resumed.view("nota-002")["status"] == "failed" and "nota-002.txt" in resumed.view("nota-002")["error"]
    )
    assert resumed.view("nota-003")["status"] == "detected"
    with pytest.raises(ReviewError, match="failed"):
        resumed.act(NOTE, "1", "accept")


def test_state_refuses_another_seed_or_key(tmp_path, deid):
    make_review(tmp_path, deid).mark_done(NOTE)
    with pytest.raises(StateError, match="another seed"):
        ReviewState.open(tmp_path / "review.json", key=None, seed=6)
    with pytest.raises(StateError, match="started with a seed"):
        ReviewState.open(tmp_path / "review.json", key=b"k" * 32, seed=None)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(StateError, match=r"bad\.json"):
        ReviewState.open(tmp_path / "bad.json", key=None, seed=1)


def test_keyed_log_hashes_are_the_audit_hashes(tmp_path):
    key = b"0123456789abcdef0123456789abcdef"
    from crfdeid.deidentify import DeidentifierSpec

    deid = DeidentifierSpec(rules_only=True, key=key).build()
    review = make_review(tmp_path, deid, key=key)
    view = review.view(NOTE)
    review.act(NOTE, row(view, "4471902")["id"], "accept")
    logged = json.loads((tmp_path / "review.log.jsonl").read_text(encoding="utf-8"))
    assert logged["original_hash"] == deid.pseudonymiser.original_hash("4471902")


def test_why_names_the_rule(review):
    view = review.view(NOTE)
    why = review.why(NOTE, row(view, "4471902")["id"])
    assert why["rule"]["id"] == "nhc-labelled"
    assert why["rule"]["file"] == "rules/es/record_numbers.yaml" and why["rule"]["description"]


@pytest.mark.parametrize("source, why", [
    ("lone-place", "a place named after a preposition"),
    ("lone-street", "an address named after its street type"),
    ("address-place", "a place an address goes on with"),
    ("hospital-name", "a hospital called by its proper name"),
    ("organisation-name", "an organisation of the pack's list"),
    ("lone-profession", "an occupation where the note says what someone does"),
    ("lower-case-name", "a name in a note typed in lower case"),
])
def test_the_officer_reads_why_a_completion_step_added_a_span(source: str, why: str) -> None:
    # each step of the completion names itself in the review, not by its internal source tag
    from crfdeid.review.session import _why_short
    from crfdeid.review.state import SpanState

    assert _why_short(SpanState(0, 0, 5, "TERRITORIO", source, None, "TERRITORIO")) == why
