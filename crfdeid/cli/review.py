"""crfdeid review: the privacy officer's desk, a local web app over the notes to release."""

from __future__ import annotations

import argparse
import getpass
import sys
import threading
from dataclasses import replace
from pathlib import Path

from ..errors import CrfdeidError
from .options import PROG, RAW, add_input_options, add_model_options, add_pack_options

_DESCRIPTION = """\
Review what crfdeid finds in notes before they leave the hospital, in a local web app.

It lists the notes (the ones needing attention first: leftovers, low-confidence spans), shows
each note with its spans highlighted by label and, on click, why each was found (the rule and its
description, or the CRF's marginal and the features that weigh most), and the de-identified text
beside it, updated as you decide: accept, reject, change the label, add a span by selecting text,
draw another surrogate (reroll) or type one. Export writes the corrected annotations as BRAT
(ready for 'crfdeid train'), the de-identified notes and the review log.

The app listens on 127.0.0.1 only, with a new random token in the URL it prints; it loads nothing
from the network. Decisions are kept in the review file (--state, mode 0600: it holds PHI offsets)
and in its log (NAME.log.jsonl beside it; who, when, which span, which action — originals only as
keyed hashes), so closing the app and starting it again resumes the review. Detection is the
one 'crfdeid deidentify' runs (same model, operating point, policy, key or seed), note by note
as they are opened and in the background.
"""

_EPILOG = """\
examples:
  crfdeid review notes/ --state review.json               the embedded model; prints the URL
  crfdeid review notes/ --state review.json --key-file ~/.crfdeid.key --reviewer "Dra. Ruiz"
  crfdeid review notes/ --state review.json --model my_model --port 8765
  crfdeid review notes/ --state review.json --export-only   write the export again, no server

keyboard (in the app; ? shows them): j/k next/previous span, a accept, r reject, l label,
s reroll the surrogate, e edit it, n add the selected text, d mark the note reviewed,
]/[ next/previous note
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    rv = commands.add_parser(
        "review",
        help="review notes in a local web app: why each span, corrections, export",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=RAW,
    )
    rv.add_argument("inputs", nargs="+", metavar="IN", help=".txt/.text/.jsonl files or folders of them")
    rv.add_argument(
        "--state",
        default="crfdeid-review.json",
        metavar="FILE",
        help="the review file: decisions, kept between runs (mode 0600; default: %(default)s); its "
        "log is FILE's name with .log.jsonl",
    )
    rv.add_argument(
        "--export",
        default=None,
        metavar="DIR",
        help="where Export writes corpus/ (BRAT), released/ and the log (default: the review "
        "file's name with -export, beside it)",
    )
    rv.add_argument(
        "--export-only",
        action="store_true",
        help="write the export of the notes marked reviewed and exit (no server)",
    )
    rv.add_argument(
        "--port", type=int, default=0, metavar="P", help="port on 127.0.0.1 (default: a free one)"
    )
    rv.add_argument(
        "--reviewer",
        default=None,
        metavar="NAME",
        help="who the log says made the decisions (default: the operating-system user)",
    )
    rv.add_argument(
        "--low-confidence",
        type=float,
        default=0.9,
        metavar="P",
        help="a CRF span whose mean marginal is below P is shown as low-confidence (default: %(default)s)",
    )
    rv.add_argument(
        "--no-background",
        action="store_true",
        help="detect a note only when it is opened (default: also every note, in the background)",
    )
    rv.add_argument("--no-recursive", action="store_true", help="do not enter subfolders")
    detection = rv.add_argument_group("detection and replacement (as for crfdeid deidentify)")
    detection.add_argument(
        "--rules-only", action="store_true", help="detect with the YAML rules alone (no CRF)"
    )
    detection.add_argument(
        "--from-annotations",
        action="store_true",
        help="review the spans of the .ann beside each note (or in the .jsonl) instead of detecting",
    )
    add_model_options(detection, default_point="deidentify")
    add_pack_options(
        detection,
        model=True,
        scheme="labels with --from-annotations or --rules-only (default: each label's shipped "
        "scheme, the rule pack's); with a model, always the model's",
    )
    detection.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="CPU seconds a rule may spend on each chunk of a note (default: 0.5)",
    )
    detection.add_argument("--policy", metavar="FILE", help="policy YAML (default: policies/deidentify.yaml)")
    detection.add_argument(
        "--strategy",
        choices=("pseudonymise", "mask", "tag", "redact"),
        help="this strategy for every label the policy does not keep",
    )
    detection.add_argument("--seed", type=int, metavar="N", help="reproducible surrogates without a key")
    detection.add_argument(
        "--key-file", metavar="F", help="file holding the secret key (else $CRFDEID_KEY); at least 16 bytes"
    )
    add_input_options(rv)
    rv.set_defaults(handler=cmd_review)


def log_path(state: Path) -> Path:
    """``review.json`` -> ``review.log.jsonl``."""
    return state.with_name((state.stem if state.suffix == ".json" else state.name) + ".log.jsonl")


def cmd_review(args: argparse.Namespace) -> int:
    try:
        import flask  # noqa: F401 - only to say what is missing
    except ImportError:
        raise CrfdeidError("crfdeid review needs Flask", hint="pip install 'crfdeid[review]'") from None
    from ..io.inputs import check_inputs
    from ..review.export import export_review
    from ..review.log import ReviewLog
    from ..review.notes import NoteSource
    from ..review.session import Review
    from ..review.state import ReviewState
    from .deidentify import spec_from_args

    if not 0.0 < args.low_confidence <= 1.0:
        raise CrfdeidError(f"--low-confidence must be a probability in (0, 1], got {args.low_confidence}")
    check_inputs(args.inputs)
    state_path = Path(args.state)
    for raw in args.inputs:
        folder = Path(raw).resolve()
        if folder.is_dir() and folder in state_path.resolve().parents:
            raise CrfdeidError(
                "the review file is inside an input folder: its log (.log.jsonl) would be read as notes",
                state_path,
                hint="put --state outside the folders under review",
            )
    export_dir = (
        Path(args.export)
        if args.export
        else state_path.with_name(
            (state_path.stem if state_path.suffix == ".json" else state_path.name) + "-export"
        )
    )
    spec = spec_from_args(args)
    state = ReviewState.open(state_path, key=spec.key, seed=args.seed)
    if state.secret == "random seed":
        spec = replace(spec, seed=state.seed, seed_is_random=True)
    source = NoteSource.walk(
        args.inputs,
        exclude=[export_dir],
        recursive=not args.no_recursive,
        encoding=args.encoding,
        max_bytes=args.max_bytes,
        annotations=args.from_annotations,
    )
    for skipped in source.skipped:
        if not args.quiet:
            print(f"{PROG}: skipped {skipped.path}: {skipped.reason}", file=sys.stderr)
    if not args.quiet:
        print(f"{PROG}: {len(source.notes)} note(s); loading the detector…", file=sys.stderr)
    deid = spec.build()
    log = ReviewLog(log_path(state_path), args.reviewer or _user(), lambda text: "")
    review = Review(source, deid, state, log, key=spec.key, low_confidence=args.low_confidence)
    log.hasher = review.hasher
    if args.export_only:
        manifest = export_review(review, export_dir)
        print(
            f"{PROG}: exported {manifest['notes_reviewed']} reviewed note(s) to {export_dir}: "
            f"{manifest['released']} released, {manifest['held']} held back, {manifest['failed']} failed",
            file=sys.stderr,
        )
        return 0 if not manifest["held"] and not manifest["failed"] else 3
    return _serve(args, review, export_dir)


def _serve(args: argparse.Namespace, review, export_dir: Path) -> int:  # review: Review
    from ..review.app import create_app
    from ..review.export import export_summary
    from ..review.server import ReviewServer

    def export() -> dict:
        return export_summary(review, export_dir)

    info = {
        "reviewer": review.log.reviewer,
        "state": str(review.state.path),
        "export": str(export_dir),
        "low_confidence": review.low_confidence,
    }
    try:
        server = ReviewServer(
            lambda token, hosts: create_app(review, token, export=export, hosts=hosts, info=info), args.port
        )
    except OSError as exc:
        raise CrfdeidError(
            f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}",
            hint="choose another --port, or omit it for a free one",
        ) from None
    stop = threading.Event()
    if not args.no_background:
        threading.Thread(target=review.detect_all, args=(stop,), name="crfdeid-detect", daemon=True).start()
    print(
        f"{PROG}: review of {len(review.order)} note(s); review file {review.state.path}; export to "
        f"{export_dir}",
        file=sys.stderr,
    )
    print(f"{PROG}: open {server.url}  (Ctrl-C to stop)", file=sys.stderr)
    print(server.url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
    print(f"{PROG}: review stopped; decisions are in {review.state.path}", file=sys.stderr)
    return 0


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in this environment
        return "unknown"
