"""Notes unlike MEDDOCAN's: what the engine finds and what leaks, on our own fixtures.

    python benchmarks/formats.py [FOLDER] [--model DIR] [--out benchmarks/results/formats.json]

FOLDER defaults to ``tests/fixtures/es_formats``: 18 invented Spanish notes in formats the
MEDDOCAN corpus lacks (emergency and ICU reports, nursing notes, letters, a forensic report, a
surgical sheet…), annotated by us with MEDDOCAN's labels. They were read while the rules and
completion steps of 2026-11-28 were written, so the figures are a regression measure of
out-of-domain behaviour, not a held-out test (see the fixture's README).

Prints, for the best path and the deidentify operating point, ner and spans_merged precision and
recall (``crfdeid.evaluate``), and, through ``Deidentifier`` (the shipped policy), the gold
spans whose text is still in the output — ages under 90, the patient's sex and kinship words are
kept on purpose and not counted — and the words of gold spans still in it (``crfdeid.leaks``: a
name cut short leaves the rest of it). Writes the figures to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from timing import commit  # benchmarks/ on sys.path

from crfdeid.deidentify import Deidentifier
from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_corpus
from crfdeid.langpack import fold, load_pack
from crfdeid.leaks import kept_by_design, leaked_words
from crfdeid.pipeline import load_pipeline
from crfdeid.types import Document

ROOT = Path(__file__).resolve().parent.parent
#: Kept on purpose by the shipped policy.
KEPT = {"EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA"}


def detection(notes: dict[str, Document], model: str | None, point: str) -> dict:
    pipeline = load_pipeline(model, operating_point=point)
    system = {i: Document(i, d.text, tuple(pipeline.detect(Document(i, d.text)))) for i, d in notes.items()}
    result = evaluate(notes, system)
    return {name: {"precision": round(c.precision, 4), "recall": round(c.recall, 4), "f1": round(c.f1, 4)}
            for name, c in (("ner", result.ner), ("spans_merged", result.spans_merged))}


def leaks(notes: dict[str, Document], model: str | None) -> tuple[list[list[str]], list[list[str]]]:
    """Gold spans whole in the output, and words of gold spans in it (``crfdeid.leaks``)."""
    pack = load_pack("es")
    kept, names = kept_by_design(pack), {fold(e) for e in pack.table("given_name").entries}
    deidentifier = Deidentifier(model=model, seed=1)  # as tests/test_formats_es.py
    found, word_leaks = [], []
    for doc in notes.values():
        out = deidentifier.deidentify(Document(doc.id, doc.text)).text
        word_leaks.extend([doc.id, w.label, w.word] for w in leaked_words(
            doc, out, skip_labels=KEPT, kept=kept, names=names, dates={"FECHAS"}))
        for span in doc.spans:
            if span.label in KEPT:
                continue
            for start, end in span.fragments or ((span.start, span.end),):
                value = doc.text[start:end]
                words = value.replace("(", " ").replace(")", " ").replace(",", " ").split()
                kinship = words and all(pack.kinship_term(w) is not None or w.lower() in ("de", "su")
                                        for w in words)
                if len(value) >= 3 and value in out and not kinship:
                    found.append([doc.id, span.label, value])
    return found, word_leaks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "tests" / "fixtures" / "es_formats")
    parser.add_argument("--model", default=None, help="a model folder (default: the embedded one)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "formats.json")
    args = parser.parse_args()
    notes = load_corpus([args.folder])
    spans = sum(len(d.spans) for d in notes.values())
    folder = args.folder.resolve()
    shown = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    report = {"commit": commit(), "folder": str(shown), "notes": len(notes), "gold_spans": spans,
              "points": {}}
    print(f"{len(notes)} notes, {spans} gold spans ({args.folder})")
    print(f"{'point':12} {'ner P':>7} {'ner R':>7} {'ner F1':>7} {'merged P':>9} {'merged R':>9}")
    for point in ("viterbi", "deidentify"):
        figures = report["points"][point] = detection(notes, args.model, point)
        ner, merged = figures["ner"], figures["spans_merged"]
        print(f"{point:12} {ner['precision']:7.4f} {ner['recall']:7.4f} {ner['f1']:7.4f} "
              f"{merged['precision']:9.4f} {merged['recall']:9.4f}")
    left, words = leaks(notes, args.model)
    report["leaks"], report["word_leaks"] = left, words
    print(f"gold spans still in the de-identified text: {len(left)} (ages, sex, kinship words not counted)")
    for note, label, value in left:
        print(f"  {note:12} {label:30} {value!r}")
    print(f"words of gold spans still in it (crfdeid.leaks): {len(words)}")
    for note, label, value in words:
        print(f"  {note:12} {label:30} {value!r}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
