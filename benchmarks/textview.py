"""The normalised view of a note for detection: what it changes on MEDDOCAN, and what it costs.

    python benchmarks/textview.py [CORPUS] [--retrain] [--size-mb 10] [--out benchmarks/results/textview.json]

MEDDOCAN (train + dev): how many notes the view changes and which characters; for those notes,
how many token feature rows of the embedded model change (tokens are aligned through the view's
offset map); the embedded model's dev scores with detection on the original text (the behaviour
before the view) and on the view (now). The embedded model has seen dev, so those two figures
compare the paths, not the model. ``--retrain`` also trains on ``train`` through the view (about
4 minutes on one core) and scores dev: compare with ``benchmarks/results/tagger.json``, the same
training on the original texts.

Cost: building the view of a long note (plain, CRLF, NBSP, NFD, a ZWSP after every space, an
emoji after every space), against the tokenizer over the same plain text timed in the same
process (ratios compare across machines), and the view's peak memory in a fresh process.

The metamorphic invariance run over every dev note is a test:
``CRFDEID_INVARIANCE_FULL=1 python -m pytest -s tests/property/test_detection_invariance.py``.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

from crfdeid.evaluate import evaluate
from crfdeid.features import FeatureSet
from crfdeid.io.corpus import load_corpus
from crfdeid.pipeline import Pipeline, load_pipeline
from crfdeid.resources import meddocan_dir
from crfdeid.tagger import CrfTagger
from crfdeid.textview import TextView
from crfdeid.tokenize import tokenize
from crfdeid.train import TrainConfig, fit
from crfdeid.types import Document

VARIANTS = {
    "plain": lambda t: t,
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "nbsp": lambda t: t.replace(" ", "\xa0"),
    "nfd": lambda t: unicodedata.normalize("NFD", t),
    "zwsp_after_every_space": lambda t: t.replace(" ", " \u200b"),
    "emoji_after_every_space": lambda t: t.replace(" ", " \U0001f600"),
}


def _rows(tagger: CrfTagger, doc: Document) -> list[list[str]]:
    tokens = tokenize(doc.text)
    rows: list[list[str]] = [[] for _ in tokens]
    for seg in tagger.extractor.sequences(doc, tokens):
        for k, row in enumerate(seg.features):
            rows[seg.first + k] = sorted(row)
    return rows


def meddocan(corpus: Path, pipeline: Pipeline) -> dict:
    """What the view changes on MEDDOCAN and what that does to the embedded model's features."""
    docs = list(load_corpus([corpus / "train", corpus / "dev"]).values())
    tagger = pipeline.tagger
    assert tagger is not None
    changed, chars = [], Counter()
    rows_total = rows_changed = tokens_dropped = 0
    for doc in docs:
        view = TextView(doc.text)
        if view.identity:
            continue
        changed.append(doc.id)
        chars.update(f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in doc.text
                     if TextView(c).text != c)
        original_tokens = tokenize(doc.text)
        view_doc = view.document(doc)
        by_offsets = {(t.start, t.end): i for i, t in enumerate(original_tokens)}
        before, after = _rows(tagger, doc), _rows(tagger, view_doc)
        matched = set()
        for j, token in enumerate(tokenize(view_doc.text)):
            i = by_offsets.get(view.to_original(token.start, token.end))
            rows_total += 1
            if i is None or before[i] != after[j]:
                rows_changed += 1
            if i is not None:
                matched.add(i)
        tokens_dropped += len(original_tokens) - len(matched)
    return {
        "documents": len(docs),
        "documents_the_view_changes": len(changed),
        "characters_changed": dict(chars.most_common()),
        "token_rows_in_changed_documents": rows_total,
        "token_rows_with_other_features": rows_changed,
        "tokens_only_in_the_original": tokens_dropped,
    }


def dev_scores(corpus: Path, pipeline: Pipeline) -> dict:
    """Dev scores of one pipeline with detection on the original text and on the view."""
    gold = load_corpus([corpus / "dev"])
    on_original = {k: d.with_spans(pipeline._run(d).spans) for k, d in gold.items()}  # before the view
    on_view = {k: d.with_spans(pipeline.run(d).spans) for k, d in gold.items()}
    def keys(doc: Document) -> list[tuple[int, int, str]]:
        return [s.key() for s in doc.spans]

    a, b = evaluate(gold, on_original).to_dict(), evaluate(gold, on_view).to_dict()
    return {
        "ner_on_original": a["ner"],
        "ner_on_view": b["ner"],
        "spans_merged_recall": [a["spans_merged"]["recall"], b["spans_merged"]["recall"]],
        "documents_with_other_span_extents_or_labels": sorted(
            k for k in gold if keys(on_original[k]) != keys(on_view[k])),
        "documents_with_other_span_scores": sorted(
            k for k in gold
            if keys(on_original[k]) == keys(on_view[k]) and on_original[k].spans != on_view[k].spans),
    }


def retrain(corpus: Path) -> dict:
    """Train on ``train`` through the view, score dev: the figure a model rebuild would give."""
    from crfdeid.train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS

    docs = list(load_corpus([corpus / "train"]).values())
    with tempfile.TemporaryDirectory() as tmp:
        meta = fit(docs, TrainConfig(FeatureSet.load("default"), DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS),
                   Path(tmp) / "m")
        pipeline = load_pipeline(Path(tmp) / "m", timeout=30)
        gold = load_corpus([corpus / "dev"])
        scores = evaluate(gold, {k: d.with_spans(pipeline.run(d).spans) for k, d in gold.items()}).to_dict()
    return {"training": meta["training"], "ner": scores["ner"], "spans_merged": scores["spans_merged"]}


def cost(corpus: Path | None, size_mb: float) -> dict:
    """Seconds to build the view of a long note of each kind, and the tokenizer as reference."""
    text = _long_text(corpus and str(corpus), size_mb)
    TextView("warm\xa0up")  # build the character tables once (about 0.3 s per process)
    started = time.perf_counter()
    tokenize(text)
    reference = time.perf_counter() - started
    out = {"characters": len(text), "tokenizer_seconds": round(reference, 3), "views": {}}
    for name, make in VARIANTS.items():
        variant = make(text)
        started = time.perf_counter()
        view = TextView(variant)
        seconds = time.perf_counter() - started
        out["views"][name] = {
            "characters": len(variant),
            "seconds": round(seconds, 3),
            "vs_tokenizer": round(seconds / reference, 3),
            "pieces": view.pieces,
            "peak_mb": peak_memory(name, size_mb, corpus),
        }
    return out


def peak_memory(variant: str, size_mb: float, corpus: Path | None) -> float:
    """Peak RSS growth (MB) while one view is built, in a fresh process (Linux)."""
    code = (
        "import sys\n"
        "sys.path.insert(0, 'benchmarks')\n"
        "from pathlib import Path\n"
        "from textview import VARIANTS, _long_text\n"
        "from crfdeid.textview import TextView\n"
        f"text = VARIANTS[{variant!r}](_long_text({corpus and str(corpus)!r}, {size_mb}))\n"
        "TextView('warm\\xa0up')\n"
        "def status(key):\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith(key): return int(line.split()[1])\n"
        "open('/proc/self/clear_refs', 'w').write('5')\n"  # reset the peak to the current RSS
        "before = status('VmRSS:')\n"
        "view = TextView(text)\n"
        "print((status('VmHWM:') - before) / 1000)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(result.stdout.strip())


def _long_text(corpus: str | None, size_mb: float) -> str:
    """MEDDOCAN dev notes (without their BOMs) repeated up to ``size_mb`` million characters."""
    if corpus is not None:
        base = "".join(d.text for d in load_corpus([Path(corpus) / "dev"]).values()).replace("\ufeff", "")
    else:
        base = "Paciente: Ernesto Rivera Gómez, 66 años, NHC 2347865.\n" * 50
    size = int(size_mb * 1_000_000)
    return (base * (size // len(base) + 1))[:size]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("corpus", nargs="?", type=Path, default=None)
    parser.add_argument("--retrain", action="store_true")
    parser.add_argument("--size-mb", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/textview.json"))
    args = parser.parse_args()
    corpus = args.corpus or meddocan_dir()
    result: dict = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"python": platform.python_version(), "machine": platform.machine(),
                    "unicode": unicodedata.unidata_version},
    }
    if corpus is not None:
        pipeline = load_pipeline(timeout=30)
        result["meddocan"] = meddocan(corpus, pipeline)
        print(json.dumps(result["meddocan"], indent=1, ensure_ascii=False))
        result["embedded_model_dev"] = dev_scores(corpus, pipeline)
        print(json.dumps(result["embedded_model_dev"], indent=1))
        if args.retrain:
            result["retrained_on_train_via_view"] = retrain(corpus)
            print(json.dumps(result["retrained_on_train_via_view"], indent=1))
    result["cost"] = cost(corpus, args.size_mb)
    print(json.dumps(result["cost"], indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
