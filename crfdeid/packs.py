"""One choice of language pack for every command: ``--lang CODE``, ``--pack DIR`` or ``--lang none``.

A choice names the language pack (``gazetteers/<lang>/``, or any folder with a ``pack.yaml``)
and, through its manifest's ``rules:``, the rule pack that goes with it. ``none`` is the
language-neutral path: no gazetteers, no lemmatiser, and only the language-neutral rules
(``rules/none/``: e-mail, URL and IP addresses, numeric dates, international phone numbers;
digit groups as hints). ``train`` and ``cv`` record the choice in the
model; ``annotate`` and ``deidentify`` read it back from there (``model_choice``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import CrfdeidError
from .langpack import MANIFEST, LanguagePack, load_pack, pack_dir
from .resources import data_dir

#: The language code of the language-neutral path.
NO_PACK = "none"
DEFAULT_LANG = "es"


@dataclass(frozen=True)
class PackChoice:
    """A language pack (``folder``; None for ``none``) and the rule pack that goes with it."""

    lang: str
    folder: Path | None
    rules: str
    #: True when the pack was given as a folder (``--pack DIR``): the model records the path.
    custom: bool = False

    @property
    def pack(self) -> LanguagePack | None:
        return load_pack(self.folder) if self.folder is not None else None

    @property
    def name(self) -> str:
        """How a person names this choice in a message: ``es``, ``none`` or the folder."""
        return str(self.folder) if self.custom else self.lang

    def same_as(self, other: PackChoice) -> bool:
        return (self.lang, self.folder, self.rules) == (other.lang, other.folder, other.rules)


def _shipped_rules(name: str) -> bool:
    return "/" not in name and (data_dir("rules") / name).is_dir()


def rules_of(folder: Path, language: str, declared: str | None) -> str:
    """The rule pack a language pack names: its manifest's ``rules:`` (a folder beside the pack,
    or ``rules/<code>`` of the shipped rules), else the shipped rules of its language, else the
    language-neutral rules."""
    if declared:
        local = folder / declared
        if local.is_dir() or (local.suffix in (".yaml", ".yml") and local.is_file()):
            return str(local.resolve())
        name = Path(declared).name
        if _shipped_rules(name):
            return name
    return language if _shipped_rules(language) else NO_PACK


def choose_pack(lang: str | None = None, pack: str | Path | None = None, rules: str | None = None,
                default: str = DEFAULT_LANG) -> PackChoice:
    """The pack of ``--lang`` or ``--pack`` (not both; neither: ``default``); ``--rules``
    replaces the rule pack the language pack names."""
    if lang is not None and pack is not None:
        raise CrfdeidError("give --lang or --pack, not both",
                           hint="--lang names a shipped pack (es, none…), --pack a pack folder")
    if pack is not None:
        folder = Path(pack)
        if not (folder / MANIFEST).is_file():
            raise CrfdeidError(f"not a language pack: no {MANIFEST} in this folder", folder,
                               hint="a language pack is a folder like gazetteers/es/ (crfdeid pack show es)")
        loaded = load_pack(folder)
        rules_pack = rules_of(folder, loaded.language, loaded.rules)
        choice = PackChoice(loaded.language, folder.resolve(), rules_pack, custom=True)
    else:
        code = lang if lang is not None else default
        if code == NO_PACK:
            choice = PackChoice(NO_PACK, None, NO_PACK)
        else:
            try:
                folder = pack_dir(code)
            except CrfdeidError as exc:
                raise CrfdeidError(exc.message, hint=f"{exc.hint}; or --lang {NO_PACK} for no pack") from None
            loaded = load_pack(folder)
            choice = PackChoice(code, folder, rules_of(folder, loaded.language, loaded.rules))
    if rules is not None:
        choice = PackChoice(choice.lang, choice.folder, rules, choice.custom)
    return choice


def shipped_langs() -> list[str]:
    """The codes ``--lang`` accepts: every folder of gazetteers/ with a pack.yaml, and none."""
    root = data_dir("gazetteers")
    return [*sorted(p.name for p in root.iterdir() if (p / MANIFEST).is_file()), NO_PACK]


def model_choice(metadata: dict[str, Any]) -> PackChoice:
    """The pack and rules a model was trained with, from its metadata (older models: Spanish)."""
    language = str(metadata.get("language", DEFAULT_LANG))
    recorded = metadata.get("gazetteer") or {}
    rules = str((metadata.get("rules") or {}).get("pack") or language)
    path = recorded.get("path")
    if path:
        return PackChoice(language, Path(path), rules, custom=True)
    if language == NO_PACK:
        return PackChoice(NO_PACK, None, rules)
    return PackChoice(language, pack_dir(str(recorded.get("pack") or language)), rules)


def describe_choice(choice: PackChoice, pack: LanguagePack | None, fingerprint: str | None) -> dict[str, Any]:
    """What a model records about its language pack (under ``gazetteer``)."""
    return {
        "pack": choice.lang,
        "version": pack.version if pack is not None else None,
        "fingerprint": fingerprint,
        "path": str(choice.folder) if choice.custom else None,
    }
