"""Word sets derived from a language pack: computed once per process, and for a shipped pack
once per machine (``crfdeid.cache``).

Why: the completion steps each fold tens of thousands of pack entries into lookup sets when a
model loads — the given names, surnames, towns and professions, the given names borne by enough
people — 0.31 s of a 1.8 s load on a quiet machine, the same sets built by two steps and again in every
process (each worker of ``-j N``, each Spark executor). Here a set is built once per pack in a
process, and a shipped pack's is read back from the cache folder in milliseconds. The key of a
cached set is a hash of every file of the pack, of the source of the modules that compute it
(``modules``) and of the Unicode database that folds it: an edited pack or code makes a new
entry, never a stale one. A pack of one's own may list people of one's notes: its sets are
built in memory only.
"""

from __future__ import annotations

import hashlib
import unicodedata
import weakref
from collections.abc import Callable, Iterable
from functools import lru_cache
from types import ModuleType

from . import cache as disk_cache
from .langpack import LanguagePack

#: (id of the pack, name) -> (the pack, the set), both weakly: a set lives as long as a step holds
#: it (one only a load's building used would cost 4.5 MB in every process), and a pack's id
#: reused by another pack is told by its reference.
_SETS: dict[tuple[int, str], tuple[weakref.ref[LanguagePack], weakref.ref[frozenset[str]]]] = {}
#: id of a pack -> (the pack, weakly, a hash of its files).
_DIGESTS: dict[int, tuple[weakref.ref[LanguagePack], str]] = {}


def pack_set(pack: LanguagePack, name: str, build: Callable[[], Iterable[str]],
             modules: tuple[ModuleType, ...]) -> frozenset[str]:
    """The set ``build()`` computes from ``pack``, built once per process (per ``name``: it must
    say everything the set depends on besides the pack, "given|min=2"). A shipped pack's set is
    kept in the cache folder, keyed by the pack's files and the source of ``modules``."""
    found = _SETS.get((id(pack), name))
    if found is not None and found[0]() is pack and (alive := found[1]()) is not None:
        return alive
    if disk_cache.shipped(pack.path):
        key = disk_cache.entry_key(pack_digest(pack), _source_digest(modules),
                                   unicodedata.unidata_version, name)
        value = disk_cache.fetch("pack-set", key, lambda: frozenset(build()), _dump, _load)
    else:
        value = frozenset(build())
    _SETS[(id(pack), name)] = (weakref.ref(pack), weakref.ref(value))
    return value


def pack_digest(pack: LanguagePack) -> str:
    """A hash of every file of the pack's folder (names and bytes), once per process."""
    found = _DIGESTS.get(id(pack))
    if found is not None and found[0]() is pack:
        return found[1]
    digest = hashlib.sha256()
    for path in sorted(p for p in pack.path.rglob("*") if p.is_file()):
        data = path.read_bytes()
        name = path.relative_to(pack.path).as_posix().encode()
        digest.update(len(name).to_bytes(8, "little") + name + len(data).to_bytes(8, "little"))
        digest.update(data)
    value = digest.hexdigest()[:32]
    _DIGESTS[id(pack)] = (weakref.ref(pack), value)
    return value


@lru_cache(maxsize=16)
def _source_digest(modules: tuple[ModuleType, ...]) -> str:
    """``cache.source_digest`` of the modules, read once per process (a load asks for seven sets,
    most of them of ``span_form``, a 100 KB source)."""
    return disk_cache.source_digest(*modules)


def _dump(words: frozenset[str]) -> bytes:
    """The count, then one word per line, sorted (the same set, the same bytes): no pack entry
    holds a line break."""
    return "\n".join((str(len(words)), *sorted(words))).encode("utf-8")


def _load(payload: bytes) -> frozenset[str]:
    count, *words = payload.decode("utf-8").split("\n")
    if int(count) != len(words):
        raise ValueError(f"{len(words)} words, the entry says {count}")
    return frozenset(words)
