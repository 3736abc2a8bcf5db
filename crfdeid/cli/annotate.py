"""crfdeid annotate: detection over a folder of notes, written as BRAT or JSONL."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from ..progress import progress, say
from .options import PROG, Once, add_input_options, add_model_options, add_pack_options, detection_pipeline

_ANNOTATE_DESCRIPTION = """\
Find PHI in every NAME.txt (or .jsonl) of IN_DIR and write predictions to OUT_DIR:
OUT_DIR/NAME.ann plus a copy of NAME.txt (--format brat), or OUT_DIR/annotations.jsonl.

Detection runs the YAML rules and the CRF tagger (the embedded Spanish model unless --model
names one trained with 'crfdeid train'), then merges their spans with the model's per-label
merge policy (--merge-policy to use another). --rules-only skips the CRF. The language pack
and rules are those the model recorded; --lang, --pack or --rules choose others (with a
warning; packs that differ from the model's are a stale-model error). Rule spans take the
model's labels through their PHI category (with --rules-only: --scheme's labels). Every span records its
source (crf, rule:<id>, rule:<id>+crf) and the CRF's spans a score (mean marginal probability).

Operating point: by default the CRF reports its best (Viterbi) path, the F1-optimal point.
--operating-point deidentify reports instead the point 'crfdeid deidentify' runs by default: the
recall-first point recorded in the model, where a token the best path tags O is PHI too when its
probability of being O is below the point's threshold (one for every label, or one per label),
as a span of its own. It writes exactly the spans deidentify detects (deidentify then widens
them to whole words and adds second mentions), so 'crfdeid evaluate' scores the point. A model
that records no such point runs its best path.
--threshold P trades precision for recall by hand: a token the model tags O is still reported as
PHI when its probability of being O is below P (0.5 flags every token the model is unsure about).

Rules run chunk by chunk (~8 KB of whole lines); a rule that spends more than --timeout CPU
seconds on one chunk gives up on that chunk only, with a warning; the run goes on. crfdeid
never writes into IN_DIR, and refuses an OUT_DIR that already holds annotations it did not
write (they may be gold) unless --overwrite is given. Each file is written whole or not at all.
Subfolders of IN_DIR are annotated too (mirrored in OUT_DIR) unless --no-recursive; every file
skipped is reported. A note that cannot be read or annotated is listed on stderr and in
OUT_DIR/failures.jsonl and the others are written (exit status 3).
"""

_ANNOTATE_EPILOG = """\
examples:
  crfdeid annotate notes/ -o predictions/                     embedded model + rules
  crfdeid annotate ../shared/corpora/meddocan/dev -o /tmp/dev_pred --model my_model/
  crfdeid evaluate ../shared/corpora/meddocan/dev /tmp/dev_pred        score it
  crfdeid annotate notes/ -o out/ --threshold 0.9             higher recall, lower precision
  crfdeid annotate dev/ -o /tmp/deid --operating-point deidentify   what deidentify replaces
  crfdeid evaluate dev/ /tmp/deid                                     ...scored
  crfdeid annotate notes.jsonl -o out/ --rules-only --format jsonl
  crfdeid annotate notes/ -o out/ --rules-only --lang none --scheme generic   language-neutral rules
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    an = commands.add_parser(
        "annotate", help="find PHI in a folder of notes and write BRAT or JSONL predictions",
        description=_ANNOTATE_DESCRIPTION, epilog=_ANNOTATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    an.add_argument("input", metavar="IN_DIR", help="folder of NAME.txt files (or .jsonl files, or one file)")
    an.add_argument("-o", "--output", required=True, metavar="OUT_DIR", help="folder for the predictions")
    an.add_argument("--rules-only", action="store_true", help="use the YAML rules alone (no CRF tagger)")
    add_pack_options(an, model=True, scheme="labels of the output with --rules-only: a shipped scheme "
                     "(meddocan, generic) or a scheme .yaml (default: the rule pack's own); with a model, "
                     "always the model's")
    an.add_argument("--format", choices=("brat", "jsonl"), default="brat",
                    help="brat: NAME.ann + NAME.txt; jsonl: one annotations.jsonl (default: %(default)s)")
    an.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                    help="CPU seconds a rule may spend on each chunk (~8 KB of lines) of a document "
                         "(default: 0.5)")
    add_model_options(an)
    an.add_argument("--overwrite", action="store_true",
                    help="allow replacing annotations in OUT_DIR that crfdeid did not write")
    an.add_argument("--no-recursive", action="store_true", help="do not enter subfolders of IN_DIR")
    an.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="detect in N worker processes, each loading the model once (default: 1); "
                         "the output is the same")
    add_input_options(an)
    an.set_defaults(handler=cmd_annotate)


def _worker_pipeline(args: argparse.Namespace) -> list:
    """What each worker of ``-j N`` runs once: the same pipeline, its warnings said once by the
    parent already."""
    return [detection_pipeline(argparse.Namespace(**{**vars(args), "quiet": True}))]


def _picklable(args: argparse.Namespace) -> argparse.Namespace:
    """The options without the handler function (workers get them by pickling)."""
    return argparse.Namespace(**{k: v for k, v in vars(args).items() if not callable(v)})


def cmd_annotate(args: argparse.Namespace) -> int:
    from ..annotate import annotate_folder
    from ..heap import freeze_loaded

    pipeline = detection_pipeline(args)
    freeze_loaded()
    dropped = pipeline.dropped_rules()
    if dropped:
        Once(args.quiet)(dropped)
    if pipeline.point is not None and pipeline.point.point is not None and not args.quiet:
        say(f"{PROG}: operating point: {pipeline.point.describe()}")
    bar = partial(progress, enabled=None if not args.quiet else False, desc="annotating")

    def report(line: str) -> None:
        if not args.quiet or "failed" in line:
            say(f"{PROG}: {line}")

    summary = annotate_folder(Path(args.input), Path(args.output), [pipeline], args.format,
                              overwrite=args.overwrite, encoding=args.encoding,
                              max_bytes=args.max_bytes, recursive=not args.no_recursive, progress=bar,
                              report=report, jobs=args.jobs,
                              build=partial(_worker_pipeline, _picklable(args)) if args.jobs > 1 else None)
    rate = summary.documents / summary.seconds if summary.seconds else 0.0
    failed = f", {len(summary.failures)} failed (see failures.jsonl)" if summary.failures else ""
    print(f"{PROG}: annotated {summary.documents} document(s){failed}, {summary.spans} span(s) in "
          f"{summary.seconds:.1f} s ({rate:.0f} documents/s) -> {args.output}", file=sys.stderr)
    if summary.timeouts and not args.quiet:
        print(f"{PROG}: {len(summary.timeouts)} rule timeout(s); those rules were skipped on "
              "those documents (see the warnings above)", file=sys.stderr)
    if any(f.internal for f in summary.failures):
        return 1
    return 3 if summary.failures else 0
