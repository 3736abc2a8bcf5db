"""Options and helpers shared by several commands, and the argument parser every command uses.

``Parser`` turns off argparse's prefix matching (``--key`` must never be taken for
``--key-file``) and never echoes a value given to a secret option in an error message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import CrfdeidError
from ..io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES

PROG = "crfdeid"
RAW = argparse.RawDescriptionHelpFormatter


class Parser(argparse.ArgumentParser):
    """argparse without abbreviations, whose errors never repeat a secret given on the line."""

    #: values that followed a secret-looking option on this command line (set by ``main``)
    secrets: frozenset[str] = frozenset()

    def __init__(self, *args, **kwargs) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {redact(message, Parser.secrets)}\n")


def secret_values(argv: Sequence[str]) -> frozenset[str]:
    """Values given to options whose name mentions a key or secret (``--key X``, ``--key-file=X``,
    and a misspelt ``--kye X``): an error message must never print them."""
    found: set[str] = set()
    for i, arg in enumerate(argv):
        if not arg.startswith("--"):
            continue
        name, eq, value = arg.partition("=")
        if not _secret_option(name):
            continue
        if eq:
            found.add(value)
        elif i + 1 < len(argv):
            found.add(argv[i + 1])
    return frozenset(v for v in found if v)


def _secret_option(name: str) -> bool:
    """An option that names a key or secret, or a truncation or misspelling of ``--key-file``."""
    bare = name.lstrip("-").lower()
    if any(word in bare for word in ("key", "kye", "secret", "token", "password", "passwd")):
        return True
    return len(bare) >= 2 and "key-file".startswith(bare)


def redact(message: str, secrets: frozenset[str]) -> str:
    for value in sorted(secrets, key=len, reverse=True):
        message = message.replace(value, "***")
    return message


def add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", default=DEFAULT_ENCODING, metavar="ENC",
                        help="text encoding of the input files (default: %(default)s)")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, metavar="N",
                        help="refuse input files larger than N bytes (default: %(default)s)")


def add_pack_options(parser: argparse.ArgumentParser, *, rules: bool = True, scheme: str | None = None,
                     model: bool = False) -> None:
    """--lang / --pack (one language pack), --rules (its rule pack) and --scheme (labels)."""
    recorded = " (default: the model's own)" if model else " (default: es)"
    parser.add_argument("--lang", default=None, metavar="CODE",
                        help="language pack: a shipped code (es, or any folder of gazetteers/ with a "
                             "pack.yaml) or 'none' (no gazetteers, no lemmatiser, language-neutral rules)"
                             + recorded)
    parser.add_argument("--pack", default=None, metavar="DIR",
                        help="a language pack folder of your own (with a pack.yaml), instead of --lang")
    if rules:
        parser.add_argument("--rules", default=None, metavar="PACK",
                            help="rule pack: a shipped code, a folder or a .yaml file (default: the one the "
                                 "language pack names" + (", as the model recorded)" if model else ")"))
    if scheme:
        parser.add_argument("--scheme", default=None, metavar="NAME_OR_YAML", help=scheme)


class Once:
    """Prints each warning once, on stderr (unless quiet)."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.seen: set[str] = set()

    def __call__(self, message: str) -> None:
        if message not in self.seen and not self.quiet:
            self.seen.add(message)
            print(f"{PROG}: warning: {message}", file=sys.stderr)


#: What ``--operating-point`` says by default, per command.
POINT_DEFAULTS = {
    "viterbi": "default: viterbi, the model's best path — the F1-optimal point",
    "deidentify": "default: deidentify, the point the model records for recall — chosen by "
                  "cross-validation for the highest spans_merged recall at precision >= 0.97; a model "
                  "that records none runs its best path",
}


def add_model_options(parser: argparse.ArgumentParser, default_point: str = "viterbi") -> None:
    parser.add_argument("--model", default=None, metavar="MODEL_DIR",
                        help="a model folder written by 'crfdeid train' (default: the embedded model)")
    point = parser.add_mutually_exclusive_group()
    point.add_argument("--operating-point", default=None, choices=("viterbi", "deidentify"),
                       help="which tokens the CRF reports: viterbi (its best path) or deidentify (the "
                            "recall-first point recorded in the model: tokens the best path calls O whose "
                            "P(O) is below its threshold are PHI too) "
                            f"({POINT_DEFAULTS[default_point]})")
    point.add_argument("--threshold", type=float, default=None, metavar="P",
                       help="instead of --operating-point: a token is PHI when its probability of being O is "
                            "below P, for every label")
    parser.add_argument("--merge-policy", default=None, metavar="FILE",
                        help="YAML policy for merging CRF and rule spans (default: the model's own)")


def check_model_options(args: argparse.Namespace) -> None:
    """--threshold is a probability; --rules-only takes no model option."""
    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise CrfdeidError(f"--threshold must be a probability in (0, 1], got {args.threshold}")
    if args.rules_only and (args.model or args.threshold is not None or args.operating_point
                            or args.merge_policy):
        raise CrfdeidError("--rules-only cannot be combined with --model, --threshold, --operating-point "
                           "or --merge-policy")


def detection_pipeline(args: argparse.Namespace):  # -> Pipeline, imported lazily
    """The detection pipeline the options of annotate/deidentify describe."""
    from ..pipeline import load_pipeline

    check_model_options(args)
    return load_pipeline(args.model, rules=args.rules, rules_only=args.rules_only, timeout=args.timeout,
                         policy=args.merge_policy, threshold=args.threshold, lang=args.lang, pack=args.pack,
                         scheme=args.scheme, warn=Once(args.quiet), operating_point=args.operating_point)
