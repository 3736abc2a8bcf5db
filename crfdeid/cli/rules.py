"""crfdeid rules test / lint / explain: the YAML rule packs a privacy officer signs off."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import CrfdeidError
from .options import Once, add_input_options, add_pack_options

if TYPE_CHECKING:
    from ..rules import RuleEngine

_RULES_DESCRIPTION = """\
Work with YAML rule packs: the auditable rules that find regular identifiers (e-mails, phones,
record numbers, dates, ages…). A PACK is a shipped language code (es) or a folder of .yaml
rule files or one .yaml file; the default is the shipped Spanish pack.

  test      run every rule's own examples; a table of PASS/FAIL per rule
  lint      duplicate ids, too few examples, slow patterns, rules shadowed by others
  explain   every match in a text or file: offsets, label, rule id, matched text, description

Exit status of test and lint: 0 all good, 1 a failing example or a lint finding, 2 an invalid
pack (the message names the file, the line and the rule id).
"""

_RULES_EPILOG = """\
examples:
  crfdeid rules test                         the shipped Spanish pack
  crfdeid rules test my_rules/ -v            a pack of your own, every example listed
  crfdeid rules lint es --slow-ms 10         stricter about slow patterns
  crfdeid rules explain "Tfno: 948 255 400"  what a privacy officer audits
  crfdeid rules explain note.txt --all       also the matches that lost an overlap
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    rules = commands.add_parser(
        "rules", help="test, lint and explain YAML rule packs", description=_RULES_DESCRIPTION,
        epilog=_RULES_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = rules.add_subparsers(dest="rules_command", metavar="VERB", required=True)
    pack_help = ("a shipped rule pack (es, none), a folder of .yaml rules or one .yaml file (default: the "
                 "rules of --lang/--pack, else es)")

    test = verbs.add_parser("test", help="run every rule's examples; exit 1 on any failure",
                            description="Run every rule's examples and print a PASS/FAIL table.")
    test.add_argument("rule_pack", nargs="?", default=None, metavar="PACK", help=pack_help)
    add_pack_options(test, rules=False)
    test.add_argument("-v", "--verbose", action="store_true", help="list every example, not only failures")
    test.set_defaults(handler=cmd_rules_test)

    lint = verbs.add_parser("lint", help="find duplicate ids, missing examples, slow or shadowed rules",
                            description="Check a rule pack for problems its examples cannot show.")
    lint.add_argument("rule_pack", nargs="?", default=None, metavar="PACK", help=pack_help)
    add_pack_options(lint, rules=False)
    lint.add_argument("--slow-ms", type=float, default=20.0, metavar="MS",
                      help="flag a pattern slower than MS on a 5,000-character stress string "
                           "(default: %(default)s)")
    lint.set_defaults(handler=cmd_rules_lint)

    explain = verbs.add_parser("explain", help="show every match in a text or file, with its rule",
                               description="Show each rule match: offsets, label, rule id, matched "
                                           "text and the rule's description.")
    explain.add_argument("source", metavar="TEXT_OR_FILE",
                         help="a file to read, '-' for standard input, or the text itself")
    add_pack_options(explain, scheme="show the labels of this scheme (a shipped name or a .yaml): each "
                     "rule's label mapped through its PHI category, as a model of that scheme merges "
                     "it (default: the pack's own labels)")
    explain.add_argument("--all", action="store_true", help="also show matches that lost an overlap")
    explain.add_argument("--format", choices=("table", "json"), default="table",
                         help="table for people, json for scripts (default: %(default)s)")
    explain.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                         help="CPU seconds a rule may spend on each chunk (~8 KB of lines) of the text "
                              "(default: 0.5)")
    add_input_options(explain)
    explain.set_defaults(handler=cmd_rules_explain)


def _rule_engine(pack: str, timeout: float | None) -> RuleEngine:
    from ..rules import DEFAULT_TIMEOUT, RuleEngine

    if timeout is not None and not timeout > 0:
        raise CrfdeidError(f"--timeout must be a positive number of seconds, got {timeout}")
    return RuleEngine.from_pack(pack, timeout=timeout or DEFAULT_TIMEOUT)


def _pack_of(args: argparse.Namespace) -> str:
    """PACK, else the rules of --lang/--pack, else the Spanish pack."""
    from ..packs import choose_pack

    given = args.rules if hasattr(args, "source") else args.rule_pack
    if given is not None and (args.lang is not None or args.pack is not None):
        raise CrfdeidError("give a rule pack or --lang/--pack, not both")
    if given is not None:
        return given
    return choose_pack(args.lang, args.pack).rules


def cmd_rules_test(args: argparse.Namespace) -> int:
    from ..rules import load_rules, run_examples
    from ..rules.report import format_test_report

    rules = load_rules(_pack_of(args))
    outcomes = run_examples(rules)
    print(format_test_report(rules, outcomes, verbose=args.verbose))
    return 0 if all(o.passed for o in outcomes) and rules else 1


def cmd_rules_lint(args: argparse.Namespace) -> int:
    from ..rules import lint, load_rules
    from ..rules.report import format_lint

    rules = load_rules(_pack_of(args))
    findings = lint(rules, slow_seconds=args.slow_ms / 1000)
    print(format_lint(findings, len(rules)))
    return 1 if findings else 0


def _explain_text(source: str, encoding: str, max_bytes: int) -> tuple[str, str]:
    """(document id, text) of TEXT_OR_FILE: stdin for '-', a file if it exists, else the text."""
    from ..io.text import read_text

    if source == "-":
        return "stdin", sys.stdin.read()
    path = Path(source)
    looks_like_path = not any(c.isspace() for c in source) and path.suffix in (".txt", ".ann", ".jsonl")
    if path.is_file() or looks_like_path:
        return path.stem, read_text(path, encoding, max_bytes)  # a missing file is a clear error
    return "text", source


def cmd_rules_explain(args: argparse.Namespace) -> int:
    from ..rules.report import explain_rows, format_explain
    from ..schemes import LabelMap, dropped_rules_message, load_scheme
    from ..types import Document

    engine = _rule_engine(_pack_of(args), args.timeout)
    doc_id, text = _explain_text(args.source, args.encoding, args.max_bytes)
    result = engine.run(Document(doc_id, text))
    rows = explain_rows(result, show_dropped=args.all)
    if args.scheme is not None:
        label_map = LabelMap.between(engine.scheme, load_scheme(args.scheme), {r.label for r in engine.rules})
        dropped = dropped_rules_message(engine.rules, label_map)
        if dropped:
            Once(args.quiet)(dropped)
        for row in rows:
            row["label"] = label_map(row["label"]) or f"(dropped: {engine.scheme.category(row['label'])})"
    if args.format == "json":
        timeouts = [{"rule": t.rule_id, "document": t.document_id, "seconds": t.seconds,
                     "start": t.start, "end": t.end} for t in result.timeouts]
        print(json.dumps({"document": doc_id, "matches": rows, "timeouts": timeouts},
                         indent=2, ensure_ascii=False))
    else:
        print(format_explain(rows, result.timeouts))
    return 0
