"""De-identification policies: what to do with each label, read from a YAML file.

A policy maps every label to one strategy — ``pseudonymise`` (a realistic surrogate),
``mask`` (``[LABEL]``), ``tag`` (``[PERSONA-1]``, numbered per entity), ``redact`` (a fixed
string) or ``keep`` — and sets the generators' knobs (date shift range, age limits, kinship
words). The shipped default is ``policies/deidentify.yaml``; it documents every choice. Files are
read with ``safe_load`` semantics and checked strictly: an unknown key, label or strategy, or a
key given twice, is an error naming the file and the line. A label the policy does not list is
redacted: nothing is ever kept unless the policy says so.

``strategies:`` names labels (of a shipped scheme, ``schemes/``, or of the model's);
``categories:`` names PHI categories (``crfdeid.schemes``), so one policy serves every scheme:
a label takes its own strategy, else its category's, else ``redact``. A category that no
surrogate generator serves (sex, biometric data, other places) cannot be pseudonymised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import CrfdeidError
from .io.text import read_yaml_lines
from .labels import GUIDELINE_LABELS
from .resources import data_dir
from .schemes import CATEGORIES, Scheme, known_category, shipped_schemes
from .surrogates import NO_GENERATOR, NO_SURROGATE, GeneratorOptions

STRATEGIES = ("pseudonymise", "mask", "tag", "redact", "keep")
DEFAULT_POLICY = "deidentify.yaml"
_TOP_KEYS = ("version", "description", "strategies", "categories", "tags", "redact_text", "dates", "ages",
             "kinship", "countries")
_SECTION_KEYS = {
    "dates": ("shift_weeks_min", "shift_weeks_max"),
    "ages": ("generalise_from", "perturb_years", "perturb_from"),
    "kinship": ("replace_terms",),
    "countries": ("keep_home_country",),
}


class PolicyError(CrfdeidError):
    """A policy file is malformed; the message names the file and the line."""


@dataclass(frozen=True)
class Policy:
    """Strategies per label plus the generators' options. Build with ``load`` or ``default``."""

    strategies: Mapping[str, str]
    tags: Mapping[str, str] = field(default_factory=dict)
    redact_text: str = "XXXXX"
    options: GeneratorOptions = field(default_factory=GeneratorOptions)
    source: str = "<built-in>"
    categories: Mapping[str, str] = field(default_factory=dict)

    def strategy(self, label: str, category: str | None = None) -> str:
        """The strategy for a label: its own, else its category's (``category``, or the label's
        category in a shipped scheme); a label the policy covers neither way is redacted."""
        if label in self.strategies:
            return self.strategies[label]
        if self.categories:
            category = category or known_category(label)
            if category in self.categories:
                return self.categories[category]
        return "redact"

    def without_generator(self, category: str) -> str:
        """What a span of a category no generator serves gets instead of a surrogate: the
        policy's own strategy for the category when it is not ``pseudonymise``, else a mask."""
        strategy = self.categories.get(category, "mask")
        return "mask" if strategy == "pseudonymise" else strategy

    def tag(self, label: str, category: str | None = None) -> str:
        """The tag name of a label: its own, else its category's, else the label itself."""
        return self.tags.get(label) or self.tags.get(category or "") or label

    def with_strategy(self, strategy: str) -> Policy:
        """Every label the policy does not keep gets ``strategy`` (``--strategy``)."""
        if strategy not in STRATEGIES:
            raise PolicyError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        changed = {label: s if s == "keep" else strategy for label, s in self.strategies.items()}
        for label in GUIDELINE_LABELS:
            changed.setdefault(label, strategy)
        categories = {c: s if s == "keep" else strategy for c, s in self.categories.items()}
        for category in CATEGORIES:
            categories.setdefault(category, strategy)
        if strategy == "pseudonymise":
            for label in NO_SURROGATE:
                if changed[label] == "pseudonymise":
                    changed[label] = self.strategies.get(label, "mask")
            for label, value in changed.items():
                if value == "pseudonymise" and known_category(label) in NO_GENERATOR:
                    changed[label] = self.strategies.get(label, "mask")
            for category in NO_GENERATOR:
                if categories[category] == "pseudonymise":
                    categories[category] = self.categories.get(category, "mask")
        return replace(self, strategies=changed, categories=categories)

    @classmethod
    def default(cls) -> Policy:
        return load_policy(data_dir("policies") / DEFAULT_POLICY)

    @classmethod
    def load(cls, path: str | Path, scheme: Scheme | None = None) -> Policy:
        return load_policy(path, scheme)


# --- reading YAML with line numbers -----------------------------------------------------------


def _read(path: Path) -> tuple[dict[str, tuple[Any, int]], int]:
    data = read_yaml_lines(path, PolicyError, "policy file")
    if not isinstance(data, dict):
        raise PolicyError("a policy is a mapping (strategies:, tags:, …)", path, 1)
    return data, 1


def _check_keys(data: dict[str, tuple[Any, int]], allowed: tuple[str, ...], path: Path, where: str) -> None:
    for key, (_, line) in data.items():
        if key not in allowed:
            raise PolicyError(
                f"{where}unknown key {key!r}", path, line, hint=f"allowed: {', '.join(allowed)}"
            )


def _int(value: Any, path: Path, line: int, name: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise PolicyError(f"{name} must be a whole number ≥ {low}, got {value!r}", path, line)
    return value


_LABEL_HINT = ("labels are those of a shipped scheme (schemes/meddocan.yaml, schemes/generic.yaml) or of "
               "the model's; a PHI category goes under 'categories:'")


def load_policy(path: str | Path, scheme: Scheme | None = None) -> Policy:
    """Read and check a policy file; ``scheme`` adds the labels of a model's own scheme to the
    labels it may name (the shipped schemes' are always known)."""
    path = Path(path)
    data, _ = _read(path)
    _check_keys(data, _TOP_KEYS, path, "")
    if "strategies" not in data and "categories" not in data:
        raise PolicyError("missing key 'strategies'", path, 1)
    known = {label: c for shipped in shipped_schemes() for label, c in shipped.labels.items()}
    if scheme is not None:
        known.update(scheme.labels)
    strategies = _strategy_table(data.get("strategies", ({}, 1)), known, "label", path)
    by_itself = {category: category for category in CATEGORIES}
    categories = _strategy_table(data.get("categories", ({}, 1)), by_itself, "category", path)
    tags: dict[str, str] = {}
    if "tags" in data:
        raw, line = data["tags"]
        if not isinstance(raw, dict):
            raise PolicyError("'tags' maps labels to tag names", path, line)
        for label, (tag, line) in raw.items():
            if label not in known and label not in CATEGORIES:
                raise PolicyError(f"unknown label {label!r}", path, line, hint=_LABEL_HINT)
            if not isinstance(tag, str) or not tag or any(c.isspace() or c in "[]" for c in tag):
                raise PolicyError(f"{label}: a tag is one word without brackets, got {tag!r}", path, line)
            tags[label] = tag
    redact_text = "XXXXX"
    if "redact_text" in data:
        redact_text, line = data["redact_text"]
        if not isinstance(redact_text, str) or not redact_text:
            raise PolicyError("redact_text must be a non-empty string", path, line)
    sections: dict[str, dict[str, Any]] = {}
    for section, keys in _SECTION_KEYS.items():
        raw, line = data.get(section, ({}, 1))
        if not isinstance(raw, dict):
            raise PolicyError(f"'{section}' must be a mapping", path, line)
        _check_keys(raw, keys, path, f"{section}: ")
        sections[section] = {k: v for k, v in raw.items()}
    options = GeneratorOptions()
    dates, ages, kinship = sections["dates"], sections["ages"], sections["kinship"]
    countries = sections["countries"]
    values: dict[str, Any] = {}
    for key, target in (
        ("shift_weeks_min", "date_shift_min_weeks"),
        ("shift_weeks_max", "date_shift_max_weeks"),
    ):
        if key in dates:
            values[target] = _int(dates[key][0], path, dates[key][1], f"dates.{key}", 1)
    for key, target in (
        ("generalise_from", "age_generalise_from"),
        ("perturb_years", "age_perturb_years"),
        ("perturb_from", "age_perturb_from"),
    ):
        if key in ages:
            values[target] = _int(ages[key][0], path, ages[key][1], f"ages.{key}")
    if "replace_terms" in kinship:
        value, line = kinship["replace_terms"]
        if not isinstance(value, bool):
            raise PolicyError(f"kinship.replace_terms must be true or false, got {value!r}", path, line)
        values["replace_kinship_terms"] = value
    if "keep_home_country" in countries:
        value, line = countries["keep_home_country"]
        if not isinstance(value, bool):
            raise PolicyError(f"countries.keep_home_country must be true or false, got {value!r}", path, line)
        values["keep_home_country"] = value
    options = replace(options, **values)
    if options.date_shift_min_weeks > options.date_shift_max_weeks:
        raise PolicyError(
            "dates.shift_weeks_min is larger than dates.shift_weeks_max",
            path,
            dates.get("shift_weeks_min", (0, 1))[1],
        )
    return Policy(strategies, tags, redact_text, options, str(path), categories)


def _strategy_table(entry: tuple[Any, int], known: dict[str, str], what: str, path: Path) -> dict[str, str]:
    """``strategies:`` (labels, ``known`` maps each to its category) or ``categories:``, checked."""
    raw, line = entry
    if not isinstance(raw, dict):
        maps = "labels" if what == "label" else "PHI categories"
        raise PolicyError(f"'{'strategies' if what == 'label' else 'categories'}' maps {maps} to strategies",
                          path, line)
    table: dict[str, str] = {}
    for name, (strategy, line) in raw.items():
        if name not in known:
            hint = _LABEL_HINT if what == "label" else f"categories: {', '.join(CATEGORIES)}"
            raise PolicyError(f"unknown {what} {name!r}", path, line, hint=hint)
        _check_strategy(name, strategy, path, line)
        if strategy == "pseudonymise" and (name in NO_SURROGATE or known[name] in NO_GENERATOR):
            prefix = "category " if what == "category" else ""
            raise PolicyError(f"{prefix}{name} has no surrogate generator", path, line,
                              hint=f"use keep, mask, tag or redact for this {what}")
        table[name] = strategy
    return table


def _check_strategy(key: str, strategy: Any, path: Path, line: int) -> None:
    if strategy not in STRATEGIES:
        raise PolicyError(f"{key}: unknown strategy {strategy!r}", path, line,
                          hint=f"expected one of {', '.join(STRATEGIES)}")
