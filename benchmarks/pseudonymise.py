"""Pseudonymisation benchmark on MEDDOCAN dev, from the gold annotations (``--from-annotations``).

    python benchmarks/pseudonymise.py [CORPUS] [--split dev] [--repeat 5] [--seed 1]
                                      [--out benchmarks/results/pseudonymise.json]

Quality, per strategy (the default policy, then --strategy mask, tag and redact):
  - spans replaced per policy: the span got the strategy its label asks for (no fallback to
    redaction) and was left unchanged only where the policy or the generator keeps it on purpose
    (the patient's sex, ages under 90, kinship words);
  - surrogates equal to their original (case and accents ignored): must be 0;
  - parseable dates (day, month and year) whose surrogate keeps the weekday and the format
    (separators, padding, year digits, month-name form and case; an unpadded number such as the
    day of "5/3/2012" may grow a digit, "12/3/2012", which is the same format);
  - leftover originals: original strings found in the output after replacement.
Speed, one core: documents/s of ``Pseudonymiser.pseudonymise`` alone (best of --repeat passes,
reading and writing excluded), with the crfdeid tokenizer timed over the same texts in the same
process as a reference; and ``crfdeid deidentify`` end to end (reading, detection, writing)
with the rules alone, until the CRF's default model lands.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from timing import best_seconds  # benchmarks/timing.py

from crfdeid.deidentify import Deidentifier, deidentify_folder
from crfdeid.io.corpus import load_annotations
from crfdeid.langpack import fold
from crfdeid.pipeline import load_pipeline
from crfdeid.policy import Policy
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.resources import meddocan_dir
from crfdeid.surrogates import normalise
from crfdeid.surrogates.dates import DateGenerator
from crfdeid.tokenize import tokenize


def date_signature(text: str, dates: DateGenerator) -> str:
    """The format of a date: digit runs as 9s, month names as their form and case."""

    def word(match: re.Match) -> str:
        token = match.group()
        month = dates.data.pack.month(token) if len(token) >= 3 else None
        if month is None:
            return token
        form = "full" if fold(token) == fold(month.name) else "abbr"
        case = "U" if token.isupper() else "T" if token[0].isupper() else "l"
        return f"<{form}{case}>"

    return re.sub(r"[^\W\d_]+", word, re.sub(r"\d+", lambda m: "9" * len(m.group()), text))


def quality(gold, policy: Policy, seed: int) -> dict:
    pseudonymiser = Pseudonymiser(policy, seed=seed)
    dates = pseudonymiser.registry["FECHAS"]
    counts: Counter = Counter()
    for doc in gold.values():
        result = pseudonymiser.pseudonymise(doc)
        counts["leftovers"] += len(result.leftovers)
        for record in result.audit:
            counts["spans"] += 1
            wanted = policy.strategy(record.label)
            original = doc.text[record.start : record.end]
            new = result.text[record.new_start : record.new_end] if record.new_start >= 0 else ""
            kept_on_purpose = record.surrogate is None and record.strategy != "overlap"
            if record.strategy == "overlap" or (
                record.strategy == wanted and (new != original or kept_on_purpose)
            ):
                counts["per_policy"] += 1
            if not kept_on_purpose and record.strategy != "overlap" and normalise(new) == normalise(original):
                counts["equal"] += 1
            if record.label == "FECHAS" and wanted == "pseudonymise":
                before = dates.parse(original)
                if before is None or None in (before.day, before.month, before.year):
                    continue
                counts["dates_parseable"] += 1
                after = dates.parse(new)
                if after is None or None in (after.day, after.month, after.year):
                    continue
                same_day = before.reference().weekday() == after.reference().weekday()
                same_format = date_signature(original, dates) == date_signature(new, dates)
                padding_only = re.sub(r"\d+", "9", original) == re.sub(r"\d+", "9", new)
                if same_day and (same_format or (padding_only and len(original.split()) == 1)):
                    counts["dates_ok"] += 1
    return {
        "spans": counts["spans"],
        "replaced_per_policy_pct": round(100 * counts["per_policy"] / max(counts["spans"], 1), 2),
        "surrogates_equal_to_original": counts["equal"],
        "parseable_dates": counts["dates_parseable"],
        "dates_keeping_weekday_and_format_pct": round(
            100 * counts["dates_ok"] / max(counts["dates_parseable"], 1), 2
        ),
        "leftover_originals": counts["leftovers"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "corpus",
        nargs="?",
        type=Path,
        default=meddocan_dir(),
        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)",
    )
    parser.add_argument("--split", default="dev")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "pseudonymise.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    gold = load_annotations(args.corpus / args.split)
    default = Policy.default()
    results: dict = {"documents": len(gold), "split": args.split, "policies": {}}
    for name in ("default", "mask", "tag", "redact"):
        policy = default if name == "default" else default.with_strategy(name)
        results["policies"][name] = quality(gold, policy, args.seed)
        print(f"{name:<8} {results['policies'][name]}")

    docs = list(gold.values())
    pseudonymiser = Pseudonymiser(default, seed=args.seed)
    pseudonymiser.pseudonymise(docs[0])  # warm the pack and the caches
    seconds = best_seconds(pseudonymiser.pseudonymise, docs, args.repeat)
    tokenizer = best_seconds(lambda d: tokenize(d.text), docs, args.repeat)
    results["pseudonymise_docs_per_s"] = round(len(docs) / seconds, 1)
    results["tokenizer_docs_per_s"] = round(len(docs) / tokenizer, 1)
    results["pseudonymise_vs_tokenizer"] = round(tokenizer / seconds, 3)
    print(
        f"pseudonymisation alone: {results['pseudonymise_docs_per_s']} documents/s "
        f"({results['pseudonymise_vs_tokenizer']}x the tokenizer, {results['tokenizer_docs_per_s']} docs/s)"
    )

    for name, pipeline in (("embedded model + rules", load_pipeline()),
                           ("rules only", load_pipeline(rules_only=True))):
        deidentifier = Deidentifier(pipeline, default, seed=args.seed)
        deidentifier.deidentify(docs[0].text)  # model and packs loaded before the clock starts
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            summary = deidentify_folder([args.corpus / args.split], Path(tmp) / "out", deidentifier, "brat")
            elapsed = time.perf_counter() - started
        key = "deidentify_end_to_end_docs_per_s" + ("" if name.startswith("embedded") else "_rules_only")
        results[key] = round(summary.documents / elapsed, 1)
        print(f"crfdeid deidentify end to end ({name}): {results[key]} documents/s")
    results["machine"] = {"python": platform.python_version(), "platform": platform.platform()}
    results["date"] = time.strftime("%Y-%m-%d")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
