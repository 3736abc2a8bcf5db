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
from typing import TYPE_CHECKING

from . import __version__
from .errors import CrfdeidError
from .io.text import DEFAULT_ENCODING, DEFAULT_MAX_BYTES, atomic_write_text
from .progress import progress

if TYPE_CHECKING:  # imported lazily at run time: `crfdeid --help` should not load the rule engine
    from .rules import RuleEngine

PROG = "crfdeid"

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
  crfdeid explain-model                          what the embedded model learned
  crfdeid deidentify notes/ -o released/         de-identified notes with realistic surrogates
  crfdeid rules explain "NHC: 2347865"           which rule finds what, and why
  crfdeid rules test                             run every example of the Spanish rule pack
  crfdeid inspect note.txt                       tokens with lemma, POS and gazetteer matches
  crfdeid pack show es                           the Spanish pack: lists, sizes, licences

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

_ANNOTATE_DESCRIPTION = """\
Find PHI in every NAME.txt (or .jsonl) of IN_DIR and write predictions to OUT_DIR:
OUT_DIR/NAME.ann plus a copy of NAME.txt (--format brat), or OUT_DIR/annotations.jsonl.

Detection runs the YAML rules and the CRF tagger (the embedded Spanish model unless --model
names one trained with 'crfdeid train'), then merges their spans with the model's per-label
merge policy (--merge-policy to use another). --rules-only skips the CRF. Every span records its
source (crf, rule:<id>, rule:<id>+crf) and the CRF's spans a score (mean marginal probability).

--threshold P trades precision for recall: a token the model tags O is still reported as PHI
when its probability of being O is below P (0.5 flags every token the model is unsure about).

A rule that takes longer than --timeout on one document is skipped for that document with a
warning; the run goes on. crfdeid never writes into IN_DIR, and refuses an OUT_DIR that already
holds annotations it did not write (they may be gold) unless --overwrite is given. Each file is
written whole or not at all.
"""

_ANNOTATE_EPILOG = """\
examples:
  crfdeid annotate notes/ -o predictions/                     embedded model + rules
  crfdeid annotate ../shared/corpora/meddocan/dev -o /tmp/dev_pred --model my_model/
  crfdeid evaluate ../shared/corpora/meddocan/dev /tmp/dev_pred        score it
  crfdeid annotate notes/ -o out/ --threshold 0.9             higher recall, lower precision
  crfdeid annotate notes.jsonl -o out/ --rules-only --format jsonl
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
    _add_language_commands(commands)
    _add_rules_parser(commands)
    _add_annotate_parser(commands)
    _add_train_parsers(commands)
    _add_deidentify_parser(commands)
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


# --- language packs and linguistic annotators -------------------------------------------------

_INSPECT_DESCRIPTION = """\
Show how crfdeid sees a text: every token with its offsets, lemma and part of speech (from the
chosen linguistic backend) and the gazetteer lists it falls in (BIO position per list; a name
match on a stop-listed word such as "Parkinson" is marked ambiguous). This is the input of the
CRF's feature extractor, shown for people.

The default backend needs no download: lemmas from simplemma, closed word classes from the
language pack (DET, ADP, PRON…), NUM/PUNCT/SYM from the characters, OPEN for other known words
and OOV for words outside the lexicon. --backend stanza uses Stanford's tagger (install
'crfdeid[stanza]' and its models: crfdeid models download es).
"""

_INSPECT_EPILOG = """\
examples:
  crfdeid inspect "La Dra. Navarro revisó a su hija en el Hospital Virgen del Rocío."
  crfdeid inspect examples/notes/nota-001.txt --lists given_name,surname,kinship
  crfdeid inspect note.txt --backend stanza --stanza-dir ~/stanza_resources --format jsonl
"""

_PACK_DESCRIPTION = """\
Show a language pack: its version, every gazetteer list with its size and description, the
hand-written closed lists, and where each list comes from (source, licence, attribution).
Packs live in gazetteers/<lang>/ and are rebuilt from the raw sources with
scripts/build_gazetteers.py.
"""

_MODELS_DESCRIPTION = """\
Fetch the stanza models (tokenize, pos, lemma) for a language, for the optional stanza
linguistic backend. Needs internet access and the stanza extra (pip install 'crfdeid[stanza]').
Tagging never downloads: on an offline machine, copy a stanza_resources folder made here and
point --stanza-dir or STANZA_RESOURCES_DIR at it.
"""


def _add_language_commands(commands: argparse._SubParsersAction) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    ins = commands.add_parser("inspect", help="show tokens with lemma, POS and gazetteer matches",
                              description=_INSPECT_DESCRIPTION, epilog=_INSPECT_EPILOG, formatter_class=raw)
    ins.add_argument("input", metavar="TEXT_OR_FILE", help="a .txt file, or the text itself")
    ins.add_argument("--lang", default="es",
                     help="language pack: a code or a pack folder (default: %(default)s)")
    ins.add_argument("--backend", choices=("default", "stanza"), default="default",
                     help="linguistic backend for lemma and POS (default: %(default)s)")
    ins.add_argument("--stanza-dir", metavar="DIR",
                     help="stanza models folder (default: $STANZA_RESOURCES_DIR or ~/stanza_resources)")
    ins.add_argument("--lists", metavar="A,B", help="only these gazetteer lists (default: all)")
    ins.add_argument("--format", choices=("table", "jsonl"), default="table",
                     help="table for people, one JSON object per token for scripts (default: %(default)s)")
    _add_input_options(ins)
    ins.set_defaults(handler=cmd_inspect)

    pack = commands.add_parser("pack", help="show a language pack's lists, sizes and provenance",
                               description=_PACK_DESCRIPTION, formatter_class=raw)
    pack_commands = pack.add_subparsers(dest="pack_command", metavar="ACTION", required=True)
    show = pack_commands.add_parser("show", help="lists, sizes, sources and licences",
                                    description=_PACK_DESCRIPTION, formatter_class=raw)
    show.add_argument("lang", nargs="?", default="es", metavar="LANG",
                      help="a language code or a pack folder (default: %(default)s)")
    show.set_defaults(handler=cmd_pack_show)

    models = commands.add_parser("models", help="download stanza models for the stanza backend",
                                 description=_MODELS_DESCRIPTION, formatter_class=raw)
    model_commands = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    dl = model_commands.add_parser("download", help="fetch stanza's tokenize/pos/lemma models",
                                   description=_MODELS_DESCRIPTION, formatter_class=raw,
                                   epilog="example:\n  crfdeid models download es --stanza-dir /opt/stanza\n")
    dl.add_argument("lang", metavar="LANG", help="language code, e.g. es")
    dl.add_argument("--stanza-dir", metavar="DIR",
                    help="where to put them (default: $STANZA_RESOURCES_DIR or ~/stanza_resources)")
    dl.set_defaults(handler=cmd_models_download)


def cmd_inspect(args: argparse.Namespace) -> int:
    from .gazetteer import GazetteerMatcher
    from .io.text import read_text
    from .langpack import load_pack
    from .linguistic import make_annotator
    from .tokenize import tokenize

    path = Path(args.input)
    if path.is_file():
        text = read_text(path, encoding=args.encoding, max_bytes=args.max_bytes)
    elif path.suffix in (".txt", ".ann", ".jsonl") and " " not in args.input:
        raise CrfdeidError("file not found", path, hint="to inspect a text, pass the text itself in quotes")
    else:
        text = args.input
    pack = load_pack(args.lang)
    lists = [x.strip() for x in args.lists.split(",") if x.strip()] if args.lists else None
    try:
        matcher = GazetteerMatcher(pack, lists=lists)
    except ValueError as exc:
        raise CrfdeidError(str(exc), hint="see the list names with: crfdeid pack show") from None
    config: dict[str, str] = {"backend": args.backend}
    if args.backend == "stanza":
        config["language"] = pack.language
        if args.stanza_dir:
            config["model_dir"] = args.stanza_dir
    annotator = make_annotator(config, pack)
    tokens = tokenize(text)
    analysis = annotator.analyse(tokens)
    members = matcher.membership(tokens)
    rows = zip(tokens, analysis.lemmas, analysis.pos, members, strict=True)
    if args.format == "jsonl":
        for token, lemma, pos, tags in rows:
            record = {"start": token.start, "end": token.end, "text": token.text, "line": token.line + 1,
                      "lemma": lemma, "pos": pos, "gazetteers": list(tags)}
            print(json.dumps(record, ensure_ascii=False))
        return 0
    table = [("start", "end", "token", "lemma", "pos", "gazetteers")]
    table += [(str(t.start), str(t.end), t.text, lemma, pos, " ".join(tags)) for t, lemma, pos, tags in rows]
    widths = [max(len(r[i]) for r in table) for i in range(5)]
    for row in table:
        print("  ".join(cell.ljust(widths[i]) if i < 5 else cell for i, cell in enumerate(row)).rstrip())
    return 0


def cmd_pack_show(args: argparse.Namespace) -> int:
    from .langpack import load_pack

    pack = load_pack(args.lang)
    print(f"{pack.name} ({pack.language}), pack version {pack.version}\n  folder: {pack.path}")
    if pack.rules:
        print(f"  rules: {pack.rules}")
    print("\ngazetteer lists (matched case- and accent-insensitively):")
    for name, table in sorted(pack.tables.items()):
        note = f" [only after {table.after}]" if table.after else ""
        print(f"  {name:<14} {len(table):>7}  {table.description}{note}")
    print("\nhand-written closed lists:")
    closed = {"kinship": len(pack.kinship), "honorific": len(pack.honorifics),
              "month": len(pack.months), "weekday": len(pack.weekdays),
              "street_type": len(pack.street_types), "facility_type": len(pack.facility_types),
              "stop": len(pack.stopwords), "word_class": len(pack.word_classes)}
    for name, size in closed.items():
        print(f"  {name:<14} {size:>7}")
    provenance = pack.path / "provenance.json"
    if provenance.is_file():
        data = json.loads(provenance.read_text(encoding="utf-8"))
        print("\nsources:")
        for key, source in data.get("sources", {}).items():
            print(f"  {key}: {source['attribution']}\n    licence: {source['licence']}")
    return 0


def cmd_models_download(args: argparse.Namespace) -> int:
    from .linguistic import download_stanza_models

    target = download_stanza_models(args.lang, args.stanza_dir)
    print(f"stanza models for {args.lang!r} are in {target}")
    return 0


def _add_rules_parser(commands: argparse._SubParsersAction) -> None:
    rules = commands.add_parser(
        "rules", help="test, lint and explain YAML rule packs", description=_RULES_DESCRIPTION,
        epilog=_RULES_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = rules.add_subparsers(dest="rules_command", metavar="VERB", required=True)
    pack_help = "a shipped language code (es), a folder of .yaml rules or one .yaml file (default: es)"

    test = verbs.add_parser("test", help="run every rule's examples; exit 1 on any failure",
                            description="Run every rule's examples and print a PASS/FAIL table.")
    test.add_argument("pack", nargs="?", default="es", metavar="PACK", help=pack_help)
    test.add_argument("-v", "--verbose", action="store_true", help="list every example, not only failures")
    test.set_defaults(handler=cmd_rules_test)

    lint = verbs.add_parser("lint", help="find duplicate ids, missing examples, slow or shadowed rules",
                            description="Check a rule pack for problems its examples cannot show.")
    lint.add_argument("pack", nargs="?", default="es", metavar="PACK", help=pack_help)
    lint.add_argument("--slow-ms", type=float, default=20.0, metavar="MS",
                      help="flag a pattern slower than MS on a 5,000-character stress string "
                           "(default: %(default)s)")
    lint.set_defaults(handler=cmd_rules_lint)

    explain = verbs.add_parser("explain", help="show every match in a text or file, with its rule",
                               description="Show each rule match: offsets, label, rule id, matched "
                                           "text and the rule's description.")
    explain.add_argument("source", metavar="TEXT_OR_FILE",
                         help="a file to read, '-' for standard input, or the text itself")
    explain.add_argument("--rules", default="es", metavar="PACK", help=pack_help)
    explain.add_argument("--all", action="store_true", help="also show matches that lost an overlap")
    explain.add_argument("--format", choices=("table", "json"), default="table",
                         help="table for people, json for scripts (default: %(default)s)")
    explain.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                         help="give up on a rule after SECONDS on this text")
    _add_input_options(explain)
    explain.set_defaults(handler=cmd_rules_explain)


def _add_annotate_parser(commands: argparse._SubParsersAction) -> None:
    an = commands.add_parser(
        "annotate", help="find PHI in a folder of notes and write BRAT or JSONL predictions",
        description=_ANNOTATE_DESCRIPTION, epilog=_ANNOTATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    an.add_argument("input", metavar="IN_DIR", help="folder of NAME.txt files (or .jsonl files, or one file)")
    an.add_argument("-o", "--output", required=True, metavar="OUT_DIR", help="folder for the predictions")
    an.add_argument("--rules-only", action="store_true", help="use the YAML rules alone (no CRF tagger)")
    an.add_argument("--rules", default="es", metavar="PACK",
                    help="rule pack: a shipped language code, a folder or a .yaml file (default: es)")
    an.add_argument("--format", choices=("brat", "jsonl"), default="brat",
                    help="brat: NAME.ann + NAME.txt; jsonl: one annotations.jsonl (default: %(default)s)")
    an.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                    help="give up on a rule after SECONDS on one document (default: 0.5)")
    _add_model_options(an)
    an.add_argument("--overwrite", action="store_true",
                    help="allow replacing annotations in OUT_DIR that crfdeid did not write")
    _add_input_options(an)
    an.set_defaults(handler=cmd_annotate)


def _rule_engine(pack: str, timeout: float | None) -> RuleEngine:
    from .rules import DEFAULT_TIMEOUT, RuleEngine

    if timeout is not None and not timeout > 0:
        raise CrfdeidError(f"--timeout must be a positive number of seconds, got {timeout}")
    return RuleEngine.from_pack(pack, timeout=timeout or DEFAULT_TIMEOUT)


def cmd_rules_test(args: argparse.Namespace) -> int:
    from .rules import load_rules, run_examples
    from .rules.report import format_test_report

    rules = load_rules(args.pack)
    outcomes = run_examples(rules)
    print(format_test_report(rules, outcomes, verbose=args.verbose))
    return 0 if all(o.passed for o in outcomes) and rules else 1


def cmd_rules_lint(args: argparse.Namespace) -> int:
    from .rules import lint, load_rules
    from .rules.report import format_lint

    rules = load_rules(args.pack)
    findings = lint(rules, slow_seconds=args.slow_ms / 1000)
    print(format_lint(findings, len(rules)))
    return 1 if findings else 0


def _explain_text(source: str, encoding: str, max_bytes: int) -> tuple[str, str]:
    """(document id, text) of TEXT_OR_FILE: stdin for '-', a file if it exists, else the text."""
    from .io.text import read_text

    if source == "-":
        return "stdin", sys.stdin.read()
    path = Path(source)
    looks_like_path = not any(c.isspace() for c in source) and path.suffix in (".txt", ".ann", ".jsonl")
    if path.is_file() or looks_like_path:
        return path.stem, read_text(path, encoding, max_bytes)  # a missing file is a clear error
    return "text", source


def cmd_rules_explain(args: argparse.Namespace) -> int:
    from .rules.report import explain_rows, format_explain
    from .types import Document

    engine = _rule_engine(args.rules, args.timeout)
    doc_id, text = _explain_text(args.source, args.encoding, args.max_bytes)
    result = engine.run(Document(doc_id, text))
    rows = explain_rows(result, show_dropped=args.all)
    if args.format == "json":
        timeouts = [{"rule": t.rule_id, "document": t.document_id, "seconds": t.seconds}
                    for t in result.timeouts]
        print(json.dumps({"document": doc_id, "matches": rows, "timeouts": timeouts},
                         indent=2, ensure_ascii=False))
    else:
        print(format_explain(rows, result.timeouts))
    return 0


def cmd_annotate(args: argparse.Namespace) -> int:
    from .annotate import annotate_folder

    pipeline = _pipeline(args)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="annotating")
    summary = annotate_folder(Path(args.input), Path(args.output), [pipeline], args.format,
                              overwrite=args.overwrite, encoding=args.encoding,
                              max_bytes=args.max_bytes, progress=bar)
    if not args.quiet:
        rate = summary.documents / summary.seconds if summary.seconds else 0.0
        print(f"{PROG}: annotated {summary.documents} document(s), {summary.spans} span(s) in "
              f"{summary.seconds:.1f} s ({rate:.0f} documents/s) -> {args.output}", file=sys.stderr)
        if summary.timeouts:
            print(f"{PROG}: {len(summary.timeouts)} rule timeout(s); those rules were skipped on "
                  "those documents (see the warnings above)", file=sys.stderr)
    return 0


# --- deidentify -------------------------------------------------------------------------------

# --- the CRF tagger: model options, train, cv, explain-model ---------------------------------

def _add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default=None, metavar="MODEL_DIR",
                        help="a model folder written by 'crfdeid train' (default: the embedded model)")
    parser.add_argument("--threshold", type=float, default=None, metavar="P",
                        help="operating point: a token is PHI when its probability of being O is below P "
                             "(default: the model's best path)")
    parser.add_argument("--merge-policy", default=None, metavar="FILE",
                        help="YAML policy for merging CRF and rule spans (default: the model's own)")


def _pipeline(args: argparse.Namespace):  # -> Pipeline, imported lazily
    """The detection pipeline the options of annotate/deidentify describe."""
    from .pipeline import load_pipeline

    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise CrfdeidError(f"--threshold must be a probability in (0, 1], got {args.threshold}")
    if args.rules_only and (args.model or args.threshold is not None or args.merge_policy):
        raise CrfdeidError("--rules-only cannot be combined with --model, --threshold or --merge-policy")
    return load_pipeline(args.model, rules=args.rules, rules_only=args.rules_only, timeout=args.timeout,
                         policy=args.merge_policy, threshold=args.threshold)


_TRAIN_DESCRIPTION = """\
Train a CRF model on annotated corpora and write it to MODEL_DIR.

CORPUS_DIR is a folder of BRAT files (NAME.txt + NAME.ann) or a .jsonl file; give several to
train on all of them. The model folder holds crfsuite's own model file (model.crfsuite) and
model.json: labels, the feature set, the linguistic annotator, the gazetteer and rule pack
fingerprints, the training corpus fingerprint, c1/c2 and timings. No pickle is ever written.

The features come from a feature-set file (--features: a shipped name such as 'default', or a
.yaml of your own; see features/README.md). c1 (L1) makes the model sparse, c2 (L2) smooth;
'crfdeid cv --search' picks them by cross-validation. Training is deterministic: the same
corpora, features and options give the same model.
"""

_TRAIN_EPILOG = """\
examples:
  crfdeid train ../shared/corpora/meddocan/train -o models/meddocan-train
  crfdeid train ../shared/corpora/meddocan/train ../shared/corpora/meddocan/dev -o models/es
  crfdeid train my_notes/ -o my_model --features my_features.yaml --c1 0.1 --c2 0.01
  crfdeid annotate new_notes/ -o predictions/ --model my_model
"""

_CV_DESCRIPTION = """\
k-fold cross-validation by document: each fold trains on the other folds and is scored with the
MEDDOCAN metrics (ner, spans_strict, spans_merged, leak) after merging with the rules. Prints
every fold, the mean ± std, and a per-label table; -o writes it all as JSON.

Folds run in parallel processes (-j). --search tries a small grid of c1/c2 values and reports
the best (5 settings x K folds: allow for it). Folds are shuffled with --seed, so a run is
reproducible.
"""

_CV_EPILOG = """\
examples:
  crfdeid cv ../shared/corpora/meddocan/train ../shared/corpora/meddocan/dev --folds 5 -j 2
  crfdeid cv my_notes/ --folds 10 -j 2 --search -o cv.json
"""

_EXPLAIN_MODEL_DESCRIPTION = """\
What a model learned, for an auditor: the most strongly weighted features for each label (a
feature such as 'key=nombre' with a large weight for B-NOMBRE_SUJETO_ASISTENCIA says "the value
of a 'Nombre:' field starts a patient name") and the strongest label-to-label transitions.

Feature names: w/lw word and lowercase, sh/ssh shape, p/s prefix/suffix, lem/pos lemma and POS,
key/sec header key and section, gz gazetteer list, rule rule family, sk skeleton, "-1:" a
feature of the previous token, "a|b" a conjunction.
"""


def _add_train_parsers(commands: argparse._SubParsersAction) -> None:
    tr = commands.add_parser("train", help="train a CRF model on BRAT or JSONL corpora",
                             description=_TRAIN_DESCRIPTION, epilog=_TRAIN_EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("corpora", nargs="+", metavar="CORPUS_DIR", help="BRAT folders or .jsonl files")
    tr.add_argument("-o", "--output", required=True, metavar="MODEL_DIR", help="folder for the model")
    _add_training_options(tr)
    tr.set_defaults(handler=cmd_train)

    cv = commands.add_parser("cv", help="k-fold cross-validation with MEDDOCAN metrics",
                             description=_CV_DESCRIPTION, epilog=_CV_EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    cv.add_argument("corpora", nargs="+", metavar="CORPUS_DIR", help="BRAT folders or .jsonl files")
    cv.add_argument("--folds", type=int, default=5, metavar="K", help="number of folds (default: 5)")
    cv.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="run folds in N processes (default: 1)")
    cv.add_argument("--search", action="store_true", help="also search c1/c2 over a small grid")
    cv.add_argument("--seed", type=int, default=13, help="seed of the fold shuffle (default: 13)")
    cv.add_argument("-o", "--output", default=None, metavar="FILE", help="write the full report as JSON")
    _add_training_options(cv)
    cv.set_defaults(handler=cmd_cv)

    ex = commands.add_parser("explain-model", help="top features per label and strongest transitions",
                             description=_EXPLAIN_MODEL_DESCRIPTION,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("--model", default=None, metavar="MODEL_DIR", help="default: the embedded model")
    ex.add_argument("--top", type=int, default=10, metavar="N", help="features per label (default: 10)")
    ex.add_argument("--label", action="append", default=None, metavar="LABEL",
                    help="only this label (repeatable), e.g. NOMBRE_SUJETO_ASISTENCIA")
    ex.add_argument("--format", choices=("table", "json"), default="table")
    ex.set_defaults(handler=cmd_explain_model)


def _add_training_options(parser: argparse.ArgumentParser) -> None:
    from .train import DEFAULT_C1, DEFAULT_C2, DEFAULT_ITERATIONS

    parser.add_argument("--features", default="default", metavar="NAME_OR_YAML",
                        help="feature set: a shipped name or a .yaml file (default: %(default)s)")
    parser.add_argument("--c1", type=float, default=DEFAULT_C1, help="L1 penalty (default: %(default)s)")
    parser.add_argument("--c2", type=float, default=DEFAULT_C2, help="L2 penalty (default: %(default)s)")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, metavar="N",
                        help="L-BFGS iterations (default: %(default)s)")
    parser.add_argument("--annotator", choices=("default", "stanza"), default="default",
                        help="lemma/POS backend recorded in the model (default: %(default)s)")
    parser.add_argument("--stanza-dir", default=None, metavar="DIR",
                        help="stanza_resources folder for --annotator stanza")
    parser.add_argument("--rules", default="es", metavar="PACK", help="rule pack for the rule features")
    _add_input_options(parser)


def _training_setup(args: argparse.Namespace):  # -> (documents, TrainConfig)
    from .features import FeatureSet
    from .io.corpus import load_corpus
    from .train import TrainConfig

    annotator: dict | str = args.annotator
    if args.annotator == "stanza":
        annotator = {"backend": "stanza", "language": "es"}
        if args.stanza_dir:
            annotator["model_dir"] = str(Path(args.stanza_dir).resolve())
    config = TrainConfig(FeatureSet.load(args.features), args.c1, args.c2, args.iterations,
                         annotator=annotator, rules=args.rules)
    config.check()
    corpus = load_corpus(args.corpora, encoding=args.encoding, max_bytes=args.max_bytes)
    if not corpus:
        raise CrfdeidError("no documents found in " + ", ".join(args.corpora))
    return list(corpus.values()), config


def cmd_train(args: argparse.Namespace) -> int:
    from .train import fit

    documents, config = _training_setup(args)
    if not args.quiet:
        print(f"{PROG}: training on {len(documents)} document(s), "
              f"{sum(len(d.spans) for d in documents)} span(s); features {config.feature_set.name}, "
              f"c1={config.c1} c2={config.c2}, {config.iterations} iterations", file=sys.stderr)
    meta = fit(documents, config, Path(args.output), verbose=not args.quiet and sys.stderr.isatty())
    if not args.quiet:
        t = meta["training"]
        print(f"{PROG}: model written to {args.output} ({len(meta['labels'])} labels, "
              f"{t['attributes']} attributes, {t['seconds']:.0f} s)", file=sys.stderr)
    return 0


def cmd_cv(args: argparse.Namespace) -> int:
    from .train import cross_validate, format_cv, write_json

    if args.jobs < 1:
        raise CrfdeidError(f"-j must be at least 1, got {args.jobs}")
    documents, config = _training_setup(args)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="folds")
    report = cross_validate(documents, config, args.folds, args.jobs, args.seed, args.search,
                            progress=lambda it, n: bar(it, total=n))
    print(format_cv(report))
    if args.output:
        write_json(Path(args.output), report.to_dict())
    return 0


def cmd_explain_model(args: argparse.Namespace) -> int:
    from .explain import explain_model, format_explanation
    from .tagger import CrfTagger

    tagger = CrfTagger.load(args.model) if args.model else CrfTagger.load_default()
    explanation = explain_model(tagger, top=args.top, labels=args.label)
    if args.format == "json":
        print(json.dumps(explanation, indent=1, ensure_ascii=False))
    else:
        print(format_explanation(explanation))
    return 0



_DEIDENTIFY_DESCRIPTION = """\
De-identify clinical notes: find the PHI and replace it, per label, as the policy says.
INPUT is .txt files, .jsonl files or folders of them. For every note, OUT_DIR/NAME.txt holds
the de-identified text (with --format brat also OUT_DIR/NAME.ann, the spans at their new
offsets; --format jsonl writes one OUT_DIR/deidentified.jsonl instead), and OUT_DIR/audit.jsonl
holds one record per span: offsets before and after, label, source (crf, rule:<id>,
annotation), score, strategy, surrogate, and the original only as a keyed hash.

Strategies (per label, from the policy; --strategy sets one for every label not kept):
  pseudonymise  realistic, consistent surrogates (the default): names of the same sex and kind,
                the same person always the same surrogate; dates shifted by whole weeks in
                their own format; towns within the province; valid DNI/NIE/IBAN check letters
  mask          [LABEL]          tag     [PERSONA-1], numbered per entity
  redact        XXXXX            keep    unchanged (the default policy keeps only the sex)

Secrets: with a key (--key-file F, or $CRFDEID_KEY; never on the command line), surrogates
are a keyed HMAC of the original, so one person gets one surrogate across every note and run.
Without a key and without --seed the seed is random and not recorded. Same key and seed, same
output; another --seed, another output.

Detection: the embedded default model (CRF + rules); --rules-only uses the YAML rules alone;
--from-annotations pseudonymises the spans of the .ann beside each .txt (releasing a gold
corpus). The batch is all or nothing: outputs are staged and moved into OUT_DIR only when every
note has succeeded.
"""

_DEIDENTIFY_EPILOG = """\
examples:
  crfdeid deidentify notes/ -o released/                      default model and policy
  crfdeid deidentify notes/ -o released/ --rules-only         rules alone (no CRF model)
  crfdeid deidentify gold/ -o gold_pseudo/ --from-annotations --format brat
                                                              a pseudonymised copy of a gold corpus
  crfdeid deidentify note.txt -o out/ --strategy tag          [PERSONA-1], [FECHA-1]…
  CRFDEID_KEY=$(cat ~/.crfdeid.key) crfdeid deidentify notes/ -o out/
                                                              one surrogate per person across runs
  crfdeid deidentify notes/ -o out/ --key-file ~/.crfdeid.key --mapping-out ~/private/map.jsonl
                                                              also the original -> surrogate map (0600)
  crfdeid deidentify notes/ -o out/ --policy my_policy.yaml   your own policy (start from
                                                              policies/deidentify.yaml)
"""


def _add_deidentify_parser(commands: argparse._SubParsersAction) -> None:
    de = commands.add_parser(
        "deidentify", help="replace the PHI of notes with realistic surrogates (or masks, tags)",
        description=_DEIDENTIFY_DESCRIPTION, epilog=_DEIDENTIFY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    de.add_argument("inputs", nargs="+", metavar="INPUT", help=".txt/.jsonl files or folders of them")
    de.add_argument("-o", "--output", required=True, metavar="OUT_DIR",
                    help="folder for the de-identified notes")
    de.add_argument("--model", metavar="M",
                    help="a model folder (crfdeid train -o); default: the embedded model")
    de.add_argument("--rules-only", action="store_true", help="detect with the YAML rules alone (no CRF)")
    de.add_argument("--from-annotations", action="store_true",
                    help="skip detection: pseudonymise the spans of the .ann beside each .txt "
                         "(or in the .jsonl)")
    de.add_argument("--policy", metavar="FILE",
                    help="policy YAML (default: the shipped policies/deidentify.yaml)")
    de.add_argument("--strategy", choices=("pseudonymise", "mask", "tag", "redact"),
                    help="use this strategy for every label the policy does not keep")
    de.add_argument("--seed", type=int, metavar="N",
                    help="reproducible surrogates; another N, other surrogates")
    de.add_argument("--key-file", metavar="F",
                    help="file holding the secret key (else $CRFDEID_KEY); at least 16 bytes")
    de.add_argument("--format", choices=("text", "brat", "jsonl"), default="text",
                    help="text: NAME.txt; brat: also NAME.ann at new offsets; jsonl: deidentified.jsonl "
                         "(default: %(default)s)")
    de.add_argument("--mapping-out", metavar="FILE",
                    help="write original -> surrogate pairs here (mode 0600; never inside OUT_DIR)")
    de.add_argument("--overwrite", action="store_true",
                    help="allow replacing files in OUT_DIR (or the mapping file) that crfdeid did not write")
    _add_input_options(de)
    de.set_defaults(handler=cmd_deidentify)


def cmd_deidentify(args: argparse.Namespace) -> int:
    from .deidentify import AnnotationDetector, Deidentifier, deidentify_folder, read_key
    from .pipeline import load_pipeline
    from .policy import Policy

    policy = Policy.load(args.policy) if args.policy else Policy.default()
    if args.strategy:
        policy = policy.with_strategy(args.strategy)
    key = read_key(args.key_file)
    if args.from_annotations:
        if args.rules_only or args.model:
            raise CrfdeidError("--from-annotations uses the spans of the .ann files; it takes no "
                               "--model or --rules-only")
        detector = AnnotationDetector()
    else:
        detector = load_pipeline(args.model, rules_only=args.rules_only)
    deidentifier = Deidentifier(detector, policy, seed=args.seed, key=key)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="de-identifying")
    summary = deidentify_folder(args.inputs, Path(args.output), deidentifier, args.format,
                                from_annotations=args.from_annotations, overwrite=args.overwrite,
                                encoding=args.encoding, max_bytes=args.max_bytes,
                                mapping_out=args.mapping_out, progress=bar)
    if not args.quiet:
        rate = summary.documents / summary.seconds if summary.seconds else 0.0
        strategies = ", ".join(f"{n} {s}" for s, n in sorted(summary.strategies.items()))
        print(f"{PROG}: de-identified {summary.documents} document(s), {summary.spans} span(s) "
              f"({strategies or 'none'}) in {summary.seconds:.1f} s ({rate:.0f} documents/s) "
              f"-> {args.output}", file=sys.stderr)
        if summary.leftovers:
            print(f"{PROG}: warning: {summary.leftovers} original string(s) still occur in the output; "
                  f"see the leftover records of {Path(args.output) / 'audit.jsonl'}", file=sys.stderr)
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
