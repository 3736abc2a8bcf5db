"""De-identification policies: what to do with each label, read from a YAML file.

A policy maps every label to one strategy — ``pseudonymise`` (a realistic surrogate),
``mask`` (``[LABEL]``), ``tag`` (``[PERSONA-1]``, numbered per entity), ``redact`` (a fixed
string) or ``keep`` — and sets the generators' knobs (date shift range, age limits, kinship
words). The shipped default is ``policies/deidentify.yaml``; it documents every choice. Files are
read with ``safe_load`` semantics and checked strictly: an unknown key, label or strategy, or a
key given twice, is an error naming the file and the line. A label the policy does not list is
redacted: nothing is ever kept unless the policy says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from .errors import CrfdeidError
from .labels import GUIDELINE_LABELS
from .resources import data_dir
from .surrogates import NO_SURROGATE, GeneratorOptions

STRATEGIES = ("pseudonymise", "mask", "tag", "redact", "keep")
DEFAULT_POLICY = "deidentify.yaml"
_TOP_KEYS = ("version", "description", "strategies", "tags", "redact_text", "dates", "ages", "kinship",
             "countries")
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

    def strategy(self, label: str) -> str:
        """The strategy for a label; a label the policy does not list is redacted, never kept."""
        return self.strategies.get(label, "redact")

    def tag(self, label: str) -> str:
        return self.tags.get(label, label)

    def with_strategy(self, strategy: str) -> Policy:
        """Every label the policy does not keep gets ``strategy`` (``--strategy``)."""
        if strategy not in STRATEGIES:
            raise PolicyError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        changed = {label: s if s == "keep" else strategy for label, s in self.strategies.items()}
        for label in GUIDELINE_LABELS:
            changed.setdefault(label, strategy)
        if strategy == "pseudonymise":
            for label in NO_SURROGATE:
                if changed[label] == "pseudonymise":
                    changed[label] = self.strategies.get(label, "mask")
        return replace(self, strategies=changed)

    @classmethod
    def default(cls) -> Policy:
        return load_policy(data_dir("policies") / DEFAULT_POLICY)

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        return load_policy(path)


# --- reading YAML with line numbers -----------------------------------------------------------


def _to_python(node: yaml.Node, path: Path) -> Any:
    """A composed YAML node as plain Python, mappings as ``{key: (value, line)}``."""
    if isinstance(node, yaml.MappingNode):
        out: dict[str, tuple[Any, int]] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise PolicyError("keys must be plain words", path, line)
            if key in out:
                raise PolicyError(f"key {key!r} is given twice (first on line {out[key][1]})", path, line)
            out[key] = (_to_python(value_node, path), line)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_to_python(n, path) for n in node.value]
    return yaml.safe_load(yaml.serialize(node))


def _read(path: Path) -> tuple[dict[str, tuple[Any, int]], int]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PolicyError("policy file not found", path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read the policy: {exc}", path) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise PolicyError(
            f"invalid YAML: {getattr(exc, 'problem', exc)}", path, mark.line + 1 if mark else None
        ) from None
    if not isinstance(node, yaml.MappingNode):
        raise PolicyError("a policy is a mapping (strategies:, tags:, …)", path, 1)
    return _to_python(node, path), node.start_mark.line + 1


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


def load_policy(path: str | Path) -> Policy:
    """Read and check a policy file."""
    path = Path(path)
    data, _ = _read(path)
    _check_keys(data, _TOP_KEYS, path, "")
    if "strategies" not in data:
        raise PolicyError("missing key 'strategies'", path, 1)
    strategies: dict[str, str] = {}
    raw, line = data["strategies"]
    if not isinstance(raw, dict):
        raise PolicyError("'strategies' maps labels to strategies", path, line)
    for label, (strategy, line) in raw.items():
        if label not in GUIDELINE_LABELS:
            raise PolicyError(
                f"unknown label {label!r}",
                path,
                line,
                hint="labels are the MEDDOCAN guideline labels (crfdeid/labels.py)",
            )
        if strategy not in STRATEGIES:
            raise PolicyError(
                f"{label}: unknown strategy {strategy!r}",
                path,
                line,
                hint=f"expected one of {', '.join(STRATEGIES)}",
            )
        if strategy == "pseudonymise" and label in NO_SURROGATE:
            raise PolicyError(
                f"{label} has no surrogate generator",
                path,
                line,
                hint="use keep, mask, tag or redact for this label",
            )
        strategies[label] = strategy
    tags: dict[str, str] = {}
    if "tags" in data:
        raw, line = data["tags"]
        if not isinstance(raw, dict):
            raise PolicyError("'tags' maps labels to tag names", path, line)
        for label, (tag, line) in raw.items():
            if label not in GUIDELINE_LABELS:
                raise PolicyError(f"unknown label {label!r}", path, line)
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
    return Policy(strategies, tags, redact_text, options, str(path))
