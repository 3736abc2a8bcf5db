"""crfdeid deidentify: detect PHI and replace it as the policy says, note by note."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from ..errors import CrfdeidError
from ..progress import progress
from .options import PROG, add_input_options

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


def add_parsers(commands: argparse._SubParsersAction) -> None:
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
    add_input_options(de)
    de.set_defaults(handler=cmd_deidentify)


def cmd_deidentify(args: argparse.Namespace) -> int:
    from ..deidentify import AnnotationDetector, Deidentifier, deidentify_folder, read_key
    from ..pipeline import load_pipeline
    from ..policy import Policy

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
