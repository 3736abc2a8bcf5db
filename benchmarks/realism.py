"""Realism report (issue 12) on MEDDOCAN dev: can a reader tell the surrogates from real notes?

    python benchmarks/realism.py [CORPUS] [--split dev] [--seed 1] [--no-model]
                                 [--out benchmarks/results/realism.json]

The pipeline runs as the CLI runs it: ``crfdeid deidentify --from-annotations --seed 1`` (gold
spans, default policy, no key) for every figure but the last, and ``crfdeid deidentify --seed 1``
with the embedded model for the last. Each figure is printed with its target and PASS/FAIL; the
JSON keeps the figures, the counts behind them and the cases that miss (surrogates and originals
of a public corpus, for the developer who fixes them; never run this on real notes and publish).

  1. home_country_kept: the pack's home country ("España", "Spain"…) as a PAIS span, and it or its
     nationality words ("español(a)(s)") inside any other span but an organisation's name, kept as
     written (default policy keeps the home country). Target 100 %.
  2. foreign_country_same_subregion: a foreign PAIS span replaced by a country of the same UN M49
     sub-region (the grouping of CLDR territory containment: Western Africa, South America…).
     Country names -> ISO codes from the pack's country table; codes -> sub-region from the
     ``country_converter`` package's data file (``pip install country_converter --no-deps``: only
     its TSV is read, pandas is not needed). Target 100 %.
  3. big_city_kept: a TERRITORIO span naming a municipality of >= 100,000 people (population
     column of the pack's municipalities.tsv, the most populous reading of an ambiguous name)
     replaced by one of >= 100,000; size_class_kept: the same over three classes (>= 100k,
     20k-100k, < 20k); capital_kept: a province capital replaced by a province capital. A
     province written after its town ("Alcobendas (Madrid)": the audit says "province of the
     surrogate town") follows the town and is counted apart, not as a town.
  4. sn_kept: "s/n" (sin número) of a CALLE span still in its surrogate. Target 100 %.
     Places that follow the surrogate town: a postal code, a hospital or health centre of the
     catalogue, a fixed phone prefix with a surrogate town on its line within 80 characters in
     that town's province; a "Town (Province)" pair of the output whose province is the town's.
  5. known_words: the share of the letter words (two letters or more) of every surrogate that
     ``crfdeid.surrogates.vocabulary.invented_words`` does not call invented: words of the pack's
     lists, structure kept from the original, initials and acronyms of the surrogate's own words,
     address words spelled from pack words and a few initials ("jgarcia"). Target >= 99.5 %;
     the invented words are listed.
  6. standard_accent: among the surrogate words of person names and towns, the share written in a
     standard spelling. The reference is name-aware: where lists of names (Faker's es_ES person
     names, MEDDOCAN's gazetteers of given names and surnames) or of places (MEDDOCAN's
     municipalities and territories, INE's municipal register with its official names) know the
     word's letters, its spelling must be one they attest; other words are judged by wordfreq's
     large Spanish list (the most frequent form among those that fold to the same letters, or an
     accented form at least 0.15 as frequent). Words with no accent in any attested form do not
     count. wordfreq alone counts words, not names ("Díez" is "diez", "Vera" is "verá").
     ``--sources`` (default: sources/ beside the corpora folder); ``pip install wordfreq`` (extra
     ``bench``); Faker when installed (extra ``build``). Target >= 99 %.
  7. patient_name_sex: a patient's given-name surrogate (a NOMBRE_SUJETO_ASISTENCIA span whose
     first word is a given name more than a surname) whose sex by the pack's counts (the whole
     compound when the pack lists it) agrees with the note's SEXO spans ("H", "varón", "mujer"…).
     Target >= 99 %.
  8. profession_gender: a PROFESION surrogate whose grammatical gender (pack's masculine/feminine
     forms) agrees with the note's sex (forms equal for both sexes count as agreeing).
  9. masks_in_text: "[LABEL]" in the output under the default policy. Target 0.
 10. linkage_without_key: among originals (normalised, per label) replaced in two notes or more,
     the share that get one and the same surrogate in every note. Target <= 10 %.
 11. end_to_end_leak: with the embedded model, the share of distinct gold strings of each note
     found in that note's output as whole words (case and accents ignored); excepted: SEXO spans,
     ages under 90 (an age span naming no number of 90 or more, or a number with age units under
     any label), relatives named by kinship words alone ("tía materna", "familia de nueve
     miembros") and the home country and its nationality words. A string the run found and
     handled on purpose is listed apart, not counted: a date the whole-week shift left in the
     same month or year, a month alone (not shifted), a description the pack keeps because it
     identifies no one ("lactante", "casada": ``descriptions_kept``). end_to_end_strict counts
     those too. Target <= 0.5 %; the strings are listed.
Also counted (no target in the issue, 0 wanted): name_clashes, a folded name word of a person
mapped to two different surrogate words in one note (glued "ÁngelGarcía" split at the case
change); mixed_sex_compounds, a surrogate compound given name whose words are of different sexes
and which the pack does not list as a compound ("José María" is listed; "Joaquina Carlos" is not).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import itertools
import json
import platform
import re
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from crfdeid.deidentify import DeidentifierSpec
from crfdeid.io.corpus import load_annotations
from crfdeid.labels import GUIDELINE_LABELS
from crfdeid.langpack import fold
from crfdeid.resources import meddocan_dir
from crfdeid.surrogates import build_registry, normalise, surrogate_data
from crfdeid.surrogates.data import SurrogateData, country_key
from crfdeid.surrogates.people import PERSON_LABELS
from crfdeid.surrogates.vocabulary import invented_words, pack_vocabulary
from crfdeid.types import Document

#: The independent source of UN M49 sub-regions, when installed.
CONVERTER = "country_converter UNregion (UN M49)"
BIG_CITY = 100_000
MEDIUM_TOWN = 20_000
#: An accented spelling is standard too when it is at least this share as frequent as the top one:
#: "Óscar" (0.28 of "oscar", the award), "Cortés" (0.26 of the noun "cortes"); not "València" (0.02).
ACCENT_RATIO = 0.15
#: How many missed cases the console shows per figure (the JSON keeps them all).
SHOWN = 15

_LETTERS = re.compile(r"[^\W\d_]+")
_GLUE = re.compile(r"(?<=[a-záéíóúüñàèìòùç])(?=[A-ZÁÉÍÓÚÜÑÀÈÌÒÙÇ])")
_SN = re.compile(r"\bs\s*/\s*n\b", re.IGNORECASE)
_MASK = re.compile(r"\[([A-Z][A-Z_]+)\]")
_DIGITS = re.compile(r"\d+")
#: A header field of surnames: "Apellidos: José Riera" holds no given name.
_SURNAMES_FIELD = re.compile(r"apellidos?\s*:\s*$", re.IGNORECASE)
#: A header field of given names: "Nombre: Alvaro".
_GIVEN_FIELD = re.compile(r"nombre\s*:\s*$", re.IGNORECASE)
ACCENT_LABELS = (*PERSON_LABELS, "TERRITORIO")
#: Names replaced as a whole: "KCI Clinic Spain SL" becomes another company, "Spain" and all.
ORGANISATIONS = ("INSTITUCION", "HOSPITAL", "CENTRO_SALUD")

TARGETS: dict[str, tuple[str, float]] = {
    "home_country_kept_pct": (">=", 100.0),
    "foreign_country_same_subregion_pct": (">=", 100.0),
    "big_city_kept_pct": (">=", 100.0),
    "size_class_kept_pct": (">=", 100.0),
    "capital_kept_pct": (">=", 100.0),
    "sn_kept_pct": (">=", 100.0),
    "postal_code_in_town_province_pct": (">=", 95.0),
    "facility_in_town_province_pct": (">=", 90.0),
    "phone_prefix_in_town_province_pct": (">=", 100.0),
    "town_province_pairs_pct": (">=", 95.0),
    "known_words_pct": (">=", 99.5),
    "standard_accent_pct": (">=", 99.0),
    "patient_name_sex_pct": (">=", 99.0),
    "profession_gender_pct": (">=", 100.0),
    "masks_in_text": ("<=", 0),
    "linkage_without_key_pct": ("<=", 10.0),
    "end_to_end_leak_pct": ("<=", 0.5),
    "name_clashes": ("<=", 0),
    "mixed_sex_compounds": ("<=", 0),
}


# --- pure helpers (tests/test_benchmark_realism.py) -----------------------------------------


def pct(part: int, whole: int) -> float | None:
    """A percentage to two decimals, None when there is nothing to measure."""
    return round(100 * part / whole, 2) if whole else None


def verdict(value: float | None, target: tuple[str, float]) -> str:
    if value is None:
        return "n/a"
    op, bound = target
    return "PASS" if (value >= bound if op == ">=" else value <= bound) else "FAIL"


def letter_words(text: str, min_length: int = 1) -> list[str]:
    """The runs of letters of a text, glued words split where a capital follows a small letter."""
    return [w for run in _LETTERS.findall(text) for w in _GLUE.split(run) if len(w) >= min_length]


def size_class(population: float) -> str:
    """The issue's three town sizes."""
    return "big" if population >= BIG_CITY else "medium" if population >= MEDIUM_TOWN else "small"


def accent_key(word: str) -> str:
    """A word without its accents but with its letters: "ñ" and "ç" are letters, not accents
    ("Mariño" is not "Marino" misspelt)."""
    kept = {"\u0303": "nN", "\u0327": "cC"}  # tilde on n, cedilla on c
    out: list[str] = []
    for char in unicodedata.normalize("NFD", word.casefold()):
        if unicodedata.combining(char) and not (char in kept and out and out[-1] in kept[char]):
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


def spellings(frequencies: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """Accent key -> every written form of a frequency list with its frequency."""
    groups: dict[str, dict[str, float]] = defaultdict(dict)
    for form, frequency in frequencies.items():
        groups[accent_key(form)][form] = frequency
    return dict(groups)


def has_accent(word: str) -> bool:
    return accent_key(word) != word.casefold()


def accent_check(
    word: str, groups: Mapping[str, Mapping[str, float]], ratio: float = ACCENT_RATIO
) -> bool | None:
    """True when a word is written in its standard spelling, False when not, None when it does not
    count (unknown to the list, or no accent either way). The standard spelling is the most
    frequent form; an accented form at least ``ratio`` times as frequent is accepted too
    ("Benjamín" beside "Benjamin"), an unaccented one only when it is the most frequent
    ("Avila" is a miss beside "Ávila")."""
    forms = groups.get(accent_key(word))
    if not forms:
        return None
    written = word.casefold()
    top = max(forms, key=lambda f: (forms[f], f))
    if not (has_accent(written) or has_accent(top)):
        return None
    if written == top:
        return True
    return has_accent(written) and forms.get(written, 0.0) >= ratio * forms[top]


def named_accent_check(
    word: str, named: Mapping[str, Mapping[str, float]], groups: Mapping[str, Mapping[str, float]] | None
) -> bool | None:
    """:func:`accent_check` with a name-aware reference: where a list of names (or of places) knows
    the word's letters, the written form must be one of the spellings that list attests; only
    words no such list knows are judged by the general word list. wordfreq alone counts words,
    not names: "Díez" the surname is "diez" the number there, "Vera" is "verá", "Angulo" is
    "ángulo"."""
    forms = named.get(accent_key(word))
    if not forms:
        return accent_check(word, groups) if groups is not None else None
    written = word.casefold()
    if not (has_accent(written) or any(has_accent(f) for f in forms)):
        return None
    return written in forms


#: Lists of names and places (in the shared sources folder) the accent reference reads, by kind.
NAME_LISTS = {"person": ("meddocan-gazetteer/nombres.txt", "meddocan-gazetteer/apellidos.txt"),
              "place": ("meddocan-gazetteer/municipios.txt", "meddocan-gazetteer/territorios.txt")}
#: INE's municipal register with the official names (NOMBRE column).
REGISTER = "dismed/PoblacionMunicipios.csv"


def name_spellings(sources: Path | None) -> dict[str, dict[str, dict[str, float]]]:
    """The spellings of names and of places that lists of names attest, by kind ("person",
    "place"): Faker's es_ES person names (if Faker is installed), MEDDOCAN's gazetteers of given
    names, surnames, municipalities and territories, and INE's municipal register (the official
    names: "Gandia", "Vallés", "Palau-solità i Plegamans"), from ``sources`` (../shared/sources).
    Faker is also one of the pack's sources; MEDDOCAN's lists and the register are read here
    as published, not through the pack."""
    words: dict[str, set[str]] = {"person": set(), "place": set()}
    try:
        from faker.providers.person.es_ES import Provider
    except ImportError:
        Provider = None
    if Provider is not None:
        for attr in ("first_names_male", "first_names_female", "last_names"):
            for name in getattr(Provider, attr, ()):
                words["person"].update(_LETTERS.findall(name))
    if sources is not None:
        for kind, names in NAME_LISTS.items():
            for name in names:
                path = sources / name
                if path.is_file():
                    words[kind].update(_LETTERS.findall(path.read_text(encoding="utf-8")))
        register = sources / REGISTER
        if register.is_file():
            with register.open(encoding="utf-8", newline="") as handle:
                for row in csv.DictReader(handle):
                    words["place"].update(_LETTERS.findall(row.get("NOMBRE") or ""))
    return {kind: spellings({w.casefold(): 1.0 for w in found}) for kind, found in words.items()}


def name_sources(sources: Path | None) -> list[str]:
    """What :func:`name_spellings` read, for the JSON."""
    used = []
    if importlib.util.find_spec("faker") is not None:
        from importlib.metadata import version
        used.append(f"Faker {version('Faker')} es_ES person names")
    if sources is not None:
        used += [name for name in (*NAME_LISTS["person"], *NAME_LISTS["place"], REGISTER)
                 if (sources / name).is_file()]
    return used


def standard_form(word: str, groups: Mapping[str, Mapping[str, float]]) -> str | None:
    forms = groups.get(accent_key(word))
    return max(forms, key=lambda f: (forms[f], f)) if forms else None


def dominant_sex(counts: tuple[int, int]) -> str | None:
    """'m' or 'f' by the larger count, None when nobody bears the name."""
    male, female = counts
    if male == female:
        return None
    return "m" if male > female else "f"


def note_sex(sex_texts: Iterable[str], sex_words: Mapping[str, str]) -> str | None:
    """The patient's sex from the note's SEXO spans, None when absent or contradictory."""
    found = {sex_words[fold(t.strip())] for t in sex_texts if fold(t.strip()) in sex_words}
    return found.pop() if len(found) == 1 else None


def given_run(words: list[str], given: Mapping[str, tuple[int, int]],
              surname: Mapping[str, int]) -> list[str]:
    """The leading words of a name that are given names more than surnames."""
    run = []
    for word in words:
        counts = given.get(fold(word), (0, 0))
        if sum(counts) == 0 or sum(counts) <= surname.get(fold(word), 0):
            break
        run.append(word)
    return run


def mixed_sex(run: list[str], given: Mapping[str, tuple[int, int]]) -> bool:
    """A compound given name whose words are of different sexes and that is not itself listed."""
    if len(run) < 2 or fold(" ".join(run)) in given:
        return False
    sexes = {dominant_sex(given.get(fold(w), (0, 0))) for w in run} - {None}
    return len(sexes) > 1


def name_clashes(pairs: Iterable[tuple[str, ...]], particles: set[str]) -> dict[str, set[str]]:
    """Original name word -> its surrogate words, where one word got two (in one note). Pairs are
    (original, surrogate[, field]) of person spans, ``field`` "given" or "surname" for a span of a
    "Nombre:" or "Apellidos:" header field; words are aligned by position when the counts match.
    A word that is one person's given name and another's surname (a field, or the first and the
    last word of a longer name: the patient "Alvaro", the Dra. Noelia Rubio Álvaro) is two names,
    one surrogate each: it clashes only if a role gets two, or a mention of no clear role a third."""
    aligned: list[tuple[str, str, str]] = []
    for pair in pairs:
        original, surrogate, field = (*pair, "")[:3]
        before = [w for w in letter_words(original, 2) if fold(w) not in particles]
        after = [w for w in letter_words(surrogate, 2) if fold(w) not in particles]
        if len(before) != len(after):
            continue
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            role = field or ("" if len(before) < 2 else "given" if i == 0 else
                             "surname" if i == len(before) - 1 else "")
            aligned.append((fold(a), role, fold(b)))
    roles: dict[str, set[str]] = defaultdict(set)
    for word, role, _ in aligned:
        if role:
            roles[word].add(role)
    seen: dict[str, set[str]] = defaultdict(set)
    for word, role, new in aligned:
        seen[f"{word} ({role})" if len(roles[word]) == 2 and role else word].add(new)
    clashes = {}
    for key, news in seen.items():
        both = len(roles[key]) == 2
        if len(news) > 1 and not both:
            clashes[key] = news
        if both and news - seen[f"{key} (given)"] - seen[f"{key} (surname)"]:
            clashes[key] = news | seen[f"{key} (given)"] | seen[f"{key} (surname)"]
    return clashes


def linked(surrogates_by_note: Mapping[str, Mapping[str, set[str]]]) -> tuple[int, int, list[str]]:
    """(originals replaced in >= 2 notes, of which with one surrogate in every note, those)."""
    repeated = same = 0
    examples = []
    for original, per_note in surrogates_by_note.items():
        if len(per_note) < 2:
            continue
        repeated += 1
        if len(set().union(*per_note.values())) == 1:
            same += 1
            examples.append(original)
    return repeated, same, examples


def present_as_word(needle: str, haystack_folded: str) -> bool:
    """Whether ``needle`` occurs in the (already folded) text as whole words."""
    key = fold(needle.strip())
    if not key:
        return False
    return re.search(r"(?<!\w)" + re.escape(key) + r"(?!\w)", haystack_folded) is not None


def age_under(text: str, limit: int, number_words: Mapping[str, int]) -> bool:
    """Whether an age span says fewer than ``limit`` years (digits, or number words summed)."""
    digits = _DIGITS.search(text)
    if digits:
        return int(digits.group()) < limit
    values = [number_words[fold(w)] for w in letter_words(text) if fold(w) in number_words]
    return bool(values) and sum(values) < limit


def kinship_or_home(text: str, words: set[str], number_words: Mapping[str, int]) -> bool:
    """A string that names a relative or the home country and nothing else that identifies:
    a kinship or home word, every other word in small letters (no name), numbers under 90
    ("tía materna", "madre de 34 años", "origen español"; not "su hermano Juan")."""
    found = letter_words(text)
    if not any(fold(w) in words for w in found):
        return False
    others = [w for w in found if fold(w) not in words]
    numbers = [int(n) for n in _DIGITS.findall(text)]
    return all(w.islower() for w in others) and all(n < 90 for n in numbers)


# --- the pack's vocabulary and reference data ------------------------------------------------


def home_words(data: SurrogateData) -> tuple[set[str], set[str]]:
    """The pack's home country (folded names and aliases: "España", "Spain") and its
    nationality words ("español", "española"…), from ``home_country`` in surrogates.yaml."""
    home = data.extra.get("home_country") or {}
    return {fold(a) for a in home.get("aliases", [])}, set(data.home_words)


def town_populations(data: SurrogateData) -> dict[str, float]:
    """Folded municipality name (each bilingual part too) -> population of its most populous reading."""
    population: dict[str, float] = {}
    for row in data.pack.table("municipality").rows:
        pop = float(row["population"] or 0)
        for part in {row["name"], *row["name"].split("/")}:
            key = fold(part.strip())
            population[key] = max(population.get(key, 0.0), pop)
    return population


def country_code(data: SurrogateData, name: str) -> str | None:
    """ISO code of a country name, through the pack's names, spellings and aliases."""
    return data.country_code.get(country_key(name))


def subregions(data: SurrogateData) -> tuple[dict[str, str] | None, str | None]:
    """ISO alpha-2 -> UN M49 sub-region and where it came from: country_converter's data file
    (independent of the pack) when installed, else the pack's own ``world_regions`` table (then
    the figure checks that the generator keeps its own regions, not that they are right)."""
    spec = importlib.util.find_spec("country_converter")
    path = (Path(next(iter(spec.submodule_search_locations))) / "country_data.tsv"
            if spec is not None and spec.submodule_search_locations else None)
    if path is not None and path.is_file():
        with path.open(encoding="utf-8", newline="") as handle:
            return ({r["ISO2"]: r["UNregion"] for r in csv.DictReader(handle, delimiter="\t")
                     if r.get("ISO2") and r.get("UNregion")}, CONVERTER)
    if data.region_of:
        return dict(data.region_of), "the pack's world_regions table"
    return None, None


def wordfreq_spellings() -> dict[str, dict[str, float]] | None:
    """Spellings from wordfreq's large Spanish list (None when wordfreq is missing)."""
    try:
        import wordfreq
    except ImportError:
        return None
    return spellings(wordfreq.get_frequency_dict("es", wordlist="large"))


# --- places that follow the surrogate town (postal codes, facilities, phones, pairs) ----------

#: How far (characters, same line) an item looks for the surrogate town it should agree with.
WINDOW = 80
FACILITIES = ("HOSPITAL", "CENTRO_SALUD")


def _get(record: Any, key: str) -> Any:
    return record[key] if isinstance(record, dict) else getattr(record, key)


def facility_provinces(data: SurrogateData, facilities: Any) -> dict[str, set[str]]:
    """Folded catalogue name (whole, without its type words, and without its type and qualifiers:
    the proper part a surrogate is built from) -> provinces it is in."""
    where: dict[str, set[str]] = {}
    for table in ("hospital", "health_centre"):
        for row in data.pack.table(table).rows:
            typ, _ = facilities.facility_type(row["name"])
            proper = re.sub(r"^(de|del)\s+", "", fold(facilities.proper(row["name"])))
            for key in {fold(row["name"]), fold(row["name"][len(typ):].strip()), proper}:
                where.setdefault(key, set()).add(row["province"])
    return where


def _provinces_of(data: SurrogateData, facilities: Any, catalogue: dict[str, set[str]],
                  label: str, surrogate: str) -> tuple[str, set[str]] | None:
    """(kind, provinces the surrogate belongs to), None when it says nothing about a province."""
    sur = surrogate.strip()
    if label == "TERRITORIO":
        if not re.fullmatch(r"E?-?\d{5}", sur):
            return None
        return "postal code", {data.code_province.get(sur[-5:-3], "?")}
    if label in ("NUMERO_TELEFONO", "NUMERO_FAX"):
        digits = re.sub(r"\D", "", sur)
        digits = digits[2:] if digits.startswith("34") and len(digits) == 11 else digits
        province = data.area_province(digits) if len(digits) == 9 and digits[0] == "9" else None
        return ("phone prefix", {province}) if province else None
    if label in FACILITIES:
        typ, _ = facilities.facility_type(sur)
        rest = re.sub(r"^(de|del)\s+", "", fold(sur[len(typ):].strip()))
        proper = re.sub(r"^(de|del)\s+", "", fold(facilities.proper(sur)))
        provinces = catalogue.get(fold(sur)) or catalogue.get(rest) or catalogue.get(proper) or set()
        return ("facility", provinces) if provinces else None
    return None


def place_agreement(data: SurrogateData, facilities: Any, catalogue: dict[str, set[str]],
                    new_text: str, records: Iterable[Any]) -> Counter:
    """Counts, for one pseudonymised note: for each postal code, hospital/centre (from the
    catalogue) and fixed phone with a surrogate town within ``WINDOW`` characters on its line,
    whether it is in that town's province ("<kind> near a town", "<kind> in the town's
    province"); for each "Town (Province)" / "Town, Province" pair of the output, whether the
    province written is the town's; and whether capitals stayed capitals of their size class."""
    counts: Counter = Counter()
    rows = [r for r in records if _get(r, "surrogate") and _get(r, "new_start") is not None
            and _get(r, "new_start") >= 0]
    towns: list[tuple[int, int, str, str]] = []
    for r in rows:
        if _get(r, "label") != "TERRITORIO":
            continue
        sur = new_text[_get(r, "new_start"):_get(r, "new_end")].strip()
        found = data.find_town(sur)
        if found is not None and not re.fullmatch(r"\d{5}", sur):
            towns.append((_get(r, "new_start"), _get(r, "new_end"), found[1], sur))
    for r in rows:
        label, a, b = _get(r, "label"), _get(r, "new_start"), _get(r, "new_end")
        found = _provinces_of(data, facilities, catalogue, label, new_text[a:b])
        if found is None:
            continue
        kind, provinces = found
        near = [(min(abs(t0 - b), abs(a - t1)), province) for t0, t1, province, _ in towns
                if min(abs(t0 - b), abs(a - t1)) <= WINDOW and "\n" not in new_text[min(a, t0):max(b, t1)]]
        if not near:
            continue
        province = min(near)[1]
        counts[f"{kind} near a town"] += 1
        counts[f"{kind} in the town's province"] += province in provinces
        if province not in provinces:
            start = new_text.rfind("\n", 0, a) + 1
            end = new_text.find("\n", b)
            line = new_text[start:end if end >= 0 else None][:160]
            counts.setdefault("_disagree", []).append(  # type: ignore[call-overload]
                f"{kind}: {province} vs {sorted(provinces)} | {line}")
    for (t0, t1, town_province, _), (p0, p1, _, written) in itertools.pairwise(towns):
        between = new_text[t1:p0]
        province = data.province_lookup.get(fold(written))
        if province is None or not re.fullmatch(r"\s*[(,/.-]\s*|\s+", between):
            continue
        counts["town, province pairs"] += 1
        counts["town, province pairs consistent"] += province == town_province
        if province != town_province:
            start = new_text.rfind("\n", 0, t0) + 1
            counts.setdefault("_disagree", []).append(  # type: ignore[call-overload]
                f"pair: {new_text[start:new_text.find(chr(10), p1)][:160]}")
    return counts


# --- the run ------------------------------------------------------------------------------


def records_of(doc: Document, result) -> list[dict[str, Any]]:
    """Audit records as dicts, with the original and the new text (unknown fields kept)."""
    out = []
    for record in result.audit:
        row = dict(record.to_json()) if hasattr(record, "to_json") else dict(vars(record))
        start, end = int(row.get("start", -1)), int(row.get("end", -1))
        new_start, new_end = int(row.get("new_start", -1)), int(row.get("new_end", -1))
        row["original"] = doc.text[start:end] if start >= 0 else ""
        row["new"] = result.text[new_start:new_end] if new_start >= 0 else ""
        out.append(row)
    return out


def replaced(row: Mapping[str, Any]) -> bool:
    """A record whose span was given a surrogate (not kept, not masked, not inside another)."""
    return (row.get("surrogate") is not None and row.get("strategy") not in ("overlap", "keep")
            and row.get("fallback") != "mask" and row.get("new_start", -1) >= 0)


class Report:
    """Counters and missed cases of every figure."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.misses: dict[str, list[Any]] = defaultdict(list)

    def add(self, name: str, ok: bool, case: Any = None) -> None:
        self.counts[name + "_n"] += 1
        if ok:
            self.counts[name + "_ok"] += 1
        elif case is not None:
            self.misses[name].append(case)

    def share(self, name: str) -> float | None:
        return pct(self.counts[name + "_ok"], self.counts[name + "_n"])


def gold_pass(
    gold: Mapping[str, Document], seed: int, data: SurrogateData,
    standard: dict[str, dict[str, float]] | None, regions: dict[str, str] | None,
    named: Mapping[str, Mapping[str, Mapping[str, float]]] | None = None,
) -> tuple[Report, dict]:
    """Figures 1-10 and the two extra counts, from the gold spans."""
    named = named or {}
    deidentifier = DeidentifierSpec(from_annotations=True, seed=seed).build()
    vocabulary = pack_vocabulary(data.pack.language)
    population = town_populations(data)
    capitals = {fold(c) for c in data.capitals.values()}
    home, nationality = home_words(data)
    report = Report()
    facilities = build_registry(data)["HOSPITAL"]
    catalogue = facility_provinces(data, facilities)
    linkage: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    extra: dict[str, Any] = {"unknown_words": Counter(), "mixed_sex": [], "clashes": []}
    for doc in gold.values():
        result = deidentifier.deidentify(doc)
        rows = records_of(doc, result)
        sex = note_sex((r["original"] for r in rows if r.get("label") == "SEXO_SUJETO_ASISTENCIA"),
                       data.sex_words)
        # 1. home country and nationality words inside spans
        for r in rows:
            words = [fold(w) for w in letter_words(r["original"])]
            if r.get("label") == "PAIS" and fold(r["original"].strip()) in home:
                report.add("home", fold(r["new"].strip()) == fold(r["original"].strip()),
                           (doc.id, r["original"], r["new"]))
            elif r.get("label") not in ORGANISATIONS and any(w in nationality or w in home for w in words):
                kept = {fold(w) for w in letter_words(r["new"])}
                ok = all(w in kept for w in words if w in nationality or w in home)
                report.add("home", ok, (doc.id, r.get("label"), r["original"], r["new"]))
        # 9. masks in running text
        for match in _MASK.finditer(result.text):
            if match.group(1) in GUIDELINE_LABELS:
                report.counts["masks"] += 1
                report.misses["masks"].append((doc.id, match.group()))
        agree = place_agreement(data, facilities, catalogue, result.text, result.audit)
        for kind, name in (("postal code", "postal"), ("facility", "facility"), ("phone prefix", "phone")):
            report.counts[name + "_n"] += agree[f"{kind} near a town"]
            report.counts[name + "_ok"] += agree[f"{kind} in the town's province"]
        report.counts["pairs_n"] += agree["town, province pairs"]
        report.counts["pairs_ok"] += agree["town, province pairs consistent"]
        report.misses["places"].extend((doc.id, line) for line in agree.get("_disagree", []))
        pairs_of_person: list[tuple[str, str, str]] = []
        for r in rows:
            label, original, new = r.get("label"), r["original"], r["new"]
            if not replaced(r):
                continue
            linkage[f"{label}|{normalise(original)}"][doc.id].add(normalise(new))
            # 5. known words
            invented = invented_words(original, new, label, vocabulary)
            for word in letter_words(new, 2):
                report.add("known", word not in invented)
            for word in invented:
                extra["unknown_words"][(label, word)] += 1
            # 6. accents
            if label in ACCENT_LABELS and (standard is not None or named):
                kind = named.get("place" if label == "TERRITORIO" else "person", {})
                for word in letter_words(new, 2):
                    check = named_accent_check(word, kind, standard)
                    if check is not None:
                        attested = kind.get(accent_key(word))
                        expected = ("/".join(sorted(attested)) if attested
                                    else standard_form(word, standard or {}))
                        report.add("accent", check, (doc.id, label, word, expected))
            # 2. foreign countries
            if label == "PAIS" and fold(original.strip()) not in home | nationality:
                a, b = country_code(data, original.strip()), country_code(data, new.strip())
                if regions is not None and a in regions and b in regions:
                    report.add("subregion", regions[a] == regions[b],
                               (doc.id, original, regions[a], new, regions[b]))
                else:
                    report.counts["subregion_unresolved"] += 1
            # 3. towns
            if label == "TERRITORIO" and str(r.get("note") or "").startswith("province"):
                report.counts["provinces_following_their_town"] += 1  # "Alcobendas (Madrid)"
            elif label == "TERRITORIO" and fold(original.strip()) in population:
                before_pop = population[fold(original.strip())]
                after_pop = population.get(fold(new.strip()))
                if after_pop is None:
                    report.counts["towns_not_a_town"] += 1
                    report.misses["towns_not_a_town"].append((doc.id, original, new))
                else:
                    case = (doc.id, original, int(before_pop), new, int(after_pop))
                    if before_pop >= BIG_CITY:
                        report.add("big_city", after_pop >= BIG_CITY, case)
                    report.add("size_class", size_class(before_pop) == size_class(after_pop), case)
                    if fold(original.strip()) in capitals:
                        report.add("capital", fold(new.strip()) in capitals, case)
            # 4. s/n
            if label == "CALLE" and _SN.search(original):
                report.add("sn", _SN.search(new) is not None, (doc.id, original, new))
            # 8. profession gender
            if label == "PROFESION" and sex is not None:
                pair = data.profession_lookup.get(fold(new.strip()))
                if pair is None:
                    report.counts["profession_unknown"] += 1
                else:
                    masculine = fold(new.strip()) == fold(pair[0])
                    gender = None if pair[0] == pair[1] else "m" if masculine else "f"
                    report.add("profession", gender in (None, sex), (doc.id, sex, original, new))
            if label in PERSON_LABELS:
                line = doc.text[doc.text.rfind("\n", 0, r["start"]) + 1:r["start"]]
                field = "surname" if _SURNAMES_FIELD.search(line) else (
                    "given" if _GIVEN_FIELD.search(line) else "")
                pairs_of_person.append((original, new, field))
                words = letter_words(new, 2)
                before_run = given_run(letter_words(original, 2), data.given, data.surname)
                run = given_run(words, data.given, data.surname)
                case = (doc.id, original, new)
                mixed = mixed_sex(run[: len(before_run)], data.given) and not mixed_sex(
                    before_run, data.given)
                if mixed and case not in extra["mixed_sex"]:
                    report.counts["mixed_sex"] += 1
                    extra["mixed_sex"].append(case)
                # 7. patient first name and sex
                surnames_field = _SURNAMES_FIELD.search(
                    doc.text[doc.text.rfind("\n", 0, r["start"]) + 1:r["start"]])
                if (label == "NOMBRE_SUJETO_ASISTENCIA" and sex is not None and before_run
                        and not surnames_field):
                    compound = fold(" ".join(run))
                    key = compound if len(run) > 1 and compound in data.given else (
                        fold(words[0]) if words else "")
                    got = dominant_sex(data.given.get(key, (0, 0)))
                    why = f"surrogate sex {got}" if got else "surrogate is not a given name"
                    report.add("patient_sex", got == sex, (doc.id, f"Sexo {sex}", original, new, why))
        for word, surrogates in name_clashes(pairs_of_person, data.name_particles).items():
            report.counts["clashes"] += 1
            extra["clashes"].append((doc.id, word, sorted(surrogates)))
    repeated, same, examples = linked(linkage)
    report.counts["linkage_n"], report.counts["linkage_ok"] = repeated, same
    extra["linked_examples"] = examples
    return report, extra


def handled(doc_span: tuple[int, int], audit: Iterable[Any]) -> Any | None:
    """The audit record of the run that covers a gold span (the tool found it), if any."""
    start, end = doc_span
    for record in audit:
        if record.start <= start and end <= record.end and record.start < record.end:
            return record
    return None


def excepted(text: str, label: str, data: SurrogateData, words: set[str]) -> str | None:
    """Why a gold string does not count as identifying, or None. Ages under 90 (an age span that
    names no number of 90 or more, "cuarto mes", "recién nacida"; or a number with age units
    under any label, "madre, 30 años"); a relative named by kinship words alone, every word in
    small letters and numbers under 90 ("tía materna", "familia de nueve miembros"); the home
    country and its nationality."""
    numbers = [int(n) for n in _DIGITS.findall(text)] + [
        data.age_numbers[fold(w)] for w in letter_words(text) if fold(w) in data.age_numbers]
    if label == "EDAD_SUJETO_ASISTENCIA" and all(n < 90 for n in numbers):
        return "age under 90"
    units = letter_words(text)
    if (_DIGITS.search(text) and units and all(fold(w) in data.age_units for w in units)
            and age_under(text, 90, data.age_numbers)):
        return "age under 90"
    if label == "FAMILIARES_SUJETO_ASISTENCIA" and all(w.islower() for w in units) and all(
            n < 90 for n in numbers):
        return "kinship"
    if kinship_or_home(text, words, data.age_numbers):
        return "kinship or home country"
    return None


def model_pass(gold: Mapping[str, Document], seed: int, data: SurrogateData) -> dict[str, Any]:
    """Figure 11: distinct gold strings of each note still in that note's output with the embedded
    model. A string the run found and handled on purpose is counted apart, not as a leak: a date
    the whole-week shift left in the same month or year ("junio", "2005": the audit shows it
    shifted), a description the pack keeps because it identifies no one ("lactante", "casada":
    the audit says kept; the pack's ``descriptions_kept``), a month alone that is not shifted.
    A string the model missed, or replaced by something that still shows it, counts whatever
    it is. ``strict_leak_pct`` counts every one."""
    deidentifier = DeidentifierSpec(seed=seed).build()
    words = {fold(w) for w in data.pack.kinship} | set().union(*home_words(data))
    distinct = 0
    leaks: list[tuple[str, str, str]] = []
    apart: Counter = Counter()
    apart_cases: list[tuple[str, str, str, str]] = []
    for doc in gold.values():
        result = deidentifier.deidentify(Document(doc.id, doc.text))
        output = fold(result.text)
        strings: dict[str, tuple[str, list[tuple[int, int]]]] = {}
        for span in doc.spans:
            text = doc.text[span.start:span.end].strip()
            if span.label == "SEXO_SUJETO_ASISTENCIA" or not text:
                continue
            if excepted(text, span.label, data, words):
                continue
            strings.setdefault(fold(text), (span.label, []))[1].append((span.start, span.end))
        for key, (label, places) in strings.items():
            distinct += 1
            if not present_as_word(key, output):
                continue
            records = [handled(place, result.audit) for place in places]
            why = None
            if all(r is not None for r in records):
                notes = " ".join(r.note or "" for r in records)
                if all(r.label == "FECHAS" and r.surrogate is not None for r in records):
                    why = "date shifted into the same month or year"
                elif all(r.label == "FECHAS" for r in records) and "not shifted" in notes:
                    why = "a month alone, not shifted"
                elif all(r.surrogate is None and "kept" in (r.note or "") for r in records):
                    why = "a description kept by the pack (identifies no one on its own)"
            if why:
                apart[why] += 1
                apart_cases.append((doc.id, label, key, why))
            else:
                leaks.append((doc.id, label, key))
    return {"distinct_gold_strings": distinct, "leaked": len(leaks),
            "end_to_end_leak_pct": pct(len(leaks), distinct), "leaks": leaks,
            "strict_leak_pct": pct(len(leaks) + sum(apart.values()), distinct),
            "handled_on_purpose": dict(apart), "handled_cases": apart_cases}


def figures(report: Report, model: dict[str, Any] | None) -> dict[str, Any]:
    c = report.counts
    out: dict[str, Any] = {
        "home_country_kept_pct": report.share("home"),
        "foreign_country_same_subregion_pct": report.share("subregion"),
        "big_city_kept_pct": report.share("big_city"),
        "size_class_kept_pct": report.share("size_class"),
        "capital_kept_pct": report.share("capital"),
        "sn_kept_pct": report.share("sn"),
        "postal_code_in_town_province_pct": report.share("postal"),
        "facility_in_town_province_pct": report.share("facility"),
        "phone_prefix_in_town_province_pct": report.share("phone"),
        "town_province_pairs_pct": report.share("pairs"),
        "known_words_pct": report.share("known"),
        "standard_accent_pct": report.share("accent"),
        "patient_name_sex_pct": report.share("patient_sex"),
        "profession_gender_pct": report.share("profession"),
        "masks_in_text": c["masks"],
        "linkage_without_key_pct": report.share("linkage"),
        "end_to_end_leak_pct": model["end_to_end_leak_pct"] if model else None,
        "end_to_end_strict_pct": model["strict_leak_pct"] if model else None,
        "name_clashes": c["clashes"],
        "mixed_sex_compounds": c["mixed_sex"],
    }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False
    )
    parser.add_argument("corpus", nargs="?", type=Path, default=meddocan_dir(),
                        help="MEDDOCAN folder with train/ and dev/ (default: ../shared/corpora/meddocan)")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--sources", type=Path, default=None,
                        help="the shared sources folder (lists of names and places for figure 6; "
                             "default: sources/ beside the corpora folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-model", action="store_true", help="skip figure 11 (the embedded model's run)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "realism.json")
    args = parser.parse_args()
    if args.corpus is None or not (args.corpus / args.split).is_dir():
        print("MEDDOCAN corpus not found: pass its folder or set CRFDEID_MEDDOCAN", file=sys.stderr)
        return 2
    gold = load_annotations(args.corpus / args.split)
    data = surrogate_data("es")
    standard = wordfreq_spellings()
    if standard is None:
        print("wordfreq is not installed (pip install wordfreq, or the 'bench' extra): "
              "figure 6 is not measured", file=sys.stderr)
    regions, regions_source = subregions(data)
    if regions_source != CONVERTER:
        print("country_converter is not installed (pip install country_converter --no-deps): "
              f"figure 2 uses {regions_source}", file=sys.stderr)
    started = time.perf_counter()
    sources = args.sources or args.corpus.resolve().parent.parent / "sources"
    named = name_spellings(sources if sources.is_dir() else None)
    report, extra = gold_pass(gold, args.seed, data, standard, regions, named)
    model = None if args.no_model else model_pass(gold, args.seed, data)
    values = figures(report, model)
    c = report.counts
    counts = {
        "home_country_kept": [c["home_ok"], c["home_n"]],
        "foreign_country_same_subregion": [c["subregion_ok"], c["subregion_n"],
                                           {"unresolved": c["subregion_unresolved"]}],
        "big_city_kept": [c["big_city_ok"], c["big_city_n"]],
        "size_class_kept": [c["size_class_ok"], c["size_class_n"],
                            {"surrogate_not_a_town": c["towns_not_a_town"],
                             "provinces_following_their_town": c["provinces_following_their_town"]}],
        "capital_kept": [c["capital_ok"], c["capital_n"]],
        "sn_kept": [c["sn_ok"], c["sn_n"]],
        "postal_code_in_town_province": [c["postal_ok"], c["postal_n"]],
        "facility_in_town_province": [c["facility_ok"], c["facility_n"]],
        "phone_prefix_in_town_province": [c["phone_ok"], c["phone_n"]],
        "town_province_pairs": [c["pairs_ok"], c["pairs_n"]],
        "known_words": [c["known_ok"], c["known_n"]],
        "standard_accent": [c["accent_ok"], c["accent_n"]],
        "patient_name_sex": [c["patient_sex_ok"], c["patient_sex_n"]],
        "profession_gender": [c["profession_ok"], c["profession_n"], {"unknown": c["profession_unknown"]}],
        "linkage_without_key": [c["linkage_ok"], c["linkage_n"]],
    }
    if model:
        counts["end_to_end_leak"] = [model["leaked"], model["distinct_gold_strings"]]
    print(f"{'figure':<38} {'value':>8}  target    verdict  counts")
    verdicts = {}
    for name, value in values.items():
        target = TARGETS.get(name)
        verdicts[name] = verdict(value, target) if target else "-"
        shown = "-" if value is None else value
        goal = f"{target[0]} {target[1]!s:<6}" if target else f"{'(none)':<9}"
        print(f"{name:<38} {shown!s:>8}  {goal} {verdicts[name]:<8} "
              f"{counts.get(name.removesuffix('_pct'), '')}")
    unknown = extra["unknown_words"].most_common()
    print(f"\nwords not found in the pack's lists ({len(unknown)} distinct):")
    print("  " + ", ".join(f"{w} ({label}) x{n}" for (label, w), n in unknown[:40]))
    for name in ("home", "subregion", "big_city", "capital", "sn", "places", "accent", "patient_sex",
                 "profession", "masks", "towns_not_a_town"):
        if report.misses.get(name):
            print(f"\nmissed, {name} ({len(report.misses[name])}):")
            for case in report.misses[name][:SHOWN]:
                print("  ", case)
    for name in ("mixed_sex", "clashes"):
        if extra[name]:
            print(f"\n{name} ({len(extra[name])}):")
            for case in extra[name][:SHOWN]:
                print("  ", case)
    if model and model["handled_cases"]:
        print(f"\nin the output, handled on purpose (not leaks): {model['handled_on_purpose']}")
        for case in model["handled_cases"][:SHOWN]:
            print("  ", case)
    if model and model["leaks"]:
        print(f"\nleaked end to end ({len(model['leaks'])}):")
        for case in model["leaks"][:40]:
            print("  ", case)
    results = {
        "command": "python benchmarks/realism.py " + " ".join(sys.argv[1:]),
        "split": args.split, "documents": len(gold), "seed": args.seed, "keyed": False,
        "figures": values, "targets": {k: list(v) for k, v in TARGETS.items()}, "verdicts": verdicts,
        "counts": counts,
        "misses": {k: v for k, v in report.misses.items()},
        "unknown_words": [[label, w, n] for (label, w), n in unknown],
        "mixed_sex_compounds": extra["mixed_sex"], "name_clashes": extra["clashes"],
        "linked_originals": extra["linked_examples"],
        "end_to_end_leaks": model["leaks"] if model else None,
        "end_to_end_handled_on_purpose": model["handled_cases"] if model else None,
        "sources": {"standard_accent": {"words": "wordfreq es large" if standard is not None else None,
                                                "names": name_sources(sources if sources.is_dir() else None)},
                    "subregion": regions_source},
        "seconds": round(time.perf_counter() - started, 1),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
