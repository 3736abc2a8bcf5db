"""crfdeid inspect, pack show / check and models download: how crfdeid sees a text, and the language packs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import CrfdeidError
from .options import add_input_options, add_pack_options

# --- language packs and linguistic annotators -------------------------------------------------

_INSPECT_DESCRIPTION = """\
Show how crfdeid sees a text: every token with its offsets, lemma and part of speech (from the
chosen linguistic backend) and the gazetteer lists it falls in (BIO position per list; a name
match on a stop-listed word such as "Parkinson" is marked ambiguous). This is the input of the
CRF's feature extractor, shown for people.

The default backend needs no download: lemmas from simplemma, closed word classes from the
language pack (DET, ADP, PRON…), NUM/PUNCT/SYM from the characters, OPEN for other known words
and OOV for words outside the lexicon. --backend stanza uses Stanford's tagger (install
'crfdeid[stanza]' and its models: crfdeid models download es). --lang none shows what a
language-neutral model sees: no gazetteers, the lowercase word as lemma, POS only NUM, PUNCT,
SYM or X.
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

_CHECK_DESCRIPTION = """\
Check a language pack folder before using or shipping it. Every check runs on its own, so one
broken file does not hide the others:

  manifest        pack.yaml parses, has its required keys and no unknown one
  table NAME      the TSV exists and parses strictly (no row longer than the header), the matched
                  column and aliases are in its header, it has rows, no row is given twice and no
                  cell has stray spaces; an entry on several rows is a warning (a town name
                  shared by two states is fine)
  closed list     each YAML list parses with the engine's strict reader and is not empty; the
                  calendar has 12 months and 7 weekdays; a word twice in one group is a warning
  provenance.json each source has a licence and attribution; each derived table it records
                  exists and has the number of rows it records (a hand edit shows here)
  pack loads      the whole pack loads as the engine loads it
  rules           the rule pack (--rules DIR, else the one the manifest names) passes every
                  example of every rule

Exit status: 0 no check failed (warnings allowed), 1 a check failed, 2 no pack.yaml in DIR.
"""

_CHECK_EPILOG = """\
examples:
  crfdeid pack check gazetteers/de
  crfdeid pack check my_pack/ --rules my_rules/ --format json
"""

_MODELS_DESCRIPTION = """\
Fetch the stanza models (tokenize, pos, lemma) for a language, for the optional stanza
linguistic backend. Needs internet access and the stanza extra (pip install 'crfdeid[stanza]').
Tagging never downloads: on an offline machine, copy a stanza_resources folder made here and
point --stanza-dir or STANZA_RESOURCES_DIR at it.
"""


def add_parsers(commands: argparse._SubParsersAction) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    ins = commands.add_parser("inspect", help="show tokens with lemma, POS and gazetteer matches",
                              description=_INSPECT_DESCRIPTION, epilog=_INSPECT_EPILOG, formatter_class=raw)
    ins.add_argument("input", metavar="TEXT_OR_FILE", help="a .txt file, or the text itself")
    add_pack_options(ins, rules=False)
    ins.add_argument("--backend", choices=("default", "stanza"), default="default",
                     help="linguistic backend for lemma and POS (default: %(default)s)")
    ins.add_argument("--stanza-dir", metavar="DIR",
                     help="stanza models folder (default: $STANZA_RESOURCES_DIR or ~/stanza_resources)")
    ins.add_argument("--lists", metavar="A,B", help="only these gazetteer lists (default: all)")
    ins.add_argument("--format", choices=("table", "jsonl"), default="table",
                     help="table for people, one JSON object per token for scripts (default: %(default)s)")
    add_input_options(ins)
    ins.set_defaults(handler=cmd_inspect)

    pack = commands.add_parser("pack", help="show a language pack's lists, sizes and provenance",
                               description=_PACK_DESCRIPTION, formatter_class=raw)
    pack_commands = pack.add_subparsers(dest="pack_command", metavar="ACTION", required=True)
    show = pack_commands.add_parser("show", help="lists, sizes, sources and licences",
                                    description=_PACK_DESCRIPTION, formatter_class=raw)
    show.add_argument("lang", nargs="?", default="es", metavar="LANG",
                      help="a language code or a pack folder (default: %(default)s)")
    show.set_defaults(handler=cmd_pack_show)
    check = pack_commands.add_parser("check", help="validate a pack folder: files, columns, lists, rules",
                                     description=_CHECK_DESCRIPTION, epilog=_CHECK_EPILOG,
                                     formatter_class=raw)
    check.add_argument("folder", metavar="DIR", help="the pack folder (with its pack.yaml)")
    check.add_argument("--rules", metavar="DIR",
                       help="a rule pack folder to check with it (default: the one pack.yaml names)")
    check.add_argument("--format", choices=("table", "json"), default="table",
                       help="table for people, one JSON object for scripts (default: %(default)s)")
    check.set_defaults(handler=cmd_pack_check)

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
    from ..gazetteer import GazetteerMatcher
    from ..io.text import read_text
    from ..linguistic import make_annotator
    from ..packs import choose_pack
    from ..tokenize import tokenize

    path = Path(args.input)
    if path.is_file():
        text = read_text(path, encoding=args.encoding, max_bytes=args.max_bytes)
    elif path.suffix in (".txt", ".ann", ".jsonl") and " " not in args.input:
        raise CrfdeidError("file not found", path, hint="to inspect a text, pass the text itself in quotes")
    else:
        text = args.input
    lang = args.lang
    if lang is not None and lang != "none" and Path(lang).is_dir() and args.pack is None:
        lang, args.pack = None, lang  # --lang FOLDER, as before --pack existed
    pack = choose_pack(lang, args.pack).pack
    lists = [x.strip() for x in args.lists.split(",") if x.strip()] if args.lists else None
    if pack is None and args.backend == "stanza":
        raise CrfdeidError("--backend stanza needs a language; --lang none has no lemmatiser")
    try:
        matcher = GazetteerMatcher(pack, lists=lists) if pack is not None else None
    except ValueError as exc:
        raise CrfdeidError(str(exc), hint="see the list names with: crfdeid pack show") from None
    config: dict[str, str] = {"backend": args.backend}
    if args.backend == "stanza" and pack is not None:
        config["language"] = pack.language
        if args.stanza_dir:
            config["model_dir"] = args.stanza_dir
    annotator = make_annotator(config, pack)
    tokens = tokenize(text)
    analysis = annotator.analyse(tokens)
    members = matcher.membership(tokens) if matcher is not None else [()] * len(tokens)
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
    from ..langpack import load_pack

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


def cmd_pack_check(args: argparse.Namespace) -> int:
    from ..packcheck import check_pack, failed, format_checks

    checks = check_pack(args.folder, rules=args.rules)
    if args.format == "json":
        rows = [{"name": c.name, "status": c.status, "detail": c.detail} for c in checks]
        print(json.dumps({"ok": not failed(checks), "checks": rows}, ensure_ascii=False, indent=2))
    else:
        print(format_checks(checks))
    return 1 if failed(checks) else 0


def cmd_models_download(args: argparse.Namespace) -> int:
    from ..linguistic import download_stanza_models

    target = download_stanza_models(args.lang, args.stanza_dir)
    print(f"stanza models for {args.lang!r} are in {target}")
    return 0
