"""Realism report of the pseudonymiser on MEDDOCAN dev, from the gold spans (issue 12).

    python benchmarks/realism.py [CORPUS] [--split dev] [--seed 1]
                                 [--out benchmarks/results/realism.json]

Pseudonymises every note of the split from its gold annotations, without a key (as
``crfdeid deidentify --from-annotations --seed 1``), and computes from the audit:
  - home country kept: "España" (and its spellings) left as written, target 100 %;
  - foreign countries replaced by one of the same UN M.49 region, target 100 %;
  - towns of 100,000 people or more replaced by towns of that size, all three size classes
    kept, province capitals replaced by capitals;
  - "s/n" kept in street surrogates;
  - masks ("[LABEL]") in running text under the default policy, target 0;
  - cross-note linkage without a key: among originals (normalised) replaced in two notes or
    more, the share given one surrogate in every note, target at most 10 %.
Prints PASS/FAIL per target and writes the figures (and the misses) as JSON.
Not yet measured here (open in issue 12): accents, sex agreement of compound names, words
outside the pack's lists, end-to-end leftovers with the embedded model.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

from crfdeid.io.corpus import load_annotations
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.resources import meddocan_dir
from crfdeid.surrogates import normalise
from crfdeid.surrogates.data import country_key, size_class, surrogate_data


def share(hits: int, total: int) -> float:
    return round(100.0 * hits / total, 2) if total else 100.0


def measure(corpus: Path, split: str, seed: int) -> dict:
    data = surrogate_data("es")
    pseudonymiser = Pseudonymiser(seed=seed)
    documents = sorted(load_annotations(corpus / split).values(), key=lambda d: d.id)
    home = [0, 0]
    regions = [0, 0]
    sizes = {"city": [0, 0], "all": [0, 0], "capital": [0, 0]}
    sn = [0, 0]
    masks = 0
    surrogates_of: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    misses: dict[str, list] = defaultdict(list)
    for document in documents:
        result = pseudonymiser.pseudonymise(document)
        masks += sum(1 for r in result.audit if r.surrogate and r.surrogate.startswith("[")
                     and r.surrogate.endswith("]"))
        for record in result.audit:
            if record.start < 0 or record.source == "propagated":
                continue
            original = document.text[record.start:record.end].strip()
            new = result.text[record.new_start:record.new_end].strip()
            if record.surrogate is not None:
                surrogates_of[(record.label, normalise(original))][document.id].add(normalise(new))
            if record.label == "PAIS":
                code = data.country_code.get(country_key(original))
                if code is not None and code == data.home_code:
                    home[1] += 1
                    home[0] += new == original
                elif code is not None:
                    regions[1] += 1
                    new_code = data.country_code.get(country_key(new))
                    hit = new_code is not None and data.region_of.get(new_code) == data.region_of.get(code)
                    regions[0] += hit
                    if not hit:
                        misses["region"].append([original, new])
            elif record.label == "TERRITORIO":
                found, after = data.find_town(original), data.find_town(new)
                if found is None or after is None or record.surrogate is None:
                    continue
                before_size = size_class(data.town_population.get(found, 0.0))
                after_size = size_class(data.town_population.get(after, 0.0))
                capital = data.capital_of.get(found[0]) == found[1]
                if capital:
                    sizes["capital"][1] += 1
                    sizes["capital"][0] += data.capital_of.get(after[0]) == after[1]
                else:
                    sizes["all"][1] += 1
                    sizes["all"][0] += before_size == after_size
                    if before_size == "city":
                        sizes["city"][1] += 1
                        sizes["city"][0] += after_size == "city"
            elif record.label == "CALLE" and "s/n" in original.casefold().replace(" ", ""):
                sn[1] += 1
                sn[0] += "s/n" in new.casefold().replace(" ", "")
    repeated = [notes for notes in surrogates_of.values() if len(notes) >= 2]
    linked = sum(1 for notes in repeated if len(set().union(*notes.values())) == 1)
    figures = {
        "notes": len(documents),
        "home_country_kept_pct": share(*home), "home_country_mentions": home[1],
        "same_region_countries_pct": share(*regions), "foreign_country_mentions": regions[1],
        "cities_stay_cities_pct": share(*sizes["city"]), "city_mentions": sizes["city"][1],
        "size_class_kept_pct": share(*sizes["all"]), "non_capital_town_mentions": sizes["all"][1],
        "capitals_stay_capitals_pct": share(*sizes["capital"]), "capital_mentions": sizes["capital"][1],
        "s_n_kept_pct": share(*sn), "s_n_streets": sn[1],
        "masks_in_text": masks,
        "linked_across_notes_pct": share(linked, len(repeated)), "repeated_originals": len(repeated),
    }
    targets = {
        "home_country_kept_pct": (">=", 100.0), "same_region_countries_pct": (">=", 100.0),
        "cities_stay_cities_pct": (">=", 95.0), "capitals_stay_capitals_pct": (">=", 100.0),
        "s_n_kept_pct": (">=", 100.0), "masks_in_text": ("<=", 0), "linked_across_notes_pct": ("<=", 10.0),
    }
    checks = {k: (figures[k] >= v if op == ">=" else figures[k] <= v) for k, (op, v) in targets.items()}
    return {"figures": figures, "targets": {k: f"{op} {v}" for k, (op, v) in targets.items()},
            "pass": checks, "misses": {k: v[:50] for k, v in misses.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=None)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/realism.json"))
    args = parser.parse_args(argv)
    corpus = args.corpus or meddocan_dir()
    if corpus is None or not (corpus / args.split).is_dir():
        print("realism: no MEDDOCAN corpus (pass its folder)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    report = measure(corpus, args.split, args.seed)
    report.update({
        "command": "python benchmarks/realism.py" + (f" --seed {args.seed}" if args.seed != 1 else ""),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": platform.machine(),
        "python": platform.python_version(), "seconds": round(time.perf_counter() - started, 1),
    })
    for key, value in report["figures"].items():
        verdict = "" if key not in report["pass"] else (
            f"  target {report['targets'][key]}: {'PASS' if report['pass'][key] else 'FAIL'}")
        print(f"{key:32} {value}{verdict}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
