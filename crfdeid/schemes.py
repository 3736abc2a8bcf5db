"""Label schemes as data: every label of a corpus maps to one PHI category.

The **categories** are fixed here, in code: they are what rules, merge and de-identification
policies and surrogate generators understand. A **scheme** is a small YAML file naming a
corpus's labels and the category of each:

.. code-block:: yaml

    name: my_corpus
    description: Labels of our discharge letters.
    labels:
      DATE: date
      NAME_DOCTOR: {category: person_clinician, description: physicians and nurses}
    rules_map_to:          # optional: which label a rule of this category becomes
      region: LOCATION_CITY

Two schemes ship with crfdeid (``schemes/``): ``meddocan`` (the MEDDOCAN guideline labels) and
``generic`` (one HIPAA/i2b2-like label per category). A rule pack declares the scheme its rules
are written in (``scheme:`` in its ``pack.yaml``); a rule's label is mapped through its category
to the label of the model's (or corpus's) scheme, and a category that scheme lacks drops the
rule's spans — said once by ``train``, ``cv``, ``rules explain`` and ``annotate``. Files are
read strictly: an unknown key or category, or a key given twice, is an error naming the file
and the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import CrfdeidError
from .io.text import read_yaml_lines
from .resources import data_dir
from .types import Document, Span

#: The PHI categories, each with its meaning. Fixed in code: everything keyed by meaning
#: (rules, policies, surrogate generators) refers to these names.
CATEGORIES: dict[str, str] = {
    "person_patient": "the patient's name",
    "person_clinician": "the name of a physician, nurse or other member of staff",
    "person_relative": "the name of a relative or companion of the patient (MEDDOCAN: with its kinship word)",
    "person_other": "the name of any other person",
    "kinship": "a kinship word standing for a relative (\"her mother\")",
    "date": "a date or part of one (day, month, year, time)",
    "age": "an age",
    "sex": "the patient's sex or gender",
    "town": "a town or city (MEDDOCAN also files provinces and postal codes here)",
    "region": "a region, state, province or county",
    "street": "a street address",
    "postal_code": "a postal code",
    "country": "a country or nationality",
    "hospital": "a hospital or clinic",
    "health_centre": "a primary-care centre or surgery",
    "organisation": "any other organisation or institution",
    "location_other": "any other place",
    "id_patient": "the patient's record, national ID or other personal number",
    "id_case": "the number of an admission, episode or case",
    "id_insurance": "a health-insurance or social-security number",
    "id_licence": "a clinician's licence or registration number",
    "id_employee": "an employee number",
    "id_other": "any other identifying number or code",
    "phone": "a telephone number",
    "fax": "a fax number",
    "email": "an e-mail address",
    "url": "a web address",
    "ip": "an IP address",
    "vehicle": "a vehicle identifier or licence plate",
    "device": "a device identifier or serial number",
    "biometric": "a biometric identifier (fingerprint, voice print…)",
    "profession": "a profession or occupation",
    "other": "any other identifying detail (a tattoo, a rare event)",
}
SHIPPED_SCHEMES = ("meddocan", "generic")
DEFAULT_SCHEME = "meddocan"
_TOP_KEYS = ("name", "description", "labels", "rules_map_to")
_LABEL_KEYS = ("category", "description")
_LABEL_RE = re.compile(r"[^\s\[\]]+")


class SchemeError(CrfdeidError):
    """A scheme file is invalid, or labels cannot be mapped (names the file, line and labels)."""


@dataclass(frozen=True)
class Scheme:
    """A corpus's labels and the PHI category of each."""

    name: str
    labels: Mapping[str, str]
    description: str = ""
    rules_map_to: Mapping[str, str] = field(default_factory=dict)
    label_descriptions: Mapping[str, str] = field(default_factory=dict)
    source: str = "<scheme>"

    def __post_init__(self) -> None:
        for label, category in self.labels.items():
            if category not in CATEGORIES:
                raise SchemeError(f"{label}: unknown category {category!r}", self.source)
        for category, label in self.rules_map_to.items():
            _check_target(self, category, label, self.source, None)

    def category(self, label: str) -> str | None:
        """The category of a label of this scheme (None: not one of its labels)."""
        return self.labels.get(label)

    def labels_of(self, category: str) -> list[str]:
        return [label for label, c in self.labels.items() if c == category]

    def label_for(self, category: str) -> str | None:
        """The label a span of ``category`` takes in this scheme: the ``rules_map_to`` choice,
        else the one label of that category, else None (the scheme lacks the category).
        Two labels of one category and no choice are an error: the scheme must say."""
        if category in self.rules_map_to:
            return self.rules_map_to[category]
        found = self.labels_of(category)
        if len(found) > 1:
            raise SchemeError(
                f"scheme {self.name!r} has {len(found)} labels of category {category!r} "
                f"({', '.join(found)}) and does not say which one other schemes' spans map to",
                self.source,
                hint=f"add to the scheme:  rules_map_to: {{{category}: {found[0]}}}",
            )
        return found[0] if found else None

    def to_dict(self) -> dict[str, Any]:
        """The whole mapping, as a model's metadata records it (``from_dict`` reads it back)."""
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "labels": dict(self.labels)}
        if self.rules_map_to:
            out["rules_map_to"] = dict(self.rules_map_to)
        if self.label_descriptions:
            out["label_descriptions"] = dict(self.label_descriptions)
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str | Path = "<scheme>") -> Scheme:
        if not isinstance(data, dict) or not isinstance(data.get("labels"), dict):
            raise SchemeError("a recorded scheme is a mapping with 'name' and 'labels'", where)
        return cls(str(data.get("name", "")), dict(data["labels"]), str(data.get("description", "")),
                   dict(data.get("rules_map_to") or {}), dict(data.get("label_descriptions") or {}),
                   str(where))

    def same_mapping(self, other: Scheme) -> bool:
        return dict(self.labels) == dict(other.labels) and dict(self.rules_map_to) == dict(other.rules_map_to)


def _check_target(scheme: Scheme, category: str, label: Any, path: str, line: int | None) -> None:
    if category not in CATEGORIES:
        raise SchemeError(f"rules_map_to: unknown category {category!r}", path, line,
                          hint=_categories_hint(category))
    if label not in scheme.labels:
        raise SchemeError(f"rules_map_to: {category} -> {label!r} is not a label of this scheme", path, line)
    own = scheme.labels_of(category)
    if own and label not in own:
        raise SchemeError(f"rules_map_to: {category} -> {label} but the scheme's labels of {category} are "
                          f"{', '.join(own)}", path, line)


#: Words people write for a category, for the "did you mean" of an error.
_SYNONYMS = {"city": "town", "state": "region", "province": "region", "zip": "postal_code",
             "organization": "organisation", "institution": "organisation", "location": "location_other",
             "name": "person_other", "patient": "person_patient", "doctor": "person_clinician",
             "id": "id_other", "telephone": "phone", "e-mail": "email", "license": "id_licence"}


def _categories_hint(wrong: str) -> str:
    import difflib

    close = [_SYNONYMS[wrong.lower()]] if wrong.lower() in _SYNONYMS else difflib.get_close_matches(
        wrong, CATEGORIES, n=1)
    near = f"did you mean {close[0]!r}? " if close else ""
    return near + "categories: " + ", ".join(CATEGORIES)


# --- reading scheme files ---------------------------------------------------------------------


def load_scheme_file(path: str | Path) -> Scheme:
    """Read and check a scheme file; every problem names the file and the line."""
    path = Path(path)
    data = read_yaml_lines(path, SchemeError, "scheme file")
    if not isinstance(data, dict):
        raise SchemeError("a scheme is a mapping with name:, description: and labels:", path, 1)
    for key, (_, line) in data.items():
        if key not in _TOP_KEYS:
            raise SchemeError(f"unknown key {key!r}", path, line, hint=f"allowed: {', '.join(_TOP_KEYS)}")
    for key in ("name", "labels"):
        if key not in data:
            raise SchemeError(f"missing key {key!r}", path, 1)
    name, line = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise SchemeError("name must be a non-empty string", path, line)
    description = ""
    if "description" in data:
        description, line = data["description"]
        if not isinstance(description, str):
            raise SchemeError("description must be a string", path, line)
    raw, line = data["labels"]
    if not isinstance(raw, dict) or not raw:
        raise SchemeError("labels: maps each LABEL to a category", path, line)
    labels: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    for label, (value, line) in raw.items():
        if not isinstance(label, str) or not _LABEL_RE.fullmatch(label):
            raise SchemeError(f"label {label!r} must be one word without brackets", path, line)
        if isinstance(value, dict):
            for key, (_, key_line) in value.items():
                if key not in _LABEL_KEYS:
                    raise SchemeError(f"{label}: unknown key {key!r}", path, key_line,
                                      hint=f"allowed: {', '.join(_LABEL_KEYS)}")
            if "category" not in value:
                raise SchemeError(f"{label}: missing key 'category'", path, line)
            category, line = value["category"]
            if "description" in value:
                text_, text_line = value["description"]
                if not isinstance(text_, str):
                    raise SchemeError(f"{label}: description must be a string", path, text_line)
                descriptions[label] = text_
        else:
            category = value
        if not isinstance(category, str) or category not in CATEGORIES:
            raise SchemeError(f"{label}: unknown category {category!r}", path, line,
                              hint=_categories_hint(str(category)))
        labels[label] = category
    scheme = Scheme(name.strip(), labels, description.strip(), {}, descriptions, str(path))
    targets: dict[str, str] = {}
    if "rules_map_to" in data:
        raw, line = data["rules_map_to"]
        if not isinstance(raw, dict):
            raise SchemeError("rules_map_to: maps a category to one of the scheme's labels", path, line)
        for category, (label, line) in raw.items():
            _check_target(scheme, category, label, str(path), line)
            targets[category] = label
    return replace(scheme, rules_map_to=targets)


def shipped_scheme_path(name: str) -> Path:
    return data_dir("schemes") / f"{name}.yaml"


@lru_cache(maxsize=16)
def _load_cached(path: str) -> Scheme:
    return load_scheme_file(path)


def load_scheme(name_or_path: str | Path | Scheme, base: Path | None = None) -> Scheme:
    """A shipped scheme by name (``meddocan``, ``generic``) or a scheme YAML file (a relative
    path is looked for in ``base`` first, e.g. a rule pack's folder)."""
    if isinstance(name_or_path, Scheme):
        return name_or_path
    text = str(name_or_path)
    candidates = []
    if base is not None:
        candidates.append(Path(base) / text)
    candidates.append(Path(text))
    for candidate in candidates:
        if candidate.suffix in (".yaml", ".yml") and candidate.is_file():
            return _load_cached(str(candidate.resolve()))
    if "/" not in text and "\\" not in text and shipped_scheme_path(text).is_file():
        return _load_cached(str(shipped_scheme_path(text)))
    raise SchemeError(
        f"no label scheme {text!r}",
        hint=f"shipped schemes: {', '.join(shipped_names())}; or give a scheme .yaml file",
    )


def shipped_names() -> list[str]:
    folder = data_dir("schemes")
    return sorted(p.stem for p in folder.glob("*.yaml"))


def shipped_schemes() -> list[Scheme]:
    return [load_scheme(name) for name in SHIPPED_SCHEMES]


def known_category(label: str, scheme: Scheme | None = None) -> str | None:
    """A label's category: in ``scheme`` first, else in the shipped schemes, else None."""
    if scheme is not None and label in scheme.labels:
        return scheme.labels[label]
    for shipped in shipped_schemes():
        if label in shipped.labels:
            return shipped.labels[label]
    return None


# --- choosing the scheme of a corpus ------------------------------------------------------------

_GUESSES = (
    (("PATIENT",), "person_patient"),
    (("DOCTOR", "CLINICIAN", "STAFF", "PHYSICIAN", "NURSE"), "person_clinician"),
    (("RELATIVE", "FAMILY"), "person_relative"),
    (("KIN",), "kinship"),
    (("DATE", "TIME"), "date"),
    (("AGE",), "age"),
    (("SEX", "GENDER"), "sex"),
    (("ZIP", "POSTAL", "PLZ", "POSTCODE"), "postal_code"),
    (("CITY", "TOWN"), "town"),
    (("STATE", "REGION", "PROVINCE", "COUNTY"), "region"),
    (("STREET", "ADDRESS"), "street"),
    (("COUNTRY", "NATIONALITY"), "country"),
    (("HOSPITAL", "CLINIC"), "hospital"),
    (("ORGANI", "INSTITUT", "COMPANY"), "organisation"),
    (("PHONE", "TEL"), "phone"),
    (("FAX",), "fax"),
    (("MAIL",), "email"),
    (("URL", "WEB"), "url"),
    (("IP",), "ip"),
    (("PROFESSION", "JOB", "OCCUPATION"), "profession"),
)


def guess_category(label: str) -> str:
    """A first guess at a label's category from the words of its name (for the error's hint)."""
    upper = label.upper()
    words = set(re.split(r"[^A-Z0-9]+", upper))
    if "NAME" in words or "PERSON" in words:
        for keys, category in _GUESSES[:3]:
            if any(k in upper for k in keys):
                return category
        return "person_other"
    for keys, category in _GUESSES:
        if any(k in words or (len(k) > 3 and k in upper) for k in keys):
            return category
    if "ID" in words or "NUMBER" in words:
        return "id_other"
    if "LOCATION" in words or "PLACE" in words:
        return "location_other"
    return "other"


def scheme_template(labels: Iterable[str], limit: int = 2) -> str:
    """A scheme file to start from, with a guessed category for each label."""
    labels = sorted(labels)
    lines = ["name: my_corpus", "description: The labels of my corpus.", "labels:"]
    lines += [f"  {label}: {guess_category(label)}" for label in labels[:limit]]
    return "\n".join(lines)


def choose_scheme(labels: Iterable[str], requested: str | Path | Scheme | None = None) -> Scheme:
    """The scheme of a corpus: ``requested`` (every label must be in it), else ``meddocan`` if
    every label is one of its labels, else ``generic``, else an error naming the labels no
    scheme maps and showing a scheme file to write."""
    found = set(labels)
    if requested is not None:
        scheme = load_scheme(requested)
        missing = sorted(found - set(scheme.labels))
        if missing:
            raise SchemeError(
                f"{len(missing)} label(s) of the corpus are not in scheme {scheme.name!r}: "
                f"{', '.join(missing)}",
                hint=_template_hint(missing, scheme),
            )
        return scheme
    for name in SHIPPED_SCHEMES:
        scheme = load_scheme(name)
        if found <= set(scheme.labels):
            return scheme
    generic = load_scheme("generic")
    missing = sorted(found - set(generic.labels) - set(load_scheme(DEFAULT_SCHEME).labels))
    if not missing:  # a mix of two schemes' labels
        missing = sorted(found - set(generic.labels))
    raise SchemeError(
        f"no label scheme maps every label of the corpus; unmapped: {', '.join(missing)}",
        hint=_template_hint(missing, None),
    )


def _template_hint(missing: list[str], scheme: Scheme | None) -> str:
    own = scheme is not None and scheme.name not in SHIPPED_SCHEMES and scheme.source.endswith(".yaml")
    where = f"add them to {scheme.source}" if own else (
        "write a scheme file listing every label of the corpus with its category (categories: "
        f"{', '.join(CATEGORIES)}) and pass it with --scheme FILE; to start from, with guessed categories")
    template = "\n    ".join(scheme_template(missing).splitlines())
    return f"{where}:\n    {template}"


# --- mapping labels between schemes -------------------------------------------------------------


@dataclass(frozen=True)
class LabelMap:
    """Labels of one scheme (a rule pack's) -> labels of another (a model's), through categories.

    ``mapping[label]`` is the target label, or None when the target scheme lacks the label's
    category (the span is dropped)."""

    source: Scheme
    target: Scheme
    mapping: Mapping[str, str | None]

    @classmethod
    def between(cls, source: Scheme, target: Scheme, labels: Iterable[str] | None = None) -> LabelMap:
        wanted = list(dict.fromkeys(labels if labels is not None else source.labels))
        mapping: dict[str, str | None] = {}
        for label in wanted:
            category = source.category(label)
            if category is None:
                raise SchemeError(f"label {label!r} is not in scheme {source.name!r}", source.source)
            if label in target.labels and target.labels[label] == category:
                mapping[label] = label
            else:
                mapping[label] = target.label_for(category)
        return cls(source, target, mapping)

    @property
    def identity(self) -> bool:
        return all(k == v for k, v in self.mapping.items())

    def __call__(self, label: str) -> str | None:
        if label in self.mapping:
            return self.mapping[label]
        category = known_category(label, self.source)
        return self.target.label_for(category) if category is not None else None

    def spans(self, spans: Iterable[Span]) -> list[Span]:
        """The spans relabelled; those whose category the target lacks are dropped."""
        if self.identity:
            return list(spans)
        out = []
        for span in spans:
            label = self(span.label)
            if label is not None:
                out.append(span if label == span.label else replace(span, label=label))
        return out

    def dropped(self) -> dict[str, list[str]]:
        """Category -> the source labels whose spans are dropped."""
        out: dict[str, list[str]] = {}
        for label, target in self.mapping.items():
            if target is None:
                out.setdefault(self.source.labels[label], []).append(label)
        return out


def dropped_rules_message(rules: Iterable[Any], label_map: LabelMap) -> str | None:
    """One sentence naming the rules whose spans a target scheme cannot hold, or None."""
    by_category: dict[str, list[str]] = {}
    for rule in rules:
        if label_map(rule.label) is None:
            by_category.setdefault(label_map.source.labels.get(rule.label, "?"), []).append(rule.id)
    if not by_category:
        return None
    parts = [f"{', '.join(ids)} ({category})" for category, ids in sorted(by_category.items())]
    return (f"scheme {label_map.target.name!r} has no label for the categories of rule(s) "
            f"{'; '.join(parts)}: their spans are dropped (they still feed the CRF as features); to keep "
            "them, map each category to a label of the scheme under its rules_map_to:")


def to_scheme(documents: Mapping[str, Document], target: Scheme, source: Scheme | None = None
              ) -> tuple[dict[str, Document], dict[str, int]]:
    """Documents with every span relabelled into ``target`` through its category (labels are
    read in ``source`` first, then in the shipped schemes). Returns the documents and, per
    source label, how many spans were dropped because ``target`` lacks their category. A label
    no scheme knows is an error naming it."""
    unknown = sorted({s.label for d in documents.values() for s in d.spans
                      if known_category(s.label, source) is None})
    if unknown:
        raise SchemeError(f"label(s) of no known scheme: {', '.join(unknown)}",
                          hint="name the scheme they belong to with --source-scheme FILE")
    cache: dict[str, str | None] = {}
    dropped: dict[str, int] = {}
    out = {}
    for doc_id, doc in documents.items():
        spans = []
        for span in doc.spans:
            if span.label not in cache:
                category = known_category(span.label, source)
                own = target.labels.get(span.label) == category
                cache[span.label] = span.label if own else target.label_for(category)  # type: ignore[arg-type]
            label = cache[span.label]
            if label is None:
                dropped[span.label] = dropped.get(span.label, 0) + 1
            else:
                spans.append(span if label == span.label else replace(span, label=label))
        out[doc_id] = doc.with_spans(spans)
    return out, dropped
