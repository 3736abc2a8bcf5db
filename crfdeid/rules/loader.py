"""Reading rule packs: safe YAML, a strict schema, errors that name the file, line and rule id.

A pack is a folder of YAML files, one per rule family (``rules/es/phones.yaml`` → family
``phones``), plus an optional ``pack.yaml`` manifest that records origin, licence and date, and
the label scheme its rules are written in (``scheme: meddocan``, the default; ``generic``; or a
scheme file beside the manifest). Every rule's label must be a label of that scheme.
A rule file is a mapping with a ``description`` of the family and a list of ``rules``:

.. code-block:: yaml

    description: Telephone numbers of patients, relatives and hospitals.
    rules:
      - id: phone-labelled
        label: NUMERO_TELEFONO
        description: A Spanish number after "Tel", "Teléfono" or "Móvil".
        pattern: '(?:Tel|Teléfono|Móvil)[.:]?\\s*(?P<phi>[6-9]\\d{8})'
        priority: 10
        examples:
          match: [{text: "Tel: 912345678", phi: "912345678"}]
          no_match: ["NHC: 912345678"]

Unknown keys are errors and every field has one spelling, so a typo cannot silently disable a
check. YAML duplicate keys, which PyYAML would silently collapse, are errors too.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ..io.text import read_text
from ..resources import data_dir
from ..schemes import DEFAULT_SCHEME, Scheme, SchemeError, load_scheme
from . import shapes
from .model import Context, Example, InvalidRule, Rule, RuleError, flag_value

MANIFEST = "pack.yaml"
RULE_KEYS = {"id", "label", "description", "pattern", "context", "validator", "priority", "flags",
             "examples", "emit", "feature"}
REQUIRED_RULE_KEYS = ("id", "label", "description", "pattern")
FILE_KEYS = {"description", "rules"}
MANIFEST_KEYS = {"name", "language", "description", "origin", "licence", "date", "scheme"}
CONTEXT_KEYS = {"require", "forbid", "window"}
EXAMPLES_KEYS = {"match", "no_match"}
MATCH_EXAMPLE_KEYS = {"text", "phi"}


class _LineDict(dict):
    """A YAML mapping that remembers its line and the line of each key (1-based)."""

    line: int | None = None
    key_lines: dict[str, int]


class _LineList(list):
    """A YAML sequence that remembers the line of each item (1-based)."""

    item_lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader whose mappings and sequences carry line numbers; duplicate keys are refused."""


class _FastLineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same on libyaml's parser where PyYAML has it: a tenth of the time of a rule pack."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _LineDict:
    loader.flatten_mapping(node)
    result = _LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise RuleError(f"keys must be strings, got {key!r}", _path_of(loader),
                            key_node.start_mark.line + 1)
        if key in result:
            raise RuleError(f"key {key!r} appears twice in one mapping", _path_of(loader),
                            key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> _LineList:
    result = _LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _path_of(loader: _LineLoader) -> str:
    return getattr(loader, "crfdeid_path", "<yaml>")


for _loader in (_LineLoader, _FastLineLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def parse_yaml(content: str, path: str | Path = "<yaml>") -> Any:
    """Parse YAML safely; syntax errors become RuleError with the file and line.

    libyaml parses first; a text it refuses is parsed again by PyYAML's own parser, whose
    error message and line are the ones a rule author has always been shown."""
    try:
        return _parse(_FastLineLoader, content, path)
    except RuleError:
        return _parse(_LineLoader, content, path)


def _parse(kind: type, content: str, path: str | Path) -> Any:
    loader = kind(content)
    loader.crfdeid_path = str(path)  # type: ignore[attr-defined]
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise RuleError(f"not valid YAML: {exc.problem or exc.context}", path, line) from None
    except yaml.YAMLError as exc:
        raise RuleError(f"not valid YAML: {exc}", path) from None
    finally:
        loader.dispose()


class _Where:
    """The file and rule a value belongs to, so every schema error says where to look."""

    def __init__(self, path: str, rule_id: str | None = None) -> None:
        self.path, self.rule_id = path, rule_id

    def error(self, problem: str, line: int | None, hint: str | None = None) -> RuleError:
        prefix = f"rule {self.rule_id!r}: " if self.rule_id else ""
        return RuleError(prefix + problem, self.path, line, hint)


def _line(mapping: Any, key: str | None = None) -> int | None:
    if isinstance(mapping, _LineDict):
        return mapping.key_lines.get(key, mapping.line) if key else mapping.line
    return None


def _check_keys(mapping: Any, allowed: set[str], what: str, where: _Where, line: int | None) -> None:
    if not isinstance(mapping, dict):
        raise where.error(f"{what} must be a mapping, got {type(mapping).__name__}", line)
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise where.error(f"unknown key {unknown[0]!r} in {what}; allowed: {', '.join(sorted(allowed))}",
                          _line(mapping, unknown[0]))


def _string(value: Any, what: str, where: _Where, line: int | None) -> str:
    if not isinstance(value, str):
        raise where.error(f"{what} must be a string, got {type(value).__name__} {value!r}", line,
                          hint="quote values that YAML would read as numbers, dates or yes/no")
    return value


def _item_lines(value: Any, line: int | None) -> list[int | None]:
    """The line of each item of a YAML list (the list's own line when unknown)."""
    known = getattr(value, "item_lines", None)
    return list(known) if known is not None else [line] * len(value)


def _string_list(value: Any, what: str, where: _Where, line: int | None) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list):
        raise where.error(f"{what} must be a list of strings", line)
    return tuple(_string(v, f"each item of {what}", where, item_line)
                 for v, item_line in zip(value, _item_lines(value, line), strict=True))


def _context(raw: Any, where: _Where, line: int | None) -> Context:
    _check_keys(raw, CONTEXT_KEYS, "context", where, line)
    window = raw.get("window", "line")
    if window == "line":
        window = None
    elif type(window) is not int or window < 1:
        raise where.error(f"context window must be a positive number of tokens or 'line', got {window!r}",
                          _line(raw, "window"))
    require = _string_list(raw.get("require", []), "context.require", where, _line(raw, "require"))
    forbid = _string_list(raw.get("forbid", []), "context.forbid", where, _line(raw, "forbid"))
    try:
        return Context(require=require, forbid=forbid, window=window)
    except ValueError as exc:
        raise where.error(str(exc), line) from None


def _examples(raw: Any, where: _Where, line: int | None) -> tuple[tuple[Example, ...], tuple[Example, ...]]:
    _check_keys(raw, EXAMPLES_KEYS, "examples", where, line)
    matches = raw.get("match", [])
    if not isinstance(matches, list):
        raise where.error("examples.match must be a list of {text, phi}", _line(raw, "match"))
    positive = []
    for item, item_line in zip(matches, _item_lines(matches, _line(raw, "match")), strict=True):
        _check_keys(item, MATCH_EXAMPLE_KEYS, "a match example", where, item_line)
        if set(item) != MATCH_EXAMPLE_KEYS:
            raise where.error("a match example needs both 'text' and 'phi' (the PHI the rule must return)",
                              item_line)
        text = _string(item["text"], "example text", where, item_line)
        phi = _string(item["phi"], "example phi", where, item_line)
        if not phi or phi not in text:
            raise where.error(f"example phi {phi!r} is not part of its text {text!r}", item_line)
        positive.append(Example(text, phi, item_line))
    no_match = raw.get("no_match", [])
    negatives = _string_list(no_match, "examples.no_match", where, _line(raw, "no_match"))
    lines = _item_lines(no_match, _line(raw, "no_match"))
    negative = tuple(Example(t, None, n) for t, n in zip(negatives, lines, strict=True))
    return tuple(positive), negative


def _rule(raw: Any, family: str, path: str, index: int, scheme: Scheme | None = None) -> Rule:
    line = _line(raw)
    rule_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    where = _Where(path, rule_id or f"#{index + 1}")
    _check_keys(raw, RULE_KEYS, "a rule", where, line)
    missing = [k for k in REQUIRED_RULE_KEYS if k not in raw]
    if missing:
        raise where.error(f"missing required key(s) {', '.join(missing)}", line)
    values = {k: _string(raw[k], k, where, _line(raw, k)) for k in REQUIRED_RULE_KEYS}
    if scheme is not None and values["label"] not in scheme.labels:
        example = next(iter(scheme.labels))
        raise where.error(f"unknown label {values['label']!r}; expected a label of scheme {scheme.name!r} "
                          f"such as {example}", _line(raw, "label"),
                          hint="the pack's scheme is `scheme:` in its pack.yaml (default: meddocan); "
                               "see schemes/ for the labels of each")
    if "validator" in raw:
        values["validator"] = _string(raw["validator"], "validator", where, _line(raw, "validator"))
    if "flags" in raw:
        values["flags"] = _string_list(raw["flags"], "flags", where, _line(raw, "flags"))
    if "priority" in raw:
        values["priority"] = raw["priority"]
    if "emit" in raw:
        values["emit"] = raw["emit"]
    if "feature" in raw:
        values["feature"] = raw["feature"]
    if "context" in raw:
        values["context"] = _context(raw["context"], where, _line(raw, "context"))
    if "examples" in raw:
        values["examples"], values["counter_examples"] = _examples(raw["examples"], where,
                                                                   _line(raw, "examples"))
    try:
        return Rule(family=family, path=path, line=line, scheme=scheme.name if scheme else DEFAULT_SCHEME,
                    **values)
    except InvalidRule as exc:
        raise where.error(str(exc), _line(raw, exc.field)) from None


def load_rule_file(path: str | Path, scheme: Scheme | None = None) -> list[Rule]:
    """The rules of one YAML file; the family is the file name without ``.yaml``. Labels are
    checked against ``scheme`` (default: the scheme of the pack the file is in)."""
    path = Path(path)
    scheme = scheme or pack_scheme(path.parent)
    data = parse_yaml(read_text(path), path)
    where = _Where(str(path))
    _check_keys(data, FILE_KEYS, "a rule file", where, _line(data) or 1)
    if "rules" not in data or not isinstance(data["rules"], list):
        raise where.error("a rule file needs a 'rules:' list", _line(data, "rules") or 1)
    if not isinstance(data.get("description"), str):
        raise where.error("a rule file needs a 'description:' of its family", _line(data) or 1)
    return [_rule(raw, path.stem, str(path), i, scheme) for i, raw in enumerate(data["rules"])]


def read_manifest(folder: str | Path) -> dict[str, str]:
    """The pack's ``pack.yaml`` (name, language, origin, licence, date, and the label ``scheme``
    its rules emit: ``meddocan`` when absent, ``generic``), or {} when absent."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        return {}
    data = parse_yaml(read_text(path), path)
    where = _Where(str(path))
    _check_keys(data, MANIFEST_KEYS, "the pack manifest", where, _line(data) or 1)
    return {k: _string(v, k, where, _line(data, k)) for k, v in data.items()}


def pack_scheme(pack: str | Path) -> Scheme:
    """The label scheme a rule pack (or the folder of a rule file) is written in: ``scheme:`` of
    its manifest — a shipped scheme's name or a scheme file beside the manifest — else meddocan."""
    path = resolve_pack(pack)
    folder = path if path.is_dir() else path.parent
    name = read_manifest(folder).get("scheme", DEFAULT_SCHEME)
    try:
        return load_scheme(name, base=folder)
    except SchemeError as exc:
        raise RuleError(f"scheme: {exc.message}", folder / MANIFEST, hint=exc.hint) from None


def rule_files(pack: str | Path) -> list[Path]:
    """The rule files of a pack: a single YAML file, or every ``*.yaml`` of a folder but the
    manifest and the scheme file it names."""
    path = resolve_pack(pack)
    if path.is_file():
        return [path]
    skip = {MANIFEST, read_manifest(path).get("scheme", "")}  # a scheme file beside the manifest
    return sorted(p for p in path.glob("*.yaml") if p.name not in skip)


def load_rules(pack: str | Path) -> list[Rule]:
    """Every rule of a pack, in file then file order (duplicate ids are not checked here). A
    shipped pack's prefilter shapes come from the load-time cache (``shapes.py``)."""
    rules: list[Rule] = []
    scheme = pack_scheme(pack)
    paths = rule_files(pack)
    unstored = shapes.preload(paths)
    for path in paths:
        rules.extend(load_rule_file(path, scheme))
    if unstored is not None:
        shapes.store(unstored, ((r.pattern, flag_value(r.flags), r.shape) for r in rules))
    return rules


def shipped_packs() -> list[str]:
    """Language codes of the packs shipped with crfdeid (folders of ``rules/``)."""
    root = data_dir("rules")
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.yaml")))


def resolve_pack(pack: str | Path) -> Path:
    """A pack given as a path (folder or YAML file) or as a shipped language code such as ``es``."""
    path = Path(pack)
    if path.exists():
        if path.is_file() and path.suffix not in (".yaml", ".yml"):
            raise RuleError("a rule file must be a .yaml file", path)
        return path
    shipped = data_dir("rules") / str(pack)
    if isinstance(pack, str) and "/" not in pack and shipped.is_dir():
        return shipped
    known = ", ".join(shipped_packs()) or "none"
    raise RuleError(f"no rule pack {str(pack)!r}: not a file or folder, nor a shipped pack", None,
                    hint=f"give a folder of .yaml rule files, or a shipped language code ({known})")


def check_unique_ids(rules: Iterable[Rule]) -> None:
    """Raise naming both places when two rules share an id (``rule:<id>`` must be unambiguous)."""
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in seen:
            raise RuleError(f"rule id {rule.id!r} is used twice (first at {seen[rule.id].where})",
                            rule.path, rule.line)
        seen[rule.id] = rule
