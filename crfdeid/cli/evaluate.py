"""crfdeid evaluate: the official MEDDOCAN metrics of a system against gold."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

from ..errors import CrfdeidError
from ..io.text import atomic_write_text
from ..progress import progress
from .options import RAW, add_input_options

_EVALUATE_DESCRIPTION = """\
Score system annotations against gold annotations with the official MEDDOCAN metrics.

GOLD_DIR and SYSTEM_DIR are folders of BRAT files (NAME.txt + NAME.ann) or .jsonl files.
A system folder may contain only .ann files: the gold .txt with the same name is used.
Only documents present in both are scored; gold documents without system output are
counted and listed, because a missing file usually means a failed run.

Reported:
  ner            subtrack 1: exact (label, start, end) matches, micro P/R/F1
  spans_strict   subtrack 2: exact (start, end), label ignored
  spans_merged   subtrack 2: spans separated only by non-alphanumerics merged first
                 (figures equal the official MEDDOCAN scorer's, including its quirks)
  leak           false negatives per line of gold text (lower is better)
  token          per-token, label-aware P/R/F1; binary_token: PHI vs not, per token
  per label      P/R/F1 and support for each label (subtrack 1)
"""

_EVALUATE_EPILOG = """\
examples:
  crfdeid evaluate ../shared/corpora/meddocan/dev predictions/
  crfdeid evaluate gold.jsonl predictions.jsonl --format json -o scores.json
  crfdeid evaluate ../shared/corpora/meddocan/dev predictions/ --scheme generic   in generic labels
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    ev = commands.add_parser(
        "evaluate", help="score system annotations against gold (official MEDDOCAN metrics)",
        description=_EVALUATE_DESCRIPTION, epilog=_EVALUATE_EPILOG, formatter_class=RAW)
    ev.add_argument("gold", metavar="GOLD_DIR", help="gold annotations: BRAT folder or .jsonl file")
    ev.add_argument("system", metavar="SYSTEM_DIR", help="system annotations: BRAT folder or .jsonl file")
    ev.add_argument("--format", choices=("table", "json"), default="table",
                    help="table for people, json for scripts (default: %(default)s)")
    ev.add_argument("-o", "--output", metavar="FILE",
                    help="also write the report to FILE (written whole or not at all)")
    ev.add_argument("--no-per-label", action="store_true", help="omit the per-label table")
    ev.add_argument("--scheme", default=None, metavar="NAME_OR_YAML",
                    help="score in this label scheme: gold and system labels are both mapped to it through "
                         "their PHI category (e.g. --scheme generic, to compare corpora)")
    ev.add_argument("--source-scheme", default=None, metavar="NAME_OR_YAML",
                    help="the scheme the annotations' labels belong to, when it is not a shipped one")
    add_input_options(ev)
    ev.set_defaults(handler=cmd_evaluate)


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate, format_table
    from ..io.corpus import load_annotations

    bar = partial(progress, enabled=None if not args.quiet else False)
    opts = {"encoding": args.encoding, "max_bytes": args.max_bytes}
    gold = load_annotations(args.gold, None, source="gold",
                            progress=partial(bar, desc="reading gold"), **opts)
    if not gold:
        raise CrfdeidError("no gold annotations found (expected NAME.ann + NAME.txt, or .jsonl)",
                           args.gold)
    texts = {doc_id: doc.text for doc_id, doc in gold.items()}
    system = load_annotations(args.system, texts, source="system",
                              progress=partial(bar, desc="reading system"), **opts)
    if args.scheme is not None or args.source_scheme is not None:
        from ..schemes import load_scheme, to_scheme

        if args.scheme is None:
            raise CrfdeidError("--source-scheme needs --scheme (the scheme to score in)")
        target = load_scheme(args.scheme)
        source = load_scheme(args.source_scheme) if args.source_scheme else None
        gold, dropped = to_scheme(gold, target, source)
        system, dropped_system = to_scheme(system, target, source)
        for label in sorted({*dropped, *dropped_system}):
            if not args.quiet:
                print(f"crfdeid: warning: scheme {target.name!r} has no label for the category of {label}: "
                      f"its spans are not scored ({dropped.get(label, 0)} gold, "
                      f"{dropped_system.get(label, 0)} system)", file=sys.stderr)
    result = evaluate(gold, system)
    if not result.scored_ids:
        raise CrfdeidError("no document of the system output matches a gold document by name",
                           args.system, hint="system files must be named like the gold ones")
    if args.format == "json":
        report = json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
    else:
        report = format_table(result, per_label=not args.no_per_label)
    print(report)
    if args.output:
        atomic_write_text(Path(args.output), report + "\n")
    return 0
