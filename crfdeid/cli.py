"""The ``crfdeid`` command. A thin layer: parse arguments, call the library, print, exit.

Exit status: 0 success, 2 a problem with the input or the command line (the message names the
file and line), 1 an internal error (a bug: rerun with ``--debug`` for the traceback).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from . import __version__
from .errors import CrfdeidError
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text
from .progress import progress

PROG = "crfdeid"

_MAIN_DESCRIPTION = """\
De-identify Spanish clinical free text on a CPU: find protected health information (PHI) with a
CRF tagger plus auditable YAML rules, then replace it with consistent, realistic surrogates.
"""

_MAIN_EPILOG = """\
examples:
  crfdeid evaluate gold/ system/                 MEDDOCAN figures of a system's BRAT output
  crfdeid evaluate gold/ system/ --format json   the same as one JSON object

Run 'crfdeid COMMAND --help' for the options of a command.
"""

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
"""


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", default=DEFAULT_ENCODING, metavar="ENC",
                        help="text encoding of the input files (default: %(default)s)")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, metavar="N",
                        help="refuse input files larger than N bytes (default: %(default)s)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description=_MAIN_DESCRIPTION, epilog=_MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show full tracebacks and debug logging (for bug reports)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bars or warnings, only results and errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    ev = commands.add_parser(
        "evaluate", help="score system annotations against gold (official MEDDOCAN metrics)",
        description=_EVALUATE_DESCRIPTION, epilog=_EVALUATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ev.add_argument("gold", metavar="GOLD_DIR", help="gold annotations: BRAT folder or .jsonl file")
    ev.add_argument("system", metavar="SYSTEM_DIR", help="system annotations: BRAT folder or .jsonl file")
    ev.add_argument("--format", choices=("table", "json"), default="table",
                    help="table for people, json for scripts (default: %(default)s)")
    ev.add_argument("-o", "--output", metavar="FILE",
                    help="also write the report to FILE (written whole or not at all)")
    ev.add_argument("--no-per-label", action="store_true", help="omit the per-label table")
    _add_input_options(ev)
    ev.set_defaults(handler=cmd_evaluate)
    return parser


def cmd_evaluate(args: argparse.Namespace) -> int:
    from .evaluate import evaluate, format_table
    from .io.corpus import load_annotations

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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    logging.basicConfig(
        level=logging.DEBUG if args.debug else (logging.ERROR if args.quiet else logging.WARNING),
        format=f"{PROG}: %(levelname)s: %(message)s")
    try:
        return args.handler(args)
    except CrfdeidError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so plainly, keep the traceback for --debug
        if args.debug:
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc}\n"
              f"  This is a bug in {PROG}; rerun with --debug and report the traceback.",
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
