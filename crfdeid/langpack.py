"""Language packs: every language-specific list the engine reads, loaded from one manifest.

A pack is a folder (``gazetteers/<lang>/``) with a ``pack.yaml`` manifest naming its gazetteer
tables (TSV built by ``scripts/build_gazetteers.py``) and its hand-written closed lists (YAML:
kinship, honorifics, calendar, street and facility types, stop list, closed word classes).
Code refers to lists only by the names in the manifest, so Swedish or English is a new folder,
not a fork. Files are parsed strictly: an unknown key or a malformed row is an error naming
the file and line, never a silently smaller list.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from .errors import CrfdeidError
from .io.text import read_yaml
from .memo import Memo
from .resources import data_dir

MANIFEST = "pack.yaml"
SEXES = ("m", "f", "any")


class PackError(CrfdeidError):
    """A language pack file is missing or malformed."""


def fold(text: str) -> str:
    """The matching key of a string: accents removed, case folded (``Cuéllar`` -> ``cuellar``).

    Used by the gazetteer matcher and by every lookup in a pack, so that "Martínez",
    "MARTINEZ" and "martinez" are one entry. Loading a pack folds some 200,000 names and a
    note's pseudonymisation the same few hundred words over and over, so short strings are
    remembered (``_FOLDED``: a pure function's results, bounded, cleared when full).
    """
    folded = _FOLDED.get(text)
    if folded is None:
        folded = _fold(text)
        if len(text) <= FOLD_CACHE_LENGTH:
            _FOLDED.remember(text, folded)
    return folded


#: Strings up to this long are kept once folded (words, names, short phrases), at most this many.
FOLD_CACHE_LENGTH = 64
FOLD_CACHE_SIZE = 1 << 16
_FOLDED: Memo[str, str] = Memo(FOLD_CACHE_SIZE)
#: A long string's combining marks are deleted one distinct mark at a time (``str.replace``):
#: a Python test per character would cost fifty times more on a long note.
_LONG = 256


class _Marks(dict):
    """A ``str.translate`` table that deletes combining marks, filled as characters are met
    (a short string is folded in C rather than by a Python test per character). Bounded: past
    ``_MARKS_SIZE`` characters it answers without remembering."""

    def __missing__(self, code: int) -> int | None:
        value = None if unicodedata.combining(chr(code)) else code
        if len(self) < _MARKS_SIZE:
            self[code] = value
        return value


_MARKS_SIZE = 1 << 14
_STRIP_MARKS = _Marks()


def _fold(text: str) -> str:
    """``fold`` without the cache: NFD, every combining mark deleted, then ``casefold``."""
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFD", text)
    if len(decomposed) <= _LONG:
        return decomposed.translate(_STRIP_MARKS).casefold()
    # the distinct non-ASCII characters, from what is left once the ASCII runs are cut out
    for mark in {c for c in set(_ASCII_RUNS.sub("", decomposed)) if unicodedata.combining(c)}:
        decomposed = decomposed.replace(mark, "")
    return decomposed.casefold()


_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")


# --- the pieces of a pack ---------------------------------------------------------------------


_cell = tuple.__getitem__


class Row(tuple):
    """A table row: read like a read-only dict of strings (``row["name"]``, ``row.get("kind")``,
    ``dict(row)``), stored as a tuple of its cells in column order.

    Why not a dict: a pack holds ~110,000 rows, and a dict per row costs three times a tuple
    (20 MB against 7 MB for the Spanish pack, in every process and worker). Each table's rows
    share one subclass (``row_type``) that knows the column names; ``Table.column`` reads a
    whole column without a call per row.
    """

    __slots__ = ()
    _index: ClassVar[Mapping[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:  # a column name, as a dict; an index or slice, as a tuple
        return _cell(self, self._index[key] if isinstance(key, str) else key)

    def get(self, key: str, default: Any = None) -> Any:
        position = self._index.get(key)
        return default if position is None else _cell(self, position)

    def keys(self) -> Iterable[str]:
        return self._index.keys()

    def values(self) -> tuple[str, ...]:
        return tuple(tuple.__iter__(self))

    def items(self) -> Iterable[tuple[str, str]]:
        return zip(self._index, tuple.__iter__(self), strict=True)

    def __iter__(self) -> Any:  # the column names, as a dict iterates its keys
        return iter(self._index)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Row):
            return self._index == other._index and tuple.__eq__(self, other)
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return repr(dict(self.items()))


Mapping.register(Row)


@lru_cache(maxsize=256)  # a header per table: a few dozen at most, even with packs of one's own
def row_type(columns: tuple[str, ...]) -> type[Row]:
    """The ``Row`` subclass of a table with these columns (one per header, shared)."""
    return type("Row", (Row,), {"__slots__": (), "_index": {c: i for i, c in enumerate(columns)}})


@dataclass(frozen=True)
class Table:
    """One gazetteer table: rows read like dicts of strings (``Row``), plus the entries the
    matcher uses."""

    name: str
    path: Path
    description: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    entries: tuple[str, ...]
    match: bool
    after: str | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> list[str]:
        """Every row's cell in column ``name``, in row order (a loop over rows that reads one or
        two columns is a C loop this way, not a Python call per cell)."""
        try:
            position = self.columns.index(name)
        except ValueError:
            raise KeyError(name) from None
        return list(map(_cell, self.rows, [position] * len(self.rows)))


@dataclass(frozen=True)
class KinshipTerm:
    """A kinship word with what a surrogate must preserve: sex and generation."""

    word: str
    lemma: str
    sex: str
    generation: int | None
    group: str
    plural: bool
    ambiguous: bool


@dataclass(frozen=True)
class Honorific:
    title: str
    form: str
    sex: str
    role: str


#: How a month may be written (``written:`` and ``regional:`` in calendar.yaml): its full name,
#: its abbreviation as running text writes it ("Jan.", "März", "Sept.": CLDR's format form) and
#: its short form ("Jan", "Mär", "Sep": CLDR's stand-alone form).
MONTH_STYLES = ("name", "abbreviated", "short")


@dataclass(frozen=True)
class CalendarName:
    number: int
    name: str
    abbreviations: tuple[str, ...]
    roman: str | None = None
    #: (region, style, form) as a surrogate date writes the month: region "" for the standard
    #: forms, else a region's own ("AT": "Jänner", "Jän."); empty when the pack gives none
    forms: tuple[tuple[str, str, str], ...] = ()

    @property
    def regional_keys(self) -> frozenset[str]:
        """The folded forms only a region writes the month with (not its name, nor a form the
        name begins with: English "May" is the standard's "may" too)."""
        standard = {fold(f).rstrip(".") for r, _, f in self.forms if not r} | {fold(self.name)}
        name = fold(self.name)
        regional = {fold(f).rstrip(".") for r, _, f in self.forms if r}
        return frozenset(key for key in regional if not name.startswith(key)) - standard

    def written(self, style: str, region: str = "") -> str:
        """The month in a style of ``MONTH_STYLES``, the region's form where it has one; the
        full name where the pack gives no form of that style."""
        for wanted in (region, ""):
            for where, kind, form in self.forms:
                if where == wanted and kind == style:
                    return form
        return self.name


@dataclass(frozen=True)
class LanguagePack:
    """Everything language-specific, loaded once. Lookups take any casing and accents."""

    language: str
    name: str
    version: str
    path: Path
    rules: str | None
    tables: Mapping[str, Table]
    kinship: Mapping[str, KinshipTerm]
    honorifics: Mapping[str, Honorific]
    months: tuple[CalendarName, ...]
    weekdays: tuple[CalendarName, ...]
    street_types: Mapping[str, tuple[str, ...]]
    facility_types: Mapping[str, tuple[str, ...]]
    stopwords: Mapping[str, str]
    word_classes: Mapping[str, str] = field(default_factory=dict)
    #: Data for the pseudonymiser (closed list ``surrogate``, optional): e-mail providers,
    #: institution templates, capitals…; validated on load, interpreted by crfdeid.surrogates.
    surrogate: Mapping[str, Any] = field(default_factory=dict)
    #: ``lone_names`` of the manifest (optional): when a given name standing alone in the
    #: narrative counts as a person (``crfdeid.lone_names``); empty: never.
    lone_names: Mapping[str, float] = field(default_factory=dict)
    #: ``lone_places`` of the manifest (optional): when a place named after a preposition in
    #: the narrative counts as one (``crfdeid.lone_places``); empty: never.
    lone_places: Mapping[str, float] = field(default_factory=dict)
    #: ``lone_professions`` of the manifest (optional): the words around an occupation of the
    #: profession table that say it is one (``crfdeid.lone_professions``); empty: never.
    lone_professions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: ``elision`` of the calendar (optional): region -> (its "of" before a month beginning with a
    #: consonant, before one beginning with a vowel): Catalan ("de ", "d'") — "de març", "d'abril".
    month_elision: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: ``table_columns`` of the manifest (optional): category -> the header words of a table's
    #: column whose cells are identifiers of that category (``crfdeid.table_columns``).
    table_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def table(self, name: str) -> Table:
        try:
            return self.tables[name]
        except KeyError:
            raise PackError(
                f"language pack {self.language!r} has no gazetteer {name!r}",
                self.path / MANIFEST,
                hint=f"known: {', '.join(sorted(self.tables))}",
            ) from None

    def island_names(self) -> list[str]:
        """Every name of the islands ``surrogates.yaml`` lists by archipelago, each name of a
        bilingual one apart ("Ibiza/Eivissa"): places no table holds, which the matcher, the
        lone-place step and the pseudonymiser know."""
        groups = (self.surrogate.get("islands") or {}).values()
        return [part.strip() for group in groups for name in ([group] if isinstance(group, str) else group)
                for part in str(name).split("/") if part.strip()]

    def kinship_term(self, word: str) -> KinshipTerm | None:
        return self.kinship.get(fold(word))

    def honorific(self, word: str) -> Honorific | None:
        return self.honorifics.get(fold(word))

    def is_stopword(self, word: str) -> bool:
        return fold(word) in self.stopwords

    def month(self, word: str, *, regional: bool = True) -> CalendarName | None:
        """The month ``word`` names; with ``regional=False`` not by a form only a region writes
        (the Catalan "març" folds to "marc", a given name)."""
        key = fold(word).rstrip(".")
        if not key:
            return None
        for month in self.months:
            if key == fold(month.name) or key == fold(month.roman or ""):
                return month
            if key in month.abbreviations and (regional or key not in month.regional_keys):
                return month
        return None

    def describe(self) -> dict[str, Any]:
        """What a trained model records about the pack it was trained with."""
        return {
            "language": self.language,
            "version": self.version,
            "tables": {name: len(t) for name, t in sorted(self.tables.items())},
        }


# --- loading ----------------------------------------------------------------------------------


def _yaml_file(path: Path) -> dict[str, Any]:
    data = _read_yaml(path)
    if not isinstance(data, dict):
        raise PackError("expected a mapping at the top level", path)
    return data


def _read_yaml(path: Path) -> Any:
    """``read_yaml`` with libyaml's parser where PyYAML was built with it (``CSafeLoader``, the
    same constructor on a parser in C: a tenth of the time of a pack's 30 KB of lists). A file
    it cannot parse is read again by ``read_yaml``, whose error names the problem as always."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None or not path.is_file():
        return read_yaml(path, PackError, "language pack file")
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    except (yaml.YAMLError, UnicodeDecodeError):
        return read_yaml(path, PackError, "language pack file")


def _check_keys(
    data: Mapping[str, Any], allowed: Iterable[str], path: Path, where: str, required: Iterable[str] = ()
) -> None:
    allowed = set(allowed)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise PackError(
            f"{where}: unknown key(s) {', '.join(map(repr, unknown))}",
            path,
            hint=f"allowed: {', '.join(sorted(allowed))}",
        )
    missing = [k for k in required if k not in data]
    if missing:
        raise PackError(f"{where}: missing key(s) {', '.join(map(repr, missing))}", path)


def read_tsv(path: Path) -> tuple[tuple[str, ...], list[Row]]:
    """A pack table: '#' comment lines, one header row, then tab-separated rows."""
    if not path.is_file():
        raise PackError(
            "gazetteer table not found", path, hint="rebuild the pack with scripts/build_gazetteers.py"
        )
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise PackError(f"not UTF-8 ({exc.reason})", path) from None
    header: tuple[str, ...] | None = None
    rows: list[Row] = []
    width = 0
    make = Row
    for number, line in enumerate(lines, 1):
        if not line or line[0] == "#":
            continue
        cells = line.split("\t")
        if header is None:
            header = tuple(cells)
            width = len(header)
            make = row_type(header)
            continue
        if len(cells) != width:  # rows are checked and padded; most are whole already
            if len(cells) > width:
                raise PackError(f"{len(cells)} cells, the header has {width}", path, number)
            cells += [""] * (width - len(cells))
        if not cells[0] or cells[0].isspace():
            raise PackError("empty first cell", path, number)
        # one object per distinct cell after the first: counts, provinces and kinds repeat
        # thousands of times (7 MB less in every process)
        rows.append(make((cells[0], *map(sys.intern, cells[1:]))))
    if header is None:
        raise PackError("no header row", path)
    return header, rows


_TABLE_KEYS = ("file", "column", "aliases", "after", "match", "description")


def _load_table(root: Path, name: str, spec: Any, manifest: Path) -> Table:
    """``after: <list>`` makes the entries matchable only right behind a match of that list: a
    health centre named "García" is matched in "Centro de Salud García" or "C.S. de García",
    never as the bare surname (see ``crfdeid.gazetteer``)."""
    if not isinstance(spec, dict):
        raise PackError(f"gazetteer {name!r}: expected a mapping", manifest)
    _check_keys(spec, _TABLE_KEYS, manifest, f"gazetteer {name!r}", required=("file", "column"))
    path = root / spec["file"]
    columns, rows = read_tsv(path)
    for key in ("column", "aliases"):
        if key in spec and spec[key] not in columns:
            raise PackError(
                f"gazetteer {name!r}: {key} {spec[key]!r} is not a column of {path.name}",
                manifest,
                hint=f"columns: {', '.join(columns)}",
            )
    entries: list[str] = []
    main = columns.index(spec["column"])
    if "aliases" in spec:
        aliases = columns.index(spec["aliases"])
        for row in rows:
            entries.append(_cell(row, main))
            entries.extend(a for a in _cell(row, aliases).split("|") if a)
    else:
        entries = list(map(_cell, rows, [main] * len(rows)))
    return Table(
        name=name,
        path=path,
        description=str(spec.get("description", "")),
        columns=columns,
        rows=tuple(rows),
        entries=tuple(dict.fromkeys(entries)),
        match=bool(spec.get("match", True)),
        after=spec.get("after"),
    )


def _load_kinship(path: Path) -> dict[str, KinshipTerm]:
    data = _yaml_file(path)
    _check_keys(data, ("language", "terms"), path, "kinship", required=("terms",))
    terms: dict[str, KinshipTerm] = {}
    for lemma, spec in data["terms"].items():
        _check_keys(
            spec,
            ("sex", "generation", "group", "plural", "ambiguous"),
            path,
            f"kinship {lemma!r}",
            required=("sex", "generation", "group"),
        )
        if spec["sex"] not in SEXES:
            raise PackError(f"kinship {lemma!r}: sex must be one of {SEXES}", path)
        if spec["generation"] is not None and not isinstance(spec["generation"], int):
            raise PackError(f"kinship {lemma!r}: generation must be an integer or null", path)
        common = {
            "lemma": lemma,
            "sex": spec["sex"],
            "generation": spec["generation"],
            "group": spec["group"],
            "ambiguous": bool(spec.get("ambiguous", False)),
        }
        terms[fold(lemma)] = KinshipTerm(word=lemma, plural=False, **common)
        for plural in spec.get("plural", []):
            terms.setdefault(fold(plural), KinshipTerm(word=plural, plural=True, **common))
    return terms


def _load_honorifics(path: Path) -> dict[str, Honorific]:
    data = _yaml_file(path)
    _check_keys(data, ("language", "titles"), path, "honorifics", required=("titles",))
    out: dict[str, Honorific] = {}
    for title, spec in data["titles"].items():
        _check_keys(spec, ("sex", "role", "forms"), path, f"honorific {title!r}", required=("sex", "forms"))
        if spec["sex"] not in SEXES:
            raise PackError(f"honorific {title!r}: sex must be one of {SEXES}", path)
        for form in spec["forms"]:
            out.setdefault(
                fold(form), Honorific(title=title, form=form, sex=spec["sex"], role=spec.get("role", ""))
            )
    return out


def _load_elision(path: Path) -> dict[str, tuple[str, str]]:
    """The calendar's ``elision``: ``{REGION: {full: "de ", elided: "d'"}}``."""
    spec = _yaml_file(path).get("elision") or {}
    if not isinstance(spec, dict):
        raise PackError("elision: expected a mapping of regions", path)
    out = {}
    for region, forms in spec.items():
        if not isinstance(forms, dict):
            raise PackError(f"elision {region!r}: expected {{full, elided}}", path)
        _check_keys(forms, ("full", "elided"), path, f"elision {region!r}", required=("full", "elided"))
        if not all(isinstance(forms[k], str) and forms[k].strip() for k in ("full", "elided")):
            raise PackError(f"elision {region!r}: 'full' and 'elided' must be words", path)
        out[str(region)] = (forms["full"], forms["elided"])
    return out


def _load_calendar(path: Path) -> tuple[tuple[CalendarName, ...], tuple[CalendarName, ...]]:
    data = _yaml_file(path)
    _check_keys(data, ("language", "elision", "months", "weekdays"), path, "calendar",
                required=("months", "weekdays"))
    parts = []
    for key, count in (("months", 12), ("weekdays", 7)):
        items = []
        for spec in data[key]:
            _check_keys(
                spec,
                ("number", "name", "abbreviations", "roman", "written", "regional"),
                path,
                f"{key} entry",
                required=("number", "name"),
            )
            item = CalendarName(
                number=spec["number"],
                name=spec["name"],
                abbreviations=tuple(fold(a) for a in spec.get("abbreviations", [])),
                roman=spec.get("roman"),
            )
            items.append(_with_forms(item, spec, path))
        if sorted(i.number for i in items) != list(range(1, count + 1)):
            raise PackError(f"{key}: expected numbers 1..{count}", path)
        parts.append(tuple(sorted(items, key=lambda i: i.number)))
    return parts[0], parts[1]


def _with_forms(item: CalendarName, spec: Mapping[str, Any], path: Path) -> CalendarName:
    """The month's written forms (``written: {abbreviated, short}``, ``regional: {REGION: {name,
    abbreviated, short}}``), each one the month's own reading would recognise."""
    if "written" not in spec and "regional" not in spec:
        return item
    where = f"month {item.name!r}"
    forms: list[tuple[str, str, str]] = [("", "name", item.name)]
    blocks = [("", spec.get("written") or {}, MONTH_STYLES[1:])]
    regional = spec.get("regional") or {}
    if not isinstance(regional, dict):
        raise PackError(f"{where}: 'regional' must map a region to its forms", path)
    blocks += [(str(region), value, MONTH_STYLES) for region, value in regional.items()]
    for region, block, styles in blocks:
        if not isinstance(block, dict):
            raise PackError(f"{where}: expected a mapping of styles to forms", path)
        _check_keys(block, styles, path, where)
        for style, form in block.items():
            letters = fold(str(form)).rstrip(".")
            if not isinstance(form, str) or not (letters == fold(item.name) or letters in item.abbreviations):
                raise PackError(f"{where}: {form!r} is neither its name nor one of its abbreviations", path,
                                hint="a date written with it must read as this month")
            forms.append((region, style, form))
    return replace(item, forms=tuple(forms))


def _load_typed_forms(path: Path, key: str) -> dict[str, tuple[str, ...]]:
    data = _yaml_file(path)
    _check_keys(data, ("language", key), path, path.stem, required=(key,))
    out: dict[str, tuple[str, ...]] = {}
    for kind, forms in data[key].items():
        if not isinstance(forms, list) or not all(isinstance(f, str) and f for f in forms):
            raise PackError(f"{kind!r}: expected a list of spellings", path)
        out[kind] = tuple(forms)
    return out


def _load_wordlists(path: Path, key: str) -> dict[str, str]:
    """``{category: [words]}`` -> folded word -> category (first category wins)."""
    data = _yaml_file(path)
    _check_keys(data, ("language", key), path, path.stem, required=(key,))
    out: dict[str, str] = {}
    for category, words in data[key].items():
        if not isinstance(words, list):
            raise PackError(f"{category!r}: expected a list of words", path)
        for word in words:
            if not isinstance(word, str):
                raise PackError(
                    f"{category!r}: {word!r} is not a word",
                    path,
                    hint="YAML reads unquoted no/yes/on/off/true/false and numbers as "
                    "other types: quote the word",
                )
            out.setdefault(fold(word), category)
    return out


def _load_surrogate(path: Path) -> dict[str, Any]:
    """The pseudonymiser's data: lists of strings, mappings to strings or lists of strings."""
    data = _yaml_file(path)
    _check_keys(data, ("language", "age_generalised", *_SURROGATE_LISTS, *_SURROGATE_MAPS,
                       *_SURROGATE_OPTIONAL_MAPS, *_SURROGATE_OPTIONAL_LISTS), path,
                "surrogate", required=(*_SURROGATE_LISTS, *_SURROGATE_MAPS, "age_generalised"))

    def strings(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) and v for v in value)

    for key in (*_SURROGATE_LISTS, *(k for k in _SURROGATE_OPTIONAL_LISTS if k in data)):
        if not strings(data[key]):
            raise PackError(f"{key!r}: expected a list of strings (quote yes/no/numbers)", path)
    for key in (*_SURROGATE_MAPS, *(k for k in _SURROGATE_OPTIONAL_MAPS if k in data and k != "phone_plans")):
        value = data[key]
        if not isinstance(value, dict) or not all(
                isinstance(k, str) and (isinstance(v, str) or strings(v)) for k, v in value.items()):
            raise PackError(f"{key!r}: expected a mapping of names to strings or lists of strings", path)
    codes = data.get("area_codes") or {}
    if not all(all(c.isdigit() for c in ([v] if isinstance(v, str) else v)) for v in codes.values()):
        raise PackError("'area_codes': expected a mapping of provinces to lists of digit strings", path)
    if "phone_plans" in data:
        _check_phone_plans(data["phone_plans"], path)
    if not isinstance(data["age_generalised"], str) or "{limit}" not in data["age_generalised"]:
        raise PackError("'age_generalised': expected a string containing {limit}", path)
    return data


def _check_phone_plans(raw: Any, path: Path) -> None:
    """``phone_plans``: ISO country code -> plan fields (crfdeid.surrogates.numbering), checked
    strictly."""
    if not isinstance(raw, dict):
        raise PackError("'phone_plans': expected a mapping of country codes to plans", path)
    for country, spec in raw.items():
        where = f"'phone_plans': {country}"
        if not isinstance(spec, dict):
            raise PackError(f"{where}: expected a mapping", path)
        unknown = sorted(set(spec) - set(_PLAN_KEYS))
        if unknown or "calling_code" not in spec:
            message = f"unknown key(s) {', '.join(unknown)}" if unknown else "missing 'calling_code'"
            raise PackError(f"{where}: {message}", path, hint=f"keys: {', '.join(_PLAN_KEYS)}")
        for key in ("calling_code", "trunk"):
            if key in spec and not (isinstance(spec[key], str) and spec[key].isdigit()):
                raise PackError(f"{where}: {key!r} must be a string of digits (quoted)", path)
        for key in ("mobile", "fixed", "special"):
            value = spec.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v.isdigit() for v in value):
                raise PackError(f"{where}: {key!r} must be a list of digit strings (quoted)", path)
        for key in ("length", "area_digits"):
            if key in spec and not (isinstance(spec[key], int) and spec[key] > 0):
                raise PackError(f"{where}: {key!r} must be a positive integer", path)


#: The fields of a telephone numbering plan (``phone_plans`` in surrogates.yaml).
_PLAN_KEYS = ("calling_code", "trunk", "length", "mobile", "fixed", "special", "area_digits")
_CLOSED = ("kinship", "honorific", "calendar", "street_type", "facility_type", "stop", "word_class")
_OPTIONAL_CLOSED = ("surrogate",)
#: Keys of the surrogate data file and the shape each must have.
_SURROGATE_LISTS = ("email_providers", "domain_words", "countries", "name_particles", "address_words")
_SURROGATE_MAPS = ("capitals", "institutions", "sex_words", "age_units", "neutral", "age_number_words",
                   "institution_acronyms")
#: Optional: a pack without them replaces every country by a frequent one, with no home country,
#: and a fixed phone number keeps its original's two-digit prefix (no ``area_codes``).
_SURROGATE_OPTIONAL_MAPS = ("home_country", "country_aliases", "country_display", "world_regions",
                            "nationalities", "descriptions_kept", "area_codes", "community_adjectives",
                            "community_after_de", "date_readings", "date_number_words",
                            "postal_prefixes", "phone_plans",
                            "street_type_endings", "patient_sex_phrases", "devotional_names",
                            "hypocoristics", "islands", "nickname_nouns")
_SURROGATE_OPTIONAL_LISTS = ("name_acronyms", "medical_acronyms", "facility_qualifiers", "national_roads",
                             "streets_not_drawn", "po_boxes", "towns_not_drawn", "feminine_endings",
                             "patient_name_fields", "patient_name_part_fields", "clinical_eponyms",
                             "district_kinds", "district_names", "description_heads", "institutions_regional")
_MANIFEST_KEYS = ("language", "name", "version", "rules", "gazetteers", "closed_lists", "lone_names",
                  "lone_places", "lone_professions", "table_columns")
#: ``lone_professions``: the word lists around an occupation (crfdeid/lone_professions.py).
_LONE_PROFESSION_KEYS = ("after_age", "before", "after", "joins", "stops", "prepositions", "prefixes",
                         "exclude", "roles")
#: ``lone_names``: how many people must bear a given name (the table's male + female counts).
_LONE_NAME_KEYS = ("min_bearers",)


def pack_dir(language_or_path: str | Path) -> Path:
    """``es`` -> the packaged Spanish pack folder; a path is taken as a pack folder."""
    candidate = Path(language_or_path)
    if (candidate / MANIFEST).is_file():
        return candidate
    if isinstance(language_or_path, str) and "/" not in language_or_path and "\\" not in language_or_path:
        packaged = data_dir("gazetteers") / language_or_path
        if (packaged / MANIFEST).is_file():
            return packaged
        known = sorted(p.name for p in data_dir("gazetteers").iterdir() if (p / MANIFEST).is_file())
        raise PackError(
            f"no language pack {language_or_path!r}",
            hint=f"packaged languages: {', '.join(known) or 'none'}; or pass a pack folder",
        )
    raise PackError(f"no {MANIFEST} in this folder", candidate)


def load_pack(language_or_path: str | Path = "es") -> LanguagePack:
    """Load (once per process) the pack for a language code or a pack folder."""
    return _load_pack_cached(str(pack_dir(language_or_path).resolve()))


@lru_cache(maxsize=8)
def _load_pack_cached(root_str: str) -> LanguagePack:
    root = Path(root_str)
    manifest = root / MANIFEST
    data = _yaml_file(manifest)
    _check_keys(
        data, _MANIFEST_KEYS, manifest, "pack", required=("language", "version", "gazetteers", "closed_lists")
    )
    closed = data["closed_lists"]
    _check_keys(closed, _CLOSED + _OPTIONAL_CLOSED, manifest, "closed_lists", required=_CLOSED)
    facility_types = _load_typed_forms(root / closed["facility_type"], "types")
    tables = {name: _load_table(root, name, spec, manifest) for name, spec in data["gazetteers"].items()}
    months, weekdays = _load_calendar(root / closed["calendar"])
    return LanguagePack(
        language=str(data["language"]),
        name=str(data.get("name", data["language"])),
        version=str(data["version"]),
        path=root,
        rules=data.get("rules"),
        tables=tables,
        kinship=_load_kinship(root / closed["kinship"]),
        honorifics=_load_honorifics(root / closed["honorific"]),
        months=months,
        weekdays=weekdays,
        street_types=_load_typed_forms(root / closed["street_type"], "types"),
        facility_types=facility_types,
        stopwords=_load_wordlists(root / closed["stop"], "words"),
        word_classes=_load_wordlists(root / closed["word_class"], "classes"),
        surrogate=_load_surrogate(root / closed["surrogate"]) if "surrogate" in closed else {},
        lone_names=_load_lone_names(data.get("lone_names"), manifest, tables),
        lone_places=_load_lone_places(data.get("lone_places"), manifest, tables),
        lone_professions=_load_lone_professions(data.get("lone_professions"), manifest, tables),
        month_elision=_load_elision(root / closed["calendar"]),
        table_columns=_load_table_columns(data.get("table_columns"), manifest),
    )


def _load_table_columns(spec: Any, manifest: Path) -> dict[str, tuple[str, ...]]:
    """``table_columns``: a mapping of PHI categories to lists of header words."""
    if spec is None:
        return {}
    from .schemes import CATEGORIES

    if not isinstance(spec, dict):
        raise PackError("table_columns: expected a mapping of categories to header words", manifest)
    out = {}
    for category, words in spec.items():
        if category not in CATEGORIES:
            raise PackError(f"table_columns: unknown category {category!r} (one of "
                            f"{', '.join(sorted(CATEGORIES))})", manifest)
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            raise PackError(f"table_columns: {category} must be a list of header words, got {words!r}",
                            manifest)
        out[category] = tuple(w.strip() for w in words)
    return out


def _load_lone_professions(spec: Any, manifest: Path,
                           tables: Mapping[str, Table]) -> dict[str, tuple[str, ...]]:
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise PackError("lone_professions: expected a mapping of word lists "
                        f"({', '.join(_LONE_PROFESSION_KEYS)})", manifest)
    _check_keys(spec, _LONE_PROFESSION_KEYS, manifest, "lone_professions")
    out = {}
    for key, words in spec.items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            raise PackError(f"lone_professions: {key} must be a list of words, got {words!r}", manifest)
        out[key] = tuple(w.strip() for w in words)
    if "profession" not in tables:
        raise PackError("lone_professions needs a gazetteer 'profession'", manifest)
    return out


def _load_lone_places(spec: Any, manifest: Path, tables: Mapping[str, Table]) -> dict[str, float]:
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise PackError("lone_places: expected a mapping {min_population: N}", manifest)
    _check_keys(spec, ("min_population",), manifest, "lone_places", required=("min_population",))
    value = spec["min_population"]
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise PackError(f"lone_places: min_population must be a non-negative number, got {value!r}", manifest)
    municipality = tables.get("municipality")
    if municipality is None or "population" not in municipality.columns:
        raise PackError("lone_places needs a gazetteer 'municipality' with a column population", manifest)
    return {"min_population": float(value)}


def _load_lone_names(spec: Any, manifest: Path, tables: Mapping[str, Table]) -> dict[str, float]:
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise PackError("lone_names: expected a mapping {min_bearers: N}", manifest)
    _check_keys(spec, _LONE_NAME_KEYS, manifest, "lone_names", required=_LONE_NAME_KEYS)
    for key in _LONE_NAME_KEYS:
        if isinstance(spec[key], bool) or not isinstance(spec[key], int | float) or spec[key] < 0:
            raise PackError(f"lone_names: {key} must be a non-negative number, got {spec[key]!r}", manifest)
    given = tables.get("given_name")
    if given is None or not {"male", "female"} <= set(given.columns):
        raise PackError("lone_names needs a gazetteer 'given_name' with columns male and female "
                        "(how many people bear each name)", manifest)
    return {key: float(spec[key]) for key in _LONE_NAME_KEYS}
