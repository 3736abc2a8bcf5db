"""Language-pack benchmark: pack loading, gazetteer matching and linguistic annotation speed.

    python benchmarks/langpack.py [--corpus DIR] [--repeat 3] [--stanza-dir DIR] [--no-stanza]
                                  [--out benchmarks/results/langpack.json]

Measured on MEDDOCAN train+dev (750 documents), one core (the script is single threaded):
  * load: ``load_pack("es")`` plus building the Aho-Corasick matcher, from cold (target < 2 s);
  * matching: documents/s of ``GazetteerMatcher.membership`` over pre-tokenized documents
    (target >= 200 documents/s);
  * default annotator: tokens/s of ``DefaultAnnotator.analyse`` with an empty word cache (a new
    annotator) and warm (target >= 50,000 tokens/s);
  * stanza annotator, when stanza is installed: with ``--stanza-dir`` the real models there;
    otherwise a stand-in trained here with stanza's default layer sizes but no pretrained word
    vectors or character language model, so real models are slower than this figure.
Because these machines are noisy, the same process also times the tokenizer on the same texts;
the ratios to it are the figures to compare across machines.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.io.corpus import load_annotations
from crfdeid.langpack import _load_pack_cached, load_pack
from crfdeid.linguistic import DefaultAnnotator, StanzaAnnotator
from crfdeid.resources import meddocan_dir
from crfdeid.tokenize import tokenize


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


#: Which gazetteer lists are evidence for which MEDDOCAN label (for the coverage figure).
LABEL_LISTS = {
    "NOMBRE_SUJETO_ASISTENCIA": ("given_name", "surname"),
    "NOMBRE_PERSONAL_SANITARIO": ("given_name", "surname"),
    "TERRITORIO": ("municipality", "province", "community", "territory"),
    "PAIS": ("country",),
    "HOSPITAL": ("hospital",),
    "CENTRO_SALUD": ("health_centre",),
    "CALLE": ("street", "street_type"),
    "PROFESION": ("profession",),
    "FAMILIARES_SUJETO_ASISTENCIA": ("kinship",),
}


def coverage(gold_docs, matcher: GazetteerMatcher) -> dict[str, dict[str, float]]:
    """Per label: share of gold spans with at least one token inside a match of a relevant
    list ("touched"), and share matched exactly, token for token, by one such match."""
    counts = {label: [0, 0, 0] for label in LABEL_LISTS}
    for doc in gold_docs:
        tokens = tokenize(doc.text)
        matches = matcher.match(tokens)
        by_list: dict[str, list[tuple[int, int]]] = {}
        for m in matches:
            by_list.setdefault(m.list, []).append((tokens[m.start].start, tokens[m.end - 1].end))
        for span in doc.spans:
            if span.label not in counts:
                continue
            found = [se for lst in LABEL_LISTS[span.label] for se in by_list.get(lst, [])]
            counts[span.label][0] += 1
            counts[span.label][1] += any(a < span.end and span.start < b for a, b in found)
            counts[span.label][2] += (span.start, span.end) in found
    return {label: {"spans": n, "touched": t / n if n else 0.0, "exact": e / n if n else 0.0}
            for label, (n, t, e) in counts.items()}


def cold_load() -> None:
    _load_pack_cached.cache_clear()
    GazetteerMatcher(load_pack("es"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=meddocan_dir(),
        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stanza-dir", type=Path, help="real stanza models (default: train a stand-in)")
    parser.add_argument("--no-stanza", action="store_true", help="skip the stanza measurement")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "langpack.json")
    args = parser.parse_args()
    if args.corpus is None or not args.corpus.is_dir():
        print("MEDDOCAN corpus not found: pass --corpus or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2

    gold_docs = [d for split in ("train", "dev") for d in load_annotations(args.corpus / split).values()]
    texts = [d.text for d in gold_docs]
    docs = [tokenize(t) for t in texts]
    n_docs, n_tokens = len(docs), sum(len(d) for d in docs)

    tokenize_s = best(lambda: [tokenize(t) for t in texts], args.repeat)
    load_s = best(cold_load, args.repeat)
    matcher = GazetteerMatcher(load_pack("es"))
    match_s = best(lambda: [matcher.membership(d) for d in docs], args.repeat)

    results_coverage = coverage(gold_docs, matcher)

    # first use: simplemma loads its Spanish lexicon on the first lemma asked (pack already loaded)
    t0 = time.perf_counter()
    DefaultAnnotator(load_pack("es")).analyse(docs[0])
    annotator_load_s = time.perf_counter() - t0
    cold_s = best(
        lambda: DefaultAnnotator(load_pack("es")).analyse([t for d in docs for t in d]), args.repeat
    )
    warm = DefaultAnnotator(load_pack("es"))
    warm.analyse([t for d in docs for t in d])
    warm_s = best(lambda: [warm.analyse(d) for d in docs], args.repeat)

    results: dict = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "corpus": {"documents": n_docs, "tokens": n_tokens},
        "reference_tokenizer_tokens_per_s": n_tokens / tokenize_s,
        "load": {"seconds": load_s, "target_seconds": 2.0, "gazetteer_entries": matcher.size},
        "matching": {
            "documents_per_s": n_docs / match_s,
            "tokens_per_s": n_tokens / match_s,
            "target_documents_per_s": 200,
            "ratio_to_tokenizer": tokenize_s / match_s,
        },
        "default_annotator": {
            "tokens_per_s_cold": n_tokens / cold_s,
            "tokens_per_s_warm": n_tokens / warm_s,
            "first_use_seconds": annotator_load_s,
            "target_tokens_per_s": 50_000,
            "ratio_to_tokenizer_cold": tokenize_s / cold_s,
        },
    }

    results["gazetteer_coverage"] = results_coverage
    if not args.no_stanza and importlib.util.find_spec("stanza") is not None:
        with tempfile.TemporaryDirectory() as tmp:
            if args.stanza_dir:
                annotator, kind = StanzaAnnotator("es", model_dir=args.stanza_dir), "real models"
            else:
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
                from tests.stanza_tiny import build_tiny_model

                paths = build_tiny_model(Path(tmp), steps=20, small=False)
                annotator = StanzaAnnotator("es", model_dir=paths["model_dir"])
                kind = "stand-in: default layer sizes, no pretrained vectors or charlm"
            sample = docs[:100]
            sample_tokens = sum(len(d) for d in sample)
            stanza_s = best(lambda: [annotator.analyse(d) for d in sample], 1)
            results["stanza_annotator"] = {
                "model": kind,
                "documents": len(sample),
                "tokens_per_s": sample_tokens / stanza_s,
                "ratio_to_tokenizer": (tokenize_s / n_tokens) / (stanza_s / sample_tokens),
            }

    print(f"corpus: {n_docs} documents, {n_tokens} tokens (MEDDOCAN train+dev); one core")
    print(f"reference: tokenizer {n_tokens / tokenize_s:,.0f} tokens/s")
    print(f"pack load + matcher build: {load_s:.2f} s ({matcher.size:,} entries; target < 2 s)")
    m = results["matching"]
    print(
        f"gazetteer matching: {m['documents_per_s']:,.0f} documents/s, {m['tokens_per_s']:,.0f} tokens/s "
        f"(target >= 200 documents/s; {m['ratio_to_tokenizer']:.2f}x the tokenizer's speed)"
    )
    a = results["default_annotator"]
    print(
        f"default annotator: {a['tokens_per_s_cold']:,.0f} tokens/s cold, {a['tokens_per_s_warm']:,.0f} warm "
        f"(target >= 50,000; first use incl. lexicon load {a['first_use_seconds']:.2f} s)"
    )
    print("gold spans reached by the relevant gazetteer lists (touched / exact token match):")
    for label, c in results_coverage.items():
        print(f"  {label:<30} {c['spans']:>5} spans  {c['touched']:6.1%} touched  {c['exact']:6.1%} exact")
    if "stanza_annotator" in results:
        s = results["stanza_annotator"]
        print(f"stanza annotator ({s['model']}): {s['tokens_per_s']:,.0f} tokens/s "
              f"on {s['documents']} documents")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
