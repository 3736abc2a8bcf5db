"""Checking a language pack folder before it is used: what ``crfdeid pack check DIR`` runs.

Each check is independent, so one broken file does not hide the state of the others: the
manifest and its keys, every gazetteer table (present, parsed strictly, the matched columns in its
header, not empty, no duplicate rows or entries), every closed list (parsed by the same strict
readers the engine uses, not empty, no word listed twice, the calendar complete), the
provenance record against the tables it describes, the whole pack loading, and the rule pack the
manifest names (or that is given) passing its own examples. A check is ``ok``, ``warning``
(worth a look, not wrong: a town name shared by two provinces) or ``error`` (the pack would fail
or silently lose entries).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import langpack
from .errors import CrfdeidError
from .langpack import MANIFEST, PackError, fold

OK, WARNING, ERROR = "ok", "warning", "error"

#: Closed list -> its strict reader, the one ``load_pack`` uses.
_CLOSED_READERS: dict[str, Callable[[Path], Any]] = {
    "kinship": langpack._load_kinship,
    "honorific": langpack._load_honorifics,
    "calendar": langpack._load_calendar,
    "street_type": lambda path: langpack._load_typed_forms(path, "types"),
    "facility_type": lambda path: langpack._load_typed_forms(path, "types"),
    "stop": lambda path: langpack._load_wordlists(path, "words"),
    "word_class": lambda path: langpack._load_wordlists(path, "classes"),
    "surrogate": langpack._load_surrogate,
}
#: How many examples a warning about duplicates names.
_SHOWN = 3


@dataclass(frozen=True)
class Check:
    """The outcome of one check: what was checked, ``ok``/``warning``/``error``, and why."""

    name: str
    status: str
    detail: str


def check_pack(folder: str | Path, rules: str | Path | None = None) -> list[Check]:
    """Every check of the pack in ``folder`` (and of ``rules``, else of the manifest's rule pack)."""
    root = Path(folder)
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        raise CrfdeidError(f"no {MANIFEST} in this folder", root,
                           hint="a language pack is a folder with a pack.yaml manifest")
    checks: list[Check] = []
    try:
        data = langpack._yaml_file(manifest_path)
        langpack._check_keys(data, langpack._MANIFEST_KEYS, manifest_path, "pack",
                             required=("language", "version", "gazetteers", "closed_lists"))
        closed = data["closed_lists"]
        if not isinstance(closed, dict) or not isinstance(data["gazetteers"], dict):
            raise PackError("'gazetteers' and 'closed_lists' must be mappings", manifest_path)
        langpack._check_keys(closed, (*langpack._CLOSED, *langpack._OPTIONAL_CLOSED), manifest_path,
                             "closed_lists", required=langpack._CLOSED)
    except CrfdeidError as exc:
        return [Check("manifest", ERROR, str(exc))]
    checks.append(Check("manifest", OK, f"language {data['language']}, version {data['version']}, "
                        f"{len(data['gazetteers'])} tables, {len(closed)} closed lists"))
    for name, spec in data["gazetteers"].items():
        checks.append(_check_table(root, name, spec, manifest_path))
    for name, file in closed.items():
        checks.append(_check_closed(root / str(file), name))
    checks.extend(_check_provenance(root))
    checks.append(_check_loads(root))
    rules_dir = Path(rules) if rules is not None else _manifest_rules(root, data.get("rules"))
    if rules_dir is not None:
        checks.append(_check_rules(rules_dir))
    return checks


def failed(checks: Iterable[Check]) -> bool:
    return any(c.status == ERROR for c in checks)


def format_checks(checks: list[Check]) -> str:
    """A table for people: one line per check, then a summary line."""
    width = max(len(c.name) for c in checks)
    lines = [f"{c.status.upper():<8} {c.name:<{width}}  {c.detail}" for c in checks]
    counts = Counter(c.status for c in checks)
    lines.append(f"{len(checks)} checks: {counts[OK]} ok, {counts[WARNING]} warning(s), "
                 f"{counts[ERROR]} error(s)")
    return "\n".join(lines)


# --- the checks -------------------------------------------------------------------------------


def _guard(name: str, check: Callable[[], Check]) -> Check:
    try:
        return check()
    except CrfdeidError as exc:
        return Check(name, ERROR, str(exc))


def _duplicates(keys: Iterable[str]) -> list[str]:
    return [key for key, n in Counter(keys).items() if n > 1]


def _check_table(root: Path, name: str, spec: Any, manifest: Path) -> Check:
    def run() -> Check:
        table = langpack._load_table(root, name, spec, manifest)
        label = f"table {name} ({table.path.name})"
        if not table.rows:
            return Check(label, ERROR, "empty: no rows under the header")
        problems = []
        rows = [tuple(row.values()) for row in table.rows]
        same_rows = _duplicates(rows)
        if same_rows:
            problems.append(f"{len(same_rows)} row(s) given twice, e.g. {' | '.join(same_rows[0])!r}")
        blank = sum(1 for row in table.rows for cell in row.values() if cell != cell.strip())
        if blank:
            problems.append(f"{blank} cell(s) with leading or trailing spaces")
        if problems:
            return Check(label, ERROR, "; ".join(problems))
        shared = _duplicates(fold(row[spec["column"]]) for row in table.rows)
        detail = f"{len(table.rows)} rows, columns {', '.join(table.columns)}"
        if shared:
            return Check(label, WARNING, f"{detail}; {len(shared)} entr(y/ies) on several rows "
                         f"(e.g. {', '.join(sorted(shared)[:_SHOWN])}): fine when the other columns "
                         "tell them apart")
        return Check(label, OK, detail)

    return _guard(f"table {name}", run)


def _yaml_words(value: Any) -> Iterable[str]:
    """Every string of a closed list's entries, at any depth (a word list, or a mapping of them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _yaml_words(item)
    elif isinstance(value, list):
        for item in value:
            yield from _yaml_words(item)


def _check_closed(path: Path, name: str) -> Check:
    def run() -> Check:
        label = f"closed list {name} ({path.name})"
        if not path.is_file():
            return Check(label, ERROR, "file not found")
        reader = _CLOSED_READERS[name]
        loaded = reader(path)
        if name == "calendar":
            months, weekdays = loaded
            return Check(label, OK, f"{len(months)} months, {len(weekdays)} weekdays, "
                         f"{sum(len(m.abbreviations) for m in (*months, *weekdays))} abbreviations")
        if not loaded:
            return Check(label, ERROR, "empty")
        if name in ("stop", "word_class", "street_type", "facility_type"):
            data = langpack._yaml_file(path)
            key = "words" if name == "stop" else "classes" if name == "word_class" else "types"
            twice = [w for group in data[key].values() for w in _duplicates(fold(x) for x in group)]
            if twice:
                return Check(label, WARNING, f"{len(loaded)} entries; listed twice in one group: "
                             f"{', '.join(sorted(twice)[:_SHOWN])}")
        return Check(label, OK, f"{len(loaded)} entries")

    return _guard(f"closed list {name}", run)


def _count_rows(path: Path) -> int:
    return len(langpack.read_tsv(path)[1])


def _check_provenance(root: Path) -> list[Check]:
    path = root / "provenance.json"
    if not path.is_file():
        return [Check("provenance.json", WARNING, "absent: derived tables should record their sources")]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        sources, outputs = data["sources"], data["outputs"]
    except (ValueError, KeyError, TypeError) as exc:
        return [Check("provenance.json", ERROR, f"not a provenance record ({exc})")]
    problems = []
    for key, source in sources.items():
        if not (isinstance(source, dict) and source.get("licence") and source.get("attribution")):
            problems.append(f"source {key!r} lacks a licence or attribution")
    for file, info in outputs.items():
        if not (root / file).is_file():
            problems.append(f"{file} is recorded but missing")
            continue
        unknown = [s for s in info.get("sources", ()) if s not in sources]
        if unknown:
            problems.append(f"{file}: unknown source(s) {', '.join(unknown)}")
        try:
            rows = _count_rows(root / file)
        except PackError as exc:
            problems.append(str(exc))
            continue
        if rows != info.get("rows_written"):
            problems.append(f"{file} has {rows} rows, provenance says {info.get('rows_written')} "
                            "(edited by hand? rebuild it)")
    if problems:
        return [Check("provenance.json", ERROR, "; ".join(problems))]
    return [Check("provenance.json", OK, f"{len(sources)} sources, {len(outputs)} tables, row counts agree")]


def _check_loads(root: Path) -> Check:
    def run() -> Check:
        # the files as they are now: the uncached loader, so no pack loaded earlier is reused
        pack = langpack._load_pack_cached.__wrapped__(str(root.resolve()))
        return Check("pack loads", OK, f"{pack.name} ({pack.language}): {len(pack.tables)} tables, "
                     f"{len(pack.kinship)} kinship terms, {len(pack.honorifics)} honorific forms")

    return _guard("pack loads", run)


def _manifest_rules(root: Path, value: Any) -> Path | None:
    """The rule pack a manifest names (``rules/es``): beside the pack's parent folder, as in the
    repository (``gazetteers/es`` -> ``rules/es``) and in the wheel's data folder."""
    if not value:
        return None
    for base in (root.parent.parent, root.parent, root):
        if (base / str(value)).is_dir():
            return base / str(value)
    return root.parent.parent / str(value)


def _check_rules(folder: Path) -> Check:
    from .rules import load_rules, read_manifest, run_examples
    from .rules.loader import check_unique_ids

    def run() -> Check:
        label = f"rules ({folder})"
        if not folder.is_dir():
            return Check(label, ERROR, "rule pack folder not found")
        rules = load_rules(folder)
        check_unique_ids(rules)
        if not rules:
            return Check(label, ERROR, "no rules")
        outcomes = run_examples(rules)
        bad = [o for o in outcomes if not o.passed]
        scheme = read_manifest(folder).get("scheme", "meddocan")
        detail = f"{len(rules)} rules ({scheme} labels), {len(outcomes)} examples"
        if bad:
            first = bad[0]
            return Check(label, ERROR, f"{detail}, {len(bad)} failed (first: rule {first.rule.id!r}, "
                         f"{first.example.text!r}); see crfdeid rules test {folder} -v")
        return Check(label, OK, f"{detail}, all pass")

    return _guard(f"rules ({folder})", run)
