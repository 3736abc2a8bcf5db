"""crfdeid deidentify: detect PHI and replace it as the policy says, note by note."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from ..errors import CrfdeidError
from ..progress import progress, say
from .options import (
    PROG,
    RAW,
    Once,
    add_input_options,
    add_model_options,
    add_pack_options,
    check_model_options,
)

_DEIDENTIFY_DESCRIPTION = """\
De-identify clinical notes: find the PHI and replace it, per label, as the policy says.
INPUT is .txt (or .text) files, .jsonl files (one note per line), Word .docx and text-layer .pdf
files, tables (.csv, .tsv, .parquet: one note per row, in --text-column) or folders of them,
walked recursively (the folder structure is mirrored in OUT_DIR); '-' reads one note from
standard input and writes it to standard output. For every note, OUT_DIR/NAME.txt holds the
de-identified text (--format brat adds NAME.ann with the spans at their new offsets; --format
jsonl writes one OUT_DIR/deidentified.jsonl instead); a NAME.docx comes out as OUT_DIR/NAME.docx
with the replacements made inside its runs, a PDF as NAME.txt, a table as the same table with
its text column de-identified. OUT_DIR/audit.jsonl holds one record per span: offsets before
and after, label, source (crf, rule:<id>, annotation), score, strategy, surrogate, and the
original only as a keyed hash. --report FILE writes one self-contained HTML page of the run
(totals, lowest-confidence spans, problems, every note highlighted); it holds the original
notes unless --report-no-originals.

Strategies (per label, from the policy; --strategy sets one for every label not kept):
  pseudonymise  realistic, consistent surrogates (the default): names of the same sex and kind,
                the same person always the same surrogate; dates shifted by whole weeks in
                their own format; towns within the province; valid DNI/NIE/IBAN check letters
  mask          [LABEL]          tag     [PERSONA-1], numbered per entity
  redact        XXXXX            keep    unchanged (the default policy keeps only the sex)

Secrets: with a key (--key-file F, or $CRFDEID_KEY; never on the command line), surrogates
are a keyed HMAC of the original, so one person gets one surrogate across every note and run.
Without a key, surrogates are drawn per note (the seed mixed with the note's id): one original in
two notes gets two surrogates, so the release cannot be linked across notes. Without a key and
without --seed the seed is random and not recorded (and the run cannot be resumed). Same key and
seed, same output; another --seed, another output.

Detection: the embedded default model (CRF + rules) at its recall-first operating point
(--operating-point deidentify, the default: the point recorded in the model, chosen by
cross-validation for the highest spans_merged recall at precision >= 0.97; a model that records
none runs its best path; --operating-point viterbi for the F1-optimal best path, --threshold P
for a point of your own). 'crfdeid annotate --operating-point deidentify' writes the spans
detected here, to score them; deidentify then widens them to whole words and replaces every
other mention of a replaced string too (audit source "propagated"). The audit's run record and
OUT_DIR/.crfdeid-output say which point ran. --rules-only uses the YAML rules alone;
--from-annotations pseudonymises the spans of the .ann beside each note (releasing a gold
corpus). A model's labels, language pack and rules are the ones it recorded (--lang, --pack or
--rules choose others, with a warning). Labels of any scheme are replaced by their PHI
category's generator, with the language pack's surrogates; a category no generator serves, or
any category under --lang none (no pack), is masked ([LABEL]) and said so once on stderr and
per span in the audit.

The batch contract: every note is processed on its own and written (atomically) as soon as it
is done, then recorded in OUT_DIR/manifest.jsonl. A note that cannot be read or processed is
listed on stderr and in OUT_DIR/failures.jsonl; the others are written. A note the tool knows is
not clean — a rule that did not complete, an original string still in the output, PHI in its
file name — is held back in OUT_DIR/quarantine/ with its reasons (--release-incomplete releases
it anyway). After a crash, a kill or Ctrl-C, --resume finishes the run (same inputs, key or
--seed, and options): notes already done are skipped and the result is identical to an
uninterrupted run. A folder holding an earlier run is refused unless --resume or --overwrite.

Exit status: 0 every note released; 3 some notes failed or were held back; 2 a usage error
before any work; 1 an internal error (a bug: rerun with --debug and report it); 130/143
interrupted (SIGINT/SIGTERM; resumable).
"""

_DEIDENTIFY_EPILOG = """\
examples:
  crfdeid deidentify notes/ -o released/ --key-file ~/.crfdeid.key   the usual batch
  crfdeid deidentify notes/ -o released/ --key-file ~/.crfdeid.key --resume
                                                              finish an interrupted batch
  crfdeid deidentify notes/ -o released/ --rules-only         rules alone (no CRF model)
  crfdeid deidentify notes/ -o released/ --names hashed       file names may hold PHI: hash them
  crfdeid deidentify gold/ -o gold_pseudo/ --from-annotations --format brat
                                                              a pseudonymised copy of a gold corpus
  crfdeid deidentify note.txt -o out/ --strategy tag          [PERSONA-1], [FECHA-1]…
  cat note.txt | crfdeid deidentify - --seed 7 > clean.txt    standard input to standard output
  crfdeid deidentify notes/ -o out/ -j 2 --seed 7             two worker processes, same output
  crfdeid deidentify notes/ -o out/ --key-file ~/.crfdeid.key --mapping-out ~/private/map.jsonl
                                                              also the original -> surrogate map (0600)
  crfdeid deidentify notes/ -o out/ --policy my_policy.yaml   your own policy (start from
                                                              policies/deidentify.yaml)
  crfdeid deidentify notes/ -o out/ --key-file K --report ~/private/run.html
                                                              the run as one HTML page (holds PHI)
  crfdeid deidentify notes/ -o out/ --key-file K --report run.html --report-no-originals
                                                              a report that can circulate
  crfdeid deidentify letters/ -o out/ --key-file K             .docx letters -> out/NAME.docx
  crfdeid deidentify export.csv -o out/ --key-file K --text-column nota --id-column episodio
                                                              out/export.csv, column nota de-identified
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    de = commands.add_parser(
        "deidentify", help="replace the PHI of notes with realistic surrogates (or masks, tags)",
        description=_DEIDENTIFY_DESCRIPTION, epilog=_DEIDENTIFY_EPILOG, formatter_class=RAW)
    de.add_argument("inputs", nargs="+", metavar="INPUT",
                    help=".txt/.text/.jsonl/.docx/.pdf/.csv/.tsv/.parquet files or folders of them; '-' for "
                         "standard input")
    de.add_argument("-o", "--output", metavar="OUT_DIR",
                    help="folder for the de-identified notes (with INPUT '-': omit it, or '-')")
    add_note_options(de)
    out = de.add_argument_group("the batch")
    out.add_argument("--format", choices=("text", "brat", "jsonl"), default="text",
                     help="text: NAME.txt; brat: also NAME.ann at new offsets; jsonl: deidentified.jsonl "
                          "(default: %(default)s)")
    out.add_argument("--names", choices=("kept", "hashed", "numbered"), default="kept",
                     help="output file names: kept (mirrored folders), hashed (keyed, flat) or numbered "
                          "(note-000001…, flat); with kept, a note whose name spells PHI found in it is "
                          "held back (default: %(default)s)")
    out.add_argument("--no-recursive", action="store_true", help="do not enter subfolders")
    out.add_argument("--resume", action="store_true",
                     help="finish an interrupted run in OUT_DIR: skip the notes already done")
    out.add_argument("--overwrite", action="store_true",
                     help="replace an earlier run in OUT_DIR (and files crfdeid did not write)")
    out.add_argument("--fail-fast", action="store_true", help="stop at the first note that fails")
    out.add_argument("--release-incomplete", action="store_true",
                     help="release notes that would be held back (rule timeouts, leftovers, PHI in the "
                          "name) — loudly; the manifest still records why")
    out.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                     help="worker processes, one model each (default: 1); the output is the same")
    out.add_argument("--report", metavar="FILE",
                     help="also write the run as one self-contained HTML page: totals per label and "
                          "strategy, the lowest-confidence spans, rule timeouts, leftovers, failures and "
                          "every note highlighted. It holds the original notes (PHI): written 0600, "
                          "never inside OUT_DIR")
    out.add_argument("--report-no-originals", action="store_true",
                     help="the report shows only the de-identified text and labels (not even the text "
                          "of held-back notes), so it can circulate like the released notes")
    tables = de.add_argument_group("tables (.csv, .tsv, .parquet)")
    tables.add_argument("--text-column", metavar="NAME",
                        help="the column holding the notes (required for a table; without it, tables in "
                             "folders are skipped); the output is the same table with that column "
                             "de-identified, the other columns copied")
    tables.add_argument("--id-column", metavar="NAME",
                        help="the column naming each row's note (default: STEM-ROW, the data row number)")
    add_input_options(de)
    de.set_defaults(handler=cmd_deidentify)


def add_note_options(parser: argparse.ArgumentParser, local: bool = True) -> None:
    """How one note is de-identified: detection and replacement (``deidentify``; ``spark`` has no
    ``--from-annotations`` or ``--mapping-out``, which read and write files beside the notes)."""
    detection = parser.add_argument_group("detection")
    detection.add_argument("--rules-only", action="store_true",
                           help="detect with the YAML rules alone (no CRF)")
    if local:
        detection.add_argument("--from-annotations", action="store_true",
                               help="skip detection: pseudonymise the spans of the .ann beside each note "
                                    "(or in the .jsonl)")
    else:
        parser.set_defaults(from_annotations=False)
    add_model_options(detection, default_point="deidentify")
    add_pack_options(detection, model=True,
                     scheme="labels of the spans with --from-annotations or --rules-only: a shipped "
                            "scheme (meddocan, generic) or a scheme .yaml (default: each label's shipped "
                            "scheme, the rule pack's); with a model, always the model's")
    detection.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                           help="CPU seconds a rule may spend on each chunk (~8 KB of lines) of a note "
                                "(default: 0.5); a note where a rule gives up is held back")
    repl = parser.add_argument_group("replacement")
    repl.add_argument("--policy", metavar="FILE",
                      help="policy YAML (default: the shipped policies/deidentify.yaml)")
    repl.add_argument("--strategy", choices=("pseudonymise", "mask", "tag", "redact"),
                      help="use this strategy for every label the policy does not keep")
    repl.add_argument("--seed", type=int, metavar="N",
                      help="reproducible surrogates; another N, other surrogates")
    repl.add_argument("--key-file", metavar="F",
                      help="file holding the secret key (else $CRFDEID_KEY); at least 16 bytes")
    if local:
        repl.add_argument("--mapping-out", metavar="FILE",
                          help="write original -> surrogate pairs here (mode 0600; never inside OUT_DIR)")


def spec_from_args(args: argparse.Namespace):  # -> DeidentifierSpec, imported lazily
    from ..deidentify import DeidentifierSpec, read_key

    if args.timeout is not None and not args.timeout > 0:
        raise CrfdeidError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    detector_opts = (args.model or args.threshold is not None or args.operating_point
                     or args.merge_policy)
    if args.from_annotations and (args.rules_only or detector_opts):
        raise CrfdeidError("--from-annotations uses the spans of the .ann files; it takes no "
                           "--model, --rules-only, --threshold, --operating-point or --merge-policy")
    check_model_options(args)
    spec = DeidentifierSpec(
        model=args.model, rules_only=args.rules_only, from_annotations=args.from_annotations,
        rules=args.rules, threshold=args.threshold, merge_policy=args.merge_policy, timeout=args.timeout,
        policy=args.policy, strategy=args.strategy, seed=args.seed, key=read_key(args.key_file),
        lang=args.lang, pack=args.pack, scheme=args.scheme, operating_point=args.operating_point,
    )
    spec.policy_object()  # a bad policy is a usage error before any work
    warn = Once(args.quiet)
    for message in spec_warnings(spec):
        warn(message)
    chosen = spec.chosen_point(warn)
    if chosen is not None and not args.quiet:
        say(f"{PROG}: operating point: {chosen.describe()}")
    return spec


def spec_warnings(spec) -> list[str]:  # spec: DeidentifierSpec
    """What the run should say once, before any work: packs or a scheme other than the model's,
    and the labels no surrogate generator serves (masked, never silently redacted)."""
    from ..pipeline import model_pack_choice, override_message
    from ..schemes import load_scheme
    from ..surrogates import NO_GENERATOR
    from ..tagger import read_metadata

    out = []
    scheme = spec.label_scheme()
    if not (spec.from_annotations or spec.rules_only):
        recorded, chosen = model_pack_choice(read_metadata(spec.model), spec.lang, spec.pack, spec.rules)
        if recorded is not None and chosen is not None:
            out.append(override_message(recorded, chosen))
        asked = load_scheme(spec.scheme) if spec.scheme is not None else None
        if asked is not None and scheme is not None and not asked.same_mapping(scheme):
            out.append(f"the model's labels are those of scheme {scheme.name!r}; "
                       f"--scheme {spec.scheme} is ignored")
    policy = spec.policy_object()
    no_pack = spec.choice().lang == "none"
    if scheme is not None:
        detected = spec.from_annotations or spec.rules_only
        trained = set(scheme.labels) if detected else set(read_metadata(spec.model).get("labels", ()))
        masked = sorted(label for label, category in scheme.labels.items()
                        if label in trained and policy.strategy(label, category) == "pseudonymise"
                        and (no_pack or category in NO_GENERATOR))
        if masked:
            why = "no language pack (--lang none)" if no_pack else "no surrogate generator"
            out.append(f"{why} for label(s) {', '.join(masked)}: they are masked ([LABEL]); "
                       "the audit says so")
    return out


def cmd_deidentify(args: argparse.Namespace) -> int:
    if args.inputs == ["-"]:
        return _stdin(args)
    if "-" in args.inputs:
        raise CrfdeidError("'-' (standard input) cannot be mixed with files or folders")
    if args.output in (None, "-"):
        raise CrfdeidError("-o OUT_DIR is required for files and folders (standard output takes one "
                           "note: INPUT '-')")
    from ..batch import BatchOptions, run_batch

    options = BatchOptions(
        Path(args.output), fmt=args.format, names=args.names, recursive=not args.no_recursive,
        resume=args.resume, overwrite=args.overwrite, fail_fast=args.fail_fast,
        release_incomplete=args.release_incomplete, from_annotations=args.from_annotations,
        encoding=args.encoding, max_bytes=args.max_bytes,
        mapping_out=Path(args.mapping_out) if args.mapping_out else None, jobs=args.jobs, debug=args.debug,
        text_column=args.text_column, id_column=args.id_column,
        report=Path(args.report) if args.report else None, report_originals=not args.report_no_originals,
    )
    if args.report_no_originals and not args.report:
        raise CrfdeidError("--report-no-originals says what the report holds: pass --report FILE too")
    if args.id_column and not args.text_column:
        raise CrfdeidError("--id-column names the rows of a table: pass --text-column too")
    spec = spec_from_args(args)
    bar = partial(progress, enabled=None if not args.quiet else False, desc="de-identifying", unit="note")

    def report(line: str) -> None:
        if not args.quiet or "internal error" in line:
            say(f"{PROG}: {line}")

    summary = run_batch(args.inputs, spec, options, progress=bar, report=report)
    print(f"{PROG}: {summary.line()}", file=sys.stderr)  # always: the one summary line
    if args.release_incomplete and not args.quiet:
        print(f"{PROG}: warning: --release-incomplete: notes the tool knows are not clean were "
              "released; their reasons are in manifest.jsonl", file=sys.stderr)
    return summary.exit_status


def _stdin(args: argparse.Namespace) -> int:
    """One note from standard input to standard output, under the same rules as a batch."""
    import json

    from ..io.jsonl import document_to_json
    from ..io.text import decode_bytes
    from ..types import Document

    if args.output not in (None, "-"):
        raise CrfdeidError("with INPUT '-' the note goes to standard output: omit -o (or use -o -)")
    if args.format == "brat":
        raise CrfdeidError("--format brat writes two files; with standard input use text or jsonl")
    if args.from_annotations or args.resume or args.mapping_out or args.report or args.text_column:
        raise CrfdeidError("--from-annotations, --resume, --mapping-out, --report and --text-column need "
                           "files, not standard input")
    spec = spec_from_args(args)
    data = sys.stdin.buffer.read()
    if len(data) > args.max_bytes:
        raise CrfdeidError(f"standard input is {len(data):,} bytes, over the {args.max_bytes:,}-byte limit",
                           hint="raise the limit with --max-bytes")
    text = decode_bytes(data, "<stdin>", args.encoding)
    outcome = spec.build().deidentify_note(Document("stdin", text))
    for reason in outcome.held:
        print(f"{PROG}: {'released anyway' if args.release_incomplete else 'held back'}: {reason.detail}",
              file=sys.stderr)
    if outcome.held and not args.release_incomplete:
        print(f"{PROG}: nothing written (pass --release-incomplete to release it anyway)", file=sys.stderr)
        return 3
    result = outcome.result
    if args.format == "jsonl":
        sys.stdout.write(json.dumps(document_to_json(result.document), ensure_ascii=False) + "\n")
    else:
        sys.stdout.buffer.write(result.text.encode(args.encoding))
    sys.stdout.flush()
    return 0
