"""The ``crfdeid`` command. A thin layer: parse arguments, call the library, print, exit.

One module per command (``evaluate``, ``rules``, ``annotate``, ``training``, ``deidentify``,
``spark``, ``language``, ``review``), each with an ``add_parsers(commands)``; ``options`` holds
what they share.

Exit status: 0 success, 2 a problem with the input or the command line (the message names the
file and line), 1 an internal error (a bug: rerun with ``--debug`` for the traceback).
``crfdeid deidentify`` adds 3: some notes failed or were held back (see its help).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import CrfdeidError
from . import annotate, deidentify, evaluate, language, review, rules, spark, training
from .options import PROG, RAW, Parser, secret_values

_MAIN_DESCRIPTION = """\
De-identify Spanish clinical free text on a CPU: find protected health information (PHI) with a
CRF tagger plus auditable YAML rules, then replace it with consistent, realistic surrogates.
"""

_MAIN_EPILOG = """\
examples:
  crfdeid evaluate gold/ system/                 MEDDOCAN figures of a system's BRAT output
  crfdeid evaluate gold/ system/ --format json   the same as one JSON object
  crfdeid annotate notes/ -o out/                BRAT predictions: embedded CRF model + rules
  crfdeid annotate notes/ -o out/ --rules-only   the YAML rules alone
  crfdeid train corpus/ -o my_model/             train a CRF model on BRAT annotations
  crfdeid cv corpus/ --folds 5 -j 2              cross-validated MEDDOCAN figures
  crfdeid train corpus/ -o m/ --lang none        your labels (schemes/), any language
  crfdeid explain-model                          what the embedded model learned
  crfdeid deidentify notes/ -o released/         de-identified notes with realistic surrogates
  crfdeid spark notes.parquet released/          the same, on Apache Spark (local[N] or a cluster)
  crfdeid review notes/ --state review.json      check, correct and export them in a local web app
  crfdeid rules explain "NHC: 2347865"           which rule finds what, and why
  crfdeid rules test                             run every example of the Spanish rule pack
  crfdeid inspect note.txt                       tokens with lemma, POS and gazetteer matches
  crfdeid pack show es                           the Spanish pack: lists, sizes, licences
  crfdeid pack check gazetteers/de               validate a pack folder: files, columns, lists, rules

Run 'crfdeid COMMAND --help' for the options of a command.
"""



def build_parser() -> Parser:
    parser = Parser(prog=PROG, description=_MAIN_DESCRIPTION, epilog=_MAIN_EPILOG, formatter_class=RAW)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show full tracebacks and debug logging (for bug reports)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bars or warnings, only results and errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (evaluate, language, rules, annotate, training, deidentify, spark, review):
        command.add_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    Parser.secrets = secret_values(argv)
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
