"""Invented surrogate words in a pseudonymised corpus (issue 12, item 3).

    python -m crfdeid deidentify CORPUS --from-annotations -o OUT --seed 1 --format brat
    python benchmarks/invented_words.py OUT/audit.jsonl CORPUS [--labels L1,L2]

Prints JSON: surrogate words, words in none of the pack's lists and not kept from the original,
per label, with examples (surrogates only). The check itself is
``crfdeid.surrogates.vocabulary.count_invented``, which the realism benchmark calls too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.surrogates.vocabulary import count_invented


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audit", type=Path)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--labels", help="comma-separated labels (default: all)")
    parser.add_argument("--language", default="es")
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else None
    report = count_invented(args.audit, args.corpus, args.language, labels)
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
