#!/usr/bin/env python3
"""Build the Spanish gazetteers (gazetteers/es/*.tsv) from the raw public sources.

    python scripts/build_gazetteers.py [--sources ../shared/sources] [--out gazetteers/es]

Re-runnable and deterministic: the same sources give byte-identical output (rows are sorted,
no timestamps; the provenance records each source's SHA-256 instead). The hand-written lists
of the pack (kinship, honorifics, calendar, street and facility types, provinces, communities,
stop list) are read, never written, by this script.

Outputs (tab-separated, UTF-8, one header row, '#' comment lines on top):
  given_names.tsv    name, male, female        INE counts by sex (a name in both keeps both)
  surnames.tsv       name, count               INE
  municipalities.tsv name, province, population INE 2019 population; province from the council
                                                 address list
  countries.tsv      code, name                CLDR (Spanish names)
  hospitals.tsv      name, type, municipality, province   Catálogo Nacional de Hospitales +
                                                 MEDDOCAN organisers' list (names only)
  health_centres.tsv name, type, municipality, province   Catálogo de Centros de Atención Primaria
  streets.tsv        name, type                street names of council addresses + MEDDOCAN list
  professions.tsv    masculine, feminine, isco  ESCO occupations (ISCO-08 group) + MEDDOCAN list
  territories.tsv    name                       MEDDOCAN organisers' territories
  provenance.json    per output: sources (file, licence, attribution, sha256), rows read/written
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent

SOURCES = {
    "ine_names": {
        "files": ["names/es/esmales.csv", "names/es/esfemales.csv"],
        "licence": "INE open data (reuse with attribution)",
        "attribution": "Fuente: INE, Estadística de nombres de la población residente en España",
    },
    "ine_surnames": {
        "files": ["names/es/essurnames.csv"],
        "licence": "INE open data (reuse with attribution)",
        "attribution": "Fuente: INE, Estadística de apellidos de la población residente en España",
    },
    "dismed_municipalities": {
        "files": ["dismed/PoblacionMunicipios.csv", "dismed/address.csv"],
        "licence": "MIT (DiSMed, © 2020 Open Coronavirus); data: INE padrón 2019, datos.gob.es",
        "attribution": "Fuente: INE (población 2019); direcciones de ayuntamientos, datos.gob.es; "
        "compiled by the DiSMed project (BIMCV)",
    },
    "dismed_hospitals": {
        "files": ["dismed/hospitals.csv"],
        "licence": "MIT (DiSMed); data: Ministerio de Sanidad, Catálogo Nacional de Hospitales",
        "attribution": "Fuente: Ministerio de Sanidad; compiled by the DiSMed project (BIMCV)",
    },
    "dismed_health_centres": {
        "files": ["dismed/CentrosSalud.csv"],
        "licence": "MIT (DiSMed); data: Ministerio de Sanidad, Centros de Atención Primaria",
        "attribution": "Fuente: Ministerio de Sanidad; compiled by the DiSMed project (BIMCV)",
    },
    "meddocan_gazetteer": {
        "files": [
            "meddocan-gazetteer/hospitales.txt",
            "meddocan-gazetteer/direcciones.txt",
            "meddocan-gazetteer/profesiones.txt",
            "meddocan-gazetteer/territorios.txt",
            "meddocan-gazetteer/nombres.txt",
            "meddocan-gazetteer/apellidos.txt",
        ],
        "licence": "CC BY 4.0",
        "attribution": "MEDDOCAN gazetteers, © 2019 Secretaría de Estado para el Avance Digital "
        "(Plan de Impulso de las Tecnologías del Lenguaje)",
    },
    "cldr_countries": {
        "files": ["countries/es.csv"],
        "licence": "MIT (umpirsky/country-list), derived from Unicode CLDR",
        "attribution": "Country names from Unicode CLDR via umpirsky/country-list",
    },
    "esco": {
        "files": ["esco/occupations_es.json"],
        "licence": "ESCO, © European Union, reuse with attribution",
        "attribution": "ESCO classification of the European Commission (occupations, Spanish)",
    },
}


def fold(text: str) -> str:
    """Case- and accent-insensitive key, the same folding the matcher uses (ñ folds to n)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def uninvert(name: str) -> str:
    """INE writes leading articles after a comma: 'Bonillo, El' -> 'El Bonillo'."""
    match = re.fullmatch(r"(.+?),\s*(El|La|Los|Las|L'|O|A|Os|As|Es|Sa|Ses|Els|Les)", name.strip())
    if not match:
        return name.strip()
    article = match.group(2)
    return f"{article}{match.group(1)}" if article.endswith("'") else f"{article} {match.group(1)}"


# --- display forms of names: INE lists are upper case without accents -------------------------

# Accented spellings of frequent names and surnames that the "-ez" rule below cannot derive.
_KNOWN_ACCENTS = {
    "GARCIA": "García",
    "DIAZ": "Díaz",
    "MARTIN": "Martín",
    "MUÑOZ": "Muñoz",
    "ALVAREZ": "Álvarez",
    "MARIN": "Marín",
    "CORTES": "Cortés",
    "LEON": "León",
    "DURAN": "Durán",
    "ROMAN": "Román",
    "SAEZ": "Sáez",
    "DIEZ": "Díez",
    "IBAÑEZ": "Ibáñez",
    "NUÑEZ": "Núñez",
    "GALVEZ": "Gálvez",
    "MARQUEZ": "Márquez",
    "SUAREZ": "Suárez",
    "PELAEZ": "Peláez",
    "MONTAÑES": "Montañés",
    "RIOS": "Ríos",
    "JESUS": "Jesús",
    "BELTRAN": "Beltrán",
    "CALDERON": "Calderón",
    "CHACON": "Chacón",
    "MONDEJAR": "Mondéjar",
    "ANDRES": "Andrés",
    "JOSE": "José",
    "TOMAS": "Tomás",
    "RAMON": "Ramón",
    "MARTI": "Martí",
    "GUZMAN": "Guzmán",
    "MAÑAS": "Mañas",
    "ESPAÑA": "España",
    "GASCON": "Gascón",
    "PADRON": "Padrón",
    "CARRION": "Carrión",
    "BERMUDEZ": "Bermúdez",
    "CACERES": "Cáceres",
    "VALDES": "Valdés",
    "INES": "Inés",
    "MUÑIZ": "Muñiz",
    "ARAGON": "Aragón",
    "QUIÑONES": "Quiñones",
    "MARTINEZ": "Martínez",
    "ESTEVEZ": "Estévez",
    "CHAVEZ": "Chávez",
    "VELAZQUEZ": "Velázquez",
    "CALVIÑO": "Calviño",
    "CASTAÑO": "Castaño",
    "CONCEPCION": "Concepción",
    "ASUNCION": "Asunción",
    "ENCARNACION": "Encarnación",
    "ROCIO": "Rocío",
    "ANGEL": "Ángel",
    "ANGELES": "Ángeles",
    "ALVARO": "Álvaro",
    "OSCAR": "Óscar",
    "VICTOR": "Víctor",
    "RAUL": "Raúl",
    "RUBEN": "Rubén",
    "IVAN": "Iván",
    "JOAQUIN": "Joaquín",
    "SEBASTIAN": "Sebastián",
    "ADRIAN": "Adrián",
    "JULIAN": "Julián",
    "GERMAN": "Germán",
    "NICOLAS": "Nicolás",
    "LUCIA": "Lucía",
    "SOFIA": "Sofía",
    "MONICA": "Mónica",
    "VERONICA": "Verónica",
    "BELEN": "Belén",
    "MIRIAM": "Míriam",
    "NOEMI": "Noemí",
    "ANGELA": "Ángela",
    "MARIA": "María",
    "JOSEFA": "Josefa",
    "MATIAS": "Matías",
    "ELIAS": "Elías",
    "TOBIAS": "Tobías",
    "ISMAEL": "Ismael",
    "HECTOR": "Héctor",
    "CESAR": "César",
    "FELIX": "Félix",
    "BARBARA": "Bárbara",
    "AGUEDA": "Águeda",
    "REMEDIOS": "Remedios",
    "DOLORES": "Dolores",
    "MARTA": "Marta",
    "SAMUEL": "Samuel",
    "ESTIBALIZ": "Estíbaliz",
    "JAVIER": "Javier",
    "AINHOA": "Ainhoa",
    "ZOE": "Zoe",
    "DAMASO": "Dámaso",
    "FERMIN": "Fermín",
    "BENJAMIN": "Benjamín",
    "AGUSTIN": "Agustín",
    "VALENTIN": "Valentín",
    "CRISTOBAL": "Cristóbal",
    "ESTEBAN": "Esteban",
    "SIMON": "Simón",
    "ANIBAL": "Aníbal",
    "MOISES": "Moisés",
    "JERONIMO": "Jerónimo",
    "CANDIDO": "Cándido",
    "PLACIDO": "Plácido",
    "EUGENIA": "Eugenia",
    "NURIA": "Nuria",
    "GENOVEVA": "Genoveva",
    "JEREZ": "Jerez",
    "CORTEZ": "Cortez",
    "VALDEZ": "Valdez",
    "SONIA": "Sonia",
    "PAULA": "Paula",
    "LAURA": "Laura",
    "GUILLERMO": "Guillermo",
}

_VOWELS = "AEIOU"
_ACCENTED = {"A": "Á", "E": "É", "I": "Í", "O": "Ó", "U": "Ú"}


def _accent_ez(word: str) -> str:
    """Spanish words ending in -ez stressed on the penultimate syllable carry an accent there
    (MARTINEZ -> Martínez, RODRIGUEZ -> Rodríguez, SUAREZ -> Suárez). Returns upper case."""
    stem = word[:-2]
    if not stem.isalpha():
        return word
    # "gu"/"qu" before the final e: the u is silent and belongs to the last syllable
    core = stem[:-1] if stem.endswith(("GU", "QU")) else stem
    i = len(core) - 1
    while i >= 0 and core[i] not in _VOWELS:
        i -= 1
    if i < 0:
        return word  # no vowel before -ez ("PEZ"): a one-syllable word takes no accent
    j = i
    while j - 1 >= 0 and core[j - 1] in _VOWELS:
        j -= 1
    group = range(j, i + 1)
    strong = [k for k in group if core[k] in "AEO"]
    k = strong[0] if strong else group[-1]
    return core[:k] + _ACCENTED[core[k]] + stem[k + 1 :] + "EZ"


def display_word(word: str, accented: dict[str, str]) -> str:
    """Title-case one upper-case INE word, restoring accents where we know them."""
    if "-" in word:
        return "-".join(display_word(part, accented) for part in word.split("-"))
    if word in _KNOWN_ACCENTS:
        return _KNOWN_ACCENTS[word]
    known = accented.get(fold(word))
    if known:
        return known
    if word.endswith("EZ") and len(word) > 4:
        word = _accent_ez(word)
    return word[:1] + word[1:].lower()


def display_name(name: str, accented: dict[str, str]) -> str:
    particles = {"DE", "DEL", "LA", "LAS", "LOS", "Y", "I"}
    words = name.split()
    out = []
    for i, w in enumerate(words):
        out.append(w.lower() if w in particles and i > 0 else display_word(w, accented))
    return " ".join(out)


def accented_forms(paths: Iterable[Path]) -> dict[str, str]:
    """Folded single word -> accented spelling, from lists that keep accents (MEDDOCAN's)."""
    forms: dict[str, str] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            for word in line.split():
                if word != fold(word) and any(
                    unicodedata.combining(c) for c in unicodedata.normalize("NFD", word)
                ):
                    forms.setdefault(fold(word), word[:1].upper() + word[1:])
    return forms


# --- readers ----------------------------------------------------------------------------------


def read_counts(path: Path) -> list[tuple[str, int]]:
    rows = []
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            if len(row) != 2 or not row[1].strip().isdigit():
                continue  # header or blank
            rows.append((row[0].strip(), int(row[1])))
    return rows


def read_tsv(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    header = lines[0].split("\t")
    return [
        dict(zip(header, (ln.split("\t") + [""] * len(header))[: len(header)], strict=True))
        for ln in lines[1:]
    ]


class ProvinceIndex:
    """Maps every spelling of a province found in the sources to the pack's canonical name."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.rows = rows
        self.by_key: dict[str, str] = {}
        for row in rows:
            for name in [row["name"], *filter(None, row["aliases"].split("|"))]:
                self.by_key[fold(name)] = row["name"]
                self.by_key[fold(uninvert(name))] = row["name"]

    def canonical(self, name: str) -> str:
        key = fold(name)
        if key in self.by_key:
            return self.by_key[key]
        for part in re.split(r"[/,]", name):
            if fold(part) in self.by_key:
                return self.by_key[fold(part)]
        raise SystemExit(f"unknown province {name!r}: add it to gazetteers/es/provinces.tsv aliases")


# --- builders ---------------------------------------------------------------------------------


def build_given_names(src: Path, accented: dict[str, str]) -> tuple[list[list[str]], dict]:
    male = read_counts(src / "names/es/esmales.csv")
    female = read_counts(src / "names/es/esfemales.csv")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, n in male:
        counts[name][0] += n
    for name, n in female:
        counts[name][1] += n
    rows = [[display_name(name, accented), str(m), str(f)] for name, (m, f) in counts.items()]
    rows.sort(key=lambda r: (-(int(r[1]) + int(r[2])), r[0]))
    return rows, {"rows_read": len(male) + len(female)}


def build_surnames(src: Path, accented: dict[str, str]) -> tuple[list[list[str]], dict]:
    rows_in = read_counts(src / "names/es/essurnames.csv")
    merged: dict[str, int] = defaultdict(int)
    for name, n in rows_in:
        merged[name] += n
    rows = [[display_name(name, accented), str(n)] for name, n in merged.items()]
    rows.sort(key=lambda r: (-int(r[1]), r[0]))
    return rows, {"rows_read": len(rows_in)}


def build_municipalities(src: Path, provinces: ProvinceIndex) -> tuple[list[list[str]], dict]:
    """Population rows are ordered by INE code (province blocks); the address list gives the
    province of each uniquely named municipality, and an ambiguous name ("Castejón") takes the
    province of the block it sits in."""
    with (src / "dismed/PoblacionMunicipios.csv").open(encoding="utf-8", newline="") as fh:
        pop = [(uninvert(r["NOMBRE"]), int(r["POB19"])) for r in csv.DictReader(fh)]
    with (src / "dismed/address.csv").open(encoding="utf-8", newline="") as fh:
        addr = list(csv.reader(fh))[1:]
    prov_of: dict[str, set[str]] = defaultdict(set)
    for row in addr:
        prov_of[fold(uninvert(row[0]))].add(provinces.canonical(row[5]))
    known = [next(iter(prov_of[fold(n)])) if len(prov_of.get(fold(n), ())) == 1 else None for n, _ in pop]
    rows, unresolved = [], 0
    for i, (name, population) in enumerate(pop):
        province = known[i]
        if province is None:
            before = next((known[k] for k in range(i - 1, -1, -1) if known[k]), None)
            after = next((known[k] for k in range(i + 1, len(pop)) if known[k]), None)
            # inside a block both neighbours agree; at a block boundary, prefer the candidate the
            # address list offers for this name
            options = prov_of.get(fold(name), set()) & {before, after}
            province = sorted(options)[0] if options else (before or after)
        if province is None:
            unresolved += 1
            continue
        rows.append([name, province, str(population)])
    rows.sort(key=lambda r: (r[1], r[0]))
    return rows, {"rows_read": len(pop), "unresolved_province": unresolved}


def check_postal_prefixes(src: Path, provinces: ProvinceIndex) -> dict[str, int]:
    """The hand-written province codes must agree with the council postal codes."""
    codes = {row["name"]: row["code"] for row in provinces.rows}
    agree = disagree = 0
    with (src / "dismed/address.csv").open(encoding="utf-8", newline="") as fh:
        for row in list(csv.reader(fh))[1:]:
            cp = row[3].strip()
            if not cp.isdigit():
                continue
            if cp.zfill(5)[:2] == codes[provinces.canonical(row[5])]:
                agree += 1
            else:
                disagree += 1
    if disagree > agree * 0.01:
        raise SystemExit(f"province codes disagree with {disagree} council postal codes: check provinces.tsv")
    return {"postal_codes_agreeing": agree, "postal_codes_disagreeing": disagree}


class FacilityTyper:
    def __init__(self, path: Path) -> None:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))["types"]
        self.prefixes = sorted(((fold(p), t) for t, ps in data.items() for p in ps), key=lambda x: -len(x[0]))

    def classify(self, name: str, default: str) -> str:
        key = fold(name)
        for prefix, kind in self.prefixes:
            if key == prefix or key.startswith(prefix + " "):
                return kind
        return default


def titlecase(text: str) -> str:
    """Catalogue names are upper case; keep small words lower case, as Spanish writes them."""
    small = {"de", "del", "la", "las", "los", "el", "y", "i", "d'", "en", "a", "l'", "dels", "les"}
    words = text.lower().split()
    out = []
    for i, w in enumerate(words):
        if i > 0 and w in small:
            out.append(w)
        elif "." in w:
            out.append(w.upper())  # initials and company suffixes: "S.L.", "H.U."
        else:
            out.append("-".join(p[:1].upper() + p[1:] for p in w.split("-")))
    return " ".join(out)


def build_hospitals(
    src: Path, provinces: ProvinceIndex, typer: FacilityTyper
) -> tuple[list[list[str]], dict]:
    rows: dict[str, list[str]] = {}
    with (src / "dismed/hospitals.csv").open(encoding="utf-8", newline="") as fh:
        catalogue = list(csv.DictReader(fh))
    for r in catalogue:
        name = titlecase(r["NOMBRE"])
        rows[fold(name)] = [
            name,
            typer.classify(name, "hospital"),
            r["MUNICIPIOS"].strip(),
            provinces.canonical(r["PROVINCIAS"]),
        ]
    extra = [
        ln.strip()
        for ln in (src / "meddocan-gazetteer/hospitales.txt").read_text(encoding="utf-8").splitlines()
    ]
    for line in extra:
        if line and fold(line) not in rows:
            name = titlecase(line)
            rows[fold(name)] = [name, typer.classify(name, "hospital"), "", ""]
    out = sorted(rows.values(), key=lambda r: fold(r[0]))
    return out, {"rows_read": len(catalogue) + len(extra)}


def build_health_centres(src: Path, provinces: ProvinceIndex) -> tuple[list[list[str]], dict]:
    kinds = {"CENTRO SALUD": "centro de salud", "CONSULTORIO LOCAL": "consultorio"}
    rows: dict[tuple[str, str], list[str]] = {}
    with (src / "dismed/CentrosSalud.csv").open(encoding="utf-8", newline="") as fh:
        catalogue = list(csv.DictReader(fh))
    for r in catalogue:
        kind = kinds.get(r["TIPOCENTRO"].strip(), r["TIPOCENTRO"].strip().lower())
        name = titlecase(r["NOMBRE"])
        rows[(fold(name), kind)] = [
            name,
            kind,
            uninvert(r["MUNICIPIO"].strip()),
            provinces.canonical(r["PROVINCIAS"]),
        ]
    out = sorted(rows.values(), key=lambda r: (fold(r[0]), r[1]))
    return out, {"rows_read": len(catalogue)}


def build_streets(src: Path, street_types: dict[str, list[str]]) -> tuple[list[list[str]], dict]:
    type_of = {fold(a).rstrip("."): t for t, abbrs in street_types.items() for a in abbrs}
    rows: dict[str, list[str]] = {}
    with (src / "dismed/address.csv").open(encoding="utf-8", newline="") as fh:
        addresses = list(csv.reader(fh))[1:]
    for row in addresses:
        street = re.split(r",|\bs/n\b|\d", row[2])[0].strip(" .,")
        if len(street) < 3 or not street[0].isupper():
            continue  # "Ctra. a Itero" is a road to a town, not a street name
        kind = type_of.get(fold(row[1]).rstrip("."), "calle")
        rows.setdefault(fold(street), [street, kind])
    extra = (src / "meddocan-gazetteer/direcciones.txt").read_text(encoding="utf-8").splitlines()
    for line in extra:
        street = titlecase(re.split(r",|\d", line)[0].strip(" .,"))
        if len(street) >= 3:
            rows.setdefault(fold(street), [street, "calle"])
    out = sorted(rows.values(), key=lambda r: fold(r[0]))
    return out, {"rows_read": len(addresses) + len(extra)}


def _split_gender_pair(name: str) -> tuple[str, str]:
    """ESCO writes 'director técnico/directora técnica'; MEDDOCAN lists each form on its own."""
    if "/" in name:
        masc, fem = name.split("/", 1)
        return masc.strip(), fem.strip()
    return name.strip(), name.strip()


def isco_group(code: str) -> str:
    """ESCO codes an occupation under its ISCO-08 unit group ("8111.5" -> "8111"): the first
    digit is the major group (7 crafts and trades, 9 elementary occupations...)."""
    unit = code.split(".")[0]
    return unit if unit.isdigit() and len(unit) == 4 else ""


def _feminine(masculine: str) -> str:
    """The regular feminine of a Spanish profession noun: -o/-e -> -a (abogado, jefe), a
    consonant + a (profesor, bedel); the list's own spellings are what is matched against it."""
    if masculine.endswith(("o", "e")):
        return masculine[:-1] + "a"
    if masculine[-1:].isalpha() and masculine[-1:] not in "aeiouáéíóú":
        return masculine + "a"
    return masculine


#: A word that names or heads several occupations gets their group only when this share of them
#: falls in one ISCO sub-major group ("mecánico": 91 % crafts; "trabajador": 61 % social work,
#: too mixed; "empleado", "técnico": none).
DOMINANT_SHARE = 2 / 3


def dominant_group(votes: Counter) -> str:
    """The usual unit group among ``votes`` (unit group -> occupations), or "" if they spread."""
    votes = Counter({g: n for g, n in votes.items() if g})
    by_sub_major: Counter = Counter()
    for group, n in votes.items():
        by_sub_major[group[:2]] += n
    if not by_sub_major:
        return ""
    sub_major, n = min(by_sub_major.items(), key=lambda kv: (-kv[1], kv[0]))
    if n < DOMINANT_SHARE * sum(by_sub_major.values()):
        return ""
    within = [(g, c) for g, c in votes.items() if g.startswith(sub_major)]
    return min(within, key=lambda kv: (-kv[1], kv[0]))[0]


def build_professions(src: Path) -> tuple[list[list[str]], dict]:
    """Masculine and feminine forms with their ISCO unit group, so that a surrogate can stay
    in its field (a quarry worker's silicosis needs a manual trade, not a notary). A MEDDOCAN
    word gets the group of the ESCO occupation it names or is a synonym of (the most usual
    group when several are), or none."""
    occupations = json.loads((src / "esco/occupations_es.json").read_text(encoding="utf-8"))
    rows: dict[str, list[str]] = {}
    by_name: dict[str, str] = {}
    by_synonym: dict[str, Counter] = {}
    by_head: dict[str, Counter] = {}  # "mecánico" heads "mecánico naval", "mecánico de motores"...
    for occ in occupations:
        masc, fem = _split_gender_pair(occ["name"])
        group = isco_group(occ["code"])
        rows.setdefault(fold(masc), [masc, fem, group])
        for form in (masc, fem):
            by_name.setdefault(fold(form), group)
            if len(form.split()) > 1:
                by_head.setdefault(fold(form.split()[0]), Counter())[group] += 1
        for synonym in occ.get("synonyms", ()):
            by_synonym.setdefault(fold(synonym), Counter())[group] += 1

    def group_of(word: str) -> str:
        key = fold(word)
        if by_name.get(key):
            return by_name[key]
        return dominant_group(by_synonym.get(key, Counter()) + by_head.get(key, Counter()))

    # MEDDOCAN's list pairs forms implicitly: "Abogada", "Abogado"
    words = [
        ln.strip()
        for ln in (src / "meddocan-gazetteer/profesiones.txt").read_text(encoding="utf-8").splitlines()
        if ln.strip()
    ]
    present = {fold(w): w for w in words}
    feminine_of = {key: _feminine(key) for key in present}
    attached = {fem for key, fem in feminine_of.items() if fem != key and fem in present}
    for w in words:
        key = fold(w)
        if key in attached:
            continue  # the feminine is attached to its masculine below
        fem = present.get(feminine_of[key])
        masc_form = w.lower() if not w.isupper() else w
        fem_form = (fem or w).lower()
        rows.setdefault(key, [masc_form, fem_form, group_of(masc_form) or group_of(fem_form)])
    # a feminine attached to a masculine that ESCO already pairs otherwise ("coordinador") is
    # kept as a row of its own, as it was before -or/-ora pairs were read: the forms the
    # gazetteer matches stay the ones the shipped model was trained with (its fingerprint)
    listed = {fold(form) for row in rows.values() for form in row[:2]}
    for key in sorted(attached - listed):
        if key.endswith("a") and key[:-1] + "o" in present:
            continue  # "ingeniera": left out before too
        form = present[key].lower()
        rows.setdefault(key, [form, form, group_of(form)])
    out = sorted(rows.values(), key=lambda r: fold(r[0]))
    return out, {"rows_read": len(occupations) + len(words), "with_isco_group": sum(1 for r in out if r[2])}


def build_countries(src: Path) -> tuple[list[list[str]], dict]:
    with (src / "countries/es.csv").open(encoding="utf-8", newline="") as fh:
        rows = [[r["id"], r["value"]] for r in csv.DictReader(fh)]
    rows.sort()
    return rows, {"rows_read": len(rows)}


def build_territories(src: Path) -> tuple[list[list[str]], dict]:
    lines = [
        ln.strip()
        for ln in (src / "meddocan-gazetteer/territorios.txt").read_text(encoding="utf-8").splitlines()
    ]
    unique = sorted({ln for ln in lines if ln}, key=fold)
    return [[t] for t in unique], {"rows_read": len(lines)}


# --- writing ----------------------------------------------------------------------------------


def write_tsv(path: Path, header: list[str], rows: list[list[str]], comment: str) -> None:
    for row in rows:
        if any("\t" in cell or "\n" in cell for cell in row):
            raise SystemExit(f"{path.name}: a cell contains a tab or newline: {row!r}")
    lines = [f"# {line}" for line in comment.strip().splitlines()]
    lines.append("\t".join(header))
    lines.extend("\t".join(row) for row in rows)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


OUTPUTS = {
    # file: (header, sources, comment)
    "given_names.tsv": (
        ["name", "male", "female"],
        ["ine_names", "meddocan_gazetteer"],
        "Given names with the number of men and women who bear them (INE). Accents "
        "restored from the MEDDOCAN list and a hand table; matching ignores them.",
    ),
    "surnames.tsv": (
        ["name", "count"],
        ["ine_surnames", "meddocan_gazetteer"],
        "Surnames with the number of people who bear them (INE).",
    ),
    "municipalities.tsv": (
        ["name", "province", "population"],
        ["dismed_municipalities"],
        "Spanish municipalities with province and 2019 population (INE).",
    ),
    "countries.tsv": (["code", "name"], ["cldr_countries"], "Country names in Spanish (CLDR)."),
    "hospitals.tsv": (
        ["name", "type", "municipality", "province"],
        ["dismed_hospitals", "meddocan_gazetteer"],
        "Hospitals with facility type (Catálogo Nacional de Hospitales; MEDDOCAN list).",
    ),
    "health_centres.tsv": (
        ["name", "type", "municipality", "province"],
        ["dismed_health_centres"],
        "Primary-care centres and local surgeries (Centros de Atención Primaria).",
    ),
    "streets.tsv": (
        ["name", "type"],
        ["dismed_municipalities", "meddocan_gazetteer"],
        "Street names without numbers (council addresses; MEDDOCAN list).",
    ),
    "professions.tsv": (
        ["masculine", "feminine", "isco"],
        ["esco", "meddocan_gazetteer"],
        "Professions with masculine and feminine forms and ISCO-08 unit group (ESCO; MEDDOCAN list).",
    ),
    "territories.tsv": (
        ["name"],
        ["meddocan_gazetteer"],
        "Regions and provinces as the MEDDOCAN organisers listed them.",
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_src = REPO.parent / "shared" / "sources"
    parser.add_argument(
        "--sources", type=Path, default=default_src, help="the raw sources folder (default: %(default)s)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO / "gazetteers" / "es",
        help="the pack folder to write into (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    src: Path = args.sources
    if not src.is_dir():
        print(f"error: sources folder {src} not found (pass --sources)", file=sys.stderr)
        return 2
    out: Path = args.out
    provinces = ProvinceIndex(read_tsv(out / "provinces.tsv"))
    typer = FacilityTyper(out / "facility_types.yaml")
    street_types = yaml.safe_load((out / "street_types.yaml").read_text(encoding="utf-8"))["types"]
    accented = accented_forms(
        [src / "meddocan-gazetteer/nombres.txt", src / "meddocan-gazetteer/apellidos.txt"]
    )

    built = {
        "given_names.tsv": build_given_names(src, accented),
        "surnames.tsv": build_surnames(src, accented),
        "municipalities.tsv": build_municipalities(src, provinces),
        "countries.tsv": build_countries(src),
        "hospitals.tsv": build_hospitals(src, provinces, typer),
        "health_centres.tsv": build_health_centres(src, provinces),
        "streets.tsv": build_streets(src, street_types),
        "professions.tsv": build_professions(src),
        "territories.tsv": build_territories(src),
    }
    provenance: dict = {
        "language": "es",
        "built_by": "scripts/build_gazetteers.py",
        "checks": {"provinces": check_postal_prefixes(src, provinces)},
        "sources": {},
        "outputs": {},
    }
    for key, info in SOURCES.items():
        provenance["sources"][key] = {
            "licence": info["licence"],
            "attribution": info["attribution"],
            "files": {f: sha256(src / f) for f in info["files"]},
        }
    for filename, (rows, stats) in built.items():
        header, sources, comment = OUTPUTS[filename]
        attribution = "; ".join(SOURCES[s]["attribution"] for s in sources)
        write_tsv(
            out / filename,
            header,
            rows,
            f"{comment}\nBuilt by scripts/build_gazetteers.py; sources and licences: provenance.json\n"
            f"Attribution: {attribution}",
        )
        provenance["outputs"][filename] = {"sources": sources, "rows_written": len(rows), **stats}
        print(f"{filename:20} {len(rows):>7} rows  (read {stats['rows_read']})")
    (out / "provenance.json").write_text(
        json.dumps(provenance, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
