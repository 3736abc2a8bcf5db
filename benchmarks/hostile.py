"""Hostile shapes: does the time of a note grow linearly with its size, whatever its shape?

    python benchmarks/hostile.py [--chars 16000] [--factor 4] [--rules] [--only NAME ...]
                                 [--out benchmarks/results/hostile.json]

A note of a degenerate shape — one unit repeated ("dra garces " 1,500 times), or a few fields
padded with a long run of spaces or tabs — is built at ``--chars`` characters and at ``--factor``
times that, and de-identified whole (``Deidentifier(seed=1).deidentify_note``: detection and
pseudonymisation) in this process, model loaded once before. The growth exponent is
``log(t_big / t_small) / log(factor)``: 1 is linear, 2 quadratic. A shape is flagged when its
exponent is above 1.5 and its big note takes more than half a second: a step quadratic in a run
of spaces or in the number of spans had made 32,000 spaces take two minutes, and one line of
7,000 e-mail addresses eight seconds (the twentieth round). The tokenizer's time on the same
texts is reported beside it: the ratio to it is the figure to compare across noisy machines.

``--rules`` also times each YAML rule alone on the padded shapes (a look-behind over spaces,
tried from each space of a run, reads the whole run: quadratic), and flags a rule the same way
(above 1.5 and 0.05 s). Prints a table; writes the figures to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from crfdeid.deidentify import Deidentifier  # noqa: E402
from crfdeid.rules.engine import RuleEngine  # noqa: E402
from crfdeid.tokenize import tokenize  # noqa: E402
from crfdeid.types import Document  # noqa: E402

#: Units repeated to fill the note: names, titles, places, lower-case staff, addresses, dates,
#: e-mails, SQL rows, vCards, tables (what the steps after the tagger look for, many times over).
UNITS = (
    "enf nieves ", "Dr. García ", "Juan Pérez Gómez, ", "dra garces ", "c/ Mayor 3, ", "12/03/2020 ",
    "hasta Ribadeo ", "cs xinzo ", "NOMBRE: Juan\n", "A. B. ", "(enf) noelia ", "HOSPITAL ",
    "el Quintanareño ", "INSERT INTO pacients VALUES ('Joan','Puig');\n",
    "BEGIN:VCARD\nFN:Joan Puig\nEND:VCARD\n", "de la ", "juan de dios ortega quesada ", "Li diuen ",
    "x.y@z.es ", "| Juan | Pérez |\n", "Paciente: María López. ", "su hijo Pedro ",
    'conocido como "el Cojo" ', "Hospital Universitario de Valme ", "ORTEGA QUESADA, JUAN ",
    "a", "1", "Ñ", "\n", ". ", "- ", "' ",
)
#: Fields padded with one long run of spaces or tabs (``n`` characters), four times over.
PADDED: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: " " * (4 * n),
    "tabs": lambda n: "\t" * (4 * n),
    "spaces-tabs": lambda n: " \t" * (2 * n),
    "name-pad-town": lambda n: ("Juan García" + " " * n + "Sevilla\n") * 4,
    "name-pad": lambda n: ("María" + " " * n) * 4,
    "street-pad-number": lambda n: ("c/ Mayor" + " " * n + "3 ") * 4,
    "date-pad-time": lambda n: ("12/03/2020" + " " * n + "14:00 ") * 4,
    "key-tabs-id": lambda n: ("DNI\t" + "\t" * n + "12345678Z\n") * 4,
    "lower-pad": lambda n: ("enf" + " " * n + "nieves ") * 4,
    "name-pad-break": lambda n: ("Juan García" + " " * n + "\n" + " " * n + "Sevilla\n") * 4,
    "hospital-pad": lambda n: ("Hospital" + " " * n + "de Jaca ") * 4,
    "title-pad": lambda n: ("Dr." + " " * n + "García ") * 4,
    "company-pad": lambda n: ("Artola" + " " * n + "S.L. ") * 4,
    "key-dots": lambda n: ("Nombre" + "." * n + ": Ana\n") * 4,
    "phone-pad": lambda n: ("Tel" + " " * n + "600123123\n") * 4,
    "lot-pad": lambda n: ("lote" + " " * n + "A37CC482B\n") * 4,
}


def shapes(chars: int) -> dict[str, Callable[[int], str]]:
    """Each shape as a function of a scale (1, or the factor) to its text."""
    out: dict[str, Callable[[int], str]] = {}
    for unit in UNITS:
        out[f"repeat {unit!r}"] = lambda k, u=unit: u * (k * max(1, chars // len(u)))
    for name, make in PADDED.items():
        out[f"padded {name}"] = lambda k, m=make: m(k * chars // 4)
    return out


def exponent(small: float, big: float, factor: int) -> float:
    return math.log(max(big, 1e-4) / max(small, 1e-4)) / math.log(factor)


def timed(run: Callable[[], Any]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("--chars", type=int, default=16_000, help="the small note's size (characters)")
    parser.add_argument("--factor", type=int, default=4, help="the big note is this many times the small")
    parser.add_argument("--rules", action="store_true",
                        help="also time each YAML rule on the padded shapes")
    parser.add_argument("--only", nargs="*", default=None,
                        help="only the shapes whose name holds one of these")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "hostile.json")
    args = parser.parse_args(argv)

    deidentifier = Deidentifier(seed=1)
    deidentifier.deidentify_note(Document("warm-up", "Dr. García vive en Sevilla. " * 20))
    rows: list[dict[str, Any]] = []
    print(f"{'shape':54} {'small s':>8} {'big s':>8} {'exp':>5} {'x tok':>6}")
    for name, make in shapes(args.chars).items():
        if args.only and not any(o in name for o in args.only):
            continue
        small, big = make(1), make(args.factor)
        t_small = timed(lambda s=small: deidentifier.deidentify_note(Document("small", s)))
        t_big = timed(lambda b=big: deidentifier.deidentify_note(Document("big", b)))
        tok = timed(lambda b=big: tokenize(b))
        e = exponent(t_small, t_big, args.factor)
        flagged = e > 1.5 and t_big > 0.5
        rows.append({"shape": name, "chars": [len(small), len(big)],
                     "seconds": [round(t_small, 3), round(t_big, 3)], "exponent": round(e, 2),
                     "x_tokenizer": round(t_big / max(tok, 1e-4), 1), "flagged": flagged})
        print(f"{name[:54]:54} {t_small:8.2f} {t_big:8.2f} {e:5.2f} {t_big / max(tok, 1e-4):6.0f}"
              + ("  <- superlinear" if flagged else ""), flush=True)

    rule_rows: list[dict[str, Any]] = []
    if args.rules:
        engine = RuleEngine.from_pack("es")
        print(f"\n{'rule':40} {'shape':20} {'small s':>8} {'big s':>8} {'exp':>5}")
        for name, make in PADDED.items():
            small, big = make(args.chars // 4), make(args.factor * args.chars // 4)
            for rule in engine.rules:
                t_small = timed(lambda r=rule, s=small: r.find(s, timeout=60))
                if t_small < 0.005:
                    continue
                t_big = timed(lambda r=rule, b=big: r.find(b, timeout=60))
                e = exponent(t_small, t_big, args.factor)
                flagged = e > 1.5 and t_big > 0.05
                rule_rows.append({"rule": rule.id, "shape": name,
                                  "seconds": [round(t_small, 4), round(t_big, 4)],
                                  "exponent": round(e, 2), "flagged": flagged})
                print(f"{rule.id[:40]:40} {name[:20]:20} {t_small:8.3f} {t_big:8.3f} {e:5.2f}"
                      + ("  <- superlinear" if flagged else ""), flush=True)

    flagged_shapes = [r["shape"] for r in rows if r["flagged"]]
    flagged_rules = sorted({r["rule"] for r in rule_rows if r["flagged"]})
    print(f"\n{len(rows)} shapes, {len(flagged_shapes)} superlinear; "
          f"{len(rule_rows)} rule timings, {len(flagged_rules)} rules superlinear")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    machine = {"python": platform.python_version(), "machine": platform.machine()}
    result = {"commit": commit, "machine": machine,
              "chars": args.chars, "factor": args.factor, "shapes": rows, "rules": rule_rows,
              "flagged_shapes": flagged_shapes, "flagged_rules": flagged_rules}
    if args.only is None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"written {args.out}")
    return 1 if flagged_shapes or flagged_rules else 0


if __name__ == "__main__":
    sys.exit(main())
