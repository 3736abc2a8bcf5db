"""The language pack's lists, arranged once for drawing surrogates (weighted pools, lookups).

Everything language-specific comes from the pack (``crfdeid.langpack``): the gazetteer tables and
the ``surrogate`` closed list (``gazetteers/<lang>/surrogates.yaml``). This module only reshapes.
"""

from __future__ import annotations

import itertools
import operator
import random
import re
import threading
from array import array
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from ..langpack import LanguagePack, PackError, fold, load_pack
from .base import cumulative, weighted_choice
from .numbering import build_plans

#: Readings of a date of two numbers a pack may add (``date_readings``): "12.4." (day, month),
#: "03/19" (month, two-digit year).
DATE_READINGS = ("day_month", "month_year")
#: Pool sizes: surrogates come from the frequent names, weighted by frequency, so they read as
#: ordinary Spanish names rather than rarities that would stand out.
GIVEN_POOL = 400
SURNAME_POOL = 1500
#: Bearers a pack's hypocoristic given name counts as ("Mari"): a given name first in a name,
#: under the surname Marí's count in the middle of one.
HYPOCORISTIC_BEARERS = 5000
#: A given name is "of both sexes" when the rarer sex bears it at least this often.
UNISEX_RATIO = 0.15
_PLAIN_NAME = re.compile(r"(?!.*\b(?:S\.? ?L|S\.? ?A|SLU)\b)(?!.*[ºª])[\w' -]+")
#: A word in this many of the pack's facility names is no facility's own ("san", "virgen").
FACILITY_COMMON = 20
_FACILITY_WORD = re.compile(r"[^\W\d_]+")
#: An organisation's acronym as its list writes it: capitals, maybe a hyphen ("SNS-O").
_ACRONYM_FORM = re.compile(r"[A-ZÁÉÍÓÚÑ]{2,}(?:-[A-ZÁÉÍÓÚÑ]{1,3})?")
_TEMPLATE_SLOT = re.compile(r"\{[^}]*\}")
UNISEX_POOL = 10  # the most frequent ones only: further down the list they turn exotic
#: The neutral words a pack must define (``neutral:`` in surrogates.yaml), one per class: what a
#: span becomes when no level of its generator's fallback chain gives a safe surrogate.
NEUTRAL_CATEGORIES = (
    "person", "relative", "date", "age", "profession", "hospital", "health_centre", "institution",
    "street", "town", "province", "community", "postal_code", "country", "phone", "fax", "email",
    "url", "ip", "identifier", "description",
)

#: A place name as Western European spelling writes it: Latin letters with the accents of
#: Spanish, Catalan, French and Portuguese, spaces, hyphens, apostrophes and full stops; a
#: surrogate with a macron or a caron ("Ar Rayyān" for Doha in the tenth set written blind) told
#: the reader where it came from.
_WRITABLE = re.compile(r"[A-Za-zÁÉÍÓÚÜÑÀÈÌÒÙÇÃÕÂÊÎÔÛËÏáéíóúüñàèìòùçãõâêîôûëï' .’-]+")


@dataclass(frozen=True)
class Pool:
    """Items with cumulative weights, ready for ``random.choices``."""

    items: list[str]
    cum: Sequence[float]

    @classmethod
    def of(cls, pairs: list[tuple[str, float]]) -> Pool:
        return cls([p[0] for p in pairs], cumulative(p[1] for p in pairs))

    @cached_property
    def weights(self) -> list[float]:
        """The weights behind the cumulative weights (their differences), worked out once: a
        pool is filtered many ways (``where``)."""
        return list(map(operator.sub, self.cum, [0.0, *self.cum[:-1]]))

    def where(self, keep: list[bool]) -> Pool | None:
        """The items whose ``keep`` is true, with their weights (None if none is left): the
        cumulative weights are added up again, in order, as ``Pool.of`` would."""
        items = list(itertools.compress(self.items, keep))
        if not items:
            return None
        totals = array("d", itertools.accumulate(itertools.compress(self.weights, keep), initial=0.0))
        del totals[0]
        return Pool(items, totals)

    def __bool__(self) -> bool:
        return bool(self.items)

    def choose(self, rng: random.Random) -> str:
        """One item, drawn by weight."""
        return weighted_choice(rng, self.items, self.cum)


#: A street name found in the council addresses of this many provinces or more is common enough
#: to be plausible anywhere ("Mayor", "Real", "Cervantes"): what a street becomes when the note
#: gives no province to draw from.
COMMON_STREET_PROVINCES = 3
#: Street types of thoroughfares: a street name containing one of their words ("Plaza", "La
#: Plaza", "Carretera") would double the type of a surrogate ("Calle Plaza").
_THOROUGHFARES = ("calle", "avenida", "plaza", "paseo", "carretera", "ronda", "travesía", "glorieta",
                  "rambla", "bulevar", "callejón", "pasaje", "alameda", "urbanización", "polígono")
_WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str) -> tuple[str, ...]:
    """The folded letter words of a text."""
    return tuple(_WORD.findall(fold(text)))


def contains_words(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """Does ``phrase`` occur in ``words`` as consecutive whole words?"""
    n = len(phrase)
    return n > 0 and any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


class Phrases:
    """Phrases (word tuples) indexed by their first word: ``found_in(words)`` is
    ``any(contains_words(words, p) for p in phrases)`` without trying every phrase at every
    word (thousands of streets against the pack's list of names no longer in use)."""

    def __init__(self, phrases: list[tuple[str, ...]]) -> None:
        self._by_first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for phrase in phrases:
            if phrase:
                self._by_first[phrase[0]].append(phrase)

    def found_in(self, words: tuple[str, ...]) -> bool:
        by_first = self._by_first
        return any(words[i : i + len(p)] == p
                   for i, w in enumerate(words) if w in by_first for p in by_first[w])


def fold_all(texts: list[str]) -> list[str]:
    """``[fold(t) for t in texts]`` as one ``fold`` of the texts joined by line feeds: folding
    is character by character (no mark crosses a line feed, none folds into one), so the
    pieces are the folds; a pack's columns of 50,000 names fold in one call. Texts that hold a
    line feed themselves are folded one by one."""
    joined = "\n".join(texts)
    if joined.count("\n") != max(len(texts) - 1, 0):
        return [fold(t) for t in texts]
    return fold(joined).split("\n") if texts else []


#: Town size classes by population: a city (100,000 people or more), a town (20,000 or more),
#: a village. A surrogate keeps its original's class where the province has towns of it.
SIZE_CLASSES = ("city", "town", "village")


def size_class(population: float) -> str:
    return "city" if population >= 100_000 else "town" if population >= 20_000 else "village"


def country_key(name: str) -> str:
    """How a country name is looked up: folded, without dots, spaces or hyphens ("EE. UU." ->
    "eeuu")."""
    return re.sub(r"[.\s\-]+", "", fold(name))


def display(name: str) -> str:
    """The first spelling of a bilingual name ("Pamplona/Iruña" -> "Pamplona"), its article
    put back in front where the register writes it after a comma ("Campello, el" -> "El
    Campello", "Alfàs del Pi, l'" -> "L'Alfàs del Pi": a surrogate "vive en Campello, el" told
    the reader a register had been read)."""
    first = name.split("/")[0].strip()
    inverted = _INVERTED_ARTICLE.fullmatch(first)
    if inverted is None:
        return first
    article = inverted["article"].capitalize()
    return f"{article}{inverted['name']}" if article.endswith("'") else f"{article} {inverted['name']}"


#: A register's name with its article after a comma ("Campello, el", "Alfàs del Pi, l'").
_INVERTED_ARTICLE = re.compile(r"(?P<name>.+), (?P<article>el|la|los|las|els|les|l'|lo|o|a|os|as)")


#: A surname of the table made of a particle and one word ("De la Vega", "Del Pozo", "De Haro").
_PARTICLE_SURNAME = re.compile(r"(?P<particle>[Dd]e(?: la| las| los)?|[Dd]el) (?P<name>[A-ZÁÉÍÓÚÑÜ][^\s-]+)")
#: Tables built the first time one of their attributes is read, by the method that builds them
#: all (attribute -> method): the name lists, streets, professions and foreign places are a third
#: of the build, and a note without a name or a street never needs them. What they are built from
#: is read and checked when the pack loads; these methods only reshape it (a count that is no
#: number, which the pack's loader lets through, is met when its table is first read).
LAZY = {
    **dict.fromkeys(("given", "given_pool", "given_either", "surname", "surname_pool", "surname_all",
                     "particle_surnames"), "_names"),
    **dict.fromkeys(("streets", "streets_in", "common_streets", "street_endings", "national_roads",
                     "po_boxes", "district_kinds", "district_names"), "_streets"),
    **dict.fromkeys(("profession_lookup", "profession_isco", "professions_by_group", "professions",
                     "profession_heads", "profession_forms"), "_professions"),
    **dict.fromkeys(("foreign_places", "foreign_major", "foreign_lookup"), "_foreign"),
}
#: One table built at a time (threads sharing the data wait for it rather than build it twice).
_BUILDING = threading.RLock()


class SurrogateData:
    """Weighted pools and lookups for every generator, built from one language pack (the
    tables of ``LAZY`` on first use)."""

    def __getattr__(self, name: str) -> Any:
        """A table of ``LAZY``, built now (called only for an attribute not set yet)."""
        builder = LAZY.get(name)
        if builder is None or "pack" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        with _BUILDING:
            if name not in self.__dict__:
                getattr(self, builder)(self.pack)
        return self.__dict__[name]

    def built(self) -> set[str]:
        """The methods of ``LAZY`` that have run (the tables read so far)."""
        return {method for name, method in LAZY.items() if name in self.__dict__}

    def __init__(self, pack: LanguagePack) -> None:
        self.pack = pack
        extra: dict[str, Any] = dict(pack.surrogate)
        if not extra:
            raise PackError(
                f"language pack {pack.language!r} has no surrogate data",
                pack.path / "pack.yaml",
                hint="add closed_lists: {surrogate: surrogates.yaml} (see gazetteers/es)",
            )
        self.extra = extra
        self._places(pack)
        self._facilities(pack)
        self.email_providers = {fold(d) for d in extra["email_providers"]}
        self.domain_words = list(extra["domain_words"])
        self.name_particles = {fold(w) for w in extra["name_particles"]}
        #: "del" -> the given names said after "María del" (folded words -> their names)
        self.devotional: dict[str, tuple[str, ...]] = {
            " ".join(fold(w) for w in words.split()): tuple(names)
            for words, names in (extra.get("devotional_names") or {}).items()
        }
        self.address_words = {fold(w) for w in extra["address_words"]}
        self.sex_words = {fold(w): sex for sex, words in extra["sex_words"].items() for w in words}
        self.age_units = {fold(w): unit for unit, words in extra["age_units"].items() for w in words}
        self.age_generalised = str(extra["age_generalised"])
        self.age_numbers: dict[str, int] = {}
        for value, forms in extra["age_number_words"].items():
            if not str(value).isdigit():
                where = pack.path / "surrogates.yaml"
                raise PackError(f"'age_number_words': {value!r} is not a number", where)
            for form in [forms] if isinstance(forms, str) else forms:
                self.age_numbers[fold(form)] = int(value)
        templates = {
            fold(k): list(v) if isinstance(v, list) else [v] for k, v in extra["institutions"].items()
        }
        self.institution_default = templates.pop("default", ["{surname}"])
        #: the generic names after a feminine article ("la Empresa Gil", not "la Laboratorios Gil")
        self.institution_feminine = templates.pop("default feminine", [])
        self.institution_acronyms = sorted(str(k) for k in extra["institution_acronyms"])
        self._institution_acronyms = frozenset(fold(k) for k in self.institution_acronyms)
        self.institutions = sorted(templates.items(), key=lambda kv: -len(kv[0]))
        #: bodies whose name alone says where ("Ertzaintza", "Mossos d'Esquadra"): never kept
        self.institutions_regional = frozenset(fold(w) for w in extra.get("institutions_regional") or ())
        self.neutral = self._neutral(pack, extra["neutral"])
        #: words a description may open with that are kept alone ("tatuaje"): the kind of mark
        self.description_heads = frozenset(fold(w) for w in extra.get("description_heads") or ())
        self.descriptions_kept = {
            fold(w) for words in (extra.get("descriptions_kept") or {}).values() for w in words
        }
        self.name_acronyms = frozenset(fold(w) for w in extra.get("name_acronyms") or ())
        #: capitals of clinical text that are no one's initials ("HTA", "TAC", "NHC"), folded
        self.medical_acronyms = frozenset(fold(w) for w in extra.get("medical_acronyms") or ())
        self.date_readings = self._date_readings(pack, extra.get("date_readings") or {})
        #: value -> its words as written (the ages' number words and ``date_number_words``), the
        #: first form of each the one a surrogate writes: a date in words is shifted in words
        self.number_words: dict[int, tuple[str, ...]] = {}
        for section in ("age_number_words", "date_number_words"):
            for value, forms in (extra.get(section) or {}).items():
                if not str(value).isdigit():
                    raise PackError(f"{section!r}: {value!r} is not a number", pack.path / "surrogates.yaml")
                self.number_words[int(value)] = tuple([forms] if isinstance(forms, str) else forms)
        self.patient_sex_phrases = {
            sex: [phrases] if isinstance(phrases, str) else list(phrases)
            for sex, phrases in (extra.get("patient_sex_phrases") or {}).items()
        }
        if not set(self.patient_sex_phrases) <= {"m", "f"}:
            raise PackError("'patient_sex_phrases': the sexes are m and f", pack.path / "surrogates.yaml")
        #: word endings of a feminine profession (``feminine_endings``; None: the Spanish rule)
        self.feminine_endings = tuple(fold(e) for e in extra["feminine_endings"]) \
            if "feminine_endings" in extra else None
        self._community_adjectives(pack)
        # islands by archipelago (surrogates.yaml ``islands``): an island becomes another of its
        # archipelago ("Tenerife" -> "Lanzarote"); every name of a bilingual one is the island
        self.islands: dict[str, tuple[str, ...]] = {}
        for group in (self.extra.get("islands") or {}).values():
            names = tuple(str(n) for n in ([group] if isinstance(group, str) else group))
            for name in names:
                for part in name.split("/"):
                    self.islands[fold(part.strip())] = names

    def _community_adjectives(self, pack: LanguagePack) -> None:
        """Adjectives of the communities ("andaluz", "castellano-leonés"), four forms each:
        folded form -> (community, form index), and community -> forms."""
        where = pack.path / "surrogates.yaml"
        self.community_adjectives: dict[str, list[str]] = {}
        self.community_adjective: dict[str, tuple[str, int]] = {}
        for community, forms in (self.extra.get("community_adjectives") or {}).items():
            if community not in self.communities:
                raise PackError(f"'community_adjectives': {community!r} is not in the community table", where)
            if not isinstance(forms, list) or len(forms) != 4:
                raise PackError(f"'community_adjectives': {community} needs 4 forms (m, f, m pl, f pl)",
                                where)
            self.community_adjectives[community] = [str(f) for f in forms]
            for index, form in enumerate(forms):
                self.community_adjective.setdefault(fold(str(form)), (community, index))

    @staticmethod
    def _date_readings(pack: LanguagePack, raw: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """``date_readings``: the readings of two numbers a date of the language may be (reading
        -> the separators between them)."""
        unknown = sorted(set(raw) - set(DATE_READINGS))
        if unknown:
            raise PackError(f"'date_readings': unknown reading(s) {', '.join(unknown)}",
                            pack.path / "surrogates.yaml", hint=f"readings: {', '.join(DATE_READINGS)}")
        return {k: tuple([v] if isinstance(v, str) else v) for k, v in raw.items()}

    @staticmethod
    def _neutral(pack: LanguagePack, raw: dict[str, Any]) -> dict[str, str]:
        missing = [c for c in NEUTRAL_CATEGORIES if c not in raw]
        unknown = [c for c in raw if c not in NEUTRAL_CATEGORIES]
        if missing or unknown or not all(isinstance(v, str) and v.strip() for v in raw.values()):
            raise PackError(
                "'neutral': one non-empty word per class"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; unknown: {', '.join(unknown)}" if unknown else ""),
                pack.path / "surrogates.yaml",
                hint=f"classes: {', '.join(NEUTRAL_CATEGORIES)}",
            )
        return {k: str(v).strip() for k, v in raw.items()}

    # --- people -------------------------------------------------------------------------------

    def _names(self, pack: LanguagePack) -> None:
        self.given: dict[str, tuple[int, int]] = {}
        male, female, both = [], [], []
        table = pack.table("given_name")
        names = table.column("name")
        for name, key, males, females in zip(names, fold_all(names), table.column("male"),
                                             table.column("female"), strict=True):
            m, f = int(males or 0), int(females or 0)
            old = self.given.get(key, (0, 0))
            self.given[key] = (old[0] + m, old[1] + f)
            if " " in name or "-" in name:
                continue  # token-level mapping: one-word surrogates only
            male.append((name, m))
            female.append((name, f))
            if min(m, f) >= UNISEX_RATIO * max(m, f) > 0:
                both.append((name, m + f))
        self.given_pool = {
            "m": Pool.of(sorted(male, key=lambda p: -p[1])[:GIVEN_POOL]),
            "f": Pool.of(sorted(female, key=lambda p: -p[1])[:GIVEN_POOL]),
            "any": Pool.of(sorted(both, key=lambda p: -p[1])[:UNISEX_POOL]),
        }
        # a fallback when one sex's pool is exhausted: the frequent names of either sex
        either = {name: 0.0 for name in self.given_pool["m"].items + self.given_pool["f"].items}
        for name, count in (*male, *female):
            if name in either:
                either[name] += count
        self.given_either = Pool.of(sorted(either.items(), key=lambda p: -p[1]))
        self.surname: dict[str, int] = {}
        pairs = []
        folded = {}  # a surname's fold, for the list of usual ones below
        after_particle: dict[str, list[tuple[str, int]]] = {}
        table = pack.table("surname")
        names = table.column("name")
        for name, key, counted in zip(names, fold_all(names), table.column("count"), strict=True):
            count = int(counted or 0)
            self.surname[key] = self.surname.get(key, 0) + count
            if " " not in name and "-" not in name:
                pairs.append((name, count))
                folded[name] = key
            elif (particle := _PARTICLE_SURNAME.fullmatch(name)) is not None:
                after_particle.setdefault(particle["particle"].lower(), []).append((particle["name"], count))
        # the surnames written after a particle ("De la Vega", "Del Pozo"), by particle: the
        # word after "de la" in "García de la Vega" becomes another such word ("de la Torre"),
        # not any surname ("de la Fuentes")
        self.particle_surnames = {
            particle: Pool.of(sorted(names, key=lambda p: -p[1]))
            for particle, names in after_particle.items()
        }
        # a surname borne more often as a given name ("María", "Juan", "Miguel") reads as a
        # second given name ("Julián María Gil") and can mix sexes: never a frequent surrogate
        usual = [(name, n) for name, n in pairs if sum(self.given.get(folded[name], (0, 0))) <= n]
        self.surname_pool = Pool.of(sorted(usual, key=lambda p: -p[1])[:SURNAME_POOL])
        # the pack's hypocoristics the table lacks ("Mari"), read as given names of their sex;
        # fewer bearers than the surname Marí (8,549), so "Juan Marí Torres" keeps its surname
        for sex, names in (pack.surrogate.get("hypocoristics") or {}).items():
            for name in [names] if isinstance(names, str) else names:
                key = fold(name)
                if key not in self.given:
                    self.given[key] = (HYPOCORISTIC_BEARERS, 0) if sex == "m" else (0, HYPOCORISTIC_BEARERS)
        # a fallback when the frequent surnames are exhausted (a very long note): every one
        self.surname_all = sorted({name for name, _ in pairs})

    def name_sex(self, token: str) -> tuple[int, int]:
        return self.given.get(fold(token), (0, 0))

    def is_known_acronym(self, folded: str) -> bool:
        """Capitals that are not a person's initials even where a person of the note has those
        initials: an acronym of clinical text ("hta", "nhc"), of the pack's institutions or
        spelled like a name ("ana"), a name itself ("paz"), a stop or closed-class word."""
        return (
            folded in self.medical_acronyms
            or folded in self.name_acronyms
            or folded in self._institution_acronyms
            or folded in self.given
            or folded in self.surname
            or self.pack.is_stopword(folded)
            or folded in self.pack.word_classes
        )

    # --- places -------------------------------------------------------------------------------

    def _places(self, pack: LanguagePack) -> None:
        self.province_code: dict[str, str] = {}
        self.province_community: dict[str, str] = {}
        self.province_lookup: dict[str, str] = {}
        for row in pack.table("province").rows:
            self.province_code[row["name"]] = row["code"]
            self.province_community[row["name"]] = row["community"]
            for alias in [row["name"], *row.get("aliases", "").split("|")]:
                if alias:
                    self.province_lookup.setdefault(fold(alias), row["name"])
        self.code_province = {code: name for name, code in self.province_code.items()}
        self.community_lookup: dict[str, str] = {}
        for row in pack.table("community").rows:
            for alias in [row["name"], *row.get("aliases", "").split("|")]:
                if alias:
                    self.community_lookup.setdefault(fold(alias), row["name"])
        self.communities = sorted({row["name"] for row in pack.table("community").rows})
        self.provinces_of: dict[str, list[str]] = defaultdict(list)
        for name, community in self.province_community.items():
            self.provinces_of[community].append(name)
        by_province: dict[str, list[tuple[str, float]]] = defaultdict(list)
        lookup: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
        #: (town as shown, province) -> its island, as the table writes it ("Ibiza/Eivissa")
        self.town_island: dict[tuple[str, str], str] = {}
        everywhere = []
        not_drawn = Phrases([words_of(n) for n in self.extra.get("towns_not_drawn") or ()])
        for row in pack.table("municipality").rows:
            pop = float(row["population"] or 0)
            shown = display(row["name"])
            if not not_drawn.found_in(words_of(shown)):  # "Zürich (Kreis 9)"
                by_province[row["province"]].append((shown, pop))
                everywhere.append((shown, pop))
            if row.get("island"):  # the Canaries' and the Balearics' councils
                self.town_island[(shown, row["province"])] = row["island"]
            # "El Campello", and the table's other names of the town ("Tarrasa", "Vitoria")
            aliases = (row.get("aliases") or "").split("|")
            for part in {row["name"], *row["name"].split("/"), shown, *aliases} - {""}:
                lookup[fold(part.strip())].append((-pop, shown, row["province"]))
        self.municipality_lookup = {k: [(s, p) for _, s, p in sorted(v)] for k, v in lookup.items()}
        self.town_pool = {p: Pool.of(items) for p, items in by_province.items()}
        # size classes: a city of 100,000 people stays a city, a village a village
        self.town_population = {(shown, p): pop for p, items in by_province.items() for shown, pop in items}
        self.town_pool_class = {
            (p, c): Pool.of(members) for p, items in by_province.items() for c in SIZE_CLASSES
            if (members := [t for t in items if size_class(t[1]) == c])
        }
        self.town_pool_all_class = {
            c: Pool.of(members) for c in SIZE_CLASSES
            if (members := [t for t in everywhere if size_class(t[1]) == c])
        }
        self.town_pool_all = Pool.of(everywhere)
        # towns of every province of a community, for a province whose own towns run out
        self.community_town_pool = {
            community: Pool.of([town for p in provinces for town in by_province.get(p, [])])
            for community, provinces in self.provinces_of.items()
        }
        self.community_town_pool_class = {
            (community, c): Pool.of(members) for community, provinces in self.provinces_of.items()
            for c in SIZE_CLASSES
            if (members := [t for p in provinces for t in by_province.get(p, []) if size_class(t[1]) == c])
        }
        self.town_province: dict[str, str] = {}
        for shown, province in ((s, p) for rows in self.municipality_lookup.values() for s, p in rows):
            self.town_province.setdefault(shown, province)
        capitals = {p: display(c) for p, c in self.extra["capitals"].items()}
        self.capitals = {p: capitals.get(p, p) for p in self.province_code}
        self.capital_of = {town: p for p, town in self.capitals.items()}
        self._area_codes(pack)
        self._countries(pack)
        self._postal(pack)
        self._phone_plans(pack)
        self.street_types = sorted(
            ((fold(form), kind) for kind, forms in pack.street_types.items() for form in forms),
            key=lambda p: -len(p[0]),
        )

    def _streets(self, pack: LanguagePack) -> None:
        """Street names by type, anywhere (``streets``), in a province (``streets_in``, keyed
        (province, type) and (province, "*")) and common to many provinces (``common_streets``);
        each list without repeats, in table order."""
        type_words = {w for kind in _THOROUGHFARES for form in pack.street_types.get(kind, ())
                      for w in words_of(form) if len(w) >= 4}
        not_drawn = Phrases([words_of(n) for n in self.extra.get("streets_not_drawn") or ()])
        streets: dict[str, dict[str, None]] = defaultdict(dict)
        streets_in: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
        provinces: dict[str, set[str]] = defaultdict(set)
        kinds: dict[str, set[str]] = defaultdict(set)
        for row in pack.table("street").rows:
            name = row["name"]
            if any(c.isdigit() for c in name) or "º" in name or "ª" in name or "." in name or len(name) < 3:
                continue
            if any(len(w) < 3 and fold(w) not in ("de", "la", "el") for w in name.split()):
                continue  # abbreviations ("Cr Llobregat") read badly
            if re.search(r"[^\W\d_A-Z][A-Z]", name):
                continue  # a capital inside a word: a typo of the source ("AuxIliadora")
            words = words_of(name)
            if not type_words.isdisjoint(words) or not_drawn.found_in(words):
                continue  # "Calle Plaza"; a name of the Franco regime no longer in use
            kind, province = row["type"], row.get("province", "")
            streets[kind][name] = None
            streets["*"][name] = None
            kinds[name].add(kind)
            if province:
                streets_in[(province, kind)][name] = None
                streets_in[(province, "*")][name] = None
                provinces[name].add(province)
        self.streets = {kind: list(names) for kind, names in streets.items()}
        self.streets_in = {key: list(names) for key, names in streets_in.items()}
        common: dict[str, list[str]] = defaultdict(list)
        for name in self.streets.get("*", []):
            if len(provinces[name]) >= COMMON_STREET_PROVINCES:
                common["*"].append(name)
                for kind in sorted(kinds[name]):
                    common[kind].append(name)
        self.common_streets = dict(common)
        #: (type, spelling) of the types that end a street's name (``street_type_endings``),
        #: longest spelling first: "strasse" before "str."
        self.street_endings = sorted(
            ((kind, str(w).lower()) for kind, words in (self.extra.get("street_type_endings") or {}).items()
             for w in ([words] if isinstance(words, str) else words)),
            key=lambda p: -len(p[1]),
        )
        self.national_roads = list(self.extra.get("national_roads") or ())
        #: the words a district's own name opens with ("Barrio de la Estación") and the names a
        #: district of it becomes, article first ("San Antonio", "El Carmen", "Las Delicias")
        kinds = map(str, self.extra.get("district_kinds") or ())
        self.district_kinds = tuple(sorted(kinds, key=len, reverse=True))
        self.district_names = [str(n) for n in self.extra.get("district_names") or ()]
        self.po_boxes = sorted((fold(f) for f in self.extra.get("po_boxes") or ()), key=lambda f: -len(f))

    def _foreign(self, pack: LanguagePack) -> None:
        """Cities and regions of other countries (optional table ``foreign_place``): by (country,
        kind), the cities CLDR names its time zones after first (``foreign_major``: the big
        ones), and by folded name."""
        self.foreign_places: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.foreign_major: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.foreign_lookup: dict[str, list[tuple[str, str]]] = defaultdict(list)
        if "foreign_place" not in pack.tables:
            return
        rows = sorted(pack.table("foreign_place").rows, key=lambda r: r.get("source") != "cldr")
        for row in rows:
            key, folded = (row["country"], row["kind"]), fold(row["name"])
            if key not in self.foreign_lookup[folded]:
                self.foreign_lookup[folded].append(key)
            if any(folded in lookup for lookup in (self.municipality_lookup, self.province_lookup,
                                                    self.community_lookup)):
                continue  # "Córdoba", "La Rioja" of Argentina: read as Spanish, never drawn
            if str(row.get("source") or "").endswith(":alias"):
                continue  # another spelling ("Tetuán" of Tétouan): known, never drawn
            if not _WRITABLE.fullmatch(row["name"]):
                continue  # "Ar Rayyān", "Łódź": a Spanish note writes them otherwise; known, not drawn
            self.foreign_places[key].append(row["name"])
            if row.get("source") == "cldr":
                self.foreign_major[key].append(row["name"])

    def _area_codes(self, pack: LanguagePack) -> None:
        """Landline prefixes by province (``area_codes`` in surrogates.yaml, optional): a fixed
        number beside a town takes a prefix of the surrogate town's province."""
        where = pack.path / "surrogates.yaml"
        self.area_codes: dict[str, list[str]] = {}
        self.area_code_province: dict[str, str] = {}
        for province, codes in (self.extra.get("area_codes") or {}).items():
            if province not in self.province_code:
                raise PackError(f"'area_codes': {province!r} is not a province of the province table", where)
            self.area_codes[province] = [codes] if isinstance(codes, str) else list(codes)
            for code in self.area_codes[province]:
                self.area_code_province.setdefault(code, province)  # shared codes: the first listed

    def _postal(self, pack: LanguagePack) -> None:
        """Postal codes by state where the pack has ranges (optional table ``postal_code``:
        country, state, first, last) and by town (a ``postal_code`` column of the municipality
        table); the letters that name a country before a code (``postal_prefixes``); each
        state's country (ISO code, through its community's name)."""
        where = pack.path / "surrogates.yaml"
        self.province_country: dict[str, str] = {}
        for province, community in self.province_community.items():
            code = self.country_code.get(country_key(community))
            if code is not None:
                self.province_country[province] = code
        #: (country, state) -> [(first, last, digits)]
        ranges: dict[tuple[str, str], list[tuple[int, int, int]]] = defaultdict(list)
        lengths: dict[str, set[int]] = defaultdict(set)
        table = pack.tables.get("postal_code")
        if table is not None and {"first", "last", "state"} <= set(table.columns):
            for row in pack.table("postal_code").rows:
                first, last = row["first"], row["last"]
                if row["state"] not in self.province_code or not (first + last).isdigit():
                    raise PackError(f"postal_code: bad row {row}", pack.table("postal_code").path)
                country = row.get("country") or self.province_country.get(row["state"], "")
                ranges[(country, row["state"])].append((int(first), int(last), len(first)))
                lengths[country].add(len(first))
        self.postal_ranges = dict(ranges)
        self.postal_lengths = dict(lengths)
        self.town_postal: dict[tuple[str, str], str] = {}
        for row in pack.table("municipality").rows:
            if row.get("postal_code", "").isdigit():
                self.town_postal.setdefault((display(row["name"]), row["province"]), row["postal_code"])
        #: the level above a province is a country (Deutschland, Österreich, Schweiz): a place
        #: crosses no border where it need not (facilities try the country before anywhere)
        self.national_communities = bool(self.communities) and all(
            c in self.province_country.values() for c in (self.country_code.get(country_key(n))
                                                           for n in self.communities))
        #: the countries the pack's communities are (none where communities are regions)
        self.national_countries = frozenset(self.province_country.values()) if self.national_communities \
            else frozenset()
        self.postal_prefixes: dict[str, str] = {}
        for code, letters in (self.extra.get("postal_prefixes") or {}).items():
            self._check_code(code, where, "postal_prefixes")
            for written in [letters] if isinstance(letters, str) else letters:
                self.postal_prefixes[written] = code

    def _phone_plans(self, pack: LanguagePack) -> None:
        """The pack's telephone numbering plans (``phone_plans``, crfdeid.surrogates.numbering),
        each with the ``area_codes`` of its country's provinces; ``calling_plans`` by calling
        code. A pack without plans replaces every digit of a phone but the first."""
        where = pack.path / "surrogates.yaml"
        raw = self.extra.get("phone_plans") or {}  # its shape checked by the pack's loader
        for country in raw:
            self._check_code(country, where, "phone_plans")
        self.phone_plans = build_plans(raw, self.area_codes, self.province_country)
        self.calling_plans = {plan.calling_code: plan for plan in self.phone_plans.values()}

    def postal_state(self, country: str | None, code: str) -> str | None:
        """The state whose ranges hold a postal code of ``country`` (None: none does)."""
        value = int(code)
        for (where, state), rows in self.postal_ranges.items():
            if where == country and any(first <= value <= last and n == len(code) for first, last, n in rows):
                return state
        return None

    def area_province(self, national: str) -> str | None:
        """The province a national fixed number's prefix belongs to (three digits, else two)."""
        return self.area_code_province.get(national[:3]) or self.area_code_province.get(national[:2])

    def _countries(self, pack: LanguagePack) -> None:
        """Countries by name and ISO code, their world region, the pack's home country and the
        nationality adjectives: what a country surrogate of the same region is drawn from."""
        where = pack.path / "surrogates.yaml"
        rows = pack.table("country").rows
        country_rows = {fold(r["name"]): r["name"] for r in rows}
        unknown = [c for c in self.extra["countries"] if fold(c) not in country_rows]
        if unknown:
            raise PackError(f"surrogate countries not in the country table: {', '.join(unknown)}", where)
        self.country_lookup = country_rows
        self.countries_all = sorted(country_rows.values())
        ranked = list(self.extra["countries"])
        self.country_pool = Pool.of([(c, 1.0 / (i + 3)) for i, c in enumerate(ranked)])
        self.country_name = {r["code"]: r["name"] for r in rows}
        #: a country's international calling code, and the country a code names (a pack's
        #: country table may list none: phones then keep theirs)
        self.country_calling: dict[str, str] = {
            r["code"]: r["calling_code"] for r in rows if r.get("calling_code")}
        self.calling_country = {number: code for code, number in self.country_calling.items()}
        self.country_code: dict[str, str] = {country_key(r["name"]): r["code"] for r in rows}
        #: ISO 3166 alpha-3 codes ("ESP", "ROU"), as HL7 messages and registry exports write a
        #: country: known as the country (a name of the table wins a clash), and a code's
        #: surrogate is written as a code (``CountryGenerator``)
        self.country_alpha3: dict[str, str] = {r["code"]: r["alpha3"] for r in rows if r.get("alpha3")}
        for code, alpha3 in self.country_alpha3.items():
            self.country_code.setdefault(country_key(alpha3), code)
        for code, shown in (self.extra.get("country_display") or {}).items():
            self._check_code(code, where, "country_display")
            self.country_name[code] = str(shown)
            self.country_code[country_key(str(shown))] = code
        for code, aliases in (self.extra.get("country_aliases") or {}).items():
            self._check_code(code, where, "country_aliases")
            for alias in aliases:
                self.country_code[country_key(alias)] = code
        self.region_of: dict[str, str] = {}
        for region, codes in (self.extra.get("world_regions") or {}).items():
            for code in codes:
                self.region_of[code] = region
        home = self.extra.get("home_country") or {}
        self.home_code: str | None = home.get("code")
        if self.home_code is not None:
            self._check_code(self.home_code, where, "home_country")
            for alias in home.get("aliases", []):
                self.country_code[country_key(alias)] = self.home_code
        self.home_words = {fold(w) for w in home.get("nationality", [])}
        self.nationality: dict[str, list[str]] = {}
        self.nationality_forms: dict[str, tuple[str, int]] = {}
        for code, forms in (self.extra.get("nationalities") or {}).items():
            self._check_code(code, where, "nationalities")
            if not isinstance(forms, list) or len(forms) != 4:
                raise PackError(f"'nationalities': {code} needs 4 forms (m, f, m pl, f pl)", where)
            self.nationality[code] = [str(f) for f in forms]
            for i, form in enumerate(forms):
                self.nationality_forms.setdefault(fold(str(form)), (code, i))
        rank = {fold(c): i for i, c in enumerate(ranked)}
        # the frequent countries of Spanish notes first, then those common enough to have an
        # adjective in the pack, then the rest (Greenland stands in for the USA only if forced)
        self.country_weight = {
            code: 1.0 / (rank[fold(name)] + 3) if fold(name) in rank
            else 0.05 if code in self.nationality else 0.005
            for code, name in self.country_name.items()
        }

    def _check_code(self, code: str, where: Path, section: str) -> None:
        if code not in self.country_name:
            raise PackError(f"'{section}': {code!r} is not a code of the country table", where)

    def find_town(self, text: str) -> tuple[str, str] | None:
        """(municipality, province) of a town name, the most populous reading when ambiguous."""
        rows = self.municipality_lookup.get(fold(text.strip()))
        if not rows and "/" in text:  # a bilingual name in the other order ("Xàbia/Jávea" had
            # become "Estocolmo": unknown, it was taken for the note's foreign country's town)
            parts = [fold(part.strip()) for part in text.split("/")]
            found = {row[0] for part in parts for row in self.municipality_lookup.get(part, ())[:1]}
            rows = self.municipality_lookup.get(parts[0]) if len(found) == 1 else None
        return rows[0] if rows else None

    # --- facilities ---------------------------------------------------------------------------

    def _facilities(self, pack: LanguagePack) -> None:
        self.facility_forms = sorted(
            ((fold(form), kind) for kind, forms in pack.facility_types.items() for form in forms),
            key=lambda p: -len(p[0]),
        )
        self.hospitals: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for row in pack.table("hospital").rows:
            if not _PLAIN_NAME.fullmatch(row["name"]):
                continue  # quotes, company suffixes ("S.L."), commas: not how notes name hospitals
            self.hospitals[row["type"]].append((row["name"], row["province"]))
        self.centres: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for row in pack.table("health_centre").rows:
            if not _PLAIN_NAME.fullmatch(row["name"]):
                continue
            self.centres[row["type"]].append((row["name"], row["province"]))
            self.centres["*"].append((row["name"], row["province"]))
        self.hospital_lookup = {fold(r["name"]): r["province"] for r in pack.table("hospital").rows}
        #: words after a facility's type that belong to it ("Universitario", "de Alta Resolución"),
        #: folded, longest first
        self.facility_qualifiers = sorted({fold(q) for q in self.extra.get("facility_qualifiers") or ()},
                                          key=lambda q: -len(q))

    @cached_property
    def facility_generic_words(self) -> frozenset[str]:
        """Folded words every surrogate of a kind of facility or organisation may hold: the
        kinds and qualifiers ("hospital", "universitario"), the fixed words of the institution
        templates ("Residencia", "Instituto de Medicina Legal"), name particles, the pack's
        closed-class words, and the words of many of the pack's facility names ("san",
        "virgen", "nuestra señora") — none of which tells one facility from another."""
        words: set[str] = set(self.name_particles)
        words.update(fold(w) for w, c in self.pack.word_classes.items() if c != "NOUN")
        phrases = [form for form, _ in self.facility_forms] + list(self.facility_qualifiers)
        for key, templates in self.institutions:
            phrases.append(key)
            phrases.extend(_TEMPLATE_SLOT.sub(" ", t) for t in templates)
        generic = (*self.institution_default, *self.institution_feminine)
        phrases.extend(_TEMPLATE_SLOT.sub(" ", t) for t in generic)
        for phrase in phrases:
            words.update(_FACILITY_WORD.findall(fold(phrase)))
        counts: Counter[str] = Counter()
        for table in ("hospital", "health_centre", "organisation"):
            if table in self.pack.tables:
                for entry in self.pack.table(table).entries:
                    counts.update(set(_FACILITY_WORD.findall(fold(entry))))
        places = self.municipality_lookup.keys() | self.province_lookup.keys()
        words.update(w for w, n in counts.items() if n >= FACILITY_COMMON and w not in places)
        return frozenset(words)

    @cached_property
    def acronyms_of_kind(self) -> dict[str, tuple[str, ...]]:
        """Folded acronym of a listed organisation -> the acronyms of the other organisations
        of its kind ("sergas" -> SAS, SESCAM, SERMAS…): a regional health service's acronym
        becomes another's, not a research institute's ("SERGAS" had become "ISCIII"). The
        country is guessed from a nationality or a country's name in the organisation's name
        (the table has no country column): a foreign body whose name says neither (ISSSTE,
        UDELAR) counts as the home country's."""
        by_kind: dict[tuple[str, str | None], list[str]] = defaultdict(list)
        rows = self.pack.table("organisation").rows if "organisation" in self.pack.tables else ()
        for row in rows:
            # and of its country, as its name says: a Spanish service's never "IMSS" (Mexico's)
            country = next((code for w in _FACILITY_WORD.findall(row["name"])
                            if (code := self.nationality_forms.get(fold(w), (None,))[0]
                                or self.country_code.get(country_key(w))) is not None), self.home_code)
            for form in (row["name"], *(row.get("aliases") or "").split("|")):
                if _ACRONYM_FORM.fullmatch(form):
                    by_kind[row["kind"], country].append(form)
        return {fold(a): tuple(b for b in forms if b != a) for forms in by_kind.values() for a in forms
                if len(forms) > 1}

    def distinctive_words(self, facility: str) -> set[str]:
        """The folded words that tell a facility or organisation from others of its kind ("leon"
        of "Complejo Asistencial Universitario de León", "bierzo" of "Hospital El Bierzo"): no
        surrogate in the note may hold one, or two hospitals of the note could trade names."""
        generic = self.facility_generic_words
        return {w for w in _FACILITY_WORD.findall(fold(facility)) if len(w) >= 3 and w not in generic}

    # --- professions --------------------------------------------------------------------------

    def _professions(self, pack: LanguagePack) -> None:
        """Professions by form, and the short ones by ISCO group: every prefix of the unit
        group's code ("7", "71", "711", "7115") lists the professions under it."""
        self.profession_lookup: dict[str, tuple[str, str]] = {}
        self.profession_isco: dict[str, str] = {}
        self.professions_by_group: dict[str, list[tuple[str, str]]] = defaultdict(list)
        short: list[tuple[str, str]] = []
        heads: dict[str, Counter] = defaultdict(Counter)
        for row in pack.table("profession").rows:
            pair = (row["masculine"], row["feminine"] or row["masculine"])
            isco = row.get("isco") or ""
            self.profession_lookup.setdefault(fold(pair[1]), pair)
            self.profession_lookup[fold(pair[0])] = pair
            for form in pair:
                if isco:
                    self.profession_isco.setdefault(fold(form), isco)
                    if len(form.split()) > 1:
                        heads[fold(form.split()[0])][isco] += 1
            if row.get("language") not in (None, "", pack.language):
                continue  # a regional form ("llaurador"): found in notes, never a surrogate
            if len(pair[0].split()) <= 2 and len(pair[1].split()) <= 2:
                short.append(pair)
                for length in range(1, len(isco) + 1):
                    self.professions_by_group[isco[:length]].append(pair)
        self.professions = short
        #: a word that heads professions of the table ("mecánico" in "mecánico naval", "mecánico
        #: de motores diésel") -> their usual ISCO group, for a word the table lacks alone
        self.profession_heads = {head: g for head, groups in heads.items() if (g := dominant_group(groups))}
        self.profession_forms = sorted({form for pair in self.profession_lookup.values() for form in pair})


#: A word that names or heads several professions gets their group only when this share of them
#: falls in one ISCO sub-major group ("mecánico": 91 % crafts; "trabajador": 61 % social work,
#: too mixed). The build script fills the table's ``isco`` column with the same rule.
DOMINANT_SHARE = 2 / 3


def dominant_group(votes: Counter) -> str:
    """The usual unit group among ``votes`` (unit group -> professions), "" if they spread."""
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


@lru_cache(maxsize=4)
def surrogate_data(language: str = "es") -> SurrogateData:
    """The surrogate data of a pack, built once per process (about a second for Spanish)."""
    return SurrogateData(load_pack(language))
